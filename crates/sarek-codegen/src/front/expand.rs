//! The items `#[sarek::kernel]` expands to.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use crate::abi::{Abi, FieldSource};
use crate::ir::{Access, Scalar};
use crate::CompileError;

use super::attr;
use super::diagnostic::{Diagnostic, Diagnostics, ErrorKind};
use super::types::{HostElem, HostParam, HostScalar};

/// Expands `#[sarek::kernel(attr)] item`. Never panics: every problem becomes a
/// `compile_error!` at the offending token.
pub fn expand_kernel(attr: TokenStream, item: TokenStream) -> TokenStream {
    // The attribute's arguments are parsed by `syn` too (`workgroup_size = [((..))]`).
    if let Some(e) = super::depth::check_tokens(&attr).or_else(|| super::depth::check_tokens(&item))
    {
        return e.into_syn().to_compile_error();
    }
    let item: syn::ItemFn = match syn::parse2(item) {
        Ok(item) => item,
        Err(e) => {
            return Diagnostic::new(
                e.span(),
                ErrorKind::unsupported(
                    "`#[sarek::kernel]` applies to a function: `fn name(params) { body }`",
                ),
            )
            .into_syn()
            .to_compile_error()
        }
    };
    let attr = match attr::parse(attr) {
        Ok(attr) => attr,
        Err(e) => return e.into_syn().to_compile_error(),
    };
    expand_kernel_in(&attr, &item, &[])
}

/// Expands one kernel that sees the items `module` (those of its `#[sarek::module]`).
pub fn expand_kernel_in(
    attr: &attr::KernelAttr,
    item: &syn::ItemFn,
    module: &[syn::Item],
) -> TokenStream {
    let mut errors = Diagnostics::new();
    let mut passed_attrs = Vec::new();
    let mut docs = Vec::new();
    for a in &item.attrs {
        let path = a.path();
        if path.is_ident("doc") {
            docs.push(a.clone());
        } else if ["cfg", "cfg_attr", "allow", "warn", "deny", "expect"]
            .iter()
            .any(|n| path.is_ident(n))
        {
            passed_attrs.push(a.clone());
        } else {
            errors.push(
                path.span(),
                ErrorKind::InvalidAttribute(
                    "this attribute is not supported on a `#[sarek::kernel]` function",
                ),
            );
        }
    }
    let before = errors.len();
    super::generics::refuse_trait_objects(item, &mut errors);
    if errors.len() > before {
        return errors.into_compile_errors();
    }
    if super::generics::is_generic(item) {
        return super::expand_generic::expand(attr, item, module, errors, &docs, &passed_attrs);
    }
    // A non-generic kernel sees the module's non-generic impls of its own traits as inherent
    // impls, so that their methods are called as any method (`s.area()`, `Shape::area(&s)`).
    let module = &super::trait_impls::plain_view(module);
    let Some((lowered, tiered)) = compile_kernel(attr, item, module, &mut errors) else {
        return errors.into_compile_errors();
    };
    if !errors.is_empty() {
        return errors.into_compile_errors();
    }

    let vis = &item.vis;
    let name = &item.sig.ident;
    // `for k in ..` in the body of a kernel `k` binds a counter, as in the source.
    let (mut inputs, mut block) = (item.sig.inputs.clone(), (*item.block).clone());
    super::unshadow::unshadow(&[name.to_string()].into(), &mut inputs, &mut block);
    // A kernel of a module sees the module's imports, like any Rust function there.
    let prelude = if module.is_empty() {
        quote!(
            #[allow(unused_imports)]
            use ::sarek::gpu::*;
        )
    } else {
        TokenStream::new()
    };
    let body_doc = format!(
        "The body of `{name}` as plain Rust, for one invocation: the intrinsics of `sarek::gpu` read the \
         invocation set by [`sarek::gpu::with_invocation`](::sarek::gpu::with_invocation)."
    );
    let body_fn = quote! {
            #[doc = #body_doc]
            #[allow(unused_mut, unused_variables, unused_imports, unused_parens, unstable_name_collisions, clippy::all)]
            #vis fn body(#inputs) {
                #prelude
                #block
            }
    };
    emit_kernel(vis, name, &docs, &passed_attrs, &lowered, &tiered, body_fn)
}

/// The items of a monomorphic kernel `name`: its unit struct, its WGSL, ABI and source, its
/// `launch`, `enqueue` and `record`, and `body_fn` (its `body`, or nothing for an instance
/// named by a request, whose body is another module's).
pub(super) fn emit_kernel(
    vis: &syn::Visibility,
    name: &syn::Ident,
    docs: &[syn::Attribute],
    passed_attrs: &[syn::Attribute],
    lowered: &super::LoweredKernel,
    tiered: &Compiled,
    body_fn: TokenStream,
) -> TokenStream {
    let release = tiered.release.as_deref();
    let wgsl = by_profile(
        {
            let w = &tiered.optimized.wgsl;
            quote!(#w)
        },
        release.map(|(_, t)| {
            let w = &t.optimized.wgsl;
            quote!(#w)
        }),
    );
    let abi = by_profile(
        abi_tokens(&tiered.optimized.abi),
        release.map(|(_, t)| abi_tokens(&t.optimized.abi)),
    );
    let location = location_tokens(name);
    let source = by_profile(
        source_chain(
            quote!(#name::WGSL),
            quote!(#name::ABI),
            &location,
            lowered,
            tiered,
        ),
        release
            .map(|(l, t)| source_chain(quote!(#name::WGSL), quote!(#name::ABI), &location, l, t)),
    );
    let device = format_ident!("__sarek_device");
    let grid = format_ident!("__sarek_grid");
    let encoder = format_ident!("__sarek_encoder");
    let batch = format_ident!("__sarek_batch");
    let mut launch_params = Vec::new();
    let mut launch_args = Vec::new();
    for (ident, param) in &lowered.host_params {
        let ident = &super::unshadow::launch_param(ident, name);
        let (ty, arg) = param_tokens(ident, param);
        launch_params.push(quote!(#ident: #ty));
        launch_args.push(arg);
    }
    let launch_doc = format!(
        "Launches `{name}` on `device` over `grid` (a [`Grid`](::sarek::Grid) of threads or workgroups); the \
         arguments follow the kernel's parameters. Returns once the work is submitted, with a \
         [`Launch`](::sarek::Launch) handle to wait for or `.await`."
    );
    let enqueue_doc = format!(
        "Adds a launch of `{name}` to `batch` (see [`Batch`](::sarek::Batch)): checked now, \
         submitted with the batch's other launches in one compute pass."
    );
    let record_doc = format!(
        "Records a launch of `{name}` into `encoder` instead of submitting it: it runs when the \
         caller submits the encoder, in order with the caller's own passes."
    );
    // Only `cfg` goes on the item below: a lint attribute (`expect`) would not hold there.
    let cfgs = passed_attrs.iter().filter(|a| a.path().is_ident("cfg"));
    quote! {
        // The passes read `SAREK_UNROLL` and `SAREK_SLICE` when the kernel is compiled: naming
        // them here makes cargo rebuild the crate when they change.
        #(#cfgs)*
        const _: [::core::option::Option<&str>; 2] =
            [::core::option_env!("SAREK_UNROLL"), ::core::option_env!("SAREK_SLICE")];

        #(#docs)*
        #(#passed_attrs)*
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy, Debug, Default)]
        #vis struct #name;

        #(#passed_attrs)*
        impl #name {
            /// The WGSL module Sarek generated for this kernel (validated by naga at compile time).
            pub const WGSL: &'static str = #wgsl;
            /// How the kernel binds its buffers and packs its uniform block.
            pub const ABI: ::sarek::abi::Abi = #abi;

            /// The kernel's WGSL, ABI and source location, as the runtime takes them.
            pub const SOURCE: &'static ::sarek::__private::KernelSource = {
                // `line!()` spanned at the kernel's tokens expands to literals that clippy would
                // read as the user's own.
                #[allow(clippy::all)]
                // SAFETY: the IR is the one Sarek's front end made and checked for this kernel.
                static SOURCE: ::sarek::__private::KernelSource = unsafe { #source };
                &SOURCE
            };

            #[doc = #launch_doc]
            #[allow(clippy::too_many_arguments)]
            #vis fn launch(&self, #device: &::sarek::Device, #grid: ::sarek::Grid, #(#launch_params),*) -> ::sarek::Result<::sarek::Launch> {
                ::sarek::__private::launch(#device, Self::SOURCE, #grid, &[#(#launch_args),*])
            }

            #[doc = #enqueue_doc]
            #[allow(clippy::too_many_arguments)]
            #vis fn enqueue(&self, #batch: &mut ::sarek::Batch, #grid: ::sarek::Grid, #(#launch_params),*) -> ::sarek::Result<()> {
                ::sarek::__private::enqueue(#batch, Self::SOURCE, #grid, &[#(#launch_args),*])
            }

            #[doc = #record_doc]
            #[allow(clippy::too_many_arguments)]
            #vis fn record(&self, #device: &::sarek::Device, #encoder: &mut ::sarek::wgpu::CommandEncoder, #grid: ::sarek::Grid, #(#launch_params),*) -> ::sarek::Result<()> {
                ::sarek::__private::record(#device, Self::SOURCE, #encoder, #grid, &[#(#launch_args),*])
            }

            #body_fn
        }
    }
}

/// `on`, or where the user's crate builds without `debug_assertions` and a kernel has a
/// release variant (`LoweredKernel::release`), `off`: a constant expression.
pub(super) fn by_profile(on: TokenStream, off: Option<TokenStream>) -> TokenStream {
    match off {
        Some(off) => quote!(if ::core::cfg!(debug_assertions) { #on } else { #off }),
        None => on,
    }
}

/// The `KernelSource` of a compiled kernel with text `wgsl` and ABI `abi`, as a constant
/// expression. The CPU backend runs the IR itself; its faults name the source position of a
/// span, which `line!()`/`column!()` spanned at the token give without any unstable API.
pub(super) fn source_chain(
    wgsl: TokenStream,
    abi: TokenStream,
    location: &TokenStream,
    lowered: &super::LoweredKernel,
    tiered: &crate::Tiered,
) -> TokenStream {
    let compiled = &tiered.optimized;
    let ir = lowered.kernel.to_json();
    let spans = span_tokens(lowered);
    let entry_points = entry_point_tokens(&compiled.entry_points);
    let (quick, quick_in_bounds, quick_slices) = quick_tokens(tiered);
    let in_bounds = &compiled.in_bounds;
    quote! {
        ::sarek::__private::KernelSource::new(#wgsl, #abi, #location)
            .with_entry_points(&[#(#entry_points),*])
            .with_quick(#quick, #quick_slices)
            .with_in_bounds(&[#(#in_bounds),*], #quick_in_bounds)
            .with_ir(#ir, &[#(#spans),*])
    }
}

/// Lowers and compiles one (monomorphic) kernel in its tiers ([`crate::compile_tiered`]),
/// adding its errors to `errors`. A kernel whose lowering unrolled `for` loops is lowered again
/// with them kept, for its quick form.
pub(super) fn compile_kernel(
    attr: &attr::KernelAttr,
    item: &syn::ItemFn,
    module: &[syn::Item],
    errors: &mut Diagnostics,
) -> Option<(super::LoweredKernel, Compiled)> {
    let (lowered, tiered) = compile_profile(attr, item, module, errors, true)?;
    let mut compiled = (
        lowered,
        Compiled {
            tiered,
            release: None,
        },
    );
    // A kernel with debug assertions is compiled without them too, for release builds.
    let mentions = |tokens: TokenStream| mentions_debug_assert(tokens);
    let debug_asserts = mentions(quote!(#item)) || module.iter().any(|i| mentions(quote!(#i)));
    if debug_asserts {
        let release = compile_profile(attr, item, module, errors, false)?;
        compiled.1.release = Some(Box::new(release));
    }
    Some(compiled)
}

/// A kernel compiled in its tiers, with, for a kernel that uses `debug_assert!` (or its
/// `_eq`, `_ne` forms), the same kernel lowered and compiled without them: the generated
/// code picks that one where the user's crate builds without `debug_assertions`.
pub(super) struct Compiled {
    pub(super) tiered: crate::Tiered,
    pub(super) release: Option<Box<(super::LoweredKernel, crate::Tiered)>>,
}

impl std::ops::Deref for Compiled {
    type Target = crate::Tiered;

    fn deref(&self) -> &crate::Tiered {
        &self.tiered
    }
}

/// Whether `tokens` name a `debug_assert` macro anywhere.
fn mentions_debug_assert(tokens: TokenStream) -> bool {
    tokens.into_iter().any(|t| match t {
        proc_macro2::TokenTree::Ident(i) => i.to_string().starts_with("debug_assert"),
        proc_macro2::TokenTree::Group(g) => mentions_debug_assert(g.stream()),
        _ => false,
    })
}

/// [`compile_kernel`] for one profile: with `debug_assert!` (`debug_assertions`) or
/// without.
fn compile_profile(
    attr: &attr::KernelAttr,
    item: &syn::ItemFn,
    module: &[syn::Item],
    errors: &mut Diagnostics,
    debug_assertions: bool,
) -> Option<(super::LoweredKernel, crate::Tiered)> {
    let lowered = match super::lower_kernel_as(attr, item, module, true, debug_assertions) {
        Ok(lowered) => lowered,
        Err(e) => {
            errors.append(e);
            return None;
        }
    };
    if !errors.is_empty() {
        return None;
    }
    let rolled = if lowered.unrolled {
        super::lower_kernel_as(attr, item, module, false, debug_assertions).ok()
    } else {
        None
    };
    let options = crate::passes::Options::from_env();
    match crate::compile_tiered(
        &lowered.kernel,
        rolled.as_ref().map(|r| &r.kernel),
        &options,
    ) {
        Ok(tiered) => Some((lowered, tiered)),
        Err(CompileError::Kernel(list)) => {
            for (span, message) in list {
                errors.push(lowered.span(span), ErrorKind::Rule(message));
            }
            None
        }
        Err(CompileError::Naga { message, wgsl }) => {
            errors.push(item.sig.ident.span(), ErrorKind::Naga { message, wgsl });
            None
        }
    }
}

/// The `KernelSource` arguments of a quick form: its text (empty: none), whether its entry
/// point is proven in bounds, and its slices.
pub(super) fn quick_tokens(tiered: &crate::Tiered) -> (&str, bool, u32) {
    match &tiered.quick {
        Some(q) => (&q.text, q.in_bounds, q.slices),
        None => ("", false, 1),
    }
}

/// The source positions of the IR's spans: the CPU backend's faults name them, and
/// `line!()`/`column!()` spanned at the token give them without any unstable API.
pub(super) fn span_tokens(lowered: &super::LoweredKernel) -> Vec<TokenStream> {
    lowered
        .spans
        .iter()
        .map(|s| {
            let s = *s;
            quote_spanned!(s=> (::core::line!(), ::core::column!()))
        })
        .collect()
}

/// Each entry point's name and text range in the module, as `KernelSource::entry_points`.
pub(super) fn entry_point_tokens(entries: &[crate::wgsl::EntryPointText]) -> Vec<TokenStream> {
    entries
        .iter()
        .map(|e| {
            let (name, start, end) = (&e.name, e.start, e.end);
            quote!((#name, #start, #end))
        })
        .collect()
}

/// `file:line` of the kernel's name.
pub(super) fn location_tokens(name: &syn::Ident) -> TokenStream {
    quote_spanned!(name.span()=> ::core::concat!(::core::file!(), ":", ::core::line!()))
}

/// The host type of a launch parameter and the expression that makes its [`Arg`].
pub(super) fn param_tokens(ident: &syn::Ident, param: &HostParam) -> (TokenStream, TokenStream) {
    let span = ident.span();
    match param {
        HostParam::Scalar(s) => {
            let t = scalar_type(*s);
            let ctor = format_ident!("{}", s.name());
            (
                quote_spanned!(span=> #t),
                quote_spanned!(span=> ::sarek::__private::Arg::#ctor(#ident)),
            )
        }
        HostParam::Value(t) => (
            quote_spanned!(span=> #t),
            quote_spanned!(span=> ::sarek::__private::Arg::bytes(::sarek::__private::bytemuck::bytes_of(&::sarek::Element::to_gpu(#ident)))),
        ),
        HostParam::AtomicSlice { elem } => {
            let t = scalar_type(*elem);
            (
                quote_spanned!(span=> &::sarek::Buffer<#t>),
                quote_spanned!(span=> ::sarek::__private::Arg::atomic(#ident)),
            )
        }
        HostParam::Slice {
            elem,
            access: Access::Read,
        } => {
            let t = elem_type(elem);
            (
                quote_spanned!(span=> &::sarek::Buffer<#t>),
                quote_spanned!(span=> ::sarek::__private::Arg::read(#ident)),
            )
        }
        HostParam::Slice {
            elem,
            access: Access::ReadWrite,
        } => {
            let t = elem_type(elem);
            (
                quote_spanned!(span=> &mut ::sarek::Buffer<#t>),
                quote_spanned!(span=> ::sarek::__private::Arg::write(#ident)),
            )
        }
    }
}

fn elem_type(e: &HostElem) -> TokenStream {
    match e {
        HostElem::Scalar(s) => scalar_type(*s),
        HostElem::Named(t) => quote!(#t),
    }
}

fn scalar_type(s: HostScalar) -> TokenStream {
    match s {
        HostScalar::F32 => quote!(f32),
        HostScalar::I32 => quote!(i32),
        HostScalar::U32 => quote!(u32),
        HostScalar::Usize => quote!(usize),
        HostScalar::Bool => quote!(bool),
        HostScalar::F16 => quote!(::sarek::f16),
        HostScalar::I64 => quote!(i64),
        HostScalar::U64 => quote!(u64),
    }
}

fn scalar_tokens(s: Scalar) -> TokenStream {
    match s {
        Scalar::F32 => quote!(::sarek::abi::Scalar::F32),
        Scalar::I32 => quote!(::sarek::abi::Scalar::I32),
        Scalar::U32 => quote!(::sarek::abi::Scalar::U32),
        Scalar::Bool => quote!(::sarek::abi::Scalar::Bool),
        Scalar::F16 => quote!(::sarek::abi::Scalar::F16),
        Scalar::I64 => quote!(::sarek::abi::Scalar::I64),
        Scalar::U64 => quote!(::sarek::abi::Scalar::U64),
    }
}

/// The ABI as a constant expression.
pub(super) fn abi_tokens(abi: &Abi) -> TokenStream {
    let kernel = abi.kernel.as_ref();
    let entry = abi.entry_point.as_ref();
    let [x, y, z] = abi.workgroup_size;
    let buffers = abi.buffers.iter().map(|b| {
        let (binding, param, name) = (b.binding, b.param, b.name.as_ref());
        let (elem, stride) = (b.elem.as_ref(), b.stride);
        let access = match b.access {
            Access::Read => quote!(::sarek::abi::Access::Read),
            Access::ReadWrite => quote!(::sarek::abi::Access::ReadWrite),
        };
        quote! {
            ::sarek::abi::BufferBinding {
                binding: #binding, param: #param,
                name: ::std::borrow::Cow::Borrowed(#name),
                elem: ::std::borrow::Cow::Borrowed(#elem), stride: #stride, access: #access,
            }
        }
    });
    let fields = abi.uniform.fields.iter().map(|f| {
        let (name, offset) = (f.name.as_ref(), f.offset);
        let source = match f.source {
            FieldSource::Grid => quote!(::sarek::abi::FieldSource::Grid),
            FieldSource::Length { param } => quote!(::sarek::abi::FieldSource::Length { param: #param }),
            FieldSource::Scalar { param, ty } => {
                let ty = scalar_tokens(ty);
                quote!(::sarek::abi::FieldSource::Scalar { param: #param, ty: #ty })
            }
            FieldSource::Bytes { param, size } => {
                quote!(::sarek::abi::FieldSource::Bytes { param: #param, size: #size })
            }
        };
        quote! {
            ::sarek::abi::UniformField { name: ::std::borrow::Cow::Borrowed(#name), offset: #offset, source: #source }
        }
    });
    let (ubinding, usize_) = (abi.uniform.binding, abi.uniform.size);
    let wg_mem = abi.workgroup_memory;
    let launch_sized = abi.launch_sized.iter().map(|l| {
        let (id, param, unit) = (l.id, l.param, l.unit_bytes);
        quote!(::sarek::abi::LaunchSized { id: #id, param: #param, unit_bytes: #unit })
    });
    let coarsened = abi.coarsened;
    let vectorised = abi.vectorised;
    let debug = abi.debug;
    let features = abi.features.iter().map(|f| match f {
        crate::features::Feature::CooperativeMatrix(shape) => {
            let size = shape.size;
            let scalar = |s: Option<crate::features::CoopScalar>| match s {
                Some(s) => {
                    let s = format_ident!("{}", format!("{s:?}"));
                    quote!(::std::option::Option::Some(::sarek::abi::CoopScalar::#s))
                }
                None => quote!(::std::option::Option::None),
            };
            let (ab, c) = (scalar(shape.ab), scalar(shape.c));
            quote!(::sarek::abi::Feature::CooperativeMatrix(::sarek::abi::CoopShape { size: #size, ab: #ab, c: #c }))
        }
        _ => {
            let variant = format_ident!("{}", format!("{f:?}"));
            quote!(::sarek::abi::Feature::#variant)
        }
    });
    let limits = format_ident!("{}", format!("{:?}", abi.limits));
    quote! {
        ::sarek::abi::Abi {
            kernel: ::std::borrow::Cow::Borrowed(#kernel),
            entry_point: ::std::borrow::Cow::Borrowed(#entry),
            workgroup_size: [#x, #y, #z],
            buffers: ::std::borrow::Cow::Borrowed(&[#(#buffers),*]),
            uniform: ::sarek::abi::Uniform {
                binding: #ubinding,
                size: #usize_,
                fields: ::std::borrow::Cow::Borrowed(&[#(#fields),*]),
            },
            workgroup_memory: #wg_mem,
            launch_sized: ::std::borrow::Cow::Borrowed(&[#(#launch_sized),*]),
            coarsened: #coarsened,
            vectorised: #vectorised,
            features: ::std::borrow::Cow::Borrowed(&[#(#features),*]),
            limits: ::sarek::abi::Limits::#limits,
            debug: #debug,
        }
    }
}
