#[sarek::module]
mod m {
    use sarek::prelude::*;

    pub enum Inner {
        A,
        B,
    }

    pub enum Outer {
        A(Inner),
        B,
    }

    #[sarek::kernel]
    pub fn range(out: &mut [u32]) {
        let i = global_thread_id() as u32;
        out[0] = match i {
            0..=3 => 1,
            _ => 2,
        };
    }

    #[sarek::kernel]
    pub fn nested(xs: &[Outer], out: &mut [u32]) {
        let i = global_thread_id();
        out[i] = match xs[i] {
            Outer::A(Inner::B) => 1,
            Outer::A(_) => 2,
            Outer::B => 3,
        };
    }
}

fn main() {}
