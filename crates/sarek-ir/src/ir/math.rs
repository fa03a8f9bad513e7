//! Math functions: the methods of `f32`, the integer types and vectors that the IR keeps as
//! one operation, each with Rust's meaning (the back ends supply it where WGSL differs). Their
//! names, types, WGSL spellings and docs are the table of [`super::intrinsics`].

/// Math functions with Rust's meaning (method names of `f32` and the integer types).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum MathFun {
    /// `abs` (f32, i32; `i32::MIN.abs()` wraps)
    Abs,
    /// `min`
    Min,
    /// `max`
    Max,
    /// `sqrt`
    Sqrt,
    /// `sin`
    Sin,
    /// `cos`
    Cos,
    /// `tan`
    Tan,
    /// `exp`
    Exp,
    /// `ln`
    Ln,
    /// `powf`
    Powf,
    /// `floor`
    Floor,
    /// `ceil`
    Ceil,
    /// `trunc`
    Trunc,
    /// `round`: half away from zero, like Rust (WGSL's `round` is half to even)
    Round,
    /// `mul_add(a, b)`: fused `self * a + b`
    MulAdd,
    /// `a.dot(b)` on vectors
    Dot,
    /// `a.cross(b)` on 3-vectors
    Cross,
    /// `v.length()`
    Length,
    /// `v.length_squared()`
    LengthSquared,
    /// `v.normalize()`
    Normalize,
    /// `a.distance(b)`
    Distance,
    /// `log10` (polyfilled)
    Log10,
    /// `log2`
    Log2,
    /// `cbrt` (polyfilled)
    Cbrt,
    /// `hypot` (polyfilled)
    Hypot,
    /// `exp_m1` (polyfilled)
    ExpM1,
    /// `ln_1p` (polyfilled)
    Ln1p,
    /// `copysign`
    Copysign,
    /// `recip`
    Recip,
    /// `to_degrees`
    ToDegrees,
    /// `to_radians`
    ToRadians,
    /// `signum` (`±1` from the sign bit, NaN for NaN)
    Signum,
    /// `rem_euclid` on `f32`, `i32`, `u32`
    RemEuclid,
    /// `clamp(min, max)` on `f32`, `i32`, `u32`
    Clamp,
    /// `y.atan2(x)`
    Atan2,
    /// `tanh` (polyfilled)
    Tanh,
    /// `asinh` (polyfilled)
    Asinh,
    /// `acosh` (polyfilled)
    Acosh,
    /// `atanh` (polyfilled)
    Atanh,
    /// `count_ones` (a `u32`)
    CountOnes,
    /// `leading_zeros` (a `u32`)
    LeadingZeros,
    /// `trailing_zeros` (a `u32`)
    TrailingZeros,
    /// `pow(exp: u32)` on integers, wrapping
    Pow,
    /// `asin` (from `atan2`)
    Asin,
    /// `acos` (from `atan2`)
    Acos,
    /// `atan` (from `atan2`)
    Atan,
    /// `sinh` (from `exp_m1` and `exp`)
    Sinh,
    /// `cosh` (from `exp_m1` and `exp`)
    Cosh,
    /// `exp2`
    Exp2,
    /// `powi(n: i32)`: binary powering, as compiler-rt's `__powisf2` that Rust calls
    Powi,
    /// `fract`: `x - x.trunc()`
    Fract,
    /// `is_nan` (a `bool`, on the bits)
    IsNan,
    /// `is_infinite` (a `bool`, on the bits)
    IsInfinite,
    /// `is_finite` (a `bool`, on the bits)
    IsFinite,
    /// `is_sign_negative` (a `bool`, the sign bit)
    IsSignNegative,
    /// `to_bits` (a `u32`)
    ToBits,
    /// `f32::from_bits(u32)`
    FromBits,
    /// `div_ceil` on `u32`; a zero divisor gives the dividend, as `/`
    DivCeil,
    /// `div_euclid`; a zero divisor gives the dividend, `i32::MIN.div_euclid(-1)` wraps
    DivEuclid,
    /// `abs_diff` (a `u32`)
    AbsDiff,
    /// `saturating_add`
    SaturatingAdd,
    /// `saturating_sub`
    SaturatingSub,
    /// `saturating_mul`
    SaturatingMul,
    /// Whether `a + b` overflows (the flag of `overflowing_add`)
    AddOverflows,
    /// Whether `a - b` overflows (the flag of `overflowing_sub`)
    SubOverflows,
    /// Whether `a * b` overflows (the flag of `overflowing_mul`)
    MulOverflows,
    /// `rotate_left(n: u32)`
    RotateLeft,
    /// `rotate_right(n: u32)`
    RotateRight,
    /// `reverse_bits`
    ReverseBits,
    /// `swap_bytes`
    SwapBytes,
    /// `count_zeros` (a `u32`)
    CountZeros,
    /// `leading_ones` (a `u32`)
    LeadingOnes,
    /// `trailing_ones` (a `u32`)
    TrailingOnes,
    /// `is_power_of_two` on `u32` (a `bool`)
    IsPowerOfTwo,
    /// `next_power_of_two` on `u32`; 0 where it overflows (Rust's release-mode result)
    NextPowerOfTwo,
    /// `ilog2` (a `u32`); `u32::MAX` for zero and negative values, where Rust panics
    Ilog2,
    /// `unsigned_abs` on `i32` (a `u32`)
    UnsignedAbs,
    /// `isqrt`; `-1` for a negative `i32`, where Rust panics
    Isqrt,
    /// `pack4x_u8(UVec4) -> u32`: the low byte of each component, component 0 lowest
    Pack4xU8,
    /// `pack4x_i8(IVec4) -> u32`: the low byte of each component
    Pack4xI8,
    /// `unpack4x_u8(u32) -> UVec4`: each byte zero-extended
    Unpack4xU8,
    /// `unpack4x_i8(u32) -> IVec4`: each byte sign-extended
    Unpack4xI8,
    /// `pack2x16_float(Vec2) -> u32`: each component as an IEEE half, component 0 low
    Pack2x16Float,
    /// `unpack2x16_float(u32) -> Vec2`
    Unpack2x16Float,
    /// `erf`, the error function (polyfilled: Rust's `f32::erf` is not stable, kernels call
    /// it through `sarek::gpu::Erf`)
    Erf,
}

impl MathFun {
    /// Number of arguments, counting the receiver ([`super::Intrinsic::arity`]).
    pub fn arity(self) -> usize {
        self.intrinsic().arity
    }
}
