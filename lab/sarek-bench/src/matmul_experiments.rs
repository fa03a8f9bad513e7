//! `--experiments --only x_matmul3`: shapes of the register-blocked f32 matrix product
//! (`matmul_rb`, 128×128 tile, 16×16 threads, 8×8 per thread), generated as WGSL from a
//! handful of choices, each timed at 4096² next to the twin and checked bit for bit against it,
//! with the time its pipeline took to create (naga and the driver's compiler; run with the
//! driver's disk cache off, `__GL_SHADER_DISK_CACHE=0`, to see a first process's cost).
//! Then Sarek's kernels of the same product, each interleaved run by run with the twin.
//!
//! `SAREK_MM_DIR=folder` times that folder's `*.wgsl` files (entry `main`, the twin's bindings)
//! instead of the generated shapes: edits of a kernel's generated WGSL, to bisect a difference
//! without rebuilding. `SAREK_MM_SAREK=single,one` times only the twin and the Sarek kernels
//! named (each in a process of its own stays clear of the clock drops of long processes);
//! `SAREK_MM_DUMP=folder` writes every WGSL timed, Sarek's modules among them.

use std::fmt::Write;
use std::time::Instant;

use crate::benches::{Bench, Result};
use crate::raw::{read, storage};

/// One shape of the kernel.
#[derive(Clone, Copy)]
pub struct Shape {
    /// Threads along x (columns) and y (rows) of the workgroup.
    pub tx: u32,
    /// Threads along y.
    pub ty: u32,
    /// Groups of four rows per thread (`rm` × 4 rows, `ty`·4 rows apart).
    pub rm: u32,
    /// `vec4`s of columns per thread (`cn` × 4 columns, `tx` vectors apart).
    pub cn: u32,
    /// The slice of k staged in workgroup memory per step.
    pub bk: u32,
    /// A staged transposed as `vec4`s (four rows of one k in a vector) rather than as floats.
    pub a_vec: bool,
    /// The k steps of one slice written out per iteration of a loop over the slice (`bk`: the
    /// slice fully unrolled).
    pub unroll: u32,
    /// The next slice's global loads issued before the current slice's products, into a
    /// second workgroup buffer (one barrier per slice).
    pub prefetch: bool,
    /// With `prefetch`: one slice per trip of the loop over k, the buffer chosen at run time
    /// (half the code of two slices per trip with constant buffers).
    pub dyn_buf: bool,
    /// With `prefetch`: one workgroup buffer, the prefetched registers stored between two
    /// barriers after the products (one copy of the body, no buffer index).
    pub single: bool,
    /// Floats of padding after each row of the scalar A slice.
    pub pad: u32,
    /// Workgroups take their tiles in bands of 8 tile rows (L2 reuse) instead of row by row.
    pub swizzle: bool,
    /// With `a_vec`: each thread loads four floats of A (four rows, one k) and stores them as
    /// one `vec4` (no component-wise stores; the A slice's rows padded by one `vec4` so a
    /// quarter warp's stores hit distinct banks).
    pub a_rows: bool,
}

impl Shape {
    /// Rows of C per workgroup.
    pub fn bm(&self) -> u32 {
        self.ty * 4 * self.rm
    }
    /// Columns of C per workgroup.
    pub fn bn(&self) -> u32 {
        self.tx * 4 * self.cn
    }
    /// A readable name.
    pub fn name(&self) -> String {
        format!(
            "{}x{} thr {}x{}/t bk{} {} u{}{}{}{}",
            self.bm(),
            self.bn(),
            self.rm * 4,
            self.cn * 4,
            self.bk,
            if self.a_vec { "Av4" } else { "Af32" },
            self.unroll,
            match (self.prefetch, self.dyn_buf, self.single) {
                (true, _, true) => " pfreg",
                (true, true, _) => " pf1",
                (true, false, _) => " pf2",
                _ => "",
            },
            if self.pad > 0 {
                format!(" pad{}", self.pad)
            } else {
                String::new()
            },
            if self.swizzle { " swz" } else { "" },
        ) + if self.a_rows { " rows" } else { "" }
    }
}

/// The WGSL of `s`.
pub fn wgsl(s: &Shape) -> String {
    let (bk, bm, bn, tx, ty, rm, cn) = (s.bk, s.bm(), s.bn(), s.tx, s.ty, s.rm, s.cn);
    let threads = tx * ty;
    let bufs = if s.prefetch && !s.single { 2 } else { 1 };
    // A `vec4` of A per load, or with `a_rows` four floats (one `vec4` of the slice).
    let a_loads = bm * bk / 4 / threads;
    let b_loads = bk * bn / 4 / threads;
    assert!(
        a_loads * threads * 4 == bm * bk && b_loads * threads * 4 == bk * bn,
        "{}: the slices do not divide among the threads",
        s.name()
    );
    let mut w = String::new();
    write!(
        w,
        "struct Params {{ n: u32 }}\n\
         @group(0) @binding(0) var<storage, read> a: array<{}>;\n\
         @group(0) @binding(1) var<storage, read> b: array<vec4<f32>>;\n\
         @group(0) @binding(2) var<storage, read_write> c: array<vec4<f32>>;\n\
         @group(0) @binding(3) var<uniform> p: Params;\n",
        if s.a_rows { "f32" } else { "vec4<f32>" }
    )
    .unwrap();
    if s.a_vec {
        writeln!(
            w,
            "var<workgroup> at: array<array<vec4<f32>, {}>, {}>;",
            bm / 4 + u32::from(s.a_rows),
            bk * bufs
        )
        .unwrap();
    } else {
        writeln!(
            w,
            "var<workgroup> at: array<array<f32, {}>, {}>;",
            bm + s.pad,
            bk * bufs
        )
        .unwrap();
    }
    writeln!(
        w,
        "var<workgroup> bt: array<array<vec4<f32>, {}>, {}>;",
        bn / 4,
        bk * bufs
    )
    .unwrap();
    writeln!(
        w,
        "@compute @workgroup_size({tx}, {ty})\n\
         fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {{\n\
         let n = p.n;\n let n4 = n / 4u;\n let tx = lid.x;\n let ty = lid.y;\n\
         let tid = ty * {tx}u + tx;"
    )
    .unwrap();
    if s.swizzle {
        w.push_str(
            " let lin = wid.y * nw.x + wid.x;\n let band = lin / (8u * nw.x);\n\
             let inb = lin % (8u * nw.x);\n let gy = band * 8u + inb % 8u;\n let gx = inb / 8u;\n",
        );
    } else {
        w.push_str(" let gy = wid.y;\n let gx = wid.x;\n");
    }
    writeln!(
        w,
        " let row0 = gy * {bm}u;\n let col0 = gx * {bn}u;\n var acc: array<vec4<f32>, {}>;",
        4 * rm * cn
    )
    .unwrap();
    for j in 0..a_loads {
        if s.a_rows {
            // A four-row group `ar` (0..bm/4) at k `ak`: k fastest, so a warp's loads stay
            // within 32-byte pieces of rows.
            writeln!(
                w,
                " let ar{j} = (tid + {o}u) / {bk}u;\n let ak{j} = (tid + {o}u) % {bk}u;",
                o = threads * j,
            )
            .unwrap();
            continue;
        }
        writeln!(
            w,
            " let ar{j} = (tid + {o}u) / {q}u;\n let ak{j} = ((tid + {o}u) % {q}u) * 4u;",
            o = threads * j,
            q = bk / 4
        )
        .unwrap();
    }
    for j in 0..b_loads {
        writeln!(
            w,
            " let br{j} = (tid + {o}u) / {q}u;\n let bc{j} = (tid + {o}u) % {q}u;",
            o = threads * j,
            q = bn / 4
        )
        .unwrap();
    }
    // The global loads of the slice at `k0` into registers.
    let load = |w: &mut String, k0: &str| {
        for j in 0..a_loads {
            if s.a_rows {
                for q in 0..4 {
                    writeln!(
                        w,
                        "var va{j}_{q} = 0.0;\n if row0 + ar{j} * 4u + {q}u < n && {k0} + ak{j} < n {{ va{j}_{q} = a[(row0 + ar{j} * 4u + {q}u) * n + {k0} + ak{j}]; }}"
                    )
                    .unwrap();
                }
                continue;
            }
            writeln!(
                w,
                "var va{j} = vec4<f32>();\n if row0 + ar{j} < n && {k0} + ak{j} < n {{ va{j} = a[(row0 + ar{j}) * n4 + ({k0} + ak{j}) / 4u]; }}"
            )
            .unwrap();
        }
        for j in 0..b_loads {
            writeln!(
                w,
                "var vb{j} = vec4<f32>();\n if {k0} + br{j} < n && col0 + bc{j} * 4u < n {{ vb{j} = b[({k0} + br{j}) * n4 + col0 / 4u + bc{j}]; }}"
            )
            .unwrap();
        }
    };
    // The registers' stores into buffer `buf`.
    let store = |w: &mut String, base: &str| {
        for j in 0..a_loads {
            if s.a_rows {
                writeln!(
                    w,
                    "at[{base} + ak{j}][ar{j}] = vec4<f32>(va{j}_0, va{j}_1, va{j}_2, va{j}_3);"
                )
                .unwrap();
                continue;
            }
            for (q, comp) in ["x", "y", "z", "w"].iter().enumerate() {
                if s.a_vec {
                    writeln!(
                        w,
                        "at[{base} + ak{j} + {q}u][ar{j} / 4u][ar{j} % 4u] = va{j}.{comp};"
                    )
                    .unwrap();
                } else {
                    writeln!(w, "at[{base} + ak{j} + {q}u][ar{j}] = va{j}.{comp};").unwrap();
                }
            }
        }
        for j in 0..b_loads {
            writeln!(w, "bt[{base} + br{j}][bc{j}] = vb{j};").unwrap();
        }
    };
    // One step along k, row `k` of the staged slice.
    let step = |w: &mut String, k: &str| {
        w.push_str("{\n");
        for cg in 0..cn {
            writeln!(w, " let b{cg} = bt[{k}][{}u + tx];", cg * tx).unwrap();
        }
        for rg in 0..rm {
            if s.a_vec {
                writeln!(w, " let a{rg} = at[{k}][{}u + ty];", rg * ty).unwrap();
            }
        }
        for (i, comp) in ["x", "y", "z", "w"].iter().enumerate() {
            for rg in 0..rm {
                let a = if s.a_vec {
                    format!("a{rg}.{comp}")
                } else {
                    writeln!(
                        w,
                        " let a{rg}_{i} = at[{k}][{}u + ty * 4u + {i}u];",
                        rg * ty * 4
                    )
                    .unwrap();
                    format!("a{rg}_{i}")
                };
                for cg in 0..cn {
                    writeln!(w, " acc[{}] += b{cg} * {a};", (rg * 4 + i as u32) * cn + cg).unwrap();
                }
            }
        }
        w.push_str("}\n");
    };
    // The products of the slice in buffer `buf`.
    let compute = |w: &mut String, base: &str| {
        if s.unroll >= bk {
            for k in 0..bk {
                step(w, &format!("{base} + {k}u"));
            }
        } else {
            writeln!(w, "for (var kk = 0u; kk < {bk}u; kk += {}u) {{", s.unroll).unwrap();
            for q in 0..s.unroll {
                step(w, &format!("{base} + kk + {q}u"));
            }
            w.push_str("}\n");
        }
    };
    if s.prefetch && s.single {
        load(&mut w, "0u");
        store(&mut w, "0u");
        w.push_str("workgroupBarrier();\n");
        writeln!(w, "for (var k0 = 0u; k0 < n; k0 += {bk}u) {{").unwrap();
        load(&mut w, &format!("(k0 + {bk}u)"));
        compute(&mut w, "0u");
        w.push_str("workgroupBarrier();\n");
        store(&mut w, "0u");
        w.push_str("workgroupBarrier();\n}\n");
    } else if s.prefetch && s.dyn_buf {
        load(&mut w, "0u");
        store(&mut w, "0u");
        w.push_str("workgroupBarrier();\nvar cur = 0u;\n");
        writeln!(w, "for (var k0 = 0u; k0 < n; k0 += {bk}u) {{").unwrap();
        load(&mut w, &format!("(k0 + {bk}u)"));
        compute(&mut w, "cur");
        store(&mut w, &format!("({bk}u - cur)"));
        writeln!(w, "workgroupBarrier();\ncur = {bk}u - cur;\n}}").unwrap();
    } else if s.prefetch {
        load(&mut w, "0u");
        store(&mut w, "0u");
        w.push_str("workgroupBarrier();\n");
        writeln!(w, "for (var k0 = 0u; k0 < n; k0 += {}u) {{", 2 * bk).unwrap();
        for (cur, next, at) in [(0, 1, bk), (1, 0, 2 * bk)] {
            w.push_str("{\n");
            load(&mut w, &format!("(k0 + {at}u)"));
            compute(&mut w, &format!("{}u", cur * bk));
            store(&mut w, &format!("{}u", next * bk));
            w.push_str("workgroupBarrier();\n}\n");
        }
        w.push_str("}\n");
    } else {
        writeln!(w, "for (var k0 = 0u; k0 < n; k0 += {bk}u) {{").unwrap();
        load(&mut w, "k0");
        store(&mut w, "0u");
        w.push_str("workgroupBarrier();\n");
        compute(&mut w, "0u");
        w.push_str("workgroupBarrier();\n}\n");
    }
    for rg in 0..rm {
        for i in 0..4 {
            writeln!(w, "{{\n let r = row0 + {}u + ty * 4u + {i}u;", rg * ty * 4).unwrap();
            for cg in 0..cn {
                writeln!(
                    w,
                    " if r < n && col0 + ({}u + tx) * 4u < n {{ c[r * n4 + col0 / 4u + {}u + tx] = acc[{}]; }}",
                    cg * tx,
                    cg * tx,
                    (rg * 4 + i) * cn + cg
                )
                .unwrap();
            }
            w.push_str("}\n");
        }
    }
    w.push_str("}\n");
    w
}

/// The shapes measured.
fn shapes() -> Vec<Shape> {
    let base = Shape {
        tx: 16,
        ty: 16,
        rm: 2,
        cn: 2,
        bk: 8,
        a_vec: false,
        unroll: 8,
        prefetch: false,
        dyn_buf: false,
        single: false,
        pad: 0,
        swizzle: false,
        a_rows: false,
    };
    let v = Shape {
        a_vec: true,
        ..base
    };
    // 8×16 per thread.
    let wide = Shape { cn: 4, ..v };
    let tall = Shape { rm: 4, ..v };
    let t128 = Shape { tx: 8, cn: 4, ..v };
    let pf = Shape {
        prefetch: true,
        ..v
    };
    let rows = Shape { a_rows: true, ..pf };
    let pf1 = Shape {
        dyn_buf: true,
        ..rows
    };
    let reg = Shape {
        single: true,
        ..rows
    };
    vec![
        reg,
        Shape {
            bk: 16,
            unroll: 16,
            ..reg
        },
        pf1,
        Shape { unroll: 4, ..pf1 },
        // Smaller blocks per thread: what the driver's compile time owes to the accumulators.
        Shape {
            rm: 1,
            bk: 16,
            unroll: 16,
            ..rows
        },
        Shape {
            rm: 1,
            cn: 1,
            bk: 16,
            unroll: 16,
            ..rows
        },
        pf,
        Shape {
            prefetch: true,
            ..base
        },
        rows,
        Shape { unroll: 4, ..rows },
        Shape { unroll: 2, ..rows },
        Shape {
            bk: 16,
            unroll: 16,
            ..rows
        },
        Shape {
            swizzle: true,
            ..rows
        },
        Shape {
            prefetch: true,
            a_rows: true,
            ..t128
        },
        Shape {
            prefetch: true,
            a_rows: true,
            ..wide
        },
        Shape {
            prefetch: true,
            ..t128
        },
        Shape {
            prefetch: true,
            ..tall
        },
    ]
}

/// Times every shape at 4096² after the twin, checks each against the twin's result, and
/// prints the pipeline's creation time.
pub fn matmul3(b: &Bench) -> Result<()> {
    let ctx = b.ctx;
    let m = if b.quick { 256usize } else { 4096 };
    let av: Vec<f32> = (0..m * m).map(|i| ((i * 7) % 13) as f32 - 6.0).collect();
    let bv: Vec<f32> = (0..m * m).map(|i| ((i * 5) % 11) as f32 - 5.0).collect();
    let ra = storage(ctx, bytemuck::cast_slice(&av));
    let rb = storage(ctx, bytemuck::cast_slice(&bv));
    let rc = storage(ctx, &vec![0u8; m * m * 4]);
    let mp = ctx.uniform(bytemuck::cast_slice(&[m as u32, 0, 0, 0]));
    let mut expect: Option<Vec<f32>> = None;
    let g = m as u32 / 128;
    let mut cases: Vec<(String, String, [u32; 2])> = vec![
        (
            "twin (matmul_rb.wgsl)".into(),
            include_str!("wgsl/matmul_rb.wgsl").into(),
            [g, g],
        ),
        (
            "twin, A loads as if".into(),
            include_str!("wgsl/experiments/matmul_rb_if.wgsl").into(),
            [g, g],
        ),
        (
            "previous twin (one buffer, A as floats)".into(),
            include_str!("wgsl/experiments/matmul_rb_bk8.wgsl").into(),
            [g, g],
        ),
    ];
    // `SAREK_MM_DIR`: the `*.wgsl` files of that folder (in name order, each a 128×128 tile
    // per workgroup with the twin's bindings) instead of the generated shapes — edits of a
    // kernel's generated WGSL, for bisecting what makes it slow without rebuilding.
    if let Ok(dir) = std::env::var("SAREK_MM_DIR") {
        let mut files: Vec<_> = std::fs::read_dir(&dir)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "wgsl"))
            .collect();
        files.sort();
        for f in files {
            let name = f
                .file_stem()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            cases.push((name, std::fs::read_to_string(&f)?, [g, g]));
        }
    } else {
        cases.extend(
            shapes()
                .iter()
                .map(|s| (s.name(), wgsl(s), [m as u32 / s.bn(), m as u32 / s.bm()])),
        );
    }
    // With `SAREK_MM_SAREK`, only the twin (the reference), then the Sarek kernels picked.
    if std::env::var("SAREK_MM_SAREK").is_ok() {
        cases.truncate(1);
    }
    // The twin again at the end: the clocks did not drift if it measures as at the start.
    cases.push((
        "twin again".into(),
        include_str!("wgsl/matmul_rb.wgsl").into(),
        [g, g],
    ));
    if let Ok(dir) = std::env::var("SAREK_MM_DUMP") {
        std::fs::write(
            format!("{dir}/sarek_matmul_rb.wgsl"),
            crate::kernels::matmul_rb::SOURCE.wgsl(),
        )?;
        std::fs::write(
            format!("{dir}/sarek_matmul_rb_single.wgsl"),
            crate::kernels::matmul_rb_single::SOURCE.wgsl(),
        )?;
        std::fs::write(
            format!("{dir}/sarek_matmul_rb_one.wgsl"),
            crate::kernels::matmul_rb_one::SOURCE.wgsl(),
        )?;
        for (name, src, _) in &cases {
            let file = name.replace([' ', '(', ')', '+', '.', '/'], "_");
            std::fs::write(format!("{dir}/{file}.wgsl"), src)?;
        }
    }
    // Sarek's own kernel (its direct entry point), compiled only: what the driver spends on it.
    {
        let start = Instant::now();
        let _p = ctx.pipeline_at(crate::kernels::matmul_rb::SOURCE.wgsl(), "sarek_main");
        ctx.wait();
        println!(
            "experiment: matmul3 Sarek matmul_rb (whole module, compile only)  pipeline {:>7.1} ms",
            start.elapsed().as_secs_f64() * 1e3
        );
    }
    // Sarek's kernels on the same inputs, checked against the twin.
    let sarek_runs = |b: &Bench, expect: &[f32]| -> Result<()> {
        let dev = &ctx.dev;
        let a1 = dev.upload(&av)?;
        let b4 = dev.upload(bytemuck::cast_slice::<f32, sarek::Vec4>(&bv))?;
        let mut c4 = dev.zeros::<sarek::Vec4>(m * m / 4)?;
        let grid = sarek::Grid::groups([g, g, 1]);
        let twin = ctx.pipeline(include_str!("wgsl/matmul_rb.wgsl"));
        let twin_bg = ctx.bind(&twin, &[&ra, &rb, &rc, &mp]);
        // `SAREK_MM_SAREK`: only the Sarek kernels whose names it lists (comma-separated), to
        // time each in a process of its own.
        let pick = std::env::var("SAREK_MM_SAREK").ok();
        for (name, which) in [
            ("Sarek matmul_rb", 0),
            ("Sarek matmul_rb_single", 1),
            ("Sarek matmul_rb_one", 2),
        ] {
            if let Some(p) = &pick {
                if !p.split(',').any(|k| name.ends_with(k.trim())) {
                    continue;
                }
            }
            let mut launch = || {
                vec![match which {
                    0 => crate::kernels::matmul_rb.launch(dev, grid, m, &a1, &b4, &mut c4),
                    1 => crate::kernels::matmul_rb_single.launch(dev, grid, m, &a1, &b4, &mut c4),
                    _ => crate::kernels::matmul_rb_one.launch(dev, grid, m, &a1, &b4, &mut c4),
                }
                .expect("launch")]
            };
            let start = Instant::now();
            launch()[0].wait()?;
            let first = start.elapsed();
            // Interleaved with the twin, run by run, so that both see the same clocks.
            let (t, tw) = b
                .timer
                .compare_one(&mut launch, &[(&twin, &twin_bg, [g, g, 1])]);
            let got: Vec<f32> = bytemuck::cast_slice(&c4.read()?).to_vec();
            println!(
                "experiment: matmul3 {name:<40} {:>9.1} µs  {:>8.1} GFLOP/s  first launch {:>7.1} ms  {}  (twin interleaved {:>9.1} µs, time ratio {:.3})",
                t.as_secs_f64() * 1e6,
                2.0 * (m as f64).powi(3) / t.as_secs_f64() / 1e9,
                first.as_secs_f64() * 1e3,
                if got == expect { "same" } else { "DIFFERS" },
                tw.as_secs_f64() * 1e6,
                tw.as_secs_f64() / t.as_secs_f64(),
            );
        }
        Ok(())
    };
    for (name, src, groups) in &cases {
        let start = Instant::now();
        let p = ctx.pipeline(src);
        ctx.wait();
        let compile = start.elapsed();
        let bg = ctx.bind(&p, &[&ra, &rb, &rc, &mp]);
        let t = b.timer.time_raw(&[(&p, &bg, [groups[0], groups[1], 1])]);
        let got: Vec<f32> = read(ctx, &rc);
        let ok = match &expect {
            None => {
                expect = Some(got);
                "reference"
            }
            Some(e) if *e == got => "same",
            Some(_) => "DIFFERS",
        };
        println!(
            "experiment: matmul3 {name:<40} {:>9.1} µs  {:>8.1} GFLOP/s  pipeline {:>7.1} ms  {ok}",
            t.as_secs_f64() * 1e6,
            2.0 * (m as f64).powi(3) / t.as_secs_f64() / 1e9,
            compile.as_secs_f64() * 1e3
        );
        // Zero the result so the next shape cannot pass on the previous one's output.
        let zero = storage(ctx, &vec![0u8; m * m * 4]);
        let mut enc = ctx.device().create_command_encoder(&Default::default());
        enc.copy_buffer_to_buffer(&zero, 0, &rc, 0, (m * m * 4) as u64);
        ctx.queue().submit([enc.finish()]);
        ctx.wait();
    }
    sarek_runs(b, expect.as_deref().unwrap_or(&[]))?;
    Ok(())
}

#[test]
fn shapes_validate() {
    for s in shapes() {
        if let Err(e) = sarek_codegen::valid::validate_with(&wgsl(&s), &[]) {
            panic!("{}: {e}\n{}", s.name(), wgsl(&s));
        }
    }
}
