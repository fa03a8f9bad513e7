//! Timestamp queries around a compute pass, for [`Launch::gpu_time`](crate::Launch::gpu_time).

use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::device::Device;
use crate::error::{Error, Result};
use crate::trace::{Args, GpuSpan};

/// Timestamp queries around one compute pass (a launch, or a whole batch).
pub(crate) struct Timer {
    queries: wgpu::QuerySet,
    resolved: wgpu::Buffer,
    /// Where the two timestamps are read back from.
    readback: wgpu::Buffer,
    /// The timestamps once read back. Held while reading, so that callers on several threads
    /// do not map `readback` at once (wgpu refuses a second map of a buffer, or panics in the
    /// error handler of a user's device).
    ticks: Mutex<Option<[u64; 2]>>,
}

impl Timer {
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
            ticks: Mutex::new(None),
        }
    }

    /// The two timestamps, read back on first use (the pass must have finished).
    pub(super) fn ticks(&self, device: &wgpu::Device) -> Result<[u64; 2]> {
        let mut ticks = crate::sync::lock(&self.ticks);
        if let Some(t) = *ticks {
            return Ok(t);
        }
        let (tx, rx) = std::sync::mpsc::channel();
        self.readback
            .slice(..)
            .map_async(wgpu::MapMode::Read, move |r| {
                let _ = tx.send(r);
            });
        device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(Error::Poll)?;
        match rx.recv() {
            Ok(Ok(())) => {}
            Ok(Err(e)) => {
                return Err(Error::Map {
                    source: Some(Box::new(e)),
                })
            }
            Err(_) => return Err(Error::Map { source: None }),
        }
        let read: [u64; 2] = {
            let view = self
                .readback
                .slice(..)
                .get_mapped_range()
                .map_err(|e| Error::Map {
                    source: Some(Box::new(e)),
                })?;
            bytemuck::pod_read_unaligned(&view[..16])
        };
        self.readback.unmap();
        *ticks = Some(read);
        Ok(read)
    }

    /// Timestamps at the beginning and the end of one pass.
    pub(crate) fn writes(&self) -> wgpu::ComputePassTimestampWrites<'_> {
        wgpu::ComputePassTimestampWrites {
            query_set: &self.queries,
            beginning_of_pass_write_index: Some(0),
            end_of_pass_write_index: Some(1),
        }
    }

    /// Copies the timestamps where [`Launch::gpu_time`](crate::Launch::gpu_time) reads them.
    pub(crate) fn resolve(&self, encoder: &mut wgpu::CommandEncoder) {
        encoder.resolve_query_set(&self.queries, 0..2, &self.resolved, 0);
        encoder.copy_buffer_to_buffer(&self.resolved, 0, &self.readback, 0, 16);
    }
}

impl Device {
    /// The timer of a launch or batch about to be encoded: for [`Launch::gpu_time`] while
    /// profiling, and for the trace's GPU track where the device has timestamp queries.
    /// Returns the timer, and whether the trace wants it.
    ///
    /// [`Launch::gpu_time`]: crate::Launch::gpu_time
    pub(crate) fn timer(&self, profiling: bool) -> (Option<Arc<Timer>>, bool) {
        let inner = self.inner();
        let traced =
            inner.trace.is_some() && inner.features.contains(wgpu::Features::TIMESTAMP_QUERY);
        let timer = (profiling || traced).then(|| Arc::new(Timer::new(&inner.device)));
        (timer, traced)
    }

    /// Hands `timer`'s pass, submitted with `ticket` or still in the open encoder, to the
    /// trace's GPU track as `name` with `args`; where many wait, submits them and reads their
    /// timestamps (which waits for them).
    pub(crate) fn trace_gpu(
        &self,
        name: &str,
        args: Args,
        timer: Arc<Timer>,
        ticket: Arc<super::submit::Ticket>,
    ) {
        let inner = self.inner();
        let Some(trace) = inner.trace.as_deref() else {
            return;
        };
        let device = inner.device.clone();
        let period = f64::from(inner.queue.get_timestamp_period());
        let span = GpuSpan {
            name: name.to_owned(),
            args,
            // The pass is encoded: the GPU starts it after this.
            issued: Instant::now(),
            submitted: Box::new(move || ticket.index().is_some()),
            read: Box::new(move || {
                let [start, end] = timer.ticks(&device).ok()?;
                Some([start as f64 * period, end as f64 * period])
            }),
        };
        if trace.push_gpu(span) {
            self.flush();
            trace.resolve_gpu();
        }
    }
}
