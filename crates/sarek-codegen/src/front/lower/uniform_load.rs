//! `workgroup_uniform_load(&flag[i])`: WGSL's `workgroupUniformLoad`, a workgroup barrier and
//! a read of a workgroup-array element whose value every invocation shares
//! ([`Stmt::UniformLoad`]), so that it may decide a loop with barriers inside.

use syn::spanned::Spanned;

use crate::front::infer::Ty;
use crate::ir::*;

use super::{Lowerer, Value, R};

const USAGE: &str = "`workgroup_uniform_load` takes a reference to an element of a workgroup array: `workgroup_uniform_load(&flag[0])` where `let flag = shared::<[u32; 1]>();`";

impl Lowerer<'_> {
    /// `workgroup_uniform_load(&shared[i]..)`.
    pub(super) fn uniform_load(&mut self, c: &syn::ExprCall) -> R<Value> {
        let span = c.span();
        if self.helper.is_some() {
            return Err(self.error(c.func.span(), "`workgroup_uniform_load` contains a barrier, so it can only be called in the kernel body; pass the value to the helper as an argument"));
        }
        let arg = match c.args.first() {
            Some(syn::Expr::Reference(r)) if c.args.len() == 1 && r.mutability.is_none() => r,
            // With no argument, the call itself is where the argument is missing.
            _ if c.args.is_empty() => return Err(self.error(c.span(), USAGE)),
            _ => return Err(self.error(c.args.span(), USAGE)),
        };
        let element = self.value(&arg.expr)?;
        let Expr::SharedIndex { var, indices } = self.function.exprs[element].kind.clone() else {
            return Err(self.error(arg.expr.span(), USAGE));
        };
        let ty: Ty = self.ty(element);
        let result = self.new_local("__uniform", ty, false, true, span);
        self.push(
            Stmt::UniformLoad {
                var,
                indices,
                result,
            },
            span,
        );
        Ok(Value::Expr(self.expr(Expr::Local(result), ty, span)))
    }
}
