//! WGSL functions for the `std` methods of `f32` and the integers that WGSL lacks (`asin`
//! from Sarek's accurate `atan2`, `sinh`, `saturating_mul`, `isqrt`, ..) or defines with
//! other edge cases than Rust (`max`/`min` with a NaN, `exp2` of infinities). Integer ones
//! are exact; the accuracy of the float ones is stated with each and in README.md's table.
//!
//! Methods that only look at the bits (`rotate_left`, `swap_bytes`, ..) exist once, on `u32`:
//! the writer passes an `i32` through `bitcast`.

use super::helpers::Helper;

/// A helper function of a `std` method, emitted once per module when used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum StdHelper {
    /// `f32::max`: a NaN operand gives the other one (WGSL leaves NaN indeterminate).
    MaxF32,
    /// `f32::min`, with Rust's NaN rule.
    MinF32,
    /// `f32::asin`
    Asin,
    /// `f32::acos`
    Acos,
    /// `f32::sinh`
    Sinh,
    /// `f32::cosh`
    Cosh,
    /// `f32::exp2`
    Exp2,
    /// `f32::powi`
    Powi,
    /// `f32::fract`
    Fract,
    /// `f32::is_nan`
    IsNan,
    /// `f32::is_infinite`
    IsInfinite,
    /// `f32::is_finite`
    IsFinite,
    /// `u32::div_ceil`
    DivCeilU32,
    /// `i32::div_euclid`
    DivEuclidI32,
    /// `i32::abs_diff`
    AbsDiffI32,
    /// `u32::abs_diff`
    AbsDiffU32,
    /// `i32::saturating_add`
    SaturatingAddI32,
    /// `u32::saturating_add`
    SaturatingAddU32,
    /// `i32::saturating_sub`
    SaturatingSubI32,
    /// `i32::saturating_mul`
    SaturatingMulI32,
    /// `u32::saturating_mul`
    SaturatingMulU32,
    /// `i32` addition overflows
    AddOverflowsI32,
    /// `i32` subtraction overflows
    SubOverflowsI32,
    /// `i32` multiplication overflows
    MulOverflowsI32,
    /// `u32` multiplication overflows
    MulOverflowsU32,
    /// `rotate_left` on the bits
    RotateLeft,
    /// `rotate_right` on the bits
    RotateRight,
    /// `swap_bytes` on the bits
    SwapBytes,
    /// `u32::is_power_of_two`
    IsPowerOfTwo,
    /// `u32::next_power_of_two`
    NextPowerOfTwo,
    /// `i32::ilog2`
    Ilog2I32,
    /// `i32::unsigned_abs`
    UnsignedAbs,
    /// `u32::isqrt`
    IsqrtU32,
    /// `i32::isqrt`
    IsqrtI32,
    /// `pack2x16_float`, on the bits: WGSL's `pack2x16float` needs a capability that naga
    /// does not grant by default.
    Pack2x16Float,
    /// `unpack2x16_float`, on the bits.
    Unpack2x16Float,
    /// An `f32` to the nearest half's bits (ties to even).
    F32ToF16,
    /// A half's bits to the equal `f32`.
    F16ToF32,
}

impl StdHelper {
    /// The helper's function name.
    pub fn name(self) -> &'static str {
        use StdHelper::*;
        match self {
            MaxF32 => "sarek_max_f32",
            MinF32 => "sarek_min_f32",
            Asin => "sarek_asin",
            Acos => "sarek_acos",
            Sinh => "sarek_sinh",
            Cosh => "sarek_cosh",
            Exp2 => "sarek_exp2",
            Powi => "sarek_powi",
            Fract => "sarek_fract",
            IsNan => "sarek_is_nan",
            IsInfinite => "sarek_is_infinite",
            IsFinite => "sarek_is_finite",
            DivCeilU32 => "sarek_div_ceil_u32",
            DivEuclidI32 => "sarek_div_euclid_i32",
            AbsDiffI32 => "sarek_abs_diff_i32",
            AbsDiffU32 => "sarek_abs_diff_u32",
            SaturatingAddI32 => "sarek_saturating_add_i32",
            SaturatingAddU32 => "sarek_saturating_add_u32",
            SaturatingSubI32 => "sarek_saturating_sub_i32",
            SaturatingMulI32 => "sarek_saturating_mul_i32",
            SaturatingMulU32 => "sarek_saturating_mul_u32",
            AddOverflowsI32 => "sarek_add_overflows_i32",
            SubOverflowsI32 => "sarek_sub_overflows_i32",
            MulOverflowsI32 => "sarek_mul_overflows_i32",
            MulOverflowsU32 => "sarek_mul_overflows_u32",
            RotateLeft => "sarek_rotate_left",
            RotateRight => "sarek_rotate_right",
            SwapBytes => "sarek_swap_bytes",
            IsPowerOfTwo => "sarek_is_power_of_two",
            NextPowerOfTwo => "sarek_next_power_of_two",
            Ilog2I32 => "sarek_ilog2_i32",
            UnsignedAbs => "sarek_unsigned_abs",
            IsqrtU32 => "sarek_isqrt_u32",
            IsqrtI32 => "sarek_isqrt_i32",
            Pack2x16Float => "sarek_pack2x16float",
            Unpack2x16Float => "sarek_unpack2x16float",
            F32ToF16 => "sarek_f32_to_f16",
            F16ToF32 => "sarek_f16_to_f32",
        }
    }

    /// The helpers this one calls.
    pub fn needs(self) -> &'static [Helper] {
        use StdHelper::*;
        match self {
            Asin | Acos => &[Helper::Atan2, Helper::FromBits],
            Sinh | Cosh => &[Helper::ExpM1],
            Exp2 | Fract => &[Helper::FromBits],
            DivCeilU32 => &[Helper::DivU32, Helper::RemU32],
            DivEuclidI32 => &[Helper::DivI32, Helper::RemI32],
            SaturatingMulI32 => &[Helper::Std(MulOverflowsI32)],
            SaturatingMulU32 => &[Helper::Std(MulOverflowsU32)],
            IsqrtI32 => &[Helper::Std(IsqrtU32)],
            Pack2x16Float => &[Helper::Std(F32ToF16)],
            Unpack2x16Float => &[Helper::Std(F16ToF32)],
            _ => &[],
        }
    }

    /// The WGSL source of the helper.
    pub fn source(self) -> &'static str {
        use StdHelper::*;
        match self {
            MaxF32 => MAX_F32,
            MinF32 => MIN_F32,
            Asin => ASIN,
            Acos => ACOS,
            Sinh => SINH,
            Cosh => COSH,
            Exp2 => EXP2,
            Powi => POWI,
            Fract => FRACT,
            IsNan => IS_NAN,
            IsInfinite => IS_INFINITE,
            IsFinite => IS_FINITE,
            DivCeilU32 => DIV_CEIL_U32,
            DivEuclidI32 => DIV_EUCLID_I32,
            AbsDiffI32 => ABS_DIFF_I32,
            AbsDiffU32 => ABS_DIFF_U32,
            SaturatingAddI32 => SATURATING_ADD_I32,
            SaturatingAddU32 => SATURATING_ADD_U32,
            SaturatingSubI32 => SATURATING_SUB_I32,
            SaturatingMulI32 => SATURATING_MUL_I32,
            SaturatingMulU32 => SATURATING_MUL_U32,
            AddOverflowsI32 => ADD_OVERFLOWS_I32,
            SubOverflowsI32 => SUB_OVERFLOWS_I32,
            MulOverflowsI32 => MUL_OVERFLOWS_I32,
            MulOverflowsU32 => MUL_OVERFLOWS_U32,
            RotateLeft => ROTATE_LEFT,
            RotateRight => ROTATE_RIGHT,
            SwapBytes => SWAP_BYTES,
            IsPowerOfTwo => IS_POWER_OF_TWO,
            NextPowerOfTwo => NEXT_POWER_OF_TWO,
            Ilog2I32 => ILOG2_I32,
            UnsignedAbs => UNSIGNED_ABS,
            IsqrtU32 => ISQRT_U32,
            IsqrtI32 => ISQRT_I32,
            Pack2x16Float => PACK_2X16_FLOAT,
            Unpack2x16Float => UNPACK_2X16_FLOAT,
            F32ToF16 => F32_TO_F16,
            F16ToF32 => F16_TO_F32,
        }
    }
}

// NaN and infinity are tested on the bits: drivers may fold `x != x` to false, and WGSL
// makes any arithmetic on a NaN indeterminate.

const MAX_F32: &str = "\
fn sarek_max_f32(x: f32, y: f32) -> f32 {
    if (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u {
        return y;
    }
    if (bitcast<u32>(y) & 0x7fffffffu) > 0x7f800000u {
        return x;
    }
    return max(x, y);
}
";

const MIN_F32: &str = "\
fn sarek_min_f32(x: f32, y: f32) -> f32 {
    if (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u {
        return y;
    }
    if (bitcast<u32>(y) & 0x7fffffffu) > 0x7f800000u {
        return x;
    }
    return min(x, y);
}
";

// `asin(x) = atan2(x, sqrt((1 - x)(1 + x)))`: `1 - |x|` is exact where it matters (|x| near
// 1), so the root keeps its relative accuracy and Sarek's 4-ULP `atan2` does the rest
// (WGSL's own `asin` is only bound by its `atan2`, 4096 ULP).
const ASIN: &str = "\
fn sarek_asin(x: f32) -> f32 {
    if (bitcast<u32>(x) & 0x7fffffffu) > 0x3f800000u {
        return sarek_f32_from_bits(0x7fc00000u);
    }
    let a = abs(x);
    return sarek_atan2(x, sqrt((1.0f - a) * (1.0f + a)));
}
";

const ACOS: &str = "\
fn sarek_acos(x: f32) -> f32 {
    if (bitcast<u32>(x) & 0x7fffffffu) > 0x3f800000u {
        return sarek_f32_from_bits(0x7fc00000u);
    }
    let a = abs(x);
    return sarek_atan2(sqrt((1.0f - a) * (1.0f + a)), x);
}
";

// `sinh`: `(t + t / (t + 1)) / 2` with `t = exp_m1(|x|)` below 9 (no cancellation near 0),
// `exp(|x|) / 2` up to 88, and `(exp(|x| / 2) / 2) · exp(|x| / 2)` beyond, where `exp(|x|)`
// alone would overflow first. The sign is copied from `x`, so `-0.0` stays `-0.0`.
const SINH: &str = "\
fn sarek_sinh(x: f32) -> f32 {
    if (bitcast<u32>(x) & 0x7fffffffu) >= 0x7f800000u {
        return x;
    }
    let a = abs(x);
    var r: f32;
    if a < 9.0f {
        let t = sarek_exp_m1(a);
        r = 0.5f * (t + t / (t + 1.0f));
    } else if a < 88.0f {
        r = 0.5f * exp(a);
    } else {
        let h = exp(0.5f * a);
        r = (0.5f * h) * h;
    }
    return bitcast<f32>(bitcast<u32>(r) | (bitcast<u32>(x) & 0x80000000u));
}
";

// `cosh`: `1 + t² / (2 (1 + t))` with `t = exp_m1(|x|)` below 0.5, `(e + 1/e) / 2` up to 88,
// then as `sinh`.
const COSH: &str = "\
fn sarek_cosh(x: f32) -> f32 {
    let a = abs(x);
    if (bitcast<u32>(a)) >= 0x7f800000u {
        return a;
    }
    if a < 0.5f {
        let t = sarek_exp_m1(a);
        return 1.0f + t * t / (2.0f * (1.0f + t));
    }
    if a < 88.0f {
        let e = exp(a);
        return 0.5f * e + 0.5f / e;
    }
    let h = exp(0.5f * a);
    return (0.5f * h) * h;
}
";

// `exp2`: the builtin, with the infinities and overflow made Rust's.
const EXP2: &str = "\
fn sarek_exp2(x: f32) -> f32 {
    let b = bitcast<u32>(x);
    if b == 0xff800000u {
        return 0.0f;
    }
    if (b & 0x7fffffffu) >= 0x7f800000u {
        return x;
    }
    if x >= 128.0f {
        return sarek_f32_from_bits(0x7f800000u);
    }
    return exp2(x);
}
";

// `powi`: binary powering in the order of compiler-rt's `__powisf2`, which Rust's `powi`
// calls, so each product rounds as on the host; a negative exponent takes the reciprocal at
// the end.
const POWI: &str = "\
fn sarek_powi(x: f32, n: i32) -> f32 {
    var a = x;
    var b = n;
    var r = 1.0f;
    loop {
        if (b & 1i) != 0i {
            r = r * a;
        }
        b = b / 2i;
        if b == 0i {
            break;
        }
        a = a * a;
    }
    if n < 0i {
        return 1.0f / r;
    }
    return r;
}
";

// `fract`: Rust's `x - x.trunc()` (exact), NaN for the infinities.
const FRACT: &str = "\
fn sarek_fract(x: f32) -> f32 {
    if (bitcast<u32>(x) & 0x7fffffffu) >= 0x7f800000u {
        return sarek_f32_from_bits(0x7fc00000u);
    }
    return x - trunc(x);
}
";

const IS_NAN: &str = "\
fn sarek_is_nan(x: f32) -> bool {
    return (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u;
}
";

const IS_INFINITE: &str = "\
fn sarek_is_infinite(x: f32) -> bool {
    return (bitcast<u32>(x) & 0x7fffffffu) == 0x7f800000u;
}
";

const IS_FINITE: &str = "\
fn sarek_is_finite(x: f32) -> bool {
    return (bitcast<u32>(x) & 0x7fffffffu) < 0x7f800000u;
}
";

// A zero divisor gives the dividend, as `/` does.
const DIV_CEIL_U32: &str = "\
fn sarek_div_ceil_u32(a: u32, b: u32) -> u32 {
    let q = sarek_div_u32(a, b);
    return select(q, q + 1u, sarek_rem_u32(a, b) != 0u);
}
";

// `i32::MIN.div_euclid(-1)` wraps to `i32::MIN` (Rust's `wrapping_div_euclid`); a zero
// divisor gives the dividend.
const DIV_EUCLID_I32: &str = "\
fn sarek_div_euclid_i32(a: i32, b: i32) -> i32 {
    let q = sarek_div_i32(a, b);
    if sarek_rem_i32(a, b) < 0i {
        return select(q + 1i, q - 1i, b > 0i);
    }
    return q;
}
";

// The difference of the two's-complement words, taken the right way round, is exact.
const ABS_DIFF_I32: &str = "\
fn sarek_abs_diff_i32(a: i32, b: i32) -> u32 {
    return select(bitcast<u32>(a) - bitcast<u32>(b), bitcast<u32>(b) - bitcast<u32>(a), a < b);
}
";

const ABS_DIFF_U32: &str = "\
fn sarek_abs_diff_u32(a: u32, b: u32) -> u32 {
    return select(a - b, b - a, a < b);
}
";

const SATURATING_ADD_I32: &str = "\
fn sarek_saturating_add_i32(a: i32, b: i32) -> i32 {
    let r = a + b;
    if ((a ^ r) & (b ^ r)) < 0i {
        return select(2147483647i, i32(-2147483648), a < 0i);
    }
    return r;
}
";

const SATURATING_ADD_U32: &str = "\
fn sarek_saturating_add_u32(a: u32, b: u32) -> u32 {
    let r = a + b;
    return select(r, 4294967295u, r < a);
}
";

const SATURATING_SUB_I32: &str = "\
fn sarek_saturating_sub_i32(a: i32, b: i32) -> i32 {
    let r = a - b;
    if ((a ^ b) & (a ^ r)) < 0i {
        return select(2147483647i, i32(-2147483648), a < 0i);
    }
    return r;
}
";

const SATURATING_MUL_I32: &str = "\
fn sarek_saturating_mul_i32(a: i32, b: i32) -> i32 {
    if sarek_mul_overflows_i32(a, b) {
        return select(2147483647i, i32(-2147483648), (a < 0i) != (b < 0i));
    }
    return a * b;
}
";

const SATURATING_MUL_U32: &str = "\
fn sarek_saturating_mul_u32(a: u32, b: u32) -> u32 {
    return select(a * b, 4294967295u, sarek_mul_overflows_u32(a, b));
}
";

const ADD_OVERFLOWS_I32: &str = "\
fn sarek_add_overflows_i32(a: i32, b: i32) -> bool {
    let r = a + b;
    return ((a ^ r) & (b ^ r)) < 0i;
}
";

const SUB_OVERFLOWS_I32: &str = "\
fn sarek_sub_overflows_i32(a: i32, b: i32) -> bool {
    let r = a - b;
    return ((a ^ b) & (a ^ r)) < 0i;
}
";

// On the magnitudes: the product must fit in 32 bits, and then in 2^31 - 1 (2^31 when the
// result is negative).
const MUL_OVERFLOWS_I32: &str = "\
fn sarek_mul_overflows_i32(a: i32, b: i32) -> bool {
    let ua = select(bitcast<u32>(a), 0u - bitcast<u32>(a), a < 0i);
    let ub = select(bitcast<u32>(b), 0u - bitcast<u32>(b), b < 0i);
    if ub != 0u && ua > 4294967295u / ub {
        return true;
    }
    return ua * ub > select(2147483647u, 2147483648u, (a < 0i) != (b < 0i));
}
";

const MUL_OVERFLOWS_U32: &str = "\
fn sarek_mul_overflows_u32(a: u32, b: u32) -> bool {
    return b != 0u && a > 4294967295u / b;
}
";

const ROTATE_LEFT: &str = "\
fn sarek_rotate_left(x: u32, n: u32) -> u32 {
    let s = n & 31u;
    return (x << s) | (x >> ((32u - s) & 31u));
}
";

const ROTATE_RIGHT: &str = "\
fn sarek_rotate_right(x: u32, n: u32) -> u32 {
    let s = n & 31u;
    return (x >> s) | (x << ((32u - s) & 31u));
}
";

const SWAP_BYTES: &str = "\
fn sarek_swap_bytes(x: u32) -> u32 {
    return (x << 24u) | ((x & 0xff00u) << 8u) | ((x >> 8u) & 0xff00u) | (x >> 24u);
}
";

const IS_POWER_OF_TWO: &str = "\
fn sarek_is_power_of_two(x: u32) -> bool {
    return x != 0u && (x & (x - 1u)) == 0u;
}
";

// 0 past 2^31, Rust's result in release builds (it panics in debug ones).
const NEXT_POWER_OF_TWO: &str = "\
fn sarek_next_power_of_two(x: u32) -> u32 {
    if x <= 1u {
        return 1u;
    }
    let p = 32u - countLeadingZeros(x - 1u);
    if p >= 32u {
        return 0u;
    }
    return 1u << p;
}
";

// Zero and negative values (where Rust panics) give `u32::MAX`, as `u32::ilog2`'s
// `31 - countLeadingZeros(0)` wraps to.
const ILOG2_I32: &str = "\
fn sarek_ilog2_i32(x: i32) -> u32 {
    if x <= 0i {
        return 4294967295u;
    }
    return 31u - countLeadingZeros(bitcast<u32>(x));
}
";

const UNSIGNED_ABS: &str = "\
fn sarek_unsigned_abs(x: i32) -> u32 {
    return select(bitcast<u32>(x), 0u - bitcast<u32>(x), x < 0i);
}
";

// A float estimate (within one of the root), then corrected in integers.
const ISQRT_U32: &str = "\
fn sarek_isqrt_u32(x: u32) -> u32 {
    var r = min(u32(sqrt(f32(x))), 65535u);
    while r * r > x {
        r = r - 1u;
    }
    while r < 65535u && (r + 1u) * (r + 1u) <= x {
        r = r + 1u;
    }
    return r;
}
";

// A negative value (where Rust panics) gives -1, a result `isqrt` never has.
const ISQRT_I32: &str = "\
fn sarek_isqrt_i32(x: i32) -> i32 {
    if x < 0i {
        return -1i;
    }
    return i32(sarek_isqrt_u32(u32(x)));
}
";

const PACK_2X16_FLOAT: &str = "\
fn sarek_pack2x16float(v: vec2<f32>) -> u32 {
    return sarek_f32_to_f16(v.x) | (sarek_f32_to_f16(v.y) << 16u);
}
";

const UNPACK_2X16_FLOAT: &str = "\
fn sarek_unpack2x16float(w: u32) -> vec2<f32> {
    return vec2<f32>(sarek_f16_to_f32(w & 0xffffu), sarek_f16_to_f32(w >> 16u));
}
";

// As the CPU backend's `f32_to_f16`: the exponent rebased, the dropped bits rounded to
// nearest, ties to even; a half subnormal below exponent 1; infinity past the range.
const F32_TO_F16: &str = "\
fn sarek_f32_to_f16(x: f32) -> u32 {
    let b = bitcast<u32>(x);
    let sign = (b >> 16u) & 0x8000u;
    let e8 = i32((b >> 23u) & 0xffu);
    let man = b & 0x7fffffu;
    if e8 == 255i {
        return sign | 0x7c00u | select(0u, 0x200u | (man >> 13u), man != 0u);
    }
    let e = e8 - 112i;
    if e >= 31i {
        return sign | 0x7c00u;
    }
    if e <= 0i {
        if e < -10i {
            return sign;
        }
        let m = man | 0x800000u;
        let shift = u32(14i - e);
        let kept = m >> shift;
        let dropped = m & ((1u << shift) - 1u);
        let half = 1u << (shift - 1u);
        return sign | (kept + select(0u, 1u, dropped > half || (dropped == half && (kept & 1u) == 1u)));
    }
    let kept = (u32(e) << 10u) | (man >> 13u);
    let dropped = man & 0x1fffu;
    return sign | (kept + select(0u, 1u, dropped > 0x1000u || (dropped == 0x1000u && (kept & 1u) == 1u)));
}
";

const F16_TO_F32: &str = "\
fn sarek_f16_to_f32(h: u32) -> f32 {
    let sign = (h & 0x8000u) << 16u;
    let e = (h >> 10u) & 0x1fu;
    let man = h & 0x3ffu;
    if e == 0u {
        // A half subnormal is a normal f32: man · 2^-24, exact.
        return bitcast<f32>(bitcast<u32>(f32(man) * 5.9604645e-8f) | sign);
    }
    if e == 31u {
        return bitcast<f32>(sign | 0x7f800000u | (man << 13u));
    }
    return bitcast<f32>(sign | ((e + 112u) << 23u) | (man << 13u));
}
";
