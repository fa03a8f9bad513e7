//! Statements, places and the atomics' targets.

use crate::arena::Handle;
use crate::ir::*;

use super::expressions::component;
use super::{binary_token, field_name, Builtins, Writer, INDENT};
use crate::wgsl::escape::escape;

impl Writer<'_> {
    pub(super) fn shared_element(
        &mut self,
        var: SharedId,
        indices: &[Handle<Expression>],
    ) -> String {
        let mut text = self.names.shared[var.0 as usize].clone();
        let dims = self.kernel.shared_var(var).dims.clone();
        for (i, len) in indices.iter().zip(dims) {
            let i = self.index(*i, Some(len));
            text.push_str(&format!("[{i}]"));
        }
        text
    }

    pub(super) fn atomic_target(&mut self, target: &AtomicTarget) -> String {
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

    pub(super) fn line(&mut self, depth: usize, text: &str) {
        // naga counts each enclosing block, the statement, and each parenthesis, call
        // argument list and index of the line.
        let (mut open, mut deepest) = (0usize, 0usize);
        for c in text.bytes() {
            match c {
                b'(' | b'[' => {
                    open += 1;
                    deepest = deepest.max(open);
                }
                b')' | b']' => open = open.saturating_sub(1),
                _ => {}
            }
        }
        if depth + deepest + 2 > super::NAGA_NESTING && self.too_deep.is_none() {
            self.too_deep = Some(self.current.unwrap_or(self.kernel.span));
        }
        for _ in 0..depth {
            self.body.push_str(INDENT);
        }
        self.body.push_str(text);
        self.body.push('\n');
    }

    pub(super) fn block(&mut self, block: &[Statement], depth: usize) {
        for statement in block {
            self.statement(statement, depth);
        }
    }

    pub(super) fn statement(&mut self, statement: &Statement, depth: usize) {
        self.current = Some(statement.span);
        match &statement.kind {
            Stmt::Let { local, .. } if self.notes.forwarded.contains(local) => {}
            Stmt::Let { local, init } if self.split.contains_key(local) => {
                let (elem, len) = self.split[local];
                let name = self.local_name(*local);
                let ty = self.type_name(elem);
                for k in 0..len {
                    let value = match init.map(|h| &self.exprs[h].kind) {
                        Some(Expr::Compose { components, .. }) => self.expr(components[k as usize]),
                        _ => format!("{ty}()"),
                    };
                    let element = super::scalars::element_name(&name, k);
                    self.line(depth, &format!("var {element}: {ty} = {value};"));
                }
            }
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
            Stmt::Barrier(Barrier::Subgroup) => self.line(depth, "subgroupBarrier();"),
            Stmt::Subgroup { op, args, result } => self.subgroup(depth, *op, args, *result),
            Stmt::Coop(op) => self.coop(depth, op),
            Stmt::Atomic {
                fun,
                target,
                value,
                result,
            } if self.shared_float(target) => {
                self.shared_float_atomic(depth, *fun, target, *value, *result)
            }
            Stmt::Debug { site, args } => self.debug_record(depth, *site, args),
            Stmt::UniformLoad {
                var,
                indices,
                result,
            } => {
                let element = self.shared_element(*var, indices);
                let ty = self.type_name(self.locals[*result].ty);
                let name = self.local_name(*result);
                self.line(
                    depth,
                    &format!("let {name}: {ty} = workgroupUniformLoad(&{element});"),
                );
            }
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
                let wide = matches!(
                    target,
                    AtomicTarget::Buffer { slice, .. }
                        if matches!(self.kernel.param(*slice).ty, ParamType::AtomicSlice { elem } if elem.is_wide())
                );
                let text = match result {
                    Some(local) => {
                        let ty = self.type_name(self.locals[*local].ty);
                        format!("let {}: {ty} = {call};", self.local_name(*local))
                    }
                    // A 64-bit `atomicMin`/`atomicMax` without a result must be a call
                    // statement: naga allows only that under `SHADER_INT64_ATOMIC_MIN_MAX`.
                    None if *fun == AtomicFun::Store || wide => format!("{call};"),
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
                let mut args: Vec<String> = args.iter().map(|a| self.expr(*a)).collect();
                if self.needs_ids.get(function.0 as usize) == Some(&true) {
                    args.extend(Builtins::IDS.iter().map(|id| (*id).to_owned()));
                }
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
    pub(super) fn place(&mut self, place: &Place) -> (String, bool) {
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
                if let Place::Local(local) = **base {
                    if let Some(element) = self.split_element(local, *index) {
                        return (element, false);
                    }
                }
                let len = self.array_len(self.place_type(base));
                let (b, _) = self.place(base);
                let i = self.index(*index, len);
                (format!("{b}[{i}]"), false)
            }
        }
    }

    pub(super) fn field(&self, ty: Type, field: u32) -> Option<Field> {
        let Type::Struct(id) = ty else { return None };
        self.kernel
            .struct_def(id)?
            .fields
            .get(field as usize)
            .cloned()
    }

    pub(super) fn place_type(&self, place: &Place) -> Type {
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
