//! Atomics: methods on `AtomicU32`/`AtomicI32`/`AtomicF32` elements of buffers and workgroup arrays
//! (`fetch_add`, `load`, `store`, `swap`, `compare_exchange`, ..).

use syn::spanned::Spanned;

use crate::arena::Handle;
use crate::front::infer::Ty;
use crate::ir::*;

use super::{Element, Lowerer, Value, R};

impl Lowerer<'_> {
    /// Checks that `e` names a `std::sync::atomic::Ordering` variant. WGSL atomics are all
    /// relaxed; stronger orderings are accepted (barriers give the workgroup-level ordering).
    pub(super) fn ordering(&mut self, e: &syn::Expr) -> R<()> {
        if let syn::Expr::Path(p) = e {
            if let Some(last) = p.path.segments.last() {
                if ["Relaxed", "Acquire", "Release", "AcqRel", "SeqCst"]
                    .iter()
                    .any(|v| last.ident == v)
                {
                    return Ok(());
                }
            }
        }
        Err(self.error(
            e.span(),
            "expected an `Ordering` (`Ordering::Relaxed`, ...)",
        ))
    }

    /// `x[i].fetch_add(v, ord)` and the other atomic methods; returns the previous value.
    pub(super) fn atomic_method(&mut self, m: &syn::ExprMethodCall, name: &str) -> R<Value> {
        let span = m.span();
        let fun = match name {
            "load" => AtomicFun::Load,
            "store" => AtomicFun::Store,
            "fetch_add" => AtomicFun::Add,
            "fetch_sub" => AtomicFun::Sub,
            "fetch_min" => AtomicFun::Min,
            "fetch_max" => AtomicFun::Max,
            "fetch_and" => AtomicFun::And,
            "fetch_or" => AtomicFun::Or,
            "fetch_xor" => AtomicFun::Xor,
            "swap" => AtomicFun::Exchange,
            _ => return self.compare_exchange(m).map(|_| Value::Unit),
        };
        let arity = if fun == AtomicFun::Load { 1 } else { 2 };
        if m.args.len() != arity {
            return Err(self.error(
                span,
                format!("`{name}` takes {arity} argument(s), the last an `Ordering`"),
            ));
        }
        let (target, elem) = self.atomic_target(&m.receiver)?;
        let float_op = matches!(
            fun,
            AtomicFun::Load
                | AtomicFun::Store
                | AtomicFun::Add
                | AtomicFun::Sub
                | AtomicFun::Exchange
        );
        if elem == Scalar::F32 && !float_op {
            return Err(self.error(m.method.span(), format!("`AtomicF32` supports `load`, `store`, `fetch_add`, `fetch_sub` and `swap` in kernels (WGSL's float atomics), not `{name}`")));
        }
        let args: Vec<&syn::Expr> = m.args.iter().collect();
        self.ordering(args[arity - 1])?;
        let value = if arity == 2 {
            let v = self.value(args[0])?;
            self.require(v, elem, args[0].span())?;
            Some(self.spill(v, None))
        } else {
            None
        };
        let ty = Ty::Known(elem);
        let result =
            (fun != AtomicFun::Store).then(|| self.new_local("__old", ty, false, false, span));
        self.push(
            Stmt::Atomic {
                fun,
                target,
                value,
                result,
            },
            span,
        );
        Ok(match result {
            Some(l) => Value::Expr(self.read(l, ty, span)),
            None => Value::Unit,
        })
    }

    /// Drops the result of a 64-bit atomic whose value `h` a statement discards
    /// (`hi[0].fetch_max(x, Relaxed);`): naga allows 64-bit `atomicMin`/`atomicMax` under
    /// `SHADER_INT64_ATOMIC_MIN_MAX` only as calls without a result.
    pub(super) fn discard_wide_atomic_result(&mut self, h: Handle<Expression>) {
        let Expr::Local(read) = self.function.exprs[h].kind else {
            return;
        };
        if let Some(Statement {
            kind: Stmt::Atomic { result, .. },
            ..
        }) = self.blocks.last_mut().and_then(|b| b.last_mut())
        {
            let wide = matches!(self.infer.shallow(self.local_tys[read.index()]), Ty::Known(s) if s.is_wide());
            if wide && *result == Some(read) {
                *result = None;
            }
        }
    }

    /// The atomic element a method is called on, and its type.
    pub(super) fn atomic_target(&mut self, receiver: &syn::Expr) -> R<(AtomicTarget, Scalar)> {
        let mut r = receiver;
        while let syn::Expr::Paren(p) = r {
            r = &p.expr;
        }
        let syn::Expr::Index(ix) = r else {
            return Err(self.error(receiver.span(), "atomic methods apply to an element of an atomic buffer or workgroup array: `counts[i].fetch_add(1, Ordering::Relaxed)`"));
        };
        let scalar = |t: Type| t.scalar().unwrap_or(Scalar::U32);
        match self.element(ix)? {
            Some(Element::Buffer { slice, elem, atomic: true, index, .. }) => Ok((AtomicTarget::Buffer { slice, index }, scalar(elem))),
            Some(Element::Shared { var, elem, atomic: true, indices }) => Ok((AtomicTarget::Shared { var, indices }, scalar(elem))),
            _ => Err(self.error(receiver.span(), "this element is not atomic: declare the parameter `&[AtomicU32]`/`&[AtomicI32]` or the array `shared::<[AtomicU32; N]>()`")),
        }
    }

    /// `x[i].compare_exchange(current, new, ord, ord)`: returns (previous value, exchanged).
    pub(super) fn compare_exchange(
        &mut self,
        m: &syn::ExprMethodCall,
    ) -> R<(Handle<Local>, Handle<Local>)> {
        let span = m.span();
        if m.args.len() != 4 {
            return Err(self.error(
                span,
                "`compare_exchange` takes `current, new, success: Ordering, failure: Ordering`",
            ));
        }
        let (target, elem) = self.atomic_target(&m.receiver)?;
        if elem == Scalar::F32 {
            return Err(self.error(m.method.span(), "`AtomicF32` has no `compare_exchange` in kernels (WGSL's float atomics do not); it supports `load`, `store`, `fetch_add`, `fetch_sub` and `swap`"));
        }
        let args: Vec<&syn::Expr> = m.args.iter().collect();
        self.ordering(args[2])?;
        self.ordering(args[3])?;
        let v = self.operands(&args[..2])?;
        self.require(v[0], elem, args[0].span())?;
        self.require(v[1], elem, args[1].span())?;
        let compare = self.spill(v[0], None);
        let value = self.spill(v[1], None);
        let old = self.new_local("__old", Ty::Known(elem), true, false, span);
        let exchanged = self.new_local("__exchanged", Ty::Known(Scalar::Bool), true, false, span);
        self.push(
            Stmt::CompareExchange {
                target,
                compare,
                value,
                old,
                exchanged,
            },
            span,
        );
        Ok((old, exchanged))
    }

    /// `.is_ok()`, `.is_err()`, `.unwrap_or_else(|v| v)` on the `Result` of `compare_exchange`.
    pub(super) fn exchange_result(
        &mut self,
        m: &syn::ExprMethodCall,
        inner: &syn::ExprMethodCall,
        name: &str,
    ) -> R<Value> {
        let span = m.span();
        let closure_is_identity = |e: &syn::Expr| match e {
            syn::Expr::Closure(c) if c.inputs.len() == 1 => match (&c.inputs[0], &*c.body) {
                (syn::Pat::Ident(p), syn::Expr::Path(b)) => b.path.is_ident(&p.ident),
                _ => false,
            },
            _ => false,
        };
        let ok = match name {
            "is_ok" | "is_err" if m.args.is_empty() => Some(name == "is_ok"),
            "unwrap_or_else" if m.args.len() == 1 && closure_is_identity(&m.args[0]) => None,
            _ => {
                return Err(self.error(
                    m.method.span(),
                    "the `Result` of `compare_exchange` supports `.is_ok()`, `.is_err()` and `.unwrap_or_else(|v| v)` (the previous value) in kernels",
                ))
            }
        };
        let (old, exchanged) = self.compare_exchange(inner)?;
        let elem_ty = self.local_tys[old.index()];
        let bool_ty = Ty::Known(Scalar::Bool);
        Ok(Value::Expr(match ok {
            Some(true) => self.read(exchanged, bool_ty, span),
            Some(false) => {
                let e = self.read(exchanged, bool_ty, span);
                self.expr(
                    Expr::Unary {
                        op: UnaryOp::Not,
                        expr: e,
                    },
                    bool_ty,
                    span,
                )
            }
            None => self.read(old, elem_ty, span),
        }))
    }
}
