//! Histograms on the device: counts of `f32` values in even bins over a range
//! ([`histogram_even`], PyTorch's `histc`, CUB's `DeviceHistogram::HistogramEven`) and of
//! integer keys ([`histogram_keys`], `bincount`).
//!
//! ```
//! use sarek::algo::histogram::{histogram_even, histogram_keys};
//!
//! # fn main() -> sarek::Result<()> {
//! let dev = sarek::Device::new()?;
//! let x = dev.upload(&[0.1f32, 0.6, 0.7, 1.5, -0.2, f32::NAN])?;
//! // Two bins over [0, 1): 1.5, -0.2 and NaN fall outside and are dropped.
//! assert_eq!(histogram_even(&dev, &x, 2, 0.0, 1.0)?.read()?, [1, 2]);
//! let keys = dev.upload(&[3u32, 1, 3, 3, 9])?;
//! // Keys past the last bin are dropped.
//! assert_eq!(histogram_keys(&dev, &keys, 4)?.read()?, [0, 1, 0, 3]);
//! # Ok(()) }
//! ```
//!
//! [`enqueue_histogram_even`] and [`enqueue_histogram_keys`] add the same work to a
//! [`Batch`] without waiting, into a buffer of counts of your own.
//!
//! # The algorithm
//!
//! Each workgroup counts a share of the input (a grid-stride loop over at most
//! [`MAX_GROUPS`] workgroups) into its own copy of the bins in workgroup memory, with
//! workgroup atomics, and then adds each bin it saw to the device's counts with one atomic
//! each. Up to [`PRIVATE_BINS`] bins fit in workgroup memory; more bins are counted with
//! atomics on the device's counts directly. No workgroup waits for another, and the counts are
//! exact (integers, in any order).

use crate::{Batch, Buffer, Device, Grid, Result};

/// The most bins a workgroup counts in workgroup memory (16 KiB of `u32`, WebGPU's guaranteed
/// workgroup memory); more are counted on the device's counts directly.
pub const PRIVATE_BINS: usize = 4096;

/// The most workgroups a histogram launches: about one wave of a large GPU, few enough that
/// merging their copies of the bins costs little, and each thread still loops at most
/// 2^32 / (1024 · 256 · 4) = 4,096 times.
pub const MAX_GROUPS: usize = 1024;

/// The kernels of the histograms, public as an example of a library written in Sarek; the
/// host calls of [`crate::algo::histogram`] are how they are meant to be used.
#[sarek::module]
pub mod kernels {
    use sarek::prelude::*;
    use std::sync::atomic::{AtomicU32, Ordering};

    /// Counts `x` into `bins` even bins over `[lo, hi)` added to `counts`: value `v` lands in
    /// bin `(v - lo) * scale` (truncated, at most `bins - 1`), where `scale` is
    /// `bins / (hi - lo)`; values outside the range and NaNs are dropped.
    #[sarek::kernel(workgroup_size = [256])]
    pub fn histogram_even_f32(
        x: &[f32],
        lo: f32,
        hi: f32,
        scale: f32,
        bins: u32,
        counts: &[AtomicU32],
    ) {
        let h = shared::<[AtomicU32; 4096]>();
        let private = bins <= 4096;
        let t = thread_idx_x();
        let n = x.len();
        let stride = grid_dim_x() * 256;
        let mut i = block_idx_x() * 256 + t;
        while i < n {
            // Four loads from clamped indices first, all in flight together, then their
            // counts: one load at a time would leave each thread waiting on memory.
            let mut v = [0.0f32; 4];
            for k in 0..4 {
                let j = i + k * stride;
                v[k] = x[if j < n { j } else { n - 1 }];
            }
            for k in 0..4 {
                let e = v[k];
                if i + k * stride < n && e >= lo && e < hi {
                    let b = ((e - lo) * scale) as u32;
                    let b = (if b < bins { b } else { bins - 1 }) as usize;
                    if private {
                        h[b].fetch_add(1, Ordering::Relaxed);
                    } else {
                        counts[b].fetch_add(1, Ordering::Relaxed);
                    }
                }
            }
            i += 4 * stride;
        }
        block_barrier();
        if private {
            let mut b = t;
            while b < bins as usize {
                let c = h[b].load(Ordering::Relaxed);
                if c != 0 {
                    counts[b].fetch_add(c, Ordering::Relaxed);
                }
                b += 256;
            }
        }
    }

    /// Counts the keys of `keys` below `bins` into `counts[key]`; larger keys are dropped.
    #[sarek::kernel(workgroup_size = [256])]
    pub fn histogram_keys_u32(keys: &[u32], bins: u32, counts: &[AtomicU32]) {
        let h = shared::<[AtomicU32; 4096]>();
        let private = bins <= 4096;
        let t = thread_idx_x();
        let n = keys.len();
        let stride = grid_dim_x() * 256;
        let mut i = block_idx_x() * 256 + t;
        while i < n {
            // Four loads in flight together, as in `histogram_even_f32`.
            let mut v = [0u32; 4];
            for k in 0..4 {
                let j = i + k * stride;
                v[k] = keys[if j < n { j } else { n - 1 }];
            }
            for k in 0..4 {
                let key = v[k];
                if i + k * stride < n && key < bins {
                    if private {
                        h[key as usize].fetch_add(1, Ordering::Relaxed);
                    } else {
                        counts[key as usize].fetch_add(1, Ordering::Relaxed);
                    }
                }
            }
            i += 4 * stride;
        }
        block_barrier();
        if private {
            let mut b = t;
            while b < bins as usize {
                let c = h[b].load(Ordering::Relaxed);
                if c != 0 {
                    counts[b].fetch_add(c, Ordering::Relaxed);
                }
                b += 256;
            }
        }
    }

    /// Sets every element of `x` to zero.
    #[sarek::kernel(workgroup_size = [256])]
    pub fn zero_u32(x: &mut [u32]) {
        let i = global_thread_id();
        if i < x.len() {
            x[i] = 0;
        }
    }
}

/// The workgroups that count `n` elements: 16 elements a thread (four rounds of four), at
/// most [`MAX_GROUPS`].
fn groups(n: usize) -> usize {
    n.div_ceil(256 * 16).clamp(1, MAX_GROUPS)
}

/// Checks the range and returns the scale from a value's offset to its bin.
fn scale(call: &str, bins: usize, lo: f32, hi: f32) -> Result<f32> {
    if !(lo < hi && (hi - lo).is_finite()) {
        return Err(super::bad_arguments(
            call,
            format!("the range [{lo}, {hi}) must be non-empty with a finite width"),
        ));
    }
    Ok(bins as f32 / (hi - lo))
}

/// Checks the number of bins (one at least, and a `u32`).
fn check_bins(call: &str, bins: usize) -> Result<u32> {
    match u32::try_from(bins) {
        Ok(0) => Err(super::bad_arguments(
            call,
            "a histogram needs at least one bin".into(),
        )),
        Ok(bins) => Ok(bins),
        Err(_) => Err(super::bad_arguments(
            call,
            format!("at most 2^32 - 1 bins, not {bins}"),
        )),
    }
}

/// Adds to `batch` the histogram of `x` in `counts.len()` even bins over `[lo, hi)` into
/// `counts` (which it zeroes first): value `v` counts in bin
/// `floor((v - lo) * (bins / (hi - lo)))`, computed in `f32` with the scale rounded once, and
/// at most the last bin; values outside `[lo, hi)` and NaNs are dropped, as CUB's
/// `HistogramEven` does. [`Error::BadArguments`](crate::Error::BadArguments) unless
/// `lo < hi` with a finite width and `counts` is not empty.
///
/// ```
/// use sarek::algo::histogram::enqueue_histogram_even;
///
/// # fn main() -> sarek::Result<()> {
/// let dev = sarek::Device::new()?;
/// let x = dev.upload(&[-3.0f32, -1.0, 0.0, 2.5, 3.0])?;
/// let mut counts = dev.upload(&[99u32; 3])?;
/// let mut batch = dev.batch();
/// enqueue_histogram_even(&mut batch, &x, -3.0, 3.0, &mut counts)?;
/// batch.submit()?;
/// // Bins [-3, -1), [-1, 1), [1, 3); 3.0 is past the end.
/// assert_eq!(counts.read()?, [1, 2, 1]);
/// # Ok(()) }
/// ```
pub fn enqueue_histogram_even(
    batch: &mut Batch,
    x: &Buffer<f32>,
    lo: f32,
    hi: f32,
    counts: &mut Buffer<u32>,
) -> Result<()> {
    let bins = check_bins("histogram_even", counts.len())?;
    let scale = scale("histogram_even", counts.len(), lo, hi)?;
    kernels::zero_u32.enqueue(batch, Grid::cover(counts.len()), counts)?;
    if x.is_empty() {
        return Ok(());
    }
    let grid = Grid::groups(groups(x.len()));
    kernels::histogram_even_f32.enqueue(batch, grid, x, lo, hi, scale, bins, &*counts)
}

/// The histogram of `x` in `bins` even bins over `[lo, hi)`, as
/// [`enqueue_histogram_even`] counts it, in a new buffer: the work is submitted and not
/// waited for ([`Buffer::read`] waits for it).
///
/// ```
/// use sarek::algo::histogram::histogram_even;
///
/// # fn main() -> sarek::Result<()> {
/// let dev = sarek::Device::new()?;
/// let x: Vec<f32> = (0..1000).map(|i| i as f32 / 1000.0).collect();
/// let counts = histogram_even(&dev, &dev.upload(&x)?, 4, 0.0, 1.0)?;
/// assert_eq!(counts.read()?, [250, 250, 250, 250]);
/// # Ok(()) }
/// ```
pub fn histogram_even(
    dev: &Device,
    x: &Buffer<f32>,
    bins: usize,
    lo: f32,
    hi: f32,
) -> Result<Buffer<u32>> {
    let mut counts = dev.zeros::<u32>(bins)?;
    let mut batch = dev.batch();
    enqueue_histogram_even(&mut batch, x, lo, hi, &mut counts)?;
    batch.submit()?;
    Ok(counts)
}

/// Adds to `batch` the histogram of `keys` into `counts` (which it zeroes first):
/// `counts[k]` is the number of keys equal to `k`, and keys of `counts.len()` or more are
/// dropped. [`Error::BadArguments`](crate::Error::BadArguments) if `counts` is empty.
///
/// ```
/// use sarek::algo::histogram::enqueue_histogram_keys;
///
/// # fn main() -> sarek::Result<()> {
/// let dev = sarek::Device::new()?;
/// let keys = dev.upload(&[0u32, 2, 2, 5])?;
/// let mut counts = dev.zeros::<u32>(3)?;
/// let mut batch = dev.batch();
/// enqueue_histogram_keys(&mut batch, &keys, &mut counts)?;
/// batch.submit()?;
/// assert_eq!(counts.read()?, [1, 0, 2]);
/// # Ok(()) }
/// ```
pub fn enqueue_histogram_keys(
    batch: &mut Batch,
    keys: &Buffer<u32>,
    counts: &mut Buffer<u32>,
) -> Result<()> {
    let bins = check_bins("histogram_keys", counts.len())?;
    kernels::zero_u32.enqueue(batch, Grid::cover(counts.len()), counts)?;
    if keys.is_empty() {
        return Ok(());
    }
    let grid = Grid::groups(groups(keys.len()));
    kernels::histogram_keys_u32.enqueue(batch, grid, keys, bins, &*counts)
}

/// The histogram of `keys` in `bins` bins, as [`enqueue_histogram_keys`] counts it, in a new
/// buffer.
///
/// ```
/// use sarek::algo::histogram::histogram_keys;
///
/// # fn main() -> sarek::Result<()> {
/// let dev = sarek::Device::new()?;
/// let keys: Vec<u32> = (0..10_000).map(|i| i % 7).collect();
/// let counts = histogram_keys(&dev, &dev.upload(&keys)?, 7)?.read()?;
/// assert_eq!(counts.iter().sum::<u32>(), 10_000);
/// assert_eq!(counts[0], 1429);
/// # Ok(()) }
/// ```
pub fn histogram_keys(dev: &Device, keys: &Buffer<u32>, bins: usize) -> Result<Buffer<u32>> {
    let mut counts = dev.zeros::<u32>(bins)?;
    let mut batch = dev.batch();
    enqueue_histogram_keys(&mut batch, keys, &mut counts)?;
    batch.submit()?;
    Ok(counts)
}
