//! The tiered quick form of a kernel that keeps an array of cooperative accumulators, split
//! over workgroups: each of `N` copies of a workgroup ("slices", one per accumulator) computes
//! one accumulator, so the driver compiles one product where the quick form had `N`.
//!
//! Why: NVIDIA's driver spends its time on cooperative matrices kept in arrays. The suite's
//! f16 product keeps 16 accumulators and 4 + 4 operands in arrays in its quick form
//! (`launch/tiered.rs`), whose pipeline took 122–138 ms on an H200 host where the same form
//! with one accumulator and one operand of each role, hand-written, took 58–84 ms (and 73–76
//! against 48–51 ms on another host; BENCHMARKS.md, "f16 matrix product: a quick form in
//! slices"). The quick form serves one launch, the first, so it can afford to repeat the
//! staging of its tiles once per accumulator.
//!
//! The transformation, on the kernel as lowered with its loops rolled:
//! - `s = block_idx_z() % N` is the slice, and every `block_idx_z()` becomes
//!   `block_idx_z() / N`: the runtime dispatches `N` times as many workgroups along z
//!   (`KernelSource::quick_slices`), and `grid_dim_z()` (from the uniform block) stays the
//!   launch's;
//! - the accumulator array keeps only element `s`, and each operand array (role A or B) the
//!   one element the products of element `s` read, an expression of `s` (`s / K`, `s % K`),
//!   so every array becomes one matrix;
//! - a `for` loop over `0..n` whose counter picks those elements (`acc[K * i + j]`,
//!   `a[i]`, `b[j]`) runs only the iteration that touches them: its body, once, with the
//!   counter set to that expression;
//! - a statement naming a constant element (`acc[3] = zeros()`) runs only in its slice.
//!
//! It applies only where that computes what the quick form computes, element by element:
//! the kernel calls no helpers, writes no buffer but through stores of accumulators (nor reads
//! the buffers those stores write), uses no atomics, `global_idx_z()` or `global_thread_id()`;
//! every product accumulates into an element of the one accumulator array
//! (`acc[e] = a.multiply_add(b, acc[e])`); a loop it shortens has no effect but on locals
//! declared in it and on elements its counter selects (no barrier, buffer or workgroup store,
//! `break`, `continue` or `return`; each array element it writes is named through its
//! counter); indices are literals, a loop counter, or `K * i + j` over two counters with
//! `j < K`. Stores of different accumulators are taken to write different memory, as a tiled
//! product's do: slices store concurrently where the quick form stored in order. Otherwise the
//! quick form stays as it is.

use std::collections::{HashMap, HashSet};

use crate::arena::Handle;
use crate::ir::*;

/// `SAREK_SLICE=0` when a kernel is compiled keeps its quick form whole (to measure the
/// slices, or to rule them out).
pub fn enabled() -> bool {
    std::env::var("SAREK_SLICE").map_or(true, |v| v.trim() != "0")
}

/// The value a sliced array's element, or a shortened loop's counter, takes in a slice, as an
/// expression of the slice `s`.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Sym {
    /// `s`
    Slice,
    /// A constant.
    Lit(u32),
    /// `x / k`
    Div(Box<Sym>, u32),
    /// `x % k`
    Rem(Box<Sym>, u32),
}

impl Sym {
    /// Every value it takes when `s < n` is below this.
    fn bound(&self, n: u32) -> u32 {
        match self {
            Sym::Slice => n,
            Sym::Lit(k) => k + 1,
            Sym::Div(x, k) => x.bound(n).div_ceil(*k),
            Sym::Rem(x, k) => (*k).min(x.bound(n)),
        }
    }
}

/// A `for` loop over `0..end` as the lowering writes it: `let mut __i = 0;` before a `loop`
/// whose body starts with `if __i < end {} else { break; }` and `let i = __i;`, and whose
/// `continuing` is `__i += 1`.
#[derive(Clone, Copy, Debug)]
struct ForLoop {
    /// The user's counter (`i`).
    user: Handle<Local>,
    /// The number of iterations.
    end: u32,
}

/// What a coop statement's index of a sliced array asks for.
enum Solved {
    /// A constant element: the statement runs in the slices whose element it is.
    Element,
    /// The counters of enclosing loops that pick the slice's element, and their values.
    Counters(Vec<(Handle<Local>, Sym)>),
}

/// The quick form of `kernel` in slices, and their number, where it applies (see the module
/// documentation); `None` leaves the quick form as it is.
pub fn run(kernel: &Kernel) -> Option<(Kernel, u32)> {
    let f = &kernel.entry;
    let plan = Plan::new(f)?;
    let mut sliced = kernel.clone();
    plan.apply(&mut sliced.entry);
    Some((sliced, plan.n))
}

/// What [`run`] found: the arrays, their elements per slice and the loops to shorten.
struct Plan {
    /// The accumulator array's length: the number of slices.
    n: u32,
    /// Per sliced array (the accumulators' included), the element a slice keeps.
    elements: HashMap<u32, Sym>,
    /// Per shortened loop (by its user counter), the counter's value in a slice.
    counters: HashMap<Handle<Local>, Sym>,
}

impl Plan {
    fn new(f: &Function) -> Option<Plan> {
        let lets = lets(f);
        let loops = for_loops(f, &lets);
        let by_user: HashMap<Handle<Local>, ForLoop> = loops.iter().map(|l| (l.user, *l)).collect();

        // The one accumulator array, of at least two elements.
        let mut arrays: HashMap<u32, CoopMatrix> = HashMap::new();
        let mut ok = true;
        visit(&f.body, &mut |s| match &s.kind {
            Stmt::Coop(op) => {
                for m in op.matrices() {
                    if m.is_array() {
                        arrays.insert(m.id, m.var());
                    }
                }
            }
            // No helpers, atomics or buffer writes but the accumulators' stores.
            Stmt::Call { .. } | Stmt::Atomic { .. } | Stmt::CompareExchange { .. } => ok = false,
            Stmt::Assign { place, .. } if writes_buffer(place) => ok = false,
            _ => {}
        });
        let accs: Vec<&CoopMatrix> = arrays.values().filter(|m| m.role == CoopRole::C).collect();
        let [acc] = accs.as_slice() else { return None };
        let (acc, n) = (acc.id, acc.len);
        if !ok || n < 2 {
            return None;
        }
        // Builtins whose value the slices would change.
        let bad_builtin = f.exprs.iter().any(|(_, e)| {
            matches!(
                e.kind,
                Expr::Builtin(Builtin::GlobalIdx(Axis::Z) | Builtin::GlobalThreadId)
            )
        });
        if bad_builtin {
            return None;
        }

        // Every coop statement, with the loops around it (innermost last).
        let mut statements = Vec::new();
        collect(&f.body, &by_user, &mut Vec::new(), &mut statements);

        // The stores write only accumulators to buffers that nothing reads.
        let mut stored = HashSet::new();
        for (op, _) in &statements {
            match op {
                CoopOp::Store { src, memory, .. } => match memory {
                    CoopMemory::Buffer(p) if src.id == acc => {
                        stored.insert(*p);
                    }
                    _ => return None,
                },
                CoopOp::MultiplyAdd { dst, c, .. } => {
                    let same = match (dst.index, c.index) {
                        (Some(x), Some(y)) => same_index(f, &lets, x, y),
                        _ => false,
                    };
                    if dst.id != acc || c.id != acc || !same {
                        return None;
                    }
                }
                CoopOp::Zero { .. } | CoopOp::Load { .. } => {}
            }
        }
        let reads_stored = f.exprs.iter().any(|(_, e)| {
            matches!(e.kind, Expr::Index { slice, .. } if stored.contains(&slice))
        }) || statements.iter().any(|(op, _)| {
            matches!(op, CoopOp::Load { memory: CoopMemory::Buffer(p), .. } if stored.contains(p))
        });
        if reads_stored {
            return None;
        }

        // The element of each operand array the products of the slice's accumulator read.
        let mut elements: HashMap<u32, Sym> = HashMap::from([(acc, Sym::Slice)]);
        for (op, _) in &statements {
            let CoopOp::MultiplyAdd { dst, a, b, .. } = op else {
                continue;
            };
            let solved = solve(f, &lets, &by_user, dst.index?, &Sym::Slice, n)?;
            let Solved::Counters(counters) = solved else {
                // A constant accumulator: only operands that are not arrays.
                if a.is_array() || b.is_array() {
                    return None;
                }
                continue;
            };
            for m in [a, b].into_iter().filter(|m| m.is_array()) {
                let sym = value_of(f, &lets, m.index?, &counters)?;
                match elements.get(&m.id) {
                    Some(known) if *known != sym => return None,
                    _ => {
                        elements.insert(m.id, sym);
                    }
                }
            }
        }
        // Every array is sliced (an operand array no product reads is not worth the rules).
        if arrays.keys().any(|id| !elements.contains_key(id)) {
            return None;
        }

        // The loops to shorten, from every statement's indices; writes inside them must
        // name their element through each of their counters.
        let mut counters: HashMap<Handle<Local>, Sym> = HashMap::new();
        let mut writes: Vec<(Vec<Handle<Local>>, Vec<ForLoop>)> = Vec::new();
        let mut constants: Vec<Vec<ForLoop>> = Vec::new();
        for (op, around) in &statements {
            for m in op.matrices().into_iter().filter(|m| m.is_array()) {
                let sym = &elements[&m.id];
                match solve(f, &lets, &by_user, m.index?, sym, n)? {
                    Solved::Element => constants.push(around.clone()),
                    Solved::Counters(found) => {
                        for (user, value) in &found {
                            match counters.get(user) {
                                Some(known) if known != value => return None,
                                _ => {
                                    counters.insert(*user, value.clone());
                                }
                            }
                        }
                        if op.written() == Some(m) {
                            let named = found.iter().map(|(u, _)| *u).collect();
                            writes.push((named, around.clone()));
                        }
                    }
                }
            }
        }
        let shortened = |l: &ForLoop| counters.contains_key(&l.user);
        // A constant element inside a shortened loop would be written by one iteration only.
        if constants.iter().flatten().any(shortened) {
            return None;
        }
        if writes.iter().any(|(named, around)| {
            around
                .iter()
                .filter(|l| shortened(l))
                .any(|l| !named.contains(&l.user))
        }) {
            return None;
        }
        // Each shortened loop has no other effect.
        let users: HashSet<Handle<Local>> = counters.keys().copied().collect();
        if !shortenable(f, &f.body, &users) {
            return None;
        }
        Some(Plan {
            n,
            elements,
            counters,
        })
    }

    /// Rewrites `f` into its slices.
    fn apply(&self, f: &mut Function) {
        let u32_ty = Type::Scalar(Scalar::U32);
        let span = f.span;
        let n = self.n;
        // Every `block_idx_z()` read becomes `block_idx_z() / N`, then `s` is declared first.
        let originals: Vec<Handle<Expression>> = f
            .exprs
            .iter()
            .filter(|(_, e)| matches!(e.kind, Expr::Builtin(Builtin::BlockIdx(Axis::Z))))
            .map(|(h, _)| h)
            .collect();
        let bid = push(f, Expr::Builtin(Builtin::BlockIdx(Axis::Z)), u32_ty);
        let lit_n = push(f, Expr::Literal(Literal::U32(n)), u32_ty);
        for h in originals {
            f.exprs[h].kind = Expr::Binary {
                op: BinaryOp::Div,
                left: bid,
                right: lit_n,
            };
        }
        let slice_value = push(
            f,
            Expr::Binary {
                op: BinaryOp::Rem,
                left: bid,
                right: lit_n,
            },
            u32_ty,
        );
        let slice = f.locals.append(Local {
            name: "__slice".into(),
            ty: u32_ty,
            mutable: false,
            span,
        });
        let mut body = std::mem::take(&mut f.body);
        let cx = Rewrite { plan: self, slice };
        body = cx.block(f, body);
        body.insert(
            0,
            Statement {
                kind: Stmt::Let {
                    local: slice,
                    init: Some(slice_value),
                },
                span,
            },
        );
        f.body = body;
    }
}

/// The rewriting of [`Plan::apply`].
struct Rewrite<'p> {
    plan: &'p Plan,
    slice: Handle<Local>,
}

impl Rewrite<'_> {
    fn block(&self, f: &mut Function, block: Block) -> Block {
        let mut out = Vec::with_capacity(block.len());
        let mut block = block.into_iter().peekable();
        while let Some(s) = block.next() {
            // A run of `x[k] = zeros()` naming every element a slice can keep (an array's
            // initialisation) sets the slice's one matrix: one zero, no guards.
            if let Some((id, first)) = self.constant_zero(f, &s) {
                let bound = self.plan.elements[&id].bound(self.plan.n);
                let mut named = HashSet::from([first]);
                let mut run = vec![s];
                while let Some(next) = block.peek() {
                    match self.constant_zero(f, next) {
                        Some((same, k)) if same == id => {
                            named.insert(k);
                            run.extend(block.next());
                        }
                        _ => break,
                    }
                }
                if (0..bound).all(|k| named.contains(&k)) {
                    let mut zero = run.swap_remove(0);
                    if let Stmt::Coop(CoopOp::Zero { dst }) = &mut zero.kind {
                        *dst = CoopMatrix {
                            len: 0,
                            index: None,
                            ..*dst
                        };
                    }
                    out.push(zero);
                } else {
                    for s in run {
                        self.statement(f, s, &mut out);
                    }
                }
                continue;
            }
            self.statement(f, s, &mut out);
        }
        out
    }

    /// `s` rewritten, onto `out`.
    fn statement(&self, f: &mut Function, mut s: Statement, out: &mut Block) {
        match s.kind {
            Stmt::Loop {
                body,
                continuing,
                break_if,
            } => {
                let user = match body.get(1).map(|s| &s.kind) {
                    Some(Stmt::Let { local, .. }) if self.plan.counters.contains_key(local) => {
                        Some(*local)
                    }
                    _ => None,
                };
                match user {
                    Some(user) => {
                        // The one iteration: `let i = value;` and the rest of the body.
                        let value = self.sym(f, &self.plan.counters[&user]);
                        out.push(Statement {
                            kind: Stmt::Let {
                                local: user,
                                init: Some(value),
                            },
                            span: body[1].span,
                        });
                        let rest: Block = body.into_iter().skip(2).collect();
                        out.extend(self.block(f, rest));
                    }
                    None => {
                        let body = self.block(f, body);
                        let continuing = self.block(f, continuing);
                        s.kind = Stmt::Loop {
                            body,
                            continuing,
                            break_if,
                        };
                        out.push(s);
                    }
                }
            }
            Stmt::Coop(op) => {
                let mut guard = None;
                let op = op.map_matrices(|m| {
                    if !m.is_array() {
                        return m;
                    }
                    if let Some(i) = m.index {
                        if let Some(k) = literal(f, i) {
                            guard = Some((self.plan.elements[&m.id].clone(), k));
                        }
                    }
                    CoopMatrix {
                        len: 0,
                        index: None,
                        ..m
                    }
                });
                let span = s.span;
                let stmt = Statement {
                    kind: Stmt::Coop(op),
                    span,
                };
                match guard {
                    Some((sym, k)) => {
                        let value = self.sym(f, &sym);
                        let k = push(f, Expr::Literal(Literal::U32(k)), U32);
                        let cond = push(
                            f,
                            Expr::Binary {
                                op: BinaryOp::Eq,
                                left: value,
                                right: k,
                            },
                            Type::Scalar(Scalar::Bool),
                        );
                        out.push(Statement {
                            kind: Stmt::If {
                                cond,
                                accept: vec![stmt],
                                reject: Vec::new(),
                            },
                            span,
                        });
                    }
                    None => out.push(stmt),
                }
            }
            mut kind => {
                for child in kind.child_blocks_mut() {
                    let taken = std::mem::take(child);
                    *child = self.block(f, taken);
                }
                s.kind = kind;
                out.push(s);
            }
        }
    }

    /// The array and element of `s` when it is `x[k] = zeros()` on a sliced array `x`.
    fn constant_zero(&self, f: &Function, s: &Statement) -> Option<(u32, u32)> {
        match &s.kind {
            Stmt::Coop(CoopOp::Zero { dst }) if dst.is_array() => {
                Some((dst.id, literal(f, dst.index?)?))
            }
            _ => None,
        }
    }

    /// `sym` as an expression of the slice.
    fn sym(&self, f: &mut Function, sym: &Sym) -> Handle<Expression> {
        match sym {
            Sym::Slice => push(f, Expr::Local(self.slice), U32),
            Sym::Lit(k) => push(f, Expr::Literal(Literal::U32(*k)), U32),
            Sym::Div(x, k) | Sym::Rem(x, k) => {
                let left = self.sym(f, x);
                let right = push(f, Expr::Literal(Literal::U32(*k)), U32);
                let op = match sym {
                    Sym::Div(..) => BinaryOp::Div,
                    _ => BinaryOp::Rem,
                };
                push(f, Expr::Binary { op, left, right }, U32)
            }
        }
    }
}

const U32: Type = Type::Scalar(Scalar::U32);

fn push(f: &mut Function, kind: Expr, ty: Type) -> Handle<Expression> {
    let span = f.span;
    f.exprs.append(Expression { kind, ty, span })
}

/// Whether `place` is (part of) a buffer element.
fn writes_buffer(place: &Place) -> bool {
    match place {
        Place::Index { .. } => true,
        Place::Local(_) | Place::Shared { .. } => false,
        Place::Field { base, .. } | Place::Element { base, .. } => writes_buffer(base),
    }
}

/// The initial value of every immutable local declared once with one (`let x = e;`), and of
/// the hidden counters of `for` loops.
fn lets(f: &Function) -> HashMap<Handle<Local>, Handle<Expression>> {
    let mut out = HashMap::new();
    visit(&f.body, &mut |s| {
        if let Stmt::Let {
            local,
            init: Some(init),
        } = &s.kind
        {
            out.insert(*local, *init);
        }
    });
    out
}

/// A literal `u32` (or non-negative `i32`) expression's value.
fn literal(f: &Function, e: Handle<Expression>) -> Option<u32> {
    match f.exprs[e].kind {
        Expr::Literal(Literal::U32(k)) => Some(k),
        Expr::Literal(Literal::I32(k)) => u32::try_from(k).ok(),
        _ => None,
    }
}

/// `e`, through reads of immutable locals to their initial value.
fn resolve(
    f: &Function,
    lets: &HashMap<Handle<Local>, Handle<Expression>>,
    mut e: Handle<Expression>,
) -> Handle<Expression> {
    for _ in 0..64 {
        match f.exprs[e].kind {
            Expr::Local(l) if !f.locals[l].mutable => match lets.get(&l) {
                Some(&init) if !matches!(f.exprs[init].kind, Expr::Local(c) if f.locals[c].mutable) => {
                    e = init
                }
                _ => return e,
            },
            _ => return e,
        }
    }
    e
}

/// A literal's value through [`resolve`].
fn constant(
    f: &Function,
    lets: &HashMap<Handle<Local>, Handle<Expression>>,
    e: Handle<Expression>,
) -> Option<u32> {
    literal(f, resolve(f, lets, e))
}

/// Every `for` loop over `0..end` (literal bounds) of `f` with a `u32` counter.
fn for_loops(f: &Function, lets: &HashMap<Handle<Local>, Handle<Expression>>) -> Vec<ForLoop> {
    let mut out = Vec::new();
    visit(&f.body, &mut |s| {
        if let Some(l) = for_loop(f, lets, s) {
            out.push(l);
        }
    });
    out
}

fn for_loop(
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
fn collect(
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

/// Whether indices `x` and `y` are the same expression (through [`resolve`]).
fn same_index(
    f: &Function,
    lets: &HashMap<Handle<Local>, Handle<Expression>>,
    x: Handle<Expression>,
    y: Handle<Expression>,
) -> bool {
    let (x, y) = (resolve(f, lets, x), resolve(f, lets, y));
    if x == y {
        return true;
    }
    match (&f.exprs[x].kind, &f.exprs[y].kind) {
        (Expr::Literal(a), Expr::Literal(b)) => a == b,
        (Expr::Local(a), Expr::Local(b)) => a == b,
        (
            Expr::Binary {
                op: o1,
                left: l1,
                right: r1,
            },
            Expr::Binary {
                op: o2,
                left: l2,
                right: r2,
            },
        ) => o1 == o2 && same_index(f, lets, *l1, *l2) && same_index(f, lets, *r1, *r2),
        _ => false,
    }
}

/// Which element index `e` names when it must equal `sym` (whose values are below
/// `sym.bound(n)`): a constant, or values of loop counters.
fn solve(
    f: &Function,
    lets: &HashMap<Handle<Local>, Handle<Expression>>,
    loops: &HashMap<Handle<Local>, ForLoop>,
    e: Handle<Expression>,
    sym: &Sym,
    n: u32,
) -> Option<Solved> {
    let e = resolve(f, lets, e);
    if literal(f, e).is_some() {
        return Some(Solved::Element);
    }
    let counter = |x: Handle<Expression>| match f.exprs[resolve(f, lets, x)].kind {
        Expr::Local(u) => loops.get(&u).copied(),
        _ => None,
    };
    if let Some(l) = counter(e) {
        return (sym.bound(n) <= l.end).then(|| Solved::Counters(vec![(l.user, sym.clone())]));
    }
    // `K * i + j` (either order of either operation) with `j < K`.
    let Expr::Binary {
        op: BinaryOp::Add,
        left,
        right,
    } = f.exprs[e].kind
    else {
        return None;
    };
    let scaled = |x: Handle<Expression>| -> Option<(ForLoop, u32)> {
        let Expr::Binary {
            op: BinaryOp::Mul,
            left,
            right,
        } = f.exprs[resolve(f, lets, x)].kind
        else {
            return None;
        };
        match (
            counter(left),
            constant(f, lets, right),
            counter(right),
            constant(f, lets, left),
        ) {
            (Some(l), Some(k), _, _) | (_, _, Some(l), Some(k)) => Some((l, k)),
            _ => None,
        }
    };
    let ((outer, k), inner) = match (scaled(left), counter(right), scaled(right), counter(left)) {
        (Some(s), Some(c), _, _) | (_, _, Some(s), Some(c)) => (s, c),
        _ => return None,
    };
    let fits = k > 0 && inner.end == k && sym.bound(n) <= outer.end.saturating_mul(k);
    fits.then(|| {
        Solved::Counters(vec![
            (outer.user, Sym::Div(Box::new(sym.clone()), k)),
            (inner.user, Sym::Rem(Box::new(sym.clone()), k)),
        ])
    })
}

/// The value of index `e` given the counters' values, if it is one of them or a constant.
fn value_of(
    f: &Function,
    lets: &HashMap<Handle<Local>, Handle<Expression>>,
    e: Handle<Expression>,
    counters: &[(Handle<Local>, Sym)],
) -> Option<Sym> {
    let e = resolve(f, lets, e);
    if let Some(k) = literal(f, e) {
        return Some(Sym::Lit(k));
    }
    match f.exprs[e].kind {
        Expr::Local(u) => counters
            .iter()
            .find(|(c, _)| *c == u)
            .map(|(_, s)| s.clone()),
        _ => None,
    }
}

/// Whether every loop of `block` whose counter is in `users` has no effect but on locals it
/// declares and on coop arrays.
fn shortenable(f: &Function, block: &Block, users: &HashSet<Handle<Local>>) -> bool {
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
fn declared(block: &[Statement]) -> HashSet<Handle<Local>> {
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
fn no_effects(
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
fn loop_inner_ok(
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
fn allowed_kind(kind: &Stmt) -> bool {
    matches!(
        kind,
        Stmt::Let { .. } | Stmt::If { .. } | Stmt::Subgroup { .. }
    )
}
