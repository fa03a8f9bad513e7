//! Which engine runs a kernel on the CPU backend: the JIT (machine code through Cranelift,
//! `sarek_cpu::jit`) or the interpreter (`sarek_cpu::interp`), chosen once per kernel
//! when it is prepared as `SAREK_CPU_ENGINE` ([`crate::Config::cpu_engine`]) asks.

use std::sync::Arc;

use sarek_cpu::interp::Program;
#[cfg(feature = "jit")]
pub(crate) use sarek_cpu::jit::Compiled;

/// Without the `jit` feature there is no machine code: every kernel runs on the interpreter.
#[cfg(not(feature = "jit"))]
pub(crate) enum Compiled {}

#[cfg(not(feature = "jit"))]
impl Compiled {
    pub(crate) fn new(_: &Program) -> std::result::Result<Compiled, &'static str> {
        Err("anything: Sarek was built without its `jit` feature")
    }
    pub(crate) fn lanes(&self) -> bool {
        match *self {}
    }
    pub(crate) fn compile_time(&self) -> std::time::Duration {
        match *self {}
    }
    pub(crate) fn run(
        &self,
        _: &Program,
        _: &sarek_cpu::interp::Launch<'_>,
    ) -> std::result::Result<(), sarek_cpu::interp::Fault> {
        match *self {}
    }
}

use crate::arg::KernelSource;
use crate::device::Device;
use crate::error::{Error, Result};

/// The engine that runs a kernel's unchecked launches on the CPU backend
/// ([`Device::cpu_engine`]). Checked launches ([`Device::set_checks`]) always run on the
/// interpreter, which reports where a fault happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CpuEngine {
    /// Machine code compiled from the kernel's IR when it is first launched.
    Jit,
    /// The IR interpreter: kernels the JIT does not compile (subgroup operations, a helper
    /// holding a barrier), or every kernel with `SAREK_CPU_ENGINE=interp`.
    Interpreter,
}

/// A kernel prepared for the CPU backend: its IR, and its machine code where the JIT runs it.
pub(crate) struct Prepared {
    pub(crate) program: Arc<Program>,
    pub(crate) jit: Option<Arc<Compiled>>,
}

/// Compiles `program` as `engine` asks ([`crate::Config::cpu_engine`]): `None` for the JIT
/// where it compiles the kernel, else the interpreter.
pub(crate) fn prepare(
    source: &KernelSource,
    program: Arc<Program>,
    engine: Option<CpuEngine>,
) -> Result<Prepared> {
    let jit = match engine {
        Some(CpuEngine::Interpreter) => None,
        None | Some(CpuEngine::Jit) => match Compiled::new(&program) {
            Ok(c) => {
                log::debug!(
                    "sarek: compiled `{}` for the CPU in {:?}",
                    source.abi.kernel,
                    c.compile_time()
                );
                Some(Arc::new(c))
            }
            Err(why) if engine == Some(CpuEngine::Jit) => {
                return Err(Error::CpuBackend {
                    kernel: source.abi.kernel.to_string(),
                    message: format!("the JIT does not compile it ({why}) and SAREK_CPU_ENGINE=jit asks for the JIT; use SAREK_CPU_ENGINE=auto to run it on the interpreter"),
                })
            }
            Err(why) => {
                log::debug!(
                    "sarek: `{}` runs on the CPU interpreter: the JIT does not compile {why}",
                    source.abi.kernel
                );
                None
            }
        },
    };
    Ok(Prepared { program, jit })
}

impl Device {
    /// On the CPU backend, the engine that runs `kernel`'s unchecked launches (preparing the
    /// kernel if it was not launched yet); `None` on a GPU. `SAREK_CPU_ENGINE=auto` (the
    /// default) uses the JIT wherever it compiles the kernel, `jit` makes a kernel it does not
    /// compile an error, `interp` always interprets ([`crate::Config::cpu_engine`]).
    ///
    /// ```
    /// use sarek_rt::{fixture::add_one, CpuEngine, Device};
    /// let dev = Device::cpu();
    /// # if std::env::var("SAREK_CPU_ENGINE").as_deref() != Ok("interp") {
    /// assert_eq!(dev.cpu_engine(add_one::SOURCE).unwrap(), Some(CpuEngine::Jit));
    /// # }
    /// ```
    pub fn cpu_engine(&self, kernel: &'static KernelSource) -> Result<Option<CpuEngine>> {
        let Some(cpu) = self.as_cpu() else {
            return Ok(None);
        };
        let prepared = cpu.prepared(kernel)?;
        Ok(Some(match prepared.jit {
            Some(_) => CpuEngine::Jit,
            None => CpuEngine::Interpreter,
        }))
    }

    /// Whether the CPU backend's JIT runs `kernel`'s invocations four at a time, as SIMD
    /// lanes (an element-wise kernel: straight-line code over scalars, indexed by the global
    /// id); `false` on the interpreter and on a GPU device. Set `SAREK_JIT_LANES=0` to turn
    /// it off when comparing.
    pub fn cpu_lanes(&self, kernel: &'static KernelSource) -> Result<bool> {
        let Some(cpu) = self.as_cpu() else {
            return Ok(false);
        };
        Ok(cpu
            .prepared(kernel)?
            .jit
            .as_ref()
            .is_some_and(|j| j.lanes()))
    }
}
