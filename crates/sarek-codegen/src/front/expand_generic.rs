//! The items a generic `#[sarek::kernel]` expands to: the unit struct, a sealed per-kernel
//! instance trait with one impl per instance (each carrying that instance's WGSL, ABI and
//! IR), and `launch`/`enqueue`/`record` generic over the kernel's parameters, which select the
//! instance through the trait. rustc infers type parameters from the arguments and takes a
//! turbofish in the kernel's declaration order; a const value maps to `sarek::gpu::Const<N>`.
//! A type or value without an instance is a rustc error whose text
//! `#[diagnostic::on_unimplemented]` sets.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned, ToTokens};
use syn::spanned::Spanned;

use super::attr::KernelAttr;
use super::diagnostic::Diagnostics;
use super::expand::{abi_tokens, compile_kernel, location_tokens, param_tokens};
use super::generics::{self, Bound, Param};

/// Whether `tokens` name one of `names`.
fn mentions(tokens: TokenStream, names: &[String]) -> bool {
    tokens.into_iter().any(|t| match t {
        proc_macro2::TokenTree::Ident(i) => names.contains(&i.to_string()),
        proc_macro2::TokenTree::Group(g) => mentions(g.stream(), names),
        _ => false,
    })
}

/// The `&'static KernelSource` of one compiled instance of kernel `name`, as a constant
/// expression.
pub(super) fn source_tokens(
    name: &syn::Ident,
    lowered: &super::LoweredKernel,
    tiered: &super::expand::Compiled,
) -> TokenStream {
    let location = location_tokens(name);
    let chain = |lowered: &super::LoweredKernel, tiered: &crate::Tiered| {
        let wgsl = &tiered.optimized.wgsl;
        let abi = abi_tokens(&tiered.optimized.abi);
        super::expand::source_chain(quote!(#wgsl), abi, &location, lowered, tiered)
    };
    // Without `debug_assertions` in the user's crate, the variant without `debug_assert!`.
    let source = super::expand::by_profile(
        chain(lowered, tiered),
        tiered.release.as_deref().map(|(l, t)| chain(l, t)),
    );
    quote! {
        {
            #[allow(clippy::all)]
            // SAFETY: the IR is the one Sarek's front end made and checked for this kernel.
            static SOURCE: ::sarek::__private::KernelSource = unsafe { #source };
            &SOURCE
        }
    }
}

/// Expands generic kernel `item` (whose attribute errors are in `errors`).
pub fn expand(
    attr: &KernelAttr,
    item: &syn::ItemFn,
    module: &[syn::Item],
    mut errors: Diagnostics,
    docs: &[syn::Attribute],
    passed_attrs: &[syn::Attribute],
) -> TokenStream {
    let name = &item.sig.ident;
    // The signature's own errors first (each instance would repeat them).
    let before = errors.len();
    super::signature_errors(&item.sig, &mut errors, true);
    let signature_failed = errors.len() > before;
    let generic = match generics::instances(attr, item, module) {
        Ok(g) => g,
        Err(e) => {
            errors.append(e);
            return errors.into_compile_errors();
        }
    };
    if !errors.is_empty() || signature_failed {
        return errors.into_compile_errors();
    }
    // Every instance is lowered, compiled and validated now; the first that fails is
    // reported (the others usually fail the same way).
    let mut compiled = Vec::new();
    for inst in &generic.instances {
        let mut own = Diagnostics::new();
        match compile_kernel(&inst.attr, &inst.item, &inst.module, &mut own) {
            Some(c) => compiled.push(c),
            None => {
                let label = &inst.label;
                errors.append(own.prefixed(&format!("in the instance {label} of `{name}`: ")));
                if let Some(span) = inst.value_span {
                    errors.error(span, format!("the instance {label} of `{name}` does not compile (see the error above): remove this value from `instances(..)`, or change the kernel so that it builds for it"));
                }
                return errors.into_compile_errors();
            }
        }
    }
    let param_names: Vec<String> = generic
        .params
        .iter()
        .map(|p| p.ident().to_string())
        .collect();
    let scalar_params: Vec<String> = generic
        .params
        .iter()
        .filter(|p| matches!(p, Param::Type(_, b) if b.is_scalar()))
        .map(|p| p.ident().to_string())
        .collect();

    // The launch parameters: a type parameter may appear as `T`, `&[T]` or `&mut [T]`; the
    // others are the same in every instance, so the first instance's are taken.
    let mut launch_params = Vec::new();
    let mut launch_args = Vec::new();
    let type_params: Vec<String> = generic
        .params
        .iter()
        .filter(|p| matches!(p, Param::Type(..)))
        .map(|p| p.ident().to_string())
        .collect();
    // The trait-bounded parameters that are data (buffer elements or values): `Element`.
    let mut element_params: Vec<String> = Vec::new();
    for input in &item.sig.inputs {
        let syn::FnArg::Typed(t) = input else {
            continue;
        };
        let syn::Pat::Ident(pat) = &*t.pat else {
            continue;
        };
        let ident = &super::unshadow::launch_param(&pat.ident, name);
        let span = ident.span();
        let type_param = |ty: &syn::Type| match ty {
            syn::Type::Path(p) if p.qself.is_none() => p
                .path
                .get_ident()
                .filter(|i| type_params.contains(&i.to_string()))
                .cloned(),
            _ => None,
        };
        let (ty, arg) = match &*t.ty {
            syn::Type::Path(p)
                if p.qself.is_none()
                    && p.path
                        .get_ident()
                        .is_some_and(|i| scalar_params.contains(&i.to_string())) =>
            {
                let ty = &p.path;
                (
                    quote_spanned!(span=> #ty),
                    quote_spanned!(span=> ::sarek::gpu::Scalar::__sarek_arg(#ident)),
                )
            }
            // A parameter of a trait's type (`T: Monoid` for a struct element) by value.
            ty if type_param(ty).is_some() => {
                element_params.extend(type_param(ty).map(|i| i.to_string()));
                (
                    quote_spanned!(span=> #ty),
                    quote_spanned!(span=> ::sarek::__private::Arg::bytes(::sarek::__private::bytemuck::bytes_of(&::sarek::Element::to_gpu(#ident)))),
                )
            }
            syn::Type::Reference(r) if matches!(&*r.elem, syn::Type::Slice(s) if mentions(s.elem.to_token_stream(), &param_names)) =>
            {
                let syn::Type::Slice(s) = &*r.elem else {
                    unreachable!()
                };
                let elem = &s.elem;
                let Some(param) = type_param(elem) else {
                    errors.error(elem.span(), "in a kernel's parameters, a type parameter appears as `T`, `&[T]` or `&mut [T]`");
                    continue;
                };
                if !scalar_params.contains(&param.to_string()) {
                    element_params.push(param.to_string());
                }
                if r.mutability.is_some() {
                    (
                        quote_spanned!(span=> &mut ::sarek::Buffer<#elem>),
                        quote_spanned!(span=> ::sarek::__private::Arg::write(#ident)),
                    )
                } else {
                    (
                        quote_spanned!(span=> &::sarek::Buffer<#elem>),
                        quote_spanned!(span=> ::sarek::__private::Arg::read(#ident)),
                    )
                }
            }
            other if mentions(other.to_token_stream(), &param_names) => {
                errors.error(other.span(), "in a kernel's parameters, a type parameter appears as `T`, `&[T]` or `&mut [T]`");
                continue;
            }
            // The same in every instance: read from the signature, which every instance's
            // lowering has checked (or will, where one is requested).
            other => match super::types::param(other) {
                Ok(param) => param_tokens(ident, &param),
                Err(e) => {
                    errors.add(e);
                    continue;
                }
            },
        };
        launch_params.push(quote!(#ident: #ty));
        launch_args.push(arg);
    }
    if !errors.is_empty() {
        return errors.into_compile_errors();
    }

    let vis = &item.vis;
    // The method generics in declaration order, so that a turbofish reads like the kernel's.
    let method_generics: Vec<TokenStream> = generic
        .params
        .iter()
        .map(|p| match p {
            Param::Type(i, b) if b.is_scalar() => {
                let b = b.tokens();
                quote!(#i: #b)
            }
            Param::Type(i, _) if element_params.contains(&i.to_string()) => {
                quote!(#i: ::sarek::Element)
            }
            Param::Type(i, _) => quote!(#i),
            Param::Const(i, ty, _) => quote!(const #i: #ty),
        })
        .collect();
    // The body keeps the bounds as written, so that it type-checks as the user's Rust.
    let body_generics = item.sig.generics.params.iter();
    let trait_args: Vec<TokenStream> = generic
        .params
        .iter()
        .map(|p| match p {
            Param::Const(i, _, _) => quote!(::sarek::gpu::Const<#i>),
            other => {
                let i = other.ident();
                quote!(#i)
            }
        })
        .collect();
    let selected = quote!(<#name as ::sarek::Instance<#(#trait_args),*>>::SOURCE);
    let bound = quote!(#name: ::sarek::Instance<#(#trait_args),*>);

    let mut impls = Vec::new();
    let mut labels = Vec::new();
    for (inst, (lowered, tiered)) in generic.instances.iter().zip(&compiled) {
        let args: Vec<TokenStream> = generic
            .params
            .iter()
            .zip(&inst.args)
            .map(|(p, a)| match p {
                Param::Const(..) => {
                    let v: proc_macro2::Literal = a
                        .parse()
                        .unwrap_or_else(|_| proc_macro2::Literal::usize_unsuffixed(0));
                    quote!(::sarek::gpu::Const<#v>)
                }
                // The host type of `f16`, whatever the caller's module imports.
                Param::Type(..) if a == "f16" => quote!(::sarek::f16),
                Param::Type(..) => {
                    let i = format_ident!("{}", a);
                    quote!(#i)
                }
            })
            .collect();
        let source = source_tokens(name, lowered, tiered);
        impls.push(quote! {
            #(#passed_attrs)*
            // SAFETY: the source is the one Sarek's front end made and checked for this instance.
            unsafe impl ::sarek::Instance<#(#args),*> for #name {
                const SOURCE: &'static ::sarek::__private::KernelSource = #source;
            }
        });
        labels.push(inst.label.clone());
    }

    let instance_list = labels.iter().map(|l| l.as_str());
    let bounds_doc = generic
        .params
        .iter()
        .map(|p| match p {
            Param::Type(i, Bound::Trait(t, _)) => {
                format!("`{i}`: the implementors of `{t}` in the module")
            }
            Param::Type(i, b) => format!("`{i}`: {}", generics::bound_types(b).join(", ")),
            Param::Const(i, _, v) => format!(
                "`{i}`: {}",
                v.iter()
                    .map(|(n, _)| n.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        })
        .collect::<Vec<_>>()
        .join("; ");
    let launch_doc = format!(
        "Launches the instance of `{name}` that the arguments and turbofish select (generic \
         parameters in the kernel's order: {bounds_doc}) on `device` over `grid`. Returns once \
         the work is submitted, with a [`Launch`](::sarek::Launch) handle."
    );
    let enqueue_doc = format!(
        "Adds a launch of an instance of `{name}` to `batch` (see [`Batch`](::sarek::Batch))."
    );
    let record_doc = format!(
        "Records a launch of an instance of `{name}` into `encoder` instead of submitting it."
    );
    let body_doc = format!(
        "The body of `{name}` as plain Rust, for one invocation (see [`sarek::gpu::with_invocation`](::sarek::gpu::with_invocation))."
    );
    let device = format_ident!("__sarek_device");
    let grid = format_ident!("__sarek_grid");
    let encoder = format_ident!("__sarek_encoder");
    let batch = format_ident!("__sarek_batch");
    // `for k in ..` in the body of a kernel `k` binds a counter, as in the source.
    let (mut inputs, mut block) = (item.sig.inputs.clone(), (*item.block).clone());
    super::unshadow::unshadow(&[name.to_string()].into(), &mut inputs, &mut block);
    let prelude = if module.is_empty() {
        quote!(
            #[allow(unused_imports)]
            use ::sarek::gpu::*;
        )
    } else {
        TokenStream::new()
    };
    quote! {
        #(#docs)*
        #(#passed_attrs)*
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy, Debug, Default)]
        #vis struct #name;

        #(#impls)*

        #(#passed_attrs)*
        impl #name {
            /// The instances built with the kernel (from its bounds and `instances(..)`), as
            /// `PARAM = value` lists; `sarek::instances!` requests add others where they are
            /// made.
            pub const INSTANCES: &'static [&'static str] = &[#(#instance_list),*];

            /// The WGSL module of one instance (validated by naga at compile time).
            #vis fn wgsl<#(#method_generics),*>(&self) -> &'static str where #bound {
                #selected.wgsl()
            }

            /// How one instance binds its buffers and packs its uniform block.
            #vis fn abi<#(#method_generics),*>(&self) -> &'static ::sarek::abi::Abi where #bound {
                #selected.abi()
            }

            #[doc = #launch_doc]
            #[allow(clippy::too_many_arguments)]
            #vis fn launch<#(#method_generics),*>(&self, #device: &::sarek::Device, #grid: ::sarek::Grid, #(#launch_params),*) -> ::sarek::Result<::sarek::Launch> where #bound {
                ::sarek::__private::launch(#device, #selected, #grid, &[#(#launch_args),*])
            }

            #[doc = #enqueue_doc]
            #[allow(clippy::too_many_arguments)]
            #vis fn enqueue<#(#method_generics),*>(&self, #batch: &mut ::sarek::Batch, #grid: ::sarek::Grid, #(#launch_params),*) -> ::sarek::Result<()> where #bound {
                ::sarek::__private::enqueue(#batch, #selected, #grid, &[#(#launch_args),*])
            }

            #[doc = #record_doc]
            #[allow(clippy::too_many_arguments)]
            #vis fn record<#(#method_generics),*>(&self, #device: &::sarek::Device, #encoder: &mut ::sarek::wgpu::CommandEncoder, #grid: ::sarek::Grid, #(#launch_params),*) -> ::sarek::Result<()> where #bound {
                ::sarek::__private::record(#device, #selected, #encoder, #grid, &[#(#launch_args),*])
            }

            #[doc = #body_doc]
            #[allow(unused_mut, unused_variables, unused_imports, unused_parens, unstable_name_collisions, clippy::all)]
            #vis fn body<#(#body_generics),*>(#inputs) {
                #prelude
                #block
            }
        }
    }
}
