//! The `#[sarek::kernel]` attribute. A thin shell: lowering, checks, WGSL generation and
//! validation live in `sarek-codegen` (see its `front` module), so they can be tested
//! without a proc-macro process. Use it through the `sarek` crate.

use proc_macro::TokenStream;

/// Compiles a Rust function into a GPU kernel. See the `sarek` crate's documentation.
#[proc_macro_attribute]
pub fn kernel(attr: TokenStream, item: TokenStream) -> TokenStream {
    sarek_codegen::front::expand_kernel(attr.into(), item.into()).into()
}

/// Compiles a module of kernels together with the structs, enums, helper functions and
/// constants they use. See the `sarek` crate's documentation.
#[proc_macro_attribute]
pub fn module(attr: TokenStream, item: TokenStream) -> TokenStream {
    sarek_codegen::front::expand_module(attr.into(), item.into()).into()
}
