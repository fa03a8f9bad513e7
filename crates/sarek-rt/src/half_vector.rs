//! Vectors of `f16` (`half::f16`): [`F16Vec2`] and [`F16Vec4`], WGSL's `vec2<f16>` and
//! `vec4<f16>` (kernels that use them need the device feature `SHADER_F16`).
//!
//! Arithmetic rounds each component to the nearest `f16` as `half::f16`'s operators do (and
//! as the GPU's half-precision arithmetic does); the methods (`dot`, `length`, `normalize`,
//! `min`, ...) compute in `f32` and round the result once, which is how Sarek computes `f16`
//! math on the GPU and on the CPU backend too. In a buffer a `F16Vec2` takes 4 bytes and a
//! `F16Vec4` 8 (WGSL's size and alignment of `vec2<f16>` and `vec4<f16>`), so a buffer of
//! them is uploaded as it is.
//!
//! ```
//! use half::f16;
//! use sarek_rt::{F16Vec4, Vec4};
//! let h = F16Vec4::from_vec4(Vec4::new(1.0, 2.0, 3.0, 4.0));
//! assert_eq!(h * f16::from_f32(2.0), F16Vec4::from_vec4(Vec4::new(2.0, 4.0, 6.0, 8.0)));
//! assert_eq!(h.dot(F16Vec4::ONE).to_f32(), 10.0);
//! assert_eq!(h.to_vec4(), Vec4::new(1.0, 2.0, 3.0, 4.0));
//! ```

use std::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Sub, SubAssign};

use half::f16;

use crate::buffer::Element;
use crate::vector::{Vec2, Vec4};

macro_rules! half_vector {
    (
        $name:ident, $wide:ident, $n:literal, [$($c:ident),+],
        $from_wide:ident, $to_wide:ident, [$($axis:ident = [$($v:literal),+]),+], $doc:literal
    ) => {
        #[doc = $doc]
        #[repr(C)]
        #[derive(Clone, Copy, Debug, Default, PartialEq)]
        pub struct $name {
            $(
                #[doc = concat!("The `", stringify!($c), "` component.")]
                pub $c: f16,
            )+
        }

        // SAFETY: `#[repr(C)]` with only fields of the 2-byte `Pod` type `f16`: no padding.
        unsafe impl bytemuck::Zeroable for $name {}
        unsafe impl bytemuck::Pod for $name {}

        impl $name {
            /// All components zero.
            pub const ZERO: Self = Self { $($c: f16::ZERO),+ };
            /// All components one.
            pub const ONE: Self = Self { $($c: f16::ONE),+ };
            $(
                #[doc = concat!("The unit vector along `", stringify!($axis), "`.")]
                pub const $axis: Self = Self::from_bits_const([$($v),+]);
            )+

            const fn from_bits_const(ones: [u8; $n]) -> Self {
                let [$($c),+] = ones;
                $(let $c = if $c == 1 { f16::ONE } else { f16::ZERO };)+
                Self { $($c),+ }
            }

            /// A vector from its components.
            pub const fn new($($c: f16),+) -> Self {
                Self { $($c),+ }
            }

            /// All components equal to `v`.
            pub const fn splat(v: f16) -> Self {
                Self { $($c: v),+ }
            }

            /// The components as an array.
            pub const fn to_array(self) -> [f16; $n] {
                [$(self.$c),+]
            }

            #[doc = concat!("Each component of `v` rounded to the nearest `f16` (ties to even), as `f16::from_f32` rounds it.")]
            pub fn $from_wide(v: $wide) -> Self {
                Self { $($c: f16::from_f32(v.$c)),+ }
            }

            #[doc = concat!("The components as `f32`s (exact).")]
            pub fn $to_wide(self) -> $wide {
                $wide::new($(self.$c.to_f32()),+)
            }

            /// The dot product, computed in `f32` and rounded once.
            pub fn dot(self, other: Self) -> f16 {
                f16::from_f32(self.$to_wide().dot(other.$to_wide()))
            }

            /// The squared length, computed in `f32` and rounded once.
            pub fn length_squared(self) -> f16 {
                f16::from_f32(self.$to_wide().length_squared())
            }

            /// The length, computed in `f32` and rounded once.
            pub fn length(self) -> f16 {
                f16::from_f32(self.$to_wide().length())
            }

            /// The distance to `other`, computed in `f32` and rounded once.
            pub fn distance(self, other: Self) -> f16 {
                f16::from_f32(self.$to_wide().distance(other.$to_wide()))
            }

            /// The vector scaled to length 1, computed in `f32` and rounded once per
            /// component.
            pub fn normalize(self) -> Self {
                Self::$from_wide(self.$to_wide().normalize())
            }

            /// The component-wise minimum.
            pub fn min(self, other: Self) -> Self {
                Self::$from_wide(self.$to_wide().min(other.$to_wide()))
            }

            /// The component-wise maximum.
            pub fn max(self, other: Self) -> Self {
                Self::$from_wide(self.$to_wide().max(other.$to_wide()))
            }

            /// The component-wise absolute value.
            pub fn abs(self) -> Self {
                Self::$from_wide(self.$to_wide().abs())
            }

            /// The component-wise floor.
            pub fn floor(self) -> Self {
                Self::$from_wide(self.$to_wide().floor())
            }

            /// The component-wise ceiling.
            pub fn ceil(self) -> Self {
                Self::$from_wide(self.$to_wide().ceil())
            }

            /// The component-wise truncation.
            pub fn trunc(self) -> Self {
                Self::$from_wide(self.$to_wide().trunc())
            }
        }

        impl From<[f16; $n]> for $name {
            fn from(a: [f16; $n]) -> Self {
                let [$($c),+] = a;
                Self { $($c),+ }
            }
        }

        impl From<$name> for [f16; $n] {
            fn from(v: $name) -> Self {
                v.to_array()
            }
        }

        /// Rounds each component to the nearest `f16`.
        impl From<$wide> for $name {
            fn from(v: $wide) -> Self {
                Self::$from_wide(v)
            }
        }

        /// Each component exactly.
        impl From<$name> for $wide {
            fn from(v: $name) -> Self {
                v.$to_wide()
            }
        }

        impl Neg for $name {
            type Output = Self;
            fn neg(self) -> Self {
                Self { $($c: -self.$c),+ }
            }
        }

        /// Stored as it is: WGSL's `vecN<f16>` has no padding.
        impl Element for $name {
            type Gpu = $name;
            fn to_gpu(self) -> $name {
                self
            }
            fn from_gpu(g: $name) -> Option<Self> {
                Some(g)
            }
            fn slice_to_gpu(values: &[$name]) -> std::borrow::Cow<'_, [$name]> {
                std::borrow::Cow::Borrowed(values)
            }
        }

        half_op!($name, [$($c),+], Add, add, AddAssign, add_assign, +);
        half_op!($name, [$($c),+], Sub, sub, SubAssign, sub_assign, -);
        half_op!($name, [$($c),+], Mul, mul, MulAssign, mul_assign, *);
        half_op!($name, [$($c),+], Div, div, DivAssign, div_assign, /);
    };
}

macro_rules! half_op {
    ($name:ident, [$($c:ident),+], $tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for $name {
            type Output = Self;
            fn $f(self, o: Self) -> Self {
                Self { $($c: self.$c $op o.$c),+ }
            }
        }
        impl $tr<f16> for $name {
            type Output = Self;
            fn $f(self, o: f16) -> Self {
                Self { $($c: self.$c $op o),+ }
            }
        }
        impl $tr<$name> for f16 {
            type Output = $name;
            fn $f(self, o: $name) -> $name {
                $name { $($c: self $op o.$c),+ }
            }
        }
        impl $tra for $name {
            fn $fa(&mut self, o: Self) {
                *self = *self $op o;
            }
        }
        impl $tra<f16> for $name {
            fn $fa(&mut self, o: f16) {
                *self = *self $op o;
            }
        }
    };
}

half_vector!(
    F16Vec2,
    Vec2,
    2,
    [x, y],
    from_vec2,
    to_vec2,
    [X = [1, 0], Y = [0, 1]],
    "Two `f16`s: WGSL's `vec2<f16>` (4 bytes, 4-byte aligned).\n\n\
     ```\n\
     use half::f16;\n\
     use sarek_rt::F16Vec2;\n\
     let v = F16Vec2::new(f16::from_f32(3.0), f16::from_f32(4.0));\n\
     assert_eq!(v.length(), f16::from_f32(5.0));\n\
     assert_eq!(std::mem::size_of::<F16Vec2>(), 4);\n\
     ```"
);
half_vector!(
    F16Vec4,
    Vec4,
    4,
    [x, y, z, w],
    from_vec4,
    to_vec4,
    [
        X = [1, 0, 0, 0],
        Y = [0, 1, 0, 0],
        Z = [0, 0, 1, 0],
        W = [0, 0, 0, 1]
    ],
    "Four `f16`s: WGSL's `vec4<f16>` (8 bytes, 8-byte aligned).\n\n\
     ```\n\
     use half::f16;\n\
     use sarek_rt::F16Vec4;\n\
     let v = F16Vec4::splat(f16::from_f32(0.5)) + F16Vec4::X;\n\
     assert_eq!(v.x, f16::from_f32(1.5));\n\
     assert_eq!(std::mem::size_of::<F16Vec4>(), 8);\n\
     ```"
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_rounds_per_component_as_half_does() {
        let a = F16Vec2::new(f16::from_f32(1.0), f16::from_f32(2049.0));
        let b = F16Vec2::splat(f16::from_f32(1.0));
        // 2049 is not an f16 (it rounds to 2048); 2048 + 1 rounds back to 2048.
        assert_eq!((a + b).to_vec2(), Vec2::new(2.0, 2048.0));
        assert_eq!((-a).x, f16::from_f32(-1.0));
        let mut c = a;
        c *= f16::from_f32(2.0);
        assert_eq!(c.to_vec2(), Vec2::new(2.0, 4096.0));
    }

    #[test]
    fn conversions_and_layout() {
        let v = Vec4::new(0.1, 1.0, -2.5, 65536.0);
        let h = F16Vec4::from(v);
        assert_eq!(h.x, f16::from_f32(0.1));
        assert!(h.w.is_infinite());
        assert_eq!(Vec4::from(F16Vec4::W), Vec4::W);
        assert_eq!(<[f16; 4]>::from(F16Vec4::ONE), [f16::ONE; 4]);
        assert_eq!(bytemuck::bytes_of(&F16Vec2::X), &[0x00, 0x3c, 0, 0]);
        assert_eq!(std::mem::align_of::<F16Vec4>(), 2);
    }

    #[test]
    fn methods_compute_in_f32_and_round_once() {
        let v = F16Vec4::from_vec4(Vec4::new(1.0, 2.0, 2.0, 0.0));
        assert_eq!(v.length().to_f32(), 3.0);
        assert_eq!(v.dot(v).to_f32(), 9.0);
        assert_eq!(v.normalize().x, f16::from_f32(1.0 / 3.0));
        assert_eq!(v.min(F16Vec4::ONE).to_vec4(), Vec4::new(1.0, 1.0, 1.0, 0.0));
    }
}
