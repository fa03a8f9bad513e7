//! The table of math intrinsics: for each [`MathFun`], the Rust names a kernel calls it by,
//! its arity, the types it takes and gives, how WGSL spells it and its line in the docs. The
//! front end reads names, arity and type rules here, the WGSL writer prints
//! [`Wgsl::Builtin`] spellings from here, and each backend implements the others in one
//! `match` over [`MathFun`] without a wildcard arm, so that a new entry without an
//! implementation is a compile error of Sarek itself.
//!
//! The table is data only: it imports nothing of the stages that read it.

use super::MathFun;

/// Which receivers a method is defined on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum On {
    /// `f32` and `f16` (and an unsuffixed float literal).
    Float,
    /// `i32` and `u32` (`usize` is `u32` in a kernel).
    Int,
    /// `i32`.
    Signed,
    /// `u32`.
    Unsigned,
}

/// The type of an argument after the receiver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arg {
    /// The receiver's type.
    Same,
    /// `u32`.
    U32,
    /// `i32`.
    I32,
}

/// The result type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Out {
    /// The receiver's type.
    Same,
    /// `u32`.
    U32,
    /// `bool`.
    Bool,
    /// `f32`.
    F32,
}

/// How the front end types a call of an intrinsic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// A float function: receiver and arguments unify to `f32` or `f16`, the result is their
    /// type.
    Float,
    /// Any number (not `bool`): receiver and arguments unify, the result is their type;
    /// `unsigned: false` refuses `u32` (there is no `u32::abs`).
    Number {
        /// Whether `u32` receivers are accepted.
        unsigned: bool,
    },
    /// A bit count of an integer: the result is a `u32`.
    Count,
    /// Integer powering: an integer receiver, a `u32` exponent, the receiver's type.
    IntPow,
    /// The receivers `on`, the arguments `args` after the receiver, the result `out`.
    Method {
        /// The receivers.
        on: On,
        /// The arguments after the receiver.
        args: &'static [Arg],
        /// The result.
        out: Out,
    },
    /// A method of the vector types (`front/lower/vectors.rs` types it).
    Vector,
    /// A `sarek::gpu` packing function (`front/lower/packing.rs` types it).
    Packing,
    /// Made by the lowering of another form (`signum`'s receiver decides its rule, the
    /// overflow flags are the second half of `overflowing_*`).
    Lowered,
}

/// How WGSL spells an intrinsic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wgsl {
    /// WGSL's builtin of this name, which the writer prints as `name(args)` for the types where
    /// it means Rust's (its `polyfill` match spells the others, such as `min` of `f32`).
    Builtin(&'static str),
    /// The WGSL writer spells it (a helper function of Sarek's, per type where needed, or a
    /// short inline form) in its `polyfill` match.
    Helper,
}

/// One row of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Intrinsic {
    /// The Rust names a kernel calls it by (method and `f32::name(x)` path forms); empty
    /// where it has none of its own.
    pub names: &'static [&'static str],
    /// The number of operands, counting the receiver.
    pub arity: usize,
    /// How the front end types it.
    pub rule: Rule,
    /// How WGSL spells it.
    pub wgsl: Wgsl,
    /// Its line in the docs: what it computes where Rust's meaning needs a word.
    pub doc: &'static str,
}

const fn row(
    names: &'static [&'static str],
    arity: usize,
    rule: Rule,
    wgsl: Wgsl,
    doc: &'static str,
) -> Intrinsic {
    Intrinsic {
        names,
        arity,
        rule,
        wgsl,
        doc,
    }
}

/// A float function of `arity` operands.
const fn float(
    names: &'static [&'static str],
    arity: usize,
    wgsl: Wgsl,
    doc: &'static str,
) -> Intrinsic {
    row(names, arity, Rule::Float, wgsl, doc)
}

/// A method with the receivers `on`, arguments `args` and result `out`.
const fn method(
    names: &'static [&'static str],
    on: On,
    args: &'static [Arg],
    out: Out,
    wgsl: Wgsl,
    doc: &'static str,
) -> Intrinsic {
    row(
        names,
        args.len() + 1,
        Rule::Method { on, args, out },
        wgsl,
        doc,
    )
}

use Wgsl::{Builtin, Helper};

/// The table: `MathFun::X => row`, once per variant. It defines [`MathFun::intrinsic`] as a
/// `match` (so that every variant has a row) and [`MathFun::ALL`] from the same list.
macro_rules! table {
    ($($fun:ident => $row:expr,)*) => {
        impl MathFun {
            /// Every math function, in the table's order.
            pub const ALL: &'static [MathFun] = &[$(MathFun::$fun),*];

            /// This function's row of the table.
            pub const fn intrinsic(self) -> Intrinsic {
                match self {
                    $(MathFun::$fun => $row,)*
                }
            }
        }
    };
}

const NONE: &[Arg] = &[];

table! {
    Abs => row(&["abs"], 1, Rule::Number { unsigned: false }, Builtin("abs"), "`abs` (`i32::MIN.abs()` wraps)"),
    // WGSL's `min` and `max` of `f32` may return either operand for a NaN: a helper there.
    Min => row(&["min"], 2, Rule::Number { unsigned: true }, Builtin("min"), "`min` (a NaN operand gives the other)"),
    Max => row(&["max"], 2, Rule::Number { unsigned: true }, Builtin("max"), "`max` (a NaN operand gives the other)"),
    Sqrt => float(&["sqrt"], 1, Builtin("sqrt"), "`sqrt`"),
    Sin => float(&["sin"], 1, Builtin("sin"), "`sin`"),
    Cos => float(&["cos"], 1, Builtin("cos"), "`cos`"),
    Tan => float(&["tan"], 1, Builtin("tan"), "`tan`"),
    Exp => float(&["exp"], 1, Builtin("exp"), "`exp`"),
    Ln => float(&["ln"], 1, Builtin("log"), "`ln`"),
    Powf => float(&["powf"], 2, Builtin("pow"), "`powf`"),
    Floor => float(&["floor"], 1, Builtin("floor"), "`floor`"),
    Ceil => float(&["ceil"], 1, Builtin("ceil"), "`ceil`"),
    Trunc => float(&["trunc"], 1, Builtin("trunc"), "`trunc`"),
    Round => float(&["round"], 1, Helper, "`round` (half away from zero)"),
    MulAdd => float(&["mul_add"], 3, Builtin("fma"), "`mul_add` (fused)"),
    Dot => row(&["dot"], 2, Rule::Vector, Builtin("dot"), "`dot`"),
    Cross => row(&["cross"], 2, Rule::Vector, Builtin("cross"), "`cross`"),
    Length => row(&["length"], 1, Rule::Vector, Builtin("length"), "`length`"),
    LengthSquared => row(&["length_squared"], 1, Rule::Vector, Helper, "`length_squared`"),
    Normalize => row(&["normalize"], 1, Rule::Vector, Builtin("normalize"), "`normalize`"),
    Distance => row(&["distance"], 2, Rule::Vector, Builtin("distance"), "`distance`"),
    Log10 => float(&["log10"], 1, Helper, "`log10`"),
    Log2 => float(&["log2"], 1, Helper, "`log2`"),
    Cbrt => float(&["cbrt"], 1, Helper, "`cbrt`"),
    Hypot => float(&["hypot"], 2, Helper, "`hypot`"),
    ExpM1 => float(&["exp_m1"], 1, Helper, "`exp_m1`"),
    Ln1p => float(&["ln_1p"], 1, Helper, "`ln_1p`"),
    Copysign => float(&["copysign"], 2, Helper, "`copysign`"),
    Recip => float(&["recip"], 1, Helper, "`recip`"),
    ToDegrees => float(&["to_degrees"], 1, Helper, "`to_degrees`"),
    ToRadians => float(&["to_radians"], 1, Helper, "`to_radians`"),
    Signum => row(&["signum"], 1, Rule::Lowered, Helper, "`signum` (`f32`: `±1` from the sign bit, NaN for NaN; `i32`)"),
    RemEuclid => row(&["rem_euclid"], 2, Rule::Number { unsigned: true }, Helper, "`rem_euclid`"),
    Clamp => row(&["clamp"], 3, Rule::Number { unsigned: true }, Helper, "`clamp(min, max)`"),
    Atan2 => float(&["atan2"], 2, Helper, "`y.atan2(x)`"),
    Tanh => float(&["tanh"], 1, Helper, "`tanh`"),
    Asinh => float(&["asinh"], 1, Helper, "`asinh`"),
    Acosh => float(&["acosh"], 1, Helper, "`acosh`"),
    Atanh => float(&["atanh"], 1, Helper, "`atanh`"),
    CountOnes => row(&["count_ones"], 1, Rule::Count, Helper, "`count_ones`"),
    LeadingZeros => row(&["leading_zeros"], 1, Rule::Count, Helper, "`leading_zeros`"),
    TrailingZeros => row(&["trailing_zeros"], 1, Rule::Count, Helper, "`trailing_zeros`"),
    Pow => row(&["pow", "wrapping_pow"], 2, Rule::IntPow, Helper, "`pow(exp: u32)` (wrapping)"),
    Asin => method(&["asin"], On::Float, NONE, Out::Same, Helper, "`asin`"),
    Acos => method(&["acos"], On::Float, NONE, Out::Same, Helper, "`acos`"),
    Atan => method(&["atan"], On::Float, NONE, Out::Same, Helper, "`atan`"),
    Sinh => method(&["sinh"], On::Float, NONE, Out::Same, Helper, "`sinh`"),
    Cosh => method(&["cosh"], On::Float, NONE, Out::Same, Helper, "`cosh`"),
    Exp2 => method(&["exp2"], On::Float, NONE, Out::Same, Helper, "`exp2`"),
    Powi => method(&["powi"], On::Float, &[Arg::I32], Out::Same, Helper, "`powi(n: i32)`"),
    Fract => method(&["fract"], On::Float, NONE, Out::Same, Helper, "`fract`"),
    IsNan => method(&["is_nan"], On::Float, NONE, Out::Bool, Helper, "`is_nan`"),
    IsInfinite => method(&["is_infinite"], On::Float, NONE, Out::Bool, Helper, "`is_infinite`"),
    IsFinite => method(&["is_finite"], On::Float, NONE, Out::Bool, Helper, "`is_finite`"),
    IsSignNegative => method(&["is_sign_negative"], On::Float, NONE, Out::Bool, Helper, "`is_sign_negative`"),
    ToBits => method(&["to_bits"], On::Float, NONE, Out::U32, Helper, "`to_bits`"),
    // Only as `f32::from_bits(bits)`: the operand is the `u32`.
    FromBits => method(&["from_bits"], On::Unsigned, NONE, Out::F32, Helper, "`f32::from_bits(u)`"),
    DivCeil => method(&["div_ceil"], On::Unsigned, &[Arg::Same], Out::Same, Helper, "`div_ceil` (a zero divisor gives the dividend)"),
    DivEuclid => method(&["div_euclid"], On::Int, &[Arg::Same], Out::Same, Helper, "`div_euclid` (a zero divisor gives the dividend)"),
    AbsDiff => method(&["abs_diff"], On::Int, &[Arg::Same], Out::U32, Helper, "`abs_diff`"),
    SaturatingAdd => method(&["saturating_add"], On::Int, &[Arg::Same], Out::Same, Helper, "`saturating_add`"),
    SaturatingSub => method(&["saturating_sub"], On::Int, &[Arg::Same], Out::Same, Helper, "`saturating_sub`"),
    SaturatingMul => method(&["saturating_mul"], On::Int, &[Arg::Same], Out::Same, Helper, "`saturating_mul`"),
    AddOverflows => row(&[], 2, Rule::Lowered, Helper, "the flag of `overflowing_add`"),
    SubOverflows => row(&[], 2, Rule::Lowered, Helper, "the flag of `overflowing_sub`"),
    MulOverflows => row(&[], 2, Rule::Lowered, Helper, "the flag of `overflowing_mul`"),
    RotateLeft => method(&["rotate_left"], On::Int, &[Arg::U32], Out::Same, Helper, "`rotate_left(n: u32)`"),
    RotateRight => method(&["rotate_right"], On::Int, &[Arg::U32], Out::Same, Helper, "`rotate_right(n: u32)`"),
    ReverseBits => method(&["reverse_bits"], On::Int, NONE, Out::Same, Builtin("reverseBits"), "`reverse_bits`"),
    SwapBytes => method(&["swap_bytes"], On::Int, NONE, Out::Same, Helper, "`swap_bytes`"),
    CountZeros => method(&["count_zeros"], On::Int, NONE, Out::U32, Helper, "`count_zeros`"),
    LeadingOnes => method(&["leading_ones"], On::Int, NONE, Out::U32, Helper, "`leading_ones`"),
    TrailingOnes => method(&["trailing_ones"], On::Int, NONE, Out::U32, Helper, "`trailing_ones`"),
    IsPowerOfTwo => method(&["is_power_of_two"], On::Unsigned, NONE, Out::Bool, Helper, "`is_power_of_two`"),
    NextPowerOfTwo => method(&["next_power_of_two"], On::Unsigned, NONE, Out::Same, Helper, "`next_power_of_two` (0 where it overflows)"),
    Ilog2 => method(&["ilog2"], On::Int, NONE, Out::U32, Helper, "`ilog2` (`u32::MAX` for zero and negative values)"),
    UnsignedAbs => method(&["unsigned_abs"], On::Signed, NONE, Out::U32, Helper, "`unsigned_abs`"),
    Isqrt => method(&["isqrt"], On::Int, NONE, Out::Same, Helper, "`isqrt` (`-1` for a negative `i32`)"),
    Pack4xU8 => row(&["pack4x_u8"], 1, Rule::Packing, Builtin("pack4xU8"), "`pack4x_u8(UVec4) -> u32`"),
    Pack4xI8 => row(&["pack4x_i8"], 1, Rule::Packing, Builtin("pack4xI8"), "`pack4x_i8(IVec4) -> u32`"),
    Unpack4xU8 => row(&["unpack4x_u8"], 1, Rule::Packing, Builtin("unpack4xU8"), "`unpack4x_u8(u32) -> UVec4`"),
    Unpack4xI8 => row(&["unpack4x_i8"], 1, Rule::Packing, Builtin("unpack4xI8"), "`unpack4x_i8(u32) -> IVec4`"),
    Pack2x16Float => row(&["pack2x16_float"], 1, Rule::Packing, Helper, "`pack2x16_float(Vec2) -> u32`"),
    Unpack2x16Float => row(&["unpack2x16_float"], 1, Rule::Packing, Helper, "`unpack2x16_float(u32) -> Vec2`"),
    Erf => method(&["erf"], On::Float, NONE, Out::Same, Helper, "`erf`, the error function (a polyfill: 2 ULP of `f32` over every input)"),
}

impl MathFun {
    /// The function a kernel calls `name` on a scalar (a method of `f32`, `f16` or the
    /// integers, or its path form), if the front end types it with a rule of its own
    /// ([`Rule::Float`], [`Rule::Number`], [`Rule::Count`], [`Rule::IntPow`],
    /// [`Rule::Method`]).
    pub fn scalar_method(name: &str) -> Option<MathFun> {
        MathFun::ALL.iter().copied().find(|f| {
            let row = f.intrinsic();
            !matches!(row.rule, Rule::Vector | Rule::Packing | Rule::Lowered)
                && row.names.contains(&name)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_is_consistent() {
        let mut seen = std::collections::HashSet::new();
        for &f in MathFun::ALL {
            let row = f.intrinsic();
            assert!(!row.doc.is_empty(), "{f:?} has no docs line");
            if let Rule::Method { args, .. } = row.rule {
                assert_eq!(row.arity, args.len() + 1, "{f:?}");
            }
            for name in row.names {
                // A name means one function among those typed by their own rule.
                if !matches!(row.rule, Rule::Vector | Rule::Packing) {
                    assert!(seen.insert(*name), "`{name}` is in two rows");
                }
                assert!(
                    row.rule == Rule::Lowered
                        || matches!(row.rule, Rule::Vector | Rule::Packing)
                        || MathFun::scalar_method(name) == Some(f),
                    "{f:?}"
                );
            }
            if let Wgsl::Builtin(name) = row.wgsl {
                assert!(!name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric()));
            }
        }
    }
}
