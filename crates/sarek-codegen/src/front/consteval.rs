//! Compile-time evaluation of constant expressions: the values of `const` items, array
//! lengths, the workgroup size and the bounds of unrolled loops.
//!
//! WGSL needs these numbers when the macro runs, so the macro computes them itself, as rustc's
//! const evaluation would: from literals, other constants, arithmetic, bitwise operators,
//! comparisons, `as` casts, `min`/`max` and `if`. Integer arithmetic is checked in the
//! operands' type, so an expression that overflows or divides by zero is an error at that
//! expression rather than a wrapped value (rustc refuses the same constants). Float arithmetic
//! is IEEE `f32`, as in Rust (`1.0 / 0.0` is infinity).
//!
//! The evaluator knows nothing of scopes: the caller resolves names through [`Names`], so the
//! same code serves module items, a kernel body's items and an unrolled loop's counter.

use proc_macro2::Span;
use syn::spanned::Spanned;

use super::diagnostic::{Diagnostic, ErrorKind};
use super::types;
use crate::ir::{Literal, Scalar};

/// A constant's value. Integers are kept wide and checked against their type after each step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    /// An integer: `ty` is `I32` or `U32` (`usize` is 32 bits on the GPU), or `None` for an
    /// unsuffixed literal whose type is still open.
    Int {
        /// The value.
        value: i128,
        /// Its type, when known.
        ty: Option<Scalar>,
    },
    /// An `f32`.
    Float(f32),
    /// A `bool`.
    Bool(bool),
}

impl Value {
    /// The value of a literal of the IR.
    pub fn of(literal: Literal) -> Value {
        match literal {
            Literal::I32(v) => Value::Int {
                value: v.into(),
                ty: Some(Scalar::I32),
            },
            Literal::U32(v) => Value::Int {
                value: v.into(),
                ty: Some(Scalar::U32),
            },
            Literal::F32(v) => Value::Float(v),
            Literal::Bool(b) => Value::Bool(b),
            // Constant evaluation computes floats in `f32`; an `f16` constant is exact there.
            Literal::F16(bits) => Value::Float(half::f16::from_bits(bits).to_f32()),
            Literal::I64(v) => Value::Int {
                value: v.into(),
                ty: Some(Scalar::I64),
            },
            Literal::U64(v) => Value::Int {
                value: v.into(),
                ty: Some(Scalar::U64),
            },
        }
    }

    fn ty(self) -> Option<Scalar> {
        match self {
            Value::Int { ty, .. } => ty,
            Value::Float(_) => Some(Scalar::F32),
            Value::Bool(_) => Some(Scalar::Bool),
        }
    }
}

/// What a name means to the evaluator.
pub enum Name {
    /// A constant with this value.
    Value(Value),
    /// A name whose declaration failed; its error is already reported.
    Reported,
    /// A name that exists but is not a constant (a parameter, a `let` binding, a function).
    Runtime,
    /// A name that is not in scope.
    Unknown,
}

/// How the caller resolves names while an expression is evaluated.
pub type Names<'a> = dyn FnMut(&str) -> Name + 'a;

/// Why an evaluation stopped.
#[derive(Debug)]
pub enum Fail {
    /// An error to report.
    Error(Diagnostic),
    /// An error already reported (a constant the expression names failed).
    Reported,
}

type R<T> = Result<T, Fail>;

fn fail<T>(span: Span, kind: ErrorKind) -> R<T> {
    Err(Fail::Error(Diagnostic::new(span, kind)))
}

fn not_constant<T>(span: Span, what: &str) -> R<T> {
    fail(span, ErrorKind::NotConstant(what.to_owned()))
}

/// The Rust spelling of an integer or scalar type, for errors.
fn name_of(ty: Option<Scalar>) -> &'static str {
    match ty {
        Some(Scalar::I32) => "i32",
        Some(Scalar::U32) => "u32",
        Some(Scalar::F32) => "f32",
        Some(Scalar::Bool) => "bool",
        Some(Scalar::F16) => "f16",
        Some(Scalar::I64) => "i64",
        Some(Scalar::U64) => "u64",
        None => "{integer}",
    }
}

/// Whether `value` fits `ty` (an open type is `i32` once nothing else decides it).
fn fits(value: i128, ty: Option<Scalar>) -> bool {
    match ty {
        Some(Scalar::U32) => u32::try_from(value).is_ok(),
        Some(Scalar::I64) => i64::try_from(value).is_ok(),
        Some(Scalar::U64) => u64::try_from(value).is_ok(),
        _ => i32::try_from(value).is_ok(),
    }
}

/// Evaluates `expr`, whose context wants a value of type `expected` (an unsuffixed integer
/// literal takes it, as in rustc's inference).
pub fn eval(expr: &syn::Expr, expected: Option<Scalar>, names: &mut Names) -> R<Value> {
    let ty = type_of(expr, names).or(expected);
    match expr {
        syn::Expr::Lit(l) => literal(&l.lit, ty),
        syn::Expr::Paren(p) => eval(&p.expr, ty, names),
        syn::Expr::Group(g) => eval(&g.expr, ty, names),
        syn::Expr::Block(b) if b.label.is_none() => block(&b.block, ty, names),
        syn::Expr::Path(p) => path(p, names),
        syn::Expr::Unary(u) => unary(u, ty, names),
        syn::Expr::Binary(b) => binary(b, ty, names),
        syn::Expr::Cast(c) => cast(c, names),
        syn::Expr::If(i) => {
            let cond = eval(&i.cond, Some(Scalar::Bool), names)?;
            let Value::Bool(c) = cond else {
                return fail(
                    i.cond.span(),
                    ErrorKind::Mismatch {
                        expected: "bool".into(),
                        found: name_of(cond.ty()).into(),
                    },
                );
            };
            if c {
                block(&i.then_branch, ty, names)
            } else {
                match &i.else_branch {
                    Some((_, e)) => eval(e, ty, names),
                    None => not_constant(i.span(), "an `if` without `else`"),
                }
            }
        }
        syn::Expr::MethodCall(m) if m.args.len() == 1 && is_min_max(&m.method) => {
            let a = eval(&m.receiver, ty, names)?;
            let b = eval(&m.args[0], ty, names)?;
            min_max(&m.method.to_string(), a, b, m.span())
        }
        syn::Expr::Call(c) if c.args.len() == 2 => {
            let syn::Expr::Path(p) = &*c.func else {
                return not_constant(c.span(), "this call");
            };
            let Some(last) = p.path.segments.last().filter(|s| is_min_max(&s.ident)) else {
                return not_constant(c.span(), "this call");
            };
            let a = eval(&c.args[0], ty, names)?;
            let b = eval(&c.args[1], ty, names)?;
            min_max(&last.ident.to_string(), a, b, c.span())
        }
        other => not_constant(other.span(), "this expression"),
    }
}

fn is_min_max(ident: &syn::Ident) -> bool {
    ident == "min" || ident == "max"
}

/// The type an expression has regardless of its context, when it has one (a suffix, a typed
/// constant, a cast): the context's expectation fills in the rest.
fn type_of(expr: &syn::Expr, names: &mut Names) -> Option<Scalar> {
    match expr {
        syn::Expr::Lit(l) => match &l.lit {
            syn::Lit::Int(i) => suffix_type(i.suffix()),
            syn::Lit::Float(_) => Some(Scalar::F32),
            syn::Lit::Bool(_) => Some(Scalar::Bool),
            _ => None,
        },
        syn::Expr::Paren(p) => type_of(&p.expr, names),
        syn::Expr::Group(g) => type_of(&g.expr, names),
        syn::Expr::Block(b) => match b.block.stmts.last() {
            Some(syn::Stmt::Expr(e, None)) => type_of(e, names),
            _ => None,
        },
        syn::Expr::Path(p) => match p.path.get_ident() {
            Some(ident) => match names(&super::lower::ident_name(ident)) {
                Name::Value(v) => v.ty(),
                _ => None,
            },
            None => builtin(&p.path).and_then(Value::ty),
        },
        syn::Expr::Unary(u) => type_of(&u.expr, names),
        syn::Expr::Binary(b) => {
            use syn::BinOp::*;
            match b.op {
                Eq(_) | Ne(_) | Lt(_) | Le(_) | Gt(_) | Ge(_) | And(_) | Or(_) => {
                    Some(Scalar::Bool)
                }
                Shl(_) | Shr(_) => type_of(&b.left, names),
                _ => type_of(&b.left, names).or_else(|| type_of(&b.right, names)),
            }
        }
        syn::Expr::Cast(c) => types::scalar(&c.ty).ok().map(|s| s.scalar()),
        syn::Expr::If(i) => {
            let then = match i.then_branch.stmts.last() {
                Some(syn::Stmt::Expr(e, None)) => type_of(e, names),
                _ => None,
            };
            then.or_else(|| i.else_branch.as_ref().and_then(|(_, e)| type_of(e, names)))
        }
        syn::Expr::MethodCall(m) if m.args.len() == 1 => {
            type_of(&m.receiver, names).or_else(|| type_of(&m.args[0], names))
        }
        syn::Expr::Call(c) if c.args.len() == 2 => {
            let from_path = match &*c.func {
                syn::Expr::Path(p) if p.path.segments.len() == 2 => {
                    suffix_type(&p.path.segments[0].ident.to_string())
                        .or_else(|| (p.path.segments[0].ident == "f32").then_some(Scalar::F32))
                }
                _ => None,
            };
            from_path
                .or_else(|| type_of(&c.args[0], names))
                .or_else(|| type_of(&c.args[1], names))
        }
        _ => None,
    }
}

/// The integer type an integer suffix (or type name) names.
fn suffix_type(suffix: &str) -> Option<Scalar> {
    match suffix {
        "i32" => Some(Scalar::I32),
        "u32" | "usize" => Some(Scalar::U32),
        "i64" => Some(Scalar::I64),
        "u64" => Some(Scalar::U64),
        _ => None,
    }
}

fn block(b: &syn::Block, ty: Option<Scalar>, names: &mut Names) -> R<Value> {
    match b.stmts.as_slice() {
        [syn::Stmt::Expr(e, None)] => eval(e, ty, names),
        _ => not_constant(b.span(), "a block with statements"),
    }
}

fn literal(lit: &syn::Lit, ty: Option<Scalar>) -> R<Value> {
    let span = lit.span();
    match lit {
        syn::Lit::Bool(b) => Ok(Value::Bool(b.value)),
        syn::Lit::Float(f) => match f.suffix() {
            "" | "f32" => f
                .base10_parse::<f32>()
                .map(Value::Float)
                .or_else(|e| fail(span, ErrorKind::Syn(e))),
            _ => not_constant(span, "a float literal that is not an `f32`"),
        },
        syn::Lit::Int(i) => {
            let suffix = i.suffix();
            if !suffix.is_empty() && suffix_type(suffix).is_none() {
                return not_constant(span, "an integer literal of a type the GPU lacks");
            }
            let value = i
                .base10_parse::<i128>()
                .or_else(|e| fail(span, ErrorKind::Syn(e)))?;
            match ty {
                Some(Scalar::F32) => Ok(Value::Float(value as f32)),
                Some(Scalar::Bool) => fail(
                    span,
                    ErrorKind::Mismatch {
                        expected: "bool".into(),
                        found: "integer".into(),
                    },
                ),
                _ if !fits(value, ty) => fail(
                    span,
                    ErrorKind::OutOfRange(name_of(ty.or(Some(Scalar::I32))).into()),
                ),
                _ => Ok(Value::Int { value, ty }),
            }
        }
        _ => not_constant(span, "this literal"),
    }
}

/// `i32::MAX`, `u32::BITS`, `f32::EPSILON`, `std::f32::consts::PI` and the like.
fn builtin(path: &syn::Path) -> Option<Value> {
    let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
    let n = segments.len();
    if n < 2 {
        return None;
    }
    let int = |value: i128, ty| {
        Some(Value::Int {
            value,
            ty: Some(ty),
        })
    };
    match (segments[n - 2].as_str(), segments[n - 1].as_str()) {
        ("i32", "MAX") => int(i32::MAX.into(), Scalar::I32),
        ("i32", "MIN") => int(i32::MIN.into(), Scalar::I32),
        ("i32", "BITS") | ("u32", "BITS") => int(32, Scalar::U32),
        ("u32", "MAX") => int(u32::MAX.into(), Scalar::U32),
        ("u32", "MIN") | ("usize", "MIN") => int(0, Scalar::U32),
        ("i64", "MAX") => int(i64::MAX.into(), Scalar::I64),
        ("i64", "MIN") => int(i64::MIN.into(), Scalar::I64),
        ("i64", "BITS") | ("u64", "BITS") => int(64, Scalar::U32),
        ("u64", "MAX") => int(u64::MAX.into(), Scalar::U64),
        ("u64", "MIN") => int(0, Scalar::U64),
        ("f32", "MAX") => Some(Value::Float(f32::MAX)),
        ("f32", "MIN") => Some(Value::Float(f32::MIN)),
        ("f32", "EPSILON") => Some(Value::Float(f32::EPSILON)),
        ("f32", "MIN_POSITIVE") => Some(Value::Float(f32::MIN_POSITIVE)),
        ("f32", "INFINITY") => Some(Value::Float(f32::INFINITY)),
        ("f32", "NEG_INFINITY") => Some(Value::Float(f32::NEG_INFINITY)),
        ("consts", "PI") => Some(Value::Float(std::f32::consts::PI)),
        ("consts", "TAU") => Some(Value::Float(std::f32::consts::TAU)),
        ("consts", "E") => Some(Value::Float(std::f32::consts::E)),
        _ => None,
    }
}

fn path(p: &syn::ExprPath, names: &mut Names) -> R<Value> {
    let span = p.span();
    let Some(ident) = p.path.get_ident() else {
        return match builtin(&p.path) {
            Some(v) => Ok(v),
            None => not_constant(span, "this path"),
        };
    };
    let name = super::lower::ident_name(ident);
    match names(&name) {
        Name::Value(v) => Ok(v),
        Name::Reported => Err(Fail::Reported),
        Name::Runtime => not_constant(span, &format!("`{name}`, a value known only at run time,")),
        Name::Unknown => fail(span, ErrorKind::UnknownConst(name)),
    }
}

fn unary(u: &syn::ExprUnary, ty: Option<Scalar>, names: &mut Names) -> R<Value> {
    let span = u.span();
    // `-2147483648` is `i32::MIN`: the literal is negated before its range is checked.
    if let (
        syn::UnOp::Neg(_),
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(i),
            ..
        }),
    ) = (u.op, &*u.expr)
    {
        if ty != Some(Scalar::U32) && ty != Some(Scalar::F32) {
            let value = i
                .base10_parse::<i128>()
                .or_else(|e| fail(i.span(), ErrorKind::Syn(e)))?;
            return checked(-value, ty, span);
        }
    }
    let v = eval(&u.expr, ty, names)?;
    match (u.op, v) {
        (
            syn::UnOp::Neg(_),
            Value::Int {
                ty: Some(Scalar::U32),
                ..
            },
        ) => fail(
            span,
            ErrorKind::Expected {
                what: "a signed number",
                found: "u32".into(),
            },
        ),
        (syn::UnOp::Neg(_), Value::Int { value, ty }) => checked(-value, ty, span),
        (syn::UnOp::Neg(_), Value::Float(f)) => Ok(Value::Float(-f)),
        (syn::UnOp::Not(_), Value::Bool(b)) => Ok(Value::Bool(!b)),
        (
            syn::UnOp::Not(_),
            Value::Int {
                value,
                ty: Some(Scalar::U32),
            },
        ) => Ok(Value::Int {
            value: (!(value as u32)).into(),
            ty: Some(Scalar::U32),
        }),
        (syn::UnOp::Not(_), Value::Int { value, ty }) => Ok(Value::Int {
            value: (!(value as i32)).into(),
            ty,
        }),
        _ => not_constant(span, "this operator"),
    }
}

/// `value` in type `ty`, or an overflow error at `span`.
fn checked(value: i128, ty: Option<Scalar>, span: Span) -> R<Value> {
    if fits(value, ty) {
        Ok(Value::Int { value, ty })
    } else {
        fail(
            span,
            ErrorKind::ConstEval(format!(
                "this constant expression overflows `{}` (its value would be {value})",
                name_of(ty.or(Some(Scalar::I32)))
            )),
        )
    }
}

fn mismatch<T>(span: Span, a: Value, b: Value) -> R<T> {
    fail(
        span,
        ErrorKind::Mismatch {
            expected: name_of(a.ty()).into(),
            found: name_of(b.ty()).into(),
        },
    )
}

fn binary(b: &syn::ExprBinary, ty: Option<Scalar>, names: &mut Names) -> R<Value> {
    use syn::BinOp::*;
    let span = b.span();
    // Overflow and division by zero are reported at the operator that fails.
    let op_span = b.op.span();
    // `&&` and `||` short-circuit, so an untaken side is not evaluated (as in rustc).
    if let And(_) | Or(_) = b.op {
        let want = |v: Value, s: Span| match v {
            Value::Bool(x) => Ok(x),
            other => mismatch(s, Value::Bool(false), other),
        };
        let l = want(eval(&b.left, Some(Scalar::Bool), names)?, b.left.span())?;
        if matches!(b.op, And(_)) != l {
            return Ok(Value::Bool(l));
        }
        let r = want(eval(&b.right, Some(Scalar::Bool), names)?, b.right.span())?;
        return Ok(Value::Bool(r));
    }
    let comparison = matches!(b.op, Eq(_) | Ne(_) | Lt(_) | Le(_) | Gt(_) | Ge(_));
    let shift = matches!(b.op, Shl(_) | Shr(_));
    let operand_ty = if comparison {
        type_of(&b.left, names).or_else(|| type_of(&b.right, names))
    } else {
        ty
    };
    let l = eval(&b.left, operand_ty, names)?;
    let r = eval(
        &b.right,
        if shift { None } else { l.ty().or(operand_ty) },
        names,
    )?;
    if comparison {
        let ord = match (l, r) {
            (Value::Int { value: a, ty: ta }, Value::Int { value: c, ty: tc })
                if ta.is_none() || tc.is_none() || ta == tc =>
            {
                a.partial_cmp(&c)
            }
            (Value::Float(a), Value::Float(c)) => a.partial_cmp(&c),
            (Value::Bool(a), Value::Bool(c)) => a.partial_cmp(&c),
            _ => return mismatch(span, l, r),
        };
        use std::cmp::Ordering::*;
        let result = match b.op {
            Eq(_) => ord == Some(Equal),
            Ne(_) => ord != Some(Equal),
            Lt(_) => ord == Some(Less),
            Le(_) => matches!(ord, Some(Less | Equal)),
            Gt(_) => ord == Some(Greater),
            _ => matches!(ord, Some(Greater | Equal)),
        };
        return Ok(Value::Bool(result));
    }
    match (l, r) {
        (Value::Int { value: a, ty: ta }, Value::Int { value: c, ty: tc }) => {
            if shift {
                let bits = c;
                let width = if ta.is_some_and(Scalar::is_wide) {
                    64
                } else {
                    32
                };
                if !(0..width).contains(&bits) {
                    return fail(
                        op_span,
                        ErrorKind::ConstEval(format!(
                            "this constant shift by {bits} overflows: a {width}-bit integer can be shifted by 0 to {}",
                            width - 1
                        )),
                    );
                }
                let v = match (b.op, ta) {
                    (Shl(_), Some(Scalar::U64)) => ((a as u64) << bits).into(),
                    (Shl(_), Some(Scalar::I64)) => ((a as i64) << bits).into(),
                    (_, Some(Scalar::U64)) => ((a as u64) >> bits).into(),
                    (_, Some(Scalar::I64)) => ((a as i64) >> bits).into(),
                    (Shl(_), Some(Scalar::U32)) => ((a as u32) << bits).into(),
                    (Shl(_), _) => ((a as i32) << bits).into(),
                    (_, Some(Scalar::U32)) => ((a as u32) >> bits).into(),
                    _ => ((a as i32) >> bits).into(),
                };
                return Ok(Value::Int { value: v, ty: ta });
            }
            if ta.is_some() && tc.is_some() && ta != tc {
                return mismatch(span, l, r);
            }
            let t = ta.or(tc);
            let v = match b.op {
                Add(_) => a + c,
                Sub(_) => a - c,
                Mul(_) => a * c,
                Div(_) | Rem(_) if c == 0 => {
                    return fail(
                        op_span,
                        ErrorKind::ConstEval("this constant expression divides by zero".to_owned()),
                    )
                }
                Div(_) => a / c,
                Rem(_) => a % c,
                BitAnd(_) => a & c,
                BitOr(_) => a | c,
                BitXor(_) => a ^ c,
                _ => return not_constant(span, "this operator"),
            };
            checked(v, t, op_span)
        }
        (Value::Float(a), Value::Float(c)) => Ok(Value::Float(match b.op {
            Add(_) => a + c,
            Sub(_) => a - c,
            Mul(_) => a * c,
            Div(_) => a / c,
            Rem(_) => a % c,
            _ => return not_constant(span, "this operator on `f32`"),
        })),
        (Value::Bool(a), Value::Bool(c)) => Ok(Value::Bool(match b.op {
            BitAnd(_) => a & c,
            BitOr(_) => a | c,
            BitXor(_) => a ^ c,
            _ => return not_constant(span, "this operator on `bool`"),
        })),
        _ => mismatch(span, l, r),
    }
}

fn cast(c: &syn::ExprCast, names: &mut Names) -> R<Value> {
    let target = types::scalar(&c.ty).map_err(Fail::Error)?.scalar();
    let v = eval(&c.expr, None, names)?;
    Ok(match (v, target) {
        (Value::Int { value, .. }, Scalar::I32) => Value::Int {
            value: (value as i32).into(),
            ty: Some(Scalar::I32),
        },
        (Value::Int { value, .. }, Scalar::U32) => Value::Int {
            value: (value as u32).into(),
            ty: Some(Scalar::U32),
        },
        (Value::Int { value, .. }, Scalar::I64) => Value::Int {
            value: (value as i64).into(),
            ty: Some(Scalar::I64),
        },
        (Value::Int { value, .. }, Scalar::U64) => Value::Int {
            value: (value as u64).into(),
            ty: Some(Scalar::U64),
        },
        (Value::Int { value, .. }, Scalar::F32) => Value::Float(value as f32),
        (Value::Float(f), Scalar::I64) => Value::Int {
            value: (f as i64).into(),
            ty: Some(Scalar::I64),
        },
        (Value::Float(f), Scalar::U64) => Value::Int {
            value: (f as u64).into(),
            ty: Some(Scalar::U64),
        },
        (Value::Float(f), Scalar::I32) => Value::Int {
            value: (f as i32).into(),
            ty: Some(Scalar::I32),
        },
        (Value::Float(f), Scalar::U32) => Value::Int {
            value: (f as u32).into(),
            ty: Some(Scalar::U32),
        },
        (Value::Float(f), Scalar::F32) => Value::Float(f),
        (Value::Bool(b), Scalar::I32 | Scalar::U32 | Scalar::I64 | Scalar::U64) => Value::Int {
            value: b.into(),
            ty: Some(target),
        },
        (Value::Bool(b), Scalar::Bool) => Value::Bool(b),
        _ => {
            return fail(
                c.span(),
                ErrorKind::ConstEval(format!(
                    "a `{}` cannot be cast to `{}`",
                    name_of(v.ty()),
                    name_of(Some(target))
                )),
            )
        }
    })
}

fn min_max(which: &str, a: Value, b: Value, span: Span) -> R<Value> {
    let max = which == "max";
    match (a, b) {
        (Value::Int { value: x, ty: tx }, Value::Int { value: y, ty: ty_ })
            if tx.is_none() || ty_.is_none() || tx == ty_ =>
        {
            Ok(Value::Int {
                value: if max { x.max(y) } else { x.min(y) },
                ty: tx.or(ty_),
            })
        }
        (Value::Float(x), Value::Float(y)) => {
            Ok(Value::Float(if max { x.max(y) } else { x.min(y) }))
        }
        _ => mismatch(span, a, b),
    }
}

/// The value of an expression as a literal of type `ty` (a `const` item's value).
pub fn eval_literal(expr: &syn::Expr, ty: Scalar, names: &mut Names) -> R<Literal> {
    let v = eval(expr, Some(ty), names)?;
    let span = expr.span();
    match (v, ty) {
        (Value::Int { value, .. }, Scalar::I32) if v.ty() != Some(Scalar::U32) => {
            Ok(Literal::I32(value as i32))
        }
        (Value::Int { value, .. }, Scalar::U32) if v.ty() != Some(Scalar::I32) => {
            match u32::try_from(value) {
                Ok(x) => Ok(Literal::U32(x)),
                Err(_) => fail(span, ErrorKind::OutOfRange("u32".into())),
            }
        }
        (Value::Int { value, .. }, Scalar::I64 | Scalar::U64) if v.ty().is_none_or(|t| t == ty) => {
            match ty {
                Scalar::I64 => i64::try_from(value).map(Literal::I64),
                _ => u64::try_from(value).map(Literal::U64),
            }
            .or_else(|_| fail(span, ErrorKind::OutOfRange(name_of(Some(ty)).into())))
        }
        (Value::Float(f), Scalar::F32) => Ok(Literal::F32(f)),
        (Value::Bool(b), Scalar::Bool) => Ok(Literal::Bool(b)),
        _ => fail(
            span,
            ErrorKind::Mismatch {
                expected: name_of(Some(ty)).into(),
                found: name_of(v.ty()).into(),
            },
        ),
    }
}

/// The value of an expression used as a count (an array length, a workgroup dimension): a
/// `usize` that fits 32 bits.
pub fn eval_count(expr: &syn::Expr, names: &mut Names) -> R<u32> {
    match eval_literal(expr, Scalar::U32, names)? {
        Literal::U32(v) => Ok(v),
        _ => unreachable!("eval_literal returns the type it is asked for"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(e: syn::Expr, ty: Scalar) -> Result<Literal, String> {
        let mut names = |n: &str| match n {
            "B" => Name::Value(Value::of(Literal::U32(16))),
            "S" => Name::Value(Value::of(Literal::I32(-3))),
            "x" => Name::Runtime,
            _ => Name::Unknown,
        };
        eval_literal(&e, ty, &mut names).map_err(|f| match f {
            Fail::Error(d) => d.kind.to_string(),
            Fail::Reported => "reported".into(),
        })
    }

    #[test]
    fn arithmetic_casts_and_branches() {
        use syn::parse_quote as q;
        assert_eq!(
            value(q!((B + 1) * 2 - B / 3 % 4), Scalar::U32),
            Ok(Literal::U32(33))
        );
        assert_eq!(
            value(q!(if B > 8 && !false { B.max(20) } else { 0 }), Scalar::U32),
            Ok(Literal::U32(20))
        );
        assert_eq!(
            value(q!(S * 2 - (B as i32)), Scalar::I32),
            Ok(Literal::I32(-22))
        );
        assert_eq!(
            value(q!(B as f32 / 4.0), Scalar::F32),
            Ok(Literal::F32(4.0))
        );
        assert_eq!(value(q!(1 << 31), Scalar::U32), Ok(Literal::U32(1 << 31)));
        assert_eq!(
            value(q!(-2147483648), Scalar::I32),
            Ok(Literal::I32(i32::MIN))
        );
        assert_eq!(
            value(q!(u32::max(B, 3) ^ 1), Scalar::U32),
            Ok(Literal::U32(17))
        );
        assert_eq!(
            value(q!(S < 0 || x > 0), Scalar::Bool),
            Ok(Literal::Bool(true))
        );
    }

    #[test]
    fn overflow_division_and_names_are_errors() {
        use syn::parse_quote as q;
        assert!(value(q!(B - 17), Scalar::U32)
            .unwrap_err()
            .contains("overflows `u32`"));
        assert!(value(q!(i32::MAX + 1), Scalar::I32)
            .unwrap_err()
            .contains("overflows `i32`"));
        assert!(value(q!(B / (B - 16)), Scalar::U32)
            .unwrap_err()
            .contains("divides by zero"));
        assert!(value(q!(B << 32), Scalar::U32)
            .unwrap_err()
            .contains("shift by 32"));
        assert!(value(q!(x + 1), Scalar::U32)
            .unwrap_err()
            .contains("run time"));
        assert!(value(q!(TILE), Scalar::U32)
            .unwrap_err()
            .contains("cannot find constant `TILE`"));
        assert!(value(q!(S + B), Scalar::I32)
            .unwrap_err()
            .contains("mismatched types"));
    }
}
