//! What the writer prints for the extensions beyond core WebGPU: subgroup operations (WGSL's
//! `subgroups` extension) and `AtomicF32` in workgroup memory.

use std::fmt::Write as _;

use crate::abi::Feature;
use crate::arena::Handle;
use crate::ir::*;

use super::{Builtins, Writer, INDENT};

impl Writer<'_> {
    /// Whether the module uses subgroups (then its entry points take the subgroup built-ins).
    /// The module has no `enable subgroups;`: naga 30, which wgpu 30 compiles WGSL with,
    /// refuses that directive ("not yet supported") and accepts the built-ins without it,
    /// under the capability the device's `SUBGROUP` feature grants.
    pub(super) fn uses_subgroups(&self) -> bool {
        self.abi.features.contains(&Feature::Subgroup)
    }

    /// The subgroup built-ins as entry-point parameters, where the module uses subgroups.
    pub(super) fn subgroup_inputs(&self, out: &mut String) {
        if self.uses_subgroups() {
            let (size, id) = (Builtins::SUBGROUP_SIZE, Builtins::SUBGROUP_ID);
            let _ = writeln!(out, "{INDENT}@builtin(subgroup_size) {size}: u32,");
            let _ = writeln!(out, "{INDENT}@builtin(subgroup_invocation_id) {id}: u32,");
        }
    }

    /// `let r: T = subgroupAdd(x);` and the other subgroup operations. A broadcast's lane is
    /// a literal (the front end checks it), which WGSL requires to be a const-expression.
    pub(super) fn subgroup(
        &mut self,
        depth: usize,
        op: SubgroupOp,
        args: &[Handle<Expression>],
        result: Handle<Local>,
    ) {
        let args: Vec<String> = args.iter().map(|a| self.expr(*a)).collect();
        let ty = self.type_name(self.locals[result].ty);
        let value = if op == SubgroupOp::Elect {
            // naga 30 has no `subgroupElect`: its definition, the lowest active lane.
            let id = Builtins::SUBGROUP_ID;
            format!("{id} == subgroupBroadcastFirst({id})")
        } else {
            format!("{}({})", op.wgsl_name(), args.join(", "))
        };
        let text = format!("let {}: {ty} = {value};", self.local_name(result));
        self.line(depth, &text);
    }

    /// Whether an atomic operation is on an `AtomicF32` workgroup array, which WGSL cannot
    /// declare (float atomics exist only in storage buffers) and Sarek keeps as `atomic<u32>`
    /// holding the float's bits.
    pub(super) fn shared_float(&self, target: &AtomicTarget) -> bool {
        match target {
            AtomicTarget::Shared { var, .. } => {
                let v = self.kernel.shared_var(*var);
                v.atomic && v.elem == Type::Scalar(Scalar::F32)
            }
            AtomicTarget::Buffer { .. } => false,
        }
    }

    /// An atomic operation on an `AtomicF32` workgroup element (`atomic<u32>` bits): loads,
    /// stores and swaps through `bitcast`, additions through a compare-exchange loop.
    pub(super) fn shared_float_atomic(
        &mut self,
        depth: usize,
        fun: AtomicFun,
        target: &AtomicTarget,
        value: Option<Handle<Expression>>,
        result: Option<Handle<Local>>,
    ) {
        let t = self.atomic_target(target);
        let v = value.map(|v| self.expr(v)).unwrap_or_default();
        let result = result.map(|r| self.local_name(r));
        let bind = |call: String| match &result {
            Some(r) => format!("let {r}: f32 = bitcast<f32>({call});"),
            None => format!("_ = {call};"),
        };
        match fun {
            AtomicFun::Store => self.line(depth, &format!("atomicStore({t}, bitcast<u32>({v}));")),
            AtomicFun::Load => self.line(depth, &bind(format!("atomicLoad({t})"))),
            AtomicFun::Exchange => self.line(
                depth,
                &bind(format!("atomicExchange({t}, bitcast<u32>({v}))")),
            ),
            _ => {
                let op = if fun == AtomicFun::Sub { "-" } else { "+" };
                let old = result.unwrap_or_else(|| "sarek_unused".to_owned());
                self.line(depth, &format!("var {old}: f32;"));
                self.line(depth, "loop {");
                self.line(depth + 1, &format!("let sarek_seen = atomicLoad({t});"));
                self.line(
                    depth + 1,
                    &format!("let sarek_cas = atomicCompareExchangeWeak({t}, sarek_seen, bitcast<u32>(bitcast<f32>(sarek_seen) {op} {v}));"),
                );
                self.line(depth + 1, "if sarek_cas.exchanged {");
                self.line(depth + 2, &format!("{old} = bitcast<f32>(sarek_seen);"));
                self.line(depth + 2, "break;");
                self.line(depth + 1, "}");
                self.line(depth, "}");
            }
        }
    }
}
