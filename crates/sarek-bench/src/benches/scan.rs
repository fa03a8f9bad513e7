//! The inclusive scan of `n` floats: the library's (`sarek::algo::scan::Scan`, a reduce-then-scan in
//! three passes with subgroup operations) against the same three passes in hand-written WGSL.
//! Counted as 8 bytes per element (one read, one write), as PyTorch's `cumsum` is; the passes
//! really move 12 (the input is read twice). Skipped, with a message, on a device without
//! subgroups (the library then runs its portable passes, which have no twin here).

use sarek::algo::scan::Scan;
use sarek::Vec4;

use super::{pow2, Bench, Result};
use crate::measure::{first_launch, Measured, Work};
use crate::raw::{read, storage};

/// Checks and times the scan of `n` floats.
pub fn scan(b: &Bench) -> Result<Vec<Measured>> {
    let (ctx, n) = (b.ctx, b.n);
    let dev = &ctx.dev;
    if !dev.features().contains(sarek::wgpu::Features::SUBGROUP) {
        eprintln!("scan: skipped, {} has no subgroups", dev.name());
        return Ok(Vec::new());
    }
    let xs = input(n);
    let want = expected(&xs);
    let x = dev.upload(bytemuck::cast_slice::<f32, Vec4>(&xs))?;
    let mut out = dev.zeros::<Vec4>(n / 4)?;
    let mut scan = Scan::new(dev, n / 4)?;
    // The first launch is timed like every other row's (`first_launch`: launch and wait);
    // reading the 256 MiB result back is not part of it (it made the figure 657 ms).
    let first = first_launch(|| scan.run(&x, &mut out).expect("launch"));
    let got: Vec<f32> = bytemuck::cast_slice(&out.read()?).to_vec();
    let tiles = n.div_ceil(sarek::algo::scan::TILE);
    let rx = storage(ctx, bytemuck::cast_slice(&xs));
    let rs = storage(ctx, &vec![0u8; tiles * 4]);
    let rc = storage(ctx, &vec![0u8; tiles * 4]);
    let ro = storage(ctx, &vec![0u8; n * 4]);
    let p1 = ctx.pipeline(include_str!("../wgsl/scan_reduce.wgsl"));
    let p2 = ctx.pipeline(include_str!("../wgsl/scan_carry.wgsl"));
    let p3 = ctx.pipeline(include_str!("../wgsl/scan_apply_sg.wgsl"));
    let bg1 = ctx.bind(&p1, &[&rx, &rs]);
    let bg2 = ctx.bind(&p2, &[&rs, &rc]);
    let bg3 = ctx.bind(&p3, &[&rx, &rc, &ro]);
    let g = [tiles as u32, 1, 1];
    let passes = [(&p1, &bg1, g), (&p2, &bg2, [1, 1, 1]), (&p3, &bg3, g)];
    ctx.time_passes(&passes);
    let raw: Vec<f32> = read(ctx, &ro);
    let verified = got == want && raw == want;
    let (sarek, wgsl) = b
        .timer
        .compare_one(|| vec![scan.run(&x, &mut out).expect("scan")], &passes);
    Ok(vec![Measured {
        size: pow2(n),
        work: Work::Bytes((n * 8) as f64),
        sarek,
        wgsl,
        wgsl_vec4: None,
        verified,
        first_launch: first,
    }])
}

/// The floats scanned: -1, 0 or 1, so that every prefix is a small integer and exact in any
/// order of addition.
pub fn input(n: usize) -> Vec<f32> {
    crate::benches::random_u32(11, n)
        .iter()
        .map(|v| (v % 3) as f32 - 1.0)
        .collect()
}

/// The inclusive scan of `xs` on the host.
pub fn expected(xs: &[f32]) -> Vec<f32> {
    let mut s = 0.0f32;
    xs.iter()
        .map(|v| {
            s += v;
            s
        })
        .collect()
}
