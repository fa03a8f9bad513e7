//! Refusals that lead to the fix: for code a CPU programmer writes out of habit (`vec![0.0;
//! n]`, `let r = &buf[i];`, `&mut buf[k..]`, `let _ = buf;`), an error that names what works
//! in a kernel instead of a generic "not supported".

use quote::ToTokens;

use super::{ident_name, Binding, Lowerer};

/// The message for an expression that has a specific refusal, if `e` is one.
pub(super) fn specific(e: &syn::Expr) -> Option<String> {
    match e {
        syn::Expr::Macro(m) if m.mac.path.is_ident("vec") => Some(vec_macro(&m.mac)),
        syn::Expr::Reference(r) => reference(r),
        _ => None,
    }
}

/// `vec![x; n]` and `vec![a, b, ..]`: kernels cannot allocate; show the array to write.
fn vec_macro(mac: &syn::Macro) -> String {
    let text = mac.tokens.to_string();
    let array = match text.split_once(';') {
        Some((elem, _)) => format!("`let mut a = [{}; N];`", elem.trim()),
        None => format!("`let a = [{}];`", text.trim()),
    };
    format!(
        "kernels cannot allocate: `vec!` needs a heap, which the GPU does not have; use a fixed-size array, {array} with `N` a constant (`const N: usize = 64;`), or a buffer parameter (`&mut [T]`) for data whose size is known only at run time"
    )
}

/// `&buf[i]`, `&mut buf[k..]`, `&x`: a kernel holds no references.
fn reference(r: &syn::ExprReference) -> Option<String> {
    let syn::Expr::Index(index) = &*r.expr else {
        return Some(
            "a kernel cannot hold a reference (WGSL has no pointers to pass around): use the value itself; a helper that changes a value can return it".to_owned(),
        );
    };
    let base = index.expr.to_token_stream().to_string();
    if let syn::Expr::Range(range) = &*index.index {
        let start = range
            .start
            .as_ref()
            .map_or_else(|| "0".to_owned(), |s| s.to_token_stream().to_string());
        return Some(format!(
            "a kernel cannot take a sub-slice (WGSL has no slices of buffers): keep the offset and index the whole buffer, `{base}[{start} + j]` for element `j` of the part (a helper can take `{base}` and the offset as arguments)"
        ));
    }
    let i = index.index.to_token_stream().to_string();
    let mutable = if r.mutability.is_some() {
        format!(", or write the element in place: `{base}[{i}] = ..`")
    } else {
        String::new()
    };
    Some(format!(
        "a kernel cannot hold a reference to an element (WGSL has no pointers to pass around): copy it, `let r = {base}[{i}];`, or index again where you need it{mutable}"
    ))
}

impl Lowerer<'_> {
    /// `let _ = buf;` on a buffer parameter or workgroup array: the message, if it is one.
    pub(super) fn discarded_buffer(&mut self, local: &syn::Local) -> Option<String> {
        if !matches!(local.pat, syn::Pat::Wild(_)) {
            return None;
        }
        let syn::Expr::Path(p) = &*local.init.as_ref()?.expr else {
            return None;
        };
        let name = ident_name(p.path.get_ident()?);
        let what = match self.lookup(&name)? {
            Binding::Param(id) if self.cx.kernel.param(id).ty.buffer().is_some() => "a buffer",
            Binding::Shared(_) => "a workgroup array",
            _ => return None,
        };
        Some(format!(
            "`let _ = {name};` has nothing to do in a kernel: `{name}` is {what}, not a value that can be bound or dropped; remove the line (an unused parameter is fine as it is, or name it `_{name}`)"
        ))
    }
}
