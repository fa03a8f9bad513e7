//! The constructs the JIT leaves to the interpreter, decided in one place before any code is
//! generated (a kernel using one runs on the interpreter under `SAREK_CPU_ENGINE=auto`).
//! Code generation still refuses what it cannot compile as a last resort (a comparison of
//! whole structs, a dynamic index into a vector), but each construct of the list below is
//! named here first, so that adding one is one line. Subgroup operations, their builtins,
//! `subgroup_barrier()` and cooperative matrices are compiled (`collective/`).

use super::Unsupported;
use crate::ir::Kernel;

/// Why the JIT leaves `k` to the interpreter, if it does.
pub(super) fn check(k: &Kernel) -> Result<(), Unsupported> {
    let refuse = |what: &str| Err(Unsupported(what.into()));
    // The JIT addresses memory by 4-byte words; an `f16` is 2 bytes, written without
    // clobbering its neighbour, which the interpreter's 2-byte units do.
    if crate::features::uses_f16(k) {
        return refuse("the `f16` type");
    }
    Ok(())
}
