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
            Expr::Unary { expr, .. } => c(expr),
            Expr::Binary { left, right, .. } => c(left) && c(right),
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
            Expr::Math { fun, args } => *fun != MathFun::Round && args.iter().all(c),
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
