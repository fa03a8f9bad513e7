//! The WGSL back end: IR → WGSL text.
//!
//! Output is a pure function of the kernel: no global state, deterministic order, so the
//! text can be embedded as a constant and compared against golden files.

pub mod escape;
mod helpers;
mod names;
mod polyfills;
mod writer;

pub use escape::escape;
pub use helpers::Helper;

use crate::abi::Abi;
use crate::ir::Kernel;

/// The WGSL spelling of `ty` in host-shareable memory, as the module of `kernel` declares it.
pub fn type_spelling(kernel: &Kernel, ty: crate::ir::Type) -> String {
    writer::spell(kernel, &names::module(kernel), ty, true)
}

/// Writes the WGSL module of `kernel`, whose ABI is `abi` (from [`crate::abi::build`]).
pub fn write(kernel: &Kernel, abi: &Abi) -> String {
    writer::Writer::new(kernel, abi).finish()
}
