//! Every hand-written twin passes naga's validation (with the extension it uses), so that a
//! typo shows up in `cargo test` rather than as a pipeline that silently fails on a device.

use sarek_codegen::features::Feature;

/// The twins with the features each needs.
const TWINS: &[(&str, &str, &[Feature])] = &[
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
];

#[test]
fn twins_validate() {
    for (name, wgsl, features) in TWINS {
        if let Err(e) = sarek_codegen::valid::validate_with(wgsl, features) {
            panic!("{name}: {e}");
        }
    }
}
