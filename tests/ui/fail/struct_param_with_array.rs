#[sarek::module]
mod m {
    use sarek::prelude::*;

    pub struct Weights {
        pub w: [f32; 4],
        pub bias: f32,
    }

    #[sarek::kernel]
    pub fn k(weights: Weights, out: &mut [f32]) {
        let i = global_thread_id();
        out[i] = weights.w[i % 4] + weights.bias;
    }
}

fn main() {}
