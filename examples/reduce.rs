//! Sum of 16 million floats: a tree reduction in workgroup memory, then a second launch that
//! reduces the per-workgroup sums.
//!
//! Run it with `cargo run --release --example reduce`.

use std::time::Instant;

use sarek::prelude::*;

/// Each workgroup sums 256 elements of `x` (in a tree, in workgroup memory) into `sums`.
#[sarek::kernel]
pub fn block_sum(x: &[f32], sums: &mut [f32]) {
    let tile = shared::<[f32; 256]>();
    let t = thread_idx_x();
    let i = global_idx_x();
    tile[t] = if i < x.len() { x[i] } else { 0.0 };
    block_barrier();
    let mut stride = block_dim_x() / 2;
    while stride > 0 {
        if t < stride {
            tile[t] += tile[t + stride];
        }
        // Every thread reaches this barrier: the loop bounds are uniform.
        block_barrier();
        stride /= 2;
    }
    if t == 0 {
        sums[block_idx_x()] = tile[0];
    }
}

fn main() -> sarek::Result<()> {
    let n: usize = 1 << 24;
    let dev = Device::new()?;
    println!("adapter: {} ({:?})", dev.name(), dev.backend());
    let xs: Vec<f32> = (0..n).map(|i| ((i % 17) as f32) * 0.25).collect();
    let x = dev.upload(&xs)?;

    let start = Instant::now();
    let mut level = x;
    let mut len = n;
    while len > 1 {
        let groups = len.div_ceil(256);
        let mut sums = dev.zeros::<f32>(groups)?;
        block_sum.launch(&dev, Grid::cover(len), &level, &mut sums)?;
        level = sums;
        len = groups;
    }
    let total = level.read()?[0];
    let elapsed = start.elapsed();

    let expect: f64 = xs.iter().map(|&v| v as f64).sum();
    println!("sum of {n} floats: {total} (exact: {expect}) in {elapsed:?}");
    let relative = ((total as f64 - expect) / expect).abs();
    if relative > 1e-5 {
        eprintln!("relative error {relative} is too large");
        std::process::exit(1);
    }
    Ok(())
}
