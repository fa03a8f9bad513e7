//! The analysis on small WGSL modules: what it proves and, one past it, what it does not.
use crate::features::{CoopScalar, CoopShape, Feature};

/// The entry points of `wgsl` proven in bounds ([`super::unclamped_entry_points`]), validated
/// as a kernel using f16, subgroups and cooperative matrices would be; none if naga refuses it.
fn unclamped_in_text(wgsl: &str) -> Vec<String> {
    let features = [
        Feature::ShaderF16,
        Feature::Subgroup,
        Feature::CooperativeMatrix(CoopShape {
            size: 16,
            ab: Some(CoopScalar::F16),
            c: Some(CoopScalar::F32),
        }),
    ];
    match crate::valid::validated(wgsl, &features) {
        Ok((module, info)) => super::unclamped_entry_points(&module, &info),
        Err(_) => Vec::new(),
    }
}

/// A kernel with a workgroup array of `len` elements indexed by `index` (`t` the local
/// invocation index of a workgroup of 64), in its entry point `main`.
fn shared(len: u32, index: &str) -> String {
    format!(
        "var<workgroup> s: array<f32, {len}>;\n\
         @group(0) @binding(0) var<storage, read_write> out: array<f32>;\n\
         @group(0) @binding(1) var<uniform> n: u32;\n\
         @compute @workgroup_size(64)\n\
         fn main(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) w: vec3<u32>) {{\n\
             let i = {index};\n\
             s[i] = 1.0;\n\
             workgroupBarrier();\n\
             out[w.x * 64u + t] = s[i];\n\
         }}\n"
    )
}

fn proven(wgsl: &str) -> bool {
    unclamped_in_text(wgsl) == vec!["main".to_string()]
}

#[test]
fn indices_from_the_invocation_index_are_proven_up_to_the_length() {
    assert!(proven(&shared(64, "t")));
    assert!(!proven(&shared(63, "t")));
    assert!(proven(&shared(65, "t + 1u")));
    assert!(!proven(&shared(64, "t + 1u")));
    // at most 7 · 10 + 7 + 576 = 653
    assert!(proven(&shared(654, "(t / 8u) * 10u + t % 8u + 576u")));
    assert!(!proven(&shared(653, "(t / 8u) * 10u + t % 8u + 576u")));
}

#[test]
fn what_may_wrap_or_is_unknown_is_not_proven() {
    // t - 1 wraps to u32::MAX at t = 0
    assert!(!proven(&shared(64, "t - 1u")));
    // a workgroup id and a uniform are unknown
    assert!(!proven(&shared(64, "w.x")));
    assert!(!proven(&shared(1 << 20, "n")));
    // a product that may wrap
    assert!(!proven(&shared(
        64,
        "(w.x * 65536u * 65536u) % 64u + t * 0u + 100u"
    )));
}

#[test]
fn remainders_minima_masks_and_selects_bound_unknown_values() {
    assert!(proven(&shared(64, "w.x % 64u")));
    assert!(!proven(&shared(63, "w.x % 64u")));
    assert!(proven(&shared(64, "min(n, 63u)")));
    assert!(proven(&shared(16, "n & 15u")));
    assert!(proven(&shared(64, "select(t, 3u, n > 4u)")));
    assert!(proven(&shared(64, "clamp(n, 2u, 63u)")));
    assert!(proven(&shared(64, "(t >> 1u) + 32u")));
    assert!(!proven(&shared(64, "(t >> 1u) + 33u")));
    assert!(proven(&shared(64, "u32(i32(t))")));
    assert!(!proven(&shared(64, "u32(i32(t) - 1)")));
}

/// A local's range is the union of what is stored to it; a counter grows without end, but its
/// loop's guard bounds its loads in the rest of the loop.
#[test]
fn locals_are_the_union_of_what_is_stored() {
    let counter = |len: u32, guard: &str| {
        format!(
            "var<workgroup> s: array<f32, {len}>;\n\
             @compute @workgroup_size(64)\n\
             fn main(@builtin(local_invocation_index) t: u32) {{\n\
                 for (var i = 0u; {guard}; i += 1u) {{ s[i] = 1.0; }}\n\
             }}\n"
        )
    };
    assert!(proven(&counter(64, "i < 64u")));
    assert!(!proven(&counter(64, "i <= 64u")));
    assert!(!proven(&counter(63, "i < 64u")));
    // the guard of a `while`-shaped loop, and a bound that is itself a load
    let halving = |len: u32| {
        format!(
            "var<workgroup> s: array<f32, {len}>;\n\
             @compute @workgroup_size(256)\n\
             fn main(@builtin(local_invocation_index) t: u32) {{\n\
                 var k = 128u;\n\
                 while (k > 0u) {{\n\
                     if (t < k) {{ s[t] = s[t] + s[t + k]; }}\n\
                     workgroupBarrier();\n\
                     k = k / 2u;\n\
                 }}\n\
             }}\n"
        )
    };
    // the tree reduction: t < k ≤ 128, so t + k < 256
    assert!(proven(&halving(256)));
    assert!(!proven(&halving(255)));
    let chosen = |len: u32| {
        format!(
            "var<workgroup> s: array<f32, {len}>;\n\
             @compute @workgroup_size(64)\n\
             fn main(@builtin(local_invocation_index) t: u32) {{\n\
                 var i = t;\n\
                 if (t > 3u) {{ i = 70u; }}\n\
                 s[i] = 1.0;\n\
             }}\n"
        )
    };
    assert!(proven(&chosen(71)));
    assert!(!proven(&chosen(70)));
}

/// A guard's fact about a local holds for its loads only until a store: after one, and in a
/// loop that stores to it, the local's own range counts.
#[test]
fn guards_of_locals_end_at_stores() {
    let stored_after = "var<workgroup> s: array<f32, 64>;\n\
         @group(0) @binding(0) var<uniform> n: u32;\n\
         @compute @workgroup_size(64)\n\
         fn main(@builtin(local_invocation_index) t: u32) {\n\
             var i = n;\n\
             if (i < 64u) {\n\
                 s[i] = 1.0;\n\
                 i = i + 1u;\n\
                 s[i] = 2.0;\n\
             }\n\
         }\n";
    assert!(!proven(stored_after));
    let guarded = stored_after.replace("s[i] = 2.0;", "");
    assert!(proven(&guarded));
    // a loop inside the guarded block that stores to the local: its later iterations see it
    let stored_in_loop = "var<workgroup> s: array<f32, 64>;\n\
         @group(0) @binding(0) var<uniform> n: u32;\n\
         @compute @workgroup_size(64)\n\
         fn main(@builtin(local_invocation_index) t: u32) {\n\
             var i = n;\n\
             if (i < 64u) {\n\
                 for (var j = 0u; j < 4u; j += 1u) { s[i] = 1.0; i = i + 1u; }\n\
             }\n\
         }\n";
    assert!(!proven(stored_in_loop));
    // the other branch knows the opposite, `!` the other truth
    let both = "var<workgroup> s: array<f32, 64>;\n\
         @group(0) @binding(0) var<uniform> un: u32;\n\
         @group(0) @binding(1) var<uniform> um: u32;\n\
         @compute @workgroup_size(64)\n\
         fn main(@builtin(local_invocation_index) t: u32) {\n\
             let n = un;\n\
             let m = um;\n\
             if (n >= 64u) { } else { s[n] = 1.0; }\n\
             if (!(m >= 64u)) { s[m] = 1.0; }\n\
         }\n";
    assert!(proven(both));
    assert!(!proven(&both.replace("(n >= 64u)", "(n >= 65u)")));
    assert!(!proven(&both.replace("(m >= 64u)", "(m > 64u)")));
    // naga writes `a && b` as a `bool` local set under `if a`, which says nothing here
    let and = both.replace(
        "if (n >= 64u) { } else { s[n] = 1.0; }",
        "if (n < 32u && m < 32u) { s[n + m] = 1.0; }",
    );
    assert!(!proven(&and));
    // `&` of two `bool`s (what Sarek writes for `&&` in a kernel with barriers) bounds both
    let bitand = and.replace("n < 32u && m < 32u", "(n < 32u) & (m < 32u)");
    assert!(proven(&bitand));
    assert!(!proven(&bitand.replace("(m < 32u)", "(m < 34u)")));
    // and `|` that is false bounds both in its `else`
    let bitor = both.replace(
        "if (n >= 64u) { } else { s[n] = 1.0; }",
        "if ((n >= 32u) | (m >= 32u)) { } else { s[n + m] = 1.0; }",
    );
    assert!(proven(&bitor));
}

/// A guard after a `continue` bounds the rest of the body but not the continuing block (which
/// the `continue` reaches without it); a call that takes a local's pointer ends the guard's
/// fact about it.
#[test]
fn guards_hold_only_where_they_were_passed() {
    let continuing = |in_continuing: &str| {
        format!(
            "var<workgroup> s: array<f32, 64>;\n\
             @compute @workgroup_size(64)\n\
             fn main(@builtin(local_invocation_index) t: u32) {{\n\
                 var i = 0u;\n\
                 loop {{\n\
                     if (i < 100u) {{ }} else {{ break; }}\n\
                     if (t > 3u) {{ continue; }}\n\
                     if (i < 64u) {{ }} else {{ break; }}\n\
                     s[i] = 1.0;\n\
                     continuing {{ {in_continuing} i = i + 1u; }}\n\
                 }}\n\
             }}\n"
        )
    };
    assert!(proven(&continuing("")));
    assert!(!proven(&continuing("s[i] = 2.0;")));
    assert!(proven(&continuing("s[i % 64u] = 2.0;")));
    let call = |between: &str| {
        format!(
            "var<workgroup> s: array<f32, 64>;\n\
             @group(0) @binding(0) var<uniform> n: u32;\n\
             fn bump(p: ptr<function, u32>) {{ *p = *p + 100u; }}\n\
             @compute @workgroup_size(64)\n\
             fn main(@builtin(local_invocation_index) t: u32) {{\n\
                 var i = n;\n\
                 if (i < 64u) {{ {between} s[i] = 1.0; }}\n\
             }}\n"
        )
    };
    assert!(proven(&call("")));
    assert!(!proven(&call("bump(&i);")));
}

/// WGSL reads `local_invocation_id.x` and a uniform anew at each use: a guard on one read
/// bounds the others (the tree reduction as Sarek writes it).
#[test]
fn guards_bound_every_read_of_the_same_builtin_or_uniform() {
    let tree = |len: u32| {
        format!(
            "struct P {{ n: u32, k: u32 }}\n\
             var<workgroup> s: array<f32, {len}>;\n\
             @group(0) @binding(0) var<uniform> p: P;\n\
             @compute @workgroup_size(256)\n\
             fn main(@builtin(local_invocation_id) lid: vec3<u32>) {{\n\
                 var k = 128u;\n\
                 while (k > 0u) {{\n\
                     if (lid.x < k) {{ s[lid.x] = s[lid.x] + s[lid.x + k]; }}\n\
                     workgroupBarrier();\n\
                     k = k / 2u;\n\
                 }}\n\
                 if (p.n < {len}u) {{ s[p.n] = 0.0; }}\n\
             }}\n"
        )
    };
    assert!(proven(&tree(256)));
    assert!(!proven(&tree(255)));
}

/// A helper's argument is unknown, so a module whose helper indexes by one keeps its clamps
/// in every entry point; a buffer index needs no proof (the driver's robust access).
#[test]
fn helpers_count_for_every_entry_point_and_buffers_for_none() {
    let helper = "var<workgroup> s: array<f32, 64>;\n\
         fn put(i: u32) { s[i] = 1.0; }\n\
         @compute @workgroup_size(64)\n\
         fn main(@builtin(local_invocation_index) t: u32) { put(t); }\n";
    assert!(unclamped_in_text(helper).is_empty());
    let buffer = "@group(0) @binding(0) var<storage, read_write> out: array<f32>;\n\
         @group(0) @binding(1) var<uniform> n: u32;\n\
         @compute @workgroup_size(64)\n\
         fn main(@builtin(local_invocation_index) t: u32) { out[n * 7u] = 1.0; }\n";
    assert!(proven(buffer));
}

/// Local arrays and vectors indexed at run time are clamped by naga too.
#[test]
fn local_arrays_and_vectors_need_proofs() {
    let local = |index: &str| {
        format!(
            "@group(0) @binding(0) var<storage, read_write> out: array<f32>;\n\
             @compute @workgroup_size(8, 4)\n\
             fn main(@builtin(local_invocation_id) l: vec3<u32>) {{\n\
                 var a: array<f32, 8>;\n\
                 let v = vec4<f32>(1.0, 2.0, 3.0, 4.0);\n\
                 a[{index}] = v[l.y];\n\
                 out[l.x] = a[l.x];\n\
             }}\n"
        )
    };
    assert!(proven(&local("l.x")));
    assert!(!proven(&local("l.x + 1u")));
}

/// A cooperative load from a workgroup array must keep all its lines within the array: its
/// start (which is all naga clamps) and its last line.
#[test]
fn cooperative_loads_keep_their_extent_within_the_array() {
    let coop = |len: u32, start: &str| {
        format!(
            "enable f16;\nenable wgpu_cooperative_matrix;\n\
             var<workgroup> s: array<vec4<f16>, {len}>;\n\
             @group(0) @binding(0) var<storage, read_write> c: array<f32>;\n\
             @compute @workgroup_size(64)\n\
             fn main(@builtin(local_invocation_index) t: u32) {{\n\
                 let sg = t / 32u;\n\
                 let a = coopLoadT<coop_mat16x16<f16, A>>(&s[{start}], 10u);\n\
                 let b = coopLoadT<coop_mat16x16<f16, B>>(&s[0u], 10u);\n\
                 var acc: coop_mat16x16<f32, C>;\n\
                 acc = coopMultiplyAdd(a, b, acc);\n\
                 coopStoreT(acc, &c[sg * 256u], 16u);\n\
             }}\n"
        )
    };
    // the last line of the load at sg · 160 + 4 (sg ≤ 1) ends at 160 + 4 + 15 · 10 + 4
    assert!(proven(&coop(318, "sg * 160u + 4u")));
    assert!(!proven(&coop(317, "sg * 160u + 4u")));
}

#[test]
fn an_array_sized_by_an_override_is_never_proven() {
    // Its length is set when the pipeline is made; even index 0 under a guard by the same
    // override keeps naga's clamp (and the analysis must not panic on the pending size).
    let wgsl = "@id(0) override sarek_shared0_len: u32;\n\
                var<workgroup> s: array<f32, sarek_shared0_len>;\n\
                @group(0) @binding(0) var<storage, read_write> out: array<f32>;\n\
                @compute @workgroup_size(64)\n\
                fn main(@builtin(local_invocation_index) t: u32) {\n\
                    if t < sarek_shared0_len {\n\
                        s[t] = 1.0;\n\
                    }\n\
                    workgroupBarrier();\n\
                    out[t] = s[0];\n\
                }\n";
    assert!(crate::valid::validate(wgsl).is_ok());
    assert!(!proven(wgsl));
    // The same module with a constant length is proven: the test would see a proof.
    let fixed = wgsl
        .replace("@id(0) override sarek_shared0_len: u32;\n", "")
        .replace("sarek_shared0_len", "64u");
    assert!(proven(&fixed), "{fixed}");
}
