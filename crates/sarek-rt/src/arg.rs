//! Type-erased launch arguments, built by the code `#[sarek::kernel]` generates.

use sarek_codegen::abi::{Abi, Access};

use crate::buffer::{Buffer, Element, RawBuffer};

/// A kernel's WGSL and ABI, as embedded by `#[sarek::kernel]` in a `static`; the pipeline
/// cache is keyed by the static's address. Every kernel exposes its own as `name::SOURCE`.
///
/// ```
/// use std::borrow::Cow;
/// use sarek_rt::raw::KernelSource;
/// use sarek_codegen::abi::{Abi, Uniform, ENTRY_POINT};
///
/// static NOOP: KernelSource = KernelSource {
///     wgsl: "@compute @workgroup_size(1) fn sarek_main() {}",
///     abi: Abi {
///         kernel: Cow::Borrowed("noop"),
///         entry_point: Cow::Borrowed(ENTRY_POINT),
///         workgroup_size: [1, 1, 1],
///         buffers: Cow::Borrowed(&[]),
///         uniform: Uniform { binding: 0, size: 16, fields: Cow::Borrowed(&[]) },
///         workgroup_memory: 0,
///         coarsened: false,
///         vectorised: false,
///         features: Cow::Borrowed(&[]),
///         limits: sarek_codegen::abi::Limits::Portable,
///     },
///     location: concat!(file!(), ":", line!()),
///     ir: "",
///     spans: &[],
///     entry_points: &[],
///     quick: "",
///     in_bounds: &[],
///     quick_in_bounds: false,
///     quick_slices: 1,
/// };
/// assert_eq!(NOOP.abi.kernel, "noop");
/// ```
#[derive(Debug)]
pub struct KernelSource {
    /// The WGSL module.
    pub wgsl: &'static str,
    /// The ABI.
    pub abi: Abi,
    /// Where the kernel is defined (`file:line`), for diagnostics and `SAREK_DUMP_WGSL`.
    pub location: &'static str,
    /// The kernel's IR as JSON, which the CPU backend runs (empty for a hand-written source,
    /// which then runs on GPUs only).
    pub ir: &'static str,
    /// The line and column of each source span the IR refers to, for the CPU backend's
    /// reports ([`crate::Error::KernelFault`]).
    pub spans: &'static [(u32, u32)],
    /// Each entry point's name and the byte range of its text in `wgsl`, as the WGSL writer
    /// recorded them (`sarek_codegen::wgsl::EntryPointText`): the runtime gives wgpu the
    /// text before the first entry point followed by the launched one's. Empty for a
    /// hand-written module, which is then given whole.
    pub entry_points: &'static [(&'static str, usize, usize)],
    /// The kernel's quick form: a complete module whose entry point `sarek_main` is the same
    /// kernel lowered with the full unrolling of short `for` loops off, which GPU drivers
    /// compile several times faster. On a first launch whose compiled pipeline is not in the
    /// cache, the runtime launches it while the unrolled pipeline compiles on another thread
    /// (tiered compilation, `launch/tiered.rs`; `SAREK_TIERED=0` turns it off). Empty when
    /// the kernel unrolls nothing (or for a hand-written source).
    pub quick: &'static str,
    /// The entry points of `wgsl` in which the macro proved every index into a workgroup,
    /// local or value array, vector or matrix in bounds, and every cooperative-matrix load
    /// and store from workgroup memory within its array (`sarek_codegen::in_bounds`): on a
    /// Vulkan device with robust buffer access the runtime creates them without naga's index
    /// clamps (`SAREK_UNCLAMPED=0` keeps them). A hand-written source lists none.
    pub in_bounds: &'static [&'static str],
    /// Whether the same holds for `quick`.
    pub quick_in_bounds: bool,
    /// How many copies of each workgroup `quick` runs as: 1, or, for a kernel whose quick
    /// form the macro split into slices (one per element of its array of cooperative
    /// accumulators, `sarek_codegen::passes::slice_coop`), that many, the slice being
    /// `workgroup_id.z % quick_slices`: the runtime multiplies the dispatch's z by it.
    pub quick_slices: u32,
}

/// One launch argument, as the typed `launch` of a kernel builds them.
///
/// ```
/// use sarek_rt::raw::Arg;
/// assert!(matches!(Arg::f32(2.5), Arg::F32(v) if v == 2.5));
/// assert!(matches!(Arg::usize(7), Arg::Usize(7)));
/// ```
#[derive(Clone, Copy, Debug)]
pub enum Arg<'a> {
    /// An `f32` scalar.
    F32(f32),
    /// An `i32` scalar.
    I32(i32),
    /// A `u32` scalar.
    U32(u32),
    /// A `usize` scalar (must fit in 32 bits).
    Usize(usize),
    /// A `bool` scalar.
    Bool(bool),
    /// A buffer with the access the kernel declares.
    Buffer(&'a RawBuffer, Access),
    /// A struct passed by value: its GPU bytes ([`Element::to_gpu`]).
    Bytes(&'a [u8]),
    /// An `f16` scalar (`half::f16`), stored in the low half of its 4-byte uniform slot.
    F16(half::f16),
}

impl<'a> Arg<'a> {
    /// An `f32` parameter.
    ///
    /// ```
    /// assert!(matches!(sarek_rt::raw::Arg::f32(0.5), sarek_rt::raw::Arg::F32(v) if v == 0.5));
    /// ```
    pub fn f32(v: f32) -> Self {
        Arg::F32(v)
    }
    /// An `i32` parameter.
    ///
    /// ```
    /// assert!(matches!(sarek_rt::raw::Arg::i32(-3), sarek_rt::raw::Arg::I32(-3)));
    /// ```
    pub fn i32(v: i32) -> Self {
        Arg::I32(v)
    }
    /// A `u32` parameter.
    ///
    /// ```
    /// assert!(matches!(sarek_rt::raw::Arg::u32(3), sarek_rt::raw::Arg::U32(3)));
    /// ```
    pub fn u32(v: u32) -> Self {
        Arg::U32(v)
    }
    /// A `usize` parameter.
    ///
    /// ```
    /// // Checked at launch: a value over `u32::MAX` is `Error::ScalarOutOfRange`.
    /// assert!(matches!(sarek_rt::raw::Arg::usize(1 << 20), sarek_rt::raw::Arg::Usize(0x10_0000)));
    /// ```
    pub fn usize(v: usize) -> Self {
        Arg::Usize(v)
    }
    /// A `bool` parameter.
    ///
    /// ```
    /// assert!(matches!(sarek_rt::raw::Arg::bool(true), sarek_rt::raw::Arg::Bool(true)));
    /// ```
    pub fn bool(v: bool) -> Self {
        Arg::Bool(v)
    }
    /// An `f16` parameter.
    ///
    /// ```
    /// let v = half::f16::from_f32(1.5);
    /// assert!(matches!(sarek_rt::raw::Arg::f16(v), sarek_rt::raw::Arg::F16(x) if x == v));
    /// ```
    pub fn f16(v: half::f16) -> Self {
        Arg::F16(v)
    }
    /// A struct or enum parameter, as the bytes of its [`Element::Gpu`] form.
    ///
    /// ```
    /// let gpu = [1.0f32, 2.0];
    /// assert!(matches!(sarek_rt::raw::Arg::bytes(bytemuck::bytes_of(&gpu)), sarek_rt::raw::Arg::Bytes(b) if b.len() == 8));
    /// ```
    pub fn bytes(b: &'a [u8]) -> Self {
        Arg::Bytes(b)
    }
    /// A `&[T]` parameter.
    ///
    /// ```
    /// use sarek_codegen::abi::Access;
    /// use sarek_rt::raw::Arg;
    /// # fn main() -> sarek_rt::Result<()> {
    /// let dev = sarek_rt::Device::new()?;
    /// let x = dev.upload(&[1.0f32, 2.0])?;
    /// assert!(matches!(Arg::read(&x), Arg::Buffer(raw, Access::Read) if raw.len() == 2));
    /// # Ok(()) }
    /// ```
    pub fn read<T: Element>(b: &'a Buffer<T>) -> Self {
        Arg::Buffer(b.raw(), Access::Read)
    }
    /// A `&[AtomicU32]` / `&[AtomicI32]` parameter: the kernel changes the buffer through
    /// atomics, as std's atomics change through a shared reference.
    ///
    /// ```
    /// use sarek_rt::raw::{self, Arg};
    /// # use sarek_rt::fixture::count;
    /// # fn main() -> sarek_rt::Result<()> {
    /// // `count`: `#[sarek::kernel] fn count(hits: &[AtomicU32])` adds 1 to `hits[0]` in every thread.
    /// let dev = sarek_rt::Device::new()?;
    /// let hits = dev.zeros::<u32>(1)?;
    /// raw::launch(&dev, count::SOURCE, sarek_rt::Grid::cover(256), &[Arg::atomic(&hits)])?;
    /// assert_eq!(hits.read()?, [256]);
    /// # Ok(()) }
    /// ```
    pub fn atomic<T: Element>(b: &'a Buffer<T>) -> Self {
        Arg::Buffer(b.raw(), Access::ReadWrite)
    }
    /// A `&mut [T]` parameter.
    ///
    /// ```
    /// use sarek_rt::raw::{self, Arg};
    /// # use sarek_rt::fixture::add_one;
    /// # fn main() -> sarek_rt::Result<()> {
    /// // `add_one`: `#[sarek::kernel] fn add_one(x: &mut [u32])` adds 1 to each element.
    /// let dev = sarek_rt::Device::new()?;
    /// let mut x = dev.upload(&[1u32, 2, 3])?;
    /// raw::launch(&dev, add_one::SOURCE, sarek_rt::Grid::cover(3), &[Arg::write(&mut x)])?;
    /// assert_eq!(x.read()?, [2, 3, 4]);
    /// # Ok(()) }
    /// ```
    pub fn write<T: Element>(b: &'a mut Buffer<T>) -> Self {
        Arg::Buffer(b.raw(), Access::ReadWrite)
    }
}
