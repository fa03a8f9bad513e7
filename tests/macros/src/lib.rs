//! The attributes that say on which backend an integration test runs (`tests/it`).
//!
//! - `#[backends] fn name(dev: Device) { … }` is written once and runs on every backend: it
//!   becomes the tests `name::gpu`, `name::cpu` and `name::cpu_checked` (the CPU backend with
//!   its debugging checks on), each calling the function with its device.
//! - `#[gpu_only]` and `#[cpu_only]` mark a test about one backend. With a `dev: Device`
//!   parameter the test is given that backend's device; without one it makes its own.
//!
//! The devices come from the test crate's `common` module (`crate::common::gpu_device`, which
//! fails without an adapter under `SAREK_REQUIRE_GPU=1` and otherwise skips with a message, and
//! `crate::common::cpu_device`). A parameter of type `&Device` is given a reference; one of
//! type `fn() -> Option<Device>` is given a function that makes a new device of the backend
//! each time (`None` where the GPU test skips), for tests that drop a device and make another.

#![deny(missing_docs)]

use proc_macro::TokenStream;
use proc_macro2::TokenStream as Tokens;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{parse_macro_input, Attribute, FnArg, ItemFn, ReturnType, Type};

/// Runs the test on the GPU, the CPU backend and the checked CPU backend: `name::gpu`,
/// `name::cpu`, `name::cpu_checked`.
#[proc_macro_attribute]
pub fn backends(attr: TokenStream, item: TokenStream) -> TokenStream {
    let item = parse_macro_input!(item as ItemFn);
    expand(attr.into(), item, Kind::Backends).unwrap_or_else(|e| e.to_compile_error().into())
}

/// A test of the GPU backend alone (wgpu interop, adapters, pipeline caches): with a
/// `dev: Device` parameter it runs on the GPU, skipped with a message without one unless
/// `SAREK_REQUIRE_GPU=1`, where a missing adapter fails it.
#[proc_macro_attribute]
pub fn gpu_only(attr: TokenStream, item: TokenStream) -> TokenStream {
    let item = parse_macro_input!(item as ItemFn);
    expand(attr.into(), item, Kind::Gpu).unwrap_or_else(|e| e.to_compile_error().into())
}

/// A test of the CPU backend alone (its engines, checks and limits): with a `dev: Device`
/// parameter it runs on `Device::cpu()`.
#[proc_macro_attribute]
pub fn cpu_only(attr: TokenStream, item: TokenStream) -> TokenStream {
    let item = parse_macro_input!(item as ItemFn);
    expand(attr.into(), item, Kind::Cpu).unwrap_or_else(|e| e.to_compile_error().into())
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Backends,
    Gpu,
    Cpu,
}

/// How the device reaches the function: by value, by reference, as a function that makes
/// one (for tests that drop a device and make another), or not at all.
#[derive(Clone, Copy)]
enum Param {
    None,
    Value,
    Ref,
    Maker,
}

fn expand(attr: Tokens, mut item: ItemFn, kind: Kind) -> syn::Result<TokenStream> {
    if !attr.is_empty() {
        return Err(syn::Error::new(
            attr.span(),
            "this attribute takes no arguments",
        ));
    }
    if let ReturnType::Type(_, ty) = &item.sig.output {
        return Err(syn::Error::new(
            ty.span(),
            "a test run per backend returns `()`: report a failure with `assert!` or `panic!`",
        ));
    }
    let param = match item.sig.inputs.len() {
        0 => Param::None,
        1 => match &item.sig.inputs[0] {
            FnArg::Typed(arg) if matches!(&*arg.ty, Type::Reference(_)) => Param::Ref,
            FnArg::Typed(arg) if matches!(&*arg.ty, Type::BareFn(_)) => Param::Maker,
            FnArg::Typed(_) => Param::Value,
            FnArg::Receiver(r) => {
                return Err(syn::Error::new(
                    r.span(),
                    "a test is a free function, not a method",
                ))
            }
        },
        _ => {
            return Err(syn::Error::new(
                item.sig.inputs.span(),
                "a test takes one parameter, its device (`dev: Device`), or none",
            ))
        }
    };
    // `#[ignore]` and `#[should_panic]` belong on the generated tests; doc comments and lint
    // levels stay on the function, whose body they are about.
    let (test_attrs, attrs): (Vec<Attribute>, Vec<Attribute>) = item
        .attrs
        .drain(..)
        .partition(|a| a.path().is_ident("ignore") || a.path().is_ident("should_panic"));
    item.attrs = attrs;
    let name = item.sig.ident.clone();
    let span = item.sig.ident.span();
    let pass = |dev: Tokens| match param {
        Param::Ref => quote!(&#dev),
        _ => dev,
    };
    // A maker is `fn() -> Option<Device>`: the GPU's gives `None` where a GPU test skips.
    let maker = |dev: Tokens| quote!(|| Some(#dev));
    let out = match (kind, param) {
        (Kind::Backends, Param::None) => {
            return Err(syn::Error::new(
                item.sig.paren_token.span.join(),
                "a test run on every backend takes its device: `dev: Device`",
            ))
        }
        (Kind::Backends, Param::Maker) => {
            let (cpu, checked) = (
                maker(quote!(crate::common::cpu_device())),
                maker(quote!(crate::common::cpu_checked_device())),
            );
            let (g, c, k) = (
                format_ident!("gpu", span = span),
                format_ident!("cpu", span = span),
                format_ident!("cpu_checked", span = span),
            );
            quote_spanned! {span=>
                #item

                /// The test above, once per backend.
                mod #name {
                    #(#test_attrs)*
                    #[test]
                    fn #g() {
                        super::#name(crate::common::gpu_device)
                    }

                    #(#test_attrs)*
                    #[test]
                    fn #c() {
                        super::#name(#cpu)
                    }

                    #(#test_attrs)*
                    #[test]
                    fn #k() {
                        super::#name(#checked)
                    }
                }
            }
        }
        (_, Param::Maker) => {
            return Err(syn::Error::new(
                item.sig.inputs.span(),
                "a test of one backend takes its device: `dev: Device`",
            ))
        }
        (Kind::Backends, _) => {
            let (gpu, cpu, checked) = (
                pass(quote!(dev)),
                pass(quote!(crate::common::cpu_device())),
                pass(quote!(crate::common::cpu_checked_device())),
            );
            let (g, c, k) = (
                format_ident!("gpu", span = span),
                format_ident!("cpu", span = span),
                format_ident!("cpu_checked", span = span),
            );
            quote_spanned! {span=>
                #item

                /// The test above, once per backend.
                mod #name {
                    #(#test_attrs)*
                    #[test]
                    fn #g() {
                        if let Some(dev) = crate::common::gpu_device() {
                            super::#name(#gpu)
                        }
                    }

                    #(#test_attrs)*
                    #[test]
                    fn #c() {
                        super::#name(#cpu)
                    }

                    #(#test_attrs)*
                    #[test]
                    fn #k() {
                        super::#name(#checked)
                    }
                }
            }
        }
        (_, Param::None) => quote! {
            #(#test_attrs)*
            #[test]
            #item
        },
        (Kind::Gpu, _) => {
            let dev = pass(quote!(dev));
            let vis = &item.vis;
            quote_spanned! {span=>
                #(#test_attrs)*
                #[test]
                #vis fn #name() {
                    #item
                    if let Some(dev) = crate::common::gpu_device() {
                        #name(#dev)
                    }
                }
            }
        }
        (Kind::Cpu, _) => {
            let dev = pass(quote!(crate::common::cpu_device()));
            let vis = &item.vis;
            quote_spanned! {span=>
                #(#test_attrs)*
                #[test]
                #vis fn #name() {
                    #item
                    #name(#dev)
                }
            }
        }
    };
    Ok(out.into())
}
