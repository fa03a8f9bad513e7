//! Which expressions of a function WGSL evaluates when the shader is created: its
//! const-expressions as the writer prints them. naga checks those for division by zero and
//! overflow and refuses the module, where the run time defines a result; the writer passes an
//! operand of such arithmetic through an identity function (`sarek_opaque_*`) to keep it a
//! run-time value. Erring towards "constant" only costs an identity call.
//!
//! One pass over the arena in handle order (operands and a local's initialiser come before
//! their users), so the analysis is linear in the number of expressions.

use std::collections::HashMap;

use crate::arena::Handle;
use crate::ir::*;
use crate::passes::forward::lets;

/// Whether each expression of a function is a WGSL const-expression, by handle index.
pub(super) fn of(function: &Function) -> Vec<bool> {
    // A local WGSL sees as constant is declared with `let` from a constant expression.
    let mut inits: HashMap<Handle<Local>, Vec<Handle<Expression>>> = HashMap::new();
    lets(&function.body, &mut |local, init| {
        let l = &function.locals[local];
        // An array or struct lives in a `var`.
        if !l.mutable && !matches!(l.ty, Type::Array(_) | Type::Struct(_)) {
            inits.entry(local).or_default().push(init);
        }
    });
    let exprs = &function.exprs;
    let mut constant = vec![false; exprs.len()];
    for (h, e) in exprs.iter() {
        let c = |o: &Handle<Expression>| constant.get(o.index()).copied().unwrap_or(false);
        constant[h.index()] = match &e.kind {
            Expr::Literal(Literal::F32(v)) => v.is_finite(),
            Expr::Literal(_) => true,
            Expr::Local(l) => inits.get(l).is_some_and(|i| i.iter().any(c)),
            // `wrapping_neg` of a `u32` is `0u - x`, its operand kept opaque when constant.
            Expr::Unary {
                op: UnaryOp::Neg,
                expr,
            } if exprs[*expr].ty.scalar() == Some(Scalar::U32) => false,
            Expr::Unary { expr, .. } => c(expr),
            // The writer passes the left operand of arithmetic that may overflow through
            // `sarek_opaque_*` when both operands are constant, which makes the whole a
            // run-time value: a long constant chain then nests one call deep, not one per
            // operator (naga's parser stops at 200 nested expressions).
            Expr::Binary { op, left, right } => {
                c(left) && c(right) && !wrapped(*op, exprs[*left].ty, exprs[*right].ty)
            }
            Expr::Select {
                cond,
                accept,
                reject,
            } => c(cond) && c(accept) && c(reject),
            // Float-to-integer casts go through a helper function, which is never constant.
            Expr::Cast { expr, to } => {
                let from = exprs[*expr].ty.scalar().unwrap_or(Scalar::U32);
                !(from == Scalar::F32 && to.is_integer()) && c(expr)
            }
            // `round` is a helper function too.
            // The writer keeps a call on constants a run-time one (its first operand opaque).
            Expr::Math { fun, args } => {
                *fun != MathFun::Round
                    && args.iter().all(c)
                    && args
                        .first()
                        .is_none_or(|a| !matches!(exprs[*a].ty, Type::Scalar(_) | Type::Vector(..)))
            }
            Expr::Field { base, .. } => c(base),
            Expr::Access { base, index } => c(base) && c(index),
            Expr::Compose { components, .. } => components.iter().all(c),
            Expr::Zero(_) => true,
            // Printed as the workgroup size, a literal.
            Expr::Builtin(Builtin::BlockDim(_)) => true,
            Expr::Param(_)
            | Expr::Len(_)
            | Expr::Index { .. }
            | Expr::SharedIndex { .. }
            | Expr::Argument(_)
            | Expr::Builtin(_) => false,
        };
    }
    constant
}

/// Whether the writer keeps `left op right` of constant operands a run-time value (its
/// `Expr::Binary` arms): any vector operation, scalar arithmetic that may overflow, and
/// integer division or remainder (a helper call unless the divisor is a safe literal; a
/// guarded one is not constant either way).
fn wrapped(op: BinaryOp, left: Type, right: Type) -> bool {
    if matches!(left, Type::Vector(..)) || matches!(right, Type::Vector(..)) {
        return true;
    }
    let integer = left.scalar().is_some_and(|s| s.is_integer());
    match op {
        BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Shl => true,
        BinaryOp::Div | BinaryOp::Rem => !integer,
        _ => false,
    }
}
