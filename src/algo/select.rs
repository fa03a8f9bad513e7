//! Stream compaction on the device: keep the elements that match a predicate, in their order,
//! and count them ([`select_if`], [`select_flagged`]); put them first and the others after
//! ([`partition_if`]); keep the first of each run of equal elements ([`unique`]) or count the
//! runs' lengths too ([`run_length_encode`]). Elements are `f32`, `i32` or `u32` ([`Item`]).
//!
//! ```
//! use sarek::algo::select::{select_if, Pred};
//! use sarek::Device;
//!
//! # fn main() -> sarek::Result<()> {
//! let dev = Device::new()?;
//! let x = dev.upload(&[0.5f32, -1.0, 2.0, 0.0, 3.5])?;
//! let kept = select_if(&dev, &x, Pred::Gt(0.0))?;
//! assert_eq!(kept.read()?, [0.5, 2.0, 3.5]);
//! # Ok(())
//! # }
//! ```
//!
//! # Predicates
//!
//! A kernel cannot call a closure, so a predicate is either one of the built-in comparisons of
//! [`Pred`] (passed to the kernels as uniform values), or any predicate at all computed first
//! into a buffer of flags by a kernel of your own, one `u32` per element (`0` drops it,
//! anything else keeps it: [`select_flagged`], [`partition_flagged`]), as CUB's
//! `DeviceSelect::Flagged` does.
//!
//! # Without waiting
//!
//! The plain calls read the count back to size their result. [`Select`] holds the scratch of
//! one length and adds the passes to a [`Batch`] instead: the output has room for every element
//! and the count stays on the device, in [`Select::count`], for later kernels to read.
//!
//! ```
//! use sarek::algo::select::{Pred, Select};
//! use sarek::Device;
//!
//! # fn main() -> sarek::Result<()> {
//! let dev = Device::new()?;
//! let x = dev.upload(&[3u32, 8, 1, 9, 4])?;
//! let mut out = dev.zeros::<u32>(x.len())?;
//! let mut select = Select::new(&dev, x.len())?;
//! let mut batch = dev.batch();
//! select.enqueue_if(&mut batch, &x, Pred::Ge(4), &mut out)?;
//! batch.submit()?.wait()?;
//! assert_eq!(select.count().read()?, [3]);
//! assert_eq!(out.read_range(0..3)?, [8, 9, 4]);
//! # Ok(())
//! # }
//! ```
//!
//! # The algorithm
//!
//! Three passes over tiles of [`TILE`] elements, each a workgroup of 256 threads, none waiting
//! for another (a single pass with decoupled look-back would spin on its predecessors' flags,
//! relying on forward progress between workgroups that WebGPU does not promise):
//!
//! 1. [`kernels::select_count`]: each workgroup tests its tile (coalesced loads) and writes
//!    how many elements it keeps ([`kernels::select_count_sg`], summing by subgroups, where
//!    the device has them);
//! 2. [`kernels::select_offsets`]: one workgroup scans those counts into each tile's offset in
//!    the output and writes the total, the count;
//! 3. [`kernels::select_scatter`]: each workgroup tests its tile again, ranks the kept
//!    elements in order (each thread eight consecutive elements, then a scan across the
//!    workgroup; [`kernels::select_scatter_sg`] scans by subgroups where the device has
//!    them), packs them in workgroup memory and writes them out coalesced at the tile's
//!    offset (for a partition, the rejected ones after the count, also in order).
//!
//! The input is read twice and the kept elements written once; nothing else touches memory
//! but a count per tile.

use crate::{Batch, Buffer, Device, Grid, Result};

/// The elements one workgroup covers: 256 threads, eight elements each.
pub const TILE: usize = 2048;

/// The kernels of the compaction passes, public as an example of a library written in Sarek;
/// the host calls of [`crate::algo::select`] are how they are meant to be used.
#[sarek::module]
pub mod kernels {
    use sarek::prelude::*;
    use std::sync::atomic::{AtomicU32, Ordering};

    /// `op` of an element greater than `a`.
    pub const GT: u32 = 0;
    /// `op` of an element at least `a`.
    pub const GE: u32 = 1;
    /// `op` of an element less than `a`.
    pub const LT: u32 = 2;
    /// `op` of an element at most `a`.
    pub const LE: u32 = 3;
    /// `op` of an element equal to `a`.
    pub const EQ: u32 = 4;
    /// `op` of an element other than `a`.
    pub const NE: u32 = 5;
    /// `op` of an element other than zero.
    pub const NONZERO: u32 = 6;
    /// `op` of an element in `a..b`.
    pub const IN_RANGE: u32 = 7;
    /// `op` that keeps element `i` where `flags[i] != 0`.
    pub const FLAGGED: u32 = 8;
    /// `op` that keeps the first element of each run of equal ones.
    pub const UNIQUE: u32 = 9;

    /// Whether `v` passes the built-in comparison `op` (one of [`GT`] .. [`IN_RANGE`]) with
    /// the operands `a` and `b`.
    pub fn passes<T: Scalar>(v: T, op: u32, a: T, b: T) -> bool {
        if op == GT {
            v > a
        } else if op == GE {
            v >= a
        } else if op == LT {
            v < a
        } else if op == LE {
            v <= a
        } else if op == EQ {
            v == a
        } else if op == NE {
            v != a
        } else if op == NONZERO {
            v != T::ZERO
        } else {
            v >= a && v < b
        }
    }

    /// How many of thread `t`'s eight elements of the tile at `base` (`base + k·256 + t`)
    /// the test `op` keeps. Every load is made, from a clamped index, before any test:
    /// unconditional loads are all in flight together, while a load behind a branch waits for
    /// those before.
    // Kernels index local arrays; iterator adaptors do not lower to WGSL.
    #[allow(clippy::needless_range_loop)]
    pub fn thread_count<T: Scalar>(
        x: &[T],
        flags: &[u32],
        op: u32,
        a: T,
        b: T,
        base: usize,
        t: usize,
    ) -> u32 {
        let n = x.len();
        let mut v = [T::ZERO; 8];
        for k in 0..8 {
            let i = base + k * 256 + t;
            let at = if i < n { i } else { n - 1 };
            v[k] = x[at];
        }
        let mut c = 0u32;
        for k in 0..8 {
            let i = base + k * 256 + t;
            if i < n {
                let v = v[k];
                let keep = if op == FLAGGED {
                    flags[i] != 0
                } else if op == UNIQUE {
                    i == 0 || v != x[i - 1]
                } else {
                    passes(v, op, a, b)
                };
                if keep {
                    c += 1;
                }
            }
        }
        c
    }

    /// Pass 1: how many elements of each tile of 2048 the predicate `op` keeps, into
    /// `counts[tile]`, summed over the workgroup by a tree in workgroup memory. `flags` is
    /// read only for [`FLAGGED`].
    #[sarek::kernel(workgroup_size = [256])]
    pub fn select_count<T: Scalar>(
        x: &[T],
        flags: &[u32],
        op: u32,
        a: T,
        b: T,
        counts: &mut [u32],
    ) {
        let tree = shared::<[u32; 256]>();
        let t = thread_idx_x();
        tree[t] = thread_count(x, flags, op, a, b, block_idx_x() * 2048, t);
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
            counts[block_idx_x()] = tree[0];
        }
    }

    /// [`select_count`] summed by subgroups (`SUBGROUP`): a subgroup sum, one workgroup atomic
    /// a subgroup and one barrier, where the tree takes eight (three times faster on an H200).
    #[sarek::kernel(workgroup_size = [256])]
    pub fn select_count_sg<T: Scalar>(
        x: &[T],
        flags: &[u32],
        op: u32,
        a: T,
        b: T,
        counts: &mut [u32],
    ) {
        let total = shared::<[AtomicU32; 1]>();
        let t = thread_idx_x();
        let c = thread_count(x, flags, op, a, b, block_idx_x() * 2048, t);
        let s = subgroup_add(c);
        if subgroup_elect() {
            total[0].fetch_add(s, Ordering::Relaxed);
        }
        block_barrier();
        if t == 0 {
            counts[block_idx_x()] = total[0].load(Ordering::Relaxed);
        }
    }

    /// Pass 2, on one workgroup: `offsets` = the exclusive scan of `counts` (where each tile's
    /// kept elements start in the output) and `total[0]` = their sum, in chunks of 4096 (each
    /// thread 16 consecutive counts), carrying the total from chunk to chunk.
    #[sarek::kernel(workgroup_size = [256])]
    pub fn select_offsets(counts: &[u32], offsets: &mut [u32], total: &mut [u32]) {
        let sa = shared::<[u32; 256]>();
        let sb = shared::<[u32; 256]>();
        let t = thread_idx_x();
        let m = counts.len();
        let mut carried = 0u32;
        let mut c0 = 0;
        while c0 < m {
            let first = c0 + t * 16;
            let mut v = [0u32; 16];
            let mut s = 0u32;
            for k in 0..16 {
                let i = first + k;
                let at = if i < m { i } else { m - 1 };
                let value = counts[at];
                v[k] = if i < m { value } else { 0 };
                s += v[k];
            }
            sa[t] = s;
            block_barrier();
            let mut offset = 1;
            let mut from_a = true;
            while offset < 256 {
                if from_a {
                    sb[t] = if t >= offset {
                        sa[t] + sa[t - offset]
                    } else {
                        sa[t]
                    };
                } else {
                    sa[t] = if t >= offset {
                        sb[t] + sb[t - offset]
                    } else {
                        sb[t]
                    };
                }
                block_barrier();
                from_a = !from_a;
                offset *= 2;
            }
            let inclusive = if from_a { sa[t] } else { sb[t] };
            let chunk = if from_a { sa[255] } else { sb[255] };
            let mut p = carried + inclusive - s;
            for k in 0..16 {
                if first + k < m {
                    offsets[first + k] = p;
                }
                p += v[k];
            }
            carried += chunk;
            // Nobody overwrites `sa` for the next chunk before everyone read this one's.
            block_barrier();
            c0 += 4096;
        }
        if t == 0 {
            total[0] = carried;
        }
    }

    /// Stages the tile at `base` in `vals`, with a word of padding every 32 (so that each
    /// thread's eight consecutive elements come from different banks), from unconditional
    /// loads of clamped indices, all in flight together (see [`thread_count`]); the copies past
    /// the end are never kept.
    pub fn stage_tile<T: Scalar>(vals: &mut [T; 2112], x: &[T], base: usize, t: usize) {
        let n = x.len();
        for k in 0..8 {
            let l = k * 256 + t;
            let at = if base + l < n { base + l } else { n - 1 };
            vals[l + l / 32] = x[at];
        }
    }

    /// The eight consecutive elements of the tile that the thread in place `p` of the tile's
    /// order ranks (`8p` to `8p + 7`), from the staged tile.
    // Kernels index local arrays; iterator adaptors do not lower to WGSL.
    #[allow(clippy::needless_range_loop)]
    pub fn my_elements<T: Scalar>(vals: &[T; 2112], p: usize) -> [T; 8] {
        let mut v = [T::ZERO; 8];
        for j in 0..8 {
            let l = p * 8 + j;
            v[j] = vals[l + l / 32];
        }
        v
    }

    /// Which of the elements `v` (the tile's `8p` to `8p + 7`) the test `op` keeps, as bits.
    #[allow(clippy::too_many_arguments, clippy::needless_range_loop)]
    pub fn keep_mask<T: Scalar>(
        v: [T; 8],
        vals: &[T; 2112],
        x: &[T],
        flags: &[u32],
        op: u32,
        a: T,
        b: T,
        base: usize,
        p: usize,
    ) -> u32 {
        let n = x.len();
        let mut mask = 0u32;
        for j in 0..8 {
            let l = p * 8 + j;
            let i = base + l;
            if i < n {
                let e = v[j];
                let keep = if op == FLAGGED {
                    flags[i] != 0
                } else if op == UNIQUE {
                    if i == 0 {
                        true
                    } else if l > 0 {
                        e != vals[l - 1 + (l - 1) / 32]
                    } else {
                        e != x[i - 1]
                    }
                } else {
                    passes(e, op, a, b)
                };
                if keep {
                    mask |= 1u32 << (j as u32);
                }
            }
        }
        mask
    }

    /// Packs the thread's kept elements `v` (bits of `mask`; `r` kept ones before them in the
    /// tile, `kept` in all) into `vals`, and for a partition its rejected ones after all the
    /// kept ones, then writes the tile out coalesced: the kept ones to `out[start..]`, the
    /// rejected ones after `total[0]` (and the kept ones' indices to `idx` with `want_idx`).
    /// Every thread must have read its elements from `vals` before it is called.
    #[allow(clippy::too_many_arguments, clippy::needless_range_loop)]
    pub fn pack_and_write<T: Scalar>(
        vals: &mut [T; 2112],
        v: [T; 8],
        mask: u32,
        r: usize,
        kept: usize,
        p: usize,
        partition: u32,
        want_idx: u32,
        offsets: &[u32],
        total: &[u32],
        out: &mut [T],
        idx: &mut [u32],
        n: usize,
    ) {
        let t = thread_idx_x();
        let g = block_idx_x();
        let base = g * 2048;
        let start = offsets[g] as usize;
        let mut r = r;
        for j in 0..8 {
            let l = p * 8 + j;
            if (mask >> (j as u32)) & 1 != 0 {
                vals[r + r / 32] = v[j];
                if want_idx != 0 {
                    idx[start + r] = (base + l) as u32;
                }
                r += 1;
            } else if partition != 0 && base + l < n {
                // Rejected: after the tile's kept ones, ranked among the rejected.
                let q = kept + l - r;
                vals[q + q / 32] = v[j];
            }
        }
        block_barrier();
        let len = if n - base < 2048 { n - base } else { 2048 };
        let rejected_before = base - start;
        let after = total[0] as usize;
        for k in 0..8 {
            let q = k * 256 + t;
            if q < kept {
                out[start + q] = vals[q + q / 32];
            } else if partition != 0 && q < len {
                out[after + rejected_before + q - kept] = vals[q + q / 32];
            }
        }
    }

    /// Pass 3: each tile's kept elements, in order, to `out[offsets[tile]..]`; with
    /// `partition != 0` the rejected ones too, in order, after `total[0]`; with
    /// `want_idx != 0` the index in `x` of each kept element to `idx` at the same place.
    /// Thread `t` ranks the tile's elements `8t` to `8t + 7`; the ranks are a scan across the
    /// workgroup in workgroup memory, a barrier a step.
    #[sarek::kernel(workgroup_size = [256])]
    pub fn select_scatter<T: Scalar>(
        x: &[T],
        flags: &[u32],
        op: u32,
        a: T,
        b: T,
        partition: u32,
        want_idx: u32,
        offsets: &[u32],
        total: &[u32],
        out: &mut [T],
        idx: &mut [u32],
    ) {
        let vals = shared::<[T; 2112]>();
        let sa = shared::<[u32; 256]>();
        let sb = shared::<[u32; 256]>();
        let t = thread_idx_x();
        let base = block_idx_x() * 2048;
        stage_tile(vals, x, base, t);
        block_barrier();
        let v = my_elements::<T>(vals, t);
        let mask = keep_mask(v, vals, x, flags, op, a, b, base, t);
        let c = mask.count_ones();
        sa[t] = c;
        block_barrier();
        let mut offset = 1;
        let mut from_a = true;
        while offset < 256 {
            if from_a {
                sb[t] = if t >= offset {
                    sa[t] + sa[t - offset]
                } else {
                    sa[t]
                };
            } else {
                sa[t] = if t >= offset {
                    sb[t] + sb[t - offset]
                } else {
                    sb[t]
                };
            }
            block_barrier();
            from_a = !from_a;
            offset *= 2;
        }
        let inclusive = if from_a { sa[t] } else { sb[t] };
        let kept = (if from_a { sa[255] } else { sb[255] }) as usize;
        // Every thread read its elements before the scan's first barrier, so the tile's
        // staging area is free to hold the packed result.
        let r = (inclusive - c) as usize;
        pack_and_write(
            vals,
            v,
            mask,
            r,
            kept,
            t,
            partition,
            want_idx,
            offsets,
            total,
            out,
            idx,
            x.len(),
        );
    }

    /// [`select_scatter`] ranked by subgroups (`SUBGROUP`): each subgroup claims a place in
    /// the tile's order from a workgroup counter (WebGPU does not promise which invocations
    /// share a subgroup), its threads take consecutive places by lane, and a thread's rank is
    /// a subgroup scan plus the counts of the subgroups before it: two barriers where the
    /// scan in workgroup memory takes nine.
    #[sarek::kernel(workgroup_size = [256])]
    pub fn select_scatter_sg<T: Scalar>(
        x: &[T],
        flags: &[u32],
        op: u32,
        a: T,
        b: T,
        partition: u32,
        want_idx: u32,
        offsets: &[u32],
        total: &[u32],
        out: &mut [T],
        idx: &mut [u32],
    ) {
        let vals = shared::<[T; 2112]>();
        // A count for each subgroup (at most 64, for subgroups of 4).
        let counts = shared::<[u32; 64]>();
        let slots = shared::<[AtomicU32; 1]>();
        let t = thread_idx_x();
        let base = block_idx_x() * 2048;
        stage_tile(vals, x, base, t);
        let size = subgroup_size() as usize;
        let claimed = if subgroup_elect() {
            slots[0].fetch_add(1, Ordering::Relaxed)
        } else {
            0
        };
        let slot = subgroup_broadcast_first(claimed) as usize;
        let p = slot * size + subgroup_invocation_id() as usize;
        block_barrier();
        let v = my_elements::<T>(vals, p);
        let mask = keep_mask(v, vals, x, flags, op, a, b, base, p);
        let c = mask.count_ones();
        let below = subgroup_exclusive_add(c);
        let mine = subgroup_add(c);
        if subgroup_elect() {
            counts[slot] = mine;
        }
        block_barrier();
        let mut before = 0u32;
        let mut kept = 0u32;
        let mut q = 0;
        while q < 256 / size {
            let k = counts[q];
            if q < slot {
                before += k;
            }
            kept += k;
            q += 1;
        }
        // Every thread read its elements before the barrier above, so the tile's staging
        // area is free to hold the packed result.
        let r = (before + below) as usize;
        pack_and_write(
            vals,
            v,
            mask,
            r,
            kept as usize,
            p,
            partition,
            want_idx,
            offsets,
            total,
            out,
            idx,
            x.len(),
        );
    }

    /// The lengths of the runs whose first indices `starts` holds (`total[0]` of them, in
    /// order, the last running to `n`): `lens[r] = starts[r + 1] - starts[r]`.
    #[sarek::kernel(workgroup_size = [256])]
    pub fn run_lengths(starts: &[u32], total: &[u32], n: u32, lens: &mut [u32]) {
        let r = global_thread_id();
        let runs = total[0] as usize;
        if r < runs {
            let end = if r + 1 < runs { starts[r + 1] } else { n };
            lens[r] = end - starts[r];
        }
    }
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for i32 {}
    impl Sealed for u32 {}
}

/// The element types the compaction kernels have instances for: `f32`, `i32` and `u32`.
/// Sealed: its methods add one pass of one instance to a batch.
pub trait Item: crate::gpu::Scalar + sealed::Sealed {
    /// Adds pass 1 ([`kernels::select_count`]) of this type's instance to `batch`.
    #[doc(hidden)]
    fn enqueue_count(
        batch: &mut Batch,
        x: &Buffer<Self>,
        flags: &Buffer<u32>,
        test: Test<Self>,
        counts: &mut Buffer<u32>,
    ) -> Result<()>;

    /// Adds pass 3 ([`kernels::select_scatter`]) of this type's instance to `batch`; `idx`
    /// is written only where `test.want_idx`.
    #[doc(hidden)]
    fn enqueue_scatter(
        batch: &mut Batch,
        x: &Buffer<Self>,
        flags: &Buffer<u32>,
        test: Test<Self>,
        offsets_total: [&Buffer<u32>; 2],
        out: &mut Buffer<Self>,
        idx: &mut Buffer<u32>,
    ) -> Result<()>;
}

/// What the kernels test, as their uniform values: the operation code of [`kernels`], its
/// operands, whether the rejected elements follow the kept ones and whether the indices of
/// the kept ones are written.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct Test<T> {
    op: u32,
    a: T,
    b: T,
    partition: bool,
    want_idx: bool,
}

impl<T: Item> Test<T> {
    /// A test by operation code alone (flags, unique).
    fn op(op: u32, partition: bool) -> Test<T> {
        Test {
            op,
            a: T::ZERO,
            b: T::ZERO,
            partition,
            want_idx: false,
        }
    }

    /// The test of a built-in predicate.
    fn pred(pred: Pred<T>, partition: bool) -> Test<T> {
        let (op, a, b) = pred.code();
        Test {
            op,
            a,
            b,
            partition,
            want_idx: false,
        }
    }
}

macro_rules! item {
    ($t:ty) => {
        impl Item for $t {
            fn enqueue_count(
                batch: &mut Batch,
                x: &Buffer<$t>,
                flags: &Buffer<u32>,
                test: Test<$t>,
                counts: &mut Buffer<u32>,
            ) -> Result<()> {
                let grid = Grid::groups(x.len().div_ceil(TILE));
                let (op, a, b) = (test.op, test.a, test.b);
                if super::subgroups(batch.device()) {
                    kernels::select_count_sg.enqueue::<$t>(batch, grid, x, flags, op, a, b, counts)
                } else {
                    kernels::select_count.enqueue::<$t>(batch, grid, x, flags, op, a, b, counts)
                }
            }

            fn enqueue_scatter(
                batch: &mut Batch,
                x: &Buffer<$t>,
                flags: &Buffer<u32>,
                test: Test<$t>,
                [offsets, total]: [&Buffer<u32>; 2],
                out: &mut Buffer<$t>,
                idx: &mut Buffer<u32>,
            ) -> Result<()> {
                let grid = Grid::groups(x.len().div_ceil(TILE));
                let (op, a, b) = (test.op, test.a, test.b);
                let (part, want) = (test.partition as u32, test.want_idx as u32);
                if super::subgroups(batch.device()) {
                    kernels::select_scatter_sg.enqueue::<$t>(
                        batch, grid, x, flags, op, a, b, part, want, offsets, total, out, idx,
                    )
                } else {
                    kernels::select_scatter.enqueue::<$t>(
                        batch, grid, x, flags, op, a, b, part, want, offsets, total, out, idx,
                    )
                }
            }
        }
    };
}

item!(f32);
item!(i32);
item!(u32);

/// A built-in predicate: which elements a selection keeps. Comparisons follow Rust's (and
/// IEEE's) rules, so a NaN fails every one but [`Pred::Ne`] and [`Pred::NonZero`], and
/// `-0.0` equals `0.0`.
///
/// ```
/// use sarek::algo::select::Pred;
///
/// assert!(Pred::InRange(1, 4).test(3));
/// assert!(!Pred::InRange(1.0, 4.0).test(4.0));
/// assert!(Pred::NonZero.test(f32::NAN));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Pred<T> {
    /// Elements greater than the value.
    Gt(T),
    /// Elements greater than or equal to the value.
    Ge(T),
    /// Elements less than the value.
    Lt(T),
    /// Elements less than or equal to the value.
    Le(T),
    /// Elements equal to the value.
    Eq(T),
    /// Elements other than the value.
    Ne(T),
    /// Elements other than zero.
    NonZero,
    /// Elements `v` with `lo <= v < hi`, from `InRange(lo, hi)`.
    InRange(T, T),
}

impl<T: Item> Pred<T> {
    /// Whether `v` matches, on the host: the kernels keep exactly the elements for which
    /// this is true.
    ///
    /// ```
    /// use sarek::algo::select::Pred;
    ///
    /// assert!(Pred::Gt(0.0).test(0.5f32));
    /// assert!(!Pred::Gt(0.0).test(f32::NAN));
    /// ```
    pub fn test(&self, v: T) -> bool {
        match *self {
            Pred::Gt(a) => v > a,
            Pred::Ge(a) => v >= a,
            Pred::Lt(a) => v < a,
            Pred::Le(a) => v <= a,
            Pred::Eq(a) => v == a,
            Pred::Ne(a) => v != a,
            Pred::NonZero => v != T::ZERO,
            Pred::InRange(lo, hi) => v >= lo && v < hi,
        }
    }

    /// The kernels' operation code and operands.
    fn code(self) -> (u32, T, T) {
        let z = T::ZERO;
        match self {
            Pred::Gt(a) => (kernels::GT, a, z),
            Pred::Ge(a) => (kernels::GE, a, z),
            Pred::Lt(a) => (kernels::LT, a, z),
            Pred::Le(a) => (kernels::LE, a, z),
            Pred::Eq(a) => (kernels::EQ, a, z),
            Pred::Ne(a) => (kernels::NE, a, z),
            Pred::NonZero => (kernels::NONZERO, z, z),
            Pred::InRange(lo, hi) => (kernels::IN_RANGE, lo, hi),
        }
    }
}

/// The scratch of compactions of `len` elements: make one per length and reuse it, so that a
/// compaction allocates nothing. Each `enqueue_*` method adds the three passes to a [`Batch`]
/// and waits for nothing; the number of elements kept is then in [`Select::count`], on the
/// device, once the batch has run.
pub struct Select {
    /// The number of elements of each input.
    len: usize,
    /// Pass 1's count of each tile.
    counts: Buffer<u32>,
    /// Pass 2's offset of each tile.
    offsets: Buffer<u32>,
    /// Pass 2's total: the count.
    total: Buffer<u32>,
    /// A one-element stand-in for the flags where the predicate is built in.
    no_flags: Buffer<u32>,
    /// A one-element stand-in for the indices where none are wanted.
    no_idx: Buffer<u32>,
}

impl Select {
    /// Scratch for compactions of `len` elements on `dev`.
    ///
    /// ```
    /// # fn main() -> sarek::Result<()> {
    /// let dev = sarek::Device::new()?;
    /// let select = sarek::algo::select::Select::new(&dev, 10_000)?;
    /// assert_eq!(select.len(), 10_000);
    /// # Ok(()) }
    /// ```
    pub fn new(dev: &Device, len: usize) -> Result<Select> {
        let tiles = len.div_ceil(TILE).max(1);
        Ok(Select {
            len,
            counts: dev.zeros(tiles)?,
            offsets: dev.zeros(tiles)?,
            total: dev.zeros(1)?,
            no_flags: dev.zeros(1)?,
            no_idx: dev.zeros(1)?,
        })
    }

    /// The number of elements of the inputs this scratch serves.
    ///
    /// ```
    /// # fn main() -> sarek::Result<()> {
    /// let dev = sarek::Device::new()?;
    /// assert_eq!(sarek::algo::select::Select::new(&dev, 0)?.len(), 0);
    /// # Ok(()) }
    /// ```
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the inputs this scratch serves are empty.
    ///
    /// ```
    /// # fn main() -> sarek::Result<()> {
    /// let dev = sarek::Device::new()?;
    /// assert!(sarek::algo::select::Select::new(&dev, 0)?.is_empty());
    /// # Ok(()) }
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// A one-element buffer that holds, once a batch with an `enqueue_*` of this scratch has
    /// run, how many elements it kept (the number of runs, for
    /// [`enqueue_run_length_encode`](Select::enqueue_run_length_encode)). Later kernels of
    /// the same batch may read it; the host reads it with [`Buffer::read`].
    ///
    /// ```
    /// use sarek::algo::select::Select;
    ///
    /// # fn main() -> sarek::Result<()> {
    /// let dev = sarek::Device::new()?;
    /// let x = dev.upload(&[1i32, 1, 2, 2, 2, 1])?;
    /// let mut out = dev.zeros::<i32>(6)?;
    /// let mut select = Select::new(&dev, 6)?;
    /// let mut batch = dev.batch();
    /// select.enqueue_unique(&mut batch, &x, &mut out)?;
    /// batch.submit()?;
    /// assert_eq!(select.count().read()?, [3]);
    /// assert_eq!(out.read_range(0..3)?, [1, 2, 1]);
    /// # Ok(()) }
    /// ```
    pub fn count(&self) -> &Buffer<u32> {
        &self.total
    }

    /// Checks that `x` (and `flags`) have the length this scratch serves.
    fn check<T: Item>(&self, x: &Buffer<T>, flags: Option<&Buffer<u32>>) -> Result<()> {
        if x.len() != self.len {
            return Err(super::bad_arguments(
                "select",
                format!(
                    "the compaction's scratch was made for {} elements, not {}",
                    self.len,
                    x.len()
                ),
            ));
        }
        match flags {
            Some(f) if f.len() != self.len => Err(super::bad_arguments(
                "select",
                format!(
                    "the flags hold {} elements, the input {}",
                    f.len(),
                    self.len
                ),
            )),
            _ => Ok(()),
        }
    }

    /// Adds passes 1 and 2 to `batch`: the count of each tile, their offsets, the total.
    fn enqueue_counts<T: Item>(
        &mut self,
        batch: &mut Batch,
        x: &Buffer<T>,
        flags: Option<&Buffer<u32>>,
        test: Test<T>,
    ) -> Result<()> {
        self.check(x, flags)?;
        if self.len > 0 {
            let flags = flags.unwrap_or(&self.no_flags);
            T::enqueue_count(batch, x, flags, test, &mut self.counts)?;
        }
        // Pass 2 runs on an empty input too (over one zero count), so that the count reads 0.
        kernels::select_offsets.enqueue(
            batch,
            Grid::groups(1),
            &self.counts,
            &mut self.offsets,
            &mut self.total,
        )
    }

    /// Adds pass 3 to `batch`, after [`Select::enqueue_counts`] with the same arguments;
    /// `idx`, where given, receives the index of each kept element.
    fn enqueue_scatter<T: Item>(
        &mut self,
        batch: &mut Batch,
        x: &Buffer<T>,
        flags: Option<&Buffer<u32>>,
        mut test: Test<T>,
        out: &mut Buffer<T>,
        idx: Option<&mut Buffer<u32>>,
    ) -> Result<()> {
        if self.len == 0 {
            return Ok(());
        }
        let flags = flags.unwrap_or(&self.no_flags);
        test.want_idx = idx.is_some();
        let idx = idx.unwrap_or(&mut self.no_idx);
        let scratch = [&self.offsets, &self.total];
        T::enqueue_scatter(batch, x, flags, test, scratch, out, idx)
    }

    /// The three passes, into an output that holds at least as many elements as the input.
    fn enqueue<T: Item>(
        &mut self,
        batch: &mut Batch,
        x: &Buffer<T>,
        flags: Option<&Buffer<u32>>,
        test: Test<T>,
        out: &mut Buffer<T>,
        idx: Option<&mut Buffer<u32>>,
    ) -> Result<()> {
        if out.len() < self.len {
            return Err(super::bad_arguments(
                "select",
                format!(
                    "the output holds {} elements, fewer than the input's {}",
                    out.len(),
                    self.len
                ),
            ));
        }
        self.enqueue_counts(batch, x, flags, test)?;
        self.enqueue_scatter(batch, x, flags, test, out, idx)
    }

    /// Adds a compaction to `batch`: the elements of `x` that match `pred`, in order, to the
    /// start of `out` (which holds at least as many elements as `x`; the rest of it is left
    /// as it was), and their number to [`Select::count`].
    ///
    /// ```
    /// use sarek::algo::select::{Pred, Select};
    ///
    /// # fn main() -> sarek::Result<()> {
    /// let dev = sarek::Device::new()?;
    /// let x = dev.upload(&[-2i32, 5, 0, 7, -1])?;
    /// let mut out = dev.zeros::<i32>(5)?;
    /// let mut select = Select::new(&dev, 5)?;
    /// let mut batch = dev.batch();
    /// select.enqueue_if(&mut batch, &x, Pred::Lt(1), &mut out)?;
    /// batch.submit()?;
    /// assert_eq!(select.count().read()?, [3]);
    /// assert_eq!(out.read()?, [-2, 0, -1, 0, 0]);
    /// # Ok(()) }
    /// ```
    pub fn enqueue_if<T: Item>(
        &mut self,
        batch: &mut Batch,
        x: &Buffer<T>,
        pred: Pred<T>,
        out: &mut Buffer<T>,
    ) -> Result<()> {
        self.enqueue(batch, x, None, Test::pred(pred, false), out, None)
    }

    /// [`Select::enqueue_if`] keeping element `i` where `flags[i] != 0`: any predicate,
    /// computed into `flags` (as long as `x`) by an earlier kernel.
    ///
    /// ```
    /// use sarek::algo::select::Select;
    ///
    /// # fn main() -> sarek::Result<()> {
    /// let dev = sarek::Device::new()?;
    /// let x = dev.upload(&[1.5f32, 2.5, 3.5])?;
    /// let flags = dev.upload(&[0u32, 1, 1])?;
    /// let mut out = dev.zeros::<f32>(3)?;
    /// let mut select = Select::new(&dev, 3)?;
    /// let mut batch = dev.batch();
    /// select.enqueue_flagged(&mut batch, &x, &flags, &mut out)?;
    /// batch.submit()?;
    /// assert_eq!(out.read_range(0..2)?, [2.5, 3.5]);
    /// # Ok(()) }
    /// ```
    pub fn enqueue_flagged<T: Item>(
        &mut self,
        batch: &mut Batch,
        x: &Buffer<T>,
        flags: &Buffer<u32>,
        out: &mut Buffer<T>,
    ) -> Result<()> {
        let test = Test::op(kernels::FLAGGED, false);
        self.enqueue(batch, x, Some(flags), test, out, None)
    }

    /// Adds a stable partition to `batch`: into `out` (as long as `x`), the elements of `x`
    /// that match `pred` in order, then the others in order; the number that match to
    /// [`Select::count`].
    ///
    /// ```
    /// use sarek::algo::select::{Pred, Select};
    ///
    /// # fn main() -> sarek::Result<()> {
    /// let dev = sarek::Device::new()?;
    /// let x = dev.upload(&[4u32, 1, 5, 2, 6])?;
    /// let mut out = dev.zeros::<u32>(5)?;
    /// let mut select = Select::new(&dev, 5)?;
    /// let mut batch = dev.batch();
    /// select.enqueue_partition(&mut batch, &x, Pred::Gt(3), &mut out)?;
    /// batch.submit()?;
    /// assert_eq!(out.read()?, [4, 5, 6, 1, 2]);
    /// assert_eq!(select.count().read()?, [3]);
    /// # Ok(()) }
    /// ```
    pub fn enqueue_partition<T: Item>(
        &mut self,
        batch: &mut Batch,
        x: &Buffer<T>,
        pred: Pred<T>,
        out: &mut Buffer<T>,
    ) -> Result<()> {
        self.enqueue(batch, x, None, Test::pred(pred, true), out, None)
    }

    /// [`Select::enqueue_partition`] by flags: element `i` goes first where `flags[i] != 0`.
    ///
    /// ```
    /// use sarek::algo::select::Select;
    ///
    /// # fn main() -> sarek::Result<()> {
    /// let dev = sarek::Device::new()?;
    /// let x = dev.upload(&[10i32, 20, 30, 40])?;
    /// let flags = dev.upload(&[0u32, 1, 0, 1])?;
    /// let mut out = dev.zeros::<i32>(4)?;
    /// let mut select = Select::new(&dev, 4)?;
    /// let mut batch = dev.batch();
    /// select.enqueue_partition_flagged(&mut batch, &x, &flags, &mut out)?;
    /// batch.submit()?;
    /// assert_eq!(out.read()?, [20, 40, 10, 30]);
    /// # Ok(()) }
    /// ```
    pub fn enqueue_partition_flagged<T: Item>(
        &mut self,
        batch: &mut Batch,
        x: &Buffer<T>,
        flags: &Buffer<u32>,
        out: &mut Buffer<T>,
    ) -> Result<()> {
        let test = Test::op(kernels::FLAGGED, true);
        self.enqueue(batch, x, Some(flags), test, out, None)
    }

    /// Adds a unique pass to `batch`: the first element of each run of equal consecutive
    /// elements of `x`, in order, to the start of `out` (as long as `x`), their number to
    /// [`Select::count`]. Equality is `==`, as `Vec::dedup`'s, so NaNs are never merged and
    /// `-0.0` merges with `0.0`.
    ///
    /// ```
    /// use sarek::algo::select::Select;
    ///
    /// # fn main() -> sarek::Result<()> {
    /// let dev = sarek::Device::new()?;
    /// let x = dev.upload(&[7u32, 7, 3, 7])?;
    /// let mut out = dev.zeros::<u32>(4)?;
    /// let mut select = Select::new(&dev, 4)?;
    /// let mut batch = dev.batch();
    /// select.enqueue_unique(&mut batch, &x, &mut out)?;
    /// batch.submit()?;
    /// assert_eq!(out.read_range(0..3)?, [7, 3, 7]);
    /// # Ok(()) }
    /// ```
    pub fn enqueue_unique<T: Item>(
        &mut self,
        batch: &mut Batch,
        x: &Buffer<T>,
        out: &mut Buffer<T>,
    ) -> Result<()> {
        let test = Test::op(kernels::UNIQUE, false);
        self.enqueue(batch, x, None, test, out, None)
    }

    /// Adds a run-length encoding to `batch`: [`Select::enqueue_unique`] into `values`, the
    /// index in `x` where each run starts into `starts` and its length into `lengths` (each as
    /// long as `x`; the first [`Select::count`] elements are the runs).
    ///
    /// ```
    /// use sarek::algo::select::Select;
    ///
    /// # fn main() -> sarek::Result<()> {
    /// let dev = sarek::Device::new()?;
    /// let x = dev.upload(&[5i32, 5, 5, -1, 5, 5])?;
    /// let (mut values, mut starts, mut lengths) =
    ///     (dev.zeros::<i32>(6)?, dev.zeros::<u32>(6)?, dev.zeros::<u32>(6)?);
    /// let mut select = Select::new(&dev, 6)?;
    /// let mut batch = dev.batch();
    /// select.enqueue_run_length_encode(&mut batch, &x, &mut values, &mut starts, &mut lengths)?;
    /// batch.submit()?;
    /// assert_eq!(select.count().read()?, [3]);
    /// assert_eq!(values.read_range(0..3)?, [5, -1, 5]);
    /// assert_eq!(starts.read_range(0..3)?, [0, 3, 4]);
    /// assert_eq!(lengths.read_range(0..3)?, [3, 1, 2]);
    /// # Ok(()) }
    /// ```
    pub fn enqueue_run_length_encode<T: Item>(
        &mut self,
        batch: &mut Batch,
        x: &Buffer<T>,
        values: &mut Buffer<T>,
        starts: &mut Buffer<u32>,
        lengths: &mut Buffer<u32>,
    ) -> Result<()> {
        for (what, len) in [("starts", starts.len()), ("lengths", lengths.len())] {
            if len < self.len {
                return Err(super::bad_arguments(
                    "run_length_encode",
                    format!(
                        "`{what}` holds {len} elements, fewer than the input's {}",
                        self.len
                    ),
                ));
            }
        }
        let test = Test::op(kernels::UNIQUE, false);
        self.enqueue(batch, x, None, test, values, Some(starts))?;
        // The number of runs is known only on the device: one thread per element, the
        // threads past the count doing nothing.
        self.enqueue_lengths(batch, self.len, starts, lengths)
    }

    /// Adds the pass that turns the runs' starts into their lengths, over `threads` threads.
    fn enqueue_lengths(
        &self,
        batch: &mut Batch,
        threads: usize,
        starts: &Buffer<u32>,
        lengths: &mut Buffer<u32>,
    ) -> Result<()> {
        kernels::run_lengths.enqueue(
            batch,
            Grid::cover(threads),
            starts,
            &self.total,
            self.len as u32,
            lengths,
        )
    }

    /// Passes 1 and 2, waited for: the count, read back.
    fn count_now<T: Item>(
        &mut self,
        x: &Buffer<T>,
        flags: Option<&Buffer<u32>>,
        test: Test<T>,
    ) -> Result<usize> {
        let mut batch = x.device().batch();
        self.enqueue_counts(&mut batch, x, flags, test)?;
        batch.submit()?;
        Ok(self.total.read()?[0] as usize)
    }

    /// The kept elements into a buffer of exactly their number: the count is read back first,
    /// so that the result needs no copy.
    fn exact<T: Item>(
        &mut self,
        x: &Buffer<T>,
        flags: Option<&Buffer<u32>>,
        test: Test<T>,
    ) -> Result<Buffer<T>> {
        let count = self.count_now(x, flags, test)?;
        let dev = x.device();
        let mut out = dev.zeros::<T>(count)?;
        let mut batch = dev.batch();
        self.enqueue_scatter(&mut batch, x, flags, test, &mut out, None)?;
        batch.submit()?;
        Ok(out)
    }
}

/// The elements of `x` that match `pred`, in order, in a buffer of exactly their number
/// (PyTorch's `x[x > 0]`, CUB's `DeviceSelect::If`). Waits for the count; see [`Select`] for
/// a form that does not.
///
/// ```
/// use sarek::algo::select::{select_if, Pred};
///
/// # fn main() -> sarek::Result<()> {
/// let dev = sarek::Device::new()?;
/// let x = dev.upload(&(0..1000u32).collect::<Vec<_>>())?;
/// let kept = select_if(&dev, &x, Pred::InRange(10, 13))?;
/// assert_eq!(kept.read()?, [10, 11, 12]);
/// # Ok(()) }
/// ```
pub fn select_if<T: Item>(dev: &Device, x: &Buffer<T>, pred: Pred<T>) -> Result<Buffer<T>> {
    Select::new(dev, x.len())?.exact(x, None, Test::pred(pred, false))
}

/// The elements `x[i]` with `flags[i] != 0`, in order, in a buffer of exactly their number
/// (CUB's `DeviceSelect::Flagged`). `flags` is as long as `x`, computed by any kernel, so
/// any predicate works.
///
/// ```
/// use sarek::algo::select::select_flagged;
///
/// # fn main() -> sarek::Result<()> {
/// let dev = sarek::Device::new()?;
/// let x = dev.upload(&[1.0f32, 2.0, 3.0, 4.0])?;
/// let flags = dev.upload(&[1u32, 0, 0, 7])?;
/// assert_eq!(select_flagged(&dev, &x, &flags)?.read()?, [1.0, 4.0]);
/// # Ok(()) }
/// ```
pub fn select_flagged<T: Item>(
    dev: &Device,
    x: &Buffer<T>,
    flags: &Buffer<u32>,
) -> Result<Buffer<T>> {
    let test = Test::op(kernels::FLAGGED, false);
    Select::new(dev, x.len())?.exact(x, Some(flags), test)
}

/// A stable partition of `x`: the elements that match `pred`, in order, then the others, in
/// order, with the number that match.
///
/// ```
/// use sarek::algo::select::{partition_if, Pred};
///
/// # fn main() -> sarek::Result<()> {
/// let dev = sarek::Device::new()?;
/// let x = dev.upload(&[1i32, -1, 2, -2, 3])?;
/// let (parted, count) = partition_if(&dev, &x, Pred::Gt(0))?;
/// assert_eq!(parted.read()?, [1, 2, 3, -1, -2]);
/// assert_eq!(count, 3);
/// # Ok(()) }
/// ```
pub fn partition_if<T: Item>(
    dev: &Device,
    x: &Buffer<T>,
    pred: Pred<T>,
) -> Result<(Buffer<T>, usize)> {
    let mut select = Select::new(dev, x.len())?;
    let mut out = dev.zeros::<T>(x.len())?;
    let mut batch = dev.batch();
    select.enqueue_partition(&mut batch, x, pred, &mut out)?;
    batch.submit()?;
    let count = select.count().read()?[0] as usize;
    Ok((out, count))
}

/// A stable partition of `x` by flags: the elements `x[i]` with `flags[i] != 0` first, in
/// order, then the others, in order, with the number flagged.
///
/// ```
/// use sarek::algo::select::partition_flagged;
///
/// # fn main() -> sarek::Result<()> {
/// let dev = sarek::Device::new()?;
/// let x = dev.upload(&[1u32, 2, 3, 4])?;
/// let flags = dev.upload(&[0u32, 0, 1, 0])?;
/// let (parted, count) = partition_flagged(&dev, &x, &flags)?;
/// assert_eq!((parted.read()?, count), (vec![3, 1, 2, 4], 1));
/// # Ok(()) }
/// ```
pub fn partition_flagged<T: Item>(
    dev: &Device,
    x: &Buffer<T>,
    flags: &Buffer<u32>,
) -> Result<(Buffer<T>, usize)> {
    let mut select = Select::new(dev, x.len())?;
    let mut out = dev.zeros::<T>(x.len())?;
    let mut batch = dev.batch();
    select.enqueue_partition_flagged(&mut batch, x, flags, &mut out)?;
    batch.submit()?;
    let count = select.count().read()?[0] as usize;
    Ok((out, count))
}

/// The first element of each run of equal consecutive elements of `x`, in order (what
/// `Vec::dedup` leaves, CUB's `DeviceSelect::Unique`), in a buffer of exactly their number.
///
/// ```
/// use sarek::algo::select::unique;
///
/// # fn main() -> sarek::Result<()> {
/// let dev = sarek::Device::new()?;
/// let x = dev.upload(&[1.0f32, 1.0, 2.0, 2.0, 1.0])?;
/// assert_eq!(unique(&dev, &x)?.read()?, [1.0, 2.0, 1.0]);
/// # Ok(()) }
/// ```
pub fn unique<T: Item>(dev: &Device, x: &Buffer<T>) -> Result<Buffer<T>> {
    Select::new(dev, x.len())?.exact(x, None, Test::op(kernels::UNIQUE, false))
}

/// The runs of equal consecutive elements of `x`: each run's value and length, in order, in
/// two buffers of exactly the number of runs (CUB's `DeviceRunLengthEncode::Encode`).
///
/// ```
/// use sarek::algo::select::run_length_encode;
///
/// # fn main() -> sarek::Result<()> {
/// let dev = sarek::Device::new()?;
/// let x = dev.upload(&[0u32, 0, 0, 9, 9, 0])?;
/// let (values, lengths) = run_length_encode(&dev, &x)?;
/// assert_eq!(values.read()?, [0, 9, 0]);
/// assert_eq!(lengths.read()?, [3, 2, 1]);
/// # Ok(()) }
/// ```
pub fn run_length_encode<T: Item>(dev: &Device, x: &Buffer<T>) -> Result<(Buffer<T>, Buffer<u32>)> {
    let mut select = Select::new(dev, x.len())?;
    let test = Test::op(kernels::UNIQUE, false);
    let runs = select.count_now(x, None, test)?;
    let (mut values, mut starts, mut lengths) = (
        dev.zeros::<T>(runs)?,
        dev.zeros::<u32>(runs)?,
        dev.zeros::<u32>(runs)?,
    );
    let mut batch = dev.batch();
    select.enqueue_scatter(&mut batch, x, None, test, &mut values, Some(&mut starts))?;
    select.enqueue_lengths(&mut batch, runs, &starts, &mut lengths)?;
    batch.submit()?;
    Ok((values, lengths))
}
