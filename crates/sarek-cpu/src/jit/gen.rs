//! The generator's state and what every construct shares: Cranelift types of IR types, values
//! in registers or in memory, locals, loads and stores in WGSL's word layout.

use cranelift_codegen::ir::{
    self, types, InstBuilder, MemFlagsData, StackSlotData, StackSlotKind, Value,
};
use cranelift_frontend::{FunctionBuilder, Variable};

use super::Unsupported;
use crate::arena::Handle;
use crate::interp::memory::Layouts;
use crate::ir::{Function, Kernel, Local, Scalar, Type};

/// Result of generating a construct: `Err` names what the JIT does not compile.
pub(super) type Gen<T> = Result<T, Unsupported>;

/// A value of the IR while code is generated.
#[derive(Clone, Debug)]
pub(super) enum Val {
    /// A scalar in a register (`bool` as an `i8` 0 or 1).
    S(Value),
    /// A vector's components in registers.
    V(Vec<Value>),
    /// A struct or array: the address of its words in WGSL's layout (read-only for the user
    /// of the value: stores go through places).
    M(Value),
}

/// Where a local lives.
#[derive(Clone, Debug)]
pub(super) enum Home {
    /// A scalar or vector: one variable per component.
    Vars(Vec<Variable>),
    /// A struct or array in a stack slot.
    Slot(ir::StackSlot),
    /// A struct or array at this byte offset of the invocation's frame (kernels with
    /// barriers).
    Frame(u32),
}

/// A function being inlined: the kernel's entry (the first) or a helper it calls.
pub(super) struct Act<'a> {
    pub f: &'a Function,
    pub homes: Vec<Option<Home>>,
    pub args: Vec<Val>,
    /// For a helper: the block after the call, and the caller's local taking the result.
    pub ret: Option<(ir::Block, Option<Handle<Local>>)>,
}

/// Where `break` and `continue` go.
#[derive(Clone, Copy, Debug)]
pub(super) enum LoopTarget {
    /// A loop run by one invocation: jump.
    Native { cont: ir::Block, exit: ir::Block },
    /// A loop the whole workgroup runs (it holds a barrier): set a flag and leave the
    /// invocation's segment; the workgroup level follows the flag after the segment.
    Workgroup { brk: Variable, cont: Variable },
}

/// The launch's pointers, loaded once at the function's start.
#[derive(Clone, Copy)]
pub(super) struct CtxVals {
    pub ctx: Value,
    pub uniform: Value,
    pub buffers: Value,
    pub lens: Value,
    pub bounds: Value,
    pub shared: Value,
    pub scratch: Value,
    pub returned: Value,
    pub zeros: Value,
    pub sink: Value,
    pub block: [Value; 3],
    pub groups: [Value; 3],
    pub fuel_limit: Value,
    /// `block[a] · workgroup_size[a]`: the workgroup's part of each global id, loaded from
    /// the context (see `Ctx::thread_id_base` for why it is not computed here).
    pub global_base: [Value; 3],
    /// The grid's width and height in invocations (`groups[0..2] · workgroup_size[0..2]`).
    pub extent: [Value; 2],
    /// The workgroup's part of `global_thread_id()`:
    /// `global_base[0] + (global_base[1] + global_base[2] · height) · width`.
    pub thread_id_base: Value,
}

/// A buffer parameter's values, loaded once at the function's start (so that no access
/// reloads them).
#[derive(Clone, Copy)]
pub(super) struct Param {
    /// The address of its first word.
    pub base: Value,
    /// `len()`, the uniform block's length.
    pub len: Value,
    /// The whole elements its buffer holds (indices below are in memory).
    pub bound: Value,
}

/// Code generation for one kernel.
pub(super) struct Cg<'a, 'f> {
    pub b: FunctionBuilder<'f>,
    pub k: &'a Kernel,
    pub lay: &'a Layouts,
    pub c: CtxVals,
    /// Per kernel parameter, its buffer's address and lengths.
    pub params: Vec<Param>,
    /// Whether the entry has a `return` (kernels with barriers then track who returned).
    pub returns: bool,
    /// Per value parameter, its byte offset in the uniform block.
    pub param_bytes: Vec<u32>,
    /// Per workgroup array, its word offset in workgroup memory.
    pub shared_words: Vec<u32>,
    /// Per local of the entry (kernels with barriers), its byte offset in the frame.
    pub frame_offsets: Vec<u32>,
    /// Bytes of one invocation's frame.
    pub frame_bytes: u32,
    /// Whether the kernel is split at its barriers.
    pub barriers: bool,
    /// `thread_idx` of the invocation being generated.
    pub thread: [Value; 3],
    /// Its index in the workgroup.
    pub invocation: Value,
    /// Its frame (kernels with barriers).
    pub frame: Option<Value>,
    /// Where an invocation goes when it is done with the code being generated (`return`,
    /// or leaving a segment).
    pub inv_exit: Option<ir::Block>,
    pub acts: Vec<Act<'a>>,
    pub loops: Vec<LoopTarget>,
    /// Steps spent by the workgroup (an `i64`).
    pub fuel: Variable,
    /// Invocations that have not returned (kernels with barriers).
    pub alive: Variable,
    pub math_sig: ir::SigRef,
    /// `extern "C" fn(f32, f32) -> f32`: Rust functions the generated code calls (`frem`,
    /// `interp::f32_math::binary`).
    pub f32_call_sig: ir::SigRef,
    /// `extern "C" fn(f32) -> f32` (`interp::f32_math::unary`).
    pub f32_unary_sig: ir::SigRef,
    /// The `MathFun`s the generated code points to (leaked, so they outlive the code).
    pub math_funs: Vec<(crate::ir::MathFun, usize)>,
    /// The collectives the generated code calls (`collective/`), owned by the compiled
    /// kernel once generated (the code holds their addresses).
    // Boxed: the code holds their addresses, which must not move as the list grows.
    #[allow(clippy::vec_box)]
    pub collectives: Vec<Box<super::collective::Desc>>,
    /// The entry's locals by index.
    pub entry_locals: Vec<Handle<Local>>,
    /// Per workgroup-level loop being generated: its continuing block and its exit.
    pub wg_targets: Vec<(ir::Block, ir::Block)>,
    /// Kernels with barriers: which entry locals need a frame, which are uniform.
    pub plan: super::live::Plan,
    /// The memory the whole kernel may write (a buffer it never writes is read with
    /// [`movable`] loads).
    pub kernel_writes: super::effects::Writes,
    /// Inside a segment (or the invocation loop of a kernel without barriers): workgroup
    /// memory's address loaded afresh at the segment's start, and what the segment may
    /// write. A workgroup array the segment does not write is read with [`movable`] loads
    /// from that address, which keeps them from moving out of the segment.
    pub segment: Option<(Value, super::effects::Writes)>,
    /// Whether the workgroup-level code being generated is in the body of a workgroup-level
    /// loop (not its continuing): a uniform `if c { break }` there runs once per workgroup.
    pub wg_body: bool,
}

/// Memory accesses the generator has bounded: aligned and never trapping.
pub(super) fn flags() -> MemFlagsData {
    MemFlagsData::trusted()
}

/// Flags of a load from memory that nothing writes while the load can run
/// ([`super::effects`]): Cranelift treats it as pure and may move it to its use or out of
/// loops.
pub(super) fn movable() -> MemFlagsData {
    flags().with_readonly().with_can_move()
}

/// The Cranelift type of a scalar.
pub(super) fn cl_type(s: Scalar) -> Gen<ir::Type> {
    Ok(match s {
        Scalar::F32 => types::F32,
        Scalar::I32 | Scalar::U32 => types::I32,
        Scalar::Bool => types::I8,
        // A half lives in an `f32` register, rounded to a half's precision (`half.rs`).
        Scalar::F16 => super::half::REG,
        #[allow(unreachable_patterns)]
        _ => return Err(Unsupported(format!("the scalar type {s:?}"))),
    })
}

impl<'a> Cg<'a, '_> {
    /// `iconst` of an `i32`/`u32`.
    pub fn u32c(&mut self, v: u32) -> Value {
        self.b.ins().iconst(types::I32, i64::from(v as i32))
    }

    /// The zero of a scalar type.
    pub fn zero_scalar(&mut self, s: Scalar) -> Gen<Value> {
        Ok(match cl_type(s)? {
            types::F32 => self.b.ins().f32const(0.0),
            t => self.b.ins().iconst(t, 0),
        })
    }

    /// Words a value of `ty` takes in memory.
    pub fn words(&self, ty: Type) -> u32 {
        crate::layout::of(&self.k.types, ty).size.div_ceil(4)
    }

    /// Bytes a value of `ty` takes in memory.
    pub fn bytes(&self, ty: Type) -> u32 {
        crate::layout::of(&self.k.types, ty).size
    }

    /// The scalar of a scalar or vector type.
    pub fn scalar_of(ty: Type) -> Gen<Scalar> {
        match ty {
            Type::Scalar(s) | Type::Vector(_, s) => Ok(s),
            other => Err(Unsupported(format!("a scalar operation on {other:?}"))),
        }
    }

    /// Reads a `ty` at `addr` (a `bool` is the word `!= 0`, as a struct's field is read).
    pub fn load(&mut self, ty: Type, addr: Value) -> Gen<Val> {
        self.load_with(ty, addr, flags())
    }

    /// [`Cg::load`] with these flags for its scalar loads ([`movable`] or [`flags`]).
    pub fn load_with(&mut self, ty: Type, addr: Value, fl: MemFlagsData) -> Gen<Val> {
        Ok(match ty {
            Type::Scalar(s) => Val::S(self.load_scalar(s, addr, 0, fl)?),
            Type::Vector(n, s) => {
                let mut parts = Vec::new();
                for i in 0..i32::from(n) {
                    parts.push(self.load_scalar(s, addr, component_bytes(s) * i, fl)?);
                }
                Val::V(parts)
            }
            Type::Array(_) | Type::Struct(_) => Val::M(addr),
        })
    }

    fn load_scalar(&mut self, s: Scalar, addr: Value, offset: i32, fl: MemFlagsData) -> Gen<Value> {
        Ok(match s {
            Scalar::Bool => {
                let w = self.b.ins().load(types::I32, fl, addr, offset);
                self.b
                    .ins()
                    .icmp_imm_s(ir::condcodes::IntCC::NotEqual, w, 0)
            }
            // Two bytes at their own address (the neighbouring half is not touched).
            Scalar::F16 => {
                let h = self.b.ins().uload16(types::I32, fl, addr, offset);
                super::half::widen(&mut self.b, h)
            }
            s => {
                let t = cl_type(s)?;
                self.b.ins().load(t, fl, addr, offset)
            }
        })
    }

    /// Stores a scalar component (a `bool` as the word 0 or 1, an `f16` as its two bytes,
    /// leaving the other half of the word as it is).
    pub fn store_scalar(&mut self, s: Scalar, v: Value, addr: Value, offset: i32) {
        if s == Scalar::F16 {
            let h = super::half::narrow(&mut self.b, v);
            self.b.ins().istore16(flags(), h, addr, offset);
            return;
        }
        let v = if s == Scalar::Bool {
            self.b.ins().uextend(types::I32, v)
        } else {
            v
        };
        self.b.ins().store(flags(), v, addr, offset);
    }

    /// Writes `v`, a `ty`, at `addr`.
    pub fn store(&mut self, ty: Type, addr: Value, v: &Val) -> Gen<()> {
        match (ty, v) {
            (Type::Scalar(s), Val::S(x)) => self.store_scalar(s, *x, addr, 0),
            (Type::Vector(_, s), Val::V(parts)) => {
                for (i, p) in parts.clone().into_iter().enumerate() {
                    self.store_scalar(s, p, addr, component_bytes(s) * i as i32);
                }
            }
            (Type::Vector(n, s), Val::S(x)) => {
                for i in 0..i32::from(n) {
                    self.store_scalar(s, *x, addr, component_bytes(s) * i);
                }
            }
            (Type::Array(_) | Type::Struct(_), Val::M(src)) => {
                let n = self.bytes(ty);
                self.copy_bytes(addr, *src, n);
            }
            (ty, v) => return Err(Unsupported(format!("storing {v:?} as {ty:?}"))),
        }
        Ok(())
    }

    /// Copies `n` bytes (a multiple of 2) from `src` to `dst` (the same or disjoint regions):
    /// whole words, then a last half (a value holding `f16`s may end in the middle of a
    /// word, whose other half belongs to something else).
    pub fn copy_bytes(&mut self, dst: Value, src: Value, n: u32) {
        self.copy_words(dst, src, n / 4);
        if !n.is_multiple_of(4) {
            let at = (n / 4 * 4) as i32;
            let h = self.b.ins().uload16(types::I32, flags(), src, at);
            self.b.ins().istore16(flags(), h, dst, at);
        }
    }

    /// Copies `n` words from `src` to `dst` (the same or disjoint regions).
    pub fn copy_words(&mut self, dst: Value, src: Value, n: u32) {
        if n <= 32 {
            let words: Vec<Value> = (0..n)
                .map(|i| self.b.ins().load(types::I32, flags(), src, 4 * i as i32))
                .collect();
            for (i, w) in words.into_iter().enumerate() {
                self.b.ins().store(flags(), w, dst, 4 * i as i32);
            }
            return;
        }
        // A loop for large arrays; regions are equal or disjoint, so forwards is right.
        let i = self.b.declare_var(types::I64);
        let zero = self.b.ins().iconst(types::I64, 0);
        self.b.def_var(i, zero);
        let (head, body, done) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        self.b.ins().jump(head, &[]);
        self.b.switch_to_block(head);
        let iv = self.b.use_var(i);
        let more =
            self.b
                .ins()
                .icmp_imm_s(ir::condcodes::IntCC::UnsignedLessThan, iv, i64::from(n) * 4);
        self.b.ins().brif(more, body, &[], done, &[]);
        self.b.switch_to_block(body);
        let from = self.b.ins().iadd(src, iv);
        let to = self.b.ins().iadd(dst, iv);
        let w = self.b.ins().load(types::I32, flags(), from, 0);
        self.b.ins().store(flags(), w, to, 0);
        let next = self.b.ins().iadd_imm_s(iv, 4);
        self.b.def_var(i, next);
        self.b.ins().jump(head, &[]);
        self.b.switch_to_block(done);
    }

    /// Writes zero over `n` words at `dst`.
    pub fn zero_words(&mut self, dst: Value, n: u32) {
        let zeros = self.c.zeros;
        let chunk = super::ZERO_WORDS;
        let mut done = 0;
        while done < n {
            let len = (n - done).min(chunk);
            let to = self.b.ins().iadd_imm_s(dst, i64::from(done) * 4);
            self.copy_words(to, zeros, len);
            done += len;
        }
    }

    /// A fresh stack slot of `words` words.
    pub fn slot(&mut self, words: u32) -> ir::StackSlot {
        self.b.create_sized_stack_slot(StackSlotData::new(
            StackSlotKind::ExplicitSlot,
            words.max(1) * 4,
            4,
        ))
    }

    /// The address of a stack slot.
    pub fn slot_addr(&mut self, slot: ir::StackSlot) -> Value {
        self.b.ins().stack_addr(types::I64, slot, 0)
    }

    /// Where local `l` of the innermost function lives (created on first use).
    pub fn home(&mut self, l: Handle<Local>) -> Gen<Home> {
        self.home_in(self.acts.len() - 1, l)
    }

    /// Where local `l` of function activation `act` lives.
    pub fn home_in(&mut self, act: usize, l: Handle<Local>) -> Gen<Home> {
        if let Some(h) = self.acts[act].homes.get(l.index()).cloned().flatten() {
            return Ok(h);
        }
        let ty = self.acts[act].f.locals[l].ty;
        let home = match ty {
            Type::Scalar(s) => Home::Vars(vec![self.b.declare_var(cl_type(s)?)]),
            Type::Vector(n, s) => {
                let t = cl_type(s)?;
                Home::Vars((0..n).map(|_| self.b.declare_var(t)).collect())
            }
            _ if act == 0 && self.barriers => Home::Frame(self.frame_offsets[l.index()]),
            _ => {
                let words = self.words(ty);
                Home::Slot(self.slot(words))
            }
        };
        let homes = &mut self.acts[act].homes;
        if homes.len() <= l.index() {
            homes.resize(l.index() + 1, None);
        }
        homes[l.index()] = Some(home.clone());
        Ok(home)
    }

    /// The address of a local that lives in memory.
    pub fn home_addr(&mut self, home: &Home) -> Gen<Value> {
        match home {
            Home::Slot(s) => Ok(self.slot_addr(*s)),
            Home::Frame(off) => {
                let frame = self
                    .frame
                    .ok_or_else(|| Unsupported("a frame outside an invocation".into()))?;
                Ok(self.b.ins().iadd_imm_s(frame, i64::from(*off)))
            }
            Home::Vars(_) => Err(Unsupported("the address of a register local".into())),
        }
    }

    /// Reads a local's value.
    pub fn read_local(&mut self, act: usize, l: Handle<Local>) -> Gen<Val> {
        let home = self.home_in(act, l)?;
        Ok(match &home {
            Home::Vars(vars)
                if vars.len() == 1
                    && !matches!(self.acts[act].f.locals[l].ty, Type::Vector(..)) =>
            {
                Val::S(self.b.use_var(vars[0]))
            }
            Home::Vars(vars) => Val::V(vars.iter().map(|v| self.b.use_var(*v)).collect()),
            mem => Val::M(self.home_addr(mem)?),
        })
    }

    /// Sets a local to `v`.
    pub fn write_local(&mut self, act: usize, l: Handle<Local>, v: &Val) -> Gen<()> {
        let ty = self.acts[act].f.locals[l].ty;
        let home = self.home_in(act, l)?;
        match (&home, v) {
            (Home::Vars(vars), Val::S(x)) => {
                for var in vars {
                    self.b.def_var(*var, *x);
                }
            }
            (Home::Vars(vars), Val::V(parts)) => {
                for (var, p) in vars.iter().zip(parts) {
                    self.b.def_var(*var, *p);
                }
            }
            (mem, v) => {
                let addr = self.home_addr(mem)?;
                self.store(ty, addr, v)?;
            }
        }
        Ok(())
    }

    /// The zero value of `ty`.
    pub fn zero(&mut self, ty: Type) -> Gen<Val> {
        Ok(match ty {
            Type::Scalar(s) => Val::S(self.zero_scalar(s)?),
            Type::Vector(n, s) => {
                let z = self.zero_scalar(s)?;
                Val::V(vec![z; usize::from(n)])
            }
            _ => {
                if self.words(ty) > super::ZERO_WORDS {
                    // Larger than the zeroed area: a zeroed temporary.
                    let words = self.words(ty);
                    let slot = self.slot(words);
                    let addr = self.slot_addr(slot);
                    self.zero_words(addr, words);
                    Val::M(addr)
                } else {
                    Val::M(self.c.zeros)
                }
            }
        })
    }
}

/// Bytes between a vector's components in memory.
pub(super) fn component_bytes(s: Scalar) -> i32 {
    if s == Scalar::F16 {
        2
    } else {
        4
    }
}
