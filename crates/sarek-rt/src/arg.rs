//! Type-erased launch arguments, built by the code `#[sarek::kernel]` generates.

use sarek_ir::abi::{Abi, Access};

use crate::buffer::{Buffer, Element, RawBuffer};

/// A kernel's WGSL and ABI, as embedded by `#[sarek::kernel]` in a `static`; the pipeline
/// cache is keyed by the static's address. Every kernel exposes its own as `name::SOURCE`.
///
/// Its fields are private: what the runtime trusts without checking (the IR that the CPU
/// backend's JIT compiles to machine code) can only be set through the `unsafe`
/// [`KernelSource::with_ir`], and what it checks again before relying on it (which entry
/// points are in bounds) is only a hint. A hand-written source is built with
/// [`KernelSource::new`] and runs on GPUs only:
///
/// ```
/// use std::borrow::Cow;
/// use sarek_rt::raw::KernelSource;
/// use sarek_ir::abi::{Abi, Uniform, ENTRY_POINT};
///
/// static NOOP: KernelSource = KernelSource::new(
///     "@compute @workgroup_size(1) fn sarek_main() {}",
///     Abi {
///         kernel: Cow::Borrowed("noop"),
///         entry_point: Cow::Borrowed(ENTRY_POINT),
///         workgroup_size: [1, 1, 1],
///         buffers: Cow::Borrowed(&[]),
///         uniform: Uniform { binding: 0, size: 16, fields: Cow::Borrowed(&[]) },
///         workgroup_memory: 0,
///         launch_sized: Cow::Borrowed(&[]),
///         coarsened: false,
///         vectorised: false,
///         features: Cow::Borrowed(&[]),
///         limits: sarek_ir::abi::Limits::Portable,
///         debug: false,
///     },
///     concat!(file!(), ":", line!()),
/// );
/// assert_eq!(NOOP.abi().kernel, "noop");
/// assert!(NOOP.ir().is_empty());
/// ```
///
/// Safe code cannot hand the JIT an IR of its own:
///
/// ```compile_fail,E0133
/// # use sarek_rt::raw::KernelSource;
/// # fn forge(source: KernelSource) -> KernelSource {
/// source.with_ir("{}", &[]) // error: call to unsafe function
/// # }
/// ```
#[derive(Debug)]
pub struct KernelSource {
    pub(crate) wgsl: &'static str,
    pub(crate) abi: Abi,
    pub(crate) location: &'static str,
    pub(crate) ir: &'static str,
    pub(crate) spans: &'static [(u32, u32)],
    pub(crate) entry_points: &'static [(&'static str, usize, usize)],
    pub(crate) quick: &'static str,
    pub(crate) in_bounds: &'static [&'static str],
    pub(crate) quick_in_bounds: bool,
    pub(crate) quick_slices: u32,
}

impl KernelSource {
    /// A source of WGSL text `wgsl` with its ABI, defined at `location` (`file:line`, for
    /// diagnostics and `SAREK_DUMP_WGSL`): the whole text goes to wgpu, with naga's index
    /// clamps, and the kernel runs on GPUs only (it has no IR for the CPU backend).
    pub const fn new(wgsl: &'static str, abi: Abi, location: &'static str) -> KernelSource {
        KernelSource {
            wgsl,
            abi,
            location,
            ir: "",
            spans: &[],
            entry_points: &[],
            quick: "",
            in_bounds: &[],
            quick_in_bounds: false,
            quick_slices: 1,
        }
    }

    /// Each entry point's name and the byte range of its text in the WGSL, as the WGSL writer
    /// recorded them (`sarek_codegen::wgsl::EntryPointText`): the runtime gives wgpu the text
    /// before the first entry point followed by the launched one's. A range that does not fit
    /// the text makes the runtime give the whole text instead.
    pub const fn with_entry_points(
        mut self,
        entry_points: &'static [(&'static str, usize, usize)],
    ) -> KernelSource {
        self.entry_points = entry_points;
        self
    }

    /// The kernel's quick form: a complete module whose entry point is the same kernel
    /// lowered with the full unrolling of short `for` loops off, which GPU drivers compile
    /// several times faster. On a first launch whose compiled pipeline is not in the cache,
    /// the runtime launches it while the unrolled pipeline compiles on another thread (tiered
    /// compilation; `SAREK_TIERED=0` turns it off). `slices` is how many copies of each
    /// workgroup it runs as: 1, or, for a quick form split into one slice per element of an
    /// array of cooperative accumulators (`sarek_codegen::passes::slice_coop`), that many,
    /// the slice being `workgroup_id.z % slices` (the runtime multiplies the dispatch's z by
    /// it; 0 counts as 1).
    pub const fn with_quick(mut self, quick: &'static str, slices: u32) -> KernelSource {
        self.quick = quick;
        self.quick_slices = if slices == 0 { 1 } else { slices };
        self
    }

    /// The entry points in which the macro proved every index into a workgroup, local or
    /// value array, vector or matrix in bounds (`sarek_proof::in_bounds`), and whether the
    /// same holds for the quick form. Only a hint: on a device that may drop naga's index
    /// clamps, the runtime proves it again on the module it creates (`backend/wgpu/unclamped.rs`)
    /// and keeps the clamps where that fails, so a wrong list costs time, never safety.
    pub const fn with_in_bounds(
        mut self,
        entry_points: &'static [&'static str],
        quick: bool,
    ) -> KernelSource {
        self.in_bounds = entry_points;
        self.quick_in_bounds = quick;
        self
    }

    /// The kernel's IR as JSON, which the CPU backend runs, and the line and column of each
    /// source span the IR refers to (for [`crate::Error::KernelFault`] reports).
    ///
    /// # Safety
    ///
    /// `ir` must be the IR that `#[sarek::kernel]` generated for this very kernel, unchanged
    /// (the text `sarek_codegen` serialises after its checks). The CPU backend's JIT compiles
    /// it to machine code trusting what it declares, each expression's type and every id in
    /// it, without checking them again: an IR made or edited by hand can make the machine code
    /// read or write outside its buffers. `spans` is only used in messages.
    pub const unsafe fn with_ir(
        mut self,
        ir: &'static str,
        spans: &'static [(u32, u32)],
    ) -> KernelSource {
        self.ir = ir;
        self.spans = spans;
        self
    }

    /// The WGSL module.
    pub const fn wgsl(&self) -> &'static str {
        self.wgsl
    }

    /// The ABI: how the kernel binds its buffers and packs its uniform block.
    pub const fn abi(&self) -> &Abi {
        &self.abi
    }

    /// Where the kernel is defined (`file:line`).
    pub const fn location(&self) -> &'static str {
        self.location
    }

    /// The kernel's IR as JSON (empty for a hand-written source, which runs on GPUs only).
    pub const fn ir(&self) -> &'static str {
        self.ir
    }

    /// The line and column of each source span the IR refers to.
    pub const fn spans(&self) -> &'static [(u32, u32)] {
        self.spans
    }

    /// Each entry point's name and the byte range of its text in [`KernelSource::wgsl`].
    pub const fn entry_points(&self) -> &'static [(&'static str, usize, usize)] {
        self.entry_points
    }

    /// The quick form's WGSL (empty when the kernel has none).
    pub const fn quick(&self) -> &'static str {
        self.quick
    }

    /// How many copies of each workgroup the quick form runs as.
    pub const fn quick_slices(&self) -> u32 {
        self.quick_slices
    }

    /// The entry points the macro proved in bounds (a hint the runtime checks again).
    pub const fn in_bounds(&self) -> &'static [&'static str] {
        self.in_bounds
    }

    /// Whether the macro proved the quick form in bounds (a hint the runtime checks again).
    pub const fn quick_in_bounds(&self) -> bool {
        self.quick_in_bounds
    }
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
    /// An `i64` scalar (the kernel needs `SHADER_INT64`).
    I64(i64),
    /// A `u64` scalar (the kernel needs `SHADER_INT64`).
    U64(u64),
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
    /// An `i64` parameter.
    ///
    /// ```
    /// assert!(matches!(sarek_rt::raw::Arg::i64(i64::MIN), sarek_rt::raw::Arg::I64(i64::MIN)));
    /// ```
    pub fn i64(v: i64) -> Self {
        Arg::I64(v)
    }
    /// A `u64` parameter.
    ///
    /// ```
    /// assert!(matches!(sarek_rt::raw::Arg::u64(1 << 40), sarek_rt::raw::Arg::U64(0x100_0000_0000)));
    /// ```
    pub fn u64(v: u64) -> Self {
        Arg::U64(v)
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
    /// use sarek_ir::abi::Access;
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
