//! Reduce and scan over any associative operator: sums, minima and maxima of `f32`, `i32` and
//! `u32`, and a user's own element type with its own operator (CUB's `DeviceReduce::Reduce`
//! and `DeviceScan::InclusiveScan`/`ExclusiveScan` with a custom operator).
//!
//! ```
//! use sarek::algo::reduce::{exclusive_scan, inclusive_scan, reduce, Max, Min, Sum};
//!
//! # fn main() -> sarek::Result<()> {
//! let dev = sarek::Device::new()?;
//! let x = dev.upload(&[3i32, -1, 4, 1, -5, 9])?;
//! assert_eq!(reduce(&dev, &x, Sum)?, 11);
//! assert_eq!(reduce(&dev, &x, Min)?, -5);
//! assert_eq!(reduce(&dev, &x, Max)?, 9);
//! assert_eq!(inclusive_scan(&dev, &x, Max)?.read()?, [3, 3, 4, 4, 4, 9]);
//! assert_eq!(exclusive_scan(&dev, &x, Sum)?.read()?, [0, 3, 2, 6, 7, 2]);
//! // An empty input reduces to the operator's identity.
//! assert_eq!(reduce(&dev, &dev.upload::<f32>(&[])?, Min)?, f32::INFINITY);
//! # Ok(()) }
//! ```
//!
//! [`Reducer`] and [`Scanner`] hold the scratch for one length and add their passes to a
//! [`Batch`] without waiting.
//!
//! # Your own element type and operator
//!
//! The kernels live in the `#[sarek::module]` [`kernels`], generic over an element type
//! `T: `[`Operand`] and an operator `O: `[`Monoid<T>`](Monoid). A module of your own (in your
//! crate or any other) imports them, implements the two traits for its types, and asks for the
//! instances of the two kernels with `sarek::instances!`; the host calls of this module then
//! take its types:
//!
//! ```
//! #[sarek::module]
//! mod stats {
//!     use sarek::algo::reduce::kernels::{reduce_tiles, scan_tiles, Monoid, Operand};
//!
//!     /// The largest value seen and where it was (the first place, on ties).
//!     pub struct ArgMax {
//!         pub value: f32,
//!         pub index: u32,
//!     }
//!
//!     impl Operand for ArgMax {}
//!
//!     /// Keeps the larger value, the earlier index on ties.
//!     pub struct Larger;
//!
//!     impl Monoid<ArgMax> for Larger {
//!         fn identity() -> ArgMax {
//!             ArgMax { value: -f32::INFINITY, index: u32::MAX }
//!         }
//!         fn combine(a: ArgMax, b: ArgMax) -> ArgMax {
//!             if b.value > a.value || (b.value == a.value && b.index < a.index) { b } else { a }
//!         }
//!     }
//!
//!     sarek::instances!(reduce_tiles<ArgMax, Larger>, scan_tiles<ArgMax, Larger>);
//! }
//!
//! use stats::{ArgMax, Larger};
//!
//! # fn main() -> sarek::Result<()> {
//! let dev = sarek::Device::new()?;
//! let readings = [0.5f32, 7.0, 2.0, 7.0, 1.0];
//! let tagged: Vec<ArgMax> =
//!     readings.iter().enumerate().map(|(i, &value)| ArgMax { value, index: i as u32 }).collect();
//! let x = dev.upload(&tagged)?;
//! let best = sarek::algo::reduce::reduce(&dev, &x, Larger)?;
//! assert_eq!((best.value, best.index), (7.0, 1));
//! // The running maximum and where it is.
//! let running = sarek::algo::reduce::inclusive_scan(&dev, &x, Larger)?.read()?;
//! let at: Vec<u32> = running.iter().map(|m| m.index).collect();
//! assert_eq!(at, [0, 1, 1, 1, 1]);
//! # Ok(()) }
//! ```
//!
//! A module may also implement the library's [`Sum`], [`Min`] or [`Max`] for its own type
//! (`impl Monoid<Complex> for Sum`) and ask for `reduce_tiles<Complex, Sum>`.
//!
//! The operator must be associative (`combine(combine(a, b), c) == combine(a, combine(b,
//! c))`) and `identity()` its identity; it need not be commutative: elements are combined in
//! their order. Floats are combined in another order than a sequential loop's, so sums can
//! differ from one in the last bits (`Min` and `Max` are exact; with NaNs their result is
//! unspecified).
//!
//! # The algorithm
//!
//! Tiles of [`TILE`] elements, a workgroup of 256 threads each, each thread eight consecutive
//! elements:
//!
//! - a reduce combines each tile into one partial ([`kernels::reduce_tiles`], a tree in
//!   workgroup memory that keeps the elements' order), then the partials the same way, until
//!   one is left (two passes up to 2^22 elements, three up to 2^33);
//! - a scan is a reduce-then-scan: the tiles' partials, their exclusive scan (the same scan,
//!   one level down), then each tile scanned again from its partial's prefix
//!   ([`kernels::scan_tiles`]).
//!
//! No workgroup waits for another (WebGPU promises no forward progress between workgroups),
//! no extension is needed, and the CPU backend runs the same kernels. For sums of `f32`s held
//! as `Vec4`s, [`crate::algo::scan::Scan`] is the faster scan.

use crate::{Batch, Buffer, Device, Element, Grid, Instance, Result};

pub use kernels::{Max, Min, Monoid, Operand, Sum};

/// The elements one workgroup of [`kernels::reduce_tiles`] and [`kernels::scan_tiles`]
/// covers: 256 threads, eight consecutive elements each.
pub const TILE: usize = 2048;

/// The most workgroups a dispatch takes along x (WebGPU's guaranteed limit); more tiles are
/// laid out over y as well.
const MAX_GROUPS_X: usize = 65535;

/// The generic kernels of reduce and scan, and the operators Sarek ships; import from here to
/// add your own element type and operator (see [`crate::algo::reduce`]).
#[sarek::module]
pub mod kernels {
    use sarek::prelude::*;

    /// An element type the reduce and scan kernels combine: `f32`, `i32`, `u32`, or a struct
    /// of a `#[sarek::module]` that implements it (`impl Operand for ArgMax {}`).
    pub trait Operand: Copy + SharedMemory {}

    impl Operand for f32 {}
    impl Operand for i32 {}
    impl Operand for u32 {}

    /// An associative operator over `T` with an identity element: a monoid.
    /// `combine(identity(), x) == x == combine(x, identity())`, and `combine` is associative;
    /// it need not be commutative.
    pub trait Monoid<T> {
        /// The identity: what an empty input reduces to.
        fn identity() -> T;
        /// `a` then `b`, combined.
        fn combine(a: T, b: T) -> T;
    }

    /// Addition, from 0 (wrapping for integers, as on the GPU).
    pub struct Sum;

    /// The minimum, from the type's largest value (`+∞` for `f32`).
    pub struct Min;

    /// The maximum, from the type's smallest value (`-∞` for `f32`).
    pub struct Max;

    impl<T: Scalar> Monoid<T> for Sum {
        fn identity() -> T {
            T::ZERO
        }
        fn combine(a: T, b: T) -> T {
            a + b
        }
    }

    impl<T: Integer> Monoid<T> for Min {
        fn identity() -> T {
            T::MAX
        }
        fn combine(a: T, b: T) -> T {
            if b < a {
                b
            } else {
                a
            }
        }
    }

    impl Monoid<f32> for Min {
        fn identity() -> f32 {
            f32::INFINITY
        }
        fn combine(a: f32, b: f32) -> f32 {
            if b < a {
                b
            } else {
                a
            }
        }
    }

    impl<T: Integer> Monoid<T> for Max {
        fn identity() -> T {
            T::MIN
        }
        fn combine(a: T, b: T) -> T {
            if b > a {
                b
            } else {
                a
            }
        }
    }

    impl Monoid<f32> for Max {
        fn identity() -> f32 {
            -f32::INFINITY
        }
        fn combine(a: f32, b: f32) -> f32 {
            if b > a {
                b
            } else {
                a
            }
        }
    }

    /// `out[g]` = tile `g` of `x` (2048 elements, fewer in the last) combined by `O`, in
    /// order; the identity for a tile past the end. Tiles are numbered over a 2-D grid,
    /// `block_idx_y() * grid_dim_x() + block_idx_x()`, so that more than 65535 fit.
    #[sarek::kernel(workgroup_size = [256])]
    pub fn reduce_tiles<T: Operand, O: Monoid<T>>(x: &[T], out: &mut [T]) {
        let tree = shared::<[T; 256]>();
        let t = thread_idx_x();
        let g = block_idx_y() * grid_dim_x() + block_idx_x();
        let first = g * 2048 + t * 8;
        let n = x.len();
        let mut acc = O::identity();
        for k in 0..8 {
            if first + k < n {
                acc = O::combine(acc, x[first + k]);
            }
        }
        tree[t] = acc;
        block_barrier();
        // Neighbours pair up, so that the tree combines the elements in their order.
        let mut s = 1;
        while s < 256 {
            if t % (2 * s) == 0 {
                tree[t] = O::combine(tree[t], tree[t + s]);
            }
            block_barrier();
            s *= 2;
        }
        if t == 0 && g < out.len() {
            out[g] = tree[0];
        }
    }

    /// The scan of each tile of `x` by `O` into `out`, inclusive (`exclusive == 0`: element
    /// `i` combines `x[..=i]`) or exclusive (`x[..i]`), starting from `carry[g]` where
    /// `seeded != 0` (the tiles before tile `g`, combined) and from the identity otherwise.
    #[sarek::kernel(workgroup_size = [256])]
    pub fn scan_tiles<T: Operand, O: Monoid<T>>(
        x: &[T],
        carry: &[T],
        seeded: u32,
        exclusive: u32,
        out: &mut [T],
    ) {
        let a = shared::<[T; 256]>();
        let b = shared::<[T; 256]>();
        let t = thread_idx_x();
        let g = block_idx_y() * grid_dim_x() + block_idx_x();
        let first = g * 2048 + t * 8;
        let n = x.len();
        let id = O::identity();
        let mut v = [id; 8];
        for k in 0..8 {
            if first + k < n {
                v[k] = x[first + k];
            }
        }
        let mut run = id;
        for k in 0..8 {
            run = O::combine(run, v[k]);
        }
        a[t] = run;
        block_barrier();
        // An inclusive scan of the threads' totals (Hillis–Steele, between two arrays), the
        // earlier operand first.
        let mut offset = 1;
        let mut from_a = true;
        while offset < 256 {
            if from_a {
                b[t] = if t >= offset {
                    O::combine(a[t - offset], a[t])
                } else {
                    a[t]
                };
            } else {
                a[t] = if t >= offset {
                    O::combine(b[t - offset], b[t])
                } else {
                    b[t]
                };
            }
            block_barrier();
            from_a = !from_a;
            offset *= 2;
        }
        let before = if t == 0 {
            id
        } else if from_a {
            a[t - 1]
        } else {
            b[t - 1]
        };
        let tile = if seeded != 0 && g < carry.len() {
            carry[g]
        } else {
            id
        };
        let mut acc = O::combine(tile, before);
        for k in 0..8 {
            if first + k < n {
                let next = O::combine(acc, v[k]);
                out[first + k] = if exclusive != 0 { acc } else { next };
                acc = next;
            }
        }
    }
}

use super::bad_arguments as bad;

/// The grid of `tiles` workgroups, over y as well past 65535.
fn tiles_grid(tiles: usize) -> Grid {
    let tiles = tiles.max(1);
    if tiles <= MAX_GROUPS_X {
        Grid::groups([tiles as u32, 1, 1])
    } else {
        Grid::groups([MAX_GROUPS_X as u32, tiles.div_ceil(MAX_GROUPS_X) as u32, 1])
    }
}

/// The lengths of the partials of `len` elements, level by level: one per tile, until one
/// tile holds them all.
fn levels(len: usize) -> Vec<usize> {
    let mut sizes = Vec::new();
    let mut m = len;
    while m > TILE {
        m = m.div_ceil(TILE);
        sizes.push(m);
    }
    sizes
}

/// The scratch of reductions of `len` elements of `T`: make one per length and reuse it, so
/// that a reduction allocates nothing.
///
/// ```
/// use sarek::algo::reduce::{Max, Reducer};
///
/// # fn main() -> sarek::Result<()> {
/// let dev = sarek::Device::new()?;
/// let x = dev.upload(&(0..10_000u32).map(|i| i * 7 % 1000).collect::<Vec<_>>())?;
/// let mut out = dev.zeros::<u32>(1)?;
/// let mut reducer = Reducer::<u32>::new(&dev, x.len())?;
/// let mut batch = dev.batch();
/// reducer.enqueue(&mut batch, &x, Max, &mut out)?;
/// batch.submit()?.wait()?;
/// assert_eq!(out.read()?, [999]);
/// # Ok(()) }
/// ```
pub struct Reducer<T: Operand + Element> {
    /// The number of elements reduced.
    len: usize,
    /// The partials of each level (none up to one tile).
    partials: Vec<Buffer<T>>,
}

impl<T: Operand + Element> Reducer<T> {
    /// Scratch for reductions of `len` elements on `dev`.
    pub fn new(dev: &Device, len: usize) -> Result<Reducer<T>> {
        let partials = levels(len)
            .into_iter()
            .map(|m| dev.zeros(m))
            .collect::<Result<_>>()?;
        Ok(Reducer { len, partials })
    }

    /// The number of elements this scratch serves.
    ///
    /// ```
    /// # fn main() -> sarek::Result<()> {
    /// let dev = sarek::Device::new()?;
    /// assert_eq!(sarek::algo::reduce::Reducer::<f32>::new(&dev, 5)?.len(), 5);
    /// # Ok(()) }
    /// ```
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether this scratch serves empty inputs.
    ///
    /// ```
    /// # fn main() -> sarek::Result<()> {
    /// let dev = sarek::Device::new()?;
    /// assert!(sarek::algo::reduce::Reducer::<i32>::new(&dev, 0)?.is_empty());
    /// # Ok(()) }
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Adds the passes that write `x` combined by `op` into `out[0]` to `batch` (the
    /// identity for an empty `x`). `x` must hold the `len` elements this scratch was made
    /// for, and `out` at least one ([`Error::BadArguments`](crate::Error::BadArguments) otherwise).
    pub fn enqueue<O: Monoid<T>>(
        &mut self,
        batch: &mut Batch,
        x: &Buffer<T>,
        _op: O,
        out: &mut Buffer<T>,
    ) -> Result<()>
    where
        kernels::reduce_tiles: Instance<T, O>,
    {
        if x.len() != self.len {
            return Err(bad(
                "reduce_tiles",
                format!(
                    "the reduction's scratch was made for {} elements, the input holds {}",
                    self.len,
                    x.len()
                ),
            ));
        }
        if out.is_empty() {
            return Err(bad(
                "reduce_tiles",
                "the reduction's output holds no element".into(),
            ));
        }
        let mut input = x;
        let mut n = self.len;
        for level in self.partials.iter_mut() {
            let tiles = n.div_ceil(TILE);
            kernels::reduce_tiles.enqueue::<T, O>(batch, tiles_grid(tiles), input, level)?;
            input = level;
            n = tiles;
        }
        // The last level fits one tile (an empty input too: one workgroup writes the identity).
        kernels::reduce_tiles.enqueue::<T, O>(batch, tiles_grid(1), input, out)
    }

    /// Writes `x` combined by `op` into `out[0]`: the passes in one submission.
    pub fn run<O: Monoid<T>>(
        &mut self,
        x: &Buffer<T>,
        op: O,
        out: &mut Buffer<T>,
    ) -> Result<crate::Launch>
    where
        kernels::reduce_tiles: Instance<T, O>,
    {
        let mut batch = x.device().batch();
        self.enqueue(&mut batch, x, op, out)?;
        batch.submit()
    }
}

/// `x` combined by `op`, in order, read back: the identity for an empty `x`.
///
/// ```
/// use sarek::algo::reduce::{reduce, Sum};
///
/// # fn main() -> sarek::Result<()> {
/// let dev = sarek::Device::new()?;
/// let x = dev.upload(&vec![0.5f32; 1_000_001])?;
/// assert_eq!(reduce(&dev, &x, Sum)?, 500_000.5);
/// # Ok(()) }
/// ```
pub fn reduce<T, O>(dev: &Device, x: &Buffer<T>, op: O) -> Result<T>
where
    T: Operand + Element,
    O: Monoid<T>,
    kernels::reduce_tiles: Instance<T, O>,
{
    let mut out = dev.zeros::<T>(1)?;
    Reducer::new(dev, x.len())?.run(x, op, &mut out)?.wait()?;
    Ok(out.read()?[0])
}

/// The scratch of scans of `len` elements of `T`: make one per length and reuse it, so that a
/// scan allocates nothing.
///
/// ```
/// use sarek::algo::reduce::{Scanner, Sum};
///
/// # fn main() -> sarek::Result<()> {
/// let dev = sarek::Device::new()?;
/// let x = dev.upload(&[1u32, 2, 3, 4])?;
/// let mut inclusive = dev.zeros::<u32>(4)?;
/// let mut exclusive = dev.zeros::<u32>(4)?;
/// let mut scanner = Scanner::<u32>::new(&dev, 4)?;
/// let mut batch = dev.batch();
/// scanner.enqueue_inclusive(&mut batch, &x, Sum, &mut inclusive)?;
/// scanner.enqueue_exclusive(&mut batch, &x, Sum, &mut exclusive)?;
/// batch.submit()?.wait()?;
/// assert_eq!(inclusive.read()?, [1, 3, 6, 10]);
/// assert_eq!(exclusive.read()?, [0, 1, 3, 6]);
/// # Ok(()) }
/// ```
pub struct Scanner<T: Operand + Element> {
    /// The number of elements scanned.
    len: usize,
    /// Each level's tile partials and their exclusive scan (none up to one tile).
    levels: Vec<(Buffer<T>, Buffer<T>)>,
    /// A one-element stand-in for the carry of a scan that fits one tile.
    no_carry: Buffer<T>,
}

impl<T: Operand + Element> Scanner<T> {
    /// Scratch for scans of `len` elements on `dev`.
    pub fn new(dev: &Device, len: usize) -> Result<Scanner<T>> {
        let levels = levels(len)
            .into_iter()
            .map(|m| Ok((dev.zeros(m)?, dev.zeros(m)?)))
            .collect::<Result<_>>()?;
        Ok(Scanner {
            len,
            levels,
            no_carry: dev.zeros(1)?,
        })
    }

    /// The number of elements this scratch serves.
    ///
    /// ```
    /// # fn main() -> sarek::Result<()> {
    /// let dev = sarek::Device::new()?;
    /// assert_eq!(sarek::algo::reduce::Scanner::<u32>::new(&dev, 3)?.len(), 3);
    /// # Ok(()) }
    /// ```
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether this scratch serves empty inputs.
    ///
    /// ```
    /// # fn main() -> sarek::Result<()> {
    /// let dev = sarek::Device::new()?;
    /// assert!(sarek::algo::reduce::Scanner::<f32>::new(&dev, 0)?.is_empty());
    /// # Ok(()) }
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Adds the passes that write the inclusive scan of `x` by `op` into `out` to `batch`:
    /// `out[i]` = `x[0]`, …, `x[i]` combined. `x` and `out` must hold the `len` elements this
    /// scratch was made for ([`Error::BadArguments`](crate::Error::BadArguments) otherwise).
    pub fn enqueue_inclusive<O: Monoid<T>>(
        &mut self,
        batch: &mut Batch,
        x: &Buffer<T>,
        _op: O,
        out: &mut Buffer<T>,
    ) -> Result<()>
    where
        kernels::reduce_tiles: Instance<T, O>,
        kernels::scan_tiles: Instance<T, O>,
    {
        self.enqueue::<O>(batch, x, false, out)
    }

    /// Adds the passes that write the exclusive scan of `x` by `op` into `out` to `batch`: `out[i]`
    /// = `x[0]`, …, `x[i - 1]` combined, the identity at 0. `x` and `out` must hold the `len`
    /// elements this scratch was made for ([`Error::BadArguments`](crate::Error::BadArguments)
    /// otherwise).
    pub fn enqueue_exclusive<O: Monoid<T>>(
        &mut self,
        batch: &mut Batch,
        x: &Buffer<T>,
        _op: O,
        out: &mut Buffer<T>,
    ) -> Result<()>
    where
        kernels::reduce_tiles: Instance<T, O>,
        kernels::scan_tiles: Instance<T, O>,
    {
        self.enqueue::<O>(batch, x, true, out)
    }

    fn enqueue<O: Monoid<T>>(
        &mut self,
        batch: &mut Batch,
        x: &Buffer<T>,
        exclusive: bool,
        out: &mut Buffer<T>,
    ) -> Result<()>
    where
        kernels::reduce_tiles: Instance<T, O>,
        kernels::scan_tiles: Instance<T, O>,
    {
        for (what, b) in [("input", x.len()), ("output", out.len())] {
            if b != self.len {
                return Err(bad(
                    "scan_tiles",
                    format!(
                        "the scan's scratch was made for {} elements, the {what} holds {b}",
                        self.len
                    ),
                ));
            }
        }
        if self.len == 0 {
            return Ok(());
        }
        scan_level::<T, O>(
            batch,
            &mut self.levels,
            &self.no_carry,
            x,
            self.len,
            exclusive,
            out,
        )
    }
}

/// Adds the scan of the `n` elements of `x` into `out` to `batch`: one pass when they fit a
/// tile; otherwise the tiles' partials, their exclusive scan (one level down), and each tile
/// scanned from its carry.
fn scan_level<T, O>(
    batch: &mut Batch,
    levels: &mut [(Buffer<T>, Buffer<T>)],
    no_carry: &Buffer<T>,
    x: &Buffer<T>,
    n: usize,
    exclusive: bool,
    out: &mut Buffer<T>,
) -> Result<()>
where
    T: Operand + Element,
    O: Monoid<T>,
    kernels::reduce_tiles: Instance<T, O>,
    kernels::scan_tiles: Instance<T, O>,
{
    let exclusive = u32::from(exclusive);
    let Some(((partials, carry), rest)) = levels.split_first_mut() else {
        return kernels::scan_tiles.enqueue::<T, O>(
            batch,
            tiles_grid(1),
            x,
            no_carry,
            0,
            exclusive,
            out,
        );
    };
    let tiles = n.div_ceil(TILE);
    kernels::reduce_tiles.enqueue::<T, O>(batch, tiles_grid(tiles), x, partials)?;
    scan_level::<T, O>(batch, rest, no_carry, partials, tiles, true, carry)?;
    kernels::scan_tiles.enqueue::<T, O>(batch, tiles_grid(tiles), x, carry, 1, exclusive, out)
}

/// The inclusive scan of `x` by `op`: element `i` is `x[0]`, …, `x[i]` combined.
///
/// ```
/// use sarek::algo::reduce::{inclusive_scan, Min};
///
/// # fn main() -> sarek::Result<()> {
/// let dev = sarek::Device::new()?;
/// let x = dev.upload(&[5.0f32, 7.0, 2.0, 3.0, -1.0])?;
/// assert_eq!(inclusive_scan(&dev, &x, Min)?.read()?, [5.0, 5.0, 2.0, 2.0, -1.0]);
/// # Ok(()) }
/// ```
pub fn inclusive_scan<T, O>(dev: &Device, x: &Buffer<T>, op: O) -> Result<Buffer<T>>
where
    T: Operand + Element,
    O: Monoid<T>,
    kernels::reduce_tiles: Instance<T, O>,
    kernels::scan_tiles: Instance<T, O>,
{
    let mut out = dev.zeros::<T>(x.len())?;
    let mut batch = dev.batch();
    Scanner::new(dev, x.len())?.enqueue_inclusive(&mut batch, x, op, &mut out)?;
    batch.submit()?.wait()?;
    Ok(out)
}

/// The exclusive scan of `x` by `op`: element `i` is `x[0]`, …, `x[i - 1]` combined, the
/// identity at 0.
///
/// ```
/// use sarek::algo::reduce::{exclusive_scan, Sum};
///
/// # fn main() -> sarek::Result<()> {
/// let dev = sarek::Device::new()?;
/// let x = dev.upload(&[2u32, 0, 3, 1])?;
/// assert_eq!(exclusive_scan(&dev, &x, Sum)?.read()?, [0, 2, 2, 5]);
/// # Ok(()) }
/// ```
pub fn exclusive_scan<T, O>(dev: &Device, x: &Buffer<T>, op: O) -> Result<Buffer<T>>
where
    T: Operand + Element,
    O: Monoid<T>,
    kernels::reduce_tiles: Instance<T, O>,
    kernels::scan_tiles: Instance<T, O>,
{
    let mut out = dev.zeros::<T>(x.len())?;
    let mut batch = dev.batch();
    Scanner::new(dev, x.len())?.enqueue_exclusive(&mut batch, x, op, &mut out)?;
    batch.submit()?.wait()?;
    Ok(out)
}
