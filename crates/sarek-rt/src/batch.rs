//! Many launches in one submission.

use std::collections::HashMap;
use std::sync::Arc;

use wgpu::util::DeviceExt;

use crate::arg::{Arg, KernelSource};
use crate::device::Device;
use crate::error::Result;
use crate::grid::Grid;
use crate::launch::{bind_entries, pass, Dispatch, Launch, Pipeline, Timer};

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
/// use sarek_rt::Grid;
/// # use sarek_rt::fixture::add_one;
/// # fn main() -> sarek_rt::Result<()> {
/// // `add_one`: `#[sarek::kernel] fn add_one(x: &mut [u32])` adds 1 to each element.
/// let dev = sarek_rt::Device::new()?;
/// let mut x = dev.zeros::<u32>(256)?;
/// let mut batch = dev.batch();
/// for _ in 0..100 {
///     // `add_one.enqueue(&mut batch, grid, &mut x)` does this with typed arguments.
///     add_one.enqueue(&mut batch, Grid::cover(256), &mut x)?;
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
    /// use sarek_rt::Grid;
    /// # use sarek_rt::fixture::add_one;
    /// # fn main() -> sarek_rt::Result<()> {
    /// // `add_one`: `#[sarek::kernel] fn add_one(x: &mut [u32])` adds 1 to each element.
    /// let dev = sarek_rt::Device::new()?;
    /// let mut x = dev.upload(&[1u32, 2, 3])?;
    /// let mut batch = dev.batch();
    /// add_one.enqueue(&mut batch, Grid::cover(3), &mut x)?;
    /// add_one.enqueue(&mut batch, Grid::cover(3), &mut x)?;
    /// assert_eq!(batch.len(), 2);
    /// # Ok(()) }
    /// ```
    pub fn len(&self) -> usize {
        self.commands.len() + self.cpu.len()
    }

    /// Whether no launch was added.
    ///
    /// ```
    /// use sarek_rt::Grid;
    /// # use sarek_rt::fixture::add_one;
    /// # fn main() -> sarek_rt::Result<()> {
    /// // `add_one`: `#[sarek::kernel] fn add_one(x: &mut [u32])` adds 1 to each element.
    /// let dev = sarek_rt::Device::new()?;
    /// let mut x = dev.upload(&[1u32, 2, 3])?;
    /// let mut batch = dev.batch();
    /// assert!(batch.is_empty());
    /// // An empty grid adds nothing.
    /// add_one.enqueue(&mut batch, Grid::cover(0), &mut x)?;
    /// assert!(batch.is_empty());
    /// # Ok(()) }
    /// ```
    pub fn is_empty(&self) -> bool {
        self.commands.is_empty() && self.cpu.is_empty()
    }

    /// Adds a launch with type-erased arguments ([`crate::raw::enqueue`]).
    pub(crate) fn add(
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
    /// use sarek_rt::Grid;
    /// # use sarek_rt::fixture::add_one;
    /// # fn main() -> sarek_rt::Result<()> {
    /// // `add_one`: `#[sarek::kernel] fn add_one(x: &mut [u32])` adds 1 to each element.
    /// let dev = sarek_rt::Device::new()?;
    /// let mut x = dev.upload(&[1u32, 2, 3])?;
    /// let mut batch = dev.batch();
    /// for _ in 0..2 {
    ///     add_one.enqueue(&mut batch, Grid::cover(3), &mut x)?;
    /// }
    /// let launch = batch.submit()?;
    /// launch.wait()?;
    /// assert_eq!(x.read()?, [3, 4, 5]);
    /// # Ok(()) }
    /// ```
    pub fn submit(self) -> Result<Launch> {
        let device = &self.device;
        device.check_lost()?;
        // After the launches issued before (`wgpu_queue` below submits them too).
        device.flush();
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
        // Keyed by pipeline, the buffers' (id, offset, length) and the uniform offset.
        type GroupKey = (usize, Vec<(u64, u64, usize)>, u32);
        let mut bind_groups: HashMap<GroupKey, wgpu::BindGroup> = HashMap::new();
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
        let timer = device.profiling().then(|| Timer::new(wgpu_device));
        let dispatches = self
            .commands
            .iter()
            .zip(&groups)
            .map(|(c, group)| Dispatch {
                pipeline: &c.pipeline,
                bind_group: group,
                workgroups: c.dispatch,
            });
        pass(&mut encoder, "sarek batch", timer.as_ref(), dispatches);
        if let Some(t) = &timer {
            t.resolve(&mut encoder);
        }
        let submission = device.wgpu_queue().submit([encoder.finish()]);
        let mut launch = Launch::after_submit(device, "batch", submission);
        launch.set_timer(timer);
        Ok(launch)
    }
}
