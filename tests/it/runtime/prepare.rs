//! Preparing kernels (`Device::prepare`, `sarek-rt`'s `launch/prepare.rs`): their pipelines
//! are made ahead, on threads, and the launches that follow find them; a kernel prepared and
//! launched from several threads at once is made once and computes the right results; the
//! library scan prepares its passes; a device dropped right after a prepare (its optimized
//! pipelines still compiling) does not deadlock. On the CPU backend prepare compiles the
//! kernels' IR, and the same results are checked.

use sarek::algo::scan::Scan;
use sarek::prelude::*;

use crate::common::backends;
use crate::runtime::tiered::{blocked_sum, expected, input, run, N};

#[sarek::kernel]
fn prep_scale(k: u32, out: &mut [u32]) {
    let i = global_thread_id();
    if i < out.len() {
        out[i] = (i as u32) * k + 3;
    }
}

#[sarek::kernel]
fn prep_fill(v: u32, out: &mut [u32]) {
    let i = global_thread_id();
    if i < out.len() {
        out[i] = v;
    }
}

/// Only used from the threads of `concurrent_prepares_and_launches_make_a_kernel_once`.
#[sarek::kernel]
fn prep_shared(k: u32, out: &mut [u32]) {
    let i = global_thread_id();
    if i < out.len() {
        out[i] = (i as u32) ^ k;
    }
}

/// `prep_scale` with `k` over `n` elements, read back.
fn scale(dev: &Device, k: u32, n: usize) -> Vec<u32> {
    let mut out = dev.zeros::<u32>(n).unwrap();
    prep_scale
        .launch(dev, Grid::cover(n), k, &mut out)
        .unwrap()
        .wait()
        .unwrap();
    out.read().unwrap()
}

#[backends]
fn prepared_pipelines_are_found_by_the_launches(dev: Device) {
    dev.set_pipeline_cache_dir(None);
    dev.set_tiered(false);
    // A kernel named twice is made once.
    dev.prepare(&[prep_scale::SOURCE, prep_fill::SOURCE, prep_scale::SOURCE])
        .unwrap();
    let made = dev.pipelines_made();
    if !dev.is_cpu() {
        assert_eq!(made, 2, "one pipeline per kernel");
    }
    assert_eq!(dev.pending_compiles(), 0);
    let want: Vec<u32> = (0..1000u32).map(|i| i * 5 + 3).collect();
    assert_eq!(scale(&dev, 5, 1000), want);
    let mut out = dev.zeros::<u32>(300).unwrap();
    prep_fill
        .launch(&dev, Grid::cover(300), 9, &mut out)
        .unwrap()
        .wait()
        .unwrap();
    assert_eq!(out.read().unwrap(), vec![9; 300]);
    assert_eq!(dev.pipelines_made(), made, "the launches made no pipeline");
    // Preparing again costs a look-up.
    dev.prepare(&[prep_fill::SOURCE]).unwrap();
    dev.prepare(&[]).unwrap();
    assert_eq!(dev.pipelines_made(), made);
}

#[backends]
fn a_prepared_quick_form_serves_the_first_launch(dev: Device) {
    dev.set_pipeline_cache_dir(None);
    dev.set_tiered(true);
    dev.prepare(&[blocked_sum::SOURCE, prep_fill::SOURCE])
        .unwrap();
    let made = dev.pipelines_made();
    if !dev.is_cpu() {
        assert_eq!(made, 2, "the quick form and prep_fill's pipeline");
        assert_eq!(dev.pending_compiles(), 1, "the optimized one compiles");
    }
    let want = expected(&input());
    // The quick form (or, if it is ready, the optimized pipeline): nothing made here.
    assert_eq!(run(&dev), want);
    assert_eq!(dev.pipelines_made(), made);
    assert_eq!(run(&dev), want);
    assert_eq!(dev.pending_compiles(), 0, "the second launch switched");
    assert_eq!(run(&dev), want);
    assert_eq!(dev.pipelines_made(), made);
}

#[backends]
fn concurrent_prepares_and_launches_make_a_kernel_once(dev: Device) {
    dev.set_pipeline_cache_dir(None);
    dev.set_tiered(false);
    let before = dev.pipelines_made();
    std::thread::scope(|s| {
        for t in 0..8u32 {
            let dev = &dev;
            s.spawn(move || {
                if t % 2 == 0 {
                    dev.prepare(&[prep_shared::SOURCE, prep_fill::SOURCE])
                        .unwrap();
                }
                let n = 500 + 37 * t as usize;
                let mut out = dev.zeros::<u32>(n).unwrap();
                prep_shared
                    .launch(dev, Grid::cover(n), t, &mut out)
                    .unwrap()
                    .wait()
                    .unwrap();
                let want: Vec<u32> = (0..n as u32).map(|i| i ^ t).collect();
                assert_eq!(out.read().unwrap(), want, "thread {t}");
            });
        }
    });
    if !dev.is_cpu() {
        assert_eq!(
            dev.pipelines_made() - before,
            2,
            "prep_shared and prep_fill, once each"
        );
    }
}

#[backends]
fn the_scan_prepares_its_passes(dev: Device) {
    dev.set_pipeline_cache_dir(None);
    let xs: Vec<f32> = (0..4 * 3000).map(|i| (i % 5) as f32 - 2.0).collect();
    let want: Vec<f32> = xs
        .iter()
        .scan(0.0f32, |s, v| {
            *s += v;
            Some(*s)
        })
        .collect();
    let x = dev.upload(bytemuck::cast_slice::<f32, Vec4>(&xs)).unwrap();
    let mut out = dev.zeros::<Vec4>(3000).unwrap();
    let mut scan = Scan::new(&dev, 3000).unwrap();
    assert_eq!(dev.pipelines_made(), 0, "Scan::new makes no pipeline");
    scan.run(&x, &mut out).unwrap().wait().unwrap();
    let got: Vec<f32> = bytemuck::cast_slice(&out.read().unwrap()).to_vec();
    assert_eq!(got, want);
    let made = dev.pipelines_made();
    if !dev.is_cpu() {
        assert_eq!(made, 3, "the three passes, made once each");
    }
    // Another scan of the same device makes nothing again.
    let mut again = Scan::new(&dev, 3000).unwrap();
    again.run(&x, &mut out).unwrap().wait().unwrap();
    scan.run(&x, &mut out).unwrap().wait().unwrap();
    let got: Vec<f32> = bytemuck::cast_slice(&out.read().unwrap()).to_vec();
    assert_eq!(got, want);
    assert_eq!(dev.pipelines_made(), made);
}

#[backends]
fn dropping_a_device_right_after_prepare_does_not_deadlock(new_device: fn() -> Option<Device>) {
    for _ in 0..3 {
        let Some(dev) = new_device() else { return };
        dev.set_pipeline_cache_dir(None);
        dev.set_tiered(true);
        dev.prepare(&[blocked_sum::SOURCE, prep_scale::SOURCE, prep_fill::SOURCE])
            .unwrap();
        drop(dev);
    }
    let Some(dev) = new_device() else { return };
    dev.set_pipeline_cache_dir(None);
    dev.prepare(&[blocked_sum::SOURCE]).unwrap();
    assert_eq!(run(&dev), expected(&input()));
    assert_eq!(
        scale(&dev, 2, N),
        (0..N as u32).map(|i| i * 2 + 3).collect::<Vec<_>>()
    );
}
