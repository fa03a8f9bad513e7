//! Subgroup operations inside helper functions (a helper that runs one must be called where
//! every invocation calls it, checked at the call), the errors that name the collective
//! operation a divergent condition guards (a barrier, a subgroup operation or a
//! cooperative-matrix operation), and the `F16Vec` refusals; on the test device and on the CPU
//! backend.

use crate::common::backends;

use sarek::prelude::*;
use sarek_codegen::front::{attr, lower_kernel};

#[sarek::module]
mod lanes {
    use sarek::prelude::*;

    /// The sum of `v` over the caller's subgroup, through a helper of a helper.
    pub fn lane_total(v: u32) -> u32 {
        twice_half(subgroup_add(v))
    }

    fn twice_half(t: u32) -> u32 {
        let first = subgroup_broadcast_first(t);
        first / 2 + (first - first / 2)
    }

    #[sarek::kernel(workgroup_size = [64])]
    pub fn per_subgroup(out: &mut [u32], sizes: &mut [u32]) {
        let i = global_thread_id();
        let total = lane_total(1);
        let size = subgroup_size();
        if i < out.len() {
            out[i] = total;
            sizes[i] = size;
        }
    }
}

#[backends]
fn a_helper_runs_a_subgroup_operation_in_uniform_control_flow(dev: Device) {
    use sarek::abi::Feature;
    assert!(lanes::per_subgroup::ABI
        .features
        .contains(&Feature::Subgroup));
    if !dev.features().contains(sarek::wgpu::Features::SUBGROUP) {
        eprintln!("no SUBGROUP on this device: skipped");
        return;
    }
    let n = 256;
    let mut out = dev.zeros::<u32>(n).unwrap();
    let mut sizes = dev.zeros::<u32>(n).unwrap();
    lanes::per_subgroup
        .launch(&dev, Grid::cover(n), &mut out, &mut sizes)
        .unwrap();
    let (out, sizes) = (out.read().unwrap(), sizes.read().unwrap());
    // Every subgroup of a 64-thread workgroup is full (sizes are powers of two up to 64 here).
    assert!(sizes[0].is_power_of_two() && sizes[0] <= 64, "{}", sizes[0]);
    assert_eq!(out, sizes);
}

/// The errors `compile` reports for the kernel `name` of `source` (a module's items).
fn errors(source: &str, name: &str) -> String {
    let file = syn::parse_file(source).unwrap();
    let module: Vec<syn::Item> = file
        .items
        .iter()
        .filter(|i| !matches!(i, syn::Item::Fn(f) if f.sig.ident == name))
        .cloned()
        .collect();
    let f = file
        .items
        .iter()
        .find_map(|i| match i {
            syn::Item::Fn(f) if f.sig.ident == name => Some(f.clone()),
            _ => None,
        })
        .unwrap();
    let attr = attr::parse(proc_macro2::TokenStream::new()).unwrap();
    let lowered = match lower_kernel(&attr, &f, &module) {
        Ok(l) => l,
        Err(e) => return e.to_string(),
    };
    match sarek_codegen::compile(&lowered.kernel) {
        Ok(_) => String::new(),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_helper_with_a_subgroup_operation_called_under_divergence_is_refused_at_the_call() {
    let text = errors(
        "fn total(v: f32) -> f32 { subgroup_add(v) }
         fn k(x: &mut [f32]) {
             let i = global_thread_id();
             if x[i] > 0.0 { x[i] = total(x[i]); }
         }",
        "k",
    );
    assert!(
        text.contains("`total` runs `subgroup_add()`, a subgroup operation of the whole subgroup, so every thread of the workgroup must call it")
            && text.contains("so only some of them reach the subgroup operation it guards")
            && text.contains("this `subgroup_add()` is reached from the divergent call of `total` above"),
        "{text}"
    );
    // The built-ins stay in the kernel body, with what to write instead.
    let text = errors(
        "fn lane() -> u32 { subgroup_invocation_id() }
         fn k(x: &mut [u32]) { x[global_thread_id()] = lane(); }",
        "k",
    );
    assert!(
        text.contains("`subgroup_invocation_id()` is an input of the kernel's entry point in WGSL")
            && text.contains("pass its value to the helper"),
        "{text}"
    );
}

#[test]
fn a_divergent_cooperative_matrix_operation_is_named_as_one() {
    let text = errors(
        "fn k(x: &[f32], y: &mut [f32]) {
             let mut acc = CoopMatrix::<f32, 16, C>::zeros();
             if x[thread_idx_x()] > 0.0 {
                 acc = CoopMatrix::<f32, 16, C>::load_rows(x, 0, 16);
             }
             acc.store_rows(y, 0, 16);
         }",
        "k",
    );
    assert!(
        text.contains("reach the cooperative-matrix operation it guards")
            && text.contains("WGSL requires cooperative-matrix operations in uniform control flow")
            && !text.contains("subgroup operation"),
        "{text}"
    );
}

#[test]
fn f16vec_misuse_is_refused_with_what_to_write() {
    let text = errors(
        "fn k(x: &[F16Vec4], y: &mut [F16Vec4]) { let i = global_thread_id(); y[i] = x[i] % y[i]; }",
        "k",
    );
    assert!(
        text.contains("`%` on `F16Vec4` would not be Rust's exact `fmod`"),
        "{text}"
    );
    let text = errors(
        "fn k(x: &[IVec4], y: &mut [F16Vec4]) { let i = global_thread_id(); y[i] = F16Vec4::from(x[i]); }",
        "k",
    );
    assert!(
        text.contains("`F16Vec4::from` converts a `Vec4`, not `IVec4`"),
        "{text}"
    );
    let text = errors(
        "fn k(x: &[Vec4], y: &mut [F16Vec4]) { let i = global_thread_id(); y[i] = F16Vec4::from_vec2(x[i]); }",
        "k",
    );
    assert!(text.contains("`F16Vec4` has no `from_vec2`"), "{text}");
}
