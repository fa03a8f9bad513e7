//! Modules without naga's index clamps, for entry points proven in bounds
//! (`sarek_proof::in_bounds`).
//!
//! wgpu's safe `create_shader_module` has naga clamp every index into a workgroup, local or
//! value array, vector or matrix it cannot see is in bounds; buffer accesses are kept in bounds
//! by the driver's robust buffer access on Vulkan. When every such index of an entry point is
//! proven in bounds, the clamps cannot change a result, and dropping them gave the f16 row 3% on
//! the H200 (BENCHMARKS.md, "Index clamps").
//!
//! What runs unclamped is always what was proven: the macro's list
//! ([`KernelSource::in_bounds`]) only says which entry points are worth trying, and the proof
//! runs again here on the naga module handed to wgpu, whether parsed from the text or read from
//! a module file (`module_cache.rs`), after naga has validated it with the device's
//! capabilities. A forged list or an edited file therefore costs the clamps, never safety.
//!
//! wgpu's switch for the clamps (`ShaderRuntimeChecks::bounds_checks`) also drops its own buffer
//! clamps where the driver has none, so Sarek uses it only on Vulkan devices with
//! `robustBufferAccess2` (`VK_EXT_robustness2`, which wgpu enables wherever offered): it keeps a
//! buffer access within the range bound, where `robustBufferAccess` alone keeps it only within
//! the whole buffer, which is not enough for a view of part of a caller's buffer
//! ([`crate::Buffer::from_wgpu`]). Only on devices Sarek requested itself (`Device::new`, `gpu`,
//! `with_adapter`, `all`), not on one from `Device::from_wgpu`, which the caller may have made
//! from raw Vulkan without it. `SAREK_UNCLAMPED=0` keeps the clamps everywhere.

use crate::raw::KernelSource;

/// Whether modules of proven entry points may be created without index clamps on `device`:
/// a Vulkan device whose buffer accesses the driver keeps within their bound ranges
/// (`SAREK_UNCLAMPED=0`, [`crate::Config::unclamped`], is checked by the caller).
pub(crate) fn allowed(device: &wgpu::Device) -> bool {
    robust_buffers(device)
}

/// Whether `device` is a Vulkan device with `robustBufferAccess2` enabled.
#[cfg(any(windows, target_os = "linux", target_os = "android"))]
fn robust_buffers(device: &wgpu::Device) -> bool {
    use ash::vk;
    // SAFETY: the hal device is only read (its extensions and its physical device's
    // features), and the reference does not outlive this call.
    let Some(hal) = (unsafe { device.as_hal::<wgpu::hal::api::Vulkan>() }) else {
        return false;
    };
    // wgpu 30 enables the extension wherever offered, and in it `robustBufferAccess2`
    // wherever the physical device has it (`wgpu-hal`'s `PhysicalDeviceFeatures`).
    if !hal
        .enabled_device_extensions()
        .contains(&ash::ext::robustness2::NAME)
    {
        return false;
    }
    let shared = hal.shared_instance();
    // `vkGetPhysicalDeviceFeatures2` is core from Vulkan 1.1, which the extension requires.
    if shared.instance_api_version() < vk::API_VERSION_1_1 {
        return false;
    }
    let mut robustness2 = vk::PhysicalDeviceRobustness2FeaturesEXT::default();
    let mut features = vk::PhysicalDeviceFeatures2::default().push_next(&mut robustness2);
    // SAFETY: the physical device belongs to this instance, which outlives the call, and the
    // chained structure lives until it returns.
    unsafe {
        shared
            .raw_instance()
            .get_physical_device_features2(hal.raw_physical_device(), &mut features)
    };
    robustness2.robust_buffer_access2 != 0
}

/// Elsewhere (Metal, DX12, GL, the web) naga's clamps also keep buffers in bounds: kept.
#[cfg(not(any(windows, target_os = "linux", target_os = "android")))]
fn robust_buffers(_device: &wgpu::Device) -> bool {
    false
}

/// Whether the macro listed entry point `entry_point` of `source` (or its quick form, with
/// `quick`) as proven in bounds: the entry points worth proving again ([`proven`]).
pub(crate) fn hinted(source: &KernelSource, entry_point: &str, quick: bool) -> bool {
    match quick {
        true => source.quick_in_bounds,
        false => source.in_bounds.contains(&entry_point),
    }
}

/// Whether naga validates `module` with `device`'s capabilities and the in-bounds proof holds
/// for its entry point `entry_point` (and every helper). `false` when anything fails, so the
/// module keeps its clamps.
pub(crate) fn proven(device: &wgpu::Device, module: &naga::Module, entry_point: &str) -> bool {
    let capabilities = wgpu_naga_bridge::features_to_naga_capabilities(
        device.features(),
        wgpu::DownlevelFlags::empty(),
    );
    proven_with(capabilities, module, entry_point)
}

/// [`proven`] with naga's `capabilities` (a device's, from its features).
pub(crate) fn proven_with(
    capabilities: naga::valid::Capabilities,
    module: &naga::Module,
    entry_point: &str,
) -> bool {
    use naga::valid::{Capabilities, ShaderStages, SubgroupOperationSet, ValidationFlags};
    // The proof was written for modules the macro makes; should a module read from a file
    // trip naga's validator or the proof, that is a failed proof, not a failed launch.
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut validator = naga::valid::Validator::new(ValidationFlags::all(), capabilities);
        if capabilities.contains(Capabilities::SUBGROUP) {
            validator.subgroup_stages(ShaderStages::COMPUTE);
            validator.subgroup_operations(SubgroupOperationSet::all());
        }
        let Ok(info) = validator.validate(module) else {
            return false;
        };
        sarek_proof::in_bounds::unclamped_entry_points(module, &info)
            .iter()
            .any(|e| e == entry_point)
    }))
    .unwrap_or(false)
}

/// A shader module of `source`: without index clamps when `unclamped`, else through wgpu's
/// safe path. Only [`super::module_cache::create`] calls it with `unclamped`, for a module
/// that [`proven`] accepted on a device that [`allowed`] it.
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
    // SAFETY: `bounds_checks: false` requires every access to stay in bounds. The module
    // given here is the one `proven` checked: naga validated it and the in-bounds proof
    // showed each index into workgroup, local and value arrays, vectors and matrices of its
    // entry point and helpers in bounds, and each cooperative load and store from workgroup
    // memory within its array; buffer accesses are kept within their bound ranges by the
    // device's `robustBufferAccess2`, which `allowed` checked. Every other runtime check
    // stays on.
    unsafe { device.create_shader_module_trusted(desc, checks) }
}
