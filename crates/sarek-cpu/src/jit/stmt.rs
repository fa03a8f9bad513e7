//! Statements run by one invocation: assignments, control flow, inlined helper calls, atomics,
//! and the fuel that bounds loops.

use cranelift_codegen::ir::{condcodes::IntCC, types, AtomicRmwOp, InstBuilder, Value};

use super::control::Level;
use super::gen::{flags, Act, Cg, Gen, Home, LoopTarget, Val};
use super::Unsupported;
use crate::arena::Handle;
use crate::ir::{
    AtomicFun, AtomicTarget, BinaryOp, Expression, Local, Place, Scalar, Span, Statement, Stmt,
    Type,
};

/// Where a place is.
enum Target {
    /// Component `Some(i)` of, or the whole of, a register local.
    Vars(Vec<cranelift_frontend::Variable>, Option<usize>),
    /// Words in memory.
    Mem(Value),
}

impl<'a> Cg<'a, '_> {
    /// Generates a block for the current invocation.
    pub fn block(&mut self, block: &'a [Statement]) -> Gen<()> {
        for s in block {
            self.statement(s)?;
        }
        Ok(())
    }

    /// Continues in a fresh block after a jump (the statements after `break`, `continue` or
    /// `return` are unreachable, but must still be well formed).
    pub fn after_jump(&mut self) {
        let dead = self.b.create_block();
        self.b.switch_to_block(dead);
    }

    /// Spends `cost` steps of fuel; leaves the function with status 1 once it is spent.
    pub fn burn(&mut self, cost: u64, span: Span) {
        let used = self.b.use_var(self.fuel);
        let used = self.b.ins().iadd_imm_s(used, cost as i64);
        self.b.def_var(self.fuel, used);
        let over = self
            .b
            .ins()
            .icmp(IntCC::UnsignedGreaterThan, used, self.c.fuel_limit);
        let (fail, go) = (self.b.create_block(), self.b.create_block());
        self.b.set_cold_block(fail);
        self.b.ins().brif(over, fail, &[], go, &[]);
        self.b.switch_to_block(fail);
        let ctx = self.c.ctx;
        let sp = self.u32c(span.0);
        let off = std::mem::offset_of!(super::native::Ctx, fault_span) as i32;
        self.b.ins().store(flags(), sp, ctx, off);
        let off = std::mem::offset_of!(super::native::Ctx, fault_thread) as i32;
        for (i, t) in self.thread.into_iter().enumerate() {
            self.b.ins().store(flags(), t, ctx, off + 4 * i as i32);
        }
        let one = self.u32c(1);
        self.b.ins().return_(&[one]);
        self.b.switch_to_block(go);
    }

    fn statement(&mut self, s: &'a Statement) -> Gen<()> {
        let act = self.acts.len() - 1;
        match &s.kind {
            Stmt::Let { local, init } => {
                let v = match init {
                    Some(e) => self.eval(*e)?,
                    None => {
                        let ty = self.acts[act].f.locals[*local].ty;
                        self.zero(ty)?
                    }
                };
                self.write_local(act, *local, &v)
            }
            Stmt::Assign { place, op, value } => {
                let v = self.eval(*value)?;
                let (target, ty) = self.place(place)?;
                let v = match op {
                    Some(op) => {
                        let current = self.read_target(&target, ty)?;
                        self.compound(*op, ty, &current, &v)?
                    }
                    None => v,
                };
                self.write_target(&target, ty, &v)
            }
            Stmt::If {
                cond,
                accept,
                reject,
            } => self.emit_if(Level::Invocation, *cond, accept, reject),
            Stmt::Loop {
                body,
                continuing,
                break_if,
            } => self.emit_loop(Level::Invocation, s.span, body, continuing, *break_if),
            Stmt::Break | Stmt::Continue => {
                let brk = matches!(s.kind, Stmt::Break);
                match self.loops.last().copied() {
                    Some(LoopTarget::Native { cont, exit }) => {
                        self.b.ins().jump(if brk { exit } else { cont }, &[]);
                    }
                    Some(LoopTarget::Workgroup { brk: b, cont: c }) => {
                        let one = self.b.ins().iconst(types::I8, 1);
                        self.b.def_var(if brk { b } else { c }, one);
                        let exit = self.exit_block()?;
                        self.b.ins().jump(exit, &[]);
                    }
                    None => return Err(Unsupported("`break` outside a loop".into())),
                }
                self.after_jump();
                Ok(())
            }
            Stmt::Return(value) => {
                if let Some((after, result)) = self.acts[act].ret {
                    if let (Some(v), Some(local)) = (value, result) {
                        let v = self.eval(*v)?;
                        // Into the caller's local.
                        self.write_local(act - 1, local, &v)?;
                    }
                    self.b.ins().jump(after, &[]);
                } else {
                    if self.barriers && self.returns {
                        let one = self.b.ins().iconst(types::I8, 1);
                        let wide = self.b.ins().uextend(types::I64, self.invocation);
                        let at = self.b.ins().iadd(self.c.returned, wide);
                        self.b.ins().store(flags(), one, at, 0);
                        let alive = self.b.use_var(self.alive);
                        let alive = self.b.ins().iadd_imm_s(alive, -1);
                        self.b.def_var(self.alive, alive);
                    }
                    let exit = self.exit_block()?;
                    self.b.ins().jump(exit, &[]);
                }
                self.after_jump();
                Ok(())
            }
            Stmt::Switch {
                selector,
                cases,
                default,
            } => self.emit_switch(Level::Invocation, *selector, cases, default),
            Stmt::Call {
                function,
                args,
                result,
            } => self.call(function.0, args, *result),
            Stmt::Atomic {
                fun,
                target,
                value,
                result,
            } => {
                let operand = match value {
                    Some(v) => Some(self.scalar(*v)?),
                    None => None,
                };
                self.atomic(target, *result, |cg, addr, scalar| {
                    cg.atomic_op(*fun, scalar, addr, operand)
                })
            }
            Stmt::CompareExchange {
                target,
                compare,
                value,
                old,
                exchanged,
            } => {
                let c = self.scalar(*compare)?;
                let v = self.scalar(*value)?;
                let ex = self.b.declare_var(types::I8);
                let zero8 = self.b.ins().iconst(types::I8, 0);
                self.b.def_var(ex, zero8);
                self.atomic(target, Some(*old), |cg, addr, scalar| {
                    let cb = cg.bits(c, scalar);
                    let vb = cg.bits(v, scalar);
                    let prev = cg.b.ins().atomic_cas(flags(), addr, cb, vb);
                    let ok = cg.b.ins().icmp(IntCC::Equal, prev, cb);
                    cg.b.def_var(ex, ok);
                    Ok(prev)
                })?;
                let ok = self.b.use_var(ex);
                self.write_local(act, *exchanged, &Val::S(ok))
            }
            Stmt::UniformLoad {
                var,
                indices,
                result,
            } => {
                let addr = self.shared_addr(*var, indices)?;
                let ty = self.acts[act].f.locals[*result].ty;
                let v = self.load(ty, addr)?;
                self.write_local(act, *result, &v)
            }
            Stmt::Barrier(_) if !self.barriers => {
                Err(Unsupported("a barrier outside the workgroup level".into()))
            }
            Stmt::Barrier(_) => Err(Unsupported("a barrier inside a helper or a segment".into())),
            other => Err(Unsupported(format!("the statement {other:?}"))),
        }
    }

    /// Where `return`/`break` out of the current invocation's code go.
    fn exit_block(&self) -> Gen<cranelift_codegen::ir::Block> {
        self.inv_exit
            .ok_or_else(|| Unsupported("a jump outside an invocation".into()))
    }

    /// `current op value` for compound assignment.
    fn compound(&mut self, op: BinaryOp, ty: Type, current: &Val, value: &Val) -> Gen<Val> {
        let s = Self::scalar_of(ty)?;
        let comp = |v: &Val, i: usize| match v {
            Val::V(p) => p[i],
            Val::S(x) | Val::M(x) => *x,
        };
        Ok(match current {
            Val::S(a) => Val::S(self.scalar_binary(op, s, *a, comp(value, 0))?),
            Val::V(parts) => {
                let mut out = Vec::new();
                for (i, a) in parts.clone().into_iter().enumerate() {
                    out.push(self.scalar_binary(op, s, a, comp(value, i))?);
                }
                Val::V(out)
            }
            Val::M(_) => return Err(Unsupported("compound assignment to a struct".into())),
        })
    }

    fn place(&mut self, place: &Place) -> Gen<(Target, Type)> {
        let act = self.acts.len() - 1;
        Ok(match place {
            Place::Local(l) => {
                let ty = self.acts[act].f.locals[*l].ty;
                match self.home(*l)? {
                    Home::Vars(vars) => (Target::Vars(vars, None), ty),
                    mem => (Target::Mem(self.home_addr(&mem)?), ty),
                }
            }
            Place::Index { slice, index } => {
                let elem = self.k.params[slice.0 as usize]
                    .ty
                    .buffer()
                    .map(|b| b.0)
                    .ok_or_else(|| Unsupported("a store to a value parameter".into()))?;
                let i = self.scalar(*index)?;
                (Target::Mem(self.buffer_addr(slice.0, i, true)?), elem)
            }
            Place::Shared { var, indices } => {
                let elem = self.k.shared_var(*var).elem;
                (Target::Mem(self.shared_addr(*var, indices)?), elem)
            }
            Place::Field { base, field } => match self.place(base)? {
                (Target::Vars(vars, None), Type::Vector(_, s)) => {
                    (Target::Vars(vars, Some(*field as usize)), Type::Scalar(s))
                }
                (Target::Mem(addr), ty) => {
                    let off = self.lay.field_offset_bytes(ty, *field) as i64;
                    let ft = self.lay.field_type(ty, *field);
                    (Target::Mem(self.b.ins().iadd_imm_s(addr, off)), ft)
                }
                _ => return Err(Unsupported("a field of a register value".into())),
            },
            Place::Element { base, index } => match self.place(base)? {
                (Target::Mem(addr), ty) => {
                    let Some((elem, len, stride)) = self.lay.array_bytes(ty) else {
                        return Err(Unsupported("an element of a non-array".into()));
                    };
                    let i = self.scalar(*index)?;
                    let i = self.clamp(i, len);
                    (Target::Mem(self.elem_addr(addr, i, stride)), elem)
                }
                _ => return Err(Unsupported("an element of a vector local".into())),
            },
        })
    }

    fn read_target(&mut self, t: &Target, ty: Type) -> Gen<Val> {
        Ok(match t {
            Target::Vars(vars, Some(i)) => Val::S(self.b.use_var(vars[*i])),
            Target::Vars(vars, None) if matches!(ty, Type::Vector(..)) => {
                Val::V(vars.iter().map(|v| self.b.use_var(*v)).collect())
            }
            Target::Vars(vars, None) => Val::S(self.b.use_var(vars[0])),
            Target::Mem(addr) => self.load(ty, *addr)?,
        })
    }

    fn write_target(&mut self, t: &Target, ty: Type, v: &Val) -> Gen<()> {
        match (t, v) {
            (Target::Vars(vars, Some(i)), Val::S(x)) => self.b.def_var(vars[*i], *x),
            (Target::Vars(vars, None), Val::S(x)) => {
                for var in vars {
                    self.b.def_var(*var, *x);
                }
            }
            (Target::Vars(vars, None), Val::V(parts)) => {
                for (var, p) in vars.iter().zip(parts) {
                    self.b.def_var(*var, *p);
                }
            }
            (Target::Mem(addr), v) => self.store(ty, *addr, v)?,
            _ => return Err(Unsupported("a store of a mismatched value".into())),
        }
        Ok(())
    }

    /// Inlines a call of helper `function`.
    fn call(
        &mut self,
        function: u32,
        args: &[Handle<Expression>],
        result: Option<Handle<Local>>,
    ) -> Gen<()> {
        let k = self.k;
        let f = k
            .functions
            .get(function as usize)
            .ok_or_else(|| Unsupported("a call of a missing helper".into()))?;
        if self.acts.len() > 32 {
            return Err(Unsupported("helpers nested deeper than 32 calls".into()));
        }
        let mut vals = Vec::with_capacity(args.len());
        for (a, ty) in args.iter().zip(&f.args) {
            let v = self.eval(*a)?;
            // A struct or array argument is copied: the helper must not see later stores.
            let v = match v {
                Val::M(src) => {
                    let words = self.words(*ty);
                    let slot = self.slot(words);
                    let dst = self.slot_addr(slot);
                    let n = self.bytes(*ty);
                    self.copy_bytes(dst, src, n);
                    Val::M(dst)
                }
                v => v,
            };
            vals.push(v);
        }
        let after = self.b.create_block();
        self.acts.push(Act {
            f,
            homes: Vec::new(),
            args: vals,
            ret: Some((after, result)),
        });
        let loops = std::mem::take(&mut self.loops);
        let r = self.block(&f.body);
        self.loops = loops;
        self.acts.pop();
        r?;
        self.b.ins().jump(after, &[]);
        self.b.switch_to_block(after);
        Ok(())
    }

    /// A scalar's bits as an `i32` (floats bit-cast).
    fn bits(&mut self, v: Value, s: Scalar) -> Value {
        match s {
            Scalar::F32 => {
                self.b
                    .ins()
                    .bitcast(types::I32, cranelift_codegen::ir::MemFlagsData::new(), v)
            }
            Scalar::Bool => self.b.ins().uextend(types::I32, v),
            _ => v,
        }
    }

    /// Runs `op` on the word of an atomic, and puts its previous value into `result`. An
    /// out-of-bounds buffer element is skipped (the result is 0).
    fn atomic(
        &mut self,
        target: &AtomicTarget,
        result: Option<Handle<Local>>,
        op: impl FnOnce(&mut Self, Value, Scalar) -> Gen<Value>,
    ) -> Gen<()> {
        let act = self.acts.len() - 1;
        let prev = self.b.declare_var(types::I32);
        let zero = self.u32c(0);
        self.b.def_var(prev, zero);
        let scalar = match target {
            AtomicTarget::Buffer { slice, index } => {
                let scalar = match self.k.params[slice.0 as usize].ty.buffer() {
                    Some((Type::Scalar(s), _)) => s,
                    _ => Scalar::U32,
                };
                let i = self.scalar(*index)?;
                let (in_bounds, addr) = self.buffer_elem(slice.0, i)?;
                let (yes, done) = (self.b.create_block(), self.b.create_block());
                self.b.ins().brif(in_bounds, yes, &[], done, &[]);
                self.b.switch_to_block(yes);
                let old = op(self, addr, scalar)?;
                self.b.def_var(prev, old);
                self.b.ins().jump(done, &[]);
                self.b.switch_to_block(done);
                scalar
            }
            AtomicTarget::Shared { var, indices } => {
                let scalar = self.k.shared_var(*var).elem.scalar().unwrap_or(Scalar::U32);
                let addr = self.shared_addr(*var, indices)?;
                let old = op(self, addr, scalar)?;
                self.b.def_var(prev, old);
                scalar
            }
        };
        if let Some(local) = result {
            let bits = self.b.use_var(prev);
            let v = match scalar {
                Scalar::F32 => self.b.ins().bitcast(
                    types::F32,
                    cranelift_codegen::ir::MemFlagsData::new(),
                    bits,
                ),
                Scalar::Bool => self.b.ins().icmp_imm_s(IntCC::NotEqual, bits, 0),
                _ => bits,
            };
            self.write_local(act, local, &Val::S(v))?;
        }
        Ok(())
    }

    /// One atomic operation on the word at `addr`; returns the previous bits.
    fn atomic_op(
        &mut self,
        fun: AtomicFun,
        scalar: Scalar,
        addr: Value,
        operand: Option<Value>,
    ) -> Gen<Value> {
        let x = match operand {
            Some(v) => self.bits(v, scalar),
            None => self.u32c(0),
        };
        let signed = scalar == Scalar::I32;
        let rmw = |cg: &mut Self, op: AtomicRmwOp| {
            cg.b.ins().atomic_rmw(types::I32, flags(), op, addr, x)
        };
        Ok(match fun {
            AtomicFun::Load => self.b.ins().atomic_load(types::I32, flags(), addr),
            AtomicFun::Store => {
                self.b.ins().atomic_store(flags(), x, addr);
                self.u32c(0)
            }
            AtomicFun::Add | AtomicFun::Sub if scalar == Scalar::F32 => {
                self.float_add(addr, x, fun == AtomicFun::Sub)
            }
            AtomicFun::Add => rmw(self, AtomicRmwOp::Add),
            AtomicFun::Sub => rmw(self, AtomicRmwOp::Sub),
            AtomicFun::And => rmw(self, AtomicRmwOp::And),
            AtomicFun::Or => rmw(self, AtomicRmwOp::Or),
            AtomicFun::Xor => rmw(self, AtomicRmwOp::Xor),
            AtomicFun::Exchange => rmw(self, AtomicRmwOp::Xchg),
            AtomicFun::Min if signed => rmw(self, AtomicRmwOp::Smin),
            AtomicFun::Max if signed => rmw(self, AtomicRmwOp::Smax),
            AtomicFun::Min => rmw(self, AtomicRmwOp::Umin),
            AtomicFun::Max => rmw(self, AtomicRmwOp::Umax),
        })
    }

    /// `AtomicF32::fetch_add`/`fetch_sub` as a compare-and-swap loop on the word's bits.
    fn float_add(&mut self, addr: Value, operand_bits: Value, sub: bool) -> Value {
        let v = self.b.ins().bitcast(
            types::F32,
            cranelift_codegen::ir::MemFlagsData::new(),
            operand_bits,
        );
        let v = if sub {
            super::expr::negate(&mut self.b, v)
        } else {
            v
        };
        let seen = self.b.declare_var(types::I32);
        let first = self.b.ins().atomic_load(types::I32, flags(), addr);
        self.b.def_var(seen, first);
        let (retry, done) = (self.b.create_block(), self.b.create_block());
        self.b.ins().jump(retry, &[]);
        self.b.switch_to_block(retry);
        let old = self.b.use_var(seen);
        let of = self
            .b
            .ins()
            .bitcast(types::F32, cranelift_codegen::ir::MemFlagsData::new(), old);
        let sum = self.b.ins().fadd(of, v);
        let new = self
            .b
            .ins()
            .bitcast(types::I32, cranelift_codegen::ir::MemFlagsData::new(), sum);
        let got = self.b.ins().atomic_cas(flags(), addr, old, new);
        self.b.def_var(seen, got);
        let ok = self.b.ins().icmp(IntCC::Equal, got, old);
        self.b.ins().brif(ok, done, &[], retry, &[]);
        self.b.switch_to_block(done);
        self.b.use_var(seen)
    }
}
