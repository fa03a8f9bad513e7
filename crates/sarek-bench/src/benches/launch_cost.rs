//! The CPU cost of a launch: many small launches through Sarek, through raw wgpu with the
//! pipeline and bind group reused, and recorded into one `Batch`.

use std::time::Instant;

use sarek::{Buffer, Grid};

use super::{Bench, Result};
use crate::kernels;
use crate::raw::storage;
use crate::report::CpuCost;

/// Measures the three costs per launch (wall clock, profiling off so that Sarek resolves no
/// timestamps) and checks that every launch ran. Leaves profiling as it found it.
pub fn cpu_cost(b: &Bench) -> Result<CpuCost> {
    let ctx = b.ctx;
    let dev = &ctx.dev;
    let launches = if b.quick { 200 } else { 10_000 };
    let mut v: Buffer<u32> = dev.zeros(256)?;
    dev.set_profiling(false);
    kernels::touch
        .launch(dev, Grid::cover(256), &mut v)?
        .wait()?;
    let start = Instant::now();
    for _ in 0..launches {
        kernels::touch.launch(dev, Grid::cover(256), &mut v)?;
    }
    dev.synchronize()?;
    let sarek = start.elapsed() / launches;

    let rv = storage(ctx, &[0u8; 1024]);
    let p = ctx.pipeline(include_str!("../wgsl/touch.wgsl"));
    let bg = ctx.bind(&p, &[&rv]);
    let start = Instant::now();
    for _ in 0..launches {
        let mut encoder = ctx.device().create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(&p);
            pass.set_bind_group(0, &bg, &[]);
            pass.dispatch_workgroups(1, 1, 1);
        }
        ctx.queue().submit([encoder.finish()]);
    }
    dev.synchronize()?;
    let raw = start.elapsed() / launches;

    let start = Instant::now();
    let mut batch = dev.batch();
    for _ in 0..launches {
        kernels::touch.enqueue(&mut batch, Grid::cover(256), &mut v)?;
    }
    batch.submit()?.wait()?;
    let batch = start.elapsed() / launches;
    dev.set_profiling(ctx.timestamps);
    let total = v.read()?[0];
    let expect = 1 + 2 * launches;
    let cost = CpuCost {
        launches,
        sarek_us: sarek.as_secs_f64() * 1e6,
        wgpu_us: raw.as_secs_f64() * 1e6,
        batch_us: batch.as_secs_f64() * 1e6,
        verified: total == expect,
    };
    println!(
        "CPU per launch ({launches} launches): sarek {:.2} µs, raw wgpu {:.2} µs (ratio {:.2}); batched record {:.2} µs",
        cost.sarek_us,
        cost.wgpu_us,
        sarek.as_secs_f64() / raw.as_secs_f64(),
        cost.batch_us
    );
    if total != expect {
        return Err(format!("touch counted {total}, expected {expect}").into());
    }
    Ok(cost)
}
