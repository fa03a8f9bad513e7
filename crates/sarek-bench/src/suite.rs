//! The benchmarks: each kernel in Sarek and as hand-written WGSL, checked, then timed.

use std::time::{Duration, Instant};

use sarek::{Buffer, Grid};

use crate::harness::{median, read, storage, Ctx};
use crate::kernels;
use crate::report::{Report, Row};

pub struct Options {
    pub quick: bool,
    pub experiments: bool,
    pub runs: usize,
    pub out: std::path::PathBuf,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            quick: false,
            experiments: false,
            runs: 50,
            out: "bench-results".into(),
        }
    }
}

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

fn random_u32(seed: u32, n: usize) -> Vec<u32> {
    let mut s = seed.max(1);
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            s
        })
        .collect()
}

struct Bench<'a> {
    ctx: &'a Ctx,
    runs: usize,
    warmup: usize,
    /// Each comparison first runs its work for this long, so that the GPU's clocks settle on
    /// it (measured on an H200: a two-pass sum timed right after saxpy varied from 71 to
    /// 140 µs between runs without it).
    warm_for: Duration,
    report: Report,
}

impl Bench<'_> {
    fn time_raw(
        &self,
        passes: &[(
            &sarek::wgpu::ComputePipeline,
            &sarek::wgpu::BindGroup,
            [u32; 3],
        )],
    ) -> Duration {
        median(self.warmup, self.runs, || self.ctx.time_passes(passes))
    }

    /// Times the Sarek launches and each list of raw passes, interleaved run by run (in
    /// alternating order) so that clock changes of the GPU affect every side alike; returns
    /// the medians.
    fn compare(
        &self,
        mut sarek: impl FnMut() -> Vec<sarek::Launch>,
        raws: &[&[(
            &sarek::wgpu::ComputePipeline,
            &sarek::wgpu::BindGroup,
            [u32; 3],
        )]],
    ) -> (Duration, Vec<Duration>) {
        let start = Instant::now();
        while start.elapsed() < self.warm_for {
            self.ctx.time_sarek(&mut sarek);
            for r in raws {
                self.ctx.time_passes(r);
            }
        }
        for _ in 0..self.warmup {
            self.ctx.time_sarek(&mut sarek);
            for r in raws {
                self.ctx.time_passes(r);
            }
        }
        let mut s = Vec::with_capacity(self.runs);
        let mut w: Vec<Vec<Duration>> = vec![Vec::with_capacity(self.runs); raws.len()];
        for run in 0..self.runs {
            if run % 2 == 0 {
                s.push(self.ctx.time_sarek(&mut sarek));
            }
            for (samples, r) in w.iter_mut().zip(raws) {
                samples.push(self.ctx.time_passes(r));
            }
            if run % 2 == 1 {
                s.push(self.ctx.time_sarek(&mut sarek));
            }
        }
        let mid = |mut v: Vec<Duration>| {
            v.sort();
            v[v.len() / 2]
        };
        (mid(s), w.into_iter().map(mid).collect())
    }

    /// Records a pair (and optional vec4 twin) of timings for one kernel.
    #[allow(clippy::too_many_arguments)]
    fn pair(
        &mut self,
        kernel: &str,
        size: String,
        work: f64,
        unit: &str,
        sarek: Duration,
        wgsl: Duration,
        vec4: Option<Duration>,
        verified: bool,
        first_launch: Duration,
    ) {
        let rate = |d: Duration| work / d.as_secs_f64() / 1e9;
        self.report.rows.push(Row {
            kernel: kernel.into(),
            size,
            unit: unit.into(),
            sarek_us: sarek.as_secs_f64() * 1e6,
            wgsl_us: wgsl.as_secs_f64() * 1e6,
            wgsl_vec4_us: vec4.map(|d| d.as_secs_f64() * 1e6),
            sarek_rate: rate(sarek),
            wgsl_rate: rate(wgsl),
            wgsl_vec4_rate: vec4.map(rate),
            ratio: wgsl.as_secs_f64() / sarek.as_secs_f64(),
            fraction_of_copy: (unit == "GB/s").then(|| rate(sarek) / self.report.copy_gbps),
            verified,
            first_launch_ms: first_launch.as_secs_f64() * 1e3,
        });
        println!(
            "{kernel:<11} {:<14} sarek {:>10.1} µs {:>9.1} {unit}   wgsl {:>10.1} µs   ratio {:.3}{}{}",
            self.report.rows.last().map(|r| r.size.as_str()).unwrap_or(""),
            sarek.as_secs_f64() * 1e6,
            rate(sarek),
            wgsl.as_secs_f64() * 1e6,
            wgsl.as_secs_f64() / sarek.as_secs_f64(),
            vec4.map(|d| format!("   wgsl vec4 {:.1} µs", d.as_secs_f64() * 1e6)).unwrap_or_default(),
            if verified { "" } else { "   WRONG RESULT" },
        );
    }
}

/// Wall time of a first launch (pipeline creation included).
fn first(launch: impl FnOnce() -> sarek::Launch) -> Duration {
    let start = Instant::now();
    launch().wait().expect("launch");
    start.elapsed()
}

pub fn run(options: &Options) -> Result<bool> {
    let dev = sarek::Device::gpu()?;
    let timestamps = dev.set_profiling(true);
    let ctx = Ctx {
        dev: dev.clone(),
        timestamps,
    };
    let quick = options.quick;
    let mut b = Bench {
        ctx: &ctx,
        runs: if quick { 3 } else { options.runs.max(1) },
        warmup: if quick { 1 } else { 10 },
        warm_for: if quick {
            Duration::ZERO
        } else {
            Duration::from_millis(300)
        },
        report: Report::new(&dev, timestamps, quick),
    };
    println!(
        "device: {} ({:?}); timing: {}",
        dev.name(),
        dev.backend(),
        if timestamps {
            "GPU timestamps"
        } else {
            "wall clock"
        }
    );

    // The physical limit: a vec4 copy.
    let n: usize = if quick { 1 << 16 } else { 1 << 26 };
    {
        let src = storage(&ctx, bytemuck::cast_slice(&vec![1.0f32; n]));
        let dst = storage(&ctx, bytemuck::cast_slice(&vec![0.0f32; n]));
        let p = ctx.pipeline(include_str!("wgsl/copy_vec4.wgsl"));
        let bg = ctx.bind(&p, &[&src, &dst]);
        let d = ctx.dispatch_1d((n / 4).div_ceil(256) as u32);
        // Bring the GPU to its working clocks before anything is measured.
        let warm = Instant::now();
        let warm_for = Duration::from_millis(
            std::env::var("SAREK_BENCH_WARMUP_MS")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(0),
        );
        while !quick && warm.elapsed() < warm_for {
            ctx.time_passes(&[(&p, &bg, d)]);
        }
        let t = b.time_raw(&[(&p, &bg, d)]);
        b.report.copy_gbps = (2 * n * 4) as f64 / t.as_secs_f64() / 1e9;
        println!("copy (vec4)  {} floats: {:.1} GB/s", n, b.report.copy_gbps);
    }

    // saxpy
    {
        let xs: Vec<f32> = (0..n).map(|i| (i % 1000) as f32).collect();
        let ys: Vec<f32> = (0..n).map(|i| (i % 7) as f32).collect();
        let x = dev.upload(&xs)?;
        let mut y = dev.upload(&ys)?;
        let first_launch = first(|| {
            kernels::saxpy
                .launch(&dev, Grid::cover(n), 2.0, &x, &mut y)
                .expect("launch")
        });
        let got = y.read()?;
        let rx = storage(&ctx, bytemuck::cast_slice(&xs));
        let ry = storage(&ctx, bytemuck::cast_slice(&ys));
        let params = ctx.uniform(bytemuck::cast_slice(&[2.0f32.to_bits(), n as u32]));
        let p = ctx.pipeline(include_str!("wgsl/saxpy.wgsl"));
        let bg = ctx.bind(&p, &[&rx, &ry, &params]);
        let d = ctx.dispatch_1d(n.div_ceil(256) as u32);
        ctx.time_passes(&[(&p, &bg, d)]);
        let raw: Vec<f32> = read(&ctx, &ry);
        let verified = got == raw && (0..n).step_by(997).all(|i| got[i] == 2.0 * xs[i] + ys[i]);
        let p4 = ctx.pipeline(include_str!("wgsl/saxpy_vec4.wgsl"));
        let bg4 = ctx.bind(&p4, &[&rx, &ry, &params]);
        let d4 = ctx.dispatch_1d((n / 4).div_ceil(256) as u32);
        let (sarek, raw) = b.compare(
            || {
                vec![kernels::saxpy
                    .launch(&dev, Grid::cover(n), 2.0, &x, &mut y)
                    .expect("launch")]
            },
            &[&[(&p, &bg, d)], &[(&p4, &bg4, d4)]],
        );
        let (wgsl, vec4) = (raw[0], raw[1]);
        b.pair(
            "saxpy",
            format!("2^{}", n.trailing_zeros()),
            (3 * n * 4) as f64,
            "GB/s",
            sarek,
            wgsl,
            Some(vec4),
            verified,
            first_launch,
        );
    }

    // sum, four floats per load
    {
        let xs: Vec<f32> = (0..n).map(|i| ((i % 17) as f32) * 0.25).collect();
        let x = dev.upload(bytemuck::cast_slice::<f32, sarek::Vec4>(&xs))?;
        // 1024 workgroups keep the first stage at full bandwidth and halve the second's work.
        let groups = if quick { 64 } else { 1024 };
        let mut partial = dev.zeros::<f32>(groups)?;
        let mut total = dev.zeros::<f32>(1)?;
        // Both stages in one batch: one submission and one pass, like the twin.
        let launch = |partial: &mut Buffer<f32>, total: &mut Buffer<f32>| {
            let mut batch = dev.batch();
            kernels::sum4_stage
                .enqueue(&mut batch, Grid::groups([groups as u32, 1, 1]), &x, partial)
                .expect("enqueue");
            kernels::sum_stage
                .enqueue(&mut batch, Grid::groups([1, 1, 1]), partial, total)
                .expect("enqueue");
            vec![batch.submit().expect("submit")]
        };
        let start = Instant::now();
        launch(&mut partial, &mut total);
        let got = total.read()?[0];
        let first_launch = start.elapsed();
        let rx = storage(&ctx, bytemuck::cast_slice(&xs));
        let rp = storage(&ctx, &vec![0u8; groups * 4]);
        let rt = storage(&ctx, &[0u8; 4]);
        let p4 = ctx.pipeline(include_str!("wgsl/sum4_stage.wgsl"));
        let p = ctx.pipeline(include_str!("wgsl/sum_stage.wgsl"));
        let bg1 = ctx.bind(&p4, &[&rx, &rp]);
        let bg2 = ctx.bind(&p, &[&rp, &rt]);
        let passes = [(&p4, &bg1, [groups as u32, 1, 1]), (&p, &bg2, [1, 1, 1])];
        ctx.time_passes(&passes);
        let raw: Vec<f32> = read(&ctx, &rt);
        let exact: f64 = xs.iter().map(|&v| f64::from(v)).sum();
        let verified = ((f64::from(got) - exact) / exact).abs() < 1e-4 && got == raw[0];
        let (sarek, raw) = b.compare(|| launch(&mut partial, &mut total), &[&passes]);
        let wgsl = raw[0];
        b.pair(
            "sum",
            format!("2^{}", n.trailing_zeros()),
            (n * 4) as f64,
            "GB/s",
            sarek,
            wgsl,
            None,
            verified,
            first_launch,
        );
    }

    // sum with one float per load
    {
        let xs: Vec<f32> = (0..n).map(|i| ((i % 17) as f32) * 0.25).collect();
        let x = dev.upload(&xs)?;
        let groups = if quick { 64 } else { 2048 };
        let mut partial = dev.zeros::<f32>(groups)?;
        let mut total = dev.zeros::<f32>(1)?;
        let launch = |partial: &mut Buffer<f32>, total: &mut Buffer<f32>| {
            let mut batch = dev.batch();
            kernels::sum_stage
                .enqueue(&mut batch, Grid::groups([groups as u32, 1, 1]), &x, partial)
                .expect("enqueue");
            kernels::sum_stage
                .enqueue(&mut batch, Grid::groups([1, 1, 1]), partial, total)
                .expect("enqueue");
            vec![batch.submit().expect("submit")]
        };
        let start = Instant::now();
        launch(&mut partial, &mut total);
        let got = total.read()?[0];
        let first_launch = start.elapsed();
        let rx = storage(&ctx, bytemuck::cast_slice(&xs));
        let rp = storage(&ctx, &vec![0u8; groups * 4]);
        let rt = storage(&ctx, &[0u8; 4]);
        let p = ctx.pipeline(include_str!("wgsl/sum_stage.wgsl"));
        let bg1 = ctx.bind(&p, &[&rx, &rp]);
        let bg2 = ctx.bind(&p, &[&rp, &rt]);
        ctx.time_passes(&[(&p, &bg1, [groups as u32, 1, 1]), (&p, &bg2, [1, 1, 1])]);
        let raw: Vec<f32> = read(&ctx, &rt);
        let exact: f64 = xs.iter().map(|&v| f64::from(v)).sum();
        let verified = ((f64::from(got) - exact) / exact).abs() < 1e-4 && got == raw[0];
        let (sarek, raw) = b.compare(
            || launch(&mut partial, &mut total),
            &[&[(&p, &bg1, [groups as u32, 1, 1]), (&p, &bg2, [1, 1, 1])]],
        );
        let wgsl = raw[0];
        b.pair(
            "sum_f32",
            format!("2^{}", n.trailing_zeros()),
            (n * 4) as f64,
            "GB/s",
            sarek,
            wgsl,
            None,
            verified,
            first_launch,
        );
    }

    // block scan
    {
        let xs: Vec<u32> = random_u32(3, n).iter().map(|v| v % 100).collect();
        let x = dev.upload(&xs)?;
        let mut out = dev.zeros::<u32>(n)?;
        let first_launch = first(|| {
            kernels::block_scan
                .launch(&dev, Grid::cover(n), &x, &mut out)
                .expect("launch")
        });
        let got = out.read()?;
        let mut expect = vec![0u32; n];
        for (c, e) in xs.chunks(256).zip(expect.chunks_mut(256)) {
            let mut s = 0;
            for (v, o) in c.iter().zip(e.iter_mut()) {
                s += v;
                *o = s;
            }
        }
        let rx = storage(&ctx, bytemuck::cast_slice(&xs));
        let ro = storage(&ctx, &vec![0u8; n * 4]);
        let p = ctx.pipeline(include_str!("wgsl/block_scan.wgsl"));
        let bg = ctx.bind(&p, &[&rx, &ro]);
        let d = ctx.dispatch_1d(n.div_ceil(256) as u32);
        ctx.time_passes(&[(&p, &bg, d)]);
        let raw: Vec<u32> = read(&ctx, &ro);
        let verified = got == expect && raw == expect;
        let (sarek, raw) = b.compare(
            || {
                vec![kernels::block_scan
                    .launch(&dev, Grid::cover(n), &x, &mut out)
                    .expect("launch")]
            },
            &[&[(&p, &bg, d)]],
        );
        let wgsl = raw[0];
        b.pair(
            "scan",
            format!("2^{}", n.trailing_zeros()),
            (2 * n * 4) as f64,
            "GB/s",
            sarek,
            wgsl,
            None,
            verified,
            first_launch,
        );
    }

    // histogram
    {
        let data = random_u32(5, n);
        let d_buf = dev.upload(&data)?;
        let bins = dev.zeros::<u32>(256)?;
        let first_launch = first(|| {
            kernels::histogram
                .launch(&dev, Grid::cover(n), &d_buf, &bins)
                .expect("launch")
        });
        let got = bins.read()?;
        let mut expect = vec![0u32; 256];
        for v in &data {
            expect[(v & 255) as usize] += 1;
        }
        let rd = storage(&ctx, bytemuck::cast_slice(&data));
        let rb = storage(&ctx, &[0u8; 1024]);
        let p = ctx.pipeline(include_str!("wgsl/histogram.wgsl"));
        let bg = ctx.bind(&p, &[&rd, &rb]);
        let d = ctx.dispatch_1d(n.div_ceil(256) as u32);
        ctx.time_passes(&[(&p, &bg, d)]);
        let raw: Vec<u32> = read(&ctx, &rb);
        let verified = got == expect && raw == expect;
        let (sarek, raw) = b.compare(
            || {
                vec![kernels::histogram
                    .launch(&dev, Grid::cover(n), &d_buf, &bins)
                    .expect("launch")]
            },
            &[&[(&p, &bg, d)]],
        );
        let wgsl = raw[0];
        b.pair(
            "histogram",
            format!("2^{}", n.trailing_zeros()),
            (n * 4) as f64,
            "GB/s",
            sarek,
            wgsl,
            None,
            verified,
            first_launch,
        );
    }

    // transpose
    {
        let m: usize = if quick { 100 } else { 8192 };
        let a: Vec<f32> = (0..m * m).map(|i| i as f32).collect();
        let ab = dev.upload(&a)?;
        let mut bb = dev.zeros::<f32>(m * m)?;
        let first_launch = first(|| {
            kernels::transpose
                .launch(&dev, Grid::cover_2d(m, m), m, &ab, &mut bb)
                .expect("launch")
        });
        let got = bb.read()?;
        let ra = storage(&ctx, bytemuck::cast_slice(&a));
        let rb = storage(&ctx, &vec![0u8; m * m * 4]);
        let params = ctx.uniform(bytemuck::cast_slice(&[m as u32]));
        let p = ctx.pipeline(include_str!("wgsl/transpose.wgsl"));
        let bg = ctx.bind(&p, &[&ra, &rb, &params]);
        let g = m.div_ceil(16) as u32;
        ctx.time_passes(&[(&p, &bg, [g, g, 1])]);
        let raw: Vec<f32> = read(&ctx, &rb);
        let verified = got == raw
            && (0..m)
                .step_by(7)
                .all(|r| (0..m).step_by(5).all(|c| got[r * m + c] == a[c * m + r]));
        let (sarek, raw) = b.compare(
            || {
                vec![kernels::transpose
                    .launch(&dev, Grid::cover_2d(m, m), m, &ab, &mut bb)
                    .expect("launch")]
            },
            &[&[(&p, &bg, [g, g, 1])]],
        );
        let wgsl = raw[0];
        b.pair(
            "transpose",
            format!("{m}²"),
            (2 * m * m * 4) as f64,
            "GB/s",
            sarek,
            wgsl,
            None,
            verified,
            first_launch,
        );
    }

    // matmul, register-blocked 128×128 tiles
    let sizes: &[usize] = if quick { &[40] } else { &[1024, 2048, 4096] };
    for &m in sizes {
        let av: Vec<f32> = (0..m * m).map(|i| ((i * 7) % 13) as f32 - 6.0).collect();
        let bv: Vec<f32> = (0..m * m).map(|i| ((i * 5) % 11) as f32 - 5.0).collect();
        let a = dev.upload(bytemuck::cast_slice::<f32, sarek::Vec4>(&av))?;
        let bm = dev.upload(bytemuck::cast_slice::<f32, sarek::Vec4>(&bv))?;
        let mut c = dev.zeros::<sarek::Vec4>(m * m / 4)?;
        let tiles = m.div_ceil(128) as u32;
        let grid = Grid::groups([tiles, tiles, 1]);
        let first_launch = first(|| {
            kernels::matmul_rb
                .launch(&dev, grid, m, &a, &bm, &mut c)
                .expect("launch")
        });
        let got: Vec<f32> = bytemuck::cast_slice(&c.read()?).to_vec();
        let ra = storage(&ctx, bytemuck::cast_slice(&av));
        let rbm = storage(&ctx, bytemuck::cast_slice(&bv));
        let rc = storage(&ctx, &vec![0u8; m * m * 4]);
        let params = ctx.uniform(bytemuck::cast_slice(&[m as u32, 0, 0, 0]));
        let p = ctx.pipeline(include_str!("wgsl/matmul_rb.wgsl"));
        let bg = ctx.bind(&p, &[&ra, &rbm, &rc, &params]);
        ctx.time_passes(&[(&p, &bg, [tiles, tiles, 1])]);
        let raw: Vec<f32> = read(&ctx, &rc);
        let sample = [
            (0, 0),
            (1, m - 1),
            (m / 2, m / 3),
            (m - 1, 0),
            (m - 1, m - 1),
        ];
        // Products and sums of small integers: exact in f32, whatever the order.
        let verified = got == raw
            && sample.iter().all(|&(r, col)| {
                got[r * m + col] == (0..m).map(|k| av[r * m + k] * bv[k * m + col]).sum::<f32>()
            });
        let (sarek, raw) = b.compare(
            || {
                vec![kernels::matmul_rb
                    .launch(&dev, grid, m, &a, &bm, &mut c)
                    .expect("launch")]
            },
            &[&[(&p, &bg, [tiles, tiles, 1])]],
        );
        let wgsl = raw[0];
        b.pair(
            "matmul",
            format!("{m}²"),
            2.0 * (m as f64).powi(3),
            "GFLOP/s",
            sarek,
            wgsl,
            None,
            verified,
            first_launch,
        );
    }

    // matmul, plain 16×16 tiles
    let sizes: &[usize] = if quick { &[40] } else { &[1024, 2048, 4096] };
    for &m in sizes {
        let av: Vec<f32> = (0..m * m).map(|i| ((i * 7) % 13) as f32 - 6.0).collect();
        let bv: Vec<f32> = (0..m * m).map(|i| ((i * 5) % 11) as f32 - 5.0).collect();
        let (a, bm) = (dev.upload(&av)?, dev.upload(&bv)?);
        let mut c = dev.zeros::<f32>(m * m)?;
        let first_launch = first(|| {
            kernels::matmul
                .launch(&dev, Grid::cover_2d(m, m), m, &a, &bm, &mut c)
                .expect("launch")
        });
        let got = c.read()?;
        let ra = storage(&ctx, bytemuck::cast_slice(&av));
        let rbm = storage(&ctx, bytemuck::cast_slice(&bv));
        let rc = storage(&ctx, &vec![0u8; m * m * 4]);
        let params = ctx.uniform(bytemuck::cast_slice(&[m as u32]));
        let p = ctx.pipeline(include_str!("wgsl/matmul.wgsl"));
        let bg = ctx.bind(&p, &[&ra, &rbm, &rc, &params]);
        let g = m.div_ceil(16) as u32;
        ctx.time_passes(&[(&p, &bg, [g, g, 1])]);
        let raw: Vec<f32> = read(&ctx, &rc);
        let sample = [
            (0, 0),
            (1, m - 1),
            (m / 2, m / 3),
            (m - 1, 0),
            (m - 1, m - 1),
        ];
        let verified = got == raw
            && sample.iter().all(|&(r, col)| {
                got[r * m + col] == (0..m).map(|k| av[r * m + k] * bv[k * m + col]).sum::<f32>()
            });
        let (sarek, raw) = b.compare(
            || {
                vec![kernels::matmul
                    .launch(&dev, Grid::cover_2d(m, m), m, &a, &bm, &mut c)
                    .expect("launch")]
            },
            &[&[(&p, &bg, [g, g, 1])]],
        );
        let wgsl = raw[0];
        b.pair(
            "matmul_16x16",
            format!("{m}²"),
            2.0 * (m as f64).powi(3),
            "GFLOP/s",
            sarek,
            wgsl,
            None,
            verified,
            first_launch,
        );
    }

    // mandelbrot
    {
        let (w, h, it) = if quick {
            (64usize, 48usize, 64u32)
        } else {
            (4096, 4096, 256)
        };
        let mut out = dev.zeros::<u32>(w * h)?;
        let first_launch = first(|| {
            kernels::mandelbrot
                .launch(&dev, Grid::cover_2d(w, h), w, h, it, &mut out)
                .expect("launch")
        });
        let got = out.read()?;
        let ro = storage(&ctx, &vec![0u8; w * h * 4]);
        let params = ctx.uniform(bytemuck::cast_slice(&[w as u32, h as u32, it]));
        let p = ctx.pipeline(include_str!("wgsl/mandelbrot.wgsl"));
        let bg = ctx.bind(&p, &[&ro, &params]);
        let d = [w.div_ceil(16) as u32, h.div_ceil(16) as u32, 1];
        ctx.time_passes(&[(&p, &bg, d)]);
        let raw: Vec<u32> = read(&ctx, &ro);
        let differ = got.iter().zip(&raw).filter(|(a, b)| a != b).count();
        let verified =
            differ * 1000 <= w * h && got.iter().any(|&v| v == it) && got.iter().any(|&v| v < 3);
        let (sarek, raw) = b.compare(
            || {
                vec![kernels::mandelbrot
                    .launch(&dev, Grid::cover_2d(w, h), w, h, it, &mut out)
                    .expect("launch")]
            },
            &[&[(&p, &bg, d)]],
        );
        let wgsl = raw[0];
        let iterations: f64 = got.iter().map(|&v| f64::from(v)).sum();
        // About 7 floating-point operations per iteration.
        b.pair(
            "mandelbrot",
            format!("{w}×{h}"),
            iterations * 7.0,
            "GFLOP/s",
            sarek,
            wgsl,
            None,
            verified,
            first_launch,
        );
    }

    // n-body
    {
        let bodies: usize = if quick { 300 } else { 32768 };
        let r = random_u32(9, bodies * 4);
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
        let first_launch = first(|| {
            kernels::nbody
                .launch(&dev, Grid::cover(bodies), &pb, &mut acc)
                .expect("launch")
        });
        let got = acc.read()?;
        let rp = storage(&ctx, bytemuck::cast_slice(&pos));
        let ra = storage(&ctx, &vec![0u8; bodies * 16]);
        let p = ctx.pipeline(include_str!("wgsl/nbody.wgsl"));
        let bg = ctx.bind(&p, &[&rp, &ra]);
        let d = [bodies.div_ceil(256) as u32, 1, 1];
        ctx.time_passes(&[(&p, &bg, d)]);
        let raw: Vec<f32> = read(&ctx, &ra);
        let verified = got
            .iter()
            .zip(&raw)
            .all(|(a, b)| (a - b).abs() <= 1e-3 * (1.0 + b.abs()));
        let (sarek, raw) = b.compare(
            || {
                vec![kernels::nbody
                    .launch(&dev, Grid::cover(bodies), &pb, &mut acc)
                    .expect("launch")]
            },
            &[&[(&p, &bg, d)]],
        );
        let wgsl = raw[0];
        // 20 floating-point operations per interaction.
        b.pair(
            "nbody",
            format!("{bodies} bodies"),
            (bodies * bodies) as f64 * 20.0,
            "GFLOP/s",
            sarek,
            wgsl,
            None,
            verified,
            first_launch,
        );
    }

    cpu_cost(&mut b, quick)?;
    if options.experiments {
        experiments(&b, n)?;
    }

    let all_verified = b.report.rows.iter().all(|r| r.verified);
    b.report.write(&options.out)?;
    println!("wrote {}", options.out.display());
    Ok(all_verified)
}

/// CPU cost of a launch: many small launches, Sarek against raw wgpu, and a batch recorded
/// into one encoder.
fn cpu_cost(b: &mut Bench, quick: bool) -> Result<()> {
    let ctx = b.ctx;
    let dev = &ctx.dev;
    let launches = if quick { 200 } else { 10_000 };
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
    let p = ctx.pipeline(include_str!("wgsl/touch.wgsl"));
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
    let total = v.read()?[0];
    let expect = 1 + 2 * launches;
    b.report.cpu = Some(crate::report::CpuCost {
        launches,
        sarek_us: sarek.as_secs_f64() * 1e6,
        wgpu_us: raw.as_secs_f64() * 1e6,
        batch_us: batch.as_secs_f64() * 1e6,
        verified: total == expect,
    });
    println!(
        "CPU per launch ({launches} launches): sarek {:.2} µs, raw wgpu {:.2} µs (ratio {:.2}); batched record {:.2} µs",
        sarek.as_secs_f64() * 1e6,
        raw.as_secs_f64() * 1e6,
        sarek.as_secs_f64() / raw.as_secs_f64(),
        batch.as_secs_f64() * 1e6
    );
    if total != expect {
        return Err(format!("touch counted {total}, expected {expect}").into());
    }
    Ok(())
}

/// Hand-written variants that isolate what the generated WGSL does differently.
fn experiments(b: &Bench, n: usize) -> Result<()> {
    let ctx = b.ctx;
    // The CPU-cost measurement turned profiling off.
    ctx.dev.set_profiling(ctx.timestamps);
    // Element-wise kernels: scalar, vec4, and two ways of coarsening scalar code by 4.
    {
        let xs: Vec<f32> = (0..n).map(|i| (i % 1000) as f32).collect();
        let rx = storage(ctx, bytemuck::cast_slice(&xs));
        let ry = storage(ctx, bytemuck::cast_slice(&xs));
        let params = ctx.uniform(bytemuck::cast_slice(&[2.0f32.to_bits(), n as u32]));
        let full = ctx.dispatch_1d(n.div_ceil(256) as u32);
        let quarter = ctx.dispatch_1d((n / 4).div_ceil(256) as u32);
        for (name, src, d) in [
            ("saxpy scalar (twin)", include_str!("wgsl/saxpy.wgsl"), full),
            (
                "saxpy vec4 (twin)",
                include_str!("wgsl/saxpy_vec4.wgsl"),
                quarter,
            ),
            (
                "saxpy vec4, guard on the first lane",
                include_str!("wgsl/experiments/saxpy_vec4_tail.wgsl"),
                quarter,
            ),
            (
                "saxpy coarsened x4, loads first",
                include_str!("wgsl/experiments/saxpy_coarse4_loads_first.wgsl"),
                quarter,
            ),
            (
                "saxpy coarsened x4, loop",
                include_str!("wgsl/experiments/saxpy_coarse4_loop.wgsl"),
                quarter,
            ),
        ] {
            let p = ctx.pipeline(src);
            let bg = ctx.bind(&p, &[&rx, &ry, &params]);
            let t = b.time_raw(&[(&p, &bg, d)]);
            println!(
                "experiment: {name:<50} {:>9.1} µs  {:>8.1} GB/s",
                t.as_secs_f64() * 1e6,
                (3 * n * 4) as f64 / t.as_secs_f64() / 1e9
            );
        }
        // Register-blocked matrix products at 4096².
        let m = 4096usize;
        let av: Vec<f32> = (0..m * m).map(|i| ((i * 7) % 13) as f32 - 6.0).collect();
        let ra = storage(ctx, bytemuck::cast_slice(&av));
        let rc = storage(ctx, &vec![0u8; m * m * 4]);
        let mp = ctx.uniform(bytemuck::cast_slice(&[m as u32, 0, 0, 0]));
        let twin = include_str!("wgsl/matmul_rb.wgsl");
        // The twin with `b0`, `b1` in `var`s, as Sarek used to declare every vector.
        let vars = twin
            .replace("let b0 = ", "var b0 = ")
            .replace("let b1 = ", "var b1 = ");
        for (name, src) in [
            ("matmul twin (all inner loops unrolled)", twin),
            (
                "matmul with accumulator loops",
                include_str!("wgsl/experiments/matmul_rb_loops.wgsl"),
            ),
            ("matmul with b0, b1 in `var`s", vars.as_str()),
            (
                "matmul with the loop over k kept",
                include_str!("wgsl/experiments/matmul_rb_k_loop.wgsl"),
            ),
        ] {
            let p = ctx.pipeline(src);
            let bg = ctx.bind(&p, &[&ra, &ra, &rc, &mp]);
            let t = b.time_raw(&[(&p, &bg, [32, 32, 1])]);
            println!(
                "experiment: {name:<50} {:>9.1} µs  {:>8.1} GFLOP/s",
                t.as_secs_f64() * 1e6,
                2.0 * (m as f64).powi(3) / t.as_secs_f64() / 1e9
            );
        }
        // The same in Sarek, with the loop over slices of k written as `while` (the suite's
        // kernel) and as `for`.
        {
            let dev = &ctx.dev;
            let av4 = dev.upload(bytemuck::cast_slice::<f32, sarek::Vec4>(&av))?;
            let mut c4 = dev.zeros::<sarek::Vec4>(m * m / 4)?;
            let grid = Grid::groups([32, 32, 1]);
            for (name, for_loop) in [
                ("Sarek matmul, `while` over k", false),
                ("Sarek matmul, `for` over k", true),
            ] {
                let mut launch = || {
                    vec![if for_loop {
                        kernels::matmul_rb_for
                            .launch(dev, grid, m, &av4, &av4, &mut c4)
                            .expect("launch")
                    } else {
                        kernels::matmul_rb
                            .launch(dev, grid, m, &av4, &av4, &mut c4)
                            .expect("launch")
                    }]
                };
                let t = median(b.warmup, b.runs, || ctx.time_sarek(&mut launch));
                println!(
                    "experiment: {name:<50} {:>9.1} µs  {:>8.1} GFLOP/s",
                    t.as_secs_f64() * 1e6,
                    2.0 * (m as f64).powi(3) / t.as_secs_f64() / 1e9
                );
            }
        }
        let rp = storage(ctx, &vec![0u8; 4 * 4096]);
        for groups in [1024u32, 2048, 4096] {
            for (name, src) in [
                (
                    "sum vec4, 2 accumulators (twin)",
                    include_str!("wgsl/sum4_stage.wgsl"),
                ),
                (
                    "sum vec4, 1 accumulator",
                    include_str!("wgsl/experiments/sum4_single.wgsl"),
                ),
                (
                    "sum vec4, 4 accumulators",
                    include_str!("wgsl/experiments/sum4_four.wgsl"),
                ),
                ("sum f32 (twin)", include_str!("wgsl/sum_stage.wgsl")),
            ] {
                let p = ctx.pipeline(src);
                let bg = ctx.bind(&p, &[&rx, &rp]);
                let t = b.time_raw(&[(&p, &bg, [groups, 1, 1])]);
                println!(
                    "experiment: {name:<38} {groups:>5} groups {:>9.1} µs  {:>8.1} GB/s",
                    t.as_secs_f64() * 1e6,
                    (n * 4) as f64 / t.as_secs_f64() / 1e9
                );
            }
        }
        // Where the two-stage sum's time goes.
        let p4 = ctx.pipeline(include_str!("wgsl/sum4_stage.wgsl"));
        let p1 = ctx.pipeline(include_str!("wgsl/sum_stage.wgsl"));
        let rt = storage(ctx, &[0u8; 4]);
        let rp2 = storage(ctx, &vec![0u8; 4 * 2048]);
        let bg1 = ctx.bind(&p4, &[&rx, &rp2]);
        let bg2 = ctx.bind(&p1, &[&rp2, &rt]);
        for (name, passes) in [
            (
                "sum stage 1 alone (2048 groups)",
                vec![(&p4, &bg1, [2048u32, 1, 1])],
            ),
            ("sum stage 2 alone (1 group)", vec![(&p1, &bg2, [1, 1, 1])]),
            (
                "sum, both stages in one pass",
                vec![(&p4, &bg1, [2048, 1, 1]), (&p1, &bg2, [1, 1, 1])],
            ),
        ] {
            let t = b.time_raw(&passes);
            println!("experiment: {name:<50} {:>9.1} µs", t.as_secs_f64() * 1e6);
        }
    }
    let data = random_u32(5, n);
    let rd = storage(ctx, bytemuck::cast_slice(&data));
    let rb = storage(ctx, &[0u8; 1024]);
    let d = ctx.dispatch_1d(n.div_ceil(256) as u32);
    let mut base = None;
    for (name, src) in [
        ("histogram twin", include_str!("wgsl/histogram.wgsl")),
        (
            "histogram + early return of surplus workgroups",
            include_str!("wgsl/experiments/histogram_return.wgsl"),
        ),
        (
            "histogram + surplus workgroups skip the body",
            include_str!("wgsl/experiments/histogram_if.wgsl"),
        ),
    ] {
        let p = ctx.pipeline(src);
        let bg = ctx.bind(&p, &[&rd, &rb]);
        let t = b.time_raw(&[(&p, &bg, d)]);
        let base_t = *base.get_or_insert(t);
        println!(
            "experiment: {name:<50} {:>9.1} µs  (twin / this {:.3})",
            t.as_secs_f64() * 1e6,
            base_t.as_secs_f64() / t.as_secs_f64()
        );
    }
    // Sarek's own WGSL for the histogram, launched raw, and edited to isolate each difference.
    let groups = n.div_ceil(256) as u32;
    // sarek_Params: the grid, then the lengths of `data` and `bins`.
    let uniform = [groups, 1, 1, n as u32, 256];
    let params = ctx.uniform(bytemuck::cast_slice(&uniform));
    let generated = kernels::histogram::WGSL.to_owned();
    let mut no_let = String::new();
    for line in generated.lines() {
        let line = match (line.find("let sarek_l"), line.find("= atomicAdd(")) {
            (Some(a), Some(b)) if a < b => format!("{}_ {}", &line[..a], &line[b..]),
            _ => line.to_owned(),
        };
        no_let.push_str(&line);
        no_let.push('\n');
    }
    let no_return = generated.replace(
        "if sarek_bid.x >= sarek_params.sarek_grid.x {\n        return;\n    }",
        "",
    );
    let mut variants: Vec<(String, String)> = vec![
        (
            "Sarek's histogram WGSL, launched raw".into(),
            generated.clone(),
        ),
        ("  ... atomic results not bound to a `let`".into(), no_let),
        (
            "  ... without the surplus-workgroup return".into(),
            no_return,
        ),
    ];
    // SAREK_BENCH_EXTRA=a.wgsl,b.wgsl: more variants with Sarek's bindings.
    for file in std::env::var("SAREK_BENCH_EXTRA")
        .unwrap_or_default()
        .split(',')
        .filter(|f| !f.is_empty())
    {
        variants.push((file.to_owned(), std::fs::read_to_string(file)?));
    }
    for (name, src) in &variants {
        let p = ctx.pipeline_at(src, "sarek_main");
        let bg = ctx.bind(&p, &[&rd, &rb, &params]);
        let t = b.time_raw(&[(&p, &bg, d)]);
        println!("experiment: {name:<50} {:>9.1} µs", t.as_secs_f64() * 1e6);
    }
    // Mandelbrot: Sarek's WGSL launched raw (its uniform packed by hand) against the twin.
    {
        let (w, h, it) = (4096u32, 4096u32, 256u32);
        let out = storage(ctx, &vec![0u8; (w * h * 4) as usize]);
        let twin_params = ctx.uniform(bytemuck::cast_slice(&[w, h, it]));
        let sarek_params = ctx.uniform(bytemuck::cast_slice(&[
            w.div_ceil(16),
            h.div_ceil(16),
            1,
            w,
            h,
            it,
            w * h,
        ]));
        let d = [w.div_ceil(16), h.div_ceil(16), 1];
        let twin = ctx.pipeline(include_str!("wgsl/mandelbrot.wgsl"));
        let twin_bg = ctx.bind(&twin, &[&out, &twin_params]);
        let gen = ctx.pipeline_at(kernels::mandelbrot::WGSL, "sarek_main");
        let gen_bg = ctx.bind(&gen, &[&out, &sarek_params]);
        let (_, t) = b.compare(Vec::new, &[&[(&twin, &twin_bg, d)], &[(&gen, &gen_bg, d)]]);
        println!(
            "experiment: mandelbrot twin {:.1} µs, Sarek's WGSL launched raw {:.1} µs",
            t[0].as_secs_f64() * 1e6,
            t[1].as_secs_f64() * 1e6
        );
        // SAREK_BENCH_MANDEL=a.wgsl,..: edited versions of Sarek's mandelbrot WGSL.
        for file in std::env::var("SAREK_BENCH_MANDEL")
            .unwrap_or_default()
            .split(',')
            .filter(|f| !f.is_empty())
        {
            let src = std::fs::read_to_string(file)?;
            let p = ctx.pipeline_at(&src, "sarek_main");
            let params = if file.contains("twinparams") {
                &twin_params
            } else {
                &sarek_params
            };
            let bg = ctx.bind(&p, &[&out, params]);
            let (_, t) = b.compare(Vec::new, &[&[(&twin, &twin_bg, d)], &[(&p, &bg, d)]]);
            println!(
                "experiment: mandelbrot twin {:.1} µs, {file} {:.1} µs",
                t[0].as_secs_f64() * 1e6,
                t[1].as_secs_f64() * 1e6
            );
        }
    }
    let ro = storage(ctx, &vec![0u8; n * 4]);
    let mut base = None;
    for (name, src) in [
        ("scan twin", include_str!("wgsl/block_scan.wgsl")),
        (
            "scan + early return of surplus workgroups",
            include_str!("wgsl/experiments/block_scan_return.wgsl"),
        ),
    ] {
        let p = ctx.pipeline(src);
        let bg = ctx.bind(&p, &[&rd, &ro]);
        let t = b.time_raw(&[(&p, &bg, d)]);
        let base_t = *base.get_or_insert(t);
        println!(
            "experiment: {name:<50} {:>9.1} µs  (twin / this {:.3})",
            t.as_secs_f64() * 1e6,
            base_t.as_secs_f64() / t.as_secs_f64()
        );
    }
    Ok(())
}
