//! Collectives: subgroup operations and cooperative-matrix operations, which the
//! interpreter runs in lockstep over a subgroup ([`crate::interp::subgroup`],
//! [`crate::interp::coop`]).
//!
//! The uniformity check keeps each of them in workgroup-uniform control flow, as it keeps
//! barriers, and the split of a kernel at barriers ([`super::region`]) splits at them too.
//! A collective is generated as three steps at workgroup level: a loop over the invocations
//! (skipping those that returned) puts each one's arguments in its slot of the collective
//! area ([`SLOT_WORDS`] words per invocation, `Ctx::collective`); one call of a Rust
//! function ([`super::native::collective`], then [`run`]) computes every subgroup's
//! results from the slots, with the interpreter's own code for the meaning (subgroups of
//! `Launch::subgroup_size` consecutive invocations in `local_invocation_index` order, the
//! last one partial, lane `i % size`); a second loop gives each invocation its result.
//! Cooperative matrices live in the worker's [`Matrices`] (one per variable and subgroup,
//! zeroed for each workgroup), and each operation runs once per subgroup in that call.

mod coop;
mod subgroup;
#[cfg(test)]
mod tests;

use std::collections::BTreeSet;

use cranelift_codegen::ir::{types, AbiParam, InstBuilder, Signature, Value};

use super::gen::{movable, Cg, Gen};
use super::Unsupported;
use crate::arena::Handle;
use crate::ir::{
    Builtin, CoopMatrix, CoopMemory, CoopOp, Expression, Kernel, Local, Scalar, Statement, Stmt,
    SubgroupOp, Type,
};

pub(super) use coop::Matrices;

/// Words of an invocation's slot in the collective area: two arguments of up to four
/// words, then the result; or a cooperative-matrix statement's offset, stride and element
/// indices, one word each four words apart (at most four, a `multiply_add`'s).
pub(super) const SLOT_WORDS: u32 = 16;

/// Where the result is in a slot.
const RESULT_AT: u32 = 8;

/// Words of one argument in a slot.
const ARG_WORDS: u32 = 4;

/// One collective statement of a kernel, as the Rust side runs it. Owned by the compiled
/// kernel, whose code passes its address.
#[derive(Debug)]
pub(super) struct Desc {
    /// Invocations of a workgroup.
    pub invocations: u32,
    /// Kernel parameters.
    pub params: u32,
    /// Words of workgroup memory.
    pub shared_words: u32,
    /// The operation.
    pub what: What,
}

/// A collective's operation.
#[derive(Debug)]
pub(super) enum What {
    /// A subgroup operation on arguments of these types.
    Subgroup { op: SubgroupOp, args: Vec<Type> },
    /// A cooperative-matrix operation; `slots` are [`CoopOp::matrices`]'s slots in
    /// [`Matrices`], `memory` where a load or store goes.
    Coop {
        op: CoopOp,
        slots: Vec<usize>,
        memory: Option<coop::Memory>,
    },
}

/// What the Rust side of a collective sees of the workgroup (made by
/// [`super::native::collective`]).
pub(super) struct View<'v> {
    /// `Launch::subgroup_size`, at least 1.
    pub subgroup_size: usize,
    /// The collective area, [`SLOT_WORDS`] words per invocation.
    pub area: &'v mut [u32],
    /// Per invocation, non-zero once it has returned.
    pub returned: &'v [u8],
    /// Workgroup memory.
    pub shared: &'v mut [u32],
    /// Per kernel parameter, its buffer's words.
    pub buffers: Vec<&'v [std::sync::atomic::AtomicU32]>,
    /// Per kernel parameter, `len()`.
    pub lens: &'v [u32],
    /// The workgroup's cooperative matrices.
    pub matrices: &'v mut Matrices,
}

impl View<'_> {
    /// How many subgroups the workgroup has.
    fn subgroup_count(&self) -> usize {
        self.returned.len().div_ceil(self.subgroup_size)
    }

    /// Subgroup `g`'s active invocations (those that have not returned), in order, into
    /// `active` (cleared first, so one list serves every subgroup of a call).
    fn active_in(&self, g: usize, active: &mut Vec<usize>) {
        let (size, n) = (self.subgroup_size, self.returned.len());
        active.clear();
        active.extend((g * size..((g + 1) * size).min(n)).filter(|&i| self.returned[i] == 0));
    }

    /// Each subgroup's active invocations, in order; a subgroup with none is left out.
    fn subgroups(&self) -> Vec<(usize, Vec<usize>)> {
        (0..self.subgroup_count())
            .map(|g| {
                let mut active = Vec::new();
                self.active_in(g, &mut active);
                (g, active)
            })
            .filter(|(_, a)| !a.is_empty())
            .collect()
    }

    /// Word `w` of argument `a` of invocation `i`.
    fn arg(&self, i: usize, a: u32, w: u32) -> u32 {
        self.area[i * SLOT_WORDS as usize + (a * ARG_WORDS + w) as usize]
    }
}

/// Runs collective `desc` over a workgroup.
pub(super) fn run(desc: &Desc, mut view: View<'_>) {
    match &desc.what {
        What::Subgroup { op, args } => subgroup::run(*op, args, &mut view),
        What::Coop { op, slots, memory } => coop::run(op, slots, memory.as_ref(), &mut view),
    }
}

/// Every cooperative-matrix variable of `k`, by number: its slot in [`Matrices`] is its
/// position here.
pub(super) fn coop_matrices(k: &Kernel) -> Vec<CoopMatrix> {
    let mut all: Vec<CoopMatrix> = Vec::new();
    crate::ir::visit(&k.entry.body, &mut |s| {
        if let Stmt::Coop(op) = &s.kind {
            all.extend(op.matrices().into_iter().map(CoopMatrix::var));
        }
    });
    all.sort_by_key(|m| m.id);
    all.dedup_by_key(|m| m.id);
    all
}

impl<'a> Cg<'a, '_> {
    /// `subgroup_size()` and `subgroup_invocation_id()` of the current invocation.
    pub(super) fn subgroup_builtin(&mut self, b: Builtin) -> Gen<Value> {
        let off = std::mem::offset_of!(super::native::Ctx, subgroup_size) as i32;
        let size = self.b.ins().load(types::I32, movable(), self.c.ctx, off);
        Ok(match b {
            Builtin::SubgroupSize => size,
            // The host makes the size at least 1.
            Builtin::SubgroupInvocationId => self.b.ins().urem(self.invocation, size),
            other => return Err(Unsupported(format!("the builtin {other:?}"))),
        })
    }

    /// A collective statement (`Stmt::Subgroup`, `Stmt::Coop`) at workgroup level.
    pub(super) fn collective_statement(&mut self, s: &'a Statement) -> Gen<()> {
        match &s.kind {
            Stmt::Subgroup { op, args, result } => {
                let f = self.acts[0].f;
                let types: Vec<Type> = args.iter().map(|a| f.exprs[*a].ty).collect();
                let result_ty = f.locals[*result].ty;
                for ty in types.iter().chain([&result_ty]) {
                    match ty {
                        // Kept in the slots as the JIT keeps scalars and vectors in memory
                        // (halves two to a word).
                        Type::Scalar(_) | Type::Vector(..) => {}
                        other => {
                            return Err(Unsupported(format!("a subgroup operation on {other:?}")))
                        }
                    }
                }
                self.put_args(args)?;
                self.call_collective(What::Subgroup {
                    op: *op,
                    args: types,
                });
                self.take_result(*result)
            }
            Stmt::Coop(op) => {
                let all = coop_matrices(self.k);
                let slots = op
                    .matrices()
                    .iter()
                    .map(|m| all.iter().position(|x| x.id == m.id).unwrap_or(0))
                    .collect();
                let memory = match op {
                    CoopOp::Load { memory, .. } | CoopOp::Store { memory, .. } => {
                        Some(self.coop_memory(*memory)?)
                    }
                    CoopOp::Zero { .. } | CoopOp::MultiplyAdd { .. } => None,
                };
                let exprs = op.exprs();
                if !exprs.is_empty() {
                    self.put_args(&exprs)?;
                }
                self.call_collective(What::Coop {
                    op: op.clone(),
                    slots,
                    memory,
                });
                Ok(())
            }
            other => Err(Unsupported(format!("a collective {other:?}"))),
        }
    }

    /// Where a cooperative-matrix load or store goes.
    fn coop_memory(&self, memory: CoopMemory) -> Gen<coop::Memory> {
        let (place, elem, len) = match memory {
            CoopMemory::Buffer(p) => {
                let elem = self.k.params[p.0 as usize]
                    .ty
                    .buffer()
                    .map(|b| b.0)
                    .ok_or_else(|| Unsupported("a matrix in a value parameter".into()))?;
                (coop::Place::Buffer(p.0 as usize), elem, None)
            }
            CoopMemory::Shared(v) => {
                let var = self.k.shared_var(v);
                let len: u64 = var.dims.iter().map(|&d| u64::from(d)).product();
                let word = self.shared_words[v.0 as usize];
                (coop::Place::Shared(word), var.elem, Some(len))
            }
        };
        let (scalar, lanes) = match elem {
            Type::Vector(lanes @ (2 | 4), s) => (s, u32::from(lanes)),
            Type::Scalar(s) => (s, 1),
            other => return Err(Unsupported(format!("a matrix in memory of {other:?}"))),
        };
        Ok(coop::Memory {
            place,
            half: scalar == Scalar::F16,
            lanes,
            len: len.map(|l| l * u64::from(lanes)),
        })
    }

    /// The entry locals an expression reads that a segment loads from the frame.
    fn framed_reads(&self, exprs: &[Handle<Expression>]) -> BTreeSet<usize> {
        let mut named = BTreeSet::new();
        for h in exprs {
            super::region::expr_locals(self.acts[0].f, *h, &mut named);
        }
        named
            .into_iter()
            .filter(|l| !self.plan.private.contains(l) && !self.plan.uniform.contains(l))
            .collect()
    }

    /// The address of word `at` of the current invocation's slot.
    fn slot_word(&mut self, at: u32) -> Value {
        let off = std::mem::offset_of!(super::native::Ctx, collective) as i32;
        let area = self.b.ins().load(types::I64, movable(), self.c.ctx, off);
        let wide = self.b.ins().uextend(types::I64, self.invocation);
        let bytes = self.b.ins().imul_imm_s(wide, i64::from(SLOT_WORDS * 4));
        let slot = self.b.ins().iadd(area, bytes);
        self.b.ins().iadd_imm_s(slot, i64::from(at * 4))
    }

    /// For each invocation, evaluates `args` into its slot.
    fn put_args(&mut self, args: &[Handle<Expression>]) -> Gen<()> {
        let load = self.framed_reads(args);
        let none = BTreeSet::new();
        self.per_invocation_with(&load, &none, Default::default(), |cg| {
            for (a, h) in args.iter().enumerate() {
                let ty = cg.acts[0].f.exprs[*h].ty;
                let v = cg.eval(*h)?;
                let at = cg.slot_word(a as u32 * ARG_WORDS);
                cg.store(ty, at, &v)?;
            }
            Ok(())
        })
    }

    /// For each invocation, sets `result` from its slot.
    fn take_result(&mut self, result: Handle<Local>) -> Gen<()> {
        let l = result.index();
        let store: BTreeSet<usize> =
            if self.plan.private.contains(&l) || self.plan.uniform.contains(&l) {
                BTreeSet::new()
            } else {
                [l].into()
            };
        let none = BTreeSet::new();
        self.per_invocation_with(&none, &store, Default::default(), |cg| {
            let ty = cg.acts[0].f.locals[result].ty;
            let at = cg.slot_word(RESULT_AT);
            let v = cg.load(ty, at)?;
            cg.write_local(0, result, &v)
        })
    }

    /// Calls the Rust side of a collective, once for the workgroup.
    fn call_collective(&mut self, what: What) {
        let [wx, wy, wz] = self.k.workgroup_size;
        let desc = Box::new(Desc {
            invocations: wx * wy * wz,
            params: self.k.params.len() as u32,
            shared_words: self
                .k
                .shared
                .iter()
                .map(|v| (v.bytes(&self.k.types) as u32).div_ceil(4))
                .sum(),
            what,
        });
        let at = &*desc as *const Desc as usize as i64;
        self.collectives.push(desc);
        let mut sig = Signature::new(self.b.func.signature.call_conv);
        sig.params
            .extend([AbiParam::new(types::I64), AbiParam::new(types::I64)]);
        let sig = self.b.import_signature(sig);
        let desc = self.b.ins().iconst(types::I64, at);
        let callee = self.b.ins().iconst(
            types::I64,
            super::native::collective as *const () as usize as i64,
        );
        let ctx = self.c.ctx;
        self.b.ins().call_indirect(sig, callee, &[desc, ctx]);
    }
}
