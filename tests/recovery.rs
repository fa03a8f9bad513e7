//! Out-of-memory and device loss are errors the caller handles, after which the process goes
//! on: the same device (after freeing memory) or a new one runs kernels again.

mod common;

use sarek::prelude::*;

#[sarek::kernel]
fn fill(v: u32, out: &mut [u32]) {
    let i = global_thread_id();
    if i < out.len() {
        out[i] = v;
    }
}

fn works(dev: &Device) {
    let mut out = dev.zeros::<u32>(100).unwrap();
    fill.launch(dev, Grid::cover(100), 7, &mut out).unwrap();
    assert_eq!(out.read().unwrap(), vec![7; 100]);
}

/// A device whose allocations fail once they pass 1% of the memory budget the driver reports
/// (wgpu's memory-budget threshold), shared with Sarek through `Device::from_wgpu`.
fn tight_device() -> Option<Device> {
    let mut desc = sarek::wgpu::InstanceDescriptor::new_without_display_handle_from_env();
    desc.memory_budget_thresholds.for_resource_creation = Some(1);
    let instance = sarek::wgpu::Instance::new(desc);
    let adapter = pollster::block_on(instance.request_adapter(&Default::default())).ok()?;
    let (device, queue) = pollster::block_on(adapter.request_device(&Default::default())).ok()?;
    Some(Device::from_wgpu(device, queue))
}

/// Needs a driver that reports its memory budget (`VK_EXT_memory_budget`, which NVIDIA's has
/// and Mesa 22's lavapipe lacks: there allocations never fail, they are only reserved), so it
/// is not part of the default run; run it with `cargo test --test recovery -- --ignored` on
/// such a GPU (done on the H200, see ARCHITECTURE.md).
#[test]
#[ignore = "needs a driver with VK_EXT_memory_budget (not lavapipe)"]
fn out_of_memory_is_an_error_and_the_device_recovers() {
    // The GPU suite needs a device at all; the tight one is built the same way.
    let Some(_) = common::gpu_device() else {
        return;
    };
    let dev = tight_device().expect("a device with a memory budget threshold");
    let mut held = Vec::new();
    let mut error = None;
    for _ in 0..4096 {
        match dev.zeros::<u32>(16 << 20) {
            Ok(b) => held.push(b),
            Err(e) => {
                error = Some(e);
                break;
            }
        }
    }
    let error = error.expect("allocating past the budget threshold fails");
    assert!(matches!(error, sarek::Error::OutOfMemory(_)), "{error}");
    assert!(
        error.to_string().to_lowercase().contains("memory"),
        "{error}"
    );
    // Freeing memory makes room again on the same device.
    held.clear();
    works(&dev);
}

#[test]
fn device_loss_is_an_error_and_a_new_device_works() {
    let Some(dev) = common::gpu_device() else {
        return;
    };
    works(&dev);
    dev.wgpu_device().destroy();
    let _ = dev.synchronize();
    let mut out = match dev.zeros::<u32>(10) {
        Ok(b) => b,
        Err(e) => {
            assert!(matches!(e, sarek::Error::DeviceLost(_)), "{e}");
            works(&Device::gpu().unwrap());
            return;
        }
    };
    let err = fill
        .launch(&dev, Grid::cover(10), 1, &mut out)
        .and_then(|l| l.wait())
        .expect_err("a launch on a lost device fails");
    assert!(matches!(err, sarek::Error::DeviceLost(_)), "{err}");
    works(&Device::gpu().unwrap());
}
