//! Entry points whose indices the macro proved in bounds (`sarek_proof::in_bounds`): their
//! source lists them, the runtime creates them without naga's index clamps on a Vulkan device
//! with robust buffer access (`sarek-rt`'s `launch/unclamped.rs`), and they give the results
//! the CPU backend gives, as does a kernel whose index is not proven (and is clamped).

use crate::common::{backends, gpu_only};

use sarek::prelude::*;

const N: usize = 1000;

/// Reverses each block of 64 through workgroup memory: `63 - t` is within `0..64`.
#[sarek::kernel(workgroup_size = [64])]
fn reverse_blocks(x: &[f32], out: &mut [f32]) {
    let t = thread_idx_x();
    let i = global_idx_x();
    let s = shared::<[f32; 64]>();
    s[t] = if i < x.len() { x[i] } else { 0.0 };
    block_barrier();
    if i < out.len() {
        out[i] = s[63 - t];
    }
}

/// Reads `t + k` of the block: past the end for `k > 0`, where the index clamps to 63 on
/// every backend; not proven, so the module keeps naga's clamps.
#[sarek::kernel(workgroup_size = [64])]
fn shift_blocks(x: &[f32], out: &mut [f32], k: u32) {
    let t = thread_idx_x();
    let i = global_idx_x();
    let s = shared::<[f32; 64]>();
    s[t] = if i < x.len() { x[i] } else { 0.0 };
    block_barrier();
    if i < out.len() {
        out[i] = s[t + k as usize];
    }
}

fn input() -> Vec<f32> {
    (0..N).map(|i| i as f32 * 0.5 - 7.0).collect()
}

/// What both kernels compute, on the host: element `j(t)` of each block of 64 (zero past
/// the end of `x`).
fn expected(x: &[f32], pick: impl Fn(usize) -> usize) -> Vec<f32> {
    (0..N)
        .map(|i| {
            let j = (i / 64) * 64 + pick(i % 64);
            x.get(j).copied().unwrap_or(0.0)
        })
        .collect()
}

#[test]
fn sources_list_the_entry_points_proven_in_bounds() {
    assert!(
        reverse_blocks::SOURCE.in_bounds().contains(&"sarek_main"),
        "{:?}",
        reverse_blocks::SOURCE.in_bounds()
    );
    assert!(
        !shift_blocks::SOURCE.in_bounds().contains(&"sarek_main"),
        "{:?}",
        shift_blocks::SOURCE.in_bounds()
    );
}

#[backends]
fn proven_and_clamped_kernels_give_the_cpu_backends_results(dev: Device) {
    // On a Vulkan device (lavapipe, NVIDIA) the proven kernel runs without index clamps.
    if dev.backend() == Some(sarek::wgpu::Backend::Vulkan)
        && std::env::var("SAREK_UNCLAMPED").as_deref() != Ok("0")
    {
        assert!(dev.drops_proven_clamps(), "{}", dev.name());
    }
    let x = input();
    // `shift_blocks` reads past the end on purpose: clamped, not a fault (`SAREK_CHECKS=1`
    // would stop the CPU backend's launch there).
    dev.set_checks(false);
    let xs = dev.upload(&x).unwrap();
    let mut out = dev.zeros::<f32>(N).unwrap();
    reverse_blocks
        .launch(&dev, Grid::cover(N), &xs, &mut out)
        .unwrap()
        .wait()
        .unwrap();
    assert_eq!(
        out.read().unwrap(),
        expected(&x, |t| 63 - t),
        "{}",
        dev.name()
    );
    for k in [0u32, 5] {
        shift_blocks
            .launch(&dev, Grid::cover(N), &xs, &mut out, k)
            .unwrap()
            .wait()
            .unwrap();
        let want = expected(&x, |t| (t + k as usize).min(63));
        assert_eq!(out.read().unwrap(), want, "{} k {k}", dev.name());
    }
}

/// A hand-written source that claims its entry point is in bounds when it reads past a
/// workgroup array of four: thread `i` reads element `i`.
static FORGED: sarek::__private::KernelSource = {
    use sarek::abi::{Abi, Access, BufferBinding, FieldSource, Uniform, UniformField, ENTRY_POINT};
    use std::borrow::Cow::Borrowed as B;
    sarek::__private::KernelSource::new(
        "struct U { grid: vec3<u32>, len: u32 }
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@group(0) @binding(1) var<uniform> u: U;
var<workgroup> s: array<u32, 4>;
@compute @workgroup_size(64) fn sarek_main(@builtin(local_invocation_index) t: u32) {
    if t < 4u { s[t] = 10u * (t + 1u); }
    workgroupBarrier();
    if t < u.len { out[t] = s[t]; }
}",
        Abi {
            kernel: B("forged"),
            entry_point: B(ENTRY_POINT),
            workgroup_size: [64, 1, 1],
            buffers: B(&[BufferBinding {
                binding: 0,
                param: 0,
                name: B("out"),
                elem: B("u32"),
                stride: 4,
                access: Access::ReadWrite,
            }]),
            uniform: Uniform {
                binding: 1,
                size: 16,
                fields: B(&[
                    UniformField {
                        name: B("sarek_grid"),
                        offset: 0,
                        source: FieldSource::Grid,
                    },
                    UniformField {
                        name: B("sarek_len0"),
                        offset: 12,
                        source: FieldSource::Length { param: 0 },
                    },
                ]),
            },
            workgroup_memory: 16,
            launch_sized: B(&[]),
            coarsened: false,
            vectorised: false,
            features: B(&[]),
            limits: sarek::abi::Limits::Portable,
            debug: false,
        },
        concat!(file!(), ":", line!()),
    )
    // A lie: the index `t` runs to 63.
    .with_in_bounds(&["sarek_main"], false)
};

#[gpu_only]
fn a_forged_proof_keeps_the_index_clamps(dev: Device) {
    let mut out = dev.zeros::<u32>(64).unwrap();
    let before = dev.pipelines_unclamped();
    sarek::__private::launch(
        &dev,
        &FORGED,
        Grid::cover(64),
        &[sarek::__private::Arg::write(&mut out)],
    )
    .unwrap()
    .wait()
    .unwrap();
    // naga's clamp reads element 3 for every index past it.
    let want: Vec<u32> = (0..64).map(|t: u32| 10 * (t.min(3) + 1)).collect();
    assert_eq!(out.read().unwrap(), want, "{}", dev.name());
    assert_eq!(
        dev.pipelines_unclamped(),
        before,
        "the forged module ran unclamped"
    );
    // A kernel the proof holds for still runs without them where the device allows it.
    let x = dev.upload(&input()).unwrap();
    let mut y = dev.zeros::<f32>(N).unwrap();
    reverse_blocks
        .launch(&dev, Grid::cover(N), &x, &mut y)
        .unwrap()
        .wait()
        .unwrap();
    let proven = usize::from(dev.drops_proven_clamps());
    assert_eq!(dev.pipelines_unclamped(), before + proven, "{}", dev.name());
}
