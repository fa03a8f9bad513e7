//! `#[cfg]` inside a `#[sarek::module]`. The macro runs before rustc evaluates `cfg` on the
//! items it receives, and it cannot evaluate `cfg` itself (features, targets and `--cfg`
//! flags are rustc's). So it expands the module once per combination of the distinct `cfg`
//! predicates written on what kernels read (structs, enums, helpers, constants, traits and
//! `impl`s, their fields, variants and associated items): each variant sees only the items
//! whose predicates hold in it, and every item it generates carries
//! `#[cfg(all(p, not(q), ..))]`, so rustc keeps exactly the variant of the active
//! combination, whose WGSL and ABI were built from the items rustc compiles. A predicate and
//! its negation (`feature = "x"`, `not(feature = "x")`) count once. At most
//! [`MAX_PREDICATES`] distinct predicates (16 variants) are expanded, since every variant is
//! lowered and validated at build time. `#[cfg]` on kernels (their generated items carry it),
//! `use`, `mod` and macros needs nothing: those are copied into every variant as written.

use proc_macro2::{Span, TokenStream, TokenTree};
use quote::quote;
use syn::spanned::Spanned;

use super::diagnostic::{Diagnostics, ErrorKind};

/// The most distinct `cfg` predicates one module may use on what kernels read: the module
/// is expanded once per combination, `2^4 = 16` times at most.
pub const MAX_PREDICATES: usize = 4;

/// One distinct `cfg` predicate: its text (the key) and its tokens.
#[derive(Clone)]
pub struct Predicate {
    key: String,
    tokens: TokenStream,
}

/// A `#[cfg(..)]` attribute's predicate, with `not(p)` unwrapped: `(p, negated)`.
fn predicate(a: &syn::Attribute) -> Option<(TokenStream, bool)> {
    let tokens: TokenStream = a.parse_args().ok()?;
    let trees: Vec<TokenTree> = tokens.clone().into_iter().collect();
    if let [TokenTree::Ident(not), TokenTree::Group(g)] = trees.as_slice() {
        if not == "not" && g.delimiter() == proc_macro2::Delimiter::Parenthesis {
            return Some((g.stream(), true));
        }
    }
    Some((tokens, false))
}

fn is_cfg(a: &syn::Attribute) -> bool {
    a.path().is_ident("cfg")
}

/// Calls `f` with every attribute list of `items` that a kernel reads.
fn each_attrs<'a>(
    items: &'a [syn::Item],
    is_kernel: &impl Fn(&syn::ItemFn) -> bool,
    f: &mut impl FnMut(&'a [syn::Attribute]),
) {
    for item in items {
        match item {
            syn::Item::Struct(s) => {
                f(&s.attrs);
                s.fields.iter().for_each(|x| f(&x.attrs));
            }
            syn::Item::Enum(e) => {
                f(&e.attrs);
                for v in &e.variants {
                    f(&v.attrs);
                    v.fields.iter().for_each(|x| f(&x.attrs));
                }
            }
            syn::Item::Fn(x) if !is_kernel(x) => f(&x.attrs),
            syn::Item::Const(c) => f(&c.attrs),
            syn::Item::Type(t) => f(&t.attrs),
            syn::Item::Trait(t) => {
                f(&t.attrs);
                for it in &t.items {
                    match it {
                        syn::TraitItem::Fn(x) => f(&x.attrs),
                        syn::TraitItem::Const(c) => f(&c.attrs),
                        _ => {}
                    }
                }
            }
            syn::Item::Impl(i) => {
                f(&i.attrs);
                for it in &i.items {
                    match it {
                        syn::ImplItem::Fn(x) => f(&x.attrs),
                        syn::ImplItem::Const(c) => f(&c.attrs),
                        syn::ImplItem::Type(t) => f(&t.attrs),
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
}

/// The distinct predicates of the `#[cfg]`s on what kernels read, in order of appearance; an
/// error at the first predicate past [`MAX_PREDICATES`], or at a `#[cfg]` that is not
/// `#[cfg(predicate)]`.
pub fn predicates(
    items: &[syn::Item],
    is_kernel: impl Fn(&syn::ItemFn) -> bool,
) -> (Vec<Predicate>, Diagnostics) {
    let mut list: Vec<Predicate> = Vec::new();
    let mut errors = Diagnostics::new();
    let mut refused = false;
    each_attrs(items, &is_kernel, &mut |attrs| {
        for a in attrs.iter().filter(|a| is_cfg(a)) {
            let Some((tokens, _)) = predicate(a) else {
                errors.push(
                    a.span(),
                    ErrorKind::InvalidAttribute("write a `cfg` as `#[cfg(predicate)]`"),
                );
                continue;
            };
            let key = tokens.to_string();
            if list.iter().any(|p| p.key == key) {
                continue;
            }
            if list.len() == MAX_PREDICATES {
                if !refused {
                    refused = true;
                    errors.push(a.span(), ErrorKind::unsupported(TOO_MANY));
                }
                continue;
            }
            list.push(Predicate { key, tokens });
        }
    });
    (list, errors)
}

const TOO_MANY: &str = "a `#[sarek::module]` may use at most 4 distinct `cfg` predicates on the items its kernels read: the macro cannot evaluate `cfg`, so it builds and validates the kernels once per combination of them (16 at most); combine conditions into fewer predicates (one feature that implies the others), or put the alternatives in `#[sarek::module]`s of their own chosen with `#[cfg]` on the module";

/// Whether every `#[cfg]` in `attrs` holds in combination `mask` (bit `k` set: predicate `k`
/// holds).
fn holds(attrs: &[syn::Attribute], preds: &[Predicate], mask: u32) -> bool {
    attrs.iter().filter(|a| is_cfg(a)).all(|a| {
        let Some((tokens, negated)) = predicate(a) else {
            return true;
        };
        let key = tokens.to_string();
        match preds.iter().position(|p| p.key == key) {
            Some(k) => ((mask >> k) & 1 == 1) != negated,
            None => true,
        }
    })
}

/// Keeps the elements of `list` whose `#[cfg]`s hold.
fn retain<T: Clone, P>(
    list: &syn::punctuated::Punctuated<T, P>,
    attrs: impl Fn(&T) -> &[syn::Attribute],
    preds: &[Predicate],
    mask: u32,
) -> syn::punctuated::Punctuated<T, P>
where
    P: Default,
{
    list.iter()
        .filter(|x| holds(attrs(x), preds, mask))
        .cloned()
        .collect()
}

fn select_fields(fields: &mut syn::Fields, preds: &[Predicate], mask: u32) {
    match fields {
        syn::Fields::Named(n) => n.named = retain(&n.named, |f| &f.attrs, preds, mask),
        syn::Fields::Unnamed(u) => u.unnamed = retain(&u.unnamed, |f| &f.attrs, preds, mask),
        syn::Fields::Unit => {}
    }
}

/// The items as combination `mask` of `preds` sees them: what a false `#[cfg]` removes is
/// gone, in items, fields, variants and associated items.
pub fn select(
    items: &[syn::Item],
    preds: &[Predicate],
    mask: u32,
    is_kernel: impl Fn(&syn::ItemFn) -> bool,
) -> Vec<syn::Item> {
    let mut out = Vec::new();
    for item in items {
        let mut item = item.clone();
        let keep = match &mut item {
            syn::Item::Struct(s) => {
                select_fields(&mut s.fields, preds, mask);
                holds(&s.attrs, preds, mask)
            }
            syn::Item::Enum(e) => {
                e.variants = retain(&e.variants, |v| &v.attrs, preds, mask);
                for v in e.variants.iter_mut() {
                    select_fields(&mut v.fields, preds, mask);
                }
                holds(&e.attrs, preds, mask)
            }
            syn::Item::Fn(f) if !is_kernel(f) => holds(&f.attrs, preds, mask),
            syn::Item::Const(c) => holds(&c.attrs, preds, mask),
            syn::Item::Type(t) => holds(&t.attrs, preds, mask),
            syn::Item::Trait(t) => {
                t.items.retain(|it| match it {
                    syn::TraitItem::Fn(x) => holds(&x.attrs, preds, mask),
                    syn::TraitItem::Const(c) => holds(&c.attrs, preds, mask),
                    _ => true,
                });
                holds(&t.attrs, preds, mask)
            }
            syn::Item::Impl(i) => {
                i.items.retain(|it| match it {
                    syn::ImplItem::Fn(x) => holds(&x.attrs, preds, mask),
                    syn::ImplItem::Const(c) => holds(&c.attrs, preds, mask),
                    syn::ImplItem::Type(t) => holds(&t.attrs, preds, mask),
                    _ => true,
                });
                holds(&i.attrs, preds, mask)
            }
            _ => true,
        };
        if keep {
            out.push(item);
        }
    }
    out
}

/// `all(p0, not(p1), ..)`: the condition under which combination `mask` is rustc's.
pub fn condition(preds: &[Predicate], mask: u32) -> TokenStream {
    let terms = preds.iter().enumerate().map(|(k, p)| {
        let t = &p.tokens;
        if (mask >> k) & 1 == 1 {
            quote!(#t)
        } else {
            quote!(not(#t))
        }
    });
    quote!(all(#(#terms),*))
}

/// `tokens` (a variant's items) with `#[cfg(condition)]` on each item.
pub fn gate(tokens: TokenStream, condition: &TokenStream) -> TokenStream {
    match syn::parse2::<syn::File>(tokens) {
        Ok(file) => {
            let items = file.items.iter();
            quote!(#(#[cfg(#condition)] #items)*)
        }
        Err(e) => syn::Error::new(
            Span::call_site(),
            format!("Sarek could not gate a `cfg` variant of this module ({e}); this is a bug in Sarek, please report it"),
        )
        .to_compile_error(),
    }
}
