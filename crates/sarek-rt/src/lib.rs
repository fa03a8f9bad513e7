//! Sarek's runtime: devices, typed buffers and kernel launches on wgpu.
//!
//! Kernels come from `#[sarek::kernel]`, which embeds their WGSL and ABI; this crate creates
//! each kernel's pipeline once per device, packs the uniform block from the ABI, binds the
//! buffers and dispatches. Use it through the `sarek` crate.

#![warn(missing_docs)]

mod arg;
mod batch;
mod buffer;
mod device;
mod error;
mod grid;
mod launch;
mod logging;
mod poller;
mod transfer;
pub mod vector;

pub use arg::{Arg, KernelSource};
pub use batch::Batch;
pub use buffer::{Buffer, Element, RawBuffer};
pub use device::Device;
pub use error::{Error, Result};
pub use grid::Grid;
pub use launch::Launch;
pub use vector::{IVec2, IVec3, IVec4, UVec2, UVec3, UVec4, Vec2, Vec3, Vec4};
pub use wgpu;
