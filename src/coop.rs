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
//! of `T`, or of 2- or 4-wide vectors of `T` (`[F16Vec4; N]`; offset and stride then count
//! vectors, and a row runs on through the scalars of consecutive vectors).
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
    /// The scalars in each element: 1, or 2 or 4 for memory of vectors, whose offsets and
    /// strides count vectors while `element` counts scalars.
    #[doc(hidden)]
    fn lanes(&self) -> usize {
        1
    }
}

/// Memory a matrix stores to: a `&mut [T]` buffer, a workgroup array, or a reference to one.
pub trait CoopTarget<T> {
    #[doc(hidden)]
    fn element_mut(&mut self, i: usize) -> Option<&mut T>;
    /// As [`CoopSource::lanes`].
    #[doc(hidden)]
    fn lanes(&self) -> usize {
        1
    }
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
    fn lanes(&self) -> usize {
        (**self).lanes()
    }
}
impl<T, S: CoopSource<T> + ?Sized> CoopSource<T> for &mut S {
    fn element(&self, i: usize) -> Option<T> {
        (**self).element(i)
    }
    fn lanes(&self) -> usize {
        (**self).lanes()
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
    fn lanes(&self) -> usize {
        (**self).lanes()
    }
}

/// Memory of 2- or 4-wide vectors of a matrix's scalar (`[F16Vec4; N]`, `&[F16Vec4]`), read
/// and written as its scalars in order; offsets and strides count vectors.
macro_rules! vector_memory {
    ($($vector:ty => $scalar:ty, $lanes:literal;)*) => {$(
        impl CoopSource<$scalar> for [$vector] {
            fn element(&self, i: usize) -> Option<$scalar> {
                bytemuck::cast_slice::<$vector, $scalar>(self).get(i).copied()
            }
            fn lanes(&self) -> usize {
                $lanes
            }
        }
        impl<const N: usize> CoopSource<$scalar> for [$vector; N] {
            fn element(&self, i: usize) -> Option<$scalar> {
                self[..].element(i)
            }
            fn lanes(&self) -> usize {
                $lanes
            }
        }
        impl CoopTarget<$scalar> for [$vector] {
            fn element_mut(&mut self, i: usize) -> Option<&mut $scalar> {
                bytemuck::cast_slice_mut::<$vector, $scalar>(self).get_mut(i)
            }
            fn lanes(&self) -> usize {
                $lanes
            }
        }
        impl<const N: usize> CoopTarget<$scalar> for [$vector; N] {
            fn element_mut(&mut self, i: usize) -> Option<&mut $scalar> {
                self[..].element_mut(i)
            }
            fn lanes(&self) -> usize {
                $lanes
            }
        }
    )*};
}

vector_memory! {
    sarek_rt::F16Vec2 => half::f16, 2;
    sarek_rt::F16Vec4 => half::f16, 4;
    sarek_rt::Vec2 => f32, 2;
    sarek_rt::Vec4 => f32, 4;
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
    /// `coopLoadT`). `src` is a buffer parameter or a workgroup array, of `T` or of 2- or
    /// 4-wide vectors of `T` (`[F16Vec4; N]`: then `offset` and `stride` count vectors and
    /// the columns run on through the scalars of consecutive vectors).
    pub fn load_rows(src: &(impl CoopSource<T> + ?Sized), offset: usize, stride: usize) -> Self {
        let w = src.lanes();
        Self::load(src, |r, c| (offset + r * stride) * w + c)
    }

    /// Loads a column-major matrix: element `(r, c)` is `src[offset + c * stride + r]`
    /// (WGSL's `coopLoad`).
    pub fn load_columns(src: &(impl CoopSource<T> + ?Sized), offset: usize, stride: usize) -> Self {
        let w = src.lanes();
        Self::load(src, |r, c| (offset + c * stride) * w + r)
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
        let w = dst.lanes();
        self.store(dst, |r, c| (offset + r * stride) * w + c)
    }

    /// Stores the matrix column-major: element `(r, c)` to `dst[offset + c * stride + r]`
    /// (WGSL's `coopStore`).
    pub fn store_columns(
        &self,
        dst: &mut (impl CoopTarget<T> + ?Sized),
        offset: usize,
        stride: usize,
    ) {
        let w = dst.lanes();
        self.store(dst, |r, c| (offset + c * stride) * w + r)
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

#[cfg(test)]
mod tests {
    use super::*;
    use half::f16;

    /// A matrix loaded from (and stored to) memory of `F16Vec4`s is the one loaded from the
    /// same halves as `f16`s, with offset and stride counted in vectors: 4 and 8 vectors are
    /// 16 and 32 halves.
    #[test]
    fn vector_memory_reads_its_scalars_in_order() {
        let halves: Vec<f16> = (0..24 * 32).map(|i| f16::from_f32(i as f32)).collect();
        let vectors: Vec<sarek_rt::F16Vec4> = bytemuck::cast_slice(&halves).to_vec();
        let from_vectors = CoopMatrix::<f16, 16, A>::load_rows(&vectors[..], 4, 8);
        let from_halves = CoopMatrix::<f16, 16, A>::load_rows(&halves[..], 16, 32);
        assert_eq!(from_vectors.elements, from_halves.elements);
        let columns = CoopMatrix::<f16, 16, B>::load_columns(&vectors[..], 2, 8);
        let want = CoopMatrix::<f16, 16, B>::load_columns(&halves[..], 8, 32);
        assert_eq!(columns.elements, want.elements);
        let mut out = [sarek_rt::F16Vec4::default(); 24 * 8];
        from_vectors.store_rows(&mut out, 4, 8);
        let flat: &[f16] = bytemuck::cast_slice(&out);
        for r in 0..16 {
            assert_eq!(
                &flat[16 + r * 32..32 + r * 32],
                &halves[16 + r * 32..32 + r * 32]
            );
        }
    }
}
