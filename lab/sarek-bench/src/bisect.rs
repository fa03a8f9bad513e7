//! `--experiments --only x_bisect`: where the scan and `poly_vec4` lose to their twins. Each
//! side is run (a) as the twin, (b) through Sarek's API, (c) as Sarek's own generated WGSL
//! launched through raw wgpu with the uniform block the runtime would pack, and (d) that WGSL
//! edited step by step toward the twin; all interleaved run by run in one comparison, so the
//! step that closes the gap names the cause. Pass 3 of the scan is also run as the library's
//! kernel for whole tiles and as variants of it (`scan_kernels.rs`), and the scan once more at
//! a length whose last tile is partial.

use sarek::__private::KernelSource;
use sarek::abi::FieldSource;
use sarek::scan::{scan_apply_sg, scan_apply_sg_whole, scan_carry, scan_reduce, Scan};
use sarek::{Buffer, Grid, Vec4};

use crate::benches::{Bench, Result};
use crate::kernels;
use crate::raw::{read, storage, Pass};
use crate::scan_experiments::{expected, input};
use crate::scan_kernels::{scan_apply_whole, scan_apply_whole_p};

/// The uniform block `source`'s ABI lays out for a grid of `groups` workgroups: `lens` gives
/// the element count of each slice parameter, `scalars` the bits of each scalar parameter.
fn pack(
    source: &KernelSource,
    groups: [u32; 3],
    lens: &[(u32, u32)],
    scalars: &[(u32, u32)],
) -> Vec<u8> {
    let abi = &source.abi();
    let mut bytes = vec![0u8; abi.uniform.size as usize];
    let mut put = |at: u32, v: u32| {
        let at = at as usize;
        bytes[at..at + 4].copy_from_slice(&v.to_le_bytes());
    };
    for f in abi.uniform.fields.iter() {
        match f.source {
            FieldSource::Grid => {
                for (k, g) in groups.iter().enumerate() {
                    put(f.offset + 4 * k as u32, *g);
                }
            }
            FieldSource::Length { param } => put(
                f.offset,
                lens.iter().find(|l| l.0 == param).expect("length").1,
            ),
            FieldSource::Scalar { param, .. } => put(
                f.offset,
                scalars.iter().find(|s| s.0 == param).expect("scalar").1,
            ),
            FieldSource::Bytes { .. } => unreachable!("no struct parameters here"),
        }
    }
    bytes
}

/// `text` with entry point `entry` alone (what the runtime hands wgpu): the declarations
/// before the first entry point, then `entry`'s function.
fn only(text: &str, entry: &str) -> String {
    if entry == "main" {
        return text.to_string();
    }
    let first = text.find("@compute").expect("an entry point");
    let at = text.find(&format!("fn {entry}(")).expect("the entry point");
    let start = text[..at].rfind("@compute").expect("its attribute");
    let end = text[at..]
        .find("\n@compute")
        .map_or(text.len(), |e| at + e + 1);
    format!("{}{}", &text[..first], &text[start..end])
}

/// One edit of generated WGSL: a name and the text it makes.
type Edit = (&'static str, String);

/// A pipeline and its bind group.
type Built = (sarek::wgpu::ComputePipeline, sarek::wgpu::BindGroup);

/// A list of dispatches: the pipelines with their bind groups and workgroup counts.
type Dispatches<'a> = Vec<(&'a Built, [u32; 3])>;

/// One dispatch of a list.
fn mk(a: &Built, d: [u32; 3]) -> (&Built, [u32; 3]) {
    (a, d)
}

/// Times the scan and `poly_vec4` as described above.
pub fn bisect(b: &Bench) -> Result<()> {
    scan(b)?;
    scan_partial(b)?;
    poly_vec4(b)
}

/// The scan of `b.n - 4` floats, whose last tile is partial: the library (which runs the
/// general pass 3, `scan_apply_sg`, on every tile then) against the twin and against the same
/// passes raw, each checked.
fn scan_partial(b: &Bench) -> Result<()> {
    let (ctx, n) = (b.ctx, b.n - 4);
    let dev = &ctx.dev;
    let xs = input(n);
    let want = expected(&xs);
    let x = dev.upload(bytemuck::cast_slice::<f32, Vec4>(&xs))?;
    let mut out = dev.zeros::<Vec4>(n / 4)?;
    let mut lib = Scan::new(dev, n / 4)?;
    let tiles = n.div_ceil(sarek::scan::TILE) as u32;
    let (n4, t) = ((n / 4) as u32, tiles);
    let rx = storage(ctx, bytemuck::cast_slice(&xs));
    let rs = storage(ctx, &vec![0u8; tiles as usize * 4]);
    let rc = storage(ctx, &vec![0u8; tiles as usize * 4]);
    let ro = storage(ctx, &vec![0u8; n * 4]);
    let g = [tiles, 1, 1];
    let one = [1, 1, 1];
    let u1 = ctx.uniform(&pack(scan_reduce::SOURCE, g, &[(0, n4), (1, t)], &[]));
    let u2 = ctx.uniform(&pack(scan_carry::SOURCE, one, &[(0, t), (1, t)], &[]));
    let u3 = ctx.uniform(&pack(
        scan_apply_sg::SOURCE,
        g,
        &[(0, n4), (1, t), (2, n4)],
        &[],
    ));
    let make = |text: &str,
                entry: &str,
                bufs: &[&sarek::wgpu::Buffer],
                u: Option<&sarek::wgpu::Buffer>| {
        let text = only(text, entry);
        let p = ctx.pipeline_at(&text, entry);
        let mut all: Vec<&sarek::wgpu::Buffer> = bufs.to_vec();
        all.extend(u);
        let bg = ctx.bind(&p, &all);
        (p, bg)
    };
    let t1 = make(
        include_str!("wgsl/scan_reduce.wgsl"),
        "main",
        &[&rx, &rs],
        None,
    );
    let t2 = make(
        include_str!("wgsl/scan_carry.wgsl"),
        "main",
        &[&rs, &rc],
        None,
    );
    let t3 = make(
        include_str!("wgsl/scan_apply_sg.wgsl"),
        "main",
        &[&rx, &rc, &ro],
        None,
    );
    let s1 = make(
        scan_reduce::SOURCE.wgsl(),
        "sarek_main",
        &[&rx, &rs],
        Some(&u1),
    );
    let s2 = make(
        scan_carry::SOURCE.wgsl(),
        "sarek_main",
        &[&rs, &rc],
        Some(&u2),
    );
    let s3 = make(
        scan_apply_sg::SOURCE.wgsl(),
        "sarek_main",
        &[&rx, &rc, &ro],
        Some(&u3),
    );
    let lists: Vec<(&str, Dispatches)> = vec![
        ("twin", vec![mk(&t1, g), mk(&t2, one), mk(&t3, g)]),
        (
            "general kernel on every tile, raw",
            vec![mk(&s1, g), mk(&s2, one), mk(&s3, g)],
        ),
    ];
    let passes: Vec<Vec<Pass>> = lists
        .iter()
        .map(|(_, l)| l.iter().map(|(pb, d)| (&pb.0, &pb.1, *d)).collect())
        .collect();
    let mut checked = Vec::new();
    for p in &passes {
        ctx.queue().write_buffer(&ro, 0, &vec![0u8; n * 4]);
        ctx.time_passes(p);
        let got: Vec<f32> = read(ctx, &ro);
        checked.push(got == want);
    }
    let mut go = |out: &mut Buffer<Vec4>| vec![lib.run(&x, out).expect("scan")];
    go(&mut out);
    let ok: Vec<f32> = bytemuck::cast_slice(&out.read()?).to_vec();
    let refs: Vec<&[Pass]> = passes.iter().map(|p| p.as_slice()).collect();
    let (api, raws) = b.timer.compare(|| go(&mut out), &refs);
    let show = |name: &str, t: std::time::Duration, ok: bool| {
        println!(
            "experiment: bisect scan, 2^26 - 4 floats, {name:<36} {:>9.1} µs  {:>8.1} GB/s counted  checked {ok}",
            t.as_secs_f64() * 1e6,
            (n * 8) as f64 / t.as_secs_f64() / 1e9
        )
    };
    show("library (Scan::run)", api, ok == want);
    for (((name, _), t), ok) in lists.iter().zip(raws).zip(checked) {
        show(name, t, ok);
    }
    Ok(())
}

/// The scan of `b.n` floats.
fn scan(b: &Bench) -> Result<()> {
    let (ctx, n) = (b.ctx, b.n);
    let dev = &ctx.dev;
    let xs = input(n);
    let want = expected(&xs);
    let x = dev.upload(bytemuck::cast_slice::<f32, Vec4>(&xs))?;
    let mut out = dev.zeros::<Vec4>(n / 4)?;
    let mut lib = Scan::new(dev, n / 4)?;
    let tiles = n.div_ceil(sarek::scan::TILE) as u32;
    let (n4, t) = ((n / 4) as u32, tiles);
    let rx = storage(ctx, bytemuck::cast_slice(&xs));
    let rs = storage(ctx, &vec![0u8; tiles as usize * 4]);
    let rc = storage(ctx, &vec![0u8; tiles as usize * 4]);
    let ro = storage(ctx, &vec![0u8; n * 4]);
    let g = [tiles, 1, 1];
    let one = [1, 1, 1];
    // Each pass's uniform block, as the runtime packs it.
    let u1 = ctx.uniform(&pack(scan_reduce::SOURCE, g, &[(0, n4), (1, t)], &[]));
    let u2 = ctx.uniform(&pack(scan_carry::SOURCE, one, &[(0, t), (1, t)], &[]));
    let u3 = ctx.uniform(&pack(
        scan_apply_sg::SOURCE,
        g,
        &[(0, n4), (1, t), (2, n4)],
        &[],
    ));
    let u3k = ctx.uniform(&pack(
        scan_apply_sg_whole::SOURCE,
        g,
        &[(0, n4), (1, t), (2, n4)],
        &[],
    ));
    let u3w = ctx.uniform(&pack(
        scan_apply_whole::SOURCE,
        g,
        &[(0, n4), (1, t), (2, n4)],
        &[],
    ));
    let u3p = ctx.uniform(&pack(
        scan_apply_whole_p::SOURCE,
        g,
        &[(0, n4), (1, t), (2, n4)],
        &[(3, n4 / 2048)],
    ));

    // The passes' generated text and its edits toward the twins.
    let s1 = scan_reduce::SOURCE.wgsl().to_string();
    let s2 = scan_carry::SOURCE.wgsl().to_string();
    let s3 = scan_apply_sg::SOURCE.wgsl().to_string();
    // The lengths as the twin reads them (`arrayLength`), and two spellings that stay exact
    // for an empty buffer (bound as one element, its uniform length 0).
    let lens = |s: &str, form: &str| {
        let mut s = s.to_string();
        for (field, buf) in [
            ("sarek_len0", "x"),
            ("sarek_len1", "carry"),
            ("sarek_len2", "out"),
        ] {
            let u = format!("sarek_params.{field}");
            let a = format!("arrayLength(&{buf})");
            let to = match form {
                "min" => format!("min({a}, {u})"),
                "select" => format!("select(0u, {a}, {u} != 0u)"),
                _ => a,
            };
            s = s.replace(&u, &to);
        }
        s
    };
    let sw = scan_apply_whole::SOURCE.wgsl().to_string();
    let sp = scan_apply_whole_p::SOURCE.wgsl().to_string();
    // Pass 3: the library's kernel for whole tiles (what `Scan` runs at 2^26 floats), its
    // general kernel (guards, a partial tile) on every tile, and the variants.
    let p3: Vec<Edit> = vec![
        (
            "library (scan_apply_sg_whole)",
            scan_apply_sg_whole::SOURCE.wgsl().to_string(),
        ),
        ("general kernel (scan_apply_sg, guarded)", s3.clone()),
        (
            "whole tiles apart in one kernel (scan_apply_whole)",
            sw.clone(),
        ),
        ("whole tiles apart, arrayLength", lens(&sw, "")),
        ("whole tiles by a scalar (scan_apply_whole_p)", sp),
    ];
    // Each pass-3 variant's uniform block (each kernel's ABI is its own).
    let u3_of = |k: usize| match k {
        0 => &u3k,
        1 => &u3,
        2 | 3 => &u3w,
        _ => &u3p,
    };
    let p2: Vec<Edit> = vec![("sarek", s2.clone())];
    let p1: Vec<Edit> = vec![("sarek", s1.clone())];
    // Pipelines and bind groups: the uniform block is bound only where the text still reads it.
    let make = |text: &str, entry: &str, bufs: &[&sarek::wgpu::Buffer], u: &sarek::wgpu::Buffer| {
        let text = only(text, entry);
        let p = ctx.pipeline_at(&text, entry);
        let mut all: Vec<&sarek::wgpu::Buffer> = bufs.to_vec();
        if text.contains("sarek_params.") {
            all.push(u);
        }
        let bg = ctx.bind(&p, &all);
        (p, bg)
    };
    let t1 = make(
        include_str!("wgsl/scan_reduce.wgsl"),
        "main",
        &[&rx, &rs],
        &u1,
    );
    let t2 = make(
        include_str!("wgsl/scan_carry.wgsl"),
        "main",
        &[&rs, &rc],
        &u2,
    );
    let t3 = make(
        include_str!("wgsl/scan_apply_sg.wgsl"),
        "main",
        &[&rx, &rc, &ro],
        &u3,
    );
    let e1: Vec<_> = p1
        .iter()
        .map(|(_, s)| make(s, "sarek_main", &[&rx, &rs], &u1))
        .collect();
    let e2: Vec<_> = p2
        .iter()
        .map(|(_, s)| make(s, "sarek_main", &[&rs, &rc], &u2))
        .collect();
    let e3: Vec<_> = p3
        .iter()
        .enumerate()
        .map(|(k, (_, s))| make(s, "sarek_main", &[&rx, &rc, &ro], u3_of(k)))
        .collect();
    // The lists of passes: whole scans, then each pass alone.
    let mut lists: Vec<(String, Dispatches)> = vec![
        (
            "twin, three passes".into(),
            vec![mk(&t1, g), mk(&t2, one), mk(&t3, g)],
        ),
        (
            "sarek WGSL raw, three passes".into(),
            vec![mk(&e1[0], g), mk(&e2[0], one), mk(&e3[0], g)],
        ),
        (
            "twin with sarek pass 1".into(),
            vec![mk(&e1[0], g), mk(&t2, one), mk(&t3, g)],
        ),
        (
            "twin with sarek pass 2".into(),
            vec![mk(&t1, g), mk(&e2[0], one), mk(&t3, g)],
        ),
        (
            "twin with sarek pass 3".into(),
            vec![mk(&t1, g), mk(&t2, one), mk(&e3[0], g)],
        ),
    ];
    for (k, (name, _)) in p3.iter().enumerate().skip(1) {
        lists.push((
            format!("sarek raw, pass 3 {name}"),
            vec![mk(&e1[0], g), mk(&e2[0], one), mk(&e3[k], g)],
        ));
    }
    lists.push(("pass 1 alone, twin".into(), vec![mk(&t1, g)]));
    lists.push(("pass 1 alone, sarek".into(), vec![mk(&e1[0], g)]));
    lists.push(("pass 2 alone, twin".into(), vec![mk(&t2, one)]));
    lists.push(("pass 2 alone, sarek".into(), vec![mk(&e2[0], one)]));
    lists.push(("pass 3 alone, twin".into(), vec![mk(&t3, g)]));
    lists.push(("pass 3 alone, sarek".into(), vec![mk(&e3[0], g)]));
    lists.push(("pass 3 alone, general kernel".into(), vec![mk(&e3[1], g)]));
    let passes: Vec<Vec<Pass>> = lists
        .iter()
        .map(|(_, l)| l.iter().map(|(pb, d)| (&pb.0, &pb.1, *d)).collect())
        .collect();
    // Each whole list checked once.
    let mut checked = Vec::new();
    for (k, p) in passes.iter().enumerate() {
        if k < lists.len() - 7 {
            ctx.queue().write_buffer(&ro, 0, &vec![0u8; n * 4]);
            ctx.time_passes(p);
            let got: Vec<f32> = read(ctx, &ro);
            checked.push(got == want);
        } else {
            checked.push(true);
        }
    }
    let mut go = |out: &mut Buffer<Vec4>| vec![lib.run(&x, out).expect("scan")];
    go(&mut out);
    let ok: Vec<f32> = bytemuck::cast_slice(&out.read()?).to_vec();
    let refs: Vec<&[Pass]> = passes.iter().map(|p| p.as_slice()).collect();
    let (api, raws) = b.timer.compare(|| go(&mut out), &refs);
    let show = |name: &str, t: std::time::Duration, ok: bool| {
        println!(
            "experiment: bisect scan {name:<44} {:>9.1} µs  {:>8.1} GB/s counted  checked {ok}",
            t.as_secs_f64() * 1e6,
            (n * 8) as f64 / t.as_secs_f64() / 1e9
        )
    };
    show("sarek API (Scan::run)", api, ok == want);
    for (((name, _), t), ok) in lists.iter().zip(raws).zip(checked) {
        show(name, t, ok);
    }
    Ok(())
}

/// `poly_vec4`: the vec4 twin, Sarek's API, and Sarek's entry points raw.
fn poly_vec4(b: &Bench) -> Result<()> {
    let (ctx, n) = (b.ctx, b.n);
    let dev = &ctx.dev;
    let (ca, cb, cc) = (0.5f32, -2.0f32, 3.0f32);
    let xs: Vec<f32> = (0..n).map(|i| (i % 1000) as f32 * 0.25).collect();
    let x = dev.upload(bytemuck::cast_slice::<f32, Vec4>(&xs))?;
    let mut y = dev.zeros::<Vec4>(n / 4)?;
    let rx = storage(ctx, bytemuck::cast_slice(&xs));
    let ry = storage(ctx, &vec![0u8; n * 4]);
    let n4 = (n / 4) as u32;
    let groups = n4.div_ceil(256);
    let twin_u = ctx.uniform(bytemuck::cast_slice(&[
        ca.to_bits(),
        cb.to_bits(),
        cc.to_bits(),
        n as u32,
    ]));
    let src = kernels::poly4::SOURCE;
    let scalars = [(0, ca.to_bits()), (1, cb.to_bits()), (2, cc.to_bits())];
    let su = ctx.uniform(&pack(src, [groups, 1, 1], &[(3, n4), (4, n4)], &scalars));
    let text = src.wgsl().to_string();
    let len = |form: &str| {
        let (u, a) = ("sarek_params.sarek_len4", "arrayLength(&y)");
        let to = match form {
            "min" => format!("min({a}, {u})"),
            _ => a.to_string(),
        };
        text.replace(u, &to)
    };
    let folded = ctx.dispatch_1d(groups);
    let variants: Vec<(&str, String, &str, [u32; 3])> = vec![
        (
            "twin (vec4, one per thread)",
            include_str!("wgsl/poly_vec4.wgsl").into(),
            "main",
            folded,
        ),
        (
            "sarek folded entry raw (the API's)",
            text.clone(),
            "sarek_main_folded",
            folded,
        ),
        (
            "sarek folded entry, arrayLength",
            len(""),
            "sarek_main_folded",
            folded,
        ),
        (
            "sarek folded, min(arrayLength, len)",
            len("min"),
            "sarek_main_folded",
            folded,
        ),
    ];
    let built: Vec<_> = variants
        .iter()
        .map(|(_, s, e, _)| {
            let p = ctx.pipeline_at(&only(s, e), e);
            let u = if *e == "main" { &twin_u } else { &su };
            let bg = ctx.bind(&p, &[&rx, &ry, u]);
            (p, bg)
        })
        .collect();
    let passes: Vec<Vec<Pass>> = built
        .iter()
        .zip(&variants)
        .map(|((p, bg), v)| vec![(p, bg, v.3)])
        .collect();
    let want: Vec<f32> = xs.iter().map(|v| (v * ca + cb) * v + cc).collect();
    let mut checked = Vec::new();
    for p in &passes {
        ctx.queue().write_buffer(&ry, 0, &vec![0u8; n * 4]);
        ctx.time_passes(p);
        let got: Vec<f32> = read(ctx, &ry);
        checked.push(got == want);
    }
    let go = |y: &mut Buffer<Vec4>| {
        vec![kernels::poly4
            .launch(dev, Grid::cover(n / 4), ca, cb, cc, &x, y)
            .expect("launch")]
    };
    go(&mut y);
    let ok = bytemuck::cast_slice::<Vec4, f32>(&y.read()?) == want.as_slice();
    let refs: Vec<&[Pass]> = passes.iter().map(|p| p.as_slice()).collect();
    let (api, raws) = b.timer.compare(|| go(&mut y), &refs);
    let show = |name: &str, t: std::time::Duration, ok: bool| {
        println!(
            "experiment: bisect poly_vec4 {name:<40} {:>9.1} µs  {:>8.1} GB/s  checked {ok}",
            t.as_secs_f64() * 1e6,
            (n * 8) as f64 / t.as_secs_f64() / 1e9
        )
    };
    show("sarek API", api, ok);
    for ((v, t), ok) in variants.iter().zip(raws).zip(checked) {
        show(v.0, t, ok);
    }
    Ok(())
}
