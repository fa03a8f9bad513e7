//! Vector types with glam's names and methods: `Vec2`/`Vec3`/`Vec4` of `f32`, `IVec*` of
//! `i32`, `UVec*` of `u32`, lowered to WGSL's `vecN<T>`.

use proc_macro2::Span;
use syn::spanned::Spanned;

use super::items::Item;
use super::{ident_name, Lowerer, Reported, R};
use crate::arena::Handle;
use crate::front::infer::{Ty, VarKind};
use crate::ir::*;

/// The vector type named `name` (`Vec3`, `IVec2`, ...).
pub(super) fn vector_type(name: &str) -> Option<Type> {
    let (scalar, rest) = if let Some(r) = name.strip_prefix("IVec") {
        (Scalar::I32, r)
    } else if let Some(r) = name.strip_prefix("F16Vec") {
        // `F16Vec2`/`F16Vec4` only: the host has no `F16Vec3` (WGSL's `vec3<f16>` would
        // need a padded host type, and `vec4<f16>` costs the same 8 bytes).
        return matches!(r, "2" | "4").then(|| Type::Vector(r.parse().unwrap_or(4), Scalar::F16));
    } else if let Some(r) = name.strip_prefix("UVec") {
        (Scalar::U32, r)
    } else {
        (Scalar::F32, name.strip_prefix("Vec")?)
    };
    match rest {
        "2" => Some(Type::Vector(2, scalar)),
        "3" => Some(Type::Vector(3, scalar)),
        "4" => Some(Type::Vector(4, scalar)),
        _ => None,
    }
}

/// The vector type of glam's constructor functions (`vec3`, `ivec2`, `uvec4`).
fn constructor_type(name: &str) -> Option<Type> {
    let upper = match name {
        n if n.starts_with("ivec") => format!("IVec{}", &n[4..]),
        n if n.starts_with("uvec") => format!("UVec{}", &n[4..]),
        n if n.starts_with("vec") => format!("Vec{}", &n[3..]),
        _ => return None,
    };
    vector_type(&upper)
}

/// The index of component `name` in a vector of `n` components.
pub(super) fn component(name: &str, n: u8) -> Option<u32> {
    let i = ["x", "y", "z", "w"].iter().position(|c| *c == name)? as u32;
    (i < u32::from(n)).then_some(i)
}

impl Lowerer<'_> {
    /// `Vec3::new(..)`, `Vec3::splat(v)`, `vec3(..)`; `None` when the call is none of them.
    pub(super) fn vector_call(
        &mut self,
        c: &syn::ExprCall,
        p: &syn::ExprPath,
    ) -> Option<R<Handle<Expression>>> {
        let segments: Vec<&syn::PathSegment> = p.path.segments.iter().collect();
        let span = c.span();
        let (ty, splat) = match segments.as_slice() {
            [.., ty_seg, f] if super::half_vectors::is_conversion(&f.ident) => {
                let name = ident_name(&ty_seg.ident);
                if segments.len() == 2 && self.cx.items.lookup(&name).is_some() {
                    return None;
                }
                let ty = vector_type(&name)?;
                return Some(self.vector_conversion(ty, &f.ident, c));
            }
            [.., ty_seg, f] if f.ident == "new" || f.ident == "splat" => {
                let name = ident_name(&ty_seg.ident);
                if segments.len() == 2 && self.cx.items.lookup(&name).is_some() {
                    return None;
                }
                (vector_type(&name)?, f.ident == "splat")
            }
            [.., f] => {
                let name = ident_name(&f.ident);
                if self.cx.items.lookup(&name).is_some() {
                    return None;
                }
                (constructor_type(&name)?, false)
            }
            _ => return None,
        };
        Some(self.vector_compose(ty, c.args.iter().collect(), splat, span))
    }

    fn vector_compose(
        &mut self,
        ty: Type,
        args: Vec<&syn::Expr>,
        splat: bool,
        span: Span,
    ) -> R<Handle<Expression>> {
        let Type::Vector(n, s) = ty else {
            return Err(Reported);
        };
        let want = if splat { 1 } else { usize::from(n) };
        if args.len() != want {
            let name = vector_name(n, s);
            return Err(self.error(span, format!("`{name}` takes {want} component(s) here")));
        }
        let components = self.operands(&args)?;
        for (c, e) in components.iter().zip(&args) {
            self.require(*c, s, e.span())?;
        }
        Ok(self.expr(Expr::Compose { ty, components }, Ty::of(ty), span))
    }

    /// `Vec3::ZERO`, `Vec3::ONE`, `Vec3::X`, ...
    pub(super) fn vector_constant(&mut self, path: &syn::Path) -> Option<R<Handle<Expression>>> {
        let segments: Vec<&syn::PathSegment> = path.segments.iter().collect();
        let [.., ty_seg, c] = segments.as_slice() else {
            return None;
        };
        let name = ident_name(&ty_seg.ident);
        if segments.len() == 2
            && matches!(
                self.cx.items.lookup(&name),
                Some(Item::Struct(_) | Item::Enum(_))
            )
        {
            return None;
        }
        let ty @ Type::Vector(n, s) = vector_type(&name)? else {
            return None;
        };
        let span = path.span();
        let lit = |v: i32| match s {
            Scalar::F32 => Literal::F32(v as f32),
            Scalar::F16 => Literal::F16(half::f16::from_f32(v as f32).to_bits()),
            Scalar::I32 => Literal::I32(v),
            _ => Literal::U32(v as u32),
        };
        let values: Vec<i32> = match c.ident.to_string().as_str() {
            "ZERO" => return Some(Ok(self.expr(Expr::Zero(ty), Ty::of(ty), span))),
            "ONE" => vec![1; usize::from(n)],
            axis @ ("X" | "Y" | "Z" | "W") => {
                let k = component(&axis.to_lowercase(), n)? as usize;
                (0..usize::from(n)).map(|i| i32::from(i == k)).collect()
            }
            _ => return None,
        };
        let components = values
            .into_iter()
            .map(|v| self.expr(Expr::Literal(lit(v)), Ty::Known(s), span))
            .collect();
        Some(Ok(self.expr(
            Expr::Compose { ty, components },
            Ty::of(ty),
            span,
        )))
    }

    /// The type of `left op right` when either side is a vector.
    pub(super) fn vector_binary_type(&mut self, op: BinaryOp, lt: Ty, rt: Ty, span: Span) -> R<Ty> {
        let (lt, rt) = (self.infer.shallow(lt), self.infer.shallow(rt));
        let vector = match (lt, rt) {
            (Ty::Compound(v @ Type::Vector(..)), _) | (_, Ty::Compound(v @ Type::Vector(..))) => v,
            _ => return Err(Reported),
        };
        let Type::Vector(_, s) = vector else {
            return Err(Reported);
        };
        let name = type_name(&[], vector);
        let other = if lt == Ty::Compound(vector) { rt } else { lt };
        match op {
            BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div | BinaryOp::Rem => {
                if op == BinaryOp::Rem && s.is_float() {
                    return Err(self.error(span, format!("`%` on `{name}` would not be Rust's exact `fmod` per component; compute `%` on the components")));
                }
                if other != Ty::Compound(vector) {
                    match other {
                        Ty::Known(k) if k == s => {}
                        Ty::Var(_)
                            if self.infer.kind_of(other)
                                == Some(if s.is_float() {
                                    VarKind::Float
                                } else {
                                    VarKind::Int
                                }) =>
                        {
                            self.unify(other, Ty::Known(s), span)?;
                        }
                        _ => {
                            let found = self.describe(other);
                            return Err(self.error(span, format!("mismatched types: `{name}` combines with `{name}` or `{}`, not `{found}`", s.rust_name())));
                        }
                    }
                }
                Ok(Ty::Compound(vector))
            }
            BinaryOp::Eq | BinaryOp::Ne if other == Ty::Compound(vector) => {
                Ok(Ty::Known(Scalar::Bool))
            }
            _ => Err(self.error(span, format!("this operator does not apply to `{name}`"))),
        }
    }

    /// `v.dot(w)`, `v.length()`, `v.min(w)`, ... on a vector receiver.
    pub(super) fn vector_method(
        &mut self,
        name: &str,
        name_span: Span,
        receiver: Handle<Expression>,
        rest: &[&syn::Expr],
        span: Span,
    ) -> R<Handle<Expression>> {
        let ty = match self.infer.shallow(self.ty(receiver)) {
            Ty::Compound(t @ Type::Vector(..)) => t,
            _ => return Err(Reported),
        };
        let Type::Vector(n, s) = ty else {
            return Err(Reported);
        };
        let vname = vector_name(n, s);
        let (fun, result, float_only) = match name {
            "dot" => (MathFun::Dot, Ty::Known(s), false),
            "cross" if n == 3 => (MathFun::Cross, Ty::Compound(ty), true),
            "length" => (MathFun::Length, Ty::Known(s), true),
            "length_squared" => (MathFun::LengthSquared, Ty::Known(s), false),
            "normalize" => (MathFun::Normalize, Ty::Compound(ty), true),
            "distance" => (MathFun::Distance, Ty::Known(s), true),
            "min" => (MathFun::Min, Ty::Compound(ty), false),
            "max" => (MathFun::Max, Ty::Compound(ty), false),
            "abs" if s != Scalar::U32 => (MathFun::Abs, Ty::Compound(ty), false),
            "floor" => (MathFun::Floor, Ty::Compound(ty), true),
            "ceil" => (MathFun::Ceil, Ty::Compound(ty), true),
            "trunc" => (MathFun::Trunc, Ty::Compound(ty), true),
            _ if s == Scalar::F16 && super::half_vectors::widening(name, n) => {
                if !rest.is_empty() {
                    return Err(self.error(span, format!("`{name}` takes no arguments")));
                }
                let to = Type::Vector(n, Scalar::F32);
                return Ok(self.expr(Expr::Cast { expr: receiver, to: Scalar::F32 }, Ty::Compound(to), span));
            }
            _ => {
                return Err(self.error(name_span, format!("`{name}` is not a `{vname}` method Sarek can run on the GPU; vectors support `dot`, `cross` (3 components), `length`, `length_squared`, `normalize`, `distance`, `min`, `max`, `abs`, `floor`, `ceil`, `trunc`, arithmetic and the components `.x` `.y` `.z` `.w`")))
            }
        };
        if float_only && !s.is_float() {
            return Err(self.error(
                name_span,
                format!("`{name}` needs a float vector, not `{vname}`"),
            ));
        }
        if rest.len() + 1 != fun.arity() {
            return Err(self.error(
                span,
                format!("`{name}` takes {} argument(s)", fun.arity() - 1),
            ));
        }
        let mut args = vec![receiver];
        let others = self.operands(rest)?;
        for (a, e) in others.iter().zip(rest) {
            let t = self.ty(*a);
            self.unify(Ty::Compound(ty), t, e.span())?;
        }
        args.extend(others);
        Ok(self.expr(Expr::Math { fun, args }, result, span))
    }
}
