//! Type inference glue: unifying the types of operands, the errors rustc would give for a
//! mismatch, and the final pass that gives every literal, expression and local its type.

use proc_macro2::Span;

use crate::arena::Handle;
use crate::front::diagnostic::ErrorKind;
use crate::front::infer::{Ty, VarKind};
use crate::ir::*;

use super::{Lowerer, R};

impl Lowerer<'_> {
    pub(super) fn unify(&mut self, a: Ty, b: Ty, span: Span) -> R<Ty> {
        match self.infer.unify(a, b) {
            Ok(t) => Ok(t),
            Err((a, b)) => {
                let (expected, found) = (self.describe(a), self.describe(b));
                Err(self.fail(span, ErrorKind::Mismatch { expected, found }))
            }
        }
    }

    /// How rustc would print `ty`.
    pub(super) fn describe(&mut self, ty: Ty) -> String {
        match self.infer.shallow(ty) {
            Ty::Compound(t) => type_name(&self.cx.kernel.types, t),
            other => self.infer.describe(other),
        }
    }

    pub(super) fn require(&mut self, h: Handle<Expression>, want: Scalar, span: Span) -> R<()> {
        let t = self.ty(h);
        self.unify(t, Ty::Known(want), span).map(|_| ())
    }

    /// Requires an index: a `usize` (or `u32`); a 64-bit integer is refused with why.
    pub(super) fn require_index(&mut self, h: Handle<Expression>, span: Span) -> R<()> {
        if let Ty::Known(s) = self.infer.shallow(self.ty(h)) {
            if s.is_wide() {
                return Err(self.error(span, format!("indices are `usize`, which is 32 bits on the GPU, so an `{}` cannot index; write `x[j as usize]` where `j` is known to fit in 32 bits", s.rust_name())));
            }
        }
        self.require(h, Scalar::U32, span)
    }

    pub(super) fn require_int(&mut self, h: Handle<Expression>, span: Span) -> R<()> {
        let t = self.ty(h);
        match self.infer.shallow(t) {
            Ty::Known(s) if s.is_integer() => Ok(()),
            Ty::Var(_) if self.infer.kind_of(t) == Some(VarKind::Int) => Ok(()),
            other => {
                let found = self.describe(other);
                Err(self.fail(
                    span,
                    ErrorKind::Expected {
                        what: "an integer",
                        found,
                    },
                ))
            }
        }
    }

    pub(super) fn require_numeric(&mut self, h: Handle<Expression>, span: Span) -> R<()> {
        let t = self.ty(h);
        match self.infer.shallow(t) {
            Ty::Known(Scalar::Bool) => {
                let found = self.describe(t);
                Err(self.fail(
                    span,
                    ErrorKind::Expected {
                        what: "a number",
                        found,
                    },
                ))
            }
            _ => Ok(()),
        }
    }

    /// Resolves every type and literal; reports what rustc would also refuse, and floats
    /// that Rust would make `f64`.
    pub fn finish(mut self) -> Function {
        for (h, value) in std::mem::take(&mut self.int_literals) {
            let span = self.expr_span(h);
            let ty = self.expr_tys[h.index()];
            let literal = match self.infer.resolve(ty) {
                Some(Scalar::I32) => i32::try_from(value).ok().map(Literal::I32),
                Some(Scalar::U32) => u32::try_from(value).ok().map(Literal::U32),
                Some(Scalar::I64) => i64::try_from(value).ok().map(Literal::I64),
                Some(Scalar::U64) => u64::try_from(value).ok().map(Literal::U64),
                Some(Scalar::F32) => Some(Literal::F32(value as f32)),
                _ => None,
            };
            match literal {
                Some(l) => self.function.exprs[h].kind = Expr::Literal(l),
                None => {
                    let t = self.describe(ty);
                    self.fail(span, ErrorKind::OutOfRange(t));
                }
            }
        }
        // An earlier error can leave a literal without its context; don't pile on.
        let earlier_errors = self.has_errors();
        for (h, value) in std::mem::take(&mut self.float_literals) {
            self.function.exprs[h].kind = Expr::Literal(Literal::F32(value));
            let ty = self.expr_tys[h.index()];
            if self.infer.resolve(ty).is_none() && !earlier_errors {
                let span = self.expr_span(h);
                self.error(span, "nothing fixes the type of this float literal, so Rust would make it `f64`, which WebGPU lacks; write it with a suffix (`1.0f32`) or annotate the binding (`let x: f32 = ..`)");
            }
        }
        for (ty, span) in std::mem::take(&mut self.deferred) {
            if self.infer.kind_of(ty) == Some(VarKind::Any) && !earlier_errors {
                self.error(span, "type annotations needed: nothing gives this binding a value, so its type is unknown; assign it, or annotate it (`let x: f32;`)");
            }
        }
        let handles: Vec<Handle<Expression>> = self.function.exprs.iter().map(|(h, _)| h).collect();
        for &h in &handles {
            let ty = self.expr_tys[h.index()];
            self.function.exprs[h].ty = self.final_type(ty);
        }
        // The math functions and integer methods are the 32-bit integers' only: WGSL has few
        // 64-bit builtins, and the CPU engine computes none.
        for h in handles {
            if let Expr::Math { args, .. } = &self.function.exprs[h].kind {
                let wide = args.iter().find_map(|a| match self.function.exprs[*a].ty {
                    Type::Scalar(s) if s.is_wide() => Some(s),
                    _ => None,
                });
                if let Some(s) = wide {
                    let span = self.expr_span(h);
                    self.error(span, format!("kernels have no math functions or integer methods on `{}` (WGSL has few 64-bit builtins); write it with operators (`if a < b {{ a }} else {{ b }}`), or convert to `i32`/`u32` or `f32` first", s.rust_name()));
                }
            }
        }
        let locals: Vec<Handle<Local>> = self.function.locals.iter().map(|(h, _)| h).collect();
        for h in locals {
            let ty = self.local_tys[h.index()];
            self.function.locals[h].ty = self.final_type(ty);
        }
        self.function
    }

    pub(super) fn final_type(&mut self, ty: Ty) -> Type {
        match self.infer.shallow(ty) {
            Ty::Compound(t) => t,
            other => Type::Scalar(self.infer.resolve(other).unwrap_or(Scalar::F32)),
        }
    }
}
