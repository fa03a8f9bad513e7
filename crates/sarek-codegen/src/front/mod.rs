//! The Rust front end: `syn` syntax trees → Sarek IR, and the items `#[sarek::kernel]`
//! expands to. Lives here rather than in the proc-macro crate so that lowering and expansion
//! are unit-testable on `syn::parse_quote!` input.

pub mod attr;
mod cfg;
pub mod consteval;
pub mod depth;
pub mod diagnostic;
mod expand;
mod expand_generic;
pub mod generics;
mod host;
mod infer;
pub mod library;
mod lower;
mod module;
mod trait_impls;
pub mod types;
mod unshadow;

pub use attr::KernelAttr;
pub use diagnostic::{Diagnostic, Diagnostics, ErrorKind};
pub use expand::expand_kernel;
pub use library::expand_import;
pub use module::expand_module;
pub use types::{HostElem, HostParam, HostScalar};

use proc_macro2::Span;
use syn::spanned::Spanned;

use crate::ir;

/// A kernel lowered from Rust.
#[derive(Debug)]
pub struct LoweredKernel {
    /// The IR.
    pub kernel: ir::Kernel,
    /// Rust spans, indexed by [`ir::Span`].
    pub spans: Vec<Span>,
    /// The parameters as the host passes them.
    pub host_params: Vec<(syn::Ident, HostParam)>,
    /// Whether the lowering unrolled a `for` loop (so the kernel has a distinct quick form,
    /// [`lower_kernel_with`] with the unrolling off).
    pub unrolled: bool,
}

impl LoweredKernel {
    /// The Rust span of an IR span.
    pub fn span(&self, span: ir::Span) -> Span {
        self.spans
            .get(span.0 as usize)
            .copied()
            .unwrap_or_else(Span::call_site)
    }
}

/// Lowers a `#[sarek::kernel]` function to the IR, collecting every error in it. `module` is
/// what the kernel sees besides its body: the items of its `#[sarek::module]`.
pub fn lower_kernel(
    attr: &KernelAttr,
    item: &syn::ItemFn,
    module: &[syn::Item],
) -> Result<LoweredKernel, Diagnostics> {
    lower_kernel_with(attr, item, module, true)
}

/// [`lower_kernel`], with the full unrolling of short `for` loops (`lower/control/unroll.rs`)
/// on or off: off gives the kernel's quick form, the same computation with its loops rolled,
/// which GPU drivers compile several times faster (tiered compilation, ARCHITECTURE.md).
pub fn lower_kernel_with(
    attr: &KernelAttr,
    item: &syn::ItemFn,
    module: &[syn::Item],
    unroll_for: bool,
) -> Result<LoweredKernel, Diagnostics> {
    lower_kernel_as(attr, item, module, unroll_for, true)
}

/// [`lower_kernel_with`], with `debug_assert!` and its forms lowered (`debug_assertions`)
/// or left out.
pub fn lower_kernel_as(
    attr: &KernelAttr,
    item: &syn::ItemFn,
    module: &[syn::Item],
    unroll_for: bool,
    debug_assertions: bool,
) -> Result<LoweredKernel, Diagnostics> {
    // Everything below walks the syntax recursively: refuse what nests too deeply first.
    if let Some(e) = depth::check_fn(item).or_else(|| depth::check(module)) {
        let mut errors = Diagnostics::new();
        errors.add(e);
        return Err(errors);
    }
    let sig = &item.sig;
    // The signature's errors come first, then the body's (the lowering's own collector).
    let mut errors = Diagnostics::new();
    signature_errors(sig, &mut errors, false);

    let mut cx =
        lower::ModuleContext::new(sig.ident.to_string(), attr.workgroup_size, sig.ident.span());
    cx.kernel.limits = attr.limits;
    let entry_span = cx.kernel.span;
    cx.unroll_for = unroll_for;
    cx.debug_assertions = debug_assertions;
    let mut lowerer = lower::Lowerer::new(&mut cx, sig.ident.to_string(), entry_span);
    lowerer.cx.declare_module(module);
    if !attr.workgroup_size_exprs.is_empty() {
        lowerer.cx.workgroup_size(attr, &item.block);
    }
    let mut host_params = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for input in &sig.inputs {
        let typed = match input {
            syn::FnArg::Receiver(r) => {
                errors.push(
                    r.span(),
                    ErrorKind::unsupported("a kernel is a free function; it cannot take `self`"),
                );
                continue;
            }
            syn::FnArg::Typed(t) => t,
        };
        let ident = match &*typed.pat {
            syn::Pat::Ident(p) if p.by_ref.is_none() && p.subpat.is_none() => p.ident.clone(),
            other => {
                errors.push(
                    other.span(),
                    ErrorKind::unsupported("kernel parameters must be plain names"),
                );
                continue;
            }
        };
        if !seen.insert(lower::ident_name(&ident)) {
            errors.error(ident.span(), "this parameter name is used twice");
            continue;
        }
        match types::param(&typed.ty) {
            Ok(param) => match lowerer.cx.param_type(&param) {
                Ok(ty) => {
                    lowerer.add_param(&ident, ty);
                    host_params.push((ident, param));
                }
                Err(_) => lowerer.add_failed_param(&ident),
            },
            Err(e) => {
                errors.add(e);
                lowerer.add_failed_param(&ident);
            }
        }
    }
    lowerer.body(&item.block);
    cx.kernel.entry = lowerer.finish();
    crate::ir::debug::settle(&mut cx.kernel);
    errors.append(cx.diagnostics);
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(LoweredKernel {
        kernel: cx.kernel,
        spans: cx.spans,
        host_params,
        unrolled: cx.unrolled,
    })
}

/// The errors of a kernel's signature apart from its parameters (`const`, `async`, `unsafe`,
/// `extern`, variadic, a return type; generics unless `generic_ok`, for the generic path,
/// which checks them itself).
pub(crate) fn signature_errors(sig: &syn::Signature, errors: &mut Diagnostics, generic_ok: bool) {
    let mut refuse =
        |span: Span, message: &'static str| errors.push(span, ErrorKind::unsupported(message));
    if let Some(t) = &sig.constness {
        refuse(t.span(), "a kernel cannot be a `const fn`");
    }
    if let Some(t) = &sig.asyncness {
        refuse(t.span(), "a kernel cannot be `async`: it runs to completion on the GPU; launch it from async code instead");
    }
    if let Some(t) = &sig.unsafety {
        refuse(
            t.span(),
            "a kernel cannot be `unsafe`: Sarek kernels are safe by construction; remove `unsafe`",
        );
    }
    if let Some(abi) = &sig.abi {
        refuse(abi.span(), "a kernel cannot have an `extern` ABI");
    }
    if !generic_ok && !sig.generics.params.is_empty() {
        refuse(
            sig.generics.span(),
            "a kernel cannot be generic: WGSL needs concrete types; write one kernel per type",
        );
    }
    if let (false, Some(w)) = (generic_ok, &sig.generics.where_clause) {
        refuse(w.span(), "a kernel cannot have a `where` clause");
    }
    if let Some(v) = &sig.variadic {
        refuse(v.span(), "a kernel cannot be variadic");
    }
    if let syn::ReturnType::Type(_, ty) = &sig.output {
        refuse(
            ty.span(),
            "a kernel returns nothing; write results into a `&mut [T]` parameter",
        );
    }
}
