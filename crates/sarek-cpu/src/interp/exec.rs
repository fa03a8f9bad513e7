//! One workgroup in lockstep: each statement runs for every invocation that reaches it
//! before the next statement starts. Each invocation carries a status, so a `break`,
//! `continue` or `return` takes it out of the statements that follow until the construct it
//! leaves is done.

mod access;
mod coop;

use access::{atomic_op, atomic_op64};

use std::cell::RefCell;
use std::sync::atomic::{AtomicU32, Ordering};

use super::memory;
use super::subgroup::Member;
use super::value::{self, Trap, Value};
use super::{Fault, FaultKind, Launch, Program};
use crate::arena::Handle;
use crate::ir::{
    BinaryOp, Block, Builtin, Expr, Expression, Function, Local, MathFun, Scalar, Span, Stmt,
    SubgroupOp, Type,
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    Running,
    Broke,
    Continued,
    Returned,
}

struct Frame {
    locals: Vec<Value>,
    args: Vec<Value>,
    result: Option<Value>,
}

struct Lane {
    thread: [u32; 3],
    status: Status,
    frames: Vec<Frame>,
}

impl Lane {
    fn frame(&self) -> &Frame {
        &self.frames[self.frames.len() - 1]
    }

    fn frame_mut(&mut self) -> &mut Frame {
        let top = self.frames.len() - 1;
        &mut self.frames[top]
    }
}

/// The code being run: the kernel's entry or a helper.
type Code<'p> = &'p Function;

/// Where a place is.
enum Target {
    /// A local, and the path of field / element / component indices into it.
    Local(Handle<Local>, Vec<usize>),
    /// Words of a buffer (`Some(param)`) or a workgroup array (`None`, with the array).
    Memory { mem: Mem, at: usize, ty: Type },
    /// Out of bounds: a write is dropped, a read gives zero.
    Nowhere(Type),
}

#[derive(Clone, Copy)]
enum Mem {
    Buffer(usize),
    Shared(usize),
}

/// The state of the workgroup being run, reused from one workgroup to the next.
pub(super) struct Workgroup<'p> {
    program: &'p Program,
    launch: &'p Launch<'p>,
    params: &'p [Value],
    lens: &'p [u32],
    /// Per parameter: a buffer's element type and stride in words.
    elements: Vec<(Type, usize)>,
    block: [u32; 3],
    shared: Vec<Vec<AtomicU32>>,
    lanes: Vec<Lane>,
    fault: RefCell<Option<Fault>>,
    /// Steps run so far by this workgroup, against `Launch::fuel`.
    steps: std::cell::Cell<u64>,
    /// The cooperative matrices of each subgroup (`exec/coop.rs`).
    coop: RefCell<super::coop::Matrices>,
}

impl<'p> Workgroup<'p> {
    pub(super) fn new(
        program: &'p Program,
        launch: &'p Launch<'p>,
        params: &'p [Value],
        lens: &'p [u32],
    ) -> Workgroup<'p> {
        let kernel = &program.kernel;
        let [wx, wy, wz] = kernel.workgroup_size;
        let mut lanes = Vec::new();
        for z in 0..wz {
            for y in 0..wy {
                for x in 0..wx {
                    lanes.push(Lane {
                        thread: [x, y, z],
                        status: Status::Running,
                        frames: Vec::new(),
                    });
                }
            }
        }
        let shared = kernel
            .shared
            .iter()
            .map(|v| {
                let words = (v.bytes(&kernel.types) as usize).div_ceil(4);
                (0..words).map(|_| AtomicU32::new(0)).collect()
            })
            .collect();
        let elements = kernel
            .params
            .iter()
            .map(|p| {
                let elem = p.ty.buffer().map_or(Type::Scalar(Scalar::U32), |b| b.0);
                (elem, program.layouts.stride(elem))
            })
            .collect();
        Workgroup {
            program,
            launch,
            params,
            lens,
            elements,
            block: [0; 3],
            shared,
            lanes,
            fault: RefCell::new(None),
            steps: std::cell::Cell::new(0),
            coop: coop::matrices(),
        }
    }

    /// Runs workgroup `block`.
    pub(super) fn run(&mut self, block: [u32; 3]) -> Result<(), Fault> {
        self.block = block;
        self.steps.set(0);
        self.coop.borrow_mut().clear();
        for words in &self.shared {
            for w in words {
                w.store(0, Ordering::Relaxed);
            }
        }
        let kernel = &self.program.kernel;
        let mut lanes = std::mem::take(&mut self.lanes);
        for lane in &mut lanes {
            lane.status = Status::Running;
            // The kernel's frame is reused from the previous workgroup: a local is always
            // declared (and so set) before it is read.
            lane.frames.truncate(1);
            match lane.frames.first_mut() {
                Some(frame) => frame.result = None,
                None => lane.frames.push(Frame {
                    locals: vec![Value::U32(0); kernel.entry.locals.len()],
                    args: Vec::new(),
                    result: None,
                }),
            }
        }
        let active: Vec<usize> = (0..lanes.len()).collect();
        self.block(&kernel.entry, &kernel.entry.body, &mut lanes, active);
        self.lanes = lanes;
        match self.fault.borrow_mut().take() {
            Some(f) => Err(f),
            None => Ok(()),
        }
    }

    fn failed(&self) -> bool {
        self.fault.borrow().is_some()
    }

    /// Records a fault of the current invocation (checks on); returns whether it did.
    fn report(&self, lane: &Lane, kind: FaultKind, span: Span) -> bool {
        if !self.launch.checks {
            return false;
        }
        let mut slot = self.fault.borrow_mut();
        if slot.is_none() {
            *slot = Some(Fault {
                kind,
                span,
                block: self.block,
                thread: lane.thread,
            });
        }
        true
    }

    /// Spends [`Launch::fuel`] on a statement or a loop iteration run by `invocations`
    /// invocations in lockstep, the first of which is `lane`: one step each, so that fuel
    /// follows the work done. Records the fault and returns `false` once the fuel is spent.
    fn burn(&self, span: Span, lane: &Lane, invocations: usize) -> bool {
        let Some(fuel) = self.launch.fuel else {
            return true;
        };
        let steps = self.steps.get().saturating_add(invocations as u64);
        self.steps.set(steps);
        if steps <= fuel {
            return true;
        }
        *self.fault.borrow_mut() = Some(Fault {
            kind: FaultKind::OutOfFuel,
            span,
            block: self.block,
            thread: lane.thread,
        });
        false
    }

    fn block(&self, code: Code<'p>, block: &'p Block, lanes: &mut [Lane], active: Vec<usize>) {
        let mut active = active;
        for statement in block {
            if active.is_empty() || self.failed() {
                return;
            }
            if !self.burn(statement.span, &lanes[active[0]], active.len()) {
                return;
            }
            self.statement(code, statement, lanes, &active);
            let may_leave = matches!(
                statement.kind,
                Stmt::If { .. }
                    | Stmt::Loop { .. }
                    | Stmt::Switch { .. }
                    | Stmt::Break
                    | Stmt::Continue
                    | Stmt::Return(_)
            );
            if may_leave {
                active.retain(|&l| lanes[l].status == Status::Running);
            }
        }
    }

    fn statement(
        &self,
        code: Code<'p>,
        statement: &'p crate::ir::Statement,
        lanes: &mut [Lane],
        active: &[usize],
    ) {
        let span = statement.span;
        match &statement.kind {
            Stmt::Let { local, init } => {
                for &l in active {
                    let v = match init {
                        Some(e) => self.eval(code, &lanes[l], *e),
                        None => self.program.layouts.zero(code.locals[*local].ty),
                    };
                    lanes[l].frame_mut().locals[local.index()] = v;
                }
            }
            Stmt::Assign { place, op, value } => {
                for &l in active {
                    let v = self.eval(code, &lanes[l], *value);
                    let target = self.place(code, &lanes[l], place);
                    let v = match op {
                        Some(op) => {
                            let current = self.read(code, &lanes[l], &target);
                            self.binary(&lanes[l], *op, &current, &v, span)
                        }
                        None => v,
                    };
                    self.write(&mut lanes[l], &target, v);
                }
            }
            Stmt::If {
                cond,
                accept,
                reject,
            } => {
                let (mut yes, mut no) = (Vec::new(), Vec::new());
                for &l in active {
                    if self.eval(code, &lanes[l], *cond).is_true() {
                        yes.push(l);
                    } else {
                        no.push(l);
                    }
                }
                self.block(code, accept, lanes, yes);
                self.block(code, reject, lanes, no);
            }
            Stmt::Loop {
                body,
                continuing,
                break_if,
            } => {
                let mut in_loop: Vec<usize> = active.to_vec();
                while !in_loop.is_empty() && !self.failed() {
                    // An iteration costs a step even with an empty body (`loop {}`), so
                    // that fuel bounds every loop.
                    if !self.burn(span, &lanes[in_loop[0]], in_loop.len()) {
                        break;
                    }
                    self.block(code, body, lanes, in_loop.clone());
                    in_loop.retain(|&l| {
                        let lane = &mut lanes[l];
                        match lane.status {
                            Status::Continued => {
                                lane.status = Status::Running;
                                true
                            }
                            Status::Broke => {
                                lane.status = Status::Running;
                                false
                            }
                            Status::Running => true,
                            Status::Returned => false,
                        }
                    });
                    self.block(code, continuing, lanes, in_loop.clone());
                    if let Some(cond) = break_if {
                        let mut stay = Vec::with_capacity(in_loop.len());
                        for &l in &in_loop {
                            if !self.eval(code, &lanes[l], *cond).is_true() {
                                stay.push(l);
                            }
                        }
                        in_loop = stay;
                    }
                }
            }
            Stmt::Break => active.iter().for_each(|&l| lanes[l].status = Status::Broke),
            Stmt::Continue => active
                .iter()
                .for_each(|&l| lanes[l].status = Status::Continued),
            Stmt::Return(value) => {
                for &l in active {
                    let v = value.map(|v| self.eval(code, &lanes[l], v));
                    let lane = &mut lanes[l];
                    lane.frame_mut().result = v;
                    lane.status = Status::Returned;
                }
            }
            Stmt::Switch {
                selector,
                cases,
                default,
            } => {
                let mut arms: Vec<Vec<usize>> = vec![Vec::new(); cases.len() + 1];
                for &l in active {
                    let s = self.eval(code, &lanes[l], *selector).bits();
                    let arm = cases
                        .iter()
                        .position(|c| c.values.iter().any(|v| Value::literal(*v).bits() == s))
                        .unwrap_or(cases.len());
                    arms[arm].push(l);
                }
                let default_lanes = arms.pop().unwrap_or_default();
                for (case, taken) in cases.iter().zip(arms) {
                    self.block(code, &case.body, lanes, taken);
                }
                self.block(code, default, lanes, default_lanes);
            }
            Stmt::Call {
                function,
                args,
                result,
            } => {
                let Some(f) = self.program.kernel.functions.get(function.0 as usize) else {
                    return;
                };
                for &l in active {
                    let args = args
                        .iter()
                        .map(|a| self.eval(code, &lanes[l], *a))
                        .collect();
                    lanes[l].frames.push(Frame {
                        locals: vec![Value::U32(0); f.locals.len()],
                        args,
                        result: None,
                    });
                }
                self.block(f, &f.body, lanes, active.to_vec());
                for &l in active {
                    let lane = &mut lanes[l];
                    let frame = lane.frames.pop();
                    lane.status = Status::Running;
                    if let (Some(local), Some(v)) = (result, frame.and_then(|f| f.result)) {
                        lane.frame_mut().locals[local.index()] = v;
                    }
                }
            }
            // Lockstep: every invocation is at the barrier once this statement is reached.
            Stmt::Barrier(_) => {}
            Stmt::Subgroup { op, args, result } => {
                self.subgroup(code, *op, args, *result, lanes, active)
            }
            Stmt::Coop(op) => self.coop(code, op, lanes, active),
            // Lockstep too: no invocation writes between the barrier and the reads, so every
            // one reads the same value.
            Stmt::UniformLoad {
                var,
                indices,
                result,
            } => {
                for &l in active {
                    let (v, at, ty) = self.shared_at(code, &lanes[l], *var, indices);
                    let value = self
                        .program
                        .layouts
                        .load(ty, self.memory(Mem::Shared(v)), at);
                    lanes[l].frame_mut().locals[result.index()] = value;
                }
            }
            Stmt::Atomic {
                fun,
                target,
                value,
                result,
            } => {
                for &l in active {
                    let operand = value.map_or(0, |v| self.eval(code, &lanes[l], v).bits64());
                    let Some((words, scalar)) = self.atomic(code, &lanes[l], target) else {
                        continue;
                    };
                    let old = if scalar.is_wide() {
                        atomic_op64(*fun, words, scalar, operand)
                    } else {
                        u64::from(atomic_op(*fun, &words[0], scalar, operand as u32))
                    };
                    if let Some(local) = result {
                        lanes[l].frame_mut().locals[local.index()] =
                            Value::from_bits64(scalar, old);
                    }
                }
            }
            Stmt::Debug { site, args } => {
                let Some(channel) = self.launch.debug else {
                    return;
                };
                let sites = &self.program.kernel.debug;
                let Some(info) = sites.get(*site as usize) else {
                    return;
                };
                for &l in active {
                    let mut words = vec![*site];
                    for &a in args {
                        super::debug::push_words(&mut words, &self.eval(code, &lanes[l], a));
                    }
                    super::debug::write(channel, info.kind, sites, &words);
                }
            }
            Stmt::CompareExchange {
                target,
                compare,
                value,
                old,
                exchanged,
            } => {
                for &l in active {
                    let c = self.eval(code, &lanes[l], *compare).bits64();
                    let v = self.eval(code, &lanes[l], *value).bits64();
                    let Some((words, scalar)) = self.atomic(code, &lanes[l], target) else {
                        continue;
                    };
                    let r = if scalar.is_wide() {
                        let seen = access::wide_update(words, |o| (o == c).then_some(v));
                        if seen == c {
                            Ok(seen)
                        } else {
                            Err(seen)
                        }
                    } else {
                        words[0]
                            .compare_exchange(
                                c as u32,
                                v as u32,
                                Ordering::Relaxed,
                                Ordering::Relaxed,
                            )
                            .map(u64::from)
                            .map_err(u64::from)
                    };
                    let frame = lanes[l].frame_mut();
                    frame.locals[old.index()] = Value::from_bits64(scalar, r.unwrap_or_else(|v| v));
                    frame.locals[exchanged.index()] = Value::Bool(r.is_ok());
                }
            }
        }
    }

    /// `left op right`, reporting a division by zero when checks are on.
    fn binary(&self, lane: &Lane, op: BinaryOp, left: &Value, right: &Value, span: Span) -> Value {
        let checked = self.launch.checks && matches!(op, BinaryOp::Div | BinaryOp::Rem);
        if let Some(trap) = checked.then(|| value::trap(op, left, right)).flatten() {
            let kind = match trap {
                Trap::DivisionByZero => FaultKind::DivisionByZero,
                Trap::RemainderByZero => FaultKind::RemainderByZero,
            };
            self.report(lane, kind, span);
        }
        value::binary(op, left, right)
    }

    fn builtin(&self, lane: &Lane, b: Builtin) -> u32 {
        let size = self.program.kernel.workgroup_size;
        let grid = self.launch.groups;
        let global = |a: usize| {
            self.block[a]
                .wrapping_mul(size[a])
                .wrapping_add(lane.thread[a])
        };
        match b {
            Builtin::ThreadIdx(a) => lane.thread[a.index()],
            Builtin::BlockIdx(a) => self.block[a.index()],
            Builtin::BlockDim(a) => size[a.index()],
            Builtin::GridDim(a) => grid[a.index()],
            Builtin::GlobalIdx(a) => global(a.index()),
            Builtin::GlobalThreadId => {
                let width = grid[0].wrapping_mul(size[0]);
                let height = grid[1].wrapping_mul(size[1]);
                let rows = global(1).wrapping_add(global(2).wrapping_mul(height));
                global(0).wrapping_add(rows.wrapping_mul(width))
            }
            Builtin::SubgroupSize => self.launch.subgroup_size,
            Builtin::SubgroupInvocationId => {
                let [x, y, z] = lane.thread;
                let index = x + size[0] * (y + size[1] * z);
                index % self.launch.subgroup_size.max(1)
            }
        }
    }

    /// A subgroup operation: every active invocation's arguments, then each subgroup's
    /// results together (see [`super::subgroup`]). Invocation `l` of the workgroup (its
    /// `local_invocation_index`) is lane `l % size` of subgroup `l / size`.
    fn subgroup(
        &self,
        code: Code<'p>,
        op: SubgroupOp,
        args: &[Handle<Expression>],
        result: Handle<Local>,
        lanes: &mut [Lane],
        active: &[usize],
    ) {
        let size = self.launch.subgroup_size.max(1) as usize;
        let mut start = 0;
        while start < active.len() {
            let group = active[start] / size;
            let end = active[start..]
                .iter()
                .position(|&l| l / size != group)
                .map_or(active.len(), |n| start + n);
            let members: Vec<Member> = active[start..end]
                .iter()
                .map(|&l| Member {
                    lane: (l % size) as u32,
                    args: args
                        .iter()
                        .map(|a| self.eval(code, &lanes[l], *a))
                        .collect(),
                })
                .collect();
            let values = super::subgroup::collective(op, &members);
            for (&l, v) in active[start..end].iter().zip(values) {
                lanes[l].frame_mut().locals[result.index()] = v;
            }
            start = end;
        }
    }

    fn eval(&self, code: Code<'p>, lane: &Lane, h: Handle<Expression>) -> Value {
        let node = &code.exprs[h];
        match &node.kind {
            Expr::Literal(l) => Value::literal(*l),
            Expr::Param(p) => self.params[p.0 as usize].clone(),
            Expr::Local(l) => lane.frame().locals[l.index()].clone(),
            Expr::Len(p) => Value::U32(self.lens[p.0 as usize]),
            Expr::Index { slice, index } => {
                let (p, i) = (slice.0 as usize, self.eval(code, lane, *index).as_u32());
                let (elem, stride) = self.elements[p];
                let len = self.lens[p];
                if i >= len {
                    let span = code.exprs[*index].span;
                    self.report(lane, FaultKind::IndexOutOfBounds { index: i, len }, span);
                    return self.program.layouts.zero(elem);
                }
                let words = self.memory(Mem::Buffer(p));
                self.program.layouts.load(elem, words, i as usize * stride)
            }
            Expr::Unary { op, expr } => value::unary(*op, &self.eval(code, lane, *expr)),
            // Short-circuit like Rust, so that a checked run does not report an access the
            // right operand guards against (`i < n && x[i] > 0.0`).
            Expr::Binary {
                op: op @ (BinaryOp::LogicalAnd | BinaryOp::LogicalOr),
                left,
                right,
            } => {
                let l = self.eval(code, lane, *left).is_true();
                match (op, l) {
                    (BinaryOp::LogicalAnd, false) => Value::Bool(false),
                    (BinaryOp::LogicalOr, true) => Value::Bool(true),
                    _ => Value::Bool(self.eval(code, lane, *right).is_true()),
                }
            }
            Expr::Binary { op, left, right } => {
                let (l, r) = (self.eval(code, lane, *left), self.eval(code, lane, *right));
                self.binary(lane, *op, &l, &r, node.span)
            }
            Expr::Select {
                cond,
                accept,
                reject,
            } => {
                // Only the taken arm: a checked run must not report the other arm's access.
                let arm = if self.eval(code, lane, *cond).is_true() {
                    accept
                } else {
                    reject
                };
                self.eval(code, lane, *arm)
            }
            Expr::Cast { expr, to } => value::cast(&self.eval(code, lane, *expr), *to),
            Expr::SharedIndex { var, indices } => {
                let (v, at, ty) = self.shared_at(code, lane, *var, indices);
                self.program
                    .layouts
                    .load(ty, self.memory(Mem::Shared(v)), at)
            }
            Expr::Builtin(b) => Value::U32(self.builtin(lane, *b)),
            Expr::Math { fun, args } => {
                let args: Vec<Value> = args.iter().map(|a| self.eval(code, lane, *a)).collect();
                if *fun == MathFun::RemEuclid {
                    if let (Some(a), Some(b)) = (args.first(), args.get(1)) {
                        if value::trap(BinaryOp::Rem, a, b).is_some() {
                            self.report(lane, FaultKind::RemainderByZero, node.span);
                        }
                    }
                }
                // `div_euclid` and `div_ceil` by zero panic in Rust, as `/` does.
                if matches!(fun, MathFun::DivEuclid | MathFun::DivCeil) {
                    if let (Some(a), Some(b)) = (args.first(), args.get(1)) {
                        if value::trap(BinaryOp::Div, a, b).is_some() {
                            self.report(lane, FaultKind::DivisionByZero, node.span);
                        }
                    }
                }
                value::math(*fun, &args)
            }
            Expr::Field { .. } | Expr::Access { .. } => {
                memory::stored_bool(self.project(code, lane, h), node.ty)
            }
            Expr::Compose { components, .. } => {
                let parts: Vec<Value> = components
                    .iter()
                    .map(|c| self.eval(code, lane, *c))
                    .collect();
                match node.ty {
                    // As WGSL's constructors: vectors spread into their components, and one
                    // scalar fills every component.
                    Type::Vector(n, s) => {
                        let mut flat: Vec<Value> = Vec::with_capacity(usize::from(n));
                        for p in parts {
                            match p {
                                Value::Vector(_, m, _) => {
                                    flat.extend((0..usize::from(m)).map(|i| p.component(i)))
                                }
                                scalar => flat.push(scalar),
                            }
                        }
                        if flat.len() == 1 {
                            let one = flat[0].clone();
                            flat.resize(usize::from(n), one);
                        }
                        Value::vector(s, flat)
                    }
                    _ => Value::Composite(parts.into_boxed_slice()),
                }
            }
            Expr::Zero(ty) => self.program.layouts.zero(*ty),
            Expr::Argument(n) => lane
                .frame()
                .args
                .get(*n as usize)
                .cloned()
                .unwrap_or(Value::U32(0)),
        }
    }

    /// A chain of field and element reads, walked by reference from a local so that reading
    /// one element does not copy the whole array.
    fn project(&self, code: Code<'p>, lane: &Lane, h: Handle<Expression>) -> Value {
        let mut steps = Vec::new();
        let mut at = h;
        loop {
            match &code.exprs[at].kind {
                Expr::Field { base, field } => {
                    steps.push((*field as usize, None));
                    at = *base;
                }
                Expr::Access { base, index } => {
                    let len = self
                        .program
                        .layouts
                        .array(code.exprs[*base].ty)
                        .map_or(1, |a| a.1);
                    let i = self.eval(code, lane, *index).as_u32();
                    let i = self.clamp(lane, i, len, code.exprs[*index].span);
                    steps.push((i, Some(())));
                    at = *base;
                }
                _ => break,
            }
        }
        let owned;
        let mut v = match &code.exprs[at].kind {
            Expr::Local(l) => &lane.frame().locals[l.index()],
            _ => {
                owned = self.eval(code, lane, at);
                &owned
            }
        };
        for (step, _) in steps.iter().rev() {
            match v {
                Value::Composite(parts) => match parts.get(*step) {
                    Some(p) => v = p,
                    None => return Value::U32(0),
                },
                Value::Vector(..) => return v.component(*step),
                _ => return v.clone(),
            }
        }
        v.clone()
    }
}
