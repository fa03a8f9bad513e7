//! Walking nested statement blocks: the one place that knows which statements hold blocks,
//! so analyses and passes that look at every statement at any depth do not each repeat the
//! recursion (and cannot forget a kind of block).

use super::{Block, Statement, Stmt};

impl Stmt {
    /// The blocks this statement holds, in source order: an `if`'s accept and reject, a
    /// loop's body and continuing, a `switch`'s cases and default; none for the others.
    pub fn child_blocks(&self) -> Vec<&Block> {
        match self {
            Stmt::If { accept, reject, .. } => vec![accept, reject],
            Stmt::Loop {
                body, continuing, ..
            } => vec![body, continuing],
            Stmt::Switch { cases, default, .. } => cases
                .iter()
                .map(|c| &c.body)
                .chain(std::iter::once(default))
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// Calls `f` on every statement of `block` at any depth, each before the statements it holds
/// and those before the next statement (the order of the source).
pub fn visit(block: &Block, f: &mut impl FnMut(&Statement)) {
    for s in block {
        f(s);
        for child in s.kind.child_blocks() {
            visit(child, f);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::Arena;
    use crate::ir::{Barrier, Case, Expr, Expression, Literal, Scalar, Span, Type};

    fn at(kind: Stmt) -> Statement {
        Statement {
            kind,
            span: Span(0),
        }
    }

    #[test]
    fn visits_every_statement_in_source_order() {
        let b = |kind| at(Stmt::Barrier(kind));
        let mut exprs = Arena::new();
        let zero = exprs.append(Expression {
            kind: Expr::Literal(Literal::U32(0)),
            ty: Type::Scalar(Scalar::U32),
            span: Span(0),
        });
        let block = vec![
            at(Stmt::If {
                cond: zero,
                accept: vec![b(Barrier::Workgroup)],
                reject: vec![b(Barrier::Storage)],
            }),
            at(Stmt::Switch {
                selector: zero,
                cases: vec![Case {
                    values: vec![Literal::U32(1)],
                    body: vec![b(Barrier::Subgroup)],
                }],
                default: vec![b(Barrier::Workgroup)],
            }),
        ];
        let mut seen = Vec::new();
        visit(&block, &mut |s| {
            seen.push(match &s.kind {
                Stmt::If { .. } => "if",
                Stmt::Switch { .. } => "switch",
                Stmt::Barrier(Barrier::Workgroup) => "workgroup",
                Stmt::Barrier(Barrier::Storage) => "storage",
                Stmt::Barrier(Barrier::Subgroup) => "subgroup",
                _ => "other",
            })
        });
        assert_eq!(
            seen,
            [
                "if",
                "workgroup",
                "storage",
                "switch",
                "subgroup",
                "workgroup"
            ]
        );
    }
}
