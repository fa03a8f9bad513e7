//! The runtime's own measurements, apart from the suite because
//! they time the host and whole processes rather than kernels:
//!
//! - `back-to-back`: 200 back-to-back saxpy launches at 2^26 without a wait between them,
//!   wall clock against the sum of their GPU times (timestamp queries, in a separate run so
//!   that timing does not slow the wall-clock run), beside raw wgpu submitting each dispatch
//!   on its own; then the CPU cost per launch of a tiny kernel, Sarek against raw wgpu with
//!   the pipeline and bind group reused, three times.
//! - `first-launch`: the first launch (pipeline creation, dispatch and wait) of several suite
//!   kernels in a first process with an empty pipeline cache directory and in a second
//!   process with the directory the first one filled; the bench spawns itself for both. The
//!   driver's own shader caches are turned off in both children (`__GL_SHADER_DISK_CACHE=0`
//!   for NVIDIA, `MESA_SHADER_CACHE_DISABLE=true` for Mesa), so that only Sarek's cache
//!   carries over; `--driver-cache` leaves them on.
//!
//! - `debug-cost`: saxpy at 2^26 as written, with a `debug_assert!` (off in a release build)
//!   and with an `assert!` that holds, interleaved, the median GPU time of each, and whether
//!   the `debug_assert!` variant's WGSL is `saxpy`'s.
//!
//! `cargo run --release -p sarek-bench --bin rt_bench -- [back-to-back] [first-launch]
//! [debug-cost] [--quick] [--driver-cache]` (all by default).

#[allow(dead_code)]
#[path = "../kernels.rs"]
mod kernels;
#[allow(dead_code)]
#[path = "../raw.rs"]
mod raw;

use std::time::{Duration, Instant};

use sarek::{Buffer, Device, Grid, Vec4};

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--child-first-launch") {
        if let Err(e) = child_first_launch() {
            eprintln!("child failed: {e}");
            std::process::exit(1);
        }
        return;
    }
    let quick = args.iter().any(|a| a == "--quick");
    let driver_cache = args.iter().any(|a| a == "--driver-cache");
    let picked: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let all = picked.is_empty();
    let mut failed = false;
    if all || picked.contains(&"back-to-back") {
        if let Err(e) = back_to_back(quick) {
            eprintln!("back-to-back failed: {e}");
            failed = true;
        }
    }
    if all || picked.contains(&"naga") {
        naga_times();
    }
    if all || picked.contains(&"debug-cost") {
        if let Err(e) = debug_cost(quick) {
            eprintln!("debug-cost failed: {e}");
            failed = true;
        }
    }
    if all || picked.contains(&"first-launch") {
        if let Err(e) = first_launch(driver_cache) {
            eprintln!("first-launch failed: {e}");
            failed = true;
        }
    }
    if failed {
        std::process::exit(1);
    }
}

/// saxpy without an assertion, with a disabled `debug_assert!` and with an `assert!`: the
/// median GPU time of each over interleaved rounds, after a second of warm-up.
fn debug_cost(quick: bool) -> Result<()> {
    let dev = Device::new()?;
    if dev.is_cpu() {
        return Err("debug-cost measures a GPU; no GPU device".into());
    }
    if !dev.set_profiling(true) {
        return Err("debug-cost needs GPU timestamps".into());
    }
    let n: usize = if quick { 1 << 20 } else { 1 << 26 };
    let x = dev.upload(&(0..n).map(|i| (i % 1000) as f32).collect::<Vec<_>>())?;
    let mut y = dev.zeros::<f32>(n)?;
    let grid = Grid::cover(n);
    type Run<'a> = Box<dyn Fn(&mut Buffer<f32>) -> sarek::Result<sarek::Launch> + 'a>;
    let variants: [(&str, Run); 3] = [
        (
            "saxpy",
            Box::new(|y| kernels::saxpy.launch(&dev, grid, 2.0, &x, y)),
        ),
        (
            "saxpy + debug_assert! (release: off)",
            Box::new(|y| kernels::saxpy_debug_assert.launch(&dev, grid, 2.0, &x, y)),
        ),
        (
            "saxpy + assert!",
            Box::new(|y| kernels::saxpy_assert.launch(&dev, grid, 2.0, &x, y)),
        ),
    ];
    let warm = Instant::now();
    while warm.elapsed() < Duration::from_secs(1) {
        for (_, run) in &variants {
            run(&mut y)?.wait()?;
        }
    }
    let mut samples = vec![Vec::new(); variants.len()];
    for _ in 0..31 {
        for ((_, run), s) in variants.iter().zip(&mut samples) {
            let h = run(&mut y)?;
            s.push(h.gpu_time()?.unwrap_or_default());
        }
    }
    dev.set_profiling(false);
    let base = {
        let mut s = samples[0].clone();
        s.sort();
        s[s.len() / 2]
    };
    for ((name, _), mut s) in variants.iter().zip(samples) {
        s.sort();
        let mid = s[s.len() / 2];
        println!(
            "debug-cost {name}: {:.1} µs, {:.0} GB/s, {:.3}x saxpy",
            mid.as_secs_f64() * 1e6,
            (3 * n * 4) as f64 / mid.as_secs_f64() / 1e9,
            mid.as_secs_f64() / base.as_secs_f64()
        );
    }
    let same = kernels::saxpy_debug_assert::SOURCE
        .wgsl()
        .replace("saxpy_debug_assert", "saxpy")
        == kernels::saxpy::SOURCE.wgsl();
    println!("debug-cost: the debug_assert! variant's WGSL is saxpy's: {same}");
    Ok(())
}

/// 200 back-to-back saxpy launches: wall clock against GPU time, and the CPU cost per launch.
fn back_to_back(quick: bool) -> Result<()> {
    let dev = Device::new()?;
    println!("device: {}", dev.name());
    if dev.is_cpu() {
        return Err("back-to-back measures a GPU; no GPU device".into());
    }
    let n: usize = if quick { 1 << 20 } else { 1 << 26 };
    let launches = 200;
    let x = dev.upload(&vec![1.0f32; n])?;
    let mut y = dev.zeros::<f32>(n)?;
    let saxpy = |y: &mut Buffer<f32>| kernels::saxpy.launch(&dev, Grid::cover(n), 2.0, &x, y);
    saxpy(&mut y)?.wait()?;

    dev.set_profiling(false);
    let mut walls = Vec::new();
    for _ in 0..3 {
        let start = Instant::now();
        for _ in 0..launches {
            saxpy(&mut y)?;
        }
        dev.synchronize()?;
        walls.push(start.elapsed());
    }
    let wall = *walls.iter().min().unwrap_or(&Duration::ZERO);
    let gpu = if dev.set_profiling(true) {
        let handles = (0..launches)
            .map(|_| saxpy(&mut y))
            .collect::<sarek::Result<Vec<_>>>()?;
        let mut sum = Duration::ZERO;
        for h in &handles {
            sum += h.gpu_time()?.unwrap_or_default();
        }
        dev.set_profiling(false);
        Some(sum)
    } else {
        None
    };

    // Raw wgpu, one submission per dispatch, as a reference.
    let ctx = raw::Ctx {
        dev: dev.clone(),
        timestamps: false,
    };
    let rx = raw::storage(&ctx, bytemuck::cast_slice(&vec![1.0f32; n]));
    let ry = raw::storage(&ctx, &vec![0u8; n * 4]);
    let params = ctx.uniform(bytemuck::cast_slice(&[2.0f32.to_bits(), n as u32]));
    let p = ctx.pipeline(include_str!("../wgsl/saxpy.wgsl"));
    let bg = ctx.bind(&p, &[&rx, &ry, &params]);
    let d = ctx.dispatch_1d(n.div_ceil(256) as u32);
    let submit = |p: &sarek::wgpu::ComputePipeline, bg: &sarek::wgpu::BindGroup, d: [u32; 3]| {
        let mut encoder = ctx.device().create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(p);
            pass.set_bind_group(0, bg, &[]);
            pass.dispatch_workgroups(d[0], d[1], d[2]);
        }
        ctx.queue().submit([encoder.finish()]);
    };
    submit(&p, &bg, d);
    ctx.wait();
    let start = Instant::now();
    for _ in 0..launches {
        submit(&p, &bg, d);
    }
    ctx.wait();
    let raw_wall = start.elapsed();

    let per = |d: Duration| d.as_secs_f64() * 1e6 / f64::from(launches);
    println!(
        "{launches} back-to-back saxpy launches at 2^{}: wall {:.1} µs/launch (best of 3: {})",
        n.trailing_zeros(),
        per(wall),
        walls
            .iter()
            .map(|w| format!("{:.1}", per(*w)))
            .collect::<Vec<_>>()
            .join(", ")
    );
    match gpu {
        Some(gpu) => println!(
            "  GPU time {:.1} µs/launch; wall / GPU = {:.3} (target ≤ 1.05)",
            per(gpu),
            wall.as_secs_f64() / gpu.as_secs_f64()
        ),
        None => println!("  no timestamp queries on this adapter: GPU time not measured"),
    }
    println!(
        "  raw wgpu, one submission per dispatch: wall {:.1} µs/launch",
        per(raw_wall)
    );

    // Where the rest goes: the same dispatches in one command buffer (the floor of any
    // submission scheme), as one pass each and as one pass, with the GPU's own span from the
    // first dispatch's start to the last one's end where there are timestamps.
    let stamps = ctx
        .device()
        .features()
        .contains(sarek::wgpu::Features::TIMESTAMP_QUERY);
    for one_pass in [false, true] {
        let shape = if one_pass { "one pass" } else { "a pass each" };
        let (raw_wall, _) = raw_stream(&ctx, (&p, &bg, d), launches, one_pass, false);
        let span = if stamps {
            raw_stream(&ctx, (&p, &bg, d), launches, one_pass, true).1
        } else {
            None
        };
        let against = |x: Duration| match gpu {
            Some(g) => format!(
                " = {:.3} × the launches' GPU time",
                x.as_secs_f64() / g.as_secs_f64()
            ),
            None => String::new(),
        };
        println!(
            "  raw wgpu, {launches} dispatches in one command buffer, {shape}: wall {:.1} µs/launch{}",
            per(raw_wall),
            against(raw_wall)
        );
        if let Some(span) = span {
            println!(
                "    GPU span first start .. last end {:.1} µs/launch{}",
                per(span),
                against(span)
            );
        }
    }
    // Sarek's own stream, split: the loop of launches, then the wait; and one `Batch`.
    let start = Instant::now();
    let first = saxpy(&mut y)?;
    let first_returned = start.elapsed();
    drop(first);
    for _ in 1..launches {
        saxpy(&mut y)?;
    }
    let looped = start.elapsed();
    dev.synchronize()?;
    let total = start.elapsed();
    println!(
        "  sarek timeline: first launch returned after {:.1} µs, all {launches} after {:.1} µs, synchronize done at {:.1} µs ({:.1} µs/launch{})",
        first_returned.as_secs_f64() * 1e6,
        looped.as_secs_f64() * 1e6,
        total.as_secs_f64() * 1e6,
        per(total),
        match gpu {
            Some(g) => format!(", {:.3} × GPU", total.as_secs_f64() / g.as_secs_f64()),
            None => String::new(),
        }
    );
    let start = Instant::now();
    let mut batch = dev.batch();
    for _ in 0..launches {
        kernels::saxpy.enqueue(&mut batch, Grid::cover(n), 2.0, &x, &mut y)?;
    }
    batch.submit()?.wait()?;
    let batched = start.elapsed();
    println!(
        "  sarek, one Batch of {launches}: wall {:.1} µs/launch{}",
        per(batched),
        match gpu {
            Some(g) => format!(" = {:.3} × GPU", batched.as_secs_f64() / g.as_secs_f64()),
            None => String::new(),
        }
    );

    let expect = 2.0 * (1 + 5 * launches + if gpu.is_some() { launches } else { 0 }) as f32;
    let got = y.read_range(n - 1..n)?[0];
    if got != expect {
        return Err(format!("saxpy gave {got}, expected {expect}").into());
    }

    // The CPU cost of a tiny launch, three times.
    let count = if quick { 2_000 } else { 10_000 };
    let mut v: Buffer<u32> = dev.zeros(256)?;
    let rv = raw::storage(&ctx, &[0u8; 1024]);
    let tp = ctx.pipeline(include_str!("../wgsl/touch.wgsl"));
    let tbg = ctx.bind(&tp, &[&rv]);
    kernels::touch
        .launch(&dev, Grid::cover(256), &mut v)?
        .wait()?;
    for run in 1..=3 {
        let start = Instant::now();
        for _ in 0..count {
            kernels::touch.launch(&dev, Grid::cover(256), &mut v)?;
        }
        dev.synchronize()?;
        let sarek = start.elapsed();
        let start = Instant::now();
        for _ in 0..count {
            submit(&tp, &tbg, [1, 1, 1]);
        }
        ctx.wait();
        let raw = start.elapsed();
        let us = |d: Duration| d.as_secs_f64() * 1e6 / f64::from(count);
        println!(
            "  CPU per launch, run {run} ({count} launches): sarek {:.2} µs, raw wgpu {:.2} µs, ratio {:.3} (target ≤ 1.1)",
            us(sarek),
            us(raw),
            sarek.as_secs_f64() / raw.as_secs_f64()
        );
    }
    let expect = 1 + 3 * count;
    let got = v.read_range(0..1)?[0];
    if got != expect as u32 {
        return Err(format!("touch counted {got}, expected {expect}").into());
    }
    Ok(())
}

/// `launches` dispatches of `work` in one command buffer (a pass each, or all in one pass),
/// submitted at once: the wall time to their end and, with `stamp`, the GPU's span from the
/// first pass's start to the last one's end.
fn raw_stream(
    ctx: &raw::Ctx,
    work: (
        &sarek::wgpu::ComputePipeline,
        &sarek::wgpu::BindGroup,
        [u32; 3],
    ),
    launches: u32,
    one_pass: bool,
    stamp: bool,
) -> (Duration, Option<Duration>) {
    use sarek::wgpu;
    let device = ctx.device();
    let queries = stamp.then(|| {
        device.create_query_set(&wgpu::QuerySetDescriptor {
            label: None,
            ty: wgpu::QueryType::Timestamp,
            count: 2,
        })
    });
    let buffer = |usage| {
        device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: 16,
            usage,
            mapped_at_creation: false,
        })
    };
    let resolve = buffer(wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC);
    let read = buffer(wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST);
    let (p, bg, d) = work;
    let start = Instant::now();
    let mut encoder = device.create_command_encoder(&Default::default());
    let passes = if one_pass { 1 } else { launches };
    let per_pass = if one_pass { launches } else { 1 };
    for i in 0..passes {
        let writes = queries.as_ref().and_then(|q| {
            let (first, last) = (i == 0, i + 1 == passes);
            (first || last).then_some(wgpu::ComputePassTimestampWrites {
                query_set: q,
                beginning_of_pass_write_index: first.then_some(0),
                end_of_pass_write_index: last.then_some(1),
            })
        });
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: None,
            timestamp_writes: writes,
        });
        pass.set_pipeline(p);
        pass.set_bind_group(0, bg, &[]);
        for _ in 0..per_pass {
            pass.dispatch_workgroups(d[0], d[1], d[2]);
        }
    }
    if let Some(q) = &queries {
        encoder.resolve_query_set(q, 0..2, &resolve, 0);
        encoder.copy_buffer_to_buffer(&resolve, 0, &read, 0, 16);
    }
    ctx.queue().submit([encoder.finish()]);
    ctx.wait();
    let wall = start.elapsed();
    let span = queries.map(|_| {
        read.slice(..).map_async(wgpu::MapMode::Read, |_| {});
        ctx.wait();
        let ticks: Vec<u64> =
            bytemuck::pod_collect_to_vec(&read.slice(..).get_mapped_range().expect("mapped"));
        let period = f64::from(ctx.queue().get_timestamp_period());
        Duration::from_nanos((ticks[1].saturating_sub(ticks[0]) as f64 * period) as u64)
    });
    (wall, span)
}

/// naga's share of a first launch, on this host's CPU: parsing and validating a kernel's WGSL
/// (what `create_shader_module` does) and writing one entry point's SPIR-V (what the Vulkan
/// back end does in `create_compute_pipeline`, before the driver compiles it), for the whole
/// module and for the module cut to its direct entry point.
fn naga_times() {
    let kernels: [(&str, &str); 4] = [
        ("saxpy", kernels::saxpy::SOURCE.wgsl()),
        ("matmul", kernels::matmul::SOURCE.wgsl()),
        ("matmul_rb", kernels::matmul_rb::SOURCE.wgsl()),
        ("matmul_rb_one", kernels::matmul_rb_one::SOURCE.wgsl()),
    ];
    println!("naga on the host CPU (median of 5): parse, validate, SPIR-V of sarek_main");
    for (name, wgsl) in kernels {
        // The direct entry point is the first one the writer emits.
        let cut = match wgsl.match_indices("@compute").nth(1) {
            Some((at, _)) => &wgsl[..at],
            None => wgsl,
        };
        for (shape, text) in [("whole module", wgsl), ("sarek_main only", cut)] {
            let mut times = [[0.0f64; 5]; 5];
            for t in &mut times {
                let start = Instant::now();
                let module = naga::front::wgsl::parse_str(text).expect("parses");
                let parsed = start.elapsed();
                let info = naga::valid::Validator::new(
                    naga::valid::ValidationFlags::all(),
                    naga::valid::Capabilities::all(),
                )
                .validate(&module)
                .expect("valid");
                let validated = start.elapsed();
                let options = naga::back::spv::Options::default();
                let pipeline = naga::back::spv::PipelineOptions {
                    shader_stage: naga::ShaderStage::Compute,
                    entry_point: "sarek_main".into(),
                };
                let words = naga::back::spv::write_vec(&module, &info, &options, Some(&pipeline))
                    .expect("SPIR-V");
                let written = start.elapsed();
                assert!(!words.is_empty());
                // What a second process does instead of parsing: decode the module that the
                // runtime's cache saved (`sarek-rt`'s module_cache.rs).
                let bytes = postcard::to_allocvec(&module).expect("encodes");
                let decoding = Instant::now();
                let decoded: naga::Module = postcard::from_bytes(&bytes).expect("decodes");
                let decoded_in = decoding.elapsed();
                assert_eq!(decoded.entry_points.len(), module.entry_points.len());
                let proving = Instant::now();
                let proven = sarek_proof::in_bounds::unclamped_entry_points(&module, &info);
                let proof = proving.elapsed();
                std::hint::black_box(proven);
                *t = [
                    parsed.as_secs_f64(),
                    (validated - parsed).as_secs_f64(),
                    (written - validated).as_secs_f64(),
                    decoded_in.as_secs_f64(),
                    proof.as_secs_f64(),
                ];
            }
            let median = |i: usize| {
                let mut v: Vec<f64> = times.iter().map(|t| t[i] * 1e3).collect();
                v.sort_by(f64::total_cmp);
                v[2]
            };
            println!(
                "  {name:<10} {shape:<16} {:>7} bytes: parse {:.2} ms, validate {:.2} ms, SPIR-V {:.2} ms; cached module decode {:.3} ms (parse/decode {:.1}x); in-bounds proof {:.2} ms",
                text.len(),
                median(0),
                median(1),
                median(2),
                median(3),
                median(0) / median(3),
                median(4)
            );
        }
    }
}

/// The kernels whose first launch is timed, by name.
const FIRST: [&str; 7] = [
    "saxpy",
    "matmul",
    "matmul_rb",
    "mandelbrot",
    "nbody",
    "matmul_rb_single",
    "matmul_rb_one",
];

/// Spawns this program twice with one fresh cache directory and prints both processes'
/// first launches.
fn first_launch(driver_cache: bool) -> Result<()> {
    let dir = std::env::temp_dir().join(format!("sarek-rt-bench-cache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let me = std::env::current_exe()?;
    let run = |label: &str| -> Result<Vec<(String, f64)>> {
        let mut cmd = std::process::Command::new(&me);
        cmd.arg("--child-first-launch")
            .env("SAREK_CACHE_DIR", &dir)
            .env(
                "SAREK_LOG",
                "sarek_rt::launch::pipeline=info,sarek_rt::launch::tiered=info",
            )
            .env_remove("SAREK_CACHE");
        if !driver_cache {
            cmd.env("__GL_SHADER_DISK_CACHE", "0")
                .env("MESA_SHADER_CACHE_DISABLE", "true");
        }
        let out = cmd.output()?;
        if !out.status.success() {
            return Err(format!(
                "the {label} process failed: {}",
                String::from_utf8_lossy(&out.stderr)
            )
            .into());
        }
        // Where each pipeline's time went (the runtime's log line per pipeline).
        for line in String::from_utf8_lossy(&out.stderr).lines() {
            if let Some(at) = line
                .find("created the")
                .or_else(|| line.find("compiled the optimized"))
            {
                println!("  {label} process: {}", &line[at..]);
            }
        }
        Ok(String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|l| {
                let mut parts = l.split_whitespace();
                (parts.next() == Some("first-launch")).then_some(())?;
                let name = parts.next()?.to_owned();
                let ms = parts.next()?.parse().ok()?;
                Some((name, ms))
            })
            .collect())
    };
    let first = run("first")?;
    let second = run("second")?;
    let _ = std::fs::remove_dir_all(&dir);
    println!(
        "first launch (pipeline creation + dispatch + wait), cache dir {} (driver caches {}):",
        dir.display(),
        if driver_cache { "on" } else { "off" }
    );
    println!(
        "  {:<12} {:>16} {:>16}",
        "kernel", "first process", "second process"
    );
    for ((name, a), (_, b)) in first.iter().zip(&second) {
        println!("  {name:<12} {a:>13.2} ms {b:>13.2} ms");
    }
    let max = |v: &[(String, f64)]| v.iter().map(|(_, ms)| *ms).fold(0.0, f64::max);
    println!(
        "  slowest: {:.2} ms in the first process (target ≤ 100), {:.2} ms in the second (target ≤ 10)",
        max(&first),
        max(&second)
    );
    Ok(())
}

/// In a child: opens the device, then times each kernel's first launch.
fn child_first_launch() -> Result<()> {
    let start = Instant::now();
    let dev = Device::new()?;
    println!("device {:.2}", start.elapsed().as_secs_f64() * 1e3);
    if let Some(file) = dev.pipeline_cache_file() {
        eprintln!(
            "cache file {} (reused: {})",
            file.display(),
            dev.pipeline_cache_reused()
        );
    }
    for name in FIRST {
        let ms = time_first(&dev, name)?;
        println!("first-launch {name} {ms:.3}");
    }
    Ok(())
}

/// The first launch of kernel `name` on `dev`, waited for, in milliseconds.
fn time_first(dev: &Device, name: &str) -> Result<f64> {
    // 128: one tile of the register-blocked product.
    let n = 128usize;
    let a = dev.upload(&vec![1.0f32; n * n])?;
    let b = dev.upload(&vec![1.0f32; n * n])?;
    let mut c = dev.zeros::<f32>(n * n)?;
    let b4 = dev.upload(&vec![Vec4::ONE; n * n / 4])?;
    let mut c4 = dev.zeros::<Vec4>(n * n / 4)?;
    let mut pixels = dev.zeros::<u32>(n * n)?;
    let pos = dev.upload(&vec![0.5f32; 4 * n])?;
    let mut acc = dev.zeros::<f32>(4 * n)?;
    let start = Instant::now();
    let launch = match name {
        "saxpy" => kernels::saxpy.launch(dev, Grid::cover(n), 2.0, &a, &mut c)?,
        "matmul" => kernels::matmul.launch(dev, Grid::cover_2d(n, n), n, &a, &b, &mut c)?,
        "matmul_rb" => kernels::matmul_rb.launch(dev, Grid::groups(1), n, &a, &b4, &mut c4)?,
        "matmul_rb_single" => {
            kernels::matmul_rb_single.launch(dev, Grid::groups(1), n, &a, &b4, &mut c4)?
        }
        "matmul_rb_one" => {
            kernels::matmul_rb_one.launch(dev, Grid::groups(1), n, &a, &b4, &mut c4)?
        }
        "mandelbrot" => {
            kernels::mandelbrot.launch(dev, Grid::cover_2d(n, n), n, n, 64, &mut pixels)?
        }
        "nbody" => kernels::nbody.launch(dev, Grid::cover(n), &pos, &mut acc)?,
        other => return Err(format!("no kernel {other}").into()),
    };
    launch.wait()?;
    Ok(start.elapsed().as_secs_f64() * 1e3)
}
