//! A stable radix sort on the device, written in Sarek: keys of `u32`, `i32`, `f32` or `f16`,
//! alone or with 4-byte values, in ascending or descending order.
//!
//! ```
//! use sarek::{algo, Device};
//!
//! # fn main() -> sarek::Result<()> {
//! let dev = Device::new()?;
//! let mut keys = dev.upload(&[3.5f32, -1.0, f32::INFINITY, -0.0, 0.0, 2.0])?;
//! algo::sort(&dev, &mut keys)?;
//! assert_eq!(keys.read()?, [-1.0, -0.0, 0.0, 2.0, 3.5, f32::INFINITY]);
//!
//! // Values follow their keys; equal keys keep their order (the sort is stable).
//! let mut keys = dev.upload(&[2u32, 1, 2, 0])?;
//! let mut values = dev.upload(&[10u32, 11, 12, 13])?;
//! algo::sort_pairs_descending(&dev, &mut keys, &mut values)?;
//! assert_eq!(keys.read()?, [2, 2, 1, 0]);
//! assert_eq!(values.read()?, [10, 12, 11, 13]);
//! # Ok(())
//! # }
//! ```
//!
//! The order is the key type's total order: `i32` as signed integers, `f32` and `f16` as IEEE
//! 754's `totalOrder` (Rust's [`f32::total_cmp`]: `-NaN < -∞ < … < -0.0 < +0.0 < … < +∞ <
//! +NaN`), and the bits of every key and value come back unchanged (NaN payloads included).
//! Descending order is the reverse of the key order with equal keys still in their original
//! order, as `sort_by(|a, b| b.cmp(a))` gives.
//!
//! # How it works
//!
//! A least-significant-digit radix sort with 4-bit digits: eight passes for 32-bit keys (four
//! for `f16`), each a stable counting sort by one digit, between the caller's buffer and a
//! scratch one (an even number of passes, so the result ends where it started). A pass is
//! five launches
//! that never wait for one another's workgroups (no forward progress between workgroups is
//! assumed, which WebGPU does not promise), over tiles of [`TILE`] keys:
//!
//! 1. [`sort_upsweep`]: each tile counts its keys per digit, into a digit-major table
//!    (`counts[digit * tiles + tile]`);
//! 2. [`sort_count_reduce`], [`sort_count_carry`], [`sort_count_apply`]: an exclusive scan of
//!    that table, which gives each tile the place of its first key of each digit;
//! 3. [`sort_downsweep`]: each tile ranks its keys by digit in workgroup memory (each thread
//!    counts its eight consecutive keys in counters of its own, packed two 16-bit digits a
//!    word; a scan across the workgroup turns the counts into ranks), puts them in sorted
//!    order in workgroup memory, and writes each digit's run to its place with consecutive
//!    threads writing consecutive addresses; values follow the same permutation.
//!
//! Keys are read and written as their bits: the order comes from mapping the bits to an
//! unsigned integer of the same order (`i32`: the sign bit flipped; `f32`: all bits flipped
//! for negative values, the sign bit otherwise; descending: every bit flipped besides), which
//! each pass computes as it reads a key, so no pass converts the keys themselves. Everything
//! is core WebGPU (no extension, 10 KiB of workgroup memory) and runs the same on the CPU
//! backend.
//!
//! `f16` keys are sorted as their bits, so a device needs no `SHADER_F16` for them: a buffer
//! of halves is viewed as the words that hold them two a word, [`sort_widen_halves`] gives
//! each key a word of its own, four passes sort those, and [`sort_narrow_halves`] writes them
//! back two a word. The CPU backend has no such view of a buffer, so there
//! [`Sorter::run`] and the plain calls move the halves through the host around the same
//! launches, and [`Sorter::record`] of `f16` keys is [`Error::NotOnCpu`].
//!
//! On an H200, sorting 2^26 random `u32` keys takes 4.9 ms (13.7 Gkeys/s) and 2^26 pairs of
//! `u32`s 6.1 ms (the benchmark suite's `sort` rows).

use std::marker::PhantomData;
use std::sync::atomic::{AtomicU32, Ordering};

use crate::__private::{enqueue, Arg};
use crate::prelude::*;
use crate::{Batch, Element, Error, Launch, Result};

/// The keys one workgroup of [`sort_upsweep`] and [`sort_downsweep`] covers: 256 threads,
/// eight keys each.
pub const TILE: usize = 2048;

/// The counts [`sort_count_reduce`] and [`sort_count_apply`] cover per workgroup.
const SCAN_TILE: usize = 2048;

/// The bits of one digit.
const DIGIT_BITS: u32 = 4;

/// Pass 1: how many keys of each tile have each digit, into `counts[digit * tiles + tile]`.
/// A key's digit is bits `shift..shift + 4` of `(key ^ flip) ^ (negative_mask & fneg)`, where
/// `negative_mask` is all ones when the key's bit `sign` is set (the order-preserving map of
/// the key type; see the module's documentation).
#[sarek::kernel(workgroup_size = [256])]
pub fn sort_upsweep(
    keys: &[u32],
    counts: &mut [u32],
    shift: u32,
    flip: u32,
    fneg: u32,
    sign: u32,
    tiles: u32,
) {
    // Eight copies of the 16 counters, so that fewer threads add to the same one at once.
    let hist = shared::<[AtomicU32; 128]>();
    let t = thread_idx_x();
    let g = block_idx_x();
    let n = keys.len();
    let copy = (t % 8) * 16;
    for k in 0..8 {
        let i = g * 2048 + k * 256 + t;
        let at = if i < n { i } else { n - 1 };
        let b = keys[at];
        let neg = 0u32.wrapping_sub((b >> sign) & 1);
        let d = (((b ^ flip) ^ (neg & fneg)) >> shift) & 15;
        if i < n {
            hist[copy + d as usize].fetch_add(1, Ordering::Relaxed);
        }
    }
    block_barrier();
    if t < 16 {
        let mut s = 0u32;
        for c in 0..8 {
            s += hist[c * 16 + t].load(Ordering::Relaxed);
        }
        counts[t * tiles as usize + g] = s;
    }
}

/// Scan pass 1: the sum of each block of 2048 counts into `sums[block]`.
#[sarek::kernel(workgroup_size = [256])]
pub fn sort_count_reduce(counts: &[u32], sums: &mut [u32]) {
    let tree = shared::<[u32; 256]>();
    let t = thread_idx_x();
    let g = block_idx_x();
    let m = counts.len();
    let mut s = 0u32;
    for k in 0..8 {
        let i = g * 2048 + k * 256 + t;
        let at = if i < m { i } else { m - 1 };
        let v = counts[at];
        s += if i < m { v } else { 0 };
    }
    tree[t] = s;
    block_barrier();
    let mut h = 128;
    while h > 0 {
        if t < h {
            tree[t] += tree[t + h];
        }
        block_barrier();
        h /= 2;
    }
    if t == 0 {
        sums[g] = tree[0];
    }
}

/// Scan pass 2, on one workgroup: the exclusive scan of `sums` in place, 2048 at a time
/// (each thread eight consecutive ones), carrying the total from chunk to chunk.
#[sarek::kernel(workgroup_size = [256])]
pub fn sort_count_carry(sums: &mut [u32]) {
    let part = shared::<[u32; 256]>();
    let t = thread_idx_x();
    let m = sums.len();
    let mut carry = 0u32;
    let mut c0 = 0;
    while c0 < m {
        let first = c0 + t * 8;
        let mut v = [0u32; 8];
        let mut total = 0u32;
        for k in 0..8 {
            let i = first + k;
            let at = if i < m { i } else { m - 1 };
            let x = sums[at];
            v[k] = total;
            total += if i < m { x } else { 0 };
        }
        // An inclusive scan of the threads' totals (Hillis and Steele, in place: read, wait,
        // write, wait).
        let mut run = total;
        part[t] = run;
        block_barrier();
        let mut offset = 1;
        while offset < 256 {
            let other = if t >= offset { part[t - offset] } else { 0 };
            block_barrier();
            run += other;
            part[t] = run;
            block_barrier();
            offset *= 2;
        }
        let chunk = part[255];
        let before = carry + run - total;
        for k in 0..8 {
            if first + k < m {
                sums[first + k] = v[k] + before;
            }
        }
        carry += chunk;
        block_barrier();
        c0 += 2048;
    }
}

/// Scan pass 3: the exclusive scan of each block of 2048 counts in place, plus `sums[block]`,
/// the total of the blocks before it (each thread eight consecutive counts).
#[sarek::kernel(workgroup_size = [256])]
pub fn sort_count_apply(counts: &mut [u32], sums: &[u32]) {
    let part = shared::<[u32; 256]>();
    let t = thread_idx_x();
    let g = block_idx_x();
    let m = counts.len();
    let first = g * 2048 + t * 8;
    let mut v = [0u32; 8];
    let mut total = 0u32;
    for k in 0..8 {
        let i = first + k;
        let at = if i < m { i } else { m - 1 };
        let x = counts[at];
        v[k] = total;
        total += if i < m { x } else { 0 };
    }
    let mut run = total;
    part[t] = run;
    block_barrier();
    let mut offset = 1;
    while offset < 256 {
        let other = if t >= offset { part[t - offset] } else { 0 };
        block_barrier();
        run += other;
        part[t] = run;
        block_barrier();
        offset *= 2;
    }
    let before = sums[g] + run - total;
    for k in 0..8 {
        if first + k < m {
            counts[first + k] = v[k] + before;
        }
    }
}

/// Pass 3: each tile's keys (and, when `with_values` is not 0, their values) moved to their
/// places in `keys_out` (`values_out`), stably by the digit [`sort_upsweep`] counted;
/// `offsets` is the exclusive scan of its counts.
#[sarek::kernel(workgroup_size = [256])]
#[allow(clippy::too_many_arguments)]
pub fn sort_downsweep(
    keys: &[u32],
    values: &[u32],
    offsets: &[u32],
    keys_out: &mut [u32],
    values_out: &mut [u32],
    shift: u32,
    flip: u32,
    fneg: u32,
    sign: u32,
    tiles: u32,
    with_values: u32,
) {
    // The counters (word `w * 256 + t` holds thread `t`'s counts of digits `w` and `w + 8`,
    // 16 bits each), then the tile in sorted order.
    let stage = shared::<[u32; 2048]>();
    let part = shared::<[u32; 256]>();
    let starts = shared::<[u32; 16]>();
    let t = thread_idx_x();
    let g = block_idx_x();
    let n = keys.len();
    let first = g * 2048;
    let valid = (n - first).min(2048);
    // Thread `t` holds keys `8t .. 8t + 8` of the tile, so that the order of (thread, key)
    // is the order of the input, which makes the ranking stable. A key past the end gets
    // digit 15: it ranks after every real key and is never written.
    let mut key = [0u32; 8];
    let mut dig = [0u32; 8];
    for k in 0..8 {
        let i = first + t * 8 + k;
        let at = if i < n { i } else { n - 1 };
        let b = keys[at];
        let neg = 0u32.wrapping_sub((b >> sign) & 1);
        let d = (((b ^ flip) ^ (neg & fneg)) >> shift) & 15;
        key[k] = b;
        dig[k] = if i < n { d } else { 15 };
    }
    for w in 0..8 {
        stage[w * 256 + t] = 0;
    }
    block_barrier();
    // Each key's rank among the earlier keys of its thread with the same digit.
    let mut rank = [0u32; 8];
    for k in 0..8 {
        let d = dig[k];
        let at = (d & 7) as usize * 256 + t;
        let half = (d >> 3) * 16;
        let word = stage[at];
        rank[k] = (word >> half) & 65535;
        stage[at] = word + (1u32 << half);
    }
    block_barrier();
    // An exclusive scan of the counters in word order (digit-major, then thread): each
    // thread scans eight consecutive words, then the threads' totals are scanned. The two
    // halves of a word are scanned at once; neither overflows, since a tile has 2048 keys.
    let mut v = [0u32; 8];
    let mut total = 0u32;
    for k in 0..8 {
        let x = stage[t * 8 + k];
        v[k] = total;
        total += x;
    }
    let mut run = total;
    part[t] = run;
    block_barrier();
    let mut offset = 1;
    while offset < 256 {
        let other = if t >= offset { part[t - offset] } else { 0 };
        block_barrier();
        run += other;
        part[t] = run;
        block_barrier();
        offset *= 2;
    }
    // The keys of digits 0..8 (the low halves) come before those of digits 8..16.
    let low = part[255] & 65535;
    let before = run - total;
    for k in 0..8 {
        stage[t * 8 + k] = v[k] + before;
    }
    block_barrier();
    for k in 0..8 {
        let d = dig[k];
        let half = (d >> 3) * 16;
        let base = (stage[(d & 7) as usize * 256 + t] >> half) & 65535;
        rank[k] += base + if d >= 8 { low } else { 0 };
    }
    if t < 16 {
        // Where each digit's run starts in the sorted tile: its counter at thread 0.
        let d = t as u32;
        let half = (d >> 3) * 16;
        let base = (stage[(d & 7) as usize * 256] >> half) & 65535;
        starts[t] = base + if d >= 8 { low } else { 0 };
    }
    block_barrier();
    for k in 0..8 {
        stage[rank[k] as usize] = key[k];
    }
    block_barrier();
    // Sorted position `j = 256k + t`: consecutive threads write consecutive places of one
    // digit's run.
    let mut dest = [0u32; 8];
    for k in 0..8 {
        let j = k * 256 + t;
        let b = stage[j];
        let neg = 0u32.wrapping_sub((b >> sign) & 1);
        let d = ((((b ^ flip) ^ (neg & fneg)) >> shift) & 15) as usize;
        if j < valid {
            let at = offsets[d * tiles as usize + g] + (j as u32 - starts[d]);
            keys_out[at as usize] = b;
            dest[k] = at;
        }
    }
    if with_values != 0 {
        let mut val = [0u32; 8];
        for k in 0..8 {
            let i = first + t * 8 + k;
            let at = if i < n { i } else { n - 1 };
            val[k] = values[at];
        }
        block_barrier();
        for k in 0..8 {
            stage[rank[k] as usize] = val[k];
        }
        block_barrier();
        for k in 0..8 {
            let j = k * 256 + t;
            if j < valid {
                values_out[dest[k] as usize] = stage[j];
            }
        }
    }
}

/// `f16` keys, before the passes: `keys[i]` = the bits of half `i` of `words` (two a word,
/// the first in the low half), zero-extended.
#[sarek::kernel(workgroup_size = [256])]
pub fn sort_widen_halves(words: &[u32], keys: &mut [u32]) {
    let i = global_thread_id();
    if i < keys.len() {
        keys[i] = (words[i / 2] >> ((i as u32 & 1) * 16)) & 65535;
    }
}

/// `f16` keys, after the passes: each word of `words` made of two sorted halves of `keys`
/// (one thread a word, so that no two threads write one word); the high half of a last word
/// past the keys keeps its bits.
#[sarek::kernel(workgroup_size = [256])]
pub fn sort_narrow_halves(keys: &[u32], words: &mut [u32]) {
    let j = global_thread_id();
    let n = keys.len();
    if j < words.len() {
        let low = keys[2 * j] & 65535;
        let high = if 2 * j + 1 < n {
            keys[2 * j + 1] & 65535
        } else {
            words[j] >> 16
        };
        words[j] = low | (high << 16);
    }
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for u32 {}
    impl Sealed for i32 {}
    impl Sealed for f32 {}
    impl Sealed for half::f16 {}
}

/// A type [`Sorter`] sorts by: `u32`, `i32`, `f32` and `f16` ([`half::f16`]), each in its
/// total order (for the floats, IEEE 754's `totalOrder`, as [`f32::total_cmp`]). Sealed: the
/// passes know each type's order by its bits.
///
/// ```
/// use sarek::algo::sort::SortKey;
/// use sarek::{Buffer, Device};
///
/// // The smallest key of any sortable type.
/// fn smallest<K: SortKey>(dev: &Device, keys: &[K]) -> sarek::Result<K> {
///     let mut buf: Buffer<K> = dev.upload(keys)?;
///     sarek::algo::sort(dev, &mut buf)?;
///     Ok(buf.read()?[0])
/// }
///
/// # fn main() -> sarek::Result<()> {
/// let dev = Device::new()?;
/// assert_eq!(smallest(&dev, &[3u32, 1, 2])?, 1);
/// let h = sarek::f16::from_f32;
/// assert_eq!(smallest(&dev, &[h(0.5), h(-8.0), h(2.0)])?, h(-8.0));
/// # Ok(())
/// # }
/// ```
pub trait SortKey: Element + sealed::Sealed {
    /// The bits of a key: 32, or 16 for `f16`.
    #[doc(hidden)]
    const BITS: u32;
    /// XORed into every key's bits before its digits are taken.
    #[doc(hidden)]
    const FLIP: u32;
    /// XORed in as well when the key's top bit is set.
    #[doc(hidden)]
    const NEGATIVE: u32;
}

impl SortKey for u32 {
    const BITS: u32 = 32;
    const FLIP: u32 = 0;
    const NEGATIVE: u32 = 0;
}

impl SortKey for i32 {
    const BITS: u32 = 32;
    const FLIP: u32 = 0x8000_0000;
    const NEGATIVE: u32 = 0;
}

impl SortKey for f32 {
    const BITS: u32 = 32;
    const FLIP: u32 = 0x8000_0000;
    const NEGATIVE: u32 = 0x7fff_ffff;
}

impl SortKey for half::f16 {
    const BITS: u32 = 16;
    const FLIP: u32 = 0x8000;
    const NEGATIVE: u32 = 0x7fff;
}

/// Which way a sort orders its keys.
///
/// ```
/// use sarek::algo::sort::{Order, Sorter};
/// use sarek::Device;
///
/// # fn main() -> sarek::Result<()> {
/// let dev = Device::new()?;
/// let mut keys = dev.upload(&[-3i32, 7, 0])?;
/// Sorter::<i32>::new(&dev, 3)?.order(Order::Descending).run(&mut keys)?;
/// assert_eq!(keys.read()?, [7, 0, -3]);
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Order {
    /// Smallest key first.
    #[default]
    Ascending,
    /// Largest key first; equal keys still in their original order.
    Descending,
}

/// A radix sort of `len` keys of type `K` with its scratch buffers: make one per length and
/// reuse it, so that a sort allocates nothing; [`Sorter::record`] adds the sort to a
/// [`Batch`] without waiting.
///
/// ```
/// use sarek::algo::sort::Sorter;
/// use sarek::Device;
///
/// # fn main() -> sarek::Result<()> {
/// let dev = Device::new()?;
/// let mut sorter = Sorter::<u32>::new(&dev, 5)?;
/// let mut keys = dev.upload(&[50u32, 10, 40, 20, 30])?;
/// let mut values = dev.upload(&[5.0f32, 1.0, 4.0, 2.0, 3.0])?;
/// let mut batch = dev.batch();
/// sorter.record_pairs(&mut batch, &mut keys, &mut values)?;
/// batch.submit()?.wait()?;
/// assert_eq!(keys.read()?, [10, 20, 30, 40, 50]);
/// assert_eq!(values.read()?, [1.0, 2.0, 3.0, 4.0, 5.0]);
/// # Ok(())
/// # }
/// ```
pub struct Sorter<K: SortKey> {
    /// The number of keys sorted.
    len: usize,
    /// Ascending or descending.
    order: Order,
    /// The keys between passes.
    keys: Buffer<u32>,
    /// The values between passes, made at the first sort of pairs.
    values: Option<Buffer<u32>>,
    /// `f16` keys widened to a word each, made at the first sort of them.
    wide: Option<Buffer<u32>>,
    /// One element each, bound in place of the values when there are none.
    none: Buffer<u32>,
    none_out: Buffer<u32>,
    /// The digit counts of every tile, then their exclusive scan.
    counts: Buffer<u32>,
    /// The sums of blocks of counts, then their exclusive scan.
    sums: Buffer<u32>,
    /// Whether the passes' pipelines were made ([`Device::prepare`]).
    prepared: bool,
    /// The key type.
    key: PhantomData<K>,
}

impl<K: SortKey> std::fmt::Debug for Sorter<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sorter")
            .field("key", &std::any::type_name::<K>())
            .field("len", &self.len)
            .field("order", &self.order)
            .finish()
    }
}

impl<K: SortKey> Sorter<K> {
    /// Scratch for ascending sorts of `len` keys on `dev` (a buffer of `len` keys, the digit
    /// counts, and a buffer of `len` values made at the first sort of pairs).
    ///
    /// ```
    /// # fn main() -> sarek::Result<()> {
    /// let dev = sarek::Device::new()?;
    /// let sorter = sarek::algo::sort::Sorter::<f32>::new(&dev, 1 << 20)?;
    /// assert_eq!(sorter.len(), 1 << 20);
    /// # Ok(())
    /// # }
    /// ```
    pub fn new(dev: &Device, len: usize) -> Result<Sorter<K>> {
        let tiles = len.div_ceil(TILE).max(1);
        let counts = tiles << DIGIT_BITS;
        Ok(Sorter {
            len,
            order: Order::Ascending,
            keys: dev.zeros(len.max(1))?,
            values: None,
            wide: None,
            none: dev.zeros(1)?,
            none_out: dev.zeros(1)?,
            counts: dev.zeros(counts)?,
            sums: dev.zeros(counts.div_ceil(SCAN_TILE))?,
            prepared: false,
            key: PhantomData,
        })
    }

    /// The same sorter, sorting in `order`.
    ///
    /// ```
    /// use sarek::algo::sort::{Order, Sorter};
    /// # fn main() -> sarek::Result<()> {
    /// let dev = sarek::Device::new()?;
    /// let mut keys = dev.upload(&[1.5f32, -2.0, 8.0])?;
    /// Sorter::new(&dev, 3)?.order(Order::Descending).run(&mut keys)?;
    /// assert_eq!(keys.read()?, [8.0, 1.5, -2.0]);
    /// # Ok(())
    /// # }
    /// ```
    pub fn order(mut self, order: Order) -> Sorter<K> {
        self.order = order;
        self
    }

    /// The number of keys this sorter sorts.
    ///
    /// ```
    /// # fn main() -> sarek::Result<()> {
    /// let dev = sarek::Device::new()?;
    /// assert_eq!(sarek::algo::sort::Sorter::<i32>::new(&dev, 0)?.len(), 0);
    /// # Ok(())
    /// # }
    /// ```
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether this sorter sorts no keys (every sort is then a no-op).
    ///
    /// ```
    /// # fn main() -> sarek::Result<()> {
    /// let dev = sarek::Device::new()?;
    /// assert!(sarek::algo::sort::Sorter::<u32>::new(&dev, 0)?.is_empty());
    /// # Ok(())
    /// # }
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Adds the passes that sort `keys` to `batch`. `keys` must hold the `len` keys this
    /// sorter was made for (another length is [`Error::BadArguments`]).
    ///
    /// ```
    /// use sarek::algo::sort::Sorter;
    /// # fn main() -> sarek::Result<()> {
    /// let dev = sarek::Device::new()?;
    /// let mut keys = dev.upload(&[3u32, 1, 2])?;
    /// let mut sorter = Sorter::new(&dev, 3)?;
    /// let mut batch = dev.batch();
    /// sorter.record(&mut batch, &mut keys)?;
    /// batch.submit()?;
    /// assert_eq!(keys.read()?, [1, 2, 3]);
    /// let mut batch = dev.batch();
    /// assert!(sorter.record(&mut batch, &mut dev.zeros::<u32>(4)?).is_err());
    /// # Ok(())
    /// # }
    /// ```
    pub fn record(&mut self, batch: &mut Batch, keys: &mut Buffer<K>) -> Result<()> {
        self.record_any::<u32>(batch, keys, None)
    }

    /// Adds the passes that sort `keys` and move `values` with them to `batch`. Both must hold
    /// the `len` elements this sorter was made for; a value is any 4-byte element (`u32`,
    /// `i32`, `f32`, a `#[sarek::module]` struct of one of them), moved as its bits.
    ///
    /// ```
    /// use sarek::algo::sort::{Order, Sorter};
    /// # fn main() -> sarek::Result<()> {
    /// let dev = sarek::Device::new()?;
    /// let mut keys = dev.upload(&[0.5f32, f32::NAN, -1.0])?;
    /// let mut index = dev.upload(&[0u32, 1, 2])?;
    /// let mut sorter = Sorter::new(&dev, 3)?.order(Order::Descending);
    /// let mut batch = dev.batch();
    /// sorter.record_pairs(&mut batch, &mut keys, &mut index)?;
    /// batch.submit()?;
    /// assert_eq!(index.read()?, [1, 0, 2]); // +NaN is the largest key
    /// # Ok(())
    /// # }
    /// ```
    pub fn record_pairs<V: Element>(
        &mut self,
        batch: &mut Batch,
        keys: &mut Buffer<K>,
        values: &mut Buffer<V>,
    ) -> Result<()> {
        self.record_any(batch, keys, Some(values))
    }

    /// Sorts `keys` in one submission: [`Sorter::record`] into a batch of its own, submitted.
    ///
    /// ```
    /// # fn main() -> sarek::Result<()> {
    /// let dev = sarek::Device::new()?;
    /// let mut keys = dev.upload(&[2i32, -5, 9, -5])?;
    /// sarek::algo::sort::Sorter::new(&dev, 4)?.run(&mut keys)?.wait()?;
    /// assert_eq!(keys.read()?, [-5, -5, 2, 9]);
    /// # Ok(())
    /// # }
    /// ```
    pub fn run(&mut self, keys: &mut Buffer<K>) -> Result<Launch> {
        if K::BITS == 16 && keys.device().is_cpu() {
            return self.run_halves_on_cpu::<u32>(keys, None);
        }
        let mut batch = keys.device().batch();
        self.record(&mut batch, keys)?;
        batch.submit()
    }

    /// Sorts `keys` and moves `values` with them in one submission.
    ///
    /// ```
    /// # fn main() -> sarek::Result<()> {
    /// let dev = sarek::Device::new()?;
    /// let mut keys = dev.upload(&[2u32, 0, 1])?;
    /// let mut values = dev.upload(&[-2i32, 0, -1])?;
    /// sarek::algo::sort::Sorter::new(&dev, 3)?.run_pairs(&mut keys, &mut values)?;
    /// assert_eq!(values.read()?, [0, -1, -2]);
    /// # Ok(())
    /// # }
    /// ```
    pub fn run_pairs<V: Element>(
        &mut self,
        keys: &mut Buffer<K>,
        values: &mut Buffer<V>,
    ) -> Result<Launch> {
        if K::BITS == 16 && keys.device().is_cpu() {
            return self.run_halves_on_cpu(keys, Some(values));
        }
        let mut batch = keys.device().batch();
        self.record_pairs(&mut batch, keys, values)?;
        batch.submit()
    }

    /// Checks the lengths of `keys` and `values` against this sorter's, and that values are
    /// 4-byte elements.
    fn check<V: Element>(&self, keys: &Buffer<K>, values: Option<&Buffer<V>>) -> Result<()> {
        let bad = |message: String| Error::BadArguments {
            kernel: "sort_downsweep".into(),
            message,
        };
        if keys.len() != self.len {
            return Err(bad(format!(
                "the sorter was made for {} keys, and this buffer holds {}",
                self.len,
                keys.len()
            )));
        }
        if let Some(v) = values {
            if v.len() != self.len {
                return Err(bad(format!(
                    "the sorter was made for {} values, and this buffer holds {}",
                    self.len,
                    v.len()
                )));
            }
            if std::mem::size_of::<V::Gpu>() != 4 {
                return Err(bad(format!(
                    "values must be 4-byte elements; `{}` takes {} bytes",
                    std::any::type_name::<V>(),
                    std::mem::size_of::<V::Gpu>()
                )));
            }
        }
        Ok(())
    }

    /// The launches of one sort, with or without values.
    fn record_any<V: Element>(
        &mut self,
        batch: &mut Batch,
        keys: &mut Buffer<K>,
        values: Option<&mut Buffer<V>>,
    ) -> Result<()> {
        self.check(keys, values.as_deref())?;
        if self.len == 0 {
            return Ok(());
        }
        if K::BITS == 32 {
            return self.record_passes(batch, keys, values);
        }
        let dev = keys.device().clone();
        if dev.is_cpu() {
            return Err(Error::NotOnCpu(
                "recording a sort of `f16` keys (`Sorter::run` and the plain calls sort them)",
            ));
        }
        // The halves as the words that hold them, two a word: a buffer of halves is allocated
        // in whole words, so the last word is there when the length is odd.
        let mut words = Buffer::<u32>::from_wgpu(
            &dev,
            keys.wgpu_buffer().clone(),
            keys.offset(),
            self.len.div_ceil(2),
        )?;
        self.record_halves(batch, &mut words, values)
    }

    /// `f16` keys held two a word in `words`: widened to a word each, sorted, narrowed back.
    fn record_halves<V: Element>(
        &mut self,
        batch: &mut Batch,
        words: &mut Buffer<u32>,
        values: Option<&mut Buffer<V>>,
    ) -> Result<()> {
        let mut wide = match self.wide.take() {
            Some(wide) => wide,
            None => words.device().zeros(self.len)?,
        };
        let done = (|| {
            enqueue(
                batch,
                sort_widen_halves::SOURCE,
                Grid::cover(self.len),
                &[Arg::read(words), Arg::write(&mut wide)],
            )?;
            self.record_passes(batch, &mut wide, values)?;
            enqueue(
                batch,
                sort_narrow_halves::SOURCE,
                Grid::cover(words.len()),
                &[Arg::read(&wide), Arg::write(words)],
            )
        })();
        self.wide = Some(wide);
        done
    }

    /// [`Sorter::run`] of `f16` keys on the CPU backend, which has no view of a buffer of
    /// halves as words: the halves go through the host to a buffer of words, are sorted there
    /// by the same launches as on a GPU, and come back.
    fn run_halves_on_cpu<V: Element>(
        &mut self,
        keys: &mut Buffer<K>,
        values: Option<&mut Buffer<V>>,
    ) -> Result<Launch> {
        self.check(keys, values.as_deref())?;
        let dev = keys.device().clone();
        let halves = K::slice_to_gpu(&keys.read()?).into_owned();
        let mut bytes = bytemuck::cast_slice::<K::Gpu, u8>(&halves).to_vec();
        bytes.resize(self.len.div_ceil(2) * 4, 0);
        let mut words = dev.upload(&bytemuck::pod_collect_to_vec::<u8, u32>(&bytes))?;
        let mut batch = dev.batch();
        if self.len > 0 {
            self.record_halves(&mut batch, &mut words, values)?;
        }
        let launch = batch.submit()?;
        let back = words.read()?;
        let bytes = &bytemuck::cast_slice::<u32, u8>(&back)[..std::mem::size_of_val(&*halves)];
        let sorted = bytemuck::pod_collect_to_vec::<u8, K::Gpu>(bytes)
            .into_iter()
            .map(|h| K::from_gpu(h).ok_or_else(|| Error::BadBuffer("a key is no `f16`".into())))
            .collect::<Result<Vec<K>>>()?;
        keys.write(&sorted)?;
        Ok(launch)
    }

    /// The passes over keys of `K::BITS` bits held one a word in `keys`, moving `values` with
    /// them.
    fn record_passes<B: Element, V: Element>(
        &mut self,
        batch: &mut Batch,
        keys: &mut Buffer<B>,
        mut values: Option<&mut Buffer<V>>,
    ) -> Result<()> {
        let dev = keys.device().clone();
        if values.is_some() && self.values.is_none() {
            self.values = Some(dev.zeros(self.len)?);
        }
        if !self.prepared {
            // The pipelines compile at the same time, not one at each first launch.
            let mut sources = vec![
                sort_upsweep::SOURCE,
                sort_count_reduce::SOURCE,
                sort_count_carry::SOURCE,
                sort_count_apply::SOURCE,
                sort_downsweep::SOURCE,
            ];
            if K::BITS == 16 {
                sources.extend([sort_widen_halves::SOURCE, sort_narrow_halves::SOURCE]);
            }
            dev.prepare(&sources)?;
            self.prepared = true;
        }
        let tiles = self.len.div_ceil(TILE);
        let blocks = self.counts.len().div_ceil(SCAN_TILE);
        let descending = if self.order == Order::Descending {
            u32::MAX >> (32 - K::BITS)
        } else {
            0
        };
        let flip = K::FLIP ^ descending;
        let fneg = K::NEGATIVE;
        let sign = K::BITS - 1;
        let with_values = u32::from(values.is_some());
        for pass in 0..K::BITS / DIGIT_BITS {
            let shift = pass * DIGIT_BITS;
            // Even passes read the caller's buffers and write the scratch ones, odd passes
            // the other way round: after an even number of passes the result is back.
            let forward = pass % 2 == 0;
            {
                let source = if forward {
                    Arg::read(keys)
                } else {
                    Arg::read(&self.keys)
                };
                enqueue(
                    batch,
                    sort_upsweep::SOURCE,
                    Grid::groups(tiles),
                    &[
                        source,
                        Arg::write(&mut self.counts),
                        Arg::u32(shift),
                        Arg::u32(flip),
                        Arg::u32(fneg),
                        Arg::u32(sign),
                        Arg::u32(tiles as u32),
                    ],
                )?;
            }
            enqueue(
                batch,
                sort_count_reduce::SOURCE,
                Grid::groups(blocks),
                &[Arg::read(&self.counts), Arg::write(&mut self.sums)],
            )?;
            enqueue(
                batch,
                sort_count_carry::SOURCE,
                Grid::groups(1),
                &[Arg::write(&mut self.sums)],
            )?;
            enqueue(
                batch,
                sort_count_apply::SOURCE,
                Grid::groups(blocks),
                &[Arg::write(&mut self.counts), Arg::read(&self.sums)],
            )?;
            let scalars = [
                Arg::u32(shift),
                Arg::u32(flip),
                Arg::u32(fneg),
                Arg::u32(sign),
                Arg::u32(tiles as u32),
                Arg::u32(with_values),
            ];
            let (key_in, key_out, value_in, value_out) = match (forward, values.as_deref_mut()) {
                (true, Some(v)) => (
                    Arg::read(keys),
                    Arg::write(&mut self.keys),
                    Arg::read(v),
                    Arg::write(self.values.as_mut().unwrap_or(&mut self.none_out)),
                ),
                (false, Some(v)) => (
                    Arg::read(&self.keys),
                    Arg::write(keys),
                    Arg::read(self.values.as_ref().unwrap_or(&self.none)),
                    Arg::write(v),
                ),
                (true, None) => (
                    Arg::read(keys),
                    Arg::write(&mut self.keys),
                    Arg::read(&self.none),
                    Arg::write(&mut self.none_out),
                ),
                (false, None) => (
                    Arg::read(&self.keys),
                    Arg::write(keys),
                    Arg::read(&self.none),
                    Arg::write(&mut self.none_out),
                ),
            };
            let mut args = vec![
                key_in,
                value_in,
                Arg::read(&self.counts),
                key_out,
                value_out,
            ];
            args.extend(scalars);
            enqueue(batch, sort_downsweep::SOURCE, Grid::groups(tiles), &args)?;
        }
        Ok(())
    }
}

/// Sorts `keys` in ascending order on `dev`, stably, and returns once the work is submitted
/// (a later read waits for it). Makes a [`Sorter`] for the call; to sort many times, or
/// inside a [`Batch`], keep one.
///
/// ```
/// # fn main() -> sarek::Result<()> {
/// let dev = sarek::Device::new()?;
/// let mut keys = dev.upload(&[5i32, -1, 3, i32::MIN])?;
/// sarek::algo::sort(&dev, &mut keys)?;
/// assert_eq!(keys.read()?, [i32::MIN, -1, 3, 5]);
/// # Ok(())
/// # }
/// ```
pub fn sort<K: SortKey>(dev: &Device, keys: &mut Buffer<K>) -> Result<Launch> {
    Sorter::new(dev, keys.len())?.run(keys)
}

/// Sorts `keys` in descending order on `dev`; equal keys keep their order.
///
/// ```
/// # fn main() -> sarek::Result<()> {
/// let dev = sarek::Device::new()?;
/// let mut keys = dev.upload(&[0.5f32, -0.0, 0.0, -7.0])?;
/// sarek::algo::sort_descending(&dev, &mut keys)?;
/// let bits: Vec<u32> = keys.read()?.iter().map(|k| k.to_bits()).collect();
/// assert_eq!(bits, [0.5f32.to_bits(), 0.0f32.to_bits(), (-0.0f32).to_bits(), (-7.0f32).to_bits()]);
/// # Ok(())
/// # }
/// ```
pub fn sort_descending<K: SortKey>(dev: &Device, keys: &mut Buffer<K>) -> Result<Launch> {
    Sorter::new(dev, keys.len())?
        .order(Order::Descending)
        .run(keys)
}

/// Sorts `keys` in ascending order on `dev` and moves each of `values` (4-byte elements)
/// with its key; equal keys keep their order. `values` must be as long as `keys`.
///
/// ```
/// # fn main() -> sarek::Result<()> {
/// let dev = sarek::Device::new()?;
/// let mut keys = dev.upload(&[3u32, 1, 3, 0])?;
/// let mut values = dev.upload(&[0u32, 1, 2, 3])?;
/// sarek::algo::sort_pairs(&dev, &mut keys, &mut values)?;
/// assert_eq!(keys.read()?, [0, 1, 3, 3]);
/// assert_eq!(values.read()?, [3, 1, 0, 2]);
/// # Ok(())
/// # }
/// ```
pub fn sort_pairs<K: SortKey, V: Element>(
    dev: &Device,
    keys: &mut Buffer<K>,
    values: &mut Buffer<V>,
) -> Result<Launch> {
    Sorter::new(dev, keys.len())?.run_pairs(keys, values)
}

/// Sorts `keys` in descending order on `dev` and moves each of `values` with its key; equal
/// keys keep their order.
///
/// ```
/// # fn main() -> sarek::Result<()> {
/// let dev = sarek::Device::new()?;
/// let mut keys = dev.upload(&[1.0f32, 9.0, 1.0])?;
/// let mut values = dev.upload(&[0u32, 1, 2])?;
/// sarek::algo::sort_pairs_descending(&dev, &mut keys, &mut values)?;
/// assert_eq!(values.read()?, [1, 0, 2]);
/// # Ok(())
/// # }
/// ```
pub fn sort_pairs_descending<K: SortKey, V: Element>(
    dev: &Device,
    keys: &mut Buffer<K>,
    values: &mut Buffer<V>,
) -> Result<Launch> {
    Sorter::new(dev, keys.len())?
        .order(Order::Descending)
        .run_pairs(keys, values)
}
