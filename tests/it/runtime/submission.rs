//! Launches issued without a wait may reach the GPU together, from the device's open command
//! encoder (`launch/submit.rs`); every ordering guarantee of one submission per launch must
//! hold: reads, writes, copies, batches, recorded work and the caller's own submissions see
//! exactly the launches issued before them, `Launch::wait` / `is_done` / `gpu_time` work on a
//! launch still in the encoder, launches from several threads all run, launches left alone
//! reach the GPU on their own, and a device from `from_wgpu` submits each launch at once.
//! Every test runs on the GPU (lavapipe here) and, where it needs no wgpu object, on the CPU
//! backend under `SAREK_DEVICE=cpu`.

use crate::common;
use crate::common::{backends, gpu_only};

use sarek::prelude::*;
use sarek::wgpu;

#[sarek::kernel]
fn bump(v: &mut [u32]) {
    let i = global_thread_id();
    if i < v.len() {
        v[i] += 1;
    }
}

#[sarek::kernel]
fn scale_into(k: u32, x: &[u32], y: &mut [u32]) {
    let i = global_thread_id();
    if i < y.len() {
        y[i] = x[i] * k;
    }
}

#[sarek::kernel]
fn add_k(k: u32, v: &mut [u32]) {
    let i = global_thread_id();
    if i < v.len() {
        v[i] += k;
    }
}

const N: usize = 1000;

#[backends]
fn each_launch_of_a_burst_keeps_its_own_arguments(dev: Device) {
    let mut v = dev.zeros::<u32>(N).unwrap();
    // 3,000 distinct uniform blocks: more than an open encoder holds, through the ring.
    for k in 0..3000u32 {
        add_k.launch(&dev, Grid::cover(N), k, &mut v).unwrap();
    }
    assert_eq!(v.read_range(N - 1..N).unwrap(), [(0..3000u32).sum::<u32>()]);
}

#[backends]
fn a_read_after_a_burst_of_launches_sees_every_one(dev: Device) {
    let mut v = dev.zeros::<u32>(N).unwrap();
    for _ in 0..300 {
        bump.launch(&dev, Grid::cover(N), &mut v).unwrap();
    }
    assert_eq!(v.read().unwrap(), vec![300; N]);
    for _ in 0..7 {
        bump.launch(&dev, Grid::cover(N), &mut v).unwrap();
    }
    assert_eq!(v.read_range(N - 2..N).unwrap(), [307, 307]);
    // A burst followed by a launch reading its result into another buffer.
    let mut y = dev.zeros::<u32>(N).unwrap();
    scale_into
        .launch(&dev, Grid::cover(N), 2, &v, &mut y)
        .unwrap();
    assert_eq!(pollster::block_on(y.read_async()).unwrap(), vec![614; N]);
}

#[backends]
fn writes_and_copies_land_between_the_launches_around_them(dev: Device) {
    let mut v = dev.zeros::<u32>(N).unwrap();
    for _ in 0..5 {
        bump.launch(&dev, Grid::cover(N), &mut v).unwrap();
    }
    // The write comes after the five launches (they do not overwrite it) and before the next.
    v.write(&vec![100; N]).unwrap();
    bump.launch(&dev, Grid::cover(N), &mut v).unwrap();
    v.write_at(3, &[50, 60]).unwrap();
    bump.launch(&dev, Grid::cover(N), &mut v).unwrap();
    let got = v.read().unwrap();
    assert_eq!(&got[..6], [102, 102, 102, 51, 61, 102]);
    // A device copy between launches sees the first and not the second.
    let mut snapshot = dev.zeros::<u32>(N).unwrap();
    bump.launch(&dev, Grid::cover(N), &mut v).unwrap();
    dev.copy(&v, 0..N, &mut snapshot, 0).unwrap();
    bump.launch(&dev, Grid::cover(N), &mut v).unwrap();
    bump.launch(&dev, Grid::cover(N), &mut snapshot).unwrap();
    assert_eq!(snapshot.read_range(0..4).unwrap(), [104, 104, 104, 53]);
    assert_eq!(v.read_range(0..4).unwrap(), [104, 104, 104, 53]);
    // A whole-buffer copy too.
    bump.launch(&dev, Grid::cover(N), &mut v).unwrap();
    let copy = v.copy_to(&dev).unwrap();
    bump.launch(&dev, Grid::cover(N), &mut v).unwrap();
    assert_eq!(copy.read_range(0..1).unwrap(), [105]);
    assert_eq!(v.read_range(0..1).unwrap(), [106]);
}

#[backends]
fn waiting_on_a_launch_still_in_the_encoder_waits_for_it(dev: Device) {
    let mut v = dev.zeros::<u32>(N).unwrap();
    let launches: Vec<_> = (0..20)
        .map(|_| bump.launch(&dev, Grid::cover(N), &mut v).unwrap())
        .collect();
    // The fifth launch may still be in the encoder: waiting for it submits it.
    launches[4].wait().unwrap();
    assert!(launches[4].is_done());
    while !launches[19].is_done() {
        std::thread::yield_now();
    }
    for l in &launches {
        assert!(l.is_done());
    }
    let last = bump.launch(&dev, Grid::cover(N), &mut v).unwrap();
    pollster::block_on(last).unwrap();
    dev.synchronize().unwrap();
    assert_eq!(v.read_range(0..1).unwrap(), [21]);
}

#[backends]
fn dependent_launches_in_the_shared_pass_see_each_others_writes(dev: Device) {
    // Untimed launches share one open compute pass: each must read what the one before it
    // wrote and write only after the one before it read, and a timed launch in the middle
    // (a pass of its own) keeps its place.
    let mut x = dev.zeros::<u32>(N).unwrap();
    let mut y = dev.zeros::<u32>(N).unwrap();
    for round in 1..=40u32 {
        bump.launch(&dev, Grid::cover(N), &mut x).unwrap();
        scale_into
            .launch(&dev, Grid::cover(N), 3, &x, &mut y)
            .unwrap();
        if round == 20 {
            let profiling = dev.set_profiling(true);
            add_k.launch(&dev, Grid::cover(N), 1000, &mut x).unwrap();
            dev.set_profiling(false);
            let _ = profiling;
        }
        add_k.launch(&dev, Grid::cover(N), round, &mut y).unwrap();
    }
    // x: 40 bumps and one 1000; y: 3·x after the last bump, plus 40.
    assert_eq!(x.read_range(N - 1..N).unwrap(), [1040]);
    assert_eq!(y.read_range(0..2).unwrap(), [3 * 1040 + 40, 3 * 1040 + 40]);
}

#[backends]
fn gpu_times_of_a_burst_are_each_their_own(dev: Device) {
    let mut v = dev.zeros::<u32>(N).unwrap();
    let profiling = dev.set_profiling(true);
    let launches: Vec<_> = (0..10)
        .map(|_| bump.launch(&dev, Grid::cover(N), &mut v).unwrap())
        .collect();
    for l in launches.iter().rev() {
        let time = l.gpu_time().unwrap();
        assert_eq!(time.is_some(), profiling);
    }
    dev.set_profiling(false);
    assert_eq!(v.read_range(0..1).unwrap(), [10]);
}

#[backends]
fn a_batch_runs_after_the_launches_before_it_and_before_those_after(dev: Device) {
    let mut v = dev.zeros::<u32>(N).unwrap();
    let mut y = dev.zeros::<u32>(N).unwrap();
    for _ in 0..3 {
        bump.launch(&dev, Grid::cover(N), &mut v).unwrap();
    }
    let mut batch = dev.batch();
    scale_into
        .enqueue(&mut batch, Grid::cover(N), 10, &v, &mut y)
        .unwrap();
    let batched = batch.submit().unwrap();
    bump.launch(&dev, Grid::cover(N), &mut v).unwrap();
    batched.wait().unwrap();
    assert_eq!(y.read_range(0..2).unwrap(), [30, 30]);
    assert_eq!(v.read_range(0..2).unwrap(), [4, 4]);
}

#[backends]
fn launches_from_several_threads_all_run(dev: Device) {
    let shared = dev.clone();
    let results: Vec<Vec<u32>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..4)
            .map(|t| {
                let dev = shared.clone();
                s.spawn(move || {
                    let mut v = dev.zeros::<u32>(N).unwrap();
                    for _ in 0..(50 + t) {
                        bump.launch(&dev, Grid::cover(N), &mut v).unwrap();
                    }
                    v.read_range(0..N).unwrap()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for (t, got) in results.iter().enumerate() {
        assert_eq!(*got, vec![50 + t as u32; N]);
    }
    dev.synchronize().unwrap();
}

/// Copies `buffer` into a mappable buffer through `queue` and `device` directly (nothing of
/// Sarek's that would submit its open encoder) and reads it.
fn read_behind_sareks_back(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    buffer: &wgpu::Buffer,
    bytes: u64,
) -> Vec<u32> {
    let staging = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: bytes,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    encoder.copy_buffer_to_buffer(buffer, 0, &staging, 0, bytes);
    queue.submit([encoder.finish()]);
    staging.slice(..).map_async(wgpu::MapMode::Read, |_| {});
    device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
    let data = bytemuck::pod_collect_to_vec(&staging.slice(..).get_mapped_range().unwrap());
    data
}

#[gpu_only]
fn launches_left_alone_reach_the_gpu_on_their_own(dev: Device) {
    let (device, queue) = (dev.wgpu_device().clone(), dev.wgpu_queue().clone());
    let mut v = dev.zeros::<u32>(N).unwrap();
    let buffer = v.wgpu_buffer().clone();
    for _ in 0..50 {
        bump.launch(&dev, Grid::cover(N), &mut v).unwrap();
    }
    // No wait, read or flush: the open encoder is submitted within a quarter of a
    // millisecond by the device's submit thread.
    std::thread::sleep(std::time::Duration::from_millis(100));
    let got = read_behind_sareks_back(&device, &queue, &buffer, 16);
    assert_eq!(got, [50; 4]);
}

#[gpu_only]
fn the_callers_own_submissions_come_after_earlier_launches(dev: Device) {
    let mut v = dev.zeros::<u32>(N).unwrap();
    for _ in 0..30 {
        bump.launch(&dev, Grid::cover(N), &mut v).unwrap();
    }
    // Work recorded into the caller's encoder and submitted through `wgpu_queue()`.
    let mut encoder = dev
        .wgpu_device()
        .create_command_encoder(&Default::default());
    bump.record(&dev, &mut encoder, Grid::cover(N), &mut v)
        .unwrap();
    dev.wgpu_queue().submit([encoder.finish()]);
    assert_eq!(v.read_range(0..1).unwrap(), [31]);
    // A clone of the queue taken earlier needs `flush` first.
    let (device, queue) = (dev.wgpu_device().clone(), dev.wgpu_queue().clone());
    for _ in 0..10 {
        bump.launch(&dev, Grid::cover(N), &mut v).unwrap();
    }
    dev.flush();
    let got = read_behind_sareks_back(&device, &queue, v.wgpu_buffer(), 16);
    assert_eq!(got, [41; 4]);
}

#[gpu_only]
fn a_device_from_wgpu_submits_each_launch_at_once() {
    let Some(gpu) = common::gpu_device() else {
        return;
    };
    let (device, queue) = (gpu.wgpu_device().clone(), gpu.wgpu_queue().clone());
    let dev = Device::from_wgpu(device.clone(), queue.clone());
    let mut v = dev.zeros::<u32>(N).unwrap();
    for _ in 0..40 {
        bump.launch(&dev, Grid::cover(N), &mut v).unwrap();
    }
    // The caller's own queue, with no call into Sarek in between, sees all forty.
    let got = read_behind_sareks_back(&device, &queue, v.wgpu_buffer(), 16);
    assert_eq!(got, [40; 4]);
}

#[gpu_only]
fn dropping_the_device_submits_what_it_holds() {
    let Some(gpu) = common::gpu_device() else {
        return;
    };
    let (device, queue) = (gpu.wgpu_device().clone(), gpu.wgpu_queue().clone());
    let buffer;
    {
        let mut v = gpu.zeros::<u32>(N).unwrap();
        buffer = v.wgpu_buffer().clone();
        for _ in 0..25 {
            bump.launch(&gpu, Grid::cover(N), &mut v).unwrap();
        }
        drop(v);
        drop(gpu);
    }
    let got = read_behind_sareks_back(&device, &queue, &buffer, 16);
    assert_eq!(got, [25; 4]);
}
