//! Constant evaluation: `block_dim_*()` becomes the workgroup size it returns, and integer
//! arithmetic on constants becomes its value when that is exact (no wrap, no division by
//! zero), so that an index like `acc[0 * 2 + 1]` is a literal for the GPU compiler, which can
//! then keep a local array in registers. An inexact case keeps Rust's wrapping result through
//! the run-time path.
//!
//! One pass over the arena in handle order, which visits every operand before its users, so
//! the work is linear in the number of expressions however deep the trees are.

use std::collections::HashSet;

use crate::arena::Handle;
use crate::ir::*;

/// Evaluates the constants of `function`, whose kernel has workgroup size `workgroup_size`;
/// returns the expressions it replaced by a literal.
pub fn run(function: &mut Function, workgroup_size: [u32; 3]) -> HashSet<Handle<Expression>> {
    let handles: Vec<Handle<Expression>> = function.exprs.iter().map(|(h, _)| h).collect();
    let mut values: Vec<Option<Literal>> = vec![None; handles.len()];
    let mut evaluated = HashSet::new();
    for h in handles {
        let value = {
            // An operand after its user (never made by the front end) is left alone.
            let value_of = |o: Handle<Expression>| values.get(o.index()).copied().flatten();
            match &function.exprs[h].kind {
                Expr::Literal(l @ (Literal::I32(_) | Literal::U32(_))) => Some(*l),
                Expr::Builtin(Builtin::BlockDim(a)) => {
                    Some(Literal::U32(workgroup_size[a.index()]))
                }
                Expr::Binary { op, left, right } => match (value_of(*left), value_of(*right)) {
                    (Some(l), Some(r)) => binary(*op, l, r),
                    _ => None,
                },
                _ => None,
            }
        };
        values[h.index()] = value;
        if let Some(v) = value {
            let e = &mut function.exprs[h];
            if !matches!(e.kind, Expr::Literal(_)) {
                e.kind = Expr::Literal(v);
                evaluated.insert(h);
            }
        }
    }
    evaluated
}

/// `l op r` on two integers of one type, when Rust's result is exact.
fn binary(op: BinaryOp, l: Literal, r: Literal) -> Option<Literal> {
    match (l, r) {
        (Literal::U32(a), Literal::U32(b)) => Some(Literal::U32(match op {
            BinaryOp::Add => a.checked_add(b)?,
            BinaryOp::Sub => a.checked_sub(b)?,
            BinaryOp::Mul => a.checked_mul(b)?,
            BinaryOp::Div => a.checked_div(b)?,
            BinaryOp::Rem => a.checked_rem(b)?,
            BinaryOp::BitAnd => a & b,
            BinaryOp::BitOr => a | b,
            BinaryOp::BitXor => a ^ b,
            _ => return None,
        })),
        (Literal::I32(a), Literal::I32(b)) => Some(Literal::I32(match op {
            BinaryOp::Add => a.checked_add(b)?,
            BinaryOp::Sub => a.checked_sub(b)?,
            BinaryOp::Mul => a.checked_mul(b)?,
            BinaryOp::Div => a.checked_div(b)?,
            BinaryOp::Rem => a.checked_rem(b)?,
            BinaryOp::BitAnd => a & b,
            BinaryOp::BitOr => a | b,
            BinaryOp::BitXor => a ^ b,
            _ => return None,
        })),
        _ => None,
    }
}
