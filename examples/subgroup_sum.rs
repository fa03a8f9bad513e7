//! Sum of 16 million floats with subgroup reductions: each subgroup adds its lanes' values in
//! registers (`subgroup_add`), one lane per subgroup publishes the subgroup's sum, and one
//! subgroup adds those; a second launch adds the workgroups' sums the same way.
//!
//! The kernel needs the wgpu feature `SUBGROUP` (listed in `block_sum::ABI.features`). It
//! assumes nothing about the subgroup size (8 on lavapipe, 32 on NVIDIA, 4 to 128 in
//! WebGPU's rules) nor about which invocations share a subgroup: each subgroup takes a slot
//! from a workgroup counter. On a GPU without subgroups the launch fails with
//! `Error::MissingFeature`, and this example falls back to the CPU backend, which emulates
//! them.
//!
//! Run it with `cargo run --release --example subgroup_sum`.

use std::sync::atomic::{AtomicU32, Ordering};

use sarek::prelude::*;

/// Each workgroup of 256 sums its grid-strided share of `x` into `sums[block_idx_x()]`.
#[sarek::kernel(workgroup_size = [256])]
pub fn block_sum(x: &[f32], sums: &mut [f32]) {
    // One slot per subgroup: at most 256 / 4 subgroups (WebGPU's smallest size is 4).
    let slots = shared::<[f32; 64]>();
    let taken = shared::<[AtomicU32; 1]>();
    let t = thread_idx_x();
    let stride = grid_dim_x() * block_dim_x();
    let mut i = global_idx_x();
    let mut acc = 0.0f32;
    while i < x.len() {
        acc += x[i];
        i += stride;
    }
    // Every invocation reaches the subgroup operations together (the loop above has ended
    // for all of them), as WGSL requires.
    let subgroup_total = subgroup_add(acc);
    if subgroup_elect() {
        let slot = taken[0].fetch_add(1, Ordering::Relaxed);
        slots[slot as usize] = subgroup_total;
    }
    block_barrier();
    let count = taken[0].load(Ordering::Relaxed);
    // Every subgroup adds the slots (lane k takes k, k + size, ..); thread 0 keeps the result.
    let size = subgroup_size();
    let mut k = subgroup_invocation_id();
    let mut part = 0.0f32;
    while k < count {
        part += slots[k as usize];
        k += size;
    }
    let total = subgroup_add(part);
    if t == 0 {
        sums[block_idx_x()] = total;
    }
}

/// Sums `xs` on `dev`: one launch of `groups` workgroups, then one of a single workgroup.
fn sum(dev: &Device, xs: &Buffer<f32>, groups: u32) -> sarek::Result<f32> {
    let mut partial = dev.zeros::<f32>(groups as usize)?;
    let mut total = dev.zeros::<f32>(1)?;
    block_sum.launch(dev, Grid::groups([groups, 1, 1]), xs, &mut partial)?;
    block_sum.launch(dev, Grid::groups([1, 1, 1]), &partial, &mut total)?;
    Ok(total.read()?[0])
}

fn main() -> sarek::Result<()> {
    let n: usize = 1 << 24;
    let xs: Vec<f32> = (0..n).map(|i| ((i % 17) as f32) * 0.25).collect();
    let exact: f64 = xs.iter().map(|&v| f64::from(v)).sum();
    println!("`block_sum` needs {:?}", block_sum::ABI.features);

    let mut dev = Device::new()?;
    println!("device: {}", dev.name());
    let start = std::time::Instant::now();
    let total = match sum(&dev, &dev.upload(&xs)?, 1024) {
        Err(e @ sarek::Error::MissingFeature { .. }) => {
            println!("{e}\nfalling back to the CPU backend, which emulates subgroups");
            dev = Device::cpu();
            sum(&dev, &dev.upload(&xs)?, 1024)?
        }
        other => other?,
    };
    println!(
        "sum of {n} floats on {}: {total} (exact: {exact}) in {:?}",
        dev.name(),
        start.elapsed()
    );
    let relative = ((f64::from(total) - exact) / exact).abs();
    if relative > 1e-5 {
        eprintln!("relative error {relative} is too large");
        std::process::exit(1);
    }
    Ok(())
}
