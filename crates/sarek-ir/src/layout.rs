//! WGSL's memory layout of the types a kernel stores in buffers, the uniform block and
//! workgroup memory (WGSL § "Memory Layout"): every scalar is 4 bytes (a `bool` is stored as a
//! `u32`) except `f16`, which is 2, and `i64` and `u64`, which are 8, an array's stride is its element size rounded up to the element alignment, a
//! struct's fields sit at the next multiple of their alignment and its size is rounded up to
//! its largest alignment. The host types `#[sarek::module]` exports follow this layout, checked
//! by const assertions.

use crate::ir::{Scalar, Type, TypeDef};

/// Size and alignment of a type, in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// `SizeOf`
    pub size: u32,
    /// `AlignOf`
    pub align: u32,
}

impl Layout {
    /// The distance between consecutive elements of an array of this type.
    pub fn stride(self) -> u32 {
        round_up(self.size, self.align)
    }
}

/// `v` rounded up to a multiple of `align`, saturating (a type too large for `u32` is refused
/// by the limits later, not by an overflow here).
pub fn round_up(v: u32, align: u32) -> u32 {
    v.checked_next_multiple_of(align).unwrap_or(u32::MAX)
}

/// The layout of `ty`.
pub fn of(types: &[TypeDef], ty: Type) -> Layout {
    match ty {
        // `f16` is WGSL's only 2-byte type: `vec2<f16>` is 4 bytes aligned to 4, `vec3` and
        // `vec4` 6 and 8 bytes aligned to 8.
        Type::Scalar(Scalar::F16) => Layout { size: 2, align: 2 },
        Type::Vector(n, Scalar::F16) => Layout {
            size: 2 * u32::from(n),
            align: if n == 2 { 4 } else { 8 },
        },
        // WGSL's `i64` and `u64` are 8 bytes aligned to 8 (there are no vectors of them).
        Type::Scalar(Scalar::I64 | Scalar::U64) => Layout { size: 8, align: 8 },
        Type::Scalar(_) => Layout { size: 4, align: 4 },
        Type::Vector(n, _) => Layout {
            size: 4 * u32::from(n),
            align: if n == 2 { 8 } else { 16 },
        },
        Type::Array(id) | Type::Struct(id) => match types.get(id.0 as usize) {
            Some(TypeDef::Array { elem, len }) => {
                let e = of(types, *elem);
                Layout {
                    size: e.stride().saturating_mul(*len),
                    align: e.align,
                }
            }
            Some(TypeDef::Struct(s)) => {
                let (_, layout) = fields(types, s.fields.iter().map(|f| f.ty));
                layout
            }
            None => Layout { size: 4, align: 4 },
        },
    }
}

/// The offsets of a struct's fields and the struct's layout.
pub fn fields(types: &[TypeDef], tys: impl IntoIterator<Item = Type>) -> (Vec<u32>, Layout) {
    let mut offsets = Vec::new();
    let mut end = 0u32;
    // A struct's alignment is its largest member's (2 for one of `f16`s only); every other
    // member aligns to at least 4, and a struct without members counts as 4.
    let mut align = 0u32;
    for ty in tys {
        let l = of(types, ty);
        let offset = round_up(end, l.align);
        offsets.push(offset);
        end = offset.saturating_add(l.size);
        align = align.max(l.align);
    }
    if align == 0 {
        align = 4;
    }
    (
        offsets,
        Layout {
            size: round_up(end, align).max(align),
            align,
        },
    )
}

/// Why `ty` cannot sit in WebGPU's uniform address space, whose rules are stricter than a
/// storage buffer's: array strides must be multiples of 16 and a struct member of struct type
/// must start at a multiple of 16.
pub fn uniform_problem(types: &[TypeDef], ty: Type) -> Option<&'static str> {
    match ty {
        Type::Scalar(_) | Type::Vector(..) => None,
        Type::Array(id) | Type::Struct(id) => match types.get(id.0 as usize)? {
            TypeDef::Array { elem, .. } => {
                if !of(types, *elem).stride().is_multiple_of(16) {
                    Some("an array in the uniform block needs a 16-byte element stride")
                } else {
                    uniform_problem(types, *elem)
                }
            }
            TypeDef::Struct(s) => {
                let (offsets, _) = fields(types, s.fields.iter().map(|f| f.ty));
                let mut free_from = 0;
                for (f, offset) in s.fields.iter().zip(offsets) {
                    if offset < free_from {
                        return Some("a struct inside a struct in the uniform block must be followed by 16-byte-aligned padding");
                    }
                    if matches!(f.ty, Type::Struct(_)) {
                        if offset % 16 != 0 {
                            return Some("a struct inside a struct in the uniform block must start at a multiple of 16 bytes");
                        }
                        free_from = offset.saturating_add(round_up(of(types, f.ty).size, 16));
                    }
                    if let Some(p) = uniform_problem(types, f.ty) {
                        return Some(p);
                    }
                }
                None
            }
        },
    }
}
