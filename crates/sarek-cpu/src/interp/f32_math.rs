//! The `f32` math functions of one and two `f32` arguments, each Rust's own `f32` method in
//! an `extern "C"` function: the interpreter computes them through these tables
//! ([`super::value::math`]), and the JIT's generated code calls the same functions directly
//! (`jit/expr.rs`), so both give the same bits by construction.

use crate::ir::MathFun;

/// `extern "C" fn(x: f32) -> f32 { x.$method() }` for each name.
macro_rules! unary {
    ($($name:ident),* $(,)?) => {
        $(
            extern "C" fn $name(x: f32) -> f32 {
                x.$name()
            }
        )*
    };
}

/// `extern "C" fn(x: f32, y: f32) -> f32 { x.$method(y) }` for each name.
macro_rules! binary {
    ($($name:ident),* $(,)?) => {
        $(
            extern "C" fn $name(x: f32, y: f32) -> f32 {
                x.$name(y)
            }
        )*
    };
}

unary!(
    abs, sqrt, sin, cos, tan, exp, ln, floor, ceil, trunc, round, log10, log2, cbrt, exp_m1, ln_1p,
    recip, to_degrees, to_radians, signum, tanh, asinh, acosh, atanh, asin, acos, atan, sinh, cosh,
    exp2, fract,
);
binary!(min, max, powf, hypot, copysign, rem_euclid, atan2);

/// `erf(x)/x` as a polynomial in `x²` on `[0, 1]` (a Chebyshev fit, 3.4e-11 from it), highest
/// power first.
// The digits the WGSL polyfill spells, which parse to the same `f32`s.
#[allow(clippy::excessive_precision)]
pub(crate) const ERF_SMALL: [f32; 8] = [
    -9.667_044_650_996_104e-6,
    0.000_112_659_588_921_815_16,
    -0.000_848_408_031_743_019_8,
    0.005_221_031_606_197_357,
    -0.026_865_430_176_258_087,
    0.112_837_821_245_193_48,
    -0.376_126_378_774_642_94,
    1.128_379_225_730_896,
];

/// `erfc(x)·exp(x²)` as a polynomial in `1/x − 0.625` for `x` in `[1, 4]` (a Chebyshev fit,
/// 5.7e-11 from it), highest power first.
// The digits the WGSL polyfill spells, which parse to the same `f32`s.
#[allow(clippy::excessive_precision)]
pub(crate) const ERF_LARGE: [f32; 12] = [
    0.028_486_298_397_183_42,
    -0.033_386_494_964_361_19,
    0.015_010_736_882_686_615,
    0.004_630_759_824_067_354,
    -0.025_376_008_823_513_985,
    0.043_220_721_185_207_37,
    -0.047_037_828_713_655_47,
    0.023_330_552_503_466_606,
    0.043_769_311_159_849_17,
    -0.172_394_767_403_602_6,
    0.382_283_747_196_197_5,
    0.305_952_996_015_548_7,
];

/// `p` at `t` by Horner's rule, one rounding per operation (as the WGSL polyfill computes it).
fn horner(p: &[f32], t: f32) -> f32 {
    p[1..].iter().fold(p[0], |r, &c| r * t + c)
}

/// The error function, computed as the GPU's `sarek_erf` polyfill computes it: `x·P(x²)`
/// below 1, `1 − exp(−x²)·Q(1/x)` up to 4, `±1` beyond (where `erf` rounds to 1 in `f32`).
/// Within 3 ULP of the exact value (2.4 measured; `tests::erf_is_within_3_ulp`).
pub(crate) extern "C" fn erf(x: f32) -> f32 {
    let a = x.abs();
    if a < 1.0 {
        // `x` carries the sign (and `-0.0` stays `-0.0`).
        return x * horner(&ERF_SMALL, a * a);
    }
    let r = if a < 4.0 {
        1.0 - (-(a * a)).exp() * horner(&ERF_LARGE, 1.0 / a - 0.625)
    } else if a.is_nan() {
        return x;
    } else {
        1.0
    };
    if x < 0.0 {
        -r
    } else {
        r
    }
}

/// `fun` on one `f32`, if it is an `f32 -> f32` function of one argument.
pub(crate) fn unary(fun: MathFun) -> Option<extern "C" fn(f32) -> f32> {
    use MathFun::*;
    Some(match fun {
        Abs => abs,
        Sqrt => sqrt,
        Sin => sin,
        Cos => cos,
        Tan => tan,
        Exp => exp,
        Ln => ln,
        Floor => floor,
        Ceil => ceil,
        Trunc => trunc,
        Round => round,
        Log10 => log10,
        Log2 => log2,
        Cbrt => cbrt,
        ExpM1 => exp_m1,
        Ln1p => ln_1p,
        Recip => recip,
        ToDegrees => to_degrees,
        ToRadians => to_radians,
        Signum => signum,
        Tanh => tanh,
        Asinh => asinh,
        Acosh => acosh,
        Atanh => atanh,
        Asin => asin,
        Acos => acos,
        Atan => atan,
        Sinh => sinh,
        Cosh => cosh,
        Exp2 => exp2,
        Fract => fract,
        Erf => erf,
        // Not functions of one `f32` alone (the integer, vector, packing and test functions,
        // and those of two or three operands).
        Min | Max | Powf | MulAdd | Dot | Cross | Length | LengthSquared | Normalize | Distance
        | Hypot | Copysign | RemEuclid | Clamp | Atan2 | CountOnes | LeadingZeros
        | TrailingZeros | Pow | Powi | IsNan | IsInfinite | IsFinite | IsSignNegative | ToBits
        | FromBits | DivCeil | DivEuclid | AbsDiff | SaturatingAdd | SaturatingSub
        | SaturatingMul | AddOverflows | SubOverflows | MulOverflows | RotateLeft | RotateRight
        | ReverseBits | SwapBytes | CountZeros | LeadingOnes | TrailingOnes | IsPowerOfTwo
        | NextPowerOfTwo | Ilog2 | UnsignedAbs | Isqrt | Pack4xU8 | Pack4xI8 | Unpack4xU8
        | Unpack4xI8 | Pack2x16Float | Unpack2x16Float => return None,
    })
}

/// `fun` on two `f32`s (`min` and `max` with Rust's meaning: the other operand when one is
/// NaN), if it is an `f32 -> f32` function of an `f32` receiver and one `f32` argument.
pub(crate) fn binary(fun: MathFun) -> Option<extern "C" fn(f32, f32) -> f32> {
    use MathFun::*;
    Some(match fun {
        Min => min,
        Max => max,
        Powf => powf,
        Hypot => hypot,
        Copysign => copysign,
        RemEuclid => rem_euclid,
        Atan2 => atan2,
        // Not `f32 -> f32` functions of two `f32`s.
        Abs | Sqrt | Sin | Cos | Tan | Exp | Ln | Floor | Ceil | Trunc | Round | MulAdd | Dot
        | Cross | Length | LengthSquared | Normalize | Distance | Log10 | Log2 | Cbrt | ExpM1
        | Ln1p | Recip | ToDegrees | ToRadians | Signum | Clamp | Tanh | Asinh | Acosh | Atanh
        | CountOnes | LeadingZeros | TrailingZeros | Pow | Asin | Acos | Atan | Sinh | Cosh
        | Exp2 | Powi | Fract | IsNan | IsInfinite | IsFinite | IsSignNegative | ToBits
        | FromBits | DivCeil | DivEuclid | AbsDiff | SaturatingAdd | SaturatingSub
        | SaturatingMul | AddOverflows | SubOverflows | MulOverflows | RotateLeft | RotateRight
        | ReverseBits | SwapBytes | CountZeros | LeadingOnes | TrailingOnes | IsPowerOfTwo
        | NextPowerOfTwo | Ilog2 | UnsignedAbs | Isqrt | Pack4xU8 | Pack4xI8 | Unpack4xU8
        | Unpack4xI8 | Pack2x16Float | Unpack2x16Float | Erf => return None,
    })
}

#[cfg(test)]
mod tests {
    /// `erf(x)` in `f64`: its Maclaurin series below 2.5, the continued fraction of `erfc`
    /// (Lentz's method) above, both far more accurate than an `f32` ULP.
    fn erf_f64(x: f64) -> f64 {
        let a = x.abs();
        let r = if a < 2.5 {
            let (mut term, mut sum, t) = (a, a, a * a);
            for n in 1..200 {
                term *= -t / n as f64;
                let add = term / (2 * n + 1) as f64;
                sum += add;
                if add.abs() < 1e-18 * sum.abs() {
                    break;
                }
            }
            sum * 2.0 / std::f64::consts::PI.sqrt()
        } else {
            // erfc(a) = exp(-a²)/√π · 1/(a + (1/2)/(a + 1/(a + (3/2)/(a + ..)))).
            let tiny = 1e-300;
            let (mut f, mut c, mut d) = (a, a, 0.0);
            for n in 1..500 {
                let k = n as f64 / 2.0;
                d = a + k * d;
                d = if d == 0.0 { tiny } else { 1.0 / d };
                c = a + k / c;
                if c == 0.0 {
                    c = tiny;
                }
                let step = c * d;
                f *= step;
                if (step - 1.0).abs() < 1e-16 {
                    break;
                }
            }
            1.0 - (-a * a).exp() / std::f64::consts::PI.sqrt() / f
        };
        r.copysign(x)
    }

    /// The distance of `got` from `exact` in units of the last place of `f32` at `exact`.
    fn ulps(got: f32, exact: f64) -> f64 {
        let ulp = if exact == 0.0 {
            f64::from(f32::from_bits(1))
        } else {
            let e = exact.abs().log2().floor() as i32;
            2f64.powi(e.max(-126) - 23)
        };
        (f64::from(got) - exact).abs() / ulp
    }

    #[test]
    fn the_reference_is_erf() {
        // Tabulated values (Abramowitz and Stegun, table 7.1).
        for (x, want) in [
            (0.5, 0.520_499_877_8),
            (1.0, 0.842_700_792_9),
            (2.0, 0.995_322_265_0),
            (3.0, 0.999_977_909_5),
        ] {
            assert!((erf_f64(x) - want).abs() < 1e-9, "{x}");
        }
        // The two methods agree where they meet.
        let near = |x: f64| 1.0 - (-x * x).exp();
        assert!((erf_f64(2.499_999_9) - erf_f64(2.500_000_1)).abs() < 1e-7 * near(2.5));
    }

    #[test]
    fn erf_is_within_3_ulp() {
        let mut worst = (0.0, 0.0f32);
        // Every 997th float from 1e-30 to past 4, both signs, and the edges.
        let mut bits = 1e-30f32.to_bits();
        let mut xs = vec![
            0.0,
            -0.0,
            1.0,
            -1.0,
            4.0,
            3.999_999_8,
            0.999_999_94,
            f32::MIN_POSITIVE,
        ];
        while bits < 4.5f32.to_bits() {
            xs.push(f32::from_bits(bits));
            xs.push(-f32::from_bits(bits));
            bits += 997;
        }
        for x in xs {
            let got = super::erf(x);
            let u = ulps(got, erf_f64(f64::from(x)));
            if u > worst.0 {
                worst = (u, x);
            }
        }
        assert!(worst.0 <= 3.0, "{} ULP at {}", worst.0, worst.1);
        assert_eq!(super::erf(-0.0).to_bits(), (-0.0f32).to_bits());
        assert_eq!(super::erf(f32::INFINITY), 1.0);
        assert_eq!(super::erf(f32::NEG_INFINITY), -1.0);
        assert!(super::erf(f32::NAN).is_nan());
    }
}
