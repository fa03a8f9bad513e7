//! Internal to Sarek: use the [`sarek`](https://docs.rs/sarek) crate, whose version this
//! crate's version follows; its API may change in any release.
//!
//! Sarek's CPU engine: kernels of the IR run on the host, by an interpreter ([`interp`]) that
//! defines the meaning every backend must match, and by a Cranelift JIT ([`jit`], feature
//! `jit`) that compiles them to machine code with the interpreter's bits, both over a
//! persistent pool of worker threads ([`workers`]). It depends only on the IR (`sarek-ir`):
//! no WGSL, no naga, no wgpu.

#![deny(missing_docs)]

pub mod interp;
#[cfg(feature = "jit")]
pub mod jit;
pub mod workers;

// The IR's modules under the names the engine's code uses.
#[cfg(feature = "jit")]
pub(crate) use sarek_ir::toggle;
pub(crate) use sarek_ir::{abi, arena, ir, layout};
