//! Launches: the pipeline cache, argument checks, uniform packing, dispatch (with 1-D grid
//! folding), recording into a caller's encoder, and the handle of a submitted launch.

use std::collections::HashMap;
use std::future::{Future, IntoFuture};
use std::pin::Pin;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use sarek_codegen::abi::{Abi, Access, FieldSource, Scalar};
use wgpu::util::DeviceExt;

use crate::arg::{Arg, KernelSource};
use crate::buffer::RawBuffer;
use crate::device::Device;
use crate::error::{Error, Result};
use crate::grid::Grid;
use crate::poller::Completion;

/// A kernel's compute pipeline and bind group layout on one device, with the bind groups of
/// the argument sets it has been launched with (the uniform block is bound at a dynamic offset
/// in the device's ring, so a bind group depends only on the buffers).
pub(crate) struct Pipeline {
    pub(crate) pipeline: wgpu::ComputePipeline,
    pub(crate) layout: wgpu::BindGroupLayout,
    /// Argument sets launched more than once: the second time, their uniform block gets an
    /// immutable buffer and bind group of its own, so later launches write nothing at all.
    repeats: Mutex<HashMap<(Vec<(u64, u64, usize)>, Vec<u8>), Option<wgpu::BindGroup>>>,
}

/// Bind groups kept per pipeline before the cache starts over.
const BIND_GROUP_CACHE: usize = 256;

impl Pipeline {
    /// Drops cached bind groups that hold buffer `id`, so the buffer can be freed.
    pub(crate) fn forget(&self, id: u64) {
        let mut repeats = self.repeats.lock().unwrap_or_else(|e| e.into_inner());
        repeats.retain(|(key, _), _| key.iter().all(|(b, _, _)| *b != id));
    }
}

/// The device's ring of uniform blocks for `launch`: each launch writes its block into the
/// next slot with `Queue::write_buffer` and binds it at a dynamic offset, so a launch allocates
/// nothing. The lock is held from the write to the submit, so a slot is rewritten only after the
/// launch that used it was submitted (queue order then makes the rewrite land after it ran).
pub(crate) struct UniformRing {
    buffer: Option<wgpu::Buffer>,
    next: u64,
}

/// Size of the uniform ring.
const RING_BYTES: u64 = 1 << 20;

impl Default for UniformRing {
    fn default() -> Self {
        UniformRing {
            buffer: None,
            next: 0,
        }
    }
}

/// A launch whose arguments passed the checks.
pub(crate) struct Checked<'a> {
    pub(crate) dispatch: [u32; 3],
    pub(crate) buffers: Vec<&'a RawBuffer>,
    pub(crate) uniform: Vec<u8>,
    pub(crate) pipeline: Arc<Pipeline>,
}

/// A checked launch, ready to encode.
struct Prepared<'a> {
    pipeline: Arc<Pipeline>,
    bind_group: wgpu::BindGroup,
    dispatch: [u32; 3],
    /// For `launch`, the locked uniform ring, held until the launch is submitted; `record`
    /// gives each launch a uniform buffer of its own, since the caller submits whenever they like.
    _ring: Option<std::sync::MutexGuard<'a, UniformRing>>,
}

/// Timestamp queries around one launch's compute pass.
pub(crate) struct Timer {
    queries: wgpu::QuerySet,
    resolved: wgpu::Buffer,
    readback: wgpu::Buffer,
}

impl Timer {
    /// Timestamps at the beginning and the end of one pass.
    pub(crate) fn writes(&self) -> wgpu::ComputePassTimestampWrites<'_> {
        wgpu::ComputePassTimestampWrites {
            query_set: &self.queries,
            beginning_of_pass_write_index: Some(0),
            end_of_pass_write_index: Some(1),
        }
    }

    pub(crate) fn new(device: &wgpu::Device) -> Timer {
        Timer {
            queries: device.create_query_set(&wgpu::QuerySetDescriptor {
                label: Some("sarek timer"),
                ty: wgpu::QueryType::Timestamp,
                count: 2,
            }),
            resolved: device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("sarek timer"),
                size: 16,
                usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
                mapped_at_creation: false,
            }),
            readback: device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("sarek timer readback"),
                size: 16,
                usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            }),
        }
    }

    pub(crate) fn resolve(&self, encoder: &mut wgpu::CommandEncoder) {
        encoder.resolve_query_set(&self.queries, 0..2, &self.resolved, 0);
        encoder.copy_buffer_to_buffer(&self.resolved, 0, &self.readback, 0, 16);
    }
}

/// A submitted launch. Dropping it does not cancel or wait for anything; `.await` it (any
/// executor), [`wait`](Launch::wait) for it, or check [`is_done`](Launch::is_done).
///
/// ```
/// use sarek_rt::{Arg, Grid};
/// # use std::borrow::Cow::Borrowed as B;
/// # use sarek_codegen::abi::*;
/// # static ADD_ONE: sarek_rt::KernelSource = sarek_rt::KernelSource {
/// #     wgsl: "struct P { grid: vec3<u32>, len: u32 }
/// #         @group(0) @binding(0) var<storage, read_write> x: array<u32>;
/// #         @group(0) @binding(1) var<uniform> p: P;
/// #         @compute @workgroup_size(64) fn sarek_main(@builtin(global_invocation_id) i: vec3<u32>) {
/// #             if i.x < p.len { x[i.x] += 1u; }
/// #         }",
/// #     abi: Abi {
/// #         kernel: B("add_one"), entry_point: B(ENTRY_POINT), workgroup_size: [64, 1, 1],
/// #         buffers: B(&[BufferBinding { binding: 0, param: 0, name: B("x"), elem: B("u32"), stride: 4, access: Access::ReadWrite }]),
/// #         uniform: Uniform { binding: 1, size: 16, fields: B(&[
/// #             UniformField { name: B("sarek_grid"), offset: 0, source: FieldSource::Grid },
/// #             UniformField { name: B("sarek_len0"), offset: 12, source: FieldSource::Length { param: 0 } },
/// #         ]) },
/// #         workgroup_memory: 0, coarsened: false,
/// #     },
/// #     location: "",
/// #     ir: r#"{"name":"add_one","params":[{"name":"x","ty":{"Slice":{"elem":{"Scalar":"u32"},"access":"read_write"}},"span":1}],"workgroup_size":[64,1,1],"locals":[{"name":"i","ty":{"Scalar":"u32"},"mutable":false,"span":3}],"exprs":[{"kind":{"Builtin":"GlobalThreadId"},"ty":{"Scalar":"u32"},"span":2},{"kind":{"Local":0},"ty":{"Scalar":"u32"},"span":5},{"kind":{"Len":0},"ty":{"Scalar":"u32"},"span":6},{"kind":{"Binary":{"op":"Lt","left":1,"right":2}},"ty":{"Scalar":"bool"},"span":7},{"kind":{"Literal":{"U32":1}},"ty":{"Scalar":"u32"},"span":8},{"kind":{"Local":0},"ty":{"Scalar":"u32"},"span":9},{"kind":{"Literal":{"Bool":false}},"ty":{"Scalar":"u32"},"span":10}],"shared":[],"body":[{"kind":{"Let":{"local":0,"init":0}},"span":4},{"kind":{"If":{"cond":3,"accept":[{"kind":{"Assign":{"place":{"Index":{"slice":0,"index":5}},"op":"Add","value":4}},"span":11}],"reject":[]}},"span":12}],"span":0,"types":[],"functions":[]}"#, spans: &[],
/// # };
/// # fn main() -> sarek_rt::Result<()> {
/// // `ADD_ONE`: a kernel that adds 1 to each element of a `&mut [u32]`.
/// let dev = sarek_rt::Device::new()?;
/// let mut x = dev.upload(&[1u32, 2, 3])?;
/// // `add_one.launch(&dev, grid, &mut x)` of a `#[sarek::kernel]` returns the same handle.
/// let launch = dev.launch(&ADD_ONE, Grid::cover(3), &[Arg::write(&mut x)])?;
/// launch.wait()?; // or `launch.await?` in async code
/// assert_eq!(x.read()?, [2, 3, 4]);
/// # Ok(()) }
/// ```
pub struct Launch {
    device: Device,
    kernel: &'static str,
    /// What to wait for; `None` when nothing was submitted (an empty grid).
    submission: Option<wgpu::SubmissionIndex>,
    /// Completion flag for `is_done` and `.await`, registered with wgpu on first use so that a
    /// launch nobody checks costs nothing.
    done: std::sync::OnceLock<Arc<Completion>>,
    timer: Option<Timer>,
}

impl std::fmt::Debug for Launch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Launch")
            .field("kernel", &self.kernel)
            .field("done", &self.is_done())
            .finish()
    }
}

impl Launch {
    pub(crate) fn empty(device: &Device, source: &'static KernelSource) -> Launch {
        Launch::finished(device, kernel_name(source))
    }

    /// The handle of work that has already run (nothing was submitted to a GPU).
    pub(crate) fn finished(device: &Device, kernel: &'static str) -> Launch {
        Launch {
            device: device.clone(),
            kernel,
            submission: None,
            done: Default::default(),
            timer: None,
        }
    }

    fn submitted(
        device: &Device,
        source: &'static KernelSource,
        submission: wgpu::SubmissionIndex,
        timer: Option<Timer>,
    ) -> Launch {
        let mut launch = Launch::after_submit(device, kernel_name(source), submission);
        launch.timer = timer;
        launch
    }

    pub(crate) fn set_timer(&mut self, timer: Option<Timer>) {
        self.timer = timer;
    }

    /// The handle of `submission`.
    pub(crate) fn after_submit(
        device: &Device,
        kernel: &'static str,
        submission: wgpu::SubmissionIndex,
    ) -> Launch {
        Launch {
            device: device.clone(),
            kernel,
            submission: Some(submission),
            done: Default::default(),
            timer: None,
        }
    }

    /// The completion flag, set when everything submitted up to now has run (which includes
    /// this launch).
    fn completion(&self) -> Arc<Completion> {
        self.done
            .get_or_init(|| {
                let done = Completion::new();
                if self.submission.is_some() {
                    let flag = done.clone();
                    self.device
                        .inner()
                        .queue
                        .on_submitted_work_done(move || flag.complete());
                } else {
                    done.complete();
                }
                done
            })
            .clone()
    }

    /// Whether the GPU has finished the launch (checks without waiting).
    ///
    /// ```
    /// use sarek_rt::{Arg, Grid};
    /// # use std::borrow::Cow::Borrowed as B;
    /// # use sarek_codegen::abi::*;
    /// # static ADD_ONE: sarek_rt::KernelSource = sarek_rt::KernelSource {
    /// #     wgsl: "struct P { grid: vec3<u32>, len: u32 }
    /// #         @group(0) @binding(0) var<storage, read_write> x: array<u32>;
    /// #         @group(0) @binding(1) var<uniform> p: P;
    /// #         @compute @workgroup_size(64) fn sarek_main(@builtin(global_invocation_id) i: vec3<u32>) {
    /// #             if i.x < p.len { x[i.x] += 1u; }
    /// #         }",
    /// #     abi: Abi {
    /// #         kernel: B("add_one"), entry_point: B(ENTRY_POINT), workgroup_size: [64, 1, 1],
    /// #         buffers: B(&[BufferBinding { binding: 0, param: 0, name: B("x"), elem: B("u32"), stride: 4, access: Access::ReadWrite }]),
    /// #         uniform: Uniform { binding: 1, size: 16, fields: B(&[
    /// #             UniformField { name: B("sarek_grid"), offset: 0, source: FieldSource::Grid },
    /// #             UniformField { name: B("sarek_len0"), offset: 12, source: FieldSource::Length { param: 0 } },
    /// #         ]) },
    /// #         workgroup_memory: 0, coarsened: false,
    /// #     },
    /// #     location: "",
    /// #     ir: r#"{"name":"add_one","params":[{"name":"x","ty":{"Slice":{"elem":{"Scalar":"u32"},"access":"read_write"}},"span":1}],"workgroup_size":[64,1,1],"locals":[{"name":"i","ty":{"Scalar":"u32"},"mutable":false,"span":3}],"exprs":[{"kind":{"Builtin":"GlobalThreadId"},"ty":{"Scalar":"u32"},"span":2},{"kind":{"Local":0},"ty":{"Scalar":"u32"},"span":5},{"kind":{"Len":0},"ty":{"Scalar":"u32"},"span":6},{"kind":{"Binary":{"op":"Lt","left":1,"right":2}},"ty":{"Scalar":"bool"},"span":7},{"kind":{"Literal":{"U32":1}},"ty":{"Scalar":"u32"},"span":8},{"kind":{"Local":0},"ty":{"Scalar":"u32"},"span":9},{"kind":{"Literal":{"Bool":false}},"ty":{"Scalar":"u32"},"span":10}],"shared":[],"body":[{"kind":{"Let":{"local":0,"init":0}},"span":4},{"kind":{"If":{"cond":3,"accept":[{"kind":{"Assign":{"place":{"Index":{"slice":0,"index":5}},"op":"Add","value":4}},"span":11}],"reject":[]}},"span":12}],"span":0,"types":[],"functions":[]}"#, spans: &[],
    /// # };
    /// # fn main() -> sarek_rt::Result<()> {
    /// // `ADD_ONE`: a kernel that adds 1 to each element of a `&mut [u32]`.
    /// let dev = sarek_rt::Device::new()?;
    /// let mut x = dev.upload(&[1u32, 2, 3])?;
    /// let launch = dev.launch(&ADD_ONE, Grid::cover(3), &[Arg::write(&mut x)])?;
    /// while !launch.is_done() {
    ///     // other work
    /// }
    /// assert_eq!(x.read()?, [2, 3, 4]);
    /// # Ok(()) }
    /// ```
    pub fn is_done(&self) -> bool {
        let done = self.completion();
        if !done.is_done() {
            let _ = self.device.inner().device.poll(wgpu::PollType::Poll);
        }
        done.is_done()
    }

    /// Blocks until the GPU has finished the launch.
    ///
    /// ```
    /// use sarek_rt::{Arg, Grid};
    /// # use std::borrow::Cow::Borrowed as B;
    /// # use sarek_codegen::abi::*;
    /// # static ADD_ONE: sarek_rt::KernelSource = sarek_rt::KernelSource {
    /// #     wgsl: "struct P { grid: vec3<u32>, len: u32 }
    /// #         @group(0) @binding(0) var<storage, read_write> x: array<u32>;
    /// #         @group(0) @binding(1) var<uniform> p: P;
    /// #         @compute @workgroup_size(64) fn sarek_main(@builtin(global_invocation_id) i: vec3<u32>) {
    /// #             if i.x < p.len { x[i.x] += 1u; }
    /// #         }",
    /// #     abi: Abi {
    /// #         kernel: B("add_one"), entry_point: B(ENTRY_POINT), workgroup_size: [64, 1, 1],
    /// #         buffers: B(&[BufferBinding { binding: 0, param: 0, name: B("x"), elem: B("u32"), stride: 4, access: Access::ReadWrite }]),
    /// #         uniform: Uniform { binding: 1, size: 16, fields: B(&[
    /// #             UniformField { name: B("sarek_grid"), offset: 0, source: FieldSource::Grid },
    /// #             UniformField { name: B("sarek_len0"), offset: 12, source: FieldSource::Length { param: 0 } },
    /// #         ]) },
    /// #         workgroup_memory: 0, coarsened: false,
    /// #     },
    /// #     location: "",
    /// #     ir: r#"{"name":"add_one","params":[{"name":"x","ty":{"Slice":{"elem":{"Scalar":"u32"},"access":"read_write"}},"span":1}],"workgroup_size":[64,1,1],"locals":[{"name":"i","ty":{"Scalar":"u32"},"mutable":false,"span":3}],"exprs":[{"kind":{"Builtin":"GlobalThreadId"},"ty":{"Scalar":"u32"},"span":2},{"kind":{"Local":0},"ty":{"Scalar":"u32"},"span":5},{"kind":{"Len":0},"ty":{"Scalar":"u32"},"span":6},{"kind":{"Binary":{"op":"Lt","left":1,"right":2}},"ty":{"Scalar":"bool"},"span":7},{"kind":{"Literal":{"U32":1}},"ty":{"Scalar":"u32"},"span":8},{"kind":{"Local":0},"ty":{"Scalar":"u32"},"span":9},{"kind":{"Literal":{"Bool":false}},"ty":{"Scalar":"u32"},"span":10}],"shared":[],"body":[{"kind":{"Let":{"local":0,"init":0}},"span":4},{"kind":{"If":{"cond":3,"accept":[{"kind":{"Assign":{"place":{"Index":{"slice":0,"index":5}},"op":"Add","value":4}},"span":11}],"reject":[]}},"span":12}],"span":0,"types":[],"functions":[]}"#, spans: &[],
    /// # };
    /// # fn main() -> sarek_rt::Result<()> {
    /// // `ADD_ONE`: a kernel that adds 1 to each element of a `&mut [u32]`.
    /// let dev = sarek_rt::Device::new()?;
    /// let mut x = dev.upload(&[1u32, 2, 3])?;
    /// let launch = dev.launch(&ADD_ONE, Grid::cover(3), &[Arg::write(&mut x)])?;
    /// launch.wait()?;
    /// assert!(launch.is_done());
    /// # Ok(()) }
    /// ```
    pub fn wait(&self) -> Result<()> {
        if let Some(index) = &self.submission {
            self.device
                .inner()
                .device
                .poll(wgpu::PollType::Wait {
                    submission_index: Some(index.clone()),
                    timeout: None,
                })
                .map_err(|e| {
                    self.device
                        .check_lost()
                        .err()
                        .unwrap_or(Error::Poll(e.to_string()))
                })?;
        }
        self.device.check_lost()
    }

    /// The launch's time on the GPU, from timestamp queries, waiting for it to finish.
    /// `None` unless profiling was on when it was launched ([`Device::set_profiling`]) and the
    /// grid was not empty.
    ///
    /// ```
    /// use sarek_rt::{Arg, Grid};
    /// # use std::borrow::Cow::Borrowed as B;
    /// # use sarek_codegen::abi::*;
    /// # static ADD_ONE: sarek_rt::KernelSource = sarek_rt::KernelSource {
    /// #     wgsl: "struct P { grid: vec3<u32>, len: u32 }
    /// #         @group(0) @binding(0) var<storage, read_write> x: array<u32>;
    /// #         @group(0) @binding(1) var<uniform> p: P;
    /// #         @compute @workgroup_size(64) fn sarek_main(@builtin(global_invocation_id) i: vec3<u32>) {
    /// #             if i.x < p.len { x[i.x] += 1u; }
    /// #         }",
    /// #     abi: Abi {
    /// #         kernel: B("add_one"), entry_point: B(ENTRY_POINT), workgroup_size: [64, 1, 1],
    /// #         buffers: B(&[BufferBinding { binding: 0, param: 0, name: B("x"), elem: B("u32"), stride: 4, access: Access::ReadWrite }]),
    /// #         uniform: Uniform { binding: 1, size: 16, fields: B(&[
    /// #             UniformField { name: B("sarek_grid"), offset: 0, source: FieldSource::Grid },
    /// #             UniformField { name: B("sarek_len0"), offset: 12, source: FieldSource::Length { param: 0 } },
    /// #         ]) },
    /// #         workgroup_memory: 0, coarsened: false,
    /// #     },
    /// #     location: "",
    /// #     ir: r#"{"name":"add_one","params":[{"name":"x","ty":{"Slice":{"elem":{"Scalar":"u32"},"access":"read_write"}},"span":1}],"workgroup_size":[64,1,1],"locals":[{"name":"i","ty":{"Scalar":"u32"},"mutable":false,"span":3}],"exprs":[{"kind":{"Builtin":"GlobalThreadId"},"ty":{"Scalar":"u32"},"span":2},{"kind":{"Local":0},"ty":{"Scalar":"u32"},"span":5},{"kind":{"Len":0},"ty":{"Scalar":"u32"},"span":6},{"kind":{"Binary":{"op":"Lt","left":1,"right":2}},"ty":{"Scalar":"bool"},"span":7},{"kind":{"Literal":{"U32":1}},"ty":{"Scalar":"u32"},"span":8},{"kind":{"Local":0},"ty":{"Scalar":"u32"},"span":9},{"kind":{"Literal":{"Bool":false}},"ty":{"Scalar":"u32"},"span":10}],"shared":[],"body":[{"kind":{"Let":{"local":0,"init":0}},"span":4},{"kind":{"If":{"cond":3,"accept":[{"kind":{"Assign":{"place":{"Index":{"slice":0,"index":5}},"op":"Add","value":4}},"span":11}],"reject":[]}},"span":12}],"span":0,"types":[],"functions":[]}"#, spans: &[],
    /// # };
    /// # fn main() -> sarek_rt::Result<()> {
    /// // `ADD_ONE`: a kernel that adds 1 to each element of a `&mut [u32]`.
    /// let dev = sarek_rt::Device::new()?;
    /// let mut x = dev.upload(&[1u32, 2, 3])?;
    /// let profiling = dev.set_profiling(true);
    /// let launch = dev.launch(&ADD_ONE, Grid::cover(3), &[Arg::write(&mut x)])?;
    /// let time = launch.gpu_time()?;
    /// assert_eq!(time.is_some(), profiling);
    /// # Ok(()) }
    /// ```
    pub fn gpu_time(&self) -> Result<Option<Duration>> {
        let Some(timer) = &self.timer else {
            return Ok(None);
        };
        self.wait()?;
        let (tx, rx) = std::sync::mpsc::channel();
        timer
            .readback
            .slice(..)
            .map_async(wgpu::MapMode::Read, move |r| {
                let _ = tx.send(r);
            });
        self.device
            .inner()
            .device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| Error::Poll(e.to_string()))?;
        match rx.recv() {
            Ok(Ok(())) => {}
            Ok(Err(e)) => return Err(Error::Map(e.to_string())),
            Err(_) => return Err(Error::Map("the map callback never ran".into())),
        }
        let ticks: [u64; 2] = {
            let view = timer
                .readback
                .slice(..)
                .get_mapped_range()
                .map_err(|e| Error::Map(e.to_string()))?;
            bytemuck::pod_read_unaligned(&view[..16])
        };
        timer.readback.unmap();
        let period = f64::from(self.device.inner().queue.get_timestamp_period());
        let nanos = ticks[1].saturating_sub(ticks[0]) as f64 * period;
        let time = Duration::from_nanos(nanos as u64);
        log::info!("sarek: `{}` took {time:?} on the GPU", self.kernel);
        Ok(Some(time))
    }
}

fn kernel_name(source: &'static KernelSource) -> &'static str {
    match &source.abi.kernel {
        std::borrow::Cow::Borrowed(s) => s,
        std::borrow::Cow::Owned(_) => "kernel",
    }
}

impl IntoFuture for Launch {
    type Output = Result<()>;
    type IntoFuture = Pin<Box<dyn Future<Output = Result<()>> + Send>>;

    /// Resolves when the GPU has finished the launch, without blocking the executor.
    fn into_future(self) -> Self::IntoFuture {
        Box::pin(async move {
            // A CPU launch (or an empty one) submitted nothing: it is already done.
            if self.submission.is_some() {
                let inner = self.device.inner();
                inner.poller.wait(&inner.device, self.completion()).await;
            }
            self.device.check_lost()
        })
    }
}

/// `SAREK_DUMP_WGSL=<dir>`: writes the kernel's WGSL and ABI there when its pipeline is made.
pub(crate) fn dump(source: &KernelSource) {
    let Some(dir) = std::env::var_os("SAREK_DUMP_WGSL") else {
        return;
    };
    let dir = std::path::PathBuf::from(dir);
    let name = &source.abi.kernel;
    let wgsl = format!(
        "// Sarek kernel `{name}`, from {}\n{}",
        source.location, source.wgsl
    );
    let abi = source.abi.to_json();
    let written = std::fs::create_dir_all(&dir)
        .and_then(|()| std::fs::write(dir.join(format!("{name}.wgsl")), wgsl))
        .and_then(|()| std::fs::write(dir.join(format!("{name}.abi.json")), abi))
        .and_then(|()| match source.ir {
            "" => Ok(()),
            ir => std::fs::write(dir.join(format!("{name}.ir.json")), ir),
        });
    if let Err(e) = written {
        log::warn!("sarek: could not dump `{name}` to {}: {e}", dir.display());
    }
}

/// Grids of at least this many workgroups run coarsened when the kernel allows it: below,
/// a quarter of the threads may not fill a large GPU (an H200 holds 132 × 2048 threads).
const COARSEN_MIN_GROUPS: u64 = 8192;

/// Which entry point of a kernel's module a launch uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Entry {
    /// `sarek_main`
    Direct,
    /// `sarek_main_folded`, for a 1-D grid over the per-dimension limit
    Folded,
    /// `sarek_main_coarse`, for large 1-D grids of element-wise kernels
    Coarse,
}

/// `SAREK_COARSEN=0` turns coarsening off (to measure it, or to rule it out).
fn coarsening_enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("SAREK_COARSEN").as_deref() != Ok("0"))
}

impl Device {
    /// The pipeline of `source` on this device, made once: of its folded entry point when the
    /// dispatch folds a long 1-D grid.
    fn pipeline(&self, source: &'static KernelSource, entry: Entry) -> Result<Arc<Pipeline>> {
        let key = (std::ptr::from_ref(source) as usize, entry as u8);
        let mut cache = self
            .inner()
            .pipelines
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if let Some(p) = cache.get(&key) {
            return Ok(p.clone());
        }
        self.check_lost()?;
        let started = std::time::Instant::now();
        let device = &self.inner().device;
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
                // Not a dynamic offset: measured on an H200, a uniform block bound at a dynamic
                // offset made a Mandelbrot kernel 5% slower (its loop reads the block).
                has_dynamic_offset: false,
                min_binding_size: std::num::NonZeroU64::new(u64::from(abi.uniform.size)),
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
            entry_point: Some(match entry {
                Entry::Direct => &abi.entry_point,
                Entry::Folded => sarek_codegen::abi::FOLDED_ENTRY_POINT,
                Entry::Coarse => sarek_codegen::abi::COARSE_ENTRY_POINT,
            }),
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
        dump(source);
        let p = Arc::new(Pipeline {
            pipeline,
            layout,
            repeats: Mutex::new(HashMap::new()),
        });
        cache.insert(key, p.clone());
        Ok(p)
    }

    /// Checks a launch: the grid, the workgroup memory, the arguments; packs the uniform block
    /// and finds the pipeline. `None` for an empty grid.
    pub(crate) fn check_launch<'a>(
        &self,
        source: &'static KernelSource,
        grid: Grid,
        args: &[Arg<'a>],
    ) -> Result<Option<Checked<'a>>> {
        self.check_lost()?;
        let abi = &source.abi;
        let groups = grid.workgroups_u64(abi.workgroup_size);
        if groups.contains(&0) {
            return Ok(None);
        }
        self.check_workgroup_memory(abi)?;
        // A large 1-D grid of an element-wise kernel runs coarsened: a quarter of the threads,
        // each doing the work of four (see `sarek_codegen::check::coarsen`).
        let coarse = abi.coarsened
            && groups[1] == 1
            && groups[2] == 1
            && groups[0] >= COARSEN_MIN_GROUPS
            && coarsening_enabled();
        let factor = u64::from(sarek_codegen::abi::COARSEN_FACTOR);
        let physical = if coarse {
            [groups[0].div_ceil(factor), 1, 1]
        } else {
            groups
        };
        let dispatch = self.dispatch_size(abi, physical)?;
        let buffers = self.check_args(abi, args)?;
        let uniform = pack_uniform(abi, groups, args)?;
        let folded = dispatch
            .iter()
            .zip(physical)
            .any(|(&d, g)| u64::from(d) != g);
        let entry = match (coarse, folded) {
            (true, _) => Entry::Coarse,
            (false, true) => Entry::Folded,
            (false, false) => Entry::Direct,
        };
        if entry != Entry::Direct {
            log::debug!(
                "sarek: `{}` runs through its {entry:?} entry point ({dispatch:?} workgroups)",
                abi.kernel
            );
        }
        let pipeline = self.pipeline(source, entry)?;
        Ok(Some(Checked {
            dispatch,
            buffers,
            uniform,
            pipeline,
        }))
    }

    fn prepare(
        &self,
        source: &'static KernelSource,
        grid: Grid,
        args: &[Arg<'_>],
        ring: bool,
    ) -> Result<Option<Prepared<'_>>> {
        let Some(Checked {
            dispatch,
            buffers,
            uniform,
            pipeline,
        }) = self.check_launch(source, grid, args)?
        else {
            return Ok(None);
        };
        let abi = &source.abi;
        let device = &self.inner().device;
        let size = u64::from(abi.uniform.size);
        let buffer_entries = |uniform, offset| bind_entries(abi, &buffers, uniform, offset, size);
        if !ring {
            let own = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("sarek params"),
                contents: &uniform,
                usage: wgpu::BufferUsages::UNIFORM,
            });
            let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some(&abi.kernel),
                layout: &pipeline.layout,
                entries: &buffer_entries(&own, 0),
            });
            return Ok(Some(Prepared {
                pipeline,
                bind_group,
                dispatch,
                _ring: None,
            }));
        }
        let key: Vec<(u64, u64, usize)> = buffers.iter().map(|b| (b.id, b.offset, b.len)).collect();
        {
            let mut repeats = pipeline.repeats.lock().unwrap_or_else(|e| e.into_inner());
            if repeats.len() >= BIND_GROUP_CACHE {
                repeats.clear();
            }
            match repeats.get_mut(&(key.clone(), uniform.clone())) {
                Some(Some(bind_group)) => {
                    let bind_group = bind_group.clone();
                    drop(repeats);
                    return Ok(Some(Prepared {
                        pipeline,
                        bind_group,
                        dispatch,
                        _ring: None,
                    }));
                }
                Some(entry @ None) => {
                    let own = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                        label: Some("sarek params"),
                        contents: &uniform,
                        usage: wgpu::BufferUsages::UNIFORM,
                    });
                    let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                        label: Some(&abi.kernel),
                        layout: &pipeline.layout,
                        entries: &buffer_entries(&own, 0),
                    });
                    *entry = Some(bind_group.clone());
                    drop(repeats);
                    return Ok(Some(Prepared {
                        pipeline,
                        bind_group,
                        dispatch,
                        _ring: None,
                    }));
                }
                None => {
                    repeats.insert((key.clone(), uniform.clone()), None);
                }
            }
        }
        let mut guard = self
            .inner()
            .uniforms
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let align = u64::from(self.inner().limits.min_uniform_buffer_offset_alignment).max(16);
        let slot = size.next_multiple_of(align);
        let ring_buffer = guard
            .buffer
            .get_or_insert_with(|| {
                device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("sarek uniform ring"),
                    size: RING_BYTES,
                    usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                    mapped_at_creation: false,
                })
            })
            .clone();
        if guard.next + slot > RING_BYTES {
            guard.next = 0;
        }
        let offset = guard.next;
        guard.next += slot;
        self.inner()
            .queue
            .write_buffer(&ring_buffer, offset, &uniform);
        // A new argument set: its own bind group at its ring slot (a second launch with the
        // same arguments takes the `repeats` path above).
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(&abi.kernel),
            layout: &pipeline.layout,
            entries: &buffer_entries(&ring_buffer, offset),
        });
        Ok(Some(Prepared {
            pipeline,
            bind_group,
            dispatch,
            _ring: Some(guard),
        }))
    }

    fn encode(
        source: &KernelSource,
        prepared: &Prepared,
        encoder: &mut wgpu::CommandEncoder,
        timer: Option<&Timer>,
    ) {
        let timestamp_writes = timer.map(|t| wgpu::ComputePassTimestampWrites {
            query_set: &t.queries,
            beginning_of_pass_write_index: Some(0),
            end_of_pass_write_index: Some(1),
        });
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some(&source.abi.kernel),
            timestamp_writes,
        });
        pass.set_pipeline(&prepared.pipeline.pipeline);
        pass.set_bind_group(0, &prepared.bind_group, &[]);
        let [x, y, z] = prepared.dispatch;
        pass.dispatch_workgroups(x, y, z);
    }

    /// Launches a kernel with type-erased arguments; the typed `launch` method that
    /// `#[sarek::kernel]` generates calls this. Arguments are checked against the ABI.
    /// Returns once the work is submitted, with a handle to wait for it.
    ///
    /// ```
    /// use sarek_rt::{Arg, Grid};
    /// # use std::borrow::Cow::Borrowed as B;
    /// # use sarek_codegen::abi::*;
    /// # static ADD_ONE: sarek_rt::KernelSource = sarek_rt::KernelSource {
    /// #     wgsl: "struct P { grid: vec3<u32>, len: u32 }
    /// #         @group(0) @binding(0) var<storage, read_write> x: array<u32>;
    /// #         @group(0) @binding(1) var<uniform> p: P;
    /// #         @compute @workgroup_size(64) fn sarek_main(@builtin(global_invocation_id) i: vec3<u32>) {
    /// #             if i.x < p.len { x[i.x] += 1u; }
    /// #         }",
    /// #     abi: Abi {
    /// #         kernel: B("add_one"), entry_point: B(ENTRY_POINT), workgroup_size: [64, 1, 1],
    /// #         buffers: B(&[BufferBinding { binding: 0, param: 0, name: B("x"), elem: B("u32"), stride: 4, access: Access::ReadWrite }]),
    /// #         uniform: Uniform { binding: 1, size: 16, fields: B(&[
    /// #             UniformField { name: B("sarek_grid"), offset: 0, source: FieldSource::Grid },
    /// #             UniformField { name: B("sarek_len0"), offset: 12, source: FieldSource::Length { param: 0 } },
    /// #         ]) },
    /// #         workgroup_memory: 0, coarsened: false,
    /// #     },
    /// #     location: "",
    /// #     ir: r#"{"name":"add_one","params":[{"name":"x","ty":{"Slice":{"elem":{"Scalar":"u32"},"access":"read_write"}},"span":1}],"workgroup_size":[64,1,1],"locals":[{"name":"i","ty":{"Scalar":"u32"},"mutable":false,"span":3}],"exprs":[{"kind":{"Builtin":"GlobalThreadId"},"ty":{"Scalar":"u32"},"span":2},{"kind":{"Local":0},"ty":{"Scalar":"u32"},"span":5},{"kind":{"Len":0},"ty":{"Scalar":"u32"},"span":6},{"kind":{"Binary":{"op":"Lt","left":1,"right":2}},"ty":{"Scalar":"bool"},"span":7},{"kind":{"Literal":{"U32":1}},"ty":{"Scalar":"u32"},"span":8},{"kind":{"Local":0},"ty":{"Scalar":"u32"},"span":9},{"kind":{"Literal":{"Bool":false}},"ty":{"Scalar":"u32"},"span":10}],"shared":[],"body":[{"kind":{"Let":{"local":0,"init":0}},"span":4},{"kind":{"If":{"cond":3,"accept":[{"kind":{"Assign":{"place":{"Index":{"slice":0,"index":5}},"op":"Add","value":4}},"span":11}],"reject":[]}},"span":12}],"span":0,"types":[],"functions":[]}"#, spans: &[],
    /// # };
    /// # fn main() -> sarek_rt::Result<()> {
    /// // `ADD_ONE`: a kernel that adds 1 to each element of a `&mut [u32]`.
    /// let dev = sarek_rt::Device::new()?;
    /// let mut x = dev.upload(&[1u32, 2, 3])?;
    /// dev.launch(&ADD_ONE, Grid::cover(3), &[Arg::write(&mut x)])?.wait()?;
    /// assert_eq!(x.read()?, [2, 3, 4]);
    /// // Arguments that do not match the kernel are an error, not undefined behaviour.
    /// let err = dev.launch(&ADD_ONE, Grid::cover(3), &[Arg::u32(7)]).unwrap_err();
    /// assert!(matches!(err, sarek_rt::Error::BadArguments { .. }));
    /// # Ok(()) }
    /// ```
    pub fn launch(
        &self,
        source: &'static KernelSource,
        grid: Grid,
        args: &[Arg<'_>],
    ) -> Result<Launch> {
        if let Some(cpu) = self.as_cpu() {
            return self.launch_cpu(cpu, source, grid, args);
        }
        let started = std::time::Instant::now();
        let Some(prepared) = self.prepare(source, grid, args, true)? else {
            return Ok(Launch::empty(self, source));
        };
        let device = &self.inner().device;
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some(&source.abi.kernel),
        });
        let timer = self
            .inner()
            .profiling
            .load(Ordering::Relaxed)
            .then(|| Timer::new(device));
        Self::encode(source, &prepared, &mut encoder, timer.as_ref());
        if let Some(t) = &timer {
            t.resolve(&mut encoder);
        }
        let submission = self.inner().queue.submit([encoder.finish()]);
        log::debug!(
            "sarek: launched `{}` ({:?} workgroups) in {:?} of CPU time",
            source.abi.kernel,
            prepared.dispatch,
            started.elapsed()
        );
        Ok(Launch::submitted(self, source, submission, timer))
    }

    /// Records a launch into the caller's command encoder instead of submitting it: the work
    /// runs when the caller submits the encoder, ordered with their own passes. The typed
    /// `record` method that `#[sarek::kernel]` generates calls this.
    ///
    /// ```
    /// use sarek_rt::{Arg, Grid};
    /// # use std::borrow::Cow::Borrowed as B;
    /// # use sarek_codegen::abi::*;
    /// # static ADD_ONE: sarek_rt::KernelSource = sarek_rt::KernelSource {
    /// #     wgsl: "struct P { grid: vec3<u32>, len: u32 }
    /// #         @group(0) @binding(0) var<storage, read_write> x: array<u32>;
    /// #         @group(0) @binding(1) var<uniform> p: P;
    /// #         @compute @workgroup_size(64) fn sarek_main(@builtin(global_invocation_id) i: vec3<u32>) {
    /// #             if i.x < p.len { x[i.x] += 1u; }
    /// #         }",
    /// #     abi: Abi {
    /// #         kernel: B("add_one"), entry_point: B(ENTRY_POINT), workgroup_size: [64, 1, 1],
    /// #         buffers: B(&[BufferBinding { binding: 0, param: 0, name: B("x"), elem: B("u32"), stride: 4, access: Access::ReadWrite }]),
    /// #         uniform: Uniform { binding: 1, size: 16, fields: B(&[
    /// #             UniformField { name: B("sarek_grid"), offset: 0, source: FieldSource::Grid },
    /// #             UniformField { name: B("sarek_len0"), offset: 12, source: FieldSource::Length { param: 0 } },
    /// #         ]) },
    /// #         workgroup_memory: 0, coarsened: false,
    /// #     },
    /// #     location: "",
    /// #     ir: r#"{"name":"add_one","params":[{"name":"x","ty":{"Slice":{"elem":{"Scalar":"u32"},"access":"read_write"}},"span":1}],"workgroup_size":[64,1,1],"locals":[{"name":"i","ty":{"Scalar":"u32"},"mutable":false,"span":3}],"exprs":[{"kind":{"Builtin":"GlobalThreadId"},"ty":{"Scalar":"u32"},"span":2},{"kind":{"Local":0},"ty":{"Scalar":"u32"},"span":5},{"kind":{"Len":0},"ty":{"Scalar":"u32"},"span":6},{"kind":{"Binary":{"op":"Lt","left":1,"right":2}},"ty":{"Scalar":"bool"},"span":7},{"kind":{"Literal":{"U32":1}},"ty":{"Scalar":"u32"},"span":8},{"kind":{"Local":0},"ty":{"Scalar":"u32"},"span":9},{"kind":{"Literal":{"Bool":false}},"ty":{"Scalar":"u32"},"span":10}],"shared":[],"body":[{"kind":{"Let":{"local":0,"init":0}},"span":4},{"kind":{"If":{"cond":3,"accept":[{"kind":{"Assign":{"place":{"Index":{"slice":0,"index":5}},"op":"Add","value":4}},"span":11}],"reject":[]}},"span":12}],"span":0,"types":[],"functions":[]}"#, spans: &[],
    /// # };
    /// # fn main() -> sarek_rt::Result<()> {
    /// // `ADD_ONE`: a kernel that adds 1 to each element of a `&mut [u32]`.
    /// let dev = sarek_rt::Device::new()?;
    /// # if dev.is_cpu() { return Ok(()); } // wgpu objects need a GPU device
    /// let mut x = dev.upload(&[1u32, 2, 3])?;
    /// let mut encoder = dev.wgpu_device().create_command_encoder(&Default::default());
    /// dev.record(&ADD_ONE, &mut encoder, Grid::cover(3), &[Arg::write(&mut x)])?;
    /// // Nothing runs until the encoder is submitted.
    /// dev.wgpu_queue().submit([encoder.finish()]);
    /// assert_eq!(x.read()?, [2, 3, 4]);
    /// # Ok(()) }
    /// ```
    pub fn record(
        &self,
        source: &'static KernelSource,
        encoder: &mut wgpu::CommandEncoder,
        grid: Grid,
        args: &[Arg<'_>],
    ) -> Result<()> {
        if self.is_cpu() {
            return Err(Error::NotOnCpu("recording into a wgpu command encoder"));
        }
        if let Some(prepared) = self.prepare(source, grid, args, false)? {
            Self::encode(source, &prepared, encoder, None);
        }
        Ok(())
    }

    /// The physical dispatch for a logical grid: a 1-D grid over the per-dimension limit is
    /// folded into x·y workgroups (the kernel's preamble unfolds it).
    pub(crate) fn dispatch_size(&self, abi: &Abi, groups: [u64; 3]) -> Result<[u32; 3]> {
        let limit = u64::from(self.limits().max_compute_workgroups_per_dimension);
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

    /// Checks that the kernel's workgroup memory fits the device.
    pub(crate) fn check_workgroup_memory(&self, abi: &Abi) -> Result<()> {
        let limit = self.limits().max_compute_workgroup_storage_size;
        if abi.workgroup_memory > limit {
            return Err(Error::WorkgroupMemory {
                kernel: abi.kernel.to_string(),
                needed: abi.workgroup_memory,
                limit,
            });
        }
        Ok(())
    }

    /// Checks the arguments against the ABI; returns the buffers in binding order.
    pub(crate) fn check_args<'a>(&self, abi: &Abi, args: &[Arg<'a>]) -> Result<Vec<&'a RawBuffer>> {
        let bad = |message: String| Error::BadArguments {
            kernel: abi.kernel.to_string(),
            message,
        };
        let expected = abi.buffers.len()
            + abi
                .uniform
                .fields
                .iter()
                .filter(|f| f.source.value_param().is_some())
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
            if raw.elem_size != u64::from(b.stride) {
                return Err(bad(format!(
                    "buffer {} holds elements of {} bytes, but the kernel reads `{}` of {} bytes",
                    b.param, raw.elem_size, b.elem, b.stride
                )));
            }
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

/// The bind group entries of a launch: the buffers, then the uniform block at `offset`.
pub(crate) fn bind_entries<'a>(
    abi: &Abi,
    buffers: &[&'a RawBuffer],
    uniform: &'a wgpu::Buffer,
    offset: u64,
    size: u64,
) -> Vec<wgpu::BindGroupEntry<'a>> {
    let mut entries: Vec<wgpu::BindGroupEntry> = abi
        .buffers
        .iter()
        .zip(buffers)
        .map(|(b, raw)| wgpu::BindGroupEntry {
            binding: b.binding,
            resource: raw.binding(),
        })
        .collect();
    entries.push(wgpu::BindGroupEntry {
        binding: abi.uniform.binding,
        resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
            buffer: uniform,
            offset,
            size: std::num::NonZeroU64::new(size),
        }),
    });
    entries
}

/// Fills the uniform block as the ABI lays it out.
pub(crate) fn pack_uniform(abi: &Abi, groups: [u64; 3], args: &[Arg<'_>]) -> Result<Vec<u8>> {
    let mut bytes = vec![0u8; abi.uniform.size as usize];
    let put = |bytes: &mut Vec<u8>, offset: u32, word: u32| {
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
                    put(&mut bytes, field.offset + 4 * i as u32, *g as u32);
                }
            }
            FieldSource::Length { param } => match args.get(param as usize) {
                Some(Arg::Buffer(raw, _)) => {
                    let len = u32::try_from(raw.len())
                        .map_err(|_| bad(format!("buffer {param} has more than 2^32 elements")))?;
                    put(&mut bytes, field.offset, len);
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
                put(&mut bytes, field.offset, word);
            }
            FieldSource::Bytes { param, size } => match args.get(param as usize) {
                Some(Arg::Bytes(b)) if b.len() == size as usize => {
                    let o = field.offset as usize;
                    bytes[o..o + b.len()].copy_from_slice(b);
                }
                other => {
                    return Err(bad(format!(
                        "parameter {param} must be a value of {size} bytes, got {other:?}"
                    )))
                }
            },
        }
    }
    Ok(bytes)
}
