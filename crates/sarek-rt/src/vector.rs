//! Vector types for kernels, with glam's names and layout: `Vec2`, `Vec3`, `Vec4` of `f32`,
//! `IVec2..4` of `i32` and `UVec2..4` of `u32`. In a kernel they are WGSL's `vecN<T>`; on the
//! host they are plain `#[repr(C)]` structs with the arithmetic and methods a kernel can use,
//! so a kernel's body also runs as ordinary Rust.
//!
//! On the GPU a `vec3` is 16-byte aligned: a buffer of `Vec3` has a 16-byte stride, which
//! [`Element`] handles (a `Vec3` is uploaded as four numbers, the last one zero). With the
//! `glam` feature (on by default) the same holds for `glam::Vec2`..`glam::UVec4`, which convert
//! to and from these types with `From` and can be used directly as buffer elements.
//!
//! ```
//! use sarek_rt::vector::{Vec3, Vec4};
//! let v = Vec3::new(1.0, 2.0, 2.0);
//! assert_eq!(v.length(), 3.0);
//! assert_eq!(v.cross(Vec3::X), Vec3::new(0.0, 2.0, -2.0));
//! assert_eq!(Vec4::splat(2.0) * 3.0, Vec4::new(6.0, 6.0, 6.0, 6.0));
//! ```

use std::ops::{
    Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Rem, RemAssign, Sub, SubAssign,
};

use crate::buffer::Element;

macro_rules! vector {
    ($name:ident, $t:ty, $n:literal, [$($c:ident),+], $doc:literal) => {
        #[doc = $doc]
        #[repr(C)]
        #[derive(Clone, Copy, Debug, Default, PartialEq)]
        pub struct $name {
            $(
                #[doc = concat!("The `", stringify!($c), "` component.")]
                pub $c: $t,
            )+
        }

        // SAFETY: `#[repr(C)]` with only fields of one 4-byte `Pod` type: no padding.
        unsafe impl bytemuck::Zeroable for $name {}
        unsafe impl bytemuck::Pod for $name {}

        impl $name {
            /// All components zero.
            pub const ZERO: Self = Self { $($c: 0 as $t),+ };
            /// All components one.
            pub const ONE: Self = Self { $($c: 1 as $t),+ };

            /// A vector from its components.
            ///
            /// ```
            /// use sarek_rt::IVec3;
            /// let v = IVec3::new(1, 2, 3);
            /// assert_eq!((v.x, v.y, v.z), (1, 2, 3));
            /// ```
            #[allow(clippy::too_many_arguments)]
            pub const fn new($($c: $t),+) -> Self {
                Self { $($c),+ }
            }

            /// All components equal to `v`.
            ///
            /// ```
            /// use sarek_rt::Vec2;
            /// assert_eq!(Vec2::splat(0.5), Vec2::new(0.5, 0.5));
            /// ```
            pub const fn splat(v: $t) -> Self {
                Self { $($c: v),+ }
            }

            /// The components as an array.
            ///
            /// ```
            /// use sarek_rt::UVec3;
            /// assert_eq!(UVec3::new(1, 2, 3).to_array(), [1, 2, 3]);
            /// ```
            pub const fn to_array(self) -> [$t; $n] {
                [$(self.$c),+]
            }

            /// The dot product.
            ///
            /// ```
            /// use sarek_rt::Vec3;
            /// assert_eq!(Vec3::new(1.0, 2.0, 3.0).dot(Vec3::new(4.0, 5.0, 6.0)), 32.0);
            /// ```
            pub fn dot(self, other: Self) -> $t {
                let mut s = 0 as $t;
                $(s += self.$c * other.$c;)+
                s
            }

            /// The squared length, `self.dot(self)`.
            ///
            /// ```
            /// use sarek_rt::IVec2;
            /// assert_eq!(IVec2::new(3, 4).length_squared(), 25);
            /// ```
            pub fn length_squared(self) -> $t {
                self.dot(self)
            }

            /// The component-wise minimum.
            ///
            /// ```
            /// use sarek_rt::Vec2;
            /// assert_eq!(Vec2::new(1.0, 5.0).min(Vec2::new(3.0, 2.0)), Vec2::new(1.0, 2.0));
            /// ```
            pub fn min(self, other: Self) -> Self {
                Self { $($c: if other.$c < self.$c { other.$c } else { self.$c }),+ }
            }

            /// The component-wise maximum.
            ///
            /// ```
            /// use sarek_rt::Vec2;
            /// assert_eq!(Vec2::new(1.0, 5.0).max(Vec2::new(3.0, 2.0)), Vec2::new(3.0, 5.0));
            /// ```
            pub fn max(self, other: Self) -> Self {
                Self { $($c: if other.$c > self.$c { other.$c } else { self.$c }),+ }
            }
        }

        impl From<[$t; $n]> for $name {
            fn from(a: [$t; $n]) -> Self {
                let [$($c),+] = a;
                Self { $($c),+ }
            }
        }

        impl From<$name> for [$t; $n] {
            fn from(v: $name) -> Self {
                v.to_array()
            }
        }

        vector_op!($name, $t, [$($c),+], Add, add, AddAssign, add_assign, +);
        vector_op!($name, $t, [$($c),+], Sub, sub, SubAssign, sub_assign, -);
        vector_op!($name, $t, [$($c),+], Mul, mul, MulAssign, mul_assign, *);
        vector_op!($name, $t, [$($c),+], Div, div, DivAssign, div_assign, /);
        vector_op!($name, $t, [$($c),+], Rem, rem, RemAssign, rem_assign, %);
    };
}

macro_rules! vector_op {
    ($name:ident, $t:ty, [$($c:ident),+], $tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for $name {
            type Output = Self;
            fn $f(self, o: Self) -> Self {
                Self { $($c: self.$c $op o.$c),+ }
            }
        }
        impl $tr<$t> for $name {
            type Output = Self;
            fn $f(self, o: $t) -> Self {
                Self { $($c: self.$c $op o),+ }
            }
        }
        impl $tr<$name> for $t {
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
        impl $tra<$t> for $name {
            fn $fa(&mut self, o: $t) {
                *self = *self $op o;
            }
        }
    };
}

macro_rules! float_vector {
    ($name:ident, [$($c:ident),+]) => {
        impl $name {
            /// The length.
            ///
            /// ```
            /// use sarek_rt::Vec2;
            /// assert_eq!(Vec2::new(3.0, 4.0).length(), 5.0);
            /// ```
            pub fn length(self) -> f32 {
                self.length_squared().sqrt()
            }

            /// The vector scaled to length 1.
            ///
            /// ```
            /// use sarek_rt::{Vec2, Vec3};
            /// assert_eq!(Vec2::new(0.0, 5.0).normalize(), Vec2::Y);
            /// let n = Vec3::new(1.0, 2.0, 2.0).normalize();
            /// assert!((n.length() - 1.0).abs() < 1e-6);
            /// ```
            pub fn normalize(self) -> Self {
                self * (1.0 / self.length())
            }

            /// The distance to `other`.
            ///
            /// ```
            /// use sarek_rt::Vec2;
            /// assert_eq!(Vec2::new(1.0, 1.0).distance(Vec2::new(4.0, 5.0)), 5.0);
            /// ```
            pub fn distance(self, other: Self) -> f32 {
                (self - other).length()
            }

            /// The component-wise absolute value.
            ///
            /// ```
            /// use sarek_rt::Vec3;
            /// assert_eq!(Vec3::new(-1.0, 2.0, -0.5).abs(), Vec3::new(1.0, 2.0, 0.5));
            /// ```
            pub fn abs(self) -> Self {
                Self { $($c: self.$c.abs()),+ }
            }

            /// The component-wise floor.
            ///
            /// ```
            /// use sarek_rt::Vec2;
            /// assert_eq!(Vec2::new(1.5, -1.5).floor(), Vec2::new(1.0, -2.0));
            /// ```
            pub fn floor(self) -> Self {
                Self { $($c: self.$c.floor()),+ }
            }

            /// The component-wise ceiling.
            ///
            /// ```
            /// use sarek_rt::Vec2;
            /// assert_eq!(Vec2::new(1.5, -1.5).ceil(), Vec2::new(2.0, -1.0));
            /// ```
            pub fn ceil(self) -> Self {
                Self { $($c: self.$c.ceil()),+ }
            }

            /// The component-wise truncation.
            ///
            /// ```
            /// use sarek_rt::Vec2;
            /// assert_eq!(Vec2::new(1.5, -1.5).trunc(), Vec2::new(1.0, -1.0));
            /// ```
            pub fn trunc(self) -> Self {
                Self { $($c: self.$c.trunc()),+ }
            }
        }

        impl Neg for $name {
            type Output = Self;
            fn neg(self) -> Self {
                Self { $($c: -self.$c),+ }
            }
        }
    };
}

macro_rules! int_vector {
    ($name:ident, [$($c:ident),+]) => {
        impl $name {
            /// The component-wise absolute value (wrapping at `i32::MIN`).
            ///
            /// ```
            /// use sarek_rt::IVec2;
            /// assert_eq!(IVec2::new(-3, 4).abs(), IVec2::new(3, 4));
            /// assert_eq!(IVec2::splat(i32::MIN).abs(), IVec2::splat(i32::MIN));
            /// ```
            pub fn abs(self) -> Self {
                Self { $($c: self.$c.wrapping_abs()),+ }
            }
        }

        impl Neg for $name {
            type Output = Self;
            fn neg(self) -> Self {
                Self { $($c: self.$c.wrapping_neg()),+ }
            }
        }
    };
}

vector!(
    Vec2,
    f32,
    2,
    [x, y],
    "Two `f32`s: WGSL's `vec2<f32>`.\n\n\
     ```\n\
     use sarek_rt::Vec2;\n\
     assert_eq!(Vec2::new(3.0, 4.0) + Vec2::ONE, Vec2::new(4.0, 5.0));\n\
     ```"
);
vector!(
    Vec3,
    f32,
    3,
    [x, y, z],
    "Three `f32`s: WGSL's `vec3<f32>` (a 16-byte stride in buffers).\n\n\
     ```\n\
     use sarek_rt::{Element, Vec3};\n\
     assert_eq!(Vec3::X.cross(Vec3::Y), Vec3::Z);\n\
     // In a buffer, each `Vec3` takes 16 bytes.\n\
     assert_eq!(std::mem::size_of::<<Vec3 as Element>::Gpu>(), 16);\n\
     ```"
);
vector!(
    Vec4,
    f32,
    4,
    [x, y, z, w],
    "Four `f32`s: WGSL's `vec4<f32>`.\n\n\
     ```\n\
     use sarek_rt::Vec4;\n\
     assert_eq!(Vec4::new(1.0, 2.0, 3.0, 4.0) * 2.0, Vec4::new(2.0, 4.0, 6.0, 8.0));\n\
     ```"
);
vector!(
    IVec2,
    i32,
    2,
    [x, y],
    "Two `i32`s: WGSL's `vec2<i32>`.\n\n\
     ```\n\
     use sarek_rt::IVec2;\n\
     assert_eq!(IVec2::new(7, -3) / 2, IVec2::new(3, -1));\n\
     ```"
);
vector!(
    IVec3,
    i32,
    3,
    [x, y, z],
    "Three `i32`s: WGSL's `vec3<i32>` (a 16-byte stride in buffers).\n\n\
     ```\n\
     use sarek_rt::IVec3;\n\
     assert_eq!(-IVec3::new(1, -2, 3), IVec3::new(-1, 2, -3));\n\
     ```"
);
vector!(
    IVec4,
    i32,
    4,
    [x, y, z, w],
    "Four `i32`s: WGSL's `vec4<i32>`.\n\n\
     ```\n\
     use sarek_rt::IVec4;\n\
     assert_eq!(IVec4::new(1, 2, 3, 4).dot(IVec4::ONE), 10);\n\
     ```"
);
vector!(
    UVec2,
    u32,
    2,
    [x, y],
    "Two `u32`s: WGSL's `vec2<u32>`.\n\n\
     ```\n\
     use sarek_rt::UVec2;\n\
     assert_eq!(UVec2::new(7, 9) % 4, UVec2::new(3, 1));\n\
     ```"
);
vector!(
    UVec3,
    u32,
    3,
    [x, y, z],
    "Three `u32`s: WGSL's `vec3<u32>` (a 16-byte stride in buffers).\n\n\
     ```\n\
     use sarek_rt::UVec3;\n\
     assert_eq!(UVec3::new(1, 2, 3) * UVec3::splat(2), UVec3::new(2, 4, 6));\n\
     ```"
);
vector!(
    UVec4,
    u32,
    4,
    [x, y, z, w],
    "Four `u32`s: WGSL's `vec4<u32>`.\n\n\
     ```\n\
     use sarek_rt::UVec4;\n\
     assert_eq!(UVec4::new(1, 5, 2, 8).min(UVec4::splat(4)), UVec4::new(1, 4, 2, 4));\n\
     ```"
);
float_vector!(Vec2, [x, y]);
float_vector!(Vec3, [x, y, z]);
float_vector!(Vec4, [x, y, z, w]);
int_vector!(IVec2, [x, y]);
int_vector!(IVec3, [x, y, z]);
int_vector!(IVec4, [x, y, z, w]);

macro_rules! unit_axes {
    ($name:ident, $t:ty, $($axis:ident = [$($v:literal),+]),+) => {
        impl $name {
            $(
                #[doc = concat!("The unit vector along `", stringify!($axis), "`.")]
                pub const $axis: Self = Self::from_array_const([$($v as $t),+]);
            )+
        }
    };
}

macro_rules! from_array_const {
    ($name:ident, $t:ty, $n:literal, [$($c:ident),+]) => {
        impl $name {
            const fn from_array_const(a: [$t; $n]) -> Self {
                let [$($c),+] = a;
                Self { $($c),+ }
            }
        }
    };
}

from_array_const!(Vec2, f32, 2, [x, y]);
from_array_const!(Vec3, f32, 3, [x, y, z]);
from_array_const!(Vec4, f32, 4, [x, y, z, w]);
from_array_const!(IVec2, i32, 2, [x, y]);
from_array_const!(IVec3, i32, 3, [x, y, z]);
from_array_const!(IVec4, i32, 4, [x, y, z, w]);
from_array_const!(UVec2, u32, 2, [x, y]);
from_array_const!(UVec3, u32, 3, [x, y, z]);
from_array_const!(UVec4, u32, 4, [x, y, z, w]);
unit_axes!(Vec2, f32, X = [1, 0], Y = [0, 1]);
unit_axes!(Vec3, f32, X = [1, 0, 0], Y = [0, 1, 0], Z = [0, 0, 1]);
unit_axes!(
    Vec4,
    f32,
    X = [1, 0, 0, 0],
    Y = [0, 1, 0, 0],
    Z = [0, 0, 1, 0],
    W = [0, 0, 0, 1]
);
unit_axes!(IVec2, i32, X = [1, 0], Y = [0, 1]);
unit_axes!(IVec3, i32, X = [1, 0, 0], Y = [0, 1, 0], Z = [0, 0, 1]);
unit_axes!(
    IVec4,
    i32,
    X = [1, 0, 0, 0],
    Y = [0, 1, 0, 0],
    Z = [0, 0, 1, 0],
    W = [0, 0, 0, 1]
);
unit_axes!(UVec2, u32, X = [1, 0], Y = [0, 1]);
unit_axes!(UVec3, u32, X = [1, 0, 0], Y = [0, 1, 0], Z = [0, 0, 1]);
unit_axes!(
    UVec4,
    u32,
    X = [1, 0, 0, 0],
    Y = [0, 1, 0, 0],
    Z = [0, 0, 1, 0],
    W = [0, 0, 0, 1]
);

impl Vec3 {
    /// The cross product.
    ///
    /// ```
    /// use sarek_rt::Vec3;
    /// assert_eq!(Vec3::X.cross(Vec3::Y), Vec3::Z);
    /// ```
    pub fn cross(self, o: Self) -> Self {
        Self::new(
            self.y * o.z - self.z * o.y,
            self.z * o.x - self.x * o.z,
            self.x * o.y - self.y * o.x,
        )
    }
}

/// A three-component vector, as the `#[sarek::module]` host code converts one inside a struct
/// (where WGSL packs the 12 bytes and lets the next field follow).
///
/// ```
/// use sarek_rt::{vector::Components3, IVec3};
/// let v = IVec3::from_array3([1, 2, 3]);
/// assert_eq!(v, IVec3::new(1, 2, 3));
/// assert_eq!(v.to_array3(), [1, 2, 3]);
/// ```
pub trait Components3: Copy {
    /// The component type.
    type Scalar: bytemuck::Pod;
    /// The components.
    ///
    /// ```
    /// use sarek_rt::{vector::Components3, Vec3};
    /// assert_eq!(Vec3::Z.to_array3(), [0.0, 0.0, 1.0]);
    /// ```
    fn to_array3(self) -> [Self::Scalar; 3];
    /// The vector from its components.
    ///
    /// ```
    /// use sarek_rt::{vector::Components3, UVec3};
    /// assert_eq!(UVec3::from_array3([1, 2, 3]), UVec3::new(1, 2, 3));
    /// ```
    fn from_array3(a: [Self::Scalar; 3]) -> Self;
}

macro_rules! vec3_element {
    ($name:ty, $t:ty) => {
        impl Components3 for $name {
            type Scalar = $t;
            fn to_array3(self) -> [$t; 3] {
                [self.x, self.y, self.z]
            }
            fn from_array3(a: [$t; 3]) -> Self {
                let mut v = <$name>::default();
                v.x = a[0];
                v.y = a[1];
                v.z = a[2];
                v
            }
        }

        /// Stored as four numbers (WGSL's 16-byte `vec3` stride), the last one zero.
        impl Element for $name {
            type Gpu = [$t; 4];
            fn to_gpu(self) -> [$t; 4] {
                [self.x, self.y, self.z, 0 as $t]
            }
            fn from_gpu(g: [$t; 4]) -> Option<Self> {
                Some(Self::from_array3([g[0], g[1], g[2]]))
            }
        }
    };
}

macro_rules! plain_element {
    ($name:ty, $t:ty, $n:literal) => {
        impl Element for $name {
            type Gpu = [$t; $n];
            fn to_gpu(self) -> [$t; $n] {
                self.into()
            }
            fn from_gpu(g: [$t; $n]) -> Option<Self> {
                Some(g.into())
            }
        }
    };
}

vec3_element!(Vec3, f32);
vec3_element!(IVec3, i32);
vec3_element!(UVec3, u32);
plain_element!(Vec2, f32, 2);
plain_element!(Vec4, f32, 4);
plain_element!(IVec2, i32, 2);
plain_element!(IVec4, i32, 4);
plain_element!(UVec2, u32, 2);
plain_element!(UVec4, u32, 4);

#[cfg(feature = "glam")]
mod glam_interop {
    use super::*;

    macro_rules! convert {
        ($ours:ident, $theirs:ty, [$($c:ident),+]) => {
            impl From<$theirs> for $ours {
                fn from(v: $theirs) -> Self {
                    Self { $($c: v.$c),+ }
                }
            }
            impl From<$ours> for $theirs {
                fn from(v: $ours) -> Self {
                    <$theirs>::new($(v.$c),+)
                }
            }
        };
    }

    convert!(Vec2, glam::Vec2, [x, y]);
    convert!(Vec3, glam::Vec3, [x, y, z]);
    convert!(Vec4, glam::Vec4, [x, y, z, w]);
    convert!(IVec2, glam::IVec2, [x, y]);
    convert!(IVec3, glam::IVec3, [x, y, z]);
    convert!(IVec4, glam::IVec4, [x, y, z, w]);
    convert!(UVec2, glam::UVec2, [x, y]);
    convert!(UVec3, glam::UVec3, [x, y, z]);
    convert!(UVec4, glam::UVec4, [x, y, z, w]);

    vec3_element!(glam::Vec3, f32);
    vec3_element!(glam::IVec3, i32);
    vec3_element!(glam::UVec3, u32);
    plain_element!(glam::Vec2, f32, 2);
    plain_element!(glam::Vec4, f32, 4);
    plain_element!(glam::IVec2, i32, 2);
    plain_element!(glam::IVec4, i32, 4);
    plain_element!(glam::UVec2, u32, 2);
    plain_element!(glam::UVec4, u32, 4);
}
