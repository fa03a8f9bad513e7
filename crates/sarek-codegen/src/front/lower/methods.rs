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
use syn::visit_mut::VisitMut;

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

/// `{ let r: R = e; (self_, r) }`: the pair a value-returning `&mut self` method hands back,
/// with the receiver read after the value (computing it may change the receiver).
fn pair(e: syn::Expr, result: &syn::Type) -> syn::Expr {
    syn::parse_quote!({
        let __sarek_result: #result = #e;
        (self_, __sarek_result)
    })
}

/// Turns a value-returning `&mut self` method's tail into the pair. A tail `if`, `match` or
/// block gets the pair in each branch, so that a branch that leaves by `return` (already a
/// pair) keeps its type `!` rather than being paired again.
fn pair_tail(e: syn::Expr, result: &syn::Type) -> syn::Expr {
    match e {
        syn::Expr::Return(_) => e,
        syn::Expr::Block(mut b) if b.label.is_none() => {
            pair_block(&mut b.block, result);
            syn::Expr::Block(b)
        }
        syn::Expr::If(mut i) if i.else_branch.is_some() => {
            pair_block(&mut i.then_branch, result);
            if let Some((_, e)) = i.else_branch.take() {
                i.else_branch = Some((Default::default(), Box::new(pair_tail(*e, result))));
            }
            syn::Expr::If(i)
        }
        syn::Expr::Match(mut m) => {
            for arm in &mut m.arms {
                let body = std::mem::replace(&mut *arm.body, syn::parse_quote!(()));
                *arm.body = pair_tail(body, result);
                arm.comma.get_or_insert_with(Default::default);
            }
            syn::Expr::Match(m)
        }
        other => pair(other, result),
    }
}

/// Pairs a block's tail expression, if it has one (a block that ends in `return ..;`
/// has none and needs none).
fn pair_block(b: &mut syn::Block, result: &syn::Type) {
    if matches!(b.stmts.last(), Some(syn::Stmt::Expr(_, None))) {
        if let Some(syn::Stmt::Expr(e, None)) = b.stmts.pop() {
            b.stmts.push(syn::Stmt::Expr(pair_tail(e, result), None));
        }
    }
}

/// Rewrites every `return e` of a value-returning `&mut self` method into `return` of the
/// pair, so that an early exit also hands back the changed receiver.
struct PairReturns<'a> {
    result: &'a syn::Type,
}

impl VisitMut for PairReturns<'_> {
    fn visit_expr_mut(&mut self, e: &mut syn::Expr) {
        syn::visit_mut::visit_expr_mut(self, e);
        if let syn::Expr::Return(r) = e {
            if let Some(v) = r.expr.take() {
                r.expr = Some(Box::new(pair(*v, self.result)));
            }
        }
    }

    // A nested item's `return`s are its own.
    fn visit_item_mut(&mut self, _: &mut syn::Item) {}
}

/// The helper function standing for method `m` of type `ty`.
fn method_fn(ty: &Ident, m: &syn::ImplItemFn) -> Option<(syn::ItemFn, Receiver)> {
    let mut sig = m.sig.clone();
    let helper = Ident::new(
        &format!("{}__{}", ty, ident_name(&sig.ident)),
        sig.ident.span(),
    );
    sig.ident = helper;
    let mut receiver = Receiver::None;
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
                // `-> R` becomes `-> (Type, R)`: the changed receiver and the result, taken
                // after the result is computed (the result may change the receiver).
                sig.output = syn::parse_quote!(-> (#ty, #result));
                if mentions_return(&quote!(#block)) {
                    PairReturns { result: &result }.visit_block_mut(&mut block);
                }
                pair_block(&mut block, &result);
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
    syn::parse2(tokens).ok().map(|f| (f, receiver))
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
            let Some((f, receiver)) = method_fn(ty, m) else {
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
                    returns,
                });
            self.items
                .insert(helper, Item::Fn(std::rc::Rc::new(f), scope));
        }
    }
}

impl Lowerer<'_> {
    /// `Type::function(args)`: an associated function or a method called by path
    /// (`Counter::bump(&mut c, 2)`, `Shape::area(&s)`, `<Circle as Shape>::area(&s)`).
    pub(super) fn associated_call(
        &mut self,
        c: &syn::ExprCall,
        p: &syn::ExprPath,
    ) -> Option<R<Value>> {
        let segments: Vec<&syn::PathSegment> = p.path.segments.iter().collect();
        let (ty, f) = match (&p.qself, segments.as_slice()) {
            // `<Circle as Shape>::area`: the type is the qualified self.
            (Some(q), [.., f]) => match &*q.ty {
                syn::Type::Path(t) if t.qself.is_none() => (t.path.get_ident()?.clone(), *f),
                _ => return None,
            },
            (None, [ty, f]) => (ty.ident.clone(), *f),
            _ => return None,
        };
        let name = ident_name(&f.ident);
        if self.cx.traits.contains(&ident_name(&ty)) {
            // `Shape::area(&s)`: the receiver's type picks the impl, as in method syntax.
            let trait_name = ident_name(&ty);
            let Some(receiver) = c.args.first() else {
                return Some(Err(self.error(c.span(), format!("`{trait_name}::{name}` is a method: pass its receiver as the first argument, `{trait_name}::{name}(&value, ..)`, or call it as `value.{name}(..)`"))));
            };
            let method = self
                .receiver_type(strip_reference(receiver))
                .and_then(|ty| self.method_named(&name, &ty));
            let Some(method) = method else {
                return Some(Err(self.error(receiver.span(), format!("`{trait_name}::{name}` needs a receiver of a type of the module that implements `{trait_name}` (kernels see the module's own impls only); pass such a value, `{trait_name}::{name}(&value, ..)`"))));
            };
            return Some(self.path_method_call(c, &method, f.ident.span()));
        }
        let helper = format!("{}__{}", ident_name(&ty), name);
        let Some(Item::Fn(item, scope)) = self.cx.items.lookup(&helper) else {
            return None;
        };
        match self.method_named(&name, &ident_name(&ty)) {
            Some(m) if m.receiver != Receiver::None => {
                Some(self.path_method_call(c, &m, f.ident.span()))
            }
            _ => {
                let ident = Ident::new(&helper, f.ident.span());
                let mut call = c.clone();
                *call.func = syn::parse_quote!(#ident);
                Some(self.helper_call(&call, &item, scope))
            }
        }
    }

    /// A method called by path with its receiver as the first argument: `&x` or `x` for a
    /// `self`/`&self` method, `&mut place` for a `&mut self` method (whose place changes).
    fn path_method_call(
        &mut self,
        c: &syn::ExprCall,
        method: &Method,
        name_span: proc_macro2::Span,
    ) -> R<Value> {
        let mut args = c.args.iter();
        let Some(first) = args.next() else {
            return Err(self.error(c.span(), "a method called by path takes its receiver as the first argument: `Type::method(&value, ..)`"));
        };
        let receiver = match (method.receiver, first) {
            (Receiver::Mut, syn::Expr::Reference(r)) if r.mutability.is_some() => {
                if !is_place(&r.expr) {
                    return Err(self.error(r.expr.span(), "a `&mut self` method changes its receiver, so the receiver must be a variable, a field or an element (`&mut x`, `&mut p.x`, `&mut xs[i]`); bind this value first: `let mut x = ..;`"));
                }
                &*r.expr
            }
            (Receiver::Mut, _) => return Err(self.error(c.span(), "call a `&mut self` method with method syntax, `value.method(..)`, so that the value it changes is known")),
            (_, e) => strip_reference(e),
        };
        let args: Vec<&syn::Expr> = args.collect();
        self.method_call_on(method, receiver, &args, name_span, c.span())
    }

    fn method_named(&self, method: &str, ty: &str) -> Option<Method> {
        self.cx
            .methods
            .get(method)?
            .iter()
            .find(|m| m.ty == ty)
            .cloned()
    }

    /// The module type of `receiver`, if it is a value of a struct or enum type.
    fn receiver_type(&mut self, receiver: &syn::Expr) -> Option<String> {
        // Lowering the receiver here only to learn its type leaves pure expressions that
        // nothing uses. A receiver that is no value (a buffer's name) is not a method's: its
        // errors are dropped, and the built-in method reports its own.
        let errors = self.cx.diagnostics.len();
        let (_, probe) = self.with_block(|this| this.value(receiver).map(Value::Expr));
        let Ok(Value::Expr(h)) = probe else {
            self.cx.diagnostics.truncate(errors);
            return None;
        };
        match self.infer.shallow(self.ty(h)) {
            Ty::Compound(t @ Type::Struct(_)) => {
                Some(crate::ir::type_name(&self.cx.kernel.types, t))
            }
            _ => None,
        }
    }

    /// `receiver.method(args)` when a module type has a method of that name and the receiver
    /// is of that type; `None` otherwise (a built-in method).
    pub(super) fn user_method_call(&mut self, m: &syn::ExprMethodCall) -> Option<R<Value>> {
        let name = ident_name(&m.method);
        let candidates = self.cx.methods.get(&name)?.clone();
        let ty = self.receiver_type(&m.receiver)?;
        let method = candidates.into_iter().find(|c| c.ty == ty)?;
        let args: Vec<&syn::Expr> = m.args.iter().collect();
        Some(self.method_call_on(&method, &m.receiver, &args, m.method.span(), m.span()))
    }

    /// Calls `method` on `receiver`: a `&mut self` method writes the changed receiver back to
    /// its place.
    fn method_call_on(
        &mut self,
        method: &Method,
        receiver: &syn::Expr,
        args: &[&syn::Expr],
        name_span: proc_macro2::Span,
        span: proc_macro2::Span,
    ) -> R<Value> {
        let Some(Item::Fn(item, scope)) = self.cx.items.lookup(&method.helper) else {
            return Err(self.error(
                name_span,
                format!("the method `{}` is not visible here", method.helper),
            ));
        };
        let helper = Ident::new(&method.helper, name_span);
        let call: syn::ExprCall = syn::parse_quote_spanned!(span=> #helper(#receiver, #(#args),*));
        match method.receiver {
            Receiver::Mut if method.returns => {
                // `let v = rng.next();`: the pair's first half goes back to the place.
                let value = syn::Expr::Call(call);
                let block: syn::Expr = syn::parse_quote_spanned!(span=> {
                    let (__sarek_receiver, __sarek_value) = #value;
                    #receiver = __sarek_receiver;
                    __sarek_value
                });
                self.expression(&block)
            }
            Receiver::Mut => {
                // `p.advance(dt)` is `p = Type__advance(p, dt)`: the place gets the result.
                let value = syn::Expr::Call(call);
                let assign: syn::Expr = syn::parse_quote_spanned!(span=> #receiver = #value);
                self.expression(&assign).map(|_| Value::Unit)
            }
            _ => self.helper_call(&call, &item, scope),
        }
    }
}

/// Whether `e` names a place a changed receiver can be written back to.
fn is_place(e: &syn::Expr) -> bool {
    match e {
        syn::Expr::Path(_) => true,
        syn::Expr::Field(f) => is_place(&f.base),
        syn::Expr::Index(i) => is_place(&i.expr),
        syn::Expr::Paren(p) => is_place(&p.expr),
        _ => false,
    }
}

/// `x` for `&x` and `&mut x`: a method's receiver passed by reference is passed by value
/// (GPU values are copies).
fn strip_reference(e: &syn::Expr) -> &syn::Expr {
    match e {
        syn::Expr::Reference(r) => &r.expr,
        syn::Expr::Paren(p) => strip_reference(&p.expr),
        other => other,
    }
}
