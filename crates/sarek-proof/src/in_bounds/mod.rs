//! Which entry points need no index clamps: an interval analysis over the naga module of a
//! kernel's WGSL, at compile time.
//!
//! naga's `Restrict` policy clamps every index into a workgroup, local or value array, vector
//! or matrix that it cannot see is in bounds (`min(i, len - 1)`), which is what keeps those
//! accesses memory-safe; buffers are kept safe by the driver's robust buffer access on Vulkan
//! instead. The clamps cost: on the H200 the f16 row ran 3% faster without them (BENCHMARKS.md,
//! "Index clamps"). This module proves, for each entry point, that every such index is in
//! bounds anyway (and that every cooperative-matrix load or store from a workgroup or local
//! array stays within it, which naga's clamp of the start alone would not ensure), so that the
//! runtime may ask wgpu for the module without the clamps (`sarek-rt`'s `launch/unclamped.rs`).
//! Where anything is not proven, the entry point keeps naga's clamps: the analysis is only ever
//! a way to drop a check, never a reason to change a result.
//!
//! The ranges are intervals of mathematical integers for `u32` and `i32` expressions, from
//! literals, constants, the workgroup's builtins (`local_invocation_index` is below the
//! workgroup size, a subgroup's invocation id below 128), and arithmetic that cannot wrap
//! (`+`, `-`, `*`, `/`, `%`, `&`, `|`, `^`, shifts, `min`, `max`, `clamp`, `select`, casts
//! between `u32` and `i32` of ranges both hold). A local variable's range is the union of its
//! initial value and everything stored to it, found by iterating to a fixed point; one still
//! growing after a few rounds (a loop counter) is unknown. Function arguments of helpers, call
//! results, loads from memory and anything else are unknown.

use naga::{
    proc::{BoundsCheckPolicies, BoundsCheckPolicy, IndexableLength},
    valid::{FunctionInfo, ModuleInfo},
    BinaryOperator as BinaryOp, Binding, BuiltIn, Expression, Function, Handle, Literal,
    MathFunction, Module, ScalarKind, Statement, TypeInner,
};

/// An interval of integers, both ends included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Range {
    lo: i128,
    hi: i128,
}

/// The values of a 32-bit integer type.
fn full(kind: ScalarKind) -> Range {
    match kind {
        ScalarKind::Sint => Range {
            lo: i32::MIN as i128,
            hi: i32::MAX as i128,
        },
        _ => Range {
            lo: 0,
            hi: u32::MAX as i128,
        },
    }
}

impl Range {
    /// No values (yet): what a local starts from while its range is being found.
    const EMPTY: Range = Range { lo: 1, hi: 0 };

    fn is_empty(self) -> bool {
        self.lo > self.hi
    }

    fn exact(v: i128) -> Range {
        Range { lo: v, hi: v }
    }

    /// The values in both (empty if none).
    fn intersect(self, other: Range) -> Range {
        Range {
            lo: self.lo.max(other.lo),
            hi: self.hi.min(other.hi),
        }
    }

    fn union(self, other: Range) -> Range {
        if self.is_empty() {
            return other;
        }
        if other.is_empty() {
            return self;
        }
        Range {
            lo: self.lo.min(other.lo),
            hi: self.hi.max(other.hi),
        }
    }

    /// `self` when every value fits `kind` (the operation that made it did not wrap).
    fn fits(self, kind: ScalarKind) -> Option<Range> {
        let f = full(kind);
        (self.lo >= f.lo && self.hi <= f.hi).then_some(self)
    }

    fn nonnegative(self) -> bool {
        self.lo >= 0
    }
}

/// The smallest `2^k - 1` at or above `v` (for `v >= 0`).
fn ones_above(v: i128) -> i128 {
    let mut m = 0i128;
    while m < v {
        m = m * 2 + 1;
    }
    m
}

/// The entry points of `module` (validated, with `info`) in which every index that naga's
/// `index` policy would clamp is proven in bounds, as is every cooperative-matrix load and
/// store from a workgroup or local array, and every helper function of the module too (the
/// runtime gives wgpu the shared text with one entry point, so helpers count for all).
pub fn unclamped_entry_points(module: &Module, info: &ModuleInfo) -> Vec<String> {
    let helpers_proven = module
        .functions
        .iter()
        .all(|(h, f)| Analysis::new(module, f, &info[h], None).proven());
    if !helpers_proven {
        return Vec::new();
    }
    module
        .entry_points
        .iter()
        .enumerate()
        .filter(|(i, ep)| {
            // a size set by overrides is not known here
            let size = ep
                .workgroup_size_overrides
                .is_none()
                .then_some(ep.workgroup_size);
            size.is_some()
                && Analysis::new(module, &ep.function, info.get_entry_point(*i), size).proven()
        })
        .map(|(_, ep)| ep.name.clone())
        .collect()
}

/// The ranges of one function's expressions.
struct Analysis<'a> {
    module: &'a Module,
    function: &'a Function,
    info: &'a FunctionInfo,
    /// The entry point's workgroup size; `None` for a helper (its arguments are unknown).
    workgroup: Option<[u32; 3]>,
    /// Each expression's range, where it is a proven `u32`/`i32` interval.
    ranges: Vec<Option<Range>>,
    /// Each local variable's range so far (`None`: not an integer scalar, or unknown).
    locals: Vec<Option<Range>>,
    /// What the conditions around the statement being walked say (`guards.rs`).
    facts: guards::Facts,
    /// Each access and cooperative load as the last walk checked it where it is emitted.
    checked: Vec<Option<bool>>,
    /// Whether the last walk found a cooperative store it could not prove within its array.
    store_unproven: bool,
}

impl<'a> Analysis<'a> {
    fn new(
        module: &'a Module,
        function: &'a Function,
        info: &'a FunctionInfo,
        workgroup: Option<[u32; 3]>,
    ) -> Analysis<'a> {
        let mut a = Analysis {
            module,
            function,
            info,
            workgroup,
            ranges: vec![None; function.expressions.len()],
            locals: vec![None; function.local_variables.len()],
            facts: guards::Facts::default(),
            checked: vec![None; function.expressions.len()],
            store_unproven: false,
        };
        a.solve();
        a
    }

    /// The integer kind of expression `h`'s type, when it is a 32-bit integer scalar.
    fn int_kind(&self, h: Handle<Expression>) -> Option<ScalarKind> {
        match *self.info[h].ty.inner_with(&self.module.types) {
            TypeInner::Scalar(s) if s.width == 4 => match s.kind {
                ScalarKind::Uint | ScalarKind::Sint => Some(s.kind),
                _ => None,
            },
            _ => None,
        }
    }

    /// Iterates the local variables' ranges to a fixed point: each is the union of its initial
    /// value (zero without one) and every value stored to it. Each starts empty and only
    /// grows. After `ROUNDS` rounds a bound that still moves is widened to its type's extreme
    /// (a counter's upper bound, a halving's lower one), so it cannot move again; after twice
    /// as many, a local still changing becomes unknown, which absorbs. So the iteration ends,
    /// and it ends only when evaluating the expressions with the locals' ranges gives the same
    /// ranges back: every stored value is then covered.
    fn solve(&mut self) {
        const ROUNDS: usize = 6;
        let mut stores: Vec<(usize, Handle<Expression>)> = Vec::new();
        let mut escaped = vec![false; self.locals.len()];
        self.collect(&self.function.body, &mut stores, &mut escaped);
        let kinds: Vec<Option<ScalarKind>> = self
            .function
            .local_variables
            .iter()
            .enumerate()
            .map(|(i, (_, v))| match self.module.types[v.ty].inner {
                TypeInner::Scalar(s)
                    if s.width == 4
                        && matches!(s.kind, ScalarKind::Uint | ScalarKind::Sint)
                        && !escaped[i] =>
                {
                    Some(s.kind)
                }
                _ => None,
            })
            .collect();
        let mut current: Vec<Option<Range>> =
            kinds.iter().map(|k| k.map(|_| Range::EMPTY)).collect();
        let mut round = 0;
        loop {
            self.locals = current.clone();
            self.evaluate();
            let mut next: Vec<Option<Range>> = self
                .function
                .local_variables
                .iter()
                .enumerate()
                .map(|(i, (_, v))| {
                    current[i]?;
                    match v.init {
                        Some(e) => self.get(e),
                        None => Some(Range::exact(0)),
                    }
                })
                .collect();
            for &(i, value) in &stores {
                next[i] = match (next[i], self.get(value)) {
                    (Some(a), Some(b)) => Some(a.union(b)),
                    _ => None,
                };
            }
            if next == current {
                break;
            }
            round += 1;
            for ((n, c), kind) in next.iter_mut().zip(&current).zip(&kinds) {
                if n == c {
                    continue;
                }
                match (*n, *c, kind) {
                    _ if round >= 2 * ROUNDS => *n = None,
                    (Some(nr), Some(cr), Some(kind)) if round >= ROUNDS && !cr.is_empty() => {
                        let f = full(*kind);
                        *n = Some(Range {
                            lo: if nr.lo < cr.lo { f.lo } else { nr.lo },
                            hi: if nr.hi > cr.hi { f.hi } else { nr.hi },
                        });
                    }
                    _ => {}
                }
            }
            current = next;
        }
    }

    /// Every store to a local variable (its index, the stored value), and which locals are
    /// written otherwise (through a call's pointer argument, by a cooperative store).
    fn collect(
        &self,
        block: &naga::Block,
        stores: &mut Vec<(usize, Handle<Expression>)>,
        escaped: &mut [bool],
    ) {
        each_statement(block, &mut |statement| match statement {
            Statement::Store { value, .. } => {
                stores.extend(self.writes(statement).into_iter().map(|v| (v, *value)))
            }
            _ => self
                .writes(statement)
                .into_iter()
                .for_each(|v| escaped[v] = true),
        });
    }

    /// The locals `statement` itself writes: by a store, through a call's pointer argument,
    /// by a cooperative store.
    fn writes(&self, statement: &Statement) -> Vec<usize> {
        let local = |h: Handle<Expression>| match self.function.expressions[h] {
            Expression::LocalVariable(lv) => Some(lv.index()),
            _ => None,
        };
        match statement {
            Statement::Store { pointer, .. } => local(*pointer).into_iter().collect(),
            Statement::Call { arguments, .. } => {
                arguments.iter().filter_map(|&a| local(a)).collect()
            }
            Statement::CooperativeStore { data, .. } => local(data.pointer).into_iter().collect(),
            _ => Vec::new(),
        }
    }

    /// Every expression's range, in arena order (an expression's operands precede it), then
    /// each emitted one again under the conditions it is emitted under (`guards.rs`).
    fn evaluate(&mut self) {
        for (h, _) in self.function.expressions.iter() {
            let r = self.range_of(h);
            self.ranges[h.index()] = r;
        }
        self.refine();
    }

    /// What is known of `h` here: its range narrowed by the facts about it (which also give a
    /// range to an expression otherwise unknown).
    fn get(&self, h: Handle<Expression>) -> Option<Range> {
        let base = self.ranges.get(h.index()).copied().flatten();
        let constrained = self.constrained(h);
        match (base, constrained) {
            (Some(r), _) => Some(self.with_facts(h, r)),
            (None, true) => Some(self.with_facts(h, full(self.int_kind(h)?))),
            (None, false) => None,
        }
    }

    /// The range of integer expression `h` as an operand: what is known of it, else all the
    /// values of its type (`None` only when it is not a 32-bit integer).
    fn val(&self, h: Handle<Expression>) -> Option<Range> {
        let kind = self.int_kind(h)?;
        Some(self.get(h).unwrap_or_else(|| full(kind)))
    }

    /// The range of a builtin argument's value (component `component` of a vector one).
    fn builtin(&self, binding: &Option<Binding>, component: Option<u32>) -> Option<Range> {
        let wg = self.workgroup?;
        let total = wg.iter().map(|&d| d as i128).product::<i128>();
        let upto = |n: i128| Some(Range { lo: 0, hi: n - 1 });
        match (binding.as_ref()?, component) {
            (Binding::BuiltIn(BuiltIn::LocalInvocationIndex), None) => upto(total),
            (Binding::BuiltIn(BuiltIn::LocalInvocationId), Some(c)) if c < 3 => {
                upto(wg[c as usize] as i128)
            }
            (Binding::BuiltIn(BuiltIn::SubgroupInvocationId), None) => upto(128),
            (Binding::BuiltIn(BuiltIn::SubgroupSize), None) => Some(Range { lo: 1, hi: 128 }),
            (Binding::BuiltIn(BuiltIn::SubgroupId), None) => upto(total),
            (Binding::BuiltIn(BuiltIn::NumSubgroups), None) => Some(Range { lo: 1, hi: total }),
            _ => None,
        }
    }

    /// The builtin binding of argument `i`, or of member `member` of a struct argument.
    fn argument_binding(&self, i: u32, member: Option<u32>) -> Option<(Option<Binding>, bool)> {
        let arg = self.function.arguments.get(i as usize)?;
        match (member, &self.module.types[arg.ty].inner) {
            (Some(m), TypeInner::Struct { members, .. }) => {
                Some((members.get(m as usize)?.binding.clone(), false))
            }
            (_, _) => Some((arg.binding.clone(), true)),
        }
    }

    /// The range of `h` from its operands' ranges: unknown if one is unknown, empty (no values
    /// yet) if one is empty.
    fn range_of(&self, h: Handle<Expression>) -> Option<Range> {
        let mut operands = Vec::new();
        match self.function.expressions[h] {
            Expression::Select { accept, reject, .. } => operands.extend([accept, reject]),
            Expression::As { expr, .. } => operands.push(expr),
            Expression::Math {
                arg, arg1, arg2, ..
            } => operands.extend([Some(arg), arg1, arg2].into_iter().flatten()),
            Expression::Binary { left, right, .. } => operands.extend([left, right]),
            _ => {}
        }
        for &o in &operands {
            // an operand that is not an integer (a `select`'s condition is not listed) or is
            // unknown leaves the result to the rules below, which give `None` for it
            if self.int_kind(o).is_some() && self.get(o).is_some_and(Range::is_empty) {
                return self.int_kind(h).map(|_| Range::EMPTY);
            }
        }
        self.range_of_operands(h)
    }

    fn range_of_operands(&self, h: Handle<Expression>) -> Option<Range> {
        let kind = self.int_kind(h)?;
        let e = &self.function.expressions[h];
        match *e {
            Expression::Literal(Literal::U32(v)) => Some(Range::exact(v as i128)),
            Expression::Literal(Literal::I32(v)) => Some(Range::exact(v as i128)),
            Expression::ZeroValue(_) => Some(Range::exact(0)),
            Expression::Constant(c) => {
                match self.module.global_expressions[self.module.constants[c].init] {
                    Expression::Literal(Literal::U32(v)) => Some(Range::exact(v as i128)),
                    Expression::Literal(Literal::I32(v)) => Some(Range::exact(v as i128)),
                    Expression::ZeroValue(_) => Some(Range::exact(0)),
                    _ => None,
                }
            }
            Expression::FunctionArgument(i) => {
                let (binding, _) = self.argument_binding(i, None)?;
                self.builtin(&binding, None)
            }
            Expression::AccessIndex { base, index } => match self.function.expressions[base] {
                Expression::FunctionArgument(i) => {
                    let (binding, whole) = self.argument_binding(i, Some(index))?;
                    match whole {
                        // a component of a vector builtin (`local_invocation_id.x`)
                        true => self.builtin(&binding, Some(index)),
                        // a member of a struct of builtins
                        false => self.builtin(&binding, None),
                    }
                }
                _ => None,
            },
            Expression::Load { pointer } => match self.function.expressions[pointer] {
                // (empty while the local's range is being found; narrowed by what a guard
                // says of its loads)
                Expression::LocalVariable(lv) => {
                    let v = lv.index();
                    let known = self.locals.get(v).copied().flatten();
                    let guarded = self.facts.locals.iter().any(|(w, _)| *w == v);
                    match (known, guarded) {
                        (Some(r), _) => Some(self.with_local_facts(v, r)),
                        (None, true) => Some(self.with_local_facts(v, full(kind))),
                        (None, false) => None,
                    }
                }
                _ => None,
            },
            Expression::Select { accept, reject, .. } => {
                Some(self.val(accept)?.union(self.val(reject)?))
            }
            Expression::As {
                expr,
                kind: to,
                convert,
            } => {
                // between u32 and i32 (a reinterpretation, or a conversion of equal width):
                // the same values when they fit both
                if convert.is_some_and(|w| w != 4) || self.int_kind(expr).is_none() {
                    return None;
                }
                self.val(expr)?.fits(to)
            }
            Expression::Math {
                fun,
                arg,
                arg1,
                arg2,
                ..
            } => {
                let a = self.val(arg)?;
                match fun {
                    MathFunction::Min => {
                        let b = self.val(arg1?)?;
                        Some(Range {
                            lo: a.lo.min(b.lo),
                            hi: a.hi.min(b.hi),
                        })
                    }
                    MathFunction::Max => {
                        let b = self.val(arg1?)?;
                        Some(Range {
                            lo: a.lo.max(b.lo),
                            hi: a.hi.max(b.hi),
                        })
                    }
                    MathFunction::Clamp => {
                        // WGSL: min(max(e, low), high)
                        let (l, u) = (self.val(arg1?)?, self.val(arg2?)?);
                        let m = Range {
                            lo: a.lo.max(l.lo),
                            hi: a.hi.max(l.hi),
                        };
                        Some(Range {
                            lo: m.lo.min(u.lo),
                            hi: m.hi.min(u.hi),
                        })
                    }
                    _ => None,
                }
            }
            Expression::Binary { op, left, right } => {
                let (a, b) = (self.val(left)?, self.val(right)?);
                binary(op, a, b, kind)
            }
            _ => None,
        }
    }

    /// Whether every clamped index of the function is proven in bounds: each access and
    /// cooperative load as the last walk (`guards.rs`) checked it where it is emitted, under
    /// the conditions there (one never emitted: without them), and every cooperative store.
    fn proven(&self) -> bool {
        !self.store_unproven
            && self.function.expressions.iter().all(|(h, e)| match e {
                Expression::Access { .. } | Expression::CooperativeLoad { .. } => {
                    self.checked[h.index()].unwrap_or_else(|| self.within(h))
                }
                _ => true,
            })
    }

    /// Whether expression `h`, an access naga's `index` policy governs or a cooperative load,
    /// stays within its array with what is known here (true for anything else).
    fn within(&self, h: Handle<Expression>) -> bool {
        let policies = BoundsCheckPolicies {
            index: BoundsCheckPolicy::Restrict,
            buffer: BoundsCheckPolicy::Unchecked,
            image_load: BoundsCheckPolicy::Unchecked,
            binding_array: BoundsCheckPolicy::Unchecked,
        };
        match self.function.expressions[h] {
            Expression::Access { base, index } => {
                if policies.choose_policy(base, &self.module.types, self.info)
                    != BoundsCheckPolicy::Restrict
                {
                    return true;
                }
                // (naga's own `access_needs_check` unwraps this length; a module with an array
                // sized by an override would panic there, and the macro never does)
                let base_type = self.info[base].ty.inner_with(&self.module.types);
                match base_type.indexable_length_resolved(self.module) {
                    Ok(IndexableLength::Known(len)) => self
                        .get(index)
                        .is_some_and(|r| !r.is_empty() && r.lo >= 0 && r.hi < len as i128),
                    _ => false,
                }
            }
            Expression::CooperativeLoad { ref data, .. } => self.coop_within(h, data),
            _ => true,
        }
    }

    /// Whether the matrix `matrix` (its type gives the size and element) loaded from or
    /// stored to `data.pointer` with `data.stride` stays within the array the pointer indexes,
    /// when that array is one naga's `index` policy covers (buffers are the driver's).
    fn coop_within(&self, matrix: Handle<Expression>, data: &naga::CooperativeData) -> bool {
        let types = &self.module.types;
        let space = match *self.info[data.pointer].ty.inner_with(types) {
            TypeInner::Pointer { space, .. } | TypeInner::ValuePointer { space, .. } => space,
            _ => return false,
        };
        if matches!(
            space,
            naga::AddressSpace::Storage { .. } | naga::AddressSpace::Uniform
        ) {
            return true;
        }
        let (n, matrix_bytes) = match *self.info[matrix].ty.inner_with(types) {
            TypeInner::CooperativeMatrix {
                columns,
                rows,
                scalar,
                ..
            } => ((columns as i128).max(rows as i128), scalar.width as i128),
            _ => return false,
        };
        let (base, start) = match self.function.expressions[data.pointer] {
            Expression::Access { base, index } => (base, self.get(index)),
            Expression::AccessIndex { base, index } => (base, Some(Range::exact(index as i128))),
            _ => return false,
        };
        let (len, element_bytes) = match *self.info[base].ty.inner_with(types) {
            TypeInner::Pointer { base: array, .. } => match types[array].inner {
                TypeInner::Array {
                    base: element,
                    size: naga::ArraySize::Constant(len),
                    ..
                } => match types[element].inner {
                    TypeInner::Scalar(s) => (len.get() as i128, s.width as i128),
                    TypeInner::Vector { size, scalar } => {
                        (len.get() as i128, size as i128 * scalar.width as i128)
                    }
                    _ => return false,
                },
                _ => return false,
            },
            _ => return false,
        };
        let (Some(start), Some(stride)) = (start, self.get(data.stride)) else {
            return false;
        };
        // n lines of n elements, `stride` array elements apart; a line spans
        // ceil(n · element size of the matrix / size of the array's element) elements.
        let span = (n * matrix_bytes + element_bytes - 1) / element_bytes;
        !start.is_empty()
            && !stride.is_empty()
            && start.lo >= 0
            && stride.lo >= 0
            && start.hi + (n - 1) * stride.hi + span <= len
    }
}

/// Calls `f` on every statement of `block`, and of the blocks within them, in order.
fn each_statement(block: &naga::Block, f: &mut impl FnMut(&Statement)) {
    for statement in block.iter() {
        f(statement);
        match statement {
            Statement::Block(b) => each_statement(b, f),
            Statement::If { accept, reject, .. } => {
                each_statement(accept, f);
                each_statement(reject, f);
            }
            Statement::Switch { cases, .. } => {
                for case in cases {
                    each_statement(&case.body, f);
                }
            }
            Statement::Loop {
                body, continuing, ..
            } => {
                each_statement(body, f);
                each_statement(continuing, f);
            }
            _ => {}
        }
    }
}

/// The range of `a op b` for 32-bit integers of `kind`, when the operation cannot wrap.
fn binary(op: BinaryOp, a: Range, b: Range, kind: ScalarKind) -> Option<Range> {
    let corners = |f: fn(i128, i128) -> i128| {
        let v = [f(a.lo, b.lo), f(a.lo, b.hi), f(a.hi, b.lo), f(a.hi, b.hi)];
        Range {
            lo: *v.iter().min().unwrap_or(&0),
            hi: *v.iter().max().unwrap_or(&0),
        }
    };
    match op {
        BinaryOp::Add => Range {
            lo: a.lo + b.lo,
            hi: a.hi + b.hi,
        }
        .fits(kind),
        BinaryOp::Subtract => Range {
            lo: a.lo - b.hi,
            hi: a.hi - b.lo,
        }
        .fits(kind),
        BinaryOp::Multiply => corners(|x, y| x * y).fits(kind),
        // Non-negative operands only (WGSL: `x / 0 == x`, `x % 0 == 0`, so the result of
        // a non-negative `x` stays within [0, x] whatever `b`).
        BinaryOp::Divide if a.nonnegative() && b.nonnegative() => Some(match b.lo {
            0 => Range { lo: 0, hi: a.hi },
            lo => Range {
                lo: a.lo / b.hi,
                hi: a.hi / lo,
            },
        }),
        BinaryOp::Modulo if a.nonnegative() && b.nonnegative() => Some(if b.lo > a.hi {
            a
        } else {
            Range {
                lo: 0,
                hi: if b.lo == 0 { a.hi } else { a.hi.min(b.hi - 1) },
            }
        }),
        BinaryOp::And if a.nonnegative() && b.nonnegative() => Some(Range {
            lo: 0,
            hi: a.hi.min(b.hi),
        }),
        BinaryOp::InclusiveOr | BinaryOp::ExclusiveOr if a.nonnegative() && b.nonnegative() => {
            Range {
                lo: 0,
                hi: ones_above(a.hi.max(b.hi)),
            }
            .fits(kind)
        }
        // WGSL takes a run-time shift amount modulo 32; only amounts known below 32 here.
        BinaryOp::ShiftRight if a.nonnegative() && b.lo >= 0 && b.hi < 32 => Some(Range {
            lo: a.lo >> b.hi,
            hi: a.hi >> b.lo,
        }),
        BinaryOp::ShiftLeft if a.nonnegative() && b.lo >= 0 && b.hi < 32 => Range {
            lo: a.lo << b.lo,
            hi: a.hi << b.hi,
        }
        .fits(kind),
        _ => None,
    }
}

mod guards;
#[cfg(test)]
mod tests;
