//! Rust types in kernel signatures and bodies, and why the others are refused.

use proc_macro2::Span;
use syn::spanned::Spanned;

use super::diagnostic::{Diagnostic, ErrorKind};
use crate::ir::{Access, Scalar};

/// A scalar type as the host sees it (`usize` and `u32` differ on the host, not on the GPU).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HostScalar {
    /// `f32`
    F32,
    /// `i32`
    I32,
    /// `u32`
    U32,
    /// `usize` (32 bits on the GPU)
    Usize,
    /// `bool`
    Bool,
    /// `f16`: `half::f16` on the host (`sarek::f16`).
    F16,
    /// `i64` (needs `SHADER_INT64`)
    I64,
    /// `u64` (needs `SHADER_INT64`)
    U64,
}

impl HostScalar {
    /// The GPU type.
    pub fn scalar(self) -> Scalar {
        match self {
            HostScalar::F32 => Scalar::F32,
            HostScalar::I32 => Scalar::I32,
            HostScalar::U32 | HostScalar::Usize => Scalar::U32,
            HostScalar::Bool => Scalar::Bool,
            HostScalar::F16 => Scalar::F16,
            HostScalar::I64 => Scalar::I64,
            HostScalar::U64 => Scalar::U64,
        }
    }

    /// The Rust spelling.
    pub fn name(self) -> &'static str {
        match self {
            HostScalar::F32 => "f32",
            HostScalar::I32 => "i32",
            HostScalar::U32 => "u32",
            HostScalar::Usize => "usize",
            HostScalar::Bool => "bool",
            HostScalar::F16 => "f16",
            HostScalar::I64 => "i64",
            HostScalar::U64 => "u64",
        }
    }
}

/// The type of a kernel parameter as the host passes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HostParam {
    /// A scalar, passed by value.
    Scalar(HostScalar),
    /// A struct or enum of the module, passed by value (the Rust type as written).
    Value(syn::Type),
    /// `&[AtomicU32]` / `&[AtomicI32]`, passed as a `&Buffer<u32>` / `&Buffer<i32>`.
    AtomicSlice {
        /// `U32` or `I32`.
        elem: HostScalar,
    },
    /// A slice, passed as a `Buffer`.
    Slice {
        /// Element type.
        elem: HostElem,
        /// `&[T]` or `&mut [T]`.
        access: Access,
    },
}

/// The element type of a buffer parameter as the host sees it.
// One per buffer parameter, made and dropped while a kernel expands: the size of the `syn`
// type is no cost worth a box (which would change this public enum's shape).
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HostElem {
    /// A scalar.
    Scalar(HostScalar),
    /// A struct, enum or array type (the Rust type as written).
    Named(syn::Type),
}

/// Why a type named `name` cannot be used on the GPU, if it is a known primitive that WebGPU
/// lacks.
pub fn refusal(name: &str) -> Option<String> {
    Some(match name {
        "f64" => "WebGPU has no `f64` (WGSL has no 64-bit floats); use `f32`".into(),
        "i128" | "u128" => format!(
            "WebGPU has no 128-bit integers, so `{name}` cannot be used in a kernel; use `{}` (which needs the `SHADER_INT64` feature)",
            if name.starts_with('u') { "u64" } else { "i64" }
        ),
        "isize" => "`isize` has no fixed width on the GPU, so it cannot be used in a kernel; use `i32`, or `i64` (which needs the `SHADER_INT64` feature)".into(),
        "i8" | "u8" => format!(
            "WebGPU has no 8- or 16-bit integers, so `{name}` cannot be used in a kernel; use `{}`; for byte data, upload it into a `Buffer<u32>` with `dev.upload_bytes(&bytes)` (four bytes a word, read back with `buf.read_bytes()`), take `&[u32]`, and unpack a word with `unpack4x_{}(word)`",
            if name.starts_with('u') { "u32" } else { "i32" },
            if name.starts_with('u') { "u8" } else { "i8" }
        ),
        "i16" | "u16" => format!(
            "WebGPU has no 8- or 16-bit integers, so `{name}` cannot be used in a kernel; use `{}` (two half-words a `u32` word: `word & 0xffff` and `word >> 16`; `unpack2x16_float` for `f16` data)",
            if name.starts_with('u') { "u32" } else { "i32" }
        ),
        "F16Vec3" => "there is no `F16Vec3`: the host has no padded three-component `f16` vector (WGSL's `vec3<f16>` takes the 8 bytes of a `vec4<f16>`); use `F16Vec4` and leave its `w` unused, or three `f16`s".into(),
        "char" | "str" | "String" => {
            format!("WebGPU has no text types, so `{name}` cannot be used in a kernel; pass numbers instead")
        }
        _ => return None,
    })
}

/// A scalar named by a path type, or an error at the type.
pub fn scalar(ty: &syn::Type) -> Result<HostScalar, Diagnostic> {
    let unsupported = |span: Span| {
        Diagnostic::new(
            span,
            ErrorKind::unsupported("this type is not supported in a Sarek kernel; kernels compute with `f32`, `i32`, `u32`, `usize`, `bool`, `f16`, `i64` and `u64`"),
        )
    };
    match ty {
        syn::Type::Path(p) if p.qself.is_none() => {
            let Some(ident) = p.path.get_ident() else {
                if let Some(last) = p.path.segments.last() {
                    // `sarek::f16`, `half::f16`: the one scalar that is a library type.
                    if last.ident == "f16" && last.arguments.is_empty() {
                        return Ok(HostScalar::F16);
                    }
                    if let Some(reason) = refusal(&last.ident.to_string()) {
                        return Err(Diagnostic::new(
                            last.ident.span(),
                            ErrorKind::unsupported(reason),
                        ));
                    }
                }
                return Err(unsupported(ty.span()));
            };
            Ok(match ident.to_string().as_str() {
                "f32" => HostScalar::F32,
                "i32" => HostScalar::I32,
                "u32" => HostScalar::U32,
                "usize" => HostScalar::Usize,
                "bool" => HostScalar::Bool,
                "f16" => HostScalar::F16,
                "i64" => HostScalar::I64,
                "u64" => HostScalar::U64,
                other => {
                    return Err(match refusal(other) {
                        Some(reason) => {
                            Diagnostic::new(ident.span(), ErrorKind::unsupported(reason))
                        }
                        None => unsupported(ident.span()),
                    })
                }
            })
        }
        syn::Type::Paren(p) => scalar(&p.elem),
        syn::Type::Group(g) => scalar(&g.elem),
        _ => Err(unsupported(ty.span())),
    }
}

/// The type of a kernel parameter.
pub fn param(ty: &syn::Type) -> Result<HostParam, Diagnostic> {
    match ty {
        syn::Type::Reference(r) => {
            let access = if r.mutability.is_some() {
                Access::ReadWrite
            } else {
                Access::Read
            };
            match &*r.elem {
                syn::Type::Slice(s) => {
                    if let Some(elem) = atomic(&s.elem) {
                        if r.mutability.is_some() {
                            return Err(Diagnostic::new(r.mutability.span(), ErrorKind::unsupported("atomics are changed through a shared reference: write `&[AtomicU32]`, not `&mut`")));
                        }
                        return Ok(HostParam::AtomicSlice { elem });
                    }
                    let Ok(elem) = scalar(&s.elem) else {
                        return Ok(HostParam::Slice { elem: HostElem::Named((*s.elem).clone()), access });
                    };
                    if elem == HostScalar::Bool {
                        return Err(Diagnostic::new(s.elem.span(), ErrorKind::unsupported("WebGPU cannot store `bool` in a buffer (it is not host-shareable); use a `&[u32]` of 0 and 1")));
                    }
                    if elem == HostScalar::Usize {
                        return Err(Diagnostic::new(s.elem.span(), ErrorKind::unsupported("`usize` is 64 bits on the host and 32 on the GPU, so a `[usize]` buffer would not match; use `[u32]`")));
                    }
                    Ok(HostParam::Slice { elem: HostElem::Scalar(elem), access })
                }
                syn::Type::Array(_) => Err(Diagnostic::new(r.elem.span(), ErrorKind::unsupported("pass buffers as slices: write `&[T]` or `&mut [T]` instead of a reference to an array"))),
                other => Err(Diagnostic::new(other.span(), ErrorKind::unsupported("a reference parameter must be a slice, `&[T]` (read-only buffer) or `&mut [T]` (read-write buffer)"))),
            }
        }
        other => Ok(match scalar(other) {
            Ok(s) => HostParam::Scalar(s),
            Err(_) => HostParam::Value(other.clone()),
        }),
    }
}

/// `AtomicU32`, `AtomicI32`, `AtomicF32`, `AtomicU64` or `AtomicI64` (any path ending so), as
/// the scalar it holds.
pub fn atomic(ty: &syn::Type) -> Option<HostScalar> {
    let syn::Type::Path(p) = ty else { return None };
    match p.path.segments.last()?.ident.to_string().as_str() {
        "AtomicU32" => Some(HostScalar::U32),
        "AtomicI32" => Some(HostScalar::I32),
        "AtomicF32" => Some(HostScalar::F32),
        "AtomicU64" => Some(HostScalar::U64),
        "AtomicI64" => Some(HostScalar::I64),
        _ => None,
    }
}
