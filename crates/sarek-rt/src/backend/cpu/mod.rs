//! The CPU backend: host buffers as words, and launches run by `sarek_cpu::interp` (or its
//! JIT, `engine`) on the IR each kernel embeds, before `launch` returns.

pub(crate) mod engine;

use std::collections::HashMap;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use engine::Compiled;
use sarek_cpu::interp::{self, FaultKind, Program};

use engine::{prepare, Prepared};

use super::{Backend, BatchWork, Storage, Wait};
use crate::arg::{Arg, KernelSource};
use crate::buffer::RawBuffer;
use crate::config::Config;
use crate::device::{Device, Features, Limits};
use crate::error::{Error, Result};
use crate::launch::{Launch, Valid, LENGTHS_KEPT};
use crate::trace::{Args, Trace};
use sarek_ir::abi::{CoopScalar, CoopShape};
use sarek_ir::ir::Kernel;

/// A buffer of the CPU backend: 32-bit words in WGSL's layout, relaxed atomics because
/// workgroups on several threads write them at once.
pub(crate) type Words = Arc<[AtomicU32]>;

/// What a prepared kernel is cached by: its source's address and the lengths of its
/// workgroup arrays sized at launch (empty for most kernels, which allocates nothing).
type ProgramKey = (usize, Box<[u32]>);

/// State of a CPU device.
pub(crate) struct CpuBackend {
    pub(crate) id: u64,
    pub(crate) threads: usize,
    pub(crate) checks: AtomicBool,
    /// The step limit of a workgroup ([`Device::set_step_limit`]); 0 for none.
    steps: AtomicU64,
    /// The bound on the host memory of a launch's locals ([`Device::set_launch_memory_limit`]).
    memory: AtomicU64,
    pub(crate) limits: Limits,
    /// The subgroup size of the emulation ([`Device::set_subgroup_size`]).
    pub(crate) subgroup_size: AtomicU32,
    /// Kernels read back from their embedded IR (and compiled where the JIT runs them), by
    /// the address of their source and the lengths of their workgroup arrays sized at launch
    /// (at most [`LENGTHS_KEPT`] sets of lengths per kernel).
    programs: Mutex<HashMap<ProgramKey, Arc<Prepared>>>,
    /// Where kernels' prints go (`crate::debug`).
    pub(crate) debug: crate::debug::DebugState,
    /// The settings the device was made with ([`crate::Config`]).
    pub(crate) config: crate::Config,
    /// The device's trace ([`crate::Config::trace`]).
    pub(crate) trace: Option<Arc<Trace>>,
}

impl CpuBackend {
    pub(crate) fn new(id: u64, config: crate::Config) -> CpuBackend {
        let threads = config.threads();
        // WebGPU's defaults, so that a program that fits the CPU fits a GPU too, but for the
        // buffer size (host memory) and what a kernel declared with `limits = "device"` may
        // use: the workgroup and buffer limits of a large discrete GPU (an H200's Vulkan
        // driver: 1024 invocations, 48 KiB of workgroup memory).
        let limits = Limits {
            max_storage_buffer_binding_size: u64::from(u32::MAX),
            max_buffer_size: u64::from(u32::MAX),
            max_compute_invocations_per_workgroup: 1024,
            max_compute_workgroup_size_x: 1024,
            max_compute_workgroup_size_y: 1024,
            max_compute_workgroup_size_z: 64,
            max_compute_workgroup_storage_size: 49152,
            max_storage_buffers_per_shader_stage: 64,
            ..Limits::default()
        };
        let trace = Trace::open(
            config.trace.as_deref(),
            id,
            &format!("Sarek CPU backend ({threads} threads)"),
            false,
        );
        CpuBackend {
            id,
            threads,
            checks: AtomicBool::new(config.checks),
            steps: AtomicU64::new(config.step_limit.unwrap_or(0)),
            memory: AtomicU64::new(Device::DEFAULT_LAUNCH_MEMORY),
            limits,
            subgroup_size: AtomicU32::new(config.subgroup_size),
            programs: Mutex::new(HashMap::new()),
            debug: crate::debug::DebugState::new(config.debug_kib),
            config,
            trace,
        }
    }

    /// The kernel of `source`, prepared (read back, and compiled as `SAREK_CPU_ENGINE` asks)
    /// on its first launch and cached for the device.
    pub(crate) fn prepared(&self, source: &'static KernelSource) -> Result<Arc<Prepared>> {
        self.prepared_with(source, &[])
    }

    /// [`CpuBackend::prepared`] with the workgroup arrays sized at launch given `lengths`
    /// (one per array, in the order of `Abi::launch_sized`): the IR is specialised to them,
    /// as a GPU pipeline is by its `override` constants.
    pub(crate) fn prepared_with(
        &self,
        source: &'static KernelSource,
        lengths: &[u32],
    ) -> Result<Arc<Prepared>> {
        let key = (source as *const KernelSource as usize, Box::from(lengths));
        let mut programs = crate::sync::lock(&self.programs);
        if let Some(p) = programs.get(&key) {
            return Ok(p.clone());
        }
        if source.ir.is_empty() {
            return Err(Error::CpuBackend {
                kernel: source.abi.kernel.to_string(),
                message: "its source has no IR (only `#[sarek::kernel]` embeds one); run it on a GPU device".into(),
            });
        }
        let span = self.trace.as_deref().map(Trace::span);
        let kernel = Kernel::from_json(source.ir).map_err(|message| Error::CpuBackend {
            kernel: source.abi.kernel.to_string(),
            message,
        })?;
        let program = match lengths {
            [] => Program::new(kernel),
            lengths => Program::new(kernel.with_launch_lengths(lengths)),
        };
        let prepared = Arc::new(prepare(source, Arc::new(program), self.config.cpu_engine)?);
        if let Some(span) = span {
            // Where a GPU would create the pipeline: the IR read, and compiled by the JIT.
            let engine = if prepared.jit.is_some() {
                "jit"
            } else {
                "interpreter"
            };
            let args = Args::new()
                .str("kernel", &source.abi.kernel)
                .str("engine", engine)
                .bool("cached", false);
            span.end(&source.abi.kernel, "pipeline", args);
        }
        // Where a GPU would create the pipeline.
        crate::launch::dump(source, self.config.dump_wgsl.as_deref());
        if !lengths.is_empty() {
            // Bounded: past `LENGTHS_KEPT` lengths of this kernel, one of them goes.
            let others: Vec<_> = programs
                .keys()
                .filter(|k| k.0 == key.0 && !k.1.is_empty())
                .cloned()
                .collect();
            if others.len() >= LENGTHS_KEPT {
                if let Some(old) = others.into_iter().next() {
                    programs.remove(&old);
                }
            }
        }
        programs.insert(key, prepared.clone());
        Ok(prepared)
    }
}

impl Device {
    /// The CPU backend's default step limit of a workgroup ([`Device::set_step_limit`]):
    /// 2^32 steps, about 16 million statements for each invocation of a workgroup of 256. The
    /// interpreter runs that many in tens of seconds, so the default stops a kernel that never
    /// ends in about that time, while kernels that finish in reasonable time on a GPU stay well
    /// within it.
    pub const DEFAULT_STEP_LIMIT: u64 = 1 << 32;

    /// The CPU backend's default bound on the host memory one launch's locals take, in bytes
    /// (1 GiB; see [`Device::set_launch_memory_limit`]).
    pub const DEFAULT_LAUNCH_MEMORY: u64 = 1 << 30;

    /// On the CPU backend, bounds the host memory the locals of one launch take, in bytes.
    /// The interpreter holds a value of 24 bytes per element of a local array, for every
    /// invocation of every workgroup in flight, so a large local array could otherwise exhaust
    /// memory and abort the process: a launch runs fewer workgroups at once to fit, and fails
    /// with [`Error::CpuBackend`] when one workgroup alone does not. The default is
    /// [`Device::DEFAULT_LAUNCH_MEMORY`]. Returns the bound now in force (`None` on a GPU,
    /// where local arrays live in the GPU's own memory).
    ///
    /// ```
    /// let dev = sarek_rt::Device::cpu();
    /// assert_eq!(dev.set_launch_memory_limit(64 << 20), Some(64 << 20));
    /// ```
    pub fn set_launch_memory_limit(&self, bytes: u64) -> Option<u64> {
        let cpu = self.as_cpu()?;
        cpu.memory.store(bytes, Ordering::Relaxed);
        Some(bytes)
    }

    /// On the CPU backend, bounds every workgroup of a launch to `limit` steps (a step is one
    /// invocation running a statement or starting a loop iteration, so steps follow the work
    /// done), or lifts the bound with `None`. A launch past it stops and fails with
    /// [`Error::StepLimit`], which names the kernel, so a kernel that never terminates
    /// (`loop {}`) is an error instead of a launch that never returns. The default is
    /// [`Device::DEFAULT_STEP_LIMIT`], or `SAREK_CPU_STEPS` (`0` for none) or
    /// [`crate::Config::step_limit`]. Returns the limit
    /// now in force (always `None` on a GPU, where Sarek sets no bound: the driver or the OS
    /// may end a launch that runs too long, and lose the device).
    ///
    /// ```
    /// let dev = sarek_rt::Device::cpu();
    /// assert_eq!(dev.set_step_limit(Some(1_000_000)), Some(1_000_000));
    /// assert_eq!(dev.set_step_limit(None), None);
    /// ```
    pub fn set_step_limit(&self, limit: Option<u64>) -> Option<u64> {
        let cpu = self.as_cpu()?;
        let limit = limit.filter(|&l| l > 0);
        cpu.steps.store(limit.unwrap_or(0), Ordering::Relaxed);
        limit
    }

    /// The CPU backend's step limit now in force ([`Device::set_step_limit`]); `None` on a
    /// GPU or without a limit.
    ///
    /// ```
    /// let dev = sarek_rt::Device::cpu();
    /// # if std::env::var_os("SAREK_CPU_STEPS").is_none() {
    /// assert_eq!(dev.step_limit(), Some(sarek_rt::Device::DEFAULT_STEP_LIMIT));
    /// # }
    /// ```
    pub fn step_limit(&self) -> Option<u64> {
        let steps = self.as_cpu()?.steps.load(Ordering::Relaxed);
        (steps > 0).then_some(steps)
    }
}

/// A checked launch, holding what it needs to run later (a batch runs its launches at
/// submission).
pub(crate) struct Work {
    source: &'static KernelSource,
    program: Arc<Program>,
    /// The kernel's machine code, where the JIT runs it.
    jit: Option<Arc<Compiled>>,
    uniform: Arc<[AtomicU32]>,
    /// Per kernel parameter, the words of its buffer.
    buffers: Vec<Option<Arc<[AtomicU32]>>>,
    groups: [u32; 3],
    /// How many workgroups run at once (fewer than the cores when their locals need it).
    threads: usize,
}

/// How many of `threads` workgroups of `program` can run at once within `limit` bytes
/// ([`Device::set_launch_memory_limit`]); an error when not even one can.
fn threads_within_memory(
    source: &KernelSource,
    program: &Program,
    threads: usize,
    limit: u64,
) -> Result<usize> {
    let invocations: u64 = source
        .abi
        .workgroup_size
        .iter()
        .map(|&w| u64::from(w))
        .product();
    let per_invocation = program.invocation_memory();
    let per_group = per_invocation.saturating_mul(invocations);
    if per_group > limit {
        return Err(Error::CpuBackend {
            kernel: source.abi.kernel.to_string(),
            message: format!(
                "its local variables need about {per_group} bytes of host memory per workgroup ({per_invocation} per invocation, where the interpreter holds 24 bytes per array element), over the limit of {limit} bytes per launch (`Device::set_launch_memory_limit`); use smaller local arrays, or a buffer"
            ),
        });
    }
    let fit = limit.checked_div(per_group).unwrap_or(u64::MAX);
    Ok(threads
        .min(usize::try_from(fit).unwrap_or(usize::MAX))
        .max(1))
}

/// The words holding `bytes` (zero-padded to a whole word).
pub(crate) fn words_of(bytes: &[u8]) -> Arc<[AtomicU32]> {
    bytes
        .chunks(4)
        .map(|c| {
            let mut w = [0u8; 4];
            w[..c.len()].copy_from_slice(c);
            AtomicU32::new(u32::from_ne_bytes(w))
        })
        .collect()
}

/// The first `len` bytes of `words`.
pub(crate) fn bytes_of(words: &[AtomicU32], len: usize) -> Vec<u8> {
    let mut bytes: Vec<u8> = words
        .iter()
        .flat_map(|w| w.load(Ordering::Relaxed).to_ne_bytes())
        .collect();
    bytes.truncate(len);
    bytes
}

/// Overwrites the start of `words` with `bytes`.
pub(crate) fn write_words(words: &[AtomicU32], bytes: &[u8]) {
    for (w, c) in words.iter().zip(bytes.chunks(4)) {
        let mut b = w.load(Ordering::Relaxed).to_ne_bytes();
        b[..c.len()].copy_from_slice(c);
        w.store(u32::from_ne_bytes(b), Ordering::Relaxed);
    }
}

impl Device {
    /// A checked launch, made ready to run: the kernel prepared, the uniform block packed.
    pub(crate) fn cpu_work(
        &self,
        cpu: &CpuBackend,
        source: &'static KernelSource,
        valid: Valid<'_>,
        args: &[Arg<'_>],
    ) -> Result<Work> {
        let groups = valid.groups;
        let prepared = cpu.prepared_with(source, &valid.lengths)?;
        let program = prepared.program.clone();
        let limit = cpu.memory.load(Ordering::Relaxed);
        let threads = threads_within_memory(source, &program, cpu.threads, limit)?;
        // Packed as the IR's own ABI lays it out, which a hand-written source's ABI need not
        // match.
        let uniform = crate::launch::pack_uniform(program.abi(), groups, args)?;
        let buffers = args
            .iter()
            .map(|a| match a {
                Arg::Buffer(raw, _) => raw.words().cloned(),
                _ => None,
            })
            .collect();
        Ok(Work {
            source,
            program,
            jit: prepared.jit.clone(),
            uniform: words_of(&uniform),
            buffers,
            groups: groups.map(|g| g as u32),
            threads,
        })
    }

    /// Runs checked work to completion.
    pub(crate) fn run_cpu(&self, cpu: &CpuBackend, work: &Work) -> Result<()> {
        let mut launch = interp::Launch::new(&work.uniform, work.groups);
        launch.threads = work.threads;
        launch.checks = cpu.checks.load(Ordering::Relaxed);
        let limit = cpu.steps.load(Ordering::Relaxed);
        launch.fuel = (limit > 0).then_some(limit);
        launch.subgroup_size = cpu.subgroup_size.load(Ordering::Relaxed);
        for (param, words) in work.buffers.iter().enumerate() {
            if let Some(words) = words {
                launch = launch.buffer(param, words);
            }
        }
        // The debug channel of a kernel that prints or asserts (`crate::debug`).
        let channel: Option<Vec<AtomicU32>> = (!work.program.kernel().debug.is_empty())
            .then(|| (0..cpu.debug.words()).map(|_| AtomicU32::new(0)).collect());
        launch.debug = channel.as_deref();
        let kernel = work.source.abi.kernel.to_string();
        let started = std::time::Instant::now();
        // Checked launches run on the interpreter, which reports where a fault happened.
        let outcome = std::panic::catch_unwind(AssertUnwindSafe(|| match &work.jit {
            Some(jit) if !launch.checks => jit.run(&work.program, &launch),
            _ => work.program.run(&launch),
        }));
        log::debug!(
            "sarek: ran `{kernel}` ({:?} workgroups) on the CPU in {:?}",
            work.groups,
            started.elapsed()
        );
        if let (Some(words), Ok(Ok(()))) = (&channel, &outcome) {
            let words: Vec<u32> = words.iter().map(|w| w.load(Ordering::Relaxed)).collect();
            crate::debug::report(work.source, &words, &cpu.debug)?;
        }
        match outcome {
            Ok(Ok(())) => Ok(()),
            Ok(Err(fault)) if fault.kind == FaultKind::OutOfFuel => Err(Error::StepLimit {
                location: location(work.source, fault.span),
                kernel,
                limit,
                block: fault.block,
            }),
            Ok(Err(fault)) => Err(Error::KernelFault {
                location: location(work.source, fault.span),
                kernel,
                block: fault.block,
                thread: fault.thread,
                message: fault.kind.to_string(),
            }),
            Err(_) => Err(Error::CpuBackend {
                kernel,
                message: "the interpreter panicked (a Sarek bug; please report it)".into(),
            }),
        }
    }

    /// [`crate::raw::launch`] on the CPU backend: runs before returning.
    pub(crate) fn launch_cpu(
        &self,
        cpu: &CpuBackend,
        source: &'static KernelSource,
        valid: Valid<'_>,
        args: &[Arg<'_>],
    ) -> Result<Launch> {
        let work = self.cpu_work(cpu, source, valid, args)?;
        self.run_cpu(cpu, &work)?;
        Ok(Launch::empty(self, source))
    }
}

/// `file:line:column` of `span` in the kernel's source.
pub(crate) fn location(source: &KernelSource, span: sarek_ir::ir::Span) -> String {
    let file = source
        .location
        .rsplit_once(':')
        .map_or(source.location, |(file, _)| file);
    match source.spans.get(span.0 as usize) {
        Some((line, column)) => format!("{file}:{line}:{column}"),
        None => source.location.to_owned(),
    }
}

impl RawBuffer {
    /// The words of a CPU buffer.
    pub(crate) fn words(&self) -> Option<&Words> {
        match &self.storage {
            Storage::Cpu(words) => Some(words),
            Storage::Wgpu(_) => None,
        }
    }

    /// The words of a buffer of the CPU backend (the backend's own buffers are all such).
    fn cpu_words(&self) -> &Words {
        match &self.storage {
            Storage::Cpu(words) => words,
            Storage::Wgpu(_) => unreachable!("a GPU buffer reached the CPU backend"),
        }
    }
}

/// A batch's launches on the CPU backend, run in order at submission.
#[derive(Default)]
struct CpuBatch(Vec<Work>);

impl BatchWork for CpuBatch {
    fn len(&self) -> usize {
        self.0.len()
    }

    fn add(
        &mut self,
        device: &Device,
        source: &'static KernelSource,
        valid: Valid<'_>,
        args: &[Arg<'_>],
    ) -> Result<()> {
        let cpu = cpu_of(device);
        self.0.push(device.cpu_work(cpu, source, valid, args)?);
        Ok(())
    }

    fn submit(self: Box<Self>, device: &Device) -> Result<Launch> {
        let cpu = cpu_of(device);
        for work in &self.0 {
            device.run_cpu(cpu, work)?;
        }
        Ok(Launch::finished(device, "batch"))
    }
}

/// The CPU backend of `device`, which holds one.
fn cpu_of(device: &Device) -> &CpuBackend {
    match device.as_cpu() {
        Some(cpu) => cpu,
        None => unreachable!("the CPU backend was reached through a GPU device"),
    }
}

impl Backend for CpuBackend {
    fn id(&self) -> u64 {
        self.id
    }

    fn config(&self) -> &Config {
        &self.config
    }

    fn debug(&self) -> &crate::debug::DebugState {
        &self.debug
    }

    fn name(&self) -> String {
        format!("Sarek CPU backend ({} threads)", self.threads)
    }

    fn limits(&self) -> &Limits {
        &self.limits
    }

    fn features(&self) -> Features {
        Features::SUBGROUP
            | Features::SUBGROUP_BARRIER
            | Features::SHADER_FLOAT32_ATOMIC
            | Features::SHADER_F16
            | Features::SHADER_INT64
            | Features::SHADER_INT64_ATOMIC_MIN_MAX
            | Features::SHADER_INT64_ATOMIC_ALL_OPS
            | Features::EXPERIMENTAL_COOPERATIVE_MATRIX
    }

    fn coop_offer(&self) -> Option<Vec<CoopShape>> {
        let mut all = Vec::new();
        for size in sarek_ir::ir::COOP_SIZES {
            for ab in [CoopScalar::F16, CoopScalar::F32] {
                for c in [CoopScalar::F16, CoopScalar::F32] {
                    all.push(CoopShape {
                        size,
                        ab: Some(ab),
                        c: Some(c),
                    });
                }
            }
        }
        Some(all)
    }

    fn launch_coop_offer(&self) -> Option<Vec<CoopShape>> {
        // The interpreter emulates every shape WGSL has: only the feature is checked.
        None
    }

    fn coarsens(&self) -> bool {
        // Every invocation runs on its own; the coarsened entry points are the GPU's.
        false
    }

    fn check_lost(&self) -> Result<()> {
        Ok(())
    }

    fn create_buffer(
        &self,
        _device: &Device,
        bytes: u64,
        _at_least: u64,
        contents: Option<&[u8]>,
    ) -> Result<Storage> {
        let words: Words = match contents {
            Some(data) => words_of(data),
            None => (0..(bytes as usize).div_ceil(4))
                .map(|_| AtomicU32::new(0))
                .collect(),
        };
        Ok(Storage::Cpu(words))
    }

    fn duplicate(
        &self,
        _device: &Device,
        _src: &RawBuffer,
        _bytes: u64,
    ) -> Result<Option<Storage>> {
        // Through the host, as between two devices: the words are host memory already.
        Ok(None)
    }

    fn read(
        &self,
        _device: &Device,
        buffer: &RawBuffer,
        range: Option<(u64, u64)>,
    ) -> Result<Vec<u8>> {
        let words = buffer.cpu_words();
        Ok(match range {
            None => bytes_of(words, (buffer.len as u64 * buffer.elem_size) as usize),
            // Element sizes are whole words (every WGSL type's size is a multiple of 4).
            Some((start, len)) => {
                let first = (start / 4) as usize;
                let end = (start + len).div_ceil(4) as usize;
                bytes_of(&words[first..end], len as usize)
            }
        })
    }

    fn read_async(
        &self,
        device: &Device,
        buffer: &RawBuffer,
    ) -> Result<Wait<'static, Result<Vec<u8>>>> {
        let bytes = self.read(device, buffer, None);
        Ok(Box::pin(std::future::ready(bytes)))
    }

    fn write(
        &self,
        _device: &Device,
        buffer: &RawBuffer,
        at: Option<u64>,
        bytes: &[u8],
    ) -> Result<()> {
        let words = buffer.cpu_words();
        match at {
            None => write_words(words, bytes),
            Some(at) => {
                let first = (at / 4) as usize;
                let end = (at + bytes.len() as u64).div_ceil(4) as usize;
                write_words(&words[first..end], bytes);
            }
        }
        Ok(())
    }

    fn copy(
        &self,
        _device: &Device,
        (src, src_at): (&RawBuffer, u64),
        (dst, dst_at): (&RawBuffer, u64),
        bytes: u64,
    ) -> Result<()> {
        let (from, to) = (src.cpu_words(), dst.cpu_words());
        // Element sizes are whole words; through a copy in case both share their words.
        let first = (src_at / 4) as usize;
        let end = (src_at + bytes).div_ceil(4) as usize;
        let data = bytes_of(&from[first..end], bytes as usize);
        write_words(&to[(dst_at / 4) as usize..], &data);
        Ok(())
    }

    fn forget_buffer(&self, _id: u64) {}

    fn prepare(&self, _device: &Device, kernels: &[&'static KernelSource]) -> Result<()> {
        for &k in kernels {
            self.prepared(k)?;
        }
        Ok(())
    }

    fn launch(
        &self,
        device: &Device,
        source: &'static KernelSource,
        valid: Valid<'_>,
        args: &[Arg<'_>],
    ) -> Result<Launch> {
        device.launch_cpu(self, source, valid, args)
    }

    fn batch(&self) -> Box<dyn BatchWork> {
        Box::new(CpuBatch::default())
    }

    fn flush(&self) {}

    fn synchronize(&self) -> Result<()> {
        // CPU launches finish before `launch` returns.
        Ok(())
    }

    fn can_profile(&self) -> bool {
        false
    }

    fn set_profiling(&self, _on: bool) {}

    fn profiling(&self) -> bool {
        false
    }
}
