//! The WGSL of the `std` methods of [`super::super::std_helpers`]: a helper call, a builtin
//! where WGSL's means Rust's (`reverseBits`, `sign` on `i32`), or a short inline form.

use crate::ir::*;
use crate::wgsl::helpers::Helper;
use crate::wgsl::std_helpers::StdHelper;

use super::Writer;

impl Writer<'_> {
    /// The WGSL of `fun` on `args` (whose first has type `ty`), if it is one of the `std`
    /// methods this file handles.
    pub(super) fn std_method(
        &mut self,
        fun: MathFun,
        ty: Option<Type>,
        args: &[String],
    ) -> Option<String> {
        use MathFun::*;
        let packing = match fun {
            Pack4xU8 => Some("pack4xU8"),
            Pack4xI8 => Some("pack4xI8"),
            Unpack4xU8 => Some("unpack4xU8"),
            Unpack4xI8 => Some("unpack4xI8"),
            Pack2x16Float => {
                let name = self.use_helper(Helper::Std(StdHelper::Pack2x16Float));
                return Some(format!("{name}({})", args[0]));
            }
            Unpack2x16Float => {
                let name = self.use_helper(Helper::Std(StdHelper::Unpack2x16Float));
                return Some(format!("{name}({})", args[0]));
            }
            _ => None,
        };
        if let Some(name) = packing {
            return Some(format!("{name}({})", args[0]));
        }
        let Some(Type::Scalar(scalar)) = ty else {
            return None;
        };
        let signed = scalar == Scalar::I32;
        let std = |w: &mut Self, h: StdHelper| {
            let name = w.use_helper(Helper::Std(h));
            format!("{name}({})", args.join(", "))
        };
        // The bit-only methods exist on `u32`: an `i32` goes through `bitcast`.
        let bits = |a: &str| {
            if signed {
                format!("bitcast<u32>({a})")
            } else {
                a.to_owned()
            }
        };
        let back = |a: String| {
            if signed {
                format!("bitcast<i32>({a})")
            } else {
                a
            }
        };
        Some(match fun {
            Max if scalar == Scalar::F32 => std(self, StdHelper::MaxF32),
            Min if scalar == Scalar::F32 => std(self, StdHelper::MinF32),
            Asin => std(self, StdHelper::Asin),
            Acos => std(self, StdHelper::Acos),
            Atan => {
                let name = self.use_helper(Helper::Atan2);
                format!("{name}({}, 1.0f)", args[0])
            }
            Sinh => std(self, StdHelper::Sinh),
            Cosh => std(self, StdHelper::Cosh),
            Exp2 => std(self, StdHelper::Exp2),
            Powi => std(self, StdHelper::Powi),
            Fract => std(self, StdHelper::Fract),
            IsNan => std(self, StdHelper::IsNan),
            IsInfinite => std(self, StdHelper::IsInfinite),
            IsFinite => std(self, StdHelper::IsFinite),
            IsSignNegative => format!("((bitcast<u32>({}) & 0x80000000u) != 0u)", args[0]),
            ToBits => format!("bitcast<u32>({})", args[0]),
            FromBits => {
                let name = self.use_helper(Helper::FromBits);
                format!("{name}({})", args[0])
            }
            Signum if signed => format!("sign({})", args[0]),
            DivCeil => std(self, StdHelper::DivCeilU32),
            DivEuclid if signed => std(self, StdHelper::DivEuclidI32),
            DivEuclid => {
                let name = self.use_helper(Helper::DivU32);
                format!("{name}({})", args.join(", "))
            }
            AbsDiff if signed => std(self, StdHelper::AbsDiffI32),
            AbsDiff => std(self, StdHelper::AbsDiffU32),
            SaturatingAdd if signed => std(self, StdHelper::SaturatingAddI32),
            SaturatingAdd => std(self, StdHelper::SaturatingAddU32),
            SaturatingSub if signed => std(self, StdHelper::SaturatingSubI32),
            SaturatingSub => format!("select({0} - {1}, 0u, {0} < {1})", args[0], args[1]),
            SaturatingMul if signed => std(self, StdHelper::SaturatingMulI32),
            SaturatingMul => std(self, StdHelper::SaturatingMulU32),
            AddOverflows if signed => std(self, StdHelper::AddOverflowsI32),
            AddOverflows => format!("(({0} + {1}) < {0})", args[0], args[1]),
            SubOverflows if signed => std(self, StdHelper::SubOverflowsI32),
            SubOverflows => format!("({} < {})", args[0], args[1]),
            MulOverflows if signed => std(self, StdHelper::MulOverflowsI32),
            MulOverflows => std(self, StdHelper::MulOverflowsU32),
            RotateLeft | RotateRight => {
                let h = if fun == RotateLeft {
                    StdHelper::RotateLeft
                } else {
                    StdHelper::RotateRight
                };
                let name = self.use_helper(Helper::Std(h));
                back(format!("{name}({}, {})", bits(&args[0]), args[1]))
            }
            SwapBytes => {
                let name = self.use_helper(Helper::Std(StdHelper::SwapBytes));
                back(format!("{name}({})", bits(&args[0])))
            }
            ReverseBits => format!("reverseBits({})", args[0]),
            CountZeros => format!("(32u - countOneBits({}))", bits(&args[0])),
            LeadingOnes => format!("countLeadingZeros(~({}))", bits(&args[0])),
            TrailingOnes => format!("countTrailingZeros(~({}))", bits(&args[0])),
            IsPowerOfTwo => std(self, StdHelper::IsPowerOfTwo),
            NextPowerOfTwo => std(self, StdHelper::NextPowerOfTwo),
            Ilog2 if signed => std(self, StdHelper::Ilog2I32),
            Ilog2 => format!("(31u - countLeadingZeros({}))", args[0]),
            UnsignedAbs => std(self, StdHelper::UnsignedAbs),
            Isqrt if signed => std(self, StdHelper::IsqrtI32),
            Isqrt => std(self, StdHelper::IsqrtU32),
            _ => return None,
        })
    }
}
