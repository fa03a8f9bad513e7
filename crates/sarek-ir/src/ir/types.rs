//! The types of the IR: scalars, vectors, and the compound types (arrays, structs, enums)
//! of a kernel's type table.

/// The scalar types a kernel computes with. Rust's `usize` is [`Scalar::U32`] on the GPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scalar {
    /// `f32`
    F32,
    /// `i32`
    I32,
    /// `u32` (and `usize`)
    U32,
    /// `bool`
    Bool,
    /// `f16` (host type `half::f16`; WGSL's `f16`, which needs `enable f16;` and the
    /// `SHADER_F16` feature). After the 32-bit scalars, so they keep their order.
    F16,
    /// `i64` (WGSL's `i64`, which needs the `SHADER_INT64` feature).
    I64,
    /// `u64` (WGSL's `u64`, which needs the `SHADER_INT64` feature).
    U64,
}

impl Scalar {
    /// The Rust spelling of the type (`usize` prints as `u32`).
    pub fn rust_name(self) -> &'static str {
        match self {
            Scalar::F32 => "f32",
            Scalar::I32 => "i32",
            Scalar::U32 => "u32",
            Scalar::Bool => "bool",
            Scalar::F16 => "f16",
            Scalar::I64 => "i64",
            Scalar::U64 => "u64",
        }
    }

    /// Whether the type is `f32` or `f16`.
    pub fn is_float(self) -> bool {
        matches!(self, Scalar::F32 | Scalar::F16)
    }

    /// Whether the type is an integer: `i32`, `u32`, `i64` or `u64`.
    pub fn is_integer(self) -> bool {
        matches!(self, Scalar::I32 | Scalar::U32 | Scalar::I64 | Scalar::U64)
    }

    /// Whether the type is `i64` or `u64`.
    pub fn is_wide(self) -> bool {
        matches!(self, Scalar::I64 | Scalar::U64)
    }
}

/// The type of a value in the IR.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Type {
    /// A scalar.
    Scalar(Scalar),
    /// `Vec2`/`Vec3`/`Vec4` (`f32`), `IVec*` (`i32`), `UVec*` (`u32`): WGSL's `vecN<T>`.
    Vector(u8, Scalar),
    /// A fixed-size array, described by [`Kernel::types`](super::Kernel::types).
    Array(TypeId),
    /// A struct (an enum is a struct with a tag), described by [`Kernel::types`](super::Kernel::types).
    Struct(TypeId),
}

impl Type {
    /// The scalar, if the type is one.
    pub fn scalar(self) -> Option<Scalar> {
        match self {
            Type::Scalar(s) => Some(s),
            _ => None,
        }
    }
}

/// Index of a compound type in [`Kernel::types`](super::Kernel::types).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct TypeId(pub u32);

/// A compound type.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum TypeDef {
    /// `[elem; len]`
    Array {
        /// Element type.
        elem: Type,
        /// Number of elements.
        len: u32,
    },
    /// A struct, or an enum stored as a tag plus the payload fields of every variant.
    Struct(StructDef),
}

/// A struct type. In host-shareable memory a `bool` field is stored as a `u32` 0 or 1; the
/// back end converts on every read and write, so the IR sees `bool`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct StructDef {
    /// The Rust name.
    pub name: String,
    /// Fields in declaration order (an enum: the tag first, then each variant's payload).
    pub fields: Vec<Field>,
    /// For an enum, its variants' names, in tag order.
    pub variants: Option<Vec<String>>,
}

/// A struct field.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Field {
    /// What the field is.
    pub name: FieldName,
    /// Its type.
    pub ty: Type,
}

/// The name of a struct field; the back end spells each kind without collisions.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum FieldName {
    /// A named field of a struct (without `r#`).
    Named(String),
    /// The tag of an enum: the variant's index, a `u32`.
    Tag,
    /// Field `name` (`0`, `1`, ... for tuple variants) of variant number `variant`.
    Payload {
        /// The variant's index.
        variant: u32,
        /// The field's Rust name.
        name: String,
    },
}

/// The struct behind `ty` in a type table.
pub fn struct_def(types: &[TypeDef], ty: TypeId) -> Option<&StructDef> {
    match types.get(ty.0 as usize)? {
        TypeDef::Struct(s) => Some(s),
        TypeDef::Array { .. } => None,
    }
}

/// The element type and length of the array `ty`.
pub fn array_def(types: &[TypeDef], ty: TypeId) -> Option<(Type, u32)> {
    match types.get(ty.0 as usize)? {
        TypeDef::Array { elem, len } => Some((*elem, *len)),
        TypeDef::Struct(_) => None,
    }
}
