//! Calls: Sarek's index intrinsics (`thread_idx_x()`, ..), barriers, math functions and
//! methods (`x.sqrt()`, `a.max(b)`, `f32::powf(..)`), and the dispatch of other calls to
//! constructors and helpers.

use proc_macro2::Span;
use syn::spanned::Spanned;

use crate::arena::Handle;
use crate::front::diagnostic::ErrorKind;
use crate::front::infer::{Ty, VarKind};
use crate::front::types;
use crate::ir::*;

use super::{items, std_methods, Item, Lowerer, Value, R};

impl Lowerer<'_> {
    /// The math function `name` lowers to here, from the table of intrinsics: the rows
    /// typed by [`Rule::Float`], [`Rule::Number`], [`Rule::Count`] and [`Rule::IntPow`] (the
    /// [`Rule::Method`] rows are [`std_methods`]').
    pub(super) fn math_fun(name: &str) -> Option<MathFun> {
        MathFun::scalar_method(name).filter(|f| {
            matches!(
                f.intrinsic().rule,
                Rule::Float | Rule::Number { .. } | Rule::Count | Rule::IntPow
            )
        })
    }

    /// `block_barrier()` or `storage_barrier()` (optionally as `gpu::..`).
    pub(super) fn barrier(c: &syn::ExprCall) -> Option<Barrier> {
        let syn::Expr::Path(p) = &*c.func else {
            return None;
        };
        let segments = &p.path.segments;
        let from_gpu = segments.len() == 1
            || segments
                .iter()
                .rev()
                .nth(1)
                .is_some_and(|s| s.ident == "gpu");
        match segments.last()?.ident.to_string().as_str() {
            "block_barrier" if from_gpu => Some(Barrier::Workgroup),
            "storage_barrier" if from_gpu => Some(Barrier::Storage),
            _ => None,
        }
    }

    pub(super) fn method_call(&mut self, m: &syn::ExprMethodCall) -> R<Value> {
        if let Some(v) = self.user_method_call(m) {
            return v;
        }
        if let Some(v) = self.coop_method(m) {
            return v;
        }
        let name = m.method.to_string();
        const ATOMIC: [&str; 12] = [
            "load",
            "store",
            "fetch_add",
            "fetch_sub",
            "fetch_min",
            "fetch_max",
            "fetch_and",
            "fetch_or",
            "fetch_xor",
            "swap",
            "compare_exchange",
            "compare_exchange_weak",
        ];
        if ATOMIC.contains(&name.as_str()) {
            return self.atomic_method(m, &name);
        }
        if let syn::Expr::MethodCall(inner) = &*m.receiver {
            if inner.method == "compare_exchange" || inner.method == "compare_exchange_weak" {
                return self.exchange_result(m, inner, &name);
            }
        }
        self.plain_method_call(m).map(Value::Expr)
    }

    pub(super) fn plain_method_call(&mut self, m: &syn::ExprMethodCall) -> R<Handle<Expression>> {
        let span = m.span();
        let name = m.method.to_string();
        if m.turbofish.is_some() {
            return Err(self.fail(
                m.method.span(),
                ErrorKind::unsupported("turbofish arguments are not supported here"),
            ));
        }
        if name == "len" {
            if !m.args.is_empty() {
                return Err(self.error(m.args.span(), "`len` takes no arguments"));
            }
            let slice = self.slice_param(&m.receiver)?;
            return Ok(self.expr(Expr::Len(slice), Ty::Known(Scalar::U32), span));
        }
        let receiver = self.value(&m.receiver)?;
        let receiver_end = self.block_len();
        if let Ty::Compound(Type::Vector(..)) = self.infer.shallow(self.ty(receiver)) {
            let rest: Vec<&syn::Expr> = m.args.iter().collect();
            return self.vector_method(&name, m.method.span(), receiver, &rest, span);
        }
        if let Some(v) = self.half_method(&name, receiver, m) {
            return v;
        }
        let mut operands: Vec<&syn::Expr> = vec![&m.receiver];
        operands.extend(m.args.iter());
        self.math_call_with(
            &name,
            m.method.span(),
            &operands,
            Some((receiver, receiver_end)),
            span,
        )
    }

    pub(super) fn math_call(
        &mut self,
        name: &str,
        name_span: Span,
        operands: &[&syn::Expr],
        span: Span,
    ) -> R<Handle<Expression>> {
        self.math_call_with(name, name_span, operands, None, span)
    }

    /// A math function; `receiver` is the first operand when it is already lowered (with the
    /// block length after it).
    pub(super) fn math_call_with(
        &mut self,
        name: &str,
        name_span: Span,
        operands: &[&syn::Expr],
        receiver: Option<(Handle<Expression>, usize)>,
        span: Span,
    ) -> R<Handle<Expression>> {
        let wrapping = match name {
            "wrapping_add" => Some(BinaryOp::Add),
            "wrapping_sub" => Some(BinaryOp::Sub),
            "wrapping_mul" => Some(BinaryOp::Mul),
            // WGSL defines `MIN / -1` as `MIN` and `MIN % -1` as 0: Rust's wrapping results.
            "wrapping_div" => Some(BinaryOp::Div),
            "wrapping_rem" => Some(BinaryOp::Rem),
            "wrapping_shl" => Some(BinaryOp::Shl),
            "wrapping_shr" => Some(BinaryOp::Shr),
            _ => None,
        };
        if name == "wrapping_neg" || name == "wrapping_abs" {
            if operands.len() != 1 {
                return Err(self.error(span, format!("`{name}` takes no arguments")));
            }
            let v = match receiver {
                Some((r, _)) => r,
                None => self.value(operands[0])?,
            };
            self.require_int(v, span)?;
            let ty = self.ty(v);
            let kind = if name == "wrapping_neg" {
                Expr::Unary {
                    op: UnaryOp::Neg,
                    expr: v,
                }
            } else {
                if self.infer.shallow(ty) == Ty::Known(Scalar::U32) {
                    return Err(self.error(name_span, "`wrapping_abs` is not defined for `u32`"));
                }
                Expr::Math {
                    fun: MathFun::Abs,
                    args: vec![v],
                }
            };
            return Ok(self.expr(kind, ty, span));
        }
        if std_methods::handles(name) {
            let args = self.method_args(operands, receiver)?;
            return self.std_method(name, name_span, &args, span);
        }
        let Some(fun) = Self::math_fun(name).or(wrapping.map(|_| MathFun::Abs)) else {
            return Err(self.error(name_span, std_methods::unknown_method(name)));
        };
        let arity = if wrapping.is_some() { 2 } else { fun.arity() };
        if operands.len() != arity {
            return Err(self.error(span, format!("`{name}` takes {} argument(s)", arity - 1)));
        }
        let args = self.method_args(operands, receiver)?;
        if let Some(op) = wrapping {
            self.require_int(args[0], span)?;
            let ty = self.binary_type(op, args[0], args[1], span)?;
            return Ok(self.expr(
                Expr::Binary {
                    op,
                    left: args[0],
                    right: args[1],
                },
                ty,
                span,
            ));
        }
        let rule = fun.intrinsic().rule;
        match rule {
            Rule::Count => {
                self.require_int(args[0], span)?;
                return Ok(self.expr(Expr::Math { fun, args }, Ty::Known(Scalar::U32), span));
            }
            Rule::IntPow => {
                self.require_int(args[0], span)?;
                self.require(args[1], Scalar::U32, operands[1].span())?;
                let ty = self.ty(args[0]);
                return Ok(self.expr(Expr::Math { fun, args }, ty, span));
            }
            _ => {}
        }
        let mut ty = self.ty(args[0]);
        for &a in &args[1..] {
            let at = self.ty(a);
            ty = self.unify(ty, at, span)?;
        }
        match rule {
            Rule::Number { unsigned } => {
                let t = self.infer.shallow(ty);
                if t == Ty::Known(Scalar::Bool) || (!unsigned && t == Ty::Known(Scalar::U32)) {
                    let found = self.describe(t);
                    return Err(
                        self.error(name_span, format!("`{name}` is not defined for `{found}`"))
                    );
                }
            }
            // `f16` has every float function (computed in `f32` and rounded).
            _ if self.infer.shallow(ty) == Ty::Known(Scalar::F16) => {}
            _ => {
                if self.infer.shallow(ty) != Ty::Known(Scalar::F32)
                    && self.infer.kind_of(ty) != Some(VarKind::Float)
                {
                    let found = self.describe(ty);
                    return Err(self.error(name_span, format!("`{name}` is an `f32` method, but the receiver is `{found}`; convert it with `as f32`")));
                }
                ty = self.unify(ty, Ty::Known(Scalar::F32), span)?;
            }
        }
        Ok(self.expr(Expr::Math { fun, args }, ty, span))
    }

    /// The operands of a method, receiver first; `receiver` is already lowered (with the
    /// block length after it), and is spilled when a later operand needs statements.
    fn method_args(
        &mut self,
        operands: &[&syn::Expr],
        receiver: Option<(Handle<Expression>, usize)>,
    ) -> R<Vec<Handle<Expression>>> {
        Ok(match receiver {
            Some((r, end)) => {
                let before = self.block_len();
                let mut rest = self.operands(&operands[1..])?;
                let r = if self.block_len() != before && !self.is_stable(r) {
                    self.spill(r, Some(end))
                } else {
                    r
                };
                rest.insert(0, r);
                rest
            }
            None => self.operands(operands)?,
        })
    }

    pub(super) fn intrinsic(name: &str) -> Option<Builtin> {
        let axis = |s: &str| match s {
            "x" => Some(Axis::X),
            "y" => Some(Axis::Y),
            "z" => Some(Axis::Z),
            _ => None,
        };
        if name == "global_thread_id" {
            return Some(Builtin::GlobalThreadId);
        }
        let (base, a) = name.rsplit_once('_')?;
        let a = axis(a)?;
        Some(match base {
            "thread_idx" => Builtin::ThreadIdx(a),
            "block_idx" => Builtin::BlockIdx(a),
            "block_dim" => Builtin::BlockDim(a),
            "grid_dim" => Builtin::GridDim(a),
            "global_idx" => Builtin::GlobalIdx(a),
            _ => return None,
        })
    }

    pub(super) fn call(&mut self, c: &syn::ExprCall) -> R<Value> {
        let span = c.span();
        let syn::Expr::Path(p) = &*c.func else {
            return Err(self.error(
                c.func.span(),
                "only Sarek's intrinsics, helper functions and `f32` functions can be called in a kernel",
            ));
        };
        if let Some(Item::Fn(f, scope)) =
            items::local_path_name(&p.path).and_then(|n| self.cx.items.lookup(&n))
        {
            return self.helper_call(c, &f, scope);
        }
        if let Some(v) = self.variant_call(c, p) {
            return v.map(Value::Expr);
        }
        if let Some(v) = self.associated_call(c, p) {
            return v;
        }
        if let Some(v) = self.vector_call(c, p) {
            return v.map(Value::Expr);
        }
        let segments: Vec<String> = p
            .path
            .segments
            .iter()
            .map(|s| s.ident.to_string())
            .collect();
        let last = segments.last().cloned().unwrap_or_default();
        let prefix = &segments[..segments.len() - 1];
        let from_gpu = prefix.is_empty() || prefix.last().is_some_and(|s| s == "gpu");
        if from_gpu {
            if let Some(v) = self.subgroup_call(c, &last) {
                return v;
            }
            if let Some(builtin) = Self::intrinsic(&last) {
                if !c.args.is_empty() {
                    return Err(self.error(c.args.span(), format!("`{last}()` takes no arguments")));
                }
                return Ok(Value::Expr(self.expr(
                    Expr::Builtin(builtin),
                    Ty::Known(Scalar::U32),
                    span,
                )));
            }
            if let Some(v) = self.packing_call(&last, c) {
                return v;
            }
            if last == "workgroup_uniform_load" {
                return self.uniform_load(c);
            }
            if last == "shared_len" {
                return Err(self.error(p.span(), "bind workgroup memory to a name where it is created: `let row = shared_len::<f32>(n);`"));
            }
            if last == "shared" {
                return Err(self.error(p.span(), "bind workgroup memory to a name where it is created: `let tile = shared::<[f32; 256]>();`"));
            }
        }
        if let Some(v) = self.half_call(c, prefix, &last) {
            return v;
        }
        // `f32::sqrt(x)`, `i32::max(a, b)`: the method-call forms of the same functions.
        if let [ty] = prefix {
            if let Some(reason) = types::refusal(ty) {
                return Err(self.error(p.span(), reason));
            }
            if matches!(ty.as_str(), "f32" | "i32" | "u32" | "usize" | "f16") {
                let operands: Vec<&syn::Expr> = c.args.iter().collect();
                let name_span = p.path.segments.last().map_or(span, |s| s.ident.span());
                return self
                    .math_call(&last, name_span, &operands, span)
                    .map(Value::Expr);
            }
        }
        // A matrix made where a value is expected (`if c { CoopMatrix::load_rows(..) } else
        // { .. }`, an argument): the lowering takes matrices only as statements.
        if prefix.first().is_some_and(|s| s == "CoopMatrix") {
            return Err(self.error(
                c.func.span(),
                format!("`CoopMatrix::{last}` makes a cooperative matrix, which a kernel binds with `let` or assigns to a matrix variable as a statement of its own; write `let m = CoopMatrix::{last}(..);` (in each branch of an `if`) and use `m`"),
            ));
        }
        Err(self.error(
            c.func.span(),
            format!("cannot call `{0}` on the GPU: a kernel can call Sarek's intrinsics (`global_thread_id()`, `thread_idx_x()`, ...), math methods, and the `fn`s of its `#[sarek::module]`, of the `#[sarek::module]`s it imports with `use`, and of its own body, whose code the macro reads; move `{0}` into a `#[sarek::module]`", segments.join("::")),
        ))
    }
}
