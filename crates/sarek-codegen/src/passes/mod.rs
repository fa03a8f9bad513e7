//! Transformations of the IR between the checks and the WGSL writer, so that the writer
//! only prints. [`crate::compile`] runs them in this order:
//!
//! 1. [`coarsen`]: an element-wise kernel gets a coarsened entry, its body copied
//!    [`coarsen::FACTOR`] times (planned on the kernel as lowered, which is what the ABI
//!    reports);
//!    and, when its buffers hold 4-byte scalars, a [`vectorise`]d entry doing four adjacent
//!    elements per invocation through `vec4` views of its bindings;
//! 2. [`unroll_loads`]: loops over independent loads of read-only buffers (grid-stride
//!    loops) run [`unroll_loads::FACTOR`] iterations per trip, their loads first (set by
//!    [`Options::unroll`]; `SAREK_UNROLL=0` when the kernel is compiled turns it off);
//! 3. [`forward`]: bindings of invocation ids, parameters and lengths are read where used;
//! 4. [`const_eval`]: `block_dim_*()` and exact integer arithmetic on constants become
//!    literals.
//!
//! The passes change how the kernel is printed, never what it computes. The CPU interpreter
//! runs the kernel as lowered (`#[sarek::kernel]` embeds the IR before these passes).
//!
//! [`slice_coop`] is not one of them: it runs on the tiered quick form only, before
//! [`crate::compile`], and changes how the runtime dispatches it (in slices, one per
//! cooperative accumulator), each slice storing what the whole quick form stores of its
//! accumulator.

pub mod coarsen;
pub mod const_eval;
pub mod coop_arrays;
pub mod forward;
pub mod slice_coop;
pub mod unroll_loads;
pub mod vectorise;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod vectorise_tests;

use std::collections::HashSet;

use crate::arena::Handle;
use crate::ir::{Expression, Function, Kernel, Local};

/// The value of `h` if it is a `u32` literal (indices of arrays of matrices and the bounds
/// of `u32` loop counters, as the lowering writes them).
pub(crate) fn u32_literal(f: &Function, h: Handle<Expression>) -> Option<u32> {
    match f.exprs[h].kind {
        crate::ir::Expr::Literal(crate::ir::Literal::U32(k)) => Some(k),
        _ => None,
    }
}

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
    /// The vectorised entry, when the kernel is element-wise over 4-byte scalars, and what
    /// the passes did to it.
    pub vec4: Option<(vectorise::Vectorised, Notes)>,
}

/// Which of the optional passes run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Iterations per trip of the loops [`unroll_loads`] unrolls: [`unroll_loads::FACTOR`] by
    /// default; 0 or 1 turns the pass off.
    pub unroll: usize,
    /// Whether a quick form with an array of cooperative accumulators is compiled in slices
    /// ([`slice_coop`]; on by default).
    pub slice: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            unroll: unroll_loads::FACTOR,
            slice: true,
        }
    }
}

impl Options {
    /// The options the environment asks for, the compiler's only reading of it:
    /// `SAREK_UNROLL=0` turns [`unroll_loads`] off, `SAREK_UNROLL=n` (2 to 16) unrolls by `n`;
    /// `SAREK_SLICE=0` keeps quick forms whole. Read when a kernel is compiled, i.e. by
    /// `#[sarek::kernel]` at build time; the code it generates names the variables with
    /// `option_env!`, so changing one rebuilds the crate.
    pub fn from_env() -> Options {
        let unroll = match std::env::var("SAREK_UNROLL") {
            Ok(v) => v
                .trim()
                .parse::<usize>()
                .map_or(unroll_loads::FACTOR, |n| n.min(16)),
            Err(_) => unroll_loads::FACTOR,
        };
        let slice = std::env::var("SAREK_SLICE").map_or(true, |v| v.trim() != "0");
        Options { unroll, slice }
    }
}

/// Runs the passes on `kernel`, all of them.
pub fn run(kernel: &Kernel) -> Prepared {
    run_with(kernel, &Options::default())
}

/// Runs the passes on `kernel` as `options` choose.
pub fn run_with(kernel: &Kernel, options: &Options) -> Prepared {
    let coarse = coarsen::plan(kernel).map(|plan| coarsen::apply(kernel, &plan));
    let vec4 = vectorise::plan(kernel).map(|plan| vectorise::apply(kernel, &plan));
    let mut kernel = kernel.clone();
    if options.unroll > 1 {
        unroll_loads::run(&mut kernel, options.unroll);
    }
    let size = kernel.workgroup_size;
    let mut next_matrix = coop_arrays::first_free(&kernel);
    let mut simplify = |f: &mut Function| {
        let notes = Notes {
            forwarded: forward::run(f),
            evaluated: const_eval::run(f, size),
        };
        coop_arrays::run(f, &mut next_matrix);
        notes
    };
    let entry = simplify(&mut kernel.entry);
    let functions = kernel.functions.iter_mut().map(&mut simplify).collect();
    let coarse = coarse.map(|mut c| {
        let notes = simplify(&mut c.function);
        (c, notes)
    });
    let vec4 = vec4.map(|mut v| {
        let notes = simplify(&mut v.coarse.function);
        (v, notes)
    });
    Prepared {
        kernel,
        entry,
        functions,
        coarse,
        vec4,
    }
}
