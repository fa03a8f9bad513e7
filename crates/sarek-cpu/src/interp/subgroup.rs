//! Subgroup operations, emulated exactly. A workgroup's invocations, in
//! `local_invocation_index` order, form subgroups of [`super::Launch::subgroup_size`]
//! consecutive invocations (the last one partial when the size does not divide the workgroup),
//! and invocation `i` is lane `i % size`. Since the interpreter runs a workgroup in lockstep,
//! a subgroup operation is a collective point: every active invocation's arguments are
//! evaluated first, then each subgroup's results are computed from them together.
//!
//! Where WGSL leaves a result indeterminate (a shuffle from a lane that does not exist or is
//! inactive), the CPU backend gives the zero of the type.

use super::value::{self, Value};
use crate::ir::{BinaryOp, MathFun, Scalar, SubgroupOp};

/// The subgroup size of the CPU backend when nothing else is asked for: NVIDIA's (32), the
/// most common on discrete GPUs. `SAREK_CPU_SUBGROUP_SIZE` or the runtime's
/// `Device::set_subgroup_size` choose another (a power of two from 4 to 128, as WebGPU's
/// subgroup sizes are).
pub const DEFAULT_SUBGROUP_SIZE: u32 = 32;

/// Whether `size` is a subgroup size WebGPU allows: a power of two from 4 to 128.
pub fn valid_subgroup_size(size: u32) -> bool {
    size.is_power_of_two() && (4..=128).contains(&size)
}

/// One active lane of a subgroup: its id and its arguments.
pub(crate) struct Member {
    pub(crate) lane: u32,
    pub(crate) args: Vec<Value>,
}

/// The results of `op` for the active `members` of one subgroup (sorted by lane), in order.
pub(crate) fn collective(op: SubgroupOp, members: &[Member]) -> Vec<Value> {
    let values: Vec<&Value> = members
        .iter()
        .map(|m| m.args.first().unwrap_or(&Value::Bool(false)))
        .collect();
    let Some(first) = values.first() else {
        return Vec::new();
    };
    let all = |f: &dyn Fn(&Value, &Value) -> Value| {
        let total = values[1..]
            .iter()
            .fold((*first).clone(), |acc, v| f(&acc, v));
        vec![total; members.len()]
    };
    let binary = |op: BinaryOp| move |a: &Value, b: &Value| value::binary(op, a, b);
    let math = |fun: MathFun| move |a: &Value, b: &Value| value::math(fun, &[a.clone(), b.clone()]);
    let scan = |op: BinaryOp, inclusive: bool| {
        let mut acc = identity(op, first);
        let mut out = Vec::with_capacity(values.len());
        for v in &values {
            let next = value::binary(op, &acc, v);
            out.push(if inclusive { next.clone() } else { acc });
            acc = next;
        }
        out
    };
    // The value of lane `source`, or zero when no active lane has that id.
    let from = |source: Option<u32>| {
        source
            .and_then(|s| members.iter().position(|m| m.lane == s))
            .map_or_else(|| zero(first), |i| values[i].clone())
    };
    let operand = |m: &Member| m.args.get(1).map_or(0, Value::as_u32);
    match op {
        SubgroupOp::Add => all(&binary(BinaryOp::Add)),
        SubgroupOp::Mul => all(&binary(BinaryOp::Mul)),
        SubgroupOp::Min => all(&math(MathFun::Min)),
        SubgroupOp::Max => all(&math(MathFun::Max)),
        SubgroupOp::And => all(&binary(BinaryOp::BitAnd)),
        SubgroupOp::Or => all(&binary(BinaryOp::BitOr)),
        SubgroupOp::Xor => all(&binary(BinaryOp::BitXor)),
        SubgroupOp::All => all(&binary(BinaryOp::BitAnd)),
        SubgroupOp::Any => all(&binary(BinaryOp::BitOr)),
        SubgroupOp::ExclusiveAdd => scan(BinaryOp::Add, false),
        SubgroupOp::ExclusiveMul => scan(BinaryOp::Mul, false),
        SubgroupOp::InclusiveAdd => scan(BinaryOp::Add, true),
        SubgroupOp::InclusiveMul => scan(BinaryOp::Mul, true),
        SubgroupOp::Ballot => {
            let mut bits = [0u32; 4];
            for (m, v) in members.iter().zip(&values) {
                if v.is_true() && m.lane < 128 {
                    bits[(m.lane / 32) as usize] |= 1 << (m.lane % 32);
                }
            }
            vec![Value::Vector(Scalar::U32, 4, bits); members.len()]
        }
        SubgroupOp::BroadcastFirst => vec![(*first).clone(); members.len()],
        SubgroupOp::Elect => (0..members.len()).map(|i| Value::Bool(i == 0)).collect(),
        SubgroupOp::Broadcast | SubgroupOp::Shuffle => {
            members.iter().map(|m| from(Some(operand(m)))).collect()
        }
        SubgroupOp::ShuffleXor => members
            .iter()
            .map(|m| from(Some(m.lane ^ operand(m))))
            .collect(),
        SubgroupOp::ShuffleUp => members
            .iter()
            .map(|m| from(m.lane.checked_sub(operand(m))))
            .collect(),
        SubgroupOp::ShuffleDown => members
            .iter()
            .map(|m| from(m.lane.checked_add(operand(m))))
            .collect(),
    }
}

/// The zero of a scalar value's type.
fn zero(like: &Value) -> Value {
    match like {
        Value::F32(_) => Value::F32(0.0),
        Value::F16(_) => Value::F16(half::f16::ZERO),
        Value::I32(_) => Value::I32(0),
        Value::Bool(_) => Value::Bool(false),
        // Every component zero (the zero bits of each scalar type).
        Value::Vector(s, n, _) => Value::Vector(*s, *n, [0; 4]),
        _ => Value::U32(0),
    }
}

/// The identity of a scan's operator (0 for `+`, 1 for `*`) in a value's type.
fn identity(op: BinaryOp, like: &Value) -> Value {
    let one = op == BinaryOp::Mul;
    match like {
        Value::F32(_) => Value::F32(if one { 1.0 } else { 0.0 }),
        Value::F16(_) => Value::F16(if one { half::f16::ONE } else { half::f16::ZERO }),
        Value::I32(_) => Value::I32(i32::from(one)),
        Value::Vector(s, n, _) => {
            let each = identity(op, &Value::from_bits(*s, 0));
            Value::vector(*s, (0..*n).map(|_| each.clone()))
        }
        _ => Value::U32(u32::from(one)),
    }
}
