//! `AtomicF32`: `fetch_add`, `fetch_sub`, `load`, `store` and `swap` on a buffer (wgpu feature
//! `SHADER_FLOAT32_ATOMIC`) and in workgroup memory (portable: a compare-exchange loop over
//! the bits), on the test device and on the CPU backend.

use std::sync::atomic::Ordering::Relaxed;

use crate::common;
use crate::common::{backends, gpu_only};

use sarek::prelude::*;

// Every invocation adds its value to a buffer total and to its workgroup's total in workgroup
// memory; one invocation per workgroup then stores the workgroup total into `groups`.
#[sarek::kernel(workgroup_size = [64])]
fn float_sums(x: &[f32], total: &[AtomicF32], groups: &mut [f32]) {
    let t = thread_idx_x();
    let i = global_thread_id();
    let local = shared::<[AtomicF32; 1]>();
    if t == 0 {
        local[0].store(0.0, Relaxed);
    }
    block_barrier();
    let v = x[i];
    total[0].fetch_add(v, Relaxed);
    total[1].fetch_sub(v, Relaxed);
    local[0].fetch_add(v, Relaxed);
    block_barrier();
    if t == 0 {
        groups[block_idx_x()] = local[0].load(Relaxed);
    }
}

// `swap` returns the previous value; `load` and `store` on a buffer.
#[sarek::kernel(workgroup_size = [1])]
fn swaps(cell: &[AtomicF32], out: &mut [f32]) {
    let scratch = shared::<[AtomicF32; 2]>();
    scratch[1].store(2.5, Relaxed);
    out[0] = scratch[1].swap(-4.0, Relaxed);
    out[1] = scratch[1].load(Relaxed);
    out[2] = cell[0].swap(7.0, Relaxed);
    out[3] = cell[0].load(Relaxed);
    cell[1].store(0.25, Relaxed);
    out[4] = scratch[1].fetch_sub(1.0, Relaxed);
    out[5] = scratch[1].load(Relaxed);
}

/// Whether `dev` runs float atomics on buffers: the CPU backend always does; a GPU without
/// the feature skips, with a message.
fn has_float_atomics(dev: &Device) -> bool {
    let has = dev.is_cpu()
        || dev
            .features()
            .contains(sarek::wgpu::Features::SHADER_FLOAT32_ATOMIC);
    if !has {
        eprintln!(
            "{} has no float atomics: only the CPU backend runs them",
            dev.name()
        );
    }
    has
}

#[backends]
fn float_atomics_add_in_buffers_and_workgroup_memory(dev: Device) {
    let n = 64 * 8;
    // Small integers: every sum is exact in any order.
    let x: Vec<f32> = common::random_u32(3, n)
        .iter()
        .map(|v| (v % 17) as f32 - 8.0)
        .collect();
    if !has_float_atomics(&dev) {
        return;
    }
    let xb = dev.upload(&x).unwrap();
    let total = dev.upload(&[1.0f32, 0.0]).unwrap();
    let mut groups = dev.zeros::<f32>(8).unwrap();
    float_sums
        .launch(&dev, Grid::cover(n), &xb, &total, &mut groups)
        .unwrap();
    let sum: f32 = x.iter().sum();
    assert_eq!(
        total.read().unwrap(),
        [1.0 + sum, -sum],
        "on {}",
        dev.name()
    );
    let want: Vec<f32> = x.chunks(64).map(|c| c.iter().sum()).collect();
    assert_eq!(groups.read().unwrap(), want, "on {}", dev.name());
}

#[backends]
fn float_atomics_swap_load_and_store(dev: Device) {
    if !has_float_atomics(&dev) {
        return;
    }
    let cell = dev.upload(&[1.5f32, 0.0]).unwrap();
    let mut out = dev.zeros::<f32>(6).unwrap();
    swaps
        .launch(&dev, Grid::groups([1, 1, 1]), &cell, &mut out)
        .unwrap();
    assert_eq!(
        out.read().unwrap(),
        [2.5, -4.0, 1.5, 7.0, -4.0, -5.0],
        "on {}",
        dev.name()
    );
    assert_eq!(cell.read().unwrap(), [7.0, 0.25], "on {}", dev.name());
}

#[test]
fn only_buffer_float_atomics_need_the_feature() {
    use sarek::abi::Feature;
    assert_eq!(&*float_sums::ABI.features, [Feature::ShaderFloat32Atomic]);
    assert_eq!(float_sums::ABI.buffers[1].elem, "atomic<f32>");
    // Workgroup memory holds the bits in an `atomic<u32>`.
    assert!(float_sums::WGSL.contains("array<atomic<u32>, 1>"));
    assert!(float_sums::WGSL.contains("atomicAdd(&total["));
    assert!(float_sums::WGSL.contains("atomicCompareExchangeWeak("));
}

#[sarek::kernel(workgroup_size = [1])]
fn shared_only(out: &mut [f32]) {
    let s = shared::<[AtomicF32; 1]>();
    s[0].fetch_add(1.5, Relaxed);
    out[0] = s[0].load(Relaxed);
}

#[gpu_only]
fn a_device_without_float_atomics_refuses_buffer_ones_and_runs_workgroup_ones() {
    assert!(shared_only::ABI.features.is_empty());
    let Some(dev) = crate::extensions::subgroups::bare_device() else {
        return;
    };
    assert!(!dev
        .features()
        .contains(sarek::wgpu::Features::SHADER_FLOAT32_ATOMIC));
    let x = dev.upload(&[1.0f32; 64]).unwrap();
    let total = dev.zeros::<f32>(2).unwrap();
    let mut groups = dev.zeros::<f32>(1).unwrap();
    match float_sums.launch(&dev, Grid::cover(64), &x, &total, &mut groups) {
        Err(e @ sarek::Error::MissingFeature { .. }) => {
            let text = e.to_string();
            assert!(
                text.contains("SHADER_FLOAT32_ATOMIC") && text.contains("`AtomicF32` buffers"),
                "{text}"
            );
        }
        other => panic!("expected MissingFeature, got {other:?}"),
    }
    let mut out = dev.zeros::<f32>(1).unwrap();
    shared_only
        .launch(&dev, Grid::groups([1, 1, 1]), &mut out)
        .unwrap();
    assert_eq!(out.read().unwrap(), [1.5]);
}
