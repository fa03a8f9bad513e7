//! # Sarek: GPU compute kernels written as ordinary Rust functions
//!
//! `#[sarek::kernel]` lowers a Rust function to Sarek's IR at compile time, refuses what
//! WebGPU cannot run with an error at the offending token, emits WGSL that naga validates
//! during the build, and embeds the WGSL and a typed ABI as constants. At run time a launch
//! only creates the pipeline (once per device) and dispatches through wgpu.
//!
//! ```no_run
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
//! # Semantics
//!
//! A kernel means what the same Rust code means, with the choices a GPU forces documented:
//! integer overflow wraps; `usize` is 32 bits; shift amounts are masked like
//! `wrapping_shl`; integer division by zero yields the dividend and `%` by zero yields 0
//! (WGSL's defined results, where Rust would panic); an out-of-bounds read or write is
//! clamped or dropped by WebGPU's robust buffer access instead of panicking; `f32 % f32` is
//! C's exact `fmod`; `round` rounds half away from zero; `as` from `f32` to an integer
//! saturates and maps NaN to 0.

#![warn(missing_docs)]

extern crate self as sarek;

pub mod gpu;

pub use sarek_macros::{kernel, module};

/// Re-exported for the code `#[sarek::module]` generates (its host types implement
/// [`bytemuck::Pod`]).
pub use bytemuck;
pub use sarek_rt::{
    wgpu, Arg, Batch, Buffer, Device, Element, Error, Grid, KernelSource, Launch, RawBuffer, Result,
};

/// The kernel ABI: the types behind every kernel's `ABI` constant.
pub mod abi {
    pub use sarek_codegen::abi::*;
}

/// What a kernel file usually needs: the runtime types and the intrinsics.
pub mod prelude {
    pub use crate::gpu::*;
    pub use crate::{Buffer, Device, Grid};
}
