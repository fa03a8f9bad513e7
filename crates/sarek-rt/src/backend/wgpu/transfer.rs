//! Copies between the host and GPU buffers, blocking or async, with pooled staging buffers.

use std::sync::{Arc, Mutex};

use super::poller::Completion;
use crate::device::Device;
use crate::error::{Error, Result};

/// Read-back staging buffers, reused across reads instead of allocated each time.
#[derive(Default)]
pub(crate) struct StagingPool {
    free: Mutex<Vec<wgpu::Buffer>>,
}

/// How many idle staging buffers a device keeps.
const POOL_LIMIT: usize = 8;

impl StagingPool {
    fn take(&self, device: &wgpu::Device, size: u64) -> wgpu::Buffer {
        let mut free = crate::sync::lock(&self.free);
        // Reuse a buffer that fits without wasting more than half of it.
        if let Some(i) = free
            .iter()
            .position(|b| b.size() >= size && b.size() <= size.saturating_mul(2).max(4096))
        {
            return free.swap_remove(i);
        }
        drop(free);
        device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("sarek readback"),
            size: size.max(16),
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        })
    }

    fn give_back(&self, buffer: wgpu::Buffer) {
        let mut free = crate::sync::lock(&self.free);
        if free.len() < POOL_LIMIT {
            free.push(buffer);
        }
    }

    /// Number of idle staging buffers.
    pub(crate) fn idle(&self) -> usize {
        crate::sync::lock(&self.free).len()
    }
}

/// A read in flight: the copy is submitted and the map requested.
pub(crate) struct PendingRead {
    device: Device,
    staging: Option<wgpu::Buffer>,
    bytes: u64,
    mapped: u64,
    completion: Arc<Completion>,
    result: Arc<Mutex<Option<std::result::Result<(), wgpu::BufferAsyncError>>>>,
    /// On a software adapter, the status word of cut loops, copied to this offset of the
    /// staging buffer (`loop_cap.rs`).
    loop_status: Option<(super::loop_cap::LoopCap, u64)>,
}

impl Device {
    /// Copies `bytes` bytes from `offset` in `buffer` into a staging buffer and asks for it to be
    /// mapped; completion is reported through the returned read's completion.
    pub(crate) fn start_read(
        &self,
        buffer: &wgpu::Buffer,
        offset: u64,
        bytes: u64,
    ) -> Result<PendingRead> {
        self.check_lost()?;
        // The copy comes after every launch issued before.
        self.flush();
        let size = bytes.next_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT);
        let inner = &self.inner();
        let cap = inner.submitter.loop_cap.get().cloned();
        let mapped = size + if cap.is_some() { 4 } else { 0 };
        let staging = inner.staging.take(&inner.device, mapped);
        let mut encoder = inner
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("sarek readback"),
            });
        encoder.copy_buffer_to_buffer(buffer, offset, &staging, 0, size);
        if let Some(cap) = &cap {
            // Whether a launch since the last read had a loop cut short, then cleared.
            encoder.copy_buffer_to_buffer(&cap.status, 0, &staging, size, 4);
            encoder.clear_buffer(&cap.status, 0, None);
        }
        inner.queue.submit([encoder.finish()]);
        let completion = Completion::new();
        let result = Arc::new(Mutex::new(None));
        {
            let (completion, result) = (completion.clone(), result.clone());
            staging
                .slice(..mapped)
                .map_async(wgpu::MapMode::Read, move |r| {
                    *crate::sync::lock(&result) = Some(r);
                    completion.complete();
                });
        }
        Ok(PendingRead {
            device: self.clone(),
            staging: Some(staging),
            bytes,
            mapped,
            completion,
            result,
            loop_status: cap.map(|c| (c, size)),
        })
    }

    pub(crate) fn write_bytes(
        &self,
        buffer: &wgpu::Buffer,
        offset: u64,
        bytes: &[u8],
    ) -> Result<()> {
        self.check_lost()?;
        if bytes.is_empty() {
            return Ok(());
        }
        // A queue write lands before the next submission's command buffers: the launches
        // issued before it are submitted first.
        self.flush();
        let queue = &self.inner().queue;
        if (bytes.len() as u64).is_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT) {
            queue.write_buffer(buffer, offset, bytes);
        } else {
            let mut padded = bytes.to_vec();
            padded.resize(
                (bytes.len() as u64).next_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT) as usize,
                0,
            );
            queue.write_buffer(buffer, offset, &padded);
        }
        queue.submit([]);
        Ok(())
    }
}

impl PendingRead {
    /// Blocks the calling thread until the data is there.
    pub(crate) fn wait(self) -> Result<Vec<u8>> {
        let device = self.device.clone();
        while !self.completion.is_done() {
            device
                .inner()
                .device
                .poll(wgpu::PollType::wait_indefinitely())
                .map_err(|e| device.check_lost().err().unwrap_or(Error::Poll(e)))?;
            if !self.completion.is_done() {
                device.check_lost()?;
                std::thread::yield_now();
            }
        }
        self.finish()
    }

    /// Resolves when the data is there, without blocking the executor.
    pub(crate) async fn wait_async(self) -> Result<Vec<u8>> {
        let inner = &self.device.inner();
        inner
            .poller
            .wait(&inner.device, self.completion.clone())
            .await;
        self.finish()
    }

    fn finish(mut self) -> Result<Vec<u8>> {
        let staging = self.staging.take().ok_or(Error::Map { source: None })?;
        let outcome = crate::sync::lock(&self.result).take();
        match outcome {
            Some(Ok(())) => {}
            Some(Err(e)) => {
                return Err(self.device.check_lost().err().unwrap_or(Error::Map {
                    source: Some(Box::new(e)),
                }))
            }
            None => {
                return Err(self
                    .device
                    .check_lost()
                    .err()
                    .unwrap_or(Error::Map { source: None }))
            }
        }
        let (data, status) = {
            let view = staging
                .slice(..self.mapped)
                .get_mapped_range()
                .map_err(|e| Error::Map {
                    source: Some(Box::new(e)),
                })?;
            let status = (self.loop_status.as_ref()).map(|(_, at)| {
                let at = *at as usize;
                u32::from_le_bytes([view[at], view[at + 1], view[at + 2], view[at + 3]])
            });
            (view[..self.bytes as usize].to_vec(), status)
        };
        staging.unmap();
        self.device.inner().staging.give_back(staging);
        if let (Some((cap, _)), Some(word)) = (&self.loop_status, status) {
            cap.check(word)?;
        }
        Ok(data)
    }
}
