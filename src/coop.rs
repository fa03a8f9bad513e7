//! Cooperative matrices (`sarek::coop`; [`CoopMatrix`] is also in `sarek::gpu` and the
//! prelude; WGSL's experimental `wgpu_cooperative_matrix` extension, wgpu
//! feature `EXPERIMENTAL_COOPERATIVE_MATRIX`): the GPU's matrix units (NVIDIA's tensor
//! cores) from a kernel.
//!
//! A [`CoopMatrix<T, N, Role>`] is an `N`×`N` matrix of `T` held by a whole subgroup
//! together (each invocation keeps a part the hardware chooses). The roles are those of
//! `C = A * B + C`: [`A`], [`B`] and the accumulator [`C`]. WGSL has `N` = 8 and 16 and
//! `T` = `f16` or `f32`; Sarek checks both when the kernel compiles. A device offers only some
//! combinations ([`Device::cooperative_matrix_shapes`](crate::Device::cooperative_matrix_shapes):
//! an H200 through Vulkan offers 16×16×16 with `f16` A and B and an `f16` or `f32` C); a
//! launch on a device without the kernel's shape, or without the feature (lavapipe, most
//! WebGPU browsers), fails with `Error::MissingFeature` naming the shapes the device offers.
//! The CPU backend emulates every shape, with subgroups of `Device::set_subgroup_size`.
//!
//! ```ignore
//! use sarek::coop::{A, B, C};
//! let mut acc = CoopMatrix::<f32, 16, C>::zeros();
//! let a = CoopMatrix::<f32, 16, A>::load_rows(&x, offset_a, k); // element (r, c) at offset + r * k + c
//! let b = CoopMatrix::<f32, 16, B>::load_rows(&y, offset_b, n);
//! acc = a.multiply_add(b, acc);                                 // a * b + acc
//! acc.store_rows(&mut z, offset_c, n);
//! ```
//!
//! Every operation is collective over the subgroup: it must be reached by every invocation of
//! the workgroup together (uniform control flow, checked like barriers), and its offset and
//! stride must be the same on every invocation of the subgroup. A matrix is bound with `let`
//! and changed only by assigning it a new one; matrices live in the kernel body (not in
//! helpers), and a load or store names a buffer parameter or a one-dimensional workgroup array
//! of `T`.
//!
//! On the host (a kernel's plain-Rust `body`, one invocation at a time) every invocation is a
//! subgroup of its own and holds the whole matrix.

use std::marker::PhantomData;

/// The role of the left operand of [`CoopMatrix::multiply_add`].
#[derive(Clone, Copy, Debug)]
pub struct A;
/// The role of the right operand.
#[derive(Clone, Copy, Debug)]
pub struct B;
/// The role of the accumulator and the result.
#[derive(Clone, Copy, Debug)]
pub struct C;

/// The element types of cooperative matrices (`f32`, and `f16` where Sarek has it).
pub trait CoopElement: Copy + Default + 'static {
    #[doc(hidden)]
    fn to_f32(self) -> f32;
    #[doc(hidden)]
    fn from_f32(x: f32) -> Self;
}

impl CoopElement for half::f16 {
    fn to_f32(self) -> f32 {
        half::f16::to_f32(self)
    }
    fn from_f32(x: f32) -> Self {
        half::f16::from_f32(x)
    }
}

impl CoopElement for f32 {
    fn to_f32(self) -> f32 {
        self
    }
    fn from_f32(x: f32) -> Self {
        x
    }
}

/// Memory a matrix loads from: a buffer (`&[T]`), a workgroup array (`[T; N]`), or a
/// reference to one.
pub trait CoopSource<T> {
    #[doc(hidden)]
    fn element(&self, i: usize) -> Option<T>;
}

/// Memory a matrix stores to: a `&mut [T]` buffer, a workgroup array, or a reference to one.
pub trait CoopTarget<T> {
    #[doc(hidden)]
    fn element_mut(&mut self, i: usize) -> Option<&mut T>;
}

impl<T: Copy> CoopSource<T> for [T] {
    fn element(&self, i: usize) -> Option<T> {
        self.get(i).copied()
    }
}
impl<T: Copy, const N: usize> CoopSource<T> for [T; N] {
    fn element(&self, i: usize) -> Option<T> {
        self.get(i).copied()
    }
}
impl<T, S: CoopSource<T> + ?Sized> CoopSource<T> for &S {
    fn element(&self, i: usize) -> Option<T> {
        (**self).element(i)
    }
}
impl<T, S: CoopSource<T> + ?Sized> CoopSource<T> for &mut S {
    fn element(&self, i: usize) -> Option<T> {
        (**self).element(i)
    }
}
impl<T> CoopTarget<T> for [T] {
    fn element_mut(&mut self, i: usize) -> Option<&mut T> {
        self.get_mut(i)
    }
}
impl<T, const N: usize> CoopTarget<T> for [T; N] {
    fn element_mut(&mut self, i: usize) -> Option<&mut T> {
        self.get_mut(i)
    }
}
impl<T, S: CoopTarget<T> + ?Sized> CoopTarget<T> for &mut S {
    fn element_mut(&mut self, i: usize) -> Option<&mut T> {
        (**self).element_mut(i)
    }
}

/// An `N`×`N` cooperative matrix of `T` in role `R` ([`A`], [`B`] or [`C`]); see the
/// [module documentation](self).
#[derive(Clone, Copy, Debug)]
pub struct CoopMatrix<T, const N: usize, R> {
    elements: [[T; N]; N],
    role: PhantomData<R>,
}

impl<T: CoopElement, const N: usize, R> CoopMatrix<T, N, R> {
    /// The zero matrix.
    pub fn zeros() -> Self {
        CoopMatrix {
            elements: [[T::default(); N]; N],
            role: PhantomData,
        }
    }

    fn load(src: &(impl CoopSource<T> + ?Sized), at: impl Fn(usize, usize) -> usize) -> Self {
        let mut m = Self::zeros();
        for r in 0..N {
            for c in 0..N {
                // Out of range reads zero, as the CPU backend does.
                m.elements[r][c] = src.element(at(r, c)).unwrap_or_default();
            }
        }
        m
    }

    /// Loads a row-major matrix: element `(r, c)` is `src[offset + r * stride + c]` (WGSL's
    /// `coopLoadT`). `src` is a buffer parameter or a workgroup array.
    pub fn load_rows(src: &(impl CoopSource<T> + ?Sized), offset: usize, stride: usize) -> Self {
        Self::load(src, |r, c| offset + r * stride + c)
    }

    /// Loads a column-major matrix: element `(r, c)` is `src[offset + c * stride + r]`
    /// (WGSL's `coopLoad`).
    pub fn load_columns(src: &(impl CoopSource<T> + ?Sized), offset: usize, stride: usize) -> Self {
        Self::load(src, |r, c| offset + c * stride + r)
    }

    fn store(&self, dst: &mut (impl CoopTarget<T> + ?Sized), at: impl Fn(usize, usize) -> usize) {
        for r in 0..N {
            for c in 0..N {
                if let Some(e) = dst.element_mut(at(r, c)) {
                    *e = self.elements[r][c];
                }
            }
        }
    }

    /// Stores the matrix row-major: element `(r, c)` to `dst[offset + r * stride + c]`
    /// (WGSL's `coopStoreT`). `dst` is a `&mut [T]` buffer or a workgroup array.
    pub fn store_rows(
        &self,
        dst: &mut (impl CoopTarget<T> + ?Sized),
        offset: usize,
        stride: usize,
    ) {
        self.store(dst, |r, c| offset + r * stride + c)
    }

    /// Stores the matrix column-major: element `(r, c)` to `dst[offset + c * stride + r]`
    /// (WGSL's `coopStore`).
    pub fn store_columns(
        &self,
        dst: &mut (impl CoopTarget<T> + ?Sized),
        offset: usize,
        stride: usize,
    ) {
        self.store(dst, |r, c| offset + c * stride + r)
    }
}

impl<T: CoopElement, const N: usize> CoopMatrix<T, N, A> {
    /// `self * b + c` (WGSL's `coopMultiplyAdd`), on the GPU's matrix units: each product
    /// summed into `c`'s element type (`f32` accumulation for an `f32` C).
    pub fn multiply_add<U: CoopElement>(
        self,
        b: CoopMatrix<T, N, B>,
        c: CoopMatrix<U, N, C>,
    ) -> CoopMatrix<U, N, C> {
        let mut out = c;
        for r in 0..N {
            for col in 0..N {
                let mut acc = c.elements[r][col].to_f32();
                for k in 0..N {
                    acc += self.elements[r][k].to_f32() * b.elements[k][col].to_f32();
                }
                out.elements[r][col] = U::from_f32(acc);
            }
        }
        out
    }
}
