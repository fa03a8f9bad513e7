//! The wider `std` surface of `f32` and the integers (README.md, "Math"): every method on
//! every backend against its plain-Rust body on random and edge inputs (tests/it/differential.rs's
//! harness). Integers are compared exactly; floats within README.md's bounds
//! ([`float_bound`]). Where Rust panics (a zero divisor, `ilog2(0)`, `isqrt` of a negative,
//! `next_power_of_two` past 2^31) the backends are compared with the documented result.

use proptest::collection::vec;
use proptest::prelude::*;
use sarek::prelude::*;

use crate::common;
use crate::differential::{
    agree, config, exact, i32s, near_f32, nth, on_backends, on_host, on_unchecked_backends,
    polyfill_args, same_f32, up, zeros, BODY,
};

/// The `f32` methods: output `14·i + m` is method `m` of [`FLOATS`] at `x[i]` (with `y[i]`,
/// `n[i]`); `uout[3·i..]` holds `to_bits`, `from_bits` and the four tests as bits.
#[sarek::kernel(workgroup_size = [64])]
fn float_std(x: &[f32], y: &[f32], n: &[i32], out: &mut [f32], uout: &mut [u32]) {
    let i = global_thread_id();
    if i < x.len() {
        let a = x[i];
        let b = y[i];
        let o = i * 14;
        out[o] = a.asin();
        out[o + 1] = a.acos();
        out[o + 2] = a.atan();
        out[o + 3] = a.sinh();
        out[o + 4] = a.cosh();
        out[o + 5] = a.exp2();
        out[o + 6] = a.powi(n[i]);
        out[o + 7] = a.fract();
        out[o + 8] = a.max(b);
        out[o + 9] = f32::min(a, b);
        let (s, c) = a.sin_cos();
        out[o + 10] = s;
        out[o + 11] = c;
        out[o + 12] = a.sin();
        out[o + 13] = a.cos();
        let u = i * 3;
        uout[u] = a.to_bits();
        uout[u + 1] = f32::from_bits(n[i] as u32).to_bits();
        uout[u + 2] = a.is_nan() as u32
            | (a.is_infinite() as u32) << 1
            | (a.is_finite() as u32) << 2
            | (a.is_sign_negative() as u32) << 3;
    }
}

/// The methods of [`float_std`], in output order.
const FLOATS: [&str; 14] = [
    "asin",
    "acos",
    "atan",
    "sinh",
    "cosh",
    "exp2",
    "powi(n)",
    "fract",
    "max(y)",
    "f32::min(x, y)",
    "sin_cos().0",
    "sin_cos().1",
    "sin",
    "cos",
];

/// README.md's bound in ULP for output `m` of [`float_std`] at `a` (`n` the `powi`
/// exponent); `None` for the outputs compared otherwise (`sin_cos` with the device's own
/// `sin`/`cos`).
fn float_bound(m: usize, a: f32, n: i32) -> Option<u32> {
    let exp_allowance = |base: f32, per: f32| (base + per * a.abs().ceil()).min(1e9) as u32;
    Some(match m {
        // From Sarek's `atan2` (4 ULP), with a root of `(1 - |x|)(1 + |x|)`.
        0..=2 => 5,
        // `sinh`, `cosh`: from `exp_m1` near 0, the device's `exp` beyond.
        3 | 4 => {
            if a.abs() < 0.5 {
                4
            } else {
                exp_allowance(6.0, 4.0)
            }
        }
        // The device's `exp2`: WGSL's `3 + 2·|x|`.
        5 => exp_allowance(3.0, 2.0),
        // Rust's own products; a negative exponent adds the device's division.
        6 => {
            if n >= 0 {
                0
            } else {
                3
            }
        }
        7..=9 => 0,
        _ => return None,
    })
}

/// Whether `got` is within output `m`'s bound of `want`.
fn float_agrees(m: usize, a: f32, n: i32, got: f32, want: f32) -> bool {
    match (m, float_bound(m, a, n)) {
        // `max`/`min` of `0.0` and `-0.0` may give either, in Rust as on a GPU.
        (8 | 9, _) => same_f32(got, want) || (got == 0.0 && want == 0.0),
        (_, Some(0)) => same_f32(got, want),
        (_, Some(bound)) => near_f32(got, want, bound),
        (_, None) => true,
    }
}

fn exponents() -> impl Strategy<Value = i32> {
    prop_oneof![
        4 => -12i32..40,
        1 => any::<i32>(),
        1 => prop::sample::select(vec![0, 1, -1, 2, -2, i32::MIN, i32::MAX, 0x7fc0_0000, 0x7f80_0000, -8_388_608]),
    ]
}

/// Runs [`float_std`] on every backend and its body on the host.
#[allow(clippy::type_complexity)]
fn run_floats(
    x: &[f32],
    y: &[f32],
    n: &[i32],
) -> (
    Vec<(&'static str, (Vec<f32>, Vec<u32>))>,
    Vec<f32>,
    Vec<u32>,
) {
    let len = x.len();
    let outputs = on_backends(|dev| {
        let (mut out, mut uout) = (zeros::<f32>(dev, len * 14), zeros::<u32>(dev, len * 3));
        float_std
            .launch(
                dev,
                Grid::cover(len),
                &up(dev, x),
                &up(dev, y),
                &up(dev, n),
                &mut out,
                &mut uout,
            )
            .unwrap();
        (out.read().unwrap(), uout.read().unwrap())
    });
    let (mut out, mut uout) = (vec![0f32; len * 14], vec![0u32; len * 3]);
    on_host(len, 64, || float_std::body(x, y, n, &mut out, &mut uout));
    (outputs, out, uout)
}

/// The integer methods on `i32` (`out`, 13 per element) and on `u32` and `usize` (`uout`, 26
/// per element), each where Rust does not panic.
#[sarek::kernel(workgroup_size = [64])]
fn int_std(x: &[i32], y: &[i32], out: &mut [i32], uout: &mut [u32]) {
    let i = global_thread_id();
    if i < x.len() {
        let (a, b) = (x[i], y[i]);
        let (ua, ub) = (a as u32, b as u32);
        let o = i * 13;
        out[o] = if b != 0 && (a != i32::MIN || b != -1) {
            a.div_euclid(b)
        } else {
            0
        };
        out[o + 1] = a.saturating_add(b);
        out[o + 2] = a.saturating_sub(b);
        out[o + 3] = i32::saturating_mul(a, b);
        let (sum, add_over) = a.overflowing_add(b);
        let (difference, sub_over) = a.overflowing_sub(b);
        let product = a.overflowing_mul(b);
        out[o + 4] = sum;
        out[o + 5] = difference;
        out[o + 6] = product.0;
        out[o + 7] = a.rotate_left(ub);
        out[o + 8] = a.rotate_right(ub);
        out[o + 9] = a.reverse_bits();
        out[o + 10] = a.swap_bytes();
        out[o + 11] = a.signum();
        out[o + 12] = if a >= 0 { a.isqrt() } else { 0 };
        let u = i * 26;
        uout[u] = a.abs_diff(b);
        uout[u + 1] = a.count_zeros();
        uout[u + 2] = a.leading_ones();
        uout[u + 3] = a.trailing_ones();
        uout[u + 4] = if a > 0 { a.ilog2() } else { 0 };
        uout[u + 5] = a.unsigned_abs();
        uout[u + 6] = add_over as u32 | (sub_over as u32) << 1 | (product.1 as u32) << 2;
        uout[u + 7] = if ub != 0 { ua.div_ceil(ub) } else { 0 };
        uout[u + 8] = if ub != 0 { ua.div_euclid(ub) } else { 0 };
        uout[u + 9] = ua.abs_diff(ub);
        uout[u + 10] = ua.saturating_add(ub);
        uout[u + 11] = ua.saturating_sub(ub);
        uout[u + 12] = ua.saturating_mul(ub);
        let (usum, uadd) = ua.overflowing_add(ub);
        let (udiff, usub) = ua.overflowing_sub(ub);
        let (uprod, umul) = u32::overflowing_mul(ua, ub);
        uout[u + 13] = usum;
        uout[u + 14] = udiff;
        uout[u + 15] = uprod;
        uout[u + 16] = uadd as u32
            | (usub as u32) << 1
            | (umul as u32) << 2
            | (ua.is_power_of_two() as u32) << 3;
        uout[u + 17] = ua.rotate_left(b as u32);
        uout[u + 18] = ua.rotate_right(ub);
        uout[u + 19] = ua.reverse_bits();
        uout[u + 20] = ua.swap_bytes();
        uout[u + 21] = ua.count_zeros() ^ ua.leading_ones() << 8 ^ ua.trailing_ones() << 16;
        uout[u + 22] = if ua <= 1 << 31 {
            ua.next_power_of_two()
        } else {
            0
        };
        uout[u + 23] = if ua > 0 { ua.ilog2() } else { 0 };
        uout[u + 24] = ua.isqrt();
        let k = (ua >> 8) as usize;
        uout[u + 25] = (k.div_ceil(7) + k.abs_diff(1000) + k.isqrt()) as u32;
    }
}

const INTS: [&str; 13] = [
    "div_euclid",
    "saturating_add",
    "saturating_sub",
    "i32::saturating_mul",
    "overflowing_add",
    "overflowing_sub",
    "overflowing_mul",
    "rotate_left(y as u32)",
    "rotate_right(y as u32)",
    "reverse_bits",
    "swap_bytes",
    "signum",
    "isqrt",
];

const UINTS: [&str; 26] = [
    "i32 abs_diff",
    "i32 count_zeros",
    "i32 leading_ones",
    "i32 trailing_ones",
    "i32 ilog2",
    "i32 unsigned_abs",
    "i32 overflowing_add/sub/mul flags",
    "div_ceil",
    "div_euclid",
    "abs_diff",
    "saturating_add",
    "saturating_sub",
    "saturating_mul",
    "overflowing_add",
    "overflowing_sub",
    "overflowing_mul",
    "overflowing flags, is_power_of_two",
    "rotate_left",
    "rotate_right",
    "reverse_bits",
    "swap_bytes",
    "count_zeros, leading_ones, trailing_ones",
    "next_power_of_two",
    "ilog2",
    "isqrt",
    "usize div_ceil + abs_diff + isqrt",
];

/// Where Rust panics, the documented results (README.md): a zero divisor gives the dividend,
/// `ilog2` of zero or a negative `u32::MAX`, `isqrt` of a negative -1, `next_power_of_two`
/// past 2^31 zero, `i32::MIN.div_euclid(-1)` wraps.
#[sarek::kernel(workgroup_size = [64])]
fn int_std_edges(x: &[i32], y: &[i32], out: &mut [i32], uout: &mut [u32]) {
    let i = global_thread_id();
    if i < x.len() {
        let (a, b) = (x[i], y[i]);
        out[i * 2] = a.div_euclid(b);
        out[i * 2 + 1] = a.isqrt();
        uout[i * 4] = (a as u32).div_ceil(b as u32);
        uout[i * 4 + 1] = a.ilog2();
        uout[i * 4 + 2] = (a as u32).ilog2();
        uout[i * 4 + 3] = (a as u32).next_power_of_two();
    }
}

#[test]
fn where_rust_panics_the_results_are_documented() {
    let x = [7, -7, i32::MIN, 0, -4, i32::MAX, -1];
    let y = [0, 0, -1, 0, 3, 0, 1];
    let outputs = on_unchecked_backends(|dev| {
        let (mut out, mut uout) = (zeros::<i32>(dev, 14), zeros::<u32>(dev, 28));
        int_std_edges
            .launch(
                dev,
                Grid::cover(7),
                &up(dev, &x),
                &up(dev, &y),
                &mut out,
                &mut uout,
            )
            .unwrap();
        (out.read().unwrap(), uout.read().unwrap())
    });
    let signed = [
        7,
        2,
        -7,
        -1,
        i32::MIN,
        -1,
        0,
        0,
        -2,
        -1,
        i32::MAX,
        46340,
        -1,
        -1,
    ];
    let max = u32::MAX;
    #[rustfmt::skip]
    let unsigned = [
        7, 2, 2, 8,
        (-7i32) as u32, max, 31, 0,
        1, max, 31, 1u32 << 31,
        0, max, max, 1,
        (-4i32 as u32).div_ceil(3), max, 31, 0,
        i32::MAX as u32, 30, 30, 1u32 << 31,
        (-1i32) as u32, max, 31, 0,
    ];
    for (backend, (out, uout)) in outputs {
        assert_eq!(out, signed, "{backend}");
        assert_eq!(uout, unsigned, "{backend}");
    }
}

proptest! {
    #![proptest_config(config(48))]

    #[test]
    // The loop indexes several arrays in step, which reads plainer than zipped iterators.
    #[allow(clippy::needless_range_loop)]
    fn float_methods_within_documented_ulps(
        xyn in vec((polyfill_args(), polyfill_args(), exponents()), 1..200),
    ) {
        let x: Vec<f32> = xyn.iter().map(|t| t.0).collect();
        let y: Vec<f32> = xyn.iter().map(|t| t.1).collect();
        let n: Vec<i32> = xyn.iter().map(|t| t.2).collect();
        let (outputs, expected, uexpected) = run_floats(&x, &y, &n);
        let floats: Vec<_> = outputs.iter().map(|(b, (o, _))| (*b, o.clone())).collect();
        agree(
            "float_std",
            &floats,
            Some((BODY, &expected)),
            |k, g, e| float_agrees(k % 14, x[k / 14], n[k / 14], *g, *e),
            |k| {
                let (e, name) = nth(&FLOATS, k);
                let bound = float_bound(k % 14, x[e], n[e]);
                format!("{name} of x = {:?}, y = {:?}, n = {} (bound {bound:?} ULP)", x[e], y[e], n[e])
            },
        )?;
        for (backend, (out, _)) in &outputs {
            for e in 0..x.len() {
                let o = e * 14;
                prop_assert!(
                    same_f32(out[o + 10], out[o + 12]) && same_f32(out[o + 11], out[o + 13]),
                    "{backend}: sin_cos({:?}) is not (sin, cos)", x[e]
                );
            }
        }
        let bits: Vec<_> = outputs.into_iter().map(|(b, (_, u))| (b, u)).collect();
        agree("float_std", &bits, Some((BODY, &uexpected)), exact, |k| {
            let e = k / 3;
            let name = ["to_bits", "from_bits(n).to_bits()", "is_nan | is_infinite << 1 | is_finite << 2 | is_sign_negative << 3"][k % 3];
            format!("{name} of x = {:?} (bits {:#x}), n = {:#x}", x[e], x[e].to_bits(), n[e])
        })?;
    }

    #[test]
    fn integer_methods_are_exact(
        xy in vec((i32s(), prop_oneof![3 => i32s(), 1 => -40i32..40, 1 => 0i32..3]), 1..200),
    ) {
        let (x, y): (Vec<i32>, Vec<i32>) = xy.into_iter().unzip();
        let n = x.len();
        let outputs = on_backends(|dev| {
            let (mut out, mut uout) = (zeros::<i32>(dev, n * 13), zeros::<u32>(dev, n * 26));
            int_std.launch(dev, Grid::cover(n), &up(dev, &x), &up(dev, &y), &mut out, &mut uout).unwrap();
            (out.read().unwrap(), uout.read().unwrap())
        });
        let (mut out, mut uout) = (vec![0i32; n * 13], vec![0u32; n * 26]);
        on_host(n, 64, || int_std::body(&x, &y, &mut out, &mut uout));
        let (signed, unsigned): (Vec<_>, Vec<_>) = outputs
            .into_iter()
            .map(|(backend, (o, uo))| ((backend, o), (backend, uo)))
            .unzip();
        agree("int_std", &signed, Some((BODY, &out)), exact, |k| {
            let (e, name) = nth(&INTS, k);
            format!("{name} of x = {}, y = {}", x[e], y[e])
        })?;
        agree("int_std", &unsigned, Some((BODY, &uout)), exact, |k| {
            let (e, name) = nth(&UINTS, k);
            format!("{name} of x = {}, y = {} (as u32: {}, {})", x[e], y[e], x[e] as u32, y[e] as u32)
        })?;
    }
}

/// Prints the largest error in ULP of each float method on the first backend over many
/// arguments: how README.md's bounds were measured (`cargo test --test it
/// measure_std_float_ulps -- --ignored --nocapture`).
#[test]
#[ignore]
fn measure_std_float_ulps() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strategy = vec((polyfill_args(), polyfill_args(), exponents()), 20_000);
    let xyn = strategy.new_tree(&mut runner).unwrap().current();
    let mut extra: Vec<(f32, f32, i32)> = (0..20_000)
        .map(|k| (-1.0 + k as f32 / 10_000.0, 0.0, (k % 41) - 20))
        .collect();
    extra.extend((0..4_000).map(|k| ((k as f32 - 2_000.0) / 20.0, 0.0, -(k % 9))));
    let all: Vec<(f32, f32, i32)> = xyn.into_iter().chain(extra).collect();
    let x: Vec<f32> = all.iter().map(|t| t.0).collect();
    let y: Vec<f32> = all.iter().map(|t| t.1).collect();
    let n: Vec<i32> = all.iter().map(|t| t.2).collect();
    let (outputs, expected, _) = run_floats(&x, &y, &n);
    let (backend, (out, _)) = &outputs[0];
    println!("{backend}");
    for (m, name) in FLOATS.iter().enumerate().take(10) {
        let mut worst = (0u32, 0.0f32, 0i32);
        for e in 0..x.len() {
            let (g, w) = (out[e * 14 + m], expected[e * 14 + m]);
            let tiny = g.abs() < f32::MIN_POSITIVE && w.abs() < f32::MIN_POSITIVE;
            let u = if tiny { 0 } else { common::ulps(g, w) };
            if u > worst.0 {
                worst = (u, x[e], n[e]);
            }
        }
        println!(
            "{name}: {} ULP at x = {:?}, n = {}",
            worst.0, worst.1, worst.2
        );
    }
}
