//! Barrier uniformity: every invocation of a workgroup must reach each barrier, or the
//! workgroup deadlocks or reads garbage. WGSL's uniformity analysis forbids a barrier under
//! control flow that depends on a non-uniform value; naga does not run that analysis, so Sarek
//! does, on the IR, and points at the condition that makes the barrier divergent.
//!
//! Non-uniform ("varying") values: thread and global indices, anything read from a storage
//! buffer or workgroup memory, atomic results, and any local assigned a varying value or
//! assigned inside varying control flow (through any chain of assignments, to a fixed point).
//! Uniform: literals, scalar parameters, lengths, `block_idx_*`, `block_dim_*`, `grid_dim_*`.

use std::collections::HashSet;

use crate::arena::Handle;
use crate::ir::*;

/// Why control flow at a point is divergent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cause {
    /// Inside an `if` (or a value `if`, `&&`, `||`) on a varying condition.
    Branch(Span),
    /// After an early `return` that only some invocations take.
    Return(Span),
    /// Inside a loop that some invocations leave earlier than others.
    Loop(Span),
}

struct Analysis<'a> {
    kernel: &'a Kernel,
    varying: HashSet<Handle<Local>>,
    changed: bool,
    report: bool,
    errors: Vec<(Span, String)>,
    reported: HashSet<Span>,
}

/// Checks every barrier of `kernel`; returns one error at each divergent condition and one at
/// each barrier it guards.
pub fn check(kernel: &Kernel) -> Vec<(Span, String)> {
    if !contains_barrier(&kernel.entry.body) {
        return Vec::new();
    }
    let mut a = Analysis {
        kernel,
        varying: HashSet::new(),
        changed: true,
        report: false,
        errors: Vec::new(),
        reported: HashSet::new(),
    };
    while a.changed {
        a.changed = false;
        a.block(&kernel.entry.body, None);
    }
    a.report = true;
    a.block(&kernel.entry.body, None);
    a.errors
}

fn contains_barrier(block: &Block) -> bool {
    block.iter().any(|s| match &s.kind {
        Stmt::Barrier(_) | Stmt::UniformLoad { .. } => true,
        Stmt::If { accept, reject, .. } => contains_barrier(accept) || contains_barrier(reject),
        Stmt::Loop {
            body, continuing, ..
        } => contains_barrier(body) || contains_barrier(continuing),
        Stmt::Switch { cases, default, .. } => {
            cases.iter().any(|c| contains_barrier(&c.body)) || contains_barrier(default)
        }
        _ => false,
    })
}

/// The local a place is rooted in, if any.
fn place_local(place: &Place) -> Option<Handle<Local>> {
    match place {
        Place::Local(l) => Some(*l),
        Place::Field { base, .. } | Place::Element { base, .. } => place_local(base),
        Place::Index { .. } | Place::Shared { .. } => None,
    }
}

impl Analysis<'_> {
    fn expr_varying(&self, h: Handle<Expression>) -> bool {
        match &self.kernel.entry.exprs[h].kind {
            Expr::Literal(_) | Expr::Param(_) | Expr::Len(_) => false,
            Expr::Builtin(b) => matches!(
                b,
                Builtin::ThreadIdx(_) | Builtin::GlobalIdx(_) | Builtin::GlobalThreadId
            ),
            Expr::Index { .. } | Expr::SharedIndex { .. } => true,
            Expr::Local(l) => self.varying.contains(l),
            Expr::Unary { expr, .. } | Expr::Cast { expr, .. } => self.expr_varying(*expr),
            Expr::Binary { left, right, .. } => {
                self.expr_varying(*left) || self.expr_varying(*right)
            }
            Expr::Select {
                cond,
                accept,
                reject,
            } => {
                self.expr_varying(*cond) || self.expr_varying(*accept) || self.expr_varying(*reject)
            }
            Expr::Math { args, .. } => args.iter().any(|a| self.expr_varying(*a)),
            Expr::Field { base, .. } => self.expr_varying(*base),
            Expr::Access { base, index } => self.expr_varying(*base) || self.expr_varying(*index),
            Expr::Compose { components, .. } => components.iter().any(|c| self.expr_varying(*c)),
            Expr::Zero(_) => false,
            // Only helper functions have arguments, and barriers stay in the kernel.
            Expr::Argument(_) => true,
        }
    }

    fn mark(&mut self, local: Handle<Local>) {
        if self.varying.insert(local) {
            self.changed = true;
        }
    }

    fn cond_span(&self, cond: Handle<Expression>) -> Span {
        self.kernel.entry.exprs[cond].span
    }

    /// Walks a block under `cause`; returns the cause that holds after it (an early return
    /// taken by some invocations makes the rest of the kernel divergent).
    fn block(&mut self, block: &Block, mut cause: Option<Cause>) -> Option<Cause> {
        for statement in block {
            if let Some(after) = self.statement(statement, cause) {
                cause.get_or_insert(after);
            }
        }
        cause
    }

    /// Returns a cause that holds for the statements after this one, if it creates one.
    fn statement(&mut self, statement: &Statement, cause: Option<Cause>) -> Option<Cause> {
        match &statement.kind {
            Stmt::Let { local, init } => {
                if cause.is_some() || init.is_some_and(|i| self.expr_varying(i)) {
                    self.mark(*local);
                }
                None
            }
            Stmt::Assign { place, value, .. } => {
                if let Some(l) = place_local(place) {
                    let index_varying = place_indices_varying(self, place);
                    if cause.is_some() || self.expr_varying(*value) || index_varying {
                        self.mark(l);
                    }
                }
                None
            }
            Stmt::Call { result, .. } => {
                // A helper may read memory: its value is not known to be uniform.
                if let Some(l) = result {
                    self.mark(*l);
                }
                None
            }
            Stmt::Switch {
                selector,
                cases,
                default,
            } => {
                let inner = cause.or_else(|| {
                    self.expr_varying(*selector)
                        .then(|| Cause::Branch(self.cond_span(*selector)))
                });
                let mut after = Vec::new();
                for body in cases.iter().map(|c| &c.body).chain([default]) {
                    after.push(self.block(body, inner));
                }
                let any_return = cases.iter().any(|c| returns(&c.body)) || returns(default);
                if inner.is_some() && cause.is_none() && any_return {
                    return Some(Cause::Return(self.cond_span(*selector)));
                }
                after.into_iter().flatten().find(|c| Some(*c) != inner)
            }
            Stmt::Atomic { result, .. } => {
                if let Some(l) = result {
                    self.mark(*l);
                }
                None
            }
            Stmt::CompareExchange { old, exchanged, .. } => {
                self.mark(*old);
                self.mark(*exchanged);
                None
            }
            Stmt::If {
                cond,
                accept,
                reject,
            } => {
                let inner = cause.or_else(|| {
                    self.expr_varying(*cond)
                        .then(|| Cause::Branch(self.cond_span(*cond)))
                });
                let after_accept = self.block(accept, inner);
                let after_reject = self.block(reject, inner);
                if inner.is_some() && cause.is_none() && (returns(accept) || returns(reject)) {
                    return Some(Cause::Return(self.cond_span(*cond)));
                }
                // A return under uniform control that is itself after a divergent return.
                [after_accept, after_reject]
                    .into_iter()
                    .flatten()
                    .find(|c| Some(*c) != inner)
            }
            Stmt::Loop {
                body,
                continuing,
                break_if,
            } => {
                let inner = cause.or_else(|| self.divergent_exit(body, *break_if));
                let after_body = self.block(body, inner);
                self.block(continuing, inner);
                match (cause, inner) {
                    (Some(_), _) => None,
                    // Invocations leave a divergent loop at different times but all leave it,
                    // unless some return from inside.
                    (None, Some(Cause::Loop(s) | Cause::Branch(s) | Cause::Return(s))) => {
                        returns(body).then_some(Cause::Return(s))
                    }
                    (None, None) => after_body,
                }
            }
            Stmt::Barrier(kind) => {
                if let (Some(cause), true) = (cause, self.report) {
                    self.divergent_barrier(cause, statement.span, *kind);
                }
                None
            }
            // A barrier whose value is the same for every invocation (unless the element read
            // is chosen by a varying index).
            Stmt::UniformLoad {
                indices, result, ..
            } => {
                if let (Some(cause), true) = (cause, self.report) {
                    self.divergent_barrier(cause, statement.span, Barrier::Workgroup);
                }
                if cause.is_some() || indices.iter().any(|i| self.expr_varying(*i)) {
                    self.mark(*result);
                }
                None
            }
            Stmt::Break | Stmt::Continue | Stmt::Return(_) => None,
        }
    }

    /// A varying condition under which the loop is left or continued, if any: then
    /// invocations run different numbers of iterations.
    fn divergent_exit(&self, body: &Block, break_if: Option<Handle<Expression>>) -> Option<Cause> {
        if let Some(b) = break_if {
            if self.expr_varying(b) {
                return Some(Cause::Loop(self.cond_span(b)));
            }
        }
        self.exit_under_varying(body, None)
    }

    fn exit_under_varying(&self, block: &Block, guard: Option<Span>) -> Option<Cause> {
        for s in block {
            match &s.kind {
                Stmt::Break | Stmt::Continue | Stmt::Return(_) => {
                    if let Some(span) = guard {
                        return Some(Cause::Loop(span));
                    }
                }
                Stmt::If {
                    cond,
                    accept,
                    reject,
                } => {
                    let g =
                        guard.or_else(|| self.expr_varying(*cond).then(|| self.cond_span(*cond)));
                    if let Some(c) = self
                        .exit_under_varying(accept, g)
                        .or_else(|| self.exit_under_varying(reject, g))
                    {
                        return Some(c);
                    }
                }
                Stmt::Switch {
                    selector,
                    cases,
                    default,
                } => {
                    let g = guard.or_else(|| {
                        self.expr_varying(*selector)
                            .then(|| self.cond_span(*selector))
                    });
                    for body in cases.iter().map(|c| &c.body).chain([default]) {
                        if let Some(c) = self.exit_under_varying(body, g) {
                            return Some(c);
                        }
                    }
                }
                // `break`/`continue` in an inner loop leave only that loop; its `return`s count.
                Stmt::Loop { body, .. } => {
                    if let Some(span) = guard.filter(|_| returns(body)) {
                        return Some(Cause::Loop(span));
                    }
                }
                _ => {}
            }
        }
        None
    }

    fn divergent_barrier(&mut self, cause: Cause, barrier: Span, kind: Barrier) {
        let name = match kind {
            Barrier::Workgroup => "block_barrier()",
            Barrier::Storage => "storage_barrier()",
        };
        let (span, why) = match cause {
            Cause::Branch(s) => (s, "this condition can differ between the threads of a workgroup, so only some of them reach the barrier it guards"),
            Cause::Return(s) => (s, "only some threads of a workgroup may take the early `return` under this condition, so the others wait forever at the barrier after it"),
            Cause::Loop(s) => (s, "threads of a workgroup may leave this loop after different numbers of iterations (its exit depends on this value), so a barrier inside it is not reached by all of them together; to leave a loop on a flag in workgroup memory, read the flag with `workgroup_uniform_load(&flag[0])`, whose value every thread of the workgroup shares"),
        };
        if self.reported.insert(span) {
            self.errors.push((
                span,
                format!(
                    "{why}. Every thread of a workgroup must reach each `{name}`: WGSL rejects a barrier in control flow that depends on a thread index, on memory, or on a variable assigned from one. Move the barrier out, or make the condition depend only on literals, scalar parameters, `block_idx_*()`, `block_dim_*()` and `grid_dim_*()`"
                ),
            ));
        }
        self.errors.push((barrier, format!("this `{name}` is not reached by every thread of its workgroup (see the divergent condition above)")));
    }
}

/// Whether a block can `return` (at any depth).
fn returns(block: &Block) -> bool {
    block.iter().any(|s| match &s.kind {
        Stmt::Return(_) => true,
        Stmt::If { accept, reject, .. } => returns(accept) || returns(reject),
        Stmt::Switch { cases, default, .. } => {
            cases.iter().any(|c| returns(&c.body)) || returns(default)
        }
        Stmt::Loop {
            body, continuing, ..
        } => returns(body) || returns(continuing),
        _ => false,
    })
}

/// Whether an element index on the way to a place is varying (then which element changed
/// differs between invocations).
fn place_indices_varying(a: &Analysis<'_>, place: &Place) -> bool {
    match place {
        Place::Element { base, index } => a.expr_varying(*index) || place_indices_varying(a, base),
        Place::Field { base, .. } => place_indices_varying(a, base),
        _ => false,
    }
}
