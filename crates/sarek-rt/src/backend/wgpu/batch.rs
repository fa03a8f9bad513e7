//! Many launches in one submission on the GPU ([`crate::Batch`]).

use std::collections::HashMap;
use std::sync::Arc;

use wgpu::util::DeviceExt;

use super::pending::Submitted;
use super::{bind_entries, pass, Dispatch, Pipeline};
use crate::arg::{Arg, KernelSource};
use crate::backend::BatchWork;
use crate::device::Device;
use crate::error::Result;
use crate::launch::{Launch, Valid};
use crate::trace::Args;

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

/// A batch's launches on the GPU, submitted together: one uniform buffer for all of them
/// (equal blocks stored once), one bind group per distinct set of buffers and uniform block,
/// one compute pass.
#[derive(Default)]
pub(crate) struct GpuBatch {
    commands: Vec<Command>,
    uniforms: Vec<u8>,
    /// Where each distinct uniform block already is in `uniforms`.
    blocks: HashMap<Vec<u8>, u32>,
}

impl BatchWork for GpuBatch {
    fn len(&self) -> usize {
        self.commands.len()
    }

    fn add(
        &mut self,
        device: &Device,
        source: &'static KernelSource,
        valid: Valid<'_>,
        args: &[Arg<'_>],
    ) -> Result<()> {
        let checked = device.gpu_checked(source, valid, args)?;
        let align = u64::from(device.limits().min_uniform_buffer_offset_alignment).max(16) as usize;
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

    fn submit(mut self: Box<Self>, device: &Device) -> Result<Launch> {
        if self.commands.is_empty() {
            let submission = device.wgpu_queue().submit([]);
            let pending = Submitted::after_submit(device, submission, None);
            return Ok(Launch::pending_named(device, "batch", Box::new(pending)));
        }
        let wgpu_device = device.wgpu_device();
        let mut uniforms = std::mem::take(&mut self.uniforms);
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
        // With profiling on, or a trace with a GPU track, the whole batch (one pass) is timed.
        let profiling = device.profiling();
        let (timer, traced) = device.timer(profiling);
        let dispatches = self
            .commands
            .iter()
            .zip(&groups)
            .map(|(c, group)| Dispatch {
                pipeline: &c.pipeline,
                bind_group: group,
                workgroups: c.dispatch,
            });
        pass(
            &device.inner().debug_channels,
            &mut encoder,
            "sarek batch",
            timer.as_deref(),
            dispatches,
        );
        if let Some(t) = &timer {
            t.resolve(&mut encoder);
        }
        let submission = device.wgpu_queue().submit([encoder.finish()]);
        if let (true, Some(t)) = (traced, &timer) {
            let launches = self.commands.len() as u64;
            let args = Args::new().u64("launches", launches);
            let ticket = super::submit::Ticket::submitted(submission.clone());
            device.trace_gpu("batch", args, t.clone(), ticket);
        }
        let pending = Submitted::after_submit(device, submission, timer.filter(|_| profiling));
        Ok(Launch::pending_named(device, "batch", Box::new(pending)))
    }
}
