//! Unrolling of loops over independent loads, the loads first. A grid-stride loop as users
//! write it (`while i < x.len() { acc += x[i]; i += stride; }`) has one load in flight per
//! thread: each iteration waits for its load before the next one is issued. Measured on an
//! H200, such a sum moved 2.3 TB/s where a copy moves 4.2. This pass runs F iterations per
//! trip of the loop ([`FACTOR`] by default) and issues the loads of all of them first, as
//! [`super::coarsen`] does for element-wise kernels.
//!
//! A loop qualifies when:
//! - one local `i` (the counter, an integer) is advanced by a loop-invariant step `s`
//!   (`i += s` or `i = i + s`) as the last statement of the body, or as the whole
//!   `continuing` block, and assigned nowhere else in the loop;
//! - its body holds no nested loop, barrier, helper call or `continue` (a `continue` would
//!   skip the following copies), and no `break if`;
//! - it reads a read-only buffer (`&[T]`) at an index computed from `i` and loop invariants
//!   only, and that depends on `i`: those loads are hoisted.
//!
//! Two shapes (see `unroll`). When the loop's only exit is a first `if i < n {} else
//! { break; }` on a `u32` counter, the unrolled loop tests once per trip that all F
//! iterations run, loads, and runs F copies of the rest of the body; the original loop follows
//! for the last iterations (measured on an H200: a grid-stride sum from 54% to 90% of copy
//! bandwidth, a privatised histogram from 52% to 81%). Otherwise it is
//! `loop { loads of iterations 0..F; iteration 0; ..; iteration F-1 }`, each copy keeping its
//! exit test (65% and 63%: a driver compiler may sink a load past a branch to its use).
//! Either way every copy runs exactly what the original iteration ran, in the same order (a
//! float sum adds the same values in the same order: nothing is re-associated); only the loads
//! move. That is sound because:
//! - a read-only buffer is not written during a dispatch (a buffer bound read-only cannot be
//!   bound writable in the same launch), so a load gives the same value earlier;
//! - the index of iteration `j` is the index expression with `i + s + .. + s` (`j` steps) in
//!   place of `i`: the value `i` holds in iteration `j`, the same wrapping additions;
//! - in the first shape every load is one the original loop makes; in the second, a load past
//!   the end of a buffer, which the original loop would not have made (its exit test fails
//!   first), is defined in WGSL (robust buffer access: a value of the buffer or zero) and its
//!   value is never used.
//!
//! Loads are shared between copies of equal index expressions (`x[i]` read twice is one load).

use std::collections::{HashMap, HashSet};

use crate::arena::Handle;
use crate::ir::*;

/// Iterations per trip of an unrolled loop, by default.
pub const FACTOR: usize = 4;

/// Loops with more statements than this (at any depth) are left alone: the copies would make
/// the kernel large for little gain.
const MAX_STATEMENTS: usize = 32;

/// Loops reading more distinct elements per iteration than this are left alone: the loads of
/// all copies live in registers at once.
const MAX_LOADS: usize = 8;

/// Unrolls the qualifying loops of `kernel`'s entry, `factor` iterations per trip; returns how
/// many it unrolled.
pub fn run(kernel: &mut Kernel, factor: usize) -> usize {
    let read_only: ReadOnly = kernel
        .params
        .iter()
        .enumerate()
        .filter(|(_, p)| {
            matches!(
                p.ty,
                ParamType::Slice {
                    access: Access::Read,
                    ..
                }
            )
        })
        .map(|(i, p)| (ParamId(i as u32), p.name.clone()))
        .collect();
    let f = &mut kernel.entry;
    let mut body = std::mem::take(&mut f.body);
    let n = block(f, &read_only, factor, &mut body);
    f.body = body;
    n
}

/// The read-only buffer parameters, with their names (which the hoisted loads take).
type ReadOnly = HashMap<ParamId, String>;

/// Unrolls the qualifying loops in `b`, innermost first. (Its own walk, not `visit`: it
/// rebuilds the blocks it walks.)
fn block(f: &mut Function, read_only: &ReadOnly, factor: usize, b: &mut Block) -> usize {
    let mut n = 0;
    let mut out = Vec::with_capacity(b.len());
    for mut s in std::mem::take(b) {
        match &mut s.kind {
            Stmt::If { accept, reject, .. } => {
                n += block(f, read_only, factor, accept) + block(f, read_only, factor, reject);
            }
            Stmt::Switch { cases, default, .. } => {
                for c in cases.iter_mut() {
                    n += block(f, read_only, factor, &mut c.body);
                }
                n += block(f, read_only, factor, default);
            }
            Stmt::Loop {
                body, continuing, ..
            } => {
                n += block(f, read_only, factor, body) + block(f, read_only, factor, continuing);
                if let Some(unrolled) = unroll(f, read_only, factor, &s.kind) {
                    n += 1;
                    let span = s.span;
                    out.extend(unrolled.into_iter().map(|kind| Statement { kind, span }));
                    continue;
                }
            }
            _ => {}
        }
        out.push(s);
    }
    *b = out;
    n
}

/// The counter of a loop and its step.
struct Counter {
    local: Handle<Local>,
    step: Handle<Expression>,
}

/// `i += s` or `i = i + s` on an integer local: the counter and its step.
fn advance(f: &Function, s: &Statement) -> Option<Counter> {
    let Stmt::Assign {
        place: Place::Local(local),
        op,
        value,
    } = &s.kind
    else {
        return None;
    };
    if !matches!(f.locals[*local].ty, Type::Scalar(Scalar::U32 | Scalar::I32)) {
        return None;
    }
    let step = match op {
        Some(BinaryOp::Add) => *value,
        None => match f.exprs[*value].kind {
            Expr::Binary {
                op: BinaryOp::Add,
                left,
                right,
            } if f.exprs[left].kind == Expr::Local(*local) => right,
            _ => return None,
        },
        Some(_) => return None,
    };
    Some(Counter {
        local: *local,
        step,
    })
}

/// The bound `n` of an exit test `if i < n {} else { break; }` (or `if !(i < n) { break; }`)
/// on `counter`.
fn exit_bound(f: &Function, s: &Statement, counter: Handle<Local>) -> Option<Handle<Expression>> {
    let Stmt::If {
        cond,
        accept,
        reject,
    } = &s.kind
    else {
        return None;
    };
    let is_break = |b: &Block| {
        matches!(
            b.as_slice(),
            [Statement {
                kind: Stmt::Break,
                ..
            }]
        )
    };
    let test = if accept.is_empty() && is_break(reject) {
        *cond
    } else if reject.is_empty() && is_break(accept) {
        match f.exprs[*cond].kind {
            Expr::Unary {
                op: UnaryOp::Not,
                expr,
            } => expr,
            _ => return None,
        }
    } else {
        return None;
    };
    match f.exprs[test].kind {
        Expr::Binary {
            op: BinaryOp::Lt,
            left,
            right,
        } if f.exprs[left].kind == Expr::Local(counter) => Some(right),
        _ => None,
    }
}

/// Counts the `break`s in `b` (the loop has no nested loop, so each leaves it).
fn breaks(b: &Block) -> usize {
    let mut n = 0;
    visit(b, &mut |s| n += usize::from(matches!(s.kind, Stmt::Break)));
    n
}

/// What a loop body holds, for the checks.
#[derive(Default)]
struct Contents {
    /// Locals assigned or declared in the loop.
    written: HashSet<Handle<Local>>,
    /// Statements at any depth.
    statements: usize,
    /// A statement that keeps the loop as it is.
    blocked: bool,
    /// The expressions the loop's statements use, at the top of their trees, in order.
    roots: Vec<Handle<Expression>>,
}

impl Contents {
    /// Adds every statement of `b`, at any depth.
    fn block(&mut self, b: &Block) {
        visit(b, &mut |s| self.statement(s));
    }

    /// Adds `s` itself (`visit` brings the statements it holds). A nested loop's statements
    /// are counted too, but a loop holding one is left alone whatever they are.
    fn statement(&mut self, s: &Statement) {
        self.statements += 1;
        match &s.kind {
            Stmt::Let { local, init } => {
                self.written.insert(*local);
                self.roots.extend(init);
            }
            Stmt::Assign { place, value, .. } => {
                self.place(place);
                self.roots.push(*value);
            }
            Stmt::If { cond, .. } => self.roots.push(*cond),
            Stmt::Switch { selector, .. } => self.roots.push(*selector),
            Stmt::Return(value) => self.roots.extend(value),
            Stmt::Break => {}
            Stmt::Atomic {
                target,
                value,
                result,
                ..
            } => {
                self.target(target);
                self.roots.extend(value);
                self.written.extend(result);
            }
            Stmt::CompareExchange {
                target,
                compare,
                value,
                old,
                exchanged,
            } => {
                self.target(target);
                self.roots.extend([*compare, *value]);
                self.written.extend([*old, *exchanged]);
            }
            Stmt::Loop { .. }
            | Stmt::Continue
            | Stmt::Barrier(_)
            | Stmt::Call { .. }
            // Collective: every lane must reach it together, which a guarded copy would break.
            | Stmt::Subgroup { .. }
            | Stmt::Coop(_)
            | Stmt::Debug { .. }
            | Stmt::UniformLoad { .. } => {
                self.blocked = true;
            }
        }
    }

    fn place(&mut self, place: &Place) {
        match place {
            Place::Local(l) => {
                self.written.insert(*l);
            }
            Place::Index { index, .. } => self.roots.push(*index),
            Place::Shared { indices, .. } => self.roots.extend(indices),
            Place::Field { base, .. } => self.place(base),
            Place::Element { base, index } => {
                self.roots.push(*index);
                self.place(base);
            }
        }
    }

    fn target(&mut self, target: &AtomicTarget) {
        match target {
            AtomicTarget::Buffer { index, .. } => self.roots.push(*index),
            AtomicTarget::Shared { indices, .. } => self.roots.extend(indices),
        }
    }
}

/// The loop analysis: which values do not change in the loop.
struct Loop<'a> {
    f: &'a Function,
    written: &'a HashSet<Handle<Local>>,
}

impl Loop<'_> {
    /// Whether `h` has the same value everywhere in the loop, with `counter` (if given)
    /// allowed as well: an index computed from the counter and invariants.
    fn invariant(&self, h: Handle<Expression>, counter: Option<Handle<Local>>) -> bool {
        match &self.f.exprs[h].kind {
            Expr::Literal(_)
            | Expr::Param(_)
            | Expr::Len(_)
            | Expr::Builtin(_)
            | Expr::Zero(_)
            | Expr::Argument(_) => true,
            Expr::Local(l) => !self.written.contains(l) || Some(*l) == counter,
            // Memory may change (or, for a read-only buffer, the load is what is hoisted).
            Expr::Index { .. } | Expr::SharedIndex { .. } => false,
            kind => kind.operands().all(|o| self.invariant(o, counter)),
        }
    }

    /// Whether the tree at `h` reads `local`.
    fn mentions(&self, h: Handle<Expression>, local: Handle<Local>) -> bool {
        match &self.f.exprs[h].kind {
            Expr::Local(l) => *l == local,
            kind => kind.operands().any(|o| self.mentions(o, local)),
        }
    }

    /// The structural key of an index expression: equal keys, equal values in one iteration.
    fn key(&self, h: Handle<Expression>) -> String {
        let e = &self.f.exprs[h];
        let ops: Vec<String> = e.kind.operands().map(|o| self.key(o)).collect();
        let head = match &e.kind {
            Expr::Binary { op, .. } => format!("{op:?}"),
            Expr::Unary { op, .. } => format!("{op:?}"),
            Expr::Cast { to, .. } => format!("as {to:?}"),
            Expr::Math { fun, .. } => format!("{fun:?}"),
            Expr::Field { field, .. } => format!("field {field}"),
            Expr::Index { slice, .. } => format!("index {}", slice.0),
            Expr::Select { .. } | Expr::Access { .. } => {
                format!("{:?}", std::mem::discriminant(&e.kind))
            }
            other if ops.is_empty() => format!("{other:?}"),
            other => format!("{:?}", std::mem::discriminant(other)),
        };
        format!("{head}:{:?}({})", e.ty, ops.join(","))
    }

    /// The hoistable loads under `h`, in order of first use, into `loads` (by key).
    fn loads(
        &self,
        h: Handle<Expression>,
        read_only: &ReadOnly,
        counter: Handle<Local>,
        loads: &mut Vec<(String, Handle<Expression>)>,
        found: &mut HashMap<Handle<Expression>, usize>,
    ) {
        let kind = &self.f.exprs[h].kind;
        for o in kind.operands() {
            self.loads(o, read_only, counter, loads, found);
        }
        if let Expr::Index { slice, index } = kind {
            // A load at an invariant index is the same load in every iteration: nothing to
            // gain from issuing it early.
            if read_only.contains_key(slice)
                && self.invariant(*index, Some(counter))
                && self.mentions(*index, counter)
            {
                let key = self.key(h);
                let n = match loads.iter().position(|(k, _)| *k == key) {
                    Some(n) => n,
                    None => {
                        loads.push((key, h));
                        loads.len() - 1
                    }
                };
                found.insert(h, n);
            }
        }
    }
}

/// The unrolled form of the loop `kind`, if it qualifies: the statements that replace it.
///
/// When the loop's only exit is a first statement `if i < n {} else { break; }` on an unsigned
/// counter with `n` invariant, the unrolled loop tests once per trip that all its iterations
/// run (`i < n && s <= (n - 1 - i) / (F - 1)`: then `i + j·s` does not wrap and stays below
/// `n` for every `j < F`, so each copy's test would pass), loads, and runs the copies
/// without their tests; the original loop follows and runs the remaining iterations. Every
/// load is then in bounds, and the copies have no branch between them that a compiler could
/// sink the loads past. Otherwise each copy keeps its exit test and the loads are made
/// ahead of them (speculatively, see the module's notes).
fn unroll(f: &mut Function, read_only: &ReadOnly, factor: usize, kind: &Stmt) -> Option<Vec<Stmt>> {
    let Stmt::Loop {
        body,
        continuing,
        break_if: None,
    } = kind
    else {
        return None;
    };
    // The counter's advance: the whole `continuing` block, or the body's last statement.
    let (counter, in_continuing) = match continuing.as_slice() {
        [] => (advance(f, body.last()?)?, false),
        [one] => (advance(f, one)?, true),
        _ => return None,
    };
    let mut contents = Contents::default();
    contents.block(body);
    contents.block(continuing);
    if contents.blocked || contents.statements > MAX_STATEMENTS {
        return None;
    }
    // The counter is assigned once: by its advance.
    let assigned_once = {
        let mut count = 0;
        count_assignments(body, counter.local, &mut count);
        count_assignments(continuing, counter.local, &mut count);
        count == 1
    };
    let analysis = Loop {
        f,
        written: &contents.written,
    };
    if !assigned_once || !analysis.invariant(counter.step, None) {
        return None;
    }
    let mut loads = Vec::new();
    let mut found = HashMap::new();
    for &root in &contents.roots {
        analysis.loads(root, read_only, counter.local, &mut loads, &mut found);
    }
    if loads.is_empty() || loads.len() > MAX_LOADS {
        return None;
    }
    let written = contents.written.clone();
    let roots = contents.roots.clone();
    let reached = reachable(f, &roots);
    // The guarded shape: the bound of the only exit, on an unsigned counter.
    let bound = body
        .first()
        .and_then(|first| exit_bound(f, first, counter.local))
        .filter(|&n| {
            f.locals[counter.local].ty == Type::Scalar(Scalar::U32)
                && breaks(body) == 1
                && analysis_invariant(f, &written, n)
        });
    let mut new_body = Vec::new();
    if let Some(n) = bound {
        let span = body[0].span;
        new_body.push(Statement {
            kind: guard(f, counter.local, counter.step, n, factor, span),
            span,
        });
    }
    // The copies run the body without its exit test when the guard has checked it.
    let copied: &[Statement] = if bound.is_some() { &body[1..] } else { body };

    // The value of the counter in each iteration: `i`, `i + s`, `(i + s) + s`, ...
    let ty = f.locals[counter.local].ty;
    let span = f.exprs[counter.step].span;
    let mut values = vec![f.exprs.append(Expression {
        kind: Expr::Local(counter.local),
        ty,
        span,
    })];
    for j in 1..factor {
        let left = values[j - 1];
        values.push(f.exprs.append(Expression {
            kind: Expr::Binary {
                op: BinaryOp::Add,
                left,
                right: counter.step,
            },
            ty,
            span,
        }));
    }

    // The loads of every iteration, by iteration then in order of first use.
    let mut preloaded: Vec<Vec<Handle<Local>>> = Vec::new();
    for value in &values {
        let mut row = Vec::new();
        for (_, load) in &loads {
            let copy = copy_tree(f, *load, counter.local, *value);
            let e = &f.exprs[*load];
            let (ty, span) = (e.ty, e.span);
            let name = match e.kind {
                Expr::Index { slice, .. } => read_only[&slice].clone(),
                _ => unreachable!("a hoisted load is an index"),
            };
            let local = f.locals.append(Local {
                name,
                ty,
                mutable: false,
                span,
            });
            new_body.push(Statement {
                kind: Stmt::Let {
                    local,
                    init: Some(copy),
                },
                span,
            });
            row.push(local);
        }
        preloaded.push(row);
    }

    // The copies of the body, each with its own locals and its loads replaced.
    let mut new_continuing = Vec::new();
    for (j, row) in preloaded.iter().enumerate() {
        // Copy 0 keeps the body's locals unless the original loop follows (it declares them).
        let locals: HashMap<Handle<Local>, Handle<Local>> = if j == 0 && bound.is_none() {
            HashMap::new()
        } else {
            let mut declared: Vec<Handle<Local>> = written
                .iter()
                .copied()
                .filter(|l| declared_in(body, *l))
                .collect();
            declared.sort_by_key(|l| l.index());
            declared
                .into_iter()
                .map(|l| {
                    let copy = f.locals[l].clone();
                    (l, f.locals.append(copy))
                })
                .collect()
        };
        let exprs: HashMap<Handle<Expression>, Handle<Expression>> = reached
            .iter()
            .map(|&h| {
                let e = f.exprs[h].clone();
                (h, f.exprs.append(e))
            })
            .collect();
        let remap = Remap {
            expr: |h: Handle<Expression>| exprs[&h],
            local: |l: Handle<Local>| locals.get(&l).copied().unwrap_or(l),
        };
        for &h in &reached {
            let kind = match found.get(&h) {
                Some(&n) => Expr::Local(row[n]),
                None => remap.expr_kind(&f.exprs[h].kind),
            };
            f.exprs[exprs[&h]].kind = kind;
        }
        new_body.extend(remap.block(copied));
        let advance = remap.block(continuing);
        if !in_continuing || j + 1 < factor {
            new_body.extend(advance);
        } else {
            new_continuing = advance;
        }
    }
    let unrolled = Stmt::Loop {
        body: new_body,
        continuing: new_continuing,
        break_if: None,
    };
    Some(match bound {
        Some(_) => vec![unrolled, kind.clone()],
        None => vec![unrolled],
    })
}

/// Whether `h` has one value in a loop that writes `written` (see [`Loop::invariant`]).
fn analysis_invariant(
    f: &Function,
    written: &HashSet<Handle<Local>>,
    h: Handle<Expression>,
) -> bool {
    Loop { f, written }.invariant(h, None)
}

/// `if i < n && s <= (n - 1 - i) / (factor - 1) {} else { break; }`: every one of `factor`
/// iterations from `i` passes the test `i < n` (with `i` a `u32`).
fn guard(
    f: &mut Function,
    counter: Handle<Local>,
    step: Handle<Expression>,
    n: Handle<Expression>,
    factor: usize,
    span: Span,
) -> Stmt {
    let u32_ty = Type::Scalar(Scalar::U32);
    let bool_ty = Type::Scalar(Scalar::Bool);
    let mut e = |kind, ty| f.exprs.append(Expression { kind, ty, span });
    let binary = |op, left, right| Expr::Binary { op, left, right };
    let i = e(Expr::Local(counter), u32_ty);
    let below = e(binary(BinaryOp::Lt, i, n), bool_ty);
    let one = e(Expr::Literal(Literal::U32(1)), u32_ty);
    let last = e(binary(BinaryOp::Sub, n, one), u32_ty);
    let i = e(Expr::Local(counter), u32_ty);
    let room = e(binary(BinaryOp::Sub, last, i), u32_ty);
    let steps = e(Expr::Literal(Literal::U32(factor as u32 - 1)), u32_ty);
    let most = e(binary(BinaryOp::Div, room, steps), u32_ty);
    let fits = e(binary(BinaryOp::Le, step, most), bool_ty);
    let cond = e(binary(BinaryOp::LogicalAnd, below, fits), bool_ty);
    Stmt::If {
        cond,
        accept: Vec::new(),
        reject: vec![Statement {
            kind: Stmt::Break,
            span,
        }],
    }
}

/// Counts the assignments to `local` in `b`.
fn count_assignments(b: &Block, local: Handle<Local>, count: &mut usize) {
    visit(b, &mut |s| {
        if matches!(&s.kind, Stmt::Assign { place, .. } if root(place) == Some(local)) {
            *count += 1;
        }
    });
}

/// The local a place stores into, if any.
fn root(place: &Place) -> Option<Handle<Local>> {
    match place {
        Place::Local(l) => Some(*l),
        Place::Field { base, .. } | Place::Element { base, .. } => root(base),
        Place::Index { .. } | Place::Shared { .. } => None,
    }
}

/// Whether `b` declares `local` (a `let`, or the result of an atomic operation).
fn declared_in(b: &Block, local: Handle<Local>) -> bool {
    let mut found = false;
    visit(b, &mut |s| {
        found |= match &s.kind {
            Stmt::Let { local: l, .. } => *l == local,
            Stmt::Atomic { result, .. } => *result == Some(local),
            Stmt::CompareExchange { old, exchanged, .. } => *old == local || *exchanged == local,
            _ => false,
        }
    });
    found
}

/// Every expression reachable from `roots`, in handle order.
fn reachable(f: &Function, roots: &[Handle<Expression>]) -> Vec<Handle<Expression>> {
    let mut seen = HashSet::new();
    let mut stack: Vec<Handle<Expression>> = roots.to_vec();
    while let Some(h) = stack.pop() {
        if seen.insert(h) {
            stack.extend(f.exprs[h].kind.operands());
        }
    }
    let mut all: Vec<Handle<Expression>> = seen.into_iter().collect();
    all.sort_by_key(|h| h.index());
    all
}

/// A copy of the tree at `h` with reads of `counter` replaced by `value`.
fn copy_tree(
    f: &mut Function,
    h: Handle<Expression>,
    counter: Handle<Local>,
    value: Handle<Expression>,
) -> Handle<Expression> {
    let e = f.exprs[h].clone();
    if e.kind == Expr::Local(counter) {
        return value;
    }
    let ops: Vec<Handle<Expression>> = e.kind.operands().collect();
    let copies: Vec<Handle<Expression>> = ops
        .iter()
        .map(|o| copy_tree(f, *o, counter, value))
        .collect();
    let map: HashMap<Handle<Expression>, Handle<Expression>> =
        ops.into_iter().zip(copies).collect();
    let remap = Remap {
        expr: |o: Handle<Expression>| map[&o],
        local: |l: Handle<Local>| l,
    };
    let kind = remap.expr_kind(&e.kind);
    f.exprs.append(Expression { kind, ..e })
}
