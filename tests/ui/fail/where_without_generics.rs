//! A `where` clause without generic parameters is reported at the clause,
//! not at the macro call.

#[sarek::module]
mod m {
    use sarek::prelude::*;

    pub struct P
    where
        u32: Copy,
    {
        pub x: f32,
    }

    fn twice(v: f32) -> f32
    where
        f32: Copy,
    {
        v * 2.0
    }

    #[sarek::kernel]
    pub fn k(ps: &[P], out: &mut [f32]) {
        let i = global_thread_id();
        if i < ps.len() {
            out[i] = twice(ps[i].x);
        }
    }
}

fn main() {}
