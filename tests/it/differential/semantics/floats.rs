//! Floats: C's remainder, the polyfilled methods within their ULP bounds, NaN comparisons.

use super::*;

/// `f32 % f32` is C's `fmod`: exact, also for huge quotients, and `x % ±inf == x`.
#[sarek::kernel(workgroup_size = [64])]
fn remainders(x: &[f32], y: &[f32], out: &mut [f32]) {
    let i = global_thread_id();
    if i < x.len() {
        out[i] = x[i] % y[i];
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
