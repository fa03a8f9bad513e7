//! Sarek's runtime: devices, typed buffers and kernel launches on wgpu.
//!
//! Kernels come from `#[sarek::kernel]`, which embeds their WGSL and ABI; this crate creates
//! each kernel's pipeline once per device, packs the uniform block from the ABI, binds the
//! buffers and dispatches. Use it through the `sarek` crate.
//!
//! ```
//! use sarek_rt::{Arg, Grid};
//! # use std::borrow::Cow::Borrowed as B;
//! # use sarek_codegen::abi::*;
//! # static ADD_ONE: sarek_rt::KernelSource = sarek_rt::KernelSource {
//! #     wgsl: "struct P { grid: vec3<u32>, len: u32 }
//! #         @group(0) @binding(0) var<storage, read_write> x: array<u32>;
//! #         @group(0) @binding(1) var<uniform> p: P;
//! #         @compute @workgroup_size(64) fn sarek_main(@builtin(global_invocation_id) i: vec3<u32>) {
//! #             if i.x < p.len { x[i.x] += 1u; }
//! #         }",
//! #     abi: Abi {
//! #         kernel: B("add_one"), entry_point: B(ENTRY_POINT), workgroup_size: [64, 1, 1],
//! #         buffers: B(&[BufferBinding { binding: 0, param: 0, name: B("x"), elem: B("u32"), stride: 4, access: Access::ReadWrite }]),
//! #         uniform: Uniform { binding: 1, size: 16, fields: B(&[
//! #             UniformField { name: B("sarek_grid"), offset: 0, source: FieldSource::Grid },
//! #             UniformField { name: B("sarek_len0"), offset: 12, source: FieldSource::Length { param: 0 } },
//! #         ]) },
//! #         workgroup_memory: 0, coarsened: false,
//! #     },
//! #     location: "",
//! #     ir: r#"{"name":"add_one","params":[{"name":"x","ty":{"Slice":{"elem":{"Scalar":"u32"},"access":"read_write"}},"span":1}],"workgroup_size":[64,1,1],"locals":[{"name":"i","ty":{"Scalar":"u32"},"mutable":false,"span":3}],"exprs":[{"kind":{"Builtin":"GlobalThreadId"},"ty":{"Scalar":"u32"},"span":2},{"kind":{"Local":0},"ty":{"Scalar":"u32"},"span":5},{"kind":{"Len":0},"ty":{"Scalar":"u32"},"span":6},{"kind":{"Binary":{"op":"Lt","left":1,"right":2}},"ty":{"Scalar":"bool"},"span":7},{"kind":{"Literal":{"U32":1}},"ty":{"Scalar":"u32"},"span":8},{"kind":{"Local":0},"ty":{"Scalar":"u32"},"span":9},{"kind":{"Literal":{"Bool":false}},"ty":{"Scalar":"u32"},"span":10}],"shared":[],"body":[{"kind":{"Let":{"local":0,"init":0}},"span":4},{"kind":{"If":{"cond":3,"accept":[{"kind":{"Assign":{"place":{"Index":{"slice":0,"index":5}},"op":"Add","value":4}},"span":11}],"reject":[]}},"span":12}],"span":0,"types":[],"functions":[]}"#, spans: &[],
//! # };
//! # fn main() -> sarek_rt::Result<()> {
//! // `ADD_ONE`: a kernel that adds 1 to each element of a `&mut [u32]`.
//! let dev = sarek_rt::Device::new()?;
//! let mut x = dev.upload(&[1u32, 2, 3])?;
//! // `add_one.launch(&dev, grid, &mut x)` with `#[sarek::kernel]`.
//! dev.launch(&ADD_ONE, Grid::cover(x.len()), &[Arg::write(&mut x)])?.wait()?;
//! assert_eq!(x.read()?, [2, 3, 4]);
//! # Ok(()) }
//! ```

#![warn(missing_docs)]

mod arg;
mod batch;
mod buffer;
mod cpu;
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
