//! # Sarek: GPU compute kernels written as ordinary Rust functions
//!
//! `#[sarek::kernel]` lowers a Rust function to Sarek's IR at compile time, refuses what
//! WebGPU cannot run with an error at the offending token, emits WGSL that naga validates
//! during the build, and embeds the WGSL and a typed ABI as constants. At run time a launch
//! only creates the pipeline (once per device) and dispatches through wgpu.
//!
//! ```
//! use sarek::prelude::*;
//!
//! #[sarek::kernel]
//! fn saxpy(a: f32, x: &[f32], y: &mut [f32]) {
//!     let i = global_thread_id();
//!     if i < y.len() {
//!         y[i] = a * x[i] + y[i];
//!     }
//! }
//!
//! fn main() -> sarek::Result<()> {
//!     let dev = Device::new()?;
//!     let x = dev.upload(&vec![1.0f32; 1 << 20])?;
//!     let mut y = dev.upload(&vec![2.0f32; 1 << 20])?;
//!     saxpy.launch(&dev, Grid::cover(1 << 20), 3.0, &x, &mut y)?;
//!     assert!(y.read()?.iter().all(|&v| v == 5.0));
//!     println!("{}", saxpy::WGSL);
//!     Ok(())
//! }
//! ```
//!
//! The [`guide`] explains everything a kernel can contain, the runtime, the CPU backend and
//! how to port CUDA kernels, with examples that run as tests.
//!
//! The WGSL is a constant, available without a GPU:
//!
//! ```
//! #[sarek::kernel(workgroup_size = [64])]
//! fn double(v: &mut [f32]) {
//!     let i = sarek::gpu::global_thread_id();
//!     if i < v.len() {
//!         v[i] *= 2.0;
//!     }
//! }
//! assert!(double::WGSL.contains("@workgroup_size(64, 1, 1)"));
//! assert_eq!(double::ABI.buffers.len(), 1);
//! ```
//!
//! # Structs, enums and helpers
//!
//! [`macro@module`] compiles the kernels of a module together with its structs, enums, helper
//! functions and constants. The host types keep their Rust form and travel to the GPU in
//! WGSL's layout (see [`Element`]):
//!
//! ```
//! #[sarek::module]
//! mod shapes {
//!     use sarek::prelude::*;
//!
//!     #[derive(Debug, PartialEq)]
//!     pub struct Point { pub x: f32, pub y: f32 }
//!
//!     #[derive(Debug, PartialEq)]
//!     pub enum Shape { Dot(Point), Box { w: f32, h: f32 }, Empty }
//!
//!     pub fn area(s: Shape) -> f32 {
//!         match s {
//!             Shape::Box { w, h } => w * h,
//!             _ => 0.0,
//!         }
//!     }
//!
//!     #[sarek::kernel]
//!     pub fn areas(shapes: &[Shape], out: &mut [f32]) {
//!         let i = global_thread_id();
//!         if i < shapes.len() {
//!             out[i] = area(shapes[i]);
//!         }
//!     }
//! }
//!
//! use sarek::Element;
//! use shapes::Shape;
//! // The helper is plain Rust on the host and a WGSL function on the GPU.
//! assert_eq!(shapes::area(Shape::Box { w: 2.0, h: 3.0 }), 6.0);
//! assert!(shapes::areas::WGSL.contains("fn area("));
//! // An enum is stored as a `u32` tag and the fields of every variant: 4 + 8 + 8 bytes.
//! assert_eq!(shapes::areas::ABI.buffers[0].stride, 20);
//! let gpu = Shape::Box { w: 2.0, h: 3.0 }.to_gpu();
//! assert_eq!(gpu.tag, 1);
//! assert_eq!(Shape::from_gpu(gpu), Some(Shape::Box { w: 2.0, h: 3.0 }));
//! ```
//!
//! # Without a GPU: the CPU backend
//!
//! [`Device::cpu`] runs the same kernels in an interpreter of their IR (which each kernel
//! embeds), with the same results; [`Device::new`] falls back to it when there is no GPU, and
//! `SAREK_DEVICE=cpu` forces it. It can also check what a GPU silently defines:
//!
//! ```
//! use sarek::prelude::*;
//!
//! #[sarek::kernel(workgroup_size = [64])]
//! fn gather(idx: &[u32], src: &[f32], out: &mut [f32]) {
//!     let i = global_thread_id();
//!     if i < out.len() {
//!         out[i] = src[idx[i] as usize];
//!     }
//! }
//!
//! # fn main() -> sarek::Result<()> {
//! let dev = Device::cpu();
//! let (idx, src) = (dev.upload(&[0u32, 7])?, dev.upload(&[1.5f32, 2.5])?);
//! let mut out = dev.zeros::<f32>(2)?;
//! // Unchecked, index 7 reads 0.0, as WebGPU's robust access would.
//! gather.launch(&dev, Grid::cover(2), &idx, &src, &mut out)?;
//! assert_eq!(out.read()?, [1.5, 0.0]);
//! // Checked, the launch reports where and in which invocation.
//! dev.set_checks(true);
//! let err = gather.launch(&dev, Grid::cover(2), &idx, &src, &mut out).unwrap_err();
//! assert!(err.to_string().contains("index out of bounds: the len is 2 but the index is 7"));
//! assert!(matches!(err, sarek::Error::KernelFault { thread: [1, 0, 0], .. }));
//! # Ok(()) }
//! ```
//!
//! # Semantics
//!
//! A kernel means what the same Rust code means, with the choices a GPU forces documented:
//! integer overflow wraps; `usize` is 32 bits; shift amounts are masked like
//! `wrapping_shl`; integer division by zero yields the dividend and `%` by zero yields 0
//! (WGSL's defined results, where Rust would panic); an out-of-bounds read or write is
//! clamped or dropped by WebGPU's robust buffer access instead of panicking; `f32 % f32` is
//! C's exact `fmod`; `round` rounds half away from zero; `as` from `f32` to an integer
//! saturates and maps NaN to 0.

#![deny(missing_docs)]

extern crate self as sarek;

pub mod algo;
pub mod coop;
pub mod gpu;
pub mod guide;
mod instance;

pub use instance::Instance;

pub use sarek_macros::{instances, kernel, module};

/// IEEE binary16, the host type of a kernel's `f16` (from the `half` crate, with its
/// `bytemuck` feature): buffer elements, scalar parameters and struct fields of type `f16` are
/// `half::f16` on the host. Kernels that use it need the device feature `SHADER_F16`.
pub use half::f16;
/// The wgpu that Sarek runs on: wgpu 30 for every Sarek 0.1 release (a new wgpu major version
/// comes with a new Sarek minor version). Interop code should name wgpu's types through this
/// path (or depend on the same major version), so that they are the ones Sarek's
/// [`Device::wgpu_device`] and [`Buffer::wgpu_buffer`] hand out.
pub use sarek_rt::wgpu;
pub use sarek_rt::Groups;
pub use sarek_rt::{
    vector, AdapterSelector, Batch, Buffer, Config, CpuEngine, DebugOutput, Device, DeviceChoice,
    Element, Error, GpuOptions, Grid, IVec2, IVec3, IVec4, Launch, Part, Result, Split, UVec2,
    UVec3, UVec4, Vec2, Vec3, Vec4,
};
pub use sarek_rt::{F16Vec2, F16Vec4};

/// What the code `#[sarek::kernel]` and `#[sarek::module]` generate refers to: the runtime's
/// type-erased layer (`Arg`, `KernelSource`, `RawBuffer`, the raw `launch`, `enqueue` and
/// `record`) and `bytemuck`, whose `Pod` the host types implement. Not a public API: it may
/// change in any release.
#[doc(hidden)]
pub mod __private {
    pub use bytemuck;
    pub use sarek_macros::__import as import;
    pub use sarek_rt::raw::*;
}

/// README.md's Rust examples, compiled and run as doc tests so that they cannot drift from
/// the code.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// The kernel ABI: the types behind every kernel's `ABI` constant.
pub mod abi {
    pub use sarek_ir::abi::*;
}

/// What a kernel file usually needs: the runtime types and the intrinsics.
pub mod prelude {
    pub use crate::gpu::*;
    pub use crate::{Buffer, Device, Grid};
    pub use crate::{F16Vec2, F16Vec4};
    pub use crate::{IVec2, IVec3, IVec4, UVec2, UVec3, UVec4, Vec2, Vec3, Vec4};
}
