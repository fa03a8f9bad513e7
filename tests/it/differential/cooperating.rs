//! Cooperating helpers (`crate::cooperation::helpers`) on every backend, on random inputs:
//! helpers that take workgroup arrays, declare their own and wait at barriers are compared
//! between the backends and with a host computation (they have no plain-Rust body to run one
//! invocation at a time); the helpers that only use the invocation's ids are also compared
//! with the kernel's plain-Rust body.

use proptest::collection::vec;
use proptest::prelude::*;
use sarek::prelude::*;

use super::{agree, config, exact, on_backends, on_host, up, zeros, BODY};
use crate::cooperation::helpers::coop::*;

#[sarek::module]
mod ids_only {
    use sarek::prelude::*;

    fn shifted(x: &[u32]) -> u32 {
        let i = global_thread_id();
        x[i] ^ (thread_idx_x() as u32) << 8 ^ (block_idx_x() as u32) << 16
    }

    #[sarek::kernel(workgroup_size = [64])]
    pub fn mix(x: &[u32], out: &mut [u32]) {
        let i = global_thread_id();
        if i < x.len() {
            out[i] = shifted(x);
        }
    }
}

proptest! {
    #![proptest_config(config(24))]

    #[test]
    fn tree_sums_in_helpers_agree(xs in vec(any::<u32>(), 1..1200)) {
        let n = xs.len();
        let groups = n.div_ceil(256);
        let outputs = on_backends(|dev| {
            let mut sums = zeros::<u32>(dev, groups);
            block_sums.launch(dev, Grid::cover(n), &up(dev, &xs), &mut sums).unwrap();
            sums.read().unwrap()
        });
        let expected: Vec<u32> = xs
            .chunks(256)
            .map(|c| c.iter().fold(0u32, |a, v| a.wrapping_add(*v)))
            .collect();
        agree("block_sums", &outputs, Some(("the host", &expected)), exact, |k| {
            format!("workgroup {k} of {n} elements")
        })?;
    }

    #[test]
    fn helper_shared_arrays_agree(xs in vec(0u32..1 << 12, 1..700)) {
        let n = xs.len();
        let groups = n.div_ceil(64);
        let outputs = on_backends(|dev| {
            let mut out = zeros::<u32>(dev, n);
            let mut squares = zeros::<u32>(dev, groups);
            centred.launch(dev, Grid::cover(n), &up(dev, &xs), &mut out, &mut squares).unwrap();
            let mut all = out.read().unwrap();
            all.extend(squares.read().unwrap());
            all
        });
        let mut expected = Vec::new();
        let mut squares = Vec::new();
        for c in xs.chunks(64) {
            let mean = c.iter().sum::<u32>() / 64;
            expected.extend(c.iter().map(|v| v.wrapping_sub(mean)));
            squares.push(c.iter().map(|v| v * v).sum::<u32>());
        }
        expected.extend(squares);
        agree("centred", &outputs, Some(("the host", &expected)), exact, |k| {
            format!("output {k} of {n} elements")
        })?;
    }

    #[test]
    fn helpers_reading_ids_agree_with_the_body(xs in vec(any::<u32>(), 1..500)) {
        let n = xs.len();
        let outputs = on_backends(|dev| {
            let mut out = zeros::<u32>(dev, n);
            ids_only::mix.launch(dev, Grid::cover(n), &up(dev, &xs), &mut out).unwrap();
            out.read().unwrap()
        });
        let mut expected = vec![0u32; n];
        on_host(n, 64, || ids_only::mix::body(&xs, &mut expected));
        agree("mix", &outputs, Some((BODY, &expected)), exact, |k| format!("x[{k}] = {}", xs[k]))?;
    }
}
