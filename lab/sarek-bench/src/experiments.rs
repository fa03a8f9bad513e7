//! `--experiments`: hand-written variants of the twins and edited copies of Sarek's own WGSL,
//! each isolating one difference between generated and hand-written code. They print their
//! times and go into no report.

use sarek::Grid;

use crate::benches::{random_u32, Bench, Result};
use crate::kernels;
use crate::raw::storage;

/// One experiment: it prints what it measured.
type Experiment = fn(&Bench) -> Result<()>;

/// The experiments by name, in the order they print.
const EXPERIMENTS: &[(&str, Experiment)] = &[
    ("saxpy", saxpy),
    ("poly", poly),
    ("matmul", matmul),
    ("sum", sum),
    ("histogram", histogram),
    ("mandelbrot", mandelbrot),
    ("scan", scan),
    ("scan3", crate::scan_experiments::scan3),
    ("sum2", crate::sum_kernels::sum2),
    ("bisect", crate::bisect::bisect),
    ("matmul_f16", crate::benches::coop_variants::variants),
    ("matmul3", crate::matmul_experiments::matmul3),
    ("coop_first", crate::coop_first::coop_first),
    ("noopt", crate::noopt::noopt),
];

/// Runs the experiments `chosen` picks by name.
pub fn run(b: &Bench, chosen: impl Fn(&str) -> bool) -> Result<()> {
    for (name, experiment) in EXPERIMENTS {
        if chosen(name) {
            experiment(b)?;
        }
    }
    Ok(())
}

/// The polynomial `y = (a·x + b)·x + c` (one load, one store per element): the scalar and
/// vec4 twins and scalar code coarsened by 4 (Sarek's shape) and by 8, loads first.
fn poly(b: &Bench) -> Result<()> {
    let (ctx, n) = (b.ctx, b.n);
    let xs: Vec<f32> = (0..n).map(|i| (i % 1000) as f32).collect();
    let rx = storage(ctx, bytemuck::cast_slice(&xs));
    let ry = storage(ctx, &vec![0u8; n * 4]);
    let params = ctx.uniform(bytemuck::cast_slice(&[
        0.5f32.to_bits(),
        (-2.0f32).to_bits(),
        3.0f32.to_bits(),
        n as u32,
    ]));
    let groups = |per_thread: usize| ctx.dispatch_1d((n / per_thread).div_ceil(256) as u32);
    for (name, src, d) in [
        (
            "poly scalar (twin)",
            include_str!("wgsl/poly.wgsl"),
            groups(1),
        ),
        (
            "poly vec4 (twin)",
            include_str!("wgsl/poly_vec4.wgsl"),
            groups(4),
        ),
        (
            "poly coarsened x4, loads first",
            include_str!("wgsl/experiments/poly_coarse4.wgsl"),
            groups(4),
        ),
        (
            "poly coarsened x8, loads first",
            include_str!("wgsl/experiments/poly_coarse8.wgsl"),
            groups(8),
        ),
        (
            "poly coarsened x16, loads first",
            include_str!("wgsl/experiments/poly_coarse16.wgsl"),
            groups(16),
        ),
        (
            "poly coarsened x4 adjacent, scalar bindings",
            include_str!("wgsl/experiments/poly_contig4.wgsl"),
            groups(4),
        ),
        (
            "poly vec4 bindings, staged stores (vec4 entry)",
            include_str!("wgsl/experiments/poly_v4_staged.wgsl"),
            groups(4),
        ),
        (
            "poly vec4 loads, guarded lane stores",
            include_str!("wgsl/experiments/poly_v4_lanes.wgsl"),
            groups(4),
        ),
    ] {
        let p = ctx.pipeline(src);
        let bg = ctx.bind(&p, &[&rx, &ry, &params]);
        let t = b.timer.time_raw(&[(&p, &bg, d)]);
        println!(
            "experiment: {name:<50} {:>9.1} µs  {:>8.1} GB/s",
            t.as_secs_f64() * 1e6,
            (2 * n * 4) as f64 / t.as_secs_f64() / 1e9
        );
    }
    Ok(())
}

/// Element-wise kernels: scalar, vec4, and two ways of coarsening scalar code by 4.
fn saxpy(b: &Bench) -> Result<()> {
    let (ctx, n) = (b.ctx, b.n);
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
        (
            "saxpy coarsened x4, Sarek's shape",
            include_str!("wgsl/experiments/saxpy_coarse4.wgsl"),
            quarter,
        ),
        (
            "saxpy coarsened x8, Sarek's shape",
            include_str!("wgsl/experiments/saxpy_coarse8.wgsl"),
            ctx.dispatch_1d((n / 8).div_ceil(256) as u32),
        ),
    ] {
        let p = ctx.pipeline(src);
        let bg = ctx.bind(&p, &[&rx, &ry, &params]);
        let t = b.timer.time_raw(&[(&p, &bg, d)]);
        println!(
            "experiment: {name:<50} {:>9.1} µs  {:>8.1} GB/s",
            t.as_secs_f64() * 1e6,
            (3 * n * 4) as f64 / t.as_secs_f64() / 1e9
        );
    }
    Ok(())
}

/// Register-blocked matrix products at 4096²: the twin, edited twins, and Sarek's kernel with
/// its loop over k written two ways.
fn matmul(b: &Bench) -> Result<()> {
    let ctx = b.ctx;
    let m = 4096usize;
    let av: Vec<f32> = (0..m * m).map(|i| ((i * 7) % 13) as f32 - 6.0).collect();
    let ra = storage(ctx, bytemuck::cast_slice(&av));
    let rc = storage(ctx, &vec![0u8; m * m * 4]);
    let mp = ctx.uniform(bytemuck::cast_slice(&[m as u32, 0, 0, 0]));
    // The twin of the kernel before its second workgroup buffer.
    let twin = include_str!("wgsl/experiments/matmul_rb_bk8.wgsl");
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
        let t = b.timer.time_raw(&[(&p, &bg, [32, 32, 1])]);
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
        let av1 = dev.upload(&av)?;
        let mut c4 = dev.zeros::<sarek::Vec4>(m * m / 4)?;
        let grid = Grid::groups([32, 32, 1]);
        for (name, for_loop) in [
            ("Sarek matmul, `while` over k", false),
            ("Sarek matmul, `for` over k", true),
        ] {
            let launch = || {
                vec![if for_loop {
                    kernels::matmul_rb_for
                        .launch(dev, grid, m, &av4, &av4, &mut c4)
                        .expect("launch")
                } else {
                    kernels::matmul_rb
                        .launch(dev, grid, m, &av1, &av4, &mut c4)
                        .expect("launch")
                }]
            };
            let t = b.timer.time_sarek(launch);
            println!(
                "experiment: {name:<50} {:>9.1} µs  {:>8.1} GFLOP/s",
                t.as_secs_f64() * 1e6,
                2.0 * (m as f64).powi(3) / t.as_secs_f64() / 1e9
            );
        }
    }
    Ok(())
}

/// The first stage of the sums with one, two and four accumulators at several workgroup
/// counts, and where the two-stage sum's time goes.
fn sum(b: &Bench) -> Result<()> {
    let (ctx, n) = (b.ctx, b.n);
    // The input of saxpy's experiments.
    let xs: Vec<f32> = (0..n).map(|i| (i % 1000) as f32).collect();
    let rx = storage(ctx, bytemuck::cast_slice(&xs));
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
            let t = b.timer.time_raw(&[(&p, &bg, [groups, 1, 1])]);
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
        let t = b.timer.time_raw(&passes);
        println!("experiment: {name:<50} {:>9.1} µs", t.as_secs_f64() * 1e6);
    }
    Ok(())
}

/// The histogram: the twin with the surplus workgroups returning early or skipping the body,
/// then Sarek's own WGSL launched raw and edited to isolate each difference.
fn histogram(b: &Bench) -> Result<()> {
    let (ctx, n) = (b.ctx, b.n);
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
        let t = b.timer.time_raw(&[(&p, &bg, d)]);
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
        let t = b.timer.time_raw(&[(&p, &bg, d)]);
        println!("experiment: {name:<50} {:>9.1} µs", t.as_secs_f64() * 1e6);
    }
    Ok(())
}

/// Mandelbrot: Sarek's WGSL launched raw (its uniform packed by hand) against the twin.
fn mandelbrot(b: &Bench) -> Result<()> {
    let ctx = b.ctx;
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
    let (_, t) = b
        .timer
        .compare(Vec::new, &[&[(&twin, &twin_bg, d)], &[(&gen, &gen_bg, d)]]);
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
        let (_, t) = b
            .timer
            .compare(Vec::new, &[&[(&twin, &twin_bg, d)], &[(&p, &bg, d)]]);
        println!(
            "experiment: mandelbrot twin {:.1} µs, {file} {:.1} µs",
            t[0].as_secs_f64() * 1e6,
            t[1].as_secs_f64() * 1e6
        );
    }
    Ok(())
}

/// The block scan: the twin against the twin with an early return of surplus workgroups.
fn scan(b: &Bench) -> Result<()> {
    let (ctx, n) = (b.ctx, b.n);
    // The histogram's input.
    let data = random_u32(5, n);
    let rd = storage(ctx, bytemuck::cast_slice(&data));
    let d = ctx.dispatch_1d(n.div_ceil(256) as u32);
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
        let t = b.timer.time_raw(&[(&p, &bg, d)]);
        let base_t = *base.get_or_insert(t);
        println!(
            "experiment: {name:<50} {:>9.1} µs  (twin / this {:.3})",
            t.as_secs_f64() * 1e6,
            base_t.as_secs_f64() / t.as_secs_f64()
        );
    }
    Ok(())
}
