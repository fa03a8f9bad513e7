use sarek::coop::{A, B, C};
use sarek::prelude::*;

// A cooperative-matrix operation must be reached by every thread of the workgroup together.
#[sarek::kernel(workgroup_size = [32])]
fn divergent(x: &[f32], z: &mut [f32]) {
    let mut acc = CoopMatrix::<f32, 16, C>::zeros();
    if x[thread_idx_x()] > 0.0 {
        acc = CoopMatrix::<f32, 16, C>::load_rows(x, 0, 16);
    }
    acc.store_rows(z, 0, 16);
}

// WGSL has 8×8 and 16×16 matrices of f16 or f32.
#[sarek::kernel(workgroup_size = [32])]
fn shapes(x: &[f32]) {
    let a = CoopMatrix::<f32, 12, A>::load_rows(x, 0, 12);
    let b = CoopMatrix::<u32, 16, B>::zeros();
}

// Roles, element types and access are checked.
#[sarek::kernel(workgroup_size = [32])]
fn operands(x: &[f32], y: &[u32], z: &[f32]) {
    let a = CoopMatrix::<f32, 16, A>::load_rows(y, 0, 16);
    let b = CoopMatrix::<f32, 16, B>::load_rows(x, 0, 16);
    let c = CoopMatrix::<f32, 16, C>::zeros();
    let wrong = b.multiply_add(b, c);
    c.store_rows(z, 0, 16);
}

fn main() {}
