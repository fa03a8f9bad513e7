//! Features and limits beyond core WebGPU: the check that a device has every feature and limit
//! a kernel needs before it launches (shared by every backend, in the public [`Features`]
//! vocabulary), and the CPU backend's subgroup size. Which wgpu features Sarek requests is the
//! wgpu backend's (`backend/wgpu/adapter.rs`).

use std::sync::atomic::Ordering;

use sarek_ir::abi::{Abi, CoopShape, Feature};

use crate::device::{Device, Features, Limits};
use crate::error::{Error, Result};

/// The wgpu feature behind an ABI [`Feature`].
pub(crate) fn wgpu_feature(feature: Feature) -> Features {
    match feature {
        Feature::Subgroup => Features::SUBGROUP,
        Feature::SubgroupBarrier => Features::SUBGROUP_BARRIER,
        Feature::ShaderFloat32Atomic => Features::SHADER_FLOAT32_ATOMIC,
        Feature::CooperativeMatrix(_) => Features::EXPERIMENTAL_COOPERATIVE_MATRIX,
        Feature::ShaderF16 => Features::SHADER_F16,
        Feature::ShaderInt64 => Features::SHADER_INT64,
        Feature::ShaderInt64AtomicMinMax => Features::SHADER_INT64_ATOMIC_MIN_MAX,
        Feature::ShaderInt64AtomicAllOps => Features::SHADER_INT64_ATOMIC_ALL_OPS,
    }
}

/// Whether a device offering `shapes` has what `needed` asks for (a role left open matches
/// any element type).
fn offers(shapes: &[CoopShape], needed: CoopShape) -> bool {
    shapes.iter().any(|s| {
        s.size == needed.size
            && needed.ab.is_none_or(|ab| s.ab == Some(ab))
            && needed.c.is_none_or(|c| s.c == Some(c))
    })
}

/// What the error says a device offers, for a kernel whose matrices it lacks.
fn offered_text(shapes: &[CoopShape]) -> String {
    if shapes.is_empty() {
        return "; this device offers no cooperative-matrix shape Sarek can use".to_owned();
    }
    let list: Vec<String> = shapes.iter().map(|s| s.to_string()).collect();
    format!("; this device offers {}", list.join("; "))
}

/// Checks that a device with `features` and `limits` can run `abi`'s kernel: every feature
/// it needs, and a workgroup size and buffer count within the device's limits (the workgroup
/// memory is checked by `launch::workgroup_memory`). A portable kernel passes the limits on
/// every device, since it was checked against WebGPU's defaults when it compiled.
///
/// A kernel with cooperative matrices also needs each of its shapes among `coop`, the
/// configurations the device offers (`None`: unknown, only the feature is checked).
pub(crate) fn check(
    abi: &Abi,
    features: Features,
    limits: &Limits,
    coop: Option<&[CoopShape]>,
) -> Result<()> {
    if let Some(&feature) = abi
        .features
        .iter()
        .find(|f| !features.contains(wgpu_feature(**f)))
    {
        let detail = match (feature, coop) {
            // The adapter has them, but the device was opened without experimental features.
            (Feature::CooperativeMatrix(_), Some(shapes))
                if !shapes.is_empty()
                    && !features.contains(Features::EXPERIMENTAL_COOPERATIVE_MATRIX) =>
            {
                format!(
                    "{}, but wgpu's cooperative matrices are an experimental feature: open the \
                     device with `Device::gpu_with(unsafe {{ GpuOptions::new().experimental_features() }})`",
                    offered_text(shapes)
                )
            }
            (Feature::CooperativeMatrix(_), Some(shapes)) => offered_text(shapes),
            _ => String::new(),
        };
        return Err(Error::MissingFeature {
            kernel: abi.kernel.to_string(),
            feature,
            detail,
        });
    }
    if let Some(shapes) = coop {
        for &feature in abi.features.iter() {
            if let Feature::CooperativeMatrix(needed) = feature {
                if !offers(shapes, needed) {
                    return Err(Error::MissingFeature {
                        kernel: abi.kernel.to_string(),
                        feature,
                        detail: format!(
                            "; this device has cooperative matrices but not of {needed}{}",
                            offered_text(shapes).replacen("; this device offers", ": it offers", 1)
                        ),
                    });
                }
            }
        }
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
            // A kernel that prints or asserts binds its debug channel too.
            abi.buffers.len() as u64 + u64::from(abi.debug),
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
        // Public interop: wgpu's type (the `Features` alias of every backend).
        self.backend_impl().features()
    }

    /// The cooperative-matrix configurations the device offers that Sarek can use (square,
    /// `f16` or `f32` elements), which a kernel's `CoopMatrix` shapes must be among:
    /// `16×16×16, f16 A and B, f32 C` and the like. The CPU backend emulates every shape
    /// WGSL has; a device from [`Device::from_wgpu`] lists none (its adapter is unknown, so
    /// only the feature is checked); a GPU without `EXPERIMENTAL_COOPERATIVE_MATRIX` (one
    /// opened without [`crate::GpuOptions::experimental_features`]) has none.
    ///
    /// ```
    /// let shapes = sarek_rt::Device::cpu().cooperative_matrix_shapes();
    /// assert!(shapes.iter().any(|s| s.size == 16));
    /// ```
    pub fn cooperative_matrix_shapes(&self) -> Vec<CoopShape> {
        if !self
            .features()
            .contains(Features::EXPERIMENTAL_COOPERATIVE_MATRIX)
        {
            return Vec::new();
        }
        self.coop_offer().unwrap_or_default()
    }

    /// The shapes launches are checked against, as the adapter offers them whether or not the
    /// device was opened with the feature (`None`: unknown).
    pub(crate) fn coop_offer(&self) -> Option<Vec<CoopShape>> {
        self.backend_impl().coop_offer()
    }

    /// On the CPU backend, the subgroup size its emulation of subgroups uses: consecutive
    /// invocations of a workgroup (by `local_invocation_index`) in groups of `size`, in
    /// lockstep. `size` is a power of two from 4 to 128, as on GPUs; the default is 32
    /// (NVIDIA's), or `SAREK_CPU_SUBGROUP_SIZE` ([`crate::Config::cpu_subgroup_size`]). Returns the size now in force: on a GPU,
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
                if sarek_cpu::interp::valid_subgroup_size(size) {
                    cpu.subgroup_size.store(size, Ordering::Relaxed);
                }
                cpu.subgroup_size.load(Ordering::Relaxed)
            }
            None => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sarek_ir::abi::CoopScalar;
    use std::borrow::Cow::Borrowed as B;

    /// A kernel that needs 16×16×16 matrices with f16 A and B and an f32 C.
    fn coop_abi(shape: CoopShape) -> Abi {
        Abi {
            kernel: B("tiles"),
            entry_point: B(sarek_ir::abi::ENTRY_POINT),
            workgroup_size: [32, 1, 1],
            buffers: B(&[]),
            uniform: sarek_ir::abi::Uniform {
                binding: 0,
                size: 16,
                fields: B(&[]),
            },
            workgroup_memory: 0,
            launch_sized: B(&[]),
            coarsened: false,
            vectorised: false,
            features: std::borrow::Cow::Owned(vec![Feature::CooperativeMatrix(shape)]),
            limits: sarek_ir::abi::Limits::Portable,
            debug: false,
        }
    }

    #[test]
    fn a_device_without_experimental_features_says_how_to_get_them() {
        let shape = CoopShape {
            size: 16,
            ab: Some(CoopScalar::F16),
            c: Some(CoopScalar::F32),
        };
        let abi = coop_abi(shape);
        let limits = Limits::default();
        // The adapter offers the shape, the device was opened without the feature.
        let err = check(&abi, Features::SUBGROUP, &limits, Some(&[shape])).unwrap_err();
        let text = err.to_string();
        assert!(matches!(err, Error::MissingFeature { .. }), "{text}");
        assert!(
            text.contains("GpuOptions::new().experimental_features()"),
            "{text}"
        );
        // With the feature the same kernel passes; without any offer nothing is suggested.
        let with = Features::EXPERIMENTAL_COOPERATIVE_MATRIX;
        assert!(check(&abi, with, &limits, Some(&[shape])).is_ok());
        let none = check(&abi, Features::empty(), &limits, Some(&[])).unwrap_err();
        assert!(
            !none.to_string().contains("experimental_features"),
            "{none}"
        );
    }
}
