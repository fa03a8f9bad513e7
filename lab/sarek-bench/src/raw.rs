//! Raw wgpu plumbing for the hand-written twins: pipelines, bind groups, buffers and
//! dispatch sizes on the device that Sarek's side uses too. Timing lives in `measure/`.

use sarek::wgpu;
use wgpu::util::DeviceExt;

/// One dispatch of a hand-written twin: its pipeline, its bind group (group 0) and the
/// workgroup counts.
pub type Pass<'a> = (&'a wgpu::ComputePipeline, &'a wgpu::BindGroup, [u32; 3]);

/// The device shared by both sides.
pub struct Ctx {
    /// Sarek's device; the twins use its wgpu device and queue.
    pub dev: sarek::Device,
    /// Whether the adapter has timestamp queries (GPU timing); wall time otherwise.
    pub timestamps: bool,
}

impl Ctx {
    /// The wgpu device under Sarek's.
    pub fn device(&self) -> &wgpu::Device {
        self.dev.wgpu_device()
    }

    /// The wgpu queue under Sarek's.
    pub fn queue(&self) -> &wgpu::Queue {
        self.dev.wgpu_queue()
    }

    /// A compute pipeline for a twin whose entry point is `main`.
    pub fn pipeline(&self, wgsl: &str) -> wgpu::ComputePipeline {
        self.pipeline_at(wgsl, "main")
    }

    /// A compute pipeline for `entry` in `wgsl`, its layout derived from the shader.
    pub fn pipeline_at(&self, wgsl: &str, entry: &str) -> wgpu::ComputePipeline {
        let module = module_with_checks(self.device(), wgsl);
        self.device()
            .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: None,
                layout: None,
                module: &module,
                entry_point: Some(entry),
                compilation_options: compilation_options(),
                cache: None,
            })
    }

    /// A bind group for group 0 of `pipeline`: `buffers` at bindings 0, 1, ...
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

    /// A uniform buffer with `bytes`, padded to a multiple of 16 bytes.
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

    /// Blocks until the queue's work is done.
    pub fn wait(&self) {
        let _ = self.device().poll(wgpu::PollType::wait_indefinitely());
    }
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

/// A shader module of `wgsl`, with the runtime checks `SAREK_EXP_CHECKS` names (an
/// experiment: `all`, the default, is wgpu's safe `create_shader_module`; `noloop` drops
/// naga's loop bounding, `nobounds` its index clamps, `none` both).
pub fn module_with_checks(device: &wgpu::Device, wgsl: &str) -> wgpu::ShaderModule {
    let desc = wgpu::ShaderModuleDescriptor {
        label: None,
        source: wgpu::ShaderSource::Wgsl(wgsl.into()),
    };
    let mut checks = wgpu::ShaderRuntimeChecks::checked();
    match std::env::var("SAREK_EXP_CHECKS").as_deref() {
        Ok("noloop") => checks.force_loop_bounding = false,
        Ok("nobounds") => checks.bounds_checks = false,
        Ok("none") => {
            checks.force_loop_bounding = false;
            checks.bounds_checks = false;
        }
        _ => return device.create_shader_module(desc),
    }
    // SAFETY: an experiment on kernels whose loops all end and whose indices stay in bounds
    // (the suite's twins and Sarek's texts of its own kernels, checked against the host).
    unsafe { device.create_shader_module_trusted(desc, checks) }
}

/// The pipeline options `SAREK_EXP_ZERO=0` asks for: workgroup memory not zeroed (an
/// experiment on its cost); wgpu's defaults otherwise.
pub fn compilation_options() -> wgpu::PipelineCompilationOptions<'static> {
    wgpu::PipelineCompilationOptions {
        zero_initialize_workgroup_memory: std::env::var("SAREK_EXP_ZERO").as_deref() != Ok("0"),
        ..Default::default()
    }
}
