//! Which helpers need the invocation's ids. The entry point receives them as WGSL built-ins
//! (`sarek_lid`, `sarek_bid`, `sarek_gid`); a helper that uses an index intrinsic, or calls
//! one that does, takes the three as trailing parameters of the same names, so its
//! expressions print exactly as in the entry point and its callers pass them on.

use crate::ir::{Block, Builtin, Expr, FunctionId, Kernel, Stmt};

/// Per helper ([`FunctionId`] order): whether it takes the invocation ids.
pub(super) fn helpers_needing_ids(kernel: &Kernel) -> Vec<bool> {
    let own: Vec<bool> = kernel
        .functions
        .iter()
        .map(|f| {
            f.exprs.iter().any(|(_, e)| {
                matches!(
                    e.kind,
                    Expr::Builtin(
                        Builtin::ThreadIdx(_)
                            | Builtin::BlockIdx(_)
                            | Builtin::GlobalIdx(_)
                            | Builtin::GlobalThreadId
                    )
                )
            })
        })
        .collect();
    let callees: Vec<Vec<FunctionId>> = kernel
        .functions
        .iter()
        .map(|f| {
            let mut out = Vec::new();
            calls(&f.body, &mut out);
            out
        })
        .collect();
    // To a fixed point: helpers form a call DAG, so this takes at most its depth in rounds.
    let mut needs = own;
    let mut changed = true;
    while changed {
        changed = false;
        for i in 0..needs.len() {
            if !needs[i]
                && callees[i]
                    .iter()
                    .any(|c| needs.get(c.0 as usize).copied().unwrap_or(false))
            {
                needs[i] = true;
                changed = true;
            }
        }
    }
    needs
}

/// The helpers a block calls (at any depth).
fn calls(block: &Block, out: &mut Vec<FunctionId>) {
    for s in block {
        match &s.kind {
            Stmt::Call { function, .. } => out.push(*function),
            Stmt::If { accept, reject, .. } => {
                calls(accept, out);
                calls(reject, out);
            }
            Stmt::Loop {
                body, continuing, ..
            } => {
                calls(body, out);
                calls(continuing, out);
            }
            Stmt::Switch { cases, default, .. } => {
                for c in cases {
                    calls(&c.body, out);
                }
                calls(default, out);
            }
            _ => {}
        }
    }
}
