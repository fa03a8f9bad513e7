//! Type-erased launch arguments, built by the code `#[sarek::kernel]` generates.

use sarek_codegen::abi::{Abi, Access};

use crate::buffer::{Buffer, Element, RawBuffer};

/// A kernel's WGSL and ABI, as embedded by `#[sarek::kernel]` in a `static`; the pipeline
/// cache is keyed by the static's address. Every kernel exposes its own as `name::SOURCE`.
///
/// ```
/// use std::borrow::Cow;
/// use sarek_rt::KernelSource;
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
///     },
///     location: concat!(file!(), ":", line!()),
///     ir: "",
///     spans: &[],
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
}

/// One launch argument, as the typed `launch` of a kernel builds them.
///
/// ```
/// use sarek_rt::Arg;
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
}

impl<'a> Arg<'a> {
    /// An `f32` parameter.
    ///
    /// ```
    /// assert!(matches!(sarek_rt::Arg::f32(0.5), sarek_rt::Arg::F32(v) if v == 0.5));
    /// ```
    pub fn f32(v: f32) -> Self {
        Arg::F32(v)
    }
    /// An `i32` parameter.
    ///
    /// ```
    /// assert!(matches!(sarek_rt::Arg::i32(-3), sarek_rt::Arg::I32(-3)));
    /// ```
    pub fn i32(v: i32) -> Self {
        Arg::I32(v)
    }
    /// A `u32` parameter.
    ///
    /// ```
    /// assert!(matches!(sarek_rt::Arg::u32(3), sarek_rt::Arg::U32(3)));
    /// ```
    pub fn u32(v: u32) -> Self {
        Arg::U32(v)
    }
    /// A `usize` parameter.
    ///
    /// ```
    /// // Checked at launch: a value over `u32::MAX` is `Error::ScalarOutOfRange`.
    /// assert!(matches!(sarek_rt::Arg::usize(1 << 20), sarek_rt::Arg::Usize(0x10_0000)));
    /// ```
    pub fn usize(v: usize) -> Self {
        Arg::Usize(v)
    }
    /// A `bool` parameter.
    ///
    /// ```
    /// assert!(matches!(sarek_rt::Arg::bool(true), sarek_rt::Arg::Bool(true)));
    /// ```
    pub fn bool(v: bool) -> Self {
        Arg::Bool(v)
    }
    /// A struct or enum parameter, as the bytes of its [`Element::Gpu`] form.
    ///
    /// ```
    /// let gpu = [1.0f32, 2.0];
    /// assert!(matches!(sarek_rt::Arg::bytes(bytemuck::bytes_of(&gpu)), sarek_rt::Arg::Bytes(b) if b.len() == 8));
    /// ```
    pub fn bytes(b: &'a [u8]) -> Self {
        Arg::Bytes(b)
    }
    /// A `&[T]` parameter.
    ///
    /// ```
    /// use sarek_codegen::abi::Access;
    /// use sarek_rt::Arg;
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
    /// # use std::borrow::Cow::Borrowed as B;
    /// # use sarek_codegen::abi::*;
    /// # static COUNT: sarek_rt::KernelSource = sarek_rt::KernelSource {
    /// #     wgsl: "struct P { grid: vec3<u32>, len: u32 }
    /// #         @group(0) @binding(0) var<storage, read_write> hits: array<atomic<u32>>;
    /// #         @group(0) @binding(1) var<uniform> p: P;
    /// #         @compute @workgroup_size(64) fn sarek_main() { atomicAdd(&hits[0], 1u); }",
    /// #     abi: Abi {
    /// #         kernel: B("count"), entry_point: B(ENTRY_POINT), workgroup_size: [64, 1, 1],
    /// #         buffers: B(&[BufferBinding { binding: 0, param: 0, name: B("hits"), elem: B("atomic<u32>"), stride: 4, access: Access::ReadWrite }]),
    /// #         uniform: Uniform { binding: 1, size: 16, fields: B(&[
    /// #             UniformField { name: B("sarek_grid"), offset: 0, source: FieldSource::Grid },
    /// #             UniformField { name: B("sarek_len0"), offset: 12, source: FieldSource::Length { param: 0 } },
    /// #         ]) },
    /// #         workgroup_memory: 0, coarsened: false,
    /// #     },
    /// #     location: "",
    /// #     ir: r#"{"name":"count","params":[{"name":"hits","ty":{"AtomicSlice":{"elem":"u32"}},"span":1}],"workgroup_size":[64,1,1],"locals":[{"name":"__v","ty":{"Scalar":"u32"},"mutable":false,"span":4},{"name":"__old","ty":{"Scalar":"u32"},"mutable":false,"span":7}],"exprs":[{"kind":{"Literal":{"U32":0}},"ty":{"Scalar":"u32"},"span":2},{"kind":{"Literal":{"U32":1}},"ty":{"Scalar":"u32"},"span":3},{"kind":{"Local":0},"ty":{"Scalar":"u32"},"span":6},{"kind":{"Local":1},"ty":{"Scalar":"u32"},"span":9}],"shared":[],"body":[{"kind":{"Let":{"local":0,"init":1}},"span":5},{"kind":{"Atomic":{"fun":"Add","target":{"Buffer":{"slice":0,"index":0}},"value":2,"result":1}},"span":8}],"span":0,"types":[],"functions":[]}"#, spans: &[],
    /// # };
    /// # fn main() -> sarek_rt::Result<()> {
    /// // `COUNT` adds 1 to `hits[0]` with `atomicAdd` in every thread.
    /// let dev = sarek_rt::Device::new()?;
    /// let hits = dev.zeros::<u32>(1)?;
    /// dev.launch(&COUNT, sarek_rt::Grid::cover(256), &[sarek_rt::Arg::atomic(&hits)])?;
    /// assert_eq!(hits.read()?, [256]);
    /// # Ok(()) }
    /// ```
    pub fn atomic<T: Element>(b: &'a Buffer<T>) -> Self {
        Arg::Buffer(b.raw(), Access::ReadWrite)
    }
    /// A `&mut [T]` parameter.
    ///
    /// ```
    /// # use std::borrow::Cow::Borrowed as B;
    /// # use sarek_codegen::abi::*;
    /// # static ADD_ONE: sarek_rt::KernelSource = sarek_rt::KernelSource {
    /// #     wgsl: "struct P { grid: vec3<u32>, len: u32 }
    /// #         @group(0) @binding(0) var<storage, read_write> x: array<u32>;
    /// #         @group(0) @binding(1) var<uniform> p: P;
    /// #         @compute @workgroup_size(64) fn sarek_main(@builtin(global_invocation_id) i: vec3<u32>) {
    /// #             if i.x < p.len { x[i.x] += 1u; }
    /// #         }",
    /// #     abi: Abi {
    /// #         kernel: B("add_one"), entry_point: B(ENTRY_POINT), workgroup_size: [64, 1, 1],
    /// #         buffers: B(&[BufferBinding { binding: 0, param: 0, name: B("x"), elem: B("u32"), stride: 4, access: Access::ReadWrite }]),
    /// #         uniform: Uniform { binding: 1, size: 16, fields: B(&[
    /// #             UniformField { name: B("sarek_grid"), offset: 0, source: FieldSource::Grid },
    /// #             UniformField { name: B("sarek_len0"), offset: 12, source: FieldSource::Length { param: 0 } },
    /// #         ]) },
    /// #         workgroup_memory: 0, coarsened: false,
    /// #     },
    /// #     location: "",
    /// #     ir: r#"{"name":"add_one","params":[{"name":"x","ty":{"Slice":{"elem":{"Scalar":"u32"},"access":"read_write"}},"span":1}],"workgroup_size":[64,1,1],"locals":[{"name":"i","ty":{"Scalar":"u32"},"mutable":false,"span":3}],"exprs":[{"kind":{"Builtin":"GlobalThreadId"},"ty":{"Scalar":"u32"},"span":2},{"kind":{"Local":0},"ty":{"Scalar":"u32"},"span":5},{"kind":{"Len":0},"ty":{"Scalar":"u32"},"span":6},{"kind":{"Binary":{"op":"Lt","left":1,"right":2}},"ty":{"Scalar":"bool"},"span":7},{"kind":{"Literal":{"U32":1}},"ty":{"Scalar":"u32"},"span":8},{"kind":{"Local":0},"ty":{"Scalar":"u32"},"span":9},{"kind":{"Literal":{"Bool":false}},"ty":{"Scalar":"u32"},"span":10}],"shared":[],"body":[{"kind":{"Let":{"local":0,"init":0}},"span":4},{"kind":{"If":{"cond":3,"accept":[{"kind":{"Assign":{"place":{"Index":{"slice":0,"index":5}},"op":"Add","value":4}},"span":11}],"reject":[]}},"span":12}],"span":0,"types":[],"functions":[]}"#, spans: &[],
    /// # };
    /// # fn main() -> sarek_rt::Result<()> {
    /// // `ADD_ONE`: a kernel that adds 1 to each element of a `&mut [u32]`.
    /// let dev = sarek_rt::Device::new()?;
    /// let mut x = dev.upload(&[1u32, 2, 3])?;
    /// dev.launch(&ADD_ONE, sarek_rt::Grid::cover(3), &[sarek_rt::Arg::write(&mut x)])?;
    /// assert_eq!(x.read()?, [2, 3, 4]);
    /// # Ok(()) }
    /// ```
    pub fn write<T: Element>(b: &'a mut Buffer<T>) -> Self {
        Arg::Buffer(b.raw(), Access::ReadWrite)
    }
}
