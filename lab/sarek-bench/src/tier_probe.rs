//! `rt_bench tier-probe`: whether a pipeline created on another thread holds up the launches
//! and pipeline creations of the calling thread (wgpu's locks, the driver's), the question
//! tiered compilation stands on. Prints saxpy's launch-and-wait latency alone and while a
//! thread compiles the register-blocked product's twin, that compile's time alone and
//! contended, and the first launch of `kernels::matmul` made during the background compile.

use std::time::{Duration, Instant};

use sarek::{Device, Grid};

use crate::kernels;
use crate::Result;

/// The twin with its first workgroup array padded to `pad` vectors a row, so each compile is
/// new SPIR-V to the driver (no in-process cache can answer it); `pad ≥ 33` is still correct.
fn heavy(pad: u32) -> String {
    include_str!("wgsl/matmul_rb.wgsl").replace(
        "var<workgroup> at: array<array<vec4<f32>, 33>, 16>;",
        &format!("var<workgroup> at: array<array<vec4<f32>, {pad}>, 16>;"),
    )
}

/// Creates `wgsl`'s pipeline (entry `main`) on `device`, in milliseconds.
fn compile(device: &sarek::wgpu::Device, wgsl: &str) -> f64 {
    let start = Instant::now();
    let module = device.create_shader_module(sarek::wgpu::ShaderModuleDescriptor {
        label: Some("tier-probe"),
        source: sarek::wgpu::ShaderSource::Wgsl(wgsl.into()),
    });
    let _p = device.create_compute_pipeline(&sarek::wgpu::ComputePipelineDescriptor {
        label: Some("tier-probe"),
        layout: None,
        module: &module,
        entry_point: Some("main"),
        compilation_options: Default::default(),
        cache: None,
    });
    start.elapsed().as_secs_f64() * 1e3
}

/// Median and maximum of `v`, in microseconds.
fn stats(v: &mut [Duration]) -> (f64, f64, usize) {
    v.sort();
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    (
        v.get(v.len() / 2).copied().map_or(0.0, us),
        v.last().copied().map_or(0.0, us),
        v.len(),
    )
}

/// The probe.
pub fn tier_probe() -> Result<()> {
    let dev = Device::new()?;
    println!("tier-probe on {}", dev.name());
    let n = 1 << 20;
    let x = dev.upload(&vec![1.0f32; n])?;
    let mut y = dev.zeros::<f32>(n)?;
    let launch_wait = |y: &mut sarek::Buffer<f32>| -> Result<Duration> {
        let start = Instant::now();
        kernels::saxpy
            .launch(&dev, Grid::cover(n), 2.0, &x, y)?
            .wait()?;
        Ok(start.elapsed())
    };
    // Warm: pipeline made, clocks up.
    let warm = Instant::now();
    while warm.elapsed() < Duration::from_millis(500) {
        launch_wait(&mut y)?;
    }
    let mut alone = Vec::new();
    let t = Instant::now();
    while t.elapsed() < Duration::from_millis(200) {
        alone.push(launch_wait(&mut y)?);
    }
    let (med, max, count) = stats(&mut alone);
    println!("tier-probe: saxpy 2^20 launch+wait alone: median {med:.1} µs, max {max:.1} µs ({count} launches)");
    let wdev = dev.wgpu_device().clone();
    let solo = compile(&wdev, &heavy(34));
    println!("tier-probe: twin pipeline alone on the main thread: {solo:.1} ms");

    // The same compile on a thread, saxpy launched and waited for meanwhile.
    let bg_dev = wdev.clone();
    let bg = std::thread::spawn(move || compile(&bg_dev, &heavy(35)));
    let mut during = Vec::new();
    let t = Instant::now();
    while !bg.is_finished() {
        during.push(launch_wait(&mut y)?);
    }
    let overlap = t.elapsed();
    let contended = bg.join().map_err(|_| "the compile thread panicked")?;
    let (med, max, count) = stats(&mut during);
    println!("tier-probe: twin pipeline on a thread: {contended:.1} ms; saxpy launch+wait meanwhile: median {med:.1} µs, max {max:.1} µs ({count} launches in {:.1} ms)", overlap.as_secs_f64() * 1e3);

    // A small pipeline (the 16×16 matmul twin) on this thread, alone and while a thread
    // compiles the big one: does the driver or wgpu serialise pipeline creations?
    let small = |pad: u32| {
        include_str!("wgsl/matmul.wgsl").replace(
            "var<workgroup> ta: array<array<f32, 16>, 16>;",
            &format!("var<workgroup> ta: array<array<f32, {pad}>, 16>;"),
        )
    };
    let small_alone = compile(&wdev, &small(17));
    let bg_dev = wdev.clone();
    let bg = std::thread::spawn(move || compile(&bg_dev, &heavy(36)));
    std::thread::sleep(Duration::from_millis(5));
    let small_during = compile(&wdev, &small(18));
    let still = !bg.is_finished();
    let contended = bg.join().map_err(|_| "the compile thread panicked")?;
    println!("tier-probe: small pipeline on the main thread alone {small_alone:.2} ms, while a thread compiles the twin {small_during:.2} ms (thread still compiling after it: {still}; thread {contended:.1} ms)");

    // Sarek's own first launch of another kernel during a background compile.
    let bg_dev = wdev.clone();
    let bg = std::thread::spawn(move || compile(&bg_dev, &heavy(37)));
    std::thread::sleep(Duration::from_millis(5));
    let m = 128;
    let a = dev.upload(&vec![1.0f32; m * m])?;
    let b = dev.upload(&vec![1.0f32; m * m])?;
    let mut c = dev.zeros::<f32>(m * m)?;
    let start = Instant::now();
    kernels::matmul
        .launch(&dev, Grid::cover_2d(m, m), m, &a, &b, &mut c)?
        .wait()?;
    let first = start.elapsed().as_secs_f64() * 1e3;
    let still = !bg.is_finished();
    let contended = bg.join().map_err(|_| "the compile thread panicked")?;
    println!("tier-probe: Sarek matmul (16×16) first launch while a thread compiles the twin: {first:.2} ms (thread still compiling after it: {still}; thread {contended:.1} ms)");
    Ok(())
}
