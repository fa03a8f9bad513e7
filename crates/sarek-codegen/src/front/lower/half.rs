//! `f16` (`half::f16` on the host) in kernel bodies. Stable Rust has no `f16` literal and
//! `half::f16` no `as` casts, so a kernel writes what type-checks on the host:
//! `f16::from_f32(1.5)` (a constant when its argument is a literal, rounded at build time as
//! the host rounds it), `f16::from_f32(x)` and `x.to_f32()` / `f32::from(x)` (conversions),
//! and the named constants `f16::ZERO`, `f16::ONE`, `f16::MAX`, ... The unstable suffix
//! `1.5f16` and `as` casts from or to `f16` are refused with what to write instead.

use proc_macro2::Span;
use syn::spanned::Spanned;

use crate::arena::Handle;
use crate::front::infer::Ty;
use crate::ir::*;

use super::{Lowerer, Value, R};

/// The value of `f16::<name>`, as half's associated constant of that name.
pub(super) fn constant(name: &str) -> Option<Literal> {
    use half::f16;
    let v = match name {
        "ZERO" => f16::ZERO,
        "NEG_ZERO" => f16::NEG_ZERO,
        "ONE" => f16::ONE,
        "NEG_ONE" => f16::NEG_ONE,
        "MAX" => f16::MAX,
        "MIN" => f16::MIN,
        "MIN_POSITIVE" => f16::MIN_POSITIVE,
        "MIN_POSITIVE_SUBNORMAL" => f16::MIN_POSITIVE_SUBNORMAL,
        "MAX_SUBNORMAL" => f16::MAX_SUBNORMAL,
        "EPSILON" => f16::EPSILON,
        "INFINITY" => f16::INFINITY,
        "NEG_INFINITY" => f16::NEG_INFINITY,
        "NAN" => f16::NAN,
        "PI" => f16::PI,
        "TAU" => f16::from_f32(std::f32::consts::TAU),
        "E" => f16::E,
        "SQRT_2" => f16::SQRT_2,
        "LN_2" => f16::LN_2,
        "LN_10" => f16::LN_10,
        "FRAC_PI_2" => f16::FRAC_PI_2,
        "FRAC_1_SQRT_2" => f16::FRAC_1_SQRT_2,
        _ => return None,
    };
    Some(Literal::F16(v.to_bits()))
}

/// The error for the unstable literal suffix `f16` on `text`.
pub(super) fn suffix_refusal(text: &str) -> String {
    let number = text.trim_end_matches("f16").trim_end_matches('_');
    format!(
        "the `f16` literal suffix is unstable Rust; write `f16::from_f32({number})` (a constant, rounded to the nearest `f16` when the kernel compiles)"
    )
}

/// The error for `as` from or to `f16`.
pub(super) fn cast_refusal(to_half: bool) -> &'static str {
    if to_half {
        "`half::f16` has no `as` casts in Rust; write `f16::from_f32(x)` (from an integer: `f16::from_f32(i as f32)`)"
    } else {
        "`half::f16` has no `as` casts in Rust; write `x.to_f32()` (to an integer: `x.to_f32() as i32`)"
    }
}

/// The float literal `expr` (or its negation) as the `f32` the host's `f16::from_f32` gets.
fn literal_f32(expr: &syn::Expr) -> Option<f32> {
    match expr {
        syn::Expr::Lit(l) => match &l.lit {
            syn::Lit::Float(f) if matches!(f.suffix(), "" | "f32") => f.base10_parse().ok(),
            syn::Lit::Int(i) if matches!(i.suffix(), "" | "f32") => i.base10_parse().ok(),
            _ => None,
        },
        syn::Expr::Paren(p) => literal_f32(&p.expr),
        syn::Expr::Group(g) => literal_f32(&g.expr),
        syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => {
            literal_f32(&u.expr).map(|v| -v)
        }
        _ => None,
    }
}

impl Lowerer<'_> {
    /// `f16::from_f32(x)`, `f16::from_f32_const(x)`, `f16::to_f32(x)` and `f32::from(x)` of
    /// an `f16`; `None` for any other call.
    pub(super) fn half_call(
        &mut self,
        c: &syn::ExprCall,
        prefix: &[String],
        last: &str,
    ) -> Option<R<Value>> {
        let [ty] = prefix else { return None };
        let span = c.span();
        let one = |this: &mut Self| -> R<&syn::Expr> {
            match c.args.len() {
                1 => Ok(&c.args[0]),
                _ => Err(this.error(span, format!("`{ty}::{last}` takes one argument"))),
            }
        };
        match (ty.as_str(), last) {
            ("f16", "from_f32" | "from_f32_const") => Some((|| {
                let arg = one(self)?;
                if let Some(v) = literal_f32(arg) {
                    let bits = half::f16::from_f32(v).to_bits();
                    return Ok(Value::Expr(self.expr(
                        Expr::Literal(Literal::F16(bits)),
                        Ty::Known(Scalar::F16),
                        span,
                    )));
                }
                let e = self.value(arg)?;
                self.require(e, Scalar::F32, arg.span())?;
                Ok(Value::Expr(self.convert(e, Scalar::F16, span)))
            })()),
            ("f16", "to_f32") | ("f32", "from") => Some((|| {
                let arg = one(self)?;
                let e = self.value(arg)?;
                self.require(e, Scalar::F16, arg.span())?;
                Ok(Value::Expr(self.convert(e, Scalar::F32, span)))
            })()),
            ("f16", "from_f64" | "to_f64" | "from_bits" | "to_bits") => Some(Err(self.error(
                span,
                format!("`f16::{last}` is not available in a kernel (WebGPU has no `f64` and no 16-bit integers); use `f16::from_f32` and `to_f32`"),
            ))),
            _ => None,
        }
    }

    /// `x.to_f32()` of an `f16` receiver; `None` for another method or receiver.
    pub(super) fn half_method(
        &mut self,
        name: &str,
        receiver: Handle<Expression>,
        m: &syn::ExprMethodCall,
    ) -> Option<R<Handle<Expression>>> {
        if self.infer.shallow(self.ty(receiver)) != Ty::Known(Scalar::F16) {
            return None;
        }
        let span = m.span();
        match name {
            "to_f32" if m.args.is_empty() => Some(Ok(self.convert(receiver, Scalar::F32, span))),
            "to_f64" | "to_bits" | "sin_cos" => Some(Err(self.error(
                m.method.span(),
                format!(
                    "`{name}` is not available on `f16` in a kernel; convert with `to_f32()` first"
                ),
            ))),
            _ => None,
        }
    }

    fn convert(&mut self, e: Handle<Expression>, to: Scalar, span: Span) -> Handle<Expression> {
        self.expr(Expr::Cast { expr: e, to }, Ty::Known(to), span)
    }
}
