//! The runtime's settings as one value: [`Config`], read from the `SAREK_*` environment
//! variables in one place ([`Config::from_lookup`], which [`Config::from_env`] calls), settable
//! in code, and given to a device when it is made ([`Device::with_config`],
//! [`Device::cpu_with`], [`crate::GpuOptions::config`], [`Device::all_with`]). The guide's
//! runtime chapter lists every variable with its field and default.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::backend::cpu::engine::CpuEngine;
use crate::backend::wgpu::adapter::AdapterSelector;
use crate::device::Device;

/// Which kind of device [`Device::with_config`] opens (`SAREK_DEVICE`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DeviceChoice {
    /// The best hardware GPU adapter, else the CPU backend (a software adapter loses to the
    /// CPU backend); the default.
    #[default]
    Best,
    /// The CPU backend (`SAREK_DEVICE=cpu`).
    Cpu,
    /// The best GPU adapter, software ones included, and an error without any
    /// (`SAREK_DEVICE=gpu`).
    Gpu,
}

/// The settings of a device, made once and given to it when it is opened: from the
/// environment ([`Config::from_env`], what [`Device::new`], [`Device::gpu`] and
/// [`Device::cpu`] use), or from [`Config::default`] and the builder methods below. Settings
/// a live device can change have setters on [`Device`] too ([`Device::set_checks`],
/// [`Device::set_tiered`], [`Device::set_pipeline_cache_dir`], [`Device::set_step_limit`],
/// [`Device::set_subgroup_size`]); the config is where they start.
///
/// ```
/// use sarek_rt::{Config, Device};
/// let config = Config::default().cpu_threads(1).checks(true).step_limit(Some(1_000_000));
/// let dev = Device::cpu_with(config);
/// assert_eq!(dev.step_limit(), Some(1_000_000));
/// assert!(dev.name().contains("(1 threads)"));
/// ```
///
/// Logging (`SAREK_LOG`) is not part of it: a logger serves the whole process, so it is
/// installed once, by the first device made (or [`Config::from_env`]), and only when no logger
/// is installed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    pub(crate) device: DeviceChoice,
    pub(crate) adapter: Option<AdapterSelector>,
    pub(crate) backends: Option<wgpu::Backends>,
    pub(crate) unchecked_gl: bool,
    pub(crate) pipeline_cache_dir: Option<PathBuf>,
    pub(crate) cache_max_mb: u64,
    pub(crate) checks: bool,
    pub(crate) cpu_engine: Option<CpuEngine>,
    pub(crate) step_limit: Option<u64>,
    pub(crate) subgroup_size: u32,
    pub(crate) cpu_threads: Option<usize>,
    pub(crate) dump_wgsl: Option<PathBuf>,
    pub(crate) trace: Option<PathBuf>,
    pub(crate) tiered: bool,
    pub(crate) unclamped: bool,
    pub(crate) defer: bool,
    pub(crate) coarsen: bool,
    pub(crate) vec4: bool,
    pub(crate) debug_kib: u32,
}

/// The size cap of the cache directory without `SAREK_CACHE_MAX_MB`, in MiB.
pub(crate) const DEFAULT_CACHE_MAX_MB: u64 = 256;

impl Default for Config {
    /// Sarek's defaults, whatever the `SAREK_*` variables say: the best device, the per-user
    /// cache directory (`$XDG_CACHE_HOME/sarek`, else `~/.cache/sarek`), tiered compilation,
    /// unclamped proven modules and deferred submission on, checks off, the CPU backend on
    /// every core with the JIT where it compiles a kernel.
    ///
    /// ```
    /// let config = sarek_rt::Config::default();
    /// assert_eq!(config, sarek_rt::Config::from_lookup(|name| match name {
    ///     "XDG_CACHE_HOME" | "HOME" => std::env::var_os(name),
    ///     _ => None,
    /// }));
    /// ```
    fn default() -> Config {
        Config::from_lookup(|name| match name {
            "XDG_CACHE_HOME" | "HOME" => std::env::var_os(name),
            _ => None,
        })
    }
}

/// An on/off variable's value: `0` is off, `1` on, anything else (unset included) `default`
/// (the rule of `sarek_ir::toggle`, which the compiler's switches follow).
fn on_off(value: Option<&str>, default: bool) -> bool {
    match value {
        Some("0") => false,
        Some("1") => true,
        _ => default,
    }
}

/// The backends a `SAREK_BACKEND` value names, `None` if a name is unknown or none is given.
fn parse_backends(value: &str) -> Option<wgpu::Backends> {
    let mut backends = wgpu::Backends::empty();
    for name in value.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        backends |= match name.to_ascii_lowercase().as_str() {
            "vulkan" | "vk" => wgpu::Backends::VULKAN,
            "metal" | "mtl" => wgpu::Backends::METAL,
            "dx12" | "d3d12" => wgpu::Backends::DX12,
            "gl" | "gles" | "opengl" => wgpu::Backends::GL,
            "primary" => wgpu::Backends::PRIMARY,
            "all" => wgpu::Backends::all(),
            _ => return None,
        };
    }
    (!backends.is_empty()).then_some(backends)
}

impl Config {
    /// The settings the `SAREK_*` environment variables ask for, over Sarek's defaults: the
    /// one place the runtime reads them. A value that does not parse is logged at `warn` level
    /// and the default applies.
    ///
    /// ```
    /// let dev = sarek_rt::Device::cpu_with(sarek_rt::Config::from_env());
    /// assert!(dev.is_cpu());
    /// ```
    pub fn from_env() -> Config {
        crate::logging::init();
        Config::from_lookup(|name| std::env::var_os(name))
    }

    /// The settings the variables `lookup` returns ask for (`None`: unset), as
    /// [`Config::from_env`] reads them from the environment; for tests and for programs that
    /// keep such settings elsewhere. Besides the `SAREK_*` variables it asks for
    /// `XDG_CACHE_HOME` and `HOME`, where the default cache directory lies.
    ///
    /// ```
    /// use sarek_rt::{Config, DeviceChoice};
    /// let config = Config::from_lookup(|name| match name {
    ///     "SAREK_DEVICE" => Some("cpu".into()),
    ///     "SAREK_CACHE" => Some("0".into()),
    ///     _ => None,
    /// });
    /// assert_eq!(config, Config::default().device(DeviceChoice::Cpu).pipeline_cache_dir(None));
    /// ```
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<OsString>) -> Config {
        // Non-UTF-8 values count as unset, except paths.
        let text = |name: &str| lookup(name).and_then(|v| v.into_string().ok());
        let nonempty = |name: &str| lookup(name).filter(|v| !v.is_empty());
        let device = match text("SAREK_DEVICE").as_deref() {
            Some("cpu") => DeviceChoice::Cpu,
            Some("gpu") => DeviceChoice::Gpu,
            Some(other) if !other.is_empty() => {
                log::warn!("sarek: SAREK_DEVICE={other:?} is neither `gpu` nor `cpu`; ignored");
                DeviceChoice::Best
            }
            _ => DeviceChoice::Best,
        };
        let backends = text("SAREK_BACKEND")
            .filter(|v| !v.trim().is_empty())
            .and_then(|v| {
                let parsed = parse_backends(&v);
                if parsed.is_none() {
                    log::warn!(
                        "sarek: SAREK_BACKEND={v:?} is not a comma-separated list of vulkan, metal, dx12, gl, primary or all; ignored"
                    );
                }
                parsed
            });
        let pipeline_cache_dir = if !on_off(text("SAREK_CACHE").as_deref(), true) {
            None
        } else if let Some(dir) = nonempty("SAREK_CACHE_DIR") {
            Some(PathBuf::from(dir))
        } else if let Some(dir) = nonempty("XDG_CACHE_HOME") {
            Some(Path::new(&dir).join("sarek"))
        } else {
            nonempty("HOME").map(|home| Path::new(&home).join(".cache").join("sarek"))
        };
        let cache_max_mb = match text("SAREK_CACHE_MAX_MB") {
            None => DEFAULT_CACHE_MAX_MB,
            Some(v) => v.trim().parse::<u64>().unwrap_or_else(|_| {
                log::warn!(
                    "sarek: SAREK_CACHE_MAX_MB={v:?} is not a whole number of MiB; using {DEFAULT_CACHE_MAX_MB}"
                );
                DEFAULT_CACHE_MAX_MB
            }),
        };
        let cpu_engine = match text("SAREK_CPU_ENGINE").as_deref() {
            None | Some("auto") | Some("") => None,
            Some("jit") => Some(CpuEngine::Jit),
            Some("interp") => Some(CpuEngine::Interpreter),
            Some(other) => {
                log::warn!(
                    "sarek: SAREK_CPU_ENGINE={other:?} is not auto, jit or interp; auto applies"
                );
                None
            }
        };
        let default_steps = Some(Device::DEFAULT_STEP_LIMIT);
        let step_limit = match text("SAREK_CPU_STEPS") {
            None => default_steps,
            Some(v) => match v.trim().parse::<u64>() {
                Ok(n) => (n > 0).then_some(n),
                Err(_) => {
                    log::warn!(
                        "sarek: SAREK_CPU_STEPS={v:?} is not a number of steps; the default {} applies",
                        Device::DEFAULT_STEP_LIMIT
                    );
                    default_steps
                }
            },
        };
        let default_size = sarek_cpu::interp::DEFAULT_SUBGROUP_SIZE;
        let subgroup_size = match text("SAREK_CPU_SUBGROUP_SIZE") {
            None => default_size,
            Some(v) => match v.trim().parse::<u32>() {
                Ok(n) if sarek_cpu::interp::valid_subgroup_size(n) => n,
                _ => {
                    log::warn!("sarek: SAREK_CPU_SUBGROUP_SIZE={v:?} is not a power of two from 4 to 128; using {default_size}");
                    default_size
                }
            },
        };
        let cpu_threads = match text("SAREK_CPU_THREADS") {
            None => None,
            Some(v) => match v.trim().parse::<usize>() {
                Ok(n) if n > 0 => Some(n),
                _ => {
                    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
                    log::warn!("sarek: SAREK_CPU_THREADS={v:?} is not a positive number; {cores} threads (every core) apply");
                    None
                }
            },
        };
        Config {
            device,
            adapter: text("SAREK_ADAPTER").map(AdapterSelector::Name),
            backends,
            // Naming GL in the environment is the operator's choice of an unchecked backend.
            unchecked_gl: backends.is_some_and(|b| b.contains(wgpu::Backends::GL))
                || text("WGPU_BACKEND").is_some_and(|v| {
                    let v = v.to_ascii_lowercase();
                    v.contains("gl")
                }),
            pipeline_cache_dir,
            cache_max_mb,
            checks: on_off(text("SAREK_CHECKS").as_deref(), false),
            cpu_engine,
            step_limit,
            subgroup_size,
            cpu_threads,
            dump_wgsl: lookup("SAREK_DUMP_WGSL").map(PathBuf::from),
            trace: nonempty("SAREK_TRACE").map(PathBuf::from),
            tiered: on_off(text("SAREK_TIERED").as_deref(), true),
            unclamped: on_off(text("SAREK_UNCLAMPED").as_deref(), true),
            defer: on_off(text("SAREK_DEFER").as_deref(), true),
            coarsen: on_off(text("SAREK_COARSEN").as_deref(), true),
            vec4: on_off(text("SAREK_VEC4").as_deref(), true),
            debug_kib: match text("SAREK_DEBUG_KIB") {
                None => crate::debug::DEFAULT_KIB,
                Some(v) => v.trim().parse::<u32>().unwrap_or_else(|_| {
                    log::warn!(
                        "sarek: SAREK_DEBUG_KIB={v:?} is not a whole number of KiB; using {}",
                        crate::debug::DEFAULT_KIB
                    );
                    crate::debug::DEFAULT_KIB
                }),
            },
        }
    }

    /// Which kind of device [`Device::with_config`] opens (`SAREK_DEVICE`; default
    /// [`DeviceChoice::Best`]). [`Device::cpu_with`] and [`Device::gpu_with`] ignore it.
    pub fn device(mut self, choice: DeviceChoice) -> Config {
        self.device = choice;
        self
    }

    /// The adapter [`Device::with_config`] and [`Device::gpu_with`] open, software or not, and
    /// the adapters [`Device::all_with`] keeps (`SAREK_ADAPTER=<substring>`, a name; default:
    /// none, the best adapter). [`crate::GpuOptions::adapter`] takes precedence over it.
    ///
    /// ```
    /// let config = sarek_rt::Config::default().adapter("llvmpipe");
    /// # let _ = config;
    /// ```
    pub fn adapter(mut self, selector: impl Into<AdapterSelector>) -> Config {
        self.adapter = Some(selector.into());
        self
    }

    /// The wgpu backends whose adapters [`Device::gpu`], [`Device::with_config`],
    /// [`Device::all_with`] and [`Device::adapters`] consider (`SAREK_BACKEND`, a
    /// comma-separated list of `vulkan`, `metal`, `dx12`, `gl`, `primary` or `all`; default:
    /// `None`, the primary backends Vulkan, Metal and DX12, or those of `WGPU_BACKEND` where it
    /// is set). `SAREK_BACKEND=gl` runs kernels on wgpu's OpenGL ES backend (compute needs
    /// OpenGL ES 3.1; Mesa's llvmpipe offers it headless through EGL), which lacks subgroups,
    /// `f16` and the pipeline cache (kernels that need them fail to launch with
    /// [`crate::Error::MissingFeature`]) and checks no buffer index: the guide's runtime
    /// chapter says what holds there. Chosen here rather than in the environment, GL also
    /// needs [`Config::unchecked_gl`].
    ///
    /// ```
    /// use sarek_rt::{Config, Device, GpuOptions};
    /// let config = Config::default().backends(wgpu::Backends::GL);
    /// // An error, not a panic, where there is no OpenGL ES 3.1 adapter.
    /// match Device::gpu_with(GpuOptions::new().config(config)) {
    ///     Ok(dev) => assert_eq!(dev.backend(), Some(wgpu::Backend::Gl)),
    ///     Err(e) => println!("no GL adapter: {e}"),
    /// }
    /// ```
    pub fn backends(mut self, backends: wgpu::Backends) -> Config {
        self.backends = Some(backends);
        self
    }

    /// Lets a GPU device open on wgpu's GL backend, which checks no buffer index (naga's GLSL
    /// is written without bounds checks): an index past a buffer's end reads or writes outside
    /// it there. Without this, a GL adapter is refused with [`crate::Error::NoAdapter`]
    /// unless `SAREK_BACKEND` or `WGPU_BACKEND` names GL (the environment's choice, which
    /// [`Config::from_env`] records).
    ///
    /// ```
    /// use sarek_rt::{Config, Device, GpuOptions};
    /// // SAFETY: the kernels this program runs index only within their buffers.
    /// let config = unsafe { Config::default().backends(wgpu::Backends::GL).unchecked_gl() };
    /// if let Ok(dev) = Device::gpu_with(GpuOptions::new().config(config)) {
    ///     assert_eq!(dev.backend(), Some(wgpu::Backend::Gl));
    /// }
    /// ```
    ///
    /// # Safety
    ///
    /// On GL, a kernel that indexes past a buffer's end (which Sarek clamps everywhere else)
    /// reads or writes memory outside it: the caller vouches that its kernels do not, or
    /// accepts what follows.
    pub unsafe fn unchecked_gl(mut self) -> Config {
        self.unchecked_gl = true;
        self
    }

    /// Where a GPU device keeps compiled pipelines and parsed modules between processes, or
    /// `None` for no cache (`SAREK_CACHE_DIR`, `SAREK_CACHE=0`; default
    /// `$XDG_CACHE_HOME/sarek`, else `~/.cache/sarek`). [`Device::set_pipeline_cache_dir`]
    /// changes it on a live device.
    pub fn pipeline_cache_dir(mut self, dir: Option<&Path>) -> Config {
        self.pipeline_cache_dir = dir.map(Path::to_path_buf);
        self
    }

    /// The size cap of the cache directory in MiB, `0` for none (`SAREK_CACHE_MAX_MB`;
    /// default 256). The directory is pruned once per process, by the first device that opens
    /// it, with that device's cap.
    pub fn cache_max_mb(mut self, mb: u64) -> Config {
        self.cache_max_mb = mb;
        self
    }

    /// The size of the buffer each kernel that prints or asserts writes to, in KiB
    /// (`SAREK_DEBUG_KIB`; default 1024, at least 4): what `gpu_println!` prints beyond it
    /// in one launch is dropped, and a line says how much.
    ///
    /// ```
    /// let dev = sarek_rt::Device::cpu_with(sarek_rt::Config::default().debug_buffer_kib(8));
    /// assert_eq!(dev.debug_buffer_bytes(), 8 * 1024);
    /// ```
    pub fn debug_buffer_kib(mut self, kib: u32) -> Config {
        self.debug_kib = kib;
        self
    }

    /// The CPU backend's debugging checks from the start (`SAREK_CHECKS=1`; default off):
    /// see [`Device::set_checks`].
    pub fn checks(mut self, on: bool) -> Config {
        self.checks = on;
        self
    }

    /// The CPU backend's engine (`SAREK_CPU_ENGINE`; default `None`, `auto`: the JIT wherever
    /// it compiles the kernel, else the interpreter). `Some(CpuEngine::Jit)` (`jit`) makes a
    /// kernel the JIT does not compile an error; `Some(CpuEngine::Interpreter)` (`interp`)
    /// always interprets.
    ///
    /// ```
    /// use sarek_rt::{fixture::add_one, Config, CpuEngine, Device};
    /// let dev = Device::cpu_with(Config::default().cpu_engine(Some(CpuEngine::Interpreter)));
    /// assert_eq!(dev.cpu_engine(add_one::SOURCE).unwrap(), Some(CpuEngine::Interpreter));
    /// ```
    pub fn cpu_engine(mut self, engine: Option<CpuEngine>) -> Config {
        self.cpu_engine = engine;
        self
    }

    /// The CPU backend's step limit of a workgroup, `None` (or `Some(0)`) for none
    /// (`SAREK_CPU_STEPS`, `0` for none; default [`Device::DEFAULT_STEP_LIMIT`]): see
    /// [`Device::set_step_limit`].
    pub fn step_limit(mut self, limit: Option<u64>) -> Config {
        self.step_limit = limit.filter(|&l| l > 0);
        self
    }

    /// The CPU backend's subgroup size, a power of two from 4 to 128
    /// (`SAREK_CPU_SUBGROUP_SIZE`; default 32); any other size is ignored, as by
    /// [`Device::set_subgroup_size`].
    pub fn cpu_subgroup_size(mut self, size: u32) -> Config {
        if sarek_cpu::interp::valid_subgroup_size(size) {
            self.subgroup_size = size;
        }
        self
    }

    /// The CPU backend's worker threads, `0` for one per core (`SAREK_CPU_THREADS`; default
    /// one per core).
    pub fn cpu_threads(mut self, threads: usize) -> Config {
        self.cpu_threads = (threads > 0).then_some(threads);
        self
    }

    /// A directory where each kernel's WGSL, ABI JSON and IR JSON are written when its
    /// pipeline is made (on the CPU backend, when its IR is read), or `None`
    /// (`SAREK_DUMP_WGSL=<dir>`; default `None`).
    pub fn dump_wgsl(mut self, dir: Option<&Path>) -> Config {
        self.dump_wgsl = dir.map(Path::to_path_buf);
        self
    }

    /// A trace file the device writes what it does to, or `None` (`SAREK_TRACE=<file>`;
    /// default `None`): launches, batches, transfers, pipeline creations and waits as spans on
    /// the host's clock, and where the device has timestamp queries each launch's and batch's
    /// time on a `GPU` track, in the Chrome trace-event JSON format that Perfetto
    /// (<https://ui.perfetto.dev>) and `chrome://tracing` open. The file is created (emptied)
    /// when the first device of the process traces to it; devices that trace to the same path
    /// share it, each a process of the trace (the file stays open, and later devices of the
    /// process tracing to that path append to it). It is a complete JSON document at every moment;
    /// events reach it at [`Device::flush_trace`], every 64 KiB of them, and when the device
    /// is dropped. On a device with timestamp queries, tracing times every launch as
    /// [`Device::set_profiling`] does (each launch a compute pass of its own), so launches
    /// cost more than untraced. A file that cannot be created is logged at `warn` level and
    /// the device runs without a trace ([`Device::trace_path`] says which).
    ///
    /// ```
    /// # use sarek_rt::fixture::add_one;
    /// # fn main() -> sarek_rt::Result<()> {
    /// let path = std::env::temp_dir().join(format!("sarek-config-{}.json", std::process::id()));
    /// let dev = sarek_rt::Device::with_config(sarek_rt::Config::from_env().trace(Some(&path)))?;
    /// let mut x = dev.upload(&[1u32, 2, 3])?;
    /// add_one.launch(&dev, sarek_rt::Grid::cover(3), &mut x)?;
    /// drop(x);
    /// drop(dev); // writes the events still held
    /// let json = std::fs::read_to_string(&path).unwrap();
    /// assert!(json.starts_with(r#"{"displayTimeUnit":"ns","traceEvents":["#));
    /// assert!(json.contains(r#""name":"add_one","cat":"launch""#));
    /// # std::fs::remove_file(&path).ok();
    /// # Ok(()) }
    /// ```
    pub fn trace(mut self, path: Option<&Path>) -> Config {
        self.trace = path.map(Path::to_path_buf);
        self
    }

    /// Tiered compilation on a GPU: a kernel's first launch runs its quick form while the
    /// optimized pipeline compiles (`SAREK_TIERED=0` turns it off; default on).
    /// [`Device::set_tiered`] changes it on a live device.
    pub fn tiered(mut self, on: bool) -> Config {
        self.tiered = on;
        self
    }

    /// Modules without index clamps for entry points proven in bounds, on a Vulkan device
    /// with `robustBufferAccess2` (`SAREK_UNCLAMPED=0` keeps every clamp; default on).
    pub fn unclamped(mut self, on: bool) -> Config {
        self.unclamped = on;
        self
    }

    /// Whether launches issued while the GPU is busy wait in an open command encoder, to be
    /// submitted together (`SAREK_DEFER=0` submits each launch at once; default on). A device
    /// from [`Device::from_wgpu`] always submits at once.
    pub fn defer(mut self, on: bool) -> Config {
        self.defer = on;
        self
    }

    /// Coarsened entry points for large 1-D grids (`SAREK_COARSEN=0`; default on). Only to
    /// measure them or rule them out.
    #[doc(hidden)]
    pub fn coarsen(mut self, on: bool) -> Config {
        self.coarsen = on;
        self
    }

    /// `vec4` entry points for element-wise kernels (`SAREK_VEC4=0`; default on). Only to
    /// measure them or rule them out.
    #[doc(hidden)]
    pub fn vec4(mut self, on: bool) -> Config {
        self.vec4 = on;
        self
    }

    /// The worker threads of a CPU device: [`Config::cpu_threads`], else every core.
    pub(crate) fn threads(&self) -> usize {
        self.cpu_threads.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// The config of an environment holding exactly `vars` (and no cache-home variables).
    fn of(vars: &[(&str, &str)]) -> Config {
        let map: HashMap<String, OsString> = vars
            .iter()
            .map(|(k, v)| ((*k).to_owned(), OsString::from(v)))
            .collect();
        Config::from_lookup(|name| map.get(name).cloned())
    }

    #[test]
    fn an_empty_environment_gives_the_defaults() {
        let c = of(&[]);
        assert_eq!(c.device, DeviceChoice::Best);
        assert_eq!(c.adapter, None);
        assert_eq!(c.backends, None);
        assert_eq!(c.pipeline_cache_dir, None); // neither HOME nor XDG_CACHE_HOME
        assert_eq!(c.cache_max_mb, 256);
        assert!(!c.checks);
        assert_eq!(c.cpu_engine, None);
        assert_eq!(c.step_limit, Some(Device::DEFAULT_STEP_LIMIT));
        assert_eq!(c.subgroup_size, 32);
        assert_eq!(c.cpu_threads, None);
        assert_eq!(c.dump_wgsl, None);
        assert_eq!(c.trace, None);
        assert!(c.tiered && c.unclamped && c.defer && c.coarsen && c.vec4);
    }

    #[test]
    fn each_variable_is_read() {
        let c = of(&[
            ("SAREK_DEVICE", "gpu"),
            ("SAREK_ADAPTER", "llvmpipe"),
            ("SAREK_BACKEND", "gl"),
            ("SAREK_CACHE_DIR", "/tmp/sarek-cache"),
            ("SAREK_CACHE_MAX_MB", "12"),
            ("SAREK_CHECKS", "1"),
            ("SAREK_CPU_ENGINE", "interp"),
            ("SAREK_CPU_STEPS", "1000"),
            ("SAREK_CPU_SUBGROUP_SIZE", "8"),
            ("SAREK_CPU_THREADS", "3"),
            ("SAREK_DUMP_WGSL", "/tmp/dump"),
            ("SAREK_TRACE", "/tmp/trace.json"),
            ("SAREK_TIERED", "0"),
            ("SAREK_UNCLAMPED", "0"),
            ("SAREK_DEFER", "0"),
            ("SAREK_COARSEN", "0"),
            ("SAREK_VEC4", "0"),
        ]);
        // SAFETY: a value compared, never opened.
        let expected = unsafe { Config::default().unchecked_gl() }
            .device(DeviceChoice::Gpu)
            .adapter("llvmpipe")
            .backends(wgpu::Backends::GL)
            .pipeline_cache_dir(Some(Path::new("/tmp/sarek-cache")))
            .cache_max_mb(12)
            .checks(true)
            .cpu_engine(Some(CpuEngine::Interpreter))
            .step_limit(Some(1000))
            .cpu_subgroup_size(8)
            .cpu_threads(3)
            .dump_wgsl(Some(Path::new("/tmp/dump")))
            .trace(Some(Path::new("/tmp/trace.json")))
            .tiered(false)
            .unclamped(false)
            .defer(false)
            .coarsen(false)
            .vec4(false);
        assert_eq!(c, expected);
        assert_eq!(c.threads(), 3);
        assert_eq!(of(&[("SAREK_DEVICE", "cpu")]).device, DeviceChoice::Cpu);
        assert_eq!(
            of(&[("SAREK_CPU_ENGINE", "jit")]).cpu_engine,
            Some(CpuEngine::Jit)
        );
        assert_eq!(of(&[("SAREK_CPU_STEPS", "0")]).step_limit, None);
        assert_eq!(of(&[("SAREK_CACHE_MAX_MB", "0")]).cache_max_mb, 0);
        // An empty path is no trace.
        assert_eq!(of(&[("SAREK_TRACE", "")]).trace, None);
        assert_eq!(
            of(&[("SAREK_BACKEND", "Vulkan, gles")]).backends,
            Some(wgpu::Backends::VULKAN | wgpu::Backends::GL)
        );
        assert_eq!(
            of(&[("SAREK_BACKEND", "primary")]).backends,
            Some(wgpu::Backends::PRIMARY)
        );
    }

    #[test]
    fn the_cache_directory_follows_its_variables_in_order() {
        let dir = |vars: &[(&str, &str)]| of(vars).pipeline_cache_dir;
        let home = ("HOME", "/home/u");
        let xdg = ("XDG_CACHE_HOME", "/xdg");
        let own = ("SAREK_CACHE_DIR", "/own");
        assert_eq!(dir(&[home]), Some(PathBuf::from("/home/u/.cache/sarek")));
        assert_eq!(dir(&[home, xdg]), Some(PathBuf::from("/xdg/sarek")));
        assert_eq!(dir(&[home, xdg, own]), Some(PathBuf::from("/own")));
        // An empty variable counts as unset.
        assert_eq!(dir(&[home, ("SAREK_CACHE_DIR", "")]), dir(&[home]));
        assert_eq!(dir(&[home, xdg, own, ("SAREK_CACHE", "0")]), None);
        assert_eq!(
            dir(&[own, ("SAREK_CACHE", "1")]),
            Some(PathBuf::from("/own"))
        );
    }

    #[test]
    fn values_that_do_not_parse_leave_the_defaults() {
        let c = of(&[
            ("SAREK_DEVICE", "tpu"),
            ("SAREK_BACKEND", "gl,opencl"),
            ("SAREK_CACHE_MAX_MB", "lots"),
            ("SAREK_CHECKS", "yes"),
            ("SAREK_CPU_ENGINE", "fast"),
            ("SAREK_CPU_STEPS", "-1"),
            ("SAREK_CPU_SUBGROUP_SIZE", "3"),
            ("SAREK_CPU_THREADS", "0"),
            ("SAREK_TIERED", "off"),
        ]);
        assert_eq!(c, of(&[]));
    }

    #[test]
    fn a_builder_setting_overrides_the_environment() {
        let c = of(&[
            ("SAREK_CPU_THREADS", "3"),
            ("SAREK_TIERED", "0"),
            ("SAREK_CACHE_DIR", "/own"),
        ])
        .cpu_threads(0)
        .tiered(true)
        .pipeline_cache_dir(None)
        .step_limit(Some(0))
        .cpu_subgroup_size(5);
        assert_eq!(c.cpu_threads, None);
        assert!(c.tiered);
        assert_eq!(c.pipeline_cache_dir, None);
        assert_eq!(c.step_limit, None);
        assert_eq!(c.subgroup_size, 32); // 5 is no subgroup size: ignored
    }
}
