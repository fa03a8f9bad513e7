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

/// The sum in one pass: [`sum4_subgroup_stage`], then each workgroup adds its
/// sum to `total[0]` with a float atomic (`SHADER_FLOAT32_ATOMIC`), so no second dispatch.
#[sarek::kernel(workgroup_size = [256])]
pub fn sum4_subgroup_atomic(x: &[Vec4], total: &[sarek::gpu::AtomicF32]) {
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
    let part = subgroup_add((s.x + s.y) + (s.z + s.w));
    if subgroup_elect() {
        let slot = taken[0].fetch_add(1, Ordering::Relaxed);
        slots[slot as usize] = part;
    }
    block_barrier();
    let count = taken[0].load(Ordering::Relaxed);
    let size = subgroup_size();
    let mut k = subgroup_invocation_id();
    let mut p = 0.0f32;
    while k < count {
        p += slots[k as usize];
        k += size;
    }
    let sum = subgroup_add(p);
    if thread_idx_x() == 0 {
        total[0].fetch_add(sum, Ordering::Relaxed);
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

/// The sum of `n` floats in one pass: [`sum4_subgroup_stage`], then one float atomic add per
/// workgroup (`sum4_subgroup_atomic`, needs `SHADER_FLOAT32_ATOMIC` too),
/// so that no second dispatch waits for the first. Both sides zero the total with a buffer
/// write before each run. The order of the workgroups' additions is the device's: checked
/// against the exact sum within 1e-4 rather than bit for bit.
pub fn sum_atomic(b: &Bench) -> Result<Vec<Measured>> {
    use sarek::wgpu::Features;
    let ctx = b.ctx;
    let dev = &ctx.dev;
    if !dev
        .features()
        .contains(Features::SUBGROUP | Features::SHADER_FLOAT32_ATOMIC)
    {
        eprintln!(
            "sum_atomic: skipped, {} lacks subgroups or float atomics",
            dev.name()
        );
        return Ok(Vec::new());
    }
    let n = b.n;
    let xs = super::reduction::input(n);
    let exact: f64 = xs.iter().map(|&v| f64::from(v)).sum();
    let x = dev.upload(bytemuck::cast_slice::<f32, Vec4>(&xs))?;
    let groups: u32 = if b.quick { 64 } else { 2112 };
    let mut total = dev.zeros::<f32>(1)?;
    let launch = |total: &mut sarek::Buffer<f32>| {
        total.write(&[0.0]).expect("write");
        sum4_subgroup_atomic
            .launch(dev, sarek::Grid::groups([groups, 1, 1]), &x, total)
            .expect("launch")
    };
    let first = crate::measure::first_launch(|| launch(&mut total));
    let got = f64::from(total.read()?[0]);
    let rx = crate::raw::storage(ctx, bytemuck::cast_slice(&xs));
    let rt = crate::raw::storage(ctx, &[0u8; 4]);
    let p = ctx.pipeline(include_str!("../wgsl/sum4_subgroup_atomic.wgsl"));
    let bg = ctx.bind(&p, &[&rx, &rt]);
    let d = [groups, 1, 1];
    ctx.time_passes(&[(&p, &bg, d)]);
    let raw: Vec<f32> = crate::raw::read(ctx, &rt);
    let close = |v: f64| ((v - exact) / exact).abs() < 1e-4;
    let verified = close(got) && close(f64::from(raw[0]));
    let (sarek, wgsl) = b
        .timer
        .compare_one(|| vec![launch(&mut total)], &[(&p, &bg, d)]);
    Ok(vec![Measured {
        size: format!("2^{}", n.trailing_zeros()),
        work: crate::measure::Work::Bytes((n * 4) as f64),
        sarek,
        wgsl,
        wgsl_vec4: None,
        verified,
        first_launch: first,
    }])
}
