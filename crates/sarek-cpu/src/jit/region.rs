//! A workgroup's structure: the loop over its invocations, and for kernels with barriers the
//! split into segments between barriers (POCL's regions). A segment runs for each invocation
//! in turn; a control statement that holds a barrier runs once for the workgroup, on the
//! values of invocation 0 (the uniformity check keeps barriers in uniform control flow, so
//! every invocation agrees); locals that live across segments stay in each invocation's
//! frame.

use std::collections::BTreeSet;

use cranelift_codegen::ir::{condcodes::IntCC, types, Block, InstBuilder, Value};
use cranelift_frontend::Variable;

use super::control::Level;
use super::effects::Writes;
use super::gen::{cl_type, flags, Cg, Gen, Home, LoopTarget};
use super::Unsupported;
use crate::arena::Handle;
use crate::ir::{
    AtomicTarget, Barrier, Expr, Expression, Function, Kernel, Place, Statement, Stmt, Type,
};

/// Whether a statement holds a barrier (or a `workgroup_uniform_load`, which is one).
pub(super) fn has_barrier(k: &Kernel, s: &Statement) -> bool {
    match &s.kind {
        Stmt::Barrier(_) | Stmt::UniformLoad { .. } | Stmt::Subgroup { .. } | Stmt::Coop(_) => true,
        Stmt::If { accept, reject, .. } => any_barrier(k, accept) || any_barrier(k, reject),
        Stmt::Loop {
            body, continuing, ..
        } => any_barrier(k, body) || any_barrier(k, continuing),
        Stmt::Switch { cases, default, .. } => {
            cases.iter().any(|c| any_barrier(k, &c.body)) || any_barrier(k, default)
        }
        Stmt::Call { function, .. } => k
            .functions
            .get(function.0 as usize)
            .is_some_and(|f| any_barrier(k, &f.body)),
        _ => false,
    }
}

/// Whether a block holds a `return` of the function it is in.
pub(super) fn any_return(block: &[Statement]) -> bool {
    block.iter().any(|s| match &s.kind {
        Stmt::Return(_) => true,
        Stmt::If { accept, reject, .. } => any_return(accept) || any_return(reject),
        Stmt::Loop {
            body, continuing, ..
        } => any_return(body) || any_return(continuing),
        Stmt::Switch { cases, default, .. } => {
            cases.iter().any(|c| any_return(&c.body)) || any_return(default)
        }
        _ => false,
    })
}

/// Whether a block holds a barrier.
pub(super) fn any_barrier(k: &Kernel, block: &[Statement]) -> bool {
    block.iter().any(|s| has_barrier(k, s))
}

/// The locals of `f` that `block` names (reads, writes and declarations).
pub(super) fn locals_of(f: &Function, block: &[&Statement], out: &mut BTreeSet<usize>) {
    for s in block {
        stmt_locals(f, s, out);
    }
}

fn stmt_locals(f: &Function, s: &Statement, out: &mut BTreeSet<usize>) {
    let e = |h: &Handle<Expression>, out: &mut BTreeSet<usize>| expr_locals(f, *h, out);
    let blk = |b: &[Statement], out: &mut BTreeSet<usize>| {
        for s in b {
            stmt_locals(f, s, out);
        }
    };
    match &s.kind {
        Stmt::Let { local, init } => {
            out.insert(local.index());
            if let Some(i) = init {
                e(i, out);
            }
        }
        Stmt::Assign { place, value, .. } => {
            place_locals(f, place, out);
            e(value, out);
        }
        Stmt::If {
            cond,
            accept,
            reject,
        } => {
            e(cond, out);
            blk(accept, out);
            blk(reject, out);
        }
        Stmt::Loop {
            body,
            continuing,
            break_if,
        } => {
            blk(body, out);
            blk(continuing, out);
            if let Some(c) = break_if {
                e(c, out);
            }
        }
        Stmt::Return(Some(v)) => e(v, out),
        Stmt::Switch {
            selector,
            cases,
            default,
        } => {
            e(selector, out);
            for c in cases {
                blk(&c.body, out);
            }
            blk(default, out);
        }
        Stmt::Call { args, result, .. } => {
            args.iter().for_each(|a| e(a, out));
            if let Some(r) = result {
                out.insert(r.index());
            }
        }
        Stmt::Subgroup { args, result, .. } => {
            args.iter().for_each(|a| e(a, out));
            out.insert(result.index());
        }
        Stmt::UniformLoad {
            indices, result, ..
        } => {
            indices.iter().for_each(|a| e(a, out));
            out.insert(result.index());
        }
        Stmt::Coop(op) => op.exprs().iter().for_each(|a| e(a, out)),
        Stmt::Atomic {
            target,
            value,
            result,
            ..
        } => {
            target_locals(f, target, out);
            if let Some(v) = value {
                e(v, out);
            }
            if let Some(r) = result {
                out.insert(r.index());
            }
        }
        Stmt::CompareExchange {
            target,
            compare,
            value,
            old,
            exchanged,
        } => {
            target_locals(f, target, out);
            e(compare, out);
            e(value, out);
            out.insert(old.index());
            out.insert(exchanged.index());
        }
        _ => {}
    }
}

fn target_locals(f: &Function, t: &AtomicTarget, out: &mut BTreeSet<usize>) {
    match t {
        AtomicTarget::Buffer { index, .. } => expr_locals(f, *index, out),
        AtomicTarget::Shared { indices, .. } => {
            indices.iter().for_each(|i| expr_locals(f, *i, out))
        }
    }
}

fn place_locals(f: &Function, p: &Place, out: &mut BTreeSet<usize>) {
    match p {
        Place::Local(l) => {
            out.insert(l.index());
        }
        Place::Index { index, .. } => expr_locals(f, *index, out),
        Place::Shared { indices, .. } => indices.iter().for_each(|i| expr_locals(f, *i, out)),
        Place::Field { base, .. } => place_locals(f, base, out),
        Place::Element { base, index } => {
            place_locals(f, base, out);
            expr_locals(f, *index, out);
        }
    }
}

/// The locals an expression reads.
pub(super) fn expr_locals(f: &Function, h: Handle<Expression>, out: &mut BTreeSet<usize>) {
    let mut go = |h: &Handle<Expression>| expr_locals(f, *h, out);
    match &f.exprs[h].kind {
        Expr::Local(l) => {
            out.insert(l.index());
        }
        Expr::Index { index, .. } => go(index),
        Expr::Unary { expr, .. } | Expr::Cast { expr, .. } => go(expr),
        Expr::Binary { left, right, .. } => {
            go(left);
            go(right);
        }
        Expr::Select {
            cond,
            accept,
            reject,
        } => {
            go(cond);
            go(accept);
            go(reject);
        }
        Expr::SharedIndex { indices, .. } => indices.iter().for_each(go),
        Expr::Math { args, .. } => args.iter().for_each(go),
        Expr::Field { base, .. } => go(base),
        Expr::Access { base, index } => {
            go(base);
            go(index);
        }
        Expr::Compose { components, .. } => components.iter().for_each(go),
        _ => {}
    }
}

/// A loop counting invocations (or groups of them) of the workgroup, opened by
/// [`Cg::open_count`] and closed by [`Cg::close_count`].
pub(super) struct Count {
    /// The counter (an `i32`).
    pub var: Variable,
    /// Its value in the trip being generated.
    pub iv: Value,
    /// The loop's test.
    head: Block,
    /// The trip's end, where every trip jumps to go on with the next.
    pub next: Block,
}

impl<'a> Cg<'a, '_> {
    /// Opens a loop of a counter from `start` while `more(counter)` (an `i8`, computed at each
    /// test), leaving it for `exit`; the trip is generated in the current block next.
    pub(super) fn open_count(
        &mut self,
        start: Value,
        exit: Block,
        more: impl FnOnce(&mut Self, Value) -> Value,
    ) -> Count {
        let var = self.b.declare_var(types::I32);
        self.b.def_var(var, start);
        let (head, run, next) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        self.b.ins().jump(head, &[]);
        self.b.switch_to_block(head);
        let iv = self.b.use_var(var);
        let go = more(self, iv);
        self.b.ins().brif(go, run, &[], exit, &[]);
        self.b.switch_to_block(run);
        Count {
            var,
            iv,
            head,
            next,
        }
    }

    /// Closes the loop `c` (every trip has jumped to `c.next`): adds `step` to the counter and
    /// tests again.
    pub(super) fn close_count(&mut self, c: Count, step: i64) {
        self.b.switch_to_block(c.next);
        let iv = self.b.use_var(c.var);
        let inc = self.b.ins().iadd_imm_s(iv, step);
        self.b.def_var(c.var, inc);
        self.b.ins().jump(c.head, &[]);
    }

    /// The memory that `stmts` (helpers followed) may write.
    pub(super) fn writes_of(&self, stmts: &[&Statement]) -> Writes {
        let mut writes = Writes::default();
        for s in stmts {
            super::effects::block(self.k, std::slice::from_ref(*s), &mut writes);
        }
        writes
    }

    /// Starts a segment that writes at most `writes`: workgroup memory's address is loaded
    /// here, so that loads from it stay in the segment. Returns the segment to restore at its
    /// end.
    pub(super) fn open_segment(&mut self, writes: Writes) -> Option<(Value, Writes)> {
        let off = std::mem::offset_of!(super::native::Ctx, shared) as i32;
        let base = self.b.ins().load(types::I64, flags(), self.c.ctx, off);
        self.segment.replace((base, writes))
    }

    /// Runs the statements `stmts` once per invocation of the workgroup, with `thread`,
    /// `invocation` and (with barriers) the frame set. With barriers, an invocation that has
    /// returned is skipped, and the entry's register locals in `load` are loaded from its
    /// frame before and those in `store` stored after.
    pub fn per_invocation(
        &mut self,
        load: &BTreeSet<usize>,
        store: &BTreeSet<usize>,
        stmts: &[&'a Statement],
    ) -> Gen<()> {
        let writes = self.writes_of(stmts);
        self.per_invocation_with(load, store, writes, |cg| {
            for s in stmts {
                cg.block(std::slice::from_ref(*s))?;
            }
            Ok(())
        })
    }

    /// [`Cg::per_invocation`] with the code `body` generates for each invocation, which
    /// writes at most the memory in `writes`.
    pub fn per_invocation_with(
        &mut self,
        load: &BTreeSet<usize>,
        store: &BTreeSet<usize>,
        writes: Writes,
        body: impl FnOnce(&mut Self) -> Gen<()>,
    ) -> Gen<()> {
        let [wx, wy, wz] = self.k.workgroup_size;
        let n = i64::from(wx * wy * wz);
        let saved_segment = self.open_segment(writes);
        let zero = self.u32c(0);
        let exit = self.b.create_block();
        let inv = self.open_count(zero, exit, |cg, iv| {
            cg.b.ins().icmp_imm_s(IntCC::UnsignedLessThan, iv, n)
        });
        let seg_exit = self.b.create_block();
        let iv = inv.iv;
        let saved = (self.thread, self.invocation, self.frame, self.inv_exit);
        self.thread = self.thread_of(iv);
        self.invocation = iv;
        self.inv_exit = Some(seg_exit);
        if self.barriers {
            let wide = self.b.ins().uextend(types::I64, iv);
            if self.returns {
                let flag_at = self.b.ins().iadd(self.c.returned, wide);
                let done = self.b.ins().load(types::I8, flags(), flag_at, 0);
                let go = self.b.create_block();
                self.b.ins().brif(done, inv.next, &[], go, &[]);
                self.b.switch_to_block(go);
            }
            let bytes = self.b.ins().imul_imm_s(wide, i64::from(self.frame_bytes));
            let frame = self.b.ins().iadd(self.c.scratch, bytes);
            self.frame = Some(frame);
            self.load_live(load)?;
        }
        body(self)?;
        self.b.ins().jump(seg_exit, &[]);
        self.b.switch_to_block(seg_exit);
        if self.barriers {
            self.store_live(store)?;
        }
        self.b.ins().jump(inv.next, &[]);
        self.close_count(inv, 1);
        self.b.switch_to_block(exit);
        (self.thread, self.invocation, self.frame, self.inv_exit) = saved;
        self.segment = saved_segment;
        Ok(())
    }

    /// Loads the entry's register locals in `live` from the current frame.
    fn load_live(&mut self, live: &BTreeSet<usize>) -> Gen<()> {
        let frame = self.frame.ok_or_else(|| Unsupported("no frame".into()))?;
        // Invariant locals are recomputed, with those they are computed from (declared
        // before them, so ascending order defines each before its use).
        let mut remat = BTreeSet::new();
        let mut todo: Vec<usize> = live
            .iter()
            .copied()
            .filter(|l| self.plan.invariant.contains_key(l))
            .collect();
        while let Some(l) = todo.pop() {
            if remat.insert(l) {
                let mut deps = BTreeSet::new();
                expr_locals(self.acts[0].f, self.plan.invariant[&l], &mut deps);
                todo.extend(deps);
            }
        }
        for &l in &remat {
            let h = self.entry_locals[l];
            if let Home::Vars(vars) = self.home_in(0, h)? {
                let v = self.scalar(self.plan.invariant[&l])?;
                self.b.def_var(vars[0], v);
            }
        }
        for &l in live {
            if remat.contains(&l) {
                continue;
            }
            let h = self.entry_locals[l];
            if let Home::Vars(vars) = self.home_in(0, h)? {
                let ty = self.acts[0].f.locals[h].ty;
                let s = Self::scalar_of(ty)?;
                let t = cl_type(s)?;
                for (j, v) in vars.iter().enumerate() {
                    let off = self.frame_offsets[l] as i32 + 4 * j as i32;
                    let x = self.b.ins().load(t, flags(), frame, off);
                    self.b.def_var(*v, x);
                }
            }
        }
        Ok(())
    }

    /// Stores the entry's register locals in `live` into the current frame.
    fn store_live(&mut self, live: &BTreeSet<usize>) -> Gen<()> {
        let frame = self.frame.ok_or_else(|| Unsupported("no frame".into()))?;
        for &l in live {
            let h = self.entry_locals[l];
            if let Home::Vars(vars) = self.home_in(0, h)? {
                for (j, v) in vars.iter().enumerate() {
                    let off = self.frame_offsets[l] as i32 + 4 * j as i32;
                    let x = self.b.use_var(*v);
                    self.b.ins().store(flags(), x, frame, off);
                }
            }
        }
        Ok(())
    }

    /// Generates a block of a kernel with barriers at workgroup level.
    pub fn workgroup_block(&mut self, block: &'a [Statement]) -> Gen<()> {
        let mut run: Vec<&'a Statement> = Vec::new();
        for s in block {
            if has_barrier(self.k, s) {
                self.segment(&run)?;
                run.clear();
                self.workgroup_statement(s)?;
            } else if self.plan.is_uniform_stmt(self.acts[0].f, s) {
                self.segment(&run)?;
                run.clear();
                self.uniform_statement(s)?;
            } else if self.wg_body && self.plan.is_uniform_jump(self.acts[0].f, s) {
                self.segment(&run)?;
                run.clear();
                self.uniform_jump(s)?;
            } else {
                run.push(s);
            }
        }
        self.segment(&run)
    }

    /// Runs statements without barriers for each invocation, then follows the flags they
    /// set (`return` of every invocation, `break`/`continue` of the workgroup's loop).
    fn segment(&mut self, run: &[&'a Statement]) -> Gen<()> {
        if run.is_empty() {
            return Ok(());
        }
        let f = self.acts[0].f;
        let mut named = BTreeSet::new();
        locals_of(f, run, &mut named);
        let mut written = BTreeSet::new();
        for s in run {
            super::live::writes(s, &mut written);
        }
        let framed = |l: &usize| !self.plan.private.contains(l) && !self.plan.uniform.contains(l);
        let load: BTreeSet<usize> = named.iter().copied().filter(framed).collect();
        let store: BTreeSet<usize> = written
            .iter()
            .copied()
            .filter(framed)
            .filter(|l| !self.plan.invariant.contains_key(l))
            .collect();
        self.per_invocation(&load, &store, run)?;
        // Every invocation returned: the workgroup is done.
        if self.returns {
            let alive = self.b.use_var(self.alive);
            let (done, go) = (self.b.create_block(), self.b.create_block());
            let none = self.b.ins().icmp_imm_s(IntCC::Equal, alive, 0);
            self.b.ins().brif(none, done, &[], go, &[]);
            self.b.switch_to_block(done);
            let zero = self.u32c(0);
            self.b.ins().return_(&[zero]);
            self.b.switch_to_block(go);
        }
        if let Some(LoopTarget::Workgroup { brk, cont }) = self.loops.last().copied() {
            let targets = self.wg_targets.last().copied();
            if let Some((cont_block, exit_block)) = targets {
                for (flag, to) in [(brk, exit_block), (cont, cont_block)] {
                    let f = self.b.use_var(flag);
                    let go = self.b.create_block();
                    let jump = self.b.create_block();
                    self.b.ins().brif(f, jump, &[], go, &[]);
                    self.b.switch_to_block(jump);
                    let z = self.b.ins().iconst(types::I8, 0);
                    self.b.def_var(flag, z);
                    self.b.ins().jump(to, &[]);
                    self.b.switch_to_block(go);
                }
            }
        }
        Ok(())
    }

    /// Evaluates a uniform condition on invocation 0's values.
    pub(super) fn uniform_scalar(&mut self, h: Handle<Expression>) -> Gen<Value> {
        let mut live = BTreeSet::new();
        expr_locals(self.acts[0].f, h, &mut live);
        live.retain(|l| !self.plan.uniform.contains(l));
        let saved = (self.thread, self.invocation, self.frame);
        let zero = self.u32c(0);
        self.thread = [zero; 3];
        self.invocation = zero;
        self.frame = Some(self.c.scratch);
        self.load_live(&live)?;
        let v = self.scalar(h);
        (self.thread, self.invocation, self.frame) = saved;
        v
    }

    /// A statement that sets a uniform local from uniform values, run once for the
    /// workgroup (on invocation 0's indices, which it does not read).
    fn uniform_statement(&mut self, s: &'a Statement) -> Gen<()> {
        let saved = (self.thread, self.invocation, self.frame);
        let zero = self.u32c(0);
        self.thread = [zero; 3];
        self.invocation = zero;
        self.frame = Some(self.c.scratch);
        let r = self.block(std::slice::from_ref(s));
        (self.thread, self.invocation, self.frame) = saved;
        r
    }

    /// `if c { break }` (or `continue`, in either arm) of the innermost workgroup-level loop
    /// with a uniform `c`: one test and a jump for the whole workgroup.
    fn uniform_jump(&mut self, s: &'a Statement) -> Gen<()> {
        let Stmt::If {
            cond,
            accept,
            reject,
        } = &s.kind
        else {
            return Err(Unsupported("a uniform jump that is not an `if`".into()));
        };
        let Some((cont, exit)) = self.wg_targets.last().copied() else {
            return Err(Unsupported("a uniform jump outside a loop".into()));
        };
        let c = self.uniform_scalar(*cond)?;
        let (yes, no, done) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        self.b.ins().brif(c, yes, &[], no, &[]);
        for (block, arm) in [(yes, accept), (no, reject)] {
            self.b.switch_to_block(block);
            match arm.first().map(|x| &x.kind) {
                Some(Stmt::Break) => self.b.ins().jump(exit, &[]),
                Some(Stmt::Continue) => self.b.ins().jump(cont, &[]),
                _ => self.b.ins().jump(done, &[]),
            };
        }
        self.b.switch_to_block(done);
        Ok(())
    }

    /// A statement holding a barrier, at workgroup level.
    fn workgroup_statement(&mut self, s: &'a Statement) -> Gen<()> {
        match &s.kind {
            Stmt::Barrier(Barrier::Workgroup | Barrier::Storage) => Ok(()),
            Stmt::UniformLoad { .. } => self.segment(&[s]),
            Stmt::If {
                cond,
                accept,
                reject,
            } => self.emit_if(Level::Workgroup, *cond, accept, reject),
            Stmt::Loop {
                body,
                continuing,
                break_if,
            } => self.emit_loop(Level::Workgroup, s.span, body, continuing, *break_if),
            Stmt::Switch {
                selector,
                cases,
                default,
            } => self.emit_switch(Level::Workgroup, *selector, cases, default),
            // Lockstep: every invocation of the subgroup is here (a workgroup barrier's
            // meaning, which is more than the subgroup's).
            Stmt::Barrier(Barrier::Subgroup) => Ok(()),
            Stmt::Subgroup { .. } | Stmt::Coop(_) => self.collective_statement(s),
            Stmt::Call { .. } => Err(Unsupported("a helper that holds a barrier".into())),
            other => Err(Unsupported(format!("a barrier inside {other:?}"))),
        }
    }
}

/// Byte offsets of the entry's locals in an invocation's frame, and the frame's size.
pub(super) fn frame_layout(k: &Kernel) -> (Vec<u32>, u32) {
    let mut offsets = Vec::with_capacity(k.entry.locals.len());
    let mut at = 0u32;
    for (_, l) in k.entry.locals.iter() {
        offsets.push(at);
        let bytes = match l.ty {
            Type::Scalar(_) => 4,
            Type::Vector(n, _) => 4 * u32::from(n),
            ty => crate::layout::of(&k.types, ty).size.div_ceil(4) * 4,
        };
        at = at.saturating_add(bytes);
    }
    (offsets, at.max(4))
}
