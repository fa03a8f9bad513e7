//! Timestamp queries around a compute pass, for [`Launch::gpu_time`](crate::Launch::gpu_time).

/// Timestamp queries around one compute pass (a launch, or a whole batch).
pub(crate) struct Timer {
    queries: wgpu::QuerySet,
    resolved: wgpu::Buffer,
    /// Where the two timestamps are read back from.
    pub(super) readback: wgpu::Buffer,
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
        }
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
