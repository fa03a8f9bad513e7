//! The lanes loop's fast path for whole workgroups (`lanes.rs`): it is taken where every
//! access of a workgroup is in bounds, and every workgroup (whole, at the grid's edge, with
//! indices that wrap) gives the interpreter's results.

use std::sync::atomic::{AtomicU32, Ordering};

use super::Compiled;
use crate::interp::{Launch, Program, DEFAULT_SUBGROUP_SIZE};
use sarek_codegen::front::{lower_kernel, KernelAttr};

/// `item` lowered with workgroups of `size` (the JIT tests' kernels).
pub(super) fn program_of(size: u32, item: syn::ItemFn) -> Program {
    let attr = KernelAttr {
        workgroup_size: [size, 1, 1],
        ..KernelAttr::default()
    };
    let lowered = lower_kernel(&attr, &item, &[]).expect("lowers");
    Program::new(lowered.kernel)
}

/// `item` lowered with workgroups of 64.
fn program(item: syn::ItemFn) -> Program {
    program_of(64, item)
}

/// Runs `p` over `groups` workgroups with the uniform block `uniform` and the buffers `bufs`
/// (param, words) on the JIT (`Some`) or the interpreter, with `threads` workers and
/// subgroups of `subgroup`; returns every buffer after. The harness of every JIT test.
pub(super) fn run_words(
    p: &Program,
    jit: Option<&Compiled>,
    uniform: &[AtomicU32],
    groups: u32,
    bufs: &[(u32, &[u32])],
    threads: usize,
    subgroup: u32,
) -> Vec<Vec<u32>> {
    let words: Vec<Vec<AtomicU32>> = bufs
        .iter()
        .map(|(_, w)| w.iter().map(|&v| AtomicU32::new(v)).collect())
        .collect();
    let mut launch = Launch::new(uniform, [groups, 1, 1]);
    for ((param, _), w) in bufs.iter().zip(&words) {
        launch = launch.buffer(*param as usize, w);
    }
    launch.threads = threads;
    launch.subgroup_size = subgroup;
    match jit {
        Some(c) => c.run(p, &launch).expect("runs"),
        None => p.run(&launch).expect("runs"),
    }
    words
        .iter()
        .map(|w| w.iter().map(|v| v.load(Ordering::Relaxed)).collect())
        .collect()
}

/// Runs `p` over `groups` workgroups with the scalar `values` (param, bits) and the buffers
/// `bufs` (param, words, len()), on the JIT or the interpreter; returns every buffer after.
fn run(
    p: &Program,
    jit: Option<&Compiled>,
    groups: u32,
    values: &[(u32, u32)],
    bufs: &[(u32, Vec<u32>, u32)],
) -> Vec<Vec<u32>> {
    let lens: Vec<(u32, u32)> = bufs.iter().map(|(p, _, n)| (*p, *n)).collect();
    let uniform = p.uniform(values, [groups, 1, 1], &lens);
    let words: Vec<(u32, &[u32])> = bufs.iter().map(|(p, w, _)| (*p, &w[..])).collect();
    run_words(p, jit, &uniform, groups, &words, 1, DEFAULT_SUBGROUP_SIZE)
}

fn floats(n: usize, seed: f32) -> Vec<u32> {
    (0..n).map(|i| (seed + i as f32 * 0.25).to_bits()).collect()
}

/// Whether this process runs the lanes loop and its fast path (the toggles are on).
fn fast_path_on() -> bool {
    crate::toggle::enabled("SAREK_JIT_LANES", true)
        && crate::toggle::enabled("SAREK_JIT_WHOLE", true)
}

#[test]
fn whole_workgroups_take_the_fast_path_and_edges_match_the_interpreter() {
    let p = program(syn::parse_quote! {
        fn saxpy(a: f32, x: &[f32], y: &mut [f32]) {
            let i = global_thread_id();
            if i < y.len() {
                y[i] = a * x[i] + y[i];
            }
        }
    });
    let c = Compiled::new(&p).expect("compiles");
    let a = (2.5f32).to_bits();
    // (groups, x's words and len, y's words and len): a partial last workgroup; `x` shorter
    // than `y` (its tail read as zeros); a `len()` shorter than the buffer; more workgroups
    // than elements.
    for (groups, (xw, xn), (yw, yn), whole) in [
        (6, (323, 323), (323, 323), 5),
        (6, (200, 200), (323, 323), 3),
        (6, (384, 384), (384, 300), 4),
        (8, (130, 130), (130, 130), 2),
    ] {
        let bufs = [(1, floats(xw, 1.0), xn), (2, floats(yw, -3.0), yn)];
        let before = c.whole_workgroups();
        let jit = run(&p, Some(&c), groups, &[(0, a)], &bufs);
        assert_eq!(
            jit,
            run(&p, None, groups, &[(0, a)], &bufs),
            "{groups} groups, x {xw}, y {yw}/{yn}"
        );
        if fast_path_on() {
            assert!(c.lanes());
            assert_eq!(c.whole_workgroups() - before, whole, "x {xw}, y {yw}/{yn}");
        }
    }
}

#[test]
fn early_returns_signed_ranges_and_wrapping_indices_match_the_interpreter() {
    // An early return on a bound, a signed window, an index that wraps past `u32::MAX`.
    let p = program(syn::parse_quote! {
        fn window(n: u32, lo: i32, off: u32, x: &[i32], y: &mut [i32], z: &mut [i32]) {
            let i = global_thread_id();
            if i >= n {
                return;
            }
            let j = i as i32 - lo;
            if j >= 0 {
                y[i] = x[i] + j;
            }
            z[i + off] = x[i] * 3;
        }
    });
    let c = Compiled::new(&p).expect("compiles");
    let ints = |n: usize, k: i32| {
        (0..n as i32)
            .map(|v| (v * k - 7) as u32)
            .collect::<Vec<_>>()
    };
    let mut fast = 0;
    for (n, lo, off, groups) in [
        (1000u32, 0i32, 0u32, 16u32),
        (300, 100, 5, 6),
        (1024, -5, 0, 16),
        (1024, i32::MAX, 0, 16),
        (1024, i32::MIN + 11, 0, 16),
        (640, 130, u32::MAX - 100, 10),
        (512, 0, u32::MAX - 1023, 8),
    ] {
        let bufs = [
            (3, ints(1000, 3), 1000),
            (4, ints(1000, -2), 1000),
            (5, ints(700, 5), 700),
        ];
        let values = [(0, n), (1, lo as u32), (2, off)];
        let before = c.whole_workgroups();
        let jit = run(&p, Some(&c), groups, &values, &bufs);
        fast += c.whole_workgroups() - before;
        assert_eq!(
            jit,
            run(&p, None, groups, &values, &bufs),
            "n {n}, lo {lo}, off {off}, {groups} groups"
        );
    }
    if fast_path_on() {
        assert!(c.lanes());
        assert!(fast > 0, "no workgroup took the fast path");
    }
}

/// `min`, `max` and `clamp` on `f32` (called or inlined by the JIT, not through the
/// interpreter's math) give the interpreter's bits for NaNs, signed zeros and infinities.
#[test]
fn float_min_max_clamp_match_the_interpreter_on_nans_and_signed_zeros() {
    let p = program(syn::parse_quote! {
        fn mmc(x: &[f32], y: &[f32], z: &[f32], o: &mut [f32]) {
            let i = global_thread_id();
            if i < x.len() {
                o[3 * i] = x[i].min(y[i]);
                o[3 * i + 1] = x[i].max(y[i]);
                o[3 * i + 2] = x[i].clamp(y[i], z[i]);
            }
        }
    });
    let c = Compiled::new(&p).expect("compiles");
    let special = [
        f32::NAN,
        -f32::NAN,
        0.0,
        -0.0,
        1.0,
        -1.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        3.5,
    ];
    let n = special.len().pow(3);
    let (mut x, mut y, mut z) = (Vec::new(), Vec::new(), Vec::new());
    for a in special {
        for b in special {
            for c in special {
                x.push(a.to_bits());
                y.push(b.to_bits());
                z.push(c.to_bits());
            }
        }
    }
    let n32 = n as u32;
    let bufs = [
        (0, x, n32),
        (1, y, n32),
        (2, z, n32),
        (3, vec![0; 3 * n], 3 * n32),
    ];
    let groups = n32.div_ceil(64);
    let jit = run(&p, Some(&c), groups, &[], &bufs);
    let interp = run(&p, None, groups, &[], &bufs);
    assert_eq!(jit[3], interp[3]);
    // Element 2·81 is x = 0.0, y = NaN: `min` gives 0.0, where a NaN-propagating `fmin`
    // would give NaN.
    assert_eq!(f32::from_bits(jit[3][3 * 2 * 81]), 0.0);
    assert_eq!(f32::from_bits(jit[3][3 * 2 * 81 + 1]), 0.0);
}

/// The `f32 -> f32` math functions the JIT calls typed (`typed_f32_math`: `interp::f32_math`'s
/// functions, called directly instead of through `native::math`), with the methods the host
/// computes them with: each gives the interpreter's bits and Rust's on NaNs (with payloads,
/// signalling), signed zeros, infinities, subnormals and large values, as receiver and as
/// argument. `abs`, `sqrt`, `floor`, `ceil` and `trunc` are inlined before the typed path, and
/// checked the same way (but for one difference, below).
#[test]
fn typed_f32_math_matches_the_interpreter_and_rust_bit_for_bit() {
    type Unary = fn(f32) -> f32;
    type Binary = fn(f32, f32) -> f32;
    let unary: [(&str, Unary); 31] = [
        ("abs", f32::abs),
        ("sqrt", f32::sqrt),
        ("sin", f32::sin),
        ("cos", f32::cos),
        ("tan", f32::tan),
        ("exp", f32::exp),
        ("ln", f32::ln),
        ("floor", f32::floor),
        ("ceil", f32::ceil),
        ("trunc", f32::trunc),
        ("round", f32::round),
        ("log10", f32::log10),
        ("log2", f32::log2),
        ("cbrt", f32::cbrt),
        ("exp_m1", f32::exp_m1),
        ("ln_1p", f32::ln_1p),
        ("recip", f32::recip),
        ("to_degrees", f32::to_degrees),
        ("to_radians", f32::to_radians),
        ("signum", f32::signum),
        ("tanh", f32::tanh),
        ("asinh", f32::asinh),
        ("acosh", f32::acosh),
        ("atanh", f32::atanh),
        ("asin", f32::asin),
        ("acos", f32::acos),
        ("atan", f32::atan),
        ("sinh", f32::sinh),
        ("cosh", f32::cosh),
        ("exp2", f32::exp2),
        ("fract", f32::fract),
    ];
    let binary: [(&str, Binary); 7] = [
        ("min", f32::min),
        ("max", f32::max),
        ("powf", f32::powf),
        ("hypot", f32::hypot),
        ("copysign", f32::copysign),
        ("rem_euclid", f32::rem_euclid),
        ("atan2", f32::atan2),
    ];
    let outs = unary.len() + binary.len();
    let mut body = String::new();
    for (k, (name, _)) in unary.iter().enumerate() {
        body += &format!("o[{outs} * i + {k}] = a.{name}();\n");
    }
    for (k, (name, _)) in binary.iter().enumerate() {
        body += &format!("o[{outs} * i + {}] = a.{name}(b);\n", unary.len() + k);
    }
    let src = format!(
        "fn typed(x: &[f32], y: &[f32], o: &mut [f32]) {{
            let i = global_thread_id();
            if i < x.len() {{
                let a = x[i];
                let b = y[i];
                {body}
            }}
        }}"
    );
    let p = program(syn::parse_str(&src).expect("parses"));
    let c = Compiled::new(&p).expect("compiles");
    let special: Vec<f32> = [
        0x7fc0_0000u32, // NaN
        0xffc0_0000,    // -NaN
        0x7fc1_2345,    // NaN with a payload
        0x7f80_0001,    // signalling NaN
        0x0000_0001,    // smallest subnormal
        0x8040_0000,    // negative subnormal
    ]
    .into_iter()
    .map(f32::from_bits)
    .chain([
        0.0,
        -0.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::MIN_POSITIVE,
        f32::MAX,
        -f32::MAX,
        1e30,
        -1e30,
        1e5,
        88.8,
        -104.0,
        1.0,
        -1.0,
        0.5,
        -0.5,
        2.0,
        2.5,
        -2.5,
        std::f32::consts::PI,
        1e-7,
    ])
    .collect();
    let (mut x, mut y) = (Vec::new(), Vec::new());
    for a in &special {
        for b in &special {
            x.push(a.to_bits());
            y.push(b.to_bits());
        }
    }
    let n = x.len();
    let n32 = n as u32;
    let bufs = [
        (0, x.clone(), n32),
        (1, y.clone(), n32),
        (2, vec![0; outs * n], (outs * n) as u32),
    ];
    let groups = n32.div_ceil(64);
    let jit = run(&p, Some(&c), groups, &[], &bufs);
    let interp = run(&p, None, groups, &[], &bufs);
    let mut bad = Vec::new();
    for i in 0..n {
        let (a, b) = (f32::from_bits(x[i]), f32::from_bits(y[i]));
        let names = unary.iter().map(|u| u.0).chain(binary.iter().map(|b| b.0));
        let rust = unary
            .iter()
            .map(|(_, f)| f(a))
            .chain(binary.iter().map(|(_, f)| f(a, b)));
        for (k, (name, want)) in names.zip(rust).enumerate() {
            let (j, t) = (jit[2][outs * i + k], interp[2][outs * i + k]);
            if (j, t) != (want.to_bits(), want.to_bits()) {
                bad.push(format!(
                    "{name}({:#x}, {:#x}): JIT {j:#x}, interpreter {t:#x}, Rust {:#x}",
                    a.to_bits(),
                    b.to_bits(),
                    want.to_bits()
                ));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} differences:\n{}",
        bad.len(),
        bad.join("\n")
    );
}
