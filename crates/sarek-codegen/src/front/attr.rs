//! The arguments of `#[sarek::kernel(...)]`.

use syn::parse::Parser;
use syn::spanned::Spanned;

use super::diagnostic::{Diagnostic, ErrorKind};

/// Parsed `#[sarek::kernel]` arguments.
#[derive(Clone, Debug)]
pub struct KernelAttr {
    /// `workgroup_size = [x, y, z]` (missing dimensions are 1); default `[256, 1, 1]`.
    pub workgroup_size: [u32; 3],
    /// Where the workgroup size was written, for errors.
    pub workgroup_size_span: proc_macro2::Span,
    /// The dimensions as written when one is not an integer literal (`[TILE, TILE]`): they
    /// name constants of the kernel's module, which only the lowering sees, so it evaluates
    /// them and sets the size. Empty when `workgroup_size` is final.
    pub workgroup_size_exprs: Vec<syn::Expr>,
    /// `limits = "portable"` (the default: WebGPU's guaranteed limits, checked when the kernel
    /// compiles) or `limits = "device"` (whatever the device offers, checked at each launch).
    pub limits: crate::ir::Limits,
    /// `instances(B = [64, 256], T = [f32])`: the values of a generic kernel's const
    /// parameters (and, optionally, a subset of a type parameter's types), each list as
    /// written; `front::generics` checks them against the kernel's parameters.
    pub instances: Vec<(syn::Ident, Vec<syn::Expr>)>,
}

impl Default for KernelAttr {
    fn default() -> Self {
        KernelAttr {
            workgroup_size: [256, 1, 1],
            workgroup_size_span: proc_macro2::Span::call_site(),
            workgroup_size_exprs: Vec::new(),
            limits: crate::ir::Limits::Portable,
            instances: Vec::new(),
        }
    }
}

/// An invalid-attribute error at `span`, as syn's attribute parser wants it.
fn invalid(span: proc_macro2::Span, text: &'static str) -> syn::Error {
    Diagnostic::new(span, ErrorKind::InvalidAttribute(text)).into_syn()
}

/// Parses the attribute's token stream.
pub fn parse(tokens: proc_macro2::TokenStream) -> Result<KernelAttr, Diagnostic> {
    let mut attr = KernelAttr::default();
    // Checked once every argument is read: `limits` may come after `workgroup_size`.
    let mut size_at = None;
    let parser = syn::meta::parser(|meta| {
        if meta.path.is_ident("workgroup_size") {
            let value: syn::Expr = meta.value()?.parse()?;
            attr.workgroup_size_span = value.span();
            let syn::Expr::Array(array) = &value else {
                return Err(invalid(value.span(), "write the workgroup size as an array: `workgroup_size = [64]`, `[16, 16]` or `[8, 8, 4]`"));
            };
            if array.elems.is_empty() || array.elems.len() > 3 {
                return Err(invalid(
                    array.span(),
                    "a workgroup size has one, two or three dimensions",
                ));
            }
            let mut size = [1u32; 3];
            for (slot, elem) in size.iter_mut().zip(array.elems.iter()) {
                let syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Int(int),
                    ..
                }) = elem
                else {
                    // A constant expression: evaluated where the module's constants are known.
                    attr.workgroup_size_exprs = array.elems.iter().cloned().collect();
                    return Ok(());
                };
                *slot = int.base10_parse::<u32>()?;
            }
            size_at = Some(array.span());
            attr.workgroup_size = size;
            Ok(())
        } else if meta.path.is_ident("limits") {
            let value: syn::LitStr = meta.value()?.parse()?;
            attr.limits = match value.value().as_str() {
                "portable" => crate::ir::Limits::Portable,
                "device" => crate::ir::Limits::Device,
                _ => return Err(invalid(value.span(), "`limits` is `\"portable\"` (WebGPU's guaranteed limits, the default) or `\"device\"` (the device's own, checked at launch)")),
            };
            Ok(())
        } else if meta.path.is_ident("instances") {
            meta.parse_nested_meta(|param| {
                let Some(name) = param.path.get_ident().cloned() else {
                    return Err(invalid(
                        param.path.span(),
                        "name a generic parameter of the kernel: `instances(B = [64, 256])`",
                    ));
                };
                let value: syn::Expr = param.value()?.parse()?;
                let syn::Expr::Array(array) = value else {
                    return Err(invalid(
                        value.span(),
                        "list the instances as an array: `instances(B = [64, 256])`",
                    ));
                };
                attr.instances
                    .push((name, array.elems.into_iter().collect()));
                Ok(())
            })
        } else {
            Err(meta.error(ErrorKind::InvalidAttribute(
                "unknown `sarek::kernel` argument; the arguments are `workgroup_size = [x, y, z]`, `limits = \"device\"` and `instances(B = [..])`",
            )))
        }
    });
    parser.parse2(tokens)?;
    if let Some(span) = size_at {
        if let Err(message) = crate::check::workgroup_size_for(attr.workgroup_size, attr.limits) {
            return Err(Diagnostic::new(span, ErrorKind::Rule(message)));
        }
    }
    Ok(attr)
}
