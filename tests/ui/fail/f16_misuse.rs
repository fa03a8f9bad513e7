// `f16` is `half::f16` on the host: no literal suffix on stable Rust, no `as` casts; and an
// array of halves cannot sit in the uniform block (WGSL wants a 16-byte element stride there).
#[sarek::module]
mod m {
    use sarek::f16;
    use sarek::prelude::*;

    pub struct Halves {
        pub w: [f16; 8],
    }

    #[sarek::kernel]
    pub fn by_value(h: Halves, out: &mut [f16]) {
        let i = global_thread_id();
        out[i] = h.w[i % 8];
    }

    #[sarek::kernel]
    pub fn suffix(out: &mut [f16]) {
        out[0] = 1.5f16;
    }

    #[sarek::kernel]
    pub fn casts(x: &[f16], out: &mut [f32], back: &mut [f16]) {
        let i = global_thread_id();
        out[i] = x[i] as f32;
        back[i] = out[i] as f16;
    }
}

fn main() {}
