//! The CPU backend as a user meets it: `Device::cpu()`, the fallback of `Device::new()` and
//! `SAREK_DEVICE`, and the opt-in checks that report an out-of-bounds index or a division by
//! zero with the kernel, the invocation and the source position. (Every test written for both
//! backends runs on the CPU backend too, as `name::cpu` of `#[backends]`.)

use crate::common::{self, cpu_only};

use sarek::prelude::*;
use sarek::Error;

#[sarek::kernel(workgroup_size = [64])]
fn gather(idx: &[u32], src: &[f32], out: &mut [f32]) {
    let i = global_thread_id();
    if i < out.len() {
        out[i] = src[idx[i] as usize];
    }
}

#[sarek::kernel(workgroup_size = [64])]
fn divide(a: &[i32], b: &[i32], q: &mut [i32], r: &mut [i32]) {
    let i = global_thread_id();
    if i < a.len() {
        q[i] = a[i] / b[i];
        r[i] = a[i] % b[i];
    }
}

#[sarek::kernel(workgroup_size = [32])]
fn local_array(k: u32, out: &mut [u32]) {
    let i = global_thread_id();
    if i < out.len() {
        let mut t = [0u32; 4];
        t[(i as u32 % 4) as usize] = 7;
        out[i] = t[(k + i as u32) as usize];
    }
}

#[sarek::kernel(workgroup_size = [64])]
fn block_sum(x: &[u32], out: &mut [u32]) {
    let tile = shared::<[u32; 64]>();
    let t = thread_idx_x();
    let i = global_thread_id();
    tile[t] = if i < x.len() { x[i] } else { 0 };
    block_barrier();
    let mut stride = 32;
    while stride > 0 {
        if t < stride {
            tile[t] += tile[t + stride];
        }
        block_barrier();
        stride /= 2;
    }
    if t == 0 {
        out[block_idx_x()] = tile[0];
    }
}

#[cpu_only]
fn the_cpu_backend_runs_kernels_with_workgroup_memory_and_barriers(dev: Device) {
    assert!(dev.is_cpu());
    assert!(dev.name().contains("CPU"), "{}", dev.name());
    assert_eq!(dev.backend(), None);
    let x: Vec<u32> = (0..1000).collect();
    let xb = dev.upload(&x).unwrap();
    let mut out = dev.zeros::<u32>(16).unwrap();
    block_sum
        .launch(&dev, Grid::cover(x.len()), &xb, &mut out)
        .unwrap()
        .wait()
        .unwrap();
    let expected: Vec<u32> = (0..16)
        .map(|g| x.iter().skip(g * 64).take(64).sum())
        .collect();
    assert_eq!(out.read().unwrap(), expected);
}

#[cpu_only]
fn unchecked_the_cpu_gives_webgpus_defined_results(dev: Device) {
    // About the unchecked results: off even under SAREK_CHECKS=1.
    dev.set_checks(false);
    let a = dev.upload(&[7, -7, i32::MIN, 5]).unwrap();
    let b = dev.upload(&[0, 0, -1, 2]).unwrap();
    let (mut q, mut r) = (dev.zeros::<i32>(4).unwrap(), dev.zeros::<i32>(4).unwrap());
    divide
        .launch(&dev, Grid::cover(4), &a, &b, &mut q, &mut r)
        .unwrap();
    assert_eq!(q.read().unwrap(), [7, -7, i32::MIN, 2]);
    assert_eq!(r.read().unwrap(), [0, 0, 0, 1]);
    // Reads past the end of a buffer give 0, as under WebGPU's robust access.
    let idx = dev.upload(&[0u32, 1, 99]).unwrap();
    let src = dev.upload(&[1.5f32, 2.5]).unwrap();
    let mut out = dev.upload(&[9.0f32; 3]).unwrap();
    gather
        .launch(&dev, Grid::cover(3), &idx, &src, &mut out)
        .unwrap();
    assert_eq!(out.read().unwrap(), [1.5, 2.5, 0.0]);
}

#[cpu_only]
fn checks_report_an_out_of_bounds_read_with_kernel_invocation_and_line(dev: Device) {
    assert!(dev.set_checks(true));
    let idx: Vec<u32> = (0..100)
        .map(|i| if i == 70 { 1000 } else { i % 10 })
        .collect();
    let idx = dev.upload(&idx).unwrap();
    let src = dev.upload(&[1.0f32; 10]).unwrap();
    let mut out = dev.zeros::<f32>(100).unwrap();
    let err = gather
        .launch(&dev, Grid::cover(100), &idx, &src, &mut out)
        .unwrap_err();
    match &err {
        Error::KernelFault {
            kernel,
            location,
            block,
            thread,
            message,
        } => {
            assert_eq!(kernel, "gather");
            // Invocation 70: workgroup 1, thread 6 (workgroups of 64).
            assert_eq!((*block, *thread), ([1, 0, 0], [6, 0, 0]));
            // The index expression `idx[i] as usize` on line 15, column 22.
            assert_eq!(location, &format!("{}:15:22", file!()));
            assert_eq!(
                message,
                "index out of bounds: the len is 10 but the index is 1000"
            );
        }
        other => panic!("expected KernelFault, got {other:?}"),
    }
    assert!(err.to_string().contains("kernel `gather` at"), "{err}");
    // Unchecked again, the launch runs.
    assert!(!dev.set_checks(false));
    gather
        .launch(&dev, Grid::cover(100), &idx, &src, &mut out)
        .unwrap();
}

#[cpu_only]
fn checks_report_a_division_by_zero_and_a_local_array_overrun(dev: Device) {
    dev.set_checks(true);
    let a = dev.upload(&[1, 2, 3]).unwrap();
    let b = dev.upload(&[1, 0, 1]).unwrap();
    let (mut q, mut r) = (dev.zeros::<i32>(3).unwrap(), dev.zeros::<i32>(3).unwrap());
    match divide.launch(&dev, Grid::cover(3), &a, &b, &mut q, &mut r) {
        Err(Error::KernelFault {
            location,
            thread,
            message,
            ..
        }) => {
            assert_eq!(location, format!("{}:23:16", file!()));
            assert_eq!(thread, [1, 0, 0]);
            assert_eq!(message, "attempt to divide by zero");
        }
        other => panic!("expected KernelFault, got {other:?}"),
    }
    let mut out = dev.zeros::<u32>(8).unwrap();
    match local_array.launch(&dev, Grid::cover(8), 1, &mut out) {
        Err(Error::KernelFault {
            location,
            thread,
            message,
            ..
        }) => {
            assert_eq!(location, format!("{}:34:20", file!()));
            assert_eq!(thread, [3, 0, 0]);
            assert_eq!(
                message,
                "index out of bounds: the len is 4 but the index is 4"
            );
        }
        other => panic!("expected KernelFault, got {other:?}"),
    }
}

#[cpu_only]
fn batches_run_in_order_and_wgpu_only_calls_are_errors(dev: Device) {
    let x = dev.upload(&[1u32; 64]).unwrap();
    let mut sums = dev.zeros::<u32>(1).unwrap();
    let mut batch = dev.batch();
    block_sum
        .enqueue(&mut batch, Grid::cover(64), &x, &mut sums)
        .unwrap();
    assert_eq!(batch.len(), 1);
    assert_eq!(sums.read().unwrap(), [0], "nothing runs before submit");
    batch.submit().unwrap().wait().unwrap();
    assert_eq!(sums.read().unwrap(), [64]);
    assert!(!dev.can_profile());
    assert!(!dev.set_profiling(true));
    dev.synchronize().unwrap();
    if let Some(gpu) = common::gpu_device() {
        let raw = gpu.zeros::<u32>(4).unwrap().wgpu_buffer().clone();
        match sarek::Buffer::<u32>::from_wgpu(&dev, raw, 0, 4) {
            Err(Error::BadBuffer(m)) => assert!(m.contains("CPU backend"), "{m}"),
            other => panic!("expected BadBuffer, got {other:?}"),
        }
        let mut encoder = gpu
            .wgpu_device()
            .create_command_encoder(&Default::default());
        let mut v = dev.zeros::<u32>(1).unwrap();
        match block_sum.record(&dev, &mut encoder, Grid::cover(1), &x, &mut v) {
            Err(e @ Error::NotOnCpu(_)) => assert!(e.to_string().contains("needs a GPU")),
            other => panic!("expected NotOnCpu, got {other:?}"),
        }
    }
}

const CHILD: &str = "SAREK_CPU_TEST_CHILD";

/// `Device::new()` in a child process with `env` set; returns whether it chose the CPU, and
/// the child's standard error.
fn new_device_in_child(test: &str, env: &[(&str, &str)]) -> String {
    // The test's name in the harness is its path below the test crate (`cpu::name`).
    let module = module_path!().split_once("::").map_or("", |(_, m)| m);
    let name = format!("{module}::{test}");
    let mut cmd = std::process::Command::new(std::env::current_exe().unwrap());
    cmd.args(["--exact", &name, "--nocapture"]).env(CHILD, "1");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let output = cmd.output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "child failed: {stderr}");
    stderr
}

#[cpu_only]
fn sarek_device_cpu_forces_the_cpu_backend() {
    if std::env::var_os(CHILD).is_some() {
        let dev = Device::new().unwrap();
        eprintln!("chose cpu: {}", dev.is_cpu());
        return;
    }
    let stderr = new_device_in_child(
        "sarek_device_cpu_forces_the_cpu_backend",
        &[("SAREK_DEVICE", "cpu")],
    );
    assert!(stderr.contains("chose cpu: true"), "{stderr}");
}

#[cpu_only]
fn without_an_adapter_device_new_falls_back_to_the_cpu_and_says_so() {
    if std::env::var_os(CHILD).is_some() {
        let dev = Device::new().unwrap();
        eprintln!("chose cpu: {}", dev.is_cpu());
        assert_eq!(dev.upload(&[3u32]).unwrap().read().unwrap(), [3]);
        return;
    }
    // No adapter's name contains this, so `Device::gpu` finds none.
    let stderr = new_device_in_child(
        "without_an_adapter_device_new_falls_back_to_the_cpu_and_says_so",
        &[
            ("SAREK_ADAPTER", "no adapter is called this"),
            ("SAREK_DEVICE", ""),
            ("SAREK_LOG", "warn"),
        ],
    );
    assert!(stderr.contains("chose cpu: true"), "{stderr}");
    assert!(
        stderr.contains("running kernels on the CPU backend instead"),
        "{stderr}"
    );
}

#[sarek::kernel(workgroup_size = [8])]
fn shared_overrun(k: u32, hits: &[std::sync::atomic::AtomicU32], out: &mut [u32]) {
    let tile = shared::<[u32; 8]>();
    let t = thread_idx_x();
    tile[t] = t as u32;
    block_barrier();
    hits[(k + t as u32) as usize].fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    out[t] = tile[(t as u32 + k) as usize % 9];
}

/// The 1-based line of this file's first line containing `needle` (so that edits above a
/// kernel do not break the locations its faults are checked against).
fn line_of(needle: &str) -> usize {
    include_str!("backend.rs")
        .lines()
        .position(|l| l.contains(needle))
        .expect("needle in backend.rs")
        + 1
}

#[cpu_only]
fn checks_cover_workgroup_arrays_and_atomics(dev: Device) {
    // Starts unchecked even under SAREK_CHECKS=1: the first launch is about the clamp.
    dev.set_checks(false);
    let hits = dev.zeros::<u32>(16).unwrap();
    let mut out = dev.zeros::<u32>(8).unwrap();
    // Unchecked: index 8 of the 8-element tile clamps to the last element, as naga's
    // `Restrict` policy does on a GPU.
    shared_overrun
        .launch(&dev, Grid::cover(8), 1, &hits, &mut out)
        .unwrap();
    assert_eq!(out.read().unwrap(), [1, 2, 3, 4, 5, 6, 7, 7]);
    dev.set_checks(true);
    match shared_overrun.launch(&dev, Grid::cover(8), 1, &hits, &mut out) {
        Err(Error::KernelFault {
            location,
            thread,
            message,
            ..
        }) => {
            assert_eq!(
                location,
                format!("{}:{}:19", file!(), line_of("out[t] = tile["))
            );
            assert_eq!(thread, [7, 0, 0]);
            assert_eq!(
                message,
                "index out of bounds: the len is 8 but the index is 8"
            );
        }
        other => panic!("expected KernelFault, got {other:?}"),
    }
    match shared_overrun.launch(&dev, Grid::cover(8), 9, &hits, &mut out) {
        Err(Error::KernelFault {
            location,
            thread,
            message,
            ..
        }) => {
            // Thread 7's atomic on `hits[16]` comes first.
            assert_eq!(
                location,
                format!("{}:{}:10", file!(), line_of("hits[(k + t as u32)"))
            );
            assert_eq!(thread, [7, 0, 0]);
            assert_eq!(
                message,
                "index out of bounds: the len is 16 but the index is 16"
            );
        }
        other => panic!("expected KernelFault, got {other:?}"),
    }
}

#[sarek::kernel]
fn spin(out: &mut [u32]) {
    let i = global_thread_id();
    if i < out.len() {
        out[i] = 1;
    }
    loop {}
}

#[cpu_only]
fn a_kernel_that_never_ends_stops_at_the_step_limit(dev: Device) {
    if std::env::var_os("SAREK_CPU_STEPS").is_none() {
        assert_eq!(dev.step_limit(), Some(Device::DEFAULT_STEP_LIMIT));
    }
    // The default stops `loop {}` too, only later; a test need not wait for it.
    assert_eq!(dev.set_step_limit(Some(100_000)), Some(100_000));
    let mut out = dev.zeros::<u32>(1000).unwrap();
    let err = spin.launch(&dev, Grid::cover(1000), &mut out).unwrap_err();
    match &err {
        Error::StepLimit {
            kernel,
            limit,
            location,
            ..
        } => {
            assert_eq!((kernel.as_str(), *limit), ("spin", 100_000));
            assert!(
                location.starts_with("tests/it/cpu/backend.rs:"),
                "{location}"
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(
        err.to_string()
            .contains("kernel `spin` ran more than 100000 steps"),
        "{err}"
    );
    // In a batch too.
    let mut batch = dev.batch();
    spin.enqueue(&mut batch, Grid::cover(1000), &mut out)
        .unwrap();
    let err = batch.submit().map(|_| ()).unwrap_err();
    assert!(matches!(err, Error::StepLimit { .. }), "{err:?}");
    // The device is still usable, and a kernel that ends runs as before.
    let x = dev.upload(&[5u32; 64]).unwrap();
    let mut sums = dev.zeros::<u32>(1).unwrap();
    block_sum
        .launch(&dev, Grid::cover(64), &x, &mut sums)
        .unwrap();
    assert_eq!(sums.read().unwrap(), [320]);
    assert_eq!(dev.set_step_limit(None), None);
    assert_eq!(dev.step_limit(), None);
}

#[cpu_only]
fn sarek_cpu_steps_sets_the_step_limit() {
    if std::env::var_os(CHILD).is_some() {
        let dev = Device::cpu();
        let mut out = dev.zeros::<u32>(10).unwrap();
        let err = spin.launch(&dev, Grid::cover(10), &mut out).unwrap_err();
        eprintln!("limit: {:?}; {err}", dev.step_limit());
        return;
    }
    let stderr = new_device_in_child(
        "sarek_cpu_steps_sets_the_step_limit",
        &[("SAREK_CPU_STEPS", "5000")],
    );
    assert!(
        stderr.contains("limit: Some(5000); kernel `spin` ran more than 5000 steps"),
        "{stderr}"
    );
}

#[sarek::kernel(workgroup_size = [64])]
fn big_local(k: u32, out: &mut [u32]) {
    let i = global_thread_id();
    let mut a = [0u32; 4096];
    a[(k as usize + i) % 4096] = 7;
    if i < out.len() {
        out[i] = a[k as usize % 4096];
    }
}

#[cpu_only]
fn locals_too_large_for_host_memory_are_an_error_not_an_abort(dev: Device) {
    let mut out = dev.zeros::<u32>(64).unwrap();
    // 64 invocations of 4096 elements: about 12 MiB in the interpreter, 24 bytes an element
    // and a temporary. (Unbounded, `[0u32; 67108864]` took some 190 GiB and aborted.)
    assert_eq!(dev.set_launch_memory_limit(8 << 20), Some(8 << 20));
    let err = big_local
        .launch(&dev, Grid::cover(64), 0, &mut out)
        .unwrap_err();
    assert!(matches!(err, Error::CpuBackend { .. }), "{err:?}");
    let text = err.to_string();
    assert!(
        text.contains(
            "kernel `big_local` cannot run on the CPU backend: its local variables need about"
        ),
        "{text}"
    );
    assert!(
        text.contains("over the limit of 8388608 bytes per launch"),
        "{text}"
    );
    // Within the limit, as many workgroups run at once as fit.
    dev.set_launch_memory_limit(32 << 20);
    big_local
        .launch(&dev, Grid::cover(64 * 40), 0, &mut out)
        .unwrap();
    assert_eq!(out.read().unwrap()[..2], [7, 0]);
    assert_eq!(
        dev.set_launch_memory_limit(Device::DEFAULT_LAUNCH_MEMORY),
        Some(1 << 30)
    );
}

/// A fault in a grid big enough to be spread over the pool's threads (the calling thread runs
/// a launch alone only for its first microseconds) stops the launch with the fault, again and
/// again, and the next launches run: no worker is lost or left waiting.
#[cpu_only]
fn faults_in_big_grids_stop_the_pool_and_the_next_launch_runs(dev: Device) {
    let n = 1 << 18;
    let last = n - 1;
    let idx: Vec<u32> = (0..n as u32)
        .map(|i| if i == last as u32 { 1000 } else { i % 10 })
        .collect();
    let idx = dev.upload(&idx).unwrap();
    let src = dev.upload(&[1.0f32; 10]).unwrap();
    let mut out = dev.zeros::<f32>(n).unwrap();
    dev.set_checks(true);
    for _ in 0..3 {
        match gather.launch(&dev, Grid::cover(n), &idx, &src, &mut out) {
            Err(Error::KernelFault { block, thread, .. }) => {
                assert_eq!((block, thread), ([last as u32 / 64, 0, 0], [63, 0, 0]));
            }
            other => panic!("expected KernelFault, got {other:?}"),
        }
    }
    dev.set_checks(false);
    for _ in 0..3 {
        gather
            .launch(&dev, Grid::cover(n), &idx, &src, &mut out)
            .unwrap();
    }
    assert_eq!(out.read().unwrap()[..last], vec![1.0f32; last][..]);
}
