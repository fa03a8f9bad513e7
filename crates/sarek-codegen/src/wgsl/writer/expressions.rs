//! Expressions: literals, built-ins, operators, casts and math, and the identity calls that
//! keep WGSL from evaluating what it would refuse.

use crate::arena::Handle;
use crate::ir::*;

use super::{binary_token, field_name, scalar_name, Builtins, Writer};
use crate::wgsl::escape::{escape, internal};
use crate::wgsl::helpers::Helper;

impl Writer<'_> {
    pub(super) fn literal(&mut self, literal: Literal) -> String {
        match literal {
            Literal::Bool(b) => b.to_string(),
            Literal::U32(v) => format!("{v}u"),
            Literal::I32(i32::MIN) => "i32(-2147483648)".to_owned(),
            Literal::I32(v) => format!("{v}i"),
            Literal::U64(v) => format!("{v}lu"),
            // `-9223372036854775808li` would be the negation of a literal out of range.
            Literal::I64(i64::MIN) => "(-9223372036854775807li - 1li)".to_owned(),
            Literal::I64(v) => format!("{v}li"),
            Literal::F32(v) if v.is_finite() => {
                // `{:?}` prints the shortest text that reads back to the same f32.
                let text = format!("{v:?}");
                format!("{text}f")
            }
            Literal::F32(v) => {
                self.helpers.insert(Helper::FromBits);
                format!("{}({:#010x}u)", Helper::FromBits.name(), v.to_bits())
            }
            Literal::F16(bits) if half::f16::from_bits(bits).is_finite() => {
                // `f16`'s `Debug` goes through `f32`; the shortest `f32` text of a half reads
                // back to the same half, since every half is exact in `f32`.
                format!("{:?}h", half::f16::from_bits(bits).to_f32())
            }
            Literal::F16(bits) => {
                self.helpers.insert(Helper::F16FromBits);
                let wide = half::f16::from_bits(bits).to_f32().to_bits();
                format!("{}({wide:#010x}u)", Helper::F16FromBits.name())
            }
        }
    }

    pub(super) fn builtin(&self, builtin: Builtin) -> String {
        let p = Builtins::PARAMS;
        match builtin {
            Builtin::ThreadIdx(a) => format!("{}.{}", Builtins::LOCAL_ID, a.letter()),
            Builtin::BlockIdx(a) => format!("{}.{}", Builtins::BLOCK_ID, a.letter()),
            Builtin::BlockDim(a) => format!("{}u", self.kernel.workgroup_size[a.index()]),
            Builtin::GridDim(a) => format!("{p}.sarek_grid.{}", a.letter()),
            Builtin::GlobalIdx(a) => format!("{}.{}", Builtins::GLOBAL_ID, a.letter()),
            Builtin::GlobalThreadId => {
                let [wx, wy, _] = self.kernel.workgroup_size;
                let gid = Builtins::GLOBAL_ID;
                format!(
                    "({gid}.x + ({gid}.y + {gid}.z * ({p}.sarek_grid.y * {wy}u)) * ({p}.sarek_grid.x * {wx}u))"
                )
            }
            Builtin::SubgroupSize => Builtins::SUBGROUP_SIZE.to_owned(),
            Builtin::SubgroupInvocationId => Builtins::SUBGROUP_ID.to_owned(),
        }
    }

    pub(super) fn expr(&mut self, handle: Handle<Expression>) -> String {
        let kernel = self.kernel;
        let node = &self.exprs[handle];
        match &node.kind {
            Expr::Literal(l) => self.literal(*l),
            Expr::Param(id) => {
                let param = kernel.param(*id);
                let field = format!("{}.{}", Builtins::PARAMS, escape(&param.name));
                match param.ty {
                    ParamType::Value(Type::Scalar(Scalar::Bool)) => format!("({field} != 0u)"),
                    _ => field,
                }
            }
            Expr::Local(local) => self.local_name(*local),
            Expr::Len(id) => format!(
                "{}.{}",
                Builtins::PARAMS,
                crate::wgsl::abi::length_field(id.0 as usize)
            ),
            Expr::Index { slice, index } => {
                let i = self.index(*index, None);
                format!("{}[{i}]", escape(&kernel.param(*slice).name))
            }
            Expr::Unary { op, expr } => {
                let mut e = self.expr(*expr);
                match (op, self.element_of(*expr)) {
                    // WGSL has no `-` on unsigned integers: `wrapping_neg` is `0 - x` (kept
                    // out of constant evaluation, which refuses the wrap).
                    (UnaryOp::Neg, Scalar::U32) => {
                        if self.is_const(*expr) {
                            e = self.opaque_any(self.exprs[*expr].ty, e);
                        }
                        match self.exprs[*expr].ty {
                            Type::Vector(n, _) => format!("(vec{n}<u32>() - {e})"),
                            _ => format!("(0u - {e})"),
                        }
                    }
                    (UnaryOp::Neg, Scalar::U64) => {
                        if self.is_const(*expr) {
                            e = self.opaque(Scalar::U64, e);
                        }
                        format!("(0lu - {e})")
                    }
                    // Constant evaluation refuses `-i64::MIN`, which wraps at run time.
                    (UnaryOp::Neg, Scalar::I64) if self.is_const(*expr) => {
                        format!("(- {})", self.opaque(Scalar::I64, e))
                    }
                    // A space: `--x` would be a decrement to the WGSL parser.
                    (UnaryOp::Neg, _) => format!("(- {e})"),
                    (UnaryOp::Not, Scalar::Bool) => format!("(!{e})"),
                    (UnaryOp::Not, _) => format!("(~{e})"),
                }
            }
            Expr::Binary { op, left, right }
                if matches!(self.exprs[*left].ty, Type::Vector(..))
                    || matches!(self.exprs[*right].ty, Type::Vector(..)) =>
            {
                let (mut l, r) = (self.expr(*left), self.expr(*right));
                if self.is_const(*left) && self.is_const(*right) {
                    // As for scalars: naga refuses a constant that overflows.
                    l = self.opaque_any(self.exprs[*left].ty, l);
                }
                let element = self.element_of(*left);
                if matches!(op, BinaryOp::Div | BinaryOp::Rem) && element.is_integer() {
                    return self.vector_division(*op, element, *left, *right, l, r);
                }
                match op {
                    BinaryOp::Eq => format!("all({l} == {r})"),
                    // naga's SPIR-V writes float `!=` as an ordered comparison, false for NaN;
                    // Rust's `!=` is true for NaN: negate `==` instead.
                    BinaryOp::Ne if self.element_of(*left).is_float() => {
                        format!("(!all({l} == {r}))")
                    }
                    BinaryOp::Ne => format!("any({l} != {r})"),
                    _ => format!("({l} {} {r})", binary_token(*op)),
                }
            }
            // naga lowers `&&` and `||` to an `if` writing a function variable, which its
            // uniformity analysis counts as divergent, so a barrier or matrix operation under
            // `if a && b` with uniform `a` and `b` was refused. In a kernel with such
            // operations, where the right side reads no memory (no index whose guard the
            // in-bounds proof takes from the left side), WGSL's non-short-circuit `&` and `|`
            // on `bool` compute the same. Other kernels keep `&&`: with `&`, the f16 product's
            // padding copies took the 4095×4097×4093 product from 780 to 1377 µs on an H200.
            Expr::Binary {
                op: op @ (BinaryOp::LogicalAnd | BinaryOp::LogicalOr),
                left,
                right,
            } if self.uniform_flow && !self.reads_memory(*right) => {
                let (l, r) = (self.expr(*left), self.expr(*right));
                let token = if *op == BinaryOp::LogicalAnd {
                    "&"
                } else {
                    "|"
                };
                format!("({l} {token} {r})")
            }
            Expr::Binary { op, left, right } => {
                let ty = self.scalar_of(*left);
                let mut l = self.expr(*left);
                // (An integer `/` or `%` goes through a helper call, never a constant.)
                let may_overflow = match op {
                    BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Shl => true,
                    BinaryOp::Div | BinaryOp::Rem => !ty.is_integer(),
                    _ => false,
                };
                if may_overflow && self.is_const(*left) && self.is_const(*right) {
                    l = self.opaque(ty, l);
                }
                self.binary_text(*op, ty, l, *right)
            }
            Expr::Select {
                cond,
                accept,
                reject,
            } => {
                let (c, a, r) = (self.expr(*cond), self.expr(*accept), self.expr(*reject));
                format!("select({r}, {a}, {c})")
            }
            // `f16` vectors to and from `f32` ones (the only vector casts): WGSL converts
            // each component as the scalar conversion does.
            Expr::Cast { expr, .. } if matches!(self.exprs[handle].ty, Type::Vector(..)) => {
                let e = self.expr(*expr);
                format!("{}({e})", self.type_name(self.exprs[handle].ty))
            }
            Expr::Cast { expr, to } => {
                let from = self.scalar_of(*expr);
                let e = self.expr(*expr);
                self.cast(e, from, *to)
            }
            Expr::SharedIndex { var, indices } => self.shared_element(*var, indices),
            Expr::Builtin(b) => self.builtin(*b),
            Expr::Math { fun, args } => {
                let arg_ty = args.first().map(|a| self.exprs[*a].ty);
                // naga evaluates a builtin on constants when the shader is created and refuses
                // a non-finite or out-of-domain result (`normalize` of zero, `log(0)`), which
                // the run time defines: keep such a call a run-time one.
                let const_args: Vec<bool> = args.iter().map(|a| self.is_const(*a)).collect();
                let handles = args.clone();
                let mut args: Vec<String> = args.iter().map(|a| self.expr(*a)).collect();
                if const_args.iter().all(|c| *c) {
                    if let (Some(first), Some(text)) = (handles.first(), args.first().cloned()) {
                        args[0] = self.opaque_any(self.exprs[*first].ty, text);
                    }
                }
                // A constant divisor may be zero, which naga refuses to evaluate.
                if *fun == MathFun::RemEuclid && const_args.get(1) == Some(&true) {
                    if let (Some(d), Some(text)) = (handles.get(1), args.get(1).cloned()) {
                        args[1] = self.opaque_any(self.exprs[*d].ty, text);
                    }
                }
                if let Some(half) = arg_ty.filter(|t| is_f16(*t)) {
                    // `f16` math runs in `f32` and rounds once: the polyfills are written for
                    // `f32`, and the CPU backend computes the same way (`interp::value::math`).
                    let args: Vec<String> = handles
                        .iter()
                        .zip(args)
                        .map(|(h, text)| widen(self.exprs[*h].ty, text))
                        .collect();
                    let text = self.math_call(*fun, Some(widened(half)), args);
                    return match self.exprs[handle].ty {
                        ty if is_f16(ty) => format!("{}({text})", self.type_name(ty)),
                        _ => text,
                    };
                }
                self.math_call(*fun, arg_ty, args)
            }
            Expr::Field { base, field } => {
                let ty = self.exprs[*base].ty;
                let b = self.expr(*base);
                if let Type::Vector(..) = ty {
                    return format!("{b}.{}", component(*field));
                }
                match self.field(ty, *field) {
                    Some(f) if f.ty == Type::Scalar(Scalar::Bool) => {
                        format!("({b}.{} != 0u)", field_name(&f.name))
                    }
                    Some(f) => format!("{b}.{}", field_name(&f.name)),
                    None => b,
                }
            }
            Expr::Access { base, index } => {
                if let Expr::Local(local) = self.exprs[*base].kind {
                    if let Some(element) = self.split_element(local, *index) {
                        return element;
                    }
                }
                let len = self.array_len(self.exprs[*base].ty);
                let b = self.expr(*base);
                let i = self.index(*index, len);
                format!("{b}[{i}]")
            }
            Expr::Compose { ty, components } => {
                let stored_bool: Vec<bool> = match ty {
                    Type::Struct(id) => self
                        .kernel
                        .struct_def(*id)
                        .map(|s| {
                            s.fields
                                .iter()
                                .map(|f| f.ty == Type::Scalar(Scalar::Bool))
                                .collect()
                        })
                        .unwrap_or_default(),
                    _ => Vec::new(),
                };
                let parts: Vec<String> = components
                    .iter()
                    .enumerate()
                    .map(|(i, c)| {
                        let text = self.expr(*c);
                        if stored_bool.get(i).copied().unwrap_or(false) {
                            format!("select(0u, 1u, {text})")
                        } else {
                            text
                        }
                    })
                    .collect();
                format!("{}({})", self.type_name(*ty), parts.join(", "))
            }
            Expr::Zero(ty) => format!("{}()", self.type_name(*ty)),
            Expr::Argument(n) => internal(&format!("a{n}")),
        }
    }

    /// A math function of `args` (printed, of type `arg_ty` for the first): a polyfill or the
    /// WGSL builtin.
    fn math_call(&mut self, fun: MathFun, arg_ty: Option<Type>, args: Vec<String>) -> String {
        let fun = &fun;
        if let Some(text) = self.polyfill(*fun, arg_ty, &args) {
            return text;
        }
        let name = match fun.intrinsic().wgsl {
            Wgsl::Builtin(name) => name,
            // `polyfill` spells every other function (its `match` has no wildcard arm).
            Wgsl::Helper => "",
        };
        format!("{name}({})", args.join(", "))
    }

    /// Inserts `helper` (and what it calls) into the module; returns its name.
    pub(super) fn use_helper(&mut self, helper: Helper) -> &'static str {
        if self.helpers.insert(helper) {
            for h in helper.needs() {
                self.use_helper(*h);
            }
        }
        helper.name()
    }

    /// The WGSL of a math function that is not a single WGSL builtin of the same name, if
    /// `fun` is one.
    pub(super) fn polyfill(
        &mut self,
        fun: MathFun,
        ty: Option<Type>,
        args: &[String],
    ) -> Option<String> {
        let scalar = ty.and_then(Type::scalar).unwrap_or(Scalar::F32);
        let call = |name: &str| format!("{name}({})", args.join(", "));
        if let Some(text) = self.std_method(fun, ty, args) {
            return Some(text);
        }
        Some(match (fun, scalar) {
            (MathFun::Log10, _) => call(self.use_helper(Helper::Log10)),
            (MathFun::Log2, _) => call(self.use_helper(Helper::Log2)),
            (MathFun::Atan2, _) => call(self.use_helper(Helper::Atan2)),
            (MathFun::Cbrt, _) => call(self.use_helper(Helper::Cbrt)),
            (MathFun::Hypot, _) => call(self.use_helper(Helper::Hypot)),
            (MathFun::ExpM1, _) => call(self.use_helper(Helper::ExpM1)),
            (MathFun::Ln1p, _) => call(self.use_helper(Helper::Ln1p)),
            (MathFun::Copysign, _) => call(self.use_helper(Helper::Copysign)),
            (MathFun::Signum, _) => call(self.use_helper(Helper::Signum)),
            (MathFun::Tanh, _) => call(self.use_helper(Helper::Tanh)),
            (MathFun::Asinh, _) => call(self.use_helper(Helper::Asinh)),
            (MathFun::Acosh, _) => call(self.use_helper(Helper::Acosh)),
            (MathFun::Atanh, _) => call(self.use_helper(Helper::Atanh)),
            (MathFun::RemEuclid, Scalar::F32) => call(self.use_helper(Helper::RemEuclidF32)),
            (MathFun::RemEuclid, Scalar::I32) => call(self.use_helper(Helper::RemEuclidI32)),
            (MathFun::RemEuclid, _) => call(self.use_helper(Helper::RemU32)),
            (MathFun::Clamp, Scalar::F32) => call(self.use_helper(Helper::ClampF32)),
            (MathFun::Clamp, _) => call("clamp"),
            (MathFun::Pow, Scalar::I32) => call(self.use_helper(Helper::PowI32)),
            (MathFun::Pow, _) => call(self.use_helper(Helper::PowU32)),
            (MathFun::Recip, _) => format!("(1.0f / {})", args[0]),
            // Rust's own constants, rounded to f32 as Rust rounds them.
            (MathFun::ToDegrees, _) => {
                format!("({} * {:?}f)", args[0], 57.295_78_f32)
            }
            (MathFun::ToRadians, _) => {
                format!("({} * {:?}f)", args[0], std::f32::consts::PI / 180.0)
            }
            (MathFun::Erf, _) => call(self.use_helper(Helper::Erf)),
            (MathFun::Round, _) => call(self.use_helper(Helper::Round)),
            (MathFun::LengthSquared, _) => format!("dot({0}, {0})", args[0]),
            (MathFun::CountOnes | MathFun::LeadingZeros | MathFun::TrailingZeros, _) => {
                let name = match fun {
                    MathFun::CountOnes => "countOneBits",
                    MathFun::LeadingZeros => "countLeadingZeros",
                    _ => "countTrailingZeros",
                };
                // The count of an `i32` is an `i32` in WGSL, a `u32` in Rust.
                match scalar {
                    Scalar::I32 => format!("bitcast<u32>({})", call(name)),
                    _ => call(name),
                }
            }
            // WGSL's builtin of the table's name ([`Wgsl::Builtin`]), or, for `min` and `max`
            // of anything but `f32` scalars and the second-wave methods of `std_method`
            // above, what `std_method` printed.
            (
                MathFun::Abs
                | MathFun::Min
                | MathFun::Max
                | MathFun::Sqrt
                | MathFun::Sin
                | MathFun::Cos
                | MathFun::Tan
                | MathFun::Exp
                | MathFun::Ln
                | MathFun::Powf
                | MathFun::Floor
                | MathFun::Ceil
                | MathFun::Trunc
                | MathFun::MulAdd
                | MathFun::Dot
                | MathFun::Cross
                | MathFun::Length
                | MathFun::Normalize
                | MathFun::Distance
                | MathFun::Asin
                | MathFun::Acos
                | MathFun::Atan
                | MathFun::Sinh
                | MathFun::Cosh
                | MathFun::Exp2
                | MathFun::Powi
                | MathFun::Fract
                | MathFun::IsNan
                | MathFun::IsInfinite
                | MathFun::IsFinite
                | MathFun::IsSignNegative
                | MathFun::ToBits
                | MathFun::FromBits
                | MathFun::DivCeil
                | MathFun::DivEuclid
                | MathFun::AbsDiff
                | MathFun::SaturatingAdd
                | MathFun::SaturatingSub
                | MathFun::SaturatingMul
                | MathFun::AddOverflows
                | MathFun::SubOverflows
                | MathFun::MulOverflows
                | MathFun::RotateLeft
                | MathFun::RotateRight
                | MathFun::ReverseBits
                | MathFun::SwapBytes
                | MathFun::CountZeros
                | MathFun::LeadingOnes
                | MathFun::TrailingOnes
                | MathFun::IsPowerOfTwo
                | MathFun::NextPowerOfTwo
                | MathFun::Ilog2
                | MathFun::UnsignedAbs
                | MathFun::Isqrt
                | MathFun::Pack4xU8
                | MathFun::Pack4xI8
                | MathFun::Unpack4xU8
                | MathFun::Unpack4xI8
                | MathFun::Pack2x16Float
                | MathFun::Unpack2x16Float,
                _,
            ) => return None,
        })
    }

    /// Whether WGSL evaluates `h` at shader-creation time ([`super::constness`]).
    /// Whether evaluating `h` reads a buffer or workgroup array, at any depth.
    fn reads_memory(&self, h: Handle<Expression>) -> bool {
        let kind = &self.exprs[h].kind;
        matches!(kind, Expr::Index { .. } | Expr::SharedIndex { .. })
            || kind.operands().any(|o| self.reads_memory(o))
    }

    pub(super) fn is_const(&self, h: Handle<Expression>) -> bool {
        self.constant.get(h.index()).copied().unwrap_or(false)
    }

    /// An index: a constant one outside the array (or, into a buffer, beyond `i32`), which
    /// naga refuses when the shader is created, is kept a run-time value (WebGPU then clamps
    /// or drops the access, as for any out-of-bounds index).
    pub(super) fn index(&mut self, index: Handle<Expression>, len: Option<u32>) -> String {
        let text = self.expr(index);
        if !self.is_const(index) {
            return text;
        }
        let value = match self.exprs[index].kind {
            Expr::Literal(l) => Some(l),
            _ => None,
        };
        let in_range = match (value, len) {
            (Some(Literal::U32(v)), Some(len)) => v < len,
            (Some(Literal::I32(v)), Some(len)) => v >= 0 && (v as u32) < len,
            (Some(Literal::U32(v)), None) => v <= i32::MAX as u32,
            (Some(Literal::I32(v)), None) => v >= 0,
            _ => false,
        };
        if in_range {
            text
        } else {
            let ty = self.scalar_of(index);
            self.opaque(ty, text)
        }
    }

    /// The length of an array type.
    pub(super) fn array_len(&self, ty: Type) -> Option<u32> {
        match ty {
            Type::Array(id) => array_def(&self.kernel.types, id).map(|a| a.1),
            _ => None,
        }
    }

    /// [`Self::opaque`] for a scalar or a vector (a vector times an opaque 1, which is exact).
    pub(super) fn opaque_any(&mut self, ty: Type, text: String) -> String {
        match ty {
            Type::Scalar(s) => self.opaque(s, text),
            Type::Vector(_, s) => {
                let one = match s {
                    Scalar::F32 => "1.0f",
                    Scalar::F16 => "1.0h",
                    Scalar::I32 => "1i",
                    _ => "1u",
                };
                let one = self.opaque(s, one.to_owned());
                format!("({text} * {one})")
            }
            _ => text,
        }
    }

    /// `text` passed through an identity function, so WGSL evaluates it at run time.
    pub(super) fn opaque(&mut self, ty: Scalar, text: String) -> String {
        let helper = match ty {
            Scalar::F32 => Helper::OpaqueF32,
            Scalar::F16 => Helper::OpaqueF16,
            Scalar::I32 => Helper::OpaqueI32,
            Scalar::U32 | Scalar::Bool => Helper::OpaqueU32,
            Scalar::I64 => Helper::OpaqueI64,
            Scalar::U64 => Helper::OpaqueU64,
        };
        self.helpers.insert(helper);
        format!("{}({text})", helper.name())
    }

    /// Integer `l / r` or `l % r` on vectors (or a vector and a scalar), with the divisor made
    /// safe per component as in [`Helper::DivI32`].
    pub(super) fn vector_division(
        &self,
        op: BinaryOp,
        element: Scalar,
        left: Handle<Expression>,
        right: Handle<Expression>,
        l: String,
        r: String,
    ) -> String {
        let n = match (self.exprs[left].ty, self.exprs[right].ty) {
            (Type::Vector(n, _), _) | (_, Type::Vector(n, _)) => n,
            _ => 1,
        };
        let t = format!("vec{n}<{}>", scalar_name(element));
        let splat = |h: Handle<Expression>, text: &str| match self.exprs[h].ty {
            Type::Vector(..) => text.to_owned(),
            _ => format!("{t}({text})"),
        };
        let (l, r) = (splat(left, &l), splat(right, &r));
        let unsafe_divisor = match element {
            Scalar::I32 => {
                format!("(({r} == {t}()) | (({l} == {t}(i32(-2147483648))) & ({r} == {t}(-1i))))")
            }
            _ => format!("({r} == {t}())"),
        };
        let one = if element == Scalar::I32 { "1i" } else { "1u" };
        let divisor = format!("select({r}, {t}({one}), {unsafe_divisor})");
        if matches!((op, element), (BinaryOp::Rem, Scalar::I32)) {
            // As `sarek_rem_i32`: GLSL leaves `%` of negative operands undefined.
            return format!("({l} - ({l} / {divisor}) * {divisor})");
        }
        format!("({l} {} {divisor})", binary_token(op))
    }

    /// `left op right`, where `left` is already printed and has type `ty`.
    pub(super) fn binary_text(
        &mut self,
        op: BinaryOp,
        ty: Scalar,
        left: String,
        right: Handle<Expression>,
    ) -> String {
        let right_ty = self.scalar_of(right);
        let r = self.expr(right);
        // (A divisor that constant evaluation computed stays guarded: see `Notes`.)
        let safe_divisor = !self.notes.evaluated.contains(&right)
            && match self.exprs[right].kind {
                Expr::Literal(Literal::I32(d)) => d != 0 && d != -1,
                Expr::Literal(Literal::U32(d)) => d != 0,
                Expr::Literal(Literal::I64(d)) => d != 0 && d != -1,
                Expr::Literal(Literal::U64(d)) => d != 0,
                _ => false,
            };
        // A signed `%` always takes the helper, whose remainder is defined for negative
        // operands on GL too (GLSL leaves `%` of negatives undefined).
        let signed_rem = matches!((op, ty), (BinaryOp::Rem, Scalar::I32 | Scalar::I64));
        if matches!(op, BinaryOp::Div | BinaryOp::Rem)
            && ty.is_integer()
            && (!safe_divisor || signed_rem)
        {
            // WGSL's defined results on every wgpu backend (a function call is also never a
            // constant expression, which naga would refuse for a zero divisor).
            let helper = match (op, ty) {
                (BinaryOp::Div, Scalar::I32) => Helper::DivI32,
                (BinaryOp::Rem, Scalar::I32) => Helper::RemI32,
                (BinaryOp::Div, Scalar::I64) => Helper::DivI64,
                (BinaryOp::Rem, Scalar::I64) => Helper::RemI64,
                (BinaryOp::Div, Scalar::U64) => Helper::DivU64,
                (BinaryOp::Rem, Scalar::U64) => Helper::RemU64,
                (BinaryOp::Div, _) => Helper::DivU32,
                _ => Helper::RemU32,
            };
            return format!("{}({left}, {r})", self.use_helper(helper));
        }
        match (op, ty) {
            (BinaryOp::Rem, Scalar::F32) => {
                format!("{}({left}, {r})", self.use_helper(Helper::Fmod))
            }
            // Exact in `f32`, so rounding the `f32` remainder gives the `f16` one.
            (BinaryOp::Rem, Scalar::F16) => {
                format!("{}({left}, {r})", self.use_helper(Helper::FmodF16))
            }
            (BinaryOp::Shl | BinaryOp::Shr, _) => {
                // WGSL wants a u32 amount; Rust's wrapping shifts use its low five bits (six
                // for a 64-bit value).
                let mask = if ty.is_wide() { 63 } else { 31 };
                let amount = match right_ty {
                    Scalar::U32 => format!("({r} & {mask}u)"),
                    Scalar::I32 => format!("(bitcast<u32>({r}) & {mask}u)"),
                    Scalar::U64 => format!("u32({r} & {mask}lu)"),
                    _ => format!("u32(bitcast<u64>({r}) & {mask}lu)"),
                };
                format!("({left} {} {amount})", binary_token(op))
            }
            (BinaryOp::BitXor, Scalar::Bool) => format!("({left} != {r})"),
            // As for vectors: `NaN != x` must be true, which naga's SPIR-V `!=` is not.
            (BinaryOp::Ne, Scalar::F32 | Scalar::F16) => format!("(!({left} == {r}))"),
            _ => format!("({left} {} {r})", binary_token(op)),
        }
    }

    pub(super) fn cast(&mut self, e: String, from: Scalar, to: Scalar) -> String {
        use Scalar::*;
        match (from, to) {
            _ if from == to => e,
            (F32, I32) => {
                self.helpers.insert(Helper::F32ToI32);
                format!("{}({e})", Helper::F32ToI32.name())
            }
            (F32, U32) => {
                self.helpers.insert(Helper::F32ToU32);
                format!("{}({e})", Helper::F32ToU32.name())
            }
            (I32, U32) | (U32, I32) | (I64, U64) | (U64, I64) => {
                format!("bitcast<{}>({e})", scalar_name(to))
            }
            // Between widths, WGSL converts within one signedness (sign- or zero-extending
            // as the source's, truncating); a change of signedness is a bit cast after it,
            // as Rust's `as` does.
            (I32, I64) | (U32, U64) | (I64, I32) | (U64, U32) => {
                format!("{}({e})", scalar_name(to))
            }
            (I32, U64) => format!("bitcast<u64>(i64({e}))"),
            (U32, I64) => format!("bitcast<i64>(u64({e}))"),
            (I64, U32) => format!("u32(bitcast<u64>({e}))"),
            (U64, I32) => format!("bitcast<i32>(u32({e}))"),
            (F32, I64) => {
                self.helpers.insert(Helper::F32ToI64);
                format!("{}({e})", Helper::F32ToI64.name())
            }
            (F32, U64) => {
                self.helpers.insert(Helper::F32ToU64);
                format!("{}({e})", Helper::F32ToU64.name())
            }
            (Bool, I64) => format!("select(0li, 1li, {e})"),
            (Bool, U64) => format!("select(0lu, 1lu, {e})"),
            (I64, Bool) => format!("({e} != 0li)"),
            (U64, Bool) => format!("({e} != 0lu)"),
            // Through `f32`, exactly: Rust's saturating conversion, and an integer rounds once
            // (every integer an `f16` can round to is exact in `f32`).
            (F16, I32 | U32) => self.cast(format!("f32({e})"), F32, to),
            (I32 | U32, F16) => format!("f16(f32({e}))"),
            (Bool, F16) => format!("select(0.0h, 1.0h, {e})"),
            (Bool, F32) => format!("select(0.0f, 1.0f, {e})"),
            (_, Bool) => format!("({e} != {}(0))", scalar_name(from)),
            _ => format!("{}({e})", scalar_name(to)),
        }
    }
}

/// The WGSL name of vector component `i`.
pub(super) fn component(i: u32) -> &'static str {
    ["x", "y", "z", "w"].get(i as usize).copied().unwrap_or("x")
}

/// Whether `ty` is `f16` or a vector of it.
fn is_f16(ty: Type) -> bool {
    matches!(ty, Type::Scalar(Scalar::F16) | Type::Vector(_, Scalar::F16))
}

/// The `f32` counterpart of an `f16` type (others unchanged).
fn widened(ty: Type) -> Type {
    match ty {
        Type::Scalar(Scalar::F16) => Type::Scalar(Scalar::F32),
        Type::Vector(n, Scalar::F16) => Type::Vector(n, Scalar::F32),
        other => other,
    }
}

/// `text`, of type `ty`, converted to `f32` when it is an `f16` (exact).
fn widen(ty: Type, text: String) -> String {
    match ty {
        Type::Scalar(Scalar::F16) => format!("f32({text})"),
        Type::Vector(n, Scalar::F16) => format!("vec{n}<f32>({text})"),
        _ => text,
    }
}
