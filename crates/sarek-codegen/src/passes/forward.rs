//! Forwarding of bindings: an immutable local bound to an invocation id, a parameter or a
//! length is read as that value at each use. Measured on an H200: binding
//! `let py = global_id.y` ahead of a loop made a Mandelbrot kernel 6% slower than reading the
//! built-in where it is used. `global_thread_id()` is a formula, not a built-in read, so a
//! binding of it stays: it is computed once.
//!
//! The binding's `let` stays in the IR, dead, so that every block keeps its shape (an `else`
//! that held only such a binding still prints as one); the WGSL writer declares nothing for
//! it.

use std::collections::{HashMap, HashSet};

use crate::arena::Handle;
use crate::ir::*;

/// Forwards the bindings of `function`; returns the locals it forwarded.
pub fn run(function: &mut Function) -> HashSet<Handle<Local>> {
    let mut values: HashMap<Handle<Local>, Expr> = HashMap::new();
    lets(&function.body, &mut |local, init| {
        if let Some(value) = forwarded(function, local, init) {
            values.insert(local, value);
        }
    });
    let handles: Vec<Handle<Expression>> = function.exprs.iter().map(|(h, _)| h).collect();
    for h in handles {
        if let Expr::Local(l) = function.exprs[h].kind {
            if let Some(value) = values.get(&l) {
                function.exprs[h].kind = value.clone();
            }
        }
    }
    values.into_keys().collect()
}

/// The value that replaces reads of `local`, if `let local = init` is forwarded.
fn forwarded(function: &Function, local: Handle<Local>, init: Handle<Expression>) -> Option<Expr> {
    let l = &function.locals[local];
    // An array or struct lives in a `var` (see the WGSL writer): never forwarded.
    if l.mutable || matches!(l.ty, Type::Array(_) | Type::Struct(_)) {
        return None;
    }
    match &function.exprs[init].kind {
        Expr::Builtin(Builtin::GlobalThreadId) => None,
        kind @ (Expr::Builtin(_) | Expr::Param(_) | Expr::Len(_)) => Some(kind.clone()),
        _ => None,
    }
}

/// Calls `f` on every `let local = init` of `block`, at any depth.
pub(crate) fn lets(block: &Block, f: &mut impl FnMut(Handle<Local>, Handle<Expression>)) {
    crate::ir::visit(block, &mut |s| {
        if let Stmt::Let {
            local,
            init: Some(init),
        } = &s.kind
        {
            f(*local, *init)
        }
    });
}
