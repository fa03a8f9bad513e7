//! The Rust side of a subgroup operation: each subgroup's results from its active
//! invocations' slots, computed by the interpreter's [`collective`] (one meaning for both
//! engines), with a typed fast path for the common operations on a scalar (`f32`, `i32`,
//! `u32`, `bool`), computed on the words without allocating (tested against [`collective`]).

use super::{View, ARG_WORDS, RESULT_AT, SLOT_WORDS};
use crate::interp::subgroup::{collective, Member};
use crate::interp::value::Value;
use crate::ir::{Scalar, SubgroupOp, Type};

/// Runs `op` (arguments of types `args`) for every subgroup.
pub(super) fn run(op: SubgroupOp, args: &[Type], view: &mut View<'_>) {
    // One list of active invocations for every subgroup: no allocation per subgroup.
    let mut active = Vec::with_capacity(view.subgroup_size);
    for g in 0..view.subgroup_count() {
        view.active_in(g, &mut active);
        if active.is_empty() || fast(op, args, view, &active) {
            continue;
        }
        let values = collective(op, &members(view, args, &active));
        for (&i, v) in active.iter().zip(&values) {
            let at = i * SLOT_WORDS as usize + RESULT_AT as usize;
            encode(v, &mut view.area[at..at + ARG_WORDS as usize]);
        }
    }
}

/// The active invocations' arguments (of types `args`) as [`collective`] takes them.
fn members(view: &View<'_>, args: &[Type], active: &[usize]) -> Vec<Member> {
    active
        .iter()
        .map(|&i| Member {
            lane: (i % view.subgroup_size) as u32,
            args: args
                .iter()
                .enumerate()
                .map(|(a, ty)| decode(*ty, |w| view.arg(i, a as u32, w)))
                .collect(),
        })
        .collect()
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

/// A binary operator on the words of two scalars of one type.
type Combine = fn(u32, u32) -> u32;

/// The operator of a reduction or scan `op` on scalars of type `s`, as [`collective`]
/// computes it (`value::binary` and `value::math`: wrapping integers, Rust's `f32::min` and
/// `f32::max`, a `bool` as the word 0 or 1), and for a scan the bits of its identity. `None`
/// where the typed path leaves the operation to [`collective`].
fn combine(op: SubgroupOp, s: Scalar) -> Option<(Combine, u32)> {
    use Scalar::{Bool, F32, I32, U32};
    use SubgroupOp as O;
    fn f(w: u32) -> f32 {
        f32::from_bits(w)
    }
    let c: Combine = match (op, s) {
        (O::Add | O::InclusiveAdd | O::ExclusiveAdd, F32) => |a, b| (f(a) + f(b)).to_bits(),
        (O::Add | O::InclusiveAdd | O::ExclusiveAdd, I32 | U32) => u32::wrapping_add,
        (O::Mul | O::InclusiveMul | O::ExclusiveMul, F32) => |a, b| (f(a) * f(b)).to_bits(),
        (O::Mul | O::InclusiveMul | O::ExclusiveMul, I32 | U32) => u32::wrapping_mul,
        (O::Min, F32) => |a, b| f(a).min(f(b)).to_bits(),
        (O::Max, F32) => |a, b| f(a).max(f(b)).to_bits(),
        (O::Min, I32) => |a, b| (a as i32).min(b as i32) as u32,
        (O::Max, I32) => |a, b| (a as i32).max(b as i32) as u32,
        (O::Min, U32) => u32::min,
        (O::Max, U32) => u32::max,
        (O::And, I32 | U32 | Bool) | (O::All, Bool) => |a, b| a & b,
        (O::Or, I32 | U32 | Bool) | (O::Any, Bool) => |a, b| a | b,
        (O::Xor, I32 | U32 | Bool) => |a, b| a ^ b,
        _ => return None,
    };
    // The identity of a scan: 1 for `*` (1.0 in `f32`), else 0 (0.0 has the bits 0).
    let identity = match (op, s) {
        (O::InclusiveMul | O::ExclusiveMul, F32) => 1.0f32.to_bits(),
        (O::InclusiveMul | O::ExclusiveMul, _) => 1,
        _ => 0,
    };
    Some((c, identity))
}

/// The common subgroup operations on a scalar (`f32`, `i32`, `u32`, `bool`), computed on the
/// words without building [`Value`]s: reductions and scans in the same order as [`collective`]
/// (lane order from the first active lane, scans from the identity), `ballot`, `elect`,
/// `broadcast_first`, and `broadcast` and the shuffles, where a lane that is not active (or
/// does not exist) gives the zero bits. Tested against [`collective`]. Returns whether it
/// handled `op`.
fn fast(op: SubgroupOp, args: &[Type], view: &mut View<'_>, active: &[usize]) -> bool {
    use SubgroupOp as O;
    let slot = |i: usize| i * SLOT_WORDS as usize;
    let result = |i: usize| slot(i) + RESULT_AT as usize;
    if op == O::Elect {
        for (k, &i) in active.iter().enumerate() {
            view.area[result(i)] = u32::from(k == 0);
        }
        return true;
    }
    let (s, lanes) = match args {
        [Type::Scalar(s)] => (*s, false),
        [Type::Scalar(s), Type::Scalar(Scalar::U32 | Scalar::I32)] => (*s, true),
        _ => return false,
    };
    if !matches!(s, Scalar::F32 | Scalar::I32 | Scalar::U32 | Scalar::Bool) {
        return false;
    }
    // The gathers (`broadcast` and the shuffles) take a lane, delta or mask second.
    let shuffle = op.arity() == 2;
    if lanes != shuffle {
        return false;
    }
    // Argument 0 as `collective` sees it: a `bool` is true for any nonzero word.
    let bool_arg = s == Scalar::Bool;
    let value = move |area: &[u32], i: usize| {
        let w = area[slot(i)];
        if bool_arg {
            u32::from(w != 0)
        } else {
            w
        }
    };
    match op {
        O::Ballot => {
            if !bool_arg {
                return false;
            }
            let mut bits = [0u32; 4];
            for &i in active {
                let lane = i % view.subgroup_size;
                if value(view.area, i) != 0 && lane < 128 {
                    bits[lane / 32] |= 1 << (lane % 32);
                }
            }
            for &i in active {
                view.area[result(i)..result(i) + 4].copy_from_slice(&bits);
            }
        }
        O::BroadcastFirst => {
            let first = value(view.area, active[0]);
            for &i in active {
                view.area[result(i)] = first;
            }
        }
        _ if shuffle => {
            // Active lanes as a mask: subgroups are consecutive invocations from a multiple of
            // the size, so lane `l` of this one is invocation `base + l`.
            let size = view.subgroup_size;
            let base = active[0] - active[0] % size;
            let mut mask = 0u128;
            for &i in active {
                mask |= 1u128 << (i - base);
            }
            for &i in active {
                let lane = (i - base) as u32;
                let operand = view.area[slot(i) + ARG_WORDS as usize];
                let source = match op {
                    O::ShuffleXor => Some(lane ^ operand),
                    O::ShuffleUp => lane.checked_sub(operand),
                    O::ShuffleDown => lane.checked_add(operand),
                    _ => Some(operand),
                };
                view.area[result(i)] = match source {
                    Some(l) if l < 128 && mask >> l & 1 == 1 => value(view.area, base + l as usize),
                    _ => 0,
                };
            }
        }
        _ => {
            let Some((f, identity)) = combine(op, s) else {
                return false;
            };
            match op {
                O::InclusiveAdd | O::InclusiveMul | O::ExclusiveAdd | O::ExclusiveMul => {
                    let inclusive = matches!(op, O::InclusiveAdd | O::InclusiveMul);
                    let mut acc = identity;
                    for &i in active {
                        let next = f(acc, value(view.area, i));
                        view.area[result(i)] = if inclusive { next } else { acc };
                        acc = next;
                    }
                }
                _ => {
                    let first = value(view.area, active[0]);
                    let t = active[1..]
                        .iter()
                        .fold(first, |acc, &i| f(acc, value(view.area, i)));
                    for &i in active {
                        view.area[result(i)] = t;
                    }
                }
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether the typed path must take `op` on scalars of type `s`.
    fn taken(op: SubgroupOp, s: Scalar) -> bool {
        use SubgroupOp as O;
        match op {
            O::Elect
            | O::BroadcastFirst
            | O::Broadcast
            | O::Shuffle
            | O::ShuffleXor
            | O::ShuffleUp
            | O::ShuffleDown => true,
            O::All | O::Any | O::Ballot => s == Scalar::Bool,
            O::And | O::Or | O::Xor => s != Scalar::F32,
            _ => s != Scalar::Bool,
        }
    }

    /// The fast path gives `collective`'s bits for every operation it handles, on partial
    /// subgroups with inactive lanes, floats with NaN, -0.0 and infinities, and shuffles from
    /// lanes that are inactive, out of the subgroup or out of range.
    #[test]
    fn fast_path_matches_the_interpreter() {
        let floats = [
            1.5f32,
            -0.1,
            1e8,
            f32::NAN,
            -1e8,
            -0.0,
            0.0,
            f32::INFINITY,
            f32::MIN_POSITIVE,
            f32::NEG_INFINITY,
            3.25,
            -f32::NAN,
            0.3,
            -0.0,
            2.0,
            f32::MAX,
            -7.5,
            0.0,
            1.0,
            -1.0,
        ];
        let operands = [0u32, 1, 2, 3, 5, 7, 8, 31, 200, u32::MAX, 0x8000_0000, 4];
        // Inactive lanes (returned invocations) in several patterns, the first lane included.
        let patterns: [&dyn Fn(usize) -> bool; 4] =
            [&|_| false, &|i| i % 5 == 1, &|i| i % 3 == 0, &|i| {
                i % 7 != 2
            }];
        let mut checked = 0;
        for size in [4usize, 8] {
            // 20 invocations: the last subgroup partial.
            let n = floats.len();
            for s in [Scalar::F32, Scalar::I32, Scalar::U32, Scalar::Bool] {
                for (p, pattern) in patterns.iter().enumerate() {
                    for op in SubgroupOp::ALL.map(|e| e.0) {
                        let bits: Vec<u32> = floats
                            .iter()
                            .enumerate()
                            .map(|(i, f)| match s {
                                Scalar::F32 => f.to_bits(),
                                // Words other than 0 and 1 are true too.
                                Scalar::Bool => [0, 1, 0, 2, 1, 1, 0, 7][(i * 3 + p) % 8],
                                Scalar::I32 => [i32::MIN as u32, u32::MAX, 0, 1, 5, 0x7FFF_FFFF]
                                    [i % 6]
                                    .wrapping_add(i as u32 * 3),
                                _ => (i as u32).wrapping_mul(0x9E37_79B9) >> (i % 4),
                            })
                            .collect();
                        let shuffle = op.arity() == 2;
                        let operand = |i: usize| {
                            operands[(i * 7 + p) % operands.len()]
                                % (if op == SubgroupOp::Broadcast {
                                    16
                                } else {
                                    u32::MAX
                                })
                        };
                        let mut area = vec![0xDEAD_BEEFu32; n * SLOT_WORDS as usize];
                        for (i, b) in bits.iter().enumerate() {
                            area[i * SLOT_WORDS as usize] = *b;
                            area[i * SLOT_WORDS as usize + ARG_WORDS as usize] = operand(i);
                        }
                        let returned: Vec<u8> = (0..n).map(|i| u8::from(pattern(i))).collect();
                        let mut matrices = super::super::Matrices::default();
                        let mut shared = [];
                        let mut view = View {
                            subgroup_size: size,
                            area: &mut area,
                            returned: &returned,
                            shared: &mut shared,
                            buffers: Vec::new(),
                            lens: &[],
                            matrices: &mut matrices,
                        };
                        let args: Vec<Type> = match op {
                            SubgroupOp::Elect => vec![],
                            _ if shuffle => vec![Type::Scalar(s), Type::Scalar(Scalar::U32)],
                            _ => vec![Type::Scalar(s)],
                        };
                        for (_, active) in view.subgroups() {
                            let handled = fast(op, &args, &mut view, &active);
                            assert_eq!(handled, taken(op, s), "{op:?} on {s:?}");
                            if !handled {
                                continue;
                            }
                            let want: Vec<[u32; 4]> =
                                collective(op, &members(&view, &args, &active))
                                    .iter()
                                    .map(|v| {
                                        let mut out = [0u32; 4];
                                        encode(v, &mut out);
                                        out
                                    })
                                    .collect();
                            let got: Vec<[u32; 4]> = active
                                .iter()
                                .map(|&i| {
                                    let at = i * SLOT_WORDS as usize + RESULT_AT as usize;
                                    let mut out = [0u32; 4];
                                    let words = if op == SubgroupOp::Ballot { 4 } else { 1 };
                                    out[..words].copy_from_slice(&view.area[at..at + words]);
                                    out
                                })
                                .collect();
                            assert_eq!(
                                got, want,
                                "{op:?} on {s:?}, subgroup size {size}, pattern {p}, lanes {active:?}"
                            );
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 500, "{checked}");
    }
}
