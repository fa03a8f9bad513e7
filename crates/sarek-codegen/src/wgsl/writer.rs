//! Prints a kernel, as the passes left it, as a WGSL module.

use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;

use crate::abi::{Abi, FieldSource};
use crate::arena::{Arena, Handle};
use crate::ir::*;
use crate::passes::coarsen::{self, Coarse, Role};
use crate::passes::{Notes, Prepared};

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
    /// Whether each expression is a WGSL const-expression ([`super::constness`]).
    constant: Vec<bool>,
    helpers: BTreeSet<Helper>,
    body: String,
}

/// The WGSL spelling of a scalar type.
fn scalar_name(s: Scalar) -> &'static str {
    match s {
        Scalar::F32 => "f32",
        Scalar::I32 => "i32",
        Scalar::U32 => "u32",
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
            names,
            locals: &kernel.entry.locals,
            exprs: &kernel.entry.exprs,
            notes: &prepared.entry,
            constant: Vec::new(),
            helpers: BTreeSet::new(),
            body: String::new(),
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
    }

    /// Switches to writing a helper's body or the kernel's entry.
    fn enter_function(&mut self, function: &'a Function, notes: &'a Notes) {
        let local_names = names::locals(&function.locals, &self.names.taken);
        self.enter(function, notes, local_names);
    }

    pub(super) fn finish(mut self) -> String {
        let kernel = self.kernel;
        let prepared = self.prepared;
        let mut functions = String::new();
        for (i, f) in kernel.functions.iter().enumerate() {
            self.enter_function(f, &prepared.functions[i]);
            self.block(&f.body, 1);
            let body = std::mem::take(&mut self.body);
            let args: Vec<String> = f
                .args
                .iter()
                .enumerate()
                .map(|(k, t)| format!("{}: {}", internal(&format!("a{k}")), self.type_name(*t)))
                .collect();
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
        self.block(&kernel.entry.body, 1);
        let statements = std::mem::take(&mut self.body);
        let coarse = prepared
            .coarse
            .as_ref()
            .map(|(coarse, notes)| self.coarse_body(coarse, notes));

        let mut out = String::new();
        let k = self.kernel;
        let _ = writeln!(
            out,
            "// Generated by Sarek from the Rust kernel `{}`. Do not edit.",
            k.name
        );
        out.push('\n');
        self.structs(&mut out);
        self.declarations(&mut out);
        for helper in &self.helpers {
            out.push_str(helper.source());
            out.push('\n');
        }
        out.push_str(&functions);
        self.entry_point(&mut out, &statements, false);
        out.push('\n');
        self.entry_point(&mut out, &statements, true);
        if let Some((coarse, text)) = coarse {
            out.push('\n');
            self.coarse_entry_point(&mut out, coarse, &text);
        }
        out
    }

    /// The coarsened body: its loads, then its copies. Copy `k`'s locals are
    /// `sarek_c<k>_<name>` (after the entry's own names), its element index `sarek_id<k>` and
    /// its loaded elements `sarek_p<k>_<param>`.
    fn coarse_body(&mut self, coarse: &'a Coarse, notes: &'a Notes) -> (&'a Coarse, String) {
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
                };
                (h, internal(&name))
            })
            .collect();
        self.enter(&coarse.function, notes, local_names);
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
                FieldSource::Scalar { ty, .. } => (String::new(), shareable_name(ty).to_owned()),
                FieldSource::Bytes { param, size } => {
                    let ty = match self.kernel.params[param as usize].ty {
                        ParamType::Value(t) => self.type_name(t),
                        _ => internal("unknown"),
                    };
                    // WGSL's uniform rules: a struct member starts and ends on 16 bytes.
                    let slot = crate::layout::round_up(size, 16);
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
        let _ = writeln!(
            out,
            "@group(0) @binding({}) var<uniform> {}: {};\n",
            self.abi.uniform.binding,
            Builtins::PARAMS,
            Builtins::PARAMS_TYPE
        );
        for (var, name) in self.kernel.shared.iter().zip(&self.names.shared) {
            let mut ty = self.type_name(var.elem);
            if var.atomic {
                ty = format!("atomic<{ty}>");
            }
            for d in var.dims.iter().rev() {
                ty = format!("array<{ty}, {d}>");
            }
            let _ = writeln!(out, "var<workgroup> {name}: {ty};");
        }
        if !self.kernel.shared.is_empty() {
            out.push('\n');
        }
    }

    fn shared_element(&mut self, var: SharedId, indices: &[Handle<Expression>]) -> String {
        let mut text = self.names.shared[var.0 as usize].clone();
        let dims = self.kernel.shared_var(var).dims.clone();
        for (i, len) in indices.iter().zip(dims) {
            let i = self.index(*i, Some(len));
            text.push_str(&format!("[{i}]"));
        }
        text
    }

    fn atomic_target(&mut self, target: &AtomicTarget) -> String {
        match target {
            AtomicTarget::Buffer { slice, index } => {
                let i = self.index(*index, None);
                format!("&{}[{i}]", escape(&self.kernel.param(*slice).name))
            }
            AtomicTarget::Shared { var, indices } => {
                format!("&{}", self.shared_element(*var, indices))
            }
        }
    }

    fn line(&mut self, depth: usize, text: &str) {
        for _ in 0..depth {
            self.body.push_str(INDENT);
        }
        self.body.push_str(text);
        self.body.push('\n');
    }

    fn block(&mut self, block: &[Statement], depth: usize) {
        for statement in block {
            self.statement(statement, depth);
        }
    }

    fn statement(&mut self, statement: &Statement, depth: usize) {
        match &statement.kind {
            Stmt::Let { local, .. } if self.notes.forwarded.contains(local) => {}
            Stmt::Let { local, init } => {
                let l = &self.locals[*local];
                let name = self.local_name(*local);
                let ty = self.type_name(l.ty);
                // An array or struct lives in a `var`, so that it can be indexed at run time.
                let mutable = l.mutable || matches!(l.ty, Type::Array(_) | Type::Struct(_));
                let text = match (init, mutable) {
                    (Some(init), false) => format!("let {name}: {ty} = {};", self.expr(*init)),
                    (Some(init), true) => format!("var {name}: {ty} = {};", self.expr(*init)),
                    (None, _) => format!("var {name}: {ty};"),
                };
                self.line(depth, &text);
            }
            Stmt::Assign { place, op, value } => {
                let (target, stored_bool) = self.place(place);
                let mut text = match op {
                    None => self.expr(*value),
                    Some(op) if matches!(self.place_type(place), Type::Vector(..)) => {
                        let r = self.expr(*value);
                        format!("({target} {} {r})", binary_token(*op))
                    }
                    Some(op) => {
                        let left = self.place_type(place).scalar().unwrap_or(Scalar::U32);
                        let read = if stored_bool {
                            format!("({target} != 0u)")
                        } else {
                            target.clone()
                        };
                        self.binary_text(*op, left, read, *value)
                    }
                };
                if stored_bool {
                    text = format!("select(0u, 1u, {text})");
                }
                self.line(depth, &format!("{target} = {text};"));
            }
            Stmt::If {
                cond,
                accept,
                reject,
            } if accept.is_empty() && !reject.is_empty() => {
                let c = self.expr(*cond);
                self.line(depth, &format!("if {c} {{"));
                self.line(depth, "} else {");
                self.block(reject, depth + 1);
                self.line(depth, "}");
            }
            Stmt::If {
                cond,
                accept,
                reject,
            } => {
                let c = self.expr(*cond);
                self.line(depth, &format!("if {c} {{"));
                self.block(accept, depth + 1);
                if reject.is_empty() {
                    self.line(depth, "}");
                } else {
                    self.line(depth, "} else {");
                    self.block(reject, depth + 1);
                    self.line(depth, "}");
                }
            }
            Stmt::Loop {
                body,
                continuing,
                break_if,
            } => {
                // A loop that starts with its exit test: WGSL's own `while` shape.
                if let (Some(cond), true, None) =
                    (while_test(body), continuing.is_empty(), break_if)
                {
                    let c = self.expr(cond);
                    self.line(depth, &format!("while {c} {{"));
                    self.block(&body[1..], depth + 1);
                    self.line(depth, "}");
                    return;
                }
                self.line(depth, "loop {");
                self.block(body, depth + 1);
                if !continuing.is_empty() || break_if.is_some() {
                    self.line(depth + 1, "continuing {");
                    self.block(continuing, depth + 2);
                    if let Some(cond) = break_if {
                        let c = self.expr(*cond);
                        self.line(depth + 2, &format!("break if {c};"));
                    }
                    self.line(depth + 1, "}");
                }
                self.line(depth, "}");
            }
            Stmt::Barrier(Barrier::Workgroup) => self.line(depth, "workgroupBarrier();"),
            Stmt::Barrier(Barrier::Storage) => self.line(depth, "storageBarrier();"),
            Stmt::Atomic {
                fun,
                target,
                value,
                result,
            } => {
                let t = self.atomic_target(target);
                let v = value.map(|v| self.expr(v));
                let name = match fun {
                    AtomicFun::Load => "atomicLoad",
                    AtomicFun::Store => "atomicStore",
                    AtomicFun::Add => "atomicAdd",
                    AtomicFun::Sub => "atomicSub",
                    AtomicFun::Min => "atomicMin",
                    AtomicFun::Max => "atomicMax",
                    AtomicFun::And => "atomicAnd",
                    AtomicFun::Or => "atomicOr",
                    AtomicFun::Xor => "atomicXor",
                    AtomicFun::Exchange => "atomicExchange",
                };
                let call = match v {
                    Some(v) => format!("{name}({t}, {v})"),
                    None => format!("{name}({t})"),
                };
                let text = match result {
                    Some(local) => {
                        let ty = self.type_name(self.locals[*local].ty);
                        format!("let {}: {ty} = {call};", self.local_name(*local))
                    }
                    None if *fun == AtomicFun::Store => format!("{call};"),
                    None => format!("_ = {call};"),
                };
                self.line(depth, &text);
            }
            Stmt::CompareExchange {
                target,
                compare,
                value,
                old,
                exchanged,
            } => {
                let ty = self.type_name(self.locals[*old].ty);
                let (old, exchanged) = (self.local_name(*old), self.local_name(*exchanged));
                self.line(depth, &format!("var {old}: {ty};"));
                self.line(depth, &format!("var {exchanged}: bool;"));
                let t = self.atomic_target(target);
                let (c, v) = (self.expr(*compare), self.expr(*value));
                // WGSL's exchange is weak (it may fail spuriously); Rust's is strong.
                self.line(depth, "loop {");
                self.line(
                    depth + 1,
                    &format!("let sarek_cas = atomicCompareExchangeWeak({t}, {c}, {v});"),
                );
                self.line(
                    depth + 1,
                    &format!("if sarek_cas.exchanged || sarek_cas.old_value != {c} {{"),
                );
                self.line(depth + 2, &format!("{old} = sarek_cas.old_value;"));
                self.line(depth + 2, &format!("{exchanged} = sarek_cas.exchanged;"));
                self.line(depth + 2, "break;");
                self.line(depth + 1, "}");
                self.line(depth, "}");
            }
            Stmt::Break => self.line(depth, "break;"),
            Stmt::Continue => self.line(depth, "continue;"),
            Stmt::Return(None) => self.line(depth, "return;"),
            Stmt::Return(Some(v)) => {
                let v = self.expr(*v);
                self.line(depth, &format!("return {v};"));
            }
            Stmt::Call {
                function,
                args,
                result,
            } => {
                let args: Vec<String> = args.iter().map(|a| self.expr(*a)).collect();
                let call = format!(
                    "{}({})",
                    self.names.functions[function.0 as usize],
                    args.join(", ")
                );
                let text = match result {
                    Some(local) => {
                        let l = &self.locals[*local];
                        let keyword =
                            if l.mutable || matches!(l.ty, Type::Array(_) | Type::Struct(_)) {
                                "var"
                            } else {
                                "let"
                            };
                        let ty = self.type_name(l.ty);
                        format!("{keyword} {}: {ty} = {call};", self.local_name(*local))
                    }
                    None => format!("{call};"),
                };
                self.line(depth, &text);
            }
            Stmt::Switch {
                selector,
                cases,
                default,
            } => {
                let sel = self.expr(*selector);
                // WGSL's `break` inside a `switch` leaves the switch, Rust's leaves the loop:
                // a match that breaks out of a loop is written as an `if` chain.
                let breaks = cases.iter().any(|c| breaks_out(&c.body)) || breaks_out(default);
                if breaks {
                    for (i, case) in cases.iter().enumerate() {
                        let tests: Vec<String> = case
                            .values
                            .iter()
                            .map(|v| format!("{sel} == {}", self.literal(*v)))
                            .collect();
                        let keyword = if i == 0 { "if" } else { "} else if" };
                        self.line(depth, &format!("{keyword} {} {{", tests.join(" || ")));
                        self.block(&case.body, depth + 1);
                    }
                    if cases.is_empty() {
                        self.block(default, depth);
                    } else {
                        self.line(depth, "} else {");
                        self.block(default, depth + 1);
                        self.line(depth, "}");
                    }
                    return;
                }
                self.line(depth, &format!("switch {sel} {{"));
                for case in cases {
                    let values: Vec<String> =
                        case.values.iter().map(|v| self.literal(*v)).collect();
                    self.line(depth + 1, &format!("case {}: {{", values.join(", ")));
                    self.block(&case.body, depth + 2);
                    self.line(depth + 1, "}");
                }
                self.line(depth + 1, "default: {");
                self.block(default, depth + 2);
                self.line(depth + 1, "}");
                self.line(depth, "}");
            }
        }
    }

    /// The place's text, and whether it is a `bool` stored as a `u32` (a struct field).
    fn place(&mut self, place: &Place) -> (String, bool) {
        match place {
            Place::Local(local) => (self.local_name(*local), false),
            Place::Index { slice, index } => {
                let i = self.index(*index, None);
                (
                    format!("{}[{i}]", escape(&self.kernel.param(*slice).name)),
                    false,
                )
            }
            Place::Shared { var, indices } => (self.shared_element(*var, indices), false),
            Place::Field { base, field } => {
                let (b, _) = self.place(base);
                let ty = self.place_type(base);
                if let Type::Vector(..) = ty {
                    return (format!("{b}.{}", component(*field)), false);
                }
                let f = self.field(ty, *field);
                let stored_bool = f
                    .as_ref()
                    .is_some_and(|f| f.ty == Type::Scalar(Scalar::Bool));
                let name = f.map(|f| field_name(&f.name)).unwrap_or_default();
                (format!("{b}.{name}"), stored_bool)
            }
            Place::Element { base, index } => {
                let len = self.array_len(self.place_type(base));
                let (b, _) = self.place(base);
                let i = self.index(*index, len);
                (format!("{b}[{i}]"), false)
            }
        }
    }

    fn field(&self, ty: Type, field: u32) -> Option<Field> {
        let Type::Struct(id) = ty else { return None };
        self.kernel
            .struct_def(id)?
            .fields
            .get(field as usize)
            .cloned()
    }

    fn place_type(&self, place: &Place) -> Type {
        match place {
            Place::Local(local) => self.locals[*local].ty,
            Place::Index { slice, .. } => self
                .kernel
                .param(*slice)
                .ty
                .buffer()
                .map_or(Type::Scalar(Scalar::U32), |b| b.0),
            Place::Shared { var, .. } => self.kernel.shared_var(*var).elem,
            Place::Field { base, field } => {
                let ty = self.place_type(base);
                self.field(ty, *field)
                    .map_or(Type::Scalar(Scalar::U32), |f| f.ty)
            }
            Place::Element { base, .. } => match self.place_type(base) {
                Type::Array(id) => {
                    array_def(&self.kernel.types, id).map_or(Type::Scalar(Scalar::U32), |a| a.0)
                }
                other => other,
            },
        }
    }

    fn literal(&mut self, literal: Literal) -> String {
        match literal {
            Literal::Bool(b) => b.to_string(),
            Literal::U32(v) => format!("{v}u"),
            Literal::I32(i32::MIN) => "i32(-2147483648)".to_owned(),
            Literal::I32(v) => format!("{v}i"),
            Literal::F32(v) if v.is_finite() => {
                // `{:?}` prints the shortest text that reads back to the same f32.
                let text = format!("{v:?}");
                format!("{text}f")
            }
            Literal::F32(v) => {
                self.helpers.insert(Helper::FromBits);
                format!("{}({:#010x}u)", Helper::FromBits.name(), v.to_bits())
            }
        }
    }

    fn builtin(&self, builtin: Builtin) -> String {
        let p = Builtins::PARAMS;
        match builtin {
            Builtin::ThreadIdx(a) => format!("{}.{}", Builtins::LOCAL_ID, a.letter()),
            Builtin::BlockIdx(a) => format!("{}.{}", Builtins::BLOCK_ID, a.letter()),
            Builtin::BlockDim(a) => format!("{}u", self.kernel.workgroup_size[a.index()]),
            Builtin::GridDim(a) => format!("{p}.sarek_grid.{}", a.letter()),
            Builtin::GlobalIdx(a) => format!("{}.{}", Builtins::GLOBAL_ID, a.letter()),
            Builtin::GlobalThreadId => {
                let [wx, wy, _] = self.kernel.workgroup_size;
                let gid = Builtins::GLOBAL_ID;
                format!(
                    "({gid}.x + ({gid}.y + {gid}.z * ({p}.sarek_grid.y * {wy}u)) * ({p}.sarek_grid.x * {wx}u))"
                )
            }
        }
    }

    fn expr(&mut self, handle: Handle<Expression>) -> String {
        let kernel = self.kernel;
        let node = &self.exprs[handle];
        match &node.kind {
            Expr::Literal(l) => self.literal(*l),
            Expr::Param(id) => {
                let param = kernel.param(*id);
                let field = format!("{}.{}", Builtins::PARAMS, escape(&param.name));
                match param.ty {
                    ParamType::Value(Type::Scalar(Scalar::Bool)) => format!("({field} != 0u)"),
                    _ => field,
                }
            }
            Expr::Local(local) => self.local_name(*local),
            Expr::Len(id) => format!(
                "{}.{}",
                Builtins::PARAMS,
                crate::abi::length_field(id.0 as usize)
            ),
            Expr::Index { slice, index } => {
                let i = self.index(*index, None);
                format!("{}[{i}]", escape(&kernel.param(*slice).name))
            }
            Expr::Unary { op, expr } => {
                let mut e = self.expr(*expr);
                match (op, self.element_of(*expr)) {
                    // WGSL has no `-` on unsigned integers: `wrapping_neg` is `0 - x` (kept
                    // out of constant evaluation, which refuses the wrap).
                    (UnaryOp::Neg, Scalar::U32) => {
                        if self.is_const(*expr) {
                            e = self.opaque_any(self.exprs[*expr].ty, e);
                        }
                        match self.exprs[*expr].ty {
                            Type::Vector(n, _) => format!("(vec{n}<u32>() - {e})"),
                            _ => format!("(0u - {e})"),
                        }
                    }
                    // A space: `--x` would be a decrement to the WGSL parser.
                    (UnaryOp::Neg, _) => format!("(- {e})"),
                    (UnaryOp::Not, Scalar::Bool) => format!("(!{e})"),
                    (UnaryOp::Not, _) => format!("(~{e})"),
                }
            }
            Expr::Binary { op, left, right }
                if matches!(self.exprs[*left].ty, Type::Vector(..))
                    || matches!(self.exprs[*right].ty, Type::Vector(..)) =>
            {
                let (mut l, r) = (self.expr(*left), self.expr(*right));
                if self.is_const(*left) && self.is_const(*right) {
                    // As for scalars: naga refuses a constant that overflows.
                    l = self.opaque_any(self.exprs[*left].ty, l);
                }
                let element = self.element_of(*left);
                if matches!(op, BinaryOp::Div | BinaryOp::Rem) && element.is_integer() {
                    return self.vector_division(*op, element, *left, *right, l, r);
                }
                match op {
                    BinaryOp::Eq => format!("all({l} == {r})"),
                    // naga's SPIR-V writes float `!=` as an ordered comparison, false for NaN;
                    // Rust's `!=` is true for NaN: negate `==` instead.
                    BinaryOp::Ne if self.element_of(*left) == Scalar::F32 => {
                        format!("(!all({l} == {r}))")
                    }
                    BinaryOp::Ne => format!("any({l} != {r})"),
                    _ => format!("({l} {} {r})", binary_token(*op)),
                }
            }
            Expr::Binary { op, left, right } => {
                let ty = self.scalar_of(*left);
                let mut l = self.expr(*left);
                // (An integer `/` or `%` goes through a helper call, never a constant.)
                let may_overflow = match op {
                    BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Shl => true,
                    BinaryOp::Div | BinaryOp::Rem => !ty.is_integer(),
                    _ => false,
                };
                if may_overflow && self.is_const(*left) && self.is_const(*right) {
                    l = self.opaque(ty, l);
                }
                self.binary_text(*op, ty, l, *right)
            }
            Expr::Select {
                cond,
                accept,
                reject,
            } => {
                let (c, a, r) = (self.expr(*cond), self.expr(*accept), self.expr(*reject));
                format!("select({r}, {a}, {c})")
            }
            Expr::Cast { expr, to } => {
                let from = self.scalar_of(*expr);
                let e = self.expr(*expr);
                self.cast(e, from, *to)
            }
            Expr::SharedIndex { var, indices } => self.shared_element(*var, indices),
            Expr::Builtin(b) => self.builtin(*b),
            Expr::Math { fun, args } => {
                let arg_ty = args.first().map(|a| self.exprs[*a].ty);
                // naga evaluates a builtin on constants when the shader is created and refuses
                // a non-finite or out-of-domain result (`normalize` of zero, `log(0)`), which
                // the run time defines: keep such a call a run-time one.
                let const_args: Vec<bool> = args.iter().map(|a| self.is_const(*a)).collect();
                let handles = args.clone();
                let mut args: Vec<String> = args.iter().map(|a| self.expr(*a)).collect();
                if const_args.iter().all(|c| *c) {
                    if let (Some(first), Some(text)) = (handles.first(), args.first().cloned()) {
                        args[0] = self.opaque_any(self.exprs[*first].ty, text);
                    }
                }
                // A constant divisor may be zero, which naga refuses to evaluate.
                if *fun == MathFun::RemEuclid && const_args.get(1) == Some(&true) {
                    if let (Some(d), Some(text)) = (handles.get(1), args.get(1).cloned()) {
                        args[1] = self.opaque_any(self.exprs[*d].ty, text);
                    }
                }
                if let Some(text) = self.polyfill(*fun, arg_ty, &args) {
                    return text;
                }
                let name = match fun {
                    MathFun::Abs => "abs",
                    MathFun::Min => "min",
                    MathFun::Max => "max",
                    MathFun::Sqrt => "sqrt",
                    MathFun::Sin => "sin",
                    MathFun::Cos => "cos",
                    MathFun::Tan => "tan",
                    MathFun::Exp => "exp",
                    MathFun::Ln => "log",
                    MathFun::Powf => "pow",
                    MathFun::Floor => "floor",
                    MathFun::Ceil => "ceil",
                    MathFun::Trunc => "trunc",
                    MathFun::MulAdd => "fma",
                    MathFun::Dot => "dot",
                    MathFun::Cross => "cross",
                    MathFun::Length => "length",
                    MathFun::Normalize => "normalize",
                    MathFun::Distance => "distance",
                    MathFun::LengthSquared => {
                        return format!("dot({0}, {0})", args[0]);
                    }
                    MathFun::Round => {
                        self.helpers.insert(Helper::Round);
                        Helper::Round.name()
                    }
                    // Handled by `polyfill` above.
                    _ => "",
                };
                format!("{name}({})", args.join(", "))
            }
            Expr::Field { base, field } => {
                let ty = self.exprs[*base].ty;
                let b = self.expr(*base);
                if let Type::Vector(..) = ty {
                    return format!("{b}.{}", component(*field));
                }
                match self.field(ty, *field) {
                    Some(f) if f.ty == Type::Scalar(Scalar::Bool) => {
                        format!("({b}.{} != 0u)", field_name(&f.name))
                    }
                    Some(f) => format!("{b}.{}", field_name(&f.name)),
                    None => b,
                }
            }
            Expr::Access { base, index } => {
                let len = self.array_len(self.exprs[*base].ty);
                let b = self.expr(*base);
                let i = self.index(*index, len);
                format!("{b}[{i}]")
            }
            Expr::Compose { ty, components } => {
                let stored_bool: Vec<bool> = match ty {
                    Type::Struct(id) => self
                        .kernel
                        .struct_def(*id)
                        .map(|s| {
                            s.fields
                                .iter()
                                .map(|f| f.ty == Type::Scalar(Scalar::Bool))
                                .collect()
                        })
                        .unwrap_or_default(),
                    _ => Vec::new(),
                };
                let parts: Vec<String> = components
                    .iter()
                    .enumerate()
                    .map(|(i, c)| {
                        let text = self.expr(*c);
                        if stored_bool.get(i).copied().unwrap_or(false) {
                            format!("select(0u, 1u, {text})")
                        } else {
                            text
                        }
                    })
                    .collect();
                format!("{}({})", self.type_name(*ty), parts.join(", "))
            }
            Expr::Zero(ty) => format!("{}()", self.type_name(*ty)),
            Expr::Argument(n) => internal(&format!("a{n}")),
        }
    }

    /// Inserts `helper` (and what it calls) into the module; returns its name.
    fn use_helper(&mut self, helper: Helper) -> &'static str {
        if self.helpers.insert(helper) {
            for h in helper.needs() {
                self.use_helper(*h);
            }
        }
        helper.name()
    }

    /// The WGSL of a math function that is not a single WGSL builtin of the same name, if
    /// `fun` is one.
    fn polyfill(&mut self, fun: MathFun, ty: Option<Type>, args: &[String]) -> Option<String> {
        let scalar = ty.and_then(Type::scalar).unwrap_or(Scalar::F32);
        let call = |name: &str| format!("{name}({})", args.join(", "));
        Some(match (fun, scalar) {
            (MathFun::Log10, _) => call(self.use_helper(Helper::Log10)),
            (MathFun::Log2, _) => call(self.use_helper(Helper::Log2)),
            (MathFun::Atan2, _) => call(self.use_helper(Helper::Atan2)),
            (MathFun::Cbrt, _) => call(self.use_helper(Helper::Cbrt)),
            (MathFun::Hypot, _) => call(self.use_helper(Helper::Hypot)),
            (MathFun::ExpM1, _) => call(self.use_helper(Helper::ExpM1)),
            (MathFun::Ln1p, _) => call(self.use_helper(Helper::Ln1p)),
            (MathFun::Copysign, _) => call(self.use_helper(Helper::Copysign)),
            (MathFun::Signum, _) => call(self.use_helper(Helper::Signum)),
            (MathFun::Tanh, _) => call(self.use_helper(Helper::Tanh)),
            (MathFun::Asinh, _) => call(self.use_helper(Helper::Asinh)),
            (MathFun::Acosh, _) => call(self.use_helper(Helper::Acosh)),
            (MathFun::Atanh, _) => call(self.use_helper(Helper::Atanh)),
            (MathFun::RemEuclid, Scalar::F32) => call(self.use_helper(Helper::RemEuclidF32)),
            (MathFun::RemEuclid, Scalar::I32) => call(self.use_helper(Helper::RemEuclidI32)),
            (MathFun::RemEuclid, _) => call(self.use_helper(Helper::RemU32)),
            (MathFun::Clamp, Scalar::F32) => call(self.use_helper(Helper::ClampF32)),
            (MathFun::Clamp, _) => call("clamp"),
            (MathFun::Pow, Scalar::I32) => call(self.use_helper(Helper::PowI32)),
            (MathFun::Pow, _) => call(self.use_helper(Helper::PowU32)),
            (MathFun::Recip, _) => format!("(1.0f / {})", args[0]),
            // Rust's own constants, rounded to f32 as Rust rounds them.
            (MathFun::ToDegrees, _) => {
                format!("({} * {:?}f)", args[0], 57.295_78_f32)
            }
            (MathFun::ToRadians, _) => {
                format!("({} * {:?}f)", args[0], std::f32::consts::PI / 180.0)
            }
            (MathFun::CountOnes | MathFun::LeadingZeros | MathFun::TrailingZeros, _) => {
                let name = match fun {
                    MathFun::CountOnes => "countOneBits",
                    MathFun::LeadingZeros => "countLeadingZeros",
                    _ => "countTrailingZeros",
                };
                // The count of an `i32` is an `i32` in WGSL, a `u32` in Rust.
                match scalar {
                    Scalar::I32 => format!("bitcast<u32>({})", call(name)),
                    _ => call(name),
                }
            }
            _ => return None,
        })
    }

    /// Whether WGSL evaluates `h` at shader-creation time ([`super::constness`]).
    fn is_const(&self, h: Handle<Expression>) -> bool {
        self.constant.get(h.index()).copied().unwrap_or(false)
    }

    /// An index: a constant one outside the array (or, into a buffer, beyond `i32`), which
    /// naga refuses when the shader is created, is kept a run-time value (WebGPU then clamps
    /// or drops the access, as for any out-of-bounds index).
    fn index(&mut self, index: Handle<Expression>, len: Option<u32>) -> String {
        let text = self.expr(index);
        if !self.is_const(index) {
            return text;
        }
        let value = match self.exprs[index].kind {
            Expr::Literal(l) => Some(l),
            _ => None,
        };
        let in_range = match (value, len) {
            (Some(Literal::U32(v)), Some(len)) => v < len,
            (Some(Literal::I32(v)), Some(len)) => v >= 0 && (v as u32) < len,
            (Some(Literal::U32(v)), None) => v <= i32::MAX as u32,
            (Some(Literal::I32(v)), None) => v >= 0,
            _ => false,
        };
        if in_range {
            text
        } else {
            let ty = self.scalar_of(index);
            self.opaque(ty, text)
        }
    }

    /// The length of an array type.
    fn array_len(&self, ty: Type) -> Option<u32> {
        match ty {
            Type::Array(id) => array_def(&self.kernel.types, id).map(|a| a.1),
            _ => None,
        }
    }

    /// [`Self::opaque`] for a scalar or a vector (a vector times an opaque 1, which is exact).
    fn opaque_any(&mut self, ty: Type, text: String) -> String {
        match ty {
            Type::Scalar(s) => self.opaque(s, text),
            Type::Vector(_, s) => {
                let one = match s {
                    Scalar::F32 => "1.0f",
                    Scalar::I32 => "1i",
                    _ => "1u",
                };
                let one = self.opaque(s, one.to_owned());
                format!("({text} * {one})")
            }
            _ => text,
        }
    }

    /// `text` passed through an identity function, so WGSL evaluates it at run time.
    fn opaque(&mut self, ty: Scalar, text: String) -> String {
        let helper = match ty {
            Scalar::F32 => Helper::OpaqueF32,
            Scalar::I32 => Helper::OpaqueI32,
            Scalar::U32 | Scalar::Bool => Helper::OpaqueU32,
        };
        self.helpers.insert(helper);
        format!("{}({text})", helper.name())
    }

    /// Integer `l / r` or `l % r` on vectors (or a vector and a scalar), with the divisor made
    /// safe per component as in [`Helper::DivI32`].
    fn vector_division(
        &self,
        op: BinaryOp,
        element: Scalar,
        left: Handle<Expression>,
        right: Handle<Expression>,
        l: String,
        r: String,
    ) -> String {
        let n = match (self.exprs[left].ty, self.exprs[right].ty) {
            (Type::Vector(n, _), _) | (_, Type::Vector(n, _)) => n,
            _ => 1,
        };
        let t = format!("vec{n}<{}>", scalar_name(element));
        let splat = |h: Handle<Expression>, text: &str| match self.exprs[h].ty {
            Type::Vector(..) => text.to_owned(),
            _ => format!("{t}({text})"),
        };
        let (l, r) = (splat(left, &l), splat(right, &r));
        let unsafe_divisor = match element {
            Scalar::I32 => {
                format!("(({r} == {t}()) | (({l} == {t}(i32(-2147483648))) & ({r} == {t}(-1i))))")
            }
            _ => format!("({r} == {t}())"),
        };
        let one = if element == Scalar::I32 { "1i" } else { "1u" };
        format!(
            "({l} {} select({r}, {t}({one}), {unsafe_divisor}))",
            binary_token(op)
        )
    }

    /// `left op right`, where `left` is already printed and has type `ty`.
    fn binary_text(
        &mut self,
        op: BinaryOp,
        ty: Scalar,
        left: String,
        right: Handle<Expression>,
    ) -> String {
        let right_ty = self.scalar_of(right);
        let r = self.expr(right);
        // (A divisor that constant evaluation computed stays guarded: see `Notes`.)
        let safe_divisor = !self.notes.evaluated.contains(&right)
            && (matches!(
                self.exprs[right].kind,
                Expr::Literal(Literal::I32(d)) if d != 0 && d != -1
            ) || matches!(self.exprs[right].kind, Expr::Literal(Literal::U32(d)) if d != 0));
        if matches!(op, BinaryOp::Div | BinaryOp::Rem) && ty.is_integer() && !safe_divisor {
            // WGSL's defined results on every wgpu backend (a function call is also never a
            // constant expression, which naga would refuse for a zero divisor).
            let helper = match (op, ty) {
                (BinaryOp::Div, Scalar::I32) => Helper::DivI32,
                (BinaryOp::Rem, Scalar::I32) => Helper::RemI32,
                (BinaryOp::Div, _) => Helper::DivU32,
                _ => Helper::RemU32,
            };
            return format!("{}({left}, {r})", self.use_helper(helper));
        }
        match (op, ty) {
            (BinaryOp::Rem, Scalar::F32) => {
                format!("{}({left}, {r})", self.use_helper(Helper::Fmod))
            }
            (BinaryOp::Shl | BinaryOp::Shr, _) => {
                // WGSL wants a u32 amount; Rust's wrapping shifts use its low five bits.
                let amount = match right_ty {
                    Scalar::U32 => format!("({r} & 31u)"),
                    _ => format!("(bitcast<u32>({r}) & 31u)"),
                };
                format!("({left} {} {amount})", binary_token(op))
            }
            (BinaryOp::BitXor, Scalar::Bool) => format!("({left} != {r})"),
            // As for vectors: `NaN != x` must be true, which naga's SPIR-V `!=` is not.
            (BinaryOp::Ne, Scalar::F32) => format!("(!({left} == {r}))"),
            _ => format!("({left} {} {r})", binary_token(op)),
        }
    }

    fn cast(&mut self, e: String, from: Scalar, to: Scalar) -> String {
        use Scalar::*;
        match (from, to) {
            _ if from == to => e,
            (F32, I32) => {
                self.helpers.insert(Helper::F32ToI32);
                format!("{}({e})", Helper::F32ToI32.name())
            }
            (F32, U32) => {
                self.helpers.insert(Helper::F32ToU32);
                format!("{}({e})", Helper::F32ToU32.name())
            }
            (I32, U32) | (U32, I32) => format!("bitcast<{}>({e})", scalar_name(to)),
            (Bool, F32) => format!("select(0.0f, 1.0f, {e})"),
            (_, Bool) => format!("({e} != {}(0))", scalar_name(from)),
            _ => format!("{}({e})", scalar_name(to)),
        }
    }
}

/// The condition of a loop body that starts with `if cond {} else { break; }`.
fn while_test(body: &Block) -> Option<Handle<Expression>> {
    match body.first().map(|s| &s.kind) {
        Some(Stmt::If {
            cond,
            accept,
            reject,
        }) if accept.is_empty()
            && matches!(
                reject.as_slice(),
                [Statement {
                    kind: Stmt::Break,
                    ..
                }]
            ) =>
        {
            Some(*cond)
        }
        _ => None,
    }
}

/// Whether a `break` in `block` would leave a loop around it (not one inside it).
fn breaks_out(block: &Block) -> bool {
    block.iter().any(|s| match &s.kind {
        Stmt::Break => true,
        Stmt::If { accept, reject, .. } => breaks_out(accept) || breaks_out(reject),
        Stmt::Switch { cases, default, .. } => {
            cases.iter().any(|c| breaks_out(&c.body)) || breaks_out(default)
        }
        _ => false,
    })
}

/// The WGSL name of vector component `i`.
fn component(i: u32) -> &'static str {
    ["x", "y", "z", "w"].get(i as usize).copied().unwrap_or("x")
}
