//! Golden WGSL: every kernel in `tests/golden/in/*.rs` is lowered and compiled, and its WGSL
//! compared byte for byte with `tests/golden/out/<file>.<kernel>.wgsl`. Every output is also
//! validated by naga. Each file is one module: its structs, enums, helpers and constants are
//! visible to its kernels, as in a `#[sarek::module]`. Regenerate with `SAREK_BLESS=1 cargo test --test it golden` and review the
//! diff.

use std::path::Path;

use sarek_codegen::front::{attr, lower_kernel};

/// Each kernel's name, WGSL, the features its ABI declares and each entry point's module
/// alone (as the runtime gives it to wgpu).
type Golden = (
    String,
    String,
    Vec<sarek_codegen::features::Feature>,
    Vec<(String, String)>,
);

/// Each entry point of `compiled`, with the module text the runtime gives wgpu for it.
fn alone(compiled: &sarek_codegen::CompiledKernel) -> Vec<(String, String)> {
    use sarek_codegen::wgsl::EntryPointText;
    let entries = &compiled.entry_points;
    entries
        .iter()
        .map(|e| {
            let text = EntryPointText::text(&compiled.wgsl, entries, &e.name).unwrap();
            (e.name.clone(), text)
        })
        .collect()
}

fn kernels(source: &str) -> Vec<Golden> {
    let file = syn::parse_file(source).expect("golden inputs are valid Rust");
    let is_kernel = |a: &syn::Attribute| {
        a.path()
            .segments
            .last()
            .is_some_and(|s| s.ident == "kernel")
    };
    let module: Vec<syn::Item> = file
        .items
        .iter()
        .filter(|i| !matches!(i, syn::Item::Fn(f) if f.attrs.iter().any(is_kernel)))
        .cloned()
        .collect();
    let mut out = Vec::new();
    for item in file.items {
        let syn::Item::Fn(mut f) = item else { continue };
        let Some(pos) = f.attrs.iter().position(|a| {
            a.path()
                .segments
                .last()
                .is_some_and(|s| s.ident == "kernel")
        }) else {
            continue;
        };
        let a = f.attrs.remove(pos);
        let args = match &a.meta {
            syn::Meta::List(list) => list.tokens.clone(),
            _ => proc_macro2::TokenStream::new(),
        };
        let attr = attr::parse(args).expect("valid kernel attribute");
        if sarek_codegen::front::generics::is_generic(&f) {
            // A generic kernel: one output per instance, `<kernel>.<arguments>`.
            let generic = sarek_codegen::front::generics::instances(&attr, &f, &module)
                .unwrap_or_else(|e| panic!("{}: {e}", f.sig.ident));
            for inst in generic.instances {
                let lowered = lower_kernel(&inst.attr, &inst.item, &inst.module)
                    .unwrap_or_else(|e| panic!("{} ({}): {e}", f.sig.ident, inst.label));
                let compiled = sarek_codegen::compile(&lowered.kernel)
                    .unwrap_or_else(|e| panic!("{}: {e}", f.sig.ident));
                out.push((
                    format!("{}.{}", f.sig.ident, inst.args.join("_")),
                    compiled.wgsl.clone(),
                    compiled.abi.features.to_vec(),
                    alone(&compiled),
                ));
            }
            continue;
        }
        let lowered =
            lower_kernel(&attr, &f, &module).unwrap_or_else(|e| panic!("{}: {e}", f.sig.ident));
        let compiled = sarek_codegen::compile(&lowered.kernel)
            .unwrap_or_else(|e| panic!("{}: {e}", f.sig.ident));
        out.push((
            f.sig.ident.to_string(),
            compiled.wgsl.clone(),
            compiled.abi.features.to_vec(),
            alone(&compiled),
        ));
    }
    out
}

#[test]
fn golden_wgsl() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let bless = sarek_codegen::toggle::enabled("SAREK_BLESS", false);
    let mut inputs: Vec<_> = std::fs::read_dir(root.join("in"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    inputs.sort();
    let mut failures = Vec::new();
    let mut count = 0;
    for input in inputs {
        let stem = input.file_stem().unwrap().to_string_lossy().into_owned();
        let source = std::fs::read_to_string(&input).unwrap();
        for (name, wgsl, features, entries) in kernels(&source) {
            count += 1;
            // Validated with the capabilities of the features the kernel declares (`f16`,
            // cooperative matrices), as the runtime creates its shader.
            sarek_proof::valid::validate_with(&wgsl, &features)
                .unwrap_or_else(|e| panic!("naga rejects {name}: {e}"));
            // Each entry point's text alone, as the runtime gives it to wgpu, is a valid
            // module with that one entry point, and every entry point has one.
            assert_eq!(entries.len(), wgsl.matches("@compute").count(), "{name}");
            for (entry, text) in &entries {
                assert_eq!(text.matches("@compute").count(), 1, "{name}: {entry}");
                assert!(text.contains(&format!("fn {entry}(")), "{name}: {entry}");
                sarek_proof::valid::validate_with(text, &features)
                    .unwrap_or_else(|e| panic!("naga rejects {name}'s {entry} alone: {e}"));
            }
            // Generation is deterministic: a second run gives the same bytes.
            assert_eq!(
                kernels(&source)
                    .iter()
                    .find(|(n, ..)| *n == name)
                    .map(|(_, w, ..)| w),
                Some(&wgsl)
            );
            let path = root.join("out").join(format!("{stem}.{name}.wgsl"));
            if bless {
                std::fs::write(&path, &wgsl).unwrap();
                continue;
            }
            match std::fs::read_to_string(&path) {
                Ok(expected) if expected == wgsl => {}
                Ok(_) => failures.push(format!(
                    "{} differs; rerun with SAREK_BLESS=1 and review the diff",
                    path.display()
                )),
                Err(_) => failures.push(format!(
                    "{} is missing; run with SAREK_BLESS=1",
                    path.display()
                )),
            }
        }
    }
    assert!(count >= 4, "expected golden kernels, found {count}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
