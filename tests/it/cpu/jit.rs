//! The CPU backend's JIT: the benchmark kernels (saxpy, a polynomial, a tiled
//! matrix product, a tree reduction, a scan, a histogram with atomics) really run as machine
//! code and give the host's results; so do subgroup operations, `f16` and cooperative matrices.

use crate::common::cpu_only;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

use sarek::prelude::*;
use sarek::CpuEngine;

#[sarek::kernel]
fn saxpy(a: f32, x: &[f32], y: &mut [f32]) {
    let i = global_thread_id();
    if i < y.len() {
        y[i] = a * x[i] + y[i];
    }
}

#[sarek::kernel]
fn poly(a: f32, b: f32, c: f32, x: &[f32], y: &mut [f32]) {
    let i = global_thread_id();
    if i < y.len() {
        y[i] = (a * x[i] + b) * x[i] + c;
    }
}

#[sarek::kernel(workgroup_size = [16, 16])]
fn tiled(n: usize, a: &[f32], b: &[f32], c: &mut [f32]) {
    let ta = shared::<[[f32; 16]; 16]>();
    let tb = shared::<[[f32; 16]; 16]>();
    let (tx, ty) = (thread_idx_x(), thread_idx_y());
    let (row, col) = (global_idx_y(), global_idx_x());
    let mut acc = 0.0f32;
    for t in 0..(n + 15) / 16 {
        let ac = t * 16 + tx;
        ta[ty][tx] = if row < n && ac < n {
            a[row * n + ac]
        } else {
            0.0
        };
        let br = t * 16 + ty;
        tb[ty][tx] = if br < n && col < n {
            b[br * n + col]
        } else {
            0.0
        };
        block_barrier();
        for k in 0..16 {
            acc += ta[ty][k] * tb[k][tx];
        }
        block_barrier();
    }
    if row < n && col < n {
        c[row * n + col] = acc;
    }
}

#[sarek::kernel]
fn tree(x: &[u32], partial: &mut [u32]) {
    let tile = shared::<[u32; 256]>();
    let t = thread_idx_x();
    let i = global_idx_x();
    tile[t] = if i < x.len() { x[i] } else { 0 };
    block_barrier();
    let mut s = block_dim_x() / 2;
    while s > 0 {
        if t < s {
            tile[t] += tile[t + s];
        }
        block_barrier();
        s /= 2;
    }
    if t == 0 {
        partial[block_idx_x()] = tile[0];
    }
}

#[sarek::kernel]
fn scan(x: &[u32], out: &mut [u32]) {
    let a = shared::<[u32; 256]>();
    let b = shared::<[u32; 256]>();
    let t = thread_idx_x();
    let i = global_idx_x();
    a[t] = if i < x.len() { x[i] } else { 0 };
    block_barrier();
    let mut offset = 1usize;
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
    if i < out.len() {
        out[i] = if from_a { a[t] } else { b[t] };
    }
}

#[sarek::kernel]
fn histogram(data: &[u32], bins: &[AtomicU32]) {
    let local = shared::<[AtomicU32; 256]>();
    let t = thread_idx_x();
    local[t].store(0, Relaxed);
    block_barrier();
    let i = global_idx_x();
    if i < data.len() {
        local[(data[i] & 255) as usize].fetch_add(1, Relaxed);
    }
    block_barrier();
    let count = local[t].load(Relaxed);
    if count > 0 {
        bins[t].fetch_add(count, Relaxed);
    }
}

#[sarek::kernel(workgroup_size = [32])]
fn lanes(out: &mut [u32]) {
    let n = subgroup_add(1u32);
    out[global_thread_id()] = n;
}

/// The engine `SAREK_CPU_ENGINE` gives kernels the JIT compiles.
/// Every placement of a barrier kernel's locals (`jit/live.rs`): `t` and `i` recomputed per
/// segment, `v` in registers within one segment, `s` and `round` uniform (`s` set in the
/// middle of a segment, between a read and a read of its new value), `acc` in the frame.
#[sarek::kernel]
fn placements(k: u32, x: &[u32], out: &mut [u32]) {
    let tile = shared::<[u32; 256]>();
    let t = thread_idx_x();
    let i = global_idx_x();
    let mut acc = 0u32;
    let mut s = k;
    let mut round = 0u32;
    while round < 4 {
        let v = if i < x.len() { x[i] } else { 0 };
        acc += v * s;
        s = s * 2 + round;
        tile[t] = acc + s;
        block_barrier();
        acc += tile[(t + 1) % 256];
        block_barrier();
        round += 1;
    }
    if i < out.len() {
        out[i] = acc;
    }
}

/// Reads of a workgroup array at fixed indices, and of a buffer the kernel never writes, in a
/// loop whose other segment rewrites the array: the JIT may move such loads within a segment
/// but never out of it (`jit/effects.rs`).
#[sarek::kernel]
fn rereads(rounds: u32, x: &[u32], out: &mut [u32]) {
    let tile = shared::<[u32; 256]>();
    let t = thread_idx_x();
    let i = global_idx_x();
    let mut acc = 0u32;
    for r in 0..rounds {
        let v = if i < x.len() { x[i] } else { 0 };
        tile[t] = v + r * 7 + acc % 5;
        block_barrier();
        acc += tile[0] * 3 + tile[255] + x[0];
        block_barrier();
    }
    if i < out.len() {
        out[i] = acc;
    }
}

fn compiled() -> CpuEngine {
    match std::env::var("SAREK_CPU_ENGINE").as_deref() {
        Ok("interp") => CpuEngine::Interpreter,
        _ => CpuEngine::Jit,
    }
}

#[cpu_only]
fn the_benchmark_kernels_run_as_machine_code(dev: Device) {
    let sources = [
        saxpy::SOURCE,
        poly::SOURCE,
        tiled::SOURCE,
        tree::SOURCE,
        scan::SOURCE,
        histogram::SOURCE,
        placements::SOURCE,
        rereads::SOURCE,
    ];
    for source in sources {
        assert_eq!(
            dev.cpu_engine(source).unwrap(),
            Some(compiled()),
            "{}",
            source.abi().kernel
        );
    }
}

/// Subgroup operations are collectives the JIT runs too (`jit/collective/`), with the
/// interpreter's subgroups.
#[cpu_only]
fn a_subgroup_kernel_runs_as_machine_code(dev: Device) {
    assert_eq!(dev.cpu_engine(lanes::SOURCE).unwrap(), Some(compiled()));
    let mut out = dev.zeros::<u32>(64).unwrap();
    lanes.launch(&dev, Grid::cover(64), &mut out).unwrap();
    assert!(out.read().unwrap().iter().all(|&n| n == 32));
    // A GPU device has no CPU engine.
    if let Some(gpu) = crate::common::gpu_device() {
        assert_eq!(gpu.cpu_engine(lanes::SOURCE).unwrap(), None);
    }
}

#[cpu_only]
fn jit_element_wise_kernels_match_the_host(dev: Device) {
    let n = 10_000;
    let x: Vec<f32> = (0..n).map(|i| i as f32 * 0.37 - 900.0).collect();
    let y0: Vec<f32> = (0..n).map(|i| (i % 13) as f32 - 6.5).collect();
    let xb = dev.upload(&x).unwrap();
    let mut yb = dev.upload(&y0).unwrap();
    saxpy
        .launch(&dev, Grid::cover(n), 1.5, &xb, &mut yb)
        .unwrap();
    let want: Vec<f32> = x.iter().zip(&y0).map(|(x, y)| 1.5 * x + y).collect();
    assert_eq!(yb.read().unwrap(), want);
    poly.launch(&dev, Grid::cover(n), 2.0, -3.0, 0.5, &xb, &mut yb)
        .unwrap();
    let want: Vec<f32> = x.iter().map(|x| (2.0 * x - 3.0) * x + 0.5).collect();
    assert_eq!(yb.read().unwrap(), want);
}

#[cpu_only]
fn jit_workgroup_kernels_match_the_host(dev: Device) {
    // A tiled product of a size the tiles do not divide.
    let m = 40;
    let a: Vec<f32> = (0..m * m).map(|i| ((i * 7) % 13) as f32).collect();
    let b: Vec<f32> = (0..m * m).map(|i| ((i * 5) % 11) as f32).collect();
    let (ab, bb) = (dev.upload(&a).unwrap(), dev.upload(&b).unwrap());
    let mut cb = dev.zeros::<f32>(m * m).unwrap();
    tiled
        .launch(&dev, Grid::cover_2d(m, m), m, &ab, &bb, &mut cb)
        .unwrap();
    let c = cb.read().unwrap();
    for i in 0..m {
        for j in 0..m {
            let e: f32 = (0..m).map(|k| a[i * m + k] * b[k * m + j]).sum();
            assert_eq!(c[i * m + j], e, "({i}, {j})");
        }
    }
    // Tree sums, scans and a histogram over a length that ends inside a workgroup.
    let n = 256 * 9 + 77;
    let data = crate::common::random_u32(3, n);
    let small: Vec<u32> = data.iter().map(|v| v % 1000).collect();
    let xb = dev.upload(&small).unwrap();
    let mut partial = dev.zeros::<u32>(n.div_ceil(256)).unwrap();
    tree.launch(&dev, Grid::cover(n), &xb, &mut partial)
        .unwrap();
    let want: Vec<u32> = small.chunks(256).map(|c| c.iter().sum()).collect();
    assert_eq!(partial.read().unwrap(), want);
    let mut out = dev.zeros::<u32>(n).unwrap();
    scan.launch(&dev, Grid::cover(n), &xb, &mut out).unwrap();
    let mut want = Vec::new();
    for c in small.chunks(256) {
        let mut acc = 0;
        want.extend(c.iter().map(|v| {
            acc += v;
            acc
        }));
    }
    assert_eq!(out.read().unwrap(), want);
    let db = dev.upload(&data).unwrap();
    let bins = dev.zeros::<u32>(256).unwrap();
    histogram.launch(&dev, Grid::cover(n), &db, &bins).unwrap();
    let mut want = vec![0u32; 256];
    for v in &data {
        want[(v & 255) as usize] += 1;
    }
    assert_eq!(bins.read().unwrap(), want);
}

#[cpu_only]
fn jit_barrier_kernel_locals_keep_their_values(dev: Device) {
    let n = 256 * 3 + 40;
    let x: Vec<u32> = crate::common::random_u32(5, n)
        .iter()
        .map(|v| v % 100)
        .collect();
    let xb = dev.upload(&x).unwrap();
    let mut ob = dev.zeros::<u32>(n).unwrap();
    placements
        .launch(&dev, Grid::cover(n), 3, &xb, &mut ob)
        .unwrap();
    let mut want = vec![0u32; n];
    for g in 0..n.div_ceil(256) {
        let mut acc = [0u32; 256];
        let mut tile = [0u32; 256];
        let mut s = 3u32;
        for round in 0..4u32 {
            let next = s.wrapping_mul(2).wrapping_add(round);
            for t in 0..256 {
                let v = x.get(g * 256 + t).copied().unwrap_or(0);
                acc[t] = acc[t].wrapping_add(v.wrapping_mul(s));
                tile[t] = acc[t].wrapping_add(next);
            }
            s = next;
            for t in 0..256 {
                acc[t] = acc[t].wrapping_add(tile[(t + 1) % 256]);
            }
        }
        for t in 0..256 {
            if g * 256 + t < n {
                want[g * 256 + t] = acc[t];
            }
        }
    }
    assert_eq!(ob.read().unwrap(), want);
}

#[cpu_only]
fn jit_rereads_workgroup_memory_after_each_barrier(dev: Device) {
    let n = 256 * 2 + 17;
    let x: Vec<u32> = crate::common::random_u32(9, n)
        .iter()
        .map(|v| v % 1000)
        .collect();
    let xb = dev.upload(&x).unwrap();
    let mut ob = dev.zeros::<u32>(n).unwrap();
    let rounds = 5;
    rereads
        .launch(&dev, Grid::cover(n), rounds, &xb, &mut ob)
        .unwrap();
    let mut want = vec![0u32; n];
    for g in 0..n.div_ceil(256) {
        let mut acc = [0u32; 256];
        let mut tile = [0u32; 256];
        for r in 0..rounds {
            for t in 0..256 {
                let v = x.get(g * 256 + t).copied().unwrap_or(0);
                tile[t] = v.wrapping_add(r * 7).wrapping_add(acc[t] % 5);
            }
            for a in acc.iter_mut() {
                *a = a
                    .wrapping_add(tile[0].wrapping_mul(3))
                    .wrapping_add(tile[255])
                    .wrapping_add(x[0]);
            }
        }
        for t in 0..256 {
            if g * 256 + t < n {
                want[g * 256 + t] = acc[t];
            }
        }
    }
    assert_eq!(ob.read().unwrap(), want);
}

/// Four invocations at a time (`jit/lanes.rs`): an early return whose lanes part ways in the
/// last group, value `if`s, wrapping integer arithmetic and unsigned comparisons, a compound
/// store, two outputs, a read past the end of a shorter input (zero), and a size that
/// neither 4 nor the workgroup divides.
#[sarek::kernel]
fn lanes_mix(k: u32, s: f32, x: &[f32], m: &[u32], y: &mut [f32], z: &mut [u32]) {
    let i = global_thread_id();
    if i >= y.len() {
        return;
    }
    let v = x[i];
    let big = v > s;
    let w = if big { v * s - 1.0 } else { -v / s };
    let h = m[i] * 2654435761u32 + k;
    y[i] += w;
    z[i] = if h < 0x8000_0000 { h ^ m[i] } else { h - k };
}

/// A kernel the lanes loop leaves to the scalar loop: a buffer it writes read at another
/// index (lane `k` would read what lane `k - 1` wrote in the scalar order).
#[sarek::kernel]
fn lanes_shift(y: &mut [u32]) {
    let i = global_thread_id();
    if i > 0 && i < y.len() {
        y[i] = y[i - 1] + 1;
    }
}

/// An `if` whose lanes part ways before any store: the group runs its invocations one by one.
#[sarek::kernel]
fn lanes_diverge(x: &[i32], y: &mut [i32]) {
    let i = global_thread_id();
    let v = x[i];
    if v & 1 == 0 {
        y[i] = v * 7;
    } else {
        y[i] = -v;
    }
}

#[cpu_only]
fn jit_lanes_match_the_interpreter(dev: Device) {
    let interp = Device::cpu();
    interp.set_checks(true);
    let n = 1_000_003usize;
    let x: Vec<f32> = (0..n).map(|i| (i % 977) as f32 * 0.5 - 200.0).collect();
    let m: Vec<u32> = (0..n as u32).map(|i| i.wrapping_mul(2246822519)).collect();
    let y0: Vec<f32> = (0..n).map(|i| (i % 13) as f32 - 6.5).collect();
    let run = |d: &Device, x: &[f32]| {
        let (xb, mb) = (d.upload(x).unwrap(), d.upload(&m).unwrap());
        let mut yb = d.upload(&y0).unwrap();
        let mut zb = d.zeros::<u32>(n).unwrap();
        // One group past the end: its lanes part ways at the early return.
        lanes_mix
            .launch(
                d,
                Grid::cover(n + 5),
                12345,
                3.5,
                &xb,
                &mb,
                &mut yb,
                &mut zb,
            )
            .unwrap();
        (yb.read().unwrap(), zb.read().unwrap())
    };
    let (y, z) = run(&dev, &x);
    assert_eq!((y.clone(), z.clone()), run(&interp, &x));
    // Under `SAREK_CHECKS=1` every launch is checked, and the reads below fault on purpose.
    if !sarek_codegen::toggle::enabled("SAREK_CHECKS", false) {
        // A read past a shorter `x` is zero (a fault under checks, so against the host).
        let (ys, zs) = run(&dev, &x[..n - 10]);
        assert_eq!((&ys[..n - 10], &zs), (&y[..n - 10], &z));
        for i in n - 10..n {
            assert_eq!(ys[i], y0[i] + (-0.0f32 / 3.5), "{i}");
        }
        if compiled() == CpuEngine::Jit && sarek_codegen::toggle::enabled("SAREK_JIT_LANES", true) {
            assert!(dev.cpu_lanes(lanes_mix::SOURCE).unwrap());
            assert!(dev.cpu_lanes(lanes_diverge::SOURCE).unwrap());
            assert!(!dev.cpu_lanes(lanes_shift::SOURCE).unwrap());
        }
    }

    let mut shifted = Vec::new();
    // One workgroup: across workgroups the kernel races (which runs first is unspecified, and
    // the JIT's threads claim workgroups concurrently); within one, invocations run in order.
    for d in [&dev, &interp] {
        let mut yb = d.zeros::<u32>(256).unwrap();
        lanes_shift.launch(d, Grid::cover(256), &mut yb).unwrap();
        shifted.push(yb.read().unwrap());
    }
    assert_eq!(shifted[0], shifted[1]);

    let xi: Vec<i32> = (0..4099).map(|i| (i * 5) % 11 - 5).collect();
    let mut diverged = Vec::new();
    for d in [&dev, &interp] {
        let xb = d.upload(&xi).unwrap();
        let mut yb = d.zeros::<i32>(4099).unwrap();
        lanes_diverge
            .launch(d, Grid::cover(4096), &xb, &mut yb)
            .unwrap();
        diverged.push(yb.read().unwrap());
    }
    assert_eq!(diverged[0], diverged[1]);
    let want: Vec<i32> = xi[..4096]
        .iter()
        .map(|&v| if v & 1 == 0 { v * 7 } else { -v })
        .collect();
    assert_eq!(&diverged[0][..4096], &want[..]);
    assert_eq!(&diverged[0][4096..], &[0, 0, 0]);
}

/// `f16` arithmetic and a subgroup operation on halves.
#[sarek::kernel(workgroup_size = [64])]
fn half_sum(x: &[sarek::f16], y: &mut [sarek::f16], sizes: &mut [u32]) {
    let i = global_thread_id();
    let v = x[i];
    y[i] = subgroup_add(v * v);
    sizes[i] = subgroup_size();
}

/// A cooperative-matrix product of `f16` tiles into `f32` accumulators, one 16×16 tile.
#[sarek::kernel(workgroup_size = [32])]
fn half_tile(x: &[sarek::f16], y: &[sarek::f16], z: &mut [f32]) {
    let a = CoopMatrix::<sarek::f16, 16, sarek::coop::A>::load_rows(x, 0, 16);
    let b = CoopMatrix::<sarek::f16, 16, sarek::coop::B>::load_rows(y, 0, 16);
    let mut acc = CoopMatrix::<f32, 16, sarek::coop::C>::zeros();
    acc = a.multiply_add(b, acc);
    acc.store_rows(z, 0, 16);
}

/// Kernels with `f16`, subgroup operations on halves and cooperative matrices run as machine
/// code too (no interpreter fallback), with the host's results.
#[cpu_only]
fn f16_subgroup_and_matrix_kernels_run_as_machine_code() {
    use sarek::f16;
    let dev = Device::cpu();
    for source in [half_sum::SOURCE, half_tile::SOURCE] {
        assert_eq!(
            dev.cpu_engine(source).unwrap(),
            Some(compiled()),
            "{}",
            source.abi().kernel
        );
    }
    let x = dev.upload(&[f16::from_f32(0.5); 64]).unwrap();
    let mut y = dev.zeros::<f16>(64).unwrap();
    let mut sizes = dev.zeros::<u32>(64).unwrap();
    half_sum
        .launch(&dev, Grid::cover(64), &x, &mut y, &mut sizes)
        .unwrap();
    for (v, n) in y.read().unwrap().iter().zip(sizes.read().unwrap()) {
        assert_eq!(v.to_f32(), 0.25 * n as f32);
    }
    let ones = dev.upload(&[f16::ONE; 256]).unwrap();
    let mut z = dev.zeros::<f32>(256).unwrap();
    half_tile
        .launch(&dev, Grid::groups(1), &ones, &ones, &mut z)
        .unwrap();
    assert!(z.read().unwrap().iter().all(|&v| v == 16.0));
}
