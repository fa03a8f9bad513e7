//! Unary and binary operators (with Rust's typing rules and short-circuit `&&`/`||`) and
//! `as` casts.

use proc_macro2::Span;
use syn::spanned::Spanned;

use crate::arena::Handle;
use crate::front::diagnostic::ErrorKind;
use crate::front::infer::{Ty, VarKind};
use crate::front::types;
use crate::ir::*;

use super::{Lowerer, Reported, Value, R};

impl Lowerer<'_> {
    pub(super) fn unary(&mut self, u: &syn::ExprUnary) -> R<Handle<Expression>> {
        let span = u.span();
        match u.op {
            syn::UnOp::Neg(_) => {
                // `-2147483648` is one literal to rustc; keep it one here.
                let mut inner = &*u.expr;
                while let syn::Expr::Paren(p) = inner {
                    inner = &p.expr;
                }
                if let syn::Expr::Lit(lit) = inner {
                    return self.literal(&lit.lit, true);
                }
                let e = self.value(&u.expr)?;
                self.require_numeric(e, span)?;
                if let Ty::Compound(t) = self.infer.shallow(self.ty(e)) {
                    if !matches!(t, Type::Vector(_, Scalar::F32 | Scalar::F16 | Scalar::I32)) {
                        let name = type_name(&self.cx.kernel.types, t);
                        return Err(self.error(span, format!("cannot apply unary `-` to `{name}`")));
                    }
                }
                if let Ty::Known(Scalar::U32) = self.infer.shallow(self.ty(e)) {
                    return Err(self.error(
                        span,
                        "cannot apply unary `-` to an unsigned integer; use `0u32.wrapping_sub(x)`",
                    ));
                }
                let ty = self.ty(e);
                Ok(self.expr(
                    Expr::Unary {
                        op: UnaryOp::Neg,
                        expr: e,
                    },
                    ty,
                    span,
                ))
            }
            syn::UnOp::Not(_) => {
                let e = self.value(&u.expr)?;
                if let Ty::Known(s @ (Scalar::F32 | Scalar::F16)) = self.infer.shallow(self.ty(e)) {
                    let name = s.rust_name();
                    return Err(self.error(span, format!("cannot apply `!` to `{name}`")));
                }
                // An unsuffixed float literal is a float before it is an `f32`.
                if self.infer.kind_of(self.ty(e)) == Some(VarKind::Float) {
                    return Err(self.error(span, "cannot apply `!` to `{float}`"));
                }
                if let Ty::Compound(t) = self.infer.shallow(self.ty(e)) {
                    let name = type_name(&self.cx.kernel.types, t);
                    return Err(self.error(span, format!("cannot apply `!` to `{name}`")));
                }
                let ty = self.ty(e);
                Ok(self.expr(
                    Expr::Unary {
                        op: UnaryOp::Not,
                        expr: e,
                    },
                    ty,
                    span,
                ))
            }
            syn::UnOp::Deref(_) => Err(self.error(
                span,
                "kernels have no references to dereference; use the value directly",
            )),
            _ => Err(self.fail(
                span,
                ErrorKind::unsupported("this operator is not supported in kernels"),
            )),
        }
    }

    pub(super) fn binary_op(op: &syn::BinOp) -> (BinaryOp, bool) {
        use syn::BinOp as B;
        match op {
            B::Add(_) => (BinaryOp::Add, false),
            B::Sub(_) => (BinaryOp::Sub, false),
            B::Mul(_) => (BinaryOp::Mul, false),
            B::Div(_) => (BinaryOp::Div, false),
            B::Rem(_) => (BinaryOp::Rem, false),
            B::And(_) => (BinaryOp::LogicalAnd, false),
            B::Or(_) => (BinaryOp::LogicalOr, false),
            B::BitXor(_) => (BinaryOp::BitXor, false),
            B::BitAnd(_) => (BinaryOp::BitAnd, false),
            B::BitOr(_) => (BinaryOp::BitOr, false),
            B::Shl(_) => (BinaryOp::Shl, false),
            B::Shr(_) => (BinaryOp::Shr, false),
            B::Eq(_) => (BinaryOp::Eq, false),
            B::Lt(_) => (BinaryOp::Lt, false),
            B::Le(_) => (BinaryOp::Le, false),
            B::Ne(_) => (BinaryOp::Ne, false),
            B::Ge(_) => (BinaryOp::Ge, false),
            B::Gt(_) => (BinaryOp::Gt, false),
            B::AddAssign(_) => (BinaryOp::Add, true),
            B::SubAssign(_) => (BinaryOp::Sub, true),
            B::MulAssign(_) => (BinaryOp::Mul, true),
            B::DivAssign(_) => (BinaryOp::Div, true),
            B::RemAssign(_) => (BinaryOp::Rem, true),
            B::BitXorAssign(_) => (BinaryOp::BitXor, true),
            B::BitAndAssign(_) => (BinaryOp::BitAnd, true),
            B::BitOrAssign(_) => (BinaryOp::BitOr, true),
            B::ShlAssign(_) => (BinaryOp::Shl, true),
            B::ShrAssign(_) => (BinaryOp::Shr, true),
            _ => (BinaryOp::Add, false),
        }
    }

    /// The type of `left op right`, checking operand types the way rustc does.
    pub(super) fn binary_type(
        &mut self,
        op: BinaryOp,
        l: Handle<Expression>,
        r: Handle<Expression>,
        span: Span,
    ) -> R<Ty> {
        let (lt, rt) = (self.ty(l), self.ty(r));
        let is_vector = |t: Ty| matches!(t, Ty::Compound(Type::Vector(..)));
        if is_vector(self.infer.shallow(lt)) || is_vector(self.infer.shallow(rt)) {
            return self.vector_binary_type(op, lt, rt, span);
        }
        for t in [lt, rt] {
            if let Ty::Compound(c) = self.infer.shallow(t) {
                let name = type_name(&self.cx.kernel.types, c);
                let advice = match (c, op.is_comparison()) {
                    (Type::Array(_), true) => {
                        "WGSL has no `==` on arrays: compare the elements in a loop"
                    }
                    (_, true) => "WGSL has no `==` on structs: compare the fields you care about",
                    (Type::Array(_), false) => {
                        "operators apply to numbers: index the array to get one"
                    }
                    _ => "operators apply to numbers: use the struct's fields",
                };
                return Err(self.error(
                    span,
                    format!("this operator cannot be applied to `{name}`; {advice}"),
                ));
            }
        }
        match op {
            BinaryOp::Shl | BinaryOp::Shr => {
                self.require_int(l, span)?;
                self.require_int(r, span)?;
                Ok(lt)
            }
            BinaryOp::LogicalAnd | BinaryOp::LogicalOr => {
                self.require(l, Scalar::Bool, span)?;
                self.require(r, Scalar::Bool, span)?;
                Ok(Ty::Known(Scalar::Bool))
            }
            op if op.is_comparison() => {
                self.unify(lt, rt, span)?;
                Ok(Ty::Known(Scalar::Bool))
            }
            BinaryOp::BitAnd | BinaryOp::BitOr | BinaryOp::BitXor => {
                let t = self.unify(lt, rt, span)?;
                if self.infer.shallow(t) == Ty::Known(Scalar::F32)
                    || self.infer.kind_of(t) == Some(VarKind::Float)
                {
                    return Err(self.error(
                        span,
                        "bitwise operators do not apply to `f32`; use `f32::to_bits` first",
                    ));
                }
                if self.infer.shallow(t) == Ty::Known(Scalar::F16) {
                    return Err(self.error(
                        span,
                        "bitwise operators do not apply to `f16`; convert with `to_f32()` and use `f32::to_bits`",
                    ));
                }
                Ok(t)
            }
            _ => {
                let t = self.unify(lt, rt, span)?;
                if self.infer.shallow(t) == Ty::Known(Scalar::Bool) {
                    return Err(self.error(span, "arithmetic does not apply to `bool`"));
                }
                Ok(t)
            }
        }
    }

    pub(super) fn binary(&mut self, b: &syn::ExprBinary) -> R<Value> {
        let span = b.span();
        let (op, compound) = Self::binary_op(&b.op);
        if compound {
            return self.assign(&b.left, Some(op), &b.right, span);
        }
        if matches!(op, BinaryOp::LogicalAnd | BinaryOp::LogicalOr) {
            return self.short_circuit(op, b).map(Value::Expr);
        }
        let v = self.operands(&[&b.left, &b.right])?;
        // `%` on a float vector is refused at the operator, not at the left operand.
        let float_vector = |t: Ty| matches!(t, Ty::Compound(Type::Vector(_, s)) if s.is_float());
        // A bitwise operator on `f16` likewise, at the operator.
        let half = |t: Ty| t == Ty::Known(Scalar::F16);
        let bitwise = matches!(op, BinaryOp::BitAnd | BinaryOp::BitOr | BinaryOp::BitXor);
        let at = if (op == BinaryOp::Rem
            && (float_vector(self.infer.shallow(self.ty(v[0])))
                || float_vector(self.infer.shallow(self.ty(v[1])))))
            || (bitwise
                && (half(self.infer.shallow(self.ty(v[0])))
                    || half(self.infer.shallow(self.ty(v[1])))))
        {
            b.op.span()
        } else {
            span
        };
        let ty = self.binary_type(op, v[0], v[1], at)?;
        Ok(Value::Expr(self.expr(
            Expr::Binary {
                op,
                left: v[0],
                right: v[1],
            },
            ty,
            span,
        )))
    }

    /// `a && b` / `a || b`: when `b` needs statements they run only if `a` lets them.
    pub(super) fn short_circuit(
        &mut self,
        op: BinaryOp,
        b: &syn::ExprBinary,
    ) -> R<Handle<Expression>> {
        let span = b.span();
        let left = self.value(&b.left)?;
        self.require(left, Scalar::Bool, b.left.span())?;
        let (rhs_block, right) = self.with_block(|this| this.value(&b.right).map(Value::Expr));
        let Value::Expr(right) = right? else {
            return Err(self.error(b.right.span(), "expected a `bool` value"));
        };
        self.require(right, Scalar::Bool, b.right.span())?;
        let bool_ty = Ty::Known(Scalar::Bool);
        if rhs_block.is_empty() {
            return Ok(self.expr(Expr::Binary { op, left, right }, bool_ty, span));
        }
        let flag = self.new_local("__cond", bool_ty, true, false, span);
        self.push(
            Stmt::Let {
                local: flag,
                init: Some(left),
            },
            span,
        );
        let mut accept = rhs_block;
        let ir_span = self.span(span);
        accept.push(Statement {
            kind: Stmt::Assign {
                place: Place::Local(flag),
                op: None,
                value: right,
            },
            span: ir_span,
        });
        let read = self.read(flag, bool_ty, span);
        let cond = if op == BinaryOp::LogicalAnd {
            read
        } else {
            self.expr(
                Expr::Unary {
                    op: UnaryOp::Not,
                    expr: read,
                },
                bool_ty,
                span,
            )
        };
        self.push(
            Stmt::If {
                cond,
                accept,
                reject: Vec::new(),
            },
            span,
        );
        Ok(self.read(flag, bool_ty, span))
    }

    pub(super) fn cast(&mut self, c: &syn::ExprCast) -> R<Handle<Expression>> {
        let to = types::scalar(&c.ty).map_err(|d| {
            self.cx.diagnostics.add(d);
            Reported
        })?;
        let e = self.value(&c.expr)?;
        let from = self.ty(e);
        let from_half = self.infer.shallow(from) == Ty::Known(Scalar::F16);
        if to == types::HostScalar::F16 || from_half {
            let reason = super::half::cast_refusal(!from_half);
            return Err(self.error(c.span(), reason));
        }
        if let Ty::Compound(t) = self.infer.shallow(from) {
            let name = type_name(&self.cx.kernel.types, t);
            return Err(self.error(c.span(), format!("`as` converts numbers; `{name}` is not one (to number an enum's variants, `match` on it)")));
        }
        if let Ty::Known(Scalar::F32) | Ty::Var(_) = self.infer.shallow(from) {
            if to == types::HostScalar::Bool {
                return Err(self.error(
                    c.span(),
                    "cannot cast a number to `bool`; compare it instead (`x != 0`)",
                ));
            }
        }
        if let Ty::Known(s) = self.infer.shallow(from) {
            if s.is_integer() && to == types::HostScalar::Bool {
                return Err(self.error(
                    c.span(),
                    "cannot cast a number to `bool`; compare it instead (`x != 0`)",
                ));
            }
        }
        Ok(self.expr(
            Expr::Cast {
                expr: e,
                to: to.scalar(),
            },
            Ty::Known(to.scalar()),
            c.span(),
        ))
    }
}
