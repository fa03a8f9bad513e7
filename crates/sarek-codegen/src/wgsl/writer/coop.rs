//! What the writer prints for cooperative matrices (WGSL's experimental
//! `wgpu_cooperative_matrix` extension): one function-scope `var` per matrix of a function
//! (or a `let` at its one assignment, [`crate::wgsl::coop_lets`]), and
//! `coopLoad`/`coopMultiplyAdd`/`coopStore`.

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
        text.push_str(&format!(
            "{INDENT}var {}: {};\n",
            var_name(id),
            coop_type(m)
        ));
    }
    text
}

impl Writer<'_> {
    /// `&buffer[offset]` or `&array[offset]`: where a load or store starts.
    fn coop_pointer(&mut self, memory: CoopMemory, offset: Handle<Expression>) -> String {
        let i = self.expr(offset);
        match memory {
            CoopMemory::Buffer(p) => format!("&{}[{i}]", escape(&self.kernel.param(p).name)),
            CoopMemory::Shared(v) => format!("&{}[{i}]", self.names.shared[v.0 as usize]),
        }
    }

    /// The left side of an assignment to `dst`: `let name` at a `let` matrix's one assignment.
    fn coop_target(&self, dst: CoopMatrix) -> String {
        match self.coop_lets.contains(&dst.id) {
            true => format!("let {}", var_name(dst.id)),
            false => var_name(dst.id),
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
            CoopOp::MultiplyAdd { dst, a, b, c } => format!(
                "{} = coopMultiplyAdd({}, {}, {});",
                self.coop_target(*dst),
                var_name(a.id),
                var_name(b.id),
                var_name(c.id)
            ),
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
                    var_name(src.id),
                    pad = INDENT.repeat(depth)
                )
            }
        };
        self.line(depth, &text);
    }
}
