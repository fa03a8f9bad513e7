//! WGSL functions the back end emits where a WGSL builtin does not mean what Rust means.

use super::polyfills;
use super::std_helpers::StdHelper;

/// A helper function, emitted once per module when used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Helper {
    /// `f32 % f32`: C's `fmod`, exact. WGSL's `%` is `x - y * trunc(x / y)`, which loses
    /// every digit once `x / y` exceeds 2^24.
    Fmod,
    /// `f32::round`: half away from zero (WGSL rounds half to even).
    Round,
    /// `f32 as i32`: saturating, NaN to 0 (WGSL leaves out-of-range conversions undefined).
    F32ToI32,
    /// `f32 as u32`: saturating, NaN to 0.
    F32ToU32,
    /// A float from its bits at run time: WGSL forbids non-finite constant expressions, and a
    /// user function call is never one.
    FromBits,
    /// The identity on `f32`, hiding a value from WGSL's constant evaluation: naga refuses a
    /// constant expression that divides by zero or overflows, where Rust and WGSL's run time
    /// give a defined result.
    OpaqueF32,
    /// The identity on `i32` (see [`Helper::OpaqueF32`]).
    OpaqueI32,
    /// The identity on `u32` (see [`Helper::OpaqueF32`]).
    OpaqueU32,
    /// `f32::log10`
    Log10,
    /// `f32::cbrt`
    Cbrt,
    /// `f32::hypot`
    Hypot,
    /// `f32::exp_m1`
    ExpM1,
    /// `f32::ln_1p`
    Ln1p,
    /// `f32::copysign`
    Copysign,
    /// `f32::signum`
    Signum,
    /// `f32::rem_euclid`
    RemEuclidF32,
    /// `i32::rem_euclid`
    RemEuclidI32,
    /// `f32::clamp`
    ClampF32,
    /// `i32::pow`
    PowI32,
    /// `u32::pow`
    PowU32,
    /// `f32::tanh`
    Tanh,
    /// `f32::asinh`
    Asinh,
    /// `f32::acosh`
    Acosh,
    /// `f32::atanh`
    Atanh,
    /// `f32::log2`
    Log2,
    /// `ln(1 + x)` near 0, for the logarithms
    Ln1pNear0,
    /// `f32::atan2`
    Atan2,
    /// `i32 / i32` with WGSL's defined results (`x / 0 == x`, `i32::MIN / -1 == i32::MIN`),
    /// which naga's GLSL back end does not give: the divisor is made safe first.
    DivI32,
    /// `i32 % i32` with WGSL's defined results (`x % 0 == 0`, `i32::MIN % -1 == 0`).
    RemI32,
    /// `u32 / u32` with `x / 0 == x`.
    DivU32,
    /// `u32 % u32` with `x % 0 == 0`.
    RemU32,
    /// `f32 / f32` refined towards the correctly rounded quotient, for the polyfills.
    DivRefined,
    /// One of the `std` methods of `std_helpers.rs`.
    Std(StdHelper),
    /// The identity on `f16` (see [`Helper::OpaqueF32`]).
    OpaqueF16,
    /// An `f16` at run time from the bits of the `f32` of the same value, for infinities and
    /// NaN, which WGSL has no `f16` literal for (see [`Helper::FromBits`]). Through `f32`:
    /// naga 30 neither bit-casts to `vec2<f16>` nor has `unpack2x16float` without a
    /// capability of its own.
    F16FromBits,
    /// `f16 % f16`: [`Helper::Fmod`] in `f32`, exact, rounded once. One call, so that a chain
    /// of remainders nests one level per operator in WGSL (naga's parser limits nesting).
    FmodF16,
    /// `f32::erf` (WGSL has no error function).
    Erf,
    /// The identity on `i64` (see [`Helper::OpaqueF32`]).
    OpaqueI64,
    /// The identity on `u64` (see [`Helper::OpaqueF32`]).
    OpaqueU64,
    /// `i64 / i64` with WGSL's defined results (see [`Helper::DivI32`]).
    DivI64,
    /// `i64 % i64` with WGSL's defined results (see [`Helper::RemI32`]).
    RemI64,
    /// `u64 / u64` with `x / 0 == x`.
    DivU64,
    /// `u64 % u64` with `x % 0 == 0`.
    RemU64,
    /// `f32 as i64`: saturating, NaN to 0.
    F32ToI64,
    /// `f32 as u64`: saturating, NaN to 0.
    F32ToU64,
}

impl Helper {
    /// The WGSL source of the helper.
    pub fn source(self) -> &'static str {
        match self {
            Helper::Fmod => FMOD,
            Helper::Round => ROUND,
            Helper::F32ToI32 => F32_TO_I32,
            Helper::F32ToU32 => F32_TO_U32,
            Helper::FromBits => FROM_BITS,
            Helper::OpaqueF32 => "fn sarek_opaque_f32(v: f32) -> f32 {\n    return v;\n}\n",
            Helper::OpaqueI32 => "fn sarek_opaque_i32(v: i32) -> i32 {\n    return v;\n}\n",
            Helper::OpaqueU32 => "fn sarek_opaque_u32(v: u32) -> u32 {\n    return v;\n}\n",
            Helper::Log10 => polyfills::LOG10,
            Helper::Cbrt => polyfills::CBRT,
            Helper::Hypot => polyfills::HYPOT,
            Helper::ExpM1 => polyfills::EXP_M1,
            Helper::Ln1p => polyfills::LN_1P,
            Helper::Copysign => polyfills::COPYSIGN,
            Helper::Signum => polyfills::SIGNUM,
            Helper::RemEuclidF32 => polyfills::REM_EUCLID_F32,
            Helper::RemEuclidI32 => polyfills::REM_EUCLID_I32,
            Helper::ClampF32 => polyfills::CLAMP_F32,
            Helper::PowI32 => polyfills::POW_I32,
            Helper::PowU32 => polyfills::POW_U32,
            Helper::Tanh => polyfills::TANH,
            Helper::Erf => polyfills::ERF,
            Helper::Asinh => polyfills::ASINH,
            Helper::Acosh => polyfills::ACOSH,
            Helper::Atanh => polyfills::ATANH,
            Helper::Log2 => polyfills::LOG2,
            Helper::Ln1pNear0 => polyfills::LN_1P_NEAR_0,
            Helper::Atan2 => polyfills::ATAN2,
            Helper::DivI32 => DIV_I32,
            Helper::RemI32 => REM_I32,
            Helper::DivU32 => DIV_U32,
            Helper::RemU32 => REM_U32,
            Helper::DivRefined => polyfills::DIV_REFINED,
            Helper::Std(h) => h.source(),
            Helper::OpaqueF16 => "fn sarek_opaque_f16(v: f16) -> f16 {\n    return v;\n}\n",
            Helper::FmodF16 => "fn sarek_fmod_f16(a: f16, b: f16) -> f16 {\n    return f16(sarek_fmod(f32(a), f32(b)));\n}\n",
            Helper::F16FromBits => "fn sarek_f16_from_f32_bits(bits: u32) -> f16 {\n    return f16(bitcast<f32>(bits));\n}\n",
            Helper::OpaqueI64 => "fn sarek_opaque_i64(v: i64) -> i64 {\n    return v;\n}\n",
            Helper::OpaqueU64 => "fn sarek_opaque_u64(v: u64) -> u64 {\n    return v;\n}\n",
            Helper::DivI64 => DIV_I64,
            Helper::RemI64 => REM_I64,
            Helper::DivU64 => DIV_U64,
            Helper::RemU64 => REM_U64,
            Helper::F32ToI64 => F32_TO_I64,
            Helper::F32ToU64 => F32_TO_U64,
        }
    }

    /// The helpers this one calls.
    pub fn needs(self) -> &'static [Helper] {
        match self {
            Helper::Fmod => &[Helper::FromBits],
            Helper::FmodF16 => &[Helper::Fmod],
            Helper::Acosh => &[Helper::Ln1pNear0, Helper::FromBits],
            Helper::RemEuclidF32 => &[Helper::Fmod],
            Helper::RemEuclidI32 => &[Helper::RemI32],
            Helper::Tanh => &[Helper::ExpM1],
            Helper::Asinh => &[Helper::Ln1p, Helper::Hypot],
            Helper::Atanh => &[Helper::Ln1p, Helper::FromBits, Helper::DivRefined],
            Helper::Atan2 | Helper::Ln1pNear0 => &[Helper::DivRefined],
            Helper::Ln1p | Helper::Log2 | Helper::Log10 => &[Helper::Ln1pNear0],
            Helper::Std(h) => h.needs(),
            _ => &[],
        }
    }

    /// The helper's function name.
    pub fn name(self) -> &'static str {
        match self {
            Helper::Fmod => "sarek_fmod",
            Helper::Round => "sarek_round_half_away",
            Helper::F32ToI32 => "sarek_f32_to_i32",
            Helper::F32ToU32 => "sarek_f32_to_u32",
            Helper::FromBits => "sarek_f32_from_bits",
            Helper::OpaqueF32 => "sarek_opaque_f32",
            Helper::OpaqueI32 => "sarek_opaque_i32",
            Helper::OpaqueU32 => "sarek_opaque_u32",
            Helper::Log10 => "sarek_log10",
            Helper::Cbrt => "sarek_cbrt",
            Helper::Hypot => "sarek_hypot",
            Helper::ExpM1 => "sarek_exp_m1",
            Helper::Ln1p => "sarek_ln_1p",
            Helper::Copysign => "sarek_copysign",
            Helper::Signum => "sarek_signum",
            Helper::RemEuclidF32 => "sarek_rem_euclid_f32",
            Helper::RemEuclidI32 => "sarek_rem_euclid_i32",
            Helper::ClampF32 => "sarek_clamp_f32",
            Helper::PowI32 => "sarek_pow_i32",
            Helper::PowU32 => "sarek_pow_u32",
            Helper::Tanh => "sarek_tanh",
            Helper::Erf => "sarek_erf",
            Helper::Asinh => "sarek_asinh",
            Helper::Acosh => "sarek_acosh",
            Helper::Atanh => "sarek_atanh",
            Helper::Log2 => "sarek_log2",
            Helper::Ln1pNear0 => "sarek_ln_1p_near_0",
            Helper::Atan2 => "sarek_atan2",
            Helper::DivI32 => "sarek_div_i32",
            Helper::RemI32 => "sarek_rem_i32",
            Helper::DivU32 => "sarek_div_u32",
            Helper::RemU32 => "sarek_rem_u32",
            Helper::DivRefined => "sarek_div_refined",
            Helper::Std(h) => h.name(),
            Helper::OpaqueF16 => "sarek_opaque_f16",
            Helper::FmodF16 => "sarek_fmod_f16",
            Helper::F16FromBits => "sarek_f16_from_f32_bits",
            Helper::OpaqueI64 => "sarek_opaque_i64",
            Helper::OpaqueU64 => "sarek_opaque_u64",
            Helper::DivI64 => "sarek_div_i64",
            Helper::RemI64 => "sarek_rem_i64",
            Helper::DivU64 => "sarek_div_u64",
            Helper::RemU64 => "sarek_rem_u64",
            Helper::F32ToI64 => "sarek_f32_to_i64",
            Helper::F32ToU64 => "sarek_f32_to_u64",
        }
    }
}

// Exact remainder by binary long division: scale |y| up by powers of two to just below |x|,
// then subtract on the way down. Each subtraction is exact (d <= r < 2d), so the result is
// exactly C's fmod. At most 277 steps (the f32 exponent range).
const FMOD: &str = "\
fn sarek_fmod(x: f32, y: f32) -> f32 {
    let ax = abs(x);
    let ay = abs(y);
    if !(ax <= 3.4028235e38f) || !(ay > 0.0f) {
        // x infinite or NaN, y zero or NaN: NaN. From bits through a function, because WGSL
        // forbids a NaN constant and drivers fold arithmetic like `(x - x) / (x - x)`.
        return sarek_f32_from_bits(0x7fc00000u);
    }
    if ax < ay {
        return x;
    }
    var r = ax;
    var d = ay;
    while d * 2.0f <= r {
        d = d * 2.0f;
    }
    loop {
        if r >= d {
            r = r - d;
        }
        if d == ay {
            break;
        }
        d = d * 0.5f;
    }
    return select(r, -r, x < 0.0f);
}
";

const ROUND: &str = "\
fn sarek_round_half_away(x: f32) -> f32 {
    let t = trunc(x);
    return select(t, t + sign(x), abs(x - t) >= 0.5f);
}
";

const F32_TO_I32: &str = "\
fn sarek_f32_to_i32(x: f32) -> i32 {
    // NaN, tested on the bits: drivers may fold `x != x` to false.
    if (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u {
        return 0i;
    }
    if x >= 2147483648.0f {
        return 2147483647i;
    }
    if x <= -2147483648.0f {
        return i32(-2147483648);
    }
    return i32(x);
}
";

const F32_TO_U32: &str = "\
fn sarek_f32_to_u32(x: f32) -> u32 {
    if !(x > 0.0f) {
        return 0u;
    }
    if x >= 4294967296.0f {
        return 4294967295u;
    }
    return u32(x);
}
";

const FROM_BITS: &str = "\
fn sarek_f32_from_bits(bits: u32) -> f32 {
    return bitcast<f32>(bits);
}
";

// Integer division with a divisor made safe: where WGSL defines the result (`x / 0 == x`,
// `x % 0 == 0`, `i32::MIN / -1 == i32::MIN`, `i32::MIN % -1 == 0`), dividing by 1 gives it.
// naga's SPIR-V back end guards these itself; its GLSL one does not (wgpu's GL backend gave
// 7 / 0 == 0 on llvmpipe).
const DIV_I32: &str = "\
fn sarek_div_i32(a: i32, b: i32) -> i32 {
    return a / select(b, 1i, b == 0i || (a == i32(-2147483648) && b == -1i));
}
";

// The remainder as `a - (a / d) * d`, not `%`: GLSL leaves `%` of negative operands undefined
// (Mesa's llvmpipe gave -7 % 2 == 1), while its `/` truncates as WGSL's does.
const REM_I32: &str = "\
fn sarek_rem_i32(a: i32, b: i32) -> i32 {
    let d = select(b, 1i, b == 0i || (a == i32(-2147483648) && b == -1i));
    return a - (a / d) * d;
}
";

const DIV_I64: &str = "\
fn sarek_div_i64(a: i64, b: i64) -> i64 {
    return a / select(b, 1li, b == 0li || (a == (-9223372036854775807li - 1li) && b == -1li));
}
";

// As `sarek_rem_i32`.
const REM_I64: &str = "\
fn sarek_rem_i64(a: i64, b: i64) -> i64 {
    let d = select(b, 1li, b == 0li || (a == (-9223372036854775807li - 1li) && b == -1li));
    return a - (a / d) * d;
}
";

const DIV_U64: &str = "\
fn sarek_div_u64(a: u64, b: u64) -> u64 {
    return a / select(b, 1lu, b == 0lu);
}
";

const REM_U64: &str = "\
fn sarek_rem_u64(a: u64, b: u64) -> u64 {
    return a % select(b, 1lu, b == 0lu);
}
";

// 2^63 is exact in `f32`; every `f32` below it converts exactly.
const F32_TO_I64: &str = "\
fn sarek_f32_to_i64(x: f32) -> i64 {
    if (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u {
        return 0li;
    }
    if x >= 9223372036854775808.0f {
        return 9223372036854775807li;
    }
    if x <= -9223372036854775808.0f {
        return (-9223372036854775807li - 1li);
    }
    return i64(x);
}
";

const F32_TO_U64: &str = "\
fn sarek_f32_to_u64(x: f32) -> u64 {
    if !(x > 0.0f) {
        return 0lu;
    }
    if x >= 18446744073709551616.0f {
        return 18446744073709551615lu;
    }
    return u64(x);
}
";

const DIV_U32: &str = "\
fn sarek_div_u32(a: u32, b: u32) -> u32 {
    return a / select(b, 1u, b == 0u);
}
";

const REM_U32: &str = "\
fn sarek_rem_u32(a: u32, b: u32) -> u32 {
    return a % select(b, 1u, b == 0u);
}
";
