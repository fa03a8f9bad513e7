//! Where the entry's locals of a kernel with barriers live, decided once before code is
//! generated: a local that only one segment names lives in registers (it needs no frame), a
//! local that is uniform across the workgroup lives in registers once per workgroup (the
//! statements that set it run once, at workgroup level, between segments), and only the
//! remaining locals are loaded from and stored to each invocation's frame.

use std::collections::{BTreeMap, BTreeSet};

use super::region::{expr_locals, has_barrier, locals_of};
use super::same::{same, Across};
use crate::arena::Handle;
use crate::ir::{Expression, Function, Kernel, Place, Statement, Stmt, Type};

/// The placement of the entry's locals (by index) of a kernel with barriers.
#[derive(Debug, Default)]
pub(super) struct Plan {
    /// Locals uniform across the workgroup: one register copy per workgroup.
    pub uniform: BTreeSet<usize>,
    /// Locals named by one segment only, which declares them: registers, no frame.
    pub private: BTreeSet<usize>,
    /// Locals set once, by a `let` from thread and block indices, parameters and other such
    /// locals (declared before them): recomputed where a segment needs them, no frame.
    pub invariant: BTreeMap<usize, Handle<Expression>>,
}

impl Plan {
    /// Whether `s`, a statement at workgroup level, sets a uniform local from uniform values
    /// (it then runs once for the workgroup).
    pub fn is_uniform_stmt(&self, f: &Function, s: &Statement) -> bool {
        uniform_write(f, s).is_some_and(|(l, v)| {
            self.uniform.contains(&l) && v.is_none_or(|v| uniform_expr(f, &self.uniform, v))
        })
    }
}

impl Plan {
    /// Whether `s`, a statement at workgroup level, is `if c { break }` / `if c {} else {
    /// continue }` (either arm empty, the other one `break` or `continue`) with a uniform
    /// condition: the lowering of a `for`/`while` loop's test. It then runs once for the
    /// workgroup and jumps, instead of setting each invocation's flag in a segment.
    pub fn is_uniform_jump(&self, f: &Function, s: &Statement) -> bool {
        let jump = |b: &[Statement]| {
            b.is_empty() || matches!(b, [x] if matches!(x.kind, Stmt::Break | Stmt::Continue))
        };
        matches!(&s.kind, Stmt::If { cond, accept, reject }
            if jump(accept) && jump(reject) && uniform_expr(f, &self.uniform, *cond))
    }
}

/// The local a `let` or a whole-local assignment sets, and the value (none: zero).
fn uniform_write(f: &Function, s: &Statement) -> Option<(usize, Option<Handle<Expression>>)> {
    match &s.kind {
        Stmt::Let { local, init } => Some((local.index(), *init)),
        Stmt::Assign {
            place: Place::Local(l),
            value,
            ..
        } if matches!(f.locals[*l].ty, Type::Scalar(_)) => Some((l.index(), Some(*value))),
        _ => None,
    }
}

/// Whether an expression has one value for the whole workgroup given the uniform locals `u`.
fn uniform_expr(f: &Function, u: &BTreeSet<usize>, h: Handle<Expression>) -> bool {
    same(f, h, Across::Workgroup, &|l| u.contains(&l))
}

/// What the walk over the workgroup level gathers.
#[derive(Default)]
struct Walk<'a> {
    /// Per scalar local, its writes at workgroup level that may run once per workgroup.
    top_writes: BTreeMap<usize, Vec<&'a Statement>>,
    /// Locals written anywhere else (per invocation, partially, as a result).
    other_writes: BTreeSet<usize>,
    /// Workgroup-level statements (conditions evaluated on invocation 0's values).
    conditions: Vec<Handle<Expression>>,
}

/// Decides where the entry's locals of kernel `k` (which has barriers) live.
pub(super) fn plan(k: &Kernel) -> Plan {
    let f = &k.entry;
    let mut w = Walk::default();
    walk_wg(k, f, &f.body, &mut w);
    // Candidates: scalars whose every write is a workgroup-level `let`/assignment.
    let mut uniform: BTreeSet<usize> = w
        .top_writes
        .keys()
        .copied()
        .filter(|l| !w.other_writes.contains(l))
        .filter(|l| {
            matches!(
                f.locals.iter().nth(*l).map(|(_, x)| x.ty),
                Some(Type::Scalar(_))
            )
        })
        .collect();
    // Drop those set from a value that is not uniform, until nothing changes.
    loop {
        let drop: Vec<usize> = uniform
            .iter()
            .copied()
            .filter(|l| {
                w.top_writes[l].iter().any(|s| {
                    !uniform_write(f, s)
                        .is_some_and(|(_, v)| v.is_none_or(|v| uniform_expr(f, &uniform, v)))
                })
            })
            .collect();
        if drop.is_empty() {
            break;
        }
        for l in drop {
            uniform.remove(&l);
        }
    }
    let mut invariant = BTreeMap::new();
    for (&l, ws) in &w.top_writes {
        if let ([s], false) = (ws.as_slice(), w.other_writes.contains(&l)) {
            if let Stmt::Let {
                init: Some(init), ..
            } = &s.kind
            {
                let scalar = matches!(
                    f.locals.iter().nth(l).map(|(_, x)| x.ty),
                    Some(Type::Scalar(_))
                );
                if scalar
                    && !uniform.contains(&l)
                    && same(f, *init, Across::Invocation, &|x| {
                        x < l && invariant.contains_key(&x)
                    })
                {
                    invariant.insert(l, *init);
                }
            }
        }
    }
    let mut plan = Plan {
        uniform,
        private: BTreeSet::new(),
        invariant,
    };
    // Segments as code generation splits them, with the locals each names and declares.
    let mut runs: Vec<Vec<&Statement>> = Vec::new();
    split_runs(k, &plan, f, &f.body, false, &mut runs);
    let mut named_by: BTreeMap<usize, usize> = BTreeMap::new();
    let mut declared: Vec<BTreeSet<usize>> = Vec::new();
    for run in &runs {
        let mut named = BTreeSet::new();
        locals_of(f, run, &mut named);
        for l in named {
            *named_by.entry(l).or_default() += 1;
        }
        let mut lets = BTreeSet::new();
        lets_of(run.iter().copied(), &mut lets);
        declared.push(lets);
    }
    let mut in_conditions = BTreeSet::new();
    for c in &w.conditions {
        expr_locals(f, *c, &mut in_conditions);
    }
    for lets in &declared {
        for &l in lets {
            if named_by.get(&l) == Some(&1)
                && !in_conditions.contains(&l)
                && !plan.uniform.contains(&l)
            {
                plan.private.insert(l);
            }
        }
    }
    plan
}

/// The locals a run of statements declares with `let` (at any depth).
fn lets_of<'s>(block: impl Iterator<Item = &'s Statement>, out: &mut BTreeSet<usize>) {
    for s in block {
        match &s.kind {
            Stmt::Let { local, .. } => {
                out.insert(local.index());
            }
            Stmt::If { accept, reject, .. } => {
                lets_of(accept.iter(), out);
                lets_of(reject.iter(), out);
            }
            Stmt::Loop {
                body, continuing, ..
            } => {
                lets_of(body.iter(), out);
                lets_of(continuing.iter(), out);
            }
            Stmt::Switch { cases, default, .. } => {
                for c in cases {
                    lets_of(c.body.iter(), out);
                }
                lets_of(default.iter(), out);
            }
            _ => {}
        }
    }
}

/// The per-invocation segments of a workgroup-level block, split at barriers and at
/// statements that run once per workgroup (as `Cg::workgroup_block` splits them; `in_body`:
/// inside the body of a workgroup-level loop, where a uniform jump runs once too).
fn split_runs<'a>(
    k: &Kernel,
    plan: &Plan,
    f: &Function,
    block: &'a [Statement],
    in_body: bool,
    runs: &mut Vec<Vec<&'a Statement>>,
) {
    let mut run = Vec::new();
    for s in block {
        if has_barrier(k, s) {
            runs.push(std::mem::take(&mut run));
            match &s.kind {
                Stmt::If { accept, reject, .. } => {
                    split_runs(k, plan, f, accept, in_body, runs);
                    split_runs(k, plan, f, reject, in_body, runs);
                }
                Stmt::Loop {
                    body, continuing, ..
                } => {
                    split_runs(k, plan, f, body, true, runs);
                    split_runs(k, plan, f, continuing, false, runs);
                }
                Stmt::Switch { cases, default, .. } => {
                    for c in cases {
                        split_runs(k, plan, f, &c.body, in_body, runs);
                    }
                    split_runs(k, plan, f, default, in_body, runs);
                }
                _ => runs.push(vec![s]),
            }
        } else if plan.is_uniform_stmt(f, s) || (in_body && plan.is_uniform_jump(f, s)) {
            runs.push(std::mem::take(&mut run));
            runs.push(vec![s]);
        } else {
            run.push(s);
        }
    }
    runs.push(run);
}

/// Walks a workgroup-level block: records where each local is written.
fn walk_wg<'a>(k: &Kernel, f: &Function, block: &'a [Statement], w: &mut Walk<'a>) {
    for s in block {
        if has_barrier(k, s) {
            match &s.kind {
                Stmt::If {
                    cond,
                    accept,
                    reject,
                } => {
                    w.conditions.push(*cond);
                    walk_wg(k, f, accept, w);
                    walk_wg(k, f, reject, w);
                }
                Stmt::Loop {
                    body,
                    continuing,
                    break_if,
                } => {
                    w.conditions.extend(break_if.iter().copied());
                    walk_wg(k, f, body, w);
                    walk_wg(k, f, continuing, w);
                }
                Stmt::Switch {
                    selector,
                    cases,
                    default,
                } => {
                    w.conditions.push(*selector);
                    for c in cases {
                        walk_wg(k, f, &c.body, w);
                    }
                    walk_wg(k, f, default, w);
                }
                _ => writes(s, &mut w.other_writes),
            }
        } else if let Some((l, _)) = uniform_write(f, s) {
            w.top_writes.entry(l).or_default().push(s);
        } else {
            writes(s, &mut w.other_writes);
        }
    }
}

/// Every local a statement writes, at any depth.
pub(super) fn writes(s: &Statement, out: &mut BTreeSet<usize>) {
    let blk = |b: &[Statement], out: &mut BTreeSet<usize>| b.iter().for_each(|s| writes(s, out));
    match &s.kind {
        Stmt::Let { local, .. } => {
            out.insert(local.index());
        }
        Stmt::Assign { place, .. } => {
            let mut p = place;
            loop {
                match p {
                    Place::Local(l) => {
                        out.insert(l.index());
                        break;
                    }
                    Place::Field { base, .. } | Place::Element { base, .. } => p = base,
                    _ => break,
                }
            }
        }
        Stmt::If { accept, reject, .. } => {
            blk(accept, out);
            blk(reject, out);
        }
        Stmt::Loop {
            body, continuing, ..
        } => {
            blk(body, out);
            blk(continuing, out);
        }
        Stmt::Switch { cases, default, .. } => {
            cases.iter().for_each(|c| blk(&c.body, out));
            blk(default, out);
        }
        Stmt::Call { result, .. } | Stmt::Atomic { result, .. } => {
            out.extend(result.iter().map(|r| r.index()));
        }
        Stmt::Subgroup { result, .. } | Stmt::UniformLoad { result, .. } => {
            out.insert(result.index());
        }
        Stmt::CompareExchange { old, exchanged, .. } => {
            out.insert(old.index());
            out.insert(exchanged.index());
        }
        _ => {}
    }
}
