//! Devices: adapter choice, buffers, the pipeline cache and launches.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use sarek_codegen::abi::{Abi, Access, FieldSource, Scalar};
use wgpu::util::DeviceExt;

use crate::arg::{Arg, KernelSource};
use crate::buffer::{Buffer, Element, RawBuffer};
use crate::error::{Error, Result};
use crate::grid::Grid;

static NEXT_DEVICE: AtomicU64 = AtomicU64::new(1);

/// A GPU that runs kernels. Cheap to clone (clones share the device), `Send` and `Sync`.
///
/// ```no_run
/// # fn main() -> sarek_rt::Result<()> {
/// let dev = sarek_rt::Device::new()?;
/// println!("running on {}", dev.name());
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct Device {
    inner: Arc<Inner>,
}

struct Inner {
    id: u64,
    device: wgpu::Device,
    queue: wgpu::Queue,
    info: Option<wgpu::AdapterInfo>,
    limits: wgpu::Limits,
    lost: Arc<Mutex<Option<String>>>,
    lost_flag: Arc<AtomicBool>,
    pipelines: Mutex<HashMap<usize, Arc<Pipeline>>>,
}

struct Pipeline {
    pipeline: wgpu::ComputePipeline,
    layout: wgpu::BindGroupLayout,
}

impl std::fmt::Debug for Device {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Device")
            .field("name", &self.name())
            .field("backend", &self.backend())
            .finish()
    }
}

fn adapter_rank(info: &wgpu::AdapterInfo) -> u8 {
    match info.device_type {
        wgpu::DeviceType::DiscreteGpu => 0,
        wgpu::DeviceType::IntegratedGpu => 1,
        wgpu::DeviceType::VirtualGpu => 2,
        wgpu::DeviceType::Other => 3,
        wgpu::DeviceType::Cpu => 4,
    }
}

impl Device {
    /// The best device available: see [`Device::gpu`].
    ///
    /// A CPU backend for machines without any GPU driver is planned; until it lands this is
    /// the same as [`Device::gpu`].
    pub fn new() -> Result<Device> {
        Device::gpu()
    }

    /// The best wgpu adapter: a discrete GPU first, then integrated, virtual, and software
    /// ones (such as Mesa's lavapipe). `SAREK_ADAPTER=<substring>` picks the first adapter
    /// whose name contains the substring (case-insensitive); `WGPU_BACKEND` restricts the
    /// backends as in wgpu. The choice is logged at `info` level.
    pub fn gpu() -> Result<Device> {
        let instance =
            wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
        let mut adapters = pollster::block_on(instance.enumerate_adapters(wgpu::Backends::all()));
        if let Ok(wanted) = std::env::var("SAREK_ADAPTER") {
            let wanted = wanted.to_lowercase();
            adapters.retain(|a| a.get_info().name.to_lowercase().contains(&wanted));
            if adapters.is_empty() {
                return Err(Error::NoAdapter(format!(
                    " whose name contains {wanted:?} (SAREK_ADAPTER)"
                )));
            }
        }
        adapters.sort_by_key(|a| adapter_rank(&a.get_info()));
        let adapter = adapters
            .into_iter()
            .next()
            .ok_or_else(|| Error::NoAdapter(String::new()))?;
        let info = adapter.get_info();
        log::info!(
            "sarek: using adapter {:?} ({:?}, {:?})",
            info.name,
            info.device_type,
            info.backend
        );
        let limits = adapter.limits();
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("sarek"),
            required_features: wgpu::Features::empty(),
            required_limits: limits.clone(),
            ..Default::default()
        }))
        .map_err(|e| Error::RequestDevice(e.to_string()))?;
        // Sarek reports errors through `Result`; without a handler wgpu would panic.
        device.on_uncaptured_error(Arc::new(|e: wgpu::Error| {
            log::error!("sarek: uncaptured wgpu error: {e}")
        }));
        Ok(Device::wrap(device, queue, Some(info)))
    }

    /// Runs kernels on a device the caller already owns (sharing it with their own passes).
    /// Sarek uses the device's own limits and does not touch its error handler.
    pub fn from_wgpu(device: wgpu::Device, queue: wgpu::Queue) -> Device {
        Device::wrap(device, queue, None)
    }

    fn wrap(device: wgpu::Device, queue: wgpu::Queue, info: Option<wgpu::AdapterInfo>) -> Device {
        let lost = Arc::new(Mutex::new(None));
        let lost_flag = Arc::new(AtomicBool::new(false));
        {
            let (lost, flag) = (lost.clone(), lost_flag.clone());
            device.set_device_lost_callback(move |reason, message| {
                log::warn!("sarek: device lost: {reason:?} {message}");
                *lost.lock().unwrap_or_else(|e| e.into_inner()) =
                    Some(format!("{reason:?}: {message}"));
                flag.store(true, Ordering::SeqCst);
            });
        }
        let limits = device.limits();
        Device {
            inner: Arc::new(Inner {
                id: NEXT_DEVICE.fetch_add(1, Ordering::Relaxed),
                device,
                queue,
                info,
                limits,
                lost,
                lost_flag,
                pipelines: Mutex::new(HashMap::new()),
            }),
        }
    }

    pub(crate) fn id(&self) -> u64 {
        self.inner.id
    }

    /// The adapter's name (`"unknown adapter"` for a device from [`Device::from_wgpu`]).
    pub fn name(&self) -> String {
        self.inner
            .info
            .as_ref()
            .map_or_else(|| "unknown adapter".to_owned(), |i| i.name.clone())
    }

    /// The wgpu backend (Vulkan, Metal, ...), when Sarek chose the adapter.
    pub fn backend(&self) -> Option<wgpu::Backend> {
        self.inner.info.as_ref().map(|i| i.backend)
    }

    /// The device's limits.
    pub fn limits(&self) -> &wgpu::Limits {
        &self.inner.limits
    }

    /// The wgpu device, for the caller's own work.
    pub fn wgpu_device(&self) -> &wgpu::Device {
        &self.inner.device
    }

    /// The wgpu queue Sarek submits to.
    pub fn wgpu_queue(&self) -> &wgpu::Queue {
        &self.inner.queue
    }

    /// Copies `data` into a new buffer.
    pub fn upload<T: Element>(&self, data: &[T]) -> Result<Buffer<T>> {
        self.check_lost()?;
        Buffer::new(self, Some(data), data.len())
    }

    /// A new buffer of `len` zeros.
    pub fn zeros<T: Element>(&self, len: usize) -> Result<Buffer<T>> {
        self.check_lost()?;
        Buffer::new(self, None, len)
    }

    fn check_lost(&self) -> Result<()> {
        if self.inner.lost_flag.load(Ordering::SeqCst) {
            let why = self
                .inner
                .lost
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .clone()
                .unwrap_or_default();
            return Err(Error::DeviceLost(why));
        }
        Ok(())
    }

    pub(crate) fn check_buffer_size(&self, bytes: u64) -> Result<()> {
        let limits = &self.inner.limits;
        let binding = u64::from(limits.max_storage_buffer_binding_size);
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
        let device = &self.inner.device;
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

    pub(crate) fn write_buffer(&self, buffer: &wgpu::Buffer, bytes: &[u8]) -> Result<()> {
        self.check_lost()?;
        if bytes.is_empty() {
            return Ok(());
        }
        if bytes.len() as u64 % wgpu::COPY_BUFFER_ALIGNMENT == 0 {
            self.inner.queue.write_buffer(buffer, 0, bytes);
        } else {
            let mut padded = bytes.to_vec();
            padded.resize(
                (bytes.len() as u64).next_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT) as usize,
                0,
            );
            self.inner.queue.write_buffer(buffer, 0, &padded);
        }
        self.inner.queue.submit([]);
        Ok(())
    }

    pub(crate) fn read_buffer(&self, buffer: &wgpu::Buffer, bytes: u64) -> Result<Vec<u8>> {
        self.check_lost()?;
        let device = &self.inner.device;
        let size = bytes.next_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT);
        let staging = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("sarek readback"),
            size,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("sarek readback"),
        });
        encoder.copy_buffer_to_buffer(buffer, 0, &staging, 0, size);
        self.inner.queue.submit([encoder.finish()]);
        let (tx, rx) = std::sync::mpsc::channel();
        staging.slice(..).map_async(wgpu::MapMode::Read, move |r| {
            let _ = tx.send(r);
        });
        device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| {
                self.check_lost()
                    .err()
                    .unwrap_or(Error::Poll(e.to_string()))
            })?;
        match rx.recv() {
            Ok(Ok(())) => {}
            Ok(Err(e)) => return Err(self.check_lost().err().unwrap_or(Error::Map(e.to_string()))),
            Err(_) => {
                return Err(self
                    .check_lost()
                    .err()
                    .unwrap_or(Error::Map("the map callback never ran".into())))
            }
        }
        let data = {
            let view = staging
                .slice(..)
                .get_mapped_range()
                .map_err(|e| Error::Map(e.to_string()))?;
            view[..bytes as usize].to_vec()
        };
        staging.unmap();
        Ok(data)
    }

    /// Waits until every submitted launch has finished.
    pub fn synchronize(&self) -> Result<()> {
        self.check_lost()?;
        self.inner
            .device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| Error::Poll(e.to_string()))?;
        self.check_lost()
    }

    fn pipeline(&self, source: &'static KernelSource) -> Result<Arc<Pipeline>> {
        let key = std::ptr::from_ref(source) as usize;
        let mut cache = self
            .inner
            .pipelines
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if let Some(p) = cache.get(&key) {
            return Ok(p.clone());
        }
        let started = std::time::Instant::now();
        let device = &self.inner.device;
        let abi = &source.abi;
        let mut entries: Vec<wgpu::BindGroupLayoutEntry> = abi
            .buffers
            .iter()
            .map(|b| wgpu::BindGroupLayoutEntry {
                binding: b.binding,
                visibility: wgpu::ShaderStages::COMPUTE,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Storage {
                        read_only: b.access == Access::Read,
                    },
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            })
            .collect();
        entries.push(wgpu::BindGroupLayoutEntry {
            binding: abi.uniform.binding,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Uniform,
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        });
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some(&abi.kernel),
            entries: &entries,
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some(&abi.kernel),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(&abi.kernel),
            source: wgpu::ShaderSource::Wgsl(source.wgsl.into()),
        });
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(&abi.kernel),
            layout: Some(&pipeline_layout),
            module: &module,
            entry_point: Some(&abi.entry_point),
            compilation_options: Default::default(),
            cache: None,
        });
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(Error::Pipeline {
                kernel: abi.kernel.to_string(),
                message: e.to_string(),
            });
        }
        log::info!(
            "sarek: created the pipeline of `{}` in {:?}",
            abi.kernel,
            started.elapsed()
        );
        let p = Arc::new(Pipeline { pipeline, layout });
        cache.insert(key, p.clone());
        Ok(p)
    }

    /// Launches a kernel with type-erased arguments; the typed `launch` method that
    /// `#[sarek::kernel]` generates calls this. Arguments are checked against the ABI.
    pub fn launch(
        &self,
        source: &'static KernelSource,
        grid: Grid,
        args: &[Arg<'_>],
    ) -> Result<()> {
        self.check_lost()?;
        let abi = &source.abi;
        let groups = grid.workgroups_u64(abi.workgroup_size);
        if groups.contains(&0) {
            return Ok(());
        }
        let limit = self.inner.limits.max_compute_workgroup_storage_size;
        if abi.workgroup_memory > limit {
            return Err(Error::WorkgroupMemory {
                kernel: abi.kernel.to_string(),
                needed: abi.workgroup_memory,
                limit,
            });
        }
        let dispatch = self.dispatch_size(abi, groups)?;
        let buffers = self.check_args(abi, args)?;
        let uniform = pack_uniform(abi, groups, args)?;
        let pipeline = self.pipeline(source)?;
        let device = &self.inner.device;
        let uniform_buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("sarek params"),
            contents: &uniform,
            usage: wgpu::BufferUsages::UNIFORM,
        });
        let mut entries: Vec<wgpu::BindGroupEntry> = abi
            .buffers
            .iter()
            .zip(&buffers)
            .map(|(b, raw)| wgpu::BindGroupEntry {
                binding: b.binding,
                resource: raw.buffer.as_entire_binding(),
            })
            .collect();
        entries.push(wgpu::BindGroupEntry {
            binding: abi.uniform.binding,
            resource: uniform_buffer.as_entire_binding(),
        });
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(&abi.kernel),
            layout: &pipeline.layout,
            entries: &entries,
        });
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some(&abi.kernel),
        });
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some(&abi.kernel),
                timestamp_writes: None,
            });
            pass.set_pipeline(&pipeline.pipeline);
            pass.set_bind_group(0, &bind_group, &[]);
            pass.dispatch_workgroups(dispatch[0], dispatch[1], dispatch[2]);
        }
        self.inner.queue.submit([encoder.finish()]);
        Ok(())
    }

    /// The physical dispatch for a logical grid: a 1-D grid over the per-dimension limit is
    /// folded into x·y workgroups (the kernel's preamble unfolds it).
    fn dispatch_size(&self, abi: &Abi, groups: [u64; 3]) -> Result<[u32; 3]> {
        let limit = u64::from(self.inner.limits.max_compute_workgroups_per_dimension);
        let threads_x = groups[0] * u64::from(abi.workgroup_size[0]);
        if threads_x > u64::from(u32::MAX) + 1 || groups.iter().any(|&g| g > u64::from(u32::MAX)) {
            return Err(Error::GridTooLarge {
                groups,
                limit: limit as u32,
                hint: "; thread indices are 32-bit on the GPU",
            });
        }
        if groups.iter().all(|&g| g <= limit) {
            return Ok(groups.map(|g| g as u32));
        }
        if groups[1] == 1 && groups[2] == 1 {
            let rows = groups[0].div_ceil(limit);
            let cols = groups[0].div_ceil(rows);
            if rows <= limit {
                return Ok([cols as u32, rows as u32, 1]);
            }
        }
        Err(Error::GridTooLarge {
            groups,
            limit: limit as u32,
            hint: "; only a 1-D grid is folded automatically, so loop inside the kernel or split the launch",
        })
    }

    /// Checks the arguments against the ABI; returns the buffers in binding order.
    fn check_args<'a>(&self, abi: &Abi, args: &[Arg<'a>]) -> Result<Vec<&'a RawBuffer>> {
        let bad = |message: String| Error::BadArguments {
            kernel: abi.kernel.to_string(),
            message,
        };
        let expected = abi.buffers.len()
            + abi
                .uniform
                .fields
                .iter()
                .filter(|f| matches!(f.source, FieldSource::Scalar { .. }))
                .count();
        if args.len() != expected {
            return Err(bad(format!(
                "expected {expected} arguments, got {}",
                args.len()
            )));
        }
        let mut buffers = Vec::with_capacity(abi.buffers.len());
        for b in abi.buffers.iter() {
            let Some(Arg::Buffer(raw, access)) = args.get(b.param as usize) else {
                return Err(bad(format!("parameter {} must be a buffer", b.param)));
            };
            if *access != b.access {
                return Err(bad(format!(
                    "parameter {} must be passed as {:?}",
                    b.param, b.access
                )));
            }
            if raw.device_id != self.id() {
                return Err(Error::WrongDevice {
                    kernel: abi.kernel.to_string(),
                    param: b.param as usize,
                });
            }
            buffers.push(*raw);
            for other in abi.buffers.iter().filter(|o| o.param > b.param) {
                if let Some(Arg::Buffer(o, _)) = args.get(other.param as usize) {
                    if o.id == raw.id
                        && (b.access == Access::ReadWrite || other.access == Access::ReadWrite)
                    {
                        return Err(Error::Aliasing {
                            kernel: abi.kernel.to_string(),
                            first: b.param as usize,
                            second: other.param as usize,
                        });
                    }
                }
            }
        }
        Ok(buffers)
    }
}

/// Fills the uniform block as the ABI lays it out.
fn pack_uniform(abi: &Abi, groups: [u64; 3], args: &[Arg<'_>]) -> Result<Vec<u8>> {
    let mut bytes = vec![0u8; abi.uniform.size as usize];
    let mut put = |offset: u32, word: u32| {
        let o = offset as usize;
        bytes[o..o + 4].copy_from_slice(&word.to_ne_bytes());
    };
    let bad = |message: String| Error::BadArguments {
        kernel: abi.kernel.to_string(),
        message,
    };
    for field in abi.uniform.fields.iter() {
        match field.source {
            FieldSource::Grid => {
                for (i, g) in groups.iter().enumerate() {
                    put(field.offset + 4 * i as u32, *g as u32);
                }
            }
            FieldSource::Length { param } => match args.get(param as usize) {
                Some(Arg::Buffer(raw, _)) => {
                    let len = u32::try_from(raw.len())
                        .map_err(|_| bad(format!("buffer {param} has more than 2^32 elements")))?;
                    put(field.offset, len);
                }
                _ => return Err(bad(format!("parameter {param} must be a buffer"))),
            },
            FieldSource::Scalar { param, ty } => {
                let word = match (args.get(param as usize), ty) {
                    (Some(Arg::F32(v)), Scalar::F32) => v.to_bits(),
                    (Some(Arg::I32(v)), Scalar::I32) => *v as u32,
                    (Some(Arg::U32(v)), Scalar::U32) => *v,
                    (Some(Arg::Usize(v)), Scalar::U32) => {
                        u32::try_from(*v).map_err(|_| Error::ScalarOutOfRange {
                            kernel: abi.kernel.to_string(),
                            param: param as usize,
                            value: *v as u64,
                        })?
                    }
                    (Some(Arg::Bool(v)), Scalar::Bool) => u32::from(*v),
                    (other, ty) => {
                        return Err(bad(format!(
                            "parameter {param} must be a `{}`, got {other:?}",
                            ty.rust_name()
                        )))
                    }
                };
                put(field.offset, word);
            }
        }
    }
    Ok(bytes)
}
