//! Conversions between the `f16` vectors (`F16Vec2`, `F16Vec4`) and the `f32` ones, written
//! as the host types spell them: `F16Vec4::from_vec4(v)` and `F16Vec4::from(v)` (each
//! component rounded to the nearest `f16`), `h.to_vec4()` and `Vec4::from(h)` (exact).
//! All lower to one `Expr::Cast` of the whole vector (WGSL's `vec4<f16>(v)`).

use syn::spanned::Spanned;

use super::{Lowerer, R};
use crate::arena::Handle;
use crate::front::infer::Ty;
use crate::ir::*;

/// Whether `f` (the last segment of `Ty::f(..)`) is a vector conversion function.
pub(super) fn is_conversion(f: &syn::Ident) -> bool {
    f == "from" || f == "from_vec2" || f == "from_vec4"
}

/// Whether `name` is the method that widens an `f16` vector of `n` components to `f32`.
pub(super) fn widening(name: &str, n: u8) -> bool {
    name.strip_prefix("to_vec") == Some(&n.to_string())
}

impl Lowerer<'_> {
    /// `F16VecN::from_vecN(v)`, `F16VecN::from(v)` or `VecN::from(h)` (`f` names which) to
    /// the vector type `ty`.
    pub(super) fn vector_conversion(
        &mut self,
        ty: Type,
        f: &syn::Ident,
        c: &syn::ExprCall,
    ) -> R<Handle<Expression>> {
        let span = c.span();
        let Type::Vector(n, to) = ty else {
            return Err(super::Reported);
        };
        let target = vector_name(n, to);
        let from = match to {
            Scalar::F16 => Scalar::F32,
            Scalar::F32 if n != 3 => Scalar::F16,
            _ => {
                return Err(self.error(
                    span,
                    format!("`{target}::{f}` is not available in a kernel; build the vector from its components with `{target}::new(..)`"),
                ))
            }
        };
        let source = Type::Vector(n, from);
        let source_name = vector_name(n, from);
        let fits = f == "from" || (to == Scalar::F16 && *f == format!("from_vec{n}"));
        if !fits {
            return Err(self.error(
                f.span(),
                format!("`{target}` has no `{f}`; convert a `{source_name}` with `{target}::from_vec{n}(v)` or `{target}::from(v)`"),
            ));
        }
        let [arg] = c.args.iter().collect::<Vec<_>>()[..] else {
            return Err(self.error(span, format!("`{target}::{f}` takes one argument, the `{source_name}` to convert: write `{target}::{f}(v)`")));
        };
        let e = self.value(arg)?;
        let t = self.ty(e);
        if self.infer.shallow(t) != Ty::Compound(source) {
            let found = self.describe(t);
            return Err(self.error(
                arg.span(),
                format!("`{target}::{f}` converts a `{source_name}`, not `{found}`; make a `{source_name}` first (for example with `{source_name}::new(..)`)"),
            ));
        }
        Ok(self.expr(Expr::Cast { expr: e, to }, Ty::Compound(ty), span))
    }
}
