//! Raw wgpu plumbing for the hand-written twins, and GPU timing for both sides.

use std::time::{Duration, Instant};

use sarek::wgpu;
use wgpu::util::DeviceExt;

/// The device shared by both sides.
pub struct Ctx {
    pub dev: sarek::Device,
    pub timestamps: bool,
}

impl Ctx {
    pub fn device(&self) -> &wgpu::Device {
        self.dev.wgpu_device()
    }
    pub fn queue(&self) -> &wgpu::Queue {
        self.dev.wgpu_queue()
    }

    pub fn pipeline(&self, wgsl: &str) -> wgpu::ComputePipeline {
        self.pipeline_at(wgsl, "main")
    }

    pub fn pipeline_at(&self, wgsl: &str, entry: &str) -> wgpu::ComputePipeline {
        let module = self
            .device()
            .create_shader_module(wgpu::ShaderModuleDescriptor {
                label: None,
                source: wgpu::ShaderSource::Wgsl(wgsl.into()),
            });
        self.device()
            .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: None,
                layout: None,
                module: &module,
                entry_point: Some(entry),
                compilation_options: Default::default(),
                cache: None,
            })
    }

    pub fn bind(
        &self,
        pipeline: &wgpu::ComputePipeline,
        buffers: &[&wgpu::Buffer],
    ) -> wgpu::BindGroup {
        let entries: Vec<wgpu::BindGroupEntry> = buffers
            .iter()
            .enumerate()
            .map(|(i, b)| wgpu::BindGroupEntry {
                binding: i as u32,
                resource: b.as_entire_binding(),
            })
            .collect();
        self.device().create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &pipeline.get_bind_group_layout(0),
            entries: &entries,
        })
    }

    pub fn uniform(&self, bytes: &[u8]) -> wgpu::Buffer {
        let mut padded = bytes.to_vec();
        padded.resize(bytes.len().next_multiple_of(16), 0);
        self.device()
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: None,
                contents: &padded,
                usage: wgpu::BufferUsages::UNIFORM,
            })
    }

    /// A 1-D dispatch of `groups` workgroups, folded into x·y past the per-dimension limit (the
    /// twins compute `gid.x + gid.y * num_workgroups.x * 256`).
    pub fn dispatch_1d(&self, groups: u32) -> [u32; 3] {
        let limit = self.device().limits().max_compute_workgroups_per_dimension;
        if groups <= limit {
            [groups, 1, 1]
        } else {
            let rows = groups.div_ceil(limit);
            [groups.div_ceil(rows), rows, 1]
        }
    }

    fn wait(&self) {
        let _ = self.device().poll(wgpu::PollType::wait_indefinitely());
    }

    /// GPU time of the passes, recorded into one submission, each with its own timestamps.
    pub fn time_passes(
        &self,
        passes: &[(&wgpu::ComputePipeline, &wgpu::BindGroup, [u32; 3])],
    ) -> Duration {
        let device = self.device();
        let mut encoder = device.create_command_encoder(&Default::default());
        if !self.timestamps {
            for (p, bg, d) in passes {
                let mut pass = encoder.begin_compute_pass(&Default::default());
                pass.set_pipeline(p);
                pass.set_bind_group(0, *bg, &[]);
                pass.dispatch_workgroups(d[0], d[1], d[2]);
            }
            let start = Instant::now();
            self.queue().submit([encoder.finish()]);
            self.wait();
            return start.elapsed();
        }
        // One pass for all dispatches (wgpu orders them with barriers), timed from its start
        // to its end, as Sarek times a batch.
        let count = 2;
        let queries = device.create_query_set(&wgpu::QuerySetDescriptor {
            label: None,
            ty: wgpu::QueryType::Timestamp,
            count,
        });
        let bytes = u64::from(count) * 8;
        let resolve = device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: bytes,
            usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let read = device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: bytes,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: None,
                timestamp_writes: Some(wgpu::ComputePassTimestampWrites {
                    query_set: &queries,
                    beginning_of_pass_write_index: Some(0),
                    end_of_pass_write_index: Some(1),
                }),
            });
            for (p, bg, d) in passes {
                pass.set_pipeline(p);
                pass.set_bind_group(0, *bg, &[]);
                pass.dispatch_workgroups(d[0], d[1], d[2]);
            }
        }
        encoder.resolve_query_set(&queries, 0..count, &resolve, 0);
        encoder.copy_buffer_to_buffer(&resolve, 0, &read, 0, bytes);
        self.queue().submit([encoder.finish()]);
        read.slice(..).map_async(wgpu::MapMode::Read, |_| {});
        self.wait();
        let ticks: Vec<u64> =
            bytemuck::pod_collect_to_vec(&read.slice(..).get_mapped_range().expect("mapped"));
        let period = f64::from(self.queue().get_timestamp_period());
        let total = ticks[1].saturating_sub(ticks[0]);
        Duration::from_nanos((total as f64 * period) as u64)
    }

    /// GPU time of Sarek launches made by `launch` (profiling on), or wall time without
    /// timestamps.
    pub fn time_sarek(&self, mut launch: impl FnMut() -> Vec<sarek::Launch>) -> Duration {
        if !self.timestamps {
            let start = Instant::now();
            let launches = launch();
            for l in &launches {
                l.wait().expect("launch");
            }
            return start.elapsed();
        }
        launch()
            .iter()
            .map(|l| l.gpu_time().expect("timing").unwrap_or_default())
            .sum()
    }
}

/// The median of `runs` timings after `warmup` untimed ones.
pub fn median(warmup: usize, runs: usize, mut once: impl FnMut() -> Duration) -> Duration {
    for _ in 0..warmup {
        once();
    }
    let mut samples: Vec<Duration> = (0..runs).map(|_| once()).collect();
    samples.sort();
    samples[samples.len() / 2]
}

/// A raw buffer with contents.
pub fn storage(ctx: &Ctx, bytes: &[u8]) -> wgpu::Buffer {
    ctx.device()
        .create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: None,
            contents: bytes,
            usage: wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::COPY_SRC
                | wgpu::BufferUsages::COPY_DST,
        })
}

/// Reads a raw buffer back.
pub fn read<T: bytemuck::Pod>(ctx: &Ctx, buffer: &wgpu::Buffer) -> Vec<T> {
    let size = buffer.size();
    let staging = ctx.device().create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut encoder = ctx.device().create_command_encoder(&Default::default());
    encoder.copy_buffer_to_buffer(buffer, 0, &staging, 0, size);
    ctx.queue().submit([encoder.finish()]);
    staging.slice(..).map_async(wgpu::MapMode::Read, |_| {});
    ctx.wait();
    let data = bytemuck::pod_collect_to_vec(&staging.slice(..).get_mapped_range().expect("mapped"));
    data
}
