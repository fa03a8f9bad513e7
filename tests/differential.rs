//! Differential tests with proptest: the same kernel on the GPU and as its plain-Rust body
//! (`kernel::body`, run once per invocation on the host), on random inputs; integers compared
//! exactly, floats within the documented ULP bounds. A failure is shrunk to a small input and
//! printed with it.

mod common;

use std::sync::OnceLock;

use proptest::prelude::*;
use sarek::gpu::{with_invocation, Invocation};
use sarek::prelude::*;

fn dev() -> Option<&'static Device> {
    static DEV: OnceLock<Option<Device>> = OnceLock::new();
    DEV.get_or_init(common::device).as_ref()
}

/// Runs `body` on the host once per invocation of a 1-D grid of `n` threads in workgroups of
/// `wg`, as the GPU would.
fn on_host(n: usize, wg: u32, mut body: impl FnMut()) {
    let groups = (n as u32).div_ceil(wg);
    for g in 0..groups {
        for t in 0..wg {
            let inv = Invocation {
                thread_idx: [t, 0, 0],
                block_idx: [g, 0, 0],
                block_dim: [wg, 1, 1],
                grid_dim: [groups, 1, 1],
            };
            with_invocation(inv, &mut body);
        }
    }
}

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
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn integer_rules_match_rust(pairs in prop::collection::vec((any::<i32>(), any::<i32>()), 1..200)) {
        let Some(dev) = dev() else { return Ok(()) };
        let (a, b): (Vec<i32>, Vec<i32>) = pairs.into_iter().unzip();
        let n = a.len();
        let (ab, bb) = (dev.upload(&a).unwrap(), dev.upload(&b).unwrap());
        let mut out = dev.zeros::<i32>(n * 8).unwrap();
        int_rules.launch(dev, Grid::cover(n), &ab, &bb, &mut out).unwrap();
        let got = out.read().unwrap();
        let mut expected = vec![0i32; n * 8];
        on_host(n, 64, || int_rules::body(&a, &b, &mut expected));
        prop_assert_eq!(got, expected);
    }

    #[test]
    fn float_rules_match_rust(pairs in prop::collection::vec((-1e6f32..1e6, -1e3f32..1e3), 1..200)) {
        let Some(dev) = dev() else { return Ok(()) };
        let (a, b): (Vec<f32>, Vec<f32>) = pairs.into_iter().unzip();
        let n = a.len();
        let (ab, bb) = (dev.upload(&a).unwrap(), dev.upload(&b).unwrap());
        let mut out = dev.zeros::<f32>(n * 6).unwrap();
        float_rules.launch(dev, Grid::cover(n), &ab, &bb, &mut out).unwrap();
        let got = out.read().unwrap();
        let mut expected = vec![0f32; n * 6];
        on_host(n, 64, || float_rules::body(&a, &b, &mut expected));
        // `%`, `round`, `rem_euclid`, `clamp`, `signum` and the casts are exact; `hypot` 2 ULP.
        for (k, (g, e)) in got.iter().zip(&expected).enumerate() {
            let bound = if k % 6 == 4 { 2 } else { 0 };
            let tiny = g.abs() < f32::MIN_POSITIVE && e.abs() < f32::MIN_POSITIVE;
            prop_assert!(common::ulps(*g, *e) <= bound || tiny, "output {} ({}, {}): GPU {}, Rust {}", k, a[k / 6], b[k / 6], g, e);
        }
    }
}
