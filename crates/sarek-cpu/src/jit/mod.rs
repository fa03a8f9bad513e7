//! The CPU backend's JIT: a kernel's IR compiled to machine code through Cranelift, with the
//! interpreter's meaning ([`crate::interp`]), so that kernels run at native speed without a
//! GPU.
//!
//! One generated function runs one workgroup. A kernel without barriers is a loop over the
//! workgroup's invocations around its whole body, with locals in registers. A kernel with
//! barriers is split at them ((`region.rs`)): each stretch between barriers loops over the
//! invocations, a control statement that holds a barrier runs once for the workgroup, and
//! the locals that live across barriers are kept per invocation in memory. Workgroups run in
//! parallel on every core, as in the interpreter. Subgroup operations and cooperative-matrix
//! operations are split at like barriers and run once per workgroup by a call into Rust that
//! computes every subgroup's results with the interpreter's meaning (`collective/`).
//!
//! What the JIT does not compile (64-bit integers, a few rare operations on structs, refused
//! where code is generated) is reported as
//! [`Unsupported`] when the kernel is prepared; the runtime then runs that kernel on the
//! interpreter. Checked launches ([`Launch::checks`])
//! always use the interpreter, which reports where a fault happened.
//!
//! `f16` values live in `f32` registers, rounded to a half after every operation by inline
//! code, and are read and written as 2-byte memory, so that a half never clobbers its
//! neighbour (`half.rs`); memory is addressed in bytes.

mod collective;
mod control;
mod effects;
mod expr;
mod gen;
mod half;
mod inline;
mod lanes;
mod live;
mod native;
mod region;
mod same;
mod stmt;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_half;

use std::sync::{Mutex, OnceLock};

use cranelift_codegen::ir::{types, AbiParam, InstBuilder, UserFuncName};
use cranelift_codegen::Context;
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{default_libcall_names, Linkage, Module};

use crate::interp::{Fault, FaultKind, Launch, Program};
use crate::ir::{MathFun, ParamType, Span};
use gen::{Act, Cg, CtxVals};
use native::{Ctx, Native};

/// Why the JIT does not compile a kernel (the construct it met).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported(pub String);

impl std::fmt::Display for Unsupported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Words of the zeroed area every struct zero and out-of-bounds read can use.
const ZERO_WORDS: u32 = 256;

/// A kernel compiled to machine code.
pub struct Compiled {
    native: Native,
    barriers: bool,
    frame_bytes: u32,
    invocations: u32,
    shared_words: u32,
    /// Words of the zeroed area and of the sink.
    spare_words: u32,
    /// Whether the invocation loop runs four invocations at a time (`lanes.rs`).
    lanes: bool,
    /// How long compiling took.
    compile_time: std::time::Duration,
    /// Workgroups that ran the lanes loop's fast path, over every run (for tests).
    whole: std::sync::atomic::AtomicU64,
    /// The collectives the code calls (`collective/`): their descriptions, whose addresses
    /// the code holds, live as long as it.
    #[allow(clippy::vec_box)]
    collectives: Vec<Box<collective::Desc>>,
    /// The kernel's cooperative-matrix variables (`collective::Matrices`' slots).
    matrices: Vec<crate::ir::CoopMatrix>,
}

/// A worker's count of workgroups that took the fast path, added to the kernel's total when
/// the worker is done (one atomic addition per worker, not per workgroup).
struct Tally<'a>(&'a std::sync::atomic::AtomicU64, u64);

impl Drop for Tally<'_> {
    fn drop(&mut self) {
        self.0
            .fetch_add(self.1, std::sync::atomic::Ordering::Relaxed);
    }
}

impl std::fmt::Debug for Compiled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Compiled")
            .field("barriers", &self.barriers)
            .field("lanes", &self.lanes)
            .field("compile_time", &self.compile_time)
            .finish()
    }
}

/// A `MathFun` at a fixed address for the life of the process (one per function).
fn leaked_fun(fun: MathFun) -> usize {
    static FUNS: OnceLock<Mutex<Vec<&'static MathFun>>> = OnceLock::new();
    let funs = FUNS.get_or_init(|| Mutex::new(Vec::new()));
    let mut funs = funs.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(f) = funs.iter().find(|f| ***f == fun) {
        return *f as *const MathFun as usize;
    }
    let f: &'static MathFun = Box::leak(Box::new(fun));
    funs.push(f);
    f as *const MathFun as usize
}

impl Compiled {
    /// Compiles `program`'s kernel, or says which construct the JIT does not compile.
    pub fn new(program: &Program) -> Result<Compiled, Unsupported> {
        let started = std::time::Instant::now();
        let k = program.kernel();
        // Prints and assertions write the debug channel, which only the interpreter does.
        if !k.debug.is_empty() {
            return Err(Unsupported(
                "prints and assertions (`gpu_println!`, `assert!`)".into(),
            ));
        }
        // The interpreter runs kernels with 64-bit integers.
        if sarek_ir::features::uses_scalar(k, |s| s.is_wide()) {
            return Err(Unsupported("64-bit integers".into()));
        }
        // Helpers holding barriers become part of the entry, which the split works on.
        let inlined;
        let k = if inline::needed(k) {
            inlined = inline::inline_barrier_helpers(k)?;
            &inlined
        } else {
            k
        };
        // The lanes loop where it applies (`lanes.rs`); what it does not handle is generated
        // again with the scalar invocation loop.
        if lanes::wanted(k, region::any_barrier(k, &k.entry.body)) {
            match Self::build(program, k, true, started) {
                Ok(c) => return Ok(c),
                Err(why) if std::env::var("SAREK_JIT_DUMP").is_ok_and(|d| d == k.name) => {
                    eprintln!("{}: the scalar invocation loop ({why})", k.name);
                }
                Err(_) => {}
            }
        }
        Self::build(program, k, false, started)
    }

    /// Whether the kernel's invocations run four at a time (`lanes.rs`).
    pub fn lanes(&self) -> bool {
        self.lanes
    }

    /// Generates and compiles `k` (`program`'s kernel, or it with helpers inlined), with the
    /// lanes loop if `lanes`.
    fn build(
        program: &Program,
        k: &crate::ir::Kernel,
        lanes: bool,
        started: std::time::Instant,
    ) -> Result<Compiled, Unsupported> {
        let lay = program.layouts();
        let err = |e: &dyn std::fmt::Debug| Unsupported(format!("Cranelift: {e:?}"));
        let jit = JITBuilder::with_flags(&[("opt_level", "speed")], default_libcall_names())
            .map_err(|e| err(&e))?;
        let mut module = JITModule::new(jit);
        let ptr = module.target_config().pointer_type();
        if ptr != types::I64 {
            return Err(Unsupported("a target whose pointers are not 64-bit".into()));
        }
        let mut sig = module.make_signature();
        sig.params.push(AbiParam::new(ptr));
        sig.returns.push(AbiParam::new(types::I32));
        let id = module
            .declare_function(&k.name, Linkage::Local, &sig)
            .map_err(|e| err(&e))?;
        let mut ctx: Context = module.make_context();
        ctx.func.signature = sig;
        ctx.func.name = UserFuncName::user(0, id.as_u32());
        let mut fctx = FunctionBuilderContext::new();
        let tcfg = module.target_config();
        let collectives;

        let barriers = region::any_barrier(k, &k.entry.body);
        let (frame_offsets, frame_bytes) = region::frame_layout(k);
        let mut shared_offsets = Vec::new();
        let mut shared_words = 0u32;
        for v in &k.shared {
            shared_offsets.push(shared_words);
            shared_words += (v.bytes(&k.types) as u32).div_ceil(4);
        }
        let mut spare_words = ZERO_WORDS;
        for p in &k.params {
            if let Some((elem, _)) = p.ty.buffer() {
                spare_words = spare_words.max(crate::layout::of(&k.types, elem).stride() / 4 + 4);
            }
        }
        let param_bytes = k
            .params
            .iter()
            .enumerate()
            .map(|(i, _)| {
                program
                    .abi()
                    .uniform
                    .fields
                    .iter()
                    .find(|f| f.source.value_param() == Some(i as u32))
                    .map_or(0, |f| f.offset)
            })
            .collect();
        {
            let mut b = FunctionBuilder::new(&mut ctx.func, &mut fctx);
            let math_sig = {
                let mut s = module.make_signature();
                s.params
                    .extend([AbiParam::new(ptr), AbiParam::new(ptr), AbiParam::new(ptr)]);
                b.import_signature(s)
            };
            let f32_call_sig = {
                let mut s = module.make_signature();
                s.params
                    .extend([AbiParam::new(types::F32), AbiParam::new(types::F32)]);
                s.returns.push(AbiParam::new(types::F32));
                b.import_signature(s)
            };
            let f32_unary_sig = {
                let mut s = module.make_signature();
                s.params.push(AbiParam::new(types::F32));
                s.returns.push(AbiParam::new(types::F32));
                b.import_signature(s)
            };
            let entry = b.create_block();
            b.append_block_params_for_function_params(entry);
            b.switch_to_block(entry);
            let ctxp = b.block_params(entry)[0];
            let c = load_ctx(&mut b, ctxp, k.workgroup_size);
            let fuel = b.declare_var(types::I64);
            let zero64 = b.ins().iconst(types::I64, 0);
            b.def_var(fuel, zero64);
            let alive = b.declare_var(types::I32);
            let [wx, wy, wz] = k.workgroup_size;
            let n = b.ins().iconst(types::I32, i64::from((wx * wy * wz) as i32));
            b.def_var(alive, n);
            let zero = b.ins().iconst(types::I32, 0);
            let params = (0..k.params.len())
                .map(|i| {
                    let f = gen::movable();
                    gen::Param {
                        base: b.ins().load(types::I64, f, c.buffers, 8 * i as i32),
                        len: b.ins().load(types::I32, f, c.lens, 4 * i as i32),
                        bound: b.ins().load(types::I32, f, c.bounds, 4 * i as i32),
                    }
                })
                .collect();
            let mut cg = Cg {
                b,
                k,
                lay,
                c,
                params,
                returns: region::any_return(&k.entry.body),
                param_bytes,
                shared_words: shared_offsets,
                frame_offsets,
                frame_bytes,
                barriers,
                thread: [zero; 3],
                invocation: zero,
                frame: None,
                inv_exit: None,
                acts: vec![Act {
                    f: &k.entry,
                    homes: Vec::new(),
                    args: Vec::new(),
                    ret: None,
                }],
                loops: Vec::new(),
                fuel,
                alive,
                math_sig,
                f32_call_sig,
                f32_unary_sig,
                math_funs: Vec::new(),
                collectives: Vec::new(),
                entry_locals: k.entry.locals.iter().map(|(h, _)| h).collect(),
                wg_targets: Vec::new(),
                plan: if barriers {
                    live::plan(k)
                } else {
                    live::Plan::default()
                },
                kernel_writes: {
                    let mut w = effects::Writes::default();
                    effects::block(k, &k.entry.body, &mut w);
                    w
                },
                segment: None,
                wg_body: false,
            };
            if barriers {
                cg.workgroup_block(&k.entry.body)?;
            } else if lanes {
                let body: Vec<_> = k.entry.body.iter().collect();
                cg.lanes_loop(&body)?;
            } else {
                let none = Default::default();
                let body: Vec<_> = k.entry.body.iter().collect();
                cg.per_invocation(&none, &none, &body)?;
            }
            let zero = cg.u32c(0);
            cg.b.ins().return_(&[zero]);
            cg.b.seal_all_blocks();
            collectives = std::mem::take(&mut cg.collectives);
            cg.b.finalize(tcfg);
        }
        // `SAREK_JIT_DUMP=<kernel name>` prints the kernel's optimised Cranelift IR and its
        // machine code to stderr: what to read when a kernel is slower than expected.
        let dump = std::env::var("SAREK_JIT_DUMP").is_ok_and(|d| d == k.name);
        if dump {
            ctx.set_disasm(true);
        }
        module.define_function(id, &mut ctx).map_err(|e| err(&e))?;
        if dump {
            eprintln!("{}", ctx.func.display());
            if let Some(code) = ctx.compiled_code().and_then(|c| c.vcode.as_ref()) {
                eprintln!("{code}");
            }
        }
        module.clear_context(&mut ctx);
        module.finalize_definitions().map_err(|e| err(&e))?;
        let code = module.get_finalized_function(id);
        let [wx, wy, wz] = k.workgroup_size;
        Ok(Compiled {
            native: Native::new(module, code),
            barriers,
            frame_bytes,
            invocations: wx * wy * wz,
            shared_words,
            spare_words,
            lanes,
            compile_time: started.elapsed(),
            whole: Default::default(),
            collectives,
            matrices: collective::coop_matrices(k),
        })
    }

    /// How long compiling took.
    pub fn compile_time(&self) -> std::time::Duration {
        self.compile_time
    }

    /// How many workgroups, over every run so far, took the lanes loop's fast path (every
    /// access of the workgroup in bounds, tested once: `lanes.rs`). For tests.
    #[doc(hidden)]
    pub fn whole_workgroups(&self) -> u64 {
        self.whole.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Runs the kernel over `launch.groups` workgroups on `launch.threads` threads, as
    /// [`Program::run`] does; only [`FaultKind::OutOfFuel`] can fail it (the JIT does not run
    /// checked launches: the runtime gives those to the interpreter).
    pub fn run(&self, program: &Program, launch: &Launch<'_>) -> Result<(), Fault> {
        if launch.groups.contains(&0) {
            return Ok(());
        }
        let k = program.kernel();
        let lens: Vec<u32> = k
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| program.len(launch, i, p.ty))
            .collect();
        let mut buffers: Vec<*mut u32> = Vec::with_capacity(k.params.len());
        let mut bounds: Vec<u32> = Vec::with_capacity(k.params.len());
        for (i, p) in k.params.iter().enumerate() {
            let words = launch.buffers.get(i).copied().flatten().unwrap_or(&[]);
            buffers.push(words.as_ptr() as *mut u32);
            let whole = match p.ty {
                ParamType::Value(_) => 0,
                ty => {
                    // In bytes: an element of `f16`s may be half a word.
                    let stride = ty
                        .buffer()
                        .map_or(4, |(t, _)| program.layouts().stride_bytes(t));
                    (words.len() * 4 / stride.max(1)) as u32
                }
            };
            bounds.push(whole.min(lens[i]));
        }
        let zeros = vec![0u32; self.spare_words as usize];
        let uniform_ptr = launch.uniform.as_ptr() as *const u32;
        // Borrowed by every worker; the pointers stay valid for the whole run.
        let shared_view = (uniform_ptr as usize, buffers.as_ptr() as usize);
        let buffer_words: Vec<u32> = (0..k.params.len())
            .map(|i| {
                launch
                    .buffers
                    .get(i)
                    .copied()
                    .flatten()
                    .map_or(0, |w| w.len() as u32)
            })
            .collect();
        let subgroup_size = launch.subgroup_size.max(1);
        let state = || {
            let frames = if self.barriers {
                self.invocations as usize
            } else {
                0
            };
            let collective_words = if self.collectives.is_empty() {
                1
            } else {
                self.invocations as usize * collective::SLOT_WORDS as usize
            };
            let subgroups = self.invocations.div_ceil(subgroup_size) as usize;
            (
                vec![0u32; self.shared_words.max(1) as usize],
                vec![0u32; self.spare_words as usize],
                vec![0u8; frames * self.frame_bytes as usize + 16],
                vec![0u8; frames.max(1)],
                Tally(&self.whole, 0),
                vec![0u32; collective_words],
                collective::Matrices::new(&self.matrices, subgroups),
            )
        };
        type State<'t> = (
            Vec<u32>,
            Vec<u32>,
            Vec<u8>,
            Vec<u8>,
            Tally<'t>,
            Vec<u32>,
            collective::Matrices,
        );
        let run = |(shared, sink, scratch, returned, tally, area, matrices): &mut State<'_>,
                   [x, y, z]: [u32; 3]| {
            shared.fill(0);
            returned.fill(0);
            if !self.matrices.is_empty() {
                matrices.clear();
            }
            let size = k.workgroup_size;
            let global_base = [
                x.wrapping_mul(size[0]),
                y.wrapping_mul(size[1]),
                z.wrapping_mul(size[2]),
            ];
            let (width, height) = (
                launch.groups[0].wrapping_mul(size[0]),
                launch.groups[1].wrapping_mul(size[1]),
            );
            let rows = global_base[1].wrapping_add(global_base[2].wrapping_mul(height));
            let thread_id_base = global_base[0].wrapping_add(rows.wrapping_mul(width));
            let mut ctx = Ctx {
                uniform: shared_view.0 as *const u32,
                buffers: shared_view.1 as *const *mut u32,
                lens: lens.as_ptr(),
                bounds: bounds.as_ptr(),
                shared: shared.as_mut_ptr(),
                scratch: scratch.as_mut_ptr(),
                returned: returned.as_mut_ptr(),
                zeros: zeros.as_ptr(),
                sink: sink.as_mut_ptr(),
                block: [x, y, z],
                groups: launch.groups,
                fuel: launch.fuel.unwrap_or(u64::MAX),
                fault_span: 0,
                fault_thread: [0; 3],
                thread_id_base,
                global_base,
                whole: 0,
                subgroup_size,
                collective: area.as_mut_ptr(),
                buffer_words: buffer_words.as_ptr(),
                matrices: matrices as *mut collective::Matrices,
            };
            let status = self.native.call(&mut ctx);
            tally.1 += u64::from(ctx.whole);
            if status != 0 {
                return Err(Fault {
                    kind: FaultKind::OutOfFuel,
                    span: Span(ctx.fault_span),
                    block: [x, y, z],
                    thread: ctx.fault_thread,
                });
            }
            Ok(())
        };
        crate::workers::groups(launch.groups, launch.threads, state, run)
    }
}

/// Loads the launch's pointers and the workgroup's coordinates from the context.
fn load_ctx(
    b: &mut FunctionBuilder<'_>,
    ctx: cranelift_codegen::ir::Value,
    size: [u32; 3],
) -> CtxVals {
    use std::mem::offset_of;
    let f = gen::movable();
    let mut ptr = |off: usize| b.ins().load(types::I64, f, ctx, off as i32);
    let uniform = ptr(offset_of!(Ctx, uniform));
    let buffers = ptr(offset_of!(Ctx, buffers));
    let lens = ptr(offset_of!(Ctx, lens));
    let bounds = ptr(offset_of!(Ctx, bounds));
    let shared = ptr(offset_of!(Ctx, shared));
    let scratch = ptr(offset_of!(Ctx, scratch));
    let returned = ptr(offset_of!(Ctx, returned));
    let zeros = ptr(offset_of!(Ctx, zeros));
    let sink = ptr(offset_of!(Ctx, sink));
    let mut word = |off: usize| b.ins().load(types::I32, f, ctx, off as i32);
    let block = [0, 1, 2].map(|i| word(offset_of!(Ctx, block) + 4 * i));
    let groups = [0, 1, 2].map(|i| word(offset_of!(Ctx, groups) + 4 * i));
    let fuel_limit = b
        .ins()
        .load(types::I64, f, ctx, offset_of!(Ctx, fuel) as i32);
    let mut word = |off: usize| b.ins().load(types::I32, f, ctx, off as i32);
    let global_base = [0, 1, 2].map(|i| word(offset_of!(Ctx, global_base) + 4 * i));
    let thread_id_base = word(offset_of!(Ctx, thread_id_base));
    let extent = [0, 1].map(|a| b.ins().imul_imm_s(groups[a], i64::from(size[a])));
    CtxVals {
        ctx,
        uniform,
        buffers,
        lens,
        bounds,
        shared,
        scratch,
        returned,
        zeros,
        sink,
        block,
        groups,
        fuel_limit,
        global_base,
        extent,
        thread_id_base,
    }
}
