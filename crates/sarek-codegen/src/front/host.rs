//! The host side of a module's structs and enums: `sarek::Element` implementations, and the
//! layout the GPU uses, checked against WGSL's by const assertions.
//!
//! A struct whose fields are all `f32`, `i32`, `u32`, arrays of them or other such structs
//! already has WGSL's layout under `#[repr(C)]` (every member is 4-byte aligned, so there is
//! no padding): it becomes `#[repr(C)]`, implements `bytemuck::Pod` and is uploaded as is. A
//! struct with a `bool` field (stored as a `u32`) or an enum field, and every enum, gets a
//! hidden `#[repr(C)]` twin with WGSL's layout (an enum: a `u32` tag, the variant's index,
//! then the fields of every variant in order, zero for the variants it is not), converted on
//! upload and read-back.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};

use crate::ir::{FieldName, Scalar, StructDef, Type, TypeDef};
use crate::layout;

/// Whether values of `ty` are stored on the GPU exactly as the host holds them: no `bool`, no
/// enum, no `Vec3` (12 bytes on the host, a 16-byte stride on the GPU), and no padding
/// (the host types are 4-byte aligned, so any gap WGSL's alignment opens would differ).
pub fn is_identity(types: &[TypeDef], ty: Type) -> bool {
    match ty {
        Type::Scalar(Scalar::Bool) => false,
        Type::Scalar(_) => true,
        Type::Vector(n, _) => n != 3,
        Type::Array(id) | Type::Struct(id) => match types.get(id.0 as usize) {
            Some(TypeDef::Array { elem, .. }) => is_identity(types, *elem),
            Some(TypeDef::Struct(s)) => {
                if s.variants.is_some() || !s.fields.iter().all(|f| is_identity(types, f.ty)) {
                    return false;
                }
                let (offsets, l) = layout::fields(types, s.fields.iter().map(|f| f.ty));
                let mut end = 0;
                for (f, o) in s.fields.iter().zip(offsets) {
                    if o != end {
                        return false;
                    }
                    end += layout::of(types, f.ty).size;
                }
                end == l.size
            }
            None => false,
        },
    }
}

/// How a field is stored in a twin (every twin field is 4-byte aligned, so explicit padding
/// places it at WGSL's offset).
fn field_gpu_type(ty: Type, rust: &syn::Type) -> TokenStream {
    match ty {
        Type::Scalar(Scalar::Bool) => quote!(u32),
        Type::Scalar(_) => quote!(#rust),
        // A `vec3` member is 12 bytes; the next member may start right after it.
        Type::Vector(3, s) => {
            let t = scalar_tokens(s);
            quote!([#t; 3])
        }
        _ => quote!(<#rust as ::sarek::Element>::Gpu),
    }
}

fn scalar_tokens(s: Scalar) -> TokenStream {
    match s {
        Scalar::F32 => quote!(f32),
        Scalar::I32 => quote!(i32),
        Scalar::U32 | Scalar::Bool => quote!(u32),
        Scalar::F16 => quote!(::sarek::f16),
        Scalar::I64 => quote!(i64),
        Scalar::U64 => quote!(u64),
    }
}

fn to_gpu(ty: Type, value: TokenStream) -> TokenStream {
    match ty {
        Type::Scalar(Scalar::Bool) => quote!(u32::from(#value)),
        Type::Scalar(_) => value,
        Type::Vector(3, _) => quote!(::sarek::__private::to_array3(#value)),
        _ => quote!(::sarek::Element::to_gpu(#value)),
    }
}

fn from_gpu(ty: Type, value: TokenStream) -> TokenStream {
    match ty {
        Type::Scalar(Scalar::Bool) => quote!((#value != 0)),
        Type::Scalar(_) => value,
        Type::Vector(3, _) => quote!(::sarek::__private::from_array3(#value)),
        _ => quote!(::sarek::Element::from_gpu(#value)?),
    }
}

/// A twin struct with WGSL's layout: the fields at WGSL's offsets, explicit padding between
/// them and at the end, and const assertions that the layout is exactly WGSL's.
fn twin(
    twin: &syn::Ident,
    types: &[TypeDef],
    def: &StructDef,
    idents: &[syn::Ident],
    field_tys: &[TokenStream],
    doc: &str,
    at: proc_macro2::Span,
) -> TokenStream {
    let (offsets, l) = layout::fields(types, def.fields.iter().map(|f| f.ty));
    let mut members = Vec::new();
    let mut end = 0u32;
    let mut pads = 0u32;
    let mut pad_bytes = 0usize;
    for ((ident, ty), (f, o)) in idents
        .iter()
        .zip(field_tys)
        .zip(def.fields.iter().zip(&offsets))
    {
        if *o > end {
            let pad = format_ident!("__pad{}", pads);
            let n = (*o - end) as usize;
            members.push(quote!(#pad: [u8; #n]));
            pads += 1;
            pad_bytes += n;
        }
        members.push(quote!(pub #ident: #ty));
        end = o + layout::of(types, f.ty).size;
    }
    if l.size > end {
        let pad = format_ident!("__pad{}", pads);
        let n = (l.size - end) as usize;
        members.push(quote!(#pad: [u8; #n]));
        pad_bytes += n;
    }
    let checks = layout_checks(twin, types, def, idents, field_tys, false);
    // Offsets and total size can match WGSL's while `#[repr(C)]` still hides padding: a
    // field whose `Element::Gpu` is smaller than its WGSL size, followed by an over-aligned
    // one, leaves a gap no explicit byte array fills, and `Pod` would expose those
    // uninitialised bytes. So the fields and explicit gaps must add up to the whole struct.
    let message = format!(
        "the GPU layout of `{}` would have implicit padding, so it cannot be uploaded as bytes: \
         a field's `sarek::Element::Gpu` type is smaller than the field's WGSL size or more \
         than 4-byte aligned; give every field a `Gpu` type of WGSL's size with 4-byte \
         alignment (arrays of `f32`, `i32` or `u32`), or use Sarek's own vector types",
        def.name
    );
    let no_padding = quote_spanned! {at=>
        const _: () = ::core::assert!(
            ::core::mem::size_of::<#twin>() == #pad_bytes #(+ ::core::mem::size_of::<#field_tys>())*,
            #message
        );
    };
    quote! {
        #[doc = #doc]
        #[doc(hidden)]
        #[allow(non_camel_case_types, non_snake_case)]
        #[repr(C)]
        #[derive(Clone, Copy)]
        pub struct #twin { #(#members),* }
        #no_padding
        #checks
    }
}

/// Const assertions that `ty`'s size and field offsets are WGSL's; for an identity struct,
/// also that it has no padding (so that `Pod` is sound).
fn layout_checks(
    name: &syn::Ident,
    types: &[TypeDef],
    def: &StructDef,
    fields: &[syn::Ident],
    field_tys: &[TokenStream],
    identity: bool,
) -> TokenStream {
    let (offsets, l) = layout::fields(types, def.fields.iter().map(|f| f.ty));
    let size = l.size as usize;
    let message = format!(
        "the host layout of `{}` differs from WGSL's (a bug in Sarek)",
        def.name
    );
    let offset_checks = fields.iter().zip(&offsets).map(|(f, o)| {
        let o = *o as usize;
        quote!(::core::assert!(::core::mem::offset_of!(#name, #f) == #o, #message);)
    });
    let no_padding = if identity {
        quote!(::core::assert!(::core::mem::size_of::<#name>() == 0 #(+ ::core::mem::size_of::<#field_tys>())*, #message);)
    } else {
        // A twin's padding is explicit `[u8; N]` fields, and `twin` asserts it has none of
        // its own.
        TokenStream::new()
    };
    quote! {
        const _: () = {
            ::core::assert!(::core::mem::size_of::<#name>() == #size, #message);
            #no_padding
            #(#offset_checks)*
        };
        const _: fn() = || {
            fn pod<T: ::sarek::__private::bytemuck::Pod>() {}
            #(pod::<#field_tys>();)*
        };
        // SAFETY: `#[repr(C)]`, every field is `Pod` (checked just above) and the fields fill
        // the struct without implicit padding (its size is WGSL's, every field sits at WGSL's
        // offset, and the gaps are explicit byte arrays).
        unsafe impl ::sarek::__private::bytemuck::Zeroable for #name {}
        unsafe impl ::sarek::__private::bytemuck::Pod for #name {}
    }
}

/// The host code for a struct of the module, given its IR definition.
pub fn struct_impls(
    item: &syn::ItemStruct,
    types: &[TypeDef],
    def: &StructDef,
    identity: bool,
) -> TokenStream {
    let name = &item.ident;
    let syn::Fields::Named(named) = &item.fields else {
        return TokenStream::new();
    };
    let idents: Vec<syn::Ident> = named.named.iter().filter_map(|f| f.ident.clone()).collect();
    if identity {
        let tys: Vec<TokenStream> = named
            .named
            .iter()
            .map(|f| {
                let t = &f.ty;
                quote!(#t)
            })
            .collect();
        let checks = layout_checks(name, types, def, &idents, &tys, true);
        return quote! {
            #checks
            impl ::sarek::Element for #name {
                type Gpu = #name;
                fn to_gpu(self) -> Self { self }
                fn from_gpu(gpu: Self) -> ::core::option::Option<Self> { ::core::option::Option::Some(gpu) }
                fn slice_to_gpu(values: &[Self]) -> ::std::borrow::Cow<'_, [Self]> { ::std::borrow::Cow::Borrowed(values) }
            }
            impl ::sarek::gpu::SharedMemory for #name {
                fn zeroed() -> Self { ::sarek::__private::bytemuck::Zeroable::zeroed() }
            }
        };
    }
    let twin = format_ident!("__SarekGpu{}", name);
    let field_tys: Vec<TokenStream> = named
        .named
        .iter()
        .zip(&def.fields)
        .map(|(f, d)| field_gpu_type(d.ty, &f.ty))
        .collect();
    let doc = format!("How the GPU stores a `{name}` (WGSL's layout; `bool` as `u32`).");
    let twin_def = self::twin(&twin, types, def, &idents, &field_tys, &doc, name.span());
    let to = idents.iter().zip(&def.fields).map(|(f, d)| {
        let v = to_gpu(d.ty, quote!(self.#f));
        quote!(#f = #v)
    });
    let back = idents.iter().zip(&def.fields).map(|(f, d)| {
        let v = from_gpu(d.ty, quote!(gpu.#f));
        quote!(#f: #v)
    });
    let shared = shared_memory(name);
    quote! {
        #twin_def
        impl ::sarek::Element for #name {
            type Gpu = #twin;
            fn to_gpu(self) -> #twin {
                let mut gpu: #twin = ::sarek::__private::bytemuck::Zeroable::zeroed();
                #(gpu.#to;)*
                gpu
            }
            fn from_gpu(gpu: #twin) -> ::core::option::Option<Self> {
                ::core::option::Option::Some(#name { #(#back),* })
            }
        }
        #shared
    }
}

/// The host code for an enum of the module.
pub fn enum_impls(item: &syn::ItemEnum, types: &[TypeDef], def: &StructDef) -> TokenStream {
    let name = &item.ident;
    let twin = format_ident!("__SarekGpu{}", name);
    let mut idents = Vec::new();
    let mut field_tys = Vec::new();
    let mut to_arms = Vec::new();
    let mut from_arms = Vec::new();
    let mut field_defs = def.fields.iter().skip(1);
    idents.push(format_ident!("tag"));
    field_tys.push(quote!(u32));
    for (i, v) in item.variants.iter().enumerate() {
        let tag = i as u32;
        let vname = &v.ident;
        let mut binds = Vec::new();
        let mut sets = Vec::new();
        let mut gets = Vec::new();
        for (k, f) in v.fields.iter().enumerate() {
            let Some(d) = field_defs.next() else {
                return TokenStream::new();
            };
            let FieldName::Payload { name: fname, .. } = &d.name else {
                return TokenStream::new();
            };
            let member = format_ident!("v{}_{}", i, fname);
            let bind = format_ident!("__f{}", k);
            field_tys.push(field_gpu_type(d.ty, &f.ty));
            idents.push(member.clone());
            let set = to_gpu(d.ty, quote!(#bind));
            sets.push(quote!(gpu.#member = #set;));
            gets.push(from_gpu(d.ty, quote!(gpu.#member)));
            binds.push((f.ident.clone(), bind));
        }
        let (pattern, construct) = match &v.fields {
            syn::Fields::Unit => (quote!(#name::#vname), quote!(#name::#vname)),
            syn::Fields::Unnamed(_) => {
                let b = binds.iter().map(|(_, b)| b);
                (
                    quote!(#name::#vname(#(#b),*)),
                    quote!(#name::#vname(#(#gets),*)),
                )
            }
            syn::Fields::Named(_) => {
                let b = binds.iter().map(|(f, b)| quote!(#f: #b));
                let g = binds.iter().zip(&gets).map(|((f, _), g)| quote!(#f: #g));
                (
                    quote!(#name::#vname { #(#b),* }),
                    quote!(#name::#vname { #(#g),* }),
                )
            }
        };
        to_arms.push(quote! {
            #pattern => {
                let mut gpu: #twin = ::sarek::__private::bytemuck::Zeroable::zeroed();
                gpu.tag = #tag;
                #(#sets)*
                gpu
            }
        });
        from_arms.push(quote!(#tag => ::core::option::Option::Some(#construct),));
    }
    let shared = shared_memory(name);
    let doc = format!("How the GPU stores a `{name}`: a `u32` tag (the variant's index), then the fields of every variant.");
    let twin_def = self::twin(&twin, types, def, &idents, &field_tys, &doc, name.span());
    quote! {
        #twin_def
        impl ::sarek::Element for #name {
            type Gpu = #twin;
            fn to_gpu(self) -> #twin {
                match self { #(#to_arms)* }
            }
            fn from_gpu(gpu: #twin) -> ::core::option::Option<Self> {
                match gpu.tag {
                    #(#from_arms)*
                    _ => ::core::option::Option::None,
                }
            }
        }
        #shared
    }
}

/// Workgroup memory of a converted type starts as the value of all-zero GPU bytes (for an
/// enum, its first variant with zero fields).
fn shared_memory(name: &syn::Ident) -> TokenStream {
    quote! {
        impl ::sarek::gpu::SharedMemory for #name {
            fn zeroed() -> Self {
                match ::sarek::Element::from_gpu(::sarek::__private::bytemuck::Zeroable::zeroed()) {
                    ::core::option::Option::Some(v) => v,
                    ::core::option::Option::None => ::core::unreachable!("all-zero bytes are a valid value"),
                }
            }
        }
    }
}
