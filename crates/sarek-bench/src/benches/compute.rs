//! Compute-bound kernels, in GFLOP/s: the Mandelbrot set and an n-body step.

use sarek::{Buffer, Grid};

use super::{random_u32, Bench, Result};
use crate::kernels;
use crate::measure::{first_launch, Measured, Work};
use crate::raw::{read, storage};

/// Escape times of the Mandelbrot set on a w×h grid.
pub fn mandelbrot(b: &Bench) -> Result<Vec<Measured>> {
    let ctx = b.ctx;
    let dev = &ctx.dev;
    let (w, h, it) = if b.quick {
        (64usize, 48usize, 64u32)
    } else {
        (4096, 4096, 256)
    };
    let mut out = dev.zeros::<u32>(w * h)?;
    let launch = |out: &mut Buffer<u32>| {
        kernels::mandelbrot
            .launch(dev, Grid::cover_2d(w, h), w, h, it, out)
            .expect("launch")
    };
    let first = first_launch(|| launch(&mut out));
    let got = out.read()?;
    let ro = storage(ctx, &vec![0u8; w * h * 4]);
    let params = ctx.uniform(bytemuck::cast_slice(&[w as u32, h as u32, it]));
    let p = ctx.pipeline(include_str!("../wgsl/mandelbrot.wgsl"));
    let bg = ctx.bind(&p, &[&ro, &params]);
    let d = [w.div_ceil(16) as u32, h.div_ceil(16) as u32, 1];
    ctx.time_passes(&[(&p, &bg, d)]);
    let raw: Vec<u32> = read(ctx, &ro);
    // Near the set's boundary one rounding can change an escape time, so up to one point in
    // a thousand may differ; the image must contain points inside the set and points that
    // escape at once.
    let differ = got.iter().zip(&raw).filter(|(a, b)| a != b).count();
    let verified = differ * 1000 <= w * h && got.contains(&it) && got.iter().any(|&v| v < 3);
    let (sarek, wgsl) = b
        .timer
        .compare_one(|| vec![launch(&mut out)], &[(&p, &bg, d)]);
    let iterations: f64 = got.iter().map(|&v| f64::from(v)).sum();
    Ok(vec![Measured {
        size: format!("{w}×{h}"),
        // About 7 floating-point operations per iteration.
        work: Work::Flops(iterations * 7.0),
        sarek,
        wgsl,
        wgsl_vec4: None,
        verified,
        first_launch: first,
    }])
}

/// One step of an n-body simulation: every body's acceleration from all others.
pub fn nbody(b: &Bench) -> Result<Vec<Measured>> {
    let ctx = b.ctx;
    let dev = &ctx.dev;
    let bodies: usize = if b.quick { 300 } else { 32768 };
    let r = random_u32(9, bodies * 4);
    // x, y, z in [-10, 10) and a mass in 1..=10 per body.
    let pos: Vec<f32> = r
        .iter()
        .enumerate()
        .map(|(i, v)| {
            if i % 4 == 3 {
                1.0 + (v % 10) as f32
            } else {
                (v % 2000) as f32 / 100.0 - 10.0
            }
        })
        .collect();
    let pb = dev.upload(&pos)?;
    let mut acc = dev.zeros::<f32>(bodies * 4)?;
    let launch = |acc: &mut Buffer<f32>| {
        kernels::nbody
            .launch(dev, Grid::cover(bodies), &pb, acc)
            .expect("launch")
    };
    let first = first_launch(|| launch(&mut acc));
    let got = acc.read()?;
    let rp = storage(ctx, bytemuck::cast_slice(&pos));
    let ra = storage(ctx, &vec![0u8; bodies * 16]);
    let p = ctx.pipeline(include_str!("../wgsl/nbody.wgsl"));
    let bg = ctx.bind(&p, &[&rp, &ra]);
    let d = [bodies.div_ceil(256) as u32, 1, 1];
    ctx.time_passes(&[(&p, &bg, d)]);
    let raw: Vec<f32> = read(ctx, &ra);
    let verified = got
        .iter()
        .zip(&raw)
        .all(|(a, b)| (a - b).abs() <= 1e-3 * (1.0 + b.abs()));
    let (sarek, wgsl) = b
        .timer
        .compare_one(|| vec![launch(&mut acc)], &[(&p, &bg, d)]);
    Ok(vec![Measured {
        size: format!("{bodies} bodies"),
        // 20 floating-point operations per interaction.
        work: Work::Flops((bodies * bodies) as f64 * 20.0),
        sarek,
        wgsl,
        wgsl_vec4: None,
        verified,
        first_launch: first,
    }])
}
