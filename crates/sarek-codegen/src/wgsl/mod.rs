//! The WGSL back end: IR → WGSL text. It prints the kernel as [`crate::passes`] left it;
//! the one analysis it runs is WGSL's own (`constness.rs`: which expressions WGSL evaluates
//! when the shader is created).
//!
//! Output is a pure function of the kernel: no global state, deterministic order, so the
//! text can be embedded as a constant and compared against golden files.

pub mod abi;
mod constness;
mod coop_lets;
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
/// `abi` (from [`abi::build`]).
pub fn write(prepared: &Prepared, abi: &Abi) -> String {
    write_split(prepared, abi).0
}

/// [`write()`], and where each entry point's text lies in the module: the runtime gives wgpu
/// only the launched entry point's text ([`EntryPointText::text`]), so that naga and the
/// driver never see the other copies of the kernel's body.
pub fn write_split(prepared: &Prepared, abi: &Abi) -> (String, Vec<EntryPointText>) {
    let (wgsl, entries, _) = writer::Writer::new(prepared, abi).finish();
    (wgsl, entries)
}

/// [`write_split`], refusing a module that nests deeper than naga's WGSL parser accepts (it
/// stops at 200 levels of blocks and expressions, and some Rust operations take more than
/// one WGSL level, such as `f16` math, computed in `f32`): the span of the first statement
/// too deep, and why.
pub fn write_checked(
    prepared: &Prepared,
    abi: &Abi,
) -> Result<(String, Vec<EntryPointText>), (crate::ir::Span, String)> {
    match writer::Writer::new(prepared, abi).finish() {
        (wgsl, entries, None) => Ok((wgsl, entries)),
        (_, _, Some(span)) => Err((
            span,
            "this nests too deeply for WGSL compilers once compiled (naga stops at 200 levels, and `f16` math and some operators take more than one level each); split the expression with `let` bindings".to_owned(),
        )),
    }
}

/// One entry point's text in a kernel's WGSL module, as the writer recorded it.
///
/// Everything an entry point calls or declares (directives, structs, bindings, helpers)
/// precedes the first entry point, so the module's text up to the first entry point's
/// `start`, followed by `start..end` of one entry point, is a complete module with that
/// entry point alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryPointText {
    /// The entry point's WGSL name (`sarek_main`, `sarek_main_folded`, ...).
    pub name: String,
    /// Where its text starts in the module, in bytes (at its `@compute` attribute).
    pub start: usize,
    /// Where its text ends, in bytes (just after its closing `}` line).
    pub end: usize,
}

impl EntryPointText {
    /// The module `wgsl` with only the entry point `name`, given the recorded `entries`;
    /// `None` when `name` is not among them.
    pub fn text(wgsl: &str, entries: &[EntryPointText], name: &str) -> Option<String> {
        let first = entries.iter().map(|e| e.start).min()?;
        let e = entries.iter().find(|e| e.name == name)?;
        Some(format!("{}{}", &wgsl[..first], &wgsl[e.start..e.end]))
    }
}
