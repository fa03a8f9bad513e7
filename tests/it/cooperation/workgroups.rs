//! Threads of a workgroup working together: workgroup memory, barriers and atomics, each
//! checked against a computation on the host at sizes that are not multiples of the
//! workgroup.

use crate::common;
use crate::common::{backends, gpu_only};

use std::sync::atomic::{AtomicI32, AtomicU32, Ordering};

use sarek::prelude::*;
use sarek::Error;

#[sarek::kernel]
fn block_sum(x: &[u32], sums: &mut [u32]) {
    let tile = shared::<[u32; 256]>();
    let t = thread_idx_x();
    let i = global_idx_x();
    tile[t] = if i < x.len() { x[i] } else { 0 };
    block_barrier();
    let mut stride = block_dim_x() / 2;
    while stride > 0 {
        if t < stride {
            tile[t] += tile[t + stride];
        }
        block_barrier();
        stride /= 2;
    }
    if t == 0 {
        sums[block_idx_x()] = tile[0];
    }
}

#[backends]
fn tree_reduction_in_workgroup_memory(dev: Device) {
    let n = 256 * 37 + 100;
    let xs: Vec<u32> = common::random_u32(3, n).iter().map(|v| v % 1000).collect();
    let groups = n.div_ceil(256);
    let x = dev.upload(&xs).unwrap();
    let mut sums = dev.zeros::<u32>(groups).unwrap();
    block_sum
        .launch(&dev, Grid::cover(n), &x, &mut sums)
        .unwrap();
    let expect: Vec<u32> = xs.chunks(256).map(|c| c.iter().sum()).collect();
    assert_eq!(sums.read().unwrap(), expect);
    assert_eq!(block_sum::ABI.workgroup_memory, 1024);
    assert!(block_sum::WGSL.contains("var<workgroup> tile: array<u32, 256>;"));
    assert!(block_sum::WGSL.contains("workgroupBarrier();"));
}

#[sarek::kernel(workgroup_size = [16, 16])]
fn matmul(n: usize, a: &[f32], b: &[f32], c: &mut [f32]) {
    const TILE: usize = 16;
    let ta = shared::<[[f32; TILE]; TILE]>();
    let tb = shared::<[[f32; TILE]; TILE]>();
    let tx = thread_idx_x();
    let ty = thread_idx_y();
    let row = global_idx_y();
    let col = global_idx_x();
    let mut acc = 0.0f32;
    let tiles = (n + TILE - 1) / TILE;
    for t in 0..tiles {
        let ac = t * TILE + tx;
        ta[ty][tx] = if row < n && ac < n {
            a[row * n + ac]
        } else {
            0.0
        };
        let br = t * TILE + ty;
        tb[ty][tx] = if br < n && col < n {
            b[br * n + col]
        } else {
            0.0
        };
        block_barrier();
        for k in 0..TILE {
            acc += ta[ty][k] * tb[k][tx];
        }
        block_barrier();
    }
    if row < n && col < n {
        c[row * n + col] = acc;
    }
}

#[backends]
fn tiled_matrix_product(dev: Device) {
    let n = 45;
    // Small integers, so every product and sum is exact in f32.
    let av: Vec<f32> = common::random_u32(11, n * n)
        .iter()
        .map(|v| (v % 8) as f32)
        .collect();
    let bv: Vec<f32> = common::random_u32(12, n * n)
        .iter()
        .map(|v| (v % 8) as f32 - 3.0)
        .collect();
    let (a, b) = (dev.upload(&av).unwrap(), dev.upload(&bv).unwrap());
    let mut c = dev.zeros::<f32>(n * n).unwrap();
    matmul
        .launch(&dev, Grid::cover_2d(n, n), n, &a, &b, &mut c)
        .unwrap();
    let got = c.read().unwrap();
    for r in 0..n {
        for col in 0..n {
            let expect: f32 = (0..n).map(|k| av[r * n + k] * bv[k * n + col]).sum();
            assert_eq!(got[r * n + col], expect, "c[{r}][{col}]");
        }
    }
    assert!(matmul::WGSL.contains("array<array<f32, 16>, 16>"));
    assert_eq!(matmul::ABI.workgroup_memory, 2 * 16 * 16 * 4);
}

#[sarek::kernel]
fn histogram(data: &[u32], bins: &[AtomicU32]) {
    let local = shared::<[AtomicU32; 256]>();
    let t = thread_idx_x();
    local[t].store(0, Ordering::Relaxed);
    block_barrier();
    let i = global_idx_x();
    if i < data.len() {
        local[(data[i] % 256) as usize].fetch_add(1, Ordering::Relaxed);
    }
    block_barrier();
    let count = local[t].load(Ordering::Relaxed);
    if count > 0 {
        bins[t].fetch_add(count, Ordering::Relaxed);
    }
}

#[backends]
fn histogram_with_shared_atomic_bins(dev: Device) {
    let n = 256 * 20 + 77;
    let data: Vec<u32> = common::random_u32(5, n).iter().map(|v| v % 300).collect();
    let d = dev.upload(&data).unwrap();
    let bins = dev.zeros::<u32>(256).unwrap();
    histogram.launch(&dev, Grid::cover(n), &d, &bins).unwrap();
    let mut expect = vec![0u32; 256];
    for v in &data {
        expect[(v % 256) as usize] += 1;
    }
    assert_eq!(bins.read().unwrap(), expect);
}

#[sarek::kernel]
fn counters(
    values: &[i32],
    flags: &[u32],
    counter: &[AtomicU32],
    extremes: &[AtomicI32],
    slots: &mut [u32],
) {
    let i = global_thread_id();
    if i < values.len() {
        slots[i] = counter[0].fetch_add(1, Ordering::Relaxed);
        extremes[0].fetch_min(values[i], Ordering::SeqCst);
        extremes[1].fetch_max(values[i], Ordering::AcqRel);
        // An atomic in an arm of a value `if` runs once per invocation that takes the arm.
        let taken = if flags[i] == 1 {
            counter[1].fetch_add(1, Ordering::Relaxed) + 1
        } else {
            0
        };
        counter[2].fetch_or(1 << (i % 32) as u32, Ordering::Relaxed);
        counter[3].fetch_and(!(1u32 << (i % 32) as u32), Ordering::Relaxed);
        counter[4].fetch_xor(taken.min(1), Ordering::Relaxed);
        counter[5].fetch_sub(1, Ordering::Relaxed);
        counter[6].swap(7, Ordering::Relaxed);
        // A maximum through a compare-exchange loop.
        let v = values[i] as u32 & 0xffff;
        let mut current = counter[7].load(Ordering::Relaxed);
        loop {
            if current >= v {
                break;
            }
            let seen = counter[7]
                .compare_exchange(current, v, Ordering::Relaxed, Ordering::Relaxed)
                .unwrap_or_else(|x| x);
            if seen == current {
                break;
            }
            current = seen;
        }
        if counter[8]
            .compare_exchange(0, 1, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
        {
            counter[9].fetch_add(1, Ordering::Relaxed);
        }
    }
}

#[backends]
fn global_atomics_follow_std(dev: Device) {
    let n = 1000;
    let values: Vec<i32> = common::random_u32(21, n)
        .iter()
        .map(|&v| v as i32 >> 8)
        .collect();
    let flags: Vec<u32> = common::random_u32(22, n).iter().map(|v| v % 2).collect();
    let (vb, fb) = (dev.upload(&values).unwrap(), dev.upload(&flags).unwrap());
    let counter = dev
        .upload(&[0u32, 0, 0, u32::MAX, 0, 5000, 0, 0, 0, 0])
        .unwrap();
    let extremes = dev.upload(&[i32::MAX, i32::MIN]).unwrap();
    let mut slots = dev.zeros::<u32>(n).unwrap();
    counters
        .launch(
            &dev,
            Grid::cover(n),
            &vb,
            &fb,
            &counter,
            &extremes,
            &mut slots,
        )
        .unwrap();
    let c = counter.read().unwrap();
    let set = flags.iter().filter(|&&f| f == 1).count() as u32;
    assert_eq!(c[0], n as u32);
    assert_eq!(c[1], set, "one increment per invocation taking the arm");
    assert_eq!(c[2], u32::MAX);
    assert_eq!(c[3], 0);
    assert_eq!(c[4], set % 2);
    assert_eq!(c[5], 4000);
    assert_eq!(c[6], 7);
    assert_eq!(
        c[7],
        values.iter().map(|&v| v as u32 & 0xffff).max().unwrap()
    );
    assert_eq!(
        (c[8], c[9]),
        (1, 1),
        "exactly one compare_exchange succeeds"
    );
    let e = extremes.read().unwrap();
    assert_eq!(
        e,
        vec![*values.iter().min().unwrap(), *values.iter().max().unwrap()]
    );
    let mut s = slots.read().unwrap();
    s.sort();
    assert_eq!(
        s,
        (0..n as u32).collect::<Vec<_>>(),
        "fetch_add hands out each slot once"
    );
}

#[sarek::kernel]
fn scan(x: &[u32], out: &mut [u32]) {
    let a = shared::<[u32; 256]>();
    let b = shared::<[u32; 256]>();
    let t = thread_idx_x();
    a[t] = if t < x.len() { x[t] } else { 0 };
    block_barrier();
    let mut offset = 1usize;
    let mut from_a = true;
    while offset < block_dim_x() {
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
    if t < out.len() {
        out[t] = if from_a { a[t] } else { b[t] };
    }
}

#[backends]
fn hillis_steele_prefix_scan(dev: Device) {
    let n = 200;
    let xs: Vec<u32> = common::random_u32(31, n).iter().map(|v| v % 100).collect();
    let x = dev.upload(&xs).unwrap();
    let mut out = dev.zeros::<u32>(n).unwrap();
    scan.launch(&dev, Grid::groups([1, 1, 1]), &x, &mut out)
        .unwrap();
    let expect: Vec<u32> = xs
        .iter()
        .scan(0, |s, v| {
            *s += v;
            Some(*s)
        })
        .collect();
    assert_eq!(out.read().unwrap(), expect);
}

#[sarek::kernel(workgroup_size = [64])]
fn same_names(out: &mut [u32]) {
    let t = thread_idx_x();
    {
        let s = shared::<[u32; 64]>();
        s[t] = t as u32;
        block_barrier();
        out[t] = s[63 - t];
    }
    storage_barrier();
    {
        let s = shared::<[u32; 64]>();
        s[t] = 1000 + t as u32;
        block_barrier();
        out[64 + t] = s[63 - t];
    }
}

#[backends]
fn shared_arrays_with_the_same_name_do_not_collide(dev: Device) {
    let mut out = dev.zeros::<u32>(128).unwrap();
    same_names
        .launch(&dev, Grid::groups([1, 1, 1]), &mut out)
        .unwrap();
    let expect: Vec<u32> = (0..64).rev().chain((1000..1064).rev()).collect();
    assert_eq!(out.read().unwrap(), expect);
    assert_eq!(same_names::ABI.workgroup_memory, 512);
    assert!(same_names::WGSL.contains("storageBarrier();"));
}

// 32 KiB of workgroup memory: more than WebGPU guarantees, so declared as needing the
// device's limits (a portable kernel with it does not compile).
#[sarek::kernel(workgroup_size = [64], limits = "device")]
fn big_shared(out: &mut [f32]) {
    let big = shared::<[f32; 8192]>();
    let t = thread_idx_x();
    big[t] = 1.0;
    block_barrier();
    out[t] = big[63 - t];
}

#[gpu_only]
fn a_device_with_less_workgroup_memory_refuses_before_dispatch() {
    let Some(_) = common::gpu_device() else {
        return;
    };
    assert_eq!(big_shared::ABI.workgroup_memory, 32768);
    let instance =
        wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    let adapter =
        pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions::default()))
            .unwrap();
    // WebGPU's default limits: 16 KiB of workgroup memory.
    let (device, queue) =
        pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor::default())).unwrap();
    let dev = Device::from_wgpu(device, queue);
    let mut out = dev.zeros::<f32>(64).unwrap();
    match big_shared.launch(&dev, Grid::groups([1, 1, 1]), &mut out) {
        Err(
            e @ Error::WorkgroupMemory {
                needed: 32768,
                limit: 16384,
                ..
            },
        ) => {
            assert!(e.to_string().contains("workgroup memory"), "{e}")
        }
        other => panic!("expected WorkgroupMemory, got {other:?}"),
    }
}
