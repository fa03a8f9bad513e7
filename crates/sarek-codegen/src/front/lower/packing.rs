//! The packing intrinsics of `sarek::gpu`, WGSL's builtins for data narrower than 32 bits:
//! `pack4x_u8(UVec4) -> u32`, `unpack4x_u8(u32) -> UVec4`, `pack4x_i8(IVec4)`,
//! `unpack4x_i8(u32) -> IVec4`, `pack2x16_float(Vec2) -> u32`, `unpack2x16_float(u32) -> Vec2`.

use syn::spanned::Spanned;

use crate::front::infer::Ty;
use crate::ir::*;

use super::{Lowerer, Value, R};

impl Lowerer<'_> {
    /// `name(arg)` if `name` is a packing intrinsic.
    pub(super) fn packing_call(&mut self, name: &str, c: &syn::ExprCall) -> Option<R<Value>> {
        let (fun, from, to) = match name {
            "pack4x_u8" => (
                MathFun::Pack4xU8,
                Type::Vector(4, Scalar::U32),
                Type::Scalar(Scalar::U32),
            ),
            "pack4x_i8" => (
                MathFun::Pack4xI8,
                Type::Vector(4, Scalar::I32),
                Type::Scalar(Scalar::U32),
            ),
            "unpack4x_u8" => (
                MathFun::Unpack4xU8,
                Type::Scalar(Scalar::U32),
                Type::Vector(4, Scalar::U32),
            ),
            "unpack4x_i8" => (
                MathFun::Unpack4xI8,
                Type::Scalar(Scalar::U32),
                Type::Vector(4, Scalar::I32),
            ),
            "pack2x16_float" => (
                MathFun::Pack2x16Float,
                Type::Vector(2, Scalar::F32),
                Type::Scalar(Scalar::U32),
            ),
            "unpack2x16_float" => (
                MathFun::Unpack2x16Float,
                Type::Scalar(Scalar::U32),
                Type::Vector(2, Scalar::F32),
            ),
            _ => return None,
        };
        Some(self.packing(name, fun, from, to, c))
    }

    fn packing(
        &mut self,
        name: &str,
        fun: MathFun,
        from: Type,
        to: Type,
        c: &syn::ExprCall,
    ) -> R<Value> {
        let span = c.span();
        if c.args.len() != 1 {
            return Err(self.error(c.args.span(), format!("`{name}` takes one argument")));
        }
        let arg = self.value_expecting(&c.args[0], Some(from))?;
        let at = self.ty(arg);
        self.unify(Ty::of(from), at, c.args[0].span())?;
        Ok(Value::Expr(self.expr(
            Expr::Math {
                fun,
                args: vec![arg],
            },
            Ty::of(to),
            span,
        )))
    }
}
