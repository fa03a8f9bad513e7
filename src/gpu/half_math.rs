//! `f16` on the host: the float methods a kernel may call on an `f16` that `half::f16` itself
//! lacks, so that a kernel's plain-Rust `body` type-checks and runs as the GPU computes it.
//! Each converts to `f32`, applies `f32`'s method and rounds to the nearest `f16` (ties to
//! even), which is how Sarek computes `f16` math on the GPU and on the CPU backend too.
//! (`sqrt`, `abs`, `exp`, `ln`, `sin`, `cos`, `floor`, `ceil` and `mul_add` come from
//! [`Float`](super::Float); `min`, `max`, `clamp`, `signum`, `copysign` and the `is_*` tests
//! are `half::f16`'s own.)

use half::f16;

macro_rules! unary {
    ($($(#[$doc:meta])* $name:ident),*) => {
        $($(#[$doc])* fn $name(self) -> Self;)*
    };
}

macro_rules! unary_impl {
    ($($name:ident),*) => {
        $(fn $name(self) -> Self {
            f16::from_f32(self.to_f32().$name())
        })*
    };
}

/// The `f32` methods kernels may call on `f16`, for `half::f16` on the host (in scope in
/// every kernel body through `sarek::gpu::*`).
///
/// ```
/// use sarek::f16;
/// use sarek::gpu::HalfMath;
/// assert_eq!(f16::from_f32(2.0).powf(f16::from_f32(3.0)), f16::from_f32(8.0));
/// assert_eq!(f16::from_f32(2.5).trunc(), f16::from_f32(2.0));
/// ```
pub trait HalfMath: Sized {
    unary!(
        /// `f32::tan`, rounded.
        tan,
        /// `f32::asin`, rounded.
        asin,
        /// `f32::acos`, rounded.
        acos,
        /// `f32::atan`, rounded.
        atan,
        /// `f32::sinh`, rounded.
        sinh,
        /// `f32::cosh`, rounded.
        cosh,
        /// `f32::tanh`, rounded.
        tanh,
        /// `f32::asinh`, rounded.
        asinh,
        /// `f32::acosh`, rounded.
        acosh,
        /// `f32::atanh`, rounded.
        atanh,
        /// `f32::exp2`, rounded.
        exp2,
        /// `f32::exp_m1`, rounded.
        exp_m1,
        /// `f32::log2`, rounded.
        log2,
        /// `f32::log10`, rounded.
        log10,
        /// `f32::ln_1p`, rounded.
        ln_1p,
        /// `f32::cbrt`, rounded.
        cbrt,
        /// `f32::round` (half away from zero).
        round,
        /// `f32::trunc`.
        trunc,
        /// `f32::fract`, rounded.
        fract,
        /// `f32::recip`, rounded.
        recip,
        /// `f32::to_degrees`, rounded.
        to_degrees,
        /// `f32::to_radians`, rounded.
        to_radians
    );
    /// `f32::powf`, rounded.
    fn powf(self, y: Self) -> Self;
    /// `f32::powi`, rounded.
    fn powi(self, n: i32) -> Self;
    /// `f32::atan2`, rounded.
    fn atan2(self, x: Self) -> Self;
    /// `f32::hypot`, rounded.
    fn hypot(self, y: Self) -> Self;
    /// `f32::rem_euclid`, rounded.
    fn rem_euclid(self, y: Self) -> Self;
}

impl HalfMath for f16 {
    unary_impl!(
        tan, asin, acos, atan, sinh, cosh, tanh, asinh, acosh, atanh, exp2, exp_m1, log2, log10,
        ln_1p, cbrt, round, trunc, fract, recip, to_degrees, to_radians
    );
    fn powf(self, y: Self) -> Self {
        f16::from_f32(self.to_f32().powf(y.to_f32()))
    }
    fn powi(self, n: i32) -> Self {
        f16::from_f32(self.to_f32().powi(n))
    }
    fn atan2(self, x: Self) -> Self {
        f16::from_f32(self.to_f32().atan2(x.to_f32()))
    }
    fn hypot(self, y: Self) -> Self {
        f16::from_f32(self.to_f32().hypot(y.to_f32()))
    }
    fn rem_euclid(self, y: Self) -> Self {
        f16::from_f32(self.to_f32().rem_euclid(y.to_f32()))
    }
}
