//! Rust's meaning on the GPU: each kernel is compared with the same computation on the host.

use crate::common;
use crate::common::backends;

use sarek::prelude::*;

use common::polyfills::{self, float_methods};

#[sarek::kernel]
fn remainders(x: &[f32], y: &[f32], out: &mut [f32]) {
    let i = global_thread_id();
    if i < out.len() {
        out[i] = x[i] % y[i];
    }
}

#[backends]
fn float_remainder_is_exact_fmod(dev: Device) {
    let cases: [(f32, f32); 10] = [
        (1e10, 3.0),
        (-1e10, 3.0),
        (7.5, 2.0),
        (-7.5, 2.0),
        (5.0, f32::INFINITY),
        (3.4e38, 1.1),
        (1.0, 0.3),
        (16777217.0, 0.1),
        (0.0, 5.0),
        (-0.0, 5.0),
    ];
    let xs: Vec<f32> = cases.iter().map(|c| c.0).collect();
    let ys: Vec<f32> = cases.iter().map(|c| c.1).collect();
    let x = dev.upload(&xs).unwrap();
    let y = dev.upload(&ys).unwrap();
    let mut out = dev.zeros::<f32>(cases.len()).unwrap();
    remainders
        .launch(&dev, Grid::cover(cases.len()), &x, &y, &mut out)
        .unwrap();
    let got = out.read().unwrap();
    for (i, (a, b)) in cases.iter().enumerate() {
        assert_eq!(
            got[i].to_bits(),
            (a % b).to_bits(),
            "{a} % {b}: got {}, Rust says {}",
            got[i],
            a % b
        );
    }
    // NaN cases: infinite dividend, zero divisor.
    let x = dev.upload(&[f32::INFINITY, 1.0]).unwrap();
    let y = dev.upload(&[2.0f32, 0.0]).unwrap();
    let mut out = dev.zeros::<f32>(2).unwrap();
    remainders
        .launch(&dev, Grid::cover(2), &x, &y, &mut out)
        .unwrap();
    assert!(out.read().unwrap().iter().all(|v| v.is_nan()));
}

#[sarek::kernel]
fn conversions(x: &[f32], round: &mut [f32], to_i: &mut [i32], to_u: &mut [u32]) {
    let i = global_thread_id();
    if i < x.len() {
        round[i] = x[i].round();
        to_i[i] = x[i] as i32;
        to_u[i] = x[i] as u32;
    }
}

#[backends]
fn round_and_float_to_int_casts_follow_rust(dev: Device) {
    let xs = [
        0.5f32,
        1.5,
        2.5,
        -0.5,
        -2.5,
        0.49999997,
        3e9,
        -3e9,
        5e9,
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        -1.7,
        2147483520.0,
        4294967040.0,
        -0.0,
    ];
    let x = dev.upload(&xs).unwrap();
    let n = xs.len();
    let (mut r, mut i, mut u) = (
        dev.zeros::<f32>(n).unwrap(),
        dev.zeros::<i32>(n).unwrap(),
        dev.zeros::<u32>(n).unwrap(),
    );
    conversions
        .launch(&dev, Grid::cover(n), &x, &mut r, &mut i, &mut u)
        .unwrap();
    let (r, i, u) = (r.read().unwrap(), i.read().unwrap(), u.read().unwrap());
    for (k, v) in xs.iter().enumerate() {
        if !v.is_nan() {
            assert_eq!(r[k], v.round(), "round({v})");
        }
        assert_eq!(i[k], *v as i32, "{v} as i32");
        assert_eq!(u[k], *v as u32, "{v} as u32");
    }
}

#[sarek::kernel]
fn integer_ops(a: &[i32], b: &[i32], s: &[u32], out: &mut [i32], uout: &mut [u32]) {
    let i = global_thread_id();
    if i < a.len() {
        let k = i * 7;
        out[k] = a[i] + b[i];
        out[k + 1] = a[i] * b[i];
        out[k + 2] = a[i] << s[i];
        out[k + 3] = a[i] >> s[i];
        out[k + 4] = a[i] / b[i];
        out[k + 5] = a[i] % b[i];
        out[k + 6] = -a[i] ^ !b[i];
        uout[i * 2] = (a[i] as u32) >> s[i];
        uout[i * 2 + 1] = (a[i] as u32) - (b[i] as u32);
    }
}

/// Division as documented: WGSL's defined results where Rust would panic.
fn gpu_div(a: i32, b: i32) -> i32 {
    if b == 0 {
        a
    } else {
        a.wrapping_div(b)
    }
}
fn gpu_rem(a: i32, b: i32) -> i32 {
    if b == 0 {
        0
    } else {
        a.wrapping_rem(b)
    }
}

#[backends]
fn integers_wrap_shift_like_wrapping_shl_and_divide_as_documented(dev: Device) {
    // About the unchecked results: off even under SAREK_CHECKS=1.
    dev.set_checks(false);
    let mut a: Vec<i32> = vec![i32::MIN, i32::MAX, -7, 7, 0, -1, 123456, i32::MIN];
    let mut b: Vec<i32> = vec![-1, 2, 2, -2, 5, 0, 0, 1];
    let mut s: Vec<u32> = vec![1, 31, 33, 4, 0, 40, 3, 31];
    for (k, r) in common::random_u32(99, 300).chunks(3).enumerate() {
        a.push(r[0] as i32);
        b.push(if k % 10 == 0 {
            0
        } else {
            r[1] as i32 >> (r[1] % 24)
        });
        s.push(r[2] % 64);
    }
    let n = a.len();
    let (ga, gb, gs) = (
        dev.upload(&a).unwrap(),
        dev.upload(&b).unwrap(),
        dev.upload(&s).unwrap(),
    );
    let mut out = dev.zeros::<i32>(n * 7).unwrap();
    let mut uout = dev.zeros::<u32>(n * 2).unwrap();
    integer_ops
        .launch(&dev, Grid::cover(n), &ga, &gb, &gs, &mut out, &mut uout)
        .unwrap();
    let (out, uout) = (out.read().unwrap(), uout.read().unwrap());
    for i in 0..n {
        let (x, y, sh) = (a[i], b[i], s[i]);
        let expect = [
            x.wrapping_add(y),
            x.wrapping_mul(y),
            x.wrapping_shl(sh),
            x.wrapping_shr(sh),
            gpu_div(x, y),
            gpu_rem(x, y),
            x.wrapping_neg() ^ !y,
        ];
        assert_eq!(
            &out[i * 7..i * 7 + 7],
            &expect,
            "a = {x}, b = {y}, s = {sh}"
        );
        assert_eq!(
            uout[i * 2],
            (x as u32).wrapping_shr(sh),
            "{x} as u32 >> {sh}"
        );
        assert_eq!(uout[i * 2 + 1], (x as u32).wrapping_sub(y as u32));
    }
}

#[sarek::kernel]
fn constants(out: &mut [f32], iout: &mut [i32], uout: &mut [u32]) {
    if global_thread_id() == 0 {
        out[0] = f32::INFINITY;
        out[1] = f32::NEG_INFINITY;
        out[2] = f32::NAN;
        out[3] = f32::MIN_POSITIVE;
        out[4] = f32::MAX;
        out[5] = std::f32::consts::PI;
        out[6] = 0.1;
        out[7] = 1e-45;
        iout[0] = i32::MIN;
        iout[1] = -2147483648;
        iout[2] = i32::MAX;
        uout[0] = u32::MAX;
        uout[1] = 0xdead_beef;
    }
}

#[backends]
fn constants_keep_their_exact_value(dev: Device) {
    let (mut f, mut i, mut u) = (
        dev.zeros::<f32>(8).unwrap(),
        dev.zeros::<i32>(3).unwrap(),
        dev.zeros::<u32>(2).unwrap(),
    );
    constants
        .launch(&dev, Grid::cover(1), &mut f, &mut i, &mut u)
        .unwrap();
    let f = f.read().unwrap();
    let expect = [
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        f32::MIN_POSITIVE,
        f32::MAX,
        std::f32::consts::PI,
        0.1,
        1e-45,
    ];
    for k in 0..8 {
        if expect[k].is_nan() {
            assert!(f[k].is_nan());
        } else if expect[k] != 0.0 && expect[k].is_subnormal() {
            // Devices may flush subnormals to zero.
            assert!(
                f[k] == expect[k] || f[k] == 0.0,
                "{} vs {}",
                f[k],
                expect[k]
            );
        } else {
            assert_eq!(f[k].to_bits(), expect[k].to_bits(), "constant {k}");
        }
    }
    assert_eq!(i.read().unwrap(), vec![i32::MIN, i32::MIN, i32::MAX]);
    assert_eq!(u.read().unwrap(), vec![u32::MAX, 0xdead_beef]);
}

#[sarek::kernel(workgroup_size = [1])]
#[allow(unused_assignments)]
fn loops(start: i32, out: &mut [i32]) {
    // An inclusive range ending at i32::MAX terminates, and its bounds are read once.
    let mut count = 0;
    let mut end = i32::MAX;
    for _k in start..=end {
        end = 0;
        count += 1;
    }
    out[0] = count;
    // `continue` in a `for` still advances the counter; `break` leaves `loop`.
    let mut odd = 0;
    for k in 0..10 {
        if k % 2 == 0 {
            continue;
        }
        odd += k;
    }
    out[1] = odd;
    let mut n = 0;
    loop {
        n += 3;
        if n > 10 {
            break;
        }
    }
    out[2] = n;
    let mut w = 100;
    while w > 1 {
        w /= 3;
    }
    out[3] = w;
    let mut empty = 0;
    for _k in 5..5 {
        empty += 1;
    }
    for _k in 6..=5 {
        empty += 1;
    }
    out[4] = empty;
    let mut s = 0u32;
    for k in 4294967290u32..=u32::MAX {
        s = s.wrapping_add(k);
    }
    out[5] = s as i32;
}

#[backends]
fn for_ranges_evaluate_bounds_once_and_stop_at_the_maximum(dev: Device) {
    let mut out = dev.zeros::<i32>(6).unwrap();
    loops
        .launch(&dev, Grid::groups([1, 1, 1]), i32::MAX - 4, &mut out)
        .unwrap();
    let s = (4294967290u32..=u32::MAX).fold(0u32, |s, k| s.wrapping_add(k));
    assert_eq!(out.read().unwrap(), vec![5, 25, 12, 1, 0, s as i32]);
}

#[sarek::kernel]
fn effects_in_values(flags: &[u32], out: &mut [i32], counters: &mut [i32]) {
    let i = global_thread_id();
    if i < flags.len() {
        let mut hits = 0;
        // Only the taken arm runs: `hits` counts one increment per element.
        let v = if flags[i] == 1 {
            hits += 1;
            10
        } else {
            hits += 100;
            20
        };
        // `&&` and `||` do not run the right side when the left decides.
        let mut side = 0;
        let a = flags[i] == 1 && {
            side += 1;
            true
        };
        let b = flags[i] == 1 || {
            side += 10;
            false
        };
        // Rust reads `x` before the block assigns it.
        let mut x = 1;
        let y = x + {
            x = 5;
            x
        };
        out[i] = v + hits + side * 1000 + (a as i32) * 10000 + (b as i32) * 100000;
        counters[i] = y * 10 + x;
    }
}

#[backends]
fn value_ifs_and_short_circuits_run_only_the_taken_side(dev: Device) {
    let flags = dev.upload(&[1u32, 0, 1]).unwrap();
    let (mut out, mut counters) = (dev.zeros::<i32>(3).unwrap(), dev.zeros::<i32>(3).unwrap());
    effects_in_values
        .launch(&dev, Grid::cover(3), &flags, &mut out, &mut counters)
        .unwrap();
    let taken = 10 + 1 + 1000 + 10000 + 100000;
    let not_taken = 20 + 100 + 10000;
    assert_eq!(out.read().unwrap(), vec![taken, not_taken, taken]);
    assert_eq!(counters.read().unwrap(), vec![65, 65, 65]);
    assert!(
        !effects_in_values::WGSL.contains("select(20i"),
        "an arm with effects must not become select"
    );
}

#[sarek::kernel]
fn math(x: &[f32], out: &mut [f32]) {
    let i = global_thread_id();
    if i < x.len() {
        let v = x[i];
        let k = i * 8;
        out[k] = v.abs().sqrt();
        out[k + 1] = v.floor();
        out[k + 2] = v.ceil();
        out[k + 3] = v.trunc();
        out[k + 4] = v.mul_add(2.0, 1.0);
        out[k + 5] = v.min(1.0).max(-1.0);
        out[k + 6] = f32::max(v, 0.0);
        out[k + 7] = v.abs().powf(0.5) - v.abs().sqrt() + v.sin() * 0.0;
    }
}

#[backends]
// `min(1.0).max(-1.0)` is what the kernel computes; `clamp` would differ for NaN.
#[allow(clippy::manual_clamp)]
fn exact_math_methods_match_rust(dev: Device) {
    let xs = [0.0f32, -0.0, 1.5, -1.5, 2.25, -3.75, 100.0, 1e-3];
    let x = dev.upload(&xs).unwrap();
    let mut out = dev.zeros::<f32>(xs.len() * 8).unwrap();
    math.launch(&dev, Grid::cover(xs.len()), &x, &mut out)
        .unwrap();
    let out = out.read().unwrap();
    for (i, v) in xs.iter().enumerate() {
        let k = i * 8;
        // WGSL lets `sqrt` be 2.5 ULP off; lavapipe rounds it exactly, an H200 within 1 ULP.
        assert!(
            common::ulps(out[k], v.abs().sqrt()) <= 1,
            "sqrt {v}: {}",
            out[k]
        );
        assert_eq!(out[k + 1], v.floor());
        assert_eq!(out[k + 2], v.ceil());
        assert_eq!(out[k + 3], v.trunc());
        assert_eq!(out[k + 4], v.mul_add(2.0, 1.0));
        assert_eq!(out[k + 5], v.min(1.0).max(-1.0));
        assert_eq!(out[k + 6], v.max(0.0));
        assert!(
            out[k + 7].abs() < 1e-5,
            "powf(0.5) vs sqrt for {v}: {}",
            out[k + 7]
        );
    }
}

#[sarek::kernel]
#[allow(unconditional_panic, arithmetic_overflow)]
fn constant_folding_edge_cases(x: &[i32], out: &mut [i32], fout: &mut [f32]) {
    let i = global_thread_id();
    if i < x.len() {
        // WGSL would evaluate these at shader creation, where naga refuses a zero divisor
        // and an infinite result; Sarek keeps them run-time values with defined results.
        let zero = 0;
        let d = zero * 2;
        out[i * 2] = x[i] / d;
        out[i * 2 + 1] = x[i] % d;
        let big = f32::MAX;
        fout[i] = big * 2.0 + 1.0f32 / 0.0;
    }
}

#[backends]
fn constant_divisors_and_overflows_stay_run_time_values(dev: Device) {
    // About the unchecked results: off even under SAREK_CHECKS=1.
    dev.set_checks(false);
    let x = dev.upload(&[7i32, -3]).unwrap();
    let (mut out, mut fout) = (dev.zeros::<i32>(4).unwrap(), dev.zeros::<f32>(2).unwrap());
    constant_folding_edge_cases
        .launch(&dev, Grid::cover(2), &x, &mut out, &mut fout)
        .unwrap();
    assert_eq!(out.read().unwrap(), vec![7, 0, -3, 0]);
    assert_eq!(fout.read().unwrap(), vec![f32::INFINITY; 2]);
}

/// Every adapted range form, hashed in iteration order.
#[sarek::kernel(workgroup_size = [1])]
fn adapted_ranges(a: i32, b: i32, k: usize, ua: u32, ub: u32, out: &mut [u32]) {
    let mut h = [0u32; 10];
    let mut n = [0u32; 10];
    for v in (a..b).rev() {
        h[0] = h[0].wrapping_mul(31).wrapping_add(v as u32);
        n[0] += 1;
    }
    for v in (a..=b).rev() {
        h[1] = h[1].wrapping_mul(31).wrapping_add(v as u32);
        n[1] += 1;
    }
    for v in (a..b).step_by(k) {
        h[2] = h[2].wrapping_mul(31).wrapping_add(v as u32);
        n[2] += 1;
    }
    for v in (a..=b).step_by(k) {
        h[3] = h[3].wrapping_mul(31).wrapping_add(v as u32);
        n[3] += 1;
    }
    for v in (a..b).rev().step_by(k) {
        h[4] = h[4].wrapping_mul(31).wrapping_add(v as u32);
        n[4] += 1;
    }
    for v in (ua..ub).step_by(k).rev() {
        h[5] = h[5].wrapping_mul(31).wrapping_add(v);
        n[5] += 1;
    }
    for v in (ua..=ub).step_by(k) {
        h[6] = h[6].wrapping_mul(31).wrapping_add(v);
        n[6] += 1;
    }
    for v in (ua..ub).rev() {
        if v % 3 == 0 {
            continue;
        }
        h[7] = h[7].wrapping_mul(31).wrapping_add(v);
        n[7] += 1;
    }
    for v in (ua..=ub).rev().step_by(k) {
        h[8] = h[8].wrapping_mul(31).wrapping_add(v);
        n[8] += 1;
    }
    for v in (a..b).step_by(k).rev() {
        h[9] = h[9].wrapping_mul(31).wrapping_add(v as u32);
        n[9] += 1;
    }
    for j in 0..10 {
        out[2 * j] = h[j];
        out[2 * j + 1] = n[j];
    }
}

#[backends]
fn rev_and_step_by_iterate_like_rust(dev: Device) {
    let cases: [(i32, i32, usize, u32, u32); 9] = [
        (0, 10, 3, 0, 10),
        (-5, 5, 1, 5, 5),
        (3, 3, 2, 7, 3),
        (i32::MAX - 7, i32::MAX, 2, u32::MAX - 9, u32::MAX),
        (i32::MIN, i32::MIN + 9, 4, 0, 9),
        (i32::MAX - 1000, i32::MAX, 300, u32::MAX - 1000, u32::MAX),
        (-1000, 1000, 7, 1, 2000),
        (10, 0, 3, 10, 0),
        (0, 20, 40, 0, 20),
    ];
    for (a, b, k, ua, ub) in cases {
        let mut out = dev.zeros::<u32>(20).unwrap();
        adapted_ranges
            .launch(&dev, Grid::groups([1, 1, 1]), a, b, k, ua, ub, &mut out)
            .unwrap();
        // The same kernel body as plain Rust.
        let mut expected = vec![0u32; 20];
        adapted_ranges::body(a, b, k, ua, ub, &mut expected);
        assert_eq!(
            out.read().unwrap(),
            expected,
            "a={a} b={b} k={k} ua={ua} ub={ub}"
        );
    }
    // `step_by(0)` panics in Rust; on the GPU it runs no iteration.
    let mut out = dev.zeros::<u32>(20).unwrap();
    adapted_ranges
        .launch(&dev, Grid::groups([1, 1, 1]), 0, 5, 0, 0, 5, &mut out)
        .unwrap();
    let got = out.read().unwrap();
    for j in [2, 3, 4, 5, 6, 8, 9] {
        assert_eq!(got[2 * j + 1], 0, "form {j} ran with a zero step");
    }
}

#[backends]
fn float_polyfills_match_rust_within_their_documented_ulps(dev: Device) {
    let mut xs = vec![
        0.0f32, -0.0, 1.0, -1.0, 0.5, -0.5, 1e-7, -1e-7, 1e-30, 2.0, 3.0, 10.0, 1000.0, 1e10,
        -1e10, 3.4e38, 0.999, -0.999, 0.1, 7.25, -7.25, 1.0001, 25.0, 100.5, -3.0, 0.25,
    ];
    let mut ys = vec![
        1.0f32, 2.0, -3.0, 0.5, -0.25, 4.0, 1e-3, -1e3, 7.0, -2.0, 0.3, 9.0, 3.0, -1.0, 1e5, 2.0,
        1.5, -1.5, 0.7, 2.5, 2.5, -4.0, 1e-20, 0.1, -7.0, 1e20,
    ];
    // Random values, kept away from the subnormal range: WGSL lets a device flush subnormal
    // values (results and intermediates) to zero, and an H200 does.
    let normal = |v: f32| v.is_finite() && v.abs() < 1e30 && v.abs() > 1e-30;
    for v in common::random_u32(42, 200) {
        let (x, y) = (f32::from_bits(v), f32::from_bits(v.rotate_left(7)));
        if normal(x) && normal(y) {
            xs.push(x);
            ys.push(y);
        }
    }
    // Values in the domain of acosh and atanh too.
    for k in 0..40 {
        xs.push(1.0 + k as f32 * 0.37);
        ys.push(k as f32 - 20.0);
        xs.push(k as f32 / 41.0 - 0.48);
        ys.push(1.0 + k as f32);
    }
    let ys: Vec<f32> = ys
        .iter()
        .map(|&y| if y == 0.0 || !y.is_finite() { 1.0 } else { y })
        .collect();
    let n = xs.len();
    let (xb, yb) = (dev.upload(&xs).unwrap(), dev.upload(&ys).unwrap());
    let mut out = dev.zeros::<f32>(n * 18).unwrap();
    float_methods
        .launch(&dev, Grid::cover(n), &xb, &yb, &mut out)
        .unwrap();
    let got = out.read().unwrap();
    // Rust's value of each method, in the kernel's output order; the bounds are the documented
    // ones (`common::polyfills::ulps`).
    let rust: [fn(f32, f32) -> f32; 18] = [
        |a, _| a.log10(),
        |a, _| a.log2(),
        |a, _| a.cbrt(),
        |a, b| a.hypot(b),
        |a, _| a.exp_m1(),
        |a, _| a.ln_1p(),
        |a, b| a.copysign(b),
        |a, _| a.recip(),
        |a, _| a.to_degrees(),
        |a, _| a.to_radians(),
        |a, _| a.signum(),
        |a, b| a.rem_euclid(b),
        |a, _| a.clamp(-2.5, 3.5),
        |a, b| a.atan2(b),
        |a, _| a.tanh(),
        |a, _| a.asinh(),
        |a, _| a.acosh(),
        |a, _| a.atanh(),
    ];
    let mut failures = Vec::new();
    for i in 0..n {
        for (k, (name, rust)) in polyfills::NAMES.iter().zip(rust).enumerate() {
            let want = rust(xs[i], ys[i]);
            let have = got[i * 18 + k];
            // Results below f32's normal range may be flushed to zero on the GPU.
            let tiny = want.abs() < f32::MIN_POSITIVE && have.abs() < f32::MIN_POSITIVE;
            if common::ulps(have, want) > polyfills::ulps(k, xs[i]) && !tiny {
                failures.push(format!(
                    "{name}({}, {}): GPU {have:e}, Rust {want:e}",
                    xs[i], ys[i]
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The integer methods, compared exactly.
#[sarek::kernel]
fn int_methods(x: &[i32], y: &[i32], out: &mut [i32], uout: &mut [u32]) {
    let i = global_thread_id();
    if i < x.len() {
        let a = x[i];
        let b = y[i];
        let ua = a as u32;
        let ub = b as u32;
        let o = i * 8;
        out[o] = a.min(b);
        out[o + 1] = a.max(b);
        out[o + 2] = a.wrapping_abs();
        out[o + 3] = a.wrapping_pow((b & 7) as u32);
        out[o + 4] = if b != 0 { a.rem_euclid(b) } else { 0 };
        out[o + 5] = a.clamp(-100, 100);
        out[o + 6] = a.wrapping_neg();
        out[o + 7] = if b != 0 {
            a.wrapping_div(b) + a.wrapping_rem(b)
        } else {
            0
        };
        uout[o] = a.count_ones();
        uout[o + 1] = a.leading_zeros();
        uout[o + 2] = a.trailing_zeros();
        uout[o + 3] = ua.count_ones() + ua.leading_zeros() * 100 + ua.trailing_zeros() * 10000;
        uout[o + 4] = ua.wrapping_pow(ub & 15);
        uout[o + 5] = if ub != 0 { ua.rem_euclid(ub) } else { 0 };
        uout[o + 6] = ua.clamp(10, 1000);
        uout[o + 7] = ua.wrapping_shl(ub) ^ ua.wrapping_shr(ub + 3);
    }
}

#[backends]
fn integer_methods_match_rust_exactly(dev: Device) {
    let mut xs: Vec<i32> = vec![0, 1, -1, i32::MIN, i32::MAX, 7, -7, 100, -100, 12345];
    let mut ys: Vec<i32> = vec![1, -1, 3, -1, 2, -3, 5, 0, 7, -2];
    for v in common::random_u32(7, 300).chunks(2) {
        xs.push(v[0] as i32 >> (v[1] % 28));
        ys.push((v[1] as i32) >> (v[0] % 30));
    }
    let n = xs.len();
    let (xb, yb) = (dev.upload(&xs).unwrap(), dev.upload(&ys).unwrap());
    let mut out = dev.zeros::<i32>(n * 8).unwrap();
    let mut uout = dev.zeros::<u32>(n * 8).unwrap();
    int_methods
        .launch(&dev, Grid::cover(n), &xb, &yb, &mut out, &mut uout)
        .unwrap();
    let (got, ugot) = (out.read().unwrap(), uout.read().unwrap());
    for i in 0..n {
        let (a, b) = (xs[i], ys[i]);
        let (ua, ub) = (a as u32, b as u32);
        let expected = [
            a.min(b),
            a.max(b),
            a.wrapping_abs(),
            a.wrapping_pow((b & 7) as u32),
            if b != 0 {
                a.checked_rem_euclid(b).unwrap_or(0)
            } else {
                0
            },
            a.clamp(-100, 100),
            a.wrapping_neg(),
            if b != 0 {
                a.wrapping_div(b).wrapping_add(a.wrapping_rem(b))
            } else {
                0
            },
        ];
        assert_eq!(
            &got[i * 8..i * 8 + 8],
            &expected,
            "i32 methods of ({a}, {b})"
        );
        let uexpected = [
            a.count_ones(),
            a.leading_zeros(),
            a.trailing_zeros(),
            ua.count_ones() + ua.leading_zeros() * 100 + ua.trailing_zeros() * 10000,
            ua.wrapping_pow(ub & 15),
            if ub != 0 { ua.rem_euclid(ub) } else { 0 },
            ua.clamp(10, 1000),
            ua.wrapping_shl(ub) ^ ua.wrapping_shr(ub.wrapping_add(3)),
        ];
        assert_eq!(
            &ugot[i * 8..i * 8 + 8],
            &uexpected,
            "u32 methods of ({ua}, {ub})"
        );
    }
}
