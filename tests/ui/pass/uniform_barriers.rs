//! Barriers under control flow that every invocation of a workgroup takes the same way.
use std::sync::atomic::{AtomicU32, Ordering};

use sarek::prelude::*;

#[sarek::kernel]
fn uniform(n: u32, flag: bool, x: &[f32], out: &mut [f32], hits: &[AtomicU32]) {
    const N: usize = 256;
    let tile = shared::<[f32; N]>();
    let t = thread_idx_x();
    tile[t] = x[global_idx_x()];
    if true {
        block_barrier();
    }
    if n > 3 && flag {
        block_barrier();
    }
    if block_idx_x() == 0 || grid_dim_x() > 2 || block_dim_x() == 256 {
        block_barrier();
    }
    // The tree loop of a reduction: bounds from the workgroup size.
    let mut stride = block_dim_x() / 2;
    while stride > 0 {
        if t < stride {
            tile[t] += tile[t + stride];
        }
        block_barrier();
        stride /= 2;
    }
    for _round in 0..n {
        storage_barrier();
    }
    let mut k = 0;
    loop {
        block_barrier();
        k += 1;
        if k == 4 {
            break;
        }
    }
    // Divergent code after the last barrier is fine.
    if t == 0 {
        out[block_idx_x()] = tile[0];
        hits[0].fetch_add(1, Ordering::Relaxed);
        return;
    }
}

fn main() {
    assert_eq!(uniform::ABI.workgroup_memory, 1024);
}
