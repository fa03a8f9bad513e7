//! `f16` in the JIT: each value lives in an `f32` register, rounded to a half's precision
//! after every operation, which is the interpreter's meaning (`interp/value.rs`: each
//! operation computed in `f32` and rounded once to the nearest `f16`, ties to even).
//!
//! Three conversions, all inline integer and float code (Cranelift has no half-precision
//! conversion instructions on x86-64, and a call would spill every live `f32` register:
//! the System V convention saves none of them):
//!
//! - [`widen`]: a half's 16 bits to its `f32`, *keeping* a NaN's bits (a signalling NaN
//!   stays signalling), so that a half copied through registers is stored back bit for bit,
//!   as the interpreter copies its `half::f16` values;
//! - [`narrow`]: the inverse of [`widen`] on its image, for stores;
//! - [`round`]: an `f32` to the nearest half, as an `f32` (`half::f16::from_f32` then
//!   [`widen`]: a NaN gets its quiet bit and keeps its top ten payload bits).
//!
//! Where the interpreter converts a half to `f32` (`half::f16::to_f32`, which quiets a NaN),
//! the generated code applies [`quiet`]; arithmetic needs no such step, since the processor
//! quiets a NaN operand itself and [`round`] sets the quiet bit of any NaN result. Math
//! functions other than the few inlined ones run through the interpreter's own code with the
//! halves' bits (`native::math`), so their results are its bits.

use cranelift_codegen::ir::{condcodes::FloatCC, condcodes::IntCC, types, InstBuilder, Value};
use cranelift_codegen::ir::{MemFlagsData, Type};
use cranelift_frontend::FunctionBuilder;

/// `f32` bits of 2^112: the distance between a half's exponent bias and an `f32`'s.
const SCALE_UP: u32 = (127 + 112) << 23;
/// `f32` bits of 2^-112.
const SCALE_DOWN: u32 = (127 - 112) << 23;
/// `f32` bits of 2^-14, the smallest normal half.
const MIN_NORMAL: u32 = 113 << 23;
/// `f32` bits of 2^16: a value that rounds to this or above is infinite as a half.
const OVERFLOW: u32 = 143 << 23;
/// `f32` bits of infinity.
const INF: u32 = 0x7f80_0000;

fn bits(b: &mut FunctionBuilder, x: Value) -> Value {
    b.ins().bitcast(types::I32, MemFlagsData::new(), x)
}

fn float(b: &mut FunctionBuilder, x: Value) -> Value {
    b.ins().bitcast(types::F32, MemFlagsData::new(), x)
}

fn k(b: &mut FunctionBuilder, v: u32) -> Value {
    b.ins().iconst(types::I32, i64::from(v as i32))
}

/// The `f32` of the half whose bits are the low 16 bits of `h` (an `i32`), NaN bits kept.
pub(super) fn widen(b: &mut FunctionBuilder, h: Value) -> Value {
    let mag = b.ins().band_imm_s(h, 0x7fff);
    let shifted = b.ins().ishl_imm_s(mag, 13);
    // Finite: the half's exponent and mantissa in an `f32` 2^112 too small, scaled exactly
    // (a subnormal half becomes a normal `f32` by the multiplication itself).
    let small = float(b, shifted);
    let up = k(b, SCALE_UP);
    let up = float(b, up);
    let finite = b.ins().fmul(small, up);
    let finite = bits(b, finite);
    // Infinity or NaN: every exponent bit set, the mantissa as it is.
    let special = b.ins().bor_imm_s(shifted, i64::from(INF));
    let is_special = b
        .ins()
        .icmp_imm_s(IntCC::UnsignedGreaterThanOrEqual, mag, 0x7c00);
    let r = b.ins().select(is_special, special, finite);
    let sign = b.ins().band_imm_s(h, 0x8000);
    let sign = b.ins().ishl_imm_s(sign, 16);
    let r = b.ins().bor(r, sign);
    float(b, r)
}

/// The half bits (in an `i32`) of `x`, an `f32` that [`widen`] or [`round`] made.
pub(super) fn narrow(b: &mut FunctionBuilder, x: Value) -> Value {
    let u = bits(b, x);
    let mag = b.ins().band_imm_s(u, 0x7fff_ffff);
    // Finite: scaled down 2^112 exactly (a subnormal half becomes a subnormal `f32` whose
    // bits are the half's, shifted), then the top bits.
    let m = float(b, mag);
    let down = k(b, SCALE_DOWN);
    let down = float(b, down);
    let scaled = b.ins().fmul(m, down);
    let scaled = bits(b, scaled);
    let finite = b.ins().ushr_imm_s(scaled, 13);
    // Infinity or NaN: the exponent's low five bits are all set, the mantissa's top ten kept.
    let special = b.ins().ushr_imm_s(mag, 13);
    let special = b.ins().band_imm_s(special, 0x7fff);
    let is_special = b
        .ins()
        .icmp_imm_s(IntCC::UnsignedGreaterThanOrEqual, mag, i64::from(INF));
    let r = b.ins().select(is_special, special, finite);
    let sign = b.ins().ushr_imm_s(u, 16);
    let sign = b.ins().band_imm_s(sign, 0x8000);
    b.ins().bor(r, sign)
}

/// `x` rounded to the nearest half (ties to even), as an `f32`: `half::f16::from_f32(x)`
/// widened.
pub(super) fn round(b: &mut FunctionBuilder, x: Value) -> Value {
    let u = bits(b, x);
    let sign = b.ins().band_imm_s(u, 0x8000_0000u32 as i32 as i64);
    let mag = b.ins().band_imm_s(u, 0x7fff_ffff);
    // Normal halves: round the `f32`'s mantissa to its top ten bits, ties to even, on the
    // bits (a carry moves to the exponent, as it should); 2^16 or more is infinite.
    let odd = b.ins().ushr_imm_s(mag, 13);
    let odd = b.ins().band_imm_s(odd, 1);
    let up = b.ins().iadd_imm_s(mag, 0xfff);
    let up = b.ins().iadd(up, odd);
    let normal = b.ins().band_imm_s(up, 0xffff_e000u32 as i32 as i64);
    let inf = k(b, INF);
    let over = b.ins().icmp_imm_s(
        IntCC::UnsignedGreaterThanOrEqual,
        normal,
        i64::from(OVERFLOW),
    );
    let normal = b.ins().select(over, inf, normal);
    // Subnormal halves: adding 0.5, whose ulp is the smallest half, rounds to a multiple of
    // it (ties to even) in the processor; subtracting it again is exact.
    let m = float(b, mag);
    let half = b.ins().f32const(0.5);
    let sum = b.ins().fadd(m, half);
    let sub = b.ins().fsub(sum, half);
    let sub = bits(b, sub);
    let tiny = b
        .ins()
        .icmp_imm_s(IntCC::UnsignedLessThan, mag, i64::from(MIN_NORMAL));
    let r = b.ins().select(tiny, sub, normal);
    // NaN: quiet, the payload's top ten bits kept.
    let nan = b.ins().bor_imm_s(mag, 0x0040_0000);
    let nan = b.ins().band_imm_s(nan, 0xffff_e000u32 as i32 as i64);
    let is_nan = b
        .ins()
        .icmp_imm_s(IntCC::UnsignedGreaterThan, mag, i64::from(INF));
    let r = b.ins().select(is_nan, nan, r);
    let r = b.ins().bor(r, sign);
    float(b, r)
}

/// `x` with its quiet bit set if it is a NaN: `half::f16::to_f32` of a half held as
/// [`widen`] keeps it.
pub(super) fn quiet(b: &mut FunctionBuilder, x: Value) -> Value {
    let is_nan = b.ins().fcmp(FloatCC::Unordered, x, x);
    let u = bits(b, x);
    let q = b.ins().bor_imm_s(u, 0x0040_0000);
    let q = float(b, q);
    b.ins().select(is_nan, q, x)
}

/// The register type of a half.
pub(super) const REG: Type = types::F32;

/// The `f32` a half literal (its bits) lives as: [`widen`] at compile time.
pub(super) fn literal(h: u16) -> f32 {
    let h = u32::from(h);
    let sign = (h & 0x8000) << 16;
    let mag = h & 0x7fff;
    let r = if mag >= 0x7c00 {
        (mag << 13) | INF
    } else {
        (f32::from_bits(mag << 13) * f32::from_bits(SCALE_UP)).to_bits()
    };
    f32::from_bits(r | sign)
}
