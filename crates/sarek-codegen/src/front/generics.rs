//! Generic kernels: which instances a generic kernel has, and each instance as a monomorphic
//! kernel the rest of the front end lowers unchanged.
//!
//! Every generic parameter ranges over a set known at build time: a type parameter's bound
//! names a closed set (`Scalar` = {`f32`, `i32`, `u32`}, `Float` = {`f32`}, `Integer` =
//! {`i32`, `u32`}) or a trait of the kernel's `#[sarek::module]`, whose impls the macro reads;
//! a const parameter's values are listed in the attribute (`instances(B = [64, 256])`). The
//! instances are the product of those sets (a trait bound may name an earlier parameter,
//! `O: Op<T>`, and then ranges over the impls for that instance's `T`).
//!
//! An instance is made by substitution at the token level, the way `methods.rs` rewrites
//! `Self`: the parameters are replaced by the instance's types and values (at the tokens that
//! named them, so errors point there), `T::ZERO`/`T::ONE` by literals, and `X::C` of an
//! associated constant by a module constant `X__C`. The module's trait impls that the
//! instance uses become inherent impls (their methods are then helpers `X__method`, like any
//! method's), with the impl's own parameters substituted and the trait's default items added.

use std::collections::{HashMap, HashSet};

use proc_macro2::{Ident, Literal, Punct, Span, TokenStream, TokenTree};
use quote::{quote, ToTokens};
use syn::spanned::Spanned;

use super::attr::KernelAttr;
use super::diagnostic::{Diagnostics, ErrorKind};
use super::trait_impls::{impl_trait, module_view, self_name, traits, Traits};

/// The most instances one generic kernel may have: each is lowered, compiled and validated
/// at build time, so a product that explodes would make builds crawl.
pub const MAX_INSTANCES: usize = 64;

/// The most generic parameters a kernel may have: the places of `sarek::Instance`.
pub const MAX_PARAMS: usize = 8;

/// What a type parameter ranges over.
#[derive(Clone, Debug)]
pub enum Bound {
    /// `sarek::gpu::Scalar`: `f32`, `i32`, `u32`.
    Scalar,
    /// `sarek::gpu::Float`: `f32`.
    Float,
    /// `sarek::gpu::Integer`: `i32`, `u32`.
    Integer,
    /// A trait of the module, with its generic arguments as written (`Op<T>`).
    Trait(Ident, Vec<syn::Type>),
}

impl Bound {
    /// The path generated code writes for the bound (`::sarek::gpu::Scalar`), or the
    /// module's trait as written.
    pub fn tokens(&self) -> TokenStream {
        match self {
            Bound::Scalar => quote!(::sarek::gpu::Scalar),
            Bound::Float => quote!(::sarek::gpu::Float),
            Bound::Integer => quote!(::sarek::gpu::Integer),
            Bound::Trait(name, args) if args.is_empty() => quote!(#name),
            Bound::Trait(name, args) => quote!(#name<#(#args),*>),
        }
    }

    /// Whether the parameter is a GPU scalar type (rather than a trait's implementor).
    pub fn is_scalar(&self) -> bool {
        !matches!(self, Bound::Trait(..))
    }
}

/// One generic parameter of a kernel.
#[derive(Clone, Debug)]
pub enum Param {
    /// `T: Bound`.
    Type(Ident, Bound),
    /// `const B: usize` with its listed values (as integer literals).
    Const(Ident, syn::Type, Vec<(i128, Span)>),
}

impl Param {
    /// The parameter's name.
    pub fn ident(&self) -> &Ident {
        match self {
            Param::Type(i, _) | Param::Const(i, _, _) => i,
        }
    }
}

/// One instance: the kernel with its parameters replaced, and the module as it sees it.
pub struct Instance {
    /// `T = f32, B = 64`, for messages.
    pub label: String,
    /// Each parameter's argument, in declaration order: a type's name or a const's value.
    pub args: Vec<String>,
    /// The attribute with its workgroup size substituted.
    pub attr: KernelAttr,
    /// The monomorphic kernel.
    pub item: syn::ItemFn,
    /// The module's items as this instance sees them.
    pub module: Vec<syn::Item>,
    /// Where the first listed const value of the instance was written.
    pub value_span: Option<Span>,
}

/// A generic kernel's parameters and every instance of it.
pub struct Generic {
    /// The parameters, in declaration order.
    pub params: Vec<Param>,
    /// The instances, in the order of the product.
    pub instances: Vec<Instance>,
}

/// What replaces a parameter's name inside an instance.
#[derive(Clone, Debug)]
pub enum Replace {
    /// A scalar type (`f32`): also turns `T::ZERO`/`T::ONE` into literals.
    Scalar(&'static str),
    /// A type of the module (`Add`).
    Type(String),
    /// A const value, as a suffixed literal (`64usize`).
    Value(String),
}

/// A substitution: parameter names to what replaces them, and the associated constants
/// (`(type, const)`) that become module constants `type__const`.
#[derive(Default)]
pub struct Subst {
    /// Parameter name → replacement.
    pub params: HashMap<String, Replace>,
    /// `(type name, const name)` pairs turned into `type__const` names.
    pub assoc_consts: HashSet<(String, String)>,
}

fn scalar_literal(ty: &str, one: bool) -> &'static str {
    match (ty, one) {
        ("f32", false) => "0.0f32",
        ("f32", true) => "1.0f32",
        ("i32", false) => "0i32",
        ("i32", true) => "1i32",
        (_, false) => "0u32",
        (_, true) => "1u32",
    }
}

fn punct_is(t: Option<&TokenTree>, c: char) -> bool {
    matches!(t, Some(TokenTree::Punct(p)) if p.as_char() == c)
}

/// Applies `subst` to `tokens`.
pub fn rewrite(tokens: TokenStream, subst: &Subst) -> TokenStream {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out: Vec<TokenTree> = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        match &tokens[i] {
            TokenTree::Ident(id) => {
                let span = id.span();
                let name = id.to_string();
                let replace = subst.params.get(&name);
                // `X::C`: a path of two segments after this identifier.
                let member = match (
                    tokens.get(i + 3),
                    punct_is(tokens.get(i + 1), ':'),
                    punct_is(tokens.get(i + 2), ':'),
                ) {
                    (Some(TokenTree::Ident(c)), true, true) => Some(c.to_string()),
                    _ => None,
                };
                // `a::T` names something else than the parameter `T` (but `x: T` is the
                // parameter: one colon).
                let preceded_by_path = i >= 2
                    && punct_is(tokens.get(i - 1), ':')
                    && matches!(tokens.get(i - 2), Some(TokenTree::Punct(p)) if p.as_char() == ':' && p.spacing() == proc_macro2::Spacing::Joint);
                if let (Some(Replace::Scalar("f16")), Some(m)) = (replace, &member) {
                    if (m == "ZERO" || m == "ONE") && !preceded_by_path {
                        // `f16` has no literal in stable Rust: its named constant.
                        let mut first = Punct::new(':', proc_macro2::Spacing::Joint);
                        let mut second = Punct::new(':', proc_macro2::Spacing::Alone);
                        first.set_span(span);
                        second.set_span(span);
                        out.push(TokenTree::Ident(Ident::new("f16", span)));
                        out.push(TokenTree::Punct(first));
                        out.push(TokenTree::Punct(second));
                        out.push(TokenTree::Ident(Ident::new(m, span)));
                        i += 4;
                        continue;
                    }
                }
                if let (Some(Replace::Scalar(ty)), Some(m)) = (replace, &member) {
                    if (m == "ZERO" || m == "ONE") && !preceded_by_path {
                        let mut lit: Literal =
                            scalar_literal(ty, m == "ONE").parse().expect("a literal");
                        lit.set_span(span);
                        out.push(TokenTree::Literal(lit));
                        i += 4;
                        continue;
                    }
                }
                let base = match replace {
                    Some(Replace::Scalar(t)) => t.to_string(),
                    Some(Replace::Type(t)) => t.clone(),
                    _ => name.clone(),
                };
                if let Some(m) = &member {
                    if !preceded_by_path && subst.assoc_consts.contains(&(base.clone(), m.clone()))
                    {
                        out.push(TokenTree::Ident(Ident::new(&format!("{base}__{m}"), span)));
                        i += 4;
                        continue;
                    }
                }
                match replace {
                    Some(Replace::Value(v)) if !preceded_by_path => {
                        let mut lit: Literal = v.parse().expect("a literal");
                        lit.set_span(span);
                        out.push(TokenTree::Literal(lit));
                    }
                    Some(Replace::Scalar(_) | Replace::Type(_)) if !preceded_by_path => {
                        out.push(TokenTree::Ident(Ident::new(&base, span)))
                    }
                    _ => out.push(tokens[i].clone()),
                }
            }
            TokenTree::Group(g) => {
                let mut n = proc_macro2::Group::new(g.delimiter(), rewrite(g.stream(), subst));
                n.set_span(g.span());
                out.push(TokenTree::Group(n));
            }
            other => out.push(other.clone()),
        }
        i += 1;
    }
    out.into_iter().collect()
}

/// `item` with `subst` applied (re-parsed; `None` if the result is not an item of the same
/// kind, which substituting identifiers by identifiers and literals cannot cause).
pub fn rewrite_item<T: ToTokens + syn::parse::Parse>(item: &T, subst: &Subst) -> Option<T> {
    syn::parse2(rewrite(item.to_token_stream(), subst)).ok()
}

/// The types a scalar bound ranges over.
pub fn bound_types(bound: &Bound) -> &'static [&'static str] {
    match bound {
        Bound::Scalar => &["f32", "i32", "u32"],
        Bound::Float => &["f32"],
        Bound::Integer => &["i32", "u32"],
        Bound::Trait(..) => &[],
    }
}

/// The types `instances(T = [..])` may list for a bound: its set, and `f16` for `Scalar`
/// and `Float`, which no kernel gets unless it lists it (an `f16` instance needs the device
/// feature `SHADER_F16`).
pub fn listable_types(bound: &Bound) -> &'static [&'static str] {
    match bound {
        Bound::Scalar => &["f32", "i32", "u32", "f16"],
        Bound::Float => &["f32", "f16"],
        other => bound_types(other),
    }
}

/// Bounds a parameter may carry besides its set, which say nothing about the instances.
const MARKER_BOUNDS: &[&str] = &[
    "Copy",
    "Clone",
    "Debug",
    "Default",
    "PartialEq",
    "PartialOrd",
    "Send",
    "Sync",
];

/// Whether `item` has generic parameters (and so goes through this module).
pub fn is_generic(item: &syn::ItemFn) -> bool {
    !item.sig.generics.params.is_empty()
}

fn type_text(t: &syn::Type) -> String {
    t.to_token_stream().to_string()
}

/// How an impl's own parameters must be set for its trait arguments to equal `want`, if they
/// can: `impl<U: Scalar> Op<U> for Add` matches `Op<f32>` with `U = f32`.
fn match_impl(imp: &syn::ItemImpl, want: &[String]) -> Option<Vec<(String, &'static str)>> {
    let (_, args) = impl_trait(imp)?;
    if args.len() != want.len() {
        return None;
    }
    let mut vars: HashMap<String, Bound> = HashMap::new();
    for p in &imp.generics.params {
        let syn::GenericParam::Type(tp) = p else {
            return None;
        };
        let bound = tp.bounds.iter().find_map(|b| match b {
            syn::TypeParamBound::Trait(t) => scalar_bound(&t.path),
            _ => None,
        })?;
        vars.insert(tp.ident.to_string(), bound);
    }
    let mut set: Vec<(String, &'static str)> = Vec::new();
    for (a, w) in args.iter().zip(want) {
        let text = type_text(a);
        if let Some(bound) = vars.get(&text) {
            let ty = bound_types(bound).iter().find(|t| *t == w)?;
            if let Some((_, prev)) = set.iter().find(|(n, _)| *n == text) {
                if prev != ty {
                    return None;
                }
            } else {
                set.push((text, ty));
            }
        } else if &text != w {
            return None;
        }
    }
    (set.len() == vars.len()).then_some(set)
}

fn scalar_bound(path: &syn::Path) -> Option<Bound> {
    let last = path.segments.last()?;
    match last.ident.to_string().as_str() {
        "Scalar" => Some(Bound::Scalar),
        "Float" => Some(Bound::Float),
        "Integer" => Some(Bound::Integer),
        _ => None,
    }
}

/// The kernel's generic parameters, checked.
fn params(
    item: &syn::ItemFn,
    attr: &KernelAttr,
    module: &Traits,
    errors: &mut Diagnostics,
) -> Vec<Param> {
    let generics = &item.sig.generics;
    if let Some(w) = &generics.where_clause {
        errors.error(w.span(), "write a kernel's bounds in its parameter list (`fn k<T: Scalar>`), not in a `where` clause");
    }
    let listed: HashMap<String, &Vec<syn::Expr>> = attr
        .instances
        .iter()
        .map(|(n, v)| (n.to_string(), v))
        .collect();
    let mut out = Vec::new();
    if let Some(p) = generics.params.iter().nth(MAX_PARAMS) {
        errors.error(p.span(), format!("a kernel has at most {MAX_PARAMS} generic parameters (the places of `sarek::Instance`); group some into a trait of the module"));
    }
    for p in &generics.params {
        match p {
            syn::GenericParam::Lifetime(l) => errors.error(
                l.span(),
                "a kernel has no lifetime parameters: its buffers live for the launch",
            ),
            syn::GenericParam::Type(tp) => {
                let mut bound = None;
                let mut refused = false;
                for b in &tp.bounds {
                    let syn::TypeParamBound::Trait(t) = b else {
                        continue;
                    };
                    let last = t
                        .path
                        .segments
                        .last()
                        .map(|s| s.ident.to_string())
                        .unwrap_or_default();
                    if let Some(s) = scalar_bound(&t.path) {
                        bound = Some(s);
                    } else if module.traits.contains_key(&last) {
                        let args = match &t.path.segments.last().map(|s| &s.arguments) {
                            Some(syn::PathArguments::AngleBracketed(a)) => a
                                .args
                                .iter()
                                .filter_map(|a| match a {
                                    syn::GenericArgument::Type(t) => Some(t.clone()),
                                    _ => None,
                                })
                                .collect(),
                            _ => Vec::new(),
                        };
                        let ident = t
                            .path
                            .segments
                            .last()
                            .map(|s| s.ident.clone())
                            .expect("a segment");
                        bound = Some(Bound::Trait(ident, args));
                    } else if !MARKER_BOUNDS.contains(&last.as_str()) {
                        refused = true;
                        errors.error(t.span(), format!("a kernel's type parameter must be bounded by `Scalar`, `Float` or `Integer` (from `sarek::gpu`) or by a trait of its `#[sarek::module]`, so that the macro knows every instance at build time; `{last}` is neither"));
                    }
                }
                if let Some(d) = &tp.default {
                    errors.error(d.span(), "a kernel's type parameter has no default");
                }
                match bound {
                    Some(b) => out.push(Param::Type(tp.ident.clone(), b)),
                    None if refused => {}
                    None => errors.error(tp.ident.span(), format!("give `{}` a bound that lists its types: `{}: Scalar` (f32, i32, u32), `Float`, `Integer`, or a trait of the kernel's `#[sarek::module]`", tp.ident, tp.ident)),
                }
            }
            syn::GenericParam::Const(cp) => {
                let name = cp.ident.to_string();
                let ty_ok = matches!(&cp.ty, syn::Type::Path(p) if p.path.is_ident("usize"));
                if !ty_ok {
                    errors.error(cp.ty.span(), "a kernel's const parameter is a `usize` (launched as `k.launch::<64>(..)`); convert it inside the kernel, `B as u32`");
                    continue;
                }
                let Some(values) = listed.get(&name) else {
                    errors.error(cp.ident.span(), format!("the const parameter `{name}` needs its values: list them in `#[sarek::kernel(instances({name} = [64, 256]))]`; each becomes an instance, compiled and validated at build time"));
                    continue;
                };
                let mut vals = Vec::new();
                for v in values.iter() {
                    match const_value(v) {
                        Some(n) => vals.push((n, v.span())),
                        None => {
                            errors.error(v.span(), "write each listed value as an integer literal")
                        }
                    }
                }
                if vals.is_empty() {
                    errors.error(
                        cp.ident.span(),
                        format!("list at least one value of `{name}`"),
                    );
                }
                out.push(Param::Const(cp.ident.clone(), cp.ty.clone(), vals));
            }
        }
    }
    for (name, _) in &attr.instances {
        if !generics.params.iter().any(|p| match p {
            syn::GenericParam::Type(t) => t.ident == *name,
            syn::GenericParam::Const(c) => c.ident == *name,
            _ => false,
        }) {
            errors.error(
                name.span(),
                format!("the kernel has no generic parameter `{name}`"),
            );
        }
    }
    out
}

fn const_value(e: &syn::Expr) -> Option<i128> {
    match e {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(i),
            ..
        }) => i.base10_parse().ok(),
        syn::Expr::Unary(syn::ExprUnary {
            op: syn::UnOp::Neg(_),
            expr,
            ..
        }) => const_value(expr).map(|v| -v),
        syn::Expr::Paren(p) => const_value(&p.expr),
        _ => None,
    }
}

/// A chosen argument of one parameter while the product is built.
#[derive(Clone)]
enum Choice {
    Type(String),
    /// A trait parameter's implementor and the impl (index into `Traits::impls`) with the
    /// settings of the impl's own parameters.
    Impl(String, usize, Vec<(String, &'static str)>),
    Value(i128, Span),
}

/// Every instance of a generic kernel, or the errors that prevent building them.
pub fn instances(
    attr: &KernelAttr,
    item: &syn::ItemFn,
    module: &[syn::Item],
) -> Result<Generic, Diagnostics> {
    let mut errors = Diagnostics::new();
    let module_traits = traits(module);
    let params = params(item, attr, &module_traits, &mut errors);
    refuse_trait_objects(item, &mut errors);
    if !errors.is_empty() {
        return Err(errors);
    }
    let listed: HashMap<String, &Vec<syn::Expr>> = attr
        .instances
        .iter()
        .map(|(n, v)| (n.to_string(), v))
        .collect();
    // The product, parameter by parameter: a trait bound may name earlier parameters.
    let mut partial: Vec<Vec<Choice>> = vec![Vec::new()];
    for p in &params {
        let mut next = Vec::new();
        for chosen in &partial {
            let subst = choice_subst(&params, chosen);
            let options: Vec<Choice> = match p {
                Param::Const(_, _, values) => {
                    values.iter().map(|(v, s)| Choice::Value(*v, *s)).collect()
                }
                Param::Type(ident, bound) if bound.is_scalar() => {
                    let all = bound_types(bound);
                    match listed.get(&ident.to_string()) {
                        Some(list) => {
                            let mut picked = Vec::new();
                            let all = listable_types(bound);
                            for e in list.iter() {
                                let text = e.to_token_stream().to_string();
                                if all.contains(&text.as_str()) {
                                    picked.push(Choice::Type(text));
                                } else {
                                    errors.error(e.span(), format!("`{text}` is not one of the types of `{ident}`'s bound ({})", all.join(", ")));
                                }
                            }
                            picked
                        }
                        None => all.iter().map(|t| Choice::Type(t.to_string())).collect(),
                    }
                }
                Param::Type(_, Bound::Trait(name, args)) => {
                    let want: Vec<String> = args
                        .iter()
                        .map(|a| {
                            let t = rewrite(a.to_token_stream(), &subst);
                            syn::parse2::<syn::Type>(t)
                                .map(|t| type_text(&t))
                                .unwrap_or_default()
                        })
                        .collect();
                    module_traits
                        .impls
                        .iter()
                        .enumerate()
                        .filter(|(_, imp)| impl_trait(imp).is_some_and(|(t, _)| *name == t))
                        .filter_map(|(k, imp)| {
                            Some(Choice::Impl(self_name(imp)?, k, match_impl(imp, &want)?))
                        })
                        .collect()
                }
                Param::Type(..) => Vec::new(),
            };
            // A trait with no implementor here is an extension point: its instances are the
            // ones requested with `sarek::instances!` where the implementors are.
            if options.is_empty() && matches!(p, Param::Type(_, Bound::Trait(..))) {
                continue;
            }
            if options.is_empty() {
                errors.error(
                    p.ident().span(),
                    format!(
                        "`{}` has no instance: nothing in the module satisfies its bound",
                        p.ident()
                    ),
                );
                return Err(errors);
            }
            for o in options {
                let mut c = chosen.clone();
                c.push(o);
                next.push(c);
            }
            if next.len() > MAX_INSTANCES {
                errors.error(item.sig.generics.span(), format!("this kernel would have more than {MAX_INSTANCES} instances, the most Sarek builds for one kernel (each is compiled and validated at build time); narrow the bounds or list fewer values in `instances(..)`"));
                return Err(errors);
            }
        }
        partial = next;
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let instances = partial
        .iter()
        .map(|chosen| instance(attr, item, module, &module_traits, &params, chosen))
        .collect();
    Ok(Generic { params, instances })
}

/// The instance of a generic kernel that a `sarek::instances!` request names: `args` are
/// the request's generic arguments in the kernel's order (a type of the bound, an implementor
/// of the bound's trait in `module`, or an integer literal for a const parameter). Also
/// returns whether the kernel's own bounds and `instances(..)` list already build it in its
/// own module, whose items are `home`.
pub fn requested_instance(
    attr: &KernelAttr,
    item: &syn::ItemFn,
    module: &[syn::Item],
    home: &[syn::Item],
    args: &[syn::GenericArgument],
    at: Span,
) -> Result<(Instance, bool), Diagnostics> {
    let mut errors = Diagnostics::new();
    let module_traits = traits(module);
    let params = params(item, attr, &module_traits, &mut errors);
    if !errors.is_empty() {
        return Err(errors);
    }
    let name = &item.sig.ident;
    if args.len() != params.len() {
        let names: Vec<String> = params.iter().map(|p| p.ident().to_string()).collect();
        errors.error(
            at,
            format!(
                "`{name}` has {} generic parameter(s), <{}>; this request gives {}",
                params.len(),
                names.join(", "),
                args.len()
            ),
        );
        return Err(errors);
    }
    let mut chosen: Vec<Choice> = Vec::new();
    for (p, a) in params.iter().zip(args) {
        let choice = match (p, a) {
            (Param::Const(i, _, _), syn::GenericArgument::Const(e)) => match const_value(e) {
                Some(v) => Choice::Value(v, e.span()),
                None => {
                    errors.error(
                        e.span(),
                        format!("write the value of `{i}` as an integer literal"),
                    );
                    return Err(errors);
                }
            },
            // `256` parses as a type only when it is a path; a literal is a const argument.
            (Param::Const(i, _, _), other) => {
                errors.error(
                    other.span(),
                    format!("`{i}` is a const parameter: give an integer literal"),
                );
                return Err(errors);
            }
            (Param::Type(i, bound), syn::GenericArgument::Type(t)) if bound.is_scalar() => {
                let text = type_text(t);
                if !listable_types(bound).contains(&text.as_str()) {
                    errors.error(
                        t.span(),
                        format!(
                            "`{text}` is not one of the types of `{i}`'s bound ({})",
                            listable_types(bound).join(", ")
                        ),
                    );
                    return Err(errors);
                }
                Choice::Type(text)
            }
            (Param::Type(i, Bound::Trait(trait_name, targs)), syn::GenericArgument::Type(t)) => {
                let text = type_text(t);
                let subst = choice_subst(&params, &chosen);
                let want: Vec<String> = targs
                    .iter()
                    .map(|a| {
                        let t = rewrite(a.to_token_stream(), &subst);
                        syn::parse2::<syn::Type>(t)
                            .map(|t| type_text(&t))
                            .unwrap_or_default()
                    })
                    .collect();
                let found = module_traits.impls.iter().enumerate().find_map(|(k, imp)| {
                    let (tn, _) = impl_trait(imp)?;
                    if *trait_name != tn || self_name(imp)? != text {
                        return None;
                    }
                    Some((k, match_impl(imp, &want)?))
                });
                match found {
                    Some((k, set)) => Choice::Impl(text, k, set),
                    None => {
                        errors.error(t.span(), format!("`{text}` does not implement `{}` where this module sees it: `{i}` takes the implementors of its bound; write `impl {} for {text}` in this `#[sarek::module]` or import the module that has it", Bound::Trait(trait_name.clone(), targs.clone()).tokens(), Bound::Trait(trait_name.clone(), targs.clone()).tokens()));
                        return Err(errors);
                    }
                }
            }
            (p, other) => {
                errors.error(
                    other.span(),
                    format!("`{}` is a type parameter: give a type", p.ident()),
                );
                return Err(errors);
            }
        };
        chosen.push(choice);
    }
    // Whether the kernel's own product has it: same arguments.
    let label_of = |c: &Choice| match c {
        Choice::Type(t) | Choice::Impl(t, _, _) => t.clone(),
        Choice::Value(v, _) => v.to_string(),
    };
    let wanted: Vec<String> = chosen.iter().map(label_of).collect();
    let built = instances(attr, item, home)
        .map(|g| g.instances.iter().any(|i| i.args == wanted))
        .unwrap_or(false);
    Ok((
        instance(attr, item, module, &module_traits, &params, &chosen),
        built,
    ))
}

/// The substitution of the parameters chosen so far.
fn choice_subst(params: &[Param], chosen: &[Choice]) -> Subst {
    let mut s = Subst::default();
    for (p, c) in params.iter().zip(chosen) {
        let r = match (p, c) {
            (_, Choice::Type(t)) => Replace::Scalar(match t.as_str() {
                "f32" => "f32",
                "i32" => "i32",
                "f16" => "f16",
                _ => "u32",
            }),
            (_, Choice::Impl(t, _, _)) => Replace::Type(t.clone()),
            (Param::Const(_, ty, _), Choice::Value(v, _)) => {
                Replace::Value(format!("{v}{}", type_text(ty)))
            }
            (_, Choice::Value(v, _)) => Replace::Value(v.to_string()),
        };
        s.params.insert(p.ident().to_string(), r);
    }
    s
}

fn instance(
    attr: &KernelAttr,
    item: &syn::ItemFn,
    module: &[syn::Item],
    traits: &Traits,
    params: &[Param],
    chosen: &[Choice],
) -> Instance {
    let mut subst = choice_subst(params, chosen);
    let mut labels = Vec::new();
    let mut args = Vec::new();
    let mut value_span = None;
    for (p, c) in params.iter().zip(chosen) {
        let a = match c {
            Choice::Type(t) | Choice::Impl(t, _, _) => t.clone(),
            Choice::Value(v, s) => {
                value_span.get_or_insert(*s);
                v.to_string()
            }
        };
        labels.push(format!("{} = {a}", p.ident()));
        args.push(a);
    }
    let selected: Vec<(usize, Vec<(String, &'static str)>)> = chosen
        .iter()
        .filter_map(|c| match c {
            Choice::Impl(_, k, set) => Some((*k, set.clone())),
            _ => None,
        })
        .collect();
    let module = module_view(module, traits, &selected, &mut subst);
    let mut item = item.clone();
    item.sig.generics = syn::Generics::default();
    let item = rewrite_item(&item, &subst).unwrap_or(item);
    let mut attr = attr.clone();
    attr.workgroup_size_exprs = attr
        .workgroup_size_exprs
        .iter()
        .map(|e| rewrite_item(e, &subst).unwrap_or_else(|| e.clone()))
        .collect();
    attr.instances.clear();
    Instance {
        label: labels.join(", "),
        args,
        attr,
        item,
        module,
        value_span,
    }
}

/// Refuses `dyn Trait` and `impl Trait` anywhere in a generic kernel, with the fix.
pub fn refuse_trait_objects(item: &syn::ItemFn, errors: &mut Diagnostics) {
    struct Finder<'a>(&'a mut Diagnostics);
    impl<'ast> syn::visit::Visit<'ast> for Finder<'_> {
        fn visit_type_trait_object(&mut self, t: &'ast syn::TypeTraitObject) {
            self.0.push(t.span(), ErrorKind::unsupported("a kernel cannot use trait objects: the GPU has no function pointers, so every call must be known at build time; make the kernel generic over the trait, `fn k<O: Op>(..)`, and launch `k.launch::<Add>(..)`"));
        }
        fn visit_type_impl_trait(&mut self, t: &'ast syn::TypeImplTrait) {
            self.0.push(t.span(), ErrorKind::unsupported("a kernel cannot take `impl Trait`: name a generic parameter instead, `fn k<O: Op>(..)`, and launch `k.launch::<Add>(..)`"));
        }
    }
    syn::visit::Visit::visit_item_fn(&mut Finder(errors), item);
}
