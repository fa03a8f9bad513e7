//! Internal to Sarek: use the [`sarek`](https://docs.rs/sarek) crate, whose version this
//! crate's version follows; its API may change in any release.
//!
//! What Sarek asks of naga about a WGSL module: validation with exactly the capabilities a
//! kernel's features allow ([`valid`]), and the proof that an entry point's every index is in
//! bounds ([`in_bounds`]), so that it may run without naga's index clamps. The compiler runs
//! both when a kernel is built; the runtime runs the proof again on the very module it hands
//! wgpu, so that no file and no hand-written source can drop a clamp the proof did not allow.

#![deny(missing_docs)]

pub mod in_bounds;
pub mod valid;

pub(crate) use sarek_ir::features;
