//! Casts and constants: `round`, saturating float-to-integer casts, and constants that keep
//! their exact value.

use super::*;

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

proptest! {
    #![proptest_config(config(48))]

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
}
