//! The front end against hostile input: known-good kernels and
//! modules, mutated token by token (a token deleted, doubled, replaced by a keyword, type,
//! intrinsic, literal or operator, or swapped with its neighbour; a token group dropped,
//! doubled or wrapped in parentheses), are expanded as `#[sarek::kernel]` and
//! `#[sarek::module]` would. The macro must never panic, must hand back either code or
//! `compile_error!`s, and must never report its own WGSL as a bug (naga rejecting it) nor
//! blame itself. Deep nesting is tried at and just past the documented limits, on a thread
//! with the 8 MiB stack rustc gives the macro's thread.
//!
//! Besides mutants, kernels of the classes that once crashed, hung or blamed Sarek are
//! generated with random sizes: nesting in the attribute, duplicate fields and variants,
//! arrays of cooperative matrices, chains of operators, methods and casts at and past the
//! nesting limit, huge arrays, workgroups and offsets, bitwise operators on floats, long
//! straight-line code (the reproducers as found are in `front_hostile.rs`).
//!
//! Seeded and bounded: `SAREK_FUZZ_CASES=<n>` mutants per seed (default 1,000: 4,000
//! in all, seconds in debug) and generated kernels; `SAREK_FUZZ_SEED=<n>` picks another
//! sequence.
#![cfg(feature = "front")]

use proc_macro2::{Delimiter, Group, Ident, Literal, Punct, Spacing, Span, TokenStream, TokenTree};
use sarek_codegen::front::depth::{MAX_HELPER_DEPTH, MAX_NESTING};
use sarek_codegen::front::{expand_kernel, expand_module};

/// xorshift64*: small and deterministic.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Known-good inputs: `(is_module, source)`.
const SEEDS: &[(bool, &str)] = &[
    (
        false,
        "fn saxpy(a: f32, x: &[f32], y: &mut [f32]) {
            let i = global_thread_id();
            if i < y.len() { y[i] = a * x[i] + y[i]; }
        }",
    ),
    (
        false,
        "fn loops(n: u32, out: &mut [u32]) {
            let i = global_thread_id();
            let mut acc = 0u32;
            for k in 0..n { if k % 3 == 0 { continue; } acc = acc.wrapping_add(k * 2); }
            let mut j = 0;
            while j < 4 { acc ^= j; j += 1; }
            loop { acc >>= 1; if acc < 10 { break; } }
            let t = (acc, 1.5f32);
            if i < out.len() { out[i] = t.0 + (t.1 as u32); }
        }",
    ),
    (
        false,
        "fn block_sum(x: &[u32], sums: &mut [u32]) {
            let tile = shared::<[u32; 64]>();
            let t = thread_idx_x();
            let i = global_idx_x();
            tile[t] = if i < x.len() { x[i] } else { 0 };
            block_barrier();
            let mut stride = block_dim_x() / 2;
            while stride > 0 {
                if t < stride { tile[t] += tile[t + stride]; }
                block_barrier();
                stride /= 2;
            }
            if t == 0 { sums[block_idx_x()] = tile[0]; }
        }",
    ),
    (
        true,
        "mod m {
            use sarek::prelude::*;
            use std::sync::atomic::{AtomicU32, Ordering};
            pub struct P { pub x: f32, pub v: [f32; 3] }
            pub enum Shape { Dot, Circle { r: f32 }, Square(f32) }
            const K: usize = 4 * 2;
            impl P {
                pub fn norm(&self) -> f32 { (self.x * self.x).sqrt() }
                pub fn bump(&mut self, d: f32) { self.x += d; }
            }
            fn area(s: Shape) -> f32 {
                match s { Shape::Dot => 0.0, Shape::Circle { r } => 3.14 * r * r, Shape::Square(a) => a * a }
            }
            fn fact(n: u32, acc: u32) -> u32 { if n == 0 { acc } else { fact(n - 1, acc * n) } }
            fn tree(t: &mut [f32; 64], lid: usize) {
                let mut s = 32;
                while s > 0 { if lid < s { t[lid] += t[lid + s]; } block_barrier(); s /= 2; }
            }
            fn count(bins: &[AtomicU32; 16], v: u32) { bins[(v % 16) as usize].fetch_add(1, Ordering::Relaxed); }
            #[sarek::kernel(workgroup_size = [64])]
            pub fn k(ps: &mut [P], out: &mut [f32], hist: &[AtomicU32]) {
                let tile = shared::<[f32; 64]>();
                let bins = shared::<[AtomicU32; 16]>();
                let i = global_thread_id();
                let mut acc = [0.0f32; K];
                if i < ps.len() {
                    ps[i].bump(1.0);
                    acc[i % K] = ps[i].norm() + area(Shape::Circle { r: ps[i].v[1] });
                    count(bins, fact(5, 1));
                }
                tile[thread_idx_x()] = acc[0];
                tree(tile, thread_idx_x());
                if thread_idx_x() < 16 { hist[thread_idx_x()].fetch_add(bins[thread_idx_x()].load(Ordering::Relaxed), Ordering::Relaxed); }
                if i < out.len() { out[i] = tile[0]; }
            }
        }",
    ),
];

const IDENTS: &[&str] = &[
    "f32",
    "u32",
    "i32",
    "usize",
    "bool",
    "f64",
    "self",
    "Self",
    "mut",
    "let",
    "fn",
    "if",
    "else",
    "match",
    "loop",
    "while",
    "for",
    "in",
    "return",
    "break",
    "continue",
    "struct",
    "enum",
    "impl",
    "const",
    "shared",
    "block_barrier",
    "global_thread_id",
    "thread_idx_x",
    "len",
    "abs",
    "sqrt",
    "fetch_add",
    "Ordering",
    "P",
    "Shape",
    "x",
    "i",
    "t",
    "where",
    "as",
    "ref",
    "unsafe",
    "async",
    "move",
    "dyn",
    "_",
    "r#match",
    "Vec2",
    "AtomicU32",
];
const LITERALS: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "64",
    "4294967295",
    "4294967296",
    "2147483648i32",
    "1e40",
    "0.5f32",
    "1.0",
    "0u32",
    "255u8",
    "1usize",
    "67108864",
    "\"s\"",
    "'c'",
    "true",
    "1e-45",
];
const PUNCTS: &[char] = &[
    '+', '-', '*', '/', '%', '<', '>', '=', '!', '&', '|', '^', '.', ',', ';', ':', '?', '#', '@',
    '~',
];

/// A token tree whose groups can be edited.
#[derive(Clone)]
enum Node {
    Leaf(TokenTree),
    Group(Delimiter, Vec<Node>),
}

fn nodes(ts: TokenStream) -> Vec<Node> {
    ts.into_iter()
        .map(|t| match t {
            TokenTree::Group(g) => Node::Group(g.delimiter(), nodes(g.stream())),
            other => Node::Leaf(other),
        })
        .collect()
}

fn stream(ns: &[Node]) -> TokenStream {
    ns.iter()
        .map(|n| match n {
            Node::Leaf(t) => t.clone(),
            Node::Group(d, inner) => TokenTree::Group(Group::new(*d, stream(inner))),
        })
        .collect()
}

/// Every sequence of nodes (the top level and each group's contents), as paths of indices.
fn sequences(ns: &[Node], path: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
    out.push(path.clone());
    for (i, n) in ns.iter().enumerate() {
        if let Node::Group(_, inner) = n {
            path.push(i);
            sequences(inner, path, out);
            path.pop();
        }
    }
}

fn at<'a>(ns: &'a mut Vec<Node>, path: &[usize]) -> &'a mut Vec<Node> {
    match path.split_first() {
        None => ns,
        Some((i, rest)) => match &mut ns[*i] {
            Node::Group(_, inner) => at(inner, rest),
            Node::Leaf(_) => unreachable!("paths lead through groups"),
        },
    }
}

fn random_leaf(rng: &mut Rng) -> TokenTree {
    match rng.below(3) {
        0 => {
            let s = IDENTS[rng.below(IDENTS.len())];
            match s.strip_prefix("r#") {
                Some(raw) => TokenTree::Ident(Ident::new_raw(raw, Span::call_site())),
                None => TokenTree::Ident(Ident::new(s, Span::call_site())),
            }
        }
        1 => {
            let s = LITERALS[rng.below(LITERALS.len())];
            let ts: TokenStream = s.parse().expect("a literal");
            ts.into_iter()
                .last()
                .unwrap_or_else(|| Literal::u32_unsuffixed(0).into())
        }
        _ => {
            let spacing = if rng.below(2) == 0 {
                Spacing::Alone
            } else {
                Spacing::Joint
            };
            TokenTree::Punct(Punct::new(PUNCTS[rng.below(PUNCTS.len())], spacing))
        }
    }
}

/// One to three random edits of `ns`.
fn mutate(ns: &mut Vec<Node>, rng: &mut Rng) {
    for _ in 0..1 + rng.below(3) {
        let mut seqs = Vec::new();
        sequences(ns, &mut Vec::new(), &mut seqs);
        let path = seqs[rng.below(seqs.len())].clone();
        let seq = at(ns, &path);
        if seq.is_empty() {
            seq.push(Node::Leaf(random_leaf(rng)));
            continue;
        }
        let i = rng.below(seq.len());
        match rng.below(7) {
            0 => {
                seq.remove(i);
            }
            1 => {
                let n = seq[i].clone();
                seq.insert(i, n);
            }
            2 | 3 => seq[i] = Node::Leaf(random_leaf(rng)),
            4 => seq.insert(i, Node::Leaf(random_leaf(rng))),
            5 if i + 1 < seq.len() => seq.swap(i, i + 1),
            _ => {
                let n = seq[i].clone();
                seq[i] = Node::Group(Delimiter::Parenthesis, vec![n]);
            }
        }
    }
}

/// Expands `input` as the macro would; panics (failing the test) if the macro panics or
/// blames itself.
fn expand(is_module: bool, input: TokenStream, what: &str) -> String {
    let attr: TokenStream = if is_module {
        TokenStream::new()
    } else {
        "workgroup_size = [64]".parse().unwrap()
    };
    expand_with(is_module, attr, input, what)
}

/// [`expand`] with the attribute's arguments `attr`.
fn expand_with(is_module: bool, attr: TokenStream, input: TokenStream, what: &str) -> String {
    let text = format!("#[{attr}] {input}");
    let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        if is_module {
            expand_module(attr, input)
        } else {
            expand_kernel(attr, input)
        }
    }));
    let out = match out {
        Ok(out) => out.to_string(),
        Err(_) => panic!("the front end panicked on {what}:\n{text}"),
    };
    assert!(
        !out.contains("this is a bug in Sarek"),
        "the front end blamed itself on {what}:\n{text}\n{out}"
    );
    out
}

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Runs `f` on a thread with rustc's 8 MiB stack for the macro.
fn with_rustc_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(f)
        .expect("a thread")
        .join()
        .expect("no panic");
}

#[test]
fn mutated_kernels_never_panic_and_always_answer() {
    with_rustc_stack(|| {
        let cases = env("SAREK_FUZZ_CASES", 1000);
        let seed = env("SAREK_FUZZ_SEED", 0x5a4e_6b18);
        for (k, (is_module, src)) in SEEDS.iter().enumerate() {
            let original = nodes(src.parse().expect("the seeds lex"));
            let out = expand(*is_module, stream(&original), "a seed");
            assert!(
                !out.contains("compile_error"),
                "seed {k} is refused:\n{out}"
            );
            let mut rng = Rng(seed ^ (k as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
            for case in 0..cases {
                let mut ns = original.clone();
                mutate(&mut ns, &mut rng);
                expand(
                    *is_module,
                    stream(&ns),
                    &format!("mutant {case} of seed {k}"),
                );
            }
        }
    });
}

/// `depth` nested parentheses, unary minuses, `.abs()` calls or sum terms as one expression.
fn deep_expression(kind: usize, depth: usize) -> String {
    match kind {
        0 => format!("{}a{}", "(".repeat(depth), ")".repeat(depth)),
        1 => format!("{}a", "-".repeat(depth)),
        2 => format!("a{}", ".abs()".repeat(depth)),
        _ => vec!["a"; depth].join(" + "),
    }
}

#[test]
fn nesting_at_and_past_the_limits() {
    with_rustc_stack(|| {
        for kind in 0..4 {
            // The statement, `if` block and assignment around it take a few levels.
            for depth in [MAX_NESTING - 8, MAX_NESTING + 1, 2_000] {
                let src = format!(
                    "fn deep(xs: &mut [f32]) {{ let i = global_thread_id(); if i < xs.len() {{ let a = xs[i]; xs[i] = {}; }} }}",
                    deep_expression(kind, depth)
                );
                let out = expand(
                    false,
                    src.parse().unwrap(),
                    &format!("depth {depth} of kind {kind}"),
                );
                let refused = out.contains(&format!("more than {MAX_NESTING} levels"));
                assert_eq!(
                    refused,
                    depth > MAX_NESTING,
                    "kind {kind}, depth {depth}: {}",
                    &out[..out.len().min(400)]
                );
            }
        }
        for (chain, refused) in [
            (MAX_HELPER_DEPTH - 1, false),
            (MAX_HELPER_DEPTH + 1, true),
            (1_000, true),
        ] {
            let mut src = String::from("mod m { use sarek::prelude::*; fn h0(x: f32) -> f32 { x }");
            for n in 1..=chain {
                src.push_str(&format!(" fn h{n}(x: f32) -> f32 {{ h{}(x) }}", n - 1));
            }
            src.push_str(&format!(
                " #[sarek::kernel] pub fn k(xs: &mut [f32]) {{ let i = global_thread_id(); if i < xs.len() {{ xs[i] = h{chain}(xs[i]); }} }} }}"
            ));
            let out = expand(
                true,
                src.parse().unwrap(),
                &format!("a chain of {chain} helpers"),
            );
            assert_eq!(
                out.contains("nests helpers more than"),
                refused,
                "a chain of {chain}"
            );
        }
    });
}

fn pick<'a>(rng: &mut Rng, from: &[&'a str]) -> &'a str {
    from[rng.below(from.len())]
}

/// A kernel of one of the hostile classes, with random sizes: `(is_module, attribute, item)`.
fn hostile(rng: &mut Rng) -> (bool, String, String) {
    let plain = |attr: &str, body: String| {
        (
            false,
            attr.to_owned(),
            format!(
                "fn k(x: &[f32], y: &mut [f32], n: u32) {{ let i = global_thread_id(); {body} }}"
            ),
        )
    };
    match rng.below(9) {
        0 => {
            let depth = [1, MAX_NESTING, MAX_NESTING + 9, 1_000, rng.below(3_000)][rng.below(5)];
            let dims = pick(rng, &["64", "TILE", "8, 8"]);
            let attr = format!(
                "workgroup_size = [{}{dims}{}]",
                "(".repeat(depth),
                ")".repeat(depth)
            );
            let item = "mod m { use sarek::prelude::*; const TILE: u32 = 64; #[sarek::kernel(ATTR)] pub fn k(y: &mut [f32]) { y[0] = 1.0; } }";
            match rng.below(2) {
                0 => (true, String::new(), item.replace("ATTR", &attr)),
                _ => plain(&attr.replace("TILE", "64"), "y[0] = 1.0;".into()),
            }
        }
        1 => {
            let names = ["a", "b", "c", "d"];
            let mut fields: Vec<&str> =
                (0..1 + rng.below(4)).map(|_| names[rng.below(4)]).collect();
            fields.dedup();
            let list = fields
                .iter()
                .map(|f| format!("pub {f}: f32"))
                .collect::<Vec<_>>()
                .join(", ");
            let decl = match rng.below(3) {
                0 => format!("pub struct P {{ {list} }}"),
                1 => format!("pub enum P {{ A {{ {} }}, B }}", list.replace("pub ", "")),
                _ => format!(
                    "pub enum P {{ {} }}",
                    fields
                        .iter()
                        .map(|f| f.to_uppercase())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
            (
                true,
                String::new(),
                format!("mod m {{ use sarek::prelude::*; {decl} #[sarek::kernel] pub fn k(p: &mut [P], y: &mut [f32]) {{ let q = p[0]; y[0] = 1.0; }} }}"),
            )
        }
        2 => {
            let n = pick(
                rng,
                &[
                    "1",
                    "2",
                    "255",
                    "256",
                    "257",
                    "65536",
                    "4194304",
                    "4294967295",
                    "0",
                ],
            );
            let role = pick(rng, &["C", "A", "B"]);
            plain(
                "workgroup_size = [32]",
                format!("let mut acc = [CoopMatrix::<f32, 16, {role}>::zeros(); {n}]; for j in 0..4 {{ acc[j] = CoopMatrix::load_rows(x, 16 * j, 16); }} acc[0].store_rows(y, 0, 16);"),
            )
        }
        3 => {
            let (ty, ops, lit): (&str, &[&str], &str) = match rng.below(5) {
                0 => ("f32", &["+", "-", "*", "/", "%", "|", "<<"], "1.5"),
                1 => ("f16", &["+", "-", "*", "/", "%", "|", "^"], "x[0]"),
                2 => (
                    "i32",
                    &["+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>"],
                    "3",
                ),
                3 => (
                    "u32",
                    &["+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>"],
                    "3",
                ),
                _ => ("Vec4", &["+", "-", "*", "/", "%"], "Vec4::splat(1.5)"),
            };
            let depth = [
                MAX_NESTING - 8,
                MAX_NESTING + 1,
                1 + rng.below(MAX_NESTING + 16),
            ][rng.below(3)];
            let operand = if rng.below(2) == 0 { "a" } else { lit };
            let e = match rng.below(4) {
                0 => {
                    let op = pick(rng, ops);
                    vec![operand; depth].join(&format!(" {op} "))
                }
                1 => (0..depth).fold("a".to_owned(), |e, k| {
                    format!("({e} {} {operand})", ops[k % ops.len()])
                }),
                2 => {
                    let m = pick(
                        rng,
                        &[
                            ".abs()",
                            ".sqrt()",
                            ".min(a)",
                            ".max(a)",
                            ".mul_add(a, a)",
                            ".exp()",
                            ".floor()",
                            ".clamp(a, a)",
                            ".signum()",
                            ".to_f32()",
                            ".wrapping_add(a)",
                            ".pow(2)",
                            ".powi(2)",
                            ".rem_euclid(a)",
                        ],
                    );
                    format!("a{}", m.repeat(depth))
                }
                _ => {
                    let unary = pick(rng, &["-", "!"]);
                    format!("{}a", unary.repeat(depth))
                }
            };
            (
                false,
                "workgroup_size = [64]".into(),
                format!("fn k(x: &[{ty}], y: &mut [{ty}]) {{ let i = global_thread_id(); if i < y.len() {{ let a = x[i]; y[i] = {e}; }} }}"),
            )
        }
        4 => {
            let len = pick(
                rng,
                &[
                    "1",
                    "4096",
                    "16384",
                    "536870911",
                    "536870912",
                    "2147483647",
                    "4294967295",
                ],
            );
            let elem = pick(rng, &["f32", "[f32; 65536]", "u32", "Vec4"]);
            let limits = pick(rng, &["", ", limits = \"device\""]);
            let dims = pick(
                rng,
                &[
                    "64",
                    "1024",
                    "16384",
                    "16385",
                    "65535",
                    "4294967295",
                    "16384, 16384, 16384",
                    "0",
                ],
            );
            match rng.below(2) {
                0 => plain(
                    &format!("workgroup_size = [{dims}]{limits}"),
                    format!("let t = shared::<[{elem}; {len}]>(); if i < y.len() {{ y[i] = 1.0; }}"),
                ),
                _ => (
                    true,
                    String::new(),
                    format!("mod m {{ use sarek::prelude::*; pub struct P {{ pub a: [{elem}; {len}], pub b: f32 }} #[sarek::kernel(workgroup_size = [{dims}]{limits})] pub fn k(p: &mut [P]) {{ p[0].b = 1.0; }} }}"),
                ),
            }
        }
        5 => {
            let offset = pick(
                rng,
                &[
                    "0",
                    "16",
                    "0x7FFF_FFFF",
                    "0x8000_0000",
                    "0xFFFF_FFFF",
                    "n as usize",
                ],
            );
            let memory = pick(rng, &["x", "t"]);
            plain(
                "workgroup_size = [32]",
                format!("let t = shared::<[f32; 256]>(); let a = CoopMatrix::<f32, 16, C>::load_rows({memory}, {offset}, 16); a.store_rows(y, {offset}, 16);"),
            )
        }
        6 => {
            // A binding named like the kernel, in its body and a helper of its module.
            let binding = pick(
                rng,
                &[
                    "for k in 0..n { y[k as usize] = 1.0; }",
                    "let k = 1.0; y[0] = k;",
                    "match n { k => y[0] = k as f32 }",
                ],
            );
            (
                true,
                String::new(),
                format!("mod m {{ use sarek::prelude::*; fn h(y: &mut [f32], n: u32) {{ {binding} }} #[sarek::kernel] pub fn k(y: &mut [f32], n: u32) {{ {binding} h(y, n); }} }}"),
            )
        }
        7 => {
            let n = [10, 1_000, 6_000][rng.below(3)];
            let mut body = String::from("let v0 = x[i];");
            for j in 1..n {
                body.push_str(&format!(" let v{j} = v{} * 1.5;", j - 1));
            }
            body.push_str(&format!(" y[i] = v{};", n - 1));
            plain("workgroup_size = [64]", body)
        }
        _ => {
            // Nesting of blocks around a chain.
            let blocks = rng.below(MAX_NESTING);
            let chain = vec!["1.5"; 1 + rng.below(MAX_NESTING)].join(" - ");
            plain(
                "workgroup_size = [64]",
                format!(
                    "{}y[0] = {chain};{}",
                    "if i < y.len() { ".repeat(blocks),
                    " }".repeat(blocks)
                ),
            )
        }
    }
}

#[test]
fn generated_hostile_kernels_never_panic_and_always_answer() {
    with_rustc_stack(|| {
        let cases = env("SAREK_FUZZ_CASES", 1000);
        let mut rng = Rng(env("SAREK_FUZZ_SEED", 0x5a4e_6b18) ^ 0x4057_11e5);
        for case in 0..cases {
            let (is_module, attr, item) = hostile(&mut rng);
            let start = std::time::Instant::now();
            expand_with(
                is_module,
                attr.parse().expect("the attribute lexes"),
                item.parse().expect("the kernel lexes"),
                &format!("generated kernel {case}"),
            );
            // Generous: the slowest of these, a long kernel, takes under a second here.
            assert!(
                start.elapsed() < std::time::Duration::from_secs(20),
                "generated kernel {case} took {:?}: #[{attr}] {}",
                start.elapsed(),
                &item[..item.len().min(300)]
            );
        }
    });
}
