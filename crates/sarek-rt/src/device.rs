//! Devices: the choice of a backend, limits, buffer creation, synchronisation and device
//! loss. A `Device` holds its backend behind the seam of `crate::backend`; the methods that
//! hand out wgpu's own types (`from_wgpu`, `backend`, `limits`, `wgpu_device`, `wgpu_queue`)
//! are public interop and stay here, reaching the wgpu backend through `Device::inner`.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use crate::backend::cpu::CpuBackend;
use crate::backend::wgpu::adapter::GpuOptions;
use crate::backend::Backends;
use crate::buffer::{Buffer, Element};
use crate::config::{Config, DeviceChoice};
use crate::error::{Error, Result};

static NEXT_DEVICE: AtomicU64 = AtomicU64::new(1);

/// A new device's identity.
pub(crate) fn next_id() -> u64 {
    NEXT_DEVICE.fetch_add(1, Ordering::Relaxed)
}

/// The limits a device reports and launches are checked against: wgpu's type, because
/// [`Device::limits`] hands it out (public interop); every backend states its limits in it.
pub(crate) type Limits = wgpu::Limits;

/// The features a device reports and launches are checked against: wgpu's type, because
/// [`Device::features`] hands it out (public interop); every backend states its features in it.
pub(crate) type Features = wgpu::Features;

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
    pub(crate) backend: Backends,
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
        // software adapter loses to the CPU backend (see `backend/wgpu/adapter.rs`).
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
            backend: Backends::Cpu(Arc::new(CpuBackend::new(next_id(), config))),
        }
    }

    /// Whether this is the CPU backend ([`Device::cpu`]).
    ///
    /// ```
    /// assert!(sarek_rt::Device::cpu().is_cpu());
    /// ```
    pub fn is_cpu(&self) -> bool {
        self.as_cpu().is_some()
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
        match self.as_cpu() {
            Some(cpu) => {
                cpu.checks.store(on, Ordering::Relaxed);
                on
            }
            None => false,
        }
    }

    /// Whether the CPU backend's debugging checks are on ([`Device::set_checks`]); always
    /// `false` on a GPU.
    ///
    /// ```
    /// let dev = sarek_rt::Device::cpu_with(sarek_rt::Config::default().checks(true));
    /// assert!(dev.checks());
    /// dev.set_checks(false);
    /// assert!(!dev.checks());
    /// ```
    pub fn checks(&self) -> bool {
        self.as_cpu()
            .is_some_and(|cpu| cpu.checks.load(Ordering::Relaxed))
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

    /// The settings the device was made with (a setter on a live device changes its own
    /// state, not this).
    pub(crate) fn config(&self) -> &Config {
        self.backend_impl().config()
    }

    pub(crate) fn id(&self) -> u64 {
        self.backend_impl().id()
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
        self.backend_impl().name()
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
        let inner = self.as_wgpu()?;
        inner.info.as_ref().map(|i| i.backend)
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
        self.backend_impl().limits()
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
        self.as_wgpu().map_or(0, |inner| inner.staging.idle())
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
        self.backend_impl().can_profile()
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
        self.backend_impl().set_profiling(on);
        on
    }

    /// Whether launches and batches are timed now.
    pub(crate) fn profiling(&self) -> bool {
        self.backend_impl().profiling()
    }

    /// Forgets cached bind groups holding buffer `id` (called when the buffer is dropped).
    pub(crate) fn forget_buffer(&self, id: u64) {
        self.backend_impl().forget_buffer(id);
    }

    pub(crate) fn check_lost(&self) -> Result<()> {
        self.backend_impl().check_lost()
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
        self.traced("synchronize", "sync", crate::trace::Args::new, || {
            self.check_lost()?;
            self.backend_impl().synchronize()?;
            // What the kernels printed, and a failed assertion (`crate::debug`).
            self.drain_debug()
        })
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
        self.backend_impl().flush();
    }
}
