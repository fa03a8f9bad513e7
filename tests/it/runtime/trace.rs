//! `SAREK_TRACE` / `Config::trace`: a device writes a Chrome trace-event JSON file of its
//! launches, batches, transfers, pipeline creations and waits, with GPU spans where the device
//! has timestamp queries. The file is parsed back and its events checked, on every backend.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::common::{backends, cpu_only, gpu_only};

use sarek::prelude::*;
use sarek::{Config, GpuOptions};
use serde_json::Value;

#[sarek::kernel]
fn trace_scale(k: u32, x: &[u32], y: &mut [u32]) {
    let i = global_thread_id();
    if i < y.len() {
        y[i] = x[i] * k;
    }
}

#[sarek::kernel]
fn trace_bump(v: &mut [u32]) {
    let i = global_thread_id();
    if i < v.len() {
        v[i] += 1;
    }
}

const N: usize = 1000;

/// A trace file of its own for each test and backend (they run at once in one process).
fn trace_path(test: &str) -> PathBuf {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!(
        "sarek-trace-{test}-{}-{n}.json",
        std::process::id()
    ))
}

/// A device of `dev`'s backend (and checks) that traces to `path`.
fn traced_like(dev: &Device, path: &Path) -> Device {
    let config = Config::from_env().trace(Some(path));
    if dev.is_cpu() {
        let traced = Device::cpu_with(config);
        traced.set_checks(dev.checks());
        traced
    } else {
        Device::gpu_with(GpuOptions::new().config(config)).unwrap()
    }
}

/// The file's events, checking that it is a trace-event document and that every complete
/// event has the fields a trace viewer needs, with times that are not negative.
fn events(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap();
    let doc: Value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("the trace is not JSON ({e}):\n{text}"));
    let events = doc["traceEvents"]
        .as_array()
        .unwrap_or_else(|| panic!("no traceEvents array:\n{text}"))
        .clone();
    for e in &events {
        let ph = e["ph"].as_str().unwrap_or_else(|| panic!("no ph: {e}"));
        assert!(ph == "X" || ph == "M", "{e}");
        assert!(e["pid"].is_u64() && e["tid"].is_u64(), "{e}");
        assert!(e["name"].is_string() && e["args"].is_object(), "{e}");
        if ph == "X" {
            assert!(e["cat"].is_string(), "{e}");
            let ts = e["ts"].as_f64().unwrap_or_else(|| panic!("no ts: {e}"));
            let dur = e["dur"].as_f64().unwrap_or_else(|| panic!("no dur: {e}"));
            assert!(ts >= 0.0 && dur >= 0.0, "{e}");
        }
    }
    events
}

/// The complete events of category `cat`.
fn of<'a>(events: &'a [Value], cat: &str) -> Vec<&'a Value> {
    events
        .iter()
        .filter(|e| e["ph"] == "X" && e["cat"] == cat)
        .collect()
}

/// The complete events of category `cat` named `name`.
fn named<'a>(events: &'a [Value], cat: &str, name: &str) -> Vec<&'a Value> {
    of(events, cat)
        .into_iter()
        .filter(|e| e["name"] == name)
        .collect()
}

#[backends]
fn a_trace_records_launches_batches_transfers_and_pipelines(dev: Device) {
    let path = trace_path("all");
    let traced = traced_like(&dev, &path);
    assert_eq!(traced.trace_path(), Some(path.as_path()));
    assert_eq!(
        dev.trace_path(),
        None,
        "the test's own device does not trace"
    );

    let x = traced.upload(&vec![2u32; N]).unwrap();
    let mut y = traced.zeros::<u32>(N).unwrap();
    let handle = trace_scale
        .launch(&traced, Grid::cover(N), 3, &x, &mut y)
        .unwrap();
    handle.wait().unwrap();
    // Tracing does not turn on the user's profiling.
    assert_eq!(handle.gpu_time().unwrap(), None);
    trace_bump.launch(&traced, Grid::cover(N), &mut y).unwrap();
    let mut batch = traced.batch();
    for _ in 0..3 {
        trace_bump
            .enqueue(&mut batch, Grid::cover(N), &mut y)
            .unwrap();
    }
    batch.submit().unwrap().wait().unwrap();
    assert_eq!(y.read().unwrap(), vec![10; N]);
    y.write_at(1, &[7, 8]).unwrap();
    assert_eq!(y.read_range(0..4).unwrap(), [10, 7, 8, 10]);
    let mut z = traced.zeros::<u32>(8).unwrap();
    traced.copy(&y, 0..5, &mut z, 1).unwrap();
    assert_eq!(
        pollster::block_on(z.read_async()).unwrap(),
        [0, 10, 7, 8, 10, 10, 0, 0]
    );
    traced
        .prepare(&[trace_scale::SOURCE, trace_bump::SOURCE])
        .unwrap();
    traced.synchronize().unwrap();
    traced.flush_trace().unwrap();

    let events = events(&path);
    let prepared = named(&events, "prepare", "prepare");
    assert_eq!(prepared.len(), 1, "{events:?}");
    assert_eq!(prepared[0]["args"]["kernels"], "trace_scale, trace_bump");
    let pid = events
        .iter()
        .find(|e| e["ph"] == "M" && e["name"] == "process_name")
        .unwrap_or_else(|| panic!("no process name: {events:?}"));
    let label = pid["args"]["name"].as_str().unwrap();
    assert!(label.contains(&traced.name()), "{label}");
    // One device: every event is its process's.
    assert!(events.iter().all(|e| e["pid"] == pid["pid"]), "{events:?}");

    // Launches name their kernel, grid and workgroups.
    let scales = named(&events, "launch", "trace_scale");
    assert_eq!(scales.len(), 1, "{events:?}");
    let args = &scales[0]["args"];
    assert_eq!(args["kernel"], "trace_scale");
    // The default workgroup of a 1-D kernel.
    let size = 256u64;
    let groups = (N as u64).div_ceil(size);
    assert_eq!(
        args["workgroups"],
        serde_json::json!([groups, 1, 1]),
        "{args}"
    );
    assert_eq!(
        args["workgroup_size"],
        serde_json::json!([size, 1, 1]),
        "{args}"
    );
    assert_eq!(
        args["grid"],
        serde_json::json!([groups * size, 1, 1]),
        "{args}"
    );
    assert!(
        args["dispatch"].is_array() && args["entry"].is_string(),
        "{args}"
    );
    assert!(args.get("error").is_none(), "{args}");
    assert_eq!(
        named(&events, "launch", "trace_bump").len(),
        1,
        "{events:?}"
    );

    // The batch: its submission with its number of launches, and each launch added.
    let batches = named(&events, "batch", "batch");
    assert_eq!(batches.len(), 1, "{events:?}");
    assert_eq!(batches[0]["args"]["launches"], 3);
    let added = named(&events, "enqueue", "trace_bump");
    assert_eq!(added.len(), 3, "{events:?}");
    assert_eq!(added[2]["args"]["position"], 2);

    // Transfers carry their bytes.
    let bytes = |name: &str| -> Vec<u64> {
        named(&events, "transfer", name)
            .iter()
            .map(|e| e["args"]["bytes"].as_u64().unwrap())
            .collect()
    };
    assert_eq!(bytes("upload"), [4 * N as u64]);
    assert_eq!(bytes("zeros"), [4 * N as u64, 32]);
    assert_eq!(bytes("read"), [4 * N as u64, 16]);
    assert_eq!(bytes("write"), [8]);
    assert_eq!(bytes("copy"), [20]);
    assert_eq!(bytes("read_async"), [32]);
    assert_eq!(named(&events, "sync", "synchronize").len(), 1);
    // Waits for launches that ran before returning (the CPU backend's) are not recorded.
    let waits = if traced.is_cpu() { 0 } else { 2 };
    assert_eq!(named(&events, "sync", "wait").len(), waits, "{events:?}");

    // Pipelines: one creation of each kernel's entry point (on the CPU backend, of its IR).
    for kernel in ["trace_scale", "trace_bump"] {
        let made = named(&events, "pipeline", kernel);
        assert!(!made.is_empty(), "no pipeline of {kernel}: {events:?}");
        let args = &made[0]["args"];
        assert_eq!(args["kernel"], kernel);
        assert!(args["cached"].is_boolean(), "{args}");
        if traced.is_cpu() {
            assert!(
                args["engine"] == "jit" || args["engine"] == "interpreter",
                "{args}"
            );
        } else {
            let tier = args["tier"].as_str().unwrap();
            assert!(["single", "quick", "optimized"].contains(&tier), "{args}");
            assert!(args["entry_point"].is_string(), "{args}");
        }
    }
    // A pipeline made during a launch lies within the launch's span.
    let launch = scales[0];
    let made = named(&events, "pipeline", "trace_scale")[0];
    let (ts, end) = span(launch);
    let (made_ts, made_end) = span(made);
    if made["tid"] == launch["tid"] {
        assert!(
            made_ts >= ts && made_end <= end + 0.01,
            "{made} in {launch}"
        );
    }

    // The GPU track: one span per launch and per batch, measured by the GPU, none before its
    // launch was issued on the host.
    let gpu = of(&events, "gpu");
    if traced.can_profile() {
        assert!(
            events.iter().any(|e| e["ph"] == "M"
                && e["name"] == "thread_name"
                && e["args"]["name"] == "GPU"),
            "{events:?}"
        );
        assert!(gpu.iter().all(|e| e["tid"] == 0), "{gpu:?}");
        let names: Vec<&str> = gpu.iter().map(|e| e["name"].as_str().unwrap()).collect();
        assert_eq!(
            names.iter().filter(|n| **n == "trace_scale").count(),
            1,
            "{names:?}"
        );
        assert_eq!(names.iter().filter(|n| **n == "trace_bump").count(), 1);
        assert_eq!(names.iter().filter(|n| **n == "batch").count(), 1);
        let on_gpu = named(&events, "gpu", "trace_scale")[0];
        assert!(span(on_gpu).0 >= ts, "{on_gpu} before {launch}");
    } else {
        assert!(gpu.is_empty(), "{gpu:?}");
    }

    // Dropping the device writes nothing twice and leaves a document.
    let before = events.len();
    drop((x, y, z, handle, traced));
    let after = self::events(&path);
    assert!(after.len() >= before, "{} < {before}", after.len());
    std::fs::remove_file(&path).ok();
}

/// An event's start and end, in microseconds.
fn span(e: &Value) -> (f64, f64) {
    let ts = e["ts"].as_f64().unwrap();
    (ts, ts + e["dur"].as_f64().unwrap())
}

#[backends]
fn a_dropped_device_leaves_a_complete_trace_without_a_flush(dev: Device) {
    let path = trace_path("drop");
    let traced = traced_like(&dev, &path);
    let mut v = traced.zeros::<u32>(N).unwrap();
    for _ in 0..5 {
        trace_bump.launch(&traced, Grid::cover(N), &mut v).unwrap();
    }
    // Before any write, the file is already an (empty) document.
    assert!(events(&path).is_empty());
    let can_profile = traced.can_profile();
    // No wait and no flush: dropping the last clone writes the events, GPU spans included.
    drop(v);
    drop(traced);
    let events = events(&path);
    assert_eq!(
        named(&events, "launch", "trace_bump").len(),
        5,
        "{events:?}"
    );
    let gpu = named(&events, "gpu", "trace_bump").len();
    assert_eq!(gpu, if can_profile { 5 } else { 0 }, "{events:?}");
    std::fs::remove_file(&path).ok();
}

#[backends]
fn a_failed_launch_is_traced_with_its_error(dev: Device) {
    let path = trace_path("error");
    let traced = traced_like(&dev, &path);
    let x = traced.upload(&[1u32, 2]).unwrap();
    let mut y = traced.zeros::<u32>(2).unwrap();
    // A buffer of another device is refused: the launch's event says why.
    let foreign = dev.upload(&[1u32, 2]).unwrap();
    let err = trace_scale
        .launch(&traced, Grid::cover(2), 1, &foreign, &mut y)
        .unwrap_err();
    trace_scale
        .launch(&traced, Grid::cover(2), 1, &x, &mut y)
        .unwrap();
    traced.flush_trace().unwrap();
    let events = events(&path);
    let launches = named(&events, "launch", "trace_scale");
    assert_eq!(launches.len(), 2, "{events:?}");
    assert_eq!(launches[0]["args"]["error"], err.to_string().as_str());
    assert!(launches[1]["args"].get("error").is_none());
    std::fs::remove_file(&path).ok();
}

#[cpu_only]
fn devices_tracing_to_one_path_share_the_file_as_processes_of_it() {
    let path = trace_path("shared");
    let config = Config::default().cpu_threads(1).trace(Some(&path));
    let a = Device::cpu_with(config.clone());
    let b = Device::cpu_with(config);
    let mut va = a.zeros::<u32>(4).unwrap();
    let mut vb = b.zeros::<u32>(4).unwrap();
    trace_bump.launch(&a, Grid::cover(4), &mut va).unwrap();
    trace_bump.launch(&b, Grid::cover(4), &mut vb).unwrap();
    a.flush_trace().unwrap();
    b.flush_trace().unwrap();
    let events = events(&path);
    let launches = named(&events, "launch", "trace_bump");
    assert_eq!(launches.len(), 2, "{events:?}");
    assert_ne!(launches[0]["pid"], launches[1]["pid"]);
    let processes = events
        .iter()
        .filter(|e| e["ph"] == "M" && e["name"] == "process_name")
        .count();
    assert_eq!(processes, 2, "{events:?}");
    std::fs::remove_file(&path).ok();
}

#[cpu_only]
fn a_trace_file_that_cannot_be_created_leaves_the_device_untraced() {
    let path = std::env::temp_dir()
        .join("sarek-no-such-directory")
        .join("nested")
        .join("trace.json");
    let dev = Device::cpu_with(Config::default().trace(Some(&path)));
    assert_eq!(dev.trace_path(), None);
    let mut v = dev.zeros::<u32>(4).unwrap();
    trace_bump.launch(&dev, Grid::cover(4), &mut v).unwrap();
    assert_eq!(v.read().unwrap(), [1; 4]);
    dev.flush_trace().unwrap();
    assert!(!path.exists());
}

#[gpu_only]
fn a_tiered_kernel_traces_its_quick_and_optimized_pipelines(dev: Device) {
    drop(dev);
    let path = trace_path("tiered");
    // No cache directory: nothing compiled before, so the first launch runs the quick form.
    let config = Config::from_env()
        .pipeline_cache_dir(None)
        .tiered(true)
        .trace(Some(&path));
    let traced = Device::gpu_with(GpuOptions::new().config(config)).unwrap();
    let expected = super::tiered::expected(&super::tiered::input());
    assert_eq!(super::tiered::run(&traced), expected);
    // The second launch switches to the optimized pipeline, waiting for its compile.
    assert_eq!(super::tiered::run(&traced), expected);
    traced.flush_trace().unwrap();
    let events = events(&path);
    let made = named(&events, "pipeline", "blocked_sum");
    let tier = |t: &str| made.iter().filter(|e| e["args"]["tier"] == t).count();
    assert_eq!((tier("quick"), tier("optimized")), (1, 1), "{made:?}");
    // The optimized pipeline was compiled on a thread of its own, named in the trace.
    let optimized = made
        .iter()
        .find(|e| e["args"]["tier"] == "optimized")
        .unwrap();
    let thread = events
        .iter()
        .find(|e| e["ph"] == "M" && e["name"] == "thread_name" && e["tid"] == optimized["tid"])
        .unwrap_or_else(|| panic!("no name for {optimized}"));
    assert!(
        thread["args"]["name"]
            .as_str()
            .unwrap()
            .starts_with("sarek compile"),
        "{thread}"
    );
    std::fs::remove_file(&path).ok();
}

#[backends]
fn a_long_run_reaches_the_file_before_any_flush_and_keeps_every_launch(dev: Device) {
    let path = trace_path("long");
    let traced = traced_like(&dev, &path);
    let mut v = traced.zeros::<u32>(64).unwrap();
    // More launches than the GPU spans held back (1,024) and than 64 KiB of events.
    let launches = 1500;
    for _ in 0..launches {
        trace_bump.launch(&traced, Grid::cover(64), &mut v).unwrap();
    }
    assert_eq!(v.read().unwrap(), vec![launches as u32; 64]);
    let early = named(&events(&path), "launch", "trace_bump").len();
    assert!(
        early > 0 && early < launches,
        "{early} launches written early"
    );
    traced.flush_trace().unwrap();
    let events = events(&path);
    assert_eq!(named(&events, "launch", "trace_bump").len(), launches);
    let gpu = named(&events, "gpu", "trace_bump").len();
    assert_eq!(gpu, if traced.can_profile() { launches } else { 0 });
    std::fs::remove_file(&path).ok();
}

#[gpu_only]
fn a_launch_recorded_into_a_callers_encoder_is_traced(dev: Device) {
    let path = trace_path("record");
    let traced = traced_like(&dev, &path);
    let mut v = traced.zeros::<u32>(N).unwrap();
    let mut encoder = traced
        .wgpu_device()
        .create_command_encoder(&Default::default());
    trace_bump
        .record(&traced, &mut encoder, Grid::cover(N), &mut v)
        .unwrap();
    traced.wgpu_queue().submit([encoder.finish()]);
    assert_eq!(v.read().unwrap(), vec![1; N]);
    traced.flush_trace().unwrap();
    let events = events(&path);
    let recorded = named(&events, "record", "trace_bump");
    assert_eq!(recorded.len(), 1, "{events:?}");
    assert_eq!(recorded[0]["args"]["workgroups"][0], N.div_ceil(256));
    // Its GPU time belongs to the caller's submission, which Sarek does not time.
    assert!(named(&events, "gpu", "trace_bump").is_empty(), "{events:?}");
    std::fs::remove_file(&path).ok();
}
