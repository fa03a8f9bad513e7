//! Sarek's runtime: devices, typed buffers and kernel launches on wgpu.
//!
//! Internal to Sarek: use the [`sarek`](https://docs.rs/sarek) crate, which re-exports what
//! users need; this crate's API may change in any release.
//!
//! Kernels come from `#[sarek::kernel]`, which embeds their WGSL, ABI and IR; this crate creates
//! each kernel's pipeline once per device, packs the uniform block from the ABI, binds the
//! buffers and dispatches, or runs the IR on the CPU backend. Use it through the `sarek` crate.
//!
//! Users call the types at the root; the typed methods the macro generates call the
//! type-erased layer in [`raw`], which the `sarek` crate keeps out of its documented API.
//!
//! ```
//! use sarek_rt::Grid;
//! # use sarek_rt::fixture::add_one;
//! # fn main() -> sarek_rt::Result<()> {
//! // `add_one`: `#[sarek::kernel] fn add_one(x: &mut [u32])` adds 1 to each element.
//! let dev = sarek_rt::Device::new()?;
//! let mut x = dev.upload(&[1u32, 2, 3])?;
//! add_one.launch(&dev, Grid::cover(x.len()), &mut x)?.wait()?;
//! assert_eq!(x.read()?, [2, 3, 4]);
//! # Ok(()) }
//! ```

#![deny(missing_docs)]

mod arg;
mod backend;
mod batch;
mod buffer;
mod bytes;
mod config;
mod copy;
mod debug;
mod device;
mod error;
mod features;
#[doc(hidden)]
pub mod fixture;
mod grid;
pub mod half_vector;
mod launch;
mod logging;
pub mod raw;
mod split;
mod sync;
mod trace;
pub mod vector;

pub use backend::cpu::engine::CpuEngine;
pub use backend::wgpu::adapter::{AdapterSelector, GpuOptions};
pub use batch::Batch;
pub use buffer::{Buffer, Element};
pub use config::{Config, DeviceChoice};
pub use debug::DebugOutput;
pub use device::Device;
pub use error::{Error, Result};
pub use grid::{Grid, Groups};
pub use half_vector::{F16Vec2, F16Vec4};
pub use launch::Launch;
pub use split::{Part, Split};
pub use vector::{IVec2, IVec3, IVec4, UVec2, UVec3, UVec4, Vec2, Vec3, Vec4};
// Public interop: the wgpu crate whose types `Device::wgpu_device` and the like hand out.
pub use wgpu;
