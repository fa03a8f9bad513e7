//! WGSL's packing builtins (`pack4xU8`, `unpack4xI8`, `pack2x16float`, ..) on the CPU
//! backend, with the GPU's meaning: bytes and halves little-end first (component 0 in the low
//! bits); a half rounds to nearest, ties to even.

use crate::ir::{MathFun, Scalar};

use super::value::Value;

/// `fun` on its one operand.
pub(crate) fn eval(fun: MathFun, a: &Value) -> Value {
    let word = a.bits();
    let bytes = word.to_le_bytes();
    match fun {
        MathFun::Pack4xU8 | MathFun::Pack4xI8 => {
            let b: [u8; 4] = std::array::from_fn(|i| a.component(i).bits() as u8);
            Value::U32(u32::from_le_bytes(b))
        }
        MathFun::Unpack4xU8 => Value::vector(Scalar::U32, bytes.map(|b| Value::U32(u32::from(b)))),
        MathFun::Unpack4xI8 => {
            Value::vector(Scalar::I32, bytes.map(|b| Value::I32(i32::from(b as i8))))
        }
        MathFun::Pack2x16Float => {
            let half = |i: usize| match a.component(i) {
                Value::F32(x) => u32::from(f32_to_f16(x)),
                _ => 0,
            };
            Value::U32(half(0) | half(1) << 16)
        }
        MathFun::Unpack2x16Float => Value::vector(
            Scalar::F32,
            [word as u16, (word >> 16) as u16].map(|h| Value::F32(f16_to_f32(h))),
        ),
        _ => a.clone(),
    }
}

/// The IEEE half nearest to `x` (ties to even); infinity past the largest half, a quiet NaN
/// for a NaN.
pub fn f32_to_f16(x: f32) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let exp = ((b >> 23) & 0xff) as i32;
    let man = b & 0x7f_ffff;
    if exp == 0xff {
        let nan = if man != 0 {
            0x200 | (man >> 13) as u16
        } else {
            0
        };
        return sign | 0x7c00 | nan;
    }
    // The value's exponent rebased for a half.
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    let round = |kept: u32, dropped: u32, shift: u32| {
        let halfway = 1u32 << (shift - 1);
        if dropped > halfway || (dropped == halfway && kept & 1 == 1) {
            kept + 1
        } else {
            kept
        }
    };
    if e <= 0 {
        // A half subnormal (or zero): units of 2^-24.
        if e < -10 {
            return sign;
        }
        let m = man | 0x80_0000;
        let shift = (14 - e) as u32;
        let kept = m >> shift;
        return sign | round(kept, m & ((1 << shift) - 1), shift) as u16;
    }
    let kept = ((e as u32) << 10) | (man >> 13);
    // A carry out of the mantissa moves to the next exponent, up to infinity: correct.
    sign | round(kept, man & 0x1fff, 13) as u16
}

/// The `f32` equal to the half `h`.
pub fn f16_to_f32(h: u16) -> f32 {
    let sign = u32::from(h & 0x8000) << 16;
    let exp = u32::from((h >> 10) & 0x1f);
    let man = u32::from(h & 0x3ff);
    if exp == 0 {
        let v = man as f32 / 16_777_216.0;
        return if sign != 0 { -v } else { v };
    }
    if exp == 0x1f {
        return f32::from_bits(sign | 0x7f80_0000 | (man << 13));
    }
    f32::from_bits(sign | ((exp + 112) << 23) | (man << 13))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves_round_trip_and_round_to_even() {
        for h in 0..=u16::MAX {
            let x = f16_to_f32(h);
            if !x.is_nan() {
                assert_eq!(f32_to_f16(x), h, "{h:#x}");
            }
        }
        assert_eq!(f32_to_f16(1.0), 0x3c00);
        assert_eq!(f32_to_f16(65520.0), 0x7c00);
        assert_eq!(f32_to_f16(65504.0), 0x7bff);
        // 1 + 2^-11 is halfway between 1 and the next half: to even (1).
        assert_eq!(f32_to_f16(1.0 + 1.0 / 2048.0), 0x3c00);
        assert_eq!(f32_to_f16(1.0 + 3.0 / 2048.0), 0x3c02);
        assert_eq!(f32_to_f16(2f32.powi(-25)), 0);
        assert_eq!(f32_to_f16(2f32.powi(-24) * 1.5), 2);
    }
}
