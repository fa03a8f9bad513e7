//! Subgroup intrinsics (`sarek::gpu::subgroup_*`, WGSL's `subgroups` extension): the two
//! built-ins, `subgroup_barrier()`, and the collective operations, each a statement whose
//! value lands in a local (they are not pure: they read the other lanes).

use syn::spanned::Spanned;

use crate::front::infer::Ty;
use crate::ir::*;

use super::{Lowerer, Value, R};

impl Lowerer<'_> {
    /// The subgroup intrinsic `name` called as `c`, if it is one.
    pub(super) fn subgroup_call(&mut self, c: &syn::ExprCall, name: &str) -> Option<R<Value>> {
        let builtin = match name {
            "subgroup_size" => Some(Builtin::SubgroupSize),
            "subgroup_invocation_id" => Some(Builtin::SubgroupInvocationId),
            _ => None,
        };
        if builtin.is_none() && name != "subgroup_barrier" && SubgroupOp::from_rust(name).is_none()
        {
            return None;
        }
        Some(self.subgroup_intrinsic(c, name, builtin))
    }

    fn subgroup_intrinsic(
        &mut self,
        c: &syn::ExprCall,
        name: &str,
        builtin: Option<Builtin>,
    ) -> R<Value> {
        let span = c.span();
        // A subgroup operation may run in a helper (the uniformity check then requires every
        // call of the helper in uniform control flow); the two built-ins are entry-point
        // inputs in WGSL, which helpers do not see.
        if self.helper.is_some() && builtin.is_some() {
            return Err(self.error(c.func.span(), format!("`{name}()` is an input of the kernel's entry point in WGSL, so it can only be read in the kernel body; read it there and pass its value to the helper")));
        }
        if let Some(builtin) = builtin {
            if !c.args.is_empty() {
                return Err(self.error(c.args.span(), format!("`{name}()` takes no arguments")));
            }
            return Ok(Value::Expr(self.expr(
                Expr::Builtin(builtin),
                Ty::Known(Scalar::U32),
                span,
            )));
        }
        let Some(op) = SubgroupOp::from_rust(name) else {
            if !c.args.is_empty() {
                return Err(self.error(c.args.span(), "a barrier takes no arguments"));
            }
            self.push(Stmt::Barrier(Barrier::Subgroup), span);
            return Ok(Value::Unit);
        };
        let written: Vec<&syn::Expr> = c.args.iter().collect();
        if written.len() != op.arity() {
            let what = match op.arity() {
                0 => "no arguments".to_owned(),
                1 => "one argument".to_owned(),
                _ => "two arguments: the value and a `u32` lane, delta or mask".to_owned(),
            };
            return Err(self.error(span, format!("`{name}` takes {what}")));
        }
        let args = self.operands(&written)?;
        let ty = match op {
            SubgroupOp::Elect => Ty::Known(Scalar::Bool),
            SubgroupOp::All | SubgroupOp::Any | SubgroupOp::Ballot => {
                let found = self.ty(args[0]);
                if !matches!(self.infer.shallow(found), Ty::Known(Scalar::Bool)) {
                    let found = self.describe(found);
                    return Err(self.error(
                        written[0].span(),
                        format!("`{name}` takes a `bool`, not `{found}`"),
                    ));
                }
                if op == SubgroupOp::Ballot {
                    Ty::Compound(Type::Vector(4, Scalar::U32))
                } else {
                    Ty::Known(Scalar::Bool)
                }
            }
            SubgroupOp::And | SubgroupOp::Or | SubgroupOp::Xor => {
                self.require_int(args[0], written[0].span())?;
                self.ty(args[0])
            }
            _ => self.subgroup_number(args[0], written[0], name)?,
        };
        if let Some(&lane) = args.get(1) {
            self.require(lane, Scalar::U32, written[1].span())?;
            if op == SubgroupOp::Broadcast
                && !matches!(self.function.exprs[lane].kind, Expr::Literal(_))
            {
                return Err(self.error(written[1].span(), "the lane of `subgroup_broadcast` must be a constant (WGSL requires a const-expression); use `subgroup_shuffle(value, lane)` for a lane computed at run time"));
            }
        }
        let result = self.new_local("__sg", ty, false, false, span);
        self.push(Stmt::Subgroup { op, args, result }, span);
        Ok(Value::Expr(self.read(result, ty, span)))
    }

    /// The type of a subgroup operation's numeric operand: `f32`, `i32`, `u32`, `f16` or an
    /// `f16` vector (`F16Vec2`, `F16Vec4`; WGSL's subgroup built-ins take vectors, and these
    /// are what a half-precision kernel reduces).
    fn subgroup_number(
        &mut self,
        value: crate::arena::Handle<Expression>,
        written: &syn::Expr,
        name: &str,
    ) -> R<Ty> {
        let ty = self.ty(value);
        match self.infer.shallow(ty) {
            Ty::Known(Scalar::F32 | Scalar::I32 | Scalar::U32 | Scalar::F16) => Ok(ty),
            Ty::Compound(Type::Vector(2 | 4, Scalar::F16)) => Ok(ty),
            Ty::Var(_) if self.infer.kind_of(ty).is_some() => Ok(ty),
            other => {
                let found = self.describe(other);
                Err(self.error(
                    written.span(),
                    format!("`{name}` works on `f32`, `i32`, `u32`, `f16`, `F16Vec2` and `F16Vec4`, not on `{found}`"),
                ))
            }
        }
    }
}
