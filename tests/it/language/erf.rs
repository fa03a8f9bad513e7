//! `x.erf()`, the intrinsic added through the table of intrinsics: Rust's value (the host's
//! `sarek::gpu::Erf`, computed in `f64`) within the guide's bound on the device under test,
//! for `f32` and `f16`, and the same bits on the CPU backend's JIT as on its interpreter.

use sarek::prelude::*;
use sarek::{Config, CpuEngine};

use crate::common::{backends, cpu_only};

#[sarek::kernel]
fn erf_f32(x: &[f32], out: &mut [f32]) {
    let i = global_thread_id();
    if i < x.len() {
        out[i] = x[i].erf();
    }
}

#[sarek::kernel]
fn erf_f16(x: &[f16], out: &mut [f16]) {
    let i = global_thread_id();
    if i < x.len() {
        out[i] = x[i].erf();
    }
}

/// Every 1/64 from −5 to 5, tiny and subnormal values, the branch points (1 and 4) and their
/// neighbours, zeros, infinities and NaN.
fn inputs() -> Vec<f32> {
    let mut x: Vec<f32> = (-320..=320).map(|k| k as f32 / 64.0).collect();
    for v in [
        1e-3f32,
        1e-20,
        f32::MIN_POSITIVE,
        1e-40,
        0.999_999_94,
        1.000_000_1,
        3.999_999_8,
        4.000_000_5,
        7.0,
        f32::MAX,
    ] {
        x.push(v);
        x.push(-v);
    }
    x.extend([0.0, -0.0, f32::INFINITY, f32::NEG_INFINITY, f32::NAN]);
    x
}

/// The distance of `got` from `want` in units of the last place of `f32` at `want`.
fn ulps(got: f32, want: f32) -> f64 {
    let ulp = if want == 0.0 {
        f64::from(f32::from_bits(1))
    } else {
        let e = want.abs().log2().floor() as i32;
        2f64.powi(e.max(-126) - 23)
    };
    (f64::from(got) - f64::from(want)).abs() / ulp
}

fn run_f32(dev: &Device, x: &[f32]) -> Vec<f32> {
    let xb = dev.upload(x).unwrap();
    let mut out = dev.zeros::<f32>(x.len()).unwrap();
    erf_f32
        .launch(dev, Grid::cover(x.len()), &xb, &mut out)
        .unwrap();
    out.read().unwrap()
}

#[backends]
fn erf_is_rusts_within_the_documented_bound(dev: &Device) {
    let x = inputs();
    let got = run_f32(dev, &x);
    for (&x, &g) in x.iter().zip(&got) {
        let want = Erf::erf(x);
        if want.is_nan() {
            assert!(g.is_nan(), "erf({x}) = {g}, expected NaN");
            continue;
        }
        // 3 ULP on the CPU backend; the GPU adds its `exp` and division errors (2e-7).
        let near = ulps(g, want) <= 3.0 || (!dev.is_cpu() && (g - want).abs() <= 2e-7);
        assert!(near, "erf({x}) = {g}, Rust's {want}: {} ULP", ulps(g, want));
    }
    // The sign of a zero is kept, and the tails are exactly ±1.
    assert_eq!(
        got[x
            .iter()
            .position(|v| v.to_bits() == (-0.0f32).to_bits())
            .unwrap()]
        .to_bits(),
        (-0.0f32).to_bits()
    );
    assert_eq!(
        got[x.iter().position(|v| *v == f32::INFINITY).unwrap()],
        1.0
    );
    assert_eq!(got[x.iter().position(|v| *v == -5.0).unwrap()], -1.0);

    let h: Vec<f16> = x.iter().map(|&v| f16::from_f32(v)).collect();
    let hb = dev.upload(&h).unwrap();
    let mut hout = dev.zeros::<f16>(h.len()).unwrap();
    let Some(_) = crate::common::unless_no_f16(
        dev,
        erf_f16.launch(dev, Grid::cover(h.len()), &hb, &mut hout),
    ) else {
        return;
    };
    for (&v, &g) in h.iter().zip(&hout.read().unwrap()) {
        let want = Erf::erf(v);
        if want.is_nan() {
            assert!(g.is_nan());
            continue;
        }
        // Computed in `f32` and rounded once: at most one `f16` step from Rust's.
        let step = (f16::from_bits(want.to_bits() + 1).to_f32() - want.to_f32()).abs();
        assert!(
            (g.to_f32() - want.to_f32()).abs() <= step,
            "erf({v}) = {g}, Rust's {want}"
        );
    }
}

#[cpu_only]
fn erf_on_the_jit_is_the_interpreters_bits(_dev: &Device) {
    let x = inputs();
    let on = |engine| {
        let dev = Device::cpu_with(Config::default().cpu_engine(Some(engine)));
        assert_eq!(dev.cpu_engine(erf_f32::SOURCE).unwrap(), Some(engine));
        run_f32(&dev, &x)
    };
    let (jit, interp) = (on(CpuEngine::Jit), on(CpuEngine::Interpreter));
    for ((x, j), i) in x.iter().zip(&jit).zip(&interp) {
        assert_eq!(
            j.to_bits(),
            i.to_bits(),
            "erf({x}): JIT {j}, interpreter {i}"
        );
    }
}

/// Every scalar math intrinsic a kernel calls by a name of its own is in the guide's list of
/// methods, so the table and the docs cannot drift apart (vector and packing functions have
/// lists of their own).
#[test]
fn the_guide_lists_every_named_intrinsic() {
    use sarek_codegen::ir::{MathFun, Rule};
    let guide = include_str!("../../../src/guide/kernels.md");
    for f in MathFun::ALL {
        let row = f.intrinsic();
        if matches!(row.rule, Rule::Lowered | Rule::Vector | Rule::Packing) {
            continue;
        }
        // The first name is the method's own (`wrapping_pow` is in `wrapping_add/../pow`).
        if let Some(name) = row.names.first() {
            let word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
            let named = guide.match_indices(name).any(|(at, _)| {
                !word(guide[..at].chars().next_back())
                    && !word(guide[at + name.len()..].chars().next())
            });
            assert!(
                named,
                "src/guide/kernels.md does not name `{name}` ({f:?}: {})",
                row.doc
            );
        }
    }
}
