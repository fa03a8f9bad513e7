//! Tiered compilation (`sarek-rt`'s `launch/tiered.rs`): a kernel whose lowering unrolled
//! `for` loops embeds a quick form (the same kernel with those loops rolled); its first launch
//! without a cached pipeline runs the quick form while the optimized pipeline compiles on a
//! thread, and its next launch switches. Results are the same either way, on the test device
//! and on the CPU backend (which has nothing to compile, so no tiers).

use crate::common;
use crate::common::{backends, gpu_only};

use sarek::prelude::*;

/// Sixteen values per thread in a local array, then sixteen rounds of products into sixteen
/// accumulators: the `for` loops index the arrays with their counters, so the lowering unrolls
/// them (256 copies of the inner body, long enough for the runtime to tier it) and the
/// kernel has a quick form.
#[sarek::kernel]
pub(crate) fn blocked_sum(x: &[f32], out: &mut [f32]) {
    let i = global_idx_x();
    let mut v = [0.0f32; 16];
    for k in 0..16 {
        if i * 16 + k < x.len() {
            v[k] = x[i * 16 + k];
        }
    }
    let mut acc = [0.0f32; 16];
    for k in 0..16 {
        for j in 0..16 {
            acc[j] += v[k] * v[j];
        }
    }
    let mut s = 0.0f32;
    for j in 0..16 {
        s += acc[j];
    }
    if i < out.len() {
        out[i] = s;
    }
}

/// No loop to unroll: no quick form.
#[sarek::kernel]
fn plain_square(x: &[f32], out: &mut [f32]) {
    let i = global_idx_x();
    if i < out.len() {
        out[i] = x[i] * x[i];
    }
}

pub(crate) const N: usize = 1000;

pub(crate) fn input() -> Vec<f32> {
    (0..16 * N).map(|i| (i % 97) as f32 * 0.25 - 3.0).collect()
}

/// The host's sums, in the kernel's order (products of small multiples of 0.25: exact).
pub(crate) fn expected(x: &[f32]) -> Vec<f32> {
    x.chunks(16)
        .map(|v| {
            let mut acc = [0.0f32; 16];
            for k in 0..16 {
                for j in 0..16 {
                    acc[j] += v[k] * v[j];
                }
            }
            acc.iter().fold(0.0f32, |s, a| s + a)
        })
        .collect()
}

/// One launch of `blocked_sum` on `dev`, read back.
pub(crate) fn run(dev: &Device) -> Vec<f32> {
    let x = dev.upload(&input()).unwrap();
    let mut out = dev.zeros::<f32>(N).unwrap();
    blocked_sum
        .launch(dev, Grid::cover(N), &x, &mut out)
        .unwrap()
        .wait()
        .unwrap();
    out.read().unwrap()
}

#[test]
fn only_kernels_that_unroll_embed_a_quick_form() {
    let quick = blocked_sum::SOURCE.quick();
    assert!(quick.contains("fn sarek_main("), "{quick}");
    // One entry point, its loops rolled.
    assert_eq!(quick.matches("@compute").count(), 1, "{quick}");
    assert!(quick.contains("loop"), "{quick}");
    assert!(!blocked_sum::WGSL.contains("loop"), "{}", blocked_sum::WGSL);
    // Long enough to be tiered: the unrolled entry point is many times the rolled one.
    assert!(
        blocked_sum::WGSL.len() > 4 * quick.len(),
        "{}",
        blocked_sum::WGSL.len()
    );
    assert_eq!(plain_square::SOURCE.quick(), "");
}

#[backends]
fn the_quick_form_and_the_switch_give_the_same_results(dev: Device) {
    dev.set_pipeline_cache_dir(None);
    dev.set_tiered(true);
    let want = expected(&input());
    let first = run(&dev);
    if !dev.is_cpu() {
        assert_eq!(
            dev.pending_compiles(),
            1,
            "the first launch ran the quick form"
        );
    }
    let second = run(&dev);
    assert_eq!(dev.pending_compiles(), 0, "the second launch switched");
    let third = run(&dev);
    assert_eq!(first, want);
    assert_eq!(second, want);
    assert_eq!(third, want);
}

#[backends]
fn tiering_off_compiles_the_optimized_pipeline_first(dev: Device) {
    dev.set_pipeline_cache_dir(None);
    dev.set_tiered(false);
    assert_eq!(run(&dev), expected(&input()));
    assert_eq!(dev.pending_compiles(), 0);
}

#[gpu_only]
fn a_cached_pipeline_skips_the_quick_form(dev: Device) {
    let dir = std::env::temp_dir().join(format!("sarek-tiered-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    if dev.set_pipeline_cache_dir(Some(&dir)).is_none() {
        eprintln!("skipping: the adapter has no pipeline cache");
        return;
    }
    dev.set_tiered(true);
    run(&dev);
    assert_eq!(dev.pending_compiles(), 1);
    run(&dev); // waits for the optimized pipeline, which saved the cache and its module
    drop(dev);
    // A second device with the same directory, as a second process would be.
    let Some(again) = common::gpu_device() else {
        return;
    };
    again.set_pipeline_cache_dir(Some(&dir));
    again.set_tiered(true);
    assert_eq!(run(&again), expected(&input()));
    assert_eq!(
        again.pending_compiles(),
        0,
        "the cached pipeline was used at once"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[backends]
fn dropping_a_device_while_it_compiles_does_not_deadlock(new_device: fn() -> Option<Device>) {
    for _ in 0..3 {
        let Some(dev) = new_device() else { return };
        dev.set_pipeline_cache_dir(None);
        dev.set_tiered(true);
        let x = dev.upload(&input()).unwrap();
        let mut out = dev.zeros::<f32>(N).unwrap();
        let launch = blocked_sum
            .launch(&dev, Grid::cover(N), &x, &mut out)
            .unwrap();
        drop(launch);
        drop(out);
        drop(x);
        drop(dev);
    }
    // A new device still works.
    let Some(dev) = new_device() else { return };
    dev.set_pipeline_cache_dir(None);
    assert_eq!(run(&dev), expected(&input()));
}

/// `blocked_sum`'s quick form by hand in four slices (as `passes::slice_coop` makes the quick
/// forms of kernels with arrays of cooperative accumulators, which lavapipe cannot run): each
/// of the four copies of a workgroup stores the sums of the threads whose index is its slice
/// modulo 4, so the output is whole only if the runtime dispatched four times the workgroups
/// along z.
fn in_four_slices() -> &'static sarek::__private::KernelSource {
    let source = blocked_sum::SOURCE;
    let mut quick = source.quick().to_string();
    let slice = if quick.contains("@builtin(workgroup_id) sarek_bid") {
        "sarek_bid.z"
    } else {
        quick = quick.replacen(
            "fn sarek_main(\n",
            "fn sarek_main(\n    @builtin(workgroup_id) sarek_slice_id: vec3<u32>,\n",
            1,
        );
        "sarek_slice_id.z"
    };
    let store = quick
        .lines()
        .find(|l| l.trim_start().starts_with("out[") && l.contains("] = "))
        .unwrap_or_else(|| panic!("the store in {quick}"))
        .to_string();
    let guarded = format!(
        "if (({slice} % 4u) == (sarek_gid.x % 4u)) {{ {} }}",
        store.trim()
    );
    let quick = quick.replacen(&store, &guarded, 1);
    assert!(quick.contains("sarek_gid"), "{quick}");
    let quick: &'static str = Box::leak(quick.into_boxed_str());
    let sliced =
        sarek::__private::KernelSource::new(source.wgsl(), source.abi().clone(), source.location())
            .with_entry_points(source.entry_points())
            .with_quick(quick, 4)
            .with_in_bounds(source.in_bounds(), false);
    // SAFETY: the IR is `blocked_sum`'s own, which the macro generated.
    Box::leak(Box::new(unsafe {
        sliced.with_ir(source.ir(), source.spans())
    }))
}

#[backends]
fn a_quick_form_in_slices_runs_each_workgroup_once_per_slice(dev: Device) {
    dev.set_pipeline_cache_dir(None);
    dev.set_tiered(true);
    let source = in_four_slices();
    let x = dev.upload(&input()).unwrap();
    let mut out = dev.zeros::<f32>(N).unwrap();
    let launch = |out: &mut Buffer<f32>| {
        let args = [
            sarek::__private::Arg::read(&x),
            sarek::__private::Arg::write(out),
        ];
        sarek::__private::launch(&dev, source, Grid::cover(N), &args)
            .unwrap()
            .wait()
            .unwrap();
    };
    launch(&mut out);
    if !dev.is_cpu() {
        assert_eq!(dev.pending_compiles(), 1, "the first launch ran the slices");
    }
    assert_eq!(
        out.read().unwrap(),
        expected(&input()),
        "every slice stored"
    );
    let mut again = dev.zeros::<f32>(N).unwrap();
    launch(&mut again);
    assert_eq!(dev.pending_compiles(), 0, "the second launch switched");
    assert_eq!(again.read().unwrap(), expected(&input()));
}
