//! The module as one generic-kernel instance sees it: the module's trait impls that the
//! instance uses (and the non-generic impls of traits it does not bound) become inherent
//! impls, whose methods are then helpers `Type__method` like any method's, with the impl's
//! own parameters substituted and the trait's default items added; associated constants
//! become module constants `Type__NAME`.

use std::collections::{HashMap, HashSet};

use proc_macro2::Ident;
use quote::ToTokens;
use syn::spanned::Spanned;

use super::generics::{rewrite, rewrite_item, Replace, Subst};

/// The traits and trait impls of a module.
pub(super) struct Traits<'a> {
    /// The module's traits, by name.
    pub traits: HashMap<String, &'a syn::ItemTrait>,
    /// The module's trait impls, in source order.
    pub impls: Vec<&'a syn::ItemImpl>,
}

/// The module as a non-generic kernel sees it: the non-generic impls of the module's own
/// traits as inherent impls (an impl of a trait from elsewhere, `Default` or `Add`, serves the
/// host and stays out of sight, as before).
pub(super) fn plain_view(module: &[syn::Item]) -> Vec<syn::Item> {
    let all = traits(module);
    if all.impls.is_empty() {
        return module.to_vec();
    }
    let own = Traits {
        impls: all
            .impls
            .iter()
            .copied()
            .filter(|imp| {
                imp.generics.params.is_empty()
                    && impl_trait(imp).is_some_and(|(t, _)| all.traits.contains_key(&t))
            })
            .collect(),
        traits: all.traits.clone(),
    };
    module_view(module, &own, &[], &mut Subst::default())
}

/// Collects the traits and trait impls of `module`.
pub(super) fn traits(module: &[syn::Item]) -> Traits<'_> {
    let mut t = Traits {
        traits: HashMap::new(),
        impls: Vec::new(),
    };
    for item in module {
        match item {
            syn::Item::Trait(tr) => {
                t.traits.insert(tr.ident.to_string(), tr);
            }
            syn::Item::Impl(imp) if imp.trait_.is_some() => t.impls.push(imp),
            _ => {}
        }
    }
    t
}

/// The trait an impl implements (its last path segment) and its generic arguments.
pub(super) fn impl_trait(imp: &syn::ItemImpl) -> Option<(String, Vec<syn::Type>)> {
    let (_, path, _) = imp.trait_.as_ref()?;
    let last = path.segments.last()?;
    let args = match &last.arguments {
        syn::PathArguments::AngleBracketed(a) => a
            .args
            .iter()
            .filter_map(|a| match a {
                syn::GenericArgument::Type(t) => Some(t.clone()),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    Some((last.ident.to_string(), args))
}

/// The name of an impl's self type, when it is a plain name.
pub(super) fn self_name(imp: &syn::ItemImpl) -> Option<String> {
    match &*imp.self_ty {
        syn::Type::Path(p) if p.qself.is_none() => p.path.get_ident().map(|i| i.to_string()),
        _ => None,
    }
}

/// The module as one instance sees it: the trait impls it uses (and the non-generic impls
/// of traits it does not bound) as inherent impls, their associated constants as module
/// constants `Type__NAME`, and every item rewritten for those names.
pub(super) fn module_view(
    module: &[syn::Item],
    traits: &Traits,
    selected: &[(usize, Vec<(String, &'static str)>)],
    subst: &mut Subst,
) -> Vec<syn::Item> {
    let bounded: HashSet<String> = selected
        .iter()
        .filter_map(|(k, _)| impl_trait(traits.impls[*k]).map(|(t, _)| t))
        .collect();
    let mut per_trait_self: HashMap<(String, String), usize> = HashMap::new();
    for imp in &traits.impls {
        if let (Some((t, _)), Some(s)) = (impl_trait(imp), self_name(imp)) {
            *per_trait_self.entry((t, s)).or_default() += 1;
        }
    }
    let mut converted = Vec::new();
    for (k, imp) in traits.impls.iter().enumerate() {
        let (Some((trait_name, _)), Some(self_ty)) = (impl_trait(imp), self_name(imp)) else {
            continue;
        };
        let settings = match selected.iter().find(|(s, _)| *s == k) {
            Some((_, set)) => set.clone(),
            None if bounded.contains(&trait_name) || !imp.generics.params.is_empty() => continue,
            None if per_trait_self.get(&(trait_name.clone(), self_ty.clone())) != Some(&1) => {
                continue
            }
            None => Vec::new(),
        };
        converted.push((imp, trait_name, self_ty, settings));
    }
    for (imp, _, self_ty, _) in &converted {
        for it in &imp.items {
            if let syn::ImplItem::Const(c) = it {
                subst
                    .assoc_consts
                    .insert((self_ty.clone(), c.ident.to_string()));
            }
        }
        if let Some(tr) = traits
            .traits
            .get(&impl_trait(imp).map(|(t, _)| t).unwrap_or_default())
        {
            for it in &tr.items {
                if let syn::TraitItem::Const(c) = it {
                    if c.default.is_some() {
                        subst
                            .assoc_consts
                            .insert((self_ty.clone(), c.ident.to_string()));
                    }
                }
            }
        }
    }
    let mut out: Vec<syn::Item> = Vec::new();
    for item in module {
        match item {
            syn::Item::Impl(imp) if imp.trait_.is_some() => {}
            other => {
                let kept = match other {
                    syn::Item::Fn(_) | syn::Item::Const(_) | syn::Item::Impl(_)
                        if !subst.assoc_consts.is_empty() =>
                    {
                        rewrite_item(
                            other,
                            &Subst {
                                params: HashMap::new(),
                                assoc_consts: subst.assoc_consts.clone(),
                            },
                        )
                    }
                    _ => None,
                };
                out.push(kept.unwrap_or_else(|| other.clone()));
            }
        }
    }
    for (imp, trait_name, self_ty, settings) in converted {
        let mut own = Subst {
            params: settings
                .iter()
                .map(|(n, t)| (n.clone(), Replace::Scalar(t)))
                .collect(),
            assoc_consts: subst.assoc_consts.clone(),
        };
        own.params
            .insert("Self".into(), Replace::Type(self_ty.clone()));
        let ty = Ident::new(&self_ty, imp.self_ty.span());
        let mut fns: Vec<syn::ImplItemFn> = Vec::new();
        let mut consts: Vec<syn::ImplItemConst> = Vec::new();
        for it in &imp.items {
            match it {
                syn::ImplItem::Fn(f) => fns.push(f.clone()),
                syn::ImplItem::Const(c) => consts.push(c.clone()),
                _ => {}
            }
        }
        // The trait's default items that the impl does not override.
        if let Some(tr) = traits.traits.get(&trait_name) {
            // The trait's own parameters are the impl's arguments.
            let mut trait_subst = Subst {
                params: own.params.clone(),
                assoc_consts: own.assoc_consts.clone(),
            };
            if let Some((_, args)) = impl_trait(imp) {
                for (tp, a) in tr.generics.type_params().zip(args) {
                    let text = rewrite(a.to_token_stream(), &own).to_string();
                    let r = match text.as_str() {
                        "f32" => Replace::Scalar("f32"),
                        "i32" => Replace::Scalar("i32"),
                        "u32" => Replace::Scalar("u32"),
                        other => Replace::Type(other.to_string()),
                    };
                    trait_subst.params.insert(tp.ident.to_string(), r);
                }
            }
            for it in &tr.items {
                match it {
                    syn::TraitItem::Fn(f)
                        if f.default.is_some()
                            && !fns.iter().any(|g| g.sig.ident == f.sig.ident) =>
                    {
                        let g: syn::ImplItemFn = syn::ImplItemFn {
                            attrs: Vec::new(),
                            vis: syn::Visibility::Inherited,
                            defaultness: None,
                            sig: f.sig.clone(),
                            block: f.default.clone().expect("checked"),
                        };
                        if let Some(g) = rewrite_item(&g, &trait_subst) {
                            fns.push(g);
                        }
                    }
                    syn::TraitItem::Const(c) if !consts.iter().any(|d| d.ident == c.ident) => {
                        if let Some((_, e)) = &c.default {
                            let (name, t) = (&c.ident, &c.ty);
                            let d: syn::ImplItemConst = syn::parse_quote!(const #name: #t = #e;);
                            if let Some(d) = rewrite_item(&d, &trait_subst) {
                                consts.push(d);
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        for c in consts {
            let name = Ident::new(&format!("{self_ty}__{}", c.ident), c.ident.span());
            let (t, e) = (&c.ty, &c.expr);
            if let Some(item) = rewrite_item(&syn::parse_quote!(const #name: #t = #e;), &own) {
                out.push(item);
            }
        }
        let fns = fns.into_iter().filter_map(|f| rewrite_item(&f, &own));
        out.push(syn::parse_quote!(impl #ty { #(#fns)* }));
    }
    out
}
