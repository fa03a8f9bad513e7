//! The naming rule: injective, never produces a name WGSL refuses, and agrees with naga.

use std::collections::HashMap;

use sarek_codegen::wgsl::escape::{escape, internal, is_reserved, needs_escape};

fn corpus() -> Vec<String> {
    let mut names: Vec<String> = naga::keywords::wgsl::RESERVED
        .iter()
        .chain(naga::keywords::wgsl::BUILTIN_IDENTIFIERS)
        .map(|s| s.to_string())
        .collect();
    let extra = [
        "_",
        "__",
        "___",
        "__i",
        "__v0",
        "sarek_",
        "sarek__",
        "sarek___i",
        "sarek",
        "sarekx",
        "sarek_x",
        "x",
        "i",
        "acc",
        "gid",
        "idx",
        "tmp0",
        "my_var",
        "main",
        "Params",
        "params",
        "filter",
        "target",
        "max",
        "select",
        "f32",
        "type",
        "fmod",
        "sarek_fmod",
        "sarek_grid",
        "sarek_params",
        "_x",
        "x_",
    ];
    names.extend(extra.iter().map(|s| s.to_string()));
    // Every name again with the prefix, and its image: the rule must keep them apart.
    let images: Vec<String> = names.iter().map(|n| format!("sarek_{n}")).collect();
    names.extend(images);
    names.sort();
    names.dedup();
    names
}

#[test]
fn escaping_is_injective() {
    let mut seen: HashMap<String, String> = HashMap::new();
    for name in corpus() {
        let out = escape(&name);
        if let Some(previous) = seen.insert(out.clone(), name.clone()) {
            panic!("{previous:?} and {name:?} both escape to {out:?}");
        }
    }
}

#[test]
fn escaped_names_are_never_reserved_or_invalid() {
    for name in corpus() {
        let out = escape(&name);
        assert!(!is_reserved(&out), "{name:?} -> {out:?} is reserved");
        assert!(!out.starts_with("__"), "{name:?} -> {out:?}");
        assert_ne!(out, "_");
    }
}

#[test]
fn known_cases() {
    assert_eq!(escape("acc"), "acc");
    assert_eq!(escape("filter"), "sarek_filter");
    assert_eq!(escape("max"), "sarek_max");
    assert_eq!(escape("f32"), "sarek_f32");
    assert_eq!(escape("_"), "sarek__");
    assert_eq!(escape("__x"), "sarek___x");
    assert_eq!(escape("sarek_x"), "sarek_sarek_x");
    assert_eq!(escape("Params"), "Params");
    assert_eq!(escape("delete"), "sarek_delete");
}

/// Every word the back end builds a name from (see `wgsl/writer.rs`, `wgsl/helpers.rs`,
/// `abi.rs`): `sarek_` + word must be out of reach of escaped user names.
#[test]
fn generated_names_cannot_collide_with_user_names() {
    let words = [
        "grid",
        "len0",
        "len12",
        "params",
        "Params",
        "main",
        "lid",
        "wid",
        "nwg",
        "bid",
        "gid",
        "folded",
        "fmod",
        "round_half_away",
        "f32_to_i32",
        "f32_to_u32",
        "f32_from_bits",
        "l3_x",
        "l10___v",
        "l7_type",
    ];
    for word in words {
        assert!(!needs_escape(word), "{word} would be escaped");
        assert!(!word.starts_with('_'));
        let name = internal(word);
        // No user name escapes to it: escaping `word` itself leaves it alone, and any other
        // preimage would have to start with `sarek_` and then be `word`.
        assert_ne!(escape(word), name);
    }
    for helper in [
        sarek_codegen::wgsl::Helper::Fmod,
        sarek_codegen::wgsl::Helper::Round,
        sarek_codegen::wgsl::Helper::F32ToI32,
        sarek_codegen::wgsl::Helper::F32ToU32,
        sarek_codegen::wgsl::Helper::FromBits,
    ] {
        let word = helper
            .name()
            .strip_prefix("sarek_")
            .expect("helpers are prefixed");
        assert!(
            !needs_escape(word),
            "helper {} could be shadowed by an escaped user name",
            helper.name()
        );
    }
}

fn naga_accepts_identifier(name: &str) -> bool {
    let src = format!("@compute @workgroup_size(1) fn sarek_main() {{ var {name}: i32 = 1; {name} = {name} + 1; }}");
    sarek_codegen::valid::validate(&src).is_ok()
}

/// Probes naga with every WGSL keyword, reserved word and predeclared name: the reserved
/// ones must be refused (so the table is not stale) and every escaped name must be accepted.
#[test]
fn naga_agrees_with_the_table() {
    for word in naga::keywords::wgsl::RESERVED {
        assert!(needs_escape(word));
        assert!(
            !naga_accepts_identifier(word),
            "naga accepts reserved word {word:?} as an identifier"
        );
        assert!(
            naga_accepts_identifier(&escape(word)),
            "naga refuses {:?}",
            escape(word)
        );
    }
    for word in naga::keywords::wgsl::BUILTIN_IDENTIFIERS {
        assert!(
            needs_escape(word),
            "predeclared {word:?} must be escaped so it cannot hide a builtin"
        );
        assert!(
            naga_accepts_identifier(&escape(word)),
            "naga refuses {:?}",
            escape(word)
        );
    }
    for word in ["_", "__x"] {
        assert!(!naga_accepts_identifier(word), "naga accepts {word:?}");
        assert!(naga_accepts_identifier(&escape(word)));
    }
}
