//! The vectorised entry point (see [`crate::passes::vectorise`]): `vec4` views of the
//! bindings it touches, one 16-byte load per buffer read, the four copies of the body, and the
//! staged stores written back as one 16-byte store when all four lanes stored.

use std::fmt::Write as _;

use crate::ir::*;
use crate::passes::coarsen::Role;
use crate::passes::vectorise::{Vectorised, LANES};
use crate::passes::Notes;
use crate::wgsl::escape::internal;

use super::{Builtins, Writer, INDENT};

/// The components of a `vec4`, by lane.
const LANE: [&str; 4] = ["x", "y", "z", "w"];

/// The WGSL name of the `vec4` view of the binding of parameter `param`.
fn view(param: u32) -> String {
    internal(&format!("v4_{param}"))
}

impl<'a> Writer<'a> {
    /// The `vec4` views of the bindings the vectorised entry touches: the same group and
    /// binding as the scalar declaration, which no other entry point uses (naga and WGSL check
    /// binding collisions per entry point).
    pub(super) fn vec4_declarations(&self, out: &mut String) {
        let Some((v, _)) = &self.prepared.vec4 else {
            return;
        };
        for buffer in self.abi.buffers.iter() {
            let param = ParamId(buffer.param);
            if !v.coarse.preloads.iter().any(|&l| {
                matches!(v.coarse.roles[l.index()], Role::Preload { slice, .. } if slice == param)
            }) && !v.written.contains(&param)
            {
                continue;
            }
            let access = match buffer.access {
                Access::Read => "read",
                Access::ReadWrite => "read_write",
            };
            let _ = writeln!(
                out,
                "@group(0) @binding({}) var<storage, {access}> {}: array<vec4<{}>>;",
                buffer.binding,
                view(buffer.param),
                buffer.elem,
            );
        }
    }

    /// The vectorised body: a 16-byte load per buffer read, its lanes as the copies' loaded
    /// elements, then the copies (which declare their staged stores).
    pub(super) fn vec4_body(&mut self, v: &'a Vectorised, notes: &'a Notes) -> String {
        self.enter_copies(&v.coarse, notes);
        let t = internal("t");
        let mut text = String::new();
        let mut loaded = Vec::new();
        for &load in &v.coarse.preloads {
            let Role::Preload { copy, slice } = v.coarse.roles[load.index()] else {
                continue;
            };
            let whole = internal(&format!("v_{}", slice.0));
            let ty = self.type_name(self.locals[load].ty);
            if !loaded.contains(&slice) {
                loaded.push(slice);
                let _ = writeln!(
                    text,
                    "{INDENT}let {whole}: vec4<{ty}> = {}[{t}];",
                    view(slice.0)
                );
            }
            let _ = writeln!(
                text,
                "{INDENT}let {}: {ty} = {whole}.{};",
                self.local_name(load),
                LANE[copy as usize]
            );
        }
        self.block(&v.coarse.function.body, 1);
        text.push_str(&std::mem::take(&mut self.body));
        self.vec4_stores(v, &mut text);
        text
    }

    /// The staged stores: one 16-byte store when every lane stored, else each lane that did.
    fn vec4_stores(&self, v: &Vectorised, text: &mut String) {
        let t = internal("t");
        let per_copy = v.written.len();
        for (n, slice) in v.written.iter().enumerate() {
            let lanes: Vec<(String, String)> = (0..LANES as usize)
                .map(|copy| {
                    let (value, stored) = v.staged[copy * per_copy + n];
                    (self.local_name(value), self.local_name(stored))
                })
                .collect();
            let ty = self.type_name(self.locals[lanes_local(v, n)].ty);
            let all: Vec<&str> = lanes.iter().map(|(_, f)| f.as_str()).collect();
            let values: Vec<&str> = lanes.iter().map(|(s, _)| s.as_str()).collect();
            let target = format!("{}[{t}]", view(slice.0));
            let _ = writeln!(
                text,
                "{INDENT}if {} {{\n{INDENT}{INDENT}{target} = vec4<{ty}>({});\n{INDENT}}} else {{",
                all.join(" && "),
                values.join(", ")
            );
            for (lane, (value, stored)) in lanes.iter().enumerate() {
                let _ = writeln!(
                    text,
                    "{INDENT}{INDENT}if {stored} {{\n{INDENT}{INDENT}{INDENT}{target}.{} = {value};\n{INDENT}{INDENT}}}",
                    LANE[lane]
                );
            }
            let _ = writeln!(text, "{INDENT}}}");
        }
    }

    /// The vectorised entry point: invocation `t` of a quarter of the grid (folded like any
    /// grid) handles the elements `4t + k`.
    pub(super) fn vec4_entry_point(&self, out: &mut String, v: &Vectorised, statements: &str) {
        let [x, _, _] = self.kernel.workgroup_size;
        let (lid, wid, nwg, p) = (
            Builtins::LOCAL_ID,
            Builtins::GROUP_ID,
            Builtins::NUM_GROUPS,
            Builtins::PARAMS,
        );
        let _ = writeln!(out, "@compute @workgroup_size({x}, 1, 1)");
        let _ = writeln!(out, "fn {}(", crate::abi::VEC4_ENTRY_POINT);
        let _ = writeln!(
            out,
            "{INDENT}@builtin(local_invocation_id) {lid}: vec3<u32>,"
        );
        let _ = writeln!(out, "{INDENT}@builtin(workgroup_id) {wid}: vec3<u32>,");
        let _ = writeln!(out, "{INDENT}@builtin(num_workgroups) {nwg}: vec3<u32>,");
        out.push_str(") {\n");
        let (t, total) = (internal("t"), internal("total"));
        let _ = writeln!(
            out,
            "{INDENT}let {t} = ({wid}.x + {wid}.y * {nwg}.x) * {x}u + {lid}.x;"
        );
        let _ = writeln!(
            out,
            "{INDENT}let {total} = {p}.sarek_grid.x * {}u;",
            x / LANES
        );
        let _ = writeln!(
            out,
            "{INDENT}if {t} >= {total} {{\n{INDENT}{INDENT}return;\n{INDENT}}}"
        );
        for k in 0..v.coarse.threads.len() {
            let id = internal(&format!("id{k}"));
            let _ = writeln!(out, "{INDENT}let {id} = {LANES}u * {t} + {k}u;");
        }
        out.push_str(statements);
        out.push_str("}\n");
    }
}

/// The staged value local of copy 0 for the `n`th written buffer (for its type).
fn lanes_local(v: &Vectorised, n: usize) -> crate::arena::Handle<Local> {
    v.staged[n].0
}
