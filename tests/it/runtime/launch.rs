//! End-to-end tests: kernels compiled by the macro, launched through wgpu, checked on the host.

use crate::common;
use crate::common::{backends, gpu_only};

use sarek::gpu::{with_invocation, Invocation};
use sarek::prelude::*;
use sarek::Error;

#[sarek::kernel]
fn saxpy(a: f32, x: &[f32], y: &mut [f32]) {
    let i = global_thread_id();
    if i < y.len() {
        y[i] = a * x[i] + y[i];
    }
}

#[backends]
fn saxpy_matches_the_host(dev: Device) {
    let n = 10_000;
    let xs: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
    let ys: Vec<f32> = (0..n).map(|i| (i % 13) as f32).collect();
    let x = dev.upload(&xs).unwrap();
    let mut y = dev.upload(&ys).unwrap();
    saxpy.launch(&dev, Grid::cover(n), 3.0, &x, &mut y).unwrap();
    let out = y.read().unwrap();
    for i in 0..n {
        assert_eq!(out[i], 3.0 * xs[i] + ys[i], "element {i}");
    }
}

#[backends]
fn the_plain_rust_body_agrees_with_the_gpu(dev: Device) {
    let n = 700;
    let xs: Vec<f32> = common::random_u32(7, n)
        .iter()
        .map(|&v| (v % 1000) as f32 / 7.0)
        .collect();
    let ys: Vec<f32> = common::random_u32(8, n)
        .iter()
        .map(|&v| (v % 1000) as f32 / 3.0)
        .collect();
    let x = dev.upload(&xs).unwrap();
    let mut y = dev.upload(&ys).unwrap();
    saxpy.launch(&dev, Grid::cover(n), 1.5, &x, &mut y).unwrap();
    let gpu = y.read().unwrap();

    let mut host = ys.clone();
    let groups = Grid::cover(n).workgroups(saxpy::ABI.workgroup_size);
    for block in 0..groups[0] {
        for thread in 0..saxpy::ABI.workgroup_size[0] {
            let inv = Invocation {
                thread_idx: [thread, 0, 0],
                block_idx: [block, 0, 0],
                block_dim: [256, 1, 1],
                grid_dim: groups,
            };
            with_invocation(inv, || saxpy::body(1.5, &xs, &mut host));
        }
    }
    assert_eq!(gpu, host);
}

#[sarek::kernel(workgroup_size = [64])]
fn fill_index(out: &mut [u32]) {
    let i = global_thread_id();
    if i < out.len() {
        out[i] = i as u32;
    }
}

#[backends]
fn a_length_that_is_not_a_multiple_of_the_workgroup(dev: Device) {
    // 1000 = 15 full workgroups of 64 and 40 more; the buffer has a sentinel tail.
    let mut out = dev.upload(&vec![u32::MAX; 1000]).unwrap();
    fill_index
        .launch(&dev, Grid::cover(1000), &mut out)
        .unwrap();
    let got = out.read().unwrap();
    assert_eq!(got, (0..1000).collect::<Vec<u32>>());
}

#[backends]
fn more_than_65535_workgroups(dev: Device) {
    let groups = dev.limits().max_compute_workgroups_per_dimension as usize + 1000;
    let n = groups * 64 + 5;
    let mut out = dev.zeros::<u32>(n).unwrap();
    fill_index.launch(&dev, Grid::cover(n), &mut out).unwrap();
    let got = out.read().unwrap();
    let wrong: Vec<usize> = (0..n).filter(|&i| got[i] != i as u32).take(5).collect();
    assert!(wrong.is_empty(), "first wrong elements: {wrong:?} of {n}");
}

#[sarek::kernel(workgroup_size = [16, 16])]
fn grid_2d(width: usize, height: usize, out: &mut [u32]) {
    let x = global_idx_x();
    let y = global_idx_y();
    if x < width && y < height {
        let dims = (block_dim_x() * 1000 + block_dim_y()) as u32;
        out[y * width + x] =
            dims * 100000 + (y * width + x) as u32 + (thread_idx_x() + thread_idx_y()) as u32 * 0;
    }
}

#[sarek::kernel(workgroup_size = [16, 16])]
fn ids_2d(width: usize, out: &mut [u32]) {
    let x = global_idx_x();
    let y = global_idx_y();
    if x < width && y * width + x < out.len() {
        let expect_x = block_idx_x() * block_dim_x() + thread_idx_x();
        let expect_y = block_idx_y() * block_dim_y() + thread_idx_y();
        let ok = expect_x == x && expect_y == y && grid_dim_x() == (width + 15) / 16;
        out[y * width + x] = if ok {
            global_thread_id() as u32
        } else {
            u32::MAX
        };
    }
}

#[backends]
// The loop indexes several arrays in step, which reads plainer than zipped iterators.
#[allow(clippy::needless_range_loop)]
fn two_dimensional_kernel_reads_its_real_workgroup_size(dev: Device) {
    let (w, h) = (37, 21);
    let mut out = dev.zeros::<u32>(w * h).unwrap();
    grid_2d
        .launch(&dev, Grid::cover_2d(w, h), w, h, &mut out)
        .unwrap();
    let got = out.read().unwrap();
    for i in 0..w * h {
        assert_eq!(got[i], 16_016 * 100_000 + i as u32, "element {i}");
    }
    assert!(grid_2d::WGSL.contains("@workgroup_size(16, 16, 1)"));
}

#[backends]
fn two_dimensional_ids_are_consistent(dev: Device) {
    let (w, h) = (40, 9);
    let mut out = dev.zeros::<u32>(w * h).unwrap();
    ids_2d
        .launch(&dev, Grid::cover_2d(w, h), w, &mut out)
        .unwrap();
    let got = out.read().unwrap();
    let width_threads = 48; // 3 workgroups of 16
    for y in 0..h {
        for x in 0..w {
            assert_eq!(got[y * w + x], (y * width_threads + x) as u32, "({x}, {y})");
        }
    }
}

#[backends]
fn a_zero_length_launch_is_a_no_op(dev: Device) {
    let mut empty = dev.zeros::<u32>(0).unwrap();
    assert!(empty.is_empty());
    fill_index.launch(&dev, Grid::cover(0), &mut empty).unwrap();
    assert_eq!(empty.read().unwrap(), Vec::<u32>::new());
    let mut some = dev.upload(&[7u32; 3]).unwrap();
    fill_index
        .launch(&dev, Grid::groups([0, 1, 1]), &mut some)
        .unwrap();
    assert_eq!(some.read().unwrap(), vec![7, 7, 7]);
}

#[sarek::kernel]
fn wgsl_names(out: &mut [f32]) {
    let filter = 1.0f32;
    let target = 2.0f32;
    let max = filter.max(target);
    let select = if max > 1.5 { 10.0f32 } else { 20.0 };
    let f32 = select + max;
    let r#type = f32 * 2.0;
    let _x = 1.0f32;
    let sarek_params = 0.5f32;
    let __x = 0.25f32;
    let i = global_thread_id();
    if i < out.len() {
        out[i] = r#type + _x + sarek_params + __x + filter.min(target);
    }
}

#[backends]
fn locals_named_like_wgsl_keywords_and_builtins(dev: Device) {
    let mut out = dev.zeros::<f32>(3).unwrap();
    wgsl_names.launch(&dev, Grid::cover(3), &mut out).unwrap();
    // max = 2, select = 10, f32 = 12, type = 24, + 1 + 0.5 + 0.25 + 1
    assert_eq!(out.read().unwrap(), vec![26.75; 3]);
}

#[sarek::kernel]
fn shadowing(n: i32, out: &mut [i32]) {
    let x = n;
    let x = x * 2;
    let n = x + 1; // shadows the parameter
    let mut acc = 0;
    for i in 0..3 {
        let x = i * 10;
        acc += x;
    }
    let i = global_thread_id();
    if i < out.len() {
        out[i] = n + acc;
    }
}

#[backends]
fn same_block_shadowing_and_parameter_shadowing(dev: Device) {
    let mut out = dev.zeros::<i32>(2).unwrap();
    shadowing.launch(&dev, Grid::cover(2), 5, &mut out).unwrap();
    assert_eq!(out.read().unwrap(), vec![11 + 30; 2]);
}

#[gpu_only]
fn device_from_wgpu_runs_kernels_on_a_user_device() {
    let Some(_) = common::gpu_device() else {
        return;
    };
    let instance =
        wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    let adapter =
        pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions::default()))
            .expect("an adapter, since Device::gpu found one");
    let (device, queue) =
        pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor::default())).unwrap();
    let dev = Device::from_wgpu(device.clone(), queue);
    let x = dev.upload(&[1.0f32, 2.0, 3.0]).unwrap();
    let mut y = dev.upload(&[10.0f32, 20.0, 30.0]).unwrap();
    saxpy.launch(&dev, Grid::cover(3), 2.0, &x, &mut y).unwrap();
    assert_eq!(y.read().unwrap(), vec![12.0, 24.0, 36.0]);
    // The buffer is an ordinary wgpu buffer of the user's device.
    assert!(y.wgpu_buffer().size() >= 12);
    assert!(y
        .wgpu_buffer()
        .usage()
        .contains(wgpu::BufferUsages::STORAGE));
}

#[backends]
fn runtime_errors_are_values_not_panics(dev: Device) {
    // A buffer over the binding limit.
    let too_many = dev.limits().max_storage_buffer_binding_size as usize / 4 + 1;
    match dev.zeros::<f32>(too_many) {
        Err(Error::BufferTooLarge { .. }) => {}
        other => panic!("expected BufferTooLarge, got {other:?}"),
    }
    // A 2-D grid over the per-dimension limit cannot be folded.
    let mut out = dev.zeros::<u32>(4).unwrap();
    let limit = dev.limits().max_compute_workgroups_per_dimension;
    match fill_index.launch(&dev, Grid::groups([limit + 1, 2, 1]), &mut out) {
        Err(e @ Error::GridTooLarge { .. }) => {
            assert!(e.to_string().contains("workgroups per dimension"))
        }
        other => panic!("expected GridTooLarge, got {other:?}"),
    }
    // A write of the wrong length.
    match out.write(&[1, 2, 3]) {
        Err(Error::LengthMismatch { len: 4, given: 3 }) => {}
        other => panic!("expected LengthMismatch, got {other:?}"),
    }
    // A usize that does not fit the GPU's 32 bits.
    let mut o = dev.zeros::<u32>(1).unwrap();
    match grid_2d.launch(&dev, Grid::cover(1), usize::MAX, 1, &mut o) {
        Err(Error::ScalarOutOfRange { param: 0, .. }) => {}
        other => panic!("expected ScalarOutOfRange, got {other:?}"),
    }
    // A buffer of another device.
    let other_dev = common::device().unwrap();
    let mut foreign = other_dev.zeros::<u32>(4).unwrap();
    match fill_index.launch(&dev, Grid::cover(4), &mut foreign) {
        Err(Error::WrongDevice { param: 0, .. }) => {}
        other => panic!("expected WrongDevice, got {other:?}"),
    }
}

#[backends]
fn the_same_buffer_twice_with_one_write_is_refused(dev: Device) {
    // The typed API makes this a borrow error; the untyped one checks it at run time.
    let buf = dev.zeros::<f32>(4).unwrap();
    let args = [
        sarek::__private::Arg::f32(1.0),
        sarek::__private::Arg::Buffer(buf.raw(), sarek::abi::Access::Read),
        sarek::__private::Arg::Buffer(buf.raw(), sarek::abi::Access::ReadWrite),
    ];
    match sarek::__private::launch(&dev, saxpy::SOURCE, Grid::cover(4), &args) {
        Err(e @ Error::Aliasing { .. }) => assert!(e.to_string().contains("parameters 1 and 2")),
        other => panic!("expected Aliasing, got {other:?}"),
    }
}

#[gpu_only]
fn a_lost_device_is_an_error_and_a_new_device_works() {
    let Some(_) = common::gpu_device() else {
        return;
    };
    let instance =
        wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    let adapter =
        pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions::default()))
            .unwrap();
    let (device, queue) =
        pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor::default())).unwrap();
    let dev = Device::from_wgpu(device.clone(), queue);
    let buf = dev.upload(&[1u32, 2, 3]).unwrap();
    device.destroy();
    let _ = device.poll(wgpu::PollType::Poll);
    match buf.read() {
        Err(Error::DeviceLost(_)) => {}
        other => panic!("expected DeviceLost, got {other:?}"),
    }
    assert!(matches!(dev.zeros::<u32>(4), Err(Error::DeviceLost(_))));
    // The process can go on with a new device.
    let fresh = common::gpu_device().unwrap();
    assert_eq!(fresh.upload(&[5u32]).unwrap().read().unwrap(), vec![5]);
}
