//! Inputs that were once refused, or reported as a bug in Sarek, though valid.
use sarek::coop::C;

// 99 constant subtractions: within the nesting limit, so within the WGSL compiler's.
#[sarek::kernel(workgroup_size = [64])]
fn long_chain(y: &mut [f32]) {
    let i = global_thread_id();
    if i < y.len() {
        y[i] = 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5 - 1.5;
    }
}

// A literal offset past `i32`: a run-time value for the WGSL compiler (clamped like any
// offset out of bounds).
#[sarek::kernel(workgroup_size = [32])]
fn far_load(x: &[f32], y: &mut [f32]) {
    let a = CoopMatrix::<f32, 16, C>::load_rows(x, 0xFFFF_FFFF, 16);
    a.store_rows(y, 0, 16);
}

// A binding named like its kernel, which becomes a unit struct: still a binding.
#[sarek::kernel(workgroup_size = [64])]
fn k(x: &[f32], y: &mut [f32], n: u32) {
    for k in 0..n {
        y[k as usize] = x[k as usize];
    }
}

#[sarek::module]
mod named {

    fn copy(x: &[f32], y: &mut [f32], scale: f32) {
        let scale = scale * 2.0;
        for scale_k in 0..4 {
            y[scale_k] = x[scale_k] * scale;
        }
    }

    // A parameter, a `let` and a helper's bindings named like the kernel.
    #[sarek::kernel(workgroup_size = [64])]
    pub fn scale(x: &[f32], y: &mut [f32], scale: f32) {
        copy(x, y, scale);
        let scale = scale + 1.0;
        y[0] = scale;
    }
}

fn main() {
    let _ = (long_chain, far_load, k, named::scale);
    let _ = k::body;
}
