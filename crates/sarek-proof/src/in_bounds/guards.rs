//! What conditions say about the values under them: `if t < s { .. t + s .. }` bounds `t`
//! by `s` inside, and a loop's guard (`loop { if i < n {} else { break; } .. }`, the shape of
//! every `for` loop naga and Sarek write) bounds its counter in the rest of the loop.
//!
//! The walk follows the function's statements in program order and evaluates each emitted
//! expression again with the facts that hold where it is emitted (an expression is emitted
//! once, and naga only lets it be used within that block, so its range there is its range).
//! A fact about an expression holds wherever it is in scope (its value never changes). A fact
//! about a local variable holds for the later loads of that local until a store to it: it is
//! dropped at a store, and before a loop that stores to it anywhere (whose later iterations
//! would see the store), and after an `if` or `switch` that stores to it in a branch.
//!
//! The bounds checks themselves run in the walk too, where each access is emitted, so that
//! they see those facts (`Analysis::within`).

use naga::{BinaryOperator as Op, Block, Expression, Handle, Statement, UnaryOperator};

use super::{full, Analysis, Range};

/// What a fact is about: an expression, or a value that every expression naming it reads
/// alike (an argument or a component of one, such as `local_invocation_id.x`, which WGSL
/// writes anew at each use, or a member of the uniform block, which no invocation changes).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Key {
    /// One expression.
    Expression(Handle<Expression>),
    /// Argument `i` of the function, or its component or member.
    Argument(u32, Option<u32>),
    /// A load of a uniform variable, or of its member.
    Uniform(Handle<naga::GlobalVariable>, Option<u32>),
}

/// What is known where the walk is: facts about values and about locals' later loads.
#[derive(Clone, Default)]
pub(super) struct Facts {
    /// A value is within the range.
    pub(super) values: Vec<(Key, Range)>,
    /// A local's loads (until a store) are within the range.
    pub(super) locals: Vec<(usize, Range)>,
}

impl Analysis<'_> {
    /// Evaluates every emitted expression of the function again under the facts that hold
    /// where it is emitted.
    pub(super) fn refine(&mut self) {
        let body = &self.function.body;
        self.facts = Facts::default();
        self.checked.iter_mut().for_each(|c| *c = None);
        self.store_unproven = false;
        self.walk(body);
        self.facts = Facts::default();
    }

    fn walk(&mut self, block: &Block) {
        let outer = self.facts.clone();
        for statement in block.iter() {
            match statement {
                Statement::Emit(range) => {
                    for h in range.clone() {
                        let r = self.range_of(h);
                        self.ranges[h.index()] = r;
                        if matches!(
                            self.function.expressions[h],
                            Expression::Access { .. } | Expression::CooperativeLoad { .. }
                        ) {
                            self.checked[h.index()] = Some(self.within(h));
                        }
                    }
                }
                Statement::CooperativeStore { target, data } => {
                    if !self.coop_within(*target, data) {
                        self.store_unproven = true;
                    }
                    for v in self.writes(statement) {
                        self.forget_local(v);
                    }
                }
                Statement::Store { .. } | Statement::Call { .. } => {
                    for v in self.writes(statement) {
                        self.forget_local(v);
                    }
                }
                Statement::Block(b) => {
                    self.walk(b);
                    self.forget_stored(b);
                }
                Statement::If {
                    condition,
                    accept,
                    reject,
                } => {
                    // A loop's guard: one branch leaves the loop, the other is empty, so
                    // what the empty branch assumes holds for the rest of the block.
                    if accept.is_empty() && leaves(reject) {
                        self.assume(*condition, true);
                        continue;
                    }
                    if reject.is_empty() && leaves(accept) {
                        self.assume(*condition, false);
                        continue;
                    }
                    let before = self.facts.clone();
                    self.assume(*condition, true);
                    self.walk(accept);
                    self.facts = before.clone();
                    self.assume(*condition, false);
                    self.walk(reject);
                    self.facts = before;
                    self.forget_stored(accept);
                    self.forget_stored(reject);
                }
                Statement::Switch { cases, .. } => {
                    for case in cases {
                        let before = self.facts.clone();
                        self.walk(&case.body);
                        self.facts = before;
                    }
                    for case in cases {
                        self.forget_stored(&case.body);
                    }
                }
                Statement::Loop {
                    body, continuing, ..
                } => {
                    // A later iteration sees every store of the loop: facts about those
                    // locals do not hold anywhere in it.
                    self.forget_stored(body);
                    self.forget_stored(continuing);
                    let before = self.facts.clone();
                    self.walk_loop(body, continuing);
                    self.facts = before;
                }
                _ => {}
            }
        }
        // Facts found in this block (a loop's guard) end with it, and what it stores to
        // makes the facts about those locals' loads stale.
        self.facts = outer;
        self.forget_stored(block);
    }

    /// A loop's body, then its continuing block with the facts of the body's leading guards
    /// (the guards before any other statement: a `continue` comes after them, so they hold
    /// wherever `continuing` is entered from), less those about locals the body stores to.
    fn walk_loop(&mut self, body: &Block, continuing: &Block) {
        let outer = self.facts.clone();
        self.walk(body);
        for statement in body.iter() {
            match statement {
                Statement::Emit(_) => {}
                Statement::If {
                    condition,
                    accept,
                    reject,
                } if accept.is_empty() && leaves(reject) => self.assume(*condition, true),
                Statement::If {
                    condition,
                    accept,
                    reject,
                } if reject.is_empty() && leaves(accept) => self.assume(*condition, false),
                _ => break,
            }
        }
        self.forget_stored(body);
        self.walk(continuing);
        self.facts = outer;
    }

    /// Drops the facts about the loads of every local that `block` stores to (at any depth).
    fn forget_stored(&mut self, block: &Block) {
        let mut stored = Vec::new();
        super::each_statement(block, &mut |s| stored.extend(self.writes(s)));
        self.facts.locals.retain(|(v, _)| !stored.contains(v));
    }

    fn forget_local(&mut self, v: usize) {
        self.facts.locals.retain(|&(w, _)| w != v);
    }

    /// Adds the facts that `condition == truth` gives: for a comparison of two integers, a
    /// bound on each from the other; for `&&` (true) and `||` (false), both sides'; for `!`,
    /// the other truth.
    fn assume(&mut self, condition: Handle<Expression>, truth: bool) {
        match self.function.expressions[condition] {
            Expression::Unary {
                op: UnaryOperator::LogicalNot,
                expr,
            } => self.assume(expr, !truth),
            // A condition is a `bool`, so `&` and `|` in one are the logical operators
            // (Sarek writes them for `&&` and `||` whose right side reads no memory).
            Expression::Binary {
                op: Op::LogicalAnd | Op::And,
                left,
                right,
            } if truth => {
                self.assume(left, true);
                self.assume(right, true);
            }
            Expression::Binary {
                op: Op::LogicalOr | Op::InclusiveOr,
                left,
                right,
            } if !truth => {
                self.assume(left, false);
                self.assume(right, false);
            }
            Expression::Binary { op, left, right } => {
                // `a op b` is true, or its negation is
                let op = match (op, truth) {
                    (Op::Less, true) | (Op::GreaterEqual, false) => Op::Less,
                    (Op::LessEqual, true) | (Op::Greater, false) => Op::LessEqual,
                    (Op::Greater, true) | (Op::LessEqual, false) => Op::Greater,
                    (Op::GreaterEqual, true) | (Op::Less, false) => Op::GreaterEqual,
                    (Op::Equal, true) | (Op::NotEqual, false) => Op::Equal,
                    _ => return,
                };
                let (Some(kind), Some(_)) = (self.int_kind(left), self.int_kind(right)) else {
                    return;
                };
                let (Some(a), Some(b)) = (self.val(left), self.val(right)) else {
                    return;
                };
                if a.is_empty() || b.is_empty() {
                    return;
                }
                let f = full(kind);
                let (on_a, on_b) = match op {
                    // a < b: a ≤ b.hi − 1, b ≥ a.lo + 1
                    Op::Less => (
                        Range {
                            lo: f.lo,
                            hi: b.hi - 1,
                        },
                        Range {
                            lo: a.lo + 1,
                            hi: f.hi,
                        },
                    ),
                    Op::LessEqual => (Range { lo: f.lo, hi: b.hi }, Range { lo: a.lo, hi: f.hi }),
                    Op::Greater => (
                        Range {
                            lo: b.lo + 1,
                            hi: f.hi,
                        },
                        Range {
                            lo: f.lo,
                            hi: a.hi - 1,
                        },
                    ),
                    Op::GreaterEqual => {
                        (Range { lo: b.lo, hi: f.hi }, Range { lo: f.lo, hi: a.hi })
                    }
                    _ => (b, a),
                };
                self.know(left, on_a);
                self.know(right, on_b);
            }
            _ => {}
        }
    }

    /// Records that `h`'s value is within `r` (and, for a load of a local, that its later
    /// loads are, until a store).
    fn know(&mut self, h: Handle<Expression>, r: Range) {
        self.facts.values.push((self.key(h), r));
        if let Expression::Load { pointer } = self.function.expressions[h] {
            if let Expression::LocalVariable(lv) = self.function.expressions[pointer] {
                self.facts.locals.push((lv.index(), r));
            }
        }
    }

    /// `r` narrowed by the facts about expression `h`'s value.
    pub(super) fn with_facts(&self, h: Handle<Expression>, r: Range) -> Range {
        let key = self.key(h);
        self.facts
            .values
            .iter()
            .filter(|(k, _)| *k == key)
            .fold(r, |r, (_, f)| r.intersect(*f))
    }

    /// Whether a fact is known about expression `h`'s value.
    pub(super) fn constrained(&self, h: Handle<Expression>) -> bool {
        let key = self.key(h);
        self.facts.values.iter().any(|(k, _)| *k == key)
    }

    /// What a fact about expression `h` is about.
    fn key(&self, h: Handle<Expression>) -> Key {
        let exprs = &self.function.expressions;
        let uniform = |g: Handle<naga::GlobalVariable>| {
            self.module.global_variables[g].space == naga::AddressSpace::Uniform
        };
        match exprs[h] {
            Expression::FunctionArgument(i) => Key::Argument(i, None),
            Expression::AccessIndex { base, index } => match exprs[base] {
                Expression::FunctionArgument(i) => Key::Argument(i, Some(index)),
                _ => Key::Expression(h),
            },
            Expression::Load { pointer } => match exprs[pointer] {
                Expression::GlobalVariable(g) if uniform(g) => Key::Uniform(g, None),
                Expression::AccessIndex { base, index } => match exprs[base] {
                    Expression::GlobalVariable(g) if uniform(g) => Key::Uniform(g, Some(index)),
                    _ => Key::Expression(h),
                },
                _ => Key::Expression(h),
            },
            _ => Key::Expression(h),
        }
    }

    /// `r` narrowed by the facts about the loads of local `v`.
    pub(super) fn with_local_facts(&self, v: usize, r: Range) -> Range {
        self.facts
            .locals
            .iter()
            .filter(|(w, _)| *w == v)
            .fold(r, |r, (_, f)| r.intersect(*f))
    }
}

/// Whether `block` is a lone `break` (the other branch of a loop's guard).
fn leaves(block: &Block) -> bool {
    block.len() == 1 && matches!(block.last(), Some(Statement::Break))
}
