//! What the writer prints for cooperative matrices (WGSL's experimental
//! `wgpu_cooperative_matrix` extension): one function-scope `var` per matrix of a function
//! (or a `let` at its one assignment, [`crate::wgsl::coop_lets`]), and
//! `coopLoad`/`coopMultiplyAdd`/`coopStore`. An array of matrices is one `var` of WGSL's
//! `array<coop_mat..>` type, its elements named by index (naga's `Restrict` policy clamps an
//! index past the end, as the CPU backend does).

use std::collections::{BTreeMap, BTreeSet};

use crate::arena::Handle;
use crate::ir::*;
use crate::wgsl::escape::{escape, internal};

use super::{scalar_name, Writer, INDENT};

/// The WGSL type of a matrix: `coop_mat16x16<f16, A>`.
pub(super) fn coop_type(m: CoopMatrix) -> String {
    let n = m.size;
    format!(
        "coop_mat{n}x{n}<{}, {}>",
        scalar_name(m.scalar),
        m.role.name()
    )
}

/// The WGSL name of matrix variable `id`.
fn var_name(id: u32) -> String {
    internal(&format!("coop{id}"))
}

/// Every matrix variable of `block` (at any depth), by number.
pub(super) fn variables(block: &Block, found: &mut BTreeMap<u32, CoopMatrix>) {
    crate::ir::visit(block, &mut |s| {
        if let Stmt::Coop(op) = &s.kind {
            for m in op.matrices() {
                found.entry(m.id).or_insert(m);
            }
        }
    });
}

/// The declarations that open a function's body (the entry point's or a helper's): one `var`
/// per matrix but those in `lets`, printed at their assignment (WGSL's `var` starts at zero,
/// but `zeros()` still assigns, so a matrix reused in a loop restarts).
pub(super) fn declarations(body: &Block, lets: &BTreeSet<u32>) -> String {
    let mut found = BTreeMap::new();
    variables(body, &mut found);
    let mut text = String::new();
    for (id, m) in found.into_iter().filter(|(id, _)| !lets.contains(id)) {
        let ty = match m.is_array() {
            true => format!("array<{}, {}>", coop_type(m), m.len),
            false => coop_type(m),
        };
        text.push_str(&format!("{INDENT}var {}: {ty};\n", var_name(id)));
    }
    text
}

impl Writer<'_> {
    /// `&buffer[offset]` or `&array[offset]`: where a load or store starts.
    /// A constant offset naga would refuse (past a workgroup array, or beyond `i32` into a
    /// buffer) stays a run-time value, as for any index ([`Writer::index`]).
    fn coop_pointer(&mut self, memory: CoopMemory, offset: Handle<Expression>) -> String {
        match memory {
            CoopMemory::Buffer(p) => {
                let i = self.index(offset, None);
                format!("&{}[{i}]", escape(&self.kernel.param(p).name))
            }
            CoopMemory::Shared(v) => {
                let dims = &self.kernel.shared_var(v).dims;
                let len = (dims.len() == 1).then(|| dims[0]);
                let i = self.index(offset, len);
                format!("&{}[{i}]", self.names.shared[v.0 as usize])
            }
        }
    }

    /// A matrix as an operand or target: its variable, or the element of its array.
    fn coop_ref(&mut self, m: CoopMatrix) -> String {
        match m.index {
            // A constant index past the end (one `const_eval` made, in an array that stays
            // an array) is kept a run-time value, which naga's `Restrict` policy clamps.
            Some(i) => format!("{}[{}]", var_name(m.id), self.index(i, Some(m.len))),
            None => var_name(m.id),
        }
    }

    /// The left side of an assignment to `dst`: `let name` at a `let` matrix's one assignment.
    fn coop_target(&mut self, dst: CoopMatrix) -> String {
        match self.coop_lets.contains(&dst.id) {
            true => format!("let {}", var_name(dst.id)),
            false => self.coop_ref(dst),
        }
    }

    /// One cooperative-matrix statement.
    pub(super) fn coop(&mut self, depth: usize, op: &CoopOp) {
        let text = match op {
            CoopOp::Zero { dst } => format!("{} = {}();", self.coop_target(*dst), coop_type(*dst)),
            CoopOp::Load {
                dst,
                memory,
                offset,
                stride,
                layout,
            } => {
                let pointer = self.coop_pointer(*memory, *offset);
                let stride = self.expr(*stride);
                let f = match layout {
                    CoopLayout::Rows => "coopLoadT",
                    CoopLayout::Columns => "coopLoad",
                };
                format!(
                    "{} = {f}<{}>({pointer}, {stride});",
                    self.coop_target(*dst),
                    coop_type(*dst)
                )
            }
            CoopOp::MultiplyAdd { dst, a, b, c } => {
                let (a, b, c) = (self.coop_ref(*a), self.coop_ref(*b), self.coop_ref(*c));
                format!(
                    "{} = coopMultiplyAdd({a}, {b}, {c});",
                    self.coop_target(*dst)
                )
            }
            CoopOp::Store {
                src,
                memory,
                offset,
                stride,
                layout,
            } => {
                let pointer = self.coop_pointer(*memory, *offset);
                let stride = self.expr(*stride);
                let f = match layout {
                    CoopLayout::Rows => "coopStoreT",
                    CoopLayout::Columns => "coopStore",
                };
                // naga 30 pushes a `coopStore` before emitting its arguments' expressions, so
                // its SPIR-V writer panics on an argument computed in the call ("not
                // cached"); `let`s emit them first.
                let (m, p, s) = (
                    internal("coop_value"),
                    internal("coop_at"),
                    internal("coop_stride"),
                );
                let i1 = INDENT;
                format!(
                    "{{\n{i1}{pad}let {m} = {};\n{i1}{pad}let {p} = {pointer};\n{i1}{pad}let {s}: u32 = {stride};\n{i1}{pad}{f}({m}, {p}, {s});\n{pad}}}",
                    self.coop_ref(*src),
                    pad = INDENT.repeat(depth)
                )
            }
        };
        self.line(depth, &text);
    }
}
