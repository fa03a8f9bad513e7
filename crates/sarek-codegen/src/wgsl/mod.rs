//! The WGSL back end: IR → WGSL text. It prints the kernel as [`crate::passes`] left it;
//! the one analysis it runs is WGSL's own ([`constness`]: which expressions WGSL evaluates
//! when the shader is created).
//!
//! Output is a pure function of the kernel: no global state, deterministic order, so the
//! text can be embedded as a constant and compared against golden files.

mod constness;
pub mod escape;
mod helpers;
mod names;
mod polyfills;
mod std_helpers;
mod writer;

pub use escape::escape;
pub use helpers::Helper;
pub use std_helpers::StdHelper;

use crate::abi::Abi;
use crate::ir::Kernel;
use crate::passes::Prepared;

/// The WGSL spelling of `ty` in host-shareable memory, as the module of `kernel` declares it.
pub fn type_spelling(kernel: &Kernel, ty: crate::ir::Type) -> String {
    writer::spell(kernel, &names::module(kernel), ty, true)
}

/// Writes the WGSL module of a kernel after the passes ([`crate::passes::run`]), whose ABI is
/// `abi` (from [`crate::abi::build`]).
pub fn write(prepared: &Prepared, abi: &Abi) -> String {
    writer::Writer::new(prepared, abi).finish()
}
