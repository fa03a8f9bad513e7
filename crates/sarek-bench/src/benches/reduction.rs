//! The sums: a first stage in which many workgroups reduce the input to one partial sum each,
//! and a second in which one workgroup adds the partial sums. Both benchmarks share
//! [`two_stage_sum`] and differ in how the first stage loads (four floats or one, in a
//! grid-stride loop) or, for `tree_sum`, in taking one float per thread.

use sarek::{Batch, Buffer, Grid, Vec4};

use super::{pow2, Bench, Result};
use crate::kernels;
use crate::measure::{Measured, Work};
use crate::raw::{read, storage};

/// The second stage of both sums, and the first of `sum_f32`.
const SUM_STAGE_WGSL: &str = include_str!("../wgsl/sum_stage.wgsl");

/// The sum of `n` floats, read four per load.
pub fn sum(b: &Bench) -> Result<Vec<Measured>> {
    let xs = input(b.n);
    let x = b.ctx.dev.upload(bytemuck::cast_slice::<f32, Vec4>(&xs))?;
    // 1024 workgroups keep the first stage at full bandwidth and halve the second's work.
    let groups = if b.quick { 64 } else { 1024 };
    let measured = two_stage_sum(
        b,
        &xs,
        groups,
        include_str!("../wgsl/sum4_stage.wgsl"),
        |batch, grid, partial| kernels::sum4_stage.enqueue(batch, grid, &x, partial),
    )?;
    Ok(vec![measured])
}

/// The sum of `n` floats, read one per load.
pub fn sum_f32(b: &Bench) -> Result<Vec<Measured>> {
    let xs = input(b.n);
    let x = b.ctx.dev.upload(&xs)?;
    let groups = if b.quick { 64 } else { 2048 };
    let measured = two_stage_sum(b, &xs, groups, SUM_STAGE_WGSL, |batch, grid, partial| {
        kernels::sum_stage.enqueue(batch, grid, &x, partial)
    })?;
    Ok(vec![measured])
}

/// The textbook tree reduction (one element per thread, [`kernels::tree_sum`]) as the first
/// stage, on one workgroup per 256 floats; the partial sums are added by the grid-stride
/// stage on one workgroup.
pub fn tree_sum(b: &Bench) -> Result<Vec<Measured>> {
    let xs = input(b.n);
    let x = b.ctx.dev.upload(&xs)?;
    let groups = b.n.div_ceil(256);
    let measured = two_stage_sum(
        b,
        &xs,
        groups,
        include_str!("../wgsl/tree_sum.wgsl"),
        |batch, grid, partial| kernels::tree_sum.enqueue(batch, grid, &x, partial),
    )?;
    Ok(vec![measured])
}

/// The floats summed: small multiples of 1/4, so that the exact sum is known on the host.
pub fn input(n: usize) -> Vec<f32> {
    (0..n).map(|i| ((i % 17) as f32) * 0.25).collect()
}

/// Checks and times a sum of `xs` in two stages: `first_stage` enqueues Sarek's first stage
/// (over its own upload of `xs`) on `groups` workgroups into `partial`, and `first_stage_wgsl`
/// is its twin's shader (bindings: input, partial sums; entry point `main`). Both sides run
/// both stages in one submission and one pass: a `Batch` on Sarek's side, one compute pass
/// on the twin's.
pub(super) fn two_stage_sum(
    b: &Bench,
    xs: &[f32],
    groups: usize,
    first_stage_wgsl: &str,
    first_stage: impl Fn(&mut Batch, Grid, &mut Buffer<f32>) -> sarek::Result<()>,
) -> Result<Measured> {
    let ctx = b.ctx;
    let dev = &ctx.dev;
    let n = xs.len();
    let mut partial = dev.zeros::<f32>(groups)?;
    let mut total = dev.zeros::<f32>(1)?;
    let launch = |partial: &mut Buffer<f32>, total: &mut Buffer<f32>| {
        let mut batch = dev.batch();
        first_stage(&mut batch, Grid::groups([groups as u32, 1, 1]), partial).expect("enqueue");
        kernels::sum_stage
            .enqueue(&mut batch, Grid::groups([1, 1, 1]), partial, total)
            .expect("enqueue");
        vec![batch.submit().expect("submit")]
    };
    // The first launch is a batch, not one `Launch`: timed here rather than by
    // `first_launch`, up to its result's arrival.
    let start = std::time::Instant::now();
    launch(&mut partial, &mut total);
    let got = total.read()?[0];
    let first = start.elapsed();
    let rx = storage(ctx, bytemuck::cast_slice(xs));
    let rp = storage(ctx, &vec![0u8; groups * 4]);
    let rt = storage(ctx, &[0u8; 4]);
    let p1 = ctx.pipeline(first_stage_wgsl);
    // Where both stages run the same shader (`sum_f32`), the twin has one pipeline for both,
    // as a wgpu programmer would write it.
    let own_p2;
    let p2 = if first_stage_wgsl == SUM_STAGE_WGSL {
        &p1
    } else {
        own_p2 = ctx.pipeline(SUM_STAGE_WGSL);
        &own_p2
    };
    let bg1 = ctx.bind(&p1, &[&rx, &rp]);
    let bg2 = ctx.bind(p2, &[&rp, &rt]);
    let passes = [
        (&p1, &bg1, ctx.dispatch_1d(groups as u32)),
        (p2, &bg2, [1, 1, 1]),
    ];
    ctx.time_passes(&passes);
    let raw: Vec<f32> = read(ctx, &rt);
    let exact: f64 = xs.iter().map(|&v| f64::from(v)).sum();
    let verified = ((f64::from(got) - exact) / exact).abs() < 1e-4 && got == raw[0];
    let (sarek, wgsl) = b
        .timer
        .compare_one(|| launch(&mut partial, &mut total), &passes);
    Ok(Measured {
        size: pow2(n),
        work: Work::Bytes((n * 4) as f64),
        sarek,
        wgsl,
        wgsl_vec4: None,
        verified,
        first_launch: first,
    })
}
