//! Keeps a binding named like a kernel a binding in the code the macros emit.
//!
//! `#[sarek::kernel] fn k(..)` becomes a unit struct `k` (so that `k.launch(..)` works), and
//! Rust resolves an identifier pattern that names a unit struct in scope to that struct: in
//! the emitted `k::body`, or in a helper of the kernel's module, `for k in 0..n` would match
//! the struct instead of binding a counter ("mismatched types"), where the source, in which
//! `k` is a function, binds it. A function item of the same name declared inside the body
//! shadows the struct's value there (a binding may shadow a function), and a parameter of the
//! same name is renamed and bound again in the body.

use std::collections::HashSet;

use quote::format_ident;
use syn::punctuated::Punctuated;
use syn::visit::Visit;

/// The names of `names` that a pattern in `inputs` or `block` binds.
fn bound(
    names: &HashSet<String>,
    inputs: &Punctuated<syn::FnArg, syn::Token![,]>,
    block: &syn::Block,
) -> Vec<syn::Ident> {
    struct Finder<'a> {
        names: &'a HashSet<String>,
        found: Vec<syn::Ident>,
    }
    impl<'ast> Visit<'ast> for Finder<'_> {
        fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
            let name = p.ident.to_string();
            if self.names.contains(&name) && !self.found.iter().any(|f| *f == name) {
                self.found.push(p.ident.clone());
            }
            syn::visit::visit_pat_ident(self, p);
        }
    }
    let mut f = Finder {
        names,
        found: Vec::new(),
    };
    for input in inputs {
        f.visit_fn_arg(input);
    }
    f.visit_block(block);
    f.found
}

/// Rewrites a function's parameters and body so that the names of `names` (kernels of the
/// same module) they bind stay bindings; leaves them untouched when none is bound.
pub(crate) fn unshadow(
    names: &HashSet<String>,
    inputs: &mut Punctuated<syn::FnArg, syn::Token![,]>,
    block: &mut syn::Block,
) {
    let found = bound(names, inputs, block);
    if found.is_empty() {
        return;
    }
    let mut prelude: Vec<syn::Stmt> = Vec::new();
    for ident in &found {
        // Declared first: items are visible in the whole block anyway.
        prelude.push(syn::parse_quote! {
            #[allow(dead_code, non_snake_case)]
            fn #ident() {}
        });
    }
    for input in inputs.iter_mut() {
        let syn::FnArg::Typed(t) = input else {
            continue;
        };
        let syn::Pat::Ident(p) = &mut *t.pat else {
            continue;
        };
        if !found.contains(&p.ident) {
            continue;
        }
        let original = p.ident.clone();
        let renamed = format_ident!("__sarek_param_{}", original, span = original.span());
        let mutability = p.mutability.take();
        let by_ref = p.by_ref.take();
        p.ident = renamed.clone();
        prelude.push(syn::parse_quote! {
            let #by_ref #mutability #original = #renamed;
        });
    }
    prelude.append(&mut block.stmts);
    block.stmts = prelude;
}

/// A kernel parameter's name in the generated `launch`, `enqueue` and `record` methods:
/// renamed when it is the kernel's own (the unit struct would capture the pattern).
pub(crate) fn launch_param(ident: &syn::Ident, kernel: &syn::Ident) -> syn::Ident {
    if ident == kernel {
        format_ident!("__sarek_param_{}", ident, span = ident.span())
    } else {
        ident.clone()
    }
}

/// The kernels' names of a module's items.
pub(crate) fn kernel_names<'a>(
    items: impl IntoIterator<Item = &'a syn::Item>,
    is_kernel: impl Fn(&syn::ItemFn) -> bool,
) -> HashSet<String> {
    items
        .into_iter()
        .filter_map(|i| match i {
            syn::Item::Fn(f) if is_kernel(f) => Some(f.sig.ident.to_string()),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    #[test]
    fn a_binding_named_like_a_kernel_gets_a_shadowing_function_and_others_are_left_alone() {
        let names: HashSet<String> = ["k".to_owned()].into();
        let mut f: syn::ItemFn = syn::parse_quote! {
            fn body(x: &[f32], mut k: u32) { for k in 0..k { let _ = x[k as usize]; } }
        };
        unshadow(&names, &mut f.sig.inputs, &mut f.block);
        let text = quote!(#f).to_string();
        assert!(text.contains("fn k () { }"), "{text}");
        assert!(text.contains("__sarek_param_k : u32"), "{text}");
        assert!(text.contains("let mut k = __sarek_param_k ;"), "{text}");
        let mut g: syn::ItemFn = syn::parse_quote! {
            fn h(x: &[f32]) { for i in 0..4 { let _ = x[i]; } }
        };
        let before = quote!(#g).to_string();
        unshadow(&names, &mut g.sig.inputs, &mut g.block);
        assert_eq!(quote!(#g).to_string(), before);
    }
}
