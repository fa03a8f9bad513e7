//! Methods: the inherent `impl` blocks of a module's structs and enums.
//!
//! Each method becomes a helper function named `Type__method`, so it is lowered, specialised
//! and memoised exactly as a free helper. `Self` is replaced by the type's name and `self` by
//! an ordinary first parameter `self_`. A `self` or `&self` method takes the receiver by value
//! (GPU values are copies, so `&self` and `self` mean the same). A `&mut self` method returns
//! its receiver, changed, and the call writes it back to the place it came from (a local, a
//! buffer element, a workgroup-array element), which is Rust's semantics for a unique borrow.

use proc_macro2::{Ident, TokenStream, TokenTree};
use quote::quote;
use syn::spanned::Spanned;

use super::items::Item;
use super::{ident_name, Lowerer, ModuleContext, Value, R};
use crate::front::infer::Ty;
use crate::ir::Type;

/// How a method takes its receiver.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Receiver {
    /// An associated function (`Vec2::new`).
    None,
    /// `self` or `&self`: a copy.
    Value,
    /// `&mut self`: the changed receiver is written back.
    Mut,
}

/// A method of a module type.
#[derive(Clone)]
pub struct Method {
    /// The type's name.
    ty: String,
    /// The helper's name, `Type__method`.
    helper: String,
    receiver: Receiver,
    /// Why the method cannot be called, if it cannot.
    refusal: Option<&'static str>,
    /// Whether a `&mut self` method also returns a value (its helper returns a pair).
    returns: bool,
}

/// Replaces `Self` by `ty`, `self` by `self_`, and (for `&mut self` methods) `return;` by
/// `return self_;`.
fn rewrite(tokens: TokenStream, ty: &Ident, returns_self: bool) -> TokenStream {
    let mut out = Vec::new();
    let mut iter = tokens.into_iter().peekable();
    while let Some(t) = iter.next() {
        match t {
            TokenTree::Ident(i) if i == "Self" => {
                out.push(TokenTree::Ident(Ident::new(&ty.to_string(), i.span())))
            }
            TokenTree::Ident(i) if i == "self" => {
                out.push(TokenTree::Ident(Ident::new("self_", i.span())))
            }
            TokenTree::Ident(i) if i == "return" && returns_self => {
                let bare = matches!(iter.peek(), Some(TokenTree::Punct(p)) if p.as_char() == ';');
                let span = i.span();
                out.push(TokenTree::Ident(i));
                if bare {
                    out.push(TokenTree::Ident(Ident::new("self_", span)));
                }
            }
            TokenTree::Group(g) => {
                let mut n =
                    proc_macro2::Group::new(g.delimiter(), rewrite(g.stream(), ty, returns_self));
                n.set_span(g.span());
                out.push(TokenTree::Group(n));
            }
            other => out.push(other),
        }
    }
    out.into_iter().collect()
}

/// Whether `tokens` contain a `return`.
fn mentions_return(tokens: &TokenStream) -> bool {
    tokens.clone().into_iter().any(|t| match t {
        TokenTree::Ident(i) => i == "return",
        TokenTree::Group(g) => mentions_return(&g.stream()),
        _ => false,
    })
}

/// The helper function standing for method `m` of type `ty`.
fn method_fn(
    ty: &Ident,
    m: &syn::ImplItemFn,
) -> Option<(syn::ItemFn, Receiver, Option<&'static str>)> {
    let mut sig = m.sig.clone();
    let helper = Ident::new(
        &format!("{}__{}", ty, ident_name(&sig.ident)),
        sig.ident.span(),
    );
    sig.ident = helper;
    let mut receiver = Receiver::None;
    let mut refusal = None;
    if let Some(syn::FnArg::Receiver(r)) = sig.inputs.first().cloned() {
        let mutable = r.reference.is_some() && r.mutability.is_some();
        receiver = if mutable {
            Receiver::Mut
        } else {
            Receiver::Value
        };
        let param: syn::FnArg = if mutable || (r.reference.is_none() && r.mutability.is_some()) {
            syn::parse_quote!(mut self_: #ty)
        } else {
            syn::parse_quote!(self_: #ty)
        };
        let rest: Vec<syn::FnArg> = sig.inputs.iter().skip(1).cloned().collect();
        sig.inputs = std::iter::once(param).chain(rest).collect();
    }
    let mut block = m.block.clone();
    if receiver == Receiver::Mut {
        match sig.output.clone() {
            syn::ReturnType::Default => {
                sig.output = syn::parse_quote!(-> #ty);
                // The body's last expression becomes a statement, and the receiver its value.
                if let Some(syn::Stmt::Expr(_, semi @ None)) = block.stmts.last_mut() {
                    *semi = Some(Default::default());
                }
                block
                    .stmts
                    .push(syn::Stmt::Expr(syn::parse_quote!(self_), None));
            }
            syn::ReturnType::Type(_, result) => {
                // `-> R` becomes `-> (Type, R)`: the changed receiver and the result.
                let tail = match block.stmts.pop() {
                    Some(syn::Stmt::Expr(e, None)) if !mentions_return(&quote!(#block #e)) => {
                        Some(e)
                    }
                    _ => None,
                };
                match tail {
                    Some(e) => {
                        sig.output = syn::parse_quote!(-> (#ty, #result));
                        block
                            .stmts
                            .push(syn::parse_quote!(let __sarek_result: #result = #e;));
                        block.stmts.push(syn::Stmt::Expr(
                            syn::parse_quote!((self_, __sarek_result)),
                            None,
                        ));
                    }
                    None => {
                        refusal = Some("a `&mut self` method that returns a value must end with that value and not use `return`; restructure it with `if`/`else`");
                        block = m.block.clone();
                    }
                }
            }
        }
    }
    let f = syn::ItemFn {
        attrs: Vec::new(),
        vis: syn::Visibility::Inherited,
        sig,
        block: Box::new(block),
    };
    let tokens = rewrite(quote!(#f), ty, receiver == Receiver::Mut);
    syn::parse2(tokens).ok().map(|f| (f, receiver, refusal))
}

impl ModuleContext {
    /// Declares the methods of an inherent `impl` block of a struct or enum.
    pub(super) fn declare_impl(&mut self, imp: &syn::ItemImpl, scope: Option<usize>) {
        let syn::Type::Path(p) = &*imp.self_ty else {
            return;
        };
        let Some(ty) = p.path.get_ident() else {
            return;
        };
        for item in &imp.items {
            let syn::ImplItem::Fn(m) = item else { continue };
            let Some((f, receiver, refusal)) = method_fn(ty, m) else {
                continue;
            };
            let helper = ident_name(&f.sig.ident);
            let returns = !matches!(m.sig.output, syn::ReturnType::Default);
            self.methods
                .entry(ident_name(&m.sig.ident))
                .or_default()
                .push(Method {
                    ty: ident_name(ty),
                    helper: helper.clone(),
                    receiver,
                    refusal,
                    returns,
                });
            self.items
                .insert(helper, Item::Fn(std::rc::Rc::new(f), scope));
        }
    }
}

impl Lowerer<'_> {
    /// `Type::function(args)`: an associated function or a method called by path.
    pub(super) fn associated_call(
        &mut self,
        c: &syn::ExprCall,
        p: &syn::ExprPath,
    ) -> Option<R<Value>> {
        let segments: Vec<&syn::PathSegment> = p.path.segments.iter().collect();
        let [ty, f] = segments.as_slice() else {
            return None;
        };
        let helper = format!("{}__{}", ident_name(&ty.ident), ident_name(&f.ident));
        let Some(Item::Fn(item, scope)) = self.cx.items.lookup(&helper) else {
            return None;
        };
        let method = self.method_named(&ident_name(&f.ident), &ident_name(&ty.ident));
        if let Some(m) = &method {
            if m.receiver == Receiver::Mut {
                return Some(Err(self.error(c.span(), "call a `&mut self` method with method syntax, `value.method(..)`, so that the value it changes is known")));
            }
        }
        let ident = Ident::new(&helper, f.ident.span());
        let mut call = c.clone();
        *call.func = syn::parse_quote!(#ident);
        Some(self.helper_call(&call, &item, scope))
    }

    fn method_named(&self, method: &str, ty: &str) -> Option<Method> {
        self.cx
            .methods
            .get(method)?
            .iter()
            .find(|m| m.ty == ty)
            .cloned()
    }

    /// `receiver.method(args)` when a module type has a method of that name and the receiver
    /// is of that type; `None` otherwise (a built-in method).
    pub(super) fn user_method_call(&mut self, m: &syn::ExprMethodCall) -> Option<R<Value>> {
        let name = ident_name(&m.method);
        let candidates = self.cx.methods.get(&name)?.clone();
        // The receiver's type picks the method; lowering it here only to learn the type
        // leaves pure expressions that nothing uses.
        // A receiver that is no value (a buffer's name) is not this method's: its errors are
        // dropped, and the built-in method reports its own.
        let errors = self.cx.diagnostics.len();
        let (_, probe) = self.with_block(|this| this.value(&m.receiver).map(Value::Expr));
        let Ok(Value::Expr(h)) = probe else {
            self.cx.diagnostics.truncate(errors);
            return None;
        };
        let ty = match self.infer.shallow(self.ty(h)) {
            Ty::Compound(t @ Type::Struct(_)) => crate::ir::type_name(&self.cx.kernel.types, t),
            _ => return None,
        };
        let method = candidates.into_iter().find(|c| c.ty == ty)?;
        if let Some(reason) = method.refusal {
            return Some(Err(self.error(m.method.span(), reason)));
        }
        let Some(Item::Fn(item, scope)) = self.cx.items.lookup(&method.helper) else {
            return None;
        };
        let helper = Ident::new(&method.helper, m.method.span());
        let receiver = &m.receiver;
        let args = m.args.iter();
        let call: syn::ExprCall =
            syn::parse_quote_spanned!(m.span()=> #helper(#receiver, #(#args),*));
        Some(match method.receiver {
            Receiver::Mut if method.returns => {
                // `let v = rng.next();`: the pair's first half goes back to the place.
                let value = syn::Expr::Call(call);
                let block: syn::Expr = syn::parse_quote_spanned!(m.span()=> {
                    let (__sarek_receiver, __sarek_value) = #value;
                    #receiver = __sarek_receiver;
                    __sarek_value
                });
                self.expression(&block)
            }
            Receiver::Mut => {
                // `p.advance(dt)` is `p = Type__advance(p, dt)`: the place gets the result.
                let value = syn::Expr::Call(call);
                let assign: syn::Expr = syn::parse_quote_spanned!(m.span()=> #receiver = #value);
                self.expression(&assign).map(|_| Value::Unit)
            }
            _ => self.helper_call(&call, &item, scope),
        })
    }
}
