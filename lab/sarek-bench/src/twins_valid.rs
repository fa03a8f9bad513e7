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
    (
        "matmul_rb_if",
        include_str!("wgsl/experiments/matmul_rb_if.wgsl"),
        &[],
    ),
    (
        "matmul_rb_bk8",
        include_str!("wgsl/experiments/matmul_rb_bk8.wgsl"),
        &[],
    ),
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
        "matmul_f16_coop",
        include_str!("wgsl/matmul_f16_coop.wgsl"),
        F16_COOP,
    ),
    (
        "matmul_f16_staged",
        include_str!("wgsl/matmul_f16_staged.wgsl"),
        F16_COOP,
    ),
    (
        "matmul_f16_vec",
        include_str!("wgsl/matmul_f16_vec.wgsl"),
        F16_COOP,
    ),
    (
        "matmul_f16_vec_e",
        include_str!("wgsl/experiments/matmul_f16_vec_e.wgsl"),
        F16_COOP,
    ),
    (
        "matmul_f16_vec_p2",
        include_str!("wgsl/matmul_f16_vec_p2.wgsl"),
        F16_COOP,
    ),
    (
        "matmul_f16_q4p2",
        include_str!("wgsl/matmul_f16_q4p2.wgsl"),
        F16_COOP,
    ),
    (
        "matmul_f16_vec_p2e",
        include_str!("wgsl/experiments/matmul_f16_vec_p2e.wgsl"),
        F16_COOP,
    ),
    (
        "matmul_f16_staged_threads",
        include_str!("wgsl/experiments/matmul_f16_staged_threads.wgsl"),
        F16_COOP,
    ),
    (
        "matmul_f16_staged_128",
        include_str!("wgsl/experiments/matmul_f16_staged_128.wgsl"),
        F16_COOP,
    ),
    (
        "matmul_f16_peak",
        include_str!("wgsl/experiments/matmul_f16_peak.wgsl"),
        F16_COOP,
    ),
    (
        "matmul_f16_peak_shared",
        include_str!("wgsl/experiments/matmul_f16_peak_shared.wgsl"),
        F16_COOP,
    ),
    // (the `vec4<u32>` experiments convert with `unpack2x16float`, which this validation's
    // capabilities refuse, as `matmul_f16_256_vec4_single.wgsl`, not listed either; the device
    // accepts them)
    (
        "matmul_f16_db16",
        include_str!("wgsl/experiments/matmul_f16_db16.wgsl"),
        F16_COOP,
    ),
    (
        "matmul_f16_db16_early",
        include_str!("wgsl/experiments/matmul_f16_db16_early.wgsl"),
        F16_COOP,
    ),
    (
        "matmul_f16_s32_f16",
        include_str!("wgsl/experiments/matmul_f16_s32_f16.wgsl"),
        F16_COOP,
    ),
    (
        "matmul_f16_s32_vecsmem",
        include_str!("wgsl/experiments/matmul_f16_s32_vecsmem.wgsl"),
        F16_COOP,
    ),
    (
        "poly_contig4",
        include_str!("wgsl/experiments/poly_contig4.wgsl"),
        &[],
    ),
    (
        "poly_v4_staged",
        include_str!("wgsl/experiments/poly_v4_staged.wgsl"),
        &[],
    ),
    (
        "poly_v4_lanes",
        include_str!("wgsl/experiments/poly_v4_lanes.wgsl"),
        &[],
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
