//! The CPU backend: an interpreter of the IR with the meaning the WGSL back end gives it.
//!
//! The invocations of a workgroup run in lockstep, one statement at a time for every
//! invocation that reaches it, so a barrier (which the uniformity check keeps in uniform
//! control flow) needs no threads: every invocation has finished the statements before it
//! when the first one goes past. Workgroups run in parallel on all cores. Buffers, the uniform
//! block and workgroup memory are 32-bit words in WGSL's layout (`memory.rs`), so the CPU reads
//! the bytes the GPU would.
//!
//! Where WGSL defines what Rust would panic on (an integer division by zero, an index out of
//! bounds), the interpreter gives WGSL's result; with [`Launch::checks`] it stops at the first
//! such operation instead and reports a [`Fault`] with the invocation and the source span.
//!
//! ```
//! use std::sync::atomic::AtomicU32;
//! use sarek_cpu::interp::{Launch, Program};
//! # use sarek_ir::ir::*;
//! # let mut kernel = Kernel {
//! #     name: "fill".into(),
//! #     params: vec![
//! #         Param { name: "v".into(), ty: ParamType::Value(Type::Scalar(Scalar::U32)), span: Span(0) },
//! #         Param { name: "out".into(), ty: ParamType::Slice { elem: Type::Scalar(Scalar::U32), access: Access::ReadWrite }, span: Span(0) },
//! #     ],
//! #     workgroup_size: [64, 1, 1], entry: Function::new("fill", Span(0)), shared: Vec::new(),
//! #     span: Span(0), types: Vec::new(), functions: Vec::new(), limits: Limits::Portable,
//! #     debug: Vec::new(),
//! # };
//! # let u = Type::Scalar(Scalar::U32);
//! # let gid = kernel.entry.exprs.append(Expression { kind: Expr::Builtin(Builtin::GlobalThreadId), ty: u, span: Span(0) });
//! # let v = kernel.entry.exprs.append(Expression { kind: Expr::Param(ParamId(0)), ty: u, span: Span(0) });
//! # kernel.entry.body = vec![Statement { kind: Stmt::Assign { place: Place::Index { slice: ParamId(1), index: gid }, op: None, value: v }, span: Span(0) }];
//! // `kernel`: fn fill(v: u32, out: &mut [u32]) { out[global_thread_id()] = v; }
//! let program = Program::new(kernel);
//! let out: Vec<AtomicU32> = (0..100).map(|_| AtomicU32::new(0)).collect();
//! let uniform = program.uniform(&[(0, 7)], [2, 1, 1], &[(1, 100)]);
//! let launch = Launch::new(&uniform, [2, 1, 1]).buffer(1, &out);
//! program.run(&launch).unwrap();
//! // The second workgroup's writes past the end were dropped, as WebGPU drops them.
//! assert!(out.iter().all(|w| w.load(std::sync::atomic::Ordering::Relaxed) == 7));
//! ```

pub(crate) mod coop;
mod debug;
mod exec;
pub(crate) mod f32_math;
pub(crate) mod memory;
pub mod packing;
mod std_math;
pub mod subgroup;
pub mod value;

use std::sync::atomic::{AtomicU32, Ordering};

use crate::abi::{self, Abi, FieldSource};
use crate::ir::{Kernel, ParamType, Span, Stmt};
use memory::Layouts;
pub use subgroup::{valid_subgroup_size, DEFAULT_SUBGROUP_SIZE};
pub use value::Value;

/// A kernel ready to run on the CPU.
pub struct Program {
    kernel: Kernel,
    abi: Abi,
    layouts: Layouts,
}

impl std::fmt::Debug for Program {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Program")
            .field("kernel", &self.kernel.name)
            .finish()
    }
}

/// What one launch gives the kernel.
#[derive(Clone, Debug)]
pub struct Launch<'a> {
    /// The uniform block's words, packed as the ABI says ([`Program::uniform`]).
    pub uniform: &'a [AtomicU32],
    /// Per kernel parameter: the words of its buffer, for slice parameters.
    pub buffers: Vec<Option<&'a [AtomicU32]>>,
    /// The number of workgroups along each axis.
    pub groups: [u32; 3],
    /// Report the first out-of-bounds index or integer division by zero as a [`Fault`]
    /// instead of giving WGSL's result.
    pub checks: bool,
    /// How many threads run workgroups (at least 1).
    pub threads: usize,
    /// Stop a workgroup after this many steps, with [`FaultKind::OutOfFuel`], so that a
    /// kernel that may not terminate cannot run forever; `None` runs to completion. A step is
    /// one invocation running a statement or starting a loop iteration, so the steps of a
    /// workgroup follow the work it does (and an empty `loop {}` spends fuel too).
    pub fuel: Option<u64>,
    /// The subgroup size the subgroup operations emulate (a power of two from 4 to 128;
    /// [`DEFAULT_SUBGROUP_SIZE`] unless set): see [`subgroup`].
    pub subgroup_size: u32,
    /// The debug channel's words, for a kernel that prints or asserts
    /// (`sarek_ir::ir::debug`); without it those statements do nothing.
    pub debug: Option<&'a [AtomicU32]>,
}

impl<'a> Launch<'a> {
    /// A launch over `groups` workgroups, without buffers, checks off, on every core.
    pub fn new(uniform: &'a [AtomicU32], groups: [u32; 3]) -> Launch<'a> {
        // Asked once: `available_parallelism` reads the cgroup's files on Linux (tens of
        // microseconds, paid by every launch before).
        static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
        let threads =
            *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        Launch {
            uniform,
            buffers: Vec::new(),
            groups,
            checks: false,
            threads,
            fuel: None,
            subgroup_size: DEFAULT_SUBGROUP_SIZE,
            debug: None,
        }
    }

    /// Binds the words of a buffer to parameter `param`.
    pub fn buffer(mut self, param: usize, words: &'a [AtomicU32]) -> Launch<'a> {
        if self.buffers.len() <= param {
            self.buffers.resize(param + 1, None);
        }
        self.buffers[param] = Some(words);
        self
    }
}

/// What went wrong in an invocation run with [`Launch::checks`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FaultKind {
    /// An index past the end of a buffer, a workgroup array or a local array.
    IndexOutOfBounds {
        /// The index.
        index: u32,
        /// The length indexed.
        len: u32,
    },
    /// An integer `/` by zero.
    DivisionByZero,
    /// An integer `%` (or `rem_euclid`) by zero.
    RemainderByZero,
    /// The workgroup ran out of [`Launch::fuel`] (reported whether or not checks are on).
    OutOfFuel,
}

impl std::fmt::Display for FaultKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FaultKind::IndexOutOfBounds { index, len } => {
                write!(
                    f,
                    "index out of bounds: the len is {len} but the index is {index}"
                )
            }
            FaultKind::DivisionByZero => f.write_str("attempt to divide by zero"),
            FaultKind::RemainderByZero => {
                f.write_str("attempt to calculate the remainder with a divisor of zero")
            }
            FaultKind::OutOfFuel => f.write_str("the workgroup ran out of fuel"),
        }
    }
}

/// The first faulting operation of a checked launch: what, where in the source, and which
/// invocation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// What went wrong.
    pub kind: FaultKind,
    /// The operation's source location (an index into the kernel's span table).
    pub span: Span,
    /// `block_idx` of the invocation.
    pub block: [u32; 3],
    /// `thread_idx` of the invocation.
    pub thread: [u32; 3],
}

impl Program {
    /// Prepares `kernel` to run.
    pub fn new(kernel: Kernel) -> Program {
        let abi = abi::layout(&kernel);
        let layouts = Layouts::new(&kernel.types);
        Program {
            kernel,
            abi,
            layouts,
        }
    }

    /// Reads a kernel serialized by [`Kernel::to_json`] (as `#[sarek::kernel]` embeds it).
    pub fn from_json(json: &str) -> Result<Program, String> {
        Kernel::from_json(json).map(Program::new)
    }

    /// The field offsets and strides of the kernel's types, in words (shared with the JIT).
    #[cfg_attr(not(feature = "jit"), allow(dead_code))]
    pub(crate) fn layouts(&self) -> &Layouts {
        &self.layouts
    }

    /// The kernel.
    pub fn kernel(&self) -> &Kernel {
        &self.kernel
    }

    /// The kernel's ABI without its WGSL names ([`abi::layout`]): the uniform block's layout is
    /// the one [`Launch::uniform`] follows.
    pub fn abi(&self) -> &Abi {
        &self.abi
    }

    /// An estimate of the host memory one invocation needs in the interpreter, in bytes: its
    /// locals, those of every helper, and as much again for the temporaries that build and
    /// copy them (a local array `[0u32; n]` takes `n` values of `size_of::<Value>()` bytes,
    /// not `4 * n`). A workgroup needs this times its invocations, so the runtime can refuse
    /// a launch before it exhausts memory. Saturates at `u64::MAX`.
    pub fn invocation_memory(&self) -> u64 {
        let kernel = &self.kernel;
        let locals = kernel
            .all_functions()
            .flat_map(|f| f.locals.iter().map(|(_, l)| l.ty));
        locals
            .fold(0u64, |n, ty| n.saturating_add(self.layouts.value_bytes(ty)))
            .saturating_mul(2)
    }

    /// Whether the kernel has a barrier or a subgroup operation (its invocations cannot run
    /// one after another).
    pub fn has_barriers(&self) -> bool {
        self.kernel.any_statement(|s| {
            matches!(
                s,
                Stmt::Barrier(_) | Stmt::Subgroup { .. } | Stmt::UniformLoad { .. } | Stmt::Coop(_)
            )
        })
    }

    /// Packs a uniform block for tests and tools: `values` are `(param, bits)` of scalar
    /// parameters, `lens` the `(param, len)` of slice parameters.
    pub fn uniform(
        &self,
        values: &[(u32, u32)],
        groups: [u32; 3],
        lens: &[(u32, u32)],
    ) -> Vec<AtomicU32> {
        let words = (self.abi.uniform.size as usize).div_ceil(4);
        let out: Vec<AtomicU32> = (0..words).map(|_| AtomicU32::new(0)).collect();
        let put = |offset: u32, v: u32| {
            if let Some(w) = out.get(offset as usize / 4) {
                w.store(v, Ordering::Relaxed);
            }
        };
        for f in self.abi.uniform.fields.iter() {
            match f.source {
                FieldSource::Grid => {
                    for (i, g) in groups.iter().enumerate() {
                        put(f.offset + 4 * i as u32, *g);
                    }
                }
                FieldSource::Length { param } => {
                    if let Some((_, len)) = lens.iter().find(|(p, _)| *p == param) {
                        put(f.offset, *len);
                    }
                }
                FieldSource::Scalar { param, .. } => {
                    if let Some((_, v)) = values.iter().find(|(p, _)| *p == param) {
                        put(f.offset, *v);
                    }
                }
                FieldSource::Bytes { .. } => {}
            }
        }
        out
    }

    /// Runs the kernel over `launch.groups` workgroups. With checks on, stops at the first
    /// fault and returns it.
    pub fn run(&self, launch: &Launch<'_>) -> Result<(), Fault> {
        if launch.groups.contains(&0) {
            return Ok(());
        }
        let params = self.params(launch);
        let lens: Vec<u32> = self
            .kernel
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| self.len(launch, i, p.ty))
            .collect();
        crate::workers::groups(
            launch.groups,
            launch.threads,
            || exec::Workgroup::new(self, launch, &params, &lens),
            |group, block| group.run(block),
        )
    }

    /// The values of the scalar and struct parameters, read from the uniform block.
    fn params(&self, launch: &Launch<'_>) -> Vec<Value> {
        self.kernel
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let ParamType::Value(ty) = p.ty else {
                    return Value::U32(0);
                };
                let offset = self
                    .abi
                    .uniform
                    .fields
                    .iter()
                    .find(|f| f.source.value_param() == Some(i as u32))
                    .map_or(0, |f| f.offset as usize / memory::UNIT);
                self.layouts.load(ty, launch.uniform, offset)
            })
            .collect()
    }

    /// The element count of slice parameter `param`, as the uniform block holds it.
    pub(crate) fn len(&self, launch: &Launch<'_>, param: usize, ty: ParamType) -> u32 {
        if ty.buffer().is_none() {
            return 0;
        }
        let field = self.abi.uniform.fields.iter().find(|f| {
            f.source
                == FieldSource::Length {
                    param: param as u32,
                }
        });
        match field {
            Some(f) => launch
                .uniform
                .get(f.offset as usize / 4)
                .map_or(0, |w| w.load(Ordering::Relaxed)),
            None => {
                let words = launch
                    .buffers
                    .get(param)
                    .copied()
                    .flatten()
                    .map_or(0, <[_]>::len);
                let stride = ty.buffer().map_or(1, |(t, _)| self.layouts.stride(t));
                (words * (4 / memory::UNIT) / stride) as u32
            }
        }
    }
}
