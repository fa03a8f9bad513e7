// `fma` with one rounding (round to nearest, ties to even), in integer arithmetic, for
// adapters whose `fma` rounds the product first (`exact_fma.rs`). Berkeley SoftFloat's
// `softfloat_mulAddF32`, with 64-bit integers as `vec2<u32>(high, low)`.

fn sarek_fma_add64(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    let lo = a.y + b.y;
    return vec2<u32>(a.x + b.x + select(0u, 1u, lo < a.y), lo);
}

fn sarek_fma_sub64(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    return vec2<u32>(a.x - b.x - select(0u, 1u, a.y < b.y), a.y - b.y);
}

// `a >> dist`, any bit shifted out ORed into bit 0.
fn sarek_fma_shr_jam64(a: vec2<u32>, dist: u32) -> vec2<u32> {
    if dist == 0u {
        return a;
    }
    if dist < 32u {
        let lost = (a.y << (32u - dist)) != 0u;
        let lo = (a.y >> dist) | (a.x << (32u - dist));
        return vec2<u32>(a.x >> dist, lo | select(0u, 1u, lost));
    }
    if dist < 64u {
        let d = dist - 32u;
        var lo = a.x;
        var lost = a.y != 0u;
        if d > 0u {
            lo = a.x >> d;
            lost = lost || (a.x << (32u - d)) != 0u;
        }
        return vec2<u32>(0u, lo | select(0u, 1u, lost));
    }
    return vec2<u32>(0u, select(0u, 1u, (a.x | a.y) != 0u));
}

// `a << dist` for `dist < 64`.
fn sarek_fma_shl64(a: vec2<u32>, dist: u32) -> vec2<u32> {
    if dist == 0u {
        return a;
    }
    if dist < 32u {
        return vec2<u32>((a.x << dist) | (a.y >> (32u - dist)), a.y << dist);
    }
    return vec2<u32>(a.y << (dist - 32u), 0u);
}

fn sarek_fma_clz64(a: vec2<u32>) -> u32 {
    if a.x != 0u {
        return countLeadingZeros(a.x);
    }
    return 32u + countLeadingZeros(a.y);
}

// The 64-bit product of two `u32`s below 2^31.
fn sarek_fma_mul64(a: u32, b: u32) -> vec2<u32> {
    let a0 = a & 0xffffu;
    let a1 = a >> 16u;
    let b0 = b & 0xffffu;
    let b1 = b >> 16u;
    let p00 = a0 * b0;
    let mid = a0 * b1 + a1 * b0;
    let lo = p00 + (mid << 16u);
    let hi = a1 * b1 + (mid >> 16u) + select(0u, 1u, lo < p00);
    return vec2<u32>(hi, lo);
}

fn sarek_fma_shr_jam32(a: u32, dist: u32) -> u32 {
    if dist == 0u {
        return a;
    }
    if dist < 31u {
        return (a >> dist) | select(0u, 1u, (a << (32u - dist)) != 0u);
    }
    return select(0u, 1u, a != 0u);
}

// `sign`, exponent `exp` (biased, less one) and significand `sig` (leading bit 30, seven
// rounding bits) rounded to the nearest `f32`, ties to even.
fn sarek_fma_round_pack(sign: u32, exp_in: i32, sig_in: u32) -> f32 {
    var exp = exp_in;
    var sig = sig_in;
    var round_bits = sig & 0x7fu;
    if exp < 0 || exp >= 0xfd {
        if exp < 0 {
            sig = sarek_fma_shr_jam32(sig, u32(-exp));
            exp = 0;
            round_bits = sig & 0x7fu;
        } else if exp > 0xfd || sig + 0x40u >= 0x80000000u {
            return bitcast<f32>((sign << 31u) | 0x7f800000u);
        }
    }
    sig = (sig + 0x40u) >> 7u;
    if round_bits == 0x40u {
        sig = sig & ~1u;
    }
    if sig == 0u {
        exp = 0;
    }
    return bitcast<f32>((sign << 31u) + (u32(exp) << 23u) + sig);
}

fn sarek_exact_fma(a: f32, b: f32, c: f32) -> f32 {
    let ua = bitcast<u32>(a);
    let ub = bitcast<u32>(b);
    let uc = bitcast<u32>(c);
    var exp_a = i32((ua >> 23u) & 0xffu);
    var exp_b = i32((ub >> 23u) & 0xffu);
    var exp_c = i32((uc >> 23u) & 0xffu);
    var sig_a = ua & 0x7fffffu;
    var sig_b = ub & 0x7fffffu;
    var sig_c = uc & 0x7fffffu;
    // An infinite or NaN factor, or a zero one: the product is exact (or NaN), one rounding.
    if exp_a == 0xff || exp_b == 0xff || (ua << 1u) == 0u || (ub << 1u) == 0u {
        return a * b + c;
    }
    // An infinite or NaN addend with finite factors is the result.
    if exp_c == 0xff {
        return c;
    }
    let sign_prod = (ua ^ ub) >> 31u;
    let sign_c = uc >> 31u;
    if exp_a == 0 {
        let shift = countLeadingZeros(sig_a) - 8u;
        exp_a = 1 - i32(shift);
        sig_a = sig_a << shift;
    }
    if exp_b == 0 {
        let shift = countLeadingZeros(sig_b) - 8u;
        exp_b = 1 - i32(shift);
        sig_b = sig_b << shift;
    }
    var exp_prod = exp_a + exp_b - 0x7e;
    var sig_prod = sarek_fma_mul64((sig_a | 0x800000u) << 7u, (sig_b | 0x800000u) << 7u);
    if sig_prod.x < 0x20000000u {
        exp_prod -= 1;
        sig_prod = sarek_fma_shl64(sig_prod, 1u);
    }
    var sign_z = sign_prod;
    var exp_z: i32;
    var sig_z: u32;
    if exp_c == 0 {
        if sig_c == 0u {
            // Exact product plus zero: the product rounded once.
            let s = sarek_fma_shr_jam64(sig_prod, 31u);
            return sarek_fma_round_pack(sign_z, exp_prod - 1, s.y);
        }
        let shift = countLeadingZeros(sig_c) - 8u;
        exp_c = 1 - i32(shift);
        sig_c = sig_c << shift;
    }
    sig_c = (sig_c | 0x800000u) << 6u;
    let exp_diff = exp_prod - exp_c;
    if sign_prod == sign_c {
        if exp_diff <= 0 {
            exp_z = exp_c;
            sig_z = sig_c + sarek_fma_shr_jam64(sig_prod, u32(32 - exp_diff)).y;
        } else {
            exp_z = exp_prod;
            let sum = sarek_fma_add64(
                sig_prod,
                sarek_fma_shr_jam64(vec2<u32>(sig_c, 0u), u32(exp_diff)),
            );
            let s = sarek_fma_shr_jam64(sum, 32u);
            sig_z = s.y;
        }
        if sig_z < 0x40000000u {
            exp_z -= 1;
            sig_z = sig_z << 1u;
        }
    } else {
        let sig64_c = vec2<u32>(sig_c, 0u);
        var sig64_z: vec2<u32>;
        if exp_diff < 0 {
            sign_z = sign_c;
            exp_z = exp_c;
            sig64_z = sarek_fma_sub64(sig64_c, sarek_fma_shr_jam64(sig_prod, u32(-exp_diff)));
        } else if exp_diff == 0 {
            exp_z = exp_prod;
            sig64_z = sarek_fma_sub64(sig_prod, sig64_c);
            if sig64_z.x == 0u && sig64_z.y == 0u {
                // Complete cancellation: +0 when rounding to nearest.
                return 0.0;
            }
            if (sig64_z.x & 0x80000000u) != 0u {
                sign_z = sign_z ^ 1u;
                sig64_z = sarek_fma_sub64(vec2<u32>(0u, 0u), sig64_z);
            }
        } else {
            exp_z = exp_prod;
            sig64_z = sarek_fma_sub64(sig_prod, sarek_fma_shr_jam64(sig64_c, u32(exp_diff)));
        }
        var shift = i32(sarek_fma_clz64(sig64_z)) - 1;
        exp_z -= shift;
        shift -= 32;
        if shift < 0 {
            sig_z = sarek_fma_shr_jam64(sig64_z, u32(-shift)).y;
        } else {
            sig_z = sig64_z.y << u32(shift);
        }
    }
    return sarek_fma_round_pack(sign_z, exp_z, sig_z);
}

fn sarek_exact_fma2(a: vec2<f32>, b: vec2<f32>, c: vec2<f32>) -> vec2<f32> {
    return vec2<f32>(sarek_exact_fma(a.x, b.x, c.x), sarek_exact_fma(a.y, b.y, c.y));
}

fn sarek_exact_fma3(a: vec3<f32>, b: vec3<f32>, c: vec3<f32>) -> vec3<f32> {
    return vec3<f32>(
        sarek_exact_fma(a.x, b.x, c.x),
        sarek_exact_fma(a.y, b.y, c.y),
        sarek_exact_fma(a.z, b.z, c.z),
    );
}

fn sarek_exact_fma4(a: vec4<f32>, b: vec4<f32>, c: vec4<f32>) -> vec4<f32> {
    return vec4<f32>(
        sarek_exact_fma(a.x, b.x, c.x),
        sarek_exact_fma(a.y, b.y, c.y),
        sarek_exact_fma(a.z, b.z, c.z),
        sarek_exact_fma(a.w, b.w, c.w),
    );
}
