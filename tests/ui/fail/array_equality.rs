#[sarek::module]
mod m {
    use sarek::prelude::*;

    #[derive(PartialEq)]
    pub struct P {
        pub x: f32,
        pub y: f32,
    }

    #[sarek::kernel]
    pub fn arrays(out: &mut [f32]) {
        let a = [1.0f32; 4];
        let b = [0.0f32, 1.0, 2.0, 3.0];
        if a == b {
            out[0] = 1.0;
        }
    }

    #[sarek::kernel]
    pub fn structs(out: &mut [f32]) {
        let p = P { x: 1.0, y: 2.0 };
        let q = P { x: 1.0, y: 3.0 };
        if p != q {
            out[0] = 1.0;
        }
    }
}

fn main() {}
