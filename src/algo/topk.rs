//! The `k` largest or smallest elements of a buffer with their indices ([`topk`],
//! [`topk_smallest`], PyTorch's `torch.topk`), for `k` up to [`MAX_K`] and elements `f32`,
//! `i32` or `u32` ([`Item`]).
//!
//! ```
//! use sarek::algo::topk::topk;
//!
//! # fn main() -> sarek::Result<()> {
//! let dev = sarek::Device::new()?;
//! let x = dev.upload(&[0.5f32, 3.0, -1.0, 3.0, 2.0])?;
//! let (values, indices) = topk(&dev, &x, 3)?;
//! assert_eq!(values.read()?, [3.0, 3.0, 2.0]);
//! // Equal values come lowest index first.
//! assert_eq!(indices.read()?, [1, 3, 4]);
//! # Ok(()) }
//! ```
//!
//! # Order
//!
//! The result is sorted: for [`topk`] from the largest down, for [`topk_smallest`] from the
//! smallest up, and equal elements by their index, lowest first, so the result is the first `k`
//! of a stable sort and the same on every device. `f32` is ordered as by [`f32::total_cmp`]:
//! `-0.0` below `0.0`, NaNs with the sign bit clear above `+inf` (so [`topk`] returns them
//! first) and those with it set below `-inf`. `k` past the length is clamped to it: the result
//! of an empty input is empty.
//!
//! # Without waiting
//!
//! [`TopK`] holds the scratch of one length and one `k` and adds the passes to a [`Batch`],
//! into buffers of your own; nothing is read back on the way, so a batch may hold many.
//!
//! # The algorithm
//!
//! A radix select on keys whose unsigned order is the order above (the bits of a `u32`, an
//! `i32` with its sign bit flipped, an `f32` with its sign bit flipped or, when negative, all
//! its bits; all of them flipped for the smallest), extended by the complement of the index to
//! 64 bits so that every element's key is distinct and exactly `k` keys are at least the
//! `k`-th largest:
//!
//! 1. [`kernels::topk_count`] counts, in workgroup memory, the next 8 bits of the keys whose
//!    bits above equal the prefix chosen so far (a grid-stride loop over at most
//!    [`MAX_GROUPS`] workgroups), then adds its 256 counts to the device's;
//! 2. [`kernels::topk_choose`], one workgroup, finds the digit whose bucket holds the
//!    `k`-th largest key, adds it to the prefix and subtracts the keys above it from those still
//!    needed; once the bucket holds exactly as many keys as are needed (at the latest after the
//!    8 digits of the 64-bit key), the selection is complete and later rounds read nothing;
//! 3. [`kernels::topk_gather`] writes the `k` selected keys and indices, in any order;
//! 4. [`kernels::topk_sort`], one workgroup, sorts them in workgroup memory (a bitonic sort of
//!    at most 1024 pairs) and writes the values and indices.
//!
//! On random `f32`s the selection is complete after the 4 digits of the value, so the input is
//! read five times. No workgroup waits for another (WebGPU promises no forward progress between
//! workgroups).

use crate::{Batch, Buffer, Device, Grid, Result};

/// The largest `k`: the selected elements are sorted by one workgroup in 8 KiB of workgroup
/// memory.
pub const MAX_K: usize = 1024;

/// The most workgroups a counting or gathering pass launches (as the histograms do): each
/// thread then loops at most 2^32 / (1024 · 256 · 4) = 4,096 times.
pub const MAX_GROUPS: usize = 1024;

/// The kernels of the top-k passes, public as an example of a library written in Sarek; the
/// host calls of [`crate::algo::topk`] are how they are meant to be used.
#[sarek::module]
pub mod kernels {
    use sarek::prelude::*;
    use std::sync::atomic::{AtomicU32, Ordering};

    /// Where the passes keep their state, in a buffer of [`STATE_LEN`] words: the key bits
    /// chosen so far (the value's 32).
    pub const HI: usize = 0;
    /// The index bits chosen so far (the complement of the index, from the top).
    pub const LO: usize = 1;
    /// How many keys with the chosen prefix are still needed.
    pub const NEED: usize = 2;
    /// How many bits of the 64-bit key select the elements, once known (else 0).
    pub const BITS: usize = 3;
    /// The length of the state buffer.
    pub const STATE_LEN: usize = 4;

    /// The order-preserving key of an element type: `a < b` exactly where `key(a) < key(b)`
    /// as unsigned integers, in the element type's total order.
    pub trait Key<T> {
        /// The key of `v`.
        fn key(v: T) -> u32;
    }
    /// The key of `f32`, in [`f32::total_cmp`]'s order.
    pub struct FloatKey;
    /// The key of `i32`.
    pub struct SignedKey;
    /// The key of `u32`: the value.
    pub struct UnsignedKey;
    impl Key<f32> for FloatKey {
        fn key(v: f32) -> u32 {
            let b = v.to_bits();
            // Negative floats order backwards by their bits, positive ones forwards above them.
            if b >= 0x8000_0000 {
                !b
            } else {
                b | 0x8000_0000
            }
        }
    }
    impl Key<i32> for SignedKey {
        fn key(v: i32) -> u32 {
            (v as u32) ^ 0x8000_0000
        }
    }
    impl Key<u32> for UnsignedKey {
        fn key(v: u32) -> u32 {
            v
        }
    }

    /// Resets the state for `k` elements and zeroes the counts and the gather's slot counter.
    #[sarek::kernel(workgroup_size = [256])]
    pub fn topk_init(k: u32, state: &mut [u32], counts: &mut [u32], slots: &mut [u32]) {
        let t = thread_idx_x();
        counts[t] = 0;
        if t < STATE_LEN {
            state[t] = if t == NEED { k } else { 0 };
        }
        if t == 0 {
            slots[0] = 0;
        }
    }

    /// Round `round` (0 to 7) of the count: how many keys (`K::key(x[i]) ^ flip`, extended by
    /// `!i`) have each value of the round's 8 bits among those whose higher bits equal the
    /// prefix in `state`, added to `counts`. Reads nothing once the selection is complete.
    #[sarek::kernel(workgroup_size = [256])]
    pub fn topk_count<T: Scalar, K: Key<T>>(
        x: &[T],
        flip: u32,
        round: u32,
        state: &[u32],
        counts: &[AtomicU32],
    ) {
        let h = shared::<[AtomicU32; 256]>();
        let t = thread_idx_x();
        let n = x.len();
        let hi = state[HI];
        let lo = state[LO];
        // A complete selection leaves nothing to count: the loop below runs no iteration.
        let end = if state[BITS] != 0 { 0 } else { n };
        // The round's digit is bits `shift..shift + 8` of the key (rounds 0-3) or of the
        // index's complement (rounds 4-7); the prefix is the bits above.
        let in_key = round < 4;
        let r = if in_key { round } else { round - 4 };
        let shift = 24 - 8 * r;
        let stride = grid_dim_x() * 256;
        let mut i = block_idx_x() * 256 + t;
        while i < end {
            // Four loads from clamped indices first, all in flight together, then their counts.
            let mut v = [T::ZERO; 4];
            for k in 0..4 {
                let j = i + k * stride;
                v[k] = x[if j < n { j } else { n - 1 }];
            }
            for k in 0..4 {
                let j = i + k * stride;
                if j < n {
                    let key = K::key(v[k]) ^ flip;
                    let rest = !(j as u32);
                    let word = if in_key { key } else { rest };
                    // The first digit of either word has no prefix within it (and a shift by
                    // 32 is not defined).
                    let prefix_ok =
                        r == 0 || (word >> (shift + 8)) == (if in_key { hi } else { lo });
                    if prefix_ok && (in_key || key == hi) {
                        let d = (word >> shift) & 255;
                        h[d as usize].fetch_add(1, Ordering::Relaxed);
                    }
                }
            }
            i += 4 * stride;
        }
        block_barrier();
        let c = h[t].load(Ordering::Relaxed);
        if c != 0 {
            counts[t].fetch_add(c, Ordering::Relaxed);
        }
    }

    /// Round `round` of the choice, on one workgroup: the digit whose bucket in `counts` holds
    /// the key still needed at rank `state[NEED]` from the top joins the prefix, the keys in
    /// higher buckets are subtracted from those needed, and where the bucket holds exactly the
    /// number needed the selection is complete (`state[BITS]` set). Zeroes `counts` for the
    /// next round.
    #[sarek::kernel(workgroup_size = [256])]
    pub fn topk_choose(round: u32, state: &mut [u32], counts: &mut [u32]) {
        let sa = shared::<[u32; 256]>();
        let sb = shared::<[u32; 256]>();
        let t = thread_idx_x();
        let c = counts[t];
        let need = state[NEED];
        let done = state[BITS] != 0;
        let hi = state[HI];
        let lo = state[LO];
        // Inclusive suffix sums: how many keys lie in bucket `t` or above.
        sa[t] = c;
        block_barrier();
        let mut offset = 1;
        let mut from_a = true;
        while offset < 256 {
            if from_a {
                sb[t] = if t + offset < 256 {
                    sa[t] + sa[t + offset]
                } else {
                    sa[t]
                };
            } else {
                sa[t] = if t + offset < 256 {
                    sb[t] + sb[t + offset]
                } else {
                    sb[t]
                };
            }
            block_barrier();
            from_a = !from_a;
            offset *= 2;
        }
        let at_or_above = if from_a { sa[t] } else { sb[t] };
        let above = at_or_above - c;
        // Exactly one bucket holds the needed key; every thread has read the state above.
        if !done && above < need && need <= at_or_above {
            let d = t as u32;
            if round < 4 {
                state[HI] = (hi << 8) | d;
            } else {
                state[LO] = (lo << 8) | d;
            }
            state[NEED] = need - above;
            if c == need - above {
                state[BITS] = 8 * (round + 1);
            }
        }
        counts[t] = 0;
    }

    /// The gather: each element whose 64-bit key's top `state[BITS]` bits are at least the
    /// chosen prefix (exactly the `k` selected) writes its key and index to the next slot of
    /// `keys` and `idx`, in any order.
    #[sarek::kernel(workgroup_size = [256])]
    pub fn topk_gather<T: Scalar, K: Key<T>>(
        x: &[T],
        flip: u32,
        state: &[u32],
        slots: &[AtomicU32],
        keys: &mut [u32],
        idx: &mut [u32],
    ) {
        let t = thread_idx_x();
        let n = x.len();
        let hi = state[HI];
        let lo = state[LO];
        let bits = state[BITS];
        let stride = grid_dim_x() * 256;
        let mut i = block_idx_x() * 256 + t;
        while i < n {
            let mut v = [T::ZERO; 4];
            for k in 0..4 {
                let j = i + k * stride;
                v[k] = x[if j < n { j } else { n - 1 }];
            }
            for k in 0..4 {
                let j = i + k * stride;
                if j < n {
                    let key = K::key(v[k]) ^ flip;
                    let take = if bits <= 32 {
                        (if bits == 32 { key } else { key >> (32 - bits) }) >= hi
                    } else {
                        key > hi || (key == hi && (!(j as u32) >> (64 - bits)) >= lo)
                    };
                    if take {
                        let s = slots[0].fetch_add(1, Ordering::Relaxed) as usize;
                        if s < keys.len() {
                            keys[s] = key;
                            idx[s] = j as u32;
                        }
                    }
                }
            }
            i += 4 * stride;
        }
    }

    /// The sort, on one workgroup: the `k` gathered pairs (padded to `p`, a power of two of at
    /// most 1024) by key from the largest and index from the lowest, then `out[r] = x[idx]` and
    /// `out_idx[r] = idx` for the first `k`.
    #[sarek::kernel(workgroup_size = [256])]
    pub fn topk_sort<T: Scalar>(
        x: &[T],
        k: u32,
        p: u32,
        keys: &[u32],
        idx: &[u32],
        out: &mut [T],
        out_idx: &mut [u32],
    ) {
        let sk = shared::<[u32; 1024]>();
        let si = shared::<[u32; 1024]>();
        let t = thread_idx_x();
        let k = k as usize;
        let p = p as usize;
        for q in 0..4 {
            let l = q * 256 + t;
            // Padding sorts after every real pair: the smallest key, the largest index.
            sk[l] = if l < k { keys[l] } else { 0 };
            si[l] = if l < k { idx[l] } else { u32::MAX };
        }
        block_barrier();
        let mut size = 2;
        while size <= p {
            let mut j = size / 2;
            while j > 0 {
                for q in 0..2 {
                    let pair = q * 256 + t;
                    if pair < p / 2 {
                        let a = (pair / j) * 2 * j + pair % j;
                        let b = a + j;
                        let (ka, ia, kb, ib) = (sk[a], si[a], sk[b], si[b]);
                        let a_first = ka > kb || (ka == kb && ia < ib);
                        // Blocks alternate direction until the last merge, which is all one way.
                        let forward = (a & size) == 0;
                        if a_first != forward {
                            sk[a] = kb;
                            si[a] = ib;
                            sk[b] = ka;
                            si[b] = ia;
                        }
                    }
                }
                block_barrier();
                j /= 2;
            }
            size *= 2;
        }
        for q in 0..4 {
            let l = q * 256 + t;
            if l < k {
                let i = si[l];
                out_idx[l] = i;
                out[l] = x[i as usize];
            }
        }
    }
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for i32 {}
    impl Sealed for u32 {}
}

/// The element types top-k has instances for: `f32`, `i32` and `u32`. Sealed: its methods add
/// one pass of one instance to a batch.
pub trait Item: crate::gpu::Scalar + sealed::Sealed {
    /// Adds one round of [`kernels::topk_count`] of this type's instance to `batch`.
    #[doc(hidden)]
    fn enqueue_count(
        batch: &mut Batch,
        x: &Buffer<Self>,
        flip: u32,
        round: u32,
        state: &Buffer<u32>,
        counts: &Buffer<u32>,
    ) -> Result<()>;

    /// Adds [`kernels::topk_gather`] of this type's instance to `batch`.
    #[doc(hidden)]
    fn enqueue_gather(
        batch: &mut Batch,
        x: &Buffer<Self>,
        flip: u32,
        state_slots: [&Buffer<u32>; 2],
        keys: &mut Buffer<u32>,
        idx: &mut Buffer<u32>,
    ) -> Result<()>;

    /// Adds [`kernels::topk_sort`] of this type's instance to `batch`.
    #[doc(hidden)]
    fn enqueue_sort(
        batch: &mut Batch,
        x: &Buffer<Self>,
        k: usize,
        keys_idx: [&Buffer<u32>; 2],
        values: &mut Buffer<Self>,
        indices: &mut Buffer<u32>,
    ) -> Result<()>;
}

/// The workgroups of a pass over `n` elements: 16 a thread (four rounds of four), at most
/// [`MAX_GROUPS`].
fn groups(n: usize) -> usize {
    n.div_ceil(256 * 16).clamp(1, MAX_GROUPS)
}

macro_rules! item {
    ($t:ty, $key:ty) => {
        impl Item for $t {
            fn enqueue_count(
                batch: &mut Batch,
                x: &Buffer<$t>,
                flip: u32,
                round: u32,
                state: &Buffer<u32>,
                counts: &Buffer<u32>,
            ) -> Result<()> {
                kernels::topk_count.enqueue::<$t, $key>(
                    batch,
                    Grid::groups(groups(x.len())),
                    x,
                    flip,
                    round,
                    state,
                    counts,
                )
            }

            fn enqueue_gather(
                batch: &mut Batch,
                x: &Buffer<$t>,
                flip: u32,
                [state, slots]: [&Buffer<u32>; 2],
                keys: &mut Buffer<u32>,
                idx: &mut Buffer<u32>,
            ) -> Result<()> {
                kernels::topk_gather.enqueue::<$t, $key>(
                    batch,
                    Grid::groups(groups(x.len())),
                    x,
                    flip,
                    state,
                    slots,
                    keys,
                    idx,
                )
            }

            fn enqueue_sort(
                batch: &mut Batch,
                x: &Buffer<$t>,
                k: usize,
                [keys, idx]: [&Buffer<u32>; 2],
                values: &mut Buffer<$t>,
                indices: &mut Buffer<u32>,
            ) -> Result<()> {
                kernels::topk_sort.enqueue::<$t>(
                    batch,
                    Grid::groups(1),
                    x,
                    k as u32,
                    k.next_power_of_two() as u32,
                    keys,
                    idx,
                    values,
                    indices,
                )
            }
        }
    };
}

item!(f32, kernels::FloatKey);
item!(i32, kernels::SignedKey);
item!(u32, kernels::UnsignedKey);

/// The scratch of top-k over inputs of `len` elements for one `k`: make one and reuse it, so
/// that a top-k allocates nothing. [`TopK::enqueue_largest`] and [`TopK::enqueue_smallest`]
/// add the passes to a [`Batch`] and wait for nothing.
///
/// ```
/// use sarek::algo::topk::TopK;
///
/// # fn main() -> sarek::Result<()> {
/// let dev = sarek::Device::new()?;
/// let x = dev.upload(&[4i32, -7, 9, 0, 9, -7])?;
/// let mut top = TopK::new(&dev, x.len(), 2)?;
/// let (mut values, mut indices) = (dev.zeros::<i32>(2)?, dev.zeros::<u32>(2)?);
/// let mut batch = dev.batch();
/// top.enqueue_smallest(&mut batch, &x, &mut values, &mut indices)?;
/// batch.submit()?;
/// assert_eq!(values.read()?, [-7, -7]);
/// assert_eq!(indices.read()?, [1, 5]);
/// # Ok(()) }
/// ```
pub struct TopK {
    /// The number of elements of each input.
    len: usize,
    /// How many elements the result holds: the `k` asked for, at most `len`.
    k: usize,
    /// The radix select's state (see [`kernels::HI`]).
    state: Buffer<u32>,
    /// The 256 counts of a round.
    counts: Buffer<u32>,
    /// The gather's next free slot.
    slots: Buffer<u32>,
    /// The gathered keys.
    keys: Buffer<u32>,
    /// The gathered indices.
    idx: Buffer<u32>,
}

impl TopK {
    /// Scratch for the `k` largest or smallest of inputs of `len` elements on `dev`; `k` past
    /// `len` is clamped to it; [`Error::BadArguments`](crate::Error::BadArguments) if `k` is more
    /// than [`MAX_K`].
    ///
    /// ```
    /// # fn main() -> sarek::Result<()> {
    /// let dev = sarek::Device::new()?;
    /// let top = sarek::algo::topk::TopK::new(&dev, 10, 100)?;
    /// assert_eq!((top.len(), top.k()), (10, 10));
    /// # Ok(()) }
    /// ```
    pub fn new(dev: &Device, len: usize, k: usize) -> Result<TopK> {
        if k > MAX_K {
            return Err(super::bad_arguments(
                "topk",
                format!("top-k takes k up to {MAX_K}, not {k}"),
            ));
        }
        let k = k.min(len);
        Ok(TopK {
            len,
            k,
            state: dev.zeros(kernels::STATE_LEN)?,
            counts: dev.zeros(256)?,
            slots: dev.zeros(1)?,
            keys: dev.zeros(k.max(1))?,
            idx: dev.zeros(k.max(1))?,
        })
    }

    /// The number of elements of the inputs this scratch serves.
    ///
    /// ```
    /// # fn main() -> sarek::Result<()> {
    /// let dev = sarek::Device::new()?;
    /// assert_eq!(sarek::algo::topk::TopK::new(&dev, 5000, 7)?.len(), 5000);
    /// # Ok(()) }
    /// ```
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the inputs this scratch serves are empty (and the results too).
    ///
    /// ```
    /// # fn main() -> sarek::Result<()> {
    /// let dev = sarek::Device::new()?;
    /// assert!(sarek::algo::topk::TopK::new(&dev, 0, 5)?.is_empty());
    /// # Ok(()) }
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// How many elements a result holds: the `k` asked for, clamped to the length.
    ///
    /// ```
    /// # fn main() -> sarek::Result<()> {
    /// let dev = sarek::Device::new()?;
    /// assert_eq!(sarek::algo::topk::TopK::new(&dev, 3, 1024)?.k(), 3);
    /// assert_eq!(sarek::algo::topk::TopK::new(&dev, 3000, 64)?.k(), 64);
    /// # Ok(()) }
    /// ```
    pub fn k(&self) -> usize {
        self.k
    }

    /// Adds the passes to `batch`, with keys flipped by `flip`.
    fn enqueue<T: Item>(
        &mut self,
        batch: &mut Batch,
        x: &Buffer<T>,
        flip: u32,
        values: &mut Buffer<T>,
        indices: &mut Buffer<u32>,
    ) -> Result<()> {
        if x.len() != self.len {
            return Err(super::bad_arguments(
                "topk",
                format!(
                    "the top-k's scratch was made for {} elements, not {}",
                    self.len,
                    x.len()
                ),
            ));
        }
        for (what, len) in [("values", values.len()), ("indices", indices.len())] {
            if len < self.k {
                return Err(super::bad_arguments(
                    "topk",
                    format!("`{what}` holds {len} elements, fewer than k = {}", self.k),
                ));
            }
        }
        if self.k == 0 {
            return Ok(());
        }
        let one = Grid::groups(1);
        kernels::topk_init.enqueue(
            batch,
            one,
            self.k as u32,
            &mut self.state,
            &mut self.counts,
            &mut self.slots,
        )?;
        for round in 0..8 {
            T::enqueue_count(batch, x, flip, round, &self.state, &self.counts)?;
            kernels::topk_choose.enqueue(batch, one, round, &mut self.state, &mut self.counts)?;
        }
        T::enqueue_gather(
            batch,
            x,
            flip,
            [&self.state, &self.slots],
            &mut self.keys,
            &mut self.idx,
        )?;
        T::enqueue_sort(batch, x, self.k, [&self.keys, &self.idx], values, indices)
    }

    /// Adds a top-k to `batch`: the [`k`](TopK::k) largest elements of `x`, from the largest
    /// down (equal ones lowest index first, `f32` by [`f32::total_cmp`]), to the start of
    /// `values`, and their indices in `x` to the start of `indices` (each holding at least `k`
    /// elements; the rest is left as it was).
    ///
    /// ```
    /// use sarek::algo::topk::TopK;
    ///
    /// # fn main() -> sarek::Result<()> {
    /// let dev = sarek::Device::new()?;
    /// let x = dev.upload(&[2.0f32, f32::INFINITY, -0.0, 0.0, 7.5])?;
    /// let mut top = TopK::new(&dev, 5, 4)?;
    /// let (mut values, mut indices) = (dev.zeros::<f32>(5)?, dev.zeros::<u32>(5)?);
    /// let mut batch = dev.batch();
    /// top.enqueue_largest(&mut batch, &x, &mut values, &mut indices)?;
    /// batch.submit()?;
    /// assert_eq!(values.read_range(0..4)?, [f32::INFINITY, 7.5, 2.0, 0.0]);
    /// assert_eq!(indices.read_range(0..4)?, [1, 4, 0, 3]);
    /// # Ok(()) }
    /// ```
    pub fn enqueue_largest<T: Item>(
        &mut self,
        batch: &mut Batch,
        x: &Buffer<T>,
        values: &mut Buffer<T>,
        indices: &mut Buffer<u32>,
    ) -> Result<()> {
        self.enqueue(batch, x, 0, values, indices)
    }

    /// [`TopK::enqueue_largest`] for the `k` smallest elements, from the smallest up (equal ones
    /// lowest index first).
    ///
    /// ```
    /// use sarek::algo::topk::TopK;
    ///
    /// # fn main() -> sarek::Result<()> {
    /// let dev = sarek::Device::new()?;
    /// let x = dev.upload(&[5u32, 1, 8, 1, 0])?;
    /// let mut top = TopK::new(&dev, 5, 3)?;
    /// let (mut values, mut indices) = (dev.zeros::<u32>(3)?, dev.zeros::<u32>(3)?);
    /// let mut batch = dev.batch();
    /// top.enqueue_smallest(&mut batch, &x, &mut values, &mut indices)?;
    /// batch.submit()?;
    /// assert_eq!(values.read()?, [0, 1, 1]);
    /// assert_eq!(indices.read()?, [4, 1, 3]);
    /// # Ok(()) }
    /// ```
    pub fn enqueue_smallest<T: Item>(
        &mut self,
        batch: &mut Batch,
        x: &Buffer<T>,
        values: &mut Buffer<T>,
        indices: &mut Buffer<u32>,
    ) -> Result<()> {
        self.enqueue(batch, x, u32::MAX, values, indices)
    }
}

/// Runs a top-k into new buffers of exactly `k` (clamped) elements.
fn run<T: Item>(
    dev: &Device,
    x: &Buffer<T>,
    k: usize,
    flip: u32,
) -> Result<(Buffer<T>, Buffer<u32>)> {
    let mut top = TopK::new(dev, x.len(), k)?;
    let (mut values, mut indices) = (dev.zeros::<T>(top.k)?, dev.zeros::<u32>(top.k)?);
    let mut batch = dev.batch();
    top.enqueue(&mut batch, x, flip, &mut values, &mut indices)?;
    batch.submit()?;
    Ok((values, indices))
}

/// The `k` largest elements of `x` and their indices, from the largest down, equal ones lowest
/// index first (`torch.topk(x, k)`, with a deterministic order of ties); `f32` is ordered by
/// [`f32::total_cmp`], so NaNs with the sign bit clear come before `+inf`. `k` past the length
/// is clamped to it; [`Error::BadArguments`](crate::Error::BadArguments) if `k` is more than
/// [`MAX_K`]. The work is submitted, not waited for ([`Buffer::read`] waits).
///
/// ```
/// use sarek::algo::topk::topk;
///
/// # fn main() -> sarek::Result<()> {
/// let dev = sarek::Device::new()?;
/// // A permutation of 0..100_000.
/// let x: Vec<u32> = (0..100_000u32).map(|i| (i * 7919) % 100_000).collect();
/// let (values, indices) = topk(&dev, &dev.upload(&x)?, 3)?;
/// assert_eq!(values.read()?, [99_999, 99_998, 99_997]);
/// for (v, i) in values.read()?.iter().zip(indices.read()?) {
///     assert_eq!(x[i as usize], *v);
/// }
/// // Past the length, k is the length.
/// assert_eq!(topk(&dev, &dev.upload(&[1.0f32, f32::NAN])?, 5)?.1.read()?, [1, 0]);
/// # Ok(()) }
/// ```
pub fn topk<T: Item>(dev: &Device, x: &Buffer<T>, k: usize) -> Result<(Buffer<T>, Buffer<u32>)> {
    run(dev, x, k, 0)
}

/// The `k` smallest elements of `x` and their indices, from the smallest up, equal ones lowest
/// index first (`torch.topk(x, k, largest=False)`); otherwise as [`topk`].
///
/// ```
/// use sarek::algo::topk::topk_smallest;
///
/// # fn main() -> sarek::Result<()> {
/// let dev = sarek::Device::new()?;
/// let x = dev.upload(&[3i32, i32::MIN, -4, 3, i32::MAX])?;
/// let (values, indices) = topk_smallest(&dev, &x, 4)?;
/// assert_eq!(values.read()?, [i32::MIN, -4, 3, 3]);
/// assert_eq!(indices.read()?, [1, 2, 0, 3]);
/// # Ok(()) }
/// ```
pub fn topk_smallest<T: Item>(
    dev: &Device,
    x: &Buffer<T>,
    k: usize,
) -> Result<(Buffer<T>, Buffer<u32>)> {
    run(dev, x, k, u32::MAX)
}
