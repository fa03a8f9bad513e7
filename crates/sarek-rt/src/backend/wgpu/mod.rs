//! The wgpu backend: kernels run as compute pipelines on a GPU through wgpu. The only room
//! of the runtime that names wgpu (besides the public interop accessors, `Device::wgpu_device`
//! and the like, which hand out wgpu's own types).
//!
//! By job: choosing and opening adapters (`adapter`), pipelines (`pipeline`; made ahead by
//! `prepare`, in two tiers by `tiered`, without index clamps by `unclamped`, kept across
//! processes by `disk_cache`, `module_cache`, `cache_file` and `cache_prune`), bind groups and
//! uniform blocks (`bind`), encoding a compute pass (`encode`), the open command encoder
//! (`submit`), launching (`launch`), batches (`batch`), timestamps (`timer`), loops cut short
//! on software adapters (`loop_cap`), reads and writes through staging buffers (`transfer`),
//! waiting without blocking (`poller`) and the handle of a launch in flight (`pending`).

pub(crate) mod adapter;
mod batch;
mod bind;
mod cache_file;
mod cache_prune;
pub(crate) mod debug;
mod disk_cache;
mod encode;
mod launch;
pub(crate) mod loop_cap;
mod module_cache;
mod pending;
mod pipeline;
mod poller;
mod prepare;
mod submit;
mod tiered;
mod timer;
mod transfer;
pub(crate) mod unclamped;
mod zero_workgroup;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use wgpu::util::DeviceExt;

use super::{Backend, Backends, BatchWork, Storage, Wait};
use crate::arg::{Arg, KernelSource};
use crate::buffer::RawBuffer;
use crate::config::Config;
use crate::device::Device;
use crate::error::{Error, Result};
use crate::launch::{Launch, Valid};
use crate::trace::Trace;
pub(crate) use bind::{bind_entries, UniformRing};
pub(crate) use encode::{pass, Dispatch};
pub(crate) use launch::Checked;
pub(crate) use pipeline::{Making, Pipeline};
use poller::Poller;
use sarek_ir::abi::{CoopScalar, CoopShape};
pub(crate) use submit::Submitter;
pub(crate) use tiered::Tiers;
use transfer::StagingPool;

/// A buffer of the wgpu backend.
pub(crate) type GpuBuffer = wgpu::Buffer;

/// The state of a GPU device.
pub(crate) struct WgpuBackend {
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
    pub(crate) pipelines: Mutex<HashMap<pipeline::Key, Arc<Pipeline>>>,
    /// One lock per (kernel, entry point) whose pipeline was asked for, held while it is
    /// made, so that it is made once while other keys are made at the same time
    /// (`pipeline.rs`).
    pub(crate) making: Mutex<Making>,
    /// Pipelines created at a cache miss ([`Device::pipelines_made`]).
    pub(crate) pipelines_made: std::sync::atomic::AtomicUsize,
    /// Those of them created without index clamps ([`Device::pipelines_unclamped`]).
    pub(crate) pipelines_unclamped: std::sync::atomic::AtomicUsize,
    pub(crate) poller: Poller,
    pub(crate) staging: StagingPool,
    pub(crate) profiling: AtomicBool,
    pub(crate) uniforms: Mutex<UniformRing>,
    /// Compiled pipelines kept across processes (`disk_cache.rs`).
    pub(crate) disk_cache: Mutex<Option<Arc<disk_cache::DiskCache>>>,
    /// The open command encoder of launches not submitted yet (`submit.rs`).
    pub(crate) submitter: Submitter,
    /// Whether first launches use a kernel's quick form while its optimized pipeline
    /// compiles (`tiered.rs`).
    pub(crate) tiered: AtomicBool,
    /// The kernels doing so now.
    pub(crate) tiers: Mutex<Tiers>,
    /// Whether entry points proven in bounds get modules without index clamps
    /// (`unclamped.rs`).
    pub(crate) unclamped: bool,
    /// Where kernels' prints go (`crate::debug`).
    pub(crate) debug: crate::debug::DebugState,
    /// The debug channels of the kernels that print or assert (`debug.rs`).
    pub(crate) debug_channels: debug::Channels,
    /// The settings the device was made with.
    pub(crate) config: Config,
    /// The device's trace ([`crate::Config::trace`]), with a GPU track where the device has
    /// timestamp queries.
    pub(crate) trace: Option<Arc<Trace>>,
}

impl Drop for WgpuBackend {
    fn drop(&mut self) {
        // Launches still in the open encoder run, as they would have without it.
        self.submitter.shutdown();
        self.poller.shutdown();
        // Optimized pipelines still compiling (`tiered.rs`) are waited for, so that
        // they reach the pipeline cache for the next process; their threads hold nothing of
        // this device's but their own wgpu handles, so this cannot deadlock.
        let tiers = std::mem::take(&mut *crate::sync::lock(&self.tiers));
        for (_, tier) in tiers {
            tier.finish();
        }
    }
}

impl Device {
    /// The GPU state. Only reached on paths that handled the CPU backend before.
    #[inline]
    pub(crate) fn inner(&self) -> &WgpuBackend {
        match self.as_wgpu() {
            Some(inner) => inner,
            None => unreachable!("a wgpu-only path was reached on the CPU backend"),
        }
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
            disk_cache::DiskCache::open(&device, info, dir, config.cache_max_mb).map(Arc::new)
        });
        // A device from `from_wgpu` (no adapter info) submits every launch at once: its
        // caller submits to their own clone of the queue (see `submit.rs`).
        let submitter = Submitter::new(
            device.clone(),
            queue.clone(),
            info.is_some() && config.defer,
        );
        let features = device.features();
        // Only a device Sarek requested itself: wgpu's `request_device` enables robust buffer
        // access wherever offered, which a device the caller made from raw Vulkan may lack.
        let unclamped = info.is_some() && config.unclamped && unclamped::allowed(&device);
        let id = crate::device::next_id();
        let trace = Trace::open(
            config.trace.as_deref(),
            id,
            info.as_ref().map_or("unknown adapter", |i| &i.name),
            features.contains(wgpu::Features::TIMESTAMP_QUERY),
        );
        Device {
            backend: Backends::Wgpu(Arc::new(WgpuBackend {
                id,
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
                tiers: Mutex::new(Tiers::new()),
                unclamped,
                debug: crate::debug::DebugState::new(config.debug_kib),
                debug_channels: debug::Channels::default(),
                config,
                trace,
            })),
        }
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
}
/// The element type of a wgpu cooperative-matrix configuration, where Sarek has it.
fn coop_scalar(s: wgpu::CooperativeScalarType) -> Option<CoopScalar> {
    match s {
        wgpu::CooperativeScalarType::F16 => Some(CoopScalar::F16),
        wgpu::CooperativeScalarType::F32 => Some(CoopScalar::F32),
        _ => None,
    }
}

/// The configurations in `offered` that Sarek can express: square ones with float elements.
pub(crate) fn coop_shapes(offered: &[wgpu::CooperativeMatrixProperties]) -> Vec<CoopShape> {
    let mut shapes: Vec<CoopShape> = offered
        .iter()
        .filter(|p| p.m_size == p.n_size && p.n_size == p.k_size)
        .filter_map(|p| {
            Some(CoopShape {
                size: p.m_size,
                ab: Some(coop_scalar(p.ab_type)?),
                c: Some(coop_scalar(p.cr_type)?),
            })
        })
        .collect();
    shapes.sort();
    shapes.dedup();
    shapes
}

/// Every wgpu feature Sarek can use: the kernels' features, and timestamps for profiling.
/// [`Device::new`] and [`Device::gpu`] request those of them the adapter offers.
pub(crate) fn usable() -> wgpu::Features {
    wgpu::Features::TIMESTAMP_QUERY
        | wgpu::Features::EXPERIMENTAL_COOPERATIVE_MATRIX
        | wgpu::Features::SUBGROUP
        | wgpu::Features::SUBGROUP_BARRIER
        | wgpu::Features::SHADER_FLOAT32_ATOMIC
        | wgpu::Features::SHADER_F16
        | wgpu::Features::SHADER_INT64
        | wgpu::Features::SHADER_INT64_ATOMIC_MIN_MAX
        | wgpu::Features::SHADER_INT64_ATOMIC_ALL_OPS
}

impl RawBuffer {
    /// A view for binding only (a batch re-creates the views it recorded).
    pub(crate) fn view(
        buffer: wgpu::Buffer,
        offset: u64,
        len: usize,
        elem_size: u64,
        id: u64,
    ) -> RawBuffer {
        RawBuffer {
            storage: Storage::Wgpu(buffer),
            offset,
            len,
            elem_size,
            device_id: 0,
            id,
        }
    }

    /// The wgpu buffer. Only reached on paths that handled the CPU backend before.
    pub(crate) fn gpu(&self) -> &wgpu::Buffer {
        match &self.storage {
            Storage::Wgpu(buffer) => buffer,
            Storage::Cpu(_) => unreachable!("a wgpu-only path was reached with a CPU buffer"),
        }
    }

    /// The binding of the kernel's view: `len` elements from `offset` (at least one element,
    /// since wgpu cannot bind an empty range).
    pub(crate) fn binding(&self) -> wgpu::BindingResource<'_> {
        // A storage binding's size is a multiple of 4 (an odd number of `f16`s is not); the
        // kernel reads its length from the uniform block, not from the binding.
        let bytes = (self.len as u64 * self.elem_size)
            .max(self.elem_size.max(4))
            .next_multiple_of(4);
        let buffer = self.gpu();
        let size = bytes.min(buffer.size() - self.offset);
        wgpu::BindingResource::Buffer(wgpu::BufferBinding {
            buffer,
            offset: self.offset,
            size: std::num::NonZeroU64::new(size),
        })
    }
}

impl WgpuBackend {
    /// An error unless `buffer` has `usage`, for `what` (reading or writing its whole view).
    fn check_usage(buffer: &RawBuffer, usage: wgpu::BufferUsages, what: &str) -> Result<()> {
        if buffer.gpu().usage().contains(usage) {
            Ok(())
        } else {
            Err(Error::BadBuffer(format!(
                "{what} needs `wgpu::BufferUsages::{usage:?}` on the buffer"
            )))
        }
    }
}

impl Backend for WgpuBackend {
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
        self.info
            .as_ref()
            .map_or_else(|| "unknown adapter".to_owned(), |i| i.name.clone())
    }

    fn limits(&self) -> &wgpu::Limits {
        &self.limits
    }

    fn features(&self) -> wgpu::Features {
        self.features
    }

    fn coop_offer(&self) -> Option<Vec<CoopShape>> {
        self.coop.as_deref().map(coop_shapes)
    }

    fn coarsens(&self) -> bool {
        true
    }

    fn check_lost(&self) -> Result<()> {
        if self.lost_flag.load(Ordering::SeqCst) {
            let why = crate::sync::lock(&self.lost).clone().unwrap_or_default();
            return Err(Error::DeviceLost(why));
        }
        Ok(())
    }

    fn create_buffer(
        &self,
        device: &Device,
        bytes: u64,
        at_least: u64,
        contents: Option<&[u8]>,
    ) -> Result<Storage> {
        // wgpu cannot bind an empty buffer; an empty `Buffer` keeps room for one element.
        let alloc = bytes
            .max(at_least)
            .max(16)
            .next_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT);
        Ok(Storage::Wgpu(
            device.create_storage_buffer(alloc, contents)?,
        ))
    }

    fn duplicate(&self, device: &Device, src: &RawBuffer, bytes: u64) -> Result<Option<Storage>> {
        // One GPU: copy on the device, ordered after earlier launches.
        // Whole words are copied; a view whose last word lies past its wgpu buffer's end goes
        // through the host instead.
        let words = bytes.next_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT);
        if src.offset + words > src.gpu().size() {
            return Ok(None);
        }
        device.flush();
        let alloc = bytes.max(16).next_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT);
        let target = device.create_storage_buffer(alloc, None)?;
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("sarek copy"),
            });
        if bytes > 0 {
            encoder.copy_buffer_to_buffer(src.gpu(), src.offset, &target, 0, words);
        }
        self.queue.submit([encoder.finish()]);
        Ok(Some(Storage::Wgpu(target)))
    }

    fn read(
        &self,
        device: &Device,
        buffer: &RawBuffer,
        range: Option<(u64, u64)>,
    ) -> Result<Vec<u8>> {
        let (start, len) = match range {
            None => {
                Self::check_usage(buffer, wgpu::BufferUsages::COPY_SRC, "reading")?;
                (0, buffer.len as u64 * buffer.elem_size)
            }
            Some(range) => {
                if !buffer.gpu().usage().contains(wgpu::BufferUsages::COPY_SRC) {
                    return Err(Error::BadBuffer(
                        "reading needs `wgpu::BufferUsages::COPY_SRC` on the buffer".into(),
                    ));
                }
                range
            }
        };
        device
            .start_read(buffer.gpu(), buffer.offset + start, len)?
            .wait()
    }

    fn read_async(
        &self,
        device: &Device,
        buffer: &RawBuffer,
    ) -> Result<Wait<'static, Result<Vec<u8>>>> {
        Self::check_usage(buffer, wgpu::BufferUsages::COPY_SRC, "reading")?;
        let bytes = buffer.len as u64 * buffer.elem_size;
        let pending = device.start_read(buffer.gpu(), buffer.offset, bytes)?;
        Ok(Box::pin(pending.wait_async()))
    }

    fn write(
        &self,
        device: &Device,
        buffer: &RawBuffer,
        at: Option<u64>,
        bytes: &[u8],
    ) -> Result<()> {
        let at = match at {
            None => {
                Self::check_usage(buffer, wgpu::BufferUsages::COPY_DST, "writing")?;
                0
            }
            Some(at) => {
                if !buffer.gpu().usage().contains(wgpu::BufferUsages::COPY_DST) {
                    return Err(Error::BadBuffer(
                        "writing needs `wgpu::BufferUsages::COPY_DST` on the buffer".into(),
                    ));
                }
                at
            }
        };
        device.write_bytes(buffer.gpu(), buffer.offset + at, bytes)
    }

    fn copy(
        &self,
        _device: &Device,
        (src, src_at): (&RawBuffer, u64),
        (dst, dst_at): (&RawBuffer, u64),
        bytes: u64,
    ) -> Result<()> {
        for (buffer, usage, name, which) in [
            (src.gpu(), wgpu::BufferUsages::COPY_SRC, "COPY_SRC", "from"),
            (dst.gpu(), wgpu::BufferUsages::COPY_DST, "COPY_DST", "into"),
        ] {
            if !buffer.usage().contains(usage) {
                return Err(Error::BadBuffer(format!(
                    "copying {which} it needs `wgpu::BufferUsages::{name}` on the buffer"
                )));
            }
        }
        // In the open encoder, after the launches issued before and before those after.
        let mut open = self.submitter.lock();
        open.encoder().copy_buffer_to_buffer(
            src.gpu(),
            src.offset + src_at,
            dst.gpu(),
            dst.offset + dst_at,
            bytes,
        );
        // Submitted as a launch would be: with the launches around it, or at once.
        let _ticket = open.launched();
        Ok(())
    }

    fn forget_buffer(&self, id: u64) {
        let pipelines = crate::sync::lock(&self.pipelines);
        for p in pipelines.values() {
            p.forget(id);
        }
        for t in crate::sync::lock(&self.tiers).values() {
            t.forget(id);
        }
    }

    fn prepare(&self, device: &Device, kernels: &[&'static KernelSource]) -> Result<()> {
        device.prepare_gpu(kernels)
    }

    fn launch(
        &self,
        device: &Device,
        source: &'static KernelSource,
        valid: Valid<'_>,
        args: &[Arg<'_>],
    ) -> Result<Launch> {
        device.launch_gpu(source, valid, args)
    }

    fn batch(&self) -> Box<dyn BatchWork> {
        Box::new(batch::GpuBatch::default())
    }

    fn flush(&self) {
        self.submitter.flush();
    }

    fn synchronize(&self) -> Result<()> {
        self.flush();
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| self.check_lost().err().unwrap_or(Error::Poll(e)))?;
        self.check_lost()
    }

    fn can_profile(&self) -> bool {
        self.device
            .features()
            .contains(wgpu::Features::TIMESTAMP_QUERY)
    }

    fn set_profiling(&self, on: bool) {
        self.profiling.store(on, Ordering::Relaxed);
    }

    fn profiling(&self) -> bool {
        self.profiling.load(Ordering::Relaxed)
    }
}
