#[sarek::kernel]
fn k(out: &mut [i32]) {
    // A tuple of values can be taken apart; a tuple cannot be a value.
    let (a, b) = (1, 2);
    let t = (a, b);
    let (c, d) = t;
}

#[sarek::module]
mod m {
    use sarek::prelude::*;

    pub struct P(f32, f32);

    #[sarek::kernel]
    pub fn k(out: &mut [f32]) {
        let p = P(1.0, 2.0);
        out[0] = p.0;
    }
}

fn main() {}
