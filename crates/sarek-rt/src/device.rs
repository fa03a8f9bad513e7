//! Devices: adapter choice, limits, buffer creation and device loss.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use wgpu::util::DeviceExt;

use crate::adapter::GpuOptions;
use crate::buffer::{Buffer, Element};
use crate::config::{Config, DeviceChoice};
use crate::cpu::CpuInner;
use crate::error::{Error, Result};
use crate::launch::{Pipeline, Submitter, UniformRing};
use crate::poller::Poller;
use crate::transfer::StagingPool;

static NEXT_DEVICE: AtomicU64 = AtomicU64::new(1);

/// A GPU, or the CPU backend, that runs kernels. Cheap to clone (clones share the device),
/// `Send` and `Sync`.
///
/// ```
/// # fn main() -> sarek_rt::Result<()> {
/// let dev = sarek_rt::Device::new()?;
/// println!("running on {}", dev.name());
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct Device {
    pub(crate) backend: Backend,
}

/// What a [`Device`] runs kernels on.
#[derive(Clone)]
pub(crate) enum Backend {
    Gpu(Arc<Inner>),
    Cpu(Arc<CpuInner>),
}

pub(crate) struct Inner {
    pub(crate) id: u64,
    pub(crate) device: wgpu::Device,
    pub(crate) queue: wgpu::Queue,
    pub(crate) info: Option<wgpu::AdapterInfo>,
    pub(crate) limits: wgpu::Limits,
    /// The device's features, which kernels' launches are checked against.
    pub(crate) features: wgpu::Features,
    /// The cooperative-matrix configurations its adapter offers (`None` for a device from
    /// `from_wgpu`, whose adapter Sarek does not know: only the feature is checked).
    pub(crate) coop: Option<Vec<wgpu::CooperativeMatrixProperties>>,
    pub(crate) lost: Arc<Mutex<Option<String>>>,
    pub(crate) lost_flag: Arc<AtomicBool>,
    pub(crate) pipelines: Mutex<HashMap<(usize, u8), Arc<Pipeline>>>,
    /// One lock per (kernel, entry point) whose pipeline was asked for, held while it is
    /// made, so that it is made once while other keys are made at the same time
    /// (`launch/pipeline.rs`).
    pub(crate) making: Mutex<crate::launch::Making>,
    /// Pipelines created at a cache miss ([`Device::pipelines_made`]).
    pub(crate) pipelines_made: std::sync::atomic::AtomicUsize,
    /// Those of them created without index clamps ([`Device::pipelines_unclamped`]).
    pub(crate) pipelines_unclamped: std::sync::atomic::AtomicUsize,
    pub(crate) poller: Poller,
    pub(crate) staging: StagingPool,
    pub(crate) profiling: AtomicBool,
    pub(crate) uniforms: Mutex<UniformRing>,
    /// Compiled pipelines kept across processes (`disk_cache.rs`).
    pub(crate) disk_cache: Mutex<Option<Arc<crate::disk_cache::DiskCache>>>,
    /// The open command encoder of launches not submitted yet (`launch/submit.rs`).
    pub(crate) submitter: Submitter,
    /// Whether first launches use a kernel's quick form while its optimized pipeline
    /// compiles (`launch/tiered.rs`).
    pub(crate) tiered: AtomicBool,
    /// The kernels doing so now.
    pub(crate) tiers: Mutex<crate::launch::Tiers>,
    /// Whether entry points proven in bounds get modules without index clamps
    /// (`launch/unclamped.rs`).
    pub(crate) unclamped: bool,
    /// The settings the device was made with.
    pub(crate) config: Config,
}

impl Drop for Inner {
    fn drop(&mut self) {
        // Launches still in the open encoder run, as they would have without it.
        self.submitter.shutdown();
        self.poller.shutdown();
        // Optimized pipelines still compiling (`launch/tiered.rs`) are waited for, so that
        // they reach the pipeline cache for the next process; their threads hold nothing of
        // this device's but their own wgpu handles, so this cannot deadlock.
        let tiers = std::mem::take(&mut *crate::sync::lock(&self.tiers));
        for (_, tier) in tiers {
            tier.finish();
        }
    }
}

impl std::fmt::Debug for Device {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Device")
            .field("name", &self.name())
            .field("backend", &self.backend())
            .finish()
    }
}

impl Device {
    /// The best device available: the best hardware GPU adapter, else the CPU backend
    /// ([`Device::cpu`]), logging (at `warn` level) that it fell back. A software adapter
    /// (Mesa's lavapipe, `wgpu::DeviceType::Cpu`) loses to the CPU backend, which keeps the
    /// guarantees a software driver does not (unbounded loops, dropped out-of-bounds writes;
    /// see the README's robustness section). The environment variable `SAREK_DEVICE=gpu` or
    /// `SAREK_DEVICE=cpu` forces the choice (`gpu` picks [`Device::gpu`], software adapters
    /// included, and fails without an adapter); `SAREK_ADAPTER=<substring>` picks that
    /// adapter, software or not, falling back to the CPU backend when none matches. The same
    /// as [`Device::with_config`] with [`Config::from_env`].
    ///
    /// ```
    /// # fn main() -> sarek_rt::Result<()> {
    /// let dev = sarek_rt::Device::new()?;
    /// let buf = dev.upload(&[1u32, 2, 3])?;
    /// assert_eq!(buf.read()?, [1, 2, 3]);
    /// # Ok(()) }
    /// ```
    pub fn new() -> Result<Device> {
        Device::with_config(Config::from_env())
    }

    /// The device `config` chooses ([`Config::device`], [`Config::adapter`]; by default as
    /// [`Device::new`] does), made with `config`'s settings.
    ///
    /// ```
    /// # fn main() -> sarek_rt::Result<()> {
    /// use sarek_rt::{Config, Device, DeviceChoice};
    /// let dev = Device::with_config(Config::from_env().device(DeviceChoice::Cpu).cpu_threads(2))?;
    /// assert!(dev.is_cpu());
    /// # Ok(()) }
    /// ```
    pub fn with_config(config: Config) -> Result<Device> {
        crate::logging::init();
        match config.device {
            DeviceChoice::Cpu => return Ok(Device::cpu_with(config)),
            DeviceChoice::Gpu => return Device::gpu_with(GpuOptions::new().config(config)),
            DeviceChoice::Best => {}
        }
        // An adapter the config names is opened even if it is a software one; otherwise a
        // software adapter loses to the CPU backend (see `adapter.rs`).
        let chosen = if config.adapter.is_some() {
            Device::gpu_with(GpuOptions::new().config(config.clone()))
        } else {
            Device::preferred(&config)
        };
        match chosen {
            Ok(dev) => Ok(dev),
            Err(e @ (Error::NoAdapter(_) | Error::RequestDevice(_))) => {
                log::warn!("sarek: {e}; running kernels on the CPU backend instead");
                Ok(Device::cpu_with(config))
            }
            Err(e) => Err(e),
        }
    }

    /// The CPU backend: kernels run in Sarek's interpreter of their IR, with the same results
    /// as on a GPU (integers bit for bit, floats within the documented ULP bounds; Rust's own
    /// `f32` functions where the GPU uses polyfills), workgroups spread over every core. It
    /// needs no driver, so it also serves tests on machines without one, and it can check
    /// what a GPU cannot: see [`Device::set_checks`]. The same as [`Device::cpu_with`] with
    /// [`Config::from_env`].
    ///
    /// ```
    /// # fn main() -> sarek_rt::Result<()> {
    /// let dev = sarek_rt::Device::cpu();
    /// assert!(dev.is_cpu());
    /// assert_eq!(dev.upload(&[1u32, 2, 3])?.read()?, [1, 2, 3]);
    /// # Ok(()) }
    /// ```
    pub fn cpu() -> Device {
        Device::cpu_with(Config::from_env())
    }

    /// The CPU backend ([`Device::cpu`]) with `config`'s settings ([`Config::device`] and
    /// [`Config::adapter`] aside).
    ///
    /// ```
    /// use sarek_rt::{Config, Device};
    /// let dev = Device::cpu_with(Config::default().checks(true).cpu_threads(1));
    /// assert!(!dev.set_checks(false)); // they were on
    /// ```
    pub fn cpu_with(config: Config) -> Device {
        crate::logging::init();
        Device {
            backend: Backend::Cpu(Arc::new(CpuInner::new(
                NEXT_DEVICE.fetch_add(1, Ordering::Relaxed),
                config,
            ))),
        }
    }

    /// Whether this is the CPU backend ([`Device::cpu`]).
    ///
    /// ```
    /// assert!(sarek_rt::Device::cpu().is_cpu());
    /// ```
    pub fn is_cpu(&self) -> bool {
        matches!(self.backend, Backend::Cpu(_))
    }

    /// On the CPU backend, turns the debugging checks on or off (off by default, or on from
    /// the start with `SAREK_CHECKS=1` or [`Config::checks`]): a launch then stops at the first out-of-bounds index
    /// (into a buffer, a workgroup array or a local array) or integer division by zero, and
    /// fails with [`Error::KernelFault`], which names the kernel, the invocation and the
    /// source line and column. Unchecked, such an operation gives WebGPU's defined result, as
    /// on a GPU. Returns whether checks are now on (always `false` on a GPU).
    ///
    /// ```
    /// let dev = sarek_rt::Device::cpu();
    /// assert!(dev.set_checks(true));
    /// assert!(!dev.set_checks(false));
    /// ```
    pub fn set_checks(&self, on: bool) -> bool {
        match &self.backend {
            Backend::Cpu(cpu) => {
                cpu.checks.store(on, Ordering::Relaxed);
                on
            }
            Backend::Gpu(_) => false,
        }
    }

    /// The CPU backend's state, on a CPU device.
    pub(crate) fn as_cpu(&self) -> Option<&CpuInner> {
        match &self.backend {
            Backend::Cpu(cpu) => Some(cpu),
            Backend::Gpu(_) => None,
        }
    }

    /// The GPU state. Only reached on paths that handled the CPU backend before.
    pub(crate) fn inner(&self) -> &Inner {
        match &self.backend {
            Backend::Gpu(inner) => inner,
            Backend::Cpu(_) => unreachable!("a wgpu-only path was reached on the CPU backend"),
        }
    }

    /// Runs kernels on a device the caller already owns (sharing it with their own passes).
    /// Sarek uses the device's own features and limits and does not touch its error handler:
    /// a kernel that needs a feature or limit the device was not created with fails to launch
    /// with [`Error::MissingFeature`] or [`Error::DeviceLimit`].
    ///
    /// ```
    /// # fn main() -> sarek_rt::Result<()> {
    /// let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle());
    /// let adapter = pollster::block_on(instance.request_adapter(&Default::default())).unwrap();
    /// let (device, queue) = pollster::block_on(adapter.request_device(&Default::default())).unwrap();
    /// let dev = sarek_rt::Device::from_wgpu(device, queue);
    /// assert_eq!(dev.name(), "unknown adapter");
    /// assert_eq!(dev.upload(&[1u32, 2, 3])?.read()?, [1, 2, 3]);
    /// # Ok(()) }
    /// ```
    pub fn from_wgpu(device: wgpu::Device, queue: wgpu::Queue) -> Device {
        Device::wrap(device, queue, None, None, Config::from_env())
    }

    pub(crate) fn wrap(
        device: wgpu::Device,
        queue: wgpu::Queue,
        info: Option<wgpu::AdapterInfo>,
        coop: Option<Vec<wgpu::CooperativeMatrixProperties>>,
        config: Config,
    ) -> Device {
        let lost = Arc::new(Mutex::new(None));
        let lost_flag = Arc::new(AtomicBool::new(false));
        {
            let (lost, flag) = (lost.clone(), lost_flag.clone());
            device.set_device_lost_callback(move |reason, message| {
                log::warn!("sarek: device lost: {reason:?} {message}");
                *crate::sync::lock(&lost) = Some(format!("{reason:?}: {message}"));
                flag.store(true, Ordering::SeqCst);
            });
        }
        let limits = device.limits();
        // Only a device whose adapter Sarek knows gets a cache: the file is keyed by it.
        let disk_cache = info.as_ref().and_then(|info| {
            let dir = config.pipeline_cache_dir.as_deref()?;
            crate::disk_cache::DiskCache::open(&device, info, dir, config.cache_max_mb)
                .map(Arc::new)
        });
        // A device from `from_wgpu` (no adapter info) submits every launch at once: its
        // caller submits to their own clone of the queue (see `launch/submit.rs`).
        let submitter = Submitter::new(
            device.clone(),
            queue.clone(),
            info.is_some() && config.defer,
        );
        let features = device.features();
        // Only a device Sarek requested itself: wgpu's `request_device` enables robust buffer
        // access wherever offered, which a device the caller made from raw Vulkan may lack.
        let unclamped =
            info.is_some() && config.unclamped && crate::launch::unclamped::allowed(&device);
        Device {
            backend: Backend::Gpu(Arc::new(Inner {
                id: NEXT_DEVICE.fetch_add(1, Ordering::Relaxed),
                device,
                queue,
                info,
                limits,
                features,
                coop,
                lost,
                lost_flag,
                pipelines: Mutex::new(HashMap::new()),
                making: Mutex::new(HashMap::new()),
                pipelines_made: std::sync::atomic::AtomicUsize::new(0),
                pipelines_unclamped: std::sync::atomic::AtomicUsize::new(0),
                poller: Poller::default(),
                staging: StagingPool::default(),
                profiling: AtomicBool::new(false),
                uniforms: Mutex::new(UniformRing::default()),
                disk_cache: Mutex::new(disk_cache),
                submitter,
                tiered: AtomicBool::new(config.tiered),
                tiers: Mutex::new(crate::launch::Tiers::new()),
                unclamped,
                config,
            })),
        }
    }

    /// The settings the device was made with (a setter on a live device changes its own
    /// state, not this).
    pub(crate) fn config(&self) -> &Config {
        match &self.backend {
            Backend::Gpu(inner) => &inner.config,
            Backend::Cpu(cpu) => &cpu.config,
        }
    }

    pub(crate) fn id(&self) -> u64 {
        match &self.backend {
            Backend::Gpu(inner) => inner.id,
            Backend::Cpu(cpu) => cpu.id,
        }
    }

    /// The adapter's name (`"unknown adapter"` for a device from [`Device::from_wgpu`]).
    ///
    /// ```
    /// # fn main() -> sarek_rt::Result<()> {
    /// let dev = sarek_rt::Device::new()?;
    /// assert!(!dev.name().is_empty());
    /// # Ok(()) }
    /// ```
    pub fn name(&self) -> String {
        if let Some(cpu) = self.as_cpu() {
            return format!("Sarek CPU backend ({} threads)", cpu.threads);
        }
        self.inner()
            .info
            .as_ref()
            .map_or_else(|| "unknown adapter".to_owned(), |i| i.name.clone())
    }

    /// The wgpu backend (Vulkan, Metal, ...), when Sarek chose the adapter.
    ///
    /// ```
    /// # fn main() -> sarek_rt::Result<()> {
    /// let dev = sarek_rt::Device::new()?;
    /// // `None` for a device from `Device::from_wgpu` and for the CPU backend.
    /// assert_eq!(dev.backend().is_some(), !dev.is_cpu());
    /// # Ok(()) }
    /// ```
    pub fn backend(&self) -> Option<wgpu::Backend> {
        match &self.backend {
            Backend::Gpu(inner) => inner.info.as_ref().map(|i| i.backend),
            Backend::Cpu(_) => None,
        }
    }

    /// The device's limits.
    ///
    /// ```
    /// # fn main() -> sarek_rt::Result<()> {
    /// let dev = sarek_rt::Device::new()?;
    /// // Buffers may hold this many bytes.
    /// let max = dev.limits().max_storage_buffer_binding_size;
    /// assert!(max >= 1 << 20);
    /// # Ok(()) }
    /// ```
    pub fn limits(&self) -> &wgpu::Limits {
        match &self.backend {
            Backend::Gpu(inner) => &inner.limits,
            Backend::Cpu(cpu) => &cpu.limits,
        }
    }

    /// The wgpu device, for the caller's own work.
    ///
    /// ```
    /// # fn main() -> sarek_rt::Result<()> {
    /// let dev = sarek_rt::Device::new()?;
    /// # if dev.is_cpu() { return Ok(()); } // wgpu objects need a GPU device
    /// let buf = dev.zeros::<u32>(4)?;
    /// let mut encoder = dev.wgpu_device().create_command_encoder(&Default::default());
    /// encoder.clear_buffer(buf.wgpu_buffer(), 0, None);
    /// dev.wgpu_queue().submit([encoder.finish()]);
    /// assert_eq!(buf.read()?, [0; 4]);
    /// # Ok(()) }
    /// ```
    ///
    /// # Panics
    ///
    /// On the CPU backend, which has no wgpu device (check [`Device::is_cpu`]).
    pub fn wgpu_device(&self) -> &wgpu::Device {
        assert!(!self.is_cpu(), "the CPU backend has no wgpu device");
        // The caller's own work through it comes after every launch issued before.
        self.flush();
        &self.inner().device
    }

    /// The wgpu queue Sarek submits to.
    ///
    /// ```
    /// # fn main() -> sarek_rt::Result<()> {
    /// let dev = sarek_rt::Device::new()?;
    /// # if dev.is_cpu() { return Ok(()); } // wgpu objects need a GPU device
    /// let buf = dev.zeros::<u32>(2)?;
    /// dev.wgpu_queue().write_buffer(buf.wgpu_buffer(), buf.offset(), bytemuck::cast_slice(&[5u32, 6]));
    /// assert_eq!(buf.read()?, [5, 6]);
    /// # Ok(()) }
    /// ```
    ///
    /// # Panics
    ///
    /// On the CPU backend, which has no wgpu queue (check [`Device::is_cpu`]).
    pub fn wgpu_queue(&self) -> &wgpu::Queue {
        assert!(!self.is_cpu(), "the CPU backend has no wgpu queue");
        // The caller's own submissions come after every launch issued before.
        self.flush();
        &self.inner().queue
    }

    /// Copies `data` into a new buffer.
    ///
    /// ```
    /// # fn main() -> sarek_rt::Result<()> {
    /// let dev = sarek_rt::Device::new()?;
    /// let buf = dev.upload(&[1.5f32, 2.5])?;
    /// assert_eq!(buf.len(), 2);
    /// assert_eq!(buf.read()?, [1.5, 2.5]);
    /// # Ok(()) }
    /// ```
    pub fn upload<T: Element>(&self, data: &[T]) -> Result<Buffer<T>> {
        self.check_lost()?;
        Buffer::new(self, Some(data), data.len())
    }

    /// A new buffer of `len` zeros.
    ///
    /// ```
    /// use sarek_rt::Vec3;
    /// # fn main() -> sarek_rt::Result<()> {
    /// let dev = sarek_rt::Device::new()?;
    /// let buf = dev.zeros::<Vec3>(4)?;
    /// assert_eq!(buf.read()?, [Vec3::ZERO; 4]);
    /// # Ok(()) }
    /// ```
    pub fn zeros<T: Element>(&self, len: usize) -> Result<Buffer<T>> {
        self.check_lost()?;
        Buffer::new(self, None, len)
    }

    /// How many read-back staging buffers the device keeps for reuse right now (reads take one
    /// from this pool and put it back, so repeated reads allocate nothing).
    ///
    /// ```
    /// # fn main() -> sarek_rt::Result<()> {
    /// let dev = sarek_rt::Device::new()?;
    /// # if dev.is_cpu() { return Ok(()); } // wgpu objects need a GPU device
    /// let buf = dev.upload(&[1u32, 2, 3])?;
    /// buf.read()?;
    /// let pooled = dev.pooled_staging_buffers();
    /// assert!(pooled >= 1);
    /// buf.read()?; // reuses a pooled staging buffer
    /// assert_eq!(dev.pooled_staging_buffers(), pooled);
    /// # Ok(()) }
    /// ```
    pub fn pooled_staging_buffers(&self) -> usize {
        match &self.backend {
            Backend::Gpu(inner) => inner.staging.idle(),
            Backend::Cpu(_) => 0,
        }
    }

    /// Whether the device can time launches (it has `wgpu::Features::TIMESTAMP_QUERY`).
    ///
    /// ```
    /// # fn main() -> sarek_rt::Result<()> {
    /// let dev = sarek_rt::Device::new()?;
    /// // Profiling can be turned on exactly when the device can time launches.
    /// assert_eq!(dev.set_profiling(true), dev.can_profile());
    /// # Ok(()) }
    /// ```
    pub fn can_profile(&self) -> bool {
        if self.is_cpu() {
            return false;
        }
        self.inner()
            .device
            .features()
            .contains(wgpu::Features::TIMESTAMP_QUERY)
    }

    /// Turns per-launch GPU timing on or off: while on, every launch writes timestamps and
    /// [`Launch::gpu_time`](crate::Launch::gpu_time) reports its duration. Returns whether
    /// timing is available (see [`Device::can_profile`]).
    ///
    /// ```
    /// # fn main() -> sarek_rt::Result<()> {
    /// let dev = sarek_rt::Device::new()?;
    /// if dev.set_profiling(true) {
    ///     // launch kernels, then `launch.gpu_time()?`
    /// }
    /// # Ok(()) }
    /// ```
    pub fn set_profiling(&self, on: bool) -> bool {
        let on = on && self.can_profile();
        if let Backend::Gpu(inner) = &self.backend {
            inner.profiling.store(on, Ordering::Relaxed);
        }
        on
    }

    /// Whether launches and batches are timed now.
    pub(crate) fn profiling(&self) -> bool {
        match &self.backend {
            Backend::Gpu(inner) => inner.profiling.load(Ordering::Relaxed),
            Backend::Cpu(_) => false,
        }
    }

    /// Forgets cached bind groups holding buffer `id` (called when the buffer is dropped).
    pub(crate) fn forget_buffer(&self, id: u64) {
        if self.is_cpu() {
            return;
        }
        let pipelines = crate::sync::lock(&self.inner().pipelines);
        for p in pipelines.values() {
            p.forget(id);
        }
        for t in crate::sync::lock(&self.inner().tiers).values() {
            t.forget(id);
        }
    }

    pub(crate) fn check_lost(&self) -> Result<()> {
        if self.is_cpu() {
            return Ok(());
        }
        if self.inner().lost_flag.load(Ordering::SeqCst) {
            let why = crate::sync::lock(&self.inner().lost)
                .clone()
                .unwrap_or_default();
            return Err(Error::DeviceLost(why));
        }
        Ok(())
    }

    pub(crate) fn check_buffer_size(&self, bytes: u64) -> Result<()> {
        let limits = self.limits();
        let binding = limits.max_storage_buffer_binding_size;
        if bytes > binding {
            return Err(Error::BufferTooLarge {
                bytes,
                limit: binding,
                which: "max_storage_buffer_binding_size",
            });
        }
        if bytes > limits.max_buffer_size {
            return Err(Error::BufferTooLarge {
                bytes,
                limit: limits.max_buffer_size,
                which: "max_buffer_size",
            });
        }
        Ok(())
    }

    pub(crate) fn create_storage_buffer(
        &self,
        size: u64,
        contents: Option<&[u8]>,
    ) -> Result<wgpu::Buffer> {
        let device = &self.inner().device;
        let usage = wgpu::BufferUsages::STORAGE
            | wgpu::BufferUsages::COPY_SRC
            | wgpu::BufferUsages::COPY_DST;
        let scope = device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let buffer = match contents {
            Some(bytes) if bytes.len() as u64 == size => {
                device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: Some("sarek buffer"),
                    contents: bytes,
                    usage,
                })
            }
            Some(bytes) => {
                let mut padded = bytes.to_vec();
                padded.resize(size as usize, 0);
                device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: Some("sarek buffer"),
                    contents: &padded,
                    usage,
                })
            }
            None => device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("sarek buffer"),
                size,
                usage,
                mapped_at_creation: false,
            }),
        };
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(Error::OutOfMemory(e.to_string()));
        }
        Ok(buffer)
    }

    /// Waits until every submitted launch has finished.
    ///
    /// ```
    /// # use sarek_rt::fixture::add_one;
    /// # fn main() -> sarek_rt::Result<()> {
    /// // `add_one`: `#[sarek::kernel] fn add_one(x: &mut [u32])` adds 1 to each element.
    /// let dev = sarek_rt::Device::new()?;
    /// let mut x = dev.upload(&[0u32; 4])?;
    /// for _ in 0..3 {
    ///     add_one.launch(&dev, sarek_rt::Grid::cover(4), &mut x)?;
    /// }
    /// dev.synchronize()?; // all three launches have run
    /// assert_eq!(x.read()?, [3; 4]);
    /// # Ok(()) }
    /// ```
    pub fn synchronize(&self) -> Result<()> {
        self.check_lost()?;
        if self.is_cpu() {
            // CPU launches finish before `launch` returns.
            return Ok(());
        }
        self.flush();
        self.inner()
            .device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| self.check_lost().err().unwrap_or(Error::Poll(e)))?;
        self.check_lost()
    }

    /// Submits the launches this device holds in its open command encoder. A launch issued
    /// while the GPU is busy with earlier work may wait there, with the launches after it, to
    /// reach the GPU as one submission (each submission costs the GPU a gap); it is submitted
    /// anyway within about a quarter of a millisecond, and at once by anything that reads,
    /// writes, copies, waits or hands out the wgpu queue or device, so Sarek's own calls never
    /// need this. Call it before submitting work of your own through a clone of the wgpu
    /// queue taken earlier. Does nothing on the CPU backend, nor for a device from
    /// [`Device::from_wgpu`], which submits every launch at once.
    ///
    /// ```
    /// # use sarek_rt::fixture::add_one;
    /// # fn main() -> sarek_rt::Result<()> {
    /// // `add_one`: `#[sarek::kernel] fn add_one(x: &mut [u32])` adds 1 to each element.
    /// let dev = sarek_rt::Device::new()?;
    /// let mut x = dev.upload(&[0u32; 4])?;
    /// for _ in 0..3 {
    ///     add_one.launch(&dev, sarek_rt::Grid::cover(4), &mut x)?;
    /// }
    /// dev.flush(); // the three launches are on their way to the GPU
    /// assert_eq!(x.read()?, [3; 4]);
    /// # Ok(()) }
    /// ```
    pub fn flush(&self) {
        if let Backend::Gpu(inner) = &self.backend {
            inner.submitter.flush();
        }
    }
}
