//! Variants of the subgroup sum's first stage (`benches::subgroup`), measured by
//! `--experiments --only x_sum2`: more loads in flight per thread, and grids that fill every
//! multiprocessor evenly.

use std::sync::atomic::{AtomicU32, Ordering};

use sarek::gpu::AtomicF32;
use sarek::{Grid, Vec4};

use crate::benches::{Bench, Result};

/// `benches::subgroup::sum4_subgroup_stage` with four accumulators: four independent `Vec4`
/// loads per trip of the grid-stride loop.
#[sarek::kernel(workgroup_size = [256])]
pub fn sum4x4_subgroup_stage(x: &[Vec4], partial: &mut [f32]) {
    let slots = shared::<[f32; 64]>();
    let taken = shared::<[AtomicU32; 1]>();
    let stride = grid_dim_x() * block_dim_x();
    let mut i = global_idx_x();
    let mut a = Vec4::ZERO;
    let mut b = Vec4::ZERO;
    let mut c = Vec4::ZERO;
    let mut d = Vec4::ZERO;
    while i + 3 * stride < x.len() {
        a += x[i];
        b += x[i + stride];
        c += x[i + 2 * stride];
        d += x[i + 3 * stride];
        i += 4 * stride;
    }
    while i < x.len() {
        a += x[i];
        i += stride;
    }
    let s = (a + b) + (c + d);
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

/// The sum in one pass: `benches::subgroup::sum4_subgroup_stage`, then each workgroup adds its
/// sum to `total[0]` with a float atomic (`SHADER_FLOAT32_ATOMIC`), so no second dispatch.
#[sarek::kernel(workgroup_size = [256])]
pub fn sum4_subgroup_atomic(x: &[Vec4], total: &[AtomicF32]) {
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

/// Times both first stages at several grid sizes, each followed by the suite's second stage.
pub fn sum2(b: &Bench) -> Result<()> {
    let dev = &b.ctx.dev;
    if !dev.features().contains(sarek::wgpu::Features::SUBGROUP) {
        return Ok(());
    }
    let xs = crate::benches::reduction_input(b.n);
    let exact: f64 = xs.iter().map(|&v| f64::from(v)).sum();
    let x = dev.upload(bytemuck::cast_slice::<f32, Vec4>(&xs))?;
    let mut total = dev.zeros::<f32>(1)?;
    for four in [false, true] {
        for groups in [1024u32, 1056, 2112, 4224] {
            let groups = if b.quick { groups / 16 } else { groups };
            let mut partial = dev.zeros::<f32>(groups as usize)?;
            let go = |partial: &mut sarek::Buffer<f32>, total: &mut sarek::Buffer<f32>| {
                let mut batch = dev.batch();
                let g = Grid::groups([groups, 1, 1]);
                if four {
                    sum4x4_subgroup_stage
                        .enqueue(&mut batch, g, &x, partial)
                        .unwrap();
                } else {
                    crate::benches::sum4_subgroup_stage
                        .enqueue(&mut batch, g, &x, partial)
                        .unwrap();
                }
                crate::kernels::sum_stage
                    .enqueue(&mut batch, Grid::groups([1, 1, 1]), partial, total)
                    .unwrap();
                vec![batch.submit().expect("submit")]
            };
            go(&mut partial, &mut total);
            let got = f64::from(total.read()?[0]);
            let ok = ((got - exact) / exact).abs() < 1e-4;
            let t = b.timer.compare(|| go(&mut partial, &mut total), &[]).0;
            println!(
                "experiment: sum2 {} accumulators, {groups:>5} groups {:>9.1} µs  {:>8.1} GB/s  checked {ok}",
                if four { 4 } else { 2 },
                t.as_secs_f64() * 1e6,
                (b.n * 4) as f64 / t.as_secs_f64() / 1e9
            );
        }
    }
    if dev
        .features()
        .contains(sarek::wgpu::Features::SHADER_FLOAT32_ATOMIC)
    {
        for groups in [1024u32, 1056, 2112] {
            let groups = if b.quick { groups / 16 } else { groups };
            let go = |total: &mut sarek::Buffer<f32>| {
                total.write(&[0.0]).unwrap();
                vec![sum4_subgroup_atomic
                    .launch(dev, Grid::groups([groups, 1, 1]), &x, total)
                    .unwrap()]
            };
            go(&mut total);
            let got = f64::from(total.read()?[0]);
            let ok = ((got - exact) / exact).abs() < 1e-4;
            let t = b.timer.compare(|| go(&mut total), &[]).0;
            println!(
                "experiment: sum2 one pass, float atomic, {groups:>5} groups {:>9.1} µs  {:>8.1} GB/s  checked {ok}",
                t.as_secs_f64() * 1e6,
                (b.n * 4) as f64 / t.as_secs_f64() / 1e9
            );
        }
    }
    Ok(())
}
