//! Calls of generic helpers, `fn add<T: Scalar>(a: T, b: T) -> T`: each call is
//! monomorphised. The type arguments come from a turbofish (`add::<f32>(..)`) or, as rustc
//! infers them, from the arguments: a parameter typed `T` takes the type of its argument
//! (probed by lowering it aside, as `methods.rs` probes a receiver), a `&[T]` the element
//! type of the buffer passed. The instance is the helper with `T` substituted
//! (`front::generics::rewrite`), named `add__f32`, memoised per helper and types, and then
//! lowered as any helper, so recursion through an instance is refused like any other.

use std::rc::Rc;

use proc_macro2::Ident;
use syn::spanned::Spanned;

use super::{ident_name, Binding, Lowerer, Reported, Value, R};
use crate::front::generics::{self, Bound, Replace, Subst};
use crate::front::infer::{Ty, VarKind};
use crate::ir::{ParamType, Scalar, Type};

fn scalar_name(s: Scalar) -> Option<&'static str> {
    match s {
        Scalar::F32 => Some("f32"),
        Scalar::I32 => Some("i32"),
        Scalar::U32 => Some("u32"),
        Scalar::F16 => Some("f16"),
        // Generic helpers' bounds (`Scalar`, `Integer`) cover the 32-bit types and `f16`.
        Scalar::Bool | Scalar::I64 | Scalar::U64 => None,
    }
}

/// The bound of a helper's type parameter, if it is one of `sarek::gpu`'s.
fn helper_bound(tp: &syn::TypeParam) -> Option<Bound> {
    tp.bounds.iter().find_map(|b| match b {
        syn::TypeParamBound::Trait(t) => match t.path.segments.last()?.ident.to_string().as_str() {
            "Scalar" => Some(Bound::Scalar),
            "Float" => Some(Bound::Float),
            "Integer" => Some(Bound::Integer),
            _ => None,
        },
        _ => None,
    })
}

/// The parameter named by a type written `T`, if it is one of `names`.
fn param_named<'a>(ty: &syn::Type, names: &'a [String]) -> Option<&'a String> {
    match ty {
        syn::Type::Path(p) if p.qself.is_none() => {
            let i = p.path.get_ident()?.to_string();
            names.iter().find(|n| **n == i)
        }
        syn::Type::Paren(p) => param_named(&p.elem, names),
        _ => None,
    }
}

impl Lowerer<'_> {
    /// A call of generic helper `f`, declared in item scope `scope`.
    pub(super) fn generic_helper_call(
        &mut self,
        c: &syn::ExprCall,
        f: &Rc<syn::ItemFn>,
        scope: Option<usize>,
    ) -> R<Value> {
        let span = c.span();
        let name = f.sig.ident.to_string();
        let mut params: Vec<(String, Bound)> = Vec::new();
        for p in &f.sig.generics.params {
            let bound = match p {
                syn::GenericParam::Type(tp) => helper_bound(tp),
                _ => None,
            };
            match (p, bound) {
                (syn::GenericParam::Type(tp), Some(b)) => params.push((tp.ident.to_string(), b)),
                _ => {
                    return Err(self.error(p.span(), "a generic helper takes type parameters bounded by `Scalar`, `Float` or `Integer` (from `sarek::gpu`); a const parameter or a trait bound belongs on the kernel, whose instances are listed"));
                }
            }
        }
        if let Some(w) = &f.sig.generics.where_clause {
            return Err(self.error(w.span(), "write a generic helper's bounds in its parameter list (`fn add<T: Scalar>`), not in a `where` clause"));
        }
        let names: Vec<String> = params.iter().map(|(n, _)| n.clone()).collect();
        let mut chosen: Vec<Option<&'static str>> = vec![None; params.len()];
        // A turbofish names the types in order; `_` leaves one to the arguments.
        let syn::Expr::Path(path) = &*c.func else {
            return Err(Reported);
        };
        if let Some(syn::PathArguments::AngleBracketed(a)) =
            path.path.segments.last().map(|s| &s.arguments)
        {
            let types: Vec<&syn::GenericArgument> = a.args.iter().collect();
            if types.len() != params.len() {
                return Err(self.error(
                    a.span(),
                    format!("`{name}` takes {} type argument(s)", params.len()),
                ));
            }
            for (slot, arg) in chosen.iter_mut().zip(types) {
                match arg {
                    syn::GenericArgument::Type(syn::Type::Infer(_)) => {}
                    syn::GenericArgument::Type(t) => {
                        let text = quote::ToTokens::to_token_stream(t).to_string();
                        *slot = ["f32", "i32", "u32", "f16"]
                            .into_iter()
                            .find(|s| *s == text);
                        if slot.is_none() {
                            return Err(self.error(
                                t.span(),
                                "a generic helper's type argument is `f32`, `i32` or `u32`",
                            ));
                        }
                    }
                    other => {
                        return Err(self.error(other.span(), "a generic helper takes types only"))
                    }
                }
            }
        }
        // The rest from the arguments, in order; an unsuffixed literal decides last.
        let mut literal: Vec<Option<&'static str>> = vec![None; params.len()];
        for (input, arg) in f.sig.inputs.iter().zip(&c.args) {
            let syn::FnArg::Typed(t) = input else {
                continue;
            };
            if let Some(n) = param_named(&t.ty, &names) {
                let k = names
                    .iter()
                    .position(|m| m == n)
                    .expect("a name of the list");
                if chosen[k].is_some() {
                    continue;
                }
                let errors = self.cx.diagnostics.len();
                let (_, probe) = self.with_block(|this| this.value(arg).map(Value::Expr));
                self.cx.diagnostics.truncate(errors);
                let Ok(Value::Expr(h)) = probe else { continue };
                let ty = self.ty(h);
                match self.infer.shallow(ty) {
                    Ty::Known(s) => chosen[k] = scalar_name(s),
                    v @ Ty::Var(_) => match self.infer.kind_of(v) {
                        Some(VarKind::Int) => literal[k] = literal[k].or(Some("i32")),
                        Some(VarKind::Float) => literal[k] = literal[k].or(Some("f32")),
                        _ => {}
                    },
                    Ty::Compound(_) => {}
                }
            } else if let syn::Type::Reference(r) = &*t.ty {
                let syn::Type::Slice(s) = &*r.elem else {
                    continue;
                };
                let Some(n) = param_named(&s.elem, &names) else {
                    continue;
                };
                let k = names
                    .iter()
                    .position(|m| m == n)
                    .expect("a name of the list");
                if chosen[k].is_some() {
                    continue;
                }
                let mut e = arg;
                while let syn::Expr::Reference(r) = e {
                    e = &r.expr;
                }
                if let syn::Expr::Path(p) = e {
                    if let Some(Binding::Param(id)) =
                        p.path.get_ident().and_then(|i| self.lookup(&ident_name(i)))
                    {
                        if let ParamType::Slice {
                            elem: Type::Scalar(s),
                            ..
                        } = self.cx.kernel.param(id).ty
                        {
                            chosen[k] = scalar_name(s);
                        }
                    }
                }
            }
        }
        let mut types = Vec::new();
        for (k, (n, bound)) in params.iter().enumerate() {
            let Some(t) = chosen[k].or(literal[k]) else {
                return Err(self.error(span, format!("cannot infer `{n}` of `{name}` here: annotate an argument, or write `{name}::<f32>(..)`")));
            };
            if !generics::listable_types(bound).contains(&t) {
                return Err(self.error(
                    span,
                    format!(
                        "`{name}` has no instance for {n} = {t}: its bound allows {}",
                        generics::bound_types(bound).join(", ")
                    ),
                ));
            }
            types.push(t);
        }
        let key = (Rc::as_ptr(f) as usize, types.clone());
        let instance = match self.cx.generic_helpers.get(&key) {
            Some(i) => i.clone(),
            None => {
                let subst = Subst {
                    params: names
                        .iter()
                        .zip(&types)
                        .map(|(n, t)| (n.clone(), Replace::Scalar(t)))
                        .collect(),
                    assoc_consts: Default::default(),
                };
                let mut g = (**f).clone();
                g.sig.generics = syn::Generics::default();
                g.sig.ident = Ident::new(
                    &format!("{}__{}", name, types.join("_")),
                    f.sig.ident.span(),
                );
                let Some(g) = generics::rewrite_item(&g, &subst) else {
                    return Err(self.error(span, format!("`{name}` could not be instantiated")));
                };
                let g = Rc::new(g);
                self.cx.generic_helpers.insert(key, g.clone());
                g
            }
        };
        let ident = Ident::new(&instance.sig.ident.to_string(), path.span());
        let mut call = c.clone();
        *call.func = syn::parse_quote!(#ident);
        self.helper_call(&call, &instance, scope)
    }
}
