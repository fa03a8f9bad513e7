//! The clock of both sides: GPU timestamp queries around the twins' passes and Sarek's own
//! launch timing, or wall time where the adapter has no timestamps.

use std::time::{Duration, Instant};

use sarek::wgpu;

use crate::raw::{Ctx, Pass};

impl Ctx {
    /// Time of the twin's dispatches, recorded into one submission: with timestamps, the GPU
    /// time of one compute pass holding them all; without, the wall time of the submission.
    pub fn time_passes(&self, passes: &[Pass]) -> Duration {
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
