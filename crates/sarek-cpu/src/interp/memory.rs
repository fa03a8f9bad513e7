//! Buffers, the uniform block and workgroup memory as 32-bit words in WGSL's layout, so the
//! CPU reads and writes the same bytes the GPU does. Words are relaxed atomics: workgroups run
//! on several threads at once, and a racy kernel must not be undefined behaviour in Rust
//! (relaxed loads and stores compile to plain moves).
//!
//! Addresses (`at`, offsets, strides) count 2-byte units ([`UNIT`]), the size of `f16`, WGSL's
//! smallest type: every other scalar takes two units at an even address, i.e. one word, except
//! `i64` and `u64`, which take two words (the low one first).

use std::sync::atomic::{AtomicU32, Ordering};

use super::value::Value;
use crate::ir::{Scalar, Type, TypeDef};
use crate::layout;

/// The bytes of one unit of address: an `f16`.
pub(crate) const UNIT: usize = 2;

/// The bits of the `f16` at unit `at` (the low or high half of its word, little-endian as
/// on the GPU).
fn load_half(mem: &[AtomicU32], at: usize) -> u32 {
    let word = mem.get(at / 2).map_or(0, |w| w.load(Ordering::Relaxed));
    if at.is_multiple_of(2) {
        word & 0xffff
    } else {
        word >> 16
    }
}

/// Writes the `f16` `bits` at unit `at`, leaving the other half of the word as it is (a
/// compare-exchange, since another invocation may write that half at the same time, as it
/// may on the GPU).
fn store_half(mem: &[AtomicU32], at: usize, bits: u32) {
    if let Some(w) = mem.get(at / 2) {
        let (shift, keep) = if at.is_multiple_of(2) {
            (0, 0xffff_0000)
        } else {
            (16, 0xffff)
        };
        let _ = w.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |old| {
            Some((old & keep) | ((bits & 0xffff) << shift))
        });
    }
}

/// Field offsets and element strides of a kernel's compound types, in units ([`UNIT`]).
pub(crate) struct Layouts {
    /// Per [`crate::ir::TypeId`]: a struct's field offsets, or an array's `[stride]`.
    words: Vec<Vec<usize>>,
    types: Vec<TypeDef>,
}

impl Layouts {
    pub(crate) fn new(types: &[TypeDef]) -> Layouts {
        let words = types
            .iter()
            .map(|t| match t {
                TypeDef::Struct(s) => {
                    let (offsets, _) = layout::fields(types, s.fields.iter().map(|f| f.ty));
                    offsets.into_iter().map(|o| o as usize / UNIT).collect()
                }
                TypeDef::Array { elem, .. } => {
                    vec![layout::of(types, *elem).stride() as usize / UNIT]
                }
            })
            .collect();
        Layouts {
            words,
            types: types.to_vec(),
        }
    }

    /// The element stride of `[T]` in units.
    pub(crate) fn stride(&self, elem: Type) -> usize {
        (layout::of(&self.types, elem).stride() as usize / UNIT).max(1)
    }

    /// The element stride of `[T]` in bytes, for the JIT, which addresses memory by bytes.
    #[cfg(feature = "jit")]
    pub(crate) fn stride_bytes(&self, elem: Type) -> usize {
        self.stride(elem) * UNIT
    }

    /// [`Layouts::field_offset`] in bytes, for the JIT.
    #[cfg(feature = "jit")]
    pub(crate) fn field_offset_bytes(&self, ty: Type, field: u32) -> usize {
        self.field_offset(ty, field) * UNIT
    }

    /// [`Layouts::array`] with the stride in bytes, for the JIT.
    #[cfg(feature = "jit")]
    pub(crate) fn array_bytes(&self, ty: Type) -> Option<(Type, u32, usize)> {
        self.array(ty)
            .map(|(elem, len, stride)| (elem, len, (stride * UNIT).max(UNIT)))
    }

    /// The offset in units of field `field` of struct type `ty` (or component of a vector).
    pub(crate) fn field_offset(&self, ty: Type, field: u32) -> usize {
        match ty {
            Type::Struct(id) => self
                .words
                .get(id.0 as usize)
                .and_then(|w| w.get(field as usize))
                .copied()
                .unwrap_or(0),
            Type::Vector(_, Scalar::F16) => field as usize,
            _ => field as usize * 2,
        }
    }

    /// The type of field `field` of `ty` (a vector's component is its scalar).
    pub(crate) fn field_type(&self, ty: Type, field: u32) -> Type {
        match ty {
            Type::Vector(_, s) => Type::Scalar(s),
            Type::Struct(id) => crate::ir::struct_def(&self.types, id)
                .and_then(|s| s.fields.get(field as usize))
                .map_or(Type::Scalar(Scalar::U32), |f| f.ty),
            other => other,
        }
    }

    /// An array type's element type, length and stride in units.
    pub(crate) fn array(&self, ty: Type) -> Option<(Type, u32, usize)> {
        let Type::Array(id) = ty else { return None };
        let (elem, len) = crate::ir::array_def(&self.types, id)?;
        let stride = self.words.get(id.0 as usize)?.first().copied()?;
        Some((elem, len, stride))
    }

    /// The host bytes a [`Value`] of `ty` takes in the interpreter (an array or a struct is
    /// a boxed slice of values), saturated at `u64::MAX`.
    pub(crate) fn value_bytes(&self, ty: Type) -> u64 {
        let one = std::mem::size_of::<Value>() as u64;
        match ty {
            Type::Scalar(_) | Type::Vector(..) => one,
            Type::Array(_) => {
                let (elem, len, _) = self.array(ty).unwrap_or((ty, 0, 1));
                one.saturating_add(u64::from(len).saturating_mul(self.value_bytes(elem)))
            }
            Type::Struct(id) => crate::ir::struct_def(&self.types, id)
                .map_or(0, |s| {
                    s.fields
                        .iter()
                        .fold(0u64, |n, f| n.saturating_add(self.value_bytes(f.ty)))
                })
                .saturating_add(one),
        }
    }

    /// The all-zero value of `ty`.
    pub(crate) fn zero(&self, ty: Type) -> Value {
        match ty {
            Type::Scalar(s) => Value::from_bits(s, 0),
            Type::Vector(n, s) => Value::Vector(s, n, [0; 4]),
            Type::Array(_) => {
                let (elem, len, _) = self.array(ty).unwrap_or((ty, 0, 1));
                Value::Composite((0..len).map(|_| self.zero(elem)).collect())
            }
            Type::Struct(id) => {
                let fields = crate::ir::struct_def(&self.types, id)
                    .map(|s| s.fields.iter().map(|f| self.zero(f.ty)).collect())
                    .unwrap_or_default();
                Value::Composite(fields)
            }
        }
    }

    /// Reads a `ty` at unit `at` (words past the end read as 0).
    ///
    /// A struct's `bool` field keeps its word as a [`Value::U32`], as the GPU keeps the `u32`
    /// that stores it: copying a whole struct copies the word unchanged (a 2 stays 2), and
    /// reading the field gives `word != 0` ([`stored_bool`]).
    pub(crate) fn load(&self, ty: Type, mem: &[AtomicU32], at: usize) -> Value {
        let word = |i: usize| mem.get(i / 2).map_or(0, |w| w.load(Ordering::Relaxed));
        match ty {
            Type::Scalar(Scalar::F16) => Value::from_bits(Scalar::F16, load_half(mem, at)),
            // Little-endian, as on the GPU: the low word first.
            Type::Scalar(s) if s.is_wide() => {
                Value::from_bits64(s, u64::from(word(at)) | (u64::from(word(at + 2)) << 32))
            }
            Type::Scalar(s) => Value::from_bits(s, word(at)),
            Type::Vector(n, Scalar::F16) => {
                let mut bits = [0; 4];
                for (i, b) in bits.iter_mut().enumerate().take(usize::from(n)) {
                    *b = load_half(mem, at + i);
                }
                Value::Vector(Scalar::F16, n, bits)
            }
            Type::Vector(n, s) => {
                let mut bits = [0; 4];
                for (i, b) in bits.iter_mut().enumerate().take(usize::from(n)) {
                    *b = word(at + 2 * i);
                }
                Value::Vector(s, n, bits)
            }
            Type::Array(_) => {
                let (elem, len, stride) = self.array(ty).unwrap_or((ty, 0, 1));
                Value::Composite(
                    (0..len as usize)
                        .map(|i| self.load(elem, mem, at + i * stride))
                        .collect(),
                )
            }
            Type::Struct(id) => {
                let fields: Vec<Type> = crate::ir::struct_def(&self.types, id)
                    .map(|s| s.fields.iter().map(|f| f.ty).collect())
                    .unwrap_or_default();
                Value::Composite(
                    fields
                        .iter()
                        .enumerate()
                        .map(|(i, f)| {
                            let at = at + self.field_offset(ty, i as u32);
                            match f {
                                Type::Scalar(Scalar::Bool) => Value::U32(word(at)),
                                _ => self.load(*f, mem, at),
                            }
                        })
                        .collect(),
                )
            }
        }
    }

    /// Writes `value`, a `ty`, at unit `at` (words past the end are dropped).
    pub(crate) fn store(&self, ty: Type, mem: &[AtomicU32], at: usize, value: &Value) {
        let put = |i: usize, bits: u32| {
            if let Some(w) = mem.get(i / 2) {
                w.store(bits, Ordering::Relaxed);
            }
        };
        match (ty, value) {
            (Type::Vector(n, Scalar::F16), Value::Vector(_, _, bits)) => {
                for (i, b) in bits.iter().enumerate().take(usize::from(n)) {
                    store_half(mem, at + i, *b);
                }
            }
            (Type::Vector(n, _), Value::Vector(_, _, bits)) => {
                for (i, b) in bits.iter().enumerate().take(usize::from(n)) {
                    put(at + 2 * i, *b);
                }
            }
            (Type::Scalar(Scalar::F16), scalar) => store_half(mem, at, scalar.bits()),
            (Type::Scalar(s), scalar) if s.is_wide() => {
                let bits = scalar.bits64();
                put(at, bits as u32);
                put(at + 2, (bits >> 32) as u32);
            }
            (Type::Array(_), Value::Composite(parts)) => {
                let (elem, _, stride) = self.array(ty).unwrap_or((ty, 0, 1));
                for (i, p) in parts.iter().enumerate() {
                    self.store(elem, mem, at + i * stride, p);
                }
            }
            (Type::Struct(_), Value::Composite(parts)) => {
                for (i, p) in parts.iter().enumerate() {
                    let f = self.field_type(ty, i as u32);
                    self.store(f, mem, at + self.field_offset(ty, i as u32), p);
                }
            }
            (_, scalar) => put(at, scalar.bits()),
        }
    }
}

/// `value` read as a `ty`: a struct's `bool` field held as its stored word ([`Layouts::load`])
/// is `true` when the word is not 0, as the GPU reads it (`word != 0u`).
pub(crate) fn stored_bool(value: Value, ty: Type) -> Value {
    match (ty, value) {
        (Type::Scalar(Scalar::Bool), Value::U32(word)) => Value::Bool(word != 0),
        (_, value) => value,
    }
}
