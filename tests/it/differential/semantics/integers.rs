//! Integers: wrapping arithmetic, truncating division and what division by zero gives,
//! shifts that mask their amount, the integer methods, out-of-bounds reads.

use super::*;

const INT_ARITH: [&str; 10] = [
    "wrapping_add",
    "wrapping_sub",
    "wrapping_mul",
    "wrapping_neg",
    "wrapping_div",
    "wrapping_rem",
    "/",
    "%",
    "(x >> 1) + (y >> 1)",
    "(x >> 16) * (y >> 16) - (x & 255)",
];

/// Integer `/` and `%` truncate, `i32::MIN / -1` wraps, overflow wraps.
#[sarek::kernel(workgroup_size = [64])]
fn int_arith(a: &[i32], b: &[i32], out: &mut [i32]) {
    let i = global_thread_id();
    if i < a.len() {
        let (x, y) = (a[i], b[i]);
        let o = i * 10;
        out[o] = x.wrapping_add(y);
        out[o + 1] = x.wrapping_sub(y);
        out[o + 2] = x.wrapping_mul(y);
        out[o + 3] = x.wrapping_neg();
        out[o + 4] = if y != 0 { x.wrapping_div(y) } else { 0 };
        out[o + 5] = if y != 0 { x.wrapping_rem(y) } else { 0 };
        // The operators, where Rust defines them.
        let defined = y != 0 && (x != i32::MIN || y != -1);
        out[o + 6] = if defined { x / y } else { 0 };
        out[o + 7] = if defined { x % y } else { 0 };
        out[o + 8] = (x >> 1) + (y >> 1);
        out[o + 9] = (x >> 16) * (y >> 16) - (x & 255);
    }
}

const UINT_ARITH: [&str; 8] = [
    "wrapping_add",
    "wrapping_sub",
    "wrapping_mul",
    "wrapping_neg",
    "wrapping_div",
    "/",
    "%",
    "(x >> 1) + (y >> 1)",
];

#[sarek::kernel(workgroup_size = [64])]
fn uint_arith(a: &[u32], b: &[u32], out: &mut [u32]) {
    let i = global_thread_id();
    if i < a.len() {
        let (x, y) = (a[i], b[i]);
        let o = i * 8;
        out[o] = x.wrapping_add(y);
        out[o + 1] = x.wrapping_sub(y);
        out[o + 2] = x.wrapping_mul(y);
        out[o + 3] = x.wrapping_neg();
        out[o + 4] = if y != 0 { x.wrapping_div(y) } else { 0 };
        out[o + 5] = if y != 0 { x / y } else { 0 };
        out[o + 6] = if y != 0 { x % y } else { 0 };
        out[o + 7] = (x >> 1) + (y >> 1);
    }
}

const DIVISIONS: [&str; 3] = ["/", "%", "rem_euclid"];

/// Division by anything, zero included, where Rust panics: no body; the documented results
/// `x / 0 == x`, `x % 0 == 0` (`rem_euclid` too), `i32::MIN / -1 == i32::MIN`,
/// `i32::MIN % -1 == 0`.
#[sarek::kernel(workgroup_size = [64])]
fn divisions(a: &[i32], b: &[i32], ua: &[u32], ub: &[u32], out: &mut [i32], uout: &mut [u32]) {
    let i = global_thread_id();
    if i < a.len() {
        out[i * 3] = a[i] / b[i];
        out[i * 3 + 1] = a[i] % b[i];
        out[i * 3 + 2] = a[i].rem_euclid(b[i]);
        uout[i * 3] = ua[i] / ub[i];
        uout[i * 3 + 1] = ua[i] % ub[i];
        uout[i * 3 + 2] = ua[i].rem_euclid(ub[i]);
    }
}

const SHIFTS: [&str; 4] = ["x << s", "x >> s", "x << t", "x >> t"];

/// Shifts mask their amount (`u32` or `i32`), `>>` arithmetic on `i32`, logical on `u32`:
/// the methods, with a body.
#[sarek::kernel(workgroup_size = [64])]
fn shift_methods(a: &[i32], u: &[u32], s: &[u32], t: &[i32], out: &mut [i32], uout: &mut [u32]) {
    let i = global_thread_id();
    if i < a.len() {
        out[i * 4] = a[i].wrapping_shl(s[i]);
        out[i * 4 + 1] = a[i].wrapping_shr(s[i]);
        out[i * 4 + 2] = a[i].wrapping_shl(t[i] as u32);
        out[i * 4 + 3] = a[i].wrapping_shr(t[i] as u32);
        uout[i * 4] = u[i].wrapping_shl(s[i]);
        uout[i * 4 + 1] = u[i].wrapping_shr(s[i]);
        uout[i * 4 + 2] = u[i].wrapping_shl(t[i] as u32);
        uout[i * 4 + 3] = u[i].wrapping_shr(t[i] as u32);
    }
}

/// The operators, with any amount: Rust panics (debug) for 32 and more, so no body.
#[sarek::kernel(workgroup_size = [64])]
fn shift_operators(a: &[i32], u: &[u32], s: &[u32], t: &[i32], out: &mut [i32], uout: &mut [u32]) {
    let i = global_thread_id();
    if i < a.len() {
        out[i * 4] = a[i] << s[i];
        out[i * 4 + 1] = a[i] >> s[i];
        out[i * 4 + 2] = a[i] << t[i];
        out[i * 4 + 3] = a[i] >> t[i];
        uout[i * 4] = u[i] << s[i];
        uout[i * 4 + 1] = u[i] >> s[i];
        uout[i * 4 + 2] = u[i] << t[i];
        uout[i * 4 + 3] = u[i] >> t[i];
    }
}

/// The integer methods, exactly (as in tests/it/language/semantics.rs, with the body's panics avoided).
#[sarek::kernel(workgroup_size = [64])]
fn int_methods(x: &[i32], y: &[i32], out: &mut [i32], uout: &mut [u32]) {
    let i = global_thread_id();
    if i < x.len() {
        let a = x[i];
        let b = y[i];
        let ua = a as u32;
        let ub = b as u32;
        let o = i * 10;
        out[o] = a.min(b);
        out[o + 1] = a.max(b);
        out[o + 2] = a.wrapping_abs();
        out[o + 3] = if a != i32::MIN { a.abs() } else { 0 };
        out[o + 4] = a.wrapping_pow((b & 7) as u32);
        out[o + 5] = a.wrapping_pow(ub);
        out[o + 6] = if b != 0 && (a != i32::MIN || b != -1) {
            a.rem_euclid(b)
        } else {
            0
        };
        out[o + 7] = a.clamp(-100, 100);
        out[o + 8] = a.wrapping_neg();
        out[o + 9] = if b != 0 {
            a.wrapping_div(b).wrapping_add(a.wrapping_rem(b))
        } else {
            0
        };
        uout[o] = a.count_ones();
        uout[o + 1] = a.leading_zeros();
        uout[o + 2] = a.trailing_zeros();
        uout[o + 3] = ua.count_ones() + ua.leading_zeros() * 100 + ua.trailing_zeros() * 10000;
        uout[o + 4] = ua.wrapping_pow(ub & 15);
        uout[o + 5] = ua.wrapping_pow(ub);
        uout[o + 6] = if ub != 0 { ua.rem_euclid(ub) } else { 0 };
        uout[o + 7] = ua.clamp(10, 1000);
        uout[o + 8] = ua.min(ub) ^ ua.max(ub).wrapping_mul(3);
        uout[o + 9] = ua.wrapping_shl(ub) ^ ua.wrapping_shr(ub.wrapping_add(3));
    }
}

const INT_METHODS: [&str; 10] = [
    "min",
    "max",
    "wrapping_abs",
    "abs",
    "wrapping_pow(y & 7)",
    "wrapping_pow(y as u32)",
    "rem_euclid",
    "clamp(-100, 100)",
    "wrapping_neg",
    "wrapping_div + wrapping_rem",
];

const UINT_METHODS: [&str; 10] = [
    "i32 count_ones",
    "i32 leading_zeros",
    "i32 trailing_zeros",
    "u32 count_ones, leading_zeros, trailing_zeros",
    "wrapping_pow(y & 15)",
    "wrapping_pow(y)",
    "rem_euclid",
    "clamp(10, 1000)",
    "min ^ max * 3",
    "wrapping_shl ^ wrapping_shr",
];

/// A gather: an index past the end of `src` is out of bounds.
#[sarek::kernel(workgroup_size = [64])]
fn gather(idx: &[u32], src: &[i32], out: &mut [i32]) {
    let i = global_thread_id();
    if i < out.len() {
        out[i] = src[idx[i] as usize];
    }
}

/// A mix of the integer rules in one kernel.
#[sarek::kernel(workgroup_size = [64])]
fn int_rules(a: &[i32], b: &[i32], out: &mut [i32]) {
    let i = global_thread_id();
    if i < a.len() {
        let (x, y) = (a[i], b[i]);
        let o = i * 8;
        out[o] = x.wrapping_add(y).wrapping_mul(3);
        out[o + 1] = x.wrapping_sub(y) >> (y & 31);
        out[o + 2] = x << (y & 31);
        out[o + 3] = if y != 0 { x.wrapping_div(y) } else { 0 };
        out[o + 4] = if y != 0 { x.wrapping_rem(y) } else { 0 };
        out[o + 5] = ((x as u32) >> (y as u32 & 31)) as i32;
        out[o + 6] = (x as f32 * 0.5) as i32;
        out[o + 7] = x.wrapping_abs().min(y).max(-7) ^ y.count_ones() as i32;
    }
}

proptest! {
    #![proptest_config(config(48))]

    #[test]
    fn integer_arithmetic_truncates_and_wraps(
        ab in vec((i32s(), i32s()), 1..200),
        uab in vec((u32s(), u32s()), 1..200),
    ) {
        let (a, b): (Vec<i32>, Vec<i32>) = ab.into_iter().unzip();
        let n = a.len();
        let outputs = on_backends(|dev| {
            let mut out = zeros::<i32>(dev, n * 10);
            int_arith.launch(dev, Grid::cover(n), &up(dev, &a), &up(dev, &b), &mut out).unwrap();
            out.read().unwrap()
        });
        let mut expected = vec![0i32; n * 10];
        on_host(n, 64, || int_arith::body(&a, &b, &mut expected));
        agree("int_arith", &outputs, Some((BODY, &expected)), exact, |k| {
            let (e, name) = nth(&INT_ARITH, k);
            format!("{name} of x = {}, y = {}", a[e], b[e])
        })?;

        let (a, b): (Vec<u32>, Vec<u32>) = uab.into_iter().unzip();
        let n = a.len();
        let outputs = on_backends(|dev| {
            let mut out = zeros::<u32>(dev, n * 8);
            uint_arith.launch(dev, Grid::cover(n), &up(dev, &a), &up(dev, &b), &mut out).unwrap();
            out.read().unwrap()
        });
        let mut expected = vec![0u32; n * 8];
        on_host(n, 64, || uint_arith::body(&a, &b, &mut expected));
        agree("uint_arith", &outputs, Some((BODY, &expected)), exact, |k| {
            let (e, name) = nth(&UINT_ARITH, k);
            format!("{name} of x = {}, y = {}", a[e], b[e])
        })?;
    }

    /// Division by zero and `i32::MIN / -1`, where Rust panics: the backends agree exactly
    /// with each other and with the documented results.
    #[test]
    fn division_by_zero_is_defined(
        ab in vec((i32s(), prop_oneof![3 => Just(0i32), 1 => Just(-1i32), 2 => i32s()]), 1..200),
        uab in vec((u32s(), prop_oneof![1 => Just(0u32), 1 => u32s()]), 1..200),
    ) {
        // Same lengths for both halves: one launch.
        let n = ab.len().min(uab.len());
        let (a, b): (Vec<i32>, Vec<i32>) = ab[..n].iter().copied().unzip();
        let (ua, ub): (Vec<u32>, Vec<u32>) = uab[..n].iter().copied().unzip();
        let outputs = on_unchecked_backends(|dev| {
            let (mut out, mut uout) = (zeros::<i32>(dev, n * 3), zeros::<u32>(dev, n * 3));
            divisions
                .launch(
                    dev,
                    Grid::cover(n),
                    &up(dev, &a),
                    &up(dev, &b),
                    &up(dev, &ua),
                    &up(dev, &ub),
                    &mut out,
                    &mut uout,
                )
                .unwrap();
            (out.read().unwrap(), uout.read().unwrap())
        });
        let documented: Vec<i32> = a
            .iter()
            .zip(&b)
            .flat_map(|(&x, &y)| match y {
                0 => [x, 0, 0],
                _ => [x.wrapping_div(y), x.wrapping_rem(y), x.wrapping_rem_euclid(y)],
            })
            .collect();
        let udocumented: Vec<u32> = ua
            .iter()
            .zip(&ub)
            .flat_map(|(&x, &y)| match y {
                0 => [x, 0, 0],
                _ => [x / y, x % y, x.rem_euclid(y)],
            })
            .collect();
        let (signed, unsigned): (Vec<_>, Vec<_>) = outputs
            .into_iter()
            .map(|(name, (o, u))| ((name, o), (name, u)))
            .unzip();
        agree("divisions", &signed, Some(("the documented result", &documented)), exact, |k| {
            let (e, name) = nth(&DIVISIONS, k);
            format!("i32 {name} of x = {}, y = {}", a[e], b[e])
        })?;
        agree("divisions", &unsigned, Some(("the documented result", &udocumented)), exact, |k| {
            let (e, name) = nth(&DIVISIONS, k);
            format!("u32 {name} of x = {}, y = {}", ua[e], ub[e])
        })?;
    }

    /// Shift amounts from any integer, masked like `wrapping_shl`/`wrapping_shr`: the methods
    /// against their body, the operators (a panic in Rust from 32 on) against the methods.
    #[test]
    fn shifts_mask_their_amount(input in vec((i32s(), u32s(), u32s(), i32s()), 1..200)) {
        let len = input.len();
        let a: Vec<i32> = input.iter().map(|v| v.0).collect();
        let u: Vec<u32> = input.iter().map(|v| v.1).collect();
        let s: Vec<u32> = input.iter().map(|v| v.2).collect();
        let t: Vec<i32> = input.iter().map(|v| v.3).collect();
        let (mut out, mut uout) = (vec![0i32; len * 4], vec![0u32; len * 4]);
        on_host(len, 64, || shift_methods::body(&a, &u, &s, &t, &mut out, &mut uout));
        let show = |k: usize| {
            let (e, name) = nth(&SHIFTS, k);
            format!("{name} with x = {}, u = {}, s = {}, t = {}", a[e], u[e], s[e], t[e])
        };
        let methods = on_backends(|dev| {
            let (mut o, mut uo) = (zeros::<i32>(dev, len * 4), zeros::<u32>(dev, len * 4));
            shift_methods
                .launch(dev, Grid::cover(len), &up(dev, &a), &up(dev, &u), &up(dev, &s), &up(dev, &t), &mut o, &mut uo)
                .unwrap();
            (o.read().unwrap(), uo.read().unwrap())
        });
        let operators = on_backends(|dev| {
            let (mut o, mut uo) = (zeros::<i32>(dev, len * 4), zeros::<u32>(dev, len * 4));
            shift_operators
                .launch(dev, Grid::cover(len), &up(dev, &a), &up(dev, &u), &up(dev, &s), &up(dev, &t), &mut o, &mut uo)
                .unwrap();
            (o.read().unwrap(), uo.read().unwrap())
        });
        for (kernel, outputs, reference) in [
            ("shift_methods", methods, BODY),
            ("shift_operators", operators, "wrapping_shl/wrapping_shr in Rust"),
        ] {
            let (signed, unsigned): (Vec<_>, Vec<_>) = outputs
                .into_iter()
                .map(|(backend, (o, uo))| ((backend, o), (backend, uo)))
                .unzip();
            agree(kernel, &signed, Some((reference, &out)), exact, |k| format!("i32 {}", show(k)))?;
            agree(kernel, &unsigned, Some((reference, &uout)), exact, |k| {
                let (e, name) = nth(&SHIFTS, k);
                format!("u32 {} with x = {}, s = {}, t = {}", name, u[e], s[e], t[e])
            })?;
        }
    }

    #[test]
    fn integer_methods_match_exactly(xy in vec((i32s(), prop_oneof![3 => i32s(), 1 => -40i32..40]), 1..200)) {
        let (x, y): (Vec<i32>, Vec<i32>) = xy.into_iter().unzip();
        let n = x.len();
        let outputs = on_backends(|dev| {
            let (mut out, mut uout) = (zeros::<i32>(dev, n * 10), zeros::<u32>(dev, n * 10));
            int_methods.launch(dev, Grid::cover(n), &up(dev, &x), &up(dev, &y), &mut out, &mut uout).unwrap();
            (out.read().unwrap(), uout.read().unwrap())
        });
        let (mut out, mut uout) = (vec![0i32; n * 10], vec![0u32; n * 10]);
        on_host(n, 64, || int_methods::body(&x, &y, &mut out, &mut uout));
        let (signed, unsigned): (Vec<_>, Vec<_>) = outputs
            .into_iter()
            .map(|(backend, (o, uo))| ((backend, o), (backend, uo)))
            .unzip();
        agree("int_methods", &signed, Some((BODY, &out)), exact, |k| {
            let (e, name) = nth(&INT_METHODS, k);
            format!("{name} of x = {}, y = {}", x[e], y[e])
        })?;
        agree("int_methods", &unsigned, Some((BODY, &uout)), exact, |k| {
            let (e, name) = nth(&UINT_METHODS, k);
            format!("{name} of x = {}, y = {} (as u32: {}, {})", x[e], y[e], x[e] as u32, y[e] as u32)
        })?;
    }

    /// An index out of bounds, where Rust panics. The CPU backend reads 0 (robust access);
    /// a GPU's robust access may read 0 or any element of the buffer, so out-of-bounds reads
    /// are not compared across backends, only in-bounds ones (exactly, with the host).
    #[test]
    fn out_of_bounds_reads_are_defined(
        src in vec(any::<i32>(), 1..64),
        idx in vec(prop_oneof![3 => 0u32..64, 1 => any::<u32>(), 1 => Just(u32::MAX)], 1..200),
    ) {
        let n = idx.len();
        for (name, dev) in unchecked_backends() {
            let mut out = up(dev, &vec![7i32; n]);
            gather.launch(dev, Grid::cover(n), &up(dev, &idx), &up(dev, &src), &mut out).unwrap();
            let got = out.read().unwrap();
            for (k, (&i, &g)) in idx.iter().zip(&got).enumerate() {
                let what = format!("gather: out[{k}] = src[{i}] of src = {src:?}: {name} gives {g}");
                match src.get(i as usize) {
                    Some(&v) => prop_assert_eq!(g, v, "{}, not src[{}] = {}", what, i, v),
                    None if dev.is_cpu() => {
                        prop_assert_eq!(g, 0, "{} (out of bounds), not 0", what)
                    }
                    None => prop_assert!(
                        g == 0 || src.contains(&g),
                        "{} (out of bounds), neither 0 nor an element of src",
                        what
                    ),
                }
            }
        }
    }

    #[test]
    fn integer_rules_mixed(pairs in vec((i32s(), i32s()), 1..200)) {
        let (a, b): (Vec<i32>, Vec<i32>) = pairs.into_iter().unzip();
        let n = a.len();
        let outputs = on_backends(|dev| {
            let mut out = zeros::<i32>(dev, n * 8);
            int_rules.launch(dev, Grid::cover(n), &up(dev, &a), &up(dev, &b), &mut out).unwrap();
            out.read().unwrap()
        });
        let mut expected = vec![0i32; n * 8];
        on_host(n, 64, || int_rules::body(&a, &b, &mut expected));
        agree("int_rules", &outputs, Some((BODY, &expected)), exact, |k| {
            format!("output {} of ({}, {})", k % 8, a[k / 8], b[k / 8])
        })?;
    }
}
