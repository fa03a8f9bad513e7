//! Workgroup memory sized at launch (`shared_len::<T>(n)`, CUDA's dynamic `extern
//! __shared__`): a row operation whose row lives in workgroup memory, checked against the
//! host for several widths; one pipeline (or CPU program) per width, reused when a width
//! comes back; a width of 0 or past the device's workgroup memory refused before anything
//! runs; an index past the end reported by the checked CPU backend.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::common::{self, backends, cpu_only};

use sarek::prelude::*;
use sarek::{Config, Error, GpuOptions};

/// Each workgroup reverses one row of `cols` floats (doubled): every thread reads elements
/// that other threads loaded, so the row must be shared whatever its width.
#[sarek::kernel(workgroup_size = [64])]
fn reverse_rows(cols: usize, x: &[f32], y: &mut [f32]) {
    let row = shared_len::<f32>(cols);
    let base = block_idx_x() * cols;
    let mut j = thread_idx_x();
    while j < cols {
        row[j] = x[base + j];
        j += block_dim_x();
    }
    block_barrier();
    let mut j = thread_idx_x();
    while j < cols {
        y[base + j] = row[cols - 1 - j] * 2.0;
        j += block_dim_x();
    }
}

/// Two arrays sized at launch by different parameters, one of `Vec2`s, next to a fixed one:
/// each row's sum of `a` and `b` elements, and the count of `b` rows, meet in `out`.
#[sarek::kernel(workgroup_size = [32])]
fn two_widths(n: u32, m: usize, a: &[f32], b: &[Vec2], out: &mut [f32]) {
    let xs = shared_len::<f32>(n);
    let ps = shared_len::<Vec2>(m);
    let total = shared::<[f32; 32]>();
    let t = thread_idx_x();
    let (n, m) = (n as usize, m);
    let mut j = t;
    while j < n {
        xs[j] = a[j];
        j += 32;
    }
    let mut j = t;
    while j < m {
        ps[j] = b[j];
        j += 32;
    }
    block_barrier();
    let mut s = 0.0f32;
    let mut j = t;
    while j < n {
        s += xs[n - 1 - j];
        j += 32;
    }
    let mut j = t;
    while j < m {
        s += ps[j].x * ps[m - 1 - j].y;
        j += 32;
    }
    total[t] = s;
    block_barrier();
    if t == 0 {
        let mut sum = 0.0f32;
        for k in 0..32 {
            sum += total[k];
        }
        out[0] = sum;
    }
}

/// Writes one element past the end of its row when `past` is 1.
#[sarek::kernel(workgroup_size = [16])]
fn past_the_end(cols: u32, past: u32, y: &mut [u32]) {
    let row = shared_len::<u32>(cols);
    let t = thread_idx_x() as u32;
    if t < cols {
        row[t as usize] = t + 1;
    }
    block_barrier();
    if t == 0 {
        row[(cols + past - 1) as usize] = 99;
        y[0] = row[0];
    }
}

fn host_reverse(xs: &[f32], cols: usize) -> Vec<f32> {
    xs.chunks(cols)
        .flat_map(|r| r.iter().rev().map(|v| v * 2.0))
        .collect()
}

/// The widths tried: under, at and over the workgroup size, odd, and a large row.
const WIDTHS: [usize; 6] = [1, 7, 64, 65, 1000, 4000];

#[backends]
fn a_row_in_launch_sized_memory_matches_the_host(dev: Device) {
    let rows = 5;
    for cols in WIDTHS {
        let xs: Vec<f32> = common::random_u32(cols as u32, rows * cols)
            .iter()
            .map(|v| (v % 1000) as f32)
            .collect();
        let x = dev.upload(&xs).unwrap();
        let mut y = dev.zeros::<f32>(rows * cols).unwrap();
        reverse_rows
            .launch(&dev, Grid::groups(rows), cols, &x, &mut y)
            .unwrap();
        assert_eq!(y.read().unwrap(), host_reverse(&xs, cols), "{cols} columns");
    }
    // The WGSL sizes the array by an `override` constant; the ABI says which parameter
    // gives it, and the fixed workgroup memory leaves it out.
    assert!(
        reverse_rows::WGSL.contains("override sarek_shared0_len: u32;"),
        "{}",
        reverse_rows::WGSL
    );
    assert!(reverse_rows::WGSL.contains("var<workgroup> row: array<f32, sarek_shared0_len>;"));
    let sized = &reverse_rows::ABI.launch_sized;
    assert_eq!(sized.len(), 1);
    assert_eq!(
        (sized[0].id, sized[0].param, sized[0].unit_bytes),
        (0, 0, 4)
    );
    assert_eq!(reverse_rows::ABI.workgroup_memory, 0);
}

#[backends]
fn two_launch_sized_arrays_and_a_fixed_one(dev: Device) {
    for (n, m) in [(1usize, 1usize), (33, 5), (100, 300)] {
        let a: Vec<f32> = (0..n).map(|i| i as f32).collect();
        let b: Vec<Vec2> = (0..m)
            .map(|i| Vec2::new(i as f32, 1.0 + (i % 3) as f32))
            .collect();
        let x = dev.upload(&a).unwrap();
        let p = dev.upload(&b).unwrap();
        let mut out = dev.zeros::<f32>(1).unwrap();
        two_widths
            .launch(&dev, Grid::groups(1), n as u32, m, &x, &p, &mut out)
            .unwrap();
        let expect: f32 =
            a.iter().sum::<f32>() + (0..m).map(|j| b[j].x * b[m - 1 - j].y).sum::<f32>();
        assert_eq!(out.read().unwrap(), [expect], "{n} and {m}");
    }
    let units: Vec<(u32, u32, u32)> = two_widths::ABI
        .launch_sized
        .iter()
        .map(|s| (s.id, s.param, s.unit_bytes))
        .collect();
    assert_eq!(units, [(0, 0, 4), (1, 1, 8)]);
    assert_eq!(two_widths::ABI.workgroup_memory, 128);
}

/// A trace file of its own for each test and backend.
fn trace_path(test: &str) -> std::path::PathBuf {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!(
        "sarek-shared-len-{test}-{}-{n}.json",
        std::process::id()
    ))
}

/// How many pipelines (CPU programs) of `kernel` the trace at `path` records.
fn pipelines_of(path: &std::path::Path, kernel: &str) -> usize {
    let text = std::fs::read_to_string(path).unwrap();
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    doc["traceEvents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["ph"] == "X" && e["cat"] == "pipeline" && e["name"] == kernel)
        .count()
}

#[backends]
fn one_pipeline_per_length_reused_when_it_comes_back(dev: Device) {
    let path = trace_path("reuse");
    let config = Config::from_env().trace(Some(&path));
    let traced = if dev.is_cpu() {
        let traced = Device::cpu_with(config);
        traced.set_checks(dev.checks());
        traced
    } else {
        Device::gpu_with(GpuOptions::new().config(config)).unwrap()
    };
    let made = traced.pipelines_made();
    for cols in [10usize, 20, 10, 20, 10] {
        let xs: Vec<f32> = (0..cols).map(|i| i as f32).collect();
        let x = traced.upload(&xs).unwrap();
        let mut y = traced.zeros::<f32>(cols).unwrap();
        reverse_rows
            .launch(&traced, Grid::groups(1), cols, &x, &mut y)
            .unwrap();
        assert_eq!(y.read().unwrap(), host_reverse(&xs, cols), "{cols} columns");
    }
    traced.synchronize().unwrap();
    traced.flush_trace().unwrap();
    // Lengths 10, 20, 10: the third launch found the first one's pipeline.
    assert_eq!(pipelines_of(&path, "reverse_rows"), 2);
    if !traced.is_cpu() {
        assert_eq!(traced.pipelines_made() - made, 2);
    }
    let _ = std::fs::remove_file(&path);
}

#[backends]
fn a_length_past_the_devices_workgroup_memory_is_refused(dev: Device) {
    let limit = dev.limits().max_compute_workgroup_storage_size as usize;
    let cols = limit / 4 + 1;
    let x = dev.zeros::<f32>(cols).unwrap();
    let mut y = dev.zeros::<f32>(cols).unwrap();
    let err = reverse_rows
        .launch(&dev, Grid::groups(1), cols, &x, &mut y)
        .unwrap_err();
    match &err {
        Error::WorkgroupMemory {
            kernel,
            needed,
            limit: l,
        } => {
            assert_eq!(kernel, "reverse_rows");
            assert_eq!(*needed as usize, 4 * cols);
            assert_eq!(*l as usize, limit);
        }
        other => panic!("expected WorkgroupMemory, got {other:?}"),
    }
    assert!(err.to_string().contains("shared_len"), "{err}");
    // With the fixed array's 128 bytes: the total is what counts.
    let n = (limit - 128) / 4;
    let a = dev.zeros::<f32>(n + 1).unwrap();
    let b = dev.zeros::<Vec2>(1).unwrap();
    let mut out = dev.zeros::<f32>(1).unwrap();
    let fits = two_widths.launch(&dev, Grid::groups(1), n as u32 - 2, 1, &a, &b, &mut out);
    assert!(fits.is_ok(), "{fits:?}");
    let over = two_widths.launch(&dev, Grid::groups(1), n as u32, 1, &a, &b, &mut out);
    assert!(
        matches!(over, Err(Error::WorkgroupMemory { .. })),
        "{over:?}"
    );
    // Nothing ran: `y` is as it was.
    assert_eq!(y.read().unwrap(), vec![0.0; cols]);
}

#[backends]
fn a_length_of_zero_is_refused(dev: Device) {
    let x = dev.zeros::<f32>(4).unwrap();
    let mut y = dev.upload(&[5.0f32; 4]).unwrap();
    let err = reverse_rows
        .launch(&dev, Grid::groups(1), 0usize, &x, &mut y)
        .unwrap_err();
    assert!(
        matches!(err, Error::EmptyWorkgroupArray { param: 0, ref kernel } if kernel == "reverse_rows"),
        "{err:?}"
    );
    assert_eq!(y.read().unwrap(), [5.0; 4]);
    // The second array's parameter is named.
    let a = dev.zeros::<f32>(1).unwrap();
    let b = dev.zeros::<Vec2>(1).unwrap();
    let mut out = dev.zeros::<f32>(1).unwrap();
    let err = two_widths
        .launch(&dev, Grid::groups(1), 1, 0usize, &a, &b, &mut out)
        .unwrap_err();
    assert!(
        matches!(err, Error::EmptyWorkgroupArray { param: 1, .. }),
        "{err:?}"
    );
}

#[cpu_only]
fn an_index_past_a_launch_sized_array_faults_on_the_checked_cpu_backend(dev: Device) {
    dev.set_checks(true);
    let mut y = dev.zeros::<u32>(1).unwrap();
    past_the_end
        .launch(&dev, Grid::groups(1), 8, 0, &mut y)
        .unwrap();
    assert_eq!(y.read().unwrap(), [1]);
    let err = past_the_end
        .launch(&dev, Grid::groups(1), 8, 1, &mut y)
        .unwrap_err();
    match &err {
        Error::KernelFault { message, .. } => {
            assert!(message.contains("8"), "{message}")
        }
        other => panic!("expected KernelFault, got {other:?}"),
    }
    // Unchecked, the index clamps to the last element, as naga clamps it on a GPU.
    dev.set_checks(false);
    past_the_end
        .launch(&dev, Grid::groups(1), 8, 1, &mut y)
        .unwrap();
    assert_eq!(y.read().unwrap(), [1]);
}
