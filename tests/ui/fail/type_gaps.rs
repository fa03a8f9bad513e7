//! Three type errors rustc reports that used to reach naga as "a bug in
//! Sarek": an empty `match` on a non-empty type in a helper returning a value, `!` on an
//! unsuffixed float, and `+=` of a vector into a scalar.

#[sarek::module]
mod m {
    use sarek::prelude::*;

    fn pick(x: u32) -> f32 {
        match x {}
    }

    #[sarek::kernel]
    pub fn empty_match(xs: &mut [f32]) {
        let i = global_thread_id();
        if i < xs.len() {
            xs[i] = pick(i as u32);
        }
    }

    #[sarek::kernel]
    pub fn not_float(xs: &mut [f32]) {
        let i = global_thread_id();
        if i < xs.len() {
            let y = !1.5;
            xs[i] = y;
        }
    }

    #[sarek::kernel]
    pub fn add_vector_to_scalar(xs: &mut [f32]) {
        let i = global_thread_id();
        if i < xs.len() {
            let mut acc: f32 = 0.0;
            let v = Vec2::new(1.0, 2.0);
            acc += v;
            xs[i] = acc;
        }
    }
}

fn main() {}
