//! WGSL sources of the `f32` and integer methods that WGSL lacks or defines differently from
//! Rust. Accuracy is stated against Rust's `std` (itself within 1 ULP of the exact value) and
//! checked by the test suite on random and edge-case inputs.

// NaN and infinity are tested on the bits: drivers may simplify `x != x` to false.

/// `log10`: near 1 (`x` in [0.5, 2], where WGSL's `log2` is only accurate to an absolute
/// 2^-21), from the series of [`LN_1P`]; elsewhere `log2(x) · log10(2)`. Within 4 ULP near 1
/// (the series, then a multiply; seen at 4 on lavapipe by the differential tests), the
/// device's `log2` accuracy plus 1 ULP elsewhere.
pub const LOG10: &str = "\
fn sarek_log10(x: f32) -> f32 {
    if x >= 0.5f && x <= 2.0f {
        return sarek_ln_1p_near_0(x - 1.0f) * 0.4342944819f;
    }
    return log2(x) * 0.30102999566f;
}
";

/// `cbrt`: `pow` with one Newton step, sign kept; zero, infinities and NaN returned as is;
/// arguments over 1e30 scaled by 2^-39 (root by 2^13) so the step cannot overflow. Within 2
/// ULP.
pub const CBRT: &str = "\
fn sarek_cbrt(x: f32) -> f32 {
    if x == 0.0f || (bitcast<u32>(x) & 0x7fffffffu) >= 0x7f800000u {
        return x;
    }
    var a = abs(x);
    // Near f32::MAX the Newton step's `y * y * y` overflows: work on x / 2^39 and scale the
    // root back by 2^13, both exact.
    var scale = 1.0f;
    if a > 1.0e30f {
        a = a * bitcast<f32>(0x2c000000u);
        scale = 8192.0f;
    }
    var y = pow(a, 1.0f / 3.0f);
    y = y - (y * y * y - a) / (3.0f * y * y);
    y = y * scale;
    return select(y, -y, x < 0.0f);
}
";

/// `hypot`: scaled so that it neither overflows nor underflows; an infinite side gives
/// infinity even with a NaN (as C and Rust). Within 2 ULP.
pub const HYPOT: &str = "\
fn sarek_hypot(x: f32, y: f32) -> f32 {
    let a = abs(x);
    let b = abs(y);
    let inf_bits = 0x7f800000u;
    if bitcast<u32>(a) == inf_bits || bitcast<u32>(b) == inf_bits {
        return bitcast<f32>(inf_bits);
    }
    if bitcast<u32>(a) > inf_bits || bitcast<u32>(b) > inf_bits {
        return a + b;
    }
    var m = max(a, b);
    if m == 0.0f {
        return 0.0f;
    }
    // GPUs divide through the reciprocal, which flushes to zero past 2^126 (an H200 gave
    // hypot(f32::MAX, f32::MAX) = f32::MAX): scale huge operands by 2^-64 and back, exactly.
    var lo = min(a, b);
    var scale = 1.0f;
    if m > 1.0e30f {
        m = m * bitcast<f32>(0x1f800000u);
        lo = lo * bitcast<f32>(0x1f800000u);
        scale = bitcast<f32>(0x5f800000u);
    }
    let n = lo / m;
    return (m * sqrt(1.0f + n * n)) * scale;
}
";

/// `exp_m1`: a Taylor polynomial to `x^9` for `|x| < 0.5` (exact to below 1 ULP there, where
/// `exp(x) - 1` cancels), `exp(x) - 1` elsewhere. Within 2 ULP for `|x| < 0.5`, the device's
/// `exp` accuracy plus 1 ULP elsewhere (WGSL: `3 + 2·|x|` ULP).
pub const EXP_M1: &str = "\
fn sarek_exp_m1(x: f32) -> f32 {
    if abs(x) < 0.5f {
        return x + x * x * (0.5f + x * (0.16666667f + x * (0.041666668f + x * (0.008333334f
            + x * (0.0013888889f + x * (0.0001984127f + x * (0.0000248016f + x * 0.0000027557f)))))));
    }
    return exp(x) - 1.0f;
}
";

/// `ln_1p`: the series of [`LN_1P_NEAR_0`] for `1 + x` in [0.5, 2] (where `ln(1 + x)` cancels
/// and WGSL's `log` is only accurate to an absolute 2^-21), `ln(1 + x)` elsewhere. Within 3 ULP
/// near 0 (2 on lavapipe, 3 on an H200), the device's `log` accuracy elsewhere.
pub const LN_1P: &str = "\
fn sarek_ln_1p(x: f32) -> f32 {
    if x >= -0.5f && x <= 1.0f {
        return sarek_ln_1p_near_0(x);
    }
    return log(1.0f + x);
}
";

/// `copysign`: exact.
pub const COPYSIGN: &str = "\
fn sarek_copysign(x: f32, s: f32) -> f32 {
    return bitcast<f32>((bitcast<u32>(x) & 0x7fffffffu) | (bitcast<u32>(s) & 0x80000000u));
}
";

/// `signum`: ±1 with the sign bit of `x` (so `-0.0` gives `-1.0`), NaN for NaN. Exact.
pub const SIGNUM: &str = "\
fn sarek_signum(x: f32) -> f32 {
    if (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u {
        return x;
    }
    return bitcast<f32>(0x3f800000u | (bitcast<u32>(x) & 0x80000000u));
}
";

/// `f32::rem_euclid`: the exact `fmod`, made non-negative. Exact.
pub const REM_EUCLID_F32: &str = "\
fn sarek_rem_euclid_f32(x: f32, y: f32) -> f32 {
    let r = sarek_fmod(x, y);
    if r < 0.0f {
        return r + abs(y);
    }
    return r;
}
";

/// `i32::rem_euclid`: the remainder made non-negative (`i32::MIN.rem_euclid(-1)`, which
/// overflows in Rust, is 0; a zero divisor gives WGSL's `x % 0`).
pub const REM_EUCLID_I32: &str = "\
fn sarek_rem_euclid_i32(x: i32, y: i32) -> i32 {
    let r = sarek_rem_i32(x, y);
    if r < 0i {
        if y < 0i {
            return r - y;
        }
        return r + y;
    }
    return r;
}
";

/// `f32::clamp`: as Rust writes it, so a NaN stays NaN.
pub const CLAMP_F32: &str = "\
fn sarek_clamp_f32(x: f32, lo: f32, hi: f32) -> f32 {
    // On the bits: an H200's compiler turned the comparisons below into a NaN-dropping `max`.
    if (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u {
        return x;
    }
    var r = x;
    if r < lo {
        r = lo;
    }
    if r > hi {
        r = hi;
    }
    return r;
}
";

/// `i32::pow`: exponentiation by squaring, wrapping (`wrapping_pow`; Rust's `pow` panics on
/// overflow in debug builds).
pub const POW_I32: &str = "\
fn sarek_pow_i32(base: i32, exp: u32) -> i32 {
    var r = 1i;
    var b = base;
    var e = exp;
    loop {
        if e == 0u {
            break;
        }
        if (e & 1u) == 1u {
            r = r * b;
        }
        e = e >> 1u;
        b = b * b;
    }
    return r;
}
";

/// `u32::pow`, wrapping.
pub const POW_U32: &str = "\
fn sarek_pow_u32(base: u32, exp: u32) -> u32 {
    var r = 1u;
    var b = base;
    var e = exp;
    loop {
        if e == 0u {
            break;
        }
        if (e & 1u) == 1u {
            r = r * b;
        }
        e = e >> 1u;
        b = b * b;
    }
    return r;
}
";

/// `tanh`: from `exp_m1`, so exact near zero and ±1 for large arguments (a direct
/// `(e^2x - 1) / (e^2x + 1)` gives NaN there). Within 3 ULP.
pub const TANH: &str = "\
fn sarek_tanh(x: f32) -> f32 {
    let a = abs(x);
    if a > 9.0f {
        return select(1.0f, -1.0f, x < 0.0f);
    }
    let e = sarek_exp_m1(2.0f * a);
    let t = e / (e + 2.0f);
    return select(t, -t, x < 0.0f);
}
";

/// `asinh`: Rust's formula, `ln_1p(a + a / (hypot(1, 1/a) + 1/a))` with the sign of `x` (so
/// also infinite where Rust's overflows). Within 4 ULP.
pub const ASINH: &str = "\
fn sarek_asinh(x: f32) -> f32 {
    let a = abs(x);
    if a == 0.0f {
        return x;
    }
    let ia = 1.0f / a;
    let r = sarek_ln_1p(a + a / (sarek_hypot(1.0f, ia) + ia));
    return select(r, -r, x < 0.0f);
}
";

/// `acosh`: Rust's formula, `ln(x + sqrt(x - 1) · sqrt(x + 1))`, with the logarithm taken
/// accurately near 1 (so it rounds the argument where Rust does); NaN below 1. Within
/// `4 + 2 / sqrt(x² - 1)` ULP of Rust: near 1 the formula magnifies the device's `sqrt`
/// rounding (7 ULP on an H200 at 1.0169).
pub const ACOSH: &str = "\
fn sarek_acosh(x: f32) -> f32 {
    if !(x >= 1.0f) {
        return sarek_f32_from_bits(0x7fc00000u);
    }
    let u = x + sqrt(x - 1.0f) * sqrt(x + 1.0f);
    if u <= 2.0f {
        return sarek_ln_1p_near_0(u - 1.0f);
    }
    return log(u);
}
";

/// `atanh`: Rust's formula, `0.5 · ln_1p(2x / (1 - x))`; NaN beyond ±1. Near ±1 the formula
/// multiplies the error of the division by up to 1 / (1 - |x|), and a GPU's division may be
/// 2.5 ULP off (13 ULP of `atanh` on an H200 at -0.958), so the quotient gets one correction
/// step with an exact `fma` residual, as Rust's correctly rounded division would give it.
/// Within 4 ULP of Rust for |x| ≤ 1/3; beyond, `6 + 2 / (1 - |x|)` ULP: the device's `ln`
/// and division, magnified near ±1 as in Rust's own result (18 ULP on an H200 at -0.986).
pub const ATANH: &str = "\
fn sarek_atanh(x: f32) -> f32 {
    if abs(x) > 1.0f {
        return sarek_f32_from_bits(0x7fc00000u);
    }
    return 0.5f * sarek_ln_1p(sarek_div_refined(2.0f * x, 1.0f - x));
}
";

/// `log2`: as [`LOG10`], with `log2(e)` near 1 (within 3 ULP there).
pub const LOG2: &str = "\
fn sarek_log2(x: f32) -> f32 {
    if x >= 0.5f && x <= 2.0f {
        return sarek_ln_1p_near_0(x - 1.0f) * 1.442695041f;
    }
    return log2(x);
}
";

/// `ln(1 + x)` for `1 + x` in [0.5, 2]: `2·atanh(s)` with `s = x / (2 + x)` (`|s| <= 1/3`),
/// summed to `s^17`. Within 3 ULP.
pub const LN_1P_NEAR_0: &str = "\
fn sarek_ln_1p_near_0(x: f32) -> f32 {
    // Below 2^-24, ln(1 + x) rounds to x; and x / 2 could be subnormal, which GPUs such as
    // an H200 flush to zero.
    if abs(x) < 5.9604645e-8f {
        return x;
    }
    // A GPU's division left 3 ULP from Rust's `ln_1p` on an H200.
    let s = sarek_div_refined(x, 2.0f + x);
    let z = s * s;
    let p = 0.33333333f + z * (0.2f + z * (0.14285714f + z * (0.11111111f + z * (0.09090909f
        + z * (0.07692308f + z * (0.06666667f + z * 0.05882353f))))));
    return 2.0f * s + (2.0f * s) * (z * p);
}
";

/// `atan2`: Cephes' `atanf` (reduced to `|t| <= tan(pi/8)`, peak error 1.9e-7) with the
/// quadrant, signed zeros and infinities of C's `atan2`. Within 4 ULP (3 on lavapipe; WGSL's
/// own `atan2` is only required to be within 4096).
pub const ATAN2: &str = "\
fn sarek_atan(t: f32) -> f32 {
    let a = abs(t);
    var x = a;
    var y = 0.0f;
    if a > 2.4142135f {
        y = 1.5707964f;
        x = -1.0f / a;
    } else if a > 0.41421357f {
        y = 0.7853982f;
        x = (a - 1.0f) / (a + 1.0f);
    }
    let z = x * x;
    y = y + ((((0.0805374449538f * z - 0.138776856032f) * z + 0.199777106478f) * z
        - 0.333329491539f) * z * x + x);
    return select(y, -y, t < 0.0f);
}

fn sarek_atan2(y: f32, x: f32) -> f32 {
    let pi = 3.1415927f;
    let ny = (bitcast<u32>(y) & 0x80000000u) != 0u;
    let nx = (bitcast<u32>(x) & 0x80000000u) != 0u;
    let ay = bitcast<u32>(y) & 0x7fffffffu;
    let ax = bitcast<u32>(x) & 0x7fffffffu;
    if ay > 0x7f800000u || ax > 0x7f800000u {
        return x + y;
    }
    var r: f32;
    if ay == 0u {
        r = select(0.0f, pi, nx);
    } else if ax == 0x7f800000u {
        if ay == 0x7f800000u {
            r = select(0.7853982f, 2.3561945f, nx);
        } else {
            r = select(0.0f, pi, nx);
        }
    } else if ay == 0x7f800000u || ax == 0u {
        r = 1.5707964f;
    } else {
        // GPUs divide through the reciprocal, which flushes to zero past 2^126 (an H200 gave
        // atan2(4.7, 3.4e38) = 0): scale huge operands down together, exactly.
        var sy = abs(y);
        var sx = abs(x);
        if sx > 1.0e30f || sy > 1.0e30f {
            sx = sx * bitcast<f32>(0x1f800000u);
            sy = sy * bitcast<f32>(0x1f800000u);
        }
        // A GPU's division gave atan2 4 ULP from Rust's on an H200.
        let t = sarek_atan(sarek_div_refined(sy, sx));
        r = select(t, pi - t, nx);
    }
    return select(r, -r, ny);
}
";

/// `n / d` with one correction step from the exact `fma` residual, close to the correctly
/// rounded quotient Rust computes: a GPU's division may be 2.5 ULP off, which `atan2`,
/// `atanh` and the `ln_1p` series would pass on (magnified, near ±1 for `atanh`). Not for a
/// tiny or non-finite quotient: near the subnormal range the residual is itself flushed (an
/// H200 then doubled the result).
pub const DIV_REFINED: &str = "\
fn sarek_div_refined(n: f32, d: f32) -> f32 {
    var q = n / d;
    if abs(q) > 1.0e-30f && (bitcast<u32>(q) & 0x7fffffffu) < 0x7f800000u {
        q = q + fma(-q, d, n) / d;
    }
    return q;
}
";

/// `erf`: `x·P(x²)` below 1 and `1 − exp(−x²)·Q(1/x − 0.625)` up to 4 (Chebyshev fits of
/// `erf(x)/x` and `erfc(x)·exp(x²)`, 3.4e-11 and 5.7e-11 from them), `±1` beyond, where `erf`
/// rounds to 1. The CPU backend computes the same formula (`interp::f32_math::erf`, within
/// 3 ULP); on a GPU add the device's `exp` and division errors (absolute, at most 1e-7 near 1).
pub const ERF: &str = "\
fn sarek_erf(x: f32) -> f32 {
    let a = abs(x);
    if a < 1.0f {
        let t = a * a;
        var p = -9.667044650996104e-06f;
        p = p * t + 0.00011265958892181516f;
        p = p * t - 0.0008484080317430198f;
        p = p * t + 0.005221031606197357f;
        p = p * t - 0.026865430176258087f;
        p = p * t + 0.11283782124519348f;
        p = p * t - 0.37612637877464294f;
        p = p * t + 1.128379225730896f;
        return x * p;
    }
    if a < 4.0f {
        let v = 1.0f / a - 0.625f;
        var q = 0.02848629839718342f;
        q = q * v - 0.03338649496436119f;
        q = q * v + 0.015010736882686615f;
        q = q * v + 0.004630759824067354f;
        q = q * v - 0.025376008823513985f;
        q = q * v + 0.04322072118520737f;
        q = q * v - 0.04703782871365547f;
        q = q * v + 0.023330552503466606f;
        q = q * v + 0.04376931115984917f;
        q = q * v - 0.1723947674036026f;
        q = q * v + 0.3822837471961975f;
        q = q * v + 0.3059529960155487f;
        let r = 1.0f - exp(-(a * a)) * q;
        return select(r, -r, x < 0.0f);
    }
    // NaN, tested on the bits: a GPU compiler may fold `a != a` to false.
    if bitcast<u32>(a) > 0x7f800000u {
        return x;
    }
    return select(1.0f, -1.0f, x < 0.0f);
}
";
