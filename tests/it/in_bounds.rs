//! Entry points whose indices the macro proved in bounds (`sarek_codegen::in_bounds`): their
//! source lists them, the runtime creates them without naga's index clamps on a Vulkan device
//! with robust buffer access (`sarek-rt`'s `launch/unclamped.rs`), and they give the results
//! the CPU backend gives, as does a kernel whose index is not proven (and is clamped).

use crate::common;

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
        reverse_blocks::SOURCE.in_bounds.contains(&"sarek_main"),
        "{:?}",
        reverse_blocks::SOURCE.in_bounds
    );
    assert!(
        !shift_blocks::SOURCE.in_bounds.contains(&"sarek_main"),
        "{:?}",
        shift_blocks::SOURCE.in_bounds
    );
}

#[test]
fn proven_and_clamped_kernels_give_the_cpu_backends_results() {
    let Some(dev) = common::device() else { return };
    // On a Vulkan device (lavapipe, NVIDIA) the proven kernel runs without index clamps.
    if dev.backend() == Some(sarek::wgpu::Backend::Vulkan)
        && std::env::var("SAREK_UNCLAMPED").as_deref() != Ok("0")
    {
        assert!(dev.drops_proven_clamps(), "{}", dev.name());
    }
    let x = input();
    for d in [dev, Device::cpu()] {
        // `shift_blocks` reads past the end on purpose: clamped, not a fault (`SAREK_CHECKS=1`
        // would stop the CPU backend's launch there).
        d.set_checks(false);
        let xs = d.upload(&x).unwrap();
        let mut out = d.zeros::<f32>(N).unwrap();
        reverse_blocks
            .launch(&d, Grid::cover(N), &xs, &mut out)
            .unwrap()
            .wait()
            .unwrap();
        assert_eq!(
            out.read().unwrap(),
            expected(&x, |t| 63 - t),
            "{}",
            d.name()
        );
        for k in [0u32, 5] {
            shift_blocks
                .launch(&d, Grid::cover(N), &xs, &mut out, k)
                .unwrap()
                .wait()
                .unwrap();
            let want = expected(&x, |t| (t + k as usize).min(63));
            assert_eq!(out.read().unwrap(), want, "{} k {k}", d.name());
        }
    }
}
