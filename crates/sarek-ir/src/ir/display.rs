//! Rust spellings of IR types, for diagnostics.

use super::{Type, TypeDef};

/// How rustc would print `ty` (`[f32; 4]`, `Particle`).
pub fn type_name(types: &[TypeDef], ty: Type) -> String {
    match ty {
        Type::Scalar(s) => s.rust_name().to_owned(),
        Type::Vector(n, s) => vector_name(n, s),
        Type::Array(id) | Type::Struct(id) => match types.get(id.0 as usize) {
            Some(TypeDef::Array { elem, len }) => format!("[{}; {len}]", type_name(types, *elem)),
            Some(TypeDef::Struct(s)) => s.name.clone(),
            None => "{unknown}".to_owned(),
        },
    }
}

/// The Rust (glam) name of a vector type: `Vec3`, `IVec2`, `UVec4`.
pub fn vector_name(n: u8, s: super::Scalar) -> String {
    let prefix = match s {
        super::Scalar::I32 => "I",
        super::Scalar::U32 => "U",
        super::Scalar::Bool => "B",
        super::Scalar::F32 => "",
        super::Scalar::F16 => "F16",
        // glam's names; the IR has no such vectors, so only a diagnostic prints them.
        super::Scalar::I64 => "I64",
        super::Scalar::U64 => "U64",
    };
    format!("{prefix}Vec{n}")
}
