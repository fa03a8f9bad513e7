//! The `for` loops a slice shortens: how the lowering writes them, and whether running one
//! iteration of one leaves everything else as it was.

use std::collections::{HashMap, HashSet};

use crate::arena::Handle;
use crate::ir::*;

use super::indices::{constant, literal};
use super::rewrite::U32;

/// A `for` loop over `0..end` as the lowering writes it: `let mut __i = 0;` before a `loop`
/// whose body starts with `if __i < end {} else { break; }` and `let i = __i;`, and whose
/// `continuing` is `__i += 1`.
#[derive(Clone, Copy, Debug)]
pub(super) struct ForLoop {
    /// The user's counter (`i`).
    pub(super) user: Handle<Local>,
    /// The number of iterations.
    pub(super) end: u32,
}

/// Every `for` loop over `0..end` (literal bounds) of `f` with a `u32` counter.
pub(super) fn for_loops(
    f: &Function,
    lets: &HashMap<Handle<Local>, Handle<Expression>>,
) -> Vec<ForLoop> {
    let mut out = Vec::new();
    visit(&f.body, &mut |s| {
        if let Some(l) = for_loop(f, lets, s) {
            out.push(l);
        }
    });
    out
}

pub(super) fn for_loop(
    f: &Function,
    lets: &HashMap<Handle<Local>, Handle<Expression>>,
    s: &Statement,
) -> Option<ForLoop> {
    let Stmt::Loop {
        body,
        continuing,
        break_if: None,
    } = &s.kind
    else {
        return None;
    };
    let [Statement {
        kind:
            Stmt::Assign {
                place: Place::Local(counter),
                op: Some(BinaryOp::Add),
                value: one,
            },
        ..
    }] = continuing.as_slice()
    else {
        return None;
    };
    if literal(f, *one) != Some(1) {
        return None;
    }
    let Stmt::If {
        cond,
        accept,
        reject,
    } = &body.first()?.kind
    else {
        return None;
    };
    if !accept.is_empty()
        || !matches!(
            reject.as_slice(),
            [Statement {
                kind: Stmt::Break,
                ..
            }]
        )
    {
        return None;
    }
    let Expr::Binary {
        op: BinaryOp::Lt,
        left,
        right,
    } = f.exprs[*cond].kind
    else {
        return None;
    };
    if !matches!(f.exprs[left].kind, Expr::Local(c) if c == *counter) {
        return None;
    }
    let end = constant(f, lets, right)?;
    // Starts at 0.
    let start = lets.get(counter)?;
    if constant(f, lets, *start) != Some(0) {
        return None;
    }
    let Stmt::Let {
        local: user,
        init: Some(init),
    } = &body.get(1)?.kind
    else {
        return None;
    };
    let user_ok = !f.locals[*user].mutable
        && f.locals[*user].ty == U32
        && matches!(f.exprs[*init].kind, Expr::Local(c) if c == *counter);
    user_ok.then_some(ForLoop { user: *user, end })
}

/// Every coop statement of `block` with the `for` loops around it (outermost first).
pub(super) fn collect(
    block: &Block,
    loops: &HashMap<Handle<Local>, ForLoop>,
    around: &mut Vec<ForLoop>,
    out: &mut Vec<(CoopOp, Vec<ForLoop>)>,
) {
    for s in block {
        if let Stmt::Coop(op) = &s.kind {
            out.push((op.clone(), around.clone()));
        }
        let this = match &s.kind {
            Stmt::Loop { body, .. } => match body.get(1).map(|s| &s.kind) {
                Some(Stmt::Let { local, .. }) => loops.get(local).copied(),
                _ => None,
            },
            _ => None,
        };
        if let Some(l) = this {
            around.push(l);
        }
        for child in s.kind.child_blocks() {
            collect(child, loops, around, out);
        }
        if this.is_some() {
            around.pop();
        }
    }
}

/// Whether every loop of `block` whose counter is in `users` has no effect but on locals it
/// declares and on coop arrays.
pub(super) fn shortenable(f: &Function, block: &Block, users: &HashSet<Handle<Local>>) -> bool {
    block.iter().all(|s| match &s.kind {
        Stmt::Loop { body, .. }
            if matches!(
                body.get(1).map(|s| &s.kind),
                Some(Stmt::Let { local, .. }) if users.contains(local)
            ) =>
        {
            no_effects(f, &body[2..], &declared(&body[1..]), users)
        }
        kind => kind
            .child_blocks()
            .into_iter()
            .all(|b| shortenable(f, b, users)),
    })
}

/// The locals `block` declares at any depth.
pub(super) fn declared(block: &[Statement]) -> HashSet<Handle<Local>> {
    let mut out = HashSet::new();
    let mut note = |s: &Statement| match &s.kind {
        Stmt::Let { local, .. } => {
            out.insert(*local);
        }
        Stmt::Subgroup { result, .. } => {
            out.insert(*result);
        }
        _ => {}
    };
    for s in block {
        note(s);
        for child in s.kind.child_blocks() {
            visit(child, &mut note);
        }
    }
    out
}

/// Whether the body of a shortened loop changes nothing but `locals` and coop arrays, and
/// leaves the loop only at its end (loops inside it may have their own exits).
pub(super) fn no_effects(
    f: &Function,
    body: &[Statement],
    locals: &HashSet<Handle<Local>>,
    users: &HashSet<Handle<Local>>,
) -> bool {
    body.iter().all(|s| {
        let own = match &s.kind {
            Stmt::Assign {
                place: Place::Local(l),
                ..
            } => locals.contains(l),
            Stmt::Assign { .. } => false,
            Stmt::Break | Stmt::Continue | Stmt::Return(_) => false,
            // Single matrices written here would keep the last iteration's value.
            Stmt::Coop(op) => op.written().is_none_or(|m| m.is_array()),
            Stmt::Loop {
                body, continuing, ..
            } => {
                // Exits inside a nested loop leave that loop only.
                let inner: Vec<&Statement> = body.iter().chain(continuing).collect();
                return inner.iter().all(|s| loop_inner_ok(f, s, locals, users));
            }
            other => allowed_kind(other),
        };
        own && s
            .kind
            .child_blocks()
            .into_iter()
            .all(|b| no_effects(f, b, locals, users))
    })
}

/// [`no_effects`] inside a loop nested in a shortened one: its own `break` and `continue`
/// are allowed.
pub(super) fn loop_inner_ok(
    f: &Function,
    s: &Statement,
    locals: &HashSet<Handle<Local>>,
    users: &HashSet<Handle<Local>>,
) -> bool {
    match &s.kind {
        Stmt::Break | Stmt::Continue => true,
        Stmt::If { accept, reject, .. } => accept
            .iter()
            .chain(reject)
            .all(|s| loop_inner_ok(f, s, locals, users)),
        _ => no_effects(f, std::slice::from_ref(s), locals, users),
    }
}

/// Statements a shortened loop may hold besides assignments, exits, coop statements and
/// loops: those whose effects are on locals they declare.
pub(super) fn allowed_kind(kind: &Stmt) -> bool {
    matches!(
        kind,
        Stmt::Let { .. } | Stmt::If { .. } | Stmt::Subgroup { .. }
    )
}
