//! Copies of statements and expressions with their handles renumbered: what a pass needs to
//! move a body into another function (the copies of a coarsened entry, an unrolled loop's
//! trips) and what the CPU engine's JIT needs to inline a helper into the entry.

use super::*;
use crate::arena::Handle;

/// How handles change: each expression and local handle goes through its function.
pub struct Remap<E, L> {
    /// The new handle of an expression.
    pub expr: E,
    /// The new handle of a local.
    pub local: L,
}

impl<E, L> Remap<E, L>
where
    E: Fn(Handle<Expression>) -> Handle<Expression>,
    L: Fn(Handle<Local>) -> Handle<Local>,
{
    /// `kind` with its operands renumbered.
    pub fn expr_kind(&self, kind: &Expr) -> Expr {
        let e = &self.expr;
        let all = |v: &[Handle<Expression>]| v.iter().map(|h| e(*h)).collect::<Vec<_>>();
        match kind {
            Expr::Literal(_)
            | Expr::Param(_)
            | Expr::Len(_)
            | Expr::Builtin(_)
            | Expr::Zero(_)
            | Expr::Argument(_) => kind.clone(),
            Expr::Local(l) => Expr::Local((self.local)(*l)),
            Expr::Index { slice, index } => Expr::Index {
                slice: *slice,
                index: e(*index),
            },
            Expr::Unary { op, expr } => Expr::Unary {
                op: *op,
                expr: e(*expr),
            },
            Expr::Binary { op, left, right } => Expr::Binary {
                op: *op,
                left: e(*left),
                right: e(*right),
            },
            Expr::Select {
                cond,
                accept,
                reject,
            } => Expr::Select {
                cond: e(*cond),
                accept: e(*accept),
                reject: e(*reject),
            },
            Expr::Cast { expr, to } => Expr::Cast {
                expr: e(*expr),
                to: *to,
            },
            Expr::SharedIndex { var, indices } => Expr::SharedIndex {
                var: *var,
                indices: all(indices),
            },
            Expr::Math { fun, args } => Expr::Math {
                fun: *fun,
                args: all(args),
            },
            Expr::Field { base, field } => Expr::Field {
                base: e(*base),
                field: *field,
            },
            Expr::Access { base, index } => Expr::Access {
                base: e(*base),
                index: e(*index),
            },
            Expr::Compose { ty, components } => Expr::Compose {
                ty: *ty,
                components: all(components),
            },
        }
    }

    /// `block` with every handle renumbered.
    pub fn block(&self, block: &[Statement]) -> Block {
        block.iter().map(|s| self.statement(s)).collect()
    }

    /// `s` with every handle renumbered.
    pub fn statement(&self, s: &Statement) -> Statement {
        let e = &self.expr;
        let l = &self.local;
        let kind = match &s.kind {
            Stmt::Let { local, init } => Stmt::Let {
                local: l(*local),
                init: init.map(e),
            },
            Stmt::Assign { place, op, value } => Stmt::Assign {
                place: self.place(place),
                op: *op,
                value: e(*value),
            },
            Stmt::If {
                cond,
                accept,
                reject,
            } => Stmt::If {
                cond: e(*cond),
                accept: self.block(accept),
                reject: self.block(reject),
            },
            Stmt::Loop {
                body,
                continuing,
                break_if,
            } => Stmt::Loop {
                body: self.block(body),
                continuing: self.block(continuing),
                break_if: break_if.map(e),
            },
            Stmt::Break | Stmt::Continue | Stmt::Barrier(_) => s.kind.clone(),
            Stmt::UniformLoad {
                var,
                indices,
                result,
            } => Stmt::UniformLoad {
                var: *var,
                indices: indices.iter().map(|i| e(*i)).collect(),
                result: l(*result),
            },
            Stmt::Return(value) => Stmt::Return(value.map(e)),
            Stmt::Switch {
                selector,
                cases,
                default,
            } => Stmt::Switch {
                selector: e(*selector),
                cases: cases
                    .iter()
                    .map(|c| Case {
                        values: c.values.clone(),
                        body: self.block(&c.body),
                    })
                    .collect(),
                default: self.block(default),
            },
            Stmt::Call {
                function,
                args,
                result,
            } => Stmt::Call {
                function: *function,
                args: args.iter().map(|a| e(*a)).collect(),
                result: result.map(l),
            },
            Stmt::Atomic {
                fun,
                target,
                value,
                result,
            } => Stmt::Atomic {
                fun: *fun,
                target: self.target(target),
                value: value.map(e),
                result: result.map(l),
            },
            Stmt::Subgroup { op, args, result } => Stmt::Subgroup {
                op: *op,
                args: args.iter().map(|a| e(*a)).collect(),
                result: l(*result),
            },
            Stmt::CompareExchange {
                target,
                compare,
                value,
                old,
                exchanged,
            } => Stmt::CompareExchange {
                target: self.target(target),
                compare: e(*compare),
                value: e(*value),
                old: l(*old),
                exchanged: l(*exchanged),
            },
            Stmt::Coop(op) => Stmt::Coop(op.map_exprs(e)),
            Stmt::Debug { site, args } => Stmt::Debug {
                site: *site,
                args: args.iter().map(|&a| e(a)).collect(),
            },
        };
        Statement { kind, span: s.span }
    }

    fn place(&self, place: &Place) -> Place {
        let e = &self.expr;
        match place {
            Place::Local(local) => Place::Local((self.local)(*local)),
            Place::Index { slice, index } => Place::Index {
                slice: *slice,
                index: e(*index),
            },
            Place::Shared { var, indices } => Place::Shared {
                var: *var,
                indices: indices.iter().map(|i| e(*i)).collect(),
            },
            Place::Field { base, field } => Place::Field {
                base: Box::new(self.place(base)),
                field: *field,
            },
            Place::Element { base, index } => Place::Element {
                base: Box::new(self.place(base)),
                index: e(*index),
            },
        }
    }

    fn target(&self, target: &AtomicTarget) -> AtomicTarget {
        let e = &self.expr;
        match target {
            AtomicTarget::Buffer { slice, index } => AtomicTarget::Buffer {
                slice: *slice,
                index: e(*index),
            },
            AtomicTarget::Shared { var, indices } => AtomicTarget::Shared {
                var: *var,
                indices: indices.iter().map(|i| e(*i)).collect(),
            },
        }
    }
}
