//! The library's histograms (`sarek::algo::histogram`): even bins of `f32` over a range and
//! integer keys, in workgroup memory (up to 4096 bins) and on the device's counts directly
//! (more), against plain Rust on random inputs, on the test device (the GPU, or the CPU backend
//! under `SAREK_DEVICE=cpu`).

use proptest::prelude::*;
use sarek::algo::histogram::{
    enqueue_histogram_even, enqueue_histogram_keys, histogram_even, histogram_keys, PRIVATE_BINS,
};
use sarek::Device;

use crate::common::{self, backends, cpu_only, gpu_only};
use crate::differential::config;

/// The documented bin of each value: `floor((v - lo) * (bins / (hi - lo)))` in `f32`, at most
/// the last bin; outside `[lo, hi)` and NaN dropped.
fn host_even(xs: &[f32], bins: usize, lo: f32, hi: f32) -> Vec<u32> {
    let scale = bins as f32 / (hi - lo);
    let mut counts = vec![0u32; bins];
    for &v in xs {
        if lo <= v && v < hi {
            let b = (((v - lo) * scale) as usize).min(bins - 1);
            counts[b] += 1;
        }
    }
    counts
}

fn host_keys(keys: &[u32], bins: usize) -> Vec<u32> {
    let mut counts = vec![0u32; bins];
    for &k in keys {
        if (k as usize) < bins {
            counts[k as usize] += 1;
        }
    }
    counts
}

/// Values in and around a range of about [-4, 4], with NaNs and infinities (no subnormals,
/// which a device may flush to zero).
fn values() -> impl Strategy<Value = f32> {
    prop_oneof![
        8 => -5.0f32..5.0,
        1 => Just(f32::NAN),
        1 => Just(f32::INFINITY),
        1 => Just(f32::NEG_INFINITY),
        1 => (-8i32..8).prop_map(|v| v as f32 * 0.5),
    ]
}

fn lengths() -> impl Strategy<Value = usize> {
    prop_oneof![0usize..3, 3usize..2000, 60_000usize..70_000]
}

/// Bins within workgroup memory, and past it.
fn bin_counts() -> impl Strategy<Value = usize> {
    prop_oneof![
        1usize..8,
        8usize..300,
        PRIVATE_BINS - 2..PRIVATE_BINS + 3,
        5000usize..9000
    ]
}

proptest! {
    #![proptest_config(config(10))]

    #[test]
    fn even_bins_match_the_host(
        xs in lengths().prop_flat_map(|n| proptest::collection::vec(values(), n)),
        bins in bin_counts(),
        lo in -4.0f32..0.5,
        width in 0.25f32..8.0,
    ) {
        for (_, dev) in crate::differential::backends() {
            let hi = lo + width;
            let want = host_even(&xs, bins, lo, hi);
            let x = dev.upload(&xs).unwrap();
            let got = histogram_even(dev, &x, bins, lo, hi).unwrap().read().unwrap();
            prop_assert_eq!(&got, &want, "{} values, {} bins over [{}, {})", xs.len(), bins, lo, hi);
            // The batch form zeroes counts that held something.
            let mut counts = dev.upload(&vec![7u32; bins]).unwrap();
            let mut batch = dev.batch();
            enqueue_histogram_even(&mut batch, &x, lo, hi, &mut counts).unwrap();
            batch.submit().unwrap();
            prop_assert_eq!(counts.read().unwrap(), want);
        }
    }

    #[test]
    fn integer_keys_match_the_host(
        keys in lengths().prop_flat_map(|n| {
            proptest::collection::vec(prop_oneof![8 => 0u32..10_000, 1 => any::<u32>()], n)
        }),
        bins in bin_counts(),
    ) {
        for (_, dev) in crate::differential::backends() {
            let want = host_keys(&keys, bins);
            let k = dev.upload(&keys).unwrap();
            let got = histogram_keys(dev, &k, bins).unwrap().read().unwrap();
            prop_assert_eq!(&got, &want, "{} keys, {} bins", keys.len(), bins);
            let mut counts = dev.upload(&vec![3u32; bins]).unwrap();
            let mut batch = dev.batch();
            enqueue_histogram_keys(&mut batch, &k, &mut counts).unwrap();
            batch.submit().unwrap();
            prop_assert_eq!(counts.read().unwrap(), want);
        }
    }
}

/// Values on the bin edges: `lo` counts in the first bin, `hi` in none, and a value just
/// below `hi` in the last.
#[backends]
fn edges_of_the_range(dev: &Device) {
    let below = f32::from_bits(1.0f32.to_bits() - 1);
    let x = dev
        .upload(&[0.0f32, 0.25, 0.5, 0.75, 1.0, below, -0.0])
        .unwrap();
    let got = histogram_even(dev, &x, 4, 0.0, 1.0)
        .unwrap()
        .read()
        .unwrap();
    assert_eq!(got, [2, 1, 1, 2]);
}

/// More than 2^24 values, most in one bin, so that a count past what an `f32` holds exactly
/// must still be exact.
fn counts_past_two_to_the_24(dev: &Device) {
    let n = (1 << 24) + (1 << 19);
    let keys: Vec<u32> = common::random_u32(3, n)
        .iter()
        .map(|&r| if r % 128 == 0 { r % 100 } else { 42 })
        .collect();
    let k = dev.upload(&keys).unwrap();
    let got = histogram_keys(dev, &k, 100).unwrap().read().unwrap();
    let want = host_keys(&keys, 100);
    assert!(want[42] > 1 << 24);
    assert_eq!(got, want);
}

#[backends]
fn an_empty_range_is_refused(dev: &Device) {
    let x = dev.upload(&[1.0f32]).unwrap();
    super::refused(
        histogram_even(dev, &x, 4, 1.0, 1.0),
        "the range [1, 1) must be non-empty with a finite width",
    );
    super::refused(histogram_even(dev, &x, 0, 0.0, 1.0), "at least one bin");
}

/// Past 2^24 on the GPU and the plain CPU backend (the smaller tests run the checked CPU
/// backend too).
mod counts_past_two_to_the_24 {
    use super::*;

    #[gpu_only]
    fn gpu(dev: &Device) {
        super::counts_past_two_to_the_24(dev);
    }

    #[cpu_only]
    fn cpu(dev: &Device) {
        super::counts_past_two_to_the_24(dev);
    }
}
