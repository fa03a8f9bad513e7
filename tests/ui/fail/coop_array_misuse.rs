use sarek::coop::{A, B, C};
use sarek::prelude::*;

// Arrays of cooperative matrices: one dimension, `zeros()` to start, constant indices in
// bounds, an element named where a matrix stands.
#[sarek::kernel(workgroup_size = [32])]
fn shapes(x: &[f32], z: &mut [f32]) {
    let grid = [[CoopMatrix::<f32, 16, C>::zeros(); 2]; 2];
    let loaded = [CoopMatrix::<f32, 16, A>::load_rows(x, 0, 16); 2];
    let mut acc = [CoopMatrix::<f32, 16, C>::zeros(); 2];
    let a = CoopMatrix::<f32, 16, A>::load_rows(x, 0, 16);
    let b = CoopMatrix::<f32, 16, B>::load_rows(x, 0, 16);
    acc[2] = a.multiply_add(b, acc[1]);
    acc[0] = a.multiply_add(b, acc);
    a[0].store_rows(z, 0, 16);
}

// The element must be the same on every thread: a matrix belongs to the whole subgroup.
#[sarek::kernel(workgroup_size = [32])]
fn varying(x: &[f32], z: &mut [f32]) {
    let mut acc = [CoopMatrix::<f32, 16, C>::zeros(); 2];
    let a = CoopMatrix::<f32, 16, A>::load_rows(x, 0, 16);
    let b = CoopMatrix::<f32, 16, B>::load_rows(x, 0, 16);
    acc[thread_idx_x() % 2] = a.multiply_add(b, acc[0]);
    acc[1].store_rows(z, 0, 16);
}

fn main() {}
