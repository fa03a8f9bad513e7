//! Thread coarsening of element-wise kernels. A kernel whose invocations each read and write
//! only element `global_thread_id()` of its buffers (no workgroup memory, barriers, atomics,
//! loops, helper calls or early returns, and no other thread index) computes the same thing
//! when one invocation does the work of [`FACTOR`] of them: elements `t`, `t + T`, `t + 2T`,
//! ... with `T` a quarter of the grid, so each group of loads stays coalesced. The coarsened
//! entry point issues the loads of all its elements first, then computes and stores each;
//! with four loads in flight per invocation instead of one, a scalar `saxpy` moves data as
//! fast as a hand-written `vec4` one (measured on an H200: 4.19 TB/s against 4.28 TB/s; the
//! same loop without the loads hoisted reached 3.56 TB/s).
//!
//! Hoisting a read of element `i` of a buffer above the writes of the other elements is
//! sound because the elements differ; hoisting it above a write of the same element is not,
//! so a kernel that reads a buffer element after writing it is not coarsened.
//!
//! [`plan`] decides (the ABI reports its answer, and the runtime picks the coarsened entry
//! point by it); [`apply`] builds the coarsened body as a [`Function`] of its own, which the
//! WGSL writer prints inside the coarsened entry point's preamble.

use std::collections::HashSet;

use crate::arena::Handle;
use crate::ir::*;

/// Invocations merged into one.
pub const FACTOR: u32 = sarek_ir::abi::COARSEN_FACTOR;

/// How to coarsen a kernel: the buffers whose element at the thread index it reads (loaded
/// up front).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Buffer parameters read at the thread index, in parameter order.
    pub preload: Vec<ParamId>,
}

struct Walk<'a> {
    kernel: &'a Kernel,
    /// Immutable locals holding `global_thread_id()`.
    thread_index: HashSet<Handle<Local>>,
    read: Vec<ParamId>,
    written: HashSet<ParamId>,
}

/// The coarsening plan of `kernel`, if it is element-wise.
pub fn plan(kernel: &Kernel) -> Option<Plan> {
    let [x, y, z] = kernel.workgroup_size;
    if y != 1 || z != 1 || x % FACTOR != 0 || !kernel.shared.is_empty() {
        return None;
    }
    // An invocation that already moves 16 bytes per access (every buffer holds vectors of 16
    // bytes, such as `Vec4`s) is the shape a hand-written `vec4` kernel has: coarsened, `poly` over
    // `&[Vec4]` ran at 133.3 µs on an H200 against 130.6 µs as written (2^26 floats,
    // BENCHMARKS.md, measured by bisection), so such a kernel keeps one element per invocation.
    let buffers: Vec<Type> = kernel
        .params
        .iter()
        .filter_map(|p| p.ty.buffer())
        .map(|(elem, _)| elem)
        .collect();
    let wide = |elem: &Type| {
        matches!(elem, Type::Vector(..)) && crate::layout::of(&kernel.types, *elem).stride() >= 16
    };
    if !buffers.is_empty() && buffers.iter().all(wide) {
        return None;
    }
    let mut w = Walk {
        kernel,
        thread_index: HashSet::new(),
        read: Vec::new(),
        written: HashSet::new(),
    };
    w.block(&kernel.entry.body)?;
    let mut preload = w.read;
    preload.sort_by_key(|p| p.0);
    Some(Plan { preload })
}

/// What a local of the coarsened body stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Copy `copy` of the entry's local `of`.
    Copy {
        /// Which of the [`FACTOR`] copies.
        copy: u32,
        /// The entry's local.
        of: Handle<Local>,
    },
    /// The element index of copy `copy` (`t + copy·T`), declared by the entry point's
    /// preamble: the copy's `global_thread_id()`.
    Thread {
        /// Which copy.
        copy: u32,
    },
    /// Element `Thread { copy }` of buffer `slice`, loaded by the preamble before any copy
    /// runs: the copy's reads of that buffer.
    Preload {
        /// Which copy.
        copy: u32,
        /// The buffer parameter.
        slice: ParamId,
    },
    /// The value copy `copy` last stored to buffer `slice`, in the vectorised entry
    /// ([`super::vectorise`]), which stores it after the copies.
    Staged {
        /// Which copy.
        copy: u32,
        /// The buffer parameter.
        slice: ParamId,
    },
    /// Whether copy `copy` stored to buffer `slice` (the flag beside [`Role::Staged`]).
    Stored {
        /// Which copy.
        copy: u32,
        /// The buffer parameter.
        slice: ParamId,
    },
}

/// A coarsened entry: [`FACTOR`] copies of the kernel's body, one after the other, each with
/// its own locals and element index, reading the elements loaded up front.
#[derive(Clone, Debug, PartialEq)]
pub struct Coarse {
    /// The copies. Its locals without a declaring statement are the ones the preamble
    /// declares: [`Role::Thread`] and [`Role::Preload`].
    pub function: Function,
    /// The role of each local of `function`, by handle index.
    pub roles: Vec<Role>,
    /// The element index of each copy, in copy order.
    pub threads: Vec<Handle<Local>>,
    /// The loads, in the order the preamble issues them: by copy, then by parameter.
    pub preloads: Vec<Handle<Local>>,
}

/// The coarsened entry of `kernel`, which [`plan`] found element-wise (its answer is `plan`).
pub fn apply(kernel: &Kernel, plan: &Plan) -> Coarse {
    let entry = &kernel.entry;
    let mut function = Function::new(entry.name.clone(), entry.span);
    let mut roles = Vec::new();
    let local = |function: &mut Function, roles: &mut Vec<Role>, l: Local, role| {
        roles.push(role);
        function.locals.append(l)
    };
    let mut copies = Vec::new();
    for copy in 0..FACTOR {
        let of: Vec<Handle<Local>> = entry
            .locals
            .iter()
            .map(|(of, l)| {
                local(
                    &mut function,
                    &mut roles,
                    l.clone(),
                    Role::Copy { copy, of },
                )
            })
            .collect();
        copies.push(of);
    }
    let threads: Vec<Handle<Local>> = (0..FACTOR)
        .map(|copy| {
            let l = Local {
                name: "thread".into(),
                ty: Type::Scalar(Scalar::U32),
                mutable: false,
                span: entry.span,
            };
            local(&mut function, &mut roles, l, Role::Thread { copy })
        })
        .collect();
    let mut preloads = Vec::new();
    for copy in 0..FACTOR {
        for &slice in &plan.preload {
            let param = kernel.param(slice);
            let l = Local {
                name: param.name.clone(),
                ty: param.ty.buffer().map_or(Type::Scalar(Scalar::U32), |b| b.0),
                mutable: false,
                span: param.span,
            };
            preloads.push(local(
                &mut function,
                &mut roles,
                l,
                Role::Preload { copy, slice },
            ));
        }
    }
    let per_copy = plan.preload.len();
    for copy in 0..FACTOR as usize {
        // Copy every expression, then point the copies' operands at the copies (so an
        // operand that comes after its user would still be found).
        let exprs: Vec<Handle<Expression>> = entry
            .exprs
            .iter()
            .map(|(_, e)| function.exprs.append(e.clone()))
            .collect();
        let remap = Remap {
            expr: |h: Handle<Expression>| exprs[h.index()],
            local: |l: Handle<Local>| copies[copy][l.index()],
        };
        for (h, e) in entry.exprs.iter() {
            let kind = match &e.kind {
                Expr::Builtin(Builtin::GlobalThreadId) => Expr::Local(threads[copy]),
                Expr::Index { slice, index } => {
                    match plan.preload.iter().position(|p| p == slice) {
                        Some(n) => Expr::Local(preloads[copy * per_copy + n]),
                        // Unreachable from the body: the plan saw every read of it.
                        None => Expr::Index {
                            slice: *slice,
                            index: exprs[index.index()],
                        },
                    }
                }
                other => remap.expr_kind(other),
            };
            function.exprs[exprs[h.index()]].kind = kind;
        }
        function.body.extend(remap.block(&entry.body));
    }
    Coarse {
        function,
        roles,
        threads,
        preloads,
    }
}

impl Walk<'_> {
    fn is_thread_index(&self, h: Handle<Expression>) -> bool {
        match self.kernel.entry.exprs[h].kind {
            Expr::Builtin(Builtin::GlobalThreadId) => true,
            Expr::Local(l) => self.thread_index.contains(&l),
            _ => false,
        }
    }

    fn expr(&mut self, h: Handle<Expression>) -> Option<()> {
        match &self.kernel.entry.exprs[h].kind {
            Expr::Literal(_) | Expr::Param(_) | Expr::Local(_) | Expr::Len(_) | Expr::Zero(_) => {
                Some(())
            }
            Expr::Builtin(Builtin::GlobalThreadId | Builtin::BlockDim(_)) => Some(()),
            Expr::Builtin(_) | Expr::SharedIndex { .. } | Expr::Argument(_) => None,
            Expr::Index { slice, index } => {
                if !self.is_thread_index(*index) || self.written.contains(slice) {
                    return None;
                }
                if !self.read.contains(slice) {
                    self.read.push(*slice);
                }
                Some(())
            }
            kind => kind.operands().try_for_each(|o| self.expr(o)),
        }
    }

    /// Checks a place; returns the buffer it writes, if any.
    fn place(&mut self, place: &Place) -> Option<Option<ParamId>> {
        match place {
            Place::Local(_) => Some(None),
            Place::Index { slice, index } => self.is_thread_index(*index).then_some(Some(*slice)),
            Place::Shared { .. } => None,
            Place::Field { base, .. } => self.place(base),
            Place::Element { base, index } => {
                self.expr(*index)?;
                self.place(base)
            }
        }
    }

    /// Checks every statement of `block` at any depth, in source order (a local bound to the
    /// thread index is known from its `let` on, a buffer written from its store on).
    fn block(&mut self, block: &Block) -> Option<()> {
        let mut ok = Some(());
        visit(block, &mut |s| {
            if ok.is_some() {
                ok = self.statement(s);
            }
        });
        ok
    }

    /// Checks one statement, without the blocks it holds ([`Walk::block`] visits those).
    fn statement(&mut self, s: &Statement) -> Option<()> {
        match &s.kind {
            Stmt::Let { local, init } => {
                if let Some(init) = init {
                    self.expr(*init)?;
                    let l = &self.kernel.entry.locals[*local];
                    if !l.mutable && self.is_thread_index(*init) {
                        self.thread_index.insert(*local);
                    }
                }
                Some(())
            }
            Stmt::Assign { place, value, .. } => {
                self.expr(*value)?;
                if let Some(slice) = self.place(place)? {
                    self.written.insert(slice);
                }
                Some(())
            }
            Stmt::If { cond, .. } => self.expr(*cond),
            Stmt::Switch { selector, .. } => self.expr(*selector),
            Stmt::Loop { .. }
            | Stmt::Break
            | Stmt::Continue
            | Stmt::Return(_)
            | Stmt::Barrier(_)
            | Stmt::Subgroup { .. }
            | Stmt::UniformLoad { .. }
            | Stmt::Atomic { .. }
            | Stmt::CompareExchange { .. }
            | Stmt::Coop(_)
            // A print names its invocation, which a coarsened copy would change.
            | Stmt::Debug { .. }
            | Stmt::Call { .. } => None,
        }
    }
}
