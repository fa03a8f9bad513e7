//! Barrier uniformity: every invocation of a workgroup must reach each barrier, or the
//! workgroup deadlocks or reads garbage. WGSL's uniformity analysis forbids a barrier under
//! control flow that depends on a non-uniform value; naga does not run that analysis, so Sarek
//! does, on the IR, and points at the condition that makes the barrier divergent.
//!
//! Non-uniform ("varying") values: thread and global indices, anything read from a storage
//! buffer or workgroup memory, atomic results, and any local assigned a varying value or
//! assigned inside varying control flow (through any chain of assignments, to a fixed point).
//! Uniform: literals, scalar parameters, lengths, `block_idx_*`, `block_dim_*`, `grid_dim_*`,
//! `subgroup_size()` (one size per dispatch on every backend Sarek runs on).
//!
//! Subgroup operations are collective like barriers and are checked the same way: WGSL's
//! analysis requires them in uniform control flow (its `subgroup_uniformity` diagnostic, an
//! error by default), because the lanes that take part in a divergent one are not defined.
//! Their results, and `subgroup_invocation_id()`, are varying.
//!
//! The analysis is interprocedural. A helper that reaches a barrier (its own, or one in a
//! helper it calls) must itself be called where every invocation calls it: a call under
//! divergent control flow is an error at the call, with a second one at the barrier. A call
//! in uniform control flow analyses the helper's body for the uniformity of its arguments at
//! that call (a summary per helper and argument pattern, memoised), so a loop bound passed as
//! an argument stays uniform, and the helper's result is varying only if a returned value or
//! the control flow around a `return` is.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

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

/// What every invocation of a workgroup (or of a subgroup) must reach together: a barrier, a
/// subgroup operation or a cooperative-matrix operation. The errors name it, so that a
/// divergent `CoopMatrix::load_rows()` is not called a barrier or a subgroup operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Collective {
    /// `block_barrier()`, `storage_barrier()`, `subgroup_barrier()` (and
    /// `workgroup_uniform_load`, a workgroup barrier first).
    Barrier(Barrier),
    /// `subgroup_add()` and the other subgroup operations.
    Subgroup(SubgroupOp),
    /// A cooperative-matrix operation, by its Rust name (`CoopMatrix::load_rows()`).
    Coop(&'static str),
}

impl Collective {
    /// The Rust call the errors quote.
    fn name(self) -> String {
        match self {
            Collective::Barrier(kind) => barrier_name(kind).to_owned(),
            Collective::Subgroup(op) => format!("subgroup_{}()", op.rust_name()),
            Collective::Coop(name) => name.to_owned(),
        }
    }

    /// What kind of construct it is, in the errors' words.
    fn noun(self) -> &'static str {
        match self {
            Collective::Barrier(_) => "barrier",
            Collective::Subgroup(_) => "subgroup operation",
            Collective::Coop(_) => "cooperative-matrix operation",
        }
    }
}

/// What a helper's analysis found, for one pattern of uniform and varying arguments.
#[derive(Clone)]
struct Summary {
    /// Whether the value it returns can differ between invocations.
    result_varying: bool,
    /// The divergent barriers found in its body (and in the helpers it calls).
    errors: Vec<(Span, String)>,
}

/// State shared by the analyses of the kernel and its helpers.
struct Shared<'a> {
    kernel: &'a Kernel,
    /// Per helper: the first barrier or collective operation it reaches (its own or a
    /// callee's), with its kind.
    reaches: Vec<Option<(Span, Collective)>>,
    /// Summaries by helper and argument pattern.
    memo: RefCell<HashMap<(u32, Vec<bool>), Summary>>,
}

struct Analysis<'a> {
    shared: &'a Shared<'a>,
    function: &'a Function,
    /// Whether each argument is varying (a helper's; empty for the kernel).
    args: Vec<bool>,
    varying: HashSet<Handle<Local>>,
    changed: bool,
    report: bool,
    /// Whether a returned value, or a `return` under divergent control, makes the result
    /// varying (helpers only).
    result_varying: bool,
    errors: Vec<(Span, String)>,
    reported: HashSet<Span>,
}

/// Checks every barrier of `kernel`, following helper calls; returns one error at each
/// divergent condition and one at each barrier it guards (and, for a helper that reaches a
/// barrier, at the divergent call).
pub fn check(kernel: &Kernel) -> Vec<(Span, String)> {
    let reaches = barriers_reached(kernel);
    if first_barrier(&kernel.entry.body, &reaches).is_none() {
        return Vec::new();
    }
    let shared = Shared {
        kernel,
        reaches,
        memo: RefCell::new(HashMap::new()),
    };
    let mut a = Analysis::new(&shared, &kernel.entry, Vec::new());
    a.run();
    // A helper's errors can come through several calls: report each once.
    let mut seen = HashSet::new();
    a.errors.retain(|e| seen.insert(e.clone()));
    a.errors
}

/// Per helper, the first barrier it reaches. A helper's callees come before it in
/// [`Kernel::functions`] (each is lowered, and pushed, while its caller is being lowered, or
/// was already), so one pass in order sees every callee's answer.
fn barriers_reached(kernel: &Kernel) -> Vec<Option<(Span, Collective)>> {
    let mut reaches = Vec::with_capacity(kernel.functions.len());
    for f in &kernel.functions {
        let first = first_barrier(&f.body, &reaches);
        reaches.push(first);
    }
    reaches
}

/// The first barrier a block reaches, directly or through a call (at any depth).
fn first_barrier(
    block: &Block,
    reaches: &[Option<(Span, Collective)>],
) -> Option<(Span, Collective)> {
    let mut first = None;
    visit(block, &mut |s| {
        if first.is_none() {
            first = match &s.kind {
                Stmt::Barrier(kind) => Some((s.span, Collective::Barrier(*kind))),
                // Collective like a barrier, in the kernel body or in a helper.
                Stmt::Subgroup { op, .. } => Some((s.span, Collective::Subgroup(*op))),
                Stmt::Coop(op) => Some((s.span, Collective::Coop(op.rust_name()))),
                // `workgroup_uniform_load` is a workgroup barrier first.
                Stmt::UniformLoad { .. } => Some((s.span, Collective::Barrier(Barrier::Workgroup))),
                Stmt::Call { function, .. } => reaches.get(function.0 as usize).copied().flatten(),
                _ => None,
            };
        }
    });
    first
}

/// The local a place is rooted in, if any.
fn place_local(place: &Place) -> Option<Handle<Local>> {
    match place {
        Place::Local(l) => Some(*l),
        Place::Field { base, .. } | Place::Element { base, .. } => place_local(base),
        Place::Index { .. } | Place::Shared { .. } => None,
    }
}

impl<'a> Analysis<'a> {
    fn new(shared: &'a Shared<'a>, function: &'a Function, args: Vec<bool>) -> Analysis<'a> {
        Analysis {
            shared,
            function,
            args,
            varying: HashSet::new(),
            changed: true,
            report: false,
            result_varying: false,
            errors: Vec::new(),
            reported: HashSet::new(),
        }
    }

    /// Runs to the fixed point, then once more to report.
    fn run(&mut self) {
        let body = &self.function.body;
        while self.changed {
            self.changed = false;
            self.block(body, None);
        }
        self.report = true;
        self.result_varying = false;
        self.block(body, None);
    }

    /// The summary of helper `function` called with arguments varying as `args` says.
    fn summary(&self, function: FunctionId, args: Vec<bool>) -> Summary {
        let key = (function.0, args);
        if let Some(s) = self.shared.memo.borrow().get(&key) {
            return s.clone();
        }
        let Some(f) = self.shared.kernel.functions.get(function.0 as usize) else {
            return Summary {
                result_varying: true,
                errors: Vec::new(),
            };
        };
        let mut a = Analysis::new(self.shared, f, key.1.clone());
        a.run();
        let summary = Summary {
            result_varying: a.result_varying,
            errors: a.errors,
        };
        self.shared.memo.borrow_mut().insert(key, summary.clone());
        summary
    }

    fn expr_varying(&self, h: Handle<Expression>) -> bool {
        match &self.function.exprs[h].kind {
            Expr::Literal(_) | Expr::Param(_) | Expr::Len(_) | Expr::Zero(_) => false,
            Expr::Builtin(b) => matches!(
                b,
                Builtin::ThreadIdx(_)
                    | Builtin::GlobalIdx(_)
                    | Builtin::GlobalThreadId
                    | Builtin::SubgroupInvocationId
            ),
            Expr::Index { .. } | Expr::SharedIndex { .. } => true,
            Expr::Local(l) => self.varying.contains(l),
            Expr::Argument(k) => self.args.get(*k as usize).copied().unwrap_or(true),
            kind => kind.operands().any(|o| self.expr_varying(o)),
        }
    }

    fn mark(&mut self, local: Handle<Local>) {
        if self.varying.insert(local) {
            self.changed = true;
        }
    }

    fn cond_span(&self, cond: Handle<Expression>) -> Span {
        self.function.exprs[cond].span
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
            Stmt::Call {
                function,
                args,
                result,
            } => {
                let reaches = self
                    .shared
                    .reaches
                    .get(function.0 as usize)
                    .copied()
                    .flatten();
                let result_varying = match (cause, reaches) {
                    (Some(cause), Some((barrier, kind))) => {
                        if self.report {
                            self.divergent_call(cause, statement.span, *function, barrier, kind);
                        }
                        true
                    }
                    _ => {
                        let mask: Vec<bool> = args.iter().map(|a| self.expr_varying(*a)).collect();
                        let varying_args = mask.iter().any(|v| *v);
                        let uniform_args = vec![false; mask.len()];
                        let summary = self.summary(*function, mask);
                        if self.report && !summary.errors.is_empty() {
                            // Divergent only for these arguments: the call is to blame too.
                            if varying_args
                                && self.summary(*function, uniform_args).errors.is_empty()
                            {
                                self.divergent_arguments(statement.span, *function);
                            }
                            self.errors.extend(summary.errors);
                        }
                        cause.is_some() || summary.result_varying
                    }
                };
                if let (Some(l), true) = (result, result_varying) {
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
                    self.divergent(cause, statement.span, Collective::Barrier(*kind));
                }
                None
            }
            // A barrier whose value is the same for every invocation (unless the element read
            // is chosen by a varying index).
            Stmt::UniformLoad {
                indices, result, ..
            } => {
                if let (Some(cause), true) = (cause, self.report) {
                    let load = Collective::Barrier(Barrier::Workgroup);
                    self.divergent(cause, statement.span, load);
                }
                if cause.is_some() || indices.iter().any(|i| self.expr_varying(*i)) {
                    self.mark(*result);
                }
                None
            }
            Stmt::Subgroup { op, result, .. } => {
                self.mark(*result);
                if let (Some(cause), true) = (cause, self.report) {
                    self.divergent(cause, statement.span, Collective::Subgroup(*op));
                }
                None
            }
            // Collective over the subgroup, like the subgroup operations.
            Stmt::Coop(op) => {
                if let (Some(cause), true) = (cause, self.report) {
                    self.divergent(cause, statement.span, Collective::Coop(op.rust_name()));
                }
                // A matrix belongs to the whole subgroup: every invocation names one element.
                for index in op.matrices().into_iter().filter_map(|m| m.index) {
                    if self.report && self.expr_varying(index) {
                        let at = self.function.exprs[index].span;
                        self.errors.push((at, "this index into an array of cooperative matrices can differ between the threads, but a matrix belongs to the whole subgroup, so every thread must name the same element; index with a value every thread has (a constant, a loop counter, a parameter)".to_owned()));
                    }
                }
                None
            }
            Stmt::Return(value) => {
                if cause.is_some() || value.is_some_and(|v| self.expr_varying(v)) {
                    self.result_varying = true;
                }
                None
            }
            Stmt::Break | Stmt::Continue | Stmt::Debug { .. } => None,
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

    /// The error at a divergent condition (once per condition), naming what it guards.
    fn divergent_cause(&mut self, cause: Cause, what: Collective) {
        let name = what.name();
        let noun = what.noun();
        let (span, why) = match (cause, what) {
            (Cause::Branch(s), _) => (s, format!("this condition can differ between the threads of a workgroup, so only some of them reach the {noun} it guards")),
            (Cause::Return(s), Collective::Barrier(_)) => (s, "only some threads of a workgroup may take the early `return` under this condition, so the others wait forever at the barrier after it".to_owned()),
            (Cause::Return(s), _) => (s, format!("only some threads of a workgroup may take the early `return` under this condition, so the {noun} after it would run with some lanes missing")),
            (Cause::Loop(s), Collective::Barrier(_)) => (s, "threads of a workgroup may leave this loop after different numbers of iterations (its exit depends on this value), so a barrier inside it is not reached by all of them together; to leave a loop on a flag in workgroup memory, read the flag with `workgroup_uniform_load(&flag[0])`, whose value every thread of the workgroup shares".to_owned()),
            (Cause::Loop(s), _) => (s, format!("threads of a workgroup may leave this loop after different numbers of iterations (its exit depends on this value), so a {noun} inside it does not run with all lanes together")),
        };
        if !self.reported.insert(span) {
            return;
        }
        let rule = match what {
            Collective::Barrier(_) => format!("Every thread of a workgroup must reach each `{name}`: WGSL rejects a barrier in control flow that depends on a thread index, on memory, or on a variable assigned from one. Move the barrier out, or make the condition depend only on literals, scalar parameters, `block_idx_*()`, `block_dim_*()` and `grid_dim_*()`"),
            _ => format!("Every thread of a workgroup must reach each `{name}` together: WGSL requires {noun}s in uniform control flow (which lanes take part in a divergent one is not defined). Compute the operation's input under the condition and call `{name}` outside it, or make the condition depend only on literals, scalar parameters, `block_idx_*()`, `block_dim_*()`, `grid_dim_*()` and `subgroup_size()`"),
        };
        self.errors.push((span, format!("{why}. {rule}")));
    }

    /// A barrier or collective operation under divergent control flow: one error at the
    /// cause (once) and one at the operation.
    fn divergent(&mut self, cause: Cause, at: Span, what: Collective) {
        self.divergent_cause(cause, what);
        let name = what.name();
        let together = match what {
            Collective::Barrier(_) => "",
            _ => " together",
        };
        self.errors.push((at, format!("this `{name}` is not reached by every thread of its workgroup{together} (see the divergent condition above)")));
    }

    /// A call, under divergent control flow, of a helper that reaches a barrier or a
    /// collective operation.
    fn divergent_call(
        &mut self,
        cause: Cause,
        call: Span,
        function: FunctionId,
        barrier: Span,
        what: Collective,
    ) {
        let name = what.name();
        let noun = what.noun();
        let callee = self.callee_name(function);
        let does = match what {
            Collective::Barrier(_) => format!("waits at a `{name}`"),
            _ => format!("runs `{name}`, a {noun} of the whole subgroup"),
        };
        self.errors.push((
            call,
            format!(
                "`{callee}` {does}, so every thread of the workgroup must call it, but this call is under control flow that only some threads may take (see the divergent condition). Call `{callee}` where every thread of the workgroup calls it (outside the `if`, loop or early `return`), and move the divergent condition into `{callee}` around the work it guards, not around the {noun}"
            ),
        ));
        self.divergent_cause(cause, what);
        self.errors.push((
            barrier,
            format!("this `{name}` is reached from the divergent call of `{callee}` above, so not every thread of its workgroup reaches it"),
        ));
    }
}

impl<'a> Analysis<'a> {
    /// A call that makes a barrier in the helper divergent through its arguments.
    fn divergent_arguments(&mut self, call: Span, function: FunctionId) {
        let callee = self.callee_name(function);
        let does = match self
            .shared
            .reaches
            .get(function.0 as usize)
            .copied()
            .flatten()
        {
            Some((_, what @ (Collective::Subgroup(_) | Collective::Coop(_)))) => {
                format!("runs a {}", what.noun())
            }
            _ => "waits at a barrier".to_owned(),
        };
        self.errors.push((
            call,
            format!(
                "this call passes `{callee}` a value that differs between the threads of a workgroup, and `{callee}` {does} under control flow that depends on it (see below): pass a value that is the same for every thread of the workgroup (a literal, a scalar parameter, `block_idx_*()`, `block_dim_*()`, `grid_dim_*()` or a value computed from them)"
            ),
        ));
    }

    fn callee_name(&self, function: FunctionId) -> &'a str {
        self.shared
            .kernel
            .functions
            .get(function.0 as usize)
            .map_or("this helper", |f| f.name.as_str())
    }
}

fn barrier_name(kind: Barrier) -> &'static str {
    match kind {
        Barrier::Workgroup => "block_barrier()",
        Barrier::Storage => "storage_barrier()",
        Barrier::Subgroup => "subgroup_barrier()",
    }
}

/// Whether a block can `return` (at any depth).
fn returns(block: &Block) -> bool {
    let mut found = false;
    visit(block, &mut |s| found |= matches!(s.kind, Stmt::Return(_)));
    found
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
