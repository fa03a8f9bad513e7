//! Which memory a stretch of code writes: the buffers and workgroup arrays its stores and
//! atomics reach, helpers included. A read of memory that nothing writes while the read can
//! run is emitted as a *movable* load ([`super::gen::movable`]), which Cranelift may schedule
//! like arithmetic: next to its use instead of where the statement was, and out of loops.
//! Measured on the 16×16 tiled product: with every load fixed in place, Cranelift computed
//! the products of the unrolled `k` loop only where the sum was stored, after all 32 loads,
//! and spilled the loaded values to the stack.

use std::collections::BTreeSet;

use crate::ir::{AtomicTarget, Kernel, Place, Statement, Stmt};

/// The memory a block of code may write.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(super) struct Writes {
    /// Buffer parameters (by index).
    pub params: BTreeSet<u32>,
    /// Workgroup arrays (by index).
    pub shared: BTreeSet<u32>,
    /// A construct this analysis does not follow: every memory counts as written.
    pub all: bool,
}

impl Writes {
    /// Whether buffer parameter `p` may be written.
    pub fn param(&self, p: u32) -> bool {
        self.all || self.params.contains(&p)
    }

    /// Whether workgroup array `v` may be written.
    pub fn shared(&self, v: u32) -> bool {
        self.all || self.shared.contains(&v)
    }
}

/// Adds what `block` (of kernel `k`, helpers followed) may write to `out`.
pub(super) fn block(k: &Kernel, block: &[Statement], out: &mut Writes) {
    for s in block {
        statement(k, s, out, 0);
    }
}

fn statement(k: &Kernel, s: &Statement, out: &mut Writes, depth: usize) {
    let blk = |b: &[Statement], out: &mut Writes| {
        for s in b {
            statement(k, s, out, depth);
        }
    };
    match &s.kind {
        Stmt::Assign { place, .. } => place_root(place, out),
        Stmt::If { accept, reject, .. } => {
            blk(accept, out);
            blk(reject, out);
        }
        Stmt::Loop {
            body, continuing, ..
        } => {
            blk(body, out);
            blk(continuing, out);
        }
        Stmt::Switch { cases, default, .. } => {
            for c in cases {
                blk(&c.body, out);
            }
            blk(default, out);
        }
        Stmt::Call { function, .. } => match k.functions.get(function.0 as usize) {
            // WGSL has no recursion; the depth bound only keeps a malformed IR finite.
            Some(f) if depth < 64 => {
                for s in &f.body {
                    statement(k, s, out, depth + 1);
                }
            }
            _ => out.all = true,
        },
        Stmt::Atomic { target, .. } | Stmt::CompareExchange { target, .. } => match target {
            AtomicTarget::Buffer { slice, .. } => {
                out.params.insert(slice.0);
            }
            AtomicTarget::Shared { var, .. } => {
                out.shared.insert(var.0);
            }
        },
        Stmt::Let { .. }
        | Stmt::Break
        | Stmt::Continue
        | Stmt::Return(_)
        | Stmt::Barrier(_)
        | Stmt::Subgroup { .. }
        | Stmt::UniformLoad { .. } => {}
        // A cooperative matrix's store writes its memory; its other operations only the
        // matrices, which are not memory the generated code reads.
        Stmt::Coop(crate::ir::CoopOp::Store { memory, .. }) => match memory {
            crate::ir::CoopMemory::Buffer(p) => {
                out.params.insert(p.0);
            }
            crate::ir::CoopMemory::Shared(v) => {
                out.shared.insert(v.0);
            }
        },
        Stmt::Coop(_) => {}
        // Stay conservative for whatever comes next.
        #[allow(unreachable_patterns)]
        _ => out.all = true,
    }
}

/// The memory a store to `place` writes (locals are not memory here).
fn place_root(place: &Place, out: &mut Writes) {
    match place {
        Place::Local(_) => {}
        Place::Index { slice, .. } => {
            out.params.insert(slice.0);
        }
        Place::Shared { var, .. } => {
            out.shared.insert(var.0);
        }
        Place::Field { base, .. } | Place::Element { base, .. } => place_root(base, out),
    }
}
