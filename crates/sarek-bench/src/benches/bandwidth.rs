//! The physical limit of memory-bound kernels: a vec4 copy, measured in the same run.

use std::time::{Duration, Instant};

use super::Bench;
use crate::raw::storage;

/// The bandwidth of a vec4 copy of `n` floats, in GB/s (bytes read plus bytes written).
pub fn copy_gbps(b: &Bench) -> f64 {
    let (ctx, n) = (b.ctx, b.n);
    let src = storage(ctx, bytemuck::cast_slice(&vec![1.0f32; n]));
    let dst = storage(ctx, bytemuck::cast_slice(&vec![0.0f32; n]));
    let p = ctx.pipeline(include_str!("../wgsl/copy_vec4.wgsl"));
    let bg = ctx.bind(&p, &[&src, &dst]);
    let d = ctx.dispatch_1d((n / 4).div_ceil(256) as u32);
    // Bring the GPU to its working clocks before anything is measured
    // (SAREK_BENCH_WARMUP_MS; none by default and with --quick).
    let warm = Instant::now();
    let warm_for = Duration::from_millis(
        std::env::var("SAREK_BENCH_WARMUP_MS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(0),
    );
    while !b.quick && warm.elapsed() < warm_for {
        ctx.time_passes(&[(&p, &bg, d)]);
    }
    let t = b.timer.time_raw(&[(&p, &bg, d)]);
    (2 * n * 4) as f64 / t.as_secs_f64() / 1e9
}
