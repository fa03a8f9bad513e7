//! The runtime in real applications: async, interop with wgpu code, many threads, lifetime,
//! profiling and dumps.

use crate::common::{backends, gpu_only};

use std::time::Duration;

use sarek::prelude::*;
use sarek::Error;

#[sarek::kernel]
fn saxpy(a: f32, x: &[f32], y: &mut [f32]) {
    let i = global_thread_id();
    if i < y.len() {
        y[i] = a * x[i] + y[i];
    }
}

#[sarek::kernel]
fn add_one(v: &mut [u32]) {
    let i = global_thread_id();
    if i < v.len() {
        v[i] += 1;
    }
}

/// A single-threaded executor that never blocks: it only polls the future, parking between
/// wake-ups. If a Sarek future blocked, this would hang or fail the timeout below.
fn run_single_threaded<F: std::future::Future>(f: F) -> F::Output {
    use std::sync::Arc;
    use std::task::{Context, Poll, Wake, Waker};
    struct Unpark(std::thread::Thread);
    impl Wake for Unpark {
        fn wake(self: Arc<Self>) {
            self.0.unpark();
        }
    }
    let waker = Waker::from(Arc::new(Unpark(std::thread::current())));
    let mut cx = Context::from_waker(&waker);
    let mut f = std::pin::pin!(f);
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    loop {
        if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "future did not complete"
        );
        std::thread::park_timeout(Duration::from_millis(50));
    }
}

#[backends]
fn async_read_and_launch_under_a_single_threaded_executor(dev: Device) {
    let n = 5000;
    let x = dev.upload(&vec![1.0f32; n]).unwrap();
    let mut y = dev.upload(&vec![2.0f32; n]).unwrap();
    let out = run_single_threaded(async {
        saxpy.launch(&dev, Grid::cover(n), 3.0, &x, &mut y)?.await?;
        y.read_async().await
    })
    .unwrap();
    assert!(out.iter().all(|&v| v == 5.0));
}

#[backends]
fn launch_handles_can_be_waited_for_and_polled(dev: Device) {
    let mut v = dev.zeros::<u32>(1000).unwrap();
    let launch = add_one.launch(&dev, Grid::cover(1000), &mut v).unwrap();
    launch.wait().unwrap();
    assert!(launch.is_done());
    // An empty grid is done at once.
    assert!(add_one
        .launch(&dev, Grid::cover(0), &mut v)
        .unwrap()
        .is_done());
    assert_eq!(v.read().unwrap(), vec![1; 1000]);
}

#[gpu_only]
fn staging_buffers_are_reused(dev: Device) {
    let buf = dev.upload(&[7u32; 100]).unwrap();
    for _ in 0..20 {
        assert_eq!(buf.read().unwrap()[99], 7);
    }
    assert_eq!(
        dev.pooled_staging_buffers(),
        1,
        "twenty reads of one size share one staging buffer"
    );
}

#[gpu_only]
fn a_user_wgpu_buffer_with_an_offset_is_a_kernel_argument(dev: Device) {
    let align = dev.limits().min_storage_buffer_offset_alignment as u64;
    let words = (align / 4) as usize;
    let usage =
        wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST;
    let mine = dev.wgpu_device().create_buffer(&wgpu::BufferDescriptor {
        label: Some("user"),
        size: align * 4,
        usage,
        mapped_at_creation: false,
    });
    let all: Vec<u32> = (0..words as u32 * 4).collect();
    dev.wgpu_queue()
        .write_buffer(&mine, 0, bytemuck::cast_slice(&all));
    // The second `align`-sized block, 10 elements of it.
    let mut view = sarek::Buffer::<u32>::from_wgpu(&dev, mine.clone(), align, 10).unwrap();
    add_one.launch(&dev, Grid::cover(10), &mut view).unwrap();
    assert_eq!(
        view.read().unwrap(),
        (words as u32..words as u32 + 10)
            .map(|v| v + 1)
            .collect::<Vec<_>>()
    );
    // Nothing outside the view changed.
    let whole = sarek::Buffer::<u32>::from_wgpu(&dev, mine.clone(), 0, words * 4).unwrap();
    let after = whole.read().unwrap();
    for (i, v) in after.iter().enumerate() {
        let inside = (words..words + 10).contains(&i);
        assert_eq!(*v, i as u32 + inside as u32, "element {i}");
    }
    // Misaligned offsets, ranges past the end and missing usages are errors.
    if align > 4 {
        assert!(matches!(
            sarek::Buffer::<u32>::from_wgpu(&dev, mine.clone(), 4, 1),
            Err(Error::BadBuffer(_))
        ));
    }
    assert!(matches!(
        sarek::Buffer::<u32>::from_wgpu(&dev, mine.clone(), align, words * 4),
        Err(Error::BadBuffer(_))
    ));
    let uniform = dev.wgpu_device().create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: 64,
        usage: wgpu::BufferUsages::UNIFORM,
        mapped_at_creation: false,
    });
    assert!(matches!(
        sarek::Buffer::<u32>::from_wgpu(&dev, uniform, 0, 4),
        Err(Error::BadBuffer(_))
    ));
}

#[gpu_only]
fn a_launch_recorded_into_a_user_encoder_runs_in_order_with_the_users_passes(dev: Device) {
    let mut v = dev.upload(&[10u32; 64]).unwrap();
    let staging = dev.wgpu_device().create_buffer(&wgpu::BufferDescriptor {
        label: Some("user readback"),
        size: 256,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut encoder = dev
        .wgpu_device()
        .create_command_encoder(&Default::default());
    add_one
        .record(&dev, &mut encoder, Grid::cover(64), &mut v)
        .unwrap();
    add_one
        .record(&dev, &mut encoder, Grid::cover(64), &mut v)
        .unwrap();
    encoder.copy_buffer_to_buffer(v.wgpu_buffer(), 0, &staging, 0, 256);
    // Nothing runs before the user submits.
    assert_eq!(v.read().unwrap(), vec![10; 64]);
    dev.wgpu_queue().submit([encoder.finish()]);
    staging
        .slice(..)
        .map_async(wgpu::MapMode::Read, |r| r.unwrap());
    dev.wgpu_device()
        .poll(wgpu::PollType::wait_indefinitely())
        .unwrap();
    let data: Vec<u32> =
        bytemuck::pod_collect_to_vec(&staging.slice(..).get_mapped_range().unwrap());
    assert_eq!(data, vec![12; 64]);
}

#[test]
fn devices_kernels_buffers_and_launches_are_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<Device>();
    check::<sarek::Buffer<f32>>();
    check::<saxpy>();
    check::<sarek::Launch>();
    check::<sarek::Error>();
}

#[backends]
fn launches_from_eight_threads_at_once(dev: Device) {
    std::thread::scope(|s| {
        for t in 0..8u32 {
            let dev = dev.clone();
            s.spawn(move || {
                let n = 1000 + t as usize * 37;
                let mut v = dev.upload(&vec![t; n]).unwrap();
                for _ in 0..50 {
                    add_one.launch(&dev, Grid::cover(n), &mut v).unwrap();
                }
                assert_eq!(v.read().unwrap(), vec![t + 50; n], "thread {t}");
            });
        }
    });
}

#[backends]
fn a_buffer_dropped_while_its_launch_is_in_flight_stays_valid_for_it(dev: Device) {
    let n = 1 << 16;
    let mut y = dev.zeros::<f32>(n).unwrap();
    for round in 0..5 {
        let x = dev.upload(&vec![round as f32; n]).unwrap();
        saxpy.launch(&dev, Grid::cover(n), 1.0, &x, &mut y).unwrap();
        drop(x); // the launch may still be running
    }
    assert!(y.read().unwrap().iter().all(|&v| v == 10.0));
}

fn resident_bytes() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: u64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    pages * 4096
}

#[backends]
fn a_hundred_thousand_launches_keep_memory_flat(dev: Device) {
    if !std::path::Path::new("/proc/self/statm").exists() {
        eprintln!("no /proc/self/statm: the memory bound is checked on Linux only");
        return;
    }
    let mut v = dev.zeros::<u32>(64).unwrap();
    let mut run = |launches: usize| {
        for i in 0..launches {
            add_one.launch(&dev, Grid::cover(64), &mut v).unwrap();
            if i % 1000 == 999 {
                v.write(&[0; 64]).unwrap();
                let up = dev.upload(&[1u32; 64]).unwrap();
                assert_eq!(up.read().unwrap()[0], 1);
                v.read().unwrap();
            }
        }
    };
    run(5_000); // warm-up: pools and allocator caches fill

    // The resident size is the whole test process's, and the other tests of this binary run
    // beside this one on other threads (their buffers, lavapipe's pipelines): a round that
    // overlaps them can grow without any leak here. A leak grows in every round, so the
    // test passes when one of three rounds stays under the bound.
    let mut growths = Vec::new();
    for _ in 0..3 {
        let before = resident_bytes();
        run(100_000);
        let growth = resident_bytes().saturating_sub(before);
        growths.push(growth >> 20);
        if growth < 64 << 20 {
            return;
        }
    }
    panic!("resident memory grew in every round of 100,000 launches: {growths:?} MiB");
}

#[gpu_only]
fn gpu_time_from_several_threads_at_once_reads_the_timestamps_once(dev: Device) {
    if !dev.set_profiling(true) {
        eprintln!("this adapter has no timestamp queries");
        return;
    }
    let n = 1 << 16;
    let x = dev.upload(&vec![1.0f32; n]).unwrap();
    let mut y = dev.zeros::<f32>(n).unwrap();
    for _ in 0..4 {
        let launch = saxpy.launch(&dev, Grid::cover(n), 2.0, &x, &mut y).unwrap();
        let barrier = std::sync::Barrier::new(8);
        let times: Vec<_> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..8)
                .map(|_| {
                    s.spawn(|| {
                        barrier.wait();
                        launch.gpu_time()
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let first = times[0].as_ref().unwrap().expect("profiling is on");
        for t in &times {
            assert_eq!(t.as_ref().unwrap(), &Some(first), "{times:?}");
        }
        assert_eq!(launch.gpu_time().unwrap(), Some(first));
    }
    dev.set_profiling(false);
}

#[gpu_only]
fn profiled_launches_report_a_positive_gpu_time(dev: Device) {
    if sarek_codegen::toggle::enabled("SAREK_REQUIRE_GPU", false) {
        assert!(
            dev.can_profile(),
            "the CI device (lavapipe) has timestamp queries"
        );
    }
    if !dev.set_profiling(true) {
        eprintln!("this adapter has no timestamp queries");
        return;
    }
    let n = 1 << 20;
    let x = dev.upload(&vec![1.0f32; n]).unwrap();
    let mut y = dev.zeros::<f32>(n).unwrap();
    let launch = saxpy.launch(&dev, Grid::cover(n), 2.0, &x, &mut y).unwrap();
    let time = launch.gpu_time().unwrap().expect("profiling is on");
    assert!(time > Duration::ZERO, "{time:?}");
    dev.set_profiling(false);
    let launch = saxpy.launch(&dev, Grid::cover(n), 2.0, &x, &mut y).unwrap();
    assert_eq!(launch.gpu_time().unwrap(), None);
}

#[test]
fn kernels_know_where_they_are_defined() {
    assert!(
        saxpy::SOURCE
            .location()
            .starts_with("tests/it/runtime/applications.rs:"),
        "{}",
        saxpy::SOURCE.location()
    );
    let json = saxpy::ABI.to_json();
    assert!(json.contains("\"kernel\": \"saxpy\""), "{json}");
}

#[backends]
fn thousands_of_launches_each_see_their_own_arguments(dev: Device) {
    // More launches than the uniform ring has slots, each with a different scalar.
    let n = 512;
    let x = dev.upload(&vec![1.0f32; n]).unwrap();
    let mut y = dev.upload(&vec![2.0f32; n]).unwrap();
    let mut expect = 2.0f32;
    for k in 0..6000u32 {
        let a = (k % 7) as f32;
        saxpy.launch(&dev, Grid::cover(n), a, &x, &mut y).unwrap();
        expect += a;
    }
    assert_eq!(y.read().unwrap(), vec![expect; n]);
}

#[backends]
fn a_batch_submits_many_launches_in_order_at_once(dev: Device) {
    let mut a = dev.upload(&[0u32; 300]).unwrap();
    let mut b = dev.upload(&[100u32; 40]).unwrap();
    let mut batch = dev.batch();
    for i in 0..500 {
        add_one
            .enqueue(&mut batch, Grid::cover(300), &mut a)
            .unwrap();
        if i % 5 == 0 {
            add_one
                .enqueue(&mut batch, Grid::cover(40), &mut b)
                .unwrap();
        }
    }
    add_one.enqueue(&mut batch, Grid::cover(0), &mut a).unwrap(); // empty: adds nothing
    assert_eq!(batch.len(), 600);
    // Nothing runs before submit.
    assert_eq!(a.read().unwrap(), vec![0; 300]);
    batch.submit().unwrap().wait().unwrap();
    assert_eq!(a.read().unwrap(), vec![500; 300]);
    assert_eq!(b.read().unwrap(), vec![200; 40]);
}
