#[sarek::module]
mod m {
    use sarek::prelude::*;

    #[sarek::kernel]
    pub fn k(n: usize, out: &mut [f32]) {
        let a = [0.0f32; n];
        out[0] = a[0];
    }
}

fn main() {}
