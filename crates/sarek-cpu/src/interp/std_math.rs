//! The `std` methods of `f32` and the integers that the WGSL back end polyfills
//! (`sarek_codegen::wgsl::StdHelper`), computed with Rust's own `std`, so that the CPU backend is
//! Rust's result. Where Rust panics (a zero divisor, `ilog2(0)`, `isqrt` of a negative) the
//! result is the one the WGSL helpers define.

use crate::ir::MathFun;

use super::value::Value;

/// `fun` on scalar operands, if it is one of these methods.
pub(super) fn eval(fun: MathFun, a: &Value, b: &Value) -> Option<Value> {
    use MathFun::*;
    Some(match *a {
        // (`asin`, `sinh`, `exp2`, `fract` and the other `f32 -> f32` methods are in
        // `f32_math`, which the JIT calls too.)
        Value::F32(x) => {
            let n = b.as_u32() as i32;
            match fun {
                Powi => Value::F32(x.powi(n)),
                IsNan => Value::Bool(x.is_nan()),
                IsInfinite => Value::Bool(x.is_infinite()),
                IsFinite => Value::Bool(x.is_finite()),
                IsSignNegative => Value::Bool(x.is_sign_negative()),
                ToBits => Value::U32(x.to_bits()),
                _ => return None,
            }
        }
        Value::I32(x) => {
            let y = b.as_u32() as i32;
            let n = b.as_u32();
            match fun {
                Signum => Value::I32(x.signum()),
                DivEuclid => Value::I32(if y == 0 { x } else { x.wrapping_div_euclid(y) }),
                AbsDiff => Value::U32(x.abs_diff(y)),
                SaturatingAdd => Value::I32(x.saturating_add(y)),
                SaturatingSub => Value::I32(x.saturating_sub(y)),
                SaturatingMul => Value::I32(x.saturating_mul(y)),
                AddOverflows => Value::Bool(x.overflowing_add(y).1),
                SubOverflows => Value::Bool(x.overflowing_sub(y).1),
                MulOverflows => Value::Bool(x.overflowing_mul(y).1),
                RotateLeft => Value::I32(x.rotate_left(n)),
                RotateRight => Value::I32(x.rotate_right(n)),
                ReverseBits => Value::I32(x.reverse_bits()),
                SwapBytes => Value::I32(x.swap_bytes()),
                CountZeros => Value::U32(x.count_zeros()),
                LeadingOnes => Value::U32(x.leading_ones()),
                TrailingOnes => Value::U32(x.trailing_ones()),
                Ilog2 => Value::U32(x.checked_ilog2().unwrap_or(u32::MAX)),
                UnsignedAbs => Value::U32(x.unsigned_abs()),
                Isqrt => Value::I32(x.checked_isqrt().unwrap_or(-1)),
                _ => return None,
            }
        }
        Value::U32(x) => {
            let y = b.as_u32();
            match fun {
                FromBits => Value::F32(f32::from_bits(x)),
                DivCeil => Value::U32(if y == 0 { x } else { x.div_ceil(y) }),
                DivEuclid => Value::U32(x.checked_div_euclid(y).unwrap_or(x)),
                AbsDiff => Value::U32(x.abs_diff(y)),
                SaturatingAdd => Value::U32(x.saturating_add(y)),
                SaturatingSub => Value::U32(x.saturating_sub(y)),
                SaturatingMul => Value::U32(x.saturating_mul(y)),
                AddOverflows => Value::Bool(x.overflowing_add(y).1),
                SubOverflows => Value::Bool(x.overflowing_sub(y).1),
                MulOverflows => Value::Bool(x.overflowing_mul(y).1),
                RotateLeft => Value::U32(x.rotate_left(y)),
                RotateRight => Value::U32(x.rotate_right(y)),
                ReverseBits => Value::U32(x.reverse_bits()),
                SwapBytes => Value::U32(x.swap_bytes()),
                CountZeros => Value::U32(x.count_zeros()),
                LeadingOnes => Value::U32(x.leading_ones()),
                TrailingOnes => Value::U32(x.trailing_ones()),
                IsPowerOfTwo => Value::Bool(x.is_power_of_two()),
                NextPowerOfTwo => Value::U32(x.checked_next_power_of_two().unwrap_or(0)),
                Ilog2 => Value::U32(x.checked_ilog2().unwrap_or(u32::MAX)),
                Isqrt => Value::U32(x.isqrt()),
                _ => return None,
            }
        }
        _ => return None,
    })
}
