//! Values of the interpreter and the operators on them, with the meaning the WGSL back end
//! gives them (Rust's, with the GPU's defined results where Rust would panic).

use crate::ir::{BinaryOp, Literal, MathFun, Scalar, UnaryOp};

/// A value computed by a kernel on the CPU.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// An `f32`.
    F32(f32),
    /// An `i32`.
    I32(i32),
    /// A `u32` (or `usize`).
    U32(u32),
    /// A `bool`.
    Bool(bool),
    /// An `f16`; every operation rounds its result to the nearest `f16` (ties to even), as
    /// the GPU's half-precision arithmetic does.
    F16(half::f16),
    /// An `i64`.
    I64(i64),
    /// A `u64`.
    U64(u64),
    /// A vector of `n` components of one scalar type, as bits.
    Vector(Scalar, u8, [u32; 4]),
    /// A struct's fields or an array's elements, in order.
    Composite(Box<[Value]>),
}

impl Value {
    /// The value of a literal.
    pub fn literal(l: Literal) -> Value {
        match l {
            Literal::F32(v) => Value::F32(v),
            Literal::I32(v) => Value::I32(v),
            Literal::U32(v) => Value::U32(v),
            Literal::Bool(v) => Value::Bool(v),
            Literal::F16(bits) => Value::F16(half::f16::from_bits(bits)),
            Literal::I64(v) => Value::I64(v),
            Literal::U64(v) => Value::U64(v),
        }
    }

    /// A scalar of type `s` from its 32 bits in memory (`bool` is 0 or 1; a 64-bit integer
    /// gets them as its low word, see [`Value::from_bits64`]).
    pub fn from_bits(s: Scalar, bits: u32) -> Value {
        Value::from_bits64(s, u64::from(bits))
    }

    /// A scalar of type `s` from its bits in memory (a 32-bit scalar from the low word).
    pub fn from_bits64(s: Scalar, bits: u64) -> Value {
        let low = bits as u32;
        match s {
            Scalar::I64 => Value::I64(bits as i64),
            Scalar::U64 => Value::U64(bits),
            Scalar::F32 => Value::F32(f32::from_bits(low)),
            Scalar::I32 => Value::I32(low as i32),
            Scalar::U32 => Value::U32(low),
            Scalar::Bool => Value::Bool(low != 0),
            Scalar::F16 => Value::F16(half::f16::from_bits(low as u16)),
        }
    }

    /// A scalar's 32 bits in memory (a 64-bit integer's low word).
    pub fn bits(&self) -> u32 {
        self.bits64() as u32
    }

    /// A scalar's bits in memory, 64 for `i64` and `u64`, else 32 zero-extended.
    pub fn bits64(&self) -> u64 {
        u64::from(match *self {
            Value::I64(v) => return v as u64,
            Value::U64(v) => return v,
            Value::F32(v) => v.to_bits(),
            Value::I32(v) => v as u32,
            Value::U32(v) => v,
            Value::Bool(v) => u32::from(v),
            Value::F16(v) => u32::from(v.to_bits()),
            Value::Vector(..) | Value::Composite(_) => 0,
        })
    }

    /// The value as an index, count or shift amount (`u32` and `i32` alike, a 64-bit integer
    /// its low word; anything else is 0).
    pub fn as_u32(&self) -> u32 {
        match *self {
            Value::U32(v) => v,
            Value::I32(v) => v as u32,
            Value::I64(v) => v as u32,
            Value::U64(v) => v as u32,
            _ => 0,
        }
    }

    /// Whether the value is `true`.
    pub fn is_true(&self) -> bool {
        matches!(self, Value::Bool(true))
    }

    /// Component `i` of a vector.
    pub fn component(&self, i: usize) -> Value {
        match self {
            Value::Vector(s, _, bits) => Value::from_bits(*s, bits[i & 3]),
            Value::Composite(parts) => parts.get(i).cloned().unwrap_or(Value::U32(0)),
            other => other.clone(),
        }
    }

    /// A vector from its components.
    pub fn vector(s: Scalar, parts: impl IntoIterator<Item = Value>) -> Value {
        let mut bits = [0; 4];
        let mut n = 0u8;
        for (slot, v) in bits.iter_mut().zip(parts) {
            *slot = v.bits();
            n += 1;
        }
        Value::Vector(s, n, bits)
    }

    fn scalar_type(&self) -> Scalar {
        match self {
            Value::F32(_) => Scalar::F32,
            Value::I32(_) => Scalar::I32,
            Value::Bool(_) => Scalar::Bool,
            Value::F16(_) => Scalar::F16,
            Value::I64(_) => Scalar::I64,
            Value::U64(_) => Scalar::U64,
            Value::Vector(s, ..) => *s,
            _ => Scalar::U32,
        }
    }

    fn width(&self) -> Option<usize> {
        match self {
            Value::Vector(_, n, _) => Some(usize::from(*n)),
            _ => None,
        }
    }

    /// Applies `f` to each component (a scalar is its own only component).
    fn map(&self, to: Scalar, f: impl Fn(Value) -> Value) -> Value {
        match self.width() {
            Some(n) => Value::vector(to, (0..n).map(|i| f(self.component(i)))),
            None => f(self.clone()),
        }
    }
}

/// Why an operation has no value: the opt-in checks report these; unchecked, the operation
/// gives WGSL's defined result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trap {
    /// An integer `/` by zero (WGSL gives the dividend).
    DivisionByZero,
    /// An integer `%` by zero (WGSL gives 0).
    RemainderByZero,
}

/// Whether `left op right` divides an integer by zero.
pub fn trap(op: BinaryOp, left: &Value, right: &Value) -> Option<Trap> {
    if !left.scalar_type().is_integer() {
        return None;
    }
    let zero = match right.width() {
        Some(n) => (0..n).any(|i| right.component(i).bits() == 0),
        None => right.bits64() == 0,
    };
    match op {
        BinaryOp::Div if zero => Some(Trap::DivisionByZero),
        BinaryOp::Rem if zero => Some(Trap::RemainderByZero),
        _ => None,
    }
}

/// `left op right`.
pub fn binary(op: BinaryOp, left: &Value, right: &Value) -> Value {
    match (left.width(), right.width()) {
        (None, None) => scalar_binary(op, left, right),
        (l, r) => {
            let n = l.or(r).unwrap_or(1);
            let parts = (0..n).map(|i| scalar_binary(op, &left.component(i), &right.component(i)));
            match op {
                BinaryOp::Eq => Value::Bool(parts.into_iter().all(|p| p.is_true())),
                BinaryOp::Ne => Value::Bool(parts.into_iter().any(|p| p.is_true())),
                _ => {
                    let s = if op.is_comparison() {
                        Scalar::Bool
                    } else {
                        left.scalar_type()
                    };
                    Value::vector(s, parts)
                }
            }
        }
    }
}

fn scalar_binary(op: BinaryOp, left: &Value, right: &Value) -> Value {
    use BinaryOp::*;
    use Value::*;
    let amount = right.as_u32() & 31;
    match (left, right) {
        // In `f32`, rounded to the nearest `f16` (ties to even): `f32` holds the exact result
        // of `+ - *` on halves and rounds `/` and `%` far below a half's precision, so the
        // double rounding never changes the half (the GPU rounds the exact result once).
        (&F16(a), &F16(b)) => match scalar_binary(op, &F32(a.to_f32()), &F32(b.to_f32())) {
            F32(r) => F16(half::f16::from_f32(r)),
            other => other,
        },
        (&F32(a), &F32(b)) => match op {
            Add => F32(a + b),
            Sub => F32(a - b),
            Mul => F32(a * b),
            Div => F32(a / b),
            Rem => F32(a % b),
            Eq => Bool(a == b),
            Ne => Bool(a != b),
            Lt => Bool(a < b),
            Le => Bool(a <= b),
            Gt => Bool(a > b),
            Ge => Bool(a >= b),
            _ => F32(0.0),
        },
        (&I32(a), _) => match op {
            Add => I32(a.wrapping_add(right.as_u32() as i32)),
            Sub => I32(a.wrapping_sub(right.as_u32() as i32)),
            Mul => I32(a.wrapping_mul(right.as_u32() as i32)),
            Div => {
                let b = right.as_u32() as i32;
                I32(if b == 0 { a } else { a.wrapping_div(b) })
            }
            Rem => {
                let b = right.as_u32() as i32;
                I32(if b == 0 { 0 } else { a.wrapping_rem(b) })
            }
            BitAnd => I32(a & right.as_u32() as i32),
            BitOr => I32(a | right.as_u32() as i32),
            BitXor => I32(a ^ right.as_u32() as i32),
            Shl => I32(a.wrapping_shl(amount)),
            Shr => I32(a.wrapping_shr(amount)),
            Eq => Bool(a == right.as_u32() as i32),
            Ne => Bool(a != right.as_u32() as i32),
            Lt => Bool(a < right.as_u32() as i32),
            Le => Bool(a <= right.as_u32() as i32),
            Gt => Bool(a > right.as_u32() as i32),
            Ge => Bool(a >= right.as_u32() as i32),
            LogicalAnd | LogicalOr => I32(0),
        },
        (&I64(a), _) => {
            let b = right.bits64() as i64;
            let amount = right.as_u32() & 63;
            match op {
                Add => I64(a.wrapping_add(b)),
                Sub => I64(a.wrapping_sub(b)),
                Mul => I64(a.wrapping_mul(b)),
                Div => I64(if b == 0 { a } else { a.wrapping_div(b) }),
                Rem => I64(if b == 0 { 0 } else { a.wrapping_rem(b) }),
                BitAnd => I64(a & b),
                BitOr => I64(a | b),
                BitXor => I64(a ^ b),
                Shl => I64(a.wrapping_shl(amount)),
                Shr => I64(a.wrapping_shr(amount)),
                Eq => Bool(a == b),
                Ne => Bool(a != b),
                Lt => Bool(a < b),
                Le => Bool(a <= b),
                Gt => Bool(a > b),
                Ge => Bool(a >= b),
                LogicalAnd | LogicalOr => I64(0),
            }
        }
        (&U64(a), _) => {
            let b = right.bits64();
            let amount = right.as_u32() & 63;
            match op {
                Add => U64(a.wrapping_add(b)),
                Sub => U64(a.wrapping_sub(b)),
                Mul => U64(a.wrapping_mul(b)),
                Div => U64(a.checked_div(b).unwrap_or(a)),
                Rem => U64(a.checked_rem(b).unwrap_or(0)),
                BitAnd => U64(a & b),
                BitOr => U64(a | b),
                BitXor => U64(a ^ b),
                Shl => U64(a.wrapping_shl(amount)),
                Shr => U64(a.wrapping_shr(amount)),
                Eq => Bool(a == b),
                Ne => Bool(a != b),
                Lt => Bool(a < b),
                Le => Bool(a <= b),
                Gt => Bool(a > b),
                Ge => Bool(a >= b),
                LogicalAnd | LogicalOr => U64(0),
            }
        }
        (&U32(a), _) => {
            let b = right.as_u32();
            match op {
                Add => U32(a.wrapping_add(b)),
                Sub => U32(a.wrapping_sub(b)),
                Mul => U32(a.wrapping_mul(b)),
                Div => U32(a.checked_div(b).unwrap_or(a)),
                Rem => U32(a.checked_rem(b).unwrap_or(0)),
                BitAnd => U32(a & b),
                BitOr => U32(a | b),
                BitXor => U32(a ^ b),
                Shl => U32(a.wrapping_shl(amount)),
                Shr => U32(a.wrapping_shr(amount)),
                Eq => Bool(a == b),
                Ne => Bool(a != b),
                Lt => Bool(a < b),
                Le => Bool(a <= b),
                Gt => Bool(a > b),
                Ge => Bool(a >= b),
                LogicalAnd | LogicalOr => U32(0),
            }
        }
        (&Bool(a), &Bool(b)) => Bool(match op {
            BitAnd | LogicalAnd => a & b,
            BitOr | LogicalOr => a | b,
            BitXor | Ne => a ^ b,
            Eq => a == b,
            Lt => !a & b,
            Le => a <= b,
            Gt => a & !b,
            Ge => a >= b,
            _ => false,
        }),
        (Composite(a), Composite(b)) => match op {
            Eq => Bool(a == b),
            Ne => Bool(a != b),
            _ => left.clone(),
        },
        _ => left.clone(),
    }
}

/// `op value`.
pub fn unary(op: UnaryOp, value: &Value) -> Value {
    value.map(value.scalar_type(), |v| match (op, v) {
        (UnaryOp::Neg, Value::F32(a)) => Value::F32(-a),
        (UnaryOp::Neg, Value::F16(a)) => Value::F16(-a),
        (UnaryOp::Neg, Value::I32(a)) => Value::I32(a.wrapping_neg()),
        (UnaryOp::Neg, Value::U32(a)) => Value::U32(a.wrapping_neg()),
        (UnaryOp::Not, Value::Bool(a)) => Value::Bool(!a),
        (UnaryOp::Not, Value::I32(a)) => Value::I32(!a),
        (UnaryOp::Not, Value::U32(a)) => Value::U32(!a),
        (UnaryOp::Neg, Value::I64(a)) => Value::I64(a.wrapping_neg()),
        (UnaryOp::Neg, Value::U64(a)) => Value::U64(a.wrapping_neg()),
        (UnaryOp::Not, Value::I64(a)) => Value::I64(!a),
        (UnaryOp::Not, Value::U64(a)) => Value::U64(!a),
        (_, other) => other,
    })
}

/// `value as to`, with Rust's meaning (float-to-int saturates, NaN is 0).
pub fn cast(value: &Value, to: Scalar) -> Value {
    value.map(to, |v| match (v, to) {
        // `f16` converts through `f32` exactly; an integer rounds once (every integer that
        // does not round to infinity is exact in `f32`), `f16` to an integer saturates.
        (Value::F16(a), Scalar::F16) => Value::F16(a),
        (Value::F16(a), to) => cast(&Value::F32(a.to_f32()), to),
        (Value::Bool(a), Scalar::F16) => Value::F16(half::f16::from_f32(f32::from(u8::from(a)))),
        (v, Scalar::F16) => match cast(&v, Scalar::F32) {
            Value::F32(a) => Value::F16(half::f16::from_f32(a)),
            other => other,
        },
        // Rust's `as` between widths: sign- or zero-extension from the source's signedness,
        // truncation to the low bits; from `f32`, saturating with NaN to 0.
        (Value::F32(a), Scalar::I64) => Value::I64(a as i64),
        (Value::F32(a), Scalar::U64) => Value::U64(a as u64),
        (Value::I32(a), Scalar::I64) => Value::I64(i64::from(a)),
        (Value::I32(a), Scalar::U64) => Value::U64(a as u64),
        (Value::U32(a), Scalar::I64) => Value::I64(i64::from(a)),
        (Value::U32(a), Scalar::U64) => Value::U64(u64::from(a)),
        (Value::Bool(a), Scalar::I64) => Value::I64(i64::from(a)),
        (Value::Bool(a), Scalar::U64) => Value::U64(u64::from(a)),
        (Value::I64(a), Scalar::F32) => Value::F32(a as f32),
        (Value::I64(a), Scalar::I32) => Value::I32(a as i32),
        (Value::I64(a), Scalar::U32) => Value::U32(a as u32),
        (Value::I64(a), Scalar::I64) => Value::I64(a),
        (Value::I64(a), Scalar::U64) => Value::U64(a as u64),
        (Value::I64(a), Scalar::Bool) => Value::Bool(a != 0),
        (Value::U64(a), Scalar::F32) => Value::F32(a as f32),
        (Value::U64(a), Scalar::I32) => Value::I32(a as i32),
        (Value::U64(a), Scalar::U32) => Value::U32(a as u32),
        (Value::U64(a), Scalar::I64) => Value::I64(a as i64),
        (Value::U64(a), Scalar::U64) => Value::U64(a),
        (Value::U64(a), Scalar::Bool) => Value::Bool(a != 0),
        (Value::F32(a), Scalar::F32) => Value::F32(a),
        (Value::F32(a), Scalar::I32) => Value::I32(a as i32),
        (Value::F32(a), Scalar::U32) => Value::U32(a as u32),
        (Value::F32(a), Scalar::Bool) => Value::Bool(a != 0.0),
        (Value::I32(a), Scalar::F32) => Value::F32(a as f32),
        (Value::I32(a), Scalar::I32) => Value::I32(a),
        (Value::I32(a), Scalar::U32) => Value::U32(a as u32),
        (Value::I32(a), Scalar::Bool) => Value::Bool(a != 0),
        (Value::U32(a), Scalar::F32) => Value::F32(a as f32),
        (Value::U32(a), Scalar::I32) => Value::I32(a as i32),
        (Value::U32(a), Scalar::U32) => Value::U32(a),
        (Value::U32(a), Scalar::Bool) => Value::Bool(a != 0),
        (Value::Bool(a), Scalar::F32) => Value::F32(f32::from(u8::from(a))),
        (Value::Bool(a), Scalar::I32) => Value::I32(i32::from(a)),
        (Value::Bool(a), Scalar::U32) => Value::U32(u32::from(a)),
        (Value::Bool(a), Scalar::Bool) => Value::Bool(a),
        (other, _) => other,
    })
}

/// A math function, with Rust's meaning (`std`'s own implementation for the floats, which the
/// GPU's polyfills approximate within the documented bounds).
pub fn math(fun: MathFun, args: &[Value]) -> Value {
    if args.first().is_some_and(|a| a.scalar_type() == Scalar::F16) {
        // `f16` math runs in `f32` and rounds once, as the WGSL back end prints it.
        let wide: Vec<Value> = args
            .iter()
            .map(|a| match a.scalar_type() {
                Scalar::F16 => cast(a, Scalar::F32),
                _ => a.clone(),
            })
            .collect();
        let r = math(fun, &wide);
        return match r.scalar_type() {
            Scalar::F32 => cast(&r, Scalar::F16),
            _ => r,
        };
    }
    let arg = |i: usize| args.get(i).cloned().unwrap_or(Value::U32(0));
    let (a, b, c) = (arg(0), arg(1), arg(2));
    match fun {
        MathFun::Dot => {
            let n = a.width().unwrap_or(1);
            let products =
                (0..n).map(|i| scalar_binary(BinaryOp::Mul, &a.component(i), &b.component(i)));
            products
                .reduce(|x, y| scalar_binary(BinaryOp::Add, &x, &y))
                .unwrap_or(Value::F32(0.0))
        }
        MathFun::Pack4xU8
        | MathFun::Pack4xI8
        | MathFun::Unpack4xU8
        | MathFun::Unpack4xI8
        | MathFun::Pack2x16Float
        | MathFun::Unpack2x16Float => super::packing::eval(fun, &a),
        MathFun::LengthSquared => math(MathFun::Dot, &[a.clone(), a]),
        MathFun::Length => match math(MathFun::Dot, &[a.clone(), a]) {
            Value::F32(d) => Value::F32(d.sqrt()),
            other => other,
        },
        MathFun::Distance => {
            let d = binary(BinaryOp::Sub, &a, &b);
            math(MathFun::Length, &[d])
        }
        MathFun::Normalize => {
            let len = math(MathFun::Length, std::slice::from_ref(&a));
            binary(BinaryOp::Div, &a, &len)
        }
        MathFun::Cross => {
            let f = |v: &Value, i| match v.component(i) {
                Value::F32(x) => x,
                _ => 0.0,
            };
            let (x1, y1, z1) = (f(&a, 0), f(&a, 1), f(&a, 2));
            let (x2, y2, z2) = (f(&b, 0), f(&b, 1), f(&b, 2));
            Value::vector(
                Scalar::F32,
                [
                    Value::F32(y1 * z2 - z1 * y2),
                    Value::F32(z1 * x2 - x1 * z2),
                    Value::F32(x1 * y2 - y1 * x2),
                ],
            )
        }
        _ => {
            let out = match fun {
                MathFun::CountOnes | MathFun::LeadingZeros | MathFun::TrailingZeros => Scalar::U32,
                _ => a.scalar_type(),
            };
            // A scalar argument next to a vector one is its own every component.
            match a.width() {
                Some(n) => Value::vector(
                    out,
                    (0..n).map(|i| {
                        component_math(fun, a.component(i), b.component(i), c.component(i))
                    }),
                ),
                None => component_math(fun, a, b, c),
            }
        }
    }
}

fn component_math(fun: MathFun, a: Value, b: Value, c: Value) -> Value {
    use MathFun::*;
    let as_f32 = |v: &Value| match *v {
        Value::F32(y) => y,
        _ => 0.0,
    };
    if let Value::F32(x) = a {
        // The `f32 -> f32` functions, through the functions the JIT calls.
        if let Some(f) = super::f32_math::unary(fun) {
            return Value::F32(f(x));
        }
        if let Some(f) = super::f32_math::binary(fun) {
            return Value::F32(f(x, as_f32(&b)));
        }
    }
    if let Some(v) = super::std_math::eval(fun, &a, &b) {
        return v;
    }
    match (a, b, c) {
        (Value::F32(x), b, c) => {
            let (y, z) = (as_f32(&b), as_f32(&c));
            Value::F32(match fun {
                MulAdd => x.mul_add(y, z),
                // As the GPU's polyfill writes it (Rust's `clamp` panics when `lo > hi`).
                Clamp => {
                    let mut r = x;
                    if r < y {
                        r = y;
                    }
                    if r > z {
                        r = z;
                    }
                    r
                }
                _ => x,
            })
        }
        (Value::I32(x), b, c) => {
            let (y, z) = (b.as_u32() as i32, c.as_u32() as i32);
            match fun {
                Abs => Value::I32(x.wrapping_abs()),
                Min => Value::I32(x.min(y)),
                Max => Value::I32(x.max(y)),
                Clamp => Value::I32(x.max(y).min(z)),
                RemEuclid => Value::I32(if y == 0 { 0 } else { x.wrapping_rem_euclid(y) }),
                Pow => Value::I32(x.wrapping_pow(b.as_u32())),
                CountOnes => Value::U32(x.count_ones()),
                LeadingZeros => Value::U32(x.leading_zeros()),
                TrailingZeros => Value::U32(x.trailing_zeros()),
                _ => Value::I32(x),
            }
        }
        (Value::U32(x), b, c) => {
            let (y, z) = (b.as_u32(), c.as_u32());
            Value::U32(match fun {
                Min => x.min(y),
                Max => x.max(y),
                Clamp => x.max(y).min(z),
                RemEuclid => x.checked_rem(y).unwrap_or(0),
                Pow => x.wrapping_pow(y),
                CountOnes => x.count_ones(),
                LeadingZeros => x.leading_zeros(),
                TrailingZeros => x.trailing_zeros(),
                _ => x,
            })
        }
        (other, _, _) => other,
    }
}
