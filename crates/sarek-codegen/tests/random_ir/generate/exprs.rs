//! Expressions of every type: literals, leaves, operators, math, data.

use super::*;

impl Gen<'_> {
    pub(super) fn literal(&mut self, b: &mut Body, ty: Type) -> Handle<Expression> {
        let lit = match ty {
            Type::Scalar(Scalar::F32) => Literal::F32(
                [
                    0.0,
                    -0.0,
                    1.5,
                    -2.25,
                    1e30,
                    f32::INFINITY,
                    f32::NAN,
                    f32::MIN_POSITIVE,
                    f32::MAX,
                ][self.rng.below(9)],
            ),
            Type::Scalar(Scalar::I32) => {
                Literal::I32([0, 1, -1, 7, i32::MIN, i32::MAX][self.rng.below(6)])
            }
            Type::Scalar(Scalar::U32) => Literal::U32([0, 1, 3, 255, u32::MAX][self.rng.below(5)]),
            _ => Literal::Bool(self.rng.chance(50)),
        };
        e(b, Expr::Literal(lit), ty)
    }

    /// A random expression of type `ty`.
    pub(super) fn expr(&mut self, b: &mut Body, ty: Type) -> Handle<Expression> {
        self.depth += 1;
        let h = if self.depth > 4 {
            self.leaf(b, ty)
        } else {
            self.node(b, ty)
        };
        self.depth -= 1;
        h
    }

    pub(super) fn leaf(&mut self, b: &mut Body, ty: Type) -> Handle<Expression> {
        let locals: Vec<Handle<Local>> = b
            .scope
            .iter()
            .filter(|(_, t)| *t == ty)
            .map(|(l, _)| *l)
            .collect();
        if !locals.is_empty() && self.rng.chance(50) {
            let l = locals[self.rng.below(locals.len())];
            return e(b, Expr::Local(l), ty);
        }
        if let Some(k) = b.args.iter().position(|t| *t == ty) {
            if self.rng.chance(50) {
                return e(b, Expr::Argument(k as u32), ty);
            }
        }
        match ty {
            Type::Scalar(s) if s != Scalar::Bool && !self.in_helper && self.rng.chance(30) => {
                // A scalar parameter of this type, if any.
                if let Some(i) = self
                    .params
                    .iter()
                    .position(|p| p.ty == ParamType::Value(ty))
                {
                    return e(b, Expr::Param(ParamId(i as u32)), ty);
                }
                self.literal(b, ty)
            }
            Type::Scalar(_) => self.literal(b, ty),
            Type::Vector(..) | Type::Array(_) | Type::Struct(_) => e(b, Expr::Zero(ty), ty),
        }
    }

    pub(super) fn node(&mut self, b: &mut Body, ty: Type) -> Handle<Expression> {
        match ty {
            Type::Scalar(Scalar::F32) => match self.rng.below(9) {
                0 => self.leaf(b, ty),
                1 => {
                    let op = [
                        BinaryOp::Add,
                        BinaryOp::Sub,
                        BinaryOp::Mul,
                        BinaryOp::Div,
                        BinaryOp::Rem,
                    ][self.rng.below(5)];
                    let (l, r) = (self.expr(b, F32), self.expr(b, F32));
                    e(
                        b,
                        Expr::Binary {
                            op,
                            left: l,
                            right: r,
                        },
                        ty,
                    )
                }
                2 => {
                    let funs = [
                        MathFun::Abs,
                        MathFun::Sqrt,
                        MathFun::Sin,
                        MathFun::Exp,
                        MathFun::Ln,
                        MathFun::Floor,
                        MathFun::Round,
                        MathFun::Log10,
                        MathFun::Log2,
                        MathFun::Cbrt,
                        MathFun::ExpM1,
                        MathFun::Ln1p,
                        MathFun::Recip,
                        MathFun::ToDegrees,
                        MathFun::Signum,
                        MathFun::Tanh,
                        MathFun::Asinh,
                        MathFun::Acosh,
                        MathFun::Atanh,
                        MathFun::Min,
                        MathFun::Powf,
                        MathFun::Hypot,
                        MathFun::Copysign,
                        MathFun::RemEuclid,
                        MathFun::Atan2,
                        MathFun::MulAdd,
                        MathFun::Clamp,
                        MathFun::Max,
                        MathFun::Asin,
                        MathFun::Acos,
                        MathFun::Atan,
                        MathFun::Sinh,
                        MathFun::Cosh,
                        MathFun::Exp2,
                        MathFun::Fract,
                    ];
                    let fun = funs[self.rng.below(funs.len())];
                    let args = (0..fun.arity()).map(|_| self.expr(b, F32)).collect();
                    e(b, Expr::Math { fun, args }, ty)
                }
                3 => {
                    let from = [I32, U32, BOOL][self.rng.below(3)];
                    let v = self.expr(b, from);
                    e(
                        b,
                        Expr::Cast {
                            expr: v,
                            to: Scalar::F32,
                        },
                        ty,
                    )
                }
                4 => {
                    let v = self.expr(b, VEC3);
                    let w = self.expr(b, VEC3);
                    match self.rng.below(3) {
                        0 => e(
                            b,
                            Expr::Math {
                                fun: MathFun::Dot,
                                args: vec![v, w],
                            },
                            ty,
                        ),
                        1 => e(
                            b,
                            Expr::Math {
                                fun: MathFun::Length,
                                args: vec![v],
                            },
                            ty,
                        ),
                        _ => e(b, Expr::Field { base: v, field: 1 }, ty),
                    }
                }
                5 => {
                    let s = self.expr(b, self.structure);
                    e(b, Expr::Field { base: s, field: 0 }, ty)
                }
                6 => self.element(b, ty),
                7 => {
                    let (c, x, y) = (self.expr(b, BOOL), self.expr(b, F32), self.expr(b, F32));
                    e(
                        b,
                        Expr::Select {
                            cond: c,
                            accept: x,
                            reject: y,
                        },
                        ty,
                    )
                }
                _ => {
                    let v = self.expr(b, F32);
                    e(
                        b,
                        Expr::Unary {
                            op: UnaryOp::Neg,
                            expr: v,
                        },
                        ty,
                    )
                }
            },
            Type::Scalar(s @ (Scalar::I32 | Scalar::U32)) => match self.rng.below(7) {
                0 => self.leaf(b, ty),
                1 => {
                    let ops = [
                        BinaryOp::Add,
                        BinaryOp::Sub,
                        BinaryOp::Mul,
                        BinaryOp::Div,
                        BinaryOp::Rem,
                        BinaryOp::BitAnd,
                        BinaryOp::BitOr,
                        BinaryOp::BitXor,
                        BinaryOp::Shl,
                        BinaryOp::Shr,
                    ];
                    let op = ops[self.rng.below(ops.len())];
                    let rt = if matches!(op, BinaryOp::Shl | BinaryOp::Shr) && self.rng.chance(50) {
                        [I32, U32][self.rng.below(2)]
                    } else {
                        ty
                    };
                    let (l, r) = (self.expr(b, ty), self.expr(b, rt));
                    e(
                        b,
                        Expr::Binary {
                            op,
                            left: l,
                            right: r,
                        },
                        ty,
                    )
                }
                2 => {
                    let from = [F32, I32, U32, BOOL][self.rng.below(4)];
                    let v = self.expr(b, from);
                    e(b, Expr::Cast { expr: v, to: s }, ty)
                }
                3 => {
                    let funs: &[MathFun] = if s == Scalar::I32 {
                        &[
                            MathFun::Abs,
                            MathFun::Min,
                            MathFun::Max,
                            MathFun::RemEuclid,
                            MathFun::Clamp,
                            MathFun::Pow,
                            MathFun::Signum,
                            MathFun::DivEuclid,
                            MathFun::SaturatingAdd,
                            MathFun::SaturatingSub,
                            MathFun::SaturatingMul,
                            MathFun::RotateLeft,
                            MathFun::RotateRight,
                            MathFun::ReverseBits,
                            MathFun::SwapBytes,
                            MathFun::Isqrt,
                        ]
                    } else {
                        &[
                            MathFun::Min,
                            MathFun::Max,
                            MathFun::RemEuclid,
                            MathFun::Clamp,
                            MathFun::Pow,
                            MathFun::DivCeil,
                            MathFun::DivEuclid,
                            MathFun::AbsDiff,
                            MathFun::SaturatingAdd,
                            MathFun::SaturatingSub,
                            MathFun::SaturatingMul,
                            MathFun::RotateLeft,
                            MathFun::ReverseBits,
                            MathFun::SwapBytes,
                            MathFun::CountZeros,
                            MathFun::LeadingOnes,
                            MathFun::TrailingOnes,
                            MathFun::NextPowerOfTwo,
                            MathFun::Ilog2,
                            MathFun::Isqrt,
                        ]
                    };
                    let fun = funs[self.rng.below(funs.len())];
                    let mut args: Vec<_> = (0..fun.arity()).map(|_| self.expr(b, ty)).collect();
                    if matches!(
                        fun,
                        MathFun::Pow | MathFun::RotateLeft | MathFun::RotateRight
                    ) {
                        args[1] = self.expr(b, U32);
                    }
                    e(b, Expr::Math { fun, args }, ty)
                }
                4 if s == Scalar::U32 => {
                    if !self.in_helper && self.rng.chance(50) {
                        let builtins = [
                            Builtin::GlobalThreadId,
                            Builtin::ThreadIdx(Axis::X),
                            Builtin::BlockIdx(Axis::Y),
                            Builtin::BlockDim(Axis::X),
                            Builtin::GridDim(Axis::Z),
                            Builtin::GlobalIdx(Axis::X),
                        ];
                        let bi = builtins[self.rng.below(builtins.len())];
                        e(b, Expr::Builtin(bi), ty)
                    } else {
                        let from = [I32, U32][self.rng.below(2)];
                        let fun = [
                            MathFun::CountOnes,
                            MathFun::LeadingZeros,
                            MathFun::TrailingZeros,
                        ][self.rng.below(3)];
                        let v = self.expr(b, from);
                        e(b, Expr::Math { fun, args: vec![v] }, ty)
                    }
                }
                5 => self.element(b, ty),
                _ => {
                    let v = self.expr(b, ty);
                    // `Neg` on `u32` is `wrapping_neg`.
                    let op = if self.rng.chance(50) {
                        UnaryOp::Neg
                    } else {
                        UnaryOp::Not
                    };
                    e(b, Expr::Unary { op, expr: v }, ty)
                }
            },
            Type::Scalar(Scalar::Bool) => match self.rng.below(5) {
                0 => self.leaf(b, ty),
                1 => {
                    let t = [F32, I32, U32][self.rng.below(3)];
                    let ops = [
                        BinaryOp::Eq,
                        BinaryOp::Ne,
                        BinaryOp::Lt,
                        BinaryOp::Le,
                        BinaryOp::Gt,
                        BinaryOp::Ge,
                    ];
                    let op = ops[self.rng.below(ops.len())];
                    let (l, r) = (self.expr(b, t), self.expr(b, t));
                    e(
                        b,
                        Expr::Binary {
                            op,
                            left: l,
                            right: r,
                        },
                        ty,
                    )
                }
                2 => {
                    let op = [
                        BinaryOp::LogicalAnd,
                        BinaryOp::LogicalOr,
                        BinaryOp::BitXor,
                        BinaryOp::BitAnd,
                    ][self.rng.below(4)];
                    let (l, r) = (self.expr(b, BOOL), self.expr(b, BOOL));
                    e(
                        b,
                        Expr::Binary {
                            op,
                            left: l,
                            right: r,
                        },
                        ty,
                    )
                }
                3 => {
                    let s = self.expr(b, self.structure);
                    e(b, Expr::Field { base: s, field: 2 }, ty)
                }
                _ => {
                    let v = self.expr(b, BOOL);
                    e(
                        b,
                        Expr::Unary {
                            op: UnaryOp::Not,
                            expr: v,
                        },
                        ty,
                    )
                }
            },
            Type::Vector(..) => match self.rng.below(4) {
                0 => self.leaf(b, ty),
                1 => {
                    let components = (0..3).map(|_| self.expr(b, F32)).collect();
                    e(b, Expr::Compose { ty, components }, ty)
                }
                2 => {
                    let (l, r) = (self.expr(b, VEC3), self.expr(b, F32));
                    e(
                        b,
                        Expr::Binary {
                            op: BinaryOp::Mul,
                            left: l,
                            right: r,
                        },
                        ty,
                    )
                }
                _ => {
                    let (l, r) = (self.expr(b, VEC3), self.expr(b, VEC3));
                    let fun = [MathFun::Cross, MathFun::Min, MathFun::Normalize][self.rng.below(3)];
                    let args = if fun == MathFun::Normalize {
                        vec![l]
                    } else {
                        vec![l, r]
                    };
                    e(b, Expr::Math { fun, args }, ty)
                }
            },
            t if t == self.structure => match self.rng.below(2) {
                0 => self.leaf(b, ty),
                _ => {
                    let components = vec![self.expr(b, F32), self.expr(b, U32), self.expr(b, BOOL)];
                    e(b, Expr::Compose { ty, components }, ty)
                }
            },
            t if t == self.shape => {
                // An enum value: its tag and zeros for the other variant's payload.
                let tag = self.rng.below(2) as u32;
                let tag_e = e(b, Expr::Literal(Literal::U32(tag)), U32);
                let (p0, p1) = if tag == 0 {
                    (
                        self.expr(b, F32),
                        e(b, Expr::Zero(self.structure), self.structure),
                    )
                } else {
                    (e(b, Expr::Zero(F32), F32), self.expr(b, self.structure))
                };
                e(
                    b,
                    Expr::Compose {
                        ty,
                        components: vec![tag_e, p0, p1],
                    },
                    ty,
                )
            }
            _ => {
                // The array type.
                if self.rng.chance(50) {
                    self.leaf(b, ty)
                } else {
                    let components = (0..4).map(|_| self.expr(b, F32)).collect();
                    e(b, Expr::Compose { ty, components }, ty)
                }
            }
        }
    }

    /// A read of a buffer element, a local array element or workgroup memory.
    pub(super) fn element(&mut self, b: &mut Body, ty: Type) -> Handle<Expression> {
        if ty == F32 {
            let arrays: Vec<Handle<Local>> = b
                .scope
                .iter()
                .filter(|(_, t)| *t == self.array)
                .map(|(l, _)| *l)
                .collect();
            if !arrays.is_empty() && self.rng.chance(40) {
                let base = e(
                    b,
                    Expr::Local(arrays[self.rng.below(arrays.len())]),
                    self.array,
                );
                let index = self.expr(b, U32);
                return e(b, Expr::Access { base, index }, ty);
            }
            if let (Some(var), false) = (self.shared, self.in_helper) {
                if self.rng.chance(30) {
                    let index = self.expr(b, U32);
                    return e(
                        b,
                        Expr::SharedIndex {
                            var,
                            indices: vec![index],
                        },
                        ty,
                    );
                }
            }
        }
        if self.in_helper {
            return self.leaf(b, ty);
        }
        let slices: Vec<usize> = self
            .params
            .iter()
            .enumerate()
            .filter(|(_, p)| matches!(p.ty, ParamType::Slice { elem, .. } if elem == ty))
            .map(|(i, _)| i)
            .collect();
        if slices.is_empty() {
            return self.leaf(b, ty);
        }
        let slice = ParamId(slices[self.rng.below(slices.len())] as u32);
        let index = if self.rng.chance(50) {
            e(b, Expr::Len(slice), U32)
        } else {
            self.expr(b, U32)
        };
        e(b, Expr::Index { slice, index }, ty)
    }

    pub(super) fn pick_type(&mut self) -> Type {
        [
            F32,
            I32,
            U32,
            BOOL,
            VEC3,
            self.structure,
            self.array,
            self.shape,
        ][self.rng.below(8)]
    }
}
