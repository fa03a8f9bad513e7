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
        _ => return None,
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
        _ => return None,
    })
}
