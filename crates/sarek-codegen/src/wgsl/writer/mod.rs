//! Prints a kernel, as the passes left it, as a WGSL module.

use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;

use crate::abi::{Abi, FieldSource};
use crate::arena::{Arena, Handle};
use crate::ir::*;
use crate::passes::coarsen::{self, Coarse, Role};
use crate::passes::{Notes, Prepared};

mod coop;
mod debug;
mod expressions;
mod extensions;
mod invocation;
mod scalars;
mod statements;
mod std_math;
mod vec4;

use super::escape::{escape, internal};
use super::helpers::Helper;
use super::names::{self, ModuleNames};

const INDENT: &str = "    ";

pub(super) struct Writer<'a> {
    prepared: &'a Prepared,
    kernel: &'a Kernel,
    abi: &'a Abi,
    names: ModuleNames,
    /// The function being written (the kernel's entry, its coarsened entry or a helper): its
    /// locals and expressions, and what the passes did to it.
    locals: &'a Arena<Local>,
    exprs: &'a Arena<Expression>,
    notes: &'a Notes,
    local_names: HashMap<Handle<Local>, String>,
    /// The local arrays printed as one `var` per element ([`scalars`]), with their element
    /// type and length.
    split: HashMap<Handle<Local>, (Type, u32)>,
    /// Whether each expression is a WGSL const-expression ([`super::constness`]).
    constant: Vec<bool>,
    /// The cooperative matrices printed as a `let` at their one assignment
    /// ([`super::coop_lets`]); the others are `var`s declared at the top of the body.
    coop_lets: BTreeSet<u32>,
    helpers: BTreeSet<Helper>,
    /// Per helper: whether it takes the invocation ids ([`invocation`]).
    needs_ids: Vec<bool>,
    body: String,
    /// The statement being written, for [`Writer::too_deep`].
    current: Option<Span>,
    /// The first statement whose WGSL nests too deeply for naga's parser, if any.
    too_deep: Option<Span>,
    /// Whether the kernel has statements WGSL requires in uniform control flow
    /// ([`Kernel::needs_uniform_flow`]).
    uniform_flow: bool,
}

/// The nesting naga's WGSL parser accepts, with a margin: it stops at 200 levels of
/// statements and expressions (each block, parenthesis, call argument and index one).
const NAGA_NESTING: usize = 190;

/// The WGSL spelling of a scalar type.
fn scalar_name(s: Scalar) -> &'static str {
    match s {
        Scalar::F32 => "f32",
        Scalar::F16 => "f16",
        Scalar::I32 => "i32",
        Scalar::U32 => "u32",
        Scalar::I64 => "i64",
        Scalar::U64 => "u64",
        // `bool` never reaches host-shareable memory; a uniform holds a `u32`.
        Scalar::Bool => "bool",
    }
}

/// The type a scalar has in host-shareable memory.
fn shareable_name(s: Scalar) -> &'static str {
    match s {
        Scalar::Bool => "u32",
        other => scalar_name(other),
    }
}

/// The WGSL spelling of `ty`; `shareable` spells a `bool` as the `u32` that stores it.
pub(super) fn spell(kernel: &Kernel, names: &ModuleNames, ty: Type, shareable: bool) -> String {
    match ty {
        Type::Scalar(s) if shareable => shareable_name(s).to_owned(),
        Type::Scalar(s) => scalar_name(s).to_owned(),
        Type::Vector(n, s) => format!("vec{n}<{}>", scalar_name(s)),
        Type::Struct(id) => names
            .types
            .get(&(id.0 as usize))
            .cloned()
            .unwrap_or_else(|| internal("unknown")),
        Type::Array(id) => match array_def(&kernel.types, id) {
            Some((elem, len)) => format!("array<{}, {len}>", spell(kernel, names, elem, shareable)),
            None => internal("unknown"),
        },
    }
}

/// The WGSL name of a struct field.
pub(super) fn field_name(name: &FieldName) -> String {
    match name {
        FieldName::Named(n) => escape(n),
        FieldName::Tag => internal("tag"),
        FieldName::Payload { variant, name } => internal(&format!("v{variant}_{name}")),
    }
}

fn binary_token(op: BinaryOp) -> &'static str {
    match op {
        BinaryOp::Add => "+",
        BinaryOp::Sub => "-",
        BinaryOp::Mul => "*",
        BinaryOp::Div => "/",
        BinaryOp::Rem => "%",
        BinaryOp::BitAnd => "&",
        BinaryOp::BitOr => "|",
        BinaryOp::BitXor => "^",
        BinaryOp::Shl => "<<",
        BinaryOp::Shr => ">>",
        BinaryOp::Eq => "==",
        BinaryOp::Ne => "!=",
        BinaryOp::Lt => "<",
        BinaryOp::Le => "<=",
        BinaryOp::Gt => ">",
        BinaryOp::Ge => ">=",
        BinaryOp::LogicalAnd => "&&",
        BinaryOp::LogicalOr => "||",
    }
}

/// Names of the entry point's built-in inputs and derived values.
struct Builtins;
impl Builtins {
    const LOCAL_ID: &'static str = "sarek_lid";
    const GROUP_ID: &'static str = "sarek_wid";
    const NUM_GROUPS: &'static str = "sarek_nwg";
    const BLOCK_ID: &'static str = "sarek_bid";
    const GLOBAL_ID: &'static str = "sarek_gid";
    const PARAMS: &'static str = "sarek_params";
    const PARAMS_TYPE: &'static str = "sarek_Params";
    /// The ids a helper that uses them takes as parameters, in order.
    const IDS: [&'static str; 3] = [Self::LOCAL_ID, Self::BLOCK_ID, Self::GLOBAL_ID];
    const SUBGROUP_SIZE: &'static str = "sarek_sgsize";
    const SUBGROUP_ID: &'static str = "sarek_sgid";
}

impl<'a> Writer<'a> {
    pub(super) fn new(prepared: &'a Prepared, abi: &'a Abi) -> Self {
        let kernel = &prepared.kernel;
        let names = names::module(kernel);
        Writer {
            prepared,
            kernel,
            abi,
            local_names: HashMap::new(),
            split: HashMap::new(),
            names,
            locals: &kernel.entry.locals,
            exprs: &kernel.entry.exprs,
            notes: &prepared.entry,
            constant: Vec::new(),
            coop_lets: BTreeSet::new(),
            helpers: BTreeSet::new(),
            needs_ids: invocation::helpers_needing_ids(kernel),
            body: String::new(),
            current: None,
            too_deep: None,
            uniform_flow: kernel.needs_uniform_flow(),
        }
    }

    /// The WGSL name of a local.
    fn local_name(&self, local: Handle<Local>) -> String {
        self.local_names[&local].clone()
    }

    fn type_name(&self, ty: Type) -> String {
        spell(self.kernel, &self.names, ty, false)
    }

    fn scalar_of(&self, h: Handle<Expression>) -> Scalar {
        self.exprs[h].ty.scalar().unwrap_or(Scalar::U32)
    }

    /// The scalar of a scalar or vector expression.
    fn element_of(&self, h: Handle<Expression>) -> Scalar {
        match self.exprs[h].ty {
            Type::Scalar(s) | Type::Vector(_, s) => s,
            _ => Scalar::U32,
        }
    }

    /// Switches to writing `function`'s body, whose locals are named `local_names`.
    fn enter(
        &mut self,
        function: &'a Function,
        notes: &'a Notes,
        local_names: HashMap<Handle<Local>, String>,
    ) {
        self.locals = &function.locals;
        self.exprs = &function.exprs;
        self.notes = notes;
        self.local_names = local_names;
        self.constant = super::constness::of(function);
        self.coop_lets = super::coop_lets::of(&function.body);
        self.split = HashMap::new();
    }

    /// Switches to writing a helper's body or the kernel's entry.
    fn enter_function(&mut self, function: &'a Function, notes: &'a Notes) {
        let local_names = names::locals(&function.locals, &self.names.taken);
        self.enter(function, notes, local_names);
        self.split = scalars::candidates(function, &self.kernel.types);
    }

    /// Prints `body` (a helper's or the entry's) with its local arrays split where
    /// [`scalars`] allows: an array whose name is still in the text is used whole or by a
    /// run-time index, so it is kept whole and the body printed again.
    fn function_body(&mut self, body: &'a Block) {
        let start = self.body.len();
        loop {
            self.block(body, 1);
            let text = &self.body[start..];
            let kept: Vec<Handle<Local>> = self
                .split
                .keys()
                .filter(|l| scalars::mentions(text, &self.local_names[l]))
                .copied()
                .collect();
            if kept.is_empty() {
                return;
            }
            for l in kept {
                self.split.remove(&l);
            }
            self.body.truncate(start);
        }
    }

    /// The element name of `local[index]` when `local` is split and `index` a constant inside
    /// it.
    fn split_element(&self, local: Handle<Local>, index: Handle<Expression>) -> Option<String> {
        let &(_, len) = self.split.get(&local)?;
        if !self.is_const(index) {
            return None;
        }
        let k = match self.exprs[index].kind {
            Expr::Literal(Literal::U32(v)) => v,
            Expr::Literal(Literal::I32(v)) if v >= 0 => v as u32,
            _ => return None,
        };
        (k < len).then(|| scalars::element_name(&self.local_names[&local], k))
    }

    /// The module, and where each entry point's text lies in it.
    /// The module, where each entry point's text lies in it, and the span of the first
    /// statement nested too deeply for naga's parser ([`NAGA_NESTING`]), if any.
    pub(super) fn finish(mut self) -> (String, Vec<super::EntryPointText>, Option<Span>) {
        let kernel = self.kernel;
        let prepared = self.prepared;
        let mut functions = String::new();
        for (i, f) in kernel.functions.iter().enumerate() {
            self.enter_function(f, &prepared.functions[i]);
            self.function_body(&f.body);
            // A helper's matrices are `var`s of its own body, like the entry point's.
            let body = format!(
                "{}{}",
                coop::declarations(&f.body, &self.coop_lets),
                std::mem::take(&mut self.body)
            );
            let mut args: Vec<String> = f
                .args
                .iter()
                .enumerate()
                .map(|(k, t)| format!("{}: {}", internal(&format!("a{k}")), self.type_name(*t)))
                .collect();
            if self.needs_ids[i] {
                for id in Builtins::IDS {
                    args.push(format!("{id}: vec3<u32>"));
                }
            }
            let result = f
                .result
                .map(|t| format!(" -> {}", self.type_name(t)))
                .unwrap_or_default();
            let _ = writeln!(
                functions,
                "fn {}({}){result} {{\n{body}}}\n",
                self.names.functions[i],
                args.join(", ")
            );
        }
        self.enter_function(&kernel.entry, &prepared.entry);
        self.function_body(&kernel.entry.body);
        let coop_vars = coop::declarations(&kernel.entry.body, &self.coop_lets);
        let statements = format!("{coop_vars}{}", std::mem::take(&mut self.body));
        let coarse = prepared
            .coarse
            .as_ref()
            .map(|(coarse, notes)| self.coarse_body(coarse, notes));
        let vec4 = prepared
            .vec4
            .as_ref()
            .map(|(v, notes)| (v, self.vec4_body(v, notes)));

        let mut out = String::new();
        let k = self.kernel;
        let _ = writeln!(
            out,
            "// Generated by Sarek from the Rust kernel `{}`. Do not edit.",
            k.name
        );
        out.push('\n');
        if self
            .abi
            .features
            .contains(&crate::features::Feature::ShaderF16)
        {
            // WGSL's `f16` exists only behind this directive, which precedes every declaration.
            out.push_str("enable f16;\n\n");
        }
        let mut matrices = std::collections::BTreeMap::new();
        for body in
            std::iter::once(&kernel.entry.body).chain(kernel.functions.iter().map(|f| &f.body))
        {
            coop::variables(body, &mut matrices);
        }
        if !matrices.is_empty() {
            out.push_str("enable wgpu_cooperative_matrix;\n\n");
        }
        self.structs(&mut out);
        self.declarations(&mut out);
        for helper in &self.helpers {
            out.push_str(helper.source());
            out.push('\n');
        }
        out.push_str(&functions);
        let mut entries = Vec::new();
        let mut record = |out: &String, name: &str, start: usize| {
            entries.push(super::EntryPointText {
                name: name.to_owned(),
                start,
                end: out.len(),
            })
        };
        let start = out.len();
        self.entry_point(&mut out, &statements, false);
        record(&out, &self.abi.entry_point, start);
        out.push('\n');
        let start = out.len();
        self.entry_point(&mut out, &statements, true);
        record(&out, crate::abi::FOLDED_ENTRY_POINT, start);
        if let Some((coarse, text)) = coarse {
            out.push('\n');
            let start = out.len();
            self.coarse_entry_point(&mut out, coarse, &text);
            record(&out, crate::abi::COARSE_ENTRY_POINT, start);
        }
        if let Some((v, text)) = vec4 {
            out.push('\n');
            let start = out.len();
            self.vec4_entry_point(&mut out, v, &text);
            record(&out, crate::abi::VEC4_ENTRY_POINT, start);
        }
        (out, entries, self.too_deep)
    }

    /// The coarsened body: its loads, then its copies. Copy `k`'s locals are
    /// `sarek_c<k>_<name>` (after the entry's own names), its element index `sarek_id<k>` and
    /// its loaded elements `sarek_p<k>_<param>`.
    fn coarse_body(&mut self, coarse: &'a Coarse, notes: &'a Notes) -> (&'a Coarse, String) {
        self.enter_copies(coarse, notes);
        let mut text = String::new();
        for &load in &coarse.preloads {
            let Role::Preload { copy, slice } = coarse.roles[load.index()] else {
                continue;
            };
            let _ = writeln!(
                text,
                "{INDENT}let {}: {} = {}[{}];",
                self.local_name(load),
                self.type_name(self.locals[load].ty),
                escape(&self.kernel.param(slice).name),
                self.local_name(coarse.threads[copy as usize])
            );
        }
        self.block(&coarse.function.body, 1);
        text.push_str(&std::mem::take(&mut self.body));
        (coarse, text)
    }

    /// Switches to writing the copies of a coarsened or vectorised body: copy `k`'s locals
    /// are `sarek_c<k>_<name>` (after the entry's own names), its element index `sarek_id<k>`,
    /// its loaded elements `sarek_p<k>_<param>`, its staged stores `sarek_s<k>_<param>` and
    /// their flags `sarek_f<k>_<param>`.
    fn enter_copies(&mut self, coarse: &'a Coarse, notes: &'a Notes) {
        let entry_names = names::locals(&self.kernel.entry.locals, &self.names.taken);
        let local_names = coarse
            .function
            .locals
            .iter()
            .map(|(h, _)| {
                let name = match coarse.roles[h.index()] {
                    Role::Copy { copy, of } => format!("c{copy}_{}", entry_names[&of]),
                    Role::Thread { copy } => format!("id{copy}"),
                    Role::Preload { copy, slice } => format!("p{copy}_{}", slice.0),
                    Role::Staged { copy, slice } => format!("s{copy}_{}", slice.0),
                    Role::Stored { copy, slice } => format!("f{copy}_{}", slice.0),
                };
                (h, internal(&name))
            })
            .collect();
        self.enter(&coarse.function, notes, local_names);
    }

    /// One entry point around the body. The direct one takes the block and global ids from
    /// WGSL's built-ins. The folded one serves 1-D grids longer than the per-dimension limit,
    /// which the runtime dispatches as x·y workgroups: it linearises the workgroup id, and the
    /// few surplus workgroups of the last row leave at once (the whole workgroup together, so
    /// barriers stay uniform).
    fn entry_point(&self, out: &mut String, statements: &str, folded: bool) {
        let [x, y, z] = self.kernel.workgroup_size;
        let (lid, wid, nwg, bid, gid, p) = (
            Builtins::LOCAL_ID,
            Builtins::GROUP_ID,
            Builtins::NUM_GROUPS,
            Builtins::BLOCK_ID,
            Builtins::GLOBAL_ID,
            Builtins::PARAMS,
        );
        let _ = writeln!(out, "@compute @workgroup_size({x}, {y}, {z})");
        if folded {
            let _ = writeln!(out, "fn {}(", crate::abi::FOLDED_ENTRY_POINT);
            let _ = writeln!(
                out,
                "{INDENT}@builtin(local_invocation_id) {lid}: vec3<u32>,"
            );
            let _ = writeln!(out, "{INDENT}@builtin(workgroup_id) {wid}: vec3<u32>,");
            let _ = writeln!(out, "{INDENT}@builtin(num_workgroups) {nwg}: vec3<u32>,");
            self.subgroup_inputs(out);
            out.push_str(") {\n");
            let _ = writeln!(
                out,
                "{INDENT}let {bid} = vec3<u32>({wid}.x + {wid}.y * {nwg}.x, 0u, 0u);"
            );
            let _ = writeln!(
                out,
                "{INDENT}if {bid}.x >= {p}.sarek_grid.x {{\n{INDENT}{INDENT}return;\n{INDENT}}}"
            );
            let _ = writeln!(
                out,
                "{INDENT}let {gid} = {bid} * vec3<u32>({x}u, {y}u, {z}u) + {lid};"
            );
        } else {
            let _ = writeln!(out, "fn {}(", self.abi.entry_point);
            let _ = writeln!(
                out,
                "{INDENT}@builtin(local_invocation_id) {lid}: vec3<u32>,"
            );
            let _ = writeln!(out, "{INDENT}@builtin(workgroup_id) {bid}: vec3<u32>,");
            let _ = writeln!(
                out,
                "{INDENT}@builtin(global_invocation_id) {gid}: vec3<u32>,"
            );
            self.subgroup_inputs(out);
            out.push_str(") {\n");
        }
        out.push_str(statements);
        out.push_str("}\n");
    }

    /// The struct types (an enum's tag and payloads are fields too).
    fn structs(&self, out: &mut String) {
        for (i, def) in self.kernel.types.iter().enumerate() {
            let TypeDef::Struct(s) = def else { continue };
            let _ = writeln!(out, "struct {} {{", self.names.types[&i]);
            for f in &s.fields {
                let ty = spell(self.kernel, &self.names, f.ty, true);
                let _ = writeln!(out, "{INDENT}{}: {ty},", field_name(&f.name));
            }
            out.push_str("}\n\n");
        }
    }

    /// The coarsened entry point (see [`crate::passes::coarsen`]): invocation `t` of a
    /// quarter of the grid (folded like any grid) handles `t + k·T`; its loads come first.
    fn coarse_entry_point(&self, out: &mut String, coarse: &Coarse, statements: &str) {
        let [x, _, _] = self.kernel.workgroup_size;
        let factor = coarsen::FACTOR;
        let (lid, wid, nwg, p) = (
            Builtins::LOCAL_ID,
            Builtins::GROUP_ID,
            Builtins::NUM_GROUPS,
            Builtins::PARAMS,
        );
        let _ = writeln!(out, "@compute @workgroup_size({x}, 1, 1)");
        let _ = writeln!(out, "fn {}(", crate::abi::COARSE_ENTRY_POINT);
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
            x / factor
        );
        let _ = writeln!(
            out,
            "{INDENT}if {t} >= {total} {{\n{INDENT}{INDENT}return;\n{INDENT}}}"
        );
        for (k, thread) in coarse.threads.iter().enumerate() {
            let _ = writeln!(
                out,
                "{INDENT}let {} = {t} + {k}u * {total};",
                self.local_name(*thread)
            );
        }
        out.push_str(statements);
        out.push_str("}\n");
    }

    /// The uniform block and the buffer bindings.
    fn declarations(&self, out: &mut String) {
        let _ = writeln!(out, "struct {} {{", Builtins::PARAMS_TYPE);
        for field in self.abi.uniform.fields.iter() {
            let (attrs, ty) = match field.source {
                FieldSource::Grid => (String::new(), "vec3<u32>".to_owned()),
                FieldSource::Length { .. } => (String::new(), "u32".to_owned()),
                // An `f16` keeps the 4-byte slot the ABI gives every scalar.
                FieldSource::Scalar {
                    ty: Scalar::F16, ..
                } => ("@size(4) ".to_owned(), "f16".to_owned()),
                FieldSource::Scalar { ty, .. } => (String::new(), shareable_name(ty).to_owned()),
                FieldSource::Bytes { param, size } => {
                    let ty = match self.kernel.params[param as usize].ty {
                        ParamType::Value(t) => self.type_name(t),
                        _ => internal("unknown"),
                    };
                    // WGSL's uniform rules: a struct member starts and ends on 16 bytes.
                    let slot = crate::layout::round_up(size, 16);
                    if let ParamType::Value(Type::Vector(
                        n,
                        Scalar::F32 | Scalar::I32 | Scalar::U32,
                    )) = self.kernel.params[param as usize].ty
                    {
                        // A vector of 4-byte elements ends its slot with `u32` padding members
                        // rather than `@size`, which naga's GLSL output ignores (the next field
                        // would move up into the slot on wgpu's GL backend).
                        let _ = writeln!(out, "{INDENT}@align(16) {}: {ty},", field.name);
                        for k in 0..(slot - 4 * u32::from(n)) / 4 {
                            let _ = writeln!(out, "{INDENT}sarek_pad_{}_{k}: u32,", field.name);
                        }
                        continue;
                    }
                    (format!("@align(16) @size({slot}) "), ty)
                }
            };
            let _ = writeln!(out, "{INDENT}{attrs}{}: {ty},", field.name);
        }
        out.push_str("}\n\n");
        for buffer in self.abi.buffers.iter() {
            let access = match buffer.access {
                Access::Read => "read",
                Access::ReadWrite => "read_write",
            };
            let elem = &buffer.elem;
            let _ = writeln!(
                out,
                "@group(0) @binding({}) var<storage, {access}> {}: array<{elem}>;",
                buffer.binding, buffer.name,
            );
        }
        self.vec4_declarations(out);
        let _ = writeln!(
            out,
            "@group(0) @binding({}) var<uniform> {}: {};\n",
            self.abi.uniform.binding,
            Builtins::PARAMS,
            Builtins::PARAMS_TYPE
        );
        self.debug_declaration(out);
        let coop = self.kernel.uses_coop();
        for (index, (var, name)) in self
            .kernel
            .shared
            .iter()
            .zip(&self.names.shared)
            .enumerate()
        {
            let mut ty = self.type_name(var.elem);
            if var.atomic {
                // `AtomicF32` in workgroup memory is its bits (see `extensions.rs`).
                if var.elem == Type::Scalar(Scalar::F32) {
                    ty = "u32".to_owned();
                }
                ty = format!("atomic<{ty}>");
            }
            for (level, d) in self
                .kernel
                .declared_dims(var, coop)
                .iter()
                .enumerate()
                .rev()
            {
                ty = match var.sized_by {
                    // Sized at launch: the runtime sets the constant when it makes the pipeline.
                    Some(_) if level == 0 => {
                        let constant = crate::wgsl::abi::launch_length(index);
                        let _ = writeln!(out, "@id({index}) override {constant}: u32;");
                        format!("array<{ty}, {constant}>")
                    }
                    _ => format!("array<{ty}, {d}>"),
                };
            }
            let _ = writeln!(out, "var<workgroup> {name}: {ty};");
        }
        if !self.kernel.shared.is_empty() {
            out.push('\n');
        }
    }
}
