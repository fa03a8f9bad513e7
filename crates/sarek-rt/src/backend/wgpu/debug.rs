//! The debug channels of kernels that print or assert on a GPU (`crate::debug`): one
//! storage buffer per kernel and device, bound at group [`DEBUG_GROUP`] with every launch of
//! the kernel, read back and cleared when something next waits for the GPU.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use sarek_ir::abi::DEBUG_GROUP;

use crate::arg::KernelSource;
use crate::device::Device;
use crate::error::Result;

/// A kernel's channel on one device.
pub(crate) struct Channel {
    source: &'static KernelSource,
    buffer: wgpu::Buffer,
    pub(crate) group: wgpu::BindGroup,
    /// Whether a launch may have written it since it was last read.
    used: AtomicBool,
}

impl Channel {
    /// Notes that a launch was encoded with it.
    pub(crate) fn used(&self, channels: &Channels) {
        self.used.store(true, Ordering::Relaxed);
        channels.any.store(true, Ordering::Release);
    }
}

/// A device's channels, by the address of their kernel's source, and their layout.
#[derive(Default)]
pub(crate) struct Channels {
    by_kernel: Mutex<HashMap<usize, Arc<Channel>>>,
    layout: std::sync::OnceLock<wgpu::BindGroupLayout>,
    /// Whether any channel is used: the common case of none costs a load.
    any: AtomicBool,
}

impl Device {
    /// The bind group layout of the channel (group [`DEBUG_GROUP`]).
    pub(crate) fn debug_layout(&self) -> &wgpu::BindGroupLayout {
        let inner = self.inner();
        inner.debug_channels.layout.get_or_init(|| {
            super::bind::one_storage_buffer_layout(&inner.device, "sarek debug channel")
        })
    }

    /// `source`'s channel on this device, made on first use (zeroed, as wgpu makes buffers).
    pub(crate) fn debug_channel(&self, source: &'static KernelSource) -> Arc<Channel> {
        let inner = self.inner();
        let key = std::ptr::from_ref(source) as usize;
        let mut channels = crate::sync::lock(&inner.debug_channels.by_kernel);
        channels
            .entry(key)
            .or_insert_with(|| {
                let bytes = inner.debug.words() as u64 * 4;
                let buffer = inner.device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("sarek debug channel"),
                    size: bytes.min(inner.limits.max_storage_buffer_binding_size),
                    usage: wgpu::BufferUsages::STORAGE
                        | wgpu::BufferUsages::COPY_SRC
                        | wgpu::BufferUsages::COPY_DST,
                    mapped_at_creation: false,
                });
                let group = inner.device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("sarek debug channel"),
                    layout: self.debug_layout(),
                    entries: &[wgpu::BindGroupEntry {
                        binding: 0,
                        resource: buffer.as_entire_binding(),
                    }],
                });
                Arc::new(Channel {
                    source,
                    buffer,
                    group,
                    used: AtomicBool::new(false),
                })
            })
            .clone()
    }

    /// Reads back and clears the channels launches wrote since the last time, writes their
    /// lines and returns the first failed assertion (`crate::debug::report`).
    pub(crate) fn drain_gpu_debug(&self) -> Result<()> {
        let inner = self.inner();
        if !inner.debug_channels.any.swap(false, Ordering::Acquire) {
            return Ok(());
        }
        let used: Vec<Arc<Channel>> = crate::sync::lock(&inner.debug_channels.by_kernel)
            .values()
            .filter(|c| c.used.swap(false, Ordering::Relaxed))
            .cloned()
            .collect();
        let mut first = Ok(());
        for c in used {
            let bytes = self.start_read(&c.buffer, 0, c.buffer.size())?.wait()?;
            // The header only: the records past its counter are never read.
            self.write_bytes(&c.buffer, 0, &[0u8; 4 * sarek_ir::ir::debug::HEADER])?;
            let words: Vec<u32> = bytes
                .chunks_exact(4)
                .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
                .collect();
            let reported = crate::debug::report(c.source, &words, &inner.debug);
            if first.is_ok() {
                first = reported;
            }
        }
        first
    }
}

/// Sets the channel's bind group on a pass, for a pipeline that has one.
pub(crate) fn bind(
    pass: &mut wgpu::ComputePass<'_>,
    channel: Option<&Arc<Channel>>,
    channels: &Channels,
) {
    if let Some(c) = channel {
        pass.set_bind_group(DEBUG_GROUP, &c.group, &[]);
        c.used(channels);
    }
}
