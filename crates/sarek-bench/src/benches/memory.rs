//! Memory-bound kernels, reported in GB/s against the copy kernel's bandwidth: saxpy (with a
//! vec4 twin as well), a polynomial (likewise), a block scan, histograms with atomics (the
//! privatised grid-stride one users should write, and the naive one) and a tiled transpose.

use sarek::{Buffer, Grid, Vec4};

use super::{pow2, random_u32, Bench, Result};
use crate::kernels;
use crate::measure::{first_launch, Measured, Work};
use crate::raw::{read, storage};

/// `y = 2x + y` over `n` floats, against a scalar and a vec4 twin.
pub fn saxpy(b: &Bench) -> Result<Vec<Measured>> {
    let (ctx, n) = (b.ctx, b.n);
    let dev = &ctx.dev;
    let xs: Vec<f32> = (0..n).map(|i| (i % 1000) as f32).collect();
    let ys: Vec<f32> = (0..n).map(|i| (i % 7) as f32).collect();
    let x = dev.upload(&xs)?;
    let mut y = dev.upload(&ys)?;
    let launch = |y: &mut Buffer<f32>| {
        kernels::saxpy
            .launch(dev, Grid::cover(n), 2.0, &x, y)
            .expect("launch")
    };
    let first = first_launch(|| launch(&mut y));
    let got = y.read()?;
    let rx = storage(ctx, bytemuck::cast_slice(&xs));
    let ry = storage(ctx, bytemuck::cast_slice(&ys));
    let params = ctx.uniform(bytemuck::cast_slice(&[2.0f32.to_bits(), n as u32]));
    let p = ctx.pipeline(include_str!("../wgsl/saxpy.wgsl"));
    let bg = ctx.bind(&p, &[&rx, &ry, &params]);
    let d = ctx.dispatch_1d(n.div_ceil(256) as u32);
    ctx.time_passes(&[(&p, &bg, d)]);
    let raw: Vec<f32> = read(ctx, &ry);
    let verified = got == raw && (0..n).step_by(997).all(|i| got[i] == 2.0 * xs[i] + ys[i]);
    let p4 = ctx.pipeline(include_str!("../wgsl/saxpy_vec4.wgsl"));
    let bg4 = ctx.bind(&p4, &[&rx, &ry, &params]);
    let d4 = ctx.dispatch_1d((n / 4).div_ceil(256) as u32);
    let (sarek, raw) = b.timer.compare(
        || vec![launch(&mut y)],
        &[&[(&p, &bg, d)], &[(&p4, &bg4, d4)]],
    );
    Ok(vec![Measured {
        size: pow2(n),
        work: Work::Bytes((3 * n * 4) as f64),
        sarek,
        wgsl: raw[0],
        wgsl_vec4: Some(raw[1]),
        verified,
        first_launch: first,
    }])
}

/// `y = 2x + y` over `n` halves (`f16`, device feature `SHADER_F16`), against a scalar and a
/// vec4 twin that use WGSL's `enable f16;` too; nothing on a device without the feature.
pub fn saxpy_f16(b: &Bench) -> Result<Vec<Measured>> {
    use sarek::f16;
    let (ctx, n) = (b.ctx, b.n);
    let dev = &ctx.dev;
    if !dev.features().contains(sarek::wgpu::Features::SHADER_F16) {
        eprintln!("saxpy_f16: the device has no SHADER_F16; skipped");
        return Ok(Vec::new());
    }
    let a = f16::from_f32(2.0);
    let xs: Vec<f16> = (0..n)
        .map(|i| f16::from_f32((i % 1000) as f32 * 0.125))
        .collect();
    let ys: Vec<f16> = (0..n).map(|i| f16::from_f32((i % 7) as f32)).collect();
    let x = dev.upload(&xs)?;
    let mut y = dev.upload(&ys)?;
    let launch = |y: &mut Buffer<f16>| {
        kernels::saxpy_f16
            .launch(dev, Grid::cover(n), a, &x, y)
            .expect("launch")
    };
    let first = first_launch(|| launch(&mut y));
    let got = y.read()?;
    let rx = storage(ctx, bytemuck::cast_slice(&xs));
    let ry = storage(ctx, bytemuck::cast_slice(&ys));
    let params = ctx.uniform(bytemuck::cast_slice(&[u32::from(a.to_bits()), n as u32]));
    let p = ctx.pipeline(include_str!("../wgsl/saxpy_f16.wgsl"));
    let bg = ctx.bind(&p, &[&rx, &ry, &params]);
    let d = ctx.dispatch_1d(n.div_ceil(256) as u32);
    ctx.time_passes(&[(&p, &bg, d)]);
    let raw: Vec<f16> = read(ctx, &ry);
    let verified = got == raw && (0..n).step_by(997).all(|i| got[i] == a * xs[i] + ys[i]);
    let p4 = ctx.pipeline(include_str!("../wgsl/saxpy_f16_vec4.wgsl"));
    let bg4 = ctx.bind(&p4, &[&rx, &ry, &params]);
    let d4 = ctx.dispatch_1d((n / 4).div_ceil(256) as u32);
    let (sarek, raw) = b.timer.compare(
        || vec![launch(&mut y)],
        &[&[(&p, &bg, d)], &[(&p4, &bg4, d4)]],
    );
    Ok(vec![Measured {
        size: pow2(n),
        work: Work::Bytes((3 * n * 2) as f64),
        sarek,
        wgsl: raw[0],
        wgsl_vec4: Some(raw[1]),
        verified,
        first_launch: first,
    }])
}

/// `y = a·x + y` over `n` halves written by a user with `F16Vec4` (four halves a thread),
/// against the vec4 twin with `vec4<f16>` (`wgsl/saxpy_f16_vec4.wgsl`); nothing on a device
/// without `SHADER_F16`.
pub fn saxpy_f16x4(b: &Bench) -> Result<Vec<Measured>> {
    use sarek::{f16, F16Vec4};
    let (ctx, n) = (b.ctx, b.n);
    let dev = &ctx.dev;
    if !dev.features().contains(sarek::wgpu::Features::SHADER_F16) {
        eprintln!("saxpy_f16x4: the device has no SHADER_F16; skipped");
        return Ok(Vec::new());
    }
    let a = f16::from_f32(2.0);
    let xs: Vec<f16> = (0..n)
        .map(|i| f16::from_f32((i % 1000) as f32 * 0.125))
        .collect();
    let ys: Vec<f16> = (0..n).map(|i| f16::from_f32((i % 7) as f32)).collect();
    let x = dev.upload::<F16Vec4>(bytemuck::cast_slice(&xs))?;
    let mut y = dev.upload::<F16Vec4>(bytemuck::cast_slice(&ys))?;
    let launch = |y: &mut Buffer<F16Vec4>| {
        kernels::saxpy_f16x4
            .launch(dev, Grid::cover(n / 4), a, &x, y)
            .expect("launch")
    };
    let first = first_launch(|| launch(&mut y));
    let got: Vec<f16> = bytemuck::cast_slice(&y.read()?).to_vec();
    let rx = storage(ctx, bytemuck::cast_slice(&xs));
    let ry = storage(ctx, bytemuck::cast_slice(&ys));
    let params = ctx.uniform(bytemuck::cast_slice(&[u32::from(a.to_bits()), n as u32]));
    let p4 = ctx.pipeline(include_str!("../wgsl/saxpy_f16_vec4.wgsl"));
    let bg4 = ctx.bind(&p4, &[&rx, &ry, &params]);
    let d4 = ctx.dispatch_1d((n / 4).div_ceil(256) as u32);
    ctx.time_passes(&[(&p4, &bg4, d4)]);
    let raw: Vec<f16> = read(ctx, &ry);
    let verified = got == raw && (0..n).step_by(997).all(|i| got[i] == a * xs[i] + ys[i]);
    let (sarek, raw) = b
        .timer
        .compare(|| vec![launch(&mut y)], &[&[(&p4, &bg4, d4)]]);
    Ok(vec![Measured {
        size: pow2(n),
        work: Work::Bytes((3 * n * 2) as f64),
        sarek,
        wgsl: raw[0],
        wgsl_vec4: None,
        verified,
        first_launch: first,
    }])
}

/// `y = (a·x + b)·x + c` over `n` floats, as a user writes it, against a scalar and a vec4
/// twin.
pub fn poly(b: &Bench) -> Result<Vec<Measured>> {
    let (ctx, n) = (b.ctx, b.n);
    let dev = &ctx.dev;
    let (ca, cb, cc) = (0.5f32, -2.0f32, 3.0f32);
    let xs: Vec<f32> = (0..n).map(|i| (i % 1000) as f32 * 0.25).collect();
    let x = dev.upload(&xs)?;
    let mut y = dev.zeros::<f32>(n)?;
    let launch = |y: &mut Buffer<f32>| {
        kernels::poly
            .launch(dev, Grid::cover(n), ca, cb, cc, &x, y)
            .expect("launch")
    };
    let first = first_launch(|| launch(&mut y));
    let got = y.read()?;
    let rx = storage(ctx, bytemuck::cast_slice(&xs));
    let ry = storage(ctx, &vec![0u8; n * 4]);
    let params = ctx.uniform(bytemuck::cast_slice(&[
        ca.to_bits(),
        cb.to_bits(),
        cc.to_bits(),
        n as u32,
    ]));
    let p = ctx.pipeline(include_str!("../wgsl/poly.wgsl"));
    let bg = ctx.bind(&p, &[&rx, &ry, &params]);
    let d = ctx.dispatch_1d(n.div_ceil(256) as u32);
    ctx.time_passes(&[(&p, &bg, d)]);
    let raw: Vec<f32> = read(ctx, &ry);
    // The inputs are exact in a few bits, so every order of evaluation gives the same floats.
    let verified = got == raw
        && (0..n)
            .step_by(997)
            .all(|i| got[i] == (ca * xs[i] + cb) * xs[i] + cc);
    let p4 = ctx.pipeline(include_str!("../wgsl/poly_vec4.wgsl"));
    let bg4 = ctx.bind(&p4, &[&rx, &ry, &params]);
    let d4 = ctx.dispatch_1d((n / 4).div_ceil(256) as u32);
    let (sarek, raw) = b.timer.compare(
        || vec![launch(&mut y)],
        &[&[(&p, &bg, d)], &[(&p4, &bg4, d4)]],
    );
    Ok(vec![Measured {
        size: pow2(n),
        work: Work::Bytes((2 * n * 4) as f64),
        sarek,
        wgsl: raw[0],
        wgsl_vec4: Some(raw[1]),
        verified,
        first_launch: first,
    }])
}

/// `poly` written with `Vec4` buffers (`kernels::poly4`), against the vec4 twin: what a user
/// writes where a one-buffer element-wise kernel must reach the copy bandwidth.
pub fn poly_vec4(b: &Bench) -> Result<Vec<Measured>> {
    let (ctx, n) = (b.ctx, b.n);
    let dev = &ctx.dev;
    let (ca, cb, cc) = (0.5f32, -2.0f32, 3.0f32);
    let xs: Vec<f32> = (0..n).map(|i| (i % 1000) as f32 * 0.25).collect();
    let x = dev.upload(bytemuck::cast_slice::<f32, Vec4>(&xs))?;
    let mut y = dev.zeros::<Vec4>(n / 4)?;
    let launch = |y: &mut Buffer<Vec4>| {
        kernels::poly4
            .launch(dev, Grid::cover(n / 4), ca, cb, cc, &x, y)
            .expect("launch")
    };
    let first = first_launch(|| launch(&mut y));
    let got: Vec<f32> = bytemuck::cast_slice(&y.read()?).to_vec();
    let rx = storage(ctx, bytemuck::cast_slice(&xs));
    let ry = storage(ctx, &vec![0u8; n * 4]);
    let params = ctx.uniform(bytemuck::cast_slice(&[
        ca.to_bits(),
        cb.to_bits(),
        cc.to_bits(),
        n as u32,
    ]));
    let p4 = ctx.pipeline(include_str!("../wgsl/poly_vec4.wgsl"));
    let bg4 = ctx.bind(&p4, &[&rx, &ry, &params]);
    let d4 = ctx.dispatch_1d((n / 4).div_ceil(256) as u32);
    ctx.time_passes(&[(&p4, &bg4, d4)]);
    let raw: Vec<f32> = read(ctx, &ry);
    let verified = got == raw
        && (0..n)
            .step_by(997)
            .all(|i| got[i] == (ca * xs[i] + cb) * xs[i] + cc);
    let (sarek, raw) = b
        .timer
        .compare(|| vec![launch(&mut y)], &[&[(&p4, &bg4, d4)]]);
    Ok(vec![Measured {
        size: pow2(n),
        work: Work::Bytes((2 * n * 4) as f64),
        sarek,
        wgsl: raw[0],
        wgsl_vec4: None,
        verified,
        first_launch: first,
    }])
}

/// An inclusive scan of each 256-element block of `n` words.
pub fn scan(b: &Bench) -> Result<Vec<Measured>> {
    let (ctx, n) = (b.ctx, b.n);
    let dev = &ctx.dev;
    let xs: Vec<u32> = random_u32(3, n).iter().map(|v| v % 100).collect();
    let x = dev.upload(&xs)?;
    let mut out = dev.zeros::<u32>(n)?;
    let launch = |out: &mut Buffer<u32>| {
        kernels::block_scan
            .launch(dev, Grid::cover(n), &x, out)
            .expect("launch")
    };
    let first = first_launch(|| launch(&mut out));
    let got = out.read()?;
    let mut expect = vec![0u32; n];
    for (c, e) in xs.chunks(256).zip(expect.chunks_mut(256)) {
        let mut s = 0;
        for (v, o) in c.iter().zip(e.iter_mut()) {
            s += v;
            *o = s;
        }
    }
    let rx = storage(ctx, bytemuck::cast_slice(&xs));
    let ro = storage(ctx, &vec![0u8; n * 4]);
    let p = ctx.pipeline(include_str!("../wgsl/block_scan.wgsl"));
    let bg = ctx.bind(&p, &[&rx, &ro]);
    let d = ctx.dispatch_1d(n.div_ceil(256) as u32);
    ctx.time_passes(&[(&p, &bg, d)]);
    let raw: Vec<u32> = read(ctx, &ro);
    let verified = got == expect && raw == expect;
    let (sarek, wgsl) = b
        .timer
        .compare_one(|| vec![launch(&mut out)], &[(&p, &bg, d)]);
    Ok(vec![Measured {
        size: pow2(n),
        work: Work::Bytes((2 * n * 4) as f64),
        sarek,
        wgsl,
        wgsl_vec4: None,
        verified,
        first_launch: first,
    }])
}

/// A 256-bin histogram of `n` words as users should write it: privatised in workgroup memory,
/// a grid-stride loop over a fixed number of workgroups.
pub fn histogram_gs(b: &Bench) -> Result<Vec<Measured>> {
    let (ctx, n) = (b.ctx, b.n);
    let dev = &ctx.dev;
    let groups: u32 = if b.quick { 16 } else { 2048 };
    let data = random_u32(5, n);
    let d_buf = dev.upload(&data)?;
    let bins = dev.zeros::<u32>(256)?;
    let launch = || {
        kernels::histogram_gs
            .launch(dev, Grid::groups([groups, 1, 1]), &d_buf, &bins)
            .expect("launch")
    };
    let first = first_launch(launch);
    let got = bins.read()?;
    let mut expect = vec![0u32; 256];
    for v in &data {
        expect[(v & 255) as usize] += 1;
    }
    let rd = storage(ctx, bytemuck::cast_slice(&data));
    let rb = storage(ctx, &[0u8; 1024]);
    let p = ctx.pipeline(include_str!("../wgsl/histogram_gs.wgsl"));
    let bg = ctx.bind(&p, &[&rd, &rb]);
    let d = [groups, 1, 1];
    ctx.time_passes(&[(&p, &bg, d)]);
    let raw: Vec<u32> = read(ctx, &rb);
    let verified = got == expect && raw == expect;
    let (sarek, wgsl) = b.timer.compare_one(|| vec![launch()], &[(&p, &bg, d)]);
    Ok(vec![Measured {
        size: pow2(n),
        work: Work::Bytes((n * 4) as f64),
        sarek,
        wgsl,
        wgsl_vec4: None,
        verified,
        first_launch: first,
    }])
}

/// The naive 256-bin histogram of `n` words: one element per thread, one workgroup per 256
/// (a secondary row: no user should copy it).
pub fn histogram(b: &Bench) -> Result<Vec<Measured>> {
    let (ctx, n) = (b.ctx, b.n);
    let dev = &ctx.dev;
    let data = random_u32(5, n);
    let d_buf = dev.upload(&data)?;
    let bins = dev.zeros::<u32>(256)?;
    let launch = || {
        kernels::histogram
            .launch(dev, Grid::cover(n), &d_buf, &bins)
            .expect("launch")
    };
    let first = first_launch(launch);
    let got = bins.read()?;
    let mut expect = vec![0u32; 256];
    for v in &data {
        expect[(v & 255) as usize] += 1;
    }
    let rd = storage(ctx, bytemuck::cast_slice(&data));
    let rb = storage(ctx, &[0u8; 1024]);
    let p = ctx.pipeline(include_str!("../wgsl/histogram.wgsl"));
    let bg = ctx.bind(&p, &[&rd, &rb]);
    let d = ctx.dispatch_1d(n.div_ceil(256) as u32);
    ctx.time_passes(&[(&p, &bg, d)]);
    let raw: Vec<u32> = read(ctx, &rb);
    let verified = got == expect && raw == expect;
    let (sarek, wgsl) = b.timer.compare_one(|| vec![launch()], &[(&p, &bg, d)]);
    Ok(vec![Measured {
        size: pow2(n),
        work: Work::Bytes((n * 4) as f64),
        sarek,
        wgsl,
        wgsl_vec4: None,
        verified,
        first_launch: first,
    }])
}

/// A transpose of an m×m matrix through 16×16 tiles.
pub fn transpose(b: &Bench) -> Result<Vec<Measured>> {
    let ctx = b.ctx;
    let dev = &ctx.dev;
    let m: usize = if b.quick { 100 } else { 8192 };
    let a: Vec<f32> = (0..m * m).map(|i| i as f32).collect();
    let ab = dev.upload(&a)?;
    let mut bb = dev.zeros::<f32>(m * m)?;
    let launch = |bb: &mut Buffer<f32>| {
        kernels::transpose
            .launch(dev, Grid::cover_2d(m, m), m, &ab, bb)
            .expect("launch")
    };
    let first = first_launch(|| launch(&mut bb));
    let got = bb.read()?;
    let ra = storage(ctx, bytemuck::cast_slice(&a));
    let rb = storage(ctx, &vec![0u8; m * m * 4]);
    let params = ctx.uniform(bytemuck::cast_slice(&[m as u32]));
    let p = ctx.pipeline(include_str!("../wgsl/transpose.wgsl"));
    let bg = ctx.bind(&p, &[&ra, &rb, &params]);
    let g = m.div_ceil(16) as u32;
    ctx.time_passes(&[(&p, &bg, [g, g, 1])]);
    let raw: Vec<f32> = read(ctx, &rb);
    let verified = got == raw
        && (0..m)
            .step_by(7)
            .all(|r| (0..m).step_by(5).all(|c| got[r * m + c] == a[c * m + r]));
    let (sarek, wgsl) = b
        .timer
        .compare_one(|| vec![launch(&mut bb)], &[(&p, &bg, [g, g, 1])]);
    Ok(vec![Measured {
        size: format!("{m}²"),
        work: Work::Bytes((2 * m * m * 4) as f64),
        sarek,
        wgsl,
        wgsl_vec4: None,
        verified,
        first_launch: first,
    }])
}
