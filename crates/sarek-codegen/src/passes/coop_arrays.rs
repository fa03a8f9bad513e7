//! Arrays of cooperative matrices (`let mut acc = [CoopMatrix::<f32, 16, C>::zeros(); 16]`)
//! whose every element is named by a constant become one matrix variable per element, and an
//! element's `zeros()` that its next use overwrites is dropped.
//!
//! Why: a kernel written with loops over its tiles has its short `for` loops unrolled by the
//! lowering (`front/lower/control/unroll.rs`), which leaves every index a literal once
//! [`super::const_eval`] has run. Printed as WGSL's `array<coop_mat..>`, the array would be
//! one function-scope `var` written by every element's statements, where the same kernel
//! written with one name per matrix gets a `let` for each operand loaded once
//! (`wgsl/coop_lets.rs`, 1% of the f16 product on an H200). Per element, the unrolled kernel's
//! text is the hand-numbered one's. The `zeros()` that starts an operand array (Rust needs a
//! value for every element) is overwritten by the element's load before any read; dropping it
//! leaves that load the element's one assignment. An array indexed at run time anywhere (a
//! loop that is not unrolled, or the tiered quick form, which keeps every loop) stays an array.

use std::collections::{BTreeMap, BTreeSet};

use super::u32_literal as literal;
use crate::ir::*;

/// The first matrix number no function of `kernel` uses: the numbers are unique across the
/// kernel's functions (the CPU backend keys matrices by number, and the JIT inlines helpers
/// that hold collectives), so the elements [`run`] numbers start above all of them.
pub fn first_free(kernel: &Kernel) -> u32 {
    first_free_matrix(
        std::iter::once(&kernel.entry)
            .chain(&kernel.functions)
            .map(|f| &f.body),
    )
}

/// Scalarises the arrays of `f` indexed only by constants (see the module documentation),
/// numbering their elements from `next` (at least [`first_free`]), which it advances.
pub fn run(f: &mut Function, next: &mut u32) {
    // Per array variable: its type and whether every index so far is a literal.
    let mut arrays: BTreeMap<u32, (CoopMatrix, bool)> = BTreeMap::new();
    visit(&f.body, &mut |s| {
        if let Stmt::Coop(op) = &s.kind {
            for m in op.matrices() {
                if m.is_array() {
                    let constant = m.index.is_some_and(|i| literal(f, i).is_some());
                    let entry = arrays.entry(m.id).or_insert((m.var(), true));
                    entry.1 &= constant;
                }
            }
        }
    });
    // The first element's new number, per array scalarised.
    let mut bases = BTreeMap::new();
    for (id, (m, constant)) in &arrays {
        if *constant {
            bases.insert(*id, *next);
            *next += m.len;
        }
    }
    if bases.is_empty() {
        return;
    }
    let exprs = &f.exprs;
    let rename = |m: CoopMatrix| match (bases.get(&m.id), m.index) {
        (Some(&base), Some(i)) => {
            let k = match exprs[i].kind {
                Expr::Literal(Literal::U32(k)) => k,
                _ => unreachable!("indices of scalarised arrays are literals"),
            };
            CoopMatrix {
                // Past the end clamps, as the array's index would.
                id: base + k.min(m.len - 1),
                len: 0,
                index: None,
                ..m
            }
        }
        _ => m,
    };
    rewrite(&mut f.body, &rename);
    let elements: BTreeSet<u32> = bases
        .iter()
        .flat_map(|(id, base)| *base..*base + arrays[id].0.len)
        .collect();
    drop_dead_zeros(&mut f.body, &elements);
}

fn rewrite(block: &mut Block, rename: &impl Fn(CoopMatrix) -> CoopMatrix) {
    for s in block {
        if let Stmt::Coop(op) = &s.kind {
            s.kind = Stmt::Coop(op.map_matrices(rename));
        }
        for child in s.kind.child_blocks_mut() {
            rewrite(child, rename);
        }
    }
}

/// Whether `s` (or a statement it holds) names matrix `id`.
fn mentions(s: &Statement, id: u32) -> bool {
    any(s, |s| match &s.kind {
        Stmt::Coop(op) => op.matrices().iter().any(|m| m.id == id),
        _ => false,
    })
}

/// Whether `s` (or a statement it holds) leaves a loop or the function: after it the code
/// that follows in the block may not run, so a later overwrite does not kill a value.
fn exits(s: &Statement) -> bool {
    any(s, |s| {
        matches!(s.kind, Stmt::Break | Stmt::Continue | Stmt::Return(_))
    })
}

/// Whether `s` or a statement it holds satisfies `p`.
fn any(s: &Statement, p: impl Fn(&Statement) -> bool) -> bool {
    let mut found = p(s);
    for child in s.kind.child_blocks() {
        visit(child, &mut |s| found |= p(s));
    }
    found
}

/// Drops each `zeros()` of an element in `elements` whose next use in its block assigns the
/// element without reading it, with no `break`, `continue` or `return` before that use.
fn drop_dead_zeros(block: &mut Block, elements: &BTreeSet<u32>) {
    let mut i = 0;
    while i < block.len() {
        let dead = match &block[i].kind {
            Stmt::Coop(CoopOp::Zero { dst }) if elements.contains(&dst.id) => block[i + 1..]
                .iter()
                .find(|s| mentions(s, dst.id) || exits(s))
                .is_some_and(|next| match &next.kind {
                    Stmt::Coop(op) => {
                        op.written().is_some_and(|w| w.id == dst.id)
                            && op.read().iter().all(|r| r.id != dst.id)
                    }
                    _ => false,
                }),
            _ => false,
        };
        if dead {
            block.remove(i);
            continue;
        }
        for child in block[i].kind.child_blocks_mut() {
            drop_dead_zeros(child, elements);
        }
        i += 1;
    }
}
