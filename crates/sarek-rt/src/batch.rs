//! Many launches in one submission.

use std::collections::HashMap;
use std::sync::Arc;

use wgpu::util::DeviceExt;

use crate::arg::{Arg, KernelSource};
use crate::device::Device;
use crate::error::Result;
use crate::grid::Grid;
use crate::launch::{bind_entries, Launch, Pipeline};

/// A buffer range a batched launch binds.
struct Bound {
    buffer: wgpu::Buffer,
    id: u64,
    offset: u64,
    len: usize,
    elem_size: u64,
}

struct Command {
    source: &'static KernelSource,
    pipeline: Arc<Pipeline>,
    buffers: Vec<Bound>,
    uniform_offset: u32,
    dispatch: [u32; 3],
}

/// Launches collected on the host and submitted together: one uniform buffer for all of
/// them (equal blocks stored once), one bind group per distinct set of buffers and uniform
/// block, one compute pass. Each launch is checked
/// when it is added, exactly as `launch` checks it; they run in the order they were added.
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
/// let mut x = dev.zeros::<u32>(256)?;
/// let mut batch = dev.batch();
/// for _ in 0..100 {
///     // `add_one.enqueue(&mut batch, grid, &mut x)` does this with typed arguments.
///     batch.add(&ADD_ONE, Grid::cover(256), &[Arg::write(&mut x)])?;
/// }
/// batch.submit()?.wait()?;
/// assert_eq!(x.read()?, [100; 256]);
/// # Ok(()) }
/// ```
pub struct Batch {
    device: Device,
    commands: Vec<Command>,
    /// Launches on the CPU backend, run in order at submission.
    cpu: Vec<crate::cpu::Work>,
    uniforms: Vec<u8>,
    /// Where each distinct uniform block already is in `uniforms`.
    blocks: HashMap<Vec<u8>, u32>,
}

impl std::fmt::Debug for Batch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Batch")
            .field("launches", &self.len())
            .finish()
    }
}

impl Device {
    /// An empty [`Batch`] of launches on this device.
    ///
    /// ```
    /// # fn main() -> sarek_rt::Result<()> {
    /// let dev = sarek_rt::Device::new()?;
    /// let batch = dev.batch();
    /// assert!(batch.is_empty());
    /// # Ok(()) }
    /// ```
    pub fn batch(&self) -> Batch {
        Batch {
            device: self.clone(),
            commands: Vec::new(),
            cpu: Vec::new(),
            uniforms: Vec::new(),
            blocks: HashMap::new(),
        }
    }
}

impl Batch {
    /// Number of launches added.
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
    /// let mut batch = dev.batch();
    /// batch.add(&ADD_ONE, Grid::cover(3), &[Arg::write(&mut x)])?;
    /// batch.add(&ADD_ONE, Grid::cover(3), &[Arg::write(&mut x)])?;
    /// assert_eq!(batch.len(), 2);
    /// # Ok(()) }
    /// ```
    pub fn len(&self) -> usize {
        self.commands.len() + self.cpu.len()
    }

    /// Whether no launch was added.
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
    /// let mut batch = dev.batch();
    /// assert!(batch.is_empty());
    /// // An empty grid adds nothing.
    /// batch.add(&ADD_ONE, Grid::cover(0), &[Arg::write(&mut x)])?;
    /// assert!(batch.is_empty());
    /// # Ok(()) }
    /// ```
    pub fn is_empty(&self) -> bool {
        self.commands.is_empty() && self.cpu.is_empty()
    }

    /// Adds a launch with type-erased arguments; the typed `enqueue` method of every kernel
    /// calls this. An empty grid adds nothing.
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
    /// let mut batch = dev.batch();
    /// batch.add(&ADD_ONE, Grid::cover(3), &[Arg::write(&mut x)])?;
    /// // Checked like `Device::launch`: a missing argument is an error.
    /// assert!(batch.add(&ADD_ONE, Grid::cover(3), &[]).is_err());
    /// batch.submit()?.wait()?;
    /// assert_eq!(x.read()?, [2, 3, 4]);
    /// # Ok(()) }
    /// ```
    pub fn add(
        &mut self,
        source: &'static KernelSource,
        grid: Grid,
        args: &[Arg<'_>],
    ) -> Result<()> {
        if let Some(cpu) = self.device.as_cpu() {
            if let Some(work) = self.device.cpu_work(cpu, source, grid, args)? {
                self.cpu.push(work);
            }
            return Ok(());
        }
        let Some(checked) = self.device.check_launch(source, grid, args)? else {
            return Ok(());
        };
        let align =
            u64::from(self.device.limits().min_uniform_buffer_offset_alignment).max(16) as usize;
        // Launches with equal uniform blocks share one copy (and so one bind group).
        let offset = match self.blocks.get(&checked.uniform) {
            Some(&offset) => offset as usize,
            None => {
                let offset = self.uniforms.len().next_multiple_of(align);
                self.uniforms.resize(offset, 0);
                self.uniforms.extend_from_slice(&checked.uniform);
                self.blocks.insert(checked.uniform.clone(), offset as u32);
                offset
            }
        };
        let buffers = checked
            .buffers
            .iter()
            .map(|b| Bound {
                buffer: b.gpu().clone(),
                id: b.id,
                offset: b.offset,
                len: b.len,
                elem_size: b.elem_size,
            })
            .collect();
        self.commands.push(Command {
            source,
            pipeline: checked.pipeline,
            buffers,
            uniform_offset: offset as u32,
            dispatch: checked.dispatch,
        });
        Ok(())
    }

    /// Submits every launch added, in order, in one compute pass.
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
    /// let mut batch = dev.batch();
    /// for _ in 0..2 {
    ///     batch.add(&ADD_ONE, Grid::cover(3), &[Arg::write(&mut x)])?;
    /// }
    /// let launch = batch.submit()?;
    /// launch.wait()?;
    /// assert_eq!(x.read()?, [3, 4, 5]);
    /// # Ok(()) }
    /// ```
    pub fn submit(self) -> Result<Launch> {
        let device = &self.device;
        device.check_lost()?;
        if let Some(cpu) = device.as_cpu() {
            for work in &self.cpu {
                device.run_cpu(cpu, work)?;
            }
            return Ok(Launch::finished(device, "batch"));
        }
        if self.commands.is_empty() {
            return Ok(Launch::after_submit(
                device,
                "batch",
                device.wgpu_queue().submit([]),
            ));
        }
        let wgpu_device = device.wgpu_device();
        let mut uniforms = self.uniforms;
        uniforms.resize(uniforms.len().next_multiple_of(16), 0);
        let uniform = wgpu_device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("sarek batch params"),
            contents: &uniforms,
            usage: wgpu::BufferUsages::UNIFORM,
        });
        let mut bind_groups: HashMap<(usize, Vec<(u64, u64, usize)>, u32), wgpu::BindGroup> =
            HashMap::new();
        let mut groups = Vec::with_capacity(self.commands.len());
        for c in &self.commands {
            let key = (
                Arc::as_ptr(&c.pipeline) as usize,
                c.buffers
                    .iter()
                    .map(|b| (b.id, b.offset, b.len))
                    .collect::<Vec<_>>(),
                c.uniform_offset,
            );
            let group = bind_groups
                .entry(key)
                .or_insert_with(|| {
                    let raws: Vec<crate::buffer::RawBuffer> = c
                        .buffers
                        .iter()
                        .map(|b| {
                            crate::buffer::RawBuffer::view(
                                b.buffer.clone(),
                                b.offset,
                                b.len,
                                b.elem_size,
                                b.id,
                            )
                        })
                        .collect();
                    let refs: Vec<&crate::buffer::RawBuffer> = raws.iter().collect();
                    wgpu_device.create_bind_group(&wgpu::BindGroupDescriptor {
                        label: Some("sarek batch"),
                        layout: &c.pipeline.layout,
                        entries: &bind_entries(
                            &c.source.abi,
                            &refs,
                            &uniform,
                            u64::from(c.uniform_offset),
                            u64::from(c.source.abi.uniform.size),
                        ),
                    })
                })
                .clone();
            groups.push(group);
        }
        let mut encoder = wgpu_device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("sarek batch"),
        });
        // With profiling on, the whole batch (one pass) is timed.
        let timer = device
            .profiling()
            .then(|| crate::launch::Timer::new(wgpu_device));
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("sarek batch"),
                timestamp_writes: timer.as_ref().map(|t| t.writes()),
            });
            let mut current: Option<*const Pipeline> = None;
            for (c, group) in self.commands.iter().zip(&groups) {
                let ptr = Arc::as_ptr(&c.pipeline);
                if current != Some(ptr) {
                    pass.set_pipeline(&c.pipeline.pipeline);
                    current = Some(ptr);
                }
                pass.set_bind_group(0, group, &[]);
                let [x, y, z] = c.dispatch;
                pass.dispatch_workgroups(x, y, z);
            }
        }
        if let Some(t) = &timer {
            t.resolve(&mut encoder);
        }
        let submission = device.wgpu_queue().submit([encoder.finish()]);
        let mut launch = Launch::after_submit(device, "batch", submission);
        launch.set_timer(timer);
        Ok(launch)
    }
}
