//! Whether an expression has one value across a set of evaluations: the one walk behind the
//! JIT's three such questions ([`Across`]). It goes through operators, conversions, selects
//! and math functions, and the questions differ only in the leaves they accept (and in math
//! functions, for one); each difference is decided, and explained, here.

use super::effects::Writes;
use crate::arena::Handle;
use crate::ir::{Axis, Builtin, Expr, Expression, Function, Type};

/// Across which evaluations an expression must have one value.
#[derive(Clone, Copy, Debug)]
pub(super) enum Across<'w> {
    /// Every invocation of the workgroup (`live.rs`: the uniform locals, set once per
    /// workgroup between segments, and the uniform jumps of workgroup-level loops).
    Workgroup,
    /// The four lanes of a group of the lanes loop (`lanes/`): consecutive x ids of one row.
    /// `writes`: the memory the kernel may write.
    Lanes(&'w Writes),
    /// Every evaluation by one invocation (`live.rs`: the invariant locals, recomputed where a
    /// segment needs them instead of loaded from the invocation's frame).
    Invocation,
}

/// Whether expression `h` of `f` has one value across the evaluations `across` names, given
/// which locals (by index) have one.
pub(super) fn same(
    f: &Function,
    h: Handle<Expression>,
    across: Across<'_>,
    local: &dyn Fn(usize) -> bool,
) -> bool {
    let kind = &f.exprs[h].kind;
    let operands = || kind.operands().all(|x| same(f, x, across, local));
    match kind {
        Expr::Literal(_) | Expr::Param(_) | Expr::Len(_) => true,
        Expr::Local(l) => local(l.index()),
        Expr::Builtin(b) => builtin(*b, across),
        Expr::Unary { .. } | Expr::Cast { .. } | Expr::Binary { .. } | Expr::Select { .. } => {
            operands()
        }
        // Math is pure, but an invariant local is recomputed for each invocation at the start
        // of every segment that names it, and a math function other than the few inlined ones
        // is a call (`native::math`, or a typed `f32` function), which Cranelift neither removes when unused nor moves,
        // and across which the System V convention keeps no float register: one frame load
        // is cheaper. (Inferred from the code; ec8995d, which added the exclusion, does not
        // say.) Uniform values run once per workgroup, and the lanes loop's once per group.
        Expr::Math { .. } => !matches!(across, Across::Invocation) && operands(),
        // A scalar zero is a constant, but only the lanes loop lists it; the frame plan never
        // did, and listing it there would change which locals it places.
        Expr::Zero(t) => matches!(across, Across::Lanes(_)) && matches!(t, Type::Scalar(_)),
        // A buffer nothing writes reads the same everywhere; only the lanes loop knows which
        // buffers are written. The frame plan reads no memory: an invariant local is
        // recomputed after the invocation's own later writes, and a uniform statement runs
        // once where invocations would each read after the writes of those before them.
        Expr::Index { slice, .. } => {
            matches!(across, Across::Lanes(w) if !w.param(slice.0)) && operands()
        }
        // Workgroup memory (written between barriers), struct and array values, and a
        // helper's arguments: none of the three questions needs them.
        Expr::SharedIndex { .. }
        | Expr::Field { .. }
        | Expr::Access { .. }
        | Expr::Compose { .. }
        | Expr::Argument(_) => false,
    }
}

/// Whether builtin `b` has one value across `across`.
fn builtin(b: Builtin, across: Across<'_>) -> bool {
    match b {
        // The workgroup's and the grid's.
        Builtin::BlockIdx(_) | Builtin::BlockDim(_) | Builtin::GridDim(_) => true,
        // A group's lanes share y and z: the lanes loop requires an x size that is a multiple
        // of `LANES` (`lanes::wanted`).
        Builtin::ThreadIdx(Axis::Y | Axis::Z) | Builtin::GlobalIdx(Axis::Y | Axis::Z) => {
            !matches!(across, Across::Workgroup)
        }
        // Lane `k` is `k` further along x: a linear value, which the lanes loop handles itself.
        Builtin::ThreadIdx(Axis::X) | Builtin::GlobalIdx(Axis::X) | Builtin::GlobalThreadId => {
            matches!(across, Across::Invocation)
        }
        // None of these walks lists them: the JIT compiled subgroup builtins only from 2da61a3
        // on, after all three were written. `subgroup_invocation_id()` differs between
        // invocations and lanes anyway; `subgroup_size()` is the launch's, and both are
        // invariant, but listing them would change which locals the frame plan places.
        Builtin::SubgroupSize | Builtin::SubgroupInvocationId => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Kernel, Scalar, Stmt};
    use sarek_codegen::front::{lower_kernel, KernelAttr};

    /// A kernel whose `let`s hold one leaf or operation each.
    fn kernel() -> Kernel {
        let attr = KernelAttr {
            workgroup_size: [64, 1, 1],
            ..KernelAttr::default()
        };
        let item: syn::ItemFn = syn::parse_quote! {
            fn leaves(n: u32, x: &[f32], y: &mut [f32]) {
                let tx = thread_idx_x();
                let ty = thread_idx_y();
                let gid = global_thread_id();
                let blk = block_idx_x() * n + 1u32;
                let math_n = (n as f32).sqrt();
                let math_tx = (thread_idx_x() as f32).sqrt();
                let read_x = x[(block_idx_x() * n) as usize];
                let read_y = y[(block_idx_x() * n) as usize];
                let sg = subgroup_size();
                let sum = tx + n;
                y[gid] = read_x + read_y + math_n + math_tx + (ty + sg + sum + blk) as f32;
            }
        };
        lower_kernel(&attr, &item, &[]).expect("lowers").kernel
    }

    /// The initial value of the `let` of the local named `name`.
    fn init(f: &Function, name: &str) -> Handle<Expression> {
        f.body
            .iter()
            .find_map(|s| match &s.kind {
                Stmt::Let {
                    local,
                    init: Some(init),
                } if f.locals[*local].name == name => Some(*init),
                _ => None,
            })
            .unwrap_or_else(|| panic!("no `let {name}`"))
    }

    /// Each question accepts its own leaves and refuses what it excludes (thread ids across
    /// the workgroup, x ids across lanes, math for an invocation's recomputed locals, memory
    /// but an unwritten buffer in lanes, subgroup builtins, zeros outside lanes).
    #[test]
    fn each_question_accepts_its_leaves_and_excludes_the_others() {
        let mut k = kernel();
        let mut writes = Writes::default();
        super::super::effects::block(&k, &k.entry.body, &mut writes);
        let f = &mut k.entry;
        let zero = f.exprs.append(Expression {
            kind: Expr::Zero(Type::Scalar(Scalar::F32)),
            ty: Type::Scalar(Scalar::F32),
            span: f.exprs[init(f, "tx")].span,
        });
        let f = &k.entry;
        let none = |_: usize| false;
        let local = |name: &str| f.locals.iter().position(|(_, l)| l.name == name).unwrap();
        let tx = local("tx");
        let tx_same = |l: usize| l == tx;
        let lanes = Across::Lanes(&writes);
        // (expression, workgroup, lanes, invocation), locals: none the same.
        let rows = [
            ("tx", false, false, true),
            ("ty", false, true, true),
            ("gid", false, false, true),
            ("blk", true, true, true),
            ("math_n", true, true, false),
            ("math_tx", false, false, false),
            ("read_x", false, true, false),
            ("read_y", false, false, false),
            ("sg", false, false, false),
        ];
        for (name, workgroup, in_lanes, invocation) in rows {
            let h = init(f, name);
            assert_eq!(same(f, h, Across::Workgroup, &none), workgroup, "{name}");
            assert_eq!(same(f, h, lanes, &none), in_lanes, "{name}");
            assert_eq!(same(f, h, Across::Invocation, &none), invocation, "{name}");
        }
        // A local counts as the caller says.
        let sum = init(f, "sum");
        for across in [Across::Workgroup, lanes, Across::Invocation] {
            assert!(!same(f, sum, across, &none), "{across:?}");
            assert!(same(f, sum, across, &tx_same), "{across:?}");
        }
        // A scalar zero: only in lanes.
        assert!(!same(f, zero, Across::Workgroup, &none));
        assert!(same(f, zero, lanes, &none));
        assert!(!same(f, zero, Across::Invocation, &none));
    }
}
