//! Features and limits beyond core WebGPU: which wgpu features Sarek requests, the check that a
//! device has every feature and limit a kernel needs before it launches, and the CPU backend's
//! subgroup size.

use std::sync::atomic::Ordering;

use sarek_codegen::abi::{Abi, Feature};

use crate::device::Device;
use crate::error::{Error, Result};

/// The wgpu feature behind an ABI [`Feature`].
pub(crate) fn wgpu_feature(feature: Feature) -> wgpu::Features {
    match feature {
        Feature::Subgroup => wgpu::Features::SUBGROUP,
        Feature::SubgroupBarrier => wgpu::Features::SUBGROUP_BARRIER,
        Feature::ShaderFloat32Atomic => wgpu::Features::SHADER_FLOAT32_ATOMIC,
        Feature::ShaderF16 => wgpu::Features::SHADER_F16,
    }
}

/// Every wgpu feature Sarek can use: the kernels' features, and timestamps for profiling.
/// [`Device::new`] and [`Device::gpu`] request those of them the adapter offers.
pub(crate) fn usable() -> wgpu::Features {
    wgpu::Features::TIMESTAMP_QUERY
        | wgpu::Features::SUBGROUP
        | wgpu::Features::SUBGROUP_BARRIER
        | wgpu::Features::SHADER_FLOAT32_ATOMIC
        | wgpu::Features::SHADER_F16
}

/// Checks that a device with `features` and `limits` can run `abi`'s kernel: every feature
/// it needs, and a workgroup size and buffer count within the device's limits (the workgroup
/// memory is checked by `launch::workgroup_memory`). A portable kernel passes the limits on
/// every device, since it was checked against WebGPU's defaults when it compiled.
pub(crate) fn check(abi: &Abi, features: wgpu::Features, limits: &wgpu::Limits) -> Result<()> {
    if let Some(&feature) = abi
        .features
        .iter()
        .find(|f| !features.contains(wgpu_feature(**f)))
    {
        return Err(Error::MissingFeature {
            kernel: abi.kernel.to_string(),
            feature,
        });
    }
    let [x, y, z] = abi.workgroup_size.map(u64::from);
    let checks = [
        (
            "max_compute_workgroup_size_x",
            x,
            limits.max_compute_workgroup_size_x,
        ),
        (
            "max_compute_workgroup_size_y",
            y,
            limits.max_compute_workgroup_size_y,
        ),
        (
            "max_compute_workgroup_size_z",
            z,
            limits.max_compute_workgroup_size_z,
        ),
        (
            "max_compute_invocations_per_workgroup",
            x * y * z,
            limits.max_compute_invocations_per_workgroup,
        ),
        (
            "max_storage_buffers_per_shader_stage",
            abi.buffers.len() as u64,
            limits.max_storage_buffers_per_shader_stage,
        ),
    ];
    for (limit, needed, available) in checks {
        if needed > u64::from(available) {
            return Err(Error::DeviceLimit {
                kernel: abi.kernel.to_string(),
                limit,
                needed,
                available: u64::from(available),
            });
        }
    }
    Ok(())
}

impl Device {
    /// The wgpu features the device has. Kernels that need one it lacks (their
    /// `ABI.features`) fail to launch with [`Error::MissingFeature`]. The CPU backend has
    /// every feature a kernel can need (it emulates subgroups and float atomics, and computes
    /// `f16` through the `half` crate).
    ///
    /// ```
    /// use sarek_rt::wgpu::Features;
    /// assert!(sarek_rt::Device::cpu().features().contains(Features::SUBGROUP));
    /// ```
    pub fn features(&self) -> wgpu::Features {
        match &self.backend {
            crate::device::Backend::Gpu(inner) => inner.features,
            crate::device::Backend::Cpu(_) => {
                wgpu::Features::SUBGROUP
                    | wgpu::Features::SUBGROUP_BARRIER
                    | wgpu::Features::SHADER_FLOAT32_ATOMIC
                    | wgpu::Features::SHADER_F16
            }
        }
    }

    /// On the CPU backend, the subgroup size its emulation of subgroups uses: consecutive
    /// invocations of a workgroup (by `local_invocation_index`) in groups of `size`, in
    /// lockstep. `size` is a power of two from 4 to 128, as on GPUs; the default is 32
    /// (NVIDIA's), or `SAREK_CPU_SUBGROUP_SIZE`. Returns the size now in force: on a GPU,
    /// where the hardware decides (8 on lavapipe, 32 on NVIDIA, 32 or 64 on AMD), nothing
    /// changes and it returns 0; an invalid size is ignored.
    ///
    /// ```
    /// let dev = sarek_rt::Device::cpu();
    /// assert_eq!(dev.set_subgroup_size(8), 8);
    /// assert_eq!(dev.set_subgroup_size(3), 8); // not a power of two: ignored
    /// ```
    pub fn set_subgroup_size(&self, size: u32) -> u32 {
        match self.as_cpu() {
            Some(cpu) => {
                if sarek_codegen::interp::valid_subgroup_size(size) {
                    cpu.subgroup_size.store(size, Ordering::Relaxed);
                }
                cpu.subgroup_size.load(Ordering::Relaxed)
            }
            None => 0,
        }
    }
}

/// The CPU backend's subgroup size from `SAREK_CPU_SUBGROUP_SIZE`, else the default (an
/// invalid value is logged and ignored).
pub(crate) fn cpu_subgroup_size_from_env() -> u32 {
    let default = sarek_codegen::interp::DEFAULT_SUBGROUP_SIZE;
    match std::env::var("SAREK_CPU_SUBGROUP_SIZE") {
        Ok(text) => match text.trim().parse::<u32>() {
            Ok(n) if sarek_codegen::interp::valid_subgroup_size(n) => n,
            _ => {
                log::warn!("sarek: SAREK_CPU_SUBGROUP_SIZE={text:?} is not a power of two from 4 to 128; using {default}");
                default
            }
        },
        Err(_) => default,
    }
}
