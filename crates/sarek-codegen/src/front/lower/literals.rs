//! Literals (`1`, `2.5f32`, `true`) and named constants (`f32::MAX`, `u32::BITS`, ..).

use proc_macro2::Span;
use syn::spanned::Spanned;

use crate::arena::Handle;
use crate::front::infer::{Ty, VarKind};
use crate::front::types;
use crate::ir::*;

use super::{Lowerer, R};

impl Lowerer<'_> {
    pub(super) fn literal(&mut self, lit: &syn::Lit, negative: bool) -> R<Handle<Expression>> {
        let span = lit.span();
        match lit {
            syn::Lit::Bool(b) => {
                if negative {
                    return Err(self.error(span, "cannot negate a `bool`; use `!`"));
                }
                Ok(self.expr(
                    Expr::Literal(Literal::Bool(b.value)),
                    Ty::Known(Scalar::Bool),
                    span,
                ))
            }
            syn::Lit::Int(i) if i.suffix() == "f16" => {
                Err(self.error(span, super::half::suffix_refusal(&i.to_string())))
            }
            syn::Lit::Int(int) => {
                let ty = match int.suffix() {
                    "" => self.infer.fresh(VarKind::Int),
                    "f32" => {
                        let value = int.base10_parse::<f32>().map_err(|e| self.error(span, e))?;
                        let value = if negative { -value } else { value };
                        return Ok(self.expr(
                            Expr::Literal(Literal::F32(value)),
                            Ty::Known(Scalar::F32),
                            span,
                        ));
                    }
                    suffix => Ty::Known(self.suffix_type(suffix, span)?),
                };
                let magnitude = int.base10_parse::<u64>().map_err(|_| {
                    self.error(
                        span,
                        "integer literal out of range: kernels have integers of at most 64 bits",
                    )
                })?;
                let value = if negative {
                    -(magnitude as i128)
                } else {
                    magnitude as i128
                };
                let h = self.expr(Expr::Literal(Literal::I32(0)), ty, span);
                self.int_literals.push((h, value));
                Ok(h)
            }
            syn::Lit::Float(f) if f.suffix() == "f16" => {
                Err(self.error(span, super::half::suffix_refusal(&f.to_string())))
            }
            syn::Lit::Float(f) => {
                let ty = match f.suffix() {
                    "" => self.infer.fresh(VarKind::Float),
                    "f32" => Ty::Known(Scalar::F32),
                    suffix => Ty::Known(self.suffix_type(suffix, span)?),
                };
                let value = f.base10_parse::<f32>().map_err(|e| self.error(span, e))?;
                let value = if negative { -value } else { value };
                let h = self.expr(Expr::Literal(Literal::F32(0.0)), ty, span);
                self.float_literals.push((h, value));
                Ok(h)
            }
            _ => Err(self.error(
                span,
                "only numbers and `true`/`false` can be literals in a kernel",
            )),
        }
    }

    pub(super) fn suffix_type(&mut self, suffix: &str, span: Span) -> R<Scalar> {
        match suffix {
            "i32" => Ok(Scalar::I32),
            "u32" | "usize" => Ok(Scalar::U32),
            "i64" => Ok(Scalar::I64),
            "u64" => Ok(Scalar::U64),
            "f32" => Ok(Scalar::F32),
            other => Err(self.error(
                span,
                types::refusal(other)
                    .unwrap_or_else(|| format!("unknown literal suffix `{other}`")),
            )),
        }
    }

    /// `i32::MAX`, `f32::NAN`, `std::f32::consts::PI`, ...
    pub(super) fn constant(&mut self, path: &syn::Path) -> Option<R<Handle<Expression>>> {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        let n = segments.len();
        if n < 2 {
            return None;
        }
        let (ty, name) = (segments[n - 2].as_str(), segments[n - 1].as_str());
        let span = path.span();
        if ty == "consts" && n >= 3 && segments[n - 3] == "f32" {
            use std::f32::consts::*;
            let v = match name {
                "PI" => PI,
                "TAU" => TAU,
                "E" => E,
                "SQRT_2" => SQRT_2,
                "LN_2" => LN_2,
                "LN_10" => LN_10,
                "LOG2_E" => LOG2_E,
                "LOG10_E" => LOG10_E,
                "FRAC_PI_2" => FRAC_PI_2,
                "FRAC_PI_3" => FRAC_PI_3,
                "FRAC_PI_4" => FRAC_PI_4,
                "FRAC_PI_6" => FRAC_PI_6,
                "FRAC_PI_8" => FRAC_PI_8,
                "FRAC_1_PI" => FRAC_1_PI,
                "FRAC_2_PI" => FRAC_2_PI,
                "FRAC_1_SQRT_2" => FRAC_1_SQRT_2,
                _ => return None,
            };
            return Some(Ok(self.expr(
                Expr::Literal(Literal::F32(v)),
                Ty::Known(Scalar::F32),
                span,
            )));
        }
        let literal = match (ty, name) {
            ("i32", "MAX") => Literal::I32(i32::MAX),
            ("i32", "MIN") => Literal::I32(i32::MIN),
            ("u32", "MAX") => Literal::U32(u32::MAX),
            ("u32", "MIN") => Literal::U32(0),
            ("usize", "MIN") => Literal::U32(0),
            ("i64", "MAX") => Literal::I64(i64::MAX),
            ("i64", "MIN") => Literal::I64(i64::MIN),
            ("u64", "MAX") => Literal::U64(u64::MAX),
            ("u64", "MIN") => Literal::U64(0),
            ("usize", "MAX") => {
                return Some(Err(self.error(span, "`usize::MAX` is 2^64-1 on the host but 2^32-1 on the GPU; write `u32::MAX as usize` if you mean the GPU's value")))
            }
            ("f32", "MAX") => Literal::F32(f32::MAX),
            ("f32", "MIN") => Literal::F32(f32::MIN),
            ("f32", "MIN_POSITIVE") => Literal::F32(f32::MIN_POSITIVE),
            ("f32", "EPSILON") => Literal::F32(f32::EPSILON),
            ("f32", "INFINITY") => Literal::F32(f32::INFINITY),
            ("f32", "NEG_INFINITY") => Literal::F32(f32::NEG_INFINITY),
            ("f32", "NAN") => Literal::F32(f32::NAN),
            ("f16", name) => super::half::constant(name)?,
            (t, _) => {
                if let Some(reason) = types::refusal(t) {
                    return Some(Err(self.error(span, reason)));
                }
                return None;
            }
        };
        Some(Ok(self.expr(
            Expr::Literal(literal),
            Ty::Known(literal.scalar()),
            span,
        )))
    }
}
