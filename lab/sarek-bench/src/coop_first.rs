//! `x_coop_first`: where the first-process pipeline creation of cooperative-matrix kernels
//! goes. Meant to run in a fresh process per case, with the driver's
//! shader cache off and Sarek's cache in an empty directory, e.g.
//!
//! ```text
//! SAREK_COOP_FIRST=w_min16_f32 SAREK_CACHE_DIR=$(mktemp -d) __GL_SHADER_DISK_CACHE=0 \
//!   SAREK_LOG=sarek_rt::launch::pipeline=info sarek-bench --runs 1 --experiments --only x_coop_first
//! ```
//!
//! `SAREK_COOP_FIRST` is a comma-separated list of cases (all of [`CASES`] in one process
//! when unset). A case named `w_..` is WGSL made through raw wgpu: naga's parse, validation
//! and SPIR-V are timed on the host first, then `create_shader_module` +
//! `create_compute_pipeline` (naga again, then the driver). A case named `s_..` is a Sarek
//! kernel's first launch (pipeline, dispatch, wait; its split is the runtime's `info` log
//! line). Each prints one `coop-first` line. The generated WGSL (`w_g..`, `w_f16rb..`)
//! varies one thing at a time: accumulators (1, 4, 16 of 16×16), k-substeps written out per
//! trip of a loop whose trip count the driver cannot know, loop or straight line. Two cases
//! are run only when named: `p_prepare_upload` (the suite's f16 product prepared on a thread
//! at start while the main thread uploads 1 GiB, then its first launch) and `p_upload_only`
//! (the same without the prepare). A case `file:PATH` is the WGSL in that file (entry
//! point `main`), e.g. the quick forms `tools/matmul_f16_quick.py` writes.

use sarek::coop::{A, B, C}; // the roles, for the plain-Rust bodies
use sarek::{f16, F16Vec4, Grid};
use std::fmt::Write as _;
use std::time::Instant;

use crate::benches::{Bench, Result};

/// A cooperative-matrix kernel at its smallest: one load of `a` and `b`, one product with f32
/// accumulation, one store.
#[sarek::kernel(workgroup_size = [32])]
pub fn coop_min16_f32(a: &[f16], b: &[f16], c: &mut [f32]) {
    let x = CoopMatrix::<f16, 16, A>::load_rows(a, 0, 16);
    let y = CoopMatrix::<f16, 16, B>::load_rows(b, 0, 16);
    let z0 = CoopMatrix::<f32, 16, C>::zeros();
    let z = x.multiply_add(y, z0);
    z.store_rows(c, 0, 16);
}

/// [`coop_min16_f32`] with f16 accumulation.
#[sarek::kernel(workgroup_size = [32])]
pub fn coop_min16_f16(a: &[f16], b: &[f16], c: &mut [f16]) {
    let x = CoopMatrix::<f16, 16, A>::load_rows(a, 0, 16);
    let y = CoopMatrix::<f16, 16, B>::load_rows(b, 0, 16);
    let z0 = CoopMatrix::<f16, 16, C>::zeros();
    let z = x.multiply_add(y, z0);
    z.store_rows(c, 0, 16);
}

/// The cases in the order one process runs them when `SAREK_COOP_FIRST` is unset.
pub const CASES: &[&str] = &[
    "w_min16_f32",
    "w_min16_f16",
    "w_min8_f32",
    "w_min8_f16",
    "s_min16_f32",
    "s_min16_f16",
    "w_g1_s1_loop",
    "w_g2_s1_loop",
    "w_g4_s1_loop",
    "w_g4_s2_loop",
    "w_g4_s4_loop",
    "w_g4_s8_loop",
    "w_g4_s2_flat",
    "w_arr16_loop",
    "w_coop",
    "w_staged",
    "s_staged",
    "w_vec_p2",
    "s_vec_p2",
    "w_f16rb_s4_loop",
    "w_f16rb_s16_loop",
];

/// Runs the cases `SAREK_COOP_FIRST` names (all when unset), printing one line each.
pub fn coop_first(b: &Bench) -> Result<()> {
    let dev = &b.ctx.dev;
    let shapes: Vec<String> = dev
        .cooperative_matrix_shapes()
        .iter()
        .map(|s| s.to_string())
        .collect();
    println!("coop-first shapes: {}", shapes.join(", "));
    let picked = std::env::var("SAREK_COOP_FIRST").unwrap_or_default();
    let cases: Vec<&str> = if picked.is_empty() {
        CASES.to_vec()
    } else {
        picked.split(',').collect()
    };
    for case in cases {
        let outcome = if let Some(rest) = case.strip_prefix("s_") {
            sarek_case(b, rest)
        } else if let Some(rest) = case.strip_prefix("p_") {
            prepare_case(b, rest == "prepare_upload")
        } else if case == "q_row" || case == "o_row" {
            // The suite's f16 row as Sarek wrote it: its quick form, or its optimized text.
            let source = crate::benches::coop_q4::matmul_f16_q4p2::SOURCE;
            let text = if case == "q_row" {
                source.quick()
            } else {
                source.wgsl()
            };
            raw_case_at(b, case, text, &source.abi().entry_point)
        } else if let Some(path) = case.strip_prefix("file:") {
            std::fs::read_to_string(path)
                .map_err(|e| e.into())
                .and_then(|text| raw_case(b, case, &text))
        } else {
            match wgsl_of(case) {
                Some(text) => raw_case(b, case, &text),
                None => Err(format!("no case {case}").into()),
            }
        };
        if let Err(e) = outcome {
            println!("coop-first {case} failed: {e}");
        }
    }
    Ok(())
}

/// A Sarek kernel's first launch, waited for.
fn sarek_case(b: &Bench, name: &str) -> Result<()> {
    use crate::benches::coop::matmul_f16_staged;
    use crate::benches::coop_prefetch::matmul_f16_vec_p2;
    let dev = &b.ctx.dev;
    let m = 256usize;
    let h = vec![f16::from_f32(0.25); m * m];
    let a = dev.upload(&h)?;
    let bb = dev.upload(&h)?;
    let a4 = dev.upload::<F16Vec4>(bytemuck::cast_slice(&h))?;
    let b4 = dev.upload::<F16Vec4>(bytemuck::cast_slice(&h))?;
    let mut c = dev.zeros::<f32>(m * m)?;
    let mut ch = dev.zeros::<f16>(m * m)?;
    let grid = Grid::groups([(m / 256) as u32, (m / 128) as u32, 1]);
    let (source, start) = match name {
        "min16_f32" => (coop_min16_f32::SOURCE, Instant::now()),
        "min16_f16" => (coop_min16_f16::SOURCE, Instant::now()),
        "staged" => (matmul_f16_staged::SOURCE, Instant::now()),
        "vec_p2" => (matmul_f16_vec_p2::SOURCE, Instant::now()),
        other => return Err(format!("no Sarek case {other}").into()),
    };
    let launch = match name {
        "min16_f32" => coop_min16_f32.launch(dev, Grid::groups(1), &a, &bb, &mut c)?,
        "min16_f16" => coop_min16_f16.launch(dev, Grid::groups(1), &a, &bb, &mut ch)?,
        "staged" => matmul_f16_staged.launch(dev, grid, &a, &bb, &mut c, m as u32)?,
        _ => matmul_f16_vec_p2.launch(dev, grid, &a4, &b4, &mut c, m as u32)?,
    };
    launch.wait()?;
    let ms = start.elapsed().as_secs_f64() * 1e3;
    let naga = naga_host(source.wgsl(), "sarek_main");
    println!(
        "coop-first s_{name} first-launch {ms:.2} ms; host naga on the whole module {naga}; wgsl {} bytes, quick form {}",
        source.wgsl().len(),
        if source.quick().is_empty() { "none" } else { "yes" },
    );
    Ok(())
}

/// The suite's f16 product's first launch after a 1 GiB upload, with its pipeline prepared
/// on a thread before the upload when `prepare`.
fn prepare_case(b: &Bench, prepare: bool) -> Result<()> {
    use crate::benches::coop_prefetch::matmul_f16_vec_p2;
    let dev = b.ctx.dev.clone();
    let start = Instant::now();
    let preparing = prepare.then(|| {
        let dev = dev.clone();
        std::thread::spawn(move || {
            let t = Instant::now();
            dev.prepare(&[matmul_f16_vec_p2::SOURCE]).expect("prepare");
            t.elapsed()
        })
    });
    let host = vec![1.0f32; 1 << 28];
    let big = dev.upload(&host)?;
    dev.synchronize()?;
    let uploaded = start.elapsed();
    let m = 256usize;
    let h = vec![f16::from_f32(0.25); m * m];
    let a4 = dev.upload::<F16Vec4>(bytemuck::cast_slice(&h))?;
    let b4 = dev.upload::<F16Vec4>(bytemuck::cast_slice(&h))?;
    let mut c = dev.zeros::<f32>(m * m)?;
    let grid = Grid::groups([(m / 256) as u32, (m / 128) as u32, 1]);
    let launched = Instant::now();
    matmul_f16_vec_p2
        .launch(&dev, grid, &a4, &b4, &mut c, m as u32)?
        .wait()?;
    let first = launched.elapsed();
    let prepared = preparing.map(|t| t.join().expect("prepare thread"));
    println!(
        "coop-first p_{} upload of 1 GiB (host vector included) {:.2} ms, then the first launch {:.2} ms; prepare took {:?}; total {:.2} ms",
        if prepare { "prepare_upload" } else { "upload_only" },
        uploaded.as_secs_f64() * 1e3,
        first.as_secs_f64() * 1e3,
        prepared,
        start.elapsed().as_secs_f64() * 1e3,
    );
    drop(big);
    Ok(())
}

/// naga's parse, validation and SPIR-V of `entry` on the host, as text.
fn naga_host(text: &str, entry: &str) -> String {
    let start = Instant::now();
    let module = match naga::front::wgsl::parse_str(text) {
        Ok(m) => m,
        Err(e) => return format!("parse failed: {}", e.emit_to_string(text)),
    };
    let parsed = start.elapsed();
    let info = match naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::all(),
    )
    .validate(&module)
    {
        Ok(i) => i,
        Err(e) => return format!("invalid: {}", e.emit_to_string(text)),
    };
    let validated = start.elapsed();
    let options = naga::back::spv::Options::default();
    let pipeline = naga::back::spv::PipelineOptions {
        shader_stage: naga::ShaderStage::Compute,
        entry_point: entry.into(),
    };
    let words = match naga::back::spv::write_vec(&module, &info, &options, Some(&pipeline)) {
        Ok(w) => w,
        Err(e) => return format!("SPIR-V failed: {e}"),
    };
    let written = start.elapsed();
    // What the runtime adds before it drops a module's index clamps (besides a validation).
    let proven = sarek_codegen::in_bounds::unclamped_entry_points(&module, &info);
    let proof = start.elapsed() - written;
    format!(
        "parse {:.2} validate {:.2} spirv {:.2} ms ({} words), in-bounds proof {:.2} ms ({} proven)",
        parsed.as_secs_f64() * 1e3,
        (validated - parsed).as_secs_f64() * 1e3,
        (written - validated).as_secs_f64() * 1e3,
        words.len(),
        proof.as_secs_f64() * 1e3,
        proven.len()
    )
}

/// WGSL through raw wgpu: the host's naga times, then module + pipeline on the device.
fn raw_case(b: &Bench, case: &str, text: &str) -> Result<()> {
    raw_case_at(b, case, text, "main")
}

/// [`raw_case`] for the entry point `entry`.
fn raw_case_at(b: &Bench, case: &str, text: &str, entry: &str) -> Result<()> {
    let naga = naga_host(text, entry);
    if !naga.starts_with("parse ") {
        println!("coop-first {case} skipped: {naga}");
        return Ok(());
    }
    let device = b.ctx.device();
    let scope = device.push_error_scope(sarek::wgpu::ErrorFilter::Validation);
    let start = Instant::now();
    let module = crate::raw::module_with_checks(device, text);
    let moduled = start.elapsed();
    let _pipeline = device.create_compute_pipeline(&sarek::wgpu::ComputePipelineDescriptor {
        label: None,
        layout: None,
        module: &module,
        entry_point: Some(entry),
        compilation_options: crate::raw::compilation_options(),
        cache: None,
    });
    let piped = start.elapsed();
    if let Some(e) = pollster::block_on(scope.pop()) {
        println!("coop-first {case} failed on the device: {e}");
        return Ok(());
    }
    println!(
        "coop-first {case} module {:.2} ms pipeline {:.2} ms total {:.2} ms; host naga {naga}; {} lines",
        moduled.as_secs_f64() * 1e3,
        (piped - moduled).as_secs_f64() * 1e3,
        piped.as_secs_f64() * 1e3,
        text.lines().count()
    );
    Ok(())
}

/// The WGSL of a `w_` case.
fn wgsl_of(case: &str) -> Option<String> {
    let fixed = match case {
        "w_coop" => Some(include_str!("wgsl/matmul_f16_coop.wgsl")),
        "w_staged" => Some(include_str!("wgsl/matmul_f16_staged.wgsl")),
        "w_vec_p2" => Some(include_str!("wgsl/matmul_f16_vec_p2.wgsl")),
        _ => None,
    };
    if let Some(t) = fixed {
        return Some(t.to_string());
    }
    Some(match case {
        "w_min16_f32" => coop_gen("f32", 16, 1, 1, false),
        "w_min16_f16" => coop_gen("f16", 16, 1, 1, false),
        "w_min8_f32" => coop_gen("f32", 8, 1, 1, false),
        "w_min8_f16" => coop_gen("f16", 8, 1, 1, false),
        "w_g1_s1_loop" => coop_gen("f32", 16, 1, 1, true),
        "w_g2_s1_loop" => coop_gen("f32", 16, 2, 1, true),
        "w_g4_s1_loop" => coop_gen("f32", 16, 4, 1, true),
        "w_g4_s2_loop" => coop_gen("f32", 16, 4, 2, true),
        "w_g4_s4_loop" => coop_gen("f32", 16, 4, 4, true),
        "w_g4_s8_loop" => coop_gen("f32", 16, 4, 8, true),
        "w_g4_s2_flat" => coop_gen("f32", 16, 4, 2, false),
        "w_arr16_loop" => coop_array(),
        "w_f16rb_s4_loop" => f16_rb(4),
        "w_f16rb_s16_loop" => f16_rb(16),
        _ => return None,
    })
}

/// The bindings every generated coop case shares: f16 `a`, `b`, accumulator-typed `c`, `m`.
fn header(out: &mut String, acc: &str) {
    out.push_str("enable f16;\nenable wgpu_cooperative_matrix;\n\nstruct Params { m: u32 }\n");
    out.push_str("@group(0) @binding(0) var<storage, read> a: array<f16>;\n");
    out.push_str("@group(0) @binding(1) var<storage, read> b: array<f16>;\n");
    let _ = writeln!(
        out,
        "@group(0) @binding(2) var<storage, read_write> c: array<{acc}>;"
    );
    out.push_str("@group(0) @binding(3) var<uniform> p: Params;\n\n");
}

/// One subgroup computes a `g·n`×`g·n` block of `c` as `g`×`g` accumulators of `n`×`n`
/// (`acc` scalars), `s` k-substeps of `n` per trip, straight from storage; `looped`: a loop
/// over `k < m` (a trip count the driver cannot know), else one trip written out.
fn coop_gen(acc: &str, n: usize, g: usize, s: usize, looped: bool) -> String {
    let mut o = String::new();
    header(&mut o, acc);
    o.push_str("@compute @workgroup_size(32)\nfn main(@builtin(workgroup_id) wid: vec3<u32>) {\n");
    o.push_str("    let m = p.m;\n");
    let _ = writeln!(
        o,
        "    let row = wid.y * {}u;\n    let col = wid.x * {}u;",
        g * n,
        g * n
    );
    for i in 0..g {
        for j in 0..g {
            let _ = writeln!(o, "    var acc{i}{j}: coop_mat{n}x{n}<{acc}, C>;");
        }
    }
    if looped {
        let _ = writeln!(o, "    for (var k = 0u; k < m; k += {}u) {{", s * n);
    } else {
        o.push_str("    {\n        let k = 0u;\n");
    }
    for st in 0..s {
        for i in 0..g {
            let _ = writeln!(
                o,
                "        let a{st}_{i} = coopLoadT<coop_mat{n}x{n}<f16, A>>(&a[(row + {}u) * m + k + {}u], m);",
                i * n,
                st * n
            );
        }
        for j in 0..g {
            let _ = writeln!(
                o,
                "        let b{st}_{j} = coopLoadT<coop_mat{n}x{n}<f16, B>>(&b[(k + {}u) * m + col + {}u], m);",
                st * n,
                j * n
            );
        }
        for i in 0..g {
            for j in 0..g {
                let _ = writeln!(
                    o,
                    "        acc{i}{j} = coopMultiplyAdd(a{st}_{i}, b{st}_{j}, acc{i}{j});"
                );
            }
        }
    }
    o.push_str("    }\n");
    for i in 0..g {
        for j in 0..g {
            let _ = writeln!(
                o,
                "    {{\n        let at = &c[(row + {}u) * m + col + {}u];\n        let v = acc{i}{j};\n        coopStoreT(v, at, m);\n    }}",
                i * n,
                j * n
            );
        }
    }
    o.push_str("}\n");
    o
}

/// The 4×4-accumulator loop of [`coop_gen`] with the accumulators in an array indexed at run
/// time (loops over them kept): whether WGSL, naga and the driver take such a quick form.
fn coop_array() -> String {
    let mut o = String::new();
    header(&mut o, "f32");
    o.push_str(
        "@compute @workgroup_size(32)
fn main(@builtin(workgroup_id) wid: vec3<u32>) {
    let m = p.m;
    let row = wid.y * 64u;
    let col = wid.x * 64u;
    var acc: array<coop_mat16x16<f32, C>, 16>;
    for (var k = 0u; k < m; k += 16u) {
        for (var i = 0u; i < 4u; i += 1u) {
            let am = coopLoadT<coop_mat16x16<f16, A>>(&a[(row + i * 16u) * m + k], m);
            for (var j = 0u; j < 4u; j += 1u) {
                let bm = coopLoadT<coop_mat16x16<f16, B>>(&b[k * m + col + j * 16u], m);
                acc[i * 4u + j] = coopMultiplyAdd(am, bm, acc[i * 4u + j]);
            }
        }
    }
    for (var i = 0u; i < 4u; i += 1u) {
        for (var j = 0u; j < 4u; j += 1u) {
            let at = &c[(row + i * 16u) * m + col + j * 16u];
            let v = acc[i * 4u + j];
            coopStoreT(v, at, m);
        }
    }
}
",
    );
    o
}

/// A non-cooperative f16 kernel of similar size: each thread holds 8×4 `vec4<f16>`
/// accumulators (8 rows, 16 columns), `s` k-substeps written out per trip of an opaque loop.
fn f16_rb(s: usize) -> String {
    let mut o = String::new();
    o.push_str("enable f16;\n\nstruct Params { m: u32 }\n");
    o.push_str("@group(0) @binding(0) var<storage, read> a: array<f16>;\n");
    o.push_str("@group(0) @binding(1) var<storage, read> b: array<vec4<f16>>;\n");
    o.push_str("@group(0) @binding(2) var<storage, read_write> c: array<vec4<f16>>;\n");
    o.push_str("@group(0) @binding(3) var<uniform> p: Params;\n\n");
    o.push_str(
        "@compute @workgroup_size(64)\nfn main(@builtin(global_invocation_id) gid: vec3<u32>) {\n",
    );
    o.push_str("    let m = p.m;\n    let q = m / 4u;\n    let row = gid.y * 8u;\n    let col = gid.x * 4u;\n");
    for i in 0..8 {
        for j in 0..4 {
            let _ = writeln!(o, "    var acc{i}{j} = vec4<f16>();");
        }
    }
    let _ = writeln!(o, "    for (var k = 0u; k < m; k += {s}u) {{");
    for st in 0..s {
        for i in 0..8 {
            let _ = writeln!(
                o,
                "        let a{st}_{i} = a[(row + {i}u) * m + k + {st}u];"
            );
        }
        for j in 0..4 {
            let _ = writeln!(
                o,
                "        let b{st}_{j} = b[(k + {st}u) * q + col + {j}u];"
            );
        }
        for i in 0..8 {
            for j in 0..4 {
                let _ = writeln!(
                    o,
                    "        acc{i}{j} = fma(vec4<f16>(a{st}_{i}), b{st}_{j}, acc{i}{j});"
                );
            }
        }
    }
    o.push_str("    }\n");
    for i in 0..8 {
        for j in 0..4 {
            let _ = writeln!(o, "    c[(row + {i}u) * q + col + {j}u] = acc{i}{j};");
        }
    }
    o.push_str("}\n");
    o
}
