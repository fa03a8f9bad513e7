//! A small Sarek kernel library: [`blocks::reduce`], a reduction generic over any
//! [`blocks::Monoid`] (this crate's [`blocks::Total`] or a dependent crate's own element type),
//! [`blocks::clamp_to`] and [`blocks::larger`], helpers other crates' kernels call, and
//! [`reduce_all`], host code that reduces a whole buffer with whichever instance its caller's
//! type has.
//!
//! A crate that depends on this one imports the module's items with `use` in its own
//! `#[sarek::module]`, implements `Monoid` for its types and asks for the instances it needs
//! with `sarek::instances!(reduce<MyType>)`: they are compiled, checked and validated when that
//! crate builds (see the `reductions-app` crate beside this one).

#![deny(missing_docs)]

/// The library's kernels, helpers and types, which other `#[sarek::module]`s import.
#[sarek::module]
pub mod blocks {
    use sarek::prelude::*;

    /// The workgroup size of [`reduce`]: how many elements one workgroup folds.
    pub const BLOCK: usize = 256;

    /// An associative operation with an identity element: what [`reduce`] folds with. Its
    /// values are copied and kept in workgroup memory.
    pub trait Monoid: Copy + SharedMemory {
        /// The identity: `combine(identity(), x)` is `x`.
        fn identity() -> Self;
        /// The associative operation.
        fn combine(a: Self, b: Self) -> Self;
    }

    /// A sum of `f32`: the library's own monoid.
    pub struct Total {
        /// The sum so far.
        pub sum: f32,
    }

    impl Monoid for Total {
        fn identity() -> Self {
            Total { sum: 0.0 }
        }
        fn combine(a: Self, b: Self) -> Self {
            Total { sum: a.sum + b.sum }
        }
    }

    /// `x` clamped into `[lo, hi]`: a helper for other crates' kernels.
    pub fn clamp_to(x: f32, lo: f32, hi: f32) -> f32 {
        if x < lo {
            lo
        } else if x > hi {
            hi
        } else {
            x
        }
    }

    /// The larger of two values of any scalar type: a generic helper for other crates' kernels.
    pub fn larger<T: Scalar>(a: T, b: T) -> T {
        if a > b {
            a
        } else {
            b
        }
    }

    /// Folds each workgroup's [`BLOCK`] elements of `xs` with `T`'s monoid into
    /// `partials[workgroup]`, by a tree in workgroup memory.
    #[sarek::kernel(workgroup_size = [BLOCK])]
    pub fn reduce<T: Monoid>(xs: &[T], partials: &mut [T]) {
        let tile = shared::<[T; BLOCK]>();
        let t = thread_idx_x();
        let i = global_thread_id();
        tile[t] = if i < xs.len() { xs[i] } else { T::identity() };
        block_barrier();
        let mut stride = BLOCK / 2;
        while stride > 0 {
            if t < stride {
                tile[t] = T::combine(tile[t], tile[t + stride]);
            }
            block_barrier();
            stride /= 2;
        }
        if t == 0 && block_idx_x() < partials.len() {
            partials[block_idx_x()] = tile[0];
        }
    }
}

use blocks::Monoid;
use sarek::{Buffer, Device, Element, Grid, Instance};

/// Reduces `xs` to one value on `dev` with `T`'s monoid, one launch of [`blocks::reduce`] per
/// level of partial results. The identity for an empty slice.
pub fn reduce_all<T>(dev: &Device, xs: &[T]) -> sarek::Result<T>
where
    T: Element + Monoid,
    blocks::reduce: Instance<T>,
{
    if xs.is_empty() {
        return Ok(T::identity());
    }
    let mut data: Buffer<T> = dev.upload(xs)?;
    while data.len() > 1 {
        let groups = data.len().div_ceil(blocks::BLOCK);
        let mut partials = dev.upload(&vec![T::identity(); groups])?;
        blocks::reduce
            .launch::<T>(dev, Grid::cover(data.len()), &data, &mut partials)?
            .wait()?;
        data = partials;
    }
    Ok(data.read()?[0])
}
