//! The kernel ABI ([`sarek_ir::abi`]) with the names the WGSL module declares and the entry
//! points the passes add: what [`crate::compile`] embeds for the runtime.

use crate::abi::{lay_out, Abi, Name};
use crate::ir::Kernel;
use crate::wgsl::escape;

/// The WGSL name of the uniform field holding the length of slice parameter `param`.
pub fn length_field(param: usize) -> String {
    escape::internal(&format!("len{param}"))
}

/// The WGSL `override` constant that sizes workgroup array `var` (an index of the kernel's
/// `shared`, also the constant's `@id`) at launch; it ends in a letter, so that naga's WGSL
/// writer (which appends `_` to a name ending in a digit) keeps it when the runtime rewrites
/// a module.
pub fn launch_length(var: usize) -> String {
    escape::internal(&format!("shared{var}_len"))
}

/// Lays out the ABI of `kernel`, with the names its WGSL module declares and the entry points
/// its passes add.
pub fn build(kernel: &Kernel) -> Abi {
    let mut abi = lay_out(kernel, &|name| match name {
        Name::Grid => escape::internal("grid"),
        Name::Length(param) => length_field(param),
        Name::Param(name) => escape::escape(name),
        Name::Elem(elem, atomic) => {
            let spelling = crate::wgsl::type_spelling(kernel, elem);
            if atomic {
                format!("atomic<{spelling}>")
            } else {
                spelling
            }
        }
    });
    abi.coarsened = crate::passes::coarsen::plan(kernel).is_some();
    abi.vectorised = crate::passes::vectorise::plan(kernel).is_some();
    abi
}
