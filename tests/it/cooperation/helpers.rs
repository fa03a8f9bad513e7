//! Helpers that cooperate: module `fn`s and methods that use the index intrinsics, take a
//! workgroup array by `&`/`&mut`, declare their own `shared::<..>()` array (one per
//! declaration, as CUDA's `__shared__` in a `__device__` function), wait at barriers and do
//! atomics. Each is checked against the host on the common device (lavapipe here, and the CPU
//! backend under `SAREK_DEVICE=cpu`); `differential::cooperating` runs them on every backend.

use crate::common;
use crate::common::backends;

use sarek::prelude::*;

#[sarek::module]
pub mod coop {
    use sarek::prelude::*;
    use std::sync::atomic::{AtomicU32, Ordering};

    /// Loads this thread's element of `x` (0 past the end) into its slot of `tile`.
    pub fn load(x: &[u32], tile: &mut [u32; 256]) {
        let i = global_idx_x();
        tile[thread_idx_x()] = if i < x.len() { x[i] } else { 0 };
    }

    /// Sums `tile` into `tile[0]`: a tree whose every step ends at a barrier.
    pub fn tree_sum(tile: &mut [u32; 256], lid: usize) {
        block_barrier();
        let mut stride = 128;
        while stride > 0 {
            if lid < stride {
                tile[lid] += tile[lid + stride];
            }
            block_barrier();
            stride /= 2;
        }
    }

    /// The sum of each workgroup's elements, its reduction tree a helper.
    #[sarek::kernel(workgroup_size = [256])]
    pub fn block_sums(x: &[u32], sums: &mut [u32]) {
        let tile = shared::<[u32; 256]>();
        load(x, tile);
        tree_sum(tile, thread_idx_x());
        if thread_idx_x() == 0 {
            sums[block_idx_x()] = tile[0];
        }
    }

    /// The sum of `v` over the workgroup, in an array the helper declares itself: every call
    /// (and every thread) shares the one array.
    pub fn group_total(v: u32) -> u32 {
        let scratch = shared::<[u32; 64]>();
        let t = thread_idx_x();
        scratch[t] = v;
        block_barrier();
        let mut stride = 32;
        while stride > 0 {
            if t < stride {
                scratch[t] += scratch[t + stride];
            }
            block_barrier();
            stride /= 2;
        }
        let total = scratch[0];
        // Everyone has read the total before the next call writes the array again.
        block_barrier();
        total
    }

    /// Each element minus its workgroup's mean, and the workgroup's sum of squares.
    #[sarek::kernel(workgroup_size = [64])]
    pub fn centred(x: &[u32], out: &mut [u32], squares: &mut [u32]) {
        let i = global_thread_id();
        let v = if i < x.len() { x[i] } else { 0 };
        let mean = group_total(v) / 64;
        let sq = group_total(v * v);
        if i < x.len() {
            out[i] = v.wrapping_sub(mean);
        }
        if thread_idx_x() == 0 {
            squares[block_idx_x()] = sq;
        }
    }

    /// A barrier loop bounded by an argument: uniform when the caller passes a uniform value.
    pub fn smooth(tile: &mut [u32; 64], rounds: u32) {
        let t = thread_idx_x();
        for _ in 0..rounds {
            let right = tile[(t + 1) % 64];
            block_barrier();
            tile[t] = (tile[t] + right) / 2;
            block_barrier();
        }
    }

    #[sarek::kernel(workgroup_size = [64])]
    pub fn smoothed(rounds: u32, x: &[u32], out: &mut [u32]) {
        let tile = shared::<[u32; 64]>();
        let i = global_thread_id();
        tile[thread_idx_x()] = if i < x.len() { x[i] } else { 0 };
        block_barrier();
        smooth(tile, rounds);
        if i < out.len() {
            out[i] = tile[thread_idx_x()];
        }
    }

    /// The thread's row-major index in a 2-D grid, through a helper calling a helper.
    pub fn row_major() -> usize {
        global_idx_y() * grid_dim_x() * block_dim_x() + column()
    }

    pub fn column() -> usize {
        global_idx_x()
    }

    /// Writes `v` at this thread's index, if it is in `out`.
    pub fn put(out: &mut [u32], v: u32) {
        let i = global_thread_id();
        if i < out.len() {
            out[i] = v;
        }
    }

    #[sarek::kernel(workgroup_size = [8, 4])]
    pub fn ids(out: &mut [u32]) {
        let r = row_major() as u32;
        put(out, r * 10 + thread_idx_y() as u32);
    }

    /// Counts `v` in the workgroup's histogram.
    pub fn count(bins: &[AtomicU32; 16], v: u32) {
        bins[(v % 16) as usize].fetch_add(1, Ordering::Relaxed);
    }

    /// Adds the workgroup's histogram into the global one.
    pub fn flush(bins: &[AtomicU32; 16], global: &[AtomicU32]) {
        let t = thread_idx_x();
        if t < 16 {
            global[t].fetch_add(bins[t].load(Ordering::Relaxed), Ordering::Relaxed);
        }
    }

    #[sarek::kernel(workgroup_size = [64])]
    pub fn histogram(x: &[u32], global: &[AtomicU32]) {
        let bins = shared::<[AtomicU32; 16]>();
        let i = global_thread_id();
        // No barrier in `count`: calling it under a divergent condition is fine.
        if i < x.len() {
            count(bins, x[i]);
        }
        block_barrier();
        flush(bins, global);
    }

    pub struct Lane {
        pub global: u32,
        pub local: u32,
    }

    #[allow(dead_code)] // called from the kernel, whose host body nothing runs here
    impl Lane {
        /// This thread's ids.
        pub fn here() -> Lane {
            Lane {
                global: global_thread_id() as u32,
                local: thread_idx_x() as u32,
            }
        }

        /// Its global id, offset by the workgroup's first.
        pub fn check(&self) -> u32 {
            self.global - (block_idx_x() * block_dim_x()) as u32 + self.local * 1000
        }
    }

    #[sarek::kernel(workgroup_size = [32])]
    pub fn lanes(out: &mut [u32]) {
        let l = Lane::here();
        let i = l.global as usize;
        if i < out.len() {
            out[i] = l.check();
        }
    }
}

use coop::*;

#[backends]
fn tree_reduction_in_a_helper_taking_the_workgroup_array(dev: Device) {
    let n = 256 * 9 + 77;
    let xs: Vec<u32> = common::random_u32(11, n).iter().map(|v| v % 1000).collect();
    let groups = n.div_ceil(256);
    let mut sums = dev.zeros::<u32>(groups).unwrap();
    block_sums
        .launch(&dev, Grid::cover(n), &dev.upload(&xs).unwrap(), &mut sums)
        .unwrap();
    let expect: Vec<u32> = xs.chunks(256).map(|c| c.iter().sum()).collect();
    assert_eq!(sums.read().unwrap(), expect);
    // The helpers use the kernel's array directly, and take the ids they use.
    assert_eq!(block_sums::ABI.workgroup_memory, 1024);
    assert!(block_sums::WGSL.contains("fn tree_sum("));
    assert!(block_sums::WGSL.contains("sarek_lid: vec3<u32>"));
}

#[backends]
fn a_helpers_own_workgroup_array_is_one_per_declaration(dev: Device) {
    let n = 64 * 5 + 3;
    let xs: Vec<u32> = common::random_u32(5, n).iter().map(|v| v % 100).collect();
    let groups = n.div_ceil(64);
    let mut out = dev.zeros::<u32>(n).unwrap();
    let mut squares = dev.zeros::<u32>(groups).unwrap();
    centred
        .launch(
            &dev,
            Grid::cover(n),
            &dev.upload(&xs).unwrap(),
            &mut out,
            &mut squares,
        )
        .unwrap();
    let mut expect_out = Vec::new();
    let mut expect_sq = Vec::new();
    for c in xs.chunks(64) {
        let mean = c.iter().sum::<u32>() / 64;
        expect_out.extend(c.iter().map(|v| v.wrapping_sub(mean)));
        expect_sq.push(c.iter().map(|v| v * v).sum::<u32>());
    }
    assert_eq!(out.read().unwrap(), expect_out);
    assert_eq!(squares.read().unwrap(), expect_sq);
    // Two calls, one array.
    assert_eq!(centred::ABI.workgroup_memory, 256);
    assert_eq!(centred::WGSL.matches("var<workgroup>").count(), 1);
}

#[backends]
fn a_barrier_loop_bounded_by_a_uniform_argument(dev: Device) {
    let n = 64 * 3;
    let xs: Vec<u32> = common::random_u32(8, n)
        .iter()
        .map(|v| v % 10_000)
        .collect();
    for rounds in [0u32, 1, 5] {
        let mut out = dev.zeros::<u32>(n).unwrap();
        smoothed
            .launch(
                &dev,
                Grid::cover(n),
                rounds,
                &dev.upload(&xs).unwrap(),
                &mut out,
            )
            .unwrap();
        let mut expect = Vec::new();
        for c in xs.chunks(64) {
            let mut tile = c.to_vec();
            for _ in 0..rounds {
                let right: Vec<u32> = (0..64).map(|t| tile[(t + 1) % 64]).collect();
                tile = (0..64).map(|t| (tile[t] + right[t]) / 2).collect();
            }
            expect.extend(tile);
        }
        assert_eq!(out.read().unwrap(), expect, "{rounds} rounds");
    }
}

#[backends]
fn helpers_use_the_invocations_ids(dev: Device) {
    let (w, h) = (8 * 3, 4 * 2);
    let mut out = dev.zeros::<u32>(w * h).unwrap();
    ids.launch(&dev, Grid::cover_2d(w, h), &mut out).unwrap();
    let expect: Vec<u32> = (0..h)
        .flat_map(|y| (0..w).map(move |x| ((y * w + x) * 10 + y % 4) as u32))
        .collect();
    assert_eq!(out.read().unwrap(), expect);
    // `row_major` takes the ids because `column`, which it calls, uses them.
    assert!(ids::WGSL.contains("fn row_major(sarek_lid: vec3<u32>"));
}

#[backends]
fn helpers_do_atomics_on_workgroup_arrays_and_buffers(dev: Device) {
    let n = 64 * 7 + 9;
    let xs = common::random_u32(21, n);
    let global = dev.zeros::<u32>(16).unwrap();
    histogram
        .launch(&dev, Grid::cover(n), &dev.upload(&xs).unwrap(), &global)
        .unwrap();
    let mut expect = vec![0u32; 16];
    for v in &xs {
        expect[(v % 16) as usize] += 1;
    }
    assert_eq!(global.read().unwrap(), expect);
}

#[backends]
fn methods_use_the_invocations_ids(dev: Device) {
    let n = 32 * 4 + 5;
    let mut out = dev.zeros::<u32>(n).unwrap();
    lanes.launch(&dev, Grid::cover(n), &mut out).unwrap();
    let expect: Vec<u32> = (0..n as u32).map(|i| i % 32 + (i % 32) * 1000).collect();
    assert_eq!(out.read().unwrap(), expect);
}
