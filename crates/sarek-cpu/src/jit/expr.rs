//! Expressions: pure trees evaluated into registers (scalars, vectors) or addresses (structs,
//! arrays), with the interpreter's meaning.

use cranelift_codegen::ir::{condcodes::FloatCC, condcodes::IntCC, types, InstBuilder, Value};

use super::gen::{flags, movable, Cg, Gen, Param, Val};
use super::Unsupported;
use crate::arena::Handle;
use crate::ir::{
    BinaryOp, Builtin, Expr, Expression, Literal, MathFun, Scalar, SharedId, Type, UnaryOp,
};

/// `-x` for an `f32` or `f32x4` value: its sign bits flipped through integer `bxor`, which
/// Rust's and the interpreter's negation is, bit for bit.
///
/// Not `fneg`: Cranelift folds an `fneg` into the `fma` or `fmul` that uses it (`vfnmadd`,
/// `vfmsub`, `(-x) * (-y)` as `x * y`), and those return a NaN operand with the sign it had
/// before the negation, where Rust returns it negated; the integer form is opaque to the
/// folds.
pub(super) fn negate(b: &mut cranelift_frontend::FunctionBuilder, x: Value) -> Value {
    let ty = b.func.dfg.value_type(x);
    let int = ty.as_int();
    let sign = b.ins().iconst(types::I32, i64::from(i32::MIN));
    let sign = if int.is_vector() {
        b.ins().splat(int, sign)
    } else {
        sign
    };
    let bits = b
        .ins()
        .bitcast(int, cranelift_codegen::ir::MemFlagsData::new(), x);
    let flipped = b.ins().bxor(bits, sign);
    b.ins()
        .bitcast(ty, cranelift_codegen::ir::MemFlagsData::new(), flipped)
}

impl<'a> Cg<'a, '_> {
    fn expr(&self, h: Handle<Expression>) -> &'a Expression {
        let f = self.acts[self.acts.len() - 1].f;
        &f.exprs[h]
    }

    /// Evaluates expression `h` of the innermost function.
    pub fn eval(&mut self, h: Handle<Expression>) -> Gen<Val> {
        let node = self.expr(h);
        let ty = node.ty;
        match &node.kind {
            Expr::Literal(l) => Ok(Val::S(match *l {
                Literal::F32(v) => self.b.ins().f32const(v),
                Literal::I32(v) => self.b.ins().iconst(types::I32, i64::from(v)),
                Literal::U32(v) => self.u32c(v),
                Literal::Bool(v) => self.b.ins().iconst(types::I8, i64::from(v)),
                Literal::F16(bits) => self.b.ins().f32const(super::half::literal(bits)),
                Literal::I64(_) | Literal::U64(_) => {
                    return Err(Unsupported("64-bit integers".into()))
                }
            })),
            Expr::Param(p) => {
                let bytes = self.param_bytes[p.0 as usize];
                let addr = self.b.ins().iadd_imm_s(self.c.uniform, i64::from(bytes));
                // The uniform block does not change during a launch.
                self.load_with(ty, addr, movable())
            }
            Expr::Local(l) => self.read_local(self.acts.len() - 1, *l),
            Expr::Len(p) => Ok(Val::S(self.params[p.0 as usize].len)),
            Expr::Index { slice, index } => {
                let i = self.scalar(*index)?;
                let addr = self.buffer_addr(slice.0, i, false)?;
                // A buffer the kernel never writes holds the same words for the whole launch.
                let fl = if self.kernel_writes.param(slice.0) {
                    flags()
                } else {
                    movable()
                };
                self.load_with(ty, addr, fl)
            }
            Expr::Unary { op, expr } => {
                let s = Self::scalar_of(ty)?;
                let v = self.eval(*expr)?;
                self.map(&v, |cg, x| cg.unary(*op, s, x))
            }
            Expr::Binary { op, left, right } => {
                let lt = self.expr(*left).ty;
                let (l, r) = (self.eval(*left)?, self.eval(*right)?);
                self.binary(*op, lt, &l, &r)
            }
            Expr::Select {
                cond,
                accept,
                reject,
            } => {
                let c = self.scalar(*cond)?;
                let (a, r) = (self.eval(*accept)?, self.eval(*reject)?);
                Ok(match (a, r) {
                    (Val::S(a), Val::S(r)) => Val::S(self.b.ins().select(c, a, r)),
                    (Val::V(a), Val::V(r)) => Val::V(
                        a.into_iter()
                            .zip(r)
                            .map(|(a, r)| self.b.ins().select(c, a, r))
                            .collect(),
                    ),
                    (Val::M(a), Val::M(r)) => Val::M(self.b.ins().select(c, a, r)),
                    _ => return Err(Unsupported("a select of mixed values".into())),
                })
            }
            Expr::Cast { expr, to } => {
                let from = Self::scalar_of(self.expr(*expr).ty)?;
                let v = self.eval(*expr)?;
                let to = *to;
                self.map(&v, |cg, x| cg.cast(x, from, to))
            }
            Expr::SharedIndex { var, indices } => match self.segment.clone() {
                // Nothing writes this array until the segment ends.
                Some((base, w)) if !w.shared(var.0) => {
                    let addr = self.shared_addr_from(base, *var, indices)?;
                    self.load_with(ty, addr, movable())
                }
                _ => {
                    let addr = self.shared_addr(*var, indices)?;
                    self.load(ty, addr)
                }
            },
            Expr::Builtin(b) => Ok(Val::S(self.builtin(*b)?)),
            Expr::Math { fun, args } => self.math(*fun, args, ty),
            Expr::Field { base, field } => {
                let bt = self.expr(*base).ty;
                match self.eval(*base)? {
                    Val::V(parts) => parts
                        .get(*field as usize)
                        .map(|p| Val::S(*p))
                        .ok_or_else(|| Unsupported("a vector component past its width".into())),
                    Val::M(addr) => {
                        let off = self.lay.field_offset_bytes(bt, *field) as i64;
                        let at = self.b.ins().iadd_imm_s(addr, off);
                        self.load(ty, at)
                    }
                    Val::S(_) => Err(Unsupported("a field of a scalar".into())),
                }
            }
            Expr::Access { base, index } => {
                let bt = self.expr(*base).ty;
                let Some((_, len, stride)) = self.lay.array_bytes(bt) else {
                    return Err(Unsupported("an index into a vector value".into()));
                };
                let Val::M(addr) = self.eval(*base)? else {
                    return Err(Unsupported("an index into a register value".into()));
                };
                let i = self.scalar(*index)?;
                let i = self.clamp(i, len);
                let at = self.elem_addr(addr, i, stride);
                self.load(ty, at)
            }
            Expr::Compose { components, .. } => self.compose(ty, components),
            Expr::Zero(t) => self.zero(*t),
            Expr::Argument(n) => {
                let act = &self.acts[self.acts.len() - 1];
                act.args
                    .get(*n as usize)
                    .cloned()
                    .ok_or_else(|| Unsupported("a missing argument".into()))
            }
            #[allow(unreachable_patterns)]
            other => Err(Unsupported(format!("the expression {other:?}"))),
        }
    }

    /// Evaluates a scalar expression.
    pub fn scalar(&mut self, h: Handle<Expression>) -> Gen<Value> {
        match self.eval(h)? {
            Val::S(v) => Ok(v),
            other => Err(Unsupported(format!(
                "{other:?} where a scalar was expected"
            ))),
        }
    }

    /// Applies `f` to each component.
    fn map(&mut self, v: &Val, mut f: impl FnMut(&mut Self, Value) -> Gen<Value>) -> Gen<Val> {
        Ok(match v {
            Val::S(x) => Val::S(f(self, *x)?),
            Val::V(parts) => {
                let mut out = Vec::with_capacity(parts.len());
                for p in parts {
                    out.push(f(self, *p)?);
                }
                Val::V(out)
            }
            Val::M(_) => return Err(Unsupported("an operator on a struct or array".into())),
        })
    }

    /// `base + i * stride` for an element index `i` (an `i32`) and a stride in bytes.
    pub fn elem_addr(&mut self, base: Value, i: Value, stride: usize) -> Value {
        let wide = self.b.ins().uextend(types::I64, i);
        let bytes = self.b.ins().imul_imm_s(wide, stride as i64);
        self.b.ins().iadd(base, bytes)
    }

    /// `min(i, len - 1)`: WebGPU's robust access to an array of `len` elements.
    pub fn clamp(&mut self, i: Value, len: u32) -> Value {
        let last = self.u32c(len.saturating_sub(1));
        self.b.ins().umin(i, last)
    }

    /// The address of element `i` of buffer parameter `p`: the zeroed area (a read) or the
    /// sink (a write) when `i` is out of bounds.
    pub fn buffer_addr(&mut self, p: u32, i: Value, write: bool) -> Gen<Value> {
        let (in_bounds, addr) = self.buffer_elem(p, i)?;
        let away = if write { self.c.sink } else { self.c.zeros };
        Ok(self.b.ins().select(in_bounds, addr, away))
    }

    /// Whether element `i` of buffer `p` is in bounds, and its address if it is.
    pub fn buffer_elem(&mut self, p: u32, i: Value) -> Gen<(Value, Value)> {
        let elem = self.k.params[p as usize]
            .ty
            .buffer()
            .map(|b| b.0)
            .ok_or_else(|| Unsupported("an index into a value parameter".into()))?;
        let stride = self.lay.stride_bytes(elem) as i64;
        let Param { base, bound, .. } = self.params[p as usize];
        let in_bounds = self.b.ins().icmp(IntCC::UnsignedLessThan, i, bound);
        let wide = self.b.ins().uextend(types::I64, i);
        let bytes = self.b.ins().imul_imm_s(wide, stride);
        let addr = self.b.ins().iadd(base, bytes);
        Ok((in_bounds, addr))
    }

    /// The address of element `indices` of workgroup array `var` (each index clamped).
    pub fn shared_addr(&mut self, var: SharedId, indices: &[Handle<Expression>]) -> Gen<Value> {
        self.shared_addr_from(self.c.shared, var, indices)
    }

    /// [`Cg::shared_addr`] with workgroup memory at `shared`. Each clamped index adds its own
    /// 64-bit byte offset (the clamps keep every term small, so this is the flat index's
    /// address), which lets a constant index become the load's displacement.
    pub fn shared_addr_from(
        &mut self,
        shared: Value,
        var: SharedId,
        indices: &[Handle<Expression>],
    ) -> Gen<Value> {
        let v = self.k.shared_var(var);
        let stride = self.lay.stride_bytes(v.elem) as i64;
        let dims = v.dims.clone();
        let mut addr = self
            .b
            .ins()
            .iadd_imm_s(shared, i64::from(self.shared_words[var.0 as usize]) * 4);
        for (d, (dim, index)) in dims.iter().zip(indices).enumerate() {
            let i = self.scalar(*index)?;
            let i = self.clamp(i, *dim);
            let scale = dims[d + 1..]
                .iter()
                .fold(stride, |acc, x| acc * i64::from(*x));
            let wide = self.b.ins().uextend(types::I64, i);
            let bytes = self.b.ins().imul_imm_s(wide, scale);
            addr = self.b.ins().iadd(addr, bytes);
        }
        Ok(addr)
    }

    fn builtin(&mut self, b: Builtin) -> Gen<Value> {
        let size = self.k.workgroup_size;
        Ok(match b {
            Builtin::ThreadIdx(a) => self.thread[a.index()],
            Builtin::BlockIdx(a) => self.c.block[a.index()],
            Builtin::BlockDim(a) => self.u32c(size[a.index()]),
            Builtin::GridDim(a) => self.c.groups[a.index()],
            Builtin::GlobalIdx(a) => {
                let a = a.index();
                self.b.ins().iadd(self.c.global_base[a], self.thread[a])
            }
            // The workgroup's part (`thread_id_base`) plus the invocation's: the same sum as
            // `gx + (gy + gz·height)·width` over the global ids, since it is linear.
            Builtin::GlobalThreadId => {
                let [width, height] = self.c.extent;
                let zh = self.b.ins().imul(self.thread[2], height);
                let rows = self.b.ins().iadd(self.thread[1], zh);
                let rw = self.b.ins().imul(rows, width);
                let local = self.b.ins().iadd(self.thread[0], rw);
                self.b.ins().iadd(self.c.thread_id_base, local)
            }
            Builtin::SubgroupSize | Builtin::SubgroupInvocationId => self.subgroup_builtin(b)?,
            #[allow(unreachable_patterns)]
            other => return Err(Unsupported(format!("the builtin {other:?}"))),
        })
    }

    fn unary(&mut self, op: UnaryOp, s: Scalar, x: Value) -> Gen<Value> {
        Ok(match (op, s) {
            // A half's negation flips its sign bit, as it does to the `f32` it lives as.
            (UnaryOp::Neg, Scalar::F32 | Scalar::F16) => negate(&mut self.b, x),
            (UnaryOp::Neg, Scalar::I32 | Scalar::U32) => self.b.ins().ineg(x),
            (UnaryOp::Not, Scalar::Bool) => self.b.ins().bxor_imm_s(x, 1),
            (UnaryOp::Not, Scalar::I32 | Scalar::U32) => self.b.ins().bnot(x),
            (op, s) => return Err(Unsupported(format!("{op:?} on {s:?}"))),
        })
    }

    /// `l op r` where `l` has type `lt` (a scalar next to a vector is every component).
    fn binary(&mut self, op: BinaryOp, lt: Type, l: &Val, r: &Val) -> Gen<Val> {
        let s = Self::scalar_of(lt)?;
        match (l, r) {
            (Val::S(a), Val::S(b)) => Ok(Val::S(self.scalar_binary(op, s, *a, *b)?)),
            (Val::M(_), _) | (_, Val::M(_)) => {
                Err(Unsupported("an operator on structs or arrays".into()))
            }
            _ => {
                let n = match (l, r) {
                    (Val::V(a), _) => a.len(),
                    (_, Val::V(b)) => b.len(),
                    _ => 1,
                };
                let comp = |v: &Val, i: usize| match v {
                    Val::V(p) => p[i],
                    Val::S(x) => *x,
                    Val::M(x) => *x,
                };
                let mut parts = Vec::with_capacity(n);
                for i in 0..n {
                    let (a, b) = (comp(l, i), comp(r, i));
                    parts.push(self.scalar_binary(op, s, a, b)?);
                }
                Ok(match op {
                    BinaryOp::Eq => Val::S(
                        parts
                            .into_iter()
                            .reduce(|a, b| self.b.ins().band(a, b))
                            .unwrap_or_else(|| self.b.ins().iconst(types::I8, 1)),
                    ),
                    BinaryOp::Ne => Val::S(
                        parts
                            .into_iter()
                            .reduce(|a, b| self.b.ins().bor(a, b))
                            .unwrap_or_else(|| self.b.ins().iconst(types::I8, 0)),
                    ),
                    _ => Val::V(parts),
                })
            }
        }
    }

    /// A binary operator on scalars of type `s` (the left operand's).
    pub fn scalar_binary(&mut self, op: BinaryOp, s: Scalar, a: Value, b: Value) -> Gen<Value> {
        use BinaryOp::*;
        Ok(match s {
            Scalar::F32 => match op {
                Add => self.b.ins().fadd(a, b),
                Sub => self.b.ins().fsub(a, b),
                Mul => self.b.ins().fmul(a, b),
                Div => self.b.ins().fdiv(a, b),
                Rem => self.call_f32(super::native::frem, a, b),
                Eq => self.b.ins().fcmp(FloatCC::Equal, a, b),
                Ne => self.b.ins().fcmp(FloatCC::NotEqual, a, b),
                Lt => self.b.ins().fcmp(FloatCC::LessThan, a, b),
                Le => self.b.ins().fcmp(FloatCC::LessThanOrEqual, a, b),
                Gt => self.b.ins().fcmp(FloatCC::GreaterThan, a, b),
                Ge => self.b.ins().fcmp(FloatCC::GreaterThanOrEqual, a, b),
                _ => return Err(Unsupported(format!("{op:?} on f32"))),
            },
            Scalar::F16 => return self.half_binary(op, a, b),
            Scalar::I32 | Scalar::U32 => {
                let signed = s == Scalar::I32;
                let cmp = |cg: &mut Self, sc: IntCC, uc: IntCC| {
                    cg.b.ins().icmp(if signed { sc } else { uc }, a, b)
                };
                match op {
                    Add => self.b.ins().iadd(a, b),
                    Sub => self.b.ins().isub(a, b),
                    Mul => self.b.ins().imul(a, b),
                    Div | Rem => self.int_div(op == Div, signed, a, b),
                    BitAnd => self.b.ins().band(a, b),
                    BitOr => self.b.ins().bor(a, b),
                    BitXor => self.b.ins().bxor(a, b),
                    // Cranelift masks the amount to the type's width, as `wrapping_shl` does.
                    Shl => self.b.ins().ishl(a, b),
                    Shr if signed => self.b.ins().sshr(a, b),
                    Shr => self.b.ins().ushr(a, b),
                    Eq => self.b.ins().icmp(IntCC::Equal, a, b),
                    Ne => self.b.ins().icmp(IntCC::NotEqual, a, b),
                    Lt => cmp(self, IntCC::SignedLessThan, IntCC::UnsignedLessThan),
                    Le => cmp(
                        self,
                        IntCC::SignedLessThanOrEqual,
                        IntCC::UnsignedLessThanOrEqual,
                    ),
                    Gt => cmp(self, IntCC::SignedGreaterThan, IntCC::UnsignedGreaterThan),
                    Ge => cmp(
                        self,
                        IntCC::SignedGreaterThanOrEqual,
                        IntCC::UnsignedGreaterThanOrEqual,
                    ),
                    LogicalAnd | LogicalOr => self.u32c(0),
                }
            }
            Scalar::Bool => match op {
                BitAnd | LogicalAnd => self.b.ins().band(a, b),
                BitOr | LogicalOr => self.b.ins().bor(a, b),
                BitXor | Ne => self.b.ins().bxor(a, b),
                Eq => self.b.ins().icmp(IntCC::Equal, a, b),
                Lt => self.b.ins().icmp(IntCC::UnsignedLessThan, a, b),
                Le => self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, a, b),
                Gt => self.b.ins().icmp(IntCC::UnsignedGreaterThan, a, b),
                Ge => self.b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, a, b),
                _ => self.b.ins().iconst(types::I8, 0),
            },
            #[allow(unreachable_patterns)]
            other => return Err(Unsupported(format!("{op:?} on {other:?}"))),
        })
    }

    /// Integer `/` or `%` with WGSL's results: `x / 0 == x`, `x % 0 == 0`, and
    /// `i32::MIN / -1` wraps (the divisor is made 1 where the instruction would trap).
    fn int_div(&mut self, div: bool, signed: bool, a: Value, b: Value) -> Value {
        let one = self.u32c(1);
        let zero = self.u32c(0);
        let is_zero = self.b.ins().icmp_imm_s(IntCC::Equal, b, 0);
        if signed {
            let is_neg_one = self.b.ins().icmp_imm_s(IntCC::Equal, b, -1);
            let bad = self.b.ins().bor(is_zero, is_neg_one);
            let safe = self.b.ins().select(bad, one, b);
            if div {
                let q = self.b.ins().sdiv(a, safe);
                let neg = self.b.ins().ineg(a);
                let q = self.b.ins().select(is_neg_one, neg, q);
                self.b.ins().select(is_zero, a, q)
            } else {
                let r = self.b.ins().srem(a, safe);
                self.b.ins().select(bad, zero, r)
            }
        } else {
            let safe = self.b.ins().select(is_zero, one, b);
            if div {
                let q = self.b.ins().udiv(a, safe);
                self.b.ins().select(is_zero, a, q)
            } else {
                let r = self.b.ins().urem(a, safe);
                self.b.ins().select(is_zero, zero, r)
            }
        }
    }

    /// `x as to` from `from`, with Rust's meaning (float-to-int saturates, NaN is 0).
    fn cast(&mut self, x: Value, from: Scalar, to: Scalar) -> Gen<Value> {
        use Scalar::*;
        Ok(match (from, to) {
            (a, b) if a == b => x,
            (I32, U32) | (U32, I32) => x,
            // As the interpreter: through `f32` (`half::f16::to_f32` quiets a NaN), and an
            // integer rounded to `f32` first, then to a half.
            (F16, F32) => super::half::quiet(&mut self.b, x),
            (F16, to) => self.cast(x, F32, to)?,
            (Bool, F16) => self.cast(x, Bool, F32)?,
            (from, F16) => {
                let wide = self.cast(x, from, F32)?;
                super::half::round(&mut self.b, wide)
            }
            (F32, I32) => self.b.ins().fcvt_to_sint_sat(types::I32, x),
            (F32, U32) => self.b.ins().fcvt_to_uint_sat(types::I32, x),
            (F32, Bool) => {
                let z = self.b.ins().f32const(0.0);
                self.b.ins().fcmp(FloatCC::NotEqual, x, z)
            }
            (I32, F32) => self.b.ins().fcvt_from_sint(types::F32, x),
            (U32, F32) => self.b.ins().fcvt_from_uint(types::F32, x),
            (I32 | U32, Bool) => self.b.ins().icmp_imm_s(IntCC::NotEqual, x, 0),
            (Bool, F32) => {
                let w = self.b.ins().uextend(types::I32, x);
                self.b.ins().fcvt_from_uint(types::F32, w)
            }
            (Bool, I32 | U32) => self.b.ins().uextend(types::I32, x),
            (a, b) => return Err(Unsupported(format!("a cast from {a:?} to {b:?}"))),
        })
    }

    /// A struct, array or vector built from its parts.
    fn compose(&mut self, ty: Type, components: &[Handle<Expression>]) -> Gen<Val> {
        let mut parts = Vec::with_capacity(components.len());
        for c in components {
            parts.push(self.eval(*c)?);
        }
        match ty {
            Type::Vector(n, _) => {
                // As WGSL's constructors: vectors spread, one scalar fills every component.
                let mut flat = Vec::new();
                for p in parts {
                    match p {
                        Val::S(x) => flat.push(x),
                        Val::V(xs) => flat.extend(xs),
                        Val::M(_) => return Err(Unsupported("a vector of memory".into())),
                    }
                }
                if flat.len() == 1 {
                    flat = vec![flat[0]; usize::from(n)];
                }
                flat.truncate(usize::from(n));
                Ok(Val::V(flat))
            }
            Type::Scalar(_) => parts
                .into_iter()
                .next()
                .ok_or_else(|| Unsupported("an empty scalar".into())),
            _ => {
                let words = self.words(ty);
                let slot = self.slot(words);
                let addr = self.slot_addr(slot);
                for (i, p) in parts.iter().enumerate() {
                    let (off, pt) = match self.lay.array_bytes(ty) {
                        Some((elem, _, stride)) => (i * stride, elem),
                        None => (
                            self.lay.field_offset_bytes(ty, i as u32),
                            self.lay.field_type(ty, i as u32),
                        ),
                    };
                    let at = self.b.ins().iadd_imm_s(addr, off as i64);
                    self.store(pt, at, p)?;
                }
                Ok(Val::M(addr))
            }
        }
    }

    /// A math function: the simple ones inline, the `f32 -> f32` ones of `f32` scalars as
    /// direct calls of the interpreter's functions ([`Self::typed_f32_math`]), every other
    /// through the interpreter's own code ([`super::native::math`]), so the bits are the
    /// interpreter's.
    fn math(&mut self, fun: MathFun, args: &[Handle<Expression>], ty: Type) -> Gen<Val> {
        let s = Self::scalar_of(self.expr(args[0]).ty)?;
        let mut vals = Vec::with_capacity(args.len());
        for a in args {
            vals.push(self.eval(*a)?);
        }
        let all_scalar = vals.iter().all(|v| matches!(v, Val::S(_)));
        if s == Scalar::F16 && all_scalar {
            if let Some(v) = self.half_math(fun, &vals) {
                return Ok(Val::S(v));
            }
        }
        if all_scalar {
            let x: Vec<Value> = vals
                .iter()
                .map(|v| match v {
                    Val::S(x) => *x,
                    _ => unreachable!("checked"),
                })
                .collect();
            let inline = match (s, fun) {
                (Scalar::F32, MathFun::Abs) => Some(self.b.ins().fabs(x[0])),
                (Scalar::F32, MathFun::Sqrt) => Some(self.b.ins().sqrt(x[0])),
                (Scalar::F32, MathFun::Floor | MathFun::Ceil | MathFun::Trunc) => {
                    let r = match fun {
                        MathFun::Floor => self.b.ins().floor(x[0]),
                        MathFun::Ceil => self.b.ins().ceil(x[0]),
                        _ => self.b.ins().trunc(x[0]),
                    };
                    // `roundss` quiets a signalling NaN, which Rust's `floorf` & co. (the
                    // interpreter's) return as they are: a NaN passes through unchanged.
                    let nan = self.b.ins().fcmp(FloatCC::Unordered, x[0], x[0]);
                    Some(self.b.ins().select(nan, x[0], r))
                }
                (Scalar::F32, MathFun::MulAdd) => Some(self.b.ins().fma(x[0], x[1], x[2])),
                // The interpreter's clamp (the GPU polyfill's): raise to `lo` when below it,
                // then lower to `hi` when above it; NaN compares false and passes through.
                (Scalar::F32, MathFun::Clamp) => {
                    let below = self.b.ins().fcmp(FloatCC::LessThan, x[0], x[1]);
                    let r = self.b.ins().select(below, x[1], x[0]);
                    let above = self.b.ins().fcmp(FloatCC::GreaterThan, r, x[2]);
                    Some(self.b.ins().select(above, x[2], r))
                }
                (Scalar::I32, MathFun::Min) => Some(self.b.ins().smin(x[0], x[1])),
                (Scalar::I32, MathFun::Max) => Some(self.b.ins().smax(x[0], x[1])),
                (Scalar::U32, MathFun::Min) => Some(self.b.ins().umin(x[0], x[1])),
                (Scalar::U32, MathFun::Max) => Some(self.b.ins().umax(x[0], x[1])),
                (Scalar::I32, MathFun::Clamp) => {
                    let m = self.b.ins().smax(x[0], x[1]);
                    Some(self.b.ins().smin(m, x[2]))
                }
                (Scalar::U32, MathFun::Clamp) => {
                    let m = self.b.ins().umax(x[0], x[1]);
                    Some(self.b.ins().umin(m, x[2]))
                }
                (Scalar::I32, MathFun::Abs) => {
                    let neg = self.b.ins().ineg(x[0]);
                    Some(self.b.ins().smax(x[0], neg))
                }
                _ => None,
            };
            if let Some(v) = inline {
                return Ok(Val::S(v));
            }
            if let Some(v) = self.typed_f32_math(fun, &x, args, ty) {
                return Ok(Val::S(v));
            }
        }
        self.call_math(fun, &vals, args, ty)
    }

    /// An `f32 -> f32` math function of `f32` scalars (`sin`, `exp`, `powf`, `atan2`, `min`,
    /// ...): a direct call of the function the interpreter computes it with
    /// ([`crate::interp::f32_math`]), so the bits are the interpreter's, without
    /// [`super::native::math`]'s tagged words and `Value`s: `y = sin(x) + exp(x)` over 2^22
    /// floats took 339-367 ms through `native::math` and takes 25-26 ms on one JIT thread
    /// (13-15 ms against 205-209 on two; plain Rust 20 ms on one core), release, 2-core
    /// machine shared (BENCHMARKS.md, "typed f32 math").
    fn typed_f32_math(
        &mut self,
        fun: MathFun,
        x: &[Value],
        args: &[Handle<Expression>],
        ty: Type,
    ) -> Option<Value> {
        use crate::interp::f32_math;
        let f32_ty = Type::Scalar(Scalar::F32);
        // `SAREK_JIT_TYPED_MATH=0` sends them through `native::math` (the A/B of the CPU
        // suite's `transcend` row).
        if !crate::toggle::enabled("SAREK_JIT_TYPED_MATH", true) {
            return None;
        }
        if ty != f32_ty || args.iter().any(|a| self.expr(*a).ty != f32_ty) {
            return None;
        }
        match *x {
            [a] => {
                let f = f32_math::unary(fun)?;
                let f = self
                    .b
                    .ins()
                    .iconst(types::I64, f as *const () as usize as i64);
                let call = self.b.ins().call_indirect(self.f32_unary_sig, f, &[a]);
                Some(self.b.inst_results(call)[0])
            }
            [a, b] => Some(self.call_f32(f32_math::binary(fun)?, a, b)),
            _ => None,
        }
    }

    fn call_math(
        &mut self,
        fun: MathFun,
        vals: &[Val],
        args: &[Handle<Expression>],
        ty: Type,
    ) -> Gen<Val> {
        use super::native::MATH_ARG_WORDS;
        let code = |s: Scalar| -> Gen<u32> {
            Ok(match s {
                Scalar::F32 => 0,
                Scalar::I32 => 1,
                Scalar::U32 => 2,
                Scalar::Bool => 3,
                Scalar::F16 => 4,
                Scalar::I64 | Scalar::U64 => return Err(Unsupported("64-bit integers".into())),
            })
        };
        let in_slot = self.slot(3 * MATH_ARG_WORDS as u32);
        let out_slot = self.slot(4);
        let inp = self.slot_addr(in_slot);
        let out = self.slot_addr(out_slot);
        for (i, (v, h)) in vals.iter().zip(args).enumerate().take(3) {
            let at = (i * MATH_ARG_WORDS * 4) as i32;
            let at_ty = self.expr(*h).ty;
            let s = Self::scalar_of(at_ty)?;
            let tc = self.u32c(code(s)?);
            self.b.ins().store(flags(), tc, inp, at);
            let (width, parts) = match v {
                Val::S(x) => (0, vec![*x]),
                Val::V(p) => (p.len() as u32, p.clone()),
                Val::M(_) => return Err(Unsupported("math on a struct".into())),
            };
            let w = self.u32c(width);
            self.b.ins().store(flags(), w, inp, at + 4);
            for (j, p) in parts.into_iter().enumerate() {
                let at = at + 8 + 4 * j as i32;
                if s == Scalar::F16 {
                    // A half's bits, in a word of their own.
                    let h = super::half::narrow(&mut self.b, p);
                    self.b.ins().store(flags(), h, inp, at);
                } else {
                    self.store_scalar(s, p, inp, at);
                }
            }
        }
        let fun_ptr = self.leak_fun(fun);
        let fp = self.b.ins().iconst(types::I64, fun_ptr as i64);
        let callee = self
            .b
            .ins()
            .iconst(types::I64, super::native::math as *const () as usize as i64);
        self.b
            .ins()
            .call_indirect(self.math_sig, callee, &[fp, inp, out]);
        match ty {
            // Halves come back as bits, one word each.
            Type::Scalar(Scalar::F16) => {
                let h = self.b.ins().load(types::I32, flags(), out, 0);
                Ok(Val::S(super::half::widen(&mut self.b, h)))
            }
            Type::Vector(n, Scalar::F16) => {
                let mut parts = Vec::with_capacity(usize::from(n));
                for i in 0..i32::from(n) {
                    let h = self.b.ins().load(types::I32, flags(), out, 4 * i);
                    parts.push(super::half::widen(&mut self.b, h));
                }
                Ok(Val::V(parts))
            }
            Type::Scalar(_) | Type::Vector(..) => self.load(ty, out),
            other => Err(Unsupported(format!("math giving {other:?}"))),
        }
    }

    /// A binary operator on halves held as `f32`s: computed in `f32`, then rounded to the
    /// nearest half (comparisons as they are).
    fn half_binary(&mut self, op: BinaryOp, a: Value, b: Value) -> Gen<Value> {
        use super::half::{quiet, round};
        use BinaryOp::*;
        Ok(match op {
            Add | Sub | Mul | Div => {
                let r = self.scalar_binary(op, Scalar::F32, a, b)?;
                round(&mut self.b, r)
            }
            // Rust's `fmod` is called with what the interpreter passes it: quiet NaNs.
            Rem => {
                let (a, b) = (quiet(&mut self.b, a), quiet(&mut self.b, b));
                let r = self.scalar_binary(Rem, Scalar::F32, a, b)?;
                round(&mut self.b, r)
            }
            Eq | Ne | Lt | Le | Gt | Ge => self.scalar_binary(op, Scalar::F32, a, b)?,
            _ => return Err(Unsupported(format!("{op:?} on f16"))),
        })
    }

    /// A math function on scalar halves the JIT inlines: the `f32` instruction, then one
    /// rounding, as the interpreter computes it in `f32` and rounds once.
    fn half_math(&mut self, fun: MathFun, vals: &[Val]) -> Option<Value> {
        let x: Vec<Value> = vals
            .iter()
            .filter_map(|v| match v {
                Val::S(x) => Some(*x),
                _ => None,
            })
            .collect();
        let r = match fun {
            MathFun::Abs => self.b.ins().fabs(x[0]),
            MathFun::Sqrt => self.b.ins().sqrt(x[0]),
            MathFun::Floor => self.b.ins().floor(x[0]),
            MathFun::Ceil => self.b.ins().ceil(x[0]),
            MathFun::Trunc => self.b.ins().trunc(x[0]),
            MathFun::MulAdd if x.len() == 3 => self.b.ins().fma(x[0], x[1], x[2]),
            _ => return None,
        };
        Some(super::half::round(&mut self.b, r))
    }

    /// A call of `f`, a Rust function on two `f32`s, from the generated code.
    fn call_f32(&mut self, f: extern "C" fn(f32, f32) -> f32, a: Value, b: Value) -> Value {
        let f = self
            .b
            .ins()
            .iconst(types::I64, f as *const () as usize as i64);
        let call = self.b.ins().call_indirect(self.f32_call_sig, f, &[a, b]);
        self.b.inst_results(call)[0]
    }

    /// A `MathFun` at a fixed address for the generated code to pass back.
    fn leak_fun(&mut self, fun: MathFun) -> usize {
        if let Some((_, p)) = self.math_funs.iter().find(|(f, _)| *f == fun) {
            return *p;
        }
        let p = super::leaked_fun(fun);
        self.math_funs.push((fun, p));
        p
    }
}
