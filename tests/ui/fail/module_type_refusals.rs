#[sarek::module]
mod m {
    use sarek::prelude::*;

    pub struct WithUsize {
        pub n: usize,
    }

    pub enum Numbered {
        A = 1,
        B = 2,
    }

    pub struct Generic<T> {
        pub x: T,
    }

    pub struct Empty {}

    #[repr(packed)]
    pub struct Packed {
        pub x: f32,
    }

    #[sarek::kernel]
    pub fn k(out: &mut [f32]) {
        out[0] = 1.0;
    }
}

fn main() {}
