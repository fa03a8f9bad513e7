//! Attention (`sarek::algo::attention`): `softmax(Q · Kᵀ · scale (+ causal mask)) · V` of
//! `[B, H, T, d]` halves against a naive host reference in `f64`, causal and not, `d` = 64 and
//! 128 (and other widths on the portable kernel), `T` below, at and past the kernels' blocks,
//! several heads, both engines: the portable one everywhere, the cooperative one on the CPU
//! backend (which emulates its matrices) and on a GPU that has them.
//!
//! Tolerance: values lie in [-1, 1), so every output is a weighted mean of values of at most 1
//! in magnitude; it may differ from the reference by `3 · 2^-10` (the output rounded to a half,
//! `f32` sums, and the weights rounded to halves on the cooperative kernel). A wrong mask, a
//! lost rescale or a missed block moves outputs by much more.

use proptest::prelude::*;
use sarek::algo::attention::{attention, kernels, Attention, Engine};
use sarek::algo::matmul::cooperative;
use sarek::{f16, Device, Error};

use crate::common::{self, backends};
use crate::differential::config;

/// `n` halves in `[-1, 1)` from `seed`, as `f32`s.
fn values(seed: u32, n: usize) -> Vec<f32> {
    common::random_u32(seed, n)
        .iter()
        .map(|&r| f16::from_f32((r >> 8) as f32 / (1 << 23) as f32 - 1.0).to_f32())
        .collect()
}

fn halves(v: &[f32]) -> Vec<f16> {
    v.iter().map(|&x| f16::from_f32(x)).collect()
}

/// The naive reference: for each head and query row, the scores against every (visible) key,
/// their softmax and the weighted sum of the values, in `f64`.
fn reference(q: &[f32], k: &[f32], v: &[f32], attn: &Attention) -> Vec<f64> {
    let (b, h, t, d) = attn.shape();
    let scale = attn.scale_value() as f64;
    let mut out = vec![0.0; b * h * t * d];
    for z in 0..b * h {
        let base = z * t * d;
        for i in 0..t {
            let visible = if attn.is_causal() { i + 1 } else { t };
            let scores: Vec<f64> = (0..visible)
                .map(|j| {
                    (0..d)
                        .map(|c| q[base + i * d + c] as f64 * k[base + j * d + c] as f64)
                        .sum::<f64>()
                        * scale
                })
                .collect();
            let mx = scores.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            let w: Vec<f64> = scores.iter().map(|s| (s - mx).exp()).collect();
            let total: f64 = w.iter().sum();
            for c in 0..d {
                out[base + i * d + c] = (0..visible)
                    .map(|j| w[j] * v[base + j * d + c] as f64)
                    .sum::<f64>()
                    / total;
            }
        }
    }
    out
}

/// Whether `dev` runs `f16` kernels.
fn has_f16(dev: &Device) -> bool {
    dev.is_cpu() || dev.features().contains(sarek::wgpu::Features::SHADER_F16)
}

/// The engines that run `d` on `dev`: the portable one, and the cooperative one for `d` = 64
/// and 128 on the CPU backend (emulated) and on a GPU that has it.
fn engines(dev: &Device, d: usize) -> Vec<Engine> {
    let mut engines = vec![Engine::Tiled];
    if (d == 64 || d == 128) && (dev.is_cpu() || cooperative(dev)) {
        engines.push(Engine::Cooperative);
    }
    engines
}

/// Runs `attn` with `engine` on `dev` (through `enqueue` or the plain call) and checks it
/// against the reference.
fn check(dev: &Device, attn: Attention, engine: Engine, q: &[f32], k: &[f32], v: &[f32]) {
    let attn = attn.engine(engine);
    let (qb, kb, vb) = (
        dev.upload(&halves(q)).unwrap(),
        dev.upload(&halves(k)).unwrap(),
        dev.upload(&halves(v)).unwrap(),
    );
    let got = if attn.is_causal() {
        let mut o = dev.upload(&vec![f16::NAN; q.len()]).unwrap();
        let mut batch = dev.batch();
        attn.enqueue(&mut batch, &qb, &kb, &vb, &mut o).unwrap();
        batch.submit().unwrap();
        o.read().unwrap()
    } else {
        attention(dev, &qb, &kb, &vb, &attn)
            .unwrap()
            .read()
            .unwrap()
    };
    let want = reference(q, k, v, &attn);
    assert_eq!(got.len(), want.len());
    let tol = 3.0 / 1024.0;
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        let g = g.to_f32() as f64;
        assert!(
            (g - w).abs() <= tol,
            "{attn:?} {engine:?} on {}: element {i} (head {}, row {}, column {}): got {g}, \
             want {w}",
            dev.name(),
            i / (attn.shape().2 * attn.shape().3),
            i / attn.shape().3 % attn.shape().2,
            i % attn.shape().3,
        );
    }
}

/// One case of random inputs.
fn case(dev: &Device, attn: Attention, seed: u32) {
    let (b, h, t, d) = attn.shape();
    let n = b * h * t * d;
    let (q, k, v) = (values(seed, n), values(seed + 1, n), values(seed + 2, n));
    for engine in engines(dev, d) {
        check(dev, attn, engine, &q, &k, &v);
    }
}

/// `d` = 64 and 128, causal and not, `T` of one row, below one block, between blocks and past
/// two of the cooperative kernel's 64-row blocks, several heads and batches.
#[backends]
fn matches_the_host_reference(dev: &Device) {
    if !has_f16(dev) {
        eprintln!("{}: no SHADER_F16", dev.name());
        return;
    }
    let mut seed = 1;
    for d in [64, 128] {
        for (b, h, t) in [(1, 1, 1), (2, 1, 17), (1, 2, 100), (1, 1, 130)] {
            for causal in [false, true] {
                seed += 3;
                case(dev, Attention::new(b, h, t, d).causal(causal), seed);
            }
        }
    }
}

/// The portable kernel runs every head dimension up to 128, not only 64 and 128.
#[backends]
fn the_portable_kernel_runs_other_head_dims(dev: &Device) {
    if !has_f16(dev) {
        return;
    }
    for (d, causal) in [(1, false), (24, true), (80, false), (127, true)] {
        let attn = Attention::new(1, 2, 40, d).causal(causal);
        let n = 2 * 40 * d;
        let (q, k, v) = (values(7, n), values(8, n), values(9, n));
        check(dev, attn, Engine::Tiled, &q, &k, &v);
    }
}

/// Keys whose scores grow along the sequence, by far more than the cooperative kernel lets a
/// row's maximum lag (8), so that its accumulators are rescaled block after block; a large
/// scale makes the softmax nearly one-hot, so a lost rescale is far off.
#[backends]
fn growing_scores_rescale_the_output(dev: &Device) {
    if !has_f16(dev) {
        return;
    }
    for d in [64, 128] {
        let (b, h, t) = (1, 2, 150);
        let n = b * h * t * d;
        let q = vec![0.5f32; n];
        // Key j of each head: j / t in every column (halves of multiples of 1/150).
        let k: Vec<f32> = (0..n)
            .map(|i| f16::from_f32((i / d % t) as f32 / t as f32).to_f32())
            .collect();
        let v = values(3, n);
        for causal in [false, true] {
            let attn = Attention::new(b, h, t, d).causal(causal).scale(2.0);
            for engine in engines(dev, d) {
                check(dev, attn, engine, &q, &k, &v);
            }
        }
    }
}

/// The cooperative kernel on words of four halves (what `Engine::Cooperative` runs on a GPU),
/// launched directly with buffers of `F16Vec4`: `d` = 64 and 128, causal and not, `T` past two
/// query blocks and not a multiple of the key blocks, two heads, with scores that grow along
/// the sequence (rescales) and random ones.
#[backends]
fn cooperative_words_match_the_host(dev: &Device) {
    if !engines(dev, 64).contains(&Engine::Cooperative) {
        eprintln!(
            "{}: no cooperative matrices, the portable kernel is tested",
            dev.name()
        );
        return;
    }
    for d in [64usize, 128] {
        for (causal, growing) in [(false, false), (true, true), (true, false)] {
            let (h, t) = (2, 150);
            let n = h * t * d;
            let (mut q, mut k) = (values(21, n), values(22, n));
            if growing {
                q = vec![0.5; n];
                k = (0..n)
                    .map(|i| f16::from_f32((i / d % t) as f32 / t as f32).to_f32())
                    .collect();
            }
            let v = values(23, n);
            let attn =
                Attention::new(1, h, t, d)
                    .causal(causal)
                    .scale(if growing { 2.0 } else { 0.125 });
            let words = |x: &[f32]| {
                let hs = halves(x);
                dev.upload(bytemuck::cast_slice::<f16, sarek::F16Vec4>(&hs))
                    .unwrap()
            };
            let (q4, k4, v4) = (words(&q), words(&k), words(&v));
            let mut o = dev.upload(&vec![f16::NAN; n]).unwrap();
            let grid = sarek::Grid::groups([t.div_ceil(64) as u32, h as u32, 1]);
            let (tt, scale, c) = (t as u32, attn.scale_value(), causal as u32);
            if d == 64 {
                kernels::attention_coop_x4
                    .launch::<64>(dev, grid, &q4, &k4, &v4, &mut o, tt, scale, c)
                    .unwrap();
            } else {
                kernels::attention_coop_x4
                    .launch::<128>(dev, grid, &q4, &k4, &v4, &mut o, tt, scale, c)
                    .unwrap();
            }
            let got = o.read().unwrap();
            let want = reference(&q, &k, &v, &attn);
            for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                let g = g.to_f32() as f64;
                assert!(
                    (g - w).abs() <= 3.0 / 1024.0,
                    "{attn:?} words: element {i}: got {g}, want {w}"
                );
            }
        }
    }
}

/// Buffers that do not hold the shape, head dimensions an engine does not run, and shapes
/// past 2^32 - 1 are errors that say so, not panics.
#[backends]
fn bad_shapes_are_errors(dev: &Device) {
    let x = dev.zeros::<f16>(2 * 64).unwrap();
    let short = dev.zeros::<f16>(64).unwrap();
    let bad = |r: sarek::Result<()>, needle: &str| match r {
        Err(Error::BadArguments { message, .. }) => {
            assert!(message.contains(needle), "{message}")
        }
        Err(e) => panic!("another error: {e}"),
        Ok(()) => panic!("accepted, wanted an error saying {needle:?}"),
    };
    let run = |attn: Attention, q: &sarek::Buffer<f16>, o: &mut sarek::Buffer<f16>| {
        let mut batch = dev.batch();
        attn.enqueue(&mut batch, q, &x, &x, o)
    };
    let mut o = dev.zeros::<f16>(2 * 64).unwrap();
    bad(
        run(Attention::new(1, 1, 2, 64), &short, &mut o),
        "q of shape",
    );
    bad(
        run(Attention::new(1, 1, 2, 64), &x, &mut dev.zeros(3).unwrap()),
        "o of shape [1, 1, 2, 64] must hold exactly 128 halves, and its buffer holds 3",
    );
    bad(run(Attention::new(1, 2, 2, 64), &x, &mut o), "exactly 256");
    bad(
        run(
            Attention::new(1, 1, 1, 256).engine(Engine::Tiled),
            &x,
            &mut o,
        ),
        "from 1 to 128, not 256",
    );
    bad(run(Attention::new(1, 1, 1, 0), &x, &mut o), "not 0");
    bad(
        run(
            Attention::new(1, 1, 4, 32).engine(Engine::Cooperative),
            &x,
            &mut o,
        ),
        "64 and 128, not 32",
    );
    bad(
        run(Attention::new(1 << 16, 1 << 8, 1 << 8, 64), &x, &mut o),
        "pass 2^32 - 1",
    );
    let y = dev.zeros::<f16>(200).unwrap();
    assert!(matches!(
        attention(dev, &y, &y, &y, &Attention::new(1, 1, 1, 200)),
        Err(Error::BadArguments { .. })
    ));
}

/// No heads or no positions: nothing runs, nothing fails.
#[backends]
fn empty_shapes_write_nothing(dev: &Device) {
    let x = dev.zeros::<f16>(0).unwrap();
    for attn in [
        Attention::new(0, 4, 16, 64),
        Attention::new(2, 2, 0, 128).causal(true),
    ] {
        assert!(attention(dev, &x, &x, &x, &attn).unwrap().is_empty());
    }
}

proptest! {
    #![proptest_config(config(6))]

    /// Random small shapes, causal or not, scales, both head dimensions and every engine,
    /// against the host.
    #[test]
    fn random_shapes_match_the_host(
        b in 1usize..3,
        h in 1usize..3,
        t in 1usize..80,
        d in prop::sample::select(&[64usize, 128][..]),
        causal in any::<bool>(),
        scale in prop::sample::select(&[None, Some(0.05f32), Some(0.5)][..]),
        seed in 1u32..1_000_000,
    ) {
        for (_, dev) in crate::differential::backends() {
            if !has_f16(dev) {
                continue;
            }
            let mut attn = Attention::new(b, h, t, d).causal(causal);
            if let Some(s) = scale {
                attn = attn.scale(s);
            }
            case(dev, attn, seed);
        }
    }
}

/// The cooperative kernels fit the 48 KiB of workgroup memory WGSL has on an H200, as their
/// docs say (44,560 bytes), and the portable one WebGPU's guaranteed 16 KiB.
#[test]
fn workgroup_memory_fits_the_documented_budgets() {
    for abi in [
        kernels::attention_coop.abi::<64>(),
        kernels::attention_coop.abi::<128>(),
        kernels::attention_coop_x4.abi::<64>(),
        kernels::attention_coop_x4.abi::<128>(),
    ] {
        assert_eq!(abi.workgroup_memory, 44_560);
    }
    let portable = kernels::attention_tiled::ABI.workgroup_memory;
    assert!(portable <= 16_384, "{portable} bytes");
}
