//! Bind groups, and where each launch's uniform block lives.
//!
//! Uniform blocks are always bound at a static offset (a dynamic one cost a loop-heavy kernel
//! 5% on an H200), so a bind group names one uniform block: `launch` writes a new argument set
//! into the next slot of the device's ring and binds that slot; an argument set seen again gets
//! a uniform buffer and bind group of its own, cached with the pipeline, so that repeating it
//! writes nothing at all; `record` always gives the block a buffer of its own.

use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use sarek_ir::abi::Abi;
use wgpu::util::DeviceExt;

use super::pipeline::Pipeline;
use super::Checked;
use crate::buffer::RawBuffer;
use crate::device::Device;

/// Bind groups kept per pipeline before the cache starts over.
const BIND_GROUP_CACHE: usize = 256;

/// Size of the uniform ring.
const RING_BYTES: u64 = 1 << 20;

/// The buffers (id, offset, length) and uniform bytes of a launch.
type ArgumentSet = (Vec<(u64, u64, usize)>, Vec<u8>);

/// The argument sets a pipeline was launched with: `None` once seen, then the bind group of
/// their own uniform buffer, made the second time.
#[derive(Default)]
pub(crate) struct Repeats(Mutex<HashMap<ArgumentSet, Option<wgpu::BindGroup>>>);

impl Repeats {
    /// Drops the entries that hold buffer `id` (a bind group would keep it alive).
    pub(super) fn forget(&self, id: u64) {
        let mut seen = crate::sync::lock(&self.0);
        seen.retain(|(key, _), _| key.iter().all(|(b, _, _)| *b != id));
    }

    /// The bind group of `set` if it was launched before (made by `own` the second time);
    /// `None` the first time.
    fn get(
        &self,
        set: ArgumentSet,
        own: impl FnOnce() -> wgpu::BindGroup,
    ) -> Option<wgpu::BindGroup> {
        let mut seen = crate::sync::lock(&self.0);
        if seen.len() >= BIND_GROUP_CACHE {
            seen.clear();
        }
        match seen.entry(set) {
            Entry::Occupied(mut e) => Some(e.get_mut().get_or_insert_with(own).clone()),
            Entry::Vacant(e) => {
                e.insert(None);
                None
            }
        }
    }
}

/// The device's ring of uniform blocks for `launch`: each new argument set writes its block
/// into the next slot with `Queue::write_buffer` and gets a bind group for that slot, so a
/// launch allocates no buffer. The lock is held from the write to the encoding, and the open
/// encoder is submitted before the ring wraps around, so a slot is rewritten only after the
/// launch that used it was submitted (queue order then makes the rewrite land after it ran).
#[derive(Default)]
pub(crate) struct UniformRing {
    buffer: Option<wgpu::Buffer>,
    next: u64,
}

/// Where a launch's uniform block lives.
pub(crate) enum UniformSlot<'a> {
    /// A buffer of its own, written when it is made.
    Own(wgpu::Buffer),
    /// A slot of the device's ring, locked until the launch is submitted.
    Ring {
        buffer: wgpu::Buffer,
        offset: u64,
        _lock: MutexGuard<'a, UniformRing>,
    },
}

/// How a launch reaches the GPU, which decides where its uniform block may live.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Submission {
    /// Submitted before `launch` returns: the ring, or the cache of repeated argument sets.
    Now,
    /// Recorded into the caller's encoder, submitted whenever they like (a ring slot could be
    /// rewritten first): a uniform buffer of its own.
    Later,
}

/// A checked launch with its bind group, ready to encode.
pub(crate) struct Bound<'a> {
    pub(crate) checked: Checked<'a>,
    pub(crate) bind_group: wgpu::BindGroup,
    /// Holds a ring slot until the launch is submitted.
    _slot: Option<UniformSlot<'a>>,
}

impl Bound<'_> {
    /// The launch as one dispatch of a pass.
    pub(crate) fn dispatch(&self) -> super::Dispatch<'_> {
        super::Dispatch {
            pipeline: &self.checked.pipeline,
            bind_group: &self.bind_group,
            workgroups: self.checked.dispatch,
        }
    }
}

/// The bind group entries of a launch: the buffers, then the uniform block at `offset`.
pub(crate) fn bind_entries<'a>(
    abi: &Abi,
    buffers: &[&'a RawBuffer],
    uniform: &'a wgpu::Buffer,
    offset: u64,
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
            size: std::num::NonZeroU64::new(u64::from(abi.uniform.size)),
        }),
    });
    entries
}

impl Device {
    /// Gives a checked launch its bind group, with its uniform block where `submission`
    /// allows.
    pub(super) fn bind<'a>(
        &'a self,
        abi: &Abi,
        checked: Checked<'a>,
        submission: Submission,
    ) -> Bound<'a> {
        let own = || self.uniform_slot_own(&checked.uniform);
        let slot = match submission {
            Submission::Later => own(),
            Submission::Now => {
                let set = (
                    checked
                        .buffers
                        .iter()
                        .map(|b| (b.id, b.offset, b.len))
                        .collect(),
                    checked.uniform.clone(),
                );
                let repeated = checked.pipeline.repeats.get(set, || {
                    self.bind_group(abi, &checked.pipeline, &checked.buffers, &own())
                });
                if let Some(bind_group) = repeated {
                    return Bound {
                        checked,
                        bind_group,
                        _slot: None,
                    };
                }
                self.uniform_slot_ring(&checked.uniform)
            }
        };
        let bind_group = self.bind_group(abi, &checked.pipeline, &checked.buffers, &slot);
        Bound {
            checked,
            bind_group,
            _slot: Some(slot),
        }
    }

    /// A bind group of `buffers` and the uniform block in `slot`.
    fn bind_group(
        &self,
        abi: &Abi,
        pipeline: &Arc<Pipeline>,
        buffers: &[&RawBuffer],
        slot: &UniformSlot<'_>,
    ) -> wgpu::BindGroup {
        let (uniform, offset) = match slot {
            UniformSlot::Own(buffer) => (buffer, 0),
            UniformSlot::Ring { buffer, offset, .. } => (buffer, *offset),
        };
        self.inner()
            .device
            .create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some(&abi.kernel),
                layout: &pipeline.layout,
                entries: &bind_entries(abi, buffers, uniform, offset),
            })
    }

    /// A uniform buffer of its own holding `block`.
    fn uniform_slot_own(&self, block: &[u8]) -> UniformSlot<'static> {
        UniformSlot::Own(self.inner().device.create_buffer_init(
            &wgpu::util::BufferInitDescriptor {
                label: Some("sarek params"),
                contents: block,
                usage: wgpu::BufferUsages::UNIFORM,
            },
        ))
    }

    /// Whether a block of `len` bytes would wrap the ring around to its first slot, which a
    /// launch still in the open encoder may use.
    pub(super) fn ring_would_wrap(&self, len: usize) -> bool {
        let inner = self.inner();
        let ring = crate::sync::lock(&inner.uniforms);
        let align = u64::from(inner.limits.min_uniform_buffer_offset_alignment).max(16);
        ring.next + (len as u64).next_multiple_of(align) > RING_BYTES
    }

    /// The next slot of the device's ring, holding `block`.
    fn uniform_slot_ring(&self, block: &[u8]) -> UniformSlot<'_> {
        let inner = self.inner();
        let mut ring = crate::sync::lock(&inner.uniforms);
        let align = u64::from(inner.limits.min_uniform_buffer_offset_alignment).max(16);
        let slot = (block.len() as u64).next_multiple_of(align);
        let buffer = ring
            .buffer
            .get_or_insert_with(|| {
                inner.device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("sarek uniform ring"),
                    size: RING_BYTES,
                    usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                    mapped_at_creation: false,
                })
            })
            .clone();
        if ring.next + slot > RING_BYTES {
            ring.next = 0;
        }
        let offset = ring.next;
        ring.next += slot;
        inner.queue.write_buffer(&buffer, offset, block);
        UniformSlot::Ring {
            buffer,
            offset,
            _lock: ring,
        }
    }
}

/// The layout of a bind group holding one read-write storage buffer at binding 0, the shape of
/// the side channels the runtime binds beside a kernel's parameters (the loop status, the
/// debug channel).
pub(super) fn one_storage_buffer_layout(
    device: &wgpu::Device,
    label: &'static str,
) -> wgpu::BindGroupLayout {
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some(label),
        entries: &[wgpu::BindGroupLayoutEntry {
            binding: 0,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Storage { read_only: false },
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        }],
    })
}
