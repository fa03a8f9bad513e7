//! Rust spellings of IR types, for diagnostics.

use super::{Type, TypeDef};

/// How rustc would print `ty` (`[f32; 4]`, `Particle`).
pub fn type_name(types: &[TypeDef], ty: Type) -> String {
    match ty {
        Type::Scalar(s) => s.rust_name().to_owned(),
        Type::Array(id) | Type::Struct(id) => match types.get(id.0 as usize) {
            Some(TypeDef::Array { elem, len }) => format!("[{}; {len}]", type_name(types, *elem)),
            Some(TypeDef::Struct(s)) => s.name.clone(),
            None => "{unknown}".to_owned(),
        },
    }
}
