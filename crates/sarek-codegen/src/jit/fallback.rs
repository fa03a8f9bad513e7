//! The constructs the JIT leaves to the interpreter, decided in one place before any code is
//! generated (a kernel using one runs on the interpreter under `SAREK_CPU_ENGINE=auto`).
//! Code generation still refuses what it cannot compile as a last resort (a comparison of
//! whole structs, a dynamic index into a vector), but each construct of the list below is
//! named here first, so that adding one is one line.
//!
//! `f16` is not on the list: the JIT runs halves as the interpreter does (`half.rs`).

use super::Unsupported;
use crate::ir::{Barrier, Builtin, Expr, Kernel, Statement, Stmt};

/// Why the JIT leaves `k` to the interpreter, if it does.
pub(super) fn check(k: &Kernel) -> Result<(), Unsupported> {
    let refuse = |what: &str| Err(Unsupported(what.into()));
    for f in k.all_functions() {
        for (_, e) in f.exprs.iter() {
            if let Expr::Builtin(b @ (Builtin::SubgroupSize | Builtin::SubgroupInvocationId)) =
                &e.kind
            {
                return refuse(&format!("the builtin {b:?}"));
            }
        }
        if let Some(what) = block(k, &f.body) {
            return refuse(what);
        }
    }
    Ok(())
}

/// The first construct of `body` (at any depth) the JIT leaves to the interpreter.
fn block(k: &Kernel, body: &[Statement]) -> Option<&'static str> {
    body.iter().find_map(|s| statement(k, s))
}

fn statement(k: &Kernel, s: &Statement) -> Option<&'static str> {
    match &s.kind {
        // Lanes in lockstep: the interpreter's subgroup emulation.
        Stmt::Subgroup { .. } => Some("a subgroup operation"),
        Stmt::Barrier(Barrier::Subgroup) => Some("a subgroup barrier"),
        Stmt::Coop(_) => Some("a cooperative matrix"),
        // A helper that holds a barrier is inlined before the split ([`super::inline`]);
        // `check` looks at every helper's body as at the entry's.
        Stmt::If { accept, reject, .. } => block(k, accept).or_else(|| block(k, reject)),
        Stmt::Loop {
            body, continuing, ..
        } => block(k, body).or_else(|| block(k, continuing)),
        Stmt::Switch { cases, default, .. } => cases
            .iter()
            .find_map(|c| block(k, &c.body))
            .or_else(|| block(k, default)),
        _ => None,
    }
}
