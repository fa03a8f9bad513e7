//! Transformations of the IR between the checks and the WGSL writer, so that the writer
//! only prints. [`crate::compile`] runs them in this order:
//!
//! 1. [`coarsen`]: an element-wise kernel gets a coarsened entry, its body copied
//!    [`coarsen::FACTOR`] times (planned on the kernel as lowered, which is what the ABI
//!    reports);
//! 2. [`forward`]: bindings of invocation ids, parameters and lengths are read where used;
//! 3. [`const_eval`]: `block_dim_*()` and exact integer arithmetic on constants become
//!    literals.
//!
//! The passes change how the kernel is printed, never what it computes. The CPU interpreter
//! runs the kernel as lowered (`#[sarek::kernel]` embeds the IR before these passes).

pub mod coarsen;
pub mod const_eval;
pub mod forward;
mod remap;

#[cfg(test)]
mod tests;

use std::collections::HashSet;

use crate::arena::Handle;
use crate::ir::{Expression, Function, Kernel, Local};

/// What the passes did to one function that the WGSL writer needs to print it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Notes {
    /// The locals [`forward`] replaced by their value at each read: their `let` stays in the
    /// IR, dead, and declares nothing.
    pub forwarded: HashSet<Handle<Local>>,
    /// The expressions [`const_eval`] replaced by a literal. The writer still guards an
    /// integer division by one of them as it guards a division by any computed value (only a
    /// divisor written as a literal goes unguarded): the WGSL predates the pass and stays
    /// byte-identical.
    pub evaluated: HashSet<Handle<Expression>>,
}

/// A kernel after the passes: what the WGSL writer prints.
#[derive(Clone, Debug, PartialEq)]
pub struct Prepared {
    /// The kernel, its entry and helpers forwarded and evaluated.
    pub kernel: Kernel,
    /// What the passes did to [`Kernel::entry`].
    pub entry: Notes,
    /// What they did to each of [`Kernel::functions`].
    pub functions: Vec<Notes>,
    /// The coarsened entry, when the kernel is element-wise, and what the passes did to it.
    pub coarse: Option<(coarsen::Coarse, Notes)>,
}

/// Runs the passes on `kernel`.
pub fn run(kernel: &Kernel) -> Prepared {
    let coarse = coarsen::plan(kernel).map(|plan| coarsen::apply(kernel, &plan));
    let mut kernel = kernel.clone();
    let size = kernel.workgroup_size;
    let mut simplify = |f: &mut Function| Notes {
        forwarded: forward::run(f),
        evaluated: const_eval::run(f, size),
    };
    let entry = simplify(&mut kernel.entry);
    let functions = kernel.functions.iter_mut().map(&mut simplify).collect();
    let coarse = coarse.map(|mut c| {
        let notes = simplify(&mut c.function);
        (c, notes)
    });
    Prepared {
        kernel,
        entry,
        functions,
        coarse,
    }
}
