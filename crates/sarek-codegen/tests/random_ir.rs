//! The back end against naga: random well-typed IR kernels (scalars, vectors, arrays, structs,
//! enums stored as tagged structs, helper functions, every operator and math function, loops,
//! switches, workgroup memory and barriers) must compile to WGSL that naga accepts, and the
//! output must not depend on threads. `SAREK_RANDOM_KERNELS=<n>` sets how many (default 2000;
//! millions work, given time).

use sarek_codegen::arena::{Arena, Handle};
use sarek_codegen::ir::*;

/// xorshift64*: small, deterministic, good enough to pick shapes.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

const F32: Type = Type::Scalar(Scalar::F32);
const I32: Type = Type::Scalar(Scalar::I32);
const U32: Type = Type::Scalar(Scalar::U32);
const BOOL: Type = Type::Scalar(Scalar::Bool);
const VEC3: Type = Type::Vector(3, Scalar::F32);

/// The body being generated (the kernel's or a helper's).
struct Body {
    locals: Arena<Local>,
    exprs: Arena<Expression>,
    /// Locals in scope, with their types.
    scope: Vec<(Handle<Local>, Type)>,
    /// Function arguments (helpers only).
    args: Vec<Type>,
}

struct Gen<'a> {
    rng: &'a mut Rng,
    params: Vec<Param>,
    types: Vec<TypeDef>,
    structure: Type,
    shape: Type,
    array: Type,
    depth: usize,
    loops: usize,
    in_helper: bool,
    helper: Option<(FunctionId, Vec<Type>, Type)>,
    shared: Option<SharedId>,
}

fn e(b: &mut Body, kind: Expr, ty: Type) -> Handle<Expression> {
    b.exprs.append(Expression {
        kind,
        ty,
        span: Span(0),
    })
}

fn st(kind: Stmt) -> Statement {
    Statement {
        kind,
        span: Span(0),
    }
}

impl Gen<'_> {
    fn literal(&mut self, b: &mut Body, ty: Type) -> Handle<Expression> {
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
    fn expr(&mut self, b: &mut Body, ty: Type) -> Handle<Expression> {
        self.depth += 1;
        let h = if self.depth > 4 {
            self.leaf(b, ty)
        } else {
            self.node(b, ty)
        };
        self.depth -= 1;
        h
    }

    fn leaf(&mut self, b: &mut Body, ty: Type) -> Handle<Expression> {
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

    fn node(&mut self, b: &mut Body, ty: Type) -> Handle<Expression> {
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
    fn element(&mut self, b: &mut Body, ty: Type) -> Handle<Expression> {
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

    fn pick_type(&mut self) -> Type {
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

    fn block(&mut self, b: &mut Body, len: usize, nesting: usize) -> Block {
        let scope_len = b.scope.len();
        let mut out = Vec::new();
        for _ in 0..len {
            out.push(self.statement(b, nesting));
        }
        b.scope.truncate(scope_len);
        out
    }

    fn statement(&mut self, b: &mut Body, nesting: usize) -> Statement {
        let choice = if nesting > 2 {
            self.rng.below(3)
        } else {
            self.rng.below(9)
        };
        match choice {
            0 | 1 => {
                let ty = self.pick_type();
                let init = if self.rng.chance(80) {
                    Some(self.expr(b, ty))
                } else {
                    None
                };
                let local = b.locals.append(Local {
                    name: ["x", "acc", "max", "select", "r#type", "_", "__v", "sarek_k"]
                        [self.rng.below(8)]
                    .trim_start_matches("r#")
                    .to_owned(),
                    ty,
                    mutable: init.is_none() || self.rng.chance(60),
                    span: Span(0),
                });
                b.scope.push((local, ty));
                st(Stmt::Let { local, init })
            }
            2 => self.assign(b),
            3 => {
                let cond = self.expr(b, BOOL);
                let accept = {
                    let n = 1 + self.rng.below(3);
                    self.block(b, n, nesting + 1)
                };
                let reject = {
                    let n = self.rng.below(3);
                    self.block(b, n, nesting + 1)
                };
                st(Stmt::If {
                    cond,
                    accept,
                    reject,
                })
            }
            4 => {
                self.loops += 1;
                let cond = self.expr(b, BOOL);
                let exit = st(Stmt::If {
                    cond,
                    accept: vec![st(Stmt::Break)],
                    reject: vec![],
                });
                let mut body = vec![exit];
                body.extend({
                    let n = 1 + self.rng.below(3);
                    self.block(b, n, nesting + 1)
                });
                if self.rng.chance(30) {
                    body.push(st(Stmt::Continue));
                }
                let break_if = self.rng.chance(40).then(|| self.expr(b, BOOL));
                self.loops -= 1;
                st(Stmt::Loop {
                    body,
                    continuing: vec![],
                    break_if,
                })
            }
            5 => {
                let sel_ty = [I32, U32][self.rng.below(2)];
                let selector = self.expr(b, sel_ty);
                let signed = b.exprs[selector].ty == I32;
                let lit = |v: u32| {
                    if signed {
                        Literal::I32(v as i32)
                    } else {
                        Literal::U32(v)
                    }
                };
                let cases = vec![
                    Case {
                        values: vec![lit(0), lit(2)],
                        body: self.block(b, 1, nesting + 1),
                    },
                    Case {
                        values: vec![lit(1)],
                        body: self.block(b, 1, nesting + 1),
                    },
                ];
                let default = {
                    let n = self.rng.below(2);
                    self.block(b, n, nesting + 1)
                };
                st(Stmt::Switch {
                    selector,
                    cases,
                    default,
                })
            }
            6 if self.loops > 0 && self.rng.chance(50) => st(Stmt::Break),
            6 | 7 => match self.helper.clone() {
                Some((function, arg_tys, result)) if !self.in_helper => {
                    let args = arg_tys.iter().map(|t| self.expr(b, *t)).collect();
                    let local = b.locals.append(Local {
                        name: "r".into(),
                        ty: result,
                        mutable: false,
                        span: Span(0),
                    });
                    b.scope.push((local, result));
                    st(Stmt::Call {
                        function,
                        args,
                        result: Some(local),
                    })
                }
                _ => self.assign(b),
            },
            _ => self.assign(b),
        }
    }

    fn assign(&mut self, b: &mut Body) -> Statement {
        let mutable: Vec<(Handle<Local>, Type)> = b
            .scope
            .iter()
            .copied()
            .filter(|(l, _)| b.locals[*l].mutable)
            .collect();
        let place_ty = if !mutable.is_empty() && self.rng.chance(60) {
            let (l, t) = mutable[self.rng.below(mutable.len())];
            if t == self.structure && self.rng.chance(50) {
                (
                    Place::Field {
                        base: Box::new(Place::Local(l)),
                        field: [0, 2][self.rng.below(2)],
                    },
                    None,
                )
            } else if t == self.array && self.rng.chance(50) {
                let index = self.expr(b, U32);
                (
                    Place::Element {
                        base: Box::new(Place::Local(l)),
                        index,
                    },
                    Some(F32),
                )
            } else {
                (Place::Local(l), Some(t))
            }
        } else if !self.in_helper {
            let writable: Vec<usize> = self
                .params
                .iter()
                .enumerate()
                .filter(|(_, p)| {
                    matches!(
                        p.ty,
                        ParamType::Slice {
                            access: Access::ReadWrite,
                            ..
                        }
                    )
                })
                .map(|(i, _)| i)
                .collect();
            let i = writable[self.rng.below(writable.len())];
            let ParamType::Slice { elem, .. } = self.params[i].ty else {
                unreachable!()
            };
            let index = self.expr(b, U32);
            (
                Place::Index {
                    slice: ParamId(i as u32),
                    index,
                },
                Some(elem),
            )
        } else {
            let value = self.expr(b, F32);
            return st(Stmt::Return(Some(value)));
        };
        let (place, ty) = place_ty;
        let ty = ty.unwrap_or_else(|| {
            // A struct field: field 0 is f32, field 2 is bool.
            if let Place::Field { field: 2, .. } = place {
                BOOL
            } else {
                F32
            }
        });
        let value = self.expr(b, ty);
        let op = match ty {
            Type::Scalar(Scalar::F32) | Type::Scalar(Scalar::I32) | Type::Scalar(Scalar::U32)
                if self.rng.chance(30) =>
            {
                Some(
                    [BinaryOp::Add, BinaryOp::Mul, BinaryOp::Div, BinaryOp::Rem][self.rng.below(4)],
                )
            }
            _ => None,
        };
        st(Stmt::Assign { place, op, value })
    }
}

/// A random kernel from `seed`.
fn kernel(seed: u64) -> Kernel {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut types = vec![TypeDef::Struct(StructDef {
        name: ["S", "Params", "vec3", "sarek_S"][rng.below(4)].into(),
        fields: vec![
            Field {
                name: FieldName::Named("a".into()),
                ty: F32,
            },
            Field {
                name: FieldName::Named("type".into()),
                ty: U32,
            },
            Field {
                name: FieldName::Named("alive".into()),
                ty: BOOL,
            },
        ],
        variants: None,
    })];
    let structure = Type::Struct(TypeId(0));
    types.push(TypeDef::Array { elem: F32, len: 4 });
    let array = Type::Array(TypeId(1));
    types.push(TypeDef::Struct(StructDef {
        name: "Shape".into(),
        fields: vec![
            Field {
                name: FieldName::Tag,
                ty: U32,
            },
            Field {
                name: FieldName::Payload {
                    variant: 0,
                    name: "0".into(),
                },
                ty: F32,
            },
            Field {
                name: FieldName::Payload {
                    variant: 1,
                    name: "s".into(),
                },
                ty: structure,
            },
        ],
        variants: Some(vec!["A".into(), "B".into()]),
    }));
    let shape = Type::Struct(TypeId(2));
    let params = vec![
        Param {
            name: "a".into(),
            ty: ParamType::Value(F32),
            span: Span(0),
        },
        Param {
            name: "out".into(),
            ty: ParamType::Slice {
                elem: F32,
                access: Access::ReadWrite,
            },
            span: Span(0),
        },
        Param {
            name: "n".into(),
            ty: ParamType::Value(U32),
            span: Span(0),
        },
        Param {
            name: "ints".into(),
            ty: ParamType::Slice {
                elem: I32,
                access: Access::Read,
            },
            span: Span(0),
        },
        Param {
            name: "counts".into(),
            ty: ParamType::Slice {
                elem: U32,
                access: Access::ReadWrite,
            },
            span: Span(0),
        },
        Param {
            name: "k".into(),
            ty: ParamType::Value(I32),
            span: Span(0),
        },
        Param {
            name: "structs".into(),
            ty: ParamType::Slice {
                elem: structure,
                access: Access::ReadWrite,
            },
            span: Span(0),
        },
        Param {
            name: "shapes".into(),
            ty: ParamType::Slice {
                elem: shape,
                access: Access::Read,
            },
            span: Span(0),
        },
        Param {
            name: "p".into(),
            ty: ParamType::Value(structure),
            span: Span(0),
        },
    ];
    let with_shared = rng.chance(40);
    let shared = with_shared.then(|| {
        vec![SharedVar {
            name: "tile".into(),
            elem: F32,
            atomic: false,
            dims: vec![64],
            span: Span(0),
        }]
    });

    // A helper returning an f32 from an f32 and a struct, sometimes.
    let mut functions = Vec::new();
    let mut helper = None;
    if rng.chance(50) {
        let mut g = Gen {
            rng: &mut rng,
            params: params.clone(),
            types: types.clone(),
            structure,
            shape,
            array,
            depth: 0,
            loops: 0,
            in_helper: true,
            helper: None,
            shared: None,
        };
        let mut b = Body {
            locals: Arena::new(),
            exprs: Arena::new(),
            scope: Vec::new(),
            args: vec![F32, structure],
        };
        let n = 1 + g.rng.below(4);
        let mut body = g.block(&mut b, n, 0);
        let value = g.expr(&mut b, F32);
        body.push(st(Stmt::Return(Some(value))));
        let _ = &g.types;
        functions.push(Function {
            name: ["helper", "max", "sarek_main"][rng.below(3)].into(),
            args: vec![F32, structure],
            result: Some(F32),
            locals: b.locals,
            exprs: b.exprs,
            body,
            span: Span(0),
        });
        helper = Some((FunctionId(0), vec![F32, structure], F32));
    }

    let mut g = Gen {
        rng: &mut rng,
        params: params.clone(),
        types: types.clone(),
        structure,
        shape,
        array,
        depth: 0,
        loops: 0,
        in_helper: false,
        helper,
        shared: with_shared.then_some(SharedId(0)),
    };
    let mut b = Body {
        locals: Arena::new(),
        exprs: Arena::new(),
        scope: Vec::new(),
        args: Vec::new(),
    };
    let mut body = Vec::new();
    if with_shared {
        // Barriers stay in uniform control flow, ahead of any varying branch.
        let index = e(&mut b, Expr::Builtin(Builtin::ThreadIdx(Axis::X)), U32);
        let value = g.expr(&mut b, F32);
        body.push(st(Stmt::Assign {
            place: Place::Shared {
                var: SharedId(0),
                indices: vec![index],
            },
            op: None,
            value,
        }));
        body.push(st(Stmt::Barrier(Barrier::Workgroup)));
    }
    let len = 2 + g.rng.below(8);
    body.extend(g.block(&mut b, len, 0));
    if g.rng.chance(20) {
        body.push(st(Stmt::Return(None)));
    }
    Kernel {
        name: "random".into(),
        params,
        workgroup_size: [64, 1, 1],
        shared: shared.unwrap_or_default(),
        entry: Function {
            name: "random".into(),
            args: Vec::new(),
            result: None,
            locals: b.locals,
            exprs: b.exprs,
            body,
            span: Span(0),
        },
        span: Span(0),
        types,
        functions,
        limits: Limits::Portable,
    }
}

fn count() -> u64 {
    std::env::var("SAREK_RANDOM_KERNELS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000)
}

#[test]
fn random_kernels_compile_to_wgsl_that_naga_accepts() {
    let mut failures = Vec::new();
    for seed in 0..count() {
        let k = kernel(seed);
        match sarek_codegen::compile(&k) {
            Ok(_) => {}
            Err(e) => failures.push(format!("seed {seed}: {e}")),
        }
        if failures.len() >= 3 {
            break;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn generation_from_eight_threads_matches_a_sequential_run() {
    let seeds: Vec<u64> = (0..200).collect();
    let sequential: Vec<String> = seeds
        .iter()
        .map(|&s| {
            sarek_codegen::compile(&kernel(s))
                .map(|c| c.wgsl)
                .unwrap_or_default()
        })
        .collect();
    let parallel: Vec<Vec<String>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..8)
            .map(|_| {
                scope.spawn(|| {
                    seeds
                        .iter()
                        .map(|&s| {
                            sarek_codegen::compile(&kernel(s))
                                .map(|c| c.wgsl)
                                .unwrap_or_default()
                        })
                        .collect::<Vec<String>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("thread"))
            .collect()
    });
    for run in parallel {
        assert!(
            run == sequential,
            "a thread's output differs from the sequential run"
        );
    }
}

/// The CPU backend on the same kernels: the IR survives the JSON the macro embeds, and the
/// interpreter runs every kernel on random buffers without panicking, with checks on and off
/// (random loops may not terminate, so each workgroup gets a budget of statements).
#[test]
fn random_kernels_round_trip_as_json_and_run_on_the_cpu_backend() {
    use sarek_codegen::interp::{Launch, Program};
    use std::sync::atomic::AtomicU32;
    let n = (count() / 4).max(1);
    for seed in 0..n {
        let k = kernel(seed);
        if sarek_codegen::compile(&k).is_err() {
            continue; // reported by the naga test
        }
        let json = Program::to_json(&k);
        let program = Program::from_json(&json).expect("the IR reads back");
        // Compared as JSON: a NaN literal is not `==` to itself.
        assert!(
            Program::to_json(program.kernel()) == json,
            "seed {seed}: the IR changed through JSON"
        );
        let mut rng = Rng(seed | 1);
        let buffers: Vec<Vec<AtomicU32>> = k
            .params
            .iter()
            .map(|_| (0..64).map(|_| AtomicU32::new(rng.next() as u32)).collect())
            .collect();
        let values: Vec<(u32, u32)> = (0..k.params.len() as u32)
            .map(|p| (p, rng.next() as u32 % 100))
            .collect();
        let stride = |p: &Param| match p.ty.buffer() {
            Some((ty, _)) => sarek_codegen::layout::of(&k.types, ty).stride() / 4,
            None => 1,
        };
        let lens: Vec<(u32, u32)> = k
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| (i as u32, 64 / stride(p).max(1)))
            .collect();
        let uniform = program.uniform(&values, [2, 1, 1], &lens);
        for checks in [false, true] {
            let mut launch = Launch::new(&uniform, [2, 1, 1]);
            launch.checks = checks;
            // 2,000 statements of each of the 64 invocations (fuel counts per invocation).
            launch.fuel = Some(2_000 * 64);
            launch.threads = 1;
            for (i, b) in buffers.iter().enumerate() {
                if k.params[i].ty.buffer().is_some() {
                    launch = launch.buffer(i, b);
                }
            }
            // A fault (out of fuel, or a checked index or division) is an answer, not a bug.
            let _ = program.run(&launch);
        }
    }
}
