//! The sum with subgroup reductions (wgpu feature `SUBGROUP`): the first stage of `sum`
//! (four floats per load) adds each subgroup's values with `subgroup_add` instead of a tree
//! in workgroup memory; the second stage is `sum`'s. The twin does the same in hand-written
//! WGSL. Skipped, with a message, on a device without subgroups.

use std::sync::atomic::{AtomicU32, Ordering};

use sarek::Vec4;

use super::{Bench, Result};
use crate::measure::Measured;

/// First stage: a grid-stride loop per thread, a subgroup sum, one slot per subgroup (taken
/// from a counter: nothing assumed about which invocations share a subgroup), then every
/// subgroup adds the slots and thread 0 writes the workgroup's sum.
#[sarek::kernel(workgroup_size = [256])]
pub fn sum4_subgroup_stage(x: &[Vec4], partial: &mut [f32]) {
    let slots = shared::<[f32; 64]>();
    let taken = shared::<[AtomicU32; 1]>();
    let stride = grid_dim_x() * block_dim_x();
    let mut i = global_idx_x();
    let mut a = Vec4::ZERO;
    let mut b = Vec4::ZERO;
    while i + stride < x.len() {
        a += x[i];
        b += x[i + stride];
        i += 2 * stride;
    }
    if i < x.len() {
        a += x[i];
    }
    let s = a + b;
    let total = subgroup_add((s.x + s.y) + (s.z + s.w));
    if subgroup_elect() {
        let slot = taken[0].fetch_add(1, Ordering::Relaxed);
        slots[slot as usize] = total;
    }
    block_barrier();
    let count = taken[0].load(Ordering::Relaxed);
    let size = subgroup_size();
    let mut k = subgroup_invocation_id();
    let mut part = 0.0f32;
    while k < count {
        part += slots[k as usize];
        k += size;
    }
    let sum = subgroup_add(part);
    if thread_idx_x() == 0 {
        partial[block_idx_x()] = sum;
    }
}

/// The sum of `n` floats, read four per load, reduced with subgroup operations.
pub fn sum_subgroup(b: &Bench) -> Result<Vec<Measured>> {
    let dev = &b.ctx.dev;
    if !dev.features().contains(sarek::wgpu::Features::SUBGROUP) {
        eprintln!("sum_subgroup: skipped, {} has no subgroups", dev.name());
        return Ok(Vec::new());
    }
    let xs = super::reduction::input(b.n);
    let x = dev.upload(bytemuck::cast_slice::<f32, Vec4>(&xs))?;
    let groups = if b.quick { 64 } else { 1024 };
    let measured = super::reduction::two_stage_sum(
        b,
        &xs,
        groups,
        include_str!("../wgsl/sum4_subgroup_stage.wgsl"),
        |batch, grid, partial| sum4_subgroup_stage.enqueue(batch, grid, &x, partial),
    )?;
    Ok(vec![measured])
}
