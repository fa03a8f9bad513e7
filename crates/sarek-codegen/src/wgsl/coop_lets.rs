//! Which cooperative matrices of a function the writer prints as a `let` at their one
//! assignment instead of a function-scope `var`: a matrix written by exactly one statement and
//! read only after it, in the same block or in blocks nested in the statements that follow.
//!
//! Why: operands loaded into `var`s cost NVIDIA's driver about 1% on the H200's f16 product
//! against the same WGSL with `let`s (4096², the suite's row written both ways in one call:
//! 232.4 against 235.0 TFLOP/s with `var`s in Sarek's text, 234.9 with `let`s; BENCHMARKS.md,
//! "f16 matrix product: `let` operands"). Accumulators, written again by every
//! `multiply_add`, stay `var`s.

use std::collections::{BTreeMap, BTreeSet};

use crate::ir::*;

/// Where a statement sits: the indices of the statements and child blocks leading to its
/// block, then its own index in that block.
type Position = Vec<usize>;

/// The matrices of `body` that can be `let`s (see the module documentation).
pub(super) fn of(body: &Block) -> BTreeSet<u32> {
    let mut writes: BTreeMap<u32, Vec<Position>> = BTreeMap::new();
    let mut reads: BTreeMap<u32, Vec<Position>> = BTreeMap::new();
    let mut path = Vec::new();
    walk(body, &mut path, &mut writes, &mut reads);
    writes
        .into_iter()
        .filter_map(|(id, w)| {
            let [write] = w.as_slice() else {
                return None;
            };
            let (index, block) = write.split_last().expect("a position has an index");
            let after = |read: &Position| {
                read.len() > block.len() && read.starts_with(block) && read[block.len()] > *index
            };
            reads
                .get(&id)
                .is_none_or(|r| r.iter().all(after))
                .then_some(id)
        })
        .collect()
}

fn walk(
    block: &Block,
    path: &mut Vec<usize>,
    writes: &mut BTreeMap<u32, Vec<Position>>,
    reads: &mut BTreeMap<u32, Vec<Position>>,
) {
    for (i, s) in block.iter().enumerate() {
        path.push(i);
        if let Stmt::Coop(op) = &s.kind {
            // An array of matrices is one `var` whatever its elements do.
            for m in op.read().into_iter().filter(|m| !m.is_array()) {
                reads.entry(m.id).or_default().push(path.clone());
            }
            if let Some(m) = op.written().filter(|m| !m.is_array()) {
                writes.entry(m.id).or_default().push(path.clone());
            }
        }
        for (c, child) in s.kind.child_blocks().into_iter().enumerate() {
            path.push(c);
            walk(child, path, writes, reads);
            path.pop();
        }
        path.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(id: u32, role: CoopRole) -> CoopMatrix {
        CoopMatrix {
            id,
            len: 0,
            index: None,
            size: 16,
            scalar: Scalar::F32,
            role,
        }
    }

    fn at(kind: Stmt) -> Statement {
        Statement {
            kind,
            span: Span(0),
        }
    }

    fn zero(id: u32, role: CoopRole) -> Statement {
        at(Stmt::Coop(CoopOp::Zero { dst: m(id, role) }))
    }

    fn mad(dst: u32, a: u32, b: u32, c: u32) -> Statement {
        at(Stmt::Coop(CoopOp::MultiplyAdd {
            dst: m(dst, CoopRole::C),
            a: m(a, CoopRole::A),
            b: m(b, CoopRole::B),
            c: m(c, CoopRole::C),
        }))
    }

    fn in_loop(body: Block) -> Statement {
        at(Stmt::Loop {
            body,
            continuing: Vec::new(),
            break_if: None,
        })
    }

    #[test]
    fn one_write_read_after_it_is_a_let_and_the_rest_are_vars() {
        // 0: accumulator (written twice), 1 and 2: operands inside the loop, read after their
        // write (2 in a nested loop), 3: read before its write in the same block, 4: written
        // in the loop and read after it, 5: written in a nested block and read in the outer one.
        let body = vec![
            zero(0, CoopRole::C),
            in_loop(vec![
                zero(1, CoopRole::A),
                mad(6, 1, 1, 3),
                zero(2, CoopRole::B),
                in_loop(vec![mad(0, 1, 2, 0)]),
                zero(3, CoopRole::C),
                zero(4, CoopRole::A),
                in_loop(vec![zero(5, CoopRole::B)]),
                mad(0, 4, 5, 0),
            ]),
            mad(0, 4, 2, 0),
        ];
        let lets = of(&body);
        assert!(lets.contains(&1), "{lets:?}");
        assert!(!lets.contains(&0), "an accumulator written again is a var");
        assert!(!lets.contains(&2), "read outside the block of its write");
        assert!(!lets.contains(&3), "read before its write");
        assert!(!lets.contains(&4), "read after the loop holding its write");
        assert!(
            !lets.contains(&5),
            "read outside the nested block of its write"
        );
    }
}
