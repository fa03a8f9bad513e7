//! Choosing adapters: the ranked list of a host's adapters, one entry per physical GPU, the
//! selector of [`Device::with_adapter`], every device of a host ([`Device::all`]) and what
//! Sarek does about software adapters.
//!
//! Software adapters (`wgpu::DeviceType::Cpu`: Mesa's lavapipe, WARP, SwiftShader) run WGSL
//! on the CPU, but not with WebGPU's guarantees: lavapipe ends an invocation's loops after
//! 65,535 iterations in all (Sarek reports it as `Error::LoopCut` at the next read,
//! `loop_cap.rs`) and lets an out-of-bounds write at an index of 2^30 or more land inside the buffer, because
//! it claims robust buffer access and wgpu then leaves buffer accesses unchecked (wgpu 30 has
//! no public knob to force its own checks: `create_shader_module`'s "checked" runtime checks
//! still defer to the driver's robustness). Sarek's CPU backend keeps every guarantee, so
//! [`Device::new`] and [`Device::all`] prefer it over a software adapter; a software adapter
//! is used only when asked for (`SAREK_DEVICE=gpu`, `SAREK_ADAPTER`, [`Device::gpu`],
//! [`Device::with_adapter`]), and Sarek warns once per process when it opens one.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use crate::config::{Config, DeviceChoice};
use crate::device::Device;
use crate::error::{Error, Result};

/// Which adapter [`Device::with_adapter`] opens: a position in [`Device::adapters`] or a part
/// of its name. A `usize` converts to [`AdapterSelector::Index`], a string to
/// [`AdapterSelector::Name`].
///
/// ```
/// use sarek_rt::AdapterSelector;
/// assert_eq!(AdapterSelector::from(1), AdapterSelector::Index(1));
/// assert_eq!(AdapterSelector::from("H200"), AdapterSelector::Name("H200".into()));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AdapterSelector {
    /// The adapter at this position of [`Device::adapters`] (0 is the best).
    Index(usize),
    /// The first adapter of [`Device::adapters`] whose name contains this, ignoring case (as
    /// `SAREK_ADAPTER` does).
    Name(String),
}

impl From<usize> for AdapterSelector {
    fn from(index: usize) -> Self {
        AdapterSelector::Index(index)
    }
}

impl From<&str> for AdapterSelector {
    fn from(name: &str) -> Self {
        AdapterSelector::Name(name.to_owned())
    }
}

impl From<String> for AdapterSelector {
    fn from(name: String) -> Self {
        AdapterSelector::Name(name)
    }
}

/// How [`Device::gpu_with`] opens a device: which adapter, whether with wgpu's
/// experimental features, and with which settings ([`GpuOptions::config`]).
///
/// ```
/// use sarek_rt::{Device, GpuOptions};
/// // The adapter `Device::gpu` would open, without experimental features.
/// match Device::gpu_with(GpuOptions::new()) {
///     Ok(dev) => println!("{}", dev.name()),
///     Err(e) => println!("no GPU: {e}"),
/// }
/// ```
#[derive(Clone, Debug, Default)]
pub struct GpuOptions {
    adapter: Option<AdapterSelector>,
    experimental: bool,
    config: Option<Config>,
}

impl GpuOptions {
    /// The best adapter (as [`Device::gpu`] picks it, `SAREK_ADAPTER` included), without
    /// experimental features, with the settings of [`Config::from_env`].
    pub fn new() -> GpuOptions {
        GpuOptions::default()
    }

    /// The adapter `selector` names, as [`Device::with_adapter`] takes it (over the config's
    /// [`Config::adapter`]).
    ///
    /// ```
    /// let options = sarek_rt::GpuOptions::new().adapter(0);
    /// # let _ = options;
    /// ```
    pub fn adapter(mut self, selector: impl Into<AdapterSelector>) -> GpuOptions {
        self.adapter = Some(selector.into());
        self
    }

    /// Requests wgpu's experimental features where the adapter has them: today cooperative
    /// matrices (`CoopMatrix`, tensor cores), which kernels that use them need. Without this,
    /// such a kernel fails to launch with [`Error::MissingFeature`], saying so.
    ///
    /// ```no_run
    /// use sarek_rt::{Device, GpuOptions};
    /// # fn main() -> sarek_rt::Result<()> {
    /// // SAFETY: this program accepts wgpu's contract for its experimental features.
    /// let dev = Device::gpu_with(unsafe { GpuOptions::new().experimental_features() })?;
    /// # let _ = dev;
    /// # Ok(()) }
    /// ```
    ///
    /// # Safety
    ///
    /// wgpu's experimental features may still have bugs that break memory safety
    /// (`wgpu::ExperimentalFeatures::enabled`). Sarek's own kernels use them only after naga
    /// has validated their WGSL and their matrix shapes were checked against the adapter's
    /// offer, but the device's wgpu handles ([`Device::wgpu_device`]) reach them from safe code
    /// too: the caller accepts wgpu's contract for everything done with this device.
    pub unsafe fn experimental_features(mut self) -> GpuOptions {
        self.experimental = true;
        self
    }

    /// The device's settings, instead of [`Config::from_env`]; its [`Config::adapter`] picks
    /// the adapter unless [`GpuOptions::adapter`] does ([`Config::device`] is not used).
    ///
    /// ```
    /// use sarek_rt::{Config, Device, GpuOptions};
    /// let options = GpuOptions::new().config(Config::from_env().pipeline_cache_dir(None));
    /// if let Ok(dev) = Device::gpu_with(options) {
    ///     assert_eq!(dev.pipeline_cache_file(), None);
    /// }
    /// ```
    pub fn config(mut self, config: Config) -> GpuOptions {
        self.config = Some(config);
        self
    }
}

/// Adapters of a kind come before those of a later rank.
fn rank(info: &wgpu::AdapterInfo) -> u8 {
    match info.device_type {
        wgpu::DeviceType::DiscreteGpu => 0,
        wgpu::DeviceType::IntegratedGpu => 1,
        wgpu::DeviceType::VirtualGpu => 2,
        wgpu::DeviceType::Other => 3,
        wgpu::DeviceType::Cpu => 4,
    }
}

/// Of two backends showing one GPU, the one kept: the native API of each platform first.
fn backend_rank(backend: wgpu::Backend) -> u8 {
    match backend {
        wgpu::Backend::Vulkan => 0,
        wgpu::Backend::Metal => 1,
        wgpu::Backend::Dx12 => 2,
        wgpu::Backend::Gl => 3,
        _ => 4,
    }
}

/// Whether an adapter is a software rasteriser rather than a GPU.
pub(crate) fn is_software(info: &wgpu::AdapterInfo) -> bool {
    info.device_type == wgpu::DeviceType::Cpu
}

/// What identifies one physical adapter across backends: its PCI bus address where the
/// backend reports it, else vendor, device id and name. Two identical GPUs without a bus
/// address share a key, so duplicates are only removed *across* backends (below).
fn physical_key(info: &wgpu::AdapterInfo) -> (String, u32, u32, String) {
    if info.device_pci_bus_id.is_empty() {
        (String::new(), info.vendor, info.device, info.name.clone())
    } else {
        (info.device_pci_bus_id.clone(), 0, 0, String::new())
    }
}

/// Held while adapters are enumerated or devices created: they are made one at a time, since
/// NVIDIA's Vulkan driver hung (an H200, 11 or more test threads each making a device) and
/// crashes on Windows (gfx-rs/wgpu#10234) when devices are created concurrently.
static CREATING: Mutex<()> = Mutex::new(());

/// The host's adapters of `backends` ([`Config::backends`]; `None`: the primary backends, or
/// `WGPU_BACKEND`'s), ranked (discrete, integrated, virtual, other, software; enumeration order
/// within a rank), each physical adapter once: where several backends show it, only the
/// preferred backend's entries are kept.
pub(crate) fn enumerate(backends: Option<wgpu::Backends>) -> Vec<wgpu::Adapter> {
    let _one_at_a_time = crate::sync::lock(&CREATING);
    let mut descriptor = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
    // Vulkan, Metal and DX12 unless `SAREK_BACKEND` or `WGPU_BACKEND` says otherwise: wgpu's
    // GL backend checks no buffer index and lacks subgroups, `f16` and pipeline caches, so it
    // is used only when asked for.
    let backends = match backends {
        Some(backends) => {
            descriptor.backends = backends;
            backends
        }
        None if std::env::var_os("WGPU_BACKEND").is_some() => wgpu::Backends::all(),
        None => wgpu::Backends::PRIMARY,
    };
    let instance = wgpu::Instance::new(descriptor);
    let adapters = pollster::block_on(instance.enumerate_adapters(backends));
    let infos: Vec<wgpu::AdapterInfo> = adapters.iter().map(|a| a.get_info()).collect();
    let keep: Vec<bool> = infos
        .iter()
        .map(|info| {
            let key = physical_key(info);
            infos
                .iter()
                .filter(|other| physical_key(other) == key)
                .all(|other| backend_rank(other.backend) >= backend_rank(info.backend))
        })
        .collect();
    let mut adapters: Vec<wgpu::Adapter> = adapters
        .into_iter()
        .zip(keep)
        .filter_map(|(a, keep)| keep.then_some(a))
        .collect();
    adapters.sort_by_key(|a| rank(&a.get_info()));
    adapters
}

/// Where [`Error::NoAdapter`] looked, when [`Config::backends`] chose the backends.
fn among(backends: Option<wgpu::Backends>) -> String {
    let Some(backends) = backends else {
        return String::new();
    };
    let names: Vec<&str> = [
        (wgpu::Backends::VULKAN, "vulkan"),
        (wgpu::Backends::METAL, "metal"),
        (wgpu::Backends::DX12, "dx12"),
        (wgpu::Backends::GL, "gl"),
        (wgpu::Backends::BROWSER_WEBGPU, "webgpu"),
    ]
    .into_iter()
    .filter_map(|(b, name)| backends.contains(b).then_some(name))
    .collect();
    let gl = if backends.contains(wgpu::Backends::GL) {
        " (GL needs OpenGL ES 3.1 for compute; on Linux without a GPU, Mesa's llvmpipe offers it: \
         `apt-get install libegl1 libegl-mesa0 libgles2`)"
    } else {
        ""
    };
    format!(
        " among the backends SAREK_BACKEND (or Config::backends) asks for: {}{gl}",
        names.join(", ")
    )
}

/// The adapter `selector` names among `adapters`.
fn select(adapters: Vec<wgpu::Adapter>, selector: &AdapterSelector) -> Result<wgpu::Adapter> {
    match selector {
        AdapterSelector::Index(i) => {
            let count = adapters.len();
            adapters
                .into_iter()
                .nth(*i)
                .ok_or_else(|| Error::NoAdapter(format!(" at index {i} (there are {count})")))
        }
        AdapterSelector::Name(name) => {
            let wanted = name.to_lowercase();
            adapters
                .into_iter()
                .find(|a| a.get_info().name.to_lowercase().contains(&wanted))
                .ok_or_else(|| Error::NoAdapter(format!(" whose name contains {wanted:?}")))
        }
    }
}

/// Warns, once per process, that a software adapter runs kernels without WebGPU's guarantees.
fn warn_software(info: &wgpu::AdapterInfo) {
    static WARNED: AtomicBool = AtomicBool::new(false);
    if !WARNED.swap(true, Ordering::Relaxed) {
        log::warn!(
            "sarek: {:?} is a software adapter: it cuts loops short after 65,535 iterations (reported as Error::LoopCut) and may \
             let out-of-bounds writes at indices of 2^30 or more land inside the buffer; \
             the CPU backend (`Device::cpu`, the default without a GPU) keeps every guarantee",
            info.name
        );
    }
}

/// Warns, once per process, that wgpu's GL backend leaves buffer indices unchecked.
fn warn_gl() {
    static WARNED: AtomicBool = AtomicBool::new(false);
    if !WARNED.swap(true, Ordering::Relaxed) {
        log::warn!(
            "sarek: wgpu's GL backend checks no buffer index (naga's GLSL is written without \
             bounds checks), so an index past a buffer's end is not clamped there; use it to \
             test portability, not to run untrusted input"
        );
    }
}

/// Opens a device on `adapter`, with its full limits and, where it has them, timestamps;
/// with wgpu's experimental features only when `experimental` (an `unsafe` opt-in,
/// [`GpuOptions::experimental_features`]).
fn open(adapter: wgpu::Adapter, experimental: bool, config: Config) -> Result<Device> {
    let _one_at_a_time = crate::sync::lock(&CREATING);
    let info = adapter.get_info();
    log::info!(
        "sarek: using adapter {:?} ({:?}, {:?})",
        info.name,
        info.device_type,
        info.backend
    );
    if is_software(&info) {
        warn_software(&info);
    }
    if info.backend == wgpu::Backend::Gl {
        // GL checks no buffer index: only the environment or an `unsafe` opt-in chooses it.
        if !config.unchecked_gl {
            return Err(Error::NoAdapter(format!(
                " that checks buffer indices: {:?} is on wgpu's GL backend, which checks none; \
                 name GL in SAREK_BACKEND, or opt in with `unsafe {{ config.unchecked_gl() }}`",
                info.name
            )));
        }
        warn_gl();
    }
    // The adapter's own limits, not WebGPU's defaults: a kernel declared with
    // `limits = "device"` may use them.
    let limits = adapter.limits();
    // Every feature Sarek can use that the adapter has: the kernels' (subgroups, float
    // atomics; a kernel's launch checks its own), timestamps for `Device::set_profiling`
    // and the pipeline cache for `disk_cache.rs`.
    let mut features = adapter.features() & (super::usable() | wgpu::Features::PIPELINE_CACHE);
    // wgpu grants an `EXPERIMENTAL_*` feature (cooperative matrices) only with this token,
    // whose contract the caller of `experimental_features` took on: the device's wgpu handles
    // (`Device::wgpu_device`) then reach those features from safe code.
    let experimental =
        if experimental && features.intersects(wgpu::Features::all_experimental_mask()) {
            // SAFETY: the caller of `GpuOptions::experimental_features` accepted wgpu's contract
            // for experimental features (they may still have bugs that break memory safety) for
            // this device.
            unsafe { wgpu::ExperimentalFeatures::enabled() }
        } else {
            features.remove(wgpu::Features::all_experimental_mask());
            wgpu::ExperimentalFeatures::disabled()
        };
    let coop = adapter.cooperative_matrix_properties();
    let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        label: Some("sarek"),
        required_features: features,
        required_limits: limits.clone(),
        experimental_features: experimental,
        ..Default::default()
    }))
    .map_err(Error::RequestDevice)?;
    // Sarek reports errors through `Result`; without a handler wgpu would panic.
    device.on_uncaptured_error(Arc::new(|e: wgpu::Error| {
        log::error!("sarek: uncaptured wgpu error: {e}")
    }));
    Ok(Device::wrap(device, queue, Some(info), Some(coop), config))
}

impl Device {
    /// The best wgpu adapter of a primary backend (Vulkan, Metal, DX12): a discrete GPU
    /// first, then integrated, virtual, and software ones (such as Mesa's lavapipe, which
    /// this opens where it is the only adapter; [`Device::new`] prefers the CPU backend).
    /// `SAREK_ADAPTER=<substring>` picks the first adapter whose name contains the substring
    /// (case-insensitive); `SAREK_BACKEND` ([`Config::backends`]) chooses the backends, such
    /// as `gl` for wgpu's OpenGL ES backend, and so does `WGPU_BACKEND` where it is unset. The
    /// choice is logged at `info` level.
    ///
    /// ```
    /// // `SAREK_ADAPTER=llvmpipe` would pick Mesa's software Vulkan driver, where installed.
    /// match sarek_rt::Device::gpu() {
    ///     Ok(dev) => println!("{} ({:?})", dev.name(), dev.backend()),
    ///     // `Device::new` would fall back to the CPU backend.
    ///     Err(e) => println!("no GPU: {e}"),
    /// }
    /// ```
    pub fn gpu() -> Result<Device> {
        Device::gpu_with(GpuOptions::new())
    }

    /// A device opened as `options` say: [`Device::gpu`] or [`Device::with_adapter`], with
    /// wgpu's experimental features where `options` ask for them (for kernels with cooperative
    /// matrices).
    ///
    /// ```
    /// use sarek_rt::{Device, GpuOptions};
    /// assert!(Device::gpu_with(GpuOptions::new().adapter(usize::MAX)).is_err());
    /// ```
    pub fn gpu_with(options: GpuOptions) -> Result<Device> {
        crate::logging::init();
        let config = options.config.unwrap_or_else(Config::from_env);
        let adapter = match (options.adapter, &config.adapter) {
            (Some(selector), _) => select(enumerate(config.backends), &selector)?,
            (None, Some(AdapterSelector::Name(wanted))) => select(
                enumerate(config.backends),
                &AdapterSelector::Name(wanted.clone()),
            )
            .map_err(|_| {
                Error::NoAdapter(format!(
                    " whose name contains {:?} (SAREK_ADAPTER)",
                    wanted.to_lowercase()
                ))
            })?,
            (None, Some(selector)) => select(enumerate(config.backends), selector)?,
            (None, None) => enumerate(config.backends)
                .into_iter()
                .next()
                .ok_or_else(|| Error::NoAdapter(among(config.backends)))?,
        };
        open(adapter, options.experimental, config)
    }

    /// The host's adapters, in the order [`Device::with_adapter`] numbers them: discrete
    /// GPUs, integrated, virtual, other, then software adapters, each physical GPU once even
    /// where two backends show it (the Vulkan entry is kept over Metal, DX12 and GL).
    /// `SAREK_BACKEND` (or `WGPU_BACKEND`) chooses the backends; `SAREK_ADAPTER` does not
    /// filter this list.
    ///
    /// ```
    /// for (i, info) in sarek_rt::Device::adapters().iter().enumerate() {
    ///     println!("{i}: {} ({:?}, {:?})", info.name, info.device_type, info.backend);
    /// }
    /// ```
    pub fn adapters() -> Vec<wgpu::AdapterInfo> {
        crate::logging::init();
        enumerate(Config::from_env().backends)
            .iter()
            .map(|a| a.get_info())
            .collect()
    }

    /// A device on the adapter `selector` names: an index into [`Device::adapters`] or a
    /// case-insensitive part of its name. Unlike [`Device::new`], this opens a software
    /// adapter when asked to (with a warning, once per process).
    ///
    /// ```
    /// # fn main() -> sarek_rt::Result<()> {
    /// use sarek_rt::Device;
    /// if !Device::adapters().is_empty() {
    ///     let first = Device::with_adapter(0)?;
    ///     let name = first.name();
    ///     assert_eq!(Device::with_adapter(name.as_str())?.name(), name);
    /// }
    /// assert!(Device::with_adapter(usize::MAX).is_err());
    /// # Ok(()) }
    /// ```
    pub fn with_adapter(selector: impl Into<AdapterSelector>) -> Result<Device> {
        Device::gpu_with(GpuOptions::new().adapter(selector))
    }

    /// Every device of the host, one per hardware adapter (discrete GPUs first, then
    /// integrated, virtual and other ones, each physical GPU once even where two backends show
    /// it), for splitting work across them (see [`crate::Split`]). Software adapters and the
    /// CPU backend are left out beside a hardware GPU, since a split would wait for them; add
    /// [`Device::cpu`] to the list to use the CPU too. Without a hardware adapter the list is
    /// the one device [`Device::new`] chooses (the CPU backend). `SAREK_DEVICE=cpu` gives the
    /// CPU backend alone, `SAREK_DEVICE=gpu` every adapter including software ones (an error
    /// without any), and `SAREK_ADAPTER=<substring>` every adapter whose name contains it.
    /// The same as [`Device::all_with`] with [`Config::from_env`].
    ///
    /// ```
    /// # fn main() -> sarek_rt::Result<()> {
    /// let devices = sarek_rt::Device::all()?;
    /// assert!(!devices.is_empty());
    /// for dev in &devices {
    ///     println!("{}", dev.name());
    /// }
    /// # Ok(()) }
    /// ```
    pub fn all() -> Result<Vec<Device>> {
        Device::all_with(Config::from_env())
    }

    /// Every device of the host as [`Device::all`] lists them, each made with `config`'s
    /// settings: [`Config::device`] and [`Config::adapter`] choose as `SAREK_DEVICE` and
    /// `SAREK_ADAPTER` do there (an adapter given by index is that one adapter).
    ///
    /// ```
    /// # fn main() -> sarek_rt::Result<()> {
    /// use sarek_rt::{Config, Device, DeviceChoice};
    /// let devices = Device::all_with(Config::from_env().device(DeviceChoice::Cpu))?;
    /// assert!(devices.len() == 1 && devices[0].is_cpu());
    /// # Ok(()) }
    /// ```
    pub fn all_with(config: Config) -> Result<Vec<Device>> {
        crate::logging::init();
        if config.device == DeviceChoice::Cpu {
            return Ok(vec![Device::cpu_with(config)]);
        }
        let mut adapters = enumerate(config.backends);
        match &config.adapter {
            Some(AdapterSelector::Name(wanted)) => {
                let wanted = wanted.to_lowercase();
                adapters.retain(|a| a.get_info().name.to_lowercase().contains(&wanted));
                if adapters.is_empty() {
                    return Err(Error::NoAdapter(format!(
                        " whose name contains {wanted:?} (SAREK_ADAPTER)"
                    )));
                }
            }
            Some(selector) => adapters = vec![select(adapters, selector)?],
            None if config.device == DeviceChoice::Gpu => {
                if adapters.is_empty() {
                    return Err(Error::NoAdapter(among(config.backends)));
                }
            }
            None => {
                adapters.retain(|a| !is_software(&a.get_info()));
                if adapters.is_empty() {
                    return Ok(vec![Device::with_config(config)?]);
                }
            }
        }
        adapters
            .into_iter()
            .map(|a| open(a, false, config.clone()))
            .collect()
    }

    /// The device [`Device::new`] opens when nothing forces the choice: the best hardware
    /// adapter, else the CPU backend (saying why, at `warn` level).
    pub(crate) fn preferred(config: &Config) -> Result<Device> {
        let best = enumerate(config.backends).into_iter().next();
        match best {
            Some(adapter) if !is_software(&adapter.get_info()) => {
                open(adapter, false, config.clone())
            }
            Some(adapter) => {
                log::warn!(
                    "sarek: the only adapter, {:?}, is a software one, which caps loops and may \
                     let far out-of-bounds writes land; running kernels on the CPU backend \
                     instead (SAREK_DEVICE=gpu picks the software adapter)",
                    adapter.get_info().name
                );
                Ok(Device::cpu_with(config.clone()))
            }
            None => {
                log::warn!(
                    "sarek: {}; running kernels on the CPU backend instead",
                    Error::NoAdapter(String::new())
                );
                Ok(Device::cpu_with(config.clone()))
            }
        }
    }

    /// Whether the device runs on a software adapter (`wgpu::DeviceType::Cpu`, such as Mesa's
    /// lavapipe), which does not keep all of WebGPU's guarantees (see the README's robustness
    /// section). `false` for the CPU backend, which keeps them, and for a device from
    /// [`Device::from_wgpu`], whose adapter Sarek does not know.
    ///
    /// ```
    /// assert!(!sarek_rt::Device::cpu().is_software());
    /// ```
    pub fn is_software(&self) -> bool {
        self.as_wgpu()
            .is_some_and(|inner| inner.info.as_ref().is_some_and(is_software))
    }
}
