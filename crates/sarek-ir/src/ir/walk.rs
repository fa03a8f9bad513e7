//! Walking the IR: the one place that knows which statements hold blocks and which
//! expressions hold operands, so analyses and passes that look at every statement at any depth,
//! or at every expression of a tree, do not each repeat the recursion (and cannot forget a kind
//! of block or operand).

use super::{Block, Expr, Expression, Statement, Stmt};
use crate::arena::Handle;

impl Expr {
    /// The expressions this one reads directly, in source order (left before right, receiver
    /// first); none for literals, parameters, locals, lengths, builtins, zeros and arguments.
    /// An `Index` reads its index (the slice is a parameter, not an expression).
    pub fn operands(&self) -> impl Iterator<Item = Handle<Expression>> + '_ {
        // Up to three operands are fields of their own; a variable number come as a slice.
        let (fixed, all): ([Option<Handle<Expression>>; 3], &[Handle<Expression>]) = match self {
            Expr::Literal(_)
            | Expr::Param(_)
            | Expr::Local(_)
            | Expr::Len(_)
            | Expr::Builtin(_)
            | Expr::Zero(_)
            | Expr::Argument(_) => ([None; 3], &[]),
            Expr::Index { index: one, .. }
            | Expr::Unary { expr: one, .. }
            | Expr::Cast { expr: one, .. }
            | Expr::Field { base: one, .. } => ([Some(*one), None, None], &[]),
            Expr::Binary { left, right, .. }
            | Expr::Access {
                base: left,
                index: right,
            } => ([Some(*left), Some(*right), None], &[]),
            Expr::Select {
                cond,
                accept,
                reject,
            } => ([Some(*cond), Some(*accept), Some(*reject)], &[]),
            Expr::SharedIndex { indices: all, .. }
            | Expr::Math { args: all, .. }
            | Expr::Compose {
                components: all, ..
            } => ([None; 3], all.as_slice()),
        };
        fixed.into_iter().flatten().chain(all.iter().copied())
    }
}

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

impl Stmt {
    /// [`Stmt::child_blocks`], mutable.
    pub fn child_blocks_mut(&mut self) -> Vec<&mut Block> {
        match self {
            Stmt::If { accept, reject, .. } => vec![accept, reject],
            Stmt::Loop {
                body, continuing, ..
            } => vec![body, continuing],
            Stmt::Switch { cases, default, .. } => cases
                .iter_mut()
                .map(|c| &mut c.body)
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
    use crate::ir::{Barrier, BinaryOp, Case, Literal, MathFun, Scalar, Span, Type};

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

    #[test]
    fn operands_come_in_source_order() {
        let mut exprs = Arena::new();
        let mut lit = |n| {
            exprs.append(Expression {
                kind: Expr::Literal(Literal::U32(n)),
                ty: Type::Scalar(Scalar::U32),
                span: Span(0),
            })
        };
        let (a, b, c) = (lit(0), lit(1), lit(2));
        let ops = |e: Expr| e.operands().collect::<Vec<_>>();
        assert_eq!(ops(Expr::Literal(Literal::U32(0))), []);
        assert_eq!(
            ops(Expr::Binary {
                op: BinaryOp::Add,
                left: a,
                right: b
            }),
            [a, b]
        );
        assert_eq!(
            ops(Expr::Select {
                cond: c,
                accept: a,
                reject: b
            }),
            [c, a, b]
        );
        assert_eq!(
            ops(Expr::Math {
                fun: MathFun::Max,
                args: vec![b, a]
            }),
            [b, a]
        );
    }
}
