//! naga validation of emitted WGSL. Sarek runs it inside the macro, so a kernel whose WGSL
//! naga rejects never compiles; a rejection is a bug in Sarek, not in the user's kernel.

use crate::features::Feature;

/// Parses and validates `wgsl` with naga, with all validation flags and the capabilities of
/// core WebGPU. The error text is naga's report, with the offending WGSL lines.
pub fn validate(wgsl: &str) -> Result<(), String> {
    validate_with(wgsl, &[])
}

/// Like [`validate`], with the capabilities of core WebGPU plus those of `features` (the
/// kernel's [`sarek_ir::abi::Abi::features`]): a kernel may use exactly what it declares.
pub fn validate_with(wgsl: &str, features: &[Feature]) -> Result<(), String> {
    validated(wgsl, features).map(|_| ())
}

/// [`validate_with`], keeping naga's module and its validation info (for
/// [`crate::in_bounds`]).
pub fn validated(
    wgsl: &str,
    features: &[Feature],
) -> Result<(naga::Module, naga::valid::ModuleInfo), String> {
    use naga::valid::{Capabilities, ShaderStages, SubgroupOperationSet};
    let module = naga::front::wgsl::parse_str(wgsl).map_err(|e| e.emit_to_string(wgsl))?;
    let mut capabilities = Capabilities::empty();
    for feature in features {
        capabilities |= match feature {
            Feature::Subgroup => Capabilities::SUBGROUP,
            Feature::SubgroupBarrier => Capabilities::SUBGROUP_BARRIER,
            Feature::ShaderFloat32Atomic => Capabilities::SHADER_FLOAT32_ATOMIC,
            Feature::CooperativeMatrix(_) => Capabilities::COOPERATIVE_MATRIX,
            Feature::ShaderF16 => Capabilities::SHADER_FLOAT16,
            Feature::ShaderInt64 => Capabilities::SHADER_INT64,
            Feature::ShaderInt64AtomicMinMax => Capabilities::SHADER_INT64_ATOMIC_MIN_MAX,
            Feature::ShaderInt64AtomicAllOps => Capabilities::SHADER_INT64_ATOMIC_ALL_OPS,
        };
    }
    let mut validator =
        naga::valid::Validator::new(naga::valid::ValidationFlags::all(), capabilities);
    if features.contains(&Feature::Subgroup) {
        validator.subgroup_stages(ShaderStages::COMPUTE);
        validator.subgroup_operations(SubgroupOperationSet::all());
    }
    let info = validator
        .validate(&module)
        .map_err(|e| e.emit_to_string(wgsl))?;
    Ok((module, info))
}

/// The text that reports naga's rejection of WGSL that Sarek generated (a bug in Sarek), in the
/// compiler's errors and the macro's diagnostics.
pub fn report(message: &str, wgsl: &str) -> String {
    format!("this is a bug in Sarek, please report it: naga rejected the WGSL that Sarek generated.\n{message}\nThe generated WGSL:\n{wgsl}")
}
