//! Kernels declared with `limits = "device"` use more than WebGPU guarantees (here 512
//! invocations and 9 storage buffers); a launch checks the device's limits and refuses, naming
//! the limit, on a device whose limits are lower.

use crate::common::{backends, gpu_only};

use sarek::prelude::*;

#[sarek::kernel(workgroup_size = [512], limits = "device")]
fn wide(out: &mut [u32]) {
    let i = global_thread_id();
    out[i] = thread_idx_x() as u32;
}

#[sarek::kernel(workgroup_size = [64], limits = "device")]
#[allow(clippy::too_many_arguments)]
fn nine(
    a: &[u32],
    b: &[u32],
    c: &[u32],
    d: &[u32],
    e: &[u32],
    f: &[u32],
    g: &[u32],
    h: &[u32],
    out: &mut [u32],
) {
    let i = global_thread_id();
    if i < out.len() {
        out[i] = a[i] + b[i] + c[i] + d[i] + e[i] + f[i] + g[i] + h[i];
    }
}

fn run_wide(dev: &Device) -> sarek::Result<Vec<u32>> {
    let mut out = dev.zeros::<u32>(1024)?;
    wide.launch(dev, Grid::cover(1024), &mut out)?;
    out.read()
}

fn run_nine(dev: &Device) -> sarek::Result<Vec<u32>> {
    let bufs: Vec<_> = (1..=8u32)
        .map(|k| dev.upload(&vec![k; 64]))
        .collect::<sarek::Result<_>>()?;
    let mut out = dev.zeros::<u32>(64)?;
    nine.launch(
        dev,
        Grid::cover(64),
        &bufs[0],
        &bufs[1],
        &bufs[2],
        &bufs[3],
        &bufs[4],
        &bufs[5],
        &bufs[6],
        &bufs[7],
        &mut out,
    )?;
    out.read()
}

#[backends]
fn device_limit_kernels_run_where_the_device_allows(dev: &Device) {
    assert_eq!(wide::ABI.limits, sarek::abi::Limits::Device);
    if dev.limits().max_compute_invocations_per_workgroup >= 512 {
        let out = run_wide(dev).unwrap();
        assert_eq!(out[700], 700 - 512, "on {}", dev.name());
    }
    if dev.limits().max_storage_buffers_per_shader_stage >= 9 {
        assert_eq!(run_nine(dev).unwrap(), vec![36; 64], "on {}", dev.name());
    }
}

#[gpu_only]
fn a_device_with_lower_limits_refuses_naming_the_limit() {
    // A device created with WebGPU's default limits: 256 invocations, 8 storage buffers.
    let Some(dev) = crate::extensions::subgroups::bare_device() else {
        return;
    };
    match run_wide(&dev) {
        Err(
            e @ sarek::Error::DeviceLimit {
                needed: 512,
                available: 256,
                ..
            },
        ) => {
            let text = e.to_string();
            // The first limit it breaks: 512 along x, where WebGPU's default allows 256.
            assert!(
                text.contains("max_compute_workgroup_size_x") && text.contains("`wide`"),
                "{text}"
            );
        }
        other => panic!("expected DeviceLimit, got {other:?}"),
    }
    match run_nine(&dev) {
        Err(sarek::Error::DeviceLimit {
            limit,
            needed: 9,
            available: 8,
            ..
        }) => {
            assert_eq!(limit, "max_storage_buffers_per_shader_stage")
        }
        other => panic!("expected DeviceLimit, got {other:?}"),
    }
}
