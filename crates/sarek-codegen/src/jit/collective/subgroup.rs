//! The Rust side of a subgroup operation: each subgroup's results from its active
//! invocations' slots, computed by the interpreter's [`collective`] (one meaning for both
//! engines), with a typed fast path for the most common case, a scalar reduction or scan by
//! `+` (tested against [`collective`]).

use super::{View, ARG_WORDS, RESULT_AT, SLOT_WORDS};
use crate::interp::subgroup::{collective, Member};
use crate::interp::value::Value;
use crate::ir::{Scalar, SubgroupOp, Type};

/// Runs `op` (arguments of types `args`) for every subgroup.
pub(super) fn run(op: SubgroupOp, args: &[Type], view: &mut View<'_>) {
    for (_, active) in view.subgroups() {
        if fast_add(op, args, view, &active) {
            continue;
        }
        let members: Vec<Member> = active
            .iter()
            .map(|&i| Member {
                lane: (i % view.subgroup_size) as u32,
                args: args
                    .iter()
                    .enumerate()
                    .map(|(a, ty)| decode(*ty, |w| view.arg(i, a as u32, w)))
                    .collect(),
            })
            .collect();
        let values = collective(op, &members);
        for (&i, v) in active.iter().zip(&values) {
            let at = i * SLOT_WORDS as usize + RESULT_AT as usize;
            encode(v, &mut view.area[at..at + ARG_WORDS as usize]);
        }
    }
}

/// A value of type `ty` from its words in memory (`word(i)`), as the JIT stores it.
fn decode(ty: Type, word: impl Fn(u32) -> u32) -> Value {
    match ty {
        Type::Vector(n, s) => {
            let mut bits = [0u32; 4];
            for (i, b) in bits.iter_mut().enumerate().take(usize::from(n)) {
                // Halves lie two to a word, the first in the low half (the JIT's 2-byte
                // stores on a little-endian host).
                *b = if s == Scalar::F16 {
                    (word(i as u32 / 2) >> (16 * (i % 2))) & 0xFFFF
                } else {
                    word(i as u32)
                };
            }
            Value::Vector(s, n, bits)
        }
        Type::Scalar(s) => Value::from_bits(s, word(0)),
        _ => Value::U32(word(0)),
    }
}

/// Writes `v` as the JIT stores it in memory (a `bool` as the word 0 or 1).
fn encode(v: &Value, out: &mut [u32]) {
    match v {
        Value::Vector(Scalar::F16, n, bits) => {
            for (i, b) in bits.iter().enumerate().take(usize::from(*n)) {
                let shift = 16 * (i % 2);
                let w = &mut out[i / 2];
                *w = (*w & !(0xFFFF << shift)) | ((b & 0xFFFF) << shift);
            }
        }
        Value::Vector(_, n, bits) => {
            for (o, b) in out.iter_mut().zip(bits).take(usize::from(*n)) {
                *o = *b;
            }
        }
        other => out[0] = other.bits(),
    }
}

/// `subgroupAdd`, `subgroupInclusiveAdd` and `subgroupExclusiveAdd` of a scalar, computed
/// on the words: the same sums in the same order as [`collective`] (wrapping for integers,
/// lane order for floats). Returns whether it handled `op`.
fn fast_add(op: SubgroupOp, args: &[Type], view: &mut View<'_>, active: &[usize]) -> bool {
    let [Type::Scalar(s @ (Scalar::F32 | Scalar::I32 | Scalar::U32))] = args else {
        return false;
    };
    if !matches!(
        op,
        SubgroupOp::Add | SubgroupOp::InclusiveAdd | SubgroupOp::ExclusiveAdd
    ) {
        return false;
    }
    let add = |a: u32, b: u32| match s {
        Scalar::F32 => (f32::from_bits(a) + f32::from_bits(b)).to_bits(),
        _ => a.wrapping_add(b),
    };
    let slot = |i: usize| i * SLOT_WORDS as usize;
    let total = |view: &View<'_>| {
        let first = view.area[slot(active[0])];
        active[1..]
            .iter()
            .fold(first, |acc, &i| add(acc, view.area[slot(i)]))
    };
    match op {
        SubgroupOp::Add => {
            let t = total(view);
            for &i in active {
                view.area[slot(i) + RESULT_AT as usize] = t;
            }
        }
        _ => {
            // The identity of `+` in the type: 0.0 and 0 have the same bits.
            let mut acc = 0u32;
            for &i in active {
                let next = add(acc, view.area[slot(i)]);
                view.area[slot(i) + RESULT_AT as usize] = if op == SubgroupOp::InclusiveAdd {
                    next
                } else {
                    acc
                };
                acc = next;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fast path gives `collective`'s bits for every sum it handles, partial subgroups
    /// and inactive lanes included.
    #[test]
    fn fast_add_matches_the_interpreter() {
        let floats = [1.5f32, -0.1, 1e8, 3.25, -1e8, 0.3, f32::MIN_POSITIVE, -0.0];
        for s in [Scalar::F32, Scalar::I32, Scalar::U32] {
            for op in [
                SubgroupOp::Add,
                SubgroupOp::InclusiveAdd,
                SubgroupOp::ExclusiveAdd,
            ] {
                let n = floats.len();
                let mut area = vec![0u32; n * SLOT_WORDS as usize];
                let bits: Vec<u32> = floats
                    .iter()
                    .enumerate()
                    .map(|(i, f)| match s {
                        Scalar::F32 => f.to_bits(),
                        _ => (i as u32).wrapping_mul(0x9E37_79B9),
                    })
                    .collect();
                for (i, b) in bits.iter().enumerate() {
                    area[i * SLOT_WORDS as usize] = *b;
                }
                let returned = [0, 1, 0, 0, 0, 0, 1, 0];
                let mut matrices = super::super::Matrices::default();
                let mut shared = [];
                let mut view = View {
                    subgroup_size: 4,
                    area: &mut area,
                    returned: &returned,
                    shared: &mut shared,
                    buffers: Vec::new(),
                    lens: &[],
                    matrices: &mut matrices,
                };
                let mut fast = Vec::new();
                for (_, active) in view.subgroups() {
                    assert!(fast_add(op, &[Type::Scalar(s)], &mut view, &active));
                    let members: Vec<Member> = active
                        .iter()
                        .map(|&i| Member {
                            lane: (i % 4) as u32,
                            args: vec![Value::from_bits(s, bits[i])],
                        })
                        .collect();
                    let want: Vec<u32> = collective(op, &members).iter().map(Value::bits).collect();
                    let got: Vec<u32> = active
                        .iter()
                        .map(|&i| view.area[i * SLOT_WORDS as usize + RESULT_AT as usize])
                        .collect();
                    assert_eq!(got, want, "{op:?} on {s:?}");
                    fast.push(got);
                }
                assert_eq!(fast.len(), 2);
            }
        }
    }
}
