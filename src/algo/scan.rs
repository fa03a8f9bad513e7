//! An inclusive scan (prefix sum) of `f32`s on the device, written in Sarek: a library kernel
//! users call instead of writing their own.
//!
//! ```
//! use sarek::{algo::scan::Scan, Device, Vec4};
//!
//! # fn main() -> sarek::Result<()> {
//! let dev = Device::new()?;
//! let xs: Vec<f32> = (0..40_000).map(|i| (i % 3) as f32).collect();
//! let x = dev.upload(bytemuck::cast_slice::<f32, Vec4>(&xs))?;
//! let mut out = dev.zeros::<Vec4>(x.len())?;
//! let mut scan = Scan::new(&dev, x.len())?;
//! scan.run(&x, &mut out)?.wait()?;
//! let got: Vec<f32> = bytemuck::cast_slice(&out.read()?).to_vec();
//! assert_eq!(got[2], 3.0);
//! assert_eq!(got[39_999], xs.iter().sum::<f32>());
//! # Ok(())
//! # }
//! ```
//!
//! The floats travel as [`Vec4`]s (four per load and store: the passes are memory-bound, and
//! vector accesses are what reaches the device's bandwidth); pad the input with zeros to a
//! multiple of four, which changes no prefix of the real elements.
//!
//! The algorithm is a reduce-then-scan over tiles of [`TILE`] floats, in three passes that
//! each read their input once, coalesced:
//!
//! 1. [`scan_reduce`]: each workgroup adds one tile (eight `Vec4`s per thread, a tree in
//!    workgroup memory) into `sums`;
//! 2. [`scan_carry`]: one workgroup scans `sums` into `carry` (the inclusive prefix of the
//!    tiles);
//! 3. [`scan_apply`]: each workgroup scans its tile again, each thread its eight consecutive
//!    `Vec4`s, the threads' totals across the workgroup, and adds the carry of the tiles
//!    before it.
//!
//! Where the device has subgroups, pass 3 is [`scan_apply_sg`] (coalesced rows scanned with
//! subgroup operations), or [`scan_apply_sg_whole`] when the length is a multiple of a tile:
//! the same without guards, reading no length from the uniform block.
//!
//! It is portable: no workgroup waits for another (a single-pass scan with decoupled
//! look-back spins on its predecessors' flags, which relies on forward progress between
//! workgroups that WebGPU does not promise), no extension is needed, and it runs the same on
//! the CPU backend. Floats are added in a different order than a sequential loop would, so
//! results can differ from one in the last bits (exactly equal when every prefix is exact,
//! as with small integers).

use std::sync::atomic::{AtomicU32, Ordering};

use crate::prelude::*;
use crate::{Batch, Launch, Result};

/// The floats one workgroup of [`scan_reduce`] and [`scan_apply`] covers: 256 threads, eight
/// `Vec4`s each.
pub const TILE: usize = 8192;

/// The `Vec4`s of one tile.
const TILE4: usize = TILE / 4;

/// Pass 1: the sum of each tile of `x` into `sums[tile]`.
#[sarek::kernel(workgroup_size = [256])]
pub fn scan_reduce(x: &[Vec4], sums: &mut [f32]) {
    let tree = shared::<[f32; 256]>();
    let t = thread_idx_x();
    let first = block_idx_x() * 2048 + t;
    let n = x.len();
    let mut v = [Vec4::ZERO; 8];
    for k in 0..8 {
        if first + k * 256 < n {
            v[k] = x[first + k * 256];
        }
    }
    let s = ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7]));
    tree[t] = (s.x + s.y) + (s.z + s.w);
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
        sums[block_idx_x()] = tree[0];
    }
}

/// Pass 2, on one workgroup: `carry` = the inclusive scan of `sums`, in chunks of 8192 (each
/// thread 32 consecutive floats of a chunk), carrying the total from chunk to chunk.
#[sarek::kernel(workgroup_size = [256])]
pub fn scan_carry(sums: &[f32], carry: &mut [f32]) {
    let a = shared::<[f32; 256]>();
    let b = shared::<[f32; 256]>();
    let t = thread_idx_x();
    let m = sums.len();
    let mut total = 0.0f32;
    let mut c0 = 0;
    while c0 < m {
        let first = c0 + t * 32;
        // Every load is made, from a clamped index, and the value dropped after: a load
        // behind a branch waits for the loads before it, while unconditional ones are all in
        // flight together. The loops are nested (2 × 16) because Sarek unrolls a constant
        // loop of at most 16 trips, and only unrolled, with constant indices, does `v` stay
        // in registers (as one loop of 32, pass 2 took 21 µs on an H200).
        let mut v = [0.0f32; 32];
        for h in 0..2 {
            for k in 0..16 {
                let i = first + h * 16 + k;
                let at = if i < m { i } else { m - 1 };
                let value = sums[at];
                v[h * 16 + k] = if i < m { value } else { 0.0 };
            }
        }
        let mut run = 0.0f32;
        for h in 0..2 {
            for k in 0..16 {
                run += v[h * 16 + k];
                v[h * 16 + k] = run;
            }
        }
        a[t] = run;
        block_barrier();
        let mut offset = 1;
        let mut from_a = true;
        while offset < 256 {
            if from_a {
                b[t] = if t >= offset {
                    a[t] + a[t - offset]
                } else {
                    a[t]
                };
            } else {
                a[t] = if t >= offset {
                    b[t] + b[t - offset]
                } else {
                    b[t]
                };
            }
            block_barrier();
            from_a = !from_a;
            offset *= 2;
        }
        let before = if t == 0 {
            0.0
        } else if from_a {
            a[t - 1]
        } else {
            b[t - 1]
        };
        let chunk = if from_a { a[255] } else { b[255] };
        let add = total + before;
        for h in 0..2 {
            for k in 0..16 {
                if first + h * 16 + k < m {
                    carry[first + h * 16 + k] = v[h * 16 + k] + add;
                }
            }
        }
        total += chunk;
        block_barrier();
        c0 += 8192;
    }
}

/// Pass 3: the inclusive scan of each tile of `x` into `out`, plus `carry[tile - 1]`, the
/// sum of the tiles before it.
#[sarek::kernel(workgroup_size = [256])]
pub fn scan_apply(x: &[Vec4], carry: &[f32], out: &mut [Vec4]) {
    let a = shared::<[f32; 256]>();
    let b = shared::<[f32; 256]>();
    let t = thread_idx_x();
    let g = block_idx_x();
    let first = g * 2048 + t * 8;
    let n = x.len();
    let mut v = [Vec4::ZERO; 8];
    for k in 0..8 {
        let at = if first + k < n { first + k } else { n - 1 };
        let value = x[at];
        v[k] = if first + k < n { value } else { Vec4::ZERO };
    }
    let mut run = 0.0f32;
    for k in 0..8 {
        let e = v[k];
        let p0 = run + e.x;
        let p1 = p0 + e.y;
        let p2 = p1 + e.z;
        let p3 = p2 + e.w;
        v[k] = Vec4::new(p0, p1, p2, p3);
        run = p3;
    }
    a[t] = run;
    block_barrier();
    let mut offset = 1;
    let mut from_a = true;
    while offset < 256 {
        if from_a {
            b[t] = if t >= offset {
                a[t] + a[t - offset]
            } else {
                a[t]
            };
        } else {
            a[t] = if t >= offset {
                b[t] + b[t - offset]
            } else {
                b[t]
            };
        }
        block_barrier();
        from_a = !from_a;
        offset *= 2;
    }
    let before = if t == 0 {
        0.0
    } else if from_a {
        a[t - 1]
    } else {
        b[t - 1]
    };
    let tiles = if g > 0 { carry[g - 1] } else { 0.0 };
    let add = Vec4::splat(tiles + before);
    for k in 0..8 {
        if first + k < n {
            out[first + k] = v[k] + add;
        }
    }
}

/// Pass 3 with subgroups (`SUBGROUP`): [`scan_apply`] with coalesced loads, for any length
/// (the library runs [`scan_apply_sg_whole`] instead when every tile is whole). Logical
/// thread `l` (numbered in the order in which the subgroups take them from a counter, so that
/// nothing is assumed about which invocations share a subgroup) owns `Vec4` `l` of each of
/// the tile's eight rows of 256 `Vec4`s; each row is scanned across the subgroups (a subgroup
/// scan, then the totals of the subgroups before it), the rows one after the other.
#[sarek::kernel(workgroup_size = [256])]
pub fn scan_apply_sg(x: &[Vec4], carry: &[f32], out: &mut [Vec4]) {
    let taken = shared::<[AtomicU32; 1]>();
    let slots = shared::<[AtomicU32; 1]>();
    let bases = shared::<[u32; 64]>();
    let totals = shared::<[[f32; 8]; 64]>();
    let g = block_idx_x();
    let rank = subgroup_exclusive_add(1u32);
    let count = subgroup_add(1u32);
    let mut mine = 0u32;
    if subgroup_elect() {
        mine = taken[0].fetch_add(count, Ordering::Relaxed);
    }
    let base = subgroup_add(mine);
    let l = (base + rank) as usize;
    let first = g * 2048 + l;
    let n = x.len();
    // Unconditional loads from clamped indices, all in flight together (see `scan_carry`).
    let mut v = [Vec4::ZERO; 8];
    for k in 0..8 {
        let at = if first + k * 256 < n {
            first + k * 256
        } else {
            n - 1
        };
        let value = x[at];
        v[k] = if first + k * 256 < n {
            value
        } else {
            Vec4::ZERO
        };
    }
    let mut before = [0.0f32; 8];
    let mut row = [0.0f32; 8];
    for k in 0..8 {
        let e = v[k];
        let p1 = e.x + e.y;
        let p2 = p1 + e.z;
        let p3 = p2 + e.w;
        v[k] = Vec4::new(e.x, p1, p2, p3);
        before[k] = subgroup_exclusive_add(p3);
        row[k] = subgroup_add(p3);
    }
    if subgroup_elect() {
        let slot = slots[0].fetch_add(1, Ordering::Relaxed) as usize;
        bases[slot] = base;
        for k in 0..8 {
            totals[slot][k] = row[k];
        }
    }
    block_barrier();
    let nslots = slots[0].load(Ordering::Relaxed) as usize;
    let mut rows = [0.0f32; 8];
    let mut s = 0;
    while s < nslots {
        let earlier = bases[s] < base;
        for k in 0..8 {
            let tk = totals[s][k];
            rows[k] += tk;
            if earlier {
                before[k] += tk;
            }
        }
        s += 1;
    }
    let mut prefix = if g > 0 { carry[g - 1] } else { 0.0 };
    for k in 0..8 {
        if first + k * 256 < n {
            out[first + k * 256] = v[k] + Vec4::splat(prefix + before[k]);
        }
        prefix += rows[k];
    }
}

/// Pass 3 with subgroups when every tile is whole (the length a multiple of 2048 `Vec4`s,
/// [`TILE`] floats): [`scan_apply_sg`] without guards, reading no length. Reading nothing
/// from the uniform block is the point: on an H200, pass 3 reading the slice length from the
/// uniform block (to guard, or only to decide that a tile is whole) took about 1.5% longer
/// than its twin, which takes the length from `arrayLength` (BENCHMARKS.md, "The scan's whole
/// tiles"). Launched on a tile past the end of `x` or `out`, its loads and stores are out of
/// bounds, which Sarek makes safe as it does for any kernel; the library never does.
#[sarek::kernel(workgroup_size = [256])]
pub fn scan_apply_sg_whole(x: &[Vec4], carry: &[f32], out: &mut [Vec4]) {
    let taken = shared::<[AtomicU32; 1]>();
    let slots = shared::<[AtomicU32; 1]>();
    let bases = shared::<[u32; 64]>();
    let totals = shared::<[[f32; 8]; 64]>();
    let g = block_idx_x();
    let rank = subgroup_exclusive_add(1u32);
    let count = subgroup_add(1u32);
    let mut mine = 0u32;
    if subgroup_elect() {
        mine = taken[0].fetch_add(count, Ordering::Relaxed);
    }
    let base = subgroup_add(mine);
    let l = (base + rank) as usize;
    let first = g * 2048 + l;
    let mut v = [Vec4::ZERO; 8];
    for k in 0..8 {
        v[k] = x[first + k * 256];
    }
    let mut before = [0.0f32; 8];
    let mut row = [0.0f32; 8];
    for k in 0..8 {
        let e = v[k];
        let p1 = e.x + e.y;
        let p2 = p1 + e.z;
        let p3 = p2 + e.w;
        v[k] = Vec4::new(e.x, p1, p2, p3);
        before[k] = subgroup_exclusive_add(p3);
        row[k] = subgroup_add(p3);
    }
    if subgroup_elect() {
        let slot = slots[0].fetch_add(1, Ordering::Relaxed) as usize;
        bases[slot] = base;
        for k in 0..8 {
            totals[slot][k] = row[k];
        }
    }
    block_barrier();
    let nslots = slots[0].load(Ordering::Relaxed) as usize;
    let mut rows = [0.0f32; 8];
    let mut s = 0;
    while s < nslots {
        let earlier = bases[s] < base;
        for k in 0..8 {
            let tk = totals[s][k];
            rows[k] += tk;
            if earlier {
                before[k] += tk;
            }
        }
        s += 1;
    }
    let mut prefix = if g > 0 { carry[g - 1] } else { 0.0 };
    for k in 0..8 {
        out[first + k * 256] = v[k] + Vec4::splat(prefix + before[k]);
        prefix += rows[k];
    }
}

/// A scan of `len` `Vec4`s (`4 * len` floats) with its scratch buffers: make one per size and
/// reuse it, so that a scan allocates nothing.
pub struct Scan {
    /// The number of `Vec4`s scanned.
    len: usize,
    /// One sum per tile (pass 1's output).
    sums: Buffer<f32>,
    /// Their inclusive scan (pass 2's output).
    carry: Buffer<f32>,
    /// Whether pass 3 uses subgroup operations ([`scan_apply_sg`]).
    subgroups: bool,
    /// Whether the passes' pipelines were made ([`Device::prepare`], at the first enqueue).
    prepared: bool,
}

impl Scan {
    /// Scratch for scans of `len` `Vec4`s on `dev`: with subgroup operations where `dev` has
    /// the `SUBGROUP` feature (coalesced loads: about twice as fast on an H200), with the
    /// portable passes otherwise.
    pub fn new(dev: &Device, len: usize) -> Result<Scan> {
        let subgroups = super::subgroups(dev);
        Scan::with_subgroups(dev, len, subgroups)
    }

    /// [`Scan::new`] with the choice made by the caller: `subgroups = false` runs the portable
    /// passes on any device (and is how tests compare both).
    pub fn with_subgroups(dev: &Device, len: usize, subgroups: bool) -> Result<Scan> {
        let tiles = len.div_ceil(TILE4).max(1);
        Ok(Scan {
            len,
            sums: dev.zeros(tiles)?,
            carry: dev.zeros(tiles)?,
            subgroups,
            prepared: false,
        })
    }

    /// Whether every tile is whole (the length a multiple of a tile's 2048 `Vec4`s), so that
    /// pass 3 runs [`scan_apply_sg_whole`].
    fn whole(&self) -> bool {
        self.len.is_multiple_of(TILE4)
    }

    /// The number of workgroups of passes 1 and 3.
    fn tiles(&self) -> u32 {
        self.len.div_ceil(TILE4).max(1) as u32
    }

    /// Adds the three passes that write the inclusive scan of `x` into `out` to `batch`.
    /// `x` and `out` must hold the `len` `Vec4`s this scan was made for
    /// ([`Error::BadArguments`](crate::Error::BadArguments) otherwise). The first call makes
    /// the three passes' pipelines at the same time ([`Device::prepare`]).
    pub fn enqueue(
        &mut self,
        batch: &mut Batch,
        x: &Buffer<Vec4>,
        out: &mut Buffer<Vec4>,
    ) -> Result<()> {
        for (what, len) in [("x", x.len()), ("out", out.len())] {
            if len != self.len {
                return Err(super::bad_arguments(
                    "scan",
                    format!(
                        "the scan was made for {} Vec4s; `{what}` holds {len}",
                        self.len
                    ),
                ));
            }
        }
        if self.len == 0 {
            return Ok(());
        }
        if !self.prepared {
            // The three pipelines compile at the same time, not one at each pass's first
            // enqueue (on an H200, 31 + 47 + 72 ms one after another).
            let apply = if !self.subgroups {
                scan_apply::SOURCE
            } else if self.whole() {
                scan_apply_sg_whole::SOURCE
            } else {
                scan_apply_sg::SOURCE
            };
            x.device()
                .prepare(&[scan_reduce::SOURCE, scan_carry::SOURCE, apply])?;
            self.prepared = true;
        }
        let tiles = self.tiles();
        scan_reduce.enqueue(batch, Grid::groups([tiles, 1, 1]), x, &mut self.sums)?;
        let one = Grid::groups([1, 1, 1]);
        let grid = Grid::groups([tiles, 1, 1]);
        scan_carry.enqueue(batch, one, &self.sums, &mut self.carry)?;
        if !self.subgroups {
            scan_apply.enqueue(batch, grid, x, &self.carry, out)
        } else if self.whole() {
            scan_apply_sg_whole.enqueue(batch, grid, x, &self.carry, out)
        } else {
            // A partial last tile: the general kernel on every tile. (Whole tiles apart and
            // the last one in a second dispatch measured 5 µs slower at 2^26 - 4 floats on an
            // H200: the second dispatch waits for the first, both writing `out`.)
            scan_apply_sg.enqueue(batch, grid, x, &self.carry, out)
        }
    }

    /// Writes the inclusive scan of `x` into `out`: the three passes in one submission.
    pub fn run(&mut self, x: &Buffer<Vec4>, out: &mut Buffer<Vec4>) -> Result<Launch> {
        let mut batch = x.device().batch();
        self.enqueue(&mut batch, x, out)?;
        batch.submit()
    }
}
