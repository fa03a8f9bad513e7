//! The `#[sarek::kernel]` attribute. A thin shell: lowering, checks, WGSL generation and
//! validation live in `sarek-codegen` (see its `front` module), so they can be tested
//! without a proc-macro process. Internal to Sarek: use it through the
//! [`sarek`](https://docs.rs/sarek) crate.

#![deny(missing_docs)]

use proc_macro::TokenStream;

/// Compiles a Rust function into a GPU kernel. See the `sarek` crate's documentation.
#[proc_macro_attribute]
pub fn kernel(attr: TokenStream, item: TokenStream) -> TokenStream {
    sarek_codegen::front::expand_kernel(attr.into(), item.into()).into()
}

/// Compiles the `#[sarek::kernel]` functions of a module together with the structs, enums,
/// helper functions and constants declared in it, which the macro reads at compile time.
///
/// - A struct (named fields of scalars, arrays and structs) or enum of the module can be a
///   buffer element (`&[Particle]`), a by-value kernel parameter, a local, or an element of
///   workgroup memory. Each implements `sarek::Element`: it is uploaded and read back in
///   WGSL's memory layout, checked by const assertions. Structs of plain numbers become
///   `#[repr(C)]` and `bytemuck::Pod`; `bool` fields (stored as `u32`) and enums (a `u32` tag,
///   then every variant's fields) go through a hidden `#[repr(C)]` twin.
/// - Every struct and enum also gets `Clone` and `Copy`.
/// - A helper `fn` becomes a WGSL function per kernel that calls it, specialised to the
///   buffers it is given; self tail calls become loops; other recursion is refused.
/// - The kernels also see the items of the `#[sarek::module]`s the module imports with `use`,
///   in its crate or in a crate it depends on; other items are invisible to kernels: using one
///   is a compile error that says to move it into a module.
/// - `sarek::instances!(kernel<..>)` in the module builds instances of generic kernels (its
///   own or imported ones) with the module's types and trait impls.
///
/// See the `sarek` crate's documentation for an example.
#[proc_macro_attribute]
pub fn module(attr: TokenStream, item: TokenStream) -> TokenStream {
    sarek_codegen::front::expand_module(attr.into(), item.into()).into()
}

/// Continues the expansion of a `#[sarek::module]` that imports items of other modules: the
/// hidden macro of each imported module calls it with that module's tokens. Generated code
/// only.
#[doc(hidden)]
#[proc_macro]
pub fn __import(input: TokenStream) -> TokenStream {
    sarek_codegen::front::expand_import(input.into()).into()
}

/// Asks for instances of generic kernels: `sarek::instances!(reduce<ArgMax, 256>)`. Only a
/// `#[sarek::module]` reads it (it needs the module's types and trait impls); anywhere else it
/// is an error.
#[proc_macro]
pub fn instances(input: TokenStream) -> TokenStream {
    let span = proc_macro2::TokenStream::from(input)
        .into_iter()
        .next()
        .map_or_else(proc_macro2::Span::call_site, |t| t.span());
    syn::Error::new(span, "`sarek::instances!` goes inside a `#[sarek::module]`, which compiles each requested instance with the module's types and trait impls")
        .to_compile_error()
        .into()
}
