//! `for` over ranges: bounds read once, ranges that end at the maximum, `.rev()`, steps.

use super::*;

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
}
