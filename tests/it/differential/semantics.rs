//! The semantic rules of README.md ("Rust's meaning on the GPU"), one kernel each, run on
//! every backend and, where Rust defines the result, as the kernel's plain-Rust body on the
//! host: integer wrapping and division, shifts, casts, float remainders and methods, ranges,
//! constants, and the documented results where Rust would panic.

use super::*;

/// Output `k` of a kernel that writes `names.len()` outputs per element: the element and the
/// output's name.
pub(crate) fn nth(names: &[&'static str], k: usize) -> (usize, &'static str) {
    (k / names.len(), names[k % names.len()])
}

/// `f32 % f32` is C's `fmod`: exact, also for huge quotients, and `x % ±inf == x`.
#[sarek::kernel(workgroup_size = [64])]
fn remainders(x: &[f32], y: &[f32], out: &mut [f32]) {
    let i = global_thread_id();
    if i < x.len() {
        out[i] = x[i] % y[i];
    }
}

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

const FLOAT_CONVERSIONS: [&str; 3] = ["x.round()", "n as f32", "u as f32"];
const INT_CONVERSIONS: [&str; 2] = ["x as i32", "u as i32"];
const UINT_CONVERSIONS: [&str; 2] = ["x as u32", "n as u32"];

/// `round` half away from zero, saturating `f32` to integer casts (NaN to 0), integers to
/// `f32` rounded like Rust.
#[sarek::kernel(workgroup_size = [64])]
fn conversions(
    x: &[f32],
    n: &[i32],
    u: &[u32],
    fout: &mut [f32],
    iout: &mut [i32],
    uout: &mut [u32],
) {
    let i = global_thread_id();
    if i < x.len() {
        fout[i * 3] = x[i].round();
        fout[i * 3 + 1] = n[i] as f32;
        fout[i * 3 + 2] = u[i] as f32;
        iout[i * 2] = x[i] as i32;
        iout[i * 2 + 1] = u[i] as i32;
        uout[i * 2] = x[i] as u32;
        uout[i * 2 + 1] = n[i] as u32;
    }
}

const FLOAT_CONSTANTS: [&str; 3] = [
    "one of INFINITY, NAN, MIN_POSITIVE, NEG_INFINITY, -MIN_POSITIVE, x",
    "x / f32::MIN_POSITIVE",
    "x + f32::INFINITY",
];
const INT_CONSTANTS: [&str; 3] = [
    "i32::MIN or n",
    "n ^ i32::MIN",
    "NaN and infinity tests (bits)",
];
const UINT_CONSTANTS: [&str; 2] = ["u32::MAX or n", "u32::MAX - n"];

/// The constants keep their exact value, chosen at run time so that no constant folding
/// hides them; NaN compares unequal (`==` false) to everything, itself included.
#[sarek::kernel(workgroup_size = [64])]
#[allow(invalid_nan_comparisons)]
fn constants(
    sel: &[u32],
    x: &[f32],
    n: &[i32],
    fout: &mut [f32],
    iout: &mut [i32],
    uout: &mut [u32],
) {
    let i = global_thread_id();
    if i < x.len() {
        let s = sel[i] % 6;
        let v = x[i];
        let f = if s == 0 {
            f32::INFINITY
        } else if s == 1 {
            f32::NAN
        } else if s == 2 {
            f32::MIN_POSITIVE
        } else if s == 3 {
            f32::NEG_INFINITY
        } else if s == 4 {
            -f32::MIN_POSITIVE
        } else {
            v
        };
        fout[i * 3] = f;
        fout[i * 3 + 1] = v / f32::MIN_POSITIVE;
        fout[i * 3 + 2] = v + f32::INFINITY;
        iout[i * 3] = if s == 0 { i32::MIN } else { n[i] };
        iout[i * 3 + 1] = n[i] ^ i32::MIN;
        // (`!=` on a NaN is `nan_is_not_equal_to_itself`'s.)
        iout[i * 3 + 2] = (f == f) as i32
            + (f == f32::INFINITY) as i32 * 2
            + (f < f32::INFINITY) as i32 * 4
            + (f == f32::NAN) as i32 * 8
            + (f32::NAN == f32::NAN) as i32 * 16
            + (f > f32::NEG_INFINITY) as i32 * 32;
        uout[i * 2] = if s == 1 { u32::MAX } else { n[i] as u32 };
        uout[i * 2 + 1] = u32::MAX - n[i] as u32;
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

const RANGES: [&str; 14] = [
    "a..end (end changed in the body)",
    "a..=end (end changed in the body)",
    "(a..b).rev() with continue",
    "(a..=b).rev()",
    "(a..b).step_by(k)",
    "(a..=b).step_by(k)",
    "(a..b).rev().step_by(k)",
    "(a..b).step_by(k).rev()",
    "(a..=b).rev().step_by(k)",
    "ua..=ub with break",
    "(ua..=ub).rev().step_by(k)",
    "(ua..ub).step_by(k).rev()",
    "a..=i32::MAX",
    "(ua..=u32::MAX).step_by(k)",
];

/// `for` over ranges: bounds read once, ranges ending at the maximum terminate, `.rev()`,
/// `.step_by(k)` and their combinations; each form's iterations hashed in order and counted.
#[sarek::kernel(workgroup_size = [64])]
#[allow(unused_assignments)]
fn ranges(lo: &[i32], hi: &[i32], step: &[u32], ulo: &[u32], uhi: &[u32], out: &mut [u32]) {
    let i = global_thread_id();
    if i < lo.len() {
        let (a, b, k) = (lo[i], hi[i], step[i] as usize);
        let (ua, ub) = (ulo[i], uhi[i]);
        let mut h = [0u32; 14];
        let mut n = [0u32; 14];
        let mut end = b;
        for v in a..end {
            end = a;
            h[0] = h[0].wrapping_mul(31).wrapping_add(v as u32);
            n[0] += 1;
        }
        let mut end2 = b;
        for v in a..=end2 {
            end2 = a;
            h[1] = h[1].wrapping_mul(31).wrapping_add(v as u32);
            n[1] += 1;
        }
        for v in (a..b).rev() {
            if v % 3 == 0 {
                continue;
            }
            h[2] = h[2].wrapping_mul(31).wrapping_add(v as u32);
            n[2] += 1;
        }
        for v in (a..=b).rev() {
            h[3] = h[3].wrapping_mul(31).wrapping_add(v as u32);
            n[3] += 1;
        }
        for v in (a..b).step_by(k) {
            h[4] = h[4].wrapping_mul(31).wrapping_add(v as u32);
            n[4] += 1;
        }
        for v in (a..=b).step_by(k) {
            h[5] = h[5].wrapping_mul(31).wrapping_add(v as u32);
            n[5] += 1;
        }
        for v in (a..b).rev().step_by(k) {
            h[6] = h[6].wrapping_mul(31).wrapping_add(v as u32);
            n[6] += 1;
        }
        for v in (a..b).step_by(k).rev() {
            h[7] = h[7].wrapping_mul(31).wrapping_add(v as u32);
            n[7] += 1;
        }
        for v in (a..=b).rev().step_by(k) {
            h[8] = h[8].wrapping_mul(31).wrapping_add(v as u32);
            n[8] += 1;
        }
        for v in ua..=ub {
            if k == 4 && v == ub.wrapping_sub(2) {
                break;
            }
            h[9] = h[9].wrapping_mul(31).wrapping_add(v);
            n[9] += 1;
        }
        for v in (ua..=ub).rev().step_by(k) {
            h[10] = h[10].wrapping_mul(31).wrapping_add(v);
            n[10] += 1;
        }
        for v in (ua..ub).step_by(k).rev() {
            h[11] = h[11].wrapping_mul(31).wrapping_add(v);
            n[11] += 1;
        }
        if a > i32::MAX - 64 {
            for v in a..=i32::MAX {
                h[12] = h[12].wrapping_mul(31).wrapping_add(v as u32);
                n[12] += 1;
            }
        }
        if ua > u32::MAX - 64 {
            for v in (ua..=u32::MAX).step_by(k) {
                h[13] = h[13].wrapping_mul(31).wrapping_add(v);
                n[13] += 1;
            }
        }
        for j in 0..14 {
            out[i * 28 + 2 * j] = h[j];
            out[i * 28 + 2 * j + 1] = n[j];
        }
    }
}

/// Arguments of the polyfills: tests/it/semantics.rs's domain (normal values of magnitude
/// 1e-30 to 1e30, kept away from subnormal results that a device may flush), edge values
/// (NaN, infinities and zeros included: the polyfills give Rust's result there too), and
/// the domains of `acosh` and `atanh`. No subnormal arguments: the device's own `log2` and
/// `pow` (under `log2`, `log10`, `cbrt`) are not accurate there.
pub(crate) fn polyfill_args() -> impl Strategy<Value = f32> {
    prop_oneof![
        4 => any::<u32>().prop_map(f32::from_bits).prop_filter("normal, 1e-30 to 1e30", |v| {
            v.is_finite() && v.abs() > 1e-30 && v.abs() < 1e30
        }),
        2 => -10.0f32..10.0,
        1 => 1.0f32..20.0,
        1 => -1.0f32..1.0,
        1 => prop::sample::select(vec![
            0.0f32, -0.0, 1.0, -1.0, 0.5, -0.5, 1e-7, -1e-7, 2.0, 3.0, 10.0, 1000.0, 1e10,
            -1e10, 3.4e38, 0.999, -0.999, 1.0001, -7.25, f32::NAN, f32::INFINITY,
            f32::NEG_INFINITY, f32::MAX, f32::MIN, f32::MIN_POSITIVE,
        ]),
    ]
}

/// The integer methods, exactly (as in tests/it/semantics.rs, with the body's panics avoided).
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

/// A mix of the float rules in one kernel.
#[sarek::kernel(workgroup_size = [64])]
fn float_rules(a: &[f32], b: &[f32], out: &mut [f32]) {
    let i = global_thread_id();
    if i < a.len() {
        let (x, y) = (a[i], b[i]);
        let o = i * 6;
        out[o] = x % y;
        out[o + 1] = x.round();
        out[o + 2] = x.rem_euclid(y);
        out[o + 3] = x.clamp(-1.0, 1.0) * y.signum();
        out[o + 4] = x.hypot(y);
        out[o + 5] = (x as i32) as f32 + (y as u32) as f32;
    }
}

/// `(lo, hi)`: `lo` random or at an edge, `hi` at most 48 past it (saturating at the
/// maximum, so that ranges up to the maximum occur), or a little below it (empty ranges).
fn i32_bounds() -> impl Strategy<Value = (i32, i32)> {
    let lo = prop_oneof![
        3 => any::<i32>(),
        1 => Just(i32::MIN),
        1 => Just(i32::MAX - 40),
        1 => Just(i32::MAX),
        1 => Just(-20),
    ];
    (lo, -4i32..48).prop_map(|(lo, len)| (lo, lo.saturating_add(len)))
}

fn u32_bounds() -> impl Strategy<Value = (u32, u32)> {
    let lo = prop_oneof![
        3 => any::<u32>(),
        1 => Just(0u32),
        1 => Just(u32::MAX - 40),
        1 => Just(u32::MAX),
    ];
    (lo, -4i32..48).prop_map(|(lo, len)| (lo, lo.saturating_add_signed(len)))
}

proptest! {
    #![proptest_config(config(48))]

    #[test]
    fn float_remainder_is_c_fmod(
        xy in vec((normal_f32s(), prop_oneof![
            4 => normal_f32s(),
            1 => Just(f32::INFINITY),
            1 => Just(f32::NEG_INFINITY),
            2 => 1e-3f32..10.0,
        ]), 1..200),
    ) {
        let (x, y): (Vec<f32>, Vec<f32>) = xy.into_iter().unzip();
        let n = x.len();
        let outputs = on_backends(|dev| {
            let mut out = zeros::<f32>(dev, n);
            remainders.launch(dev, Grid::cover(n), &up(dev, &x), &up(dev, &y), &mut out).unwrap();
            out.read().unwrap()
        });
        let mut expected = vec![0f32; n];
        on_host(n, 64, || remainders::body(&x, &y, &mut expected));
        agree("remainders", &outputs, Some((BODY, &expected)), same_bits, |k| {
            format!("{:?} % {:?}", x[k], y[k])
        })?;
    }

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

    #[test]
    fn round_and_casts_follow_rust(
        xnu in vec((f32s(), prop_oneof![3 => i32s(), 1 => -(1i32 << 25)..(1 << 25)], u32s()), 1..200),
    ) {
        let (x, nu): (Vec<f32>, Vec<(i32, u32)>) = xnu.into_iter().map(|(x, n, u)| (x, (n, u))).unzip();
        let (n, u): (Vec<i32>, Vec<u32>) = nu.into_iter().unzip();
        let len = x.len();
        let outputs = on_backends(|dev| {
            let mut f = zeros::<f32>(dev, len * 3);
            let (mut i, mut uo) = (zeros::<i32>(dev, len * 2), zeros::<u32>(dev, len * 2));
            conversions
                .launch(dev, Grid::cover(len), &up(dev, &x), &up(dev, &n), &up(dev, &u), &mut f, &mut i, &mut uo)
                .unwrap();
            (f.read().unwrap(), i.read().unwrap(), uo.read().unwrap())
        });
        let (mut f, mut i, mut uo) = (vec![0f32; len * 3], vec![0i32; len * 2], vec![0u32; len * 2]);
        on_host(len, 64, || conversions::body(&x, &n, &u, &mut f, &mut i, &mut uo));
        let show = |names: &[&'static str], k: usize| {
            let (e, name) = nth(names, k);
            format!("{name} with x = {:?}, n = {}, u = {}", x[e], n[e], u[e])
        };
        let fo: Vec<_> = outputs.iter().map(|(name, o)| (*name, o.0.clone())).collect();
        agree("conversions", &fo, Some((BODY, &f)), same_bits, |k| show(&FLOAT_CONVERSIONS, k))?;
        let io: Vec<_> = outputs.iter().map(|(name, o)| (*name, o.1.clone())).collect();
        agree("conversions", &io, Some((BODY, &i)), exact, |k| show(&INT_CONVERSIONS, k))?;
        let uoo: Vec<_> = outputs.iter().map(|(name, o)| (*name, o.2.clone())).collect();
        agree("conversions", &uoo, Some((BODY, &uo)), exact, |k| show(&UINT_CONVERSIONS, k))?;
    }

    /// `i32::MIN`, `u32::MAX`, `f32::INFINITY`, `f32::NAN`, `f32::MIN_POSITIVE`: compared bit
    /// for bit (NaN as "both NaN").
    #[test]
    fn constants_keep_their_value(input in vec((any::<u32>(), normal_f32s(), i32s()), 1..200)) {
        let len = input.len();
        let sel: Vec<u32> = input.iter().map(|v| v.0).collect();
        let x: Vec<f32> = input.iter().map(|v| v.1).collect();
        let n: Vec<i32> = input.iter().map(|v| v.2).collect();
        let outputs = on_backends(|dev| {
            let (mut f, mut i) = (zeros::<f32>(dev, len * 3), zeros::<i32>(dev, len * 3));
            let mut u = zeros::<u32>(dev, len * 2);
            constants
                .launch(dev, Grid::cover(len), &up(dev, &sel), &up(dev, &x), &up(dev, &n), &mut f, &mut i, &mut u)
                .unwrap();
            (f.read().unwrap(), i.read().unwrap(), u.read().unwrap())
        });
        let (mut f, mut i, mut u) = (vec![0f32; len * 3], vec![0i32; len * 3], vec![0u32; len * 2]);
        on_host(len, 64, || constants::body(&sel, &x, &n, &mut f, &mut i, &mut u));
        let show = |names: &[&'static str], k: usize| {
            let (e, name) = nth(names, k);
            format!("{name} with selector {}, x = {:?}, n = {}", sel[e] % 6, x[e], n[e])
        };
        let fo: Vec<_> = outputs.iter().map(|(name, o)| (*name, o.0.clone())).collect();
        agree("constants", &fo, Some((BODY, &f)), same_bits, |k| show(&FLOAT_CONSTANTS, k))?;
        let io: Vec<_> = outputs.iter().map(|(name, o)| (*name, o.1.clone())).collect();
        agree("constants", &io, Some((BODY, &i)), exact, |k| show(&INT_CONSTANTS, k))?;
        let uo: Vec<_> = outputs.iter().map(|(name, o)| (*name, o.2.clone())).collect();
        agree("constants", &uo, Some((BODY, &u)), exact, |k| show(&UINT_CONSTANTS, k))?;
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
    fn for_ranges_iterate_like_rust(
        input in vec((i32_bounds(), 1u32..5, u32_bounds()), 1..120),
    ) {
        let len = input.len();
        let lo: Vec<i32> = input.iter().map(|v| v.0 .0).collect();
        let hi: Vec<i32> = input.iter().map(|v| v.0 .1).collect();
        let step: Vec<u32> = input.iter().map(|v| v.1).collect();
        let ulo: Vec<u32> = input.iter().map(|v| v.2 .0).collect();
        let uhi: Vec<u32> = input.iter().map(|v| v.2 .1).collect();
        let outputs = on_backends(|dev| {
            let mut out = zeros::<u32>(dev, len * 28);
            ranges
                .launch(
                    dev,
                    Grid::cover(len),
                    &up(dev, &lo),
                    &up(dev, &hi),
                    &up(dev, &step),
                    &up(dev, &ulo),
                    &up(dev, &uhi),
                    &mut out,
                )
                .unwrap();
            out.read().unwrap()
        });
        let mut expected = vec![0u32; len * 28];
        on_host(len, 64, || ranges::body(&lo, &hi, &step, &ulo, &uhi, &mut expected));
        agree("ranges", &outputs, Some((BODY, &expected)), exact, |k| {
            let e = k / 28;
            let what = if k % 2 == 0 { "hash" } else { "count" };
            format!(
                "{what} of `{}` with a = {}, b = {}, k = {}, ua = {}, ub = {}",
                RANGES[k % 28 / 2], lo[e], hi[e], step[e], ulo[e], uhi[e]
            )
        })?;
    }

    /// The polyfilled `f32` methods within README.md's bounds of the body (Rust's `std`).
    #[test]
    fn float_polyfills_within_documented_ulps(
        xy in vec((polyfill_args(), polyfill_args()), 1..200),
    ) {
        let (x, y): (Vec<f32>, Vec<f32>) = xy.into_iter().unzip();
        let n = x.len();
        let outputs = on_backends(|dev| {
            let mut out = zeros::<f32>(dev, n * 18);
            float_methods.launch(dev, Grid::cover(n), &up(dev, &x), &up(dev, &y), &mut out).unwrap();
            out.read().unwrap()
        });
        let mut expected = vec![0f32; n * 18];
        on_host(n, 64, || float_methods::body(&x, &y, &mut expected));
        agree(
            "float_methods",
            &outputs,
            Some((BODY, &expected)),
            |k, g, e| {
                let bound = polyfills::ulps(k % 18, x[k / 18]);
                if bound == 0 { same_f32(*g, *e) } else { near_f32(*g, *e, bound) }
            },
            |k| {
                let (e, name) = nth(&polyfills::NAMES, k);
                let bound = polyfills::ulps(k % 18, x[e]);
                format!("{name}({:?}, {:?}) (bound {bound} ULP)", x[e], y[e])
            },
        )?;
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

    /// `%`, `round`, `rem_euclid`, `clamp`, `signum` and the casts are exact; `hypot` 2 ULP.
    #[test]
    fn float_rules_mixed(pairs in vec((-1e6f32..1e6, -1e3f32..1e3), 1..200)) {
        let (a, b): (Vec<f32>, Vec<f32>) = pairs.into_iter().unzip();
        let n = a.len();
        let outputs = on_backends(|dev| {
            let mut out = zeros::<f32>(dev, n * 6);
            float_rules.launch(dev, Grid::cover(n), &up(dev, &a), &up(dev, &b), &mut out).unwrap();
            out.read().unwrap()
        });
        let mut expected = vec![0f32; n * 6];
        on_host(n, 64, || float_rules::body(&a, &b, &mut expected));
        agree(
            "float_rules",
            &outputs,
            Some((BODY, &expected)),
            |k, g, e| if k % 6 == 4 { near_f32(*g, *e, 2) } else { same_f32(*g, *e) },
            |k| format!("output {} of ({:?}, {:?})", k % 6, a[k / 6], b[k / 6]),
        )?;
    }
}

/// `x != x` for a NaN `x` is `true`, as in Rust. Found by this harness: naga's SPIR-V back
/// end writes WGSL's float `!=` as `OpFOrdNotEqual` (ordered: false when either side is
/// NaN), so the WGSL back end writes a float `a != b` as `!(a == b)`. (`==`, `<`, `<=`, `>`,
/// `>=` are ordered in both and agree.)
#[sarek::kernel(workgroup_size = [64])]
#[allow(invalid_nan_comparisons)]
fn nan_not_equal(x: &[f32], out: &mut [u32]) {
    let i = global_thread_id();
    if i < x.len() {
        out[i * 3] = (x[i] != x[i]) as u32;
        out[i * 3 + 1] = (x[i] != 1.0f32) as u32;
        out[i * 3 + 2] = (f32::NAN != f32::NAN) as u32;
    }
}

#[test]
fn nan_is_not_equal_to_itself() {
    let x = [f32::NAN, 1.0];
    let outputs = on_backends(|dev| {
        let mut out = zeros::<u32>(dev, 6);
        nan_not_equal
            .launch(dev, Grid::cover(2), &up(dev, &x), &mut out)
            .unwrap();
        out.read().unwrap()
    });
    let mut expected = vec![0u32; 6];
    on_host(2, 64, || nan_not_equal::body(&x, &mut expected));
    assert_eq!(expected, [1, 1, 1, 0, 0, 1]);
    let names = ["x != x", "x != 1.0", "f32::NAN != f32::NAN"];
    agree(
        "nan_not_equal",
        &outputs,
        Some((BODY, &expected)),
        exact,
        |k| format!("{} with x = {:?}", names[k % 3], x[k / 3]),
    )
    .unwrap();
}

/// `cbrt` is within 2 ULP without overflow up to `f32::MAX`. Found by this harness: the
/// polyfill's Newton step `y - (y·y·y - a) / (3·y·y)` overflowed `y·y·y` for |x| from about
/// 3.4028147e38 when the device's `pow(a, 1/3)` rounded up (`-inf` on lavapipe); it now
/// scales large arguments by 2^-39 and the root back by 2^13.
#[test]
fn cbrt_of_the_largest_floats_is_finite() {
    let x = [f32::MAX, f32::MIN, 3.4028147e38];
    let y = [1.0f32; 3];
    let outputs = on_backends(|dev| {
        let mut out = zeros::<f32>(dev, 3 * 18);
        float_methods
            .launch(dev, Grid::cover(3), &up(dev, &x), &up(dev, &y), &mut out)
            .unwrap();
        out.read()
            .unwrap()
            .into_iter()
            .skip(2)
            .step_by(18)
            .collect::<Vec<_>>()
    });
    let expected: Vec<f32> = x.iter().map(|v| v.cbrt()).collect();
    agree(
        "float_methods",
        &outputs,
        Some((BODY, &expected)),
        |_, g, e| near_f32(*g, *e, 2),
        |k| format!("cbrt({:?})", x[k]),
    )
    .unwrap();
}

proptest! {
    #![proptest_config(config(24))]

    /// Generic kernels (tests/it/generics.rs) on every backend and as their plain-Rust body:
    /// the `i32` instance of `scale<T: Scalar>`, inferred from the arguments, and
    /// `combine::<Max>`, dispatched statically through a module trait.
    #[test]
    fn generic_and_trait_dispatched(
        a in -1000i32..1000,
        x in vec(-1000i32..1000, 1..200),
        y in vec(normal_f32s(), 1..200),
    ) {
        use crate::generics::{ops, scale};
        let n = x.len();
        let outputs = on_backends(|dev| {
            let xb = dev.upload(&x).unwrap();
            let mut yb = dev.zeros::<i32>(n).unwrap();
            scale.launch(dev, Grid::cover(n), a, &xb, &mut yb).unwrap();
            yb.read().unwrap()
        });
        let mut expected = vec![0i32; n];
        on_host(n, 64, || scale::body(a, &x, &mut expected));
        agree("scale::<i32>", &outputs, Some((BODY, &expected)), exact, |k| format!("y[{k}] with a = {a}, x = {}", x[k]))?;

        let m = y.len();
        let outputs = on_backends(|dev| {
            let yb = dev.upload(&y).unwrap();
            let mut out = dev.zeros::<f32>(m).unwrap();
            ops::combine.launch::<ops::Max>(dev, Grid::cover(m), &yb, &yb, &mut out).unwrap();
            out.read().unwrap()
        });
        let mut expected = vec![0f32; m];
        on_host(m, 64, || ops::combine::body::<ops::Max>(&y, &y, &mut expected));
        agree("combine::<Max>", &outputs, Some((BODY, &expected)), same_bits, |k| format!("out[{k}] with x = y = {:?}", y[k]))?;
    }
}
