//! `#[sarek::module] mod m { .. }`: kernels compiled together with the structs, enums,
//! helper functions and constants of their module, which the macro reads at compile time.

use proc_macro2::TokenStream;
use quote::quote;
use syn::spanned::Spanned;

use super::diagnostic::{Diagnostic, Diagnostics, ErrorKind};
use super::lower::module_types;
use super::{attr, expand::expand_kernel_in, host};
use crate::ir::Type;

fn is_kernel_attr(a: &syn::Attribute) -> bool {
    a.path()
        .segments
        .last()
        .is_some_and(|s| s.ident == "kernel")
}

/// The attribute's arguments as tokens (`workgroup_size = [64]`), empty for `#[kernel]`.
fn attr_tokens(a: &syn::Attribute) -> TokenStream {
    match &a.meta {
        syn::Meta::List(l) => l.tokens.clone(),
        _ => TokenStream::new(),
    }
}

/// Adds `Clone` and `Copy` to an item's derives where they are missing (GPU values are
/// copied).
fn add_copy(attrs: &mut Vec<syn::Attribute>) {
    let mut has = (false, false);
    for a in attrs.iter().filter(|a| a.path().is_ident("derive")) {
        let _ = a.parse_nested_meta(|m| {
            if m.path.segments.last().is_some_and(|s| s.ident == "Clone") {
                has.0 = true;
            }
            if m.path.segments.last().is_some_and(|s| s.ident == "Copy") {
                has.1 = true;
            }
            Ok(())
        });
    }
    match has {
        (false, false) => attrs.push(syn::parse_quote!(#[derive(Clone, Copy)])),
        (true, false) => attrs.push(syn::parse_quote!(#[derive(Copy)])),
        (false, true) => attrs.push(syn::parse_quote!(#[derive(Clone)])),
        (true, true) => {}
    }
}

/// Makes a struct `#[repr(C)]`, refusing other representations.
fn make_repr_c(s: &mut syn::ItemStruct, errors: &mut Diagnostics) {
    let mut has_c = false;
    for a in s.attrs.iter().filter(|a| a.path().is_ident("repr")) {
        let _ = a.parse_nested_meta(|m| {
            if m.path.is_ident("C") {
                has_c = true;
            } else {
                errors.push(
                    m.path.span(),
                    ErrorKind::InvalidAttribute("a struct shared with the GPU has WGSL's layout, which `#[sarek::module]` gives it as `#[repr(C)]`; remove this `repr`"),
                );
            }
            Ok(())
        });
    }
    if !has_c {
        s.attrs.push(syn::parse_quote!(#[repr(C)]));
    }
}

/// The unit structs of `items` that implement a trait of the module.
fn marker_structs(items: &[syn::Item]) -> std::collections::HashSet<String> {
    let units: std::collections::HashSet<String> = items
        .iter()
        .filter_map(|i| match i {
            syn::Item::Struct(s) if matches!(s.fields, syn::Fields::Unit) => {
                Some(s.ident.to_string())
            }
            _ => None,
        })
        .collect();
    items
        .iter()
        .filter_map(|i| match i {
            syn::Item::Impl(imp) if imp.trait_.is_some() => match &*imp.self_ty {
                syn::Type::Path(p) => p.path.get_ident().map(|i| i.to_string()),
                _ => None,
            },
            _ => None,
        })
        .filter(|n| units.contains(n))
        .collect()
}

/// Expands `#[sarek::module] mod name { items }`. Never panics: every problem becomes a
/// `compile_error!` at the offending token.
pub fn expand_module(attr: TokenStream, item: TokenStream) -> TokenStream {
    if !attr.is_empty() {
        return Diagnostic::new(
            attr.span(),
            ErrorKind::InvalidAttribute("`#[sarek::module]` takes no arguments"),
        )
        .into_syn()
        .to_compile_error();
    }
    if let Some(e) = super::depth::check_tokens(&item) {
        return e.into_syn().to_compile_error();
    }
    let mut module: syn::ItemMod = match syn::parse2(item) {
        Ok(m) => m,
        Err(e) => {
            return Diagnostic::new(
                e.span(),
                ErrorKind::unsupported(
                    "`#[sarek::module]` applies to a module with a body: `mod name { .. }`",
                ),
            )
            .into_syn()
            .to_compile_error()
        }
    };
    let Some((_, items)) = module.content.take() else {
        return Diagnostic::new(module.ident.span(), ErrorKind::unsupported("`#[sarek::module]` needs the module's items inline (`mod name { .. }`), so that it can read them"))
            .into_syn()
            .to_compile_error();
    };
    let mut errors = Diagnostics::new();
    // Everything below walks the syntax recursively: refuse what nests too deeply first.
    if let Some(e) = super::depth::check(&items) {
        errors.add(e);
        return errors.into_compile_errors();
    }
    let attrs = &module.attrs;
    let vis = &module.vis;
    let name = &module.ident;
    // Items of other modules that the kernels use are fetched first (`library.rs`); the
    // last fetch expands the module with them.
    let paths = super::library::paths_to_import(&items, &mut errors);
    if !errors.is_empty() {
        return errors.into_compile_errors();
    }
    let body = if paths.is_empty() {
        expand_body(vis, name, items, Vec::new())
    } else {
        let header = quote!(#vis mod #name);
        super::library::fetch(&header, &paths, &quote!(#(#items)*), &TokenStream::new())
    };
    quote! {
        #(#attrs)*
        #vis mod #name {
            #body
        }
    }
}

/// The body of module `name` (its items, host code, kernels and export), with the items of
/// the modules it imports.
pub fn expand_body(
    vis: &syn::Visibility,
    name: &syn::Ident,
    items: Vec<syn::Item>,
    imported: Vec<super::library::Block>,
) -> TokenStream {
    let mut errors = Diagnostics::new();
    let is_kernel = |f: &syn::ItemFn| f.attrs.iter().any(is_kernel_attr);
    let (predicates, cfg_errors) = super::cfg::predicates(&items, is_kernel);
    if !cfg_errors.is_empty() {
        errors.append(cfg_errors);
        return errors.into_compile_errors();
    }
    let module = Module {
        vis,
        name,
        imported: &imported,
    };
    if predicates.is_empty() {
        expand_items(items, errors, &module)
    } else {
        // One expansion per combination of the predicates, each under its `#[cfg]`: rustc
        // keeps the one whose items it compiles (see `cfg.rs`).
        let mut body = errors.into_compile_errors();
        for mask in 0..1u32 << predicates.len() {
            let variant = super::cfg::select(&items, &predicates, mask, is_kernel);
            let condition = super::cfg::condition(&predicates, mask);
            body.extend(super::cfg::gate(
                expand_items(variant, Diagnostics::new(), &module),
                &condition,
            ));
        }
        body
    }
}

/// The module being expanded, as its items' expansion needs it.
struct Module<'a> {
    vis: &'a syn::Visibility,
    name: &'a syn::Ident,
    imported: &'a [super::library::Block],
}

/// Expands a module's items (one `cfg` variant of them): the items as rustc gets them, the
/// host code generated for its structs and enums, each kernel, the instances it requests,
/// its export, and the errors.
fn expand_items(items: Vec<syn::Item>, mut errors: Diagnostics, m: &Module) -> TokenStream {
    let is_kernel_item =
        |i: &syn::Item| matches!(i, syn::Item::Fn(f) if f.attrs.iter().any(is_kernel_attr));
    // What kernels see: everything but the kernels and requests, then what the module imports.
    let own: Vec<syn::Item> = items
        .iter()
        .filter(|i| !is_kernel_item(i))
        .filter(|i| !matches!(i, syn::Item::Macro(mac) if super::library::is_instances(mac)))
        .cloned()
        .collect();
    let imported_all = super::library::visible_imports(&items, m.imported, &mut errors);
    let mut visible = own.clone();
    visible.extend(imported_all.iter().filter(|i| !is_kernel_item(i)).cloned());
    // What importers of this module see: its items and its generic kernels (to instantiate).
    let export = {
        let mut exported = own.clone();
        exported.extend(
            items
                .iter()
                .filter(|i| matches!(i, syn::Item::Fn(f) if f.attrs.iter().any(is_kernel_attr) && !f.sig.generics.params.is_empty()))
                .cloned(),
        );
        super::library::export(m.vis, m.name, exported, m.imported)
    };
    // Unit structs that implement a trait the module sees are markers a generic kernel is
    // instantiated with (`combine::<Add>`), never GPU values: they get no GPU type.
    let markers = marker_structs(&visible);
    let is_marker =
        |i: &syn::Item| matches!(i, syn::Item::Struct(s) if markers.contains(&s.ident.to_string()));
    let typed: Vec<syn::Item> = visible.iter().filter(|i| !is_marker(i)).cloned().collect();
    let (types, typed_types, type_errors) = module_types(&typed);
    let mut typed_iter = typed_types.into_iter();
    let item_types: Vec<Option<Type>> = visible
        .iter()
        .map(|i| {
            if is_marker(i) {
                None
            } else {
                typed_iter.next().flatten()
            }
        })
        .collect();
    let types_ok = type_errors.is_empty();
    errors.append(type_errors);

    // The generic kernels `sarek::instances!` may name, and the types that are this crate's.
    let here = super::library::this_crate();
    let mut instantiable = Vec::new();
    let kernel_sources = items.iter().map(|i| (i, here.clone(), &visible)).chain(
        m.imported
            .iter()
            .flat_map(|b| b.items.iter().map(|i| (i, b.krate.clone(), &b.items))),
    );
    for (i, krate, home) in kernel_sources {
        let syn::Item::Fn(f) = i else { continue };
        if f.sig.generics.params.is_empty()
            || instantiable
                .iter()
                .any(|k: &super::library::Instantiable| k.item.sig.ident == f.sig.ident)
        {
            continue;
        }
        let Some(at) = f.attrs.iter().position(is_kernel_attr) else {
            continue;
        };
        let mut item = f.clone();
        let a = item.attrs.remove(at);
        if let Ok(attr) = attr::parse(attr_tokens(&a)) {
            instantiable.push(super::library::Instantiable {
                item,
                attr,
                krate,
                home: home.clone(),
            });
        }
    }
    let mut local_types: std::collections::HashSet<String> = items
        .iter()
        .filter_map(|i| match i {
            syn::Item::Struct(s) => Some(s.ident.to_string()),
            syn::Item::Enum(e) => Some(e.ident.to_string()),
            _ => None,
        })
        .collect();
    for b in m.imported.iter().filter(|b| b.krate == here) {
        for i in &b.items {
            if let syn::Item::Struct(s) = i {
                local_types.insert(s.ident.to_string());
            }
            if let syn::Item::Enum(e) = i {
                local_types.insert(e.ident.to_string());
            }
        }
    }

    // A helper binding a kernel's name (`for k in ..`) binds it, as in the source.
    let kernels = super::unshadow::kernel_names(&items, |f| f.attrs.iter().any(is_kernel_attr));
    let mut out_items: Vec<TokenStream> = Vec::new();
    let mut generated: Vec<TokenStream> = Vec::new();
    let mut visible_iter = visible.iter().zip(&item_types);
    for item in items {
        match item {
            syn::Item::Fn(f) if f.attrs.iter().any(is_kernel_attr) => {
                let mut f = f;
                let kernel_attr = f
                    .attrs
                    .iter()
                    .position(is_kernel_attr)
                    .map(|i| f.attrs.remove(i));
                let tokens = kernel_attr.as_ref().map(attr_tokens).unwrap_or_default();
                match attr::parse(tokens) {
                    Ok(a) if types_ok => out_items.push(expand_kernel_in(&a, &f, &visible)),
                    Ok(_) => {}
                    Err(e) => errors.add(e),
                }
            }
            syn::Item::Struct(mut s) => {
                let ty = visible_iter.next().and_then(|(_, t)| *t);
                add_copy(&mut s.attrs);
                s.attrs.push(syn::parse_quote!(#[allow(dead_code)]));
                if let Some(Type::Struct(id)) = ty {
                    if let Some(def) = crate::ir::struct_def(&types, id) {
                        let identity = host::is_identity(&types, Type::Struct(id));
                        if identity {
                            make_repr_c(&mut s, &mut errors);
                        }
                        generated.push(host::struct_impls(&s, &types, def, identity));
                    }
                }
                out_items.push(quote!(#s));
            }
            syn::Item::Enum(mut e) => {
                let ty = visible_iter.next().and_then(|(_, t)| *t);
                add_copy(&mut e.attrs);
                e.attrs.push(syn::parse_quote!(#[allow(dead_code)]));
                if let Some(Type::Struct(id)) = ty {
                    if let Some(def) = crate::ir::struct_def(&types, id) {
                        generated.push(host::enum_impls(&e, &types, def));
                    }
                }
                out_items.push(quote!(#e));
            }
            syn::Item::Fn(mut f) => {
                visible_iter.next();
                super::unshadow::unshadow(&kernels, &mut f.sig.inputs, &mut f.block);
                // Items used only by kernels: their GPU code does not count as a use for rustc.
                f.attrs.push(syn::parse_quote!(#[allow(dead_code)]));
                out_items.push(quote!(#f));
            }
            syn::Item::Trait(mut t) => {
                visible_iter.next();
                // A trait that only generic kernels name is used by their GPU code.
                t.attrs.push(syn::parse_quote!(#[allow(dead_code)]));
                out_items.push(quote!(#t));
            }
            syn::Item::Const(mut c) => {
                visible_iter.next();
                c.attrs.push(syn::parse_quote!(#[allow(dead_code)]));
                out_items.push(quote!(#c));
            }
            syn::Item::Impl(mut imp) => {
                visible_iter.next();
                // Methods used only by kernels (of this module or of modules that import it).
                imp.attrs.push(syn::parse_quote!(#[allow(dead_code)]));
                for item in &mut imp.items {
                    if let syn::ImplItem::Fn(m) = item {
                        super::unshadow::unshadow(&kernels, &mut m.sig.inputs, &mut m.block);
                    }
                }
                out_items.push(quote!(#imp));
            }
            syn::Item::Macro(mac) if super::library::is_instances(&mac) => {
                if types_ok {
                    generated.push(super::library::instance_impls(
                        &mac,
                        &instantiable,
                        &visible,
                        &local_types,
                        &mut errors,
                    ));
                }
            }
            other => {
                visible_iter.next();
                out_items.push(quote!(#other));
            }
        }
    }
    let errors = errors.into_compile_errors();
    quote! {
        #(#out_items)*
        #(#generated)*
        #export
        #errors
    }
}
