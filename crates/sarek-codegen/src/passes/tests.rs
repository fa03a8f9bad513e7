//! The passes on hand-built IR: each test builds a kernel, runs a pass and looks at the IR it
//! leaves.

use super::*;
use crate::ir::*;

pub(super) const U32: Type = Type::Scalar(Scalar::U32);
const I32: Type = Type::Scalar(Scalar::I32);
pub(super) const F32: Type = Type::Scalar(Scalar::F32);

pub(super) fn expr(f: &mut Function, kind: Expr, ty: Type) -> Handle<Expression> {
    f.exprs.append(Expression {
        kind,
        ty,
        span: Span(0),
    })
}

pub(super) fn local(f: &mut Function, name: &str, ty: Type, mutable: bool) -> Handle<Local> {
    f.locals.append(Local {
        name: name.into(),
        ty,
        mutable,
        span: Span(0),
    })
}

pub(super) fn stmt(kind: Stmt) -> Statement {
    Statement {
        kind,
        span: Span(0),
    }
}

pub(super) fn binary(
    f: &mut Function,
    op: BinaryOp,
    left: Handle<Expression>,
    right: Handle<Expression>,
) -> Handle<Expression> {
    let ty = f.exprs[left].ty;
    expr(f, Expr::Binary { op, left, right }, ty)
}

/// `fn k(a: f32, x: &[f32], y: &mut [f32])` with an empty body, workgroup 64.
pub(super) fn kernel() -> Kernel {
    let slice = |access| ParamType::Slice { elem: F32, access };
    let param = |name: &str, ty| Param {
        name: name.into(),
        ty,
        span: Span(0),
    };
    Kernel {
        name: "k".into(),
        params: vec![
            param("a", ParamType::Value(F32)),
            param("x", slice(Access::Read)),
            param("y", slice(Access::ReadWrite)),
        ],
        workgroup_size: [64, 1, 1],
        shared: Vec::new(),
        entry: Function::new("k", Span(0)),
        span: Span(0),
        types: Vec::new(),
        functions: Vec::new(),
        limits: Limits::Portable,
        debug: Vec::new(),
    }
}

#[test]
fn exact_integer_arithmetic_and_block_dim_become_literals() {
    let mut f = Function::new("f", Span(0));
    let two = expr(&mut f, Expr::Literal(Literal::U32(2)), U32);
    let three = expr(&mut f, Expr::Literal(Literal::U32(3)), U32);
    let product = binary(&mut f, BinaryOp::Mul, two, three);
    let dim = expr(&mut f, Expr::Builtin(Builtin::BlockDim(Axis::X)), U32);
    let sum = binary(&mut f, BinaryOp::Add, product, dim);
    let evaluated = const_eval::run(&mut f, [64, 1, 1]);
    assert_eq!(f.exprs[sum].kind, Expr::Literal(Literal::U32(70)));
    assert_eq!(f.exprs[product].kind, Expr::Literal(Literal::U32(6)));
    assert_eq!(f.exprs[dim].kind, Expr::Literal(Literal::U32(64)));
    // What was written as a literal is not reported as evaluated.
    assert_eq!(evaluated, HashSet::from([product, dim, sum]));
}

#[test]
fn inexact_arithmetic_keeps_its_run_time_form() {
    let mut f = Function::new("f", Span(0));
    let max = expr(&mut f, Expr::Literal(Literal::I32(i32::MAX)), I32);
    let one = expr(&mut f, Expr::Literal(Literal::I32(1)), I32);
    let zero = expr(&mut f, Expr::Literal(Literal::I32(0)), I32);
    let wraps = binary(&mut f, BinaryOp::Add, max, one);
    let by_zero = binary(&mut f, BinaryOp::Div, one, zero);
    let shift = binary(&mut f, BinaryOp::Shl, one, one);
    let compare = expr(
        &mut f,
        Expr::Binary {
            op: BinaryOp::Lt,
            left: one,
            right: zero,
        },
        Type::Scalar(Scalar::Bool),
    );
    let a = expr(&mut f, Expr::Param(ParamId(0)), I32);
    let of_param = binary(&mut f, BinaryOp::Add, a, one);
    let before = f.clone();
    assert!(const_eval::run(&mut f, [64, 1, 1]).is_empty());
    assert_eq!(f, before);
    for h in [wraps, by_zero, shift, compare, of_param] {
        assert!(matches!(f.exprs[h].kind, Expr::Binary { .. }));
    }
}

#[test]
fn constant_evaluation_is_linear_in_the_length_of_a_sum() {
    // `1 + 1 + ... + 1`, a left-leaning tree 200,000 deep: a recursive walk from each node
    // would take quadratic time (and overflow the stack).
    let mut f = Function::new("f", Span(0));
    let mut sum = expr(&mut f, Expr::Literal(Literal::U32(1)), U32);
    for _ in 1..200_000 {
        let one = expr(&mut f, Expr::Literal(Literal::U32(1)), U32);
        sum = binary(&mut f, BinaryOp::Add, sum, one);
    }
    let evaluated = const_eval::run(&mut f, [64, 1, 1]);
    assert_eq!(f.exprs[sum].kind, Expr::Literal(Literal::U32(200_000)));
    assert_eq!(evaluated.len(), 199_999);
}

#[test]
fn bindings_of_ids_parameters_and_lengths_are_forwarded() {
    let mut f = Function::new("f", Span(0));
    let n = local(&mut f, "n", U32, false);
    let len = expr(&mut f, Expr::Len(ParamId(2)), U32);
    let i = local(&mut f, "i", U32, false);
    let gid = expr(&mut f, Expr::Builtin(Builtin::GlobalThreadId), U32);
    let m = local(&mut f, "m", U32, true);
    let dim = expr(&mut f, Expr::Builtin(Builtin::BlockDim(Axis::X)), U32);
    let read_n = expr(&mut f, Expr::Local(n), U32);
    let read_i = expr(&mut f, Expr::Local(i), U32);
    let read_m = expr(&mut f, Expr::Local(m), U32);
    let body = vec![
        stmt(Stmt::Let {
            local: n,
            init: Some(len),
        }),
        stmt(Stmt::Let {
            local: i,
            init: Some(gid),
        }),
        stmt(Stmt::Let {
            local: m,
            init: Some(dim),
        }),
        stmt(Stmt::Assign {
            place: Place::Local(m),
            op: Some(BinaryOp::Add),
            value: read_n,
        }),
    ];
    f.body = body.clone();
    let forwarded = forward::run(&mut f);
    assert_eq!(forwarded, HashSet::from([n]));
    assert_eq!(f.exprs[read_n].kind, Expr::Len(ParamId(2)));
    // `global_thread_id()` is computed once; a mutable local is a variable.
    assert_eq!(f.exprs[read_i].kind, Expr::Local(i));
    assert_eq!(f.exprs[read_m].kind, Expr::Local(m));
    // The statements keep their shape: the dead binding stays.
    assert_eq!(f.body, body);
}

/// `let i = global_thread_id(); if i < y.len() { y[i] = a * x[i] + y[i]; }`
pub(super) fn element_wise(k: &mut Kernel) -> (Handle<Local>, Handle<Expression>) {
    let f = &mut k.entry;
    let i = local(f, "i", U32, false);
    let gid = expr(f, Expr::Builtin(Builtin::GlobalThreadId), U32);
    let read = |f: &mut Function| expr(f, Expr::Local(i), U32);
    let (i1, i2, i3, i4) = (read(f), read(f), read(f), read(f));
    let len = expr(f, Expr::Len(ParamId(2)), U32);
    let cond = expr(
        f,
        Expr::Binary {
            op: BinaryOp::Lt,
            left: i1,
            right: len,
        },
        Type::Scalar(Scalar::Bool),
    );
    let a = expr(f, Expr::Param(ParamId(0)), F32);
    let x = expr(
        f,
        Expr::Index {
            slice: ParamId(1),
            index: i2,
        },
        F32,
    );
    let y = expr(
        f,
        Expr::Index {
            slice: ParamId(2),
            index: i3,
        },
        F32,
    );
    let ax = binary(f, BinaryOp::Mul, a, x);
    let sum = binary(f, BinaryOp::Add, ax, y);
    let store = stmt(Stmt::Assign {
        place: Place::Index {
            slice: ParamId(2),
            index: i4,
        },
        op: None,
        value: sum,
    });
    f.body = vec![
        stmt(Stmt::Let {
            local: i,
            init: Some(gid),
        }),
        stmt(Stmt::If {
            cond,
            accept: vec![store],
            reject: Vec::new(),
        }),
    ];
    (i, x)
}

#[test]
fn element_wise_kernels_are_coarsened_with_their_loads_first() {
    let mut k = kernel();
    let (i, x) = element_wise(&mut k);
    let plan = coarsen::plan(&k).expect("element-wise");
    assert_eq!(plan.preload, vec![ParamId(1), ParamId(2)]);
    let c = coarsen::apply(&k, &plan);
    let factor = coarsen::FACTOR as usize;
    assert_eq!(c.threads.len(), factor);
    assert_eq!(c.preloads.len(), 2 * factor);
    assert_eq!(c.roles.len(), c.function.locals.len());
    assert_eq!(c.function.body.len(), 2 * factor);
    for copy in 0..factor {
        // Copy `copy` binds its own `i` to its own element index...
        let Stmt::Let {
            local,
            init: Some(init),
        } = c.function.body[2 * copy].kind
        else {
            panic!("a binding first");
        };
        assert_eq!(
            c.roles[local.index()],
            coarsen::Role::Copy {
                copy: copy as u32,
                of: i
            }
        );
        assert_eq!(c.function.exprs[init].kind, Expr::Local(c.threads[copy]));
        // ... and reads `x[i]` from its load, issued before any copy runs.
        let load = c.preloads[copy * 2];
        assert_eq!(
            c.roles[load.index()],
            coarsen::Role::Preload {
                copy: copy as u32,
                slice: ParamId(1)
            }
        );
        let copied_x = c.function.exprs.len() / factor * copy + x.index();
        let (_, e) = c.function.exprs.iter().nth(copied_x).expect("copied");
        assert_eq!(e.kind, Expr::Local(load));
    }
}

#[test]
fn kernels_that_are_not_element_wise_are_not_coarsened() {
    // Reads a neighbour: `y[i] = x[i + 1]`.
    let mut k = kernel();
    let f = &mut k.entry;
    let gid = expr(f, Expr::Builtin(Builtin::GlobalThreadId), U32);
    let one = expr(f, Expr::Literal(Literal::U32(1)), U32);
    let next = binary(f, BinaryOp::Add, gid, one);
    let x = expr(
        f,
        Expr::Index {
            slice: ParamId(1),
            index: next,
        },
        F32,
    );
    f.body = vec![stmt(Stmt::Assign {
        place: Place::Index {
            slice: ParamId(2),
            index: gid,
        },
        op: None,
        value: x,
    })];
    assert_eq!(coarsen::plan(&k), None);
    // A workgroup size that is not a multiple of the factor.
    let mut k = kernel();
    element_wise(&mut k);
    k.workgroup_size = [66, 1, 1];
    assert_eq!(coarsen::plan(&k), None);
}

#[test]
fn run_simplifies_the_entry_and_the_coarsened_copies_alike() {
    let mut k = kernel();
    element_wise(&mut k);
    let n = local(&mut k.entry, "n", U32, false);
    let len = expr(&mut k.entry, Expr::Len(ParamId(2)), U32);
    let read_n = expr(&mut k.entry, Expr::Local(n), U32);
    let dim = expr(&mut k.entry, Expr::Builtin(Builtin::BlockDim(Axis::X)), U32);
    let product = binary(&mut k.entry, BinaryOp::Mul, dim, dim);
    let _ = (read_n, product);
    k.entry.body.insert(
        0,
        stmt(Stmt::Let {
            local: n,
            init: Some(len),
        }),
    );
    let prepared = run(&k);
    assert_eq!(prepared.entry.forwarded, HashSet::from([n]));
    assert_eq!(
        prepared.kernel.entry.exprs[read_n].kind,
        Expr::Len(ParamId(2))
    );
    assert_eq!(
        prepared.kernel.entry.exprs[product].kind,
        Expr::Literal(Literal::U32(64 * 64))
    );
    let (coarse, notes) = prepared.coarse.expect("coarsened");
    assert_eq!(notes.forwarded.len(), coarsen::FACTOR as usize);
    assert_eq!(notes.evaluated.len(), 2 * coarsen::FACTOR as usize);
    assert!(coarse
        .function
        .exprs
        .iter()
        .all(|(_, e)| !matches!(e.kind, Expr::Builtin(_) | Expr::Index { .. })));
}

// ---------------------------------------------------------------------------------------------
// Unrolling of loops over independent loads.

/// The parts of a hand-built grid-stride sum.
struct GridStride {
    /// `fn sum(x: &[f32], out: &mut [f32], stride: u32)`.
    kernel: Kernel,
    /// The counter `i` and the accumulator `acc`.
    i: Handle<Local>,
    acc: Handle<Local>,
}

/// `let mut i = global_thread_id(); let mut acc = 0.0;
/// while i < x.len() { acc += x[i]; i += stride; }  (extra statements before the advance)
/// if global_thread_id() < out.len() { out[global_thread_id()] = acc; }`
fn grid_stride(
    extra: impl FnOnce(&mut Function, Handle<Local>, Handle<Local>) -> Vec<Statement>,
) -> GridStride {
    let mut k = kernel();
    k.params[0] = Param {
        name: "stride".into(),
        ty: ParamType::Value(U32),
        span: Span(0),
    };
    let f = &mut k.entry;
    let i = local(f, "i", U32, true);
    let acc = local(f, "acc", F32, true);
    let gid = expr(f, Expr::Builtin(Builtin::GlobalThreadId), U32);
    let zero = expr(f, Expr::Literal(Literal::F32(0.0)), F32);
    let read_i = expr(f, Expr::Local(i), U32);
    let len = expr(f, Expr::Len(ParamId(1)), U32);
    let below = expr(
        f,
        Expr::Binary {
            op: BinaryOp::Lt,
            left: read_i,
            right: len,
        },
        Type::Scalar(Scalar::Bool),
    );
    let index = expr(f, Expr::Local(i), U32);
    let load = expr(
        f,
        Expr::Index {
            slice: ParamId(1),
            index,
        },
        F32,
    );
    let stride = expr(f, Expr::Param(ParamId(0)), U32);
    let mut body = vec![
        stmt(Stmt::If {
            cond: below,
            accept: vec![],
            reject: vec![stmt(Stmt::Break)],
        }),
        stmt(Stmt::Assign {
            place: Place::Local(acc),
            op: Some(BinaryOp::Add),
            value: load,
        }),
    ];
    body.extend(extra(f, i, acc));
    body.push(stmt(Stmt::Assign {
        place: Place::Local(i),
        op: Some(BinaryOp::Add),
        value: stride,
    }));
    let gid2 = expr(f, Expr::Builtin(Builtin::GlobalThreadId), U32);
    let out_len = expr(f, Expr::Len(ParamId(2)), U32);
    let in_out = expr(
        f,
        Expr::Binary {
            op: BinaryOp::Lt,
            left: gid2,
            right: out_len,
        },
        Type::Scalar(Scalar::Bool),
    );
    let gid3 = expr(f, Expr::Builtin(Builtin::GlobalThreadId), U32);
    let result = expr(f, Expr::Local(acc), F32);
    f.body = vec![
        stmt(Stmt::Let {
            local: i,
            init: Some(gid),
        }),
        stmt(Stmt::Let {
            local: acc,
            init: Some(zero),
        }),
        stmt(Stmt::Loop {
            body,
            continuing: vec![],
            break_if: None,
        }),
        stmt(Stmt::If {
            cond: in_out,
            accept: vec![stmt(Stmt::Assign {
                place: Place::Index {
                    slice: ParamId(2),
                    index: gid3,
                },
                op: None,
                value: result,
            })],
            reject: vec![],
        }),
    ];
    GridStride { kernel: k, i, acc }
}

/// The loaded values the statements of `block` add to `acc`, in order.
fn additions(f: &Function, block: &[Statement], acc: Handle<Local>) -> Vec<Handle<Local>> {
    block
        .iter()
        .filter_map(|s| match s.kind {
            Stmt::Assign {
                place: Place::Local(l),
                op: Some(BinaryOp::Add),
                value,
            } if l == acc => match f.exprs[value].kind {
                Expr::Local(v) => Some(v),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

#[test]
fn a_grid_stride_sum_is_unrolled_with_a_guard_the_loads_first_and_the_sum_in_order() {
    let GridStride {
        mut kernel, i, acc, ..
    } = grid_stride(|_, _, _| vec![]);
    let original = kernel.entry.body[2].clone();
    assert_eq!(unroll_loads::run(&mut kernel, 4), 1);
    let f = &kernel.entry;
    // The unrolled loop, then the original loop for the last iterations.
    assert_eq!(f.body.len(), 5);
    assert_eq!(f.body[3], original);
    let Stmt::Loop { body, .. } = &f.body[2].kind else {
        panic!("not a loop: {:?}", f.body[2]);
    };
    // The guard: `i < n && stride <= (n - 1 - i) / 3`, the only exit.
    let Stmt::If { cond, reject, .. } = &body[0].kind else {
        panic!("no guard first: {:?}", body[0]);
    };
    assert!(matches!(
        f.exprs[*cond].kind,
        Expr::Binary {
            op: BinaryOp::LogicalAnd,
            ..
        }
    ));
    assert_eq!(reject.len(), 1);
    // Four loads of `x`, at `i`, `i + stride`, ..., before any addition.
    let loads: Vec<Handle<Local>> = body[1..5]
        .iter()
        .map(|s| match &s.kind {
            Stmt::Let {
                local,
                init: Some(init),
            } => {
                assert!(matches!(
                    f.exprs[*init].kind,
                    Expr::Index {
                        slice: ParamId(1),
                        ..
                    }
                ));
                *local
            }
            other => panic!("not a load: {other:?}"),
        })
        .collect();
    // Then the four iterations: each adds its own load, in order, and advances `i`.
    assert_eq!(additions(f, &body[5..], acc), loads);
    let advances = body[5..]
        .iter()
        .filter(|s| matches!(s.kind, Stmt::Assign { place: Place::Local(l), .. } if l == i))
        .count();
    assert_eq!(advances, 4);
    assert_eq!(body.len(), 5 + 8);
}

#[test]
fn a_loop_with_another_exit_keeps_each_iterations_test_and_loads_ahead_of_them() {
    // `if acc > 100.0 { break; }` in the body: the iterations cannot be checked at once.
    let GridStride {
        mut kernel, acc, ..
    } = grid_stride(|f, _, acc| {
        let read = expr(f, Expr::Local(acc), F32);
        let limit = expr(f, Expr::Literal(Literal::F32(100.0)), F32);
        let over = expr(
            f,
            Expr::Binary {
                op: BinaryOp::Gt,
                left: read,
                right: limit,
            },
            Type::Scalar(Scalar::Bool),
        );
        vec![stmt(Stmt::If {
            cond: over,
            accept: vec![stmt(Stmt::Break)],
            reject: vec![],
        })]
    });
    assert_eq!(unroll_loads::run(&mut kernel, 4), 1);
    let f = &kernel.entry;
    // One loop replaces the original: no guard and no loop after it.
    assert_eq!(f.body.len(), 4);
    let Stmt::Loop { body, .. } = &f.body[2].kind else {
        panic!("not a loop");
    };
    assert!(body[..4].iter().all(|s| matches!(s.kind, Stmt::Let { .. })));
    // Each of the four iterations: its exit test, its addition, its other exit, its advance.
    let tests = body
        .iter()
        .filter(|s| matches!(&s.kind, Stmt::If { reject, .. } if reject.len() == 1))
        .count();
    assert_eq!(tests, 4);
    assert_eq!(additions(f, body, acc).len(), 4);
}

#[test]
fn loops_that_do_not_qualify_are_left_alone() {
    // A barrier in the body.
    let mut k = grid_stride(|_, _, _| vec![stmt(Stmt::Barrier(Barrier::Workgroup))]).kernel;
    let before = k.clone();
    assert_eq!(unroll_loads::run(&mut k, 4), 0);
    assert_eq!(k, before);
    // The counter assigned twice.
    let mut k = grid_stride(|f, i, _| {
        let one = expr(f, Expr::Literal(Literal::U32(1)), U32);
        vec![stmt(Stmt::Assign {
            place: Place::Local(i),
            op: Some(BinaryOp::Add),
            value: one,
        })]
    })
    .kernel;
    let before = k.clone();
    assert_eq!(unroll_loads::run(&mut k, 4), 0);
    assert_eq!(k, before);
    // The buffer read is writable: the loop may write what a later iteration reads.
    let mut k = grid_stride(|_, _, _| vec![]).kernel;
    k.params[1].ty = ParamType::Slice {
        elem: F32,
        access: Access::ReadWrite,
    };
    let before = k.clone();
    assert_eq!(unroll_loads::run(&mut k, 4), 0);
    assert_eq!(k, before);
    // A step that changes in the loop (read from a local the loop assigns).
    let GridStride {
        mut kernel, acc, ..
    } = grid_stride(|_, _, _| vec![]);
    let f = &mut kernel.entry;
    let step = expr(f, Expr::Local(acc), U32);
    let Stmt::Loop { body, .. } = &mut f.body[2].kind else {
        unreachable!()
    };
    if let Stmt::Assign { value, .. } = &mut body.last_mut().unwrap().kind {
        *value = step;
    }
    let mut k = kernel;
    let before = k.clone();
    assert_eq!(unroll_loads::run(&mut k, 4), 0);
    assert_eq!(k, before);
}

#[test]
fn the_option_turns_the_pass_off() {
    let k = grid_stride(|_, _, _| vec![]).kernel;
    let on = run_with(&k, &Options::default());
    let off = run_with(
        &k,
        &Options {
            unroll: 0,
            ..Options::default()
        },
    );
    assert_eq!(off.kernel.entry.body.len(), 4);
    assert_eq!(on.kernel.entry.body.len(), 5);
    assert_eq!(Options::default().unroll, unroll_loads::FACTOR);
}

/// Runs `kernel` on the interpreter over `groups` workgroups of 64 with `x`, returns `out`.
fn sum_on_interpreter(kernel: &Kernel, x: &[f32], groups: u32, stride: u32) -> Vec<u32> {
    use sarek_cpu::interp::{Launch, Program};
    use std::sync::atomic::{AtomicU32, Ordering};
    let threads = groups * 64;
    let program = Program::new(kernel.clone());
    let words = |v: &[u32]| v.iter().map(|&w| AtomicU32::new(w)).collect::<Vec<_>>();
    let xs = words(&x.iter().map(|v| v.to_bits()).collect::<Vec<_>>());
    let out = words(&vec![0; threads as usize]);
    let uniform = program.uniform(
        &[(0, stride)],
        [groups, 1, 1],
        &[(1, x.len() as u32), (2, threads)],
    );
    let mut launch = Launch::new(&uniform, [groups, 1, 1])
        .buffer(1, &xs)
        .buffer(2, &out);
    // Every load of the unrolled loop is in bounds: out-of-bounds reads would be faults.
    launch.checks = true;
    program.run(&launch).expect("runs without a fault");
    out.iter().map(|w| w.load(Ordering::Relaxed)).collect()
}

#[test]
fn unrolled_sums_add_the_same_floats_in_the_same_order() {
    let original = grid_stride(|_, _, _| vec![]).kernel;
    for factor in [2, 4, 8] {
        let mut unrolled = original.clone();
        assert_eq!(unroll_loads::run(&mut unrolled, factor), 1);
        // Lengths around multiples of the grid, strides that wrap `u32` near the end.
        for (n, groups, stride) in [
            (0, 1, 64),
            (1, 1, 64),
            (1000, 2, 128),
            (1023, 3, 192),
            (4096 + 7, 4, 256),
            (300, 1, 1),
            (300, 1, 7),
            (200, 1, u32::MAX / 2),
        ] {
            // Floats whose sums round, so a change of order would show.
            let x: Vec<f32> = (0..n)
                .map(|v| 1.0 + (v as f32) * 1.0e-3 + 1.0e7 * ((v % 3) as f32))
                .collect();
            assert_eq!(
                sum_on_interpreter(&unrolled, &x, groups, stride),
                sum_on_interpreter(&original, &x, groups, stride),
                "factor {factor}, n {n}, {groups} groups, stride {stride}"
            );
        }
    }
}

#[test]
fn a_loop_whose_loads_do_not_depend_on_its_counter_is_left_alone() {
    // `acc += x[0]` in the loop: the same element every iteration.
    let mut k = grid_stride(|_, _, _| vec![]).kernel;
    let f = &mut k.entry;
    let zero = expr(f, Expr::Literal(Literal::U32(0)), U32);
    let fixed = expr(
        f,
        Expr::Index {
            slice: ParamId(1),
            index: zero,
        },
        F32,
    );
    let Stmt::Loop { body, .. } = &mut f.body[2].kind else {
        unreachable!()
    };
    if let Stmt::Assign { value, .. } = &mut body[1].kind {
        *value = fixed;
    }
    let before = k.clone();
    assert_eq!(unroll_loads::run(&mut k, 4), 0);
    assert_eq!(k, before);
}
