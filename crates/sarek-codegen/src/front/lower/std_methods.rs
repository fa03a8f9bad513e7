//! The wider `std` surface of `f32` and the integers (`asin`, `powi`, `sin_cos`, `to_bits`,
//! `saturating_mul`, `overflowing_add`, `rotate_left`, `isqrt`, ..): which receiver each
//! takes, the types of its arguments and result, and the tuple-returning ones built from two
//! math expressions. The refusals of methods kernels lack (`checked_*`, which returns an
//! `Option`) and the short "did you mean" for an unknown method live here too.

use proc_macro2::Span;

use crate::arena::Handle;
use crate::front::infer::{Ty, VarKind};
use crate::ir::*;

use super::{Lowerer, R};

/// What a method lowers to.
#[derive(Clone, Copy)]
enum Shape {
    /// One math function.
    Plain(MathFun, Out),
    /// `(sin, cos)`.
    SinCos,
    /// `(wrapping result, overflowed)`.
    Overflowing(BinaryOp, MathFun),
}

/// A method of this file: its receivers, arguments and lowering.
struct Method {
    on: On,
    args: &'static [Arg],
    shape: Shape,
}

/// The method `name` of this file: a [`Rule::Method`] row of the table of intrinsics, or one
/// of the tuple-returning forms built from two of them.
fn method(name: &str) -> Option<Method> {
    let m = |on, args, shape| Some(Method { on, args, shape });
    let overflowing = |op, f| m(On::Int, &[Arg::Same], Shape::Overflowing(op, f));
    match name {
        "sin_cos" => m(On::Float, &[], Shape::SinCos),
        "overflowing_add" => overflowing(BinaryOp::Add, MathFun::AddOverflows),
        "overflowing_sub" => overflowing(BinaryOp::Sub, MathFun::SubOverflows),
        "overflowing_mul" => overflowing(BinaryOp::Mul, MathFun::MulOverflows),
        _ => {
            let fun = MathFun::scalar_method(name)?;
            match fun.intrinsic().rule {
                Rule::Method { on, args, out } => m(on, args, Shape::Plain(fun, out)),
                _ => None,
            }
        }
    }
}

/// Whether [`Lowerer::std_method`] lowers `name`.
pub(super) fn handles(name: &str) -> bool {
    name == "signum" || method(name).is_some()
}

/// The scalar method names that are not a row of the table of intrinsics (forms built from
/// binary operators or two rows), for the suggestions.
const FORMS: &[&str] = &[
    "len",
    "sin_cos",
    "overflowing_add",
    "overflowing_sub",
    "overflowing_mul",
    "wrapping_add",
    "wrapping_sub",
    "wrapping_mul",
    "wrapping_div",
    "wrapping_rem",
    "wrapping_neg",
    "wrapping_abs",
    "wrapping_shl",
    "wrapping_shr",
];

/// Every method name a kernel accepts on a scalar, for the suggestions.
fn known() -> impl Iterator<Item = &'static str> {
    let rows = MathFun::ALL
        .iter()
        .filter(|f| !matches!(f.intrinsic().rule, Rule::Vector | Rule::Packing))
        .flat_map(|f| f.intrinsic().names.iter().copied());
    FORMS.iter().copied().chain(rows)
}

/// Levenshtein distance, on bytes (method names are ASCII).
fn distance(a: &str, b: &str) -> usize {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

/// The supported methods closest to `name` (at most three): a small edit distance, or the
/// same first word (`sinh_cosh` → `sinh`).
pub(super) fn closest(name: &str) -> Vec<&'static str> {
    let word = |s: &str| s.split('_').next().unwrap_or("").to_owned();
    let first = word(name);
    let limit = (name.len() / 3).max(2);
    let mut found: Vec<(usize, &'static str)> = known()
        .map(|k| (distance(name, k), k))
        .filter(|&(d, k)| d <= limit || (first.len() >= 3 && word(k) == first))
        .collect();
    found.sort();
    found.into_iter().take(3).map(|(_, k)| k).collect()
}

/// The message for a method kernels do not have.
pub(super) fn unknown_method(name: &str) -> String {
    if let Some(op) = name.strip_prefix("checked_") {
        let instead = if matches!(op, "add" | "sub" | "mul") {
            format!("use `overflowing_{op}` (a `(value, overflowed)` pair) or compare the operands first")
        } else {
            "compare the operands first (`if b != 0 { a / b } else { .. }`)".to_owned()
        };
        return format!("`{name}` returns an `Option`, which kernels do not have; {instead}");
    }
    if name == "total_cmp" {
        return "`total_cmp` returns an `Ordering`, which kernels do not have; compare with `<`, or order by `to_bits()` keys".to_owned();
    }
    let near = closest(name);
    if near.is_empty() {
        return format!("`{name}` is not a method Sarek can run on the GPU (README.md lists the `f32` and integer methods kernels support)");
    }
    let list: Vec<String> = near.iter().map(|n| format!("`{n}`")).collect();
    format!(
        "`{name}` is not a method Sarek can run on the GPU; the closest it has: {}",
        list.join(", ")
    )
}

impl Lowerer<'_> {
    /// A method of this file ([`handles`]); `args` are the lowered operands, receiver first.
    pub(super) fn std_method(
        &mut self,
        name: &str,
        name_span: Span,
        args: &[Handle<Expression>],
        span: Span,
    ) -> R<Handle<Expression>> {
        let int_receiver = args.first().is_some_and(|&r| {
            let t = self.ty(r);
            matches!(self.infer.shallow(t), Ty::Known(Scalar::I32 | Scalar::U32))
                || self.infer.kind_of(t) == Some(VarKind::Int)
        });
        let m = match method(name) {
            // `signum` on `i32` (`u32` has none); on `f32` with the sign bit's meaning.
            _ if name == "signum" => Method {
                on: if int_receiver { On::Signed } else { On::Float },
                args: &[],
                shape: Shape::Plain(MathFun::Signum, Out::Same),
            },
            Some(m) => m,
            None => return Err(self.error(name_span, unknown_method(name))),
        };
        self.lower_std(name, name_span, &m, args, span)
    }

    fn lower_std(
        &mut self,
        name: &str,
        name_span: Span,
        m: &Method,
        args: &[Handle<Expression>],
        span: Span,
    ) -> R<Handle<Expression>> {
        if args.len() != m.args.len() + 1 {
            return Err(self.error(span, format!("`{name}` takes {} argument(s)", m.args.len())));
        }
        let ty = self.receiver(name, name_span, m.on, args[0], span)?;
        for (a, want) in args[1..].iter().zip(m.args) {
            let want = match want {
                Arg::Same => ty,
                Arg::U32 => Ty::Known(Scalar::U32),
                Arg::I32 => Ty::Known(Scalar::I32),
            };
            let at = self.ty(*a);
            let a_span = self.expr_span(*a);
            self.unify(want, at, a_span)?;
        }
        match m.shape {
            Shape::Plain(fun, out) => {
                let out = match out {
                    Out::Same => ty,
                    Out::U32 => Ty::Known(Scalar::U32),
                    Out::Bool => Ty::Known(Scalar::Bool),
                    Out::F32 => Ty::Known(Scalar::F32),
                };
                let args = args.to_vec();
                Ok(self.expr(Expr::Math { fun, args }, out, span))
            }
            Shape::SinCos => {
                let [x1, x2] = self.twice(args[0]);
                let sin = self.math(MathFun::Sin, vec![x1], ty, span);
                let cos = self.math(MathFun::Cos, vec![x2], ty, span);
                self.pair(sin, cos, Type::Scalar(Scalar::F32), span)
            }
            Shape::Overflowing(op, fun) => {
                let [a1, a2] = self.twice(args[0]);
                let [b1, b2] = self.twice(args[1]);
                let value = self.expr(
                    Expr::Binary {
                        op,
                        left: a1,
                        right: b1,
                    },
                    ty,
                    span,
                );
                let flag = self.math(fun, vec![a2, b2], Ty::Known(Scalar::Bool), span);
                self.pair(value, flag, Type::Scalar(Scalar::Bool), span)
            }
        }
    }

    /// Checks the receiver against `on`; its type.
    fn receiver(
        &mut self,
        name: &str,
        name_span: Span,
        on: On,
        r: Handle<Expression>,
        span: Span,
    ) -> R<Ty> {
        let t = self.ty(r);
        let shallow = self.infer.shallow(t);
        let kind = self.infer.kind_of(t);
        let ok = match on {
            On::Float => {
                matches!(shallow, Ty::Known(Scalar::F32 | Scalar::F16))
                    || kind == Some(VarKind::Float)
            }
            On::Int => {
                matches!(shallow, Ty::Known(Scalar::I32 | Scalar::U32))
                    || kind == Some(VarKind::Int)
            }
            On::Signed => matches!(shallow, Ty::Known(Scalar::I32)) || kind == Some(VarKind::Int),
            On::Unsigned => matches!(shallow, Ty::Known(Scalar::U32)) || kind == Some(VarKind::Int),
        };
        if !ok {
            let found = self.describe(t);
            let on = match on {
                On::Float => "`f32`",
                On::Int => "`i32` and `u32`",
                On::Signed => "`i32`",
                On::Unsigned => "`u32`",
            };
            return Err(self.error(
                name_span,
                format!("`{name}` is defined on {on}, but the receiver is `{found}`"),
            ));
        }
        match on {
            On::Float if shallow == Ty::Known(Scalar::F16) => Ok(t),
            On::Float => self.unify(t, Ty::Known(Scalar::F32), span),
            On::Signed => self.unify(t, Ty::Known(Scalar::I32), span),
            On::Unsigned => self.unify(t, Ty::Known(Scalar::U32), span),
            On::Int => Ok(t),
        }
    }

    fn math(
        &mut self,
        fun: MathFun,
        args: Vec<Handle<Expression>>,
        ty: Ty,
        span: Span,
    ) -> Handle<Expression> {
        self.expr(Expr::Math { fun, args }, ty, span)
    }

    /// Two reads of `value`, kept in a temporary so that it is computed once.
    fn twice(&mut self, value: Handle<Expression>) -> [Handle<Expression>; 2] {
        let ty = self.ty(value);
        let span = self.expr_span(value);
        let local = self.temp(value, None);
        [
            self.expr(Expr::Local(local), ty, span),
            self.expr(Expr::Local(local), ty, span),
        ]
    }

    /// The tuple `(first, second)`, `second` of type `second_ty`.
    fn pair(
        &mut self,
        first: Handle<Expression>,
        second: Handle<Expression>,
        second_ty: Type,
        span: Span,
    ) -> R<Handle<Expression>> {
        let first_ty = self.settle(self.ty(first), span)?;
        let ty = self.cx.tuple_type(vec![first_ty, second_ty]);
        Ok(self.expr(
            Expr::Compose {
                ty,
                components: vec![first, second],
            },
            Ty::of(ty),
            span,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions_are_few_and_near() {
        assert_eq!(closest("sinh_cosh")[0], "sin_cos");
        assert!(closest("sinh_cosh").contains(&"sinh"));
        assert!(closest("to_string_lossy").is_empty());
        assert_eq!(closest("saturating_ad")[0], "saturating_add");
        assert!(unknown_method("checked_add").contains("overflowing_add"));
    }
}
