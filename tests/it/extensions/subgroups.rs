//! Subgroup intrinsics (`sarek::gpu::subgroup_*`): every operation on the test device
//! (lavapipe here, subgroups of 8) and on the CPU backend with several subgroup sizes, so that
//! no kernel can silently depend on one. Expected values are computed on the host from the
//! subgroup size each run reports, with invocation `i` of a workgroup as lane `i % size`
//! (checked first: it holds on lavapipe, NVIDIA and the CPU backend).

use crate::common;
use crate::common::{backends, cpu_only, gpu_only};

use sarek::prelude::*;

/// Values written per invocation by `every_op`.
const K: usize = 30;

#[sarek::kernel(workgroup_size = [64])]
fn every_op(x: &[u32], f: &[f32], out: &mut [u32], fout: &mut [f32]) {
    let t = global_thread_id();
    let v = x[t];
    let lane = subgroup_invocation_id();
    let size = subgroup_size();
    let mut r = [0u32; 30];
    r[0] = size;
    r[1] = lane;
    r[2] = subgroup_add(v);
    r[3] = subgroup_mul(v);
    r[4] = subgroup_min(v);
    r[5] = subgroup_max(v);
    r[6] = subgroup_and(v);
    r[7] = subgroup_or(v);
    r[8] = subgroup_xor(v);
    r[9] = subgroup_exclusive_add(v);
    r[10] = subgroup_exclusive_mul(v);
    r[11] = subgroup_inclusive_add(v);
    r[12] = subgroup_inclusive_mul(v);
    r[13] = subgroup_all(v % 2 == 0) as u32;
    r[14] = subgroup_any(v == 7) as u32;
    let b = subgroup_ballot(v % 3 == 0);
    r[15] = b.x;
    r[16] = b.y;
    r[17] = b.z;
    r[18] = b.w;
    r[19] = subgroup_broadcast(v, 1);
    r[20] = subgroup_broadcast_first(v);
    r[21] = subgroup_shuffle(v, (lane + 3) % size);
    r[22] = subgroup_shuffle_xor(v, 1);
    r[23] = subgroup_shuffle_up(v, 1);
    r[24] = subgroup_shuffle_down(v, 2);
    r[25] = subgroup_elect() as u32;
    let s = v as i32 - 50;
    r[26] = subgroup_add(s) as u32;
    r[27] = subgroup_min(s) as u32;
    r[28] = subgroup_max(s) as u32;
    r[29] = subgroup_exclusive_add(s) as u32;
    for k in 0..30 {
        out[t * 30 + k] = r[k];
    }
    let g = f[t];
    fout[t * 4] = subgroup_add(g);
    fout[t * 4 + 1] = subgroup_min(g);
    fout[t * 4 + 2] = subgroup_max(g);
    fout[t * 4 + 3] = subgroup_inclusive_add(g);
}

/// What `every_op` should write for invocation `t`, given everything the invocations of its
/// subgroup read and the subgroup size.
fn expected(x: &[u32], f: &[f32], t: usize, size: usize) -> (Vec<Option<u32>>, [f32; 4]) {
    let lane = t % 64 % size;
    let first = t - lane;
    let group: Vec<u32> = x[first..first + size].to_vec();
    let fg: Vec<f32> = f[first..first + size].to_vec();
    let fold =
        |init: u32, op: fn(u32, u32) -> u32, vals: &[u32]| vals.iter().fold(init, |a, &b| op(a, b));
    let below = &group[..lane];
    let upto = &group[..=lane];
    let signed: Vec<i32> = group.iter().map(|&v| v as i32 - 50).collect();
    let mut ballot = [0u32; 4];
    for (i, v) in group.iter().enumerate() {
        if v % 3 == 0 {
            ballot[i / 32] |= 1 << (i % 32);
        }
    }
    let r: Vec<Option<u32>> = vec![
        Some(size as u32),
        Some(lane as u32),
        Some(fold(0, u32::wrapping_add, &group)),
        Some(fold(1, u32::wrapping_mul, &group)),
        group.iter().min().copied(),
        group.iter().max().copied(),
        Some(fold(u32::MAX, |a, b| a & b, &group)),
        Some(fold(0, |a, b| a | b, &group)),
        Some(fold(0, |a, b| a ^ b, &group)),
        Some(fold(0, u32::wrapping_add, below)),
        Some(fold(1, u32::wrapping_mul, below)),
        Some(fold(0, u32::wrapping_add, upto)),
        Some(fold(1, u32::wrapping_mul, upto)),
        Some(group.iter().all(|v| v % 2 == 0) as u32),
        Some(group.contains(&7) as u32),
        Some(ballot[0]),
        Some(ballot[1]),
        Some(ballot[2]),
        Some(ballot[3]),
        Some(group[1]),
        Some(group[0]),
        Some(group[(lane + 3) % size]),
        Some(group[lane ^ 1]),
        // Indeterminate from a lane that does not exist.
        lane.checked_sub(1).map(|l| group[l]),
        group.get(lane + 2).copied(),
        Some((lane == 0) as u32),
        Some(signed.iter().fold(0i32, |a, &b| a.wrapping_add(b)) as u32),
        signed.iter().min().map(|&v| v as u32),
        signed.iter().max().map(|&v| v as u32),
        Some(signed[..lane].iter().fold(0i32, |a, &b| a.wrapping_add(b)) as u32),
    ];
    let fsum: f32 = fg.iter().sum();
    let fmin = fg.iter().copied().fold(f32::INFINITY, f32::min);
    let fmax = fg.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let fscan: f32 = fg[..=lane].iter().sum();
    (r, [fsum, fmin, fmax, fscan])
}

/// Runs `every_op` on `dev` and checks every value against [`expected`] for the subgroup size
/// the run reports; returns that size.
fn check_every_op(dev: &Device) -> u32 {
    let n = 256;
    let x: Vec<u32> = common::random_u32(7, n)
        .iter()
        .map(|v| v % 20 + 1)
        .collect();
    // Small integers: every float sum is exact, whatever order the device adds in.
    let f: Vec<f32> = common::random_u32(9, n)
        .iter()
        .map(|v| (v % 41) as f32 - 20.0)
        .collect();
    let xb = dev.upload(&x).unwrap();
    let fb = dev.upload(&f).unwrap();
    let mut out = dev.zeros::<u32>(n * K).unwrap();
    let mut fout = dev.zeros::<f32>(n * 4).unwrap();
    every_op
        .launch(dev, Grid::cover(n), &xb, &fb, &mut out, &mut fout)
        .unwrap();
    let out = out.read().unwrap();
    let fout = fout.read().unwrap();
    let size = out[0] as usize;
    assert!(
        size.is_power_of_two() && (4..=64).contains(&size),
        "subgroup size {size} on {}",
        dev.name()
    );
    for t in 0..n {
        let (want, fwant) = expected(&x, &f, t, size);
        let got = &out[t * K..(t + 1) * K];
        for (k, (w, g)) in want.iter().zip(got).enumerate() {
            if let Some(w) = w {
                assert_eq!(
                    g,
                    w,
                    "value {k} of invocation {t} (subgroup size {size}) on {}",
                    dev.name()
                );
            }
        }
        assert_eq!(
            &fout[t * 4..t * 4 + 4],
            &fwant,
            "f32 values of invocation {t} on {}",
            dev.name()
        );
    }
    size as u32
}

#[backends]
fn every_subgroup_operation_on_the_test_device(dev: Device) {
    if !dev.features().contains(sarek::wgpu::Features::SUBGROUP) {
        eprintln!("skipping: {} has no subgroups", dev.name());
        return;
    }
    let size = check_every_op(&dev);
    eprintln!("subgroup size on {}: {size}", dev.name());
}

#[cpu_only]
fn every_subgroup_operation_on_the_cpu_backend_with_several_sizes(dev: Device) {
    for size in [4, 8, 32, 64] {
        assert_eq!(dev.set_subgroup_size(size), size);
        assert_eq!(check_every_op(&dev), size);
    }
}

#[cpu_only]
fn the_cpu_backend_defaults_to_subgroups_of_32() {
    if std::env::var_os("SAREK_CPU_SUBGROUP_SIZE").is_none() {
        assert_eq!(check_every_op(&Device::cpu()), 32);
    }
}

// A workgroup that the subgroup size does not divide: the last subgroup is partial and its
// operations see only its own lanes (on lavapipe, 12 = 8 + 4).
#[sarek::kernel(workgroup_size = [12])]
fn partial(out: &mut [u32]) {
    let t = global_thread_id();
    let n = subgroup_add(1u32);
    let first = subgroup_broadcast_first(thread_idx_x() as u32);
    out[t * 2] = n;
    out[t * 2 + 1] = first;
}

#[backends]
fn a_partial_subgroup_counts_only_its_lanes(dev: &Device) {
    if dev.is_cpu() {
        dev.set_subgroup_size(8);
    } else if !dev.features().contains(sarek::wgpu::Features::SUBGROUP) {
        return;
    }
    let mut out = dev.zeros::<u32>(24).unwrap();
    partial
        .launch(dev, Grid::groups([1, 1, 1]), &mut out)
        .unwrap();
    let out = out.read().unwrap();
    let size = every_op_size(dev);
    for t in 0..12 {
        let first = t / size * size;
        let count = (first + size).min(12) - first;
        assert_eq!(out[t * 2], count as u32, "invocation {t} on {}", dev.name());
        assert_eq!(
            out[t * 2 + 1],
            first as u32,
            "invocation {t} on {}",
            dev.name()
        );
    }
}

#[sarek::kernel(workgroup_size = [64])]
fn size_only(out: &mut [u32]) {
    out[global_thread_id()] = subgroup_size();
}

fn every_op_size(dev: &Device) -> usize {
    let mut out = dev.zeros::<u32>(64).unwrap();
    size_only.launch(dev, Grid::cover(64), &mut out).unwrap();
    out.read().unwrap()[0] as usize
}

// `subgroup_barrier()` orders the lanes of a subgroup: each lane writes its slot of workgroup
// memory, waits, and reads its neighbour's.
#[sarek::kernel(workgroup_size = [64])]
fn neighbours(out: &mut [u32]) {
    let slots = shared::<[u32; 64]>();
    let t = thread_idx_x();
    slots[t] = t as u32 * 10;
    subgroup_barrier();
    let size = subgroup_size() as usize;
    let lane = subgroup_invocation_id() as usize;
    let next = t - lane + (lane + 1) % size;
    out[global_thread_id()] = slots[next];
}

#[backends]
fn subgroup_barrier_orders_the_lanes_of_a_subgroup(dev: &Device) {
    if !dev.is_cpu()
        && !dev
            .features()
            .contains(sarek::wgpu::Features::SUBGROUP_BARRIER)
    {
        return;
    }
    let mut out = dev.zeros::<u32>(64).unwrap();
    neighbours.launch(dev, Grid::cover(64), &mut out).unwrap();
    let size = every_op_size(dev);
    let out = out.read().unwrap();
    for (t, v) in out.iter().enumerate() {
        let lane = t % size;
        assert_eq!(
            *v as usize,
            (t - lane + (lane + 1) % size) * 10,
            "on {}",
            dev.name()
        );
    }
}

#[test]
fn the_abi_lists_the_features_a_kernel_needs() {
    use sarek::abi::Feature;
    assert_eq!(&*every_op::ABI.features, [Feature::Subgroup]);
    assert_eq!(
        &*neighbours::ABI.features,
        [Feature::Subgroup, Feature::SubgroupBarrier]
    );
    assert!(every_op::WGSL.contains("@builtin(subgroup_size) sarek_sgsize: u32"));
    assert!(every_op::WGSL.contains("subgroupExclusiveAdd("));
    assert!(every_op::ABI.to_json().contains("\"SUBGROUP\""));
}

/// A wgpu device on the test adapter created with WebGPU's defaults: no features, default
/// limits. `None` under `SAREK_DEVICE=cpu` or without a GPU (a failure without one when
/// `SAREK_REQUIRE_GPU=1`).
pub(crate) fn bare_device() -> Option<Device> {
    if std::env::var("SAREK_DEVICE").as_deref() == Ok("cpu") {
        eprintln!("skipping a wgpu test: SAREK_DEVICE=cpu");
        return None;
    }
    let instance =
        wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    let adapter =
        match pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions::default()))
        {
            Ok(adapter) => adapter,
            // A missing adapter fails the test under `SAREK_REQUIRE_GPU=1`, as in `gpu_device`.
            Err(e) if sarek_codegen::toggle::enabled("SAREK_REQUIRE_GPU", false) => {
                panic!("SAREK_REQUIRE_GPU=1 but no GPU adapter: {e}")
            }
            Err(e) => {
                eprintln!("skipping a wgpu test: {e}");
                return None;
            }
        };
    let (device, queue) =
        pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor::default())).ok()?;
    Some(Device::from_wgpu(device, queue))
}

#[gpu_only]
fn a_device_without_subgroups_refuses_with_missing_feature() {
    let Some(dev) = bare_device() else { return };
    assert!(!dev.features().contains(sarek::wgpu::Features::SUBGROUP));
    let mut out = dev.zeros::<u32>(64).unwrap();
    match size_only.launch(&dev, Grid::cover(64), &mut out) {
        Err(
            e @ sarek::Error::MissingFeature {
                feature: sarek::abi::Feature::Subgroup,
                ..
            },
        ) => {
            let text = e.to_string();
            assert!(
                text.contains("`size_only`") && text.contains("SUBGROUP"),
                "{text}"
            );
        }
        other => panic!("expected MissingFeature, got {other:?}"),
    }
    // A kernel that needs no feature still runs there.
    let mut c = dev.zeros::<u32>(64).unwrap();
    crate::extensions::subgroups::plain
        .launch(&dev, Grid::cover(64), &mut c)
        .unwrap();
    assert_eq!(c.read().unwrap()[5], 5);
}

#[sarek::kernel(workgroup_size = [64])]
fn plain(out: &mut [u32]) {
    let t = global_thread_id();
    out[t] = t as u32;
}
