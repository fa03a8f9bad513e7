//! 16-byte memory operations for element-wise kernels over 4-byte scalars. The
//! coarsened entry ([`super::coarsen`]) gives each invocation four elements `t + k·T`, four
//! 4-byte loads in flight; a kernel reading one buffer (`y[i] = (a*x[i] + b)*x[i] + c`) then
//! stays at 87% of the copy bandwidth on an H200, where `vec4` loads reach 100%. This pass
//! builds a fourth entry point in which invocation `t` does the elements `4t + k` (`k < 4`)
//! through `vec4` views of the same bindings: one 16-byte load per buffer read, the four
//! copies of the body, and one 16-byte store per buffer written.
//!
//! Why the results are those of the scalar kernel:
//! - the body's own guards stay: each copy's store to `y[i]` becomes a store to a staged local
//!   and a flag (`Role::Staged`, `Role::Stored`), and after the copies the writer stores the
//!   four staged values as one `vec4` when all four flags are set and each flagged lane on its
//!   own otherwise, so exactly the elements the scalar kernel stores are stored, with the last
//!   value it would have stored (no copy reads an element after writing it: the coarsening plan
//!   refuses such kernels, and a compound assignment to a buffer is refused here);
//! - the loads read the same bytes as the scalar loads when every element an invocation reads
//!   is inside its binding and the binding starts on 16 bytes. The runtime uses the entry only
//!   when launch shows that: a 1-D grid of `N` threads (a multiple of four, since the
//!   workgroup width is) with every buffer bound at an offset that is a multiple of 16 bytes
//!   and holding at least `N` elements, so no invocation reads past a binding in either form.
//!   Otherwise it launches the scalar (or coarsened) entry.
//!
//! [`plan`] decides (the ABI's `vectorised` reports it); [`apply`] builds the body.

use super::coarsen::{self, Coarse, Role};
use crate::ir::*;

/// The elements one invocation of the vectorised entry handles (a `vec4`).
pub const LANES: u32 = coarsen::FACTOR;

/// How to vectorise a kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The coarsening plan it builds on (the buffers read at the thread index).
    pub coarse: coarsen::Plan,
    /// The buffers written at the thread index, in parameter order.
    pub written: Vec<ParamId>,
}

/// The vectorised entry: the coarsened copies with element indices `4t + k`, their stores to
/// buffers turned into stores to staged locals.
#[derive(Clone, Debug, PartialEq)]
pub struct Vectorised {
    /// The copies, the roles of their locals, their indices and loads (as [`coarsen::apply`]
    /// makes them, plus the [`Role::Staged`] and [`Role::Stored`] locals, which the body
    /// declares itself).
    pub coarse: Coarse,
    /// The buffers written, in parameter order.
    pub written: Vec<ParamId>,
    /// For each copy and each written buffer (copy-major), the staged value and its flag.
    pub staged: Vec<(Handle<Local>, Handle<Local>)>,
}

use crate::arena::Handle;

/// The vectorisation plan of `kernel`: element-wise (it coarsens), every buffer it reads or
/// writes holds 4-byte scalars (`f32`, `i32`, `u32`), and every store to a buffer is a plain
/// assignment of the element at the thread index.
pub fn plan(kernel: &Kernel) -> Option<Plan> {
    let coarse = coarsen::plan(kernel)?;
    let mut written = Vec::new();
    stores(&kernel.entry.body, &mut written)?;
    written.sort_by_key(|p| p.0);
    written.dedup();
    let four_bytes = |p: &ParamId| {
        matches!(
            kernel.param(*p).ty,
            ParamType::Slice {
                elem: Type::Scalar(Scalar::F32 | Scalar::I32 | Scalar::U32),
                ..
            }
        )
    };
    if !coarse.preload.iter().chain(&written).all(four_bytes) {
        return None;
    }
    Some(Plan { coarse, written })
}

/// Collects the buffers `block` stores to, at any depth; `None` when a store is not
/// `buf[index] = value`. (The coarsening plan refused every other statement that could store.)
fn stores(block: &Block, written: &mut Vec<ParamId>) -> Option<()> {
    let mut ok = Some(());
    visit(block, &mut |s| {
        if let Stmt::Assign { place, op, .. } = &s.kind {
            match place {
                Place::Local(_) => {}
                Place::Index { slice, .. } if op.is_none() => written.push(*slice),
                _ => ok = None,
            }
        }
    });
    ok
}

/// The vectorised entry of `kernel`, which [`plan`] accepted (its answer is `plan`).
pub fn apply(kernel: &Kernel, plan: &Plan) -> Vectorised {
    let mut coarse = coarsen::apply(kernel, &plan.coarse);
    let per_copy = kernel.entry.body.len();
    let span = kernel.entry.span;
    let f = &mut coarse.function;
    let flag = |f: &mut Function, value: bool| {
        f.exprs.append(Expression {
            kind: Expr::Literal(Literal::Bool(value)),
            ty: Type::Scalar(Scalar::Bool),
            span,
        })
    };
    let mut staged = Vec::new();
    let mut declare = Vec::new();
    for copy in 0..LANES {
        for &slice in &plan.written {
            let param = kernel.param(slice);
            let ty = param.ty.buffer().map_or(Type::Scalar(Scalar::U32), |b| b.0);
            let value = f.locals.append(Local {
                name: param.name.clone(),
                ty,
                mutable: true,
                span: param.span,
            });
            coarse.roles.push(Role::Staged { copy, slice });
            let stored = f.locals.append(Local {
                name: param.name.clone(),
                ty: Type::Scalar(Scalar::Bool),
                mutable: true,
                span: param.span,
            });
            coarse.roles.push(Role::Stored { copy, slice });
            let no = flag(f, false);
            declare.push(Statement {
                kind: Stmt::Let {
                    local: value,
                    init: None,
                },
                span,
            });
            declare.push(Statement {
                kind: Stmt::Let {
                    local: stored,
                    init: Some(no),
                },
                span,
            });
            staged.push((value, stored));
        }
    }
    let yes = flag(f, true);
    let body = std::mem::take(&mut f.body);
    let mut out = declare;
    for (n, s) in body.into_iter().enumerate() {
        let copy = n / per_copy.max(1);
        let lookup = |slice: ParamId| {
            let at = plan.written.iter().position(|&p| p == slice)?;
            Some(staged[copy * plan.written.len() + at])
        };
        out.extend(restage(s, &lookup, yes));
    }
    f.body = out;
    Vectorised {
        coarse,
        written: plan.written.clone(),
        staged,
    }
}

/// `s` with its stores to buffers redirected to the copy's staged locals (`lookup`).
fn restage(
    s: Statement,
    lookup: &impl Fn(ParamId) -> Option<(Handle<Local>, Handle<Local>)>,
    yes: Handle<Expression>,
) -> Vec<Statement> {
    let span = s.span;
    let block = |b: Block| -> Block {
        b.into_iter()
            .flat_map(|s| restage(s, lookup, yes))
            .collect()
    };
    match s.kind {
        Stmt::Assign {
            place: Place::Index { slice, .. },
            op: None,
            value,
        } if lookup(slice).is_some() => {
            let (staged, stored) = lookup(slice).expect("checked");
            vec![
                Statement {
                    kind: Stmt::Assign {
                        place: Place::Local(staged),
                        op: None,
                        value,
                    },
                    span,
                },
                Statement {
                    kind: Stmt::Assign {
                        place: Place::Local(stored),
                        op: None,
                        value: yes,
                    },
                    span,
                },
            ]
        }
        Stmt::If {
            cond,
            accept,
            reject,
        } => vec![Statement {
            kind: Stmt::If {
                cond,
                accept: block(accept),
                reject: block(reject),
            },
            span,
        }],
        Stmt::Switch {
            selector,
            cases,
            default,
        } => vec![Statement {
            kind: Stmt::Switch {
                selector,
                cases: cases
                    .into_iter()
                    .map(|mut c| {
                        c.body = block(std::mem::take(&mut c.body));
                        c
                    })
                    .collect(),
                default: block(default),
            },
            span,
        }],
        kind => vec![Statement { kind, span }],
    }
}
