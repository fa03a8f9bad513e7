//! Every hand-written twin passes naga's validation (with the extension it uses), so that a
//! typo shows up in `cargo test` rather than as a pipeline that silently fails on a device.

use sarek_codegen::features::{CoopScalar, CoopShape, Feature};

/// f16 A and B, f32 C, 16×16×16: the shape of the f16 matrix products.
const F16_COOP: &[Feature] = &[
    Feature::ShaderF16,
    Feature::CooperativeMatrix(CoopShape {
        size: 16,
        ab: Some(CoopScalar::F16),
        c: Some(CoopScalar::F32),
    }),
];

/// The twins with the features each needs.
const TWINS: &[(&str, &str, &[Feature])] = &[
    ("matmul_rb", include_str!("wgsl/matmul_rb.wgsl"), &[]),
    ("scan_reduce", include_str!("wgsl/scan_reduce.wgsl"), &[]),
    ("scan_carry", include_str!("wgsl/scan_carry.wgsl"), &[]),
    (
        "scan_apply_sg",
        include_str!("wgsl/scan_apply_sg.wgsl"),
        &[Feature::Subgroup],
    ),
    (
        "sum4_subgroup_atomic",
        include_str!("wgsl/sum4_subgroup_atomic.wgsl"),
        &[Feature::Subgroup, Feature::ShaderFloat32Atomic],
    ),
    (
        "sum4_subgroup_stage",
        include_str!("wgsl/sum4_subgroup_stage.wgsl"),
        &[Feature::Subgroup],
    ),
    (
        "matmul_f16_q4p2",
        include_str!("wgsl/matmul_f16_q4p2.wgsl"),
        F16_COOP,
    ),
];

#[test]
fn twins_validate() {
    for (name, wgsl, features) in TWINS {
        if let Err(e) = sarek_proof::valid::validate_with(wgsl, features) {
            panic!("{name}: {e}");
        }
    }
}
