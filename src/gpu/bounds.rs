//! The bounds of a generic kernel's type parameters: [`Scalar`], [`Float`] and [`Integer`].
//!
//! Each names a closed set of types (`Scalar` = `f32`, `i32`, `u32`; `Float` = `f32`;
//! `Integer` = `i32`, `u32`), which is what lets `#[sarek::kernel]` build, compile and
//! validate every instance of a generic kernel at build time. The traits are sealed (no other
//! type can implement them) and carry the operators and methods each set has in common, so
//! that the kernel's plain-Rust `body` type-checks: `a * x[i]` compiles for `T: Scalar`.

use std::fmt::Debug;
use std::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Rem, RemAssign, Sub, SubAssign};
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Neg, Not};
use std::ops::{Shl, ShlAssign, Shr, ShrAssign};

mod sealed {
    /// Keeps the bounds closed: the macro enumerates their members.
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for i32 {}
    impl Sealed for u32 {}
    impl Sealed for half::f16 {}
}

/// A GPU scalar: `f32`, `i32` or `u32`. A generic kernel `fn k<T: Scalar>(..)` is built for
/// all three; `launch` picks the instance from the arguments' types.
///
/// ```
/// use sarek::gpu::Scalar;
/// fn dot<T: Scalar>(a: &[T], b: &[T]) -> T {
///     a.iter().zip(b).fold(T::ZERO, |s, (x, y)| s + *x * *y)
/// }
/// assert_eq!(dot(&[1u32, 2], &[3, 4]), 11);
/// ```
pub trait Scalar:
    sealed::Sealed
    + Copy
    + Debug
    + Default
    + PartialEq
    + PartialOrd
    + Send
    + Sync
    + 'static
    + crate::Element
    + super::SharedMemory
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Rem<Output = Self>
    + AddAssign
    + SubAssign
    + MulAssign
    + DivAssign
    + RemAssign
{
    /// `0` of the type (in a kernel, the literal `0`, `0u32` or `0.0`).
    const ZERO: Self;
    /// `1` of the type.
    const ONE: Self;
    /// The smallest finite value (`f32::MIN`, `i32::MIN`, `0u32`).
    const MIN: Self;
    /// The largest finite value.
    const MAX: Self;
    /// The launch argument of a value of this type (used by generated code).
    #[doc(hidden)]
    fn __sarek_arg(self) -> crate::__private::Arg<'static>;
}

/// A GPU float: `f32` and `f16` (`half::f16`; a generic kernel gets an `f16` instance only
/// where `instances(T = [..])` lists it, since it needs `SHADER_F16`), with negation and the
/// float methods kernels use most (on `f16` computed in `f32` and rounded, as on the GPU).
///
/// ```
/// use sarek::gpu::Float;
/// fn norm<T: Float>(x: T, y: T) -> T { (x * x + y * y).sqrt() }
/// assert_eq!(norm(3.0f32, 4.0), 5.0);
/// ```
pub trait Float: Scalar + Neg<Output = Self> {
    /// `f32::sqrt`.
    fn sqrt(self) -> Self;
    /// `f32::abs`.
    fn abs(self) -> Self;
    /// `f32::exp`.
    fn exp(self) -> Self;
    /// `f32::ln`.
    fn ln(self) -> Self;
    /// `f32::sin`.
    fn sin(self) -> Self;
    /// `f32::cos`.
    fn cos(self) -> Self;
    /// `f32::floor`.
    fn floor(self) -> Self;
    /// `f32::ceil`.
    fn ceil(self) -> Self;
    /// `f32::mul_add`.
    fn mul_add(self, a: Self, b: Self) -> Self;
}

/// A GPU integer: `i32` or `u32`, with the bitwise operators and shifts by a `u32`.
///
/// ```
/// use sarek::gpu::Integer;
/// fn low_bits<T: Integer>(x: T, mask: T) -> T { (x & mask) << 1u32 }
/// assert_eq!(low_bits(0b1011i32, 0b11), 0b110);
/// ```
pub trait Integer:
    Scalar
    + Not<Output = Self>
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
    + ShlAssign<u32>
    + ShrAssign<u32>
{
}

macro_rules! scalar {
    ($t:ty, $zero:expr, $one:expr, $ctor:ident) => {
        impl Scalar for $t {
            const ZERO: Self = $zero;
            const ONE: Self = $one;
            const MIN: Self = <$t>::MIN;
            const MAX: Self = <$t>::MAX;
            fn __sarek_arg(self) -> crate::__private::Arg<'static> {
                crate::__private::Arg::$ctor(self)
            }
        }
    };
}

scalar!(f32, 0.0, 1.0, f32);
scalar!(i32, 0, 1, i32);
scalar!(u32, 0, 1, u32);
scalar!(half::f16, half::f16::ZERO, half::f16::ONE, f16);
impl Integer for i32 {}
impl Integer for u32 {}

impl Float for f32 {
    fn sqrt(self) -> Self {
        f32::sqrt(self)
    }
    fn abs(self) -> Self {
        f32::abs(self)
    }
    fn exp(self) -> Self {
        f32::exp(self)
    }
    fn ln(self) -> Self {
        f32::ln(self)
    }
    fn sin(self) -> Self {
        f32::sin(self)
    }
    fn cos(self) -> Self {
        f32::cos(self)
    }
    fn floor(self) -> Self {
        f32::floor(self)
    }
    fn ceil(self) -> Self {
        f32::ceil(self)
    }
    fn mul_add(self, a: Self, b: Self) -> Self {
        f32::mul_add(self, a, b)
    }
}

macro_rules! half_float {
    ($($name:ident),*) => {
        $(fn $name(self) -> Self {
            half::f16::from_f32(self.to_f32().$name())
        })*
    };
}

impl Float for half::f16 {
    half_float!(sqrt, abs, exp, ln, sin, cos, floor, ceil);
    fn mul_add(self, a: Self, b: Self) -> Self {
        // In `f32`, rounded, as Sarek computes it on the GPU and the CPU backend.
        half::f16::from_f32(self.to_f32().mul_add(a.to_f32(), b.to_f32()))
    }
}

/// A const-generic value as a type: `launch::<256>` of a kernel `fn k<const B: usize>` selects
/// the instance `Const<256>`, and a value with no instance is a compile error that names the
/// values the kernel was built for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Const<const N: usize>;
