//! Hostile input the front end once crashed on, ran away with or blamed itself for: each is
//! now a compile error at the offending token, or compiles. The classes are also generators of
//! `front_fuzz.rs`; these are the reproducers as found.
#![cfg(feature = "front")]

use std::time::{Duration, Instant};

use proc_macro2::TokenStream;
use sarek_codegen::front::depth::MAX_NESTING;
use sarek_codegen::front::{expand_kernel, expand_module};

/// Expands on a thread with the stack rustc gives the macro (8 MiB, or `stack` bytes), and
/// returns the output as text.
fn expand_on(stack: usize, module: bool, attr: String, item: String) -> String {
    std::thread::Builder::new()
        .stack_size(stack)
        .spawn(move || {
            let attr: TokenStream = attr.parse().expect("the attribute lexes");
            let item: TokenStream = item.parse().expect("the item lexes");
            if module {
                expand_module(attr, item).to_string()
            } else {
                expand_kernel(attr, item).to_string()
            }
        })
        .expect("a thread")
        .join()
        .expect("the macro does not panic or overflow its stack")
}

fn kernel(attr: &str, item: &str) -> String {
    expand_on(8 << 20, false, attr.to_owned(), item.to_owned())
}

fn module(item: &str) -> String {
    expand_on(8 << 20, true, String::new(), item.to_owned())
}

/// The output is one or more compile errors, none blaming Sarek, one saying `want`.
fn assert_refused(out: &str, want: &str) {
    assert!(!out.contains("this is a bug in Sarek"), "{out}");
    assert!(out.contains("compile_error"), "accepted: {out}");
    assert!(out.contains(want), "{want}: {out}");
}

/// The output is the kernel's items, no error.
fn assert_compiles(out: &str) {
    assert!(!out.contains("compile_error"), "{out}");
    assert!(out.contains("pub const WGSL"), "{out}");
}

#[test]
fn deep_nesting_in_the_attribute_is_refused_before_syn_parses_it() {
    let item = "fn k(y: &mut [f32]) { y[0] = 1.0; }";
    let nested = |n: usize| format!("workgroup_size = [{}64{}]", "(".repeat(n), ")".repeat(n));
    assert_compiles(&kernel(&nested(4), item));
    assert_refused(
        &kernel(&nested(1_000), item),
        &format!("more than {MAX_NESTING} levels"),
    );
    // Deep enough that a recursive parse would overflow even rustc's 8 MiB; tried on a small
    // stack.
    let out = expand_on(256 << 10, false, nested(100_000), item.to_owned());
    assert_refused(&out, &format!("more than {MAX_NESTING} levels"));
}

#[test]
fn duplicate_fields_and_variants_are_user_errors() {
    let out = module(
        "mod m { use sarek::prelude::*;
            pub struct P { pub a: f32, pub a: f32 }
            #[sarek::kernel] pub fn k(p: &mut [P]) { p[0].a = 1.0; } }",
    );
    assert_refused(&out, "the field `a` is already declared in this struct");
    let out = module(
        "mod m { use sarek::prelude::*;
            pub enum S { A { r: f32, r: f32 }, B }
            #[sarek::kernel] pub fn k(p: &mut [S]) { p[0] = S::B; } }",
    );
    assert_refused(&out, "the field `r` is already declared in this struct");
    let out = module(
        "mod m { use sarek::prelude::*;
            pub enum S { A, A }
            #[sarek::kernel] pub fn k(p: &mut [S]) { p[0] = S::A; } }",
    );
    assert_refused(&out, "the variant `A` is declared twice");
}

#[test]
fn a_workgroup_size_naga_refuses_is_refused_under_device_limits() {
    let item = "fn k(y: &mut [f32]) { y[0] = 1.0; }";
    for size in ["[65535]", "[16385]", "[1, 1, 16385]"] {
        let out = kernel(
            &format!("workgroup_size = {size}, limits = \"device\""),
            item,
        );
        assert_refused(&out, "wgpu's shader compiler refuses larger workgroups");
    }
    assert_compiles(&kernel(
        "workgroup_size = [16384], limits = \"device\"",
        item,
    ));
}

#[test]
fn workgroup_memory_and_types_past_naga_s_limits_are_user_errors() {
    for (shared, element) in [
        ("[f32; 2147483647]", "t[1]"),
        ("[f32; 4294967295]", "t[1]"),
        ("[[f32; 65536]; 65536]", "t[1][1]"),
    ] {
        let out = kernel(
            "workgroup_size = [64], limits = \"device\"",
            &format!("fn k(y: &mut [f32]) {{ let t = shared::<{shared}>(); y[0] = {element}; }}"),
        );
        assert_refused(
            &out,
            "bytes of workgroup memory, more than any device offers",
        );
    }
    for field in ["[f32; 1000000000]", "[[f32; 65536]; 65536]"] {
        let out = module(&format!(
            "mod m {{ use sarek::prelude::*; pub struct P {{ pub a: {field} }}
                #[sarek::kernel] pub fn k(p: &mut [P]) {{ let x = p[0]; }} }}"
        ));
        assert_refused(&out, "more than WGSL allows for one type");
    }
}

/// A chain of constant subtractions: every level once wrapped its left operand in an
/// identity call, two WGSL levels per operator, past naga's parser limit.
#[test]
fn long_chains_of_constants_compile() {
    let chain = |op: &str, operand: &str, n: usize| vec![operand; n].join(&format!(" {op} "));
    let out = kernel(
        "workgroup_size = [64]",
        &format!(
            "fn k(y: &mut [f32]) {{ let i = global_thread_id(); if i < y.len() {{ y[i] = {}; }} }}",
            chain("-", "1.5", 99)
        ),
    );
    assert_compiles(&out);
    for (ty, op, operand) in [
        ("f32", "*", "1.5"),
        ("u32", "-", "3"),
        ("i32", "<<", "3"),
        ("Vec4", "+", "Vec4::splat(1.5)"),
    ] {
        let out = kernel(
            "workgroup_size = [64]",
            &format!(
                "fn k(y: &mut [{ty}]) {{ let i = global_thread_id(); if i < y.len() {{ y[i] = {}; }} }}",
                chain(op, operand, MAX_NESTING - 8)
            ),
        );
        assert!(!out.contains("this is a bug in Sarek"), "{ty} {op}: {out}");
    }
    // `%` on `f16` took three WGSL levels per operator.
    let out = kernel(
        "workgroup_size = [64]",
        &format!(
            "fn k(x: &[f16], y: &mut [f16]) {{ let i = global_thread_id(); if i < y.len() {{ let a = x[i]; y[i] = {}; }} }}",
            chain("%", "a", MAX_NESTING - 8)
        ),
    );
    assert_compiles(&out);
}

#[test]
fn bitwise_operators_on_f16_are_user_errors() {
    let out = kernel(
        "workgroup_size = [64]",
        "fn k(x: &[f16], y: &mut [f16]) { y[0] = x[0] | x[1]; }",
    );
    assert_refused(&out, "bitwise operators do not apply to `f16`");
    let out = kernel(
        "workgroup_size = [64]",
        "fn k(x: &[f16], y: &mut [f16]) { y[0] = !x[0]; }",
    );
    assert_refused(&out, "cannot apply `!` to `f16`");
}

#[test]
fn a_cooperative_load_at_a_huge_literal_offset_compiles() {
    let out = kernel(
        "workgroup_size = [32]",
        "fn k(x: &[f32], y: &mut [f32]) {
            let a = CoopMatrix::<f32, 16, C>::load_rows(x, 0xFFFF_FFFF, 16);
            a.store_rows(y, 0, 16);
        }",
    );
    assert_compiles(&out);
}

#[test]
fn a_huge_array_of_cooperative_matrices_is_refused_at_once() {
    let t = Instant::now();
    let out = kernel(
        "workgroup_size = [32]",
        "fn k(y: &mut [f32]) {
            let mut acc = [CoopMatrix::<f32, 16, C>::zeros(); 4194304];
            acc[0].store_rows(y, 0, 16);
        }",
    );
    assert_refused(&out, "an array of 4194304 cooperative matrices");
    // It was lowered one matrix at a time: days for this one.
    assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
}

/// A kernel of `n` chained `let`s.
fn many_lets(n: usize) -> String {
    let mut body = String::from("let i = global_thread_id(); let v0 = x[i];");
    for j in 1..n {
        body.push_str(&format!(" let v{j} = v{} + 1.0;", j - 1));
    }
    body.push_str(&format!(" y[i] = v{};", n - 1));
    format!("fn k(x: &[f32], y: &mut [f32]) {{ {body} }}")
}

/// Lowering, the passes and the WGSL writer are linear in a kernel's length: four times the
/// statements take about four times as long, not sixteen (the best of three runs each, so a
/// busy machine does not decide it).
#[test]
fn lowering_and_writing_straight_line_code_is_linear() {
    let time = |n: usize| {
        let item: syn::ItemFn = syn::parse_str(&many_lets(n)).expect("parses");
        let attr = sarek_codegen::front::attr::parse("workgroup_size = [64]".parse().unwrap())
            .expect("an attribute");
        (0..3)
            .map(|_| {
                let t = Instant::now();
                let lowered =
                    sarek_codegen::front::lower_kernel(&attr, &item, &[]).expect("lowers");
                let abi = sarek_codegen::wgsl::abi::build(&lowered.kernel);
                let prepared = sarek_codegen::passes::run(&lowered.kernel);
                let (wgsl, _) = sarek_codegen::wgsl::write_split(&prepared, &abi);
                assert!(wgsl.len() > n * 10);
                t.elapsed()
            })
            .min()
            .expect("three runs")
    };
    let (small, large) = (time(2_000), time(8_000));
    assert!(large < small * 8, "2,000 lets: {small:?}, 8,000: {large:?}");
}

/// naga's WGSL front end takes time quadratic in a function's length: a kernel past the
/// limit is refused (quickly, before naga sees it) at the first statement over it.
#[test]
fn a_kernel_too_long_for_wgsl_compilers_is_refused_quickly() {
    let t = Instant::now();
    let out = kernel("workgroup_size = [64]", &many_lets(30_000));
    assert_refused(&out, "the kernel's body is too long for WGSL compilers");
    assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
    assert_compiles(&kernel("workgroup_size = [64]", &many_lets(2_000)));
}

/// A kernel `k` is a unit struct `k` after expansion; its generated `body` still binds `k`
/// where the source does (compiled by rustc in `tests/ui/pass/kernel_named_like_a_binding.rs`).
#[test]
fn a_binding_named_like_its_kernel_stays_a_binding_in_the_body() {
    let out = kernel(
        "workgroup_size = [64]",
        "fn k(x: &[f32], y: &mut [f32], n: u32) { for k in 0..n { y[k as usize] = x[k as usize]; } }",
    );
    assert_compiles(&out);
    let body = out.split("fn body").nth(1).expect("a body");
    assert!(body.contains("fn k () { }"), "{body}");
}

/// `f16` math runs in `f32`: three WGSL levels per call, so a chain within Rust's nesting
/// limit can pass naga's; the writer refuses it at the statement instead of naga refusing
/// the module.
#[test]
fn f16_math_nested_past_naga_s_parser_is_a_user_error() {
    let chain = ".sqrt()".repeat(MAX_NESTING - 8);
    let out = kernel(
        "workgroup_size = [64]",
        &format!(
            "fn k(x: &[f16], y: &mut [f16]) {{ let i = global_thread_id(); if i < y.len() {{ let a = x[i]; y[i] = a{chain}; }} }}"
        ),
    );
    assert_refused(
        &out,
        "this nests too deeply for WGSL compilers once compiled",
    );
    let chain = ".sqrt()".repeat(30);
    assert_compiles(&kernel(
        "workgroup_size = [64]",
        &format!(
            "fn k(x: &[f16], y: &mut [f16]) {{ let i = global_thread_id(); if i < y.len() {{ let a = x[i]; y[i] = a{chain}; }} }}"
        ),
    ));
}
