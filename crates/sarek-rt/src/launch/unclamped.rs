//! Modules without naga's index clamps, for entry points whose indices the macro proved in
//! bounds (`sarek_codegen::in_bounds`, listed in [`KernelSource::in_bounds`]).
//!
//! wgpu's safe `create_shader_module` has naga clamp every index into a workgroup, local or
//! value array, vector or matrix it cannot see is in bounds; buffer accesses are kept in bounds
//! by the driver's robust buffer access on Vulkan. When the macro has proven every such index
//! of an entry point in bounds, the clamps cannot change a result, and dropping them gave the
//! f16 row 3% on the H200 (BENCHMARKS.md, "Index clamps"). wgpu's switch for them
//! (`ShaderRuntimeChecks::bounds_checks`) also drops its own buffer clamps where the driver has
//! none, so Sarek uses it only on Vulkan devices that enable `robustBufferAccess` (wgpu enables
//! it wherever the device offers it), whose buffer accesses then stay within their bindings by
//! the driver's guarantee, and only on devices Sarek requested itself (`Device::new`, `gpu`,
//! `with_adapter`, `all`), not on one from `Device::from_wgpu`, which the caller may have made
//! from raw Vulkan without it. `SAREK_UNCLAMPED=0` keeps the clamps everywhere.

use sarek_codegen::toggle::Toggle;

use crate::raw::KernelSource;

/// `SAREK_UNCLAMPED=0` keeps naga's index clamps in every module (read once per process).
static UNCLAMPED: Toggle = Toggle::new("SAREK_UNCLAMPED", true);

/// Whether modules of proven entry points may be created without index clamps on `device`:
/// a Vulkan device whose buffer accesses the driver keeps within their bindings, unless
/// `SAREK_UNCLAMPED=0`.
pub(crate) fn allowed(device: &wgpu::Device) -> bool {
    UNCLAMPED.get() && robust_buffers(device)
}

/// Whether `device` is a Vulkan device with `robustBufferAccess` enabled.
#[cfg(any(windows, target_os = "linux", target_os = "android"))]
fn robust_buffers(device: &wgpu::Device) -> bool {
    // SAFETY: the hal device is only read (its physical device's features), and the
    // reference does not outlive this call.
    let Some(hal) = (unsafe { device.as_hal::<wgpu::hal::api::Vulkan>() }) else {
        return false;
    };
    let instance = hal.shared_instance().raw_instance();
    // SAFETY: the physical device belongs to this instance, which outlives the call.
    let features = unsafe { instance.get_physical_device_features(hal.raw_physical_device()) };
    // wgpu 30 enables `robustBufferAccess` on the device whenever the physical device
    // offers it (`wgpu-hal`'s `PhysicalDeviceFeatures::from_extensions_and_requested_features`).
    features.robust_buffer_access != 0
}

/// Elsewhere (Metal, DX12, GL, the web) naga's clamps also keep buffers in bounds: kept.
#[cfg(not(any(windows, target_os = "linux", target_os = "android")))]
fn robust_buffers(_device: &wgpu::Device) -> bool {
    false
}

/// Whether entry point `entry_point` of `source` (or its quick form, with `quick`) may be
/// created without index clamps on a device that [`allowed`] them.
pub(crate) fn proven(source: &KernelSource, entry_point: &str, quick: bool) -> bool {
    match quick {
        true => source.quick_in_bounds,
        false => source.in_bounds.contains(&entry_point),
    }
}

/// A shader module of `source`: without index clamps when `unclamped`, else through wgpu's
/// safe path.
pub(crate) fn shader_module(
    device: &wgpu::Device,
    label: &str,
    source: wgpu::ShaderSource<'_>,
    unclamped: bool,
) -> wgpu::ShaderModule {
    let desc = wgpu::ShaderModuleDescriptor {
        label: Some(label),
        source,
    };
    if !unclamped {
        return device.create_shader_module(desc);
    }
    let mut checks = wgpu::ShaderRuntimeChecks::checked();
    checks.bounds_checks = false;
    // SAFETY: `bounds_checks: false` requires every access to stay in bounds. The macro
    // proved each index into workgroup, local and value arrays, vectors and matrices of this
    // entry point (and of every helper in the module) in bounds, and each cooperative load and
    // store from workgroup memory within its array (`sarek_codegen::in_bounds`); buffer
    // accesses are kept within their bindings by the device's robust buffer access, which
    // `allowed` checked. Every other runtime check stays on.
    unsafe { device.create_shader_module_trusted(desc, checks) }
}
