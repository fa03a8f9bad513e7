//! Tuples as values: `(a, b)` returned from helpers, taken apart by `let (x, y) = f();` and
//! read as `t.0`. WGSL has no tuples, so a tuple type is a struct with one member per element
//! (`_0`, `_1`, ..), registered once per element list like an array type.

use proc_macro2::Span;
use syn::spanned::Spanned;

use super::{Binding, Lowerer, ModuleContext, R};
use crate::arena::Handle;
use crate::front::infer::Ty;
use crate::ir::*;

/// The field name of tuple element `i`.
fn element(i: usize) -> FieldName {
    FieldName::Named(format!("_{i}"))
}

impl ModuleContext {
    /// The struct type standing for the tuple type `(elems..)`.
    pub(super) fn tuple_type(&mut self, elems: Vec<Type>) -> Type {
        let name = format!("Tuple{}_{}", elems.len(), self.kernel.types.len());
        let fields: Vec<Field> = elems
            .iter()
            .enumerate()
            .map(|(i, &ty)| Field {
                name: element(i),
                ty,
            })
            .collect();
        let existing = self.tuples.iter().copied().find(|&id| {
            matches!(self.kernel.types.get(id.0 as usize), Some(TypeDef::Struct(d)) if d.fields == fields)
        });
        if let Some(id) = existing {
            return Type::Struct(id);
        }
        self.kernel.types.push(TypeDef::Struct(StructDef {
            name,
            fields,
            variants: None,
        }));
        let id = TypeId(self.kernel.types.len() as u32 - 1);
        self.tuples.push(id);
        Type::Struct(id)
    }

    /// The element types of a tuple type, if `ty` is one.
    pub(super) fn tuple_elems(&self, ty: Type) -> Option<Vec<Type>> {
        let Type::Struct(id) = ty else { return None };
        if !self.tuples.contains(&id) {
            return None;
        }
        self.kernel
            .struct_def(id)
            .map(|d| d.fields.iter().map(|f| f.ty).collect())
    }
}

impl Lowerer<'_> {
    /// `(a, b, ..)` as a value; `expect` is the tuple type the context wants, if known.
    pub(super) fn tuple_value(
        &mut self,
        t: &syn::ExprTuple,
        expect: Option<Type>,
    ) -> R<Handle<Expression>> {
        let span = t.span();
        if t.elems.is_empty() {
            return Err(self.error(span, "`()` is not a value in a kernel"));
        }
        let wanted = expect
            .and_then(|e| self.cx.tuple_elems(e))
            .filter(|w| w.len() == t.elems.len());
        let exprs: Vec<&syn::Expr> = t.elems.iter().collect();
        let values = self.operands(&exprs)?;
        let mut elems = Vec::new();
        for (i, (&v, e)) in values.iter().zip(&exprs).enumerate() {
            let ty = match &wanted {
                Some(w) => {
                    self.unify(Ty::of(w[i]), self.ty(v), e.span())?;
                    w[i]
                }
                None => self.settle(self.ty(v), e.span())?,
            };
            elems.push(ty);
        }
        let ty = self.cx.tuple_type(elems);
        Ok(self.expr(
            Expr::Compose {
                ty,
                components: values,
            },
            Ty::of(ty),
            span,
        ))
    }

    /// `t.0`: the index and type of a tuple's element, when `ty` is a tuple type.
    pub(super) fn tuple_field(&mut self, ty: Ty, member: &syn::Member) -> Option<R<(u32, Type)>> {
        let Ty::Compound(t) = self.infer.shallow(ty) else {
            return None;
        };
        let elems = self.cx.tuple_elems(t)?;
        let syn::Member::Unnamed(index) = member else {
            return Some(Err(self.error(
                member.span(),
                "a tuple's elements are read by position: `t.0`, `t.1`",
            )));
        };
        let i = index.index as usize;
        Some(match elems.get(i) {
            Some(&e) => Ok((i as u32, e)),
            None => Err(self.error(
                member.span(),
                format!("this tuple has {} elements, so no `.{i}`", elems.len()),
            )),
        })
    }

    /// `let (a, mut b, _) = value;` where `value` is a tuple-typed value (a helper's result,
    /// a tuple local): each name gets its element.
    pub(super) fn tuple_let_value(
        &mut self,
        tuple: &syn::PatTuple,
        init: &syn::Expr,
        declared: Option<Type>,
        span: Span,
    ) -> R<()> {
        let value = self.value_expecting(init, declared)?;
        let ty = self.ty(value);
        let elems = match self.infer.shallow(ty) {
            Ty::Compound(t) => self.cx.tuple_elems(t),
            _ => None,
        };
        let Some(elems) = elems else {
            let found = self.describe(ty);
            return Err(self.error(
                init.span(),
                format!("mismatched types: a tuple pattern needs a tuple, found `{found}`"),
            ));
        };
        if elems.len() != tuple.elems.len() {
            return Err(self.error(
                init.span(),
                format!(
                    "mismatched types: a tuple of {} values bound to a pattern of {}",
                    elems.len(),
                    tuple.elems.len()
                ),
            ));
        }
        let local = self.temp(value, None);
        for (i, (p, &ety)) in tuple.elems.iter().zip(&elems).enumerate() {
            let base = self.read(local, ty, span);
            let v = self.expr(
                Expr::Field {
                    base,
                    field: i as u32,
                },
                Ty::of(ety),
                p.span(),
            );
            match p {
                syn::Pat::Ident(id) if id.by_ref.is_none() && id.subpat.is_none() => {
                    let name = super::ident_name(&id.ident);
                    let mutable = id.mutability.is_some();
                    let handle =
                        self.new_local(&name, Ty::of(ety), mutable, !mutable, id.ident.span());
                    self.push(
                        Stmt::Let {
                            local: handle,
                            init: Some(v),
                        },
                        p.span(),
                    );
                    self.bind(name, Binding::Local(handle));
                }
                syn::Pat::Wild(_) => {}
                other => {
                    return Err(self.error(
                        other.span(),
                        "bind plain names in a tuple pattern: `let (a, mut b, _) = ..`",
                    ))
                }
            }
        }
        Ok(())
    }
}
