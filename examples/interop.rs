//! Sarek inside an existing wgpu application: the application owns the device, a buffer and
//! its own compute pass; Sarek runs a kernel on the same device and buffer, recorded into the
//! application's command encoder. See docs/wgpu-interop.md.
//!
//! Run it with `cargo run --release --example interop`.

use sarek::prelude::*;
use sarek::wgpu;

/// Sarek's part: scale every element.
#[sarek::kernel]
pub fn scale(factor: f32, v: &mut [f32]) {
    let i = global_thread_id();
    if i < v.len() {
        v[i] *= factor;
    }
}

/// The application's own pass, in hand-written WGSL: add 1 to every element.
pub const ADD_ONE: &str = "
@group(0) @binding(0) var<storage, read_write> data: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x < arrayLength(&data) {
        data[id.x] = data[id.x] + 1.0;
    }
}
";

fn main() -> sarek::Result<()> {
    // 1. The application's own wgpu set-up.
    let instance =
        wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    let adapter =
        pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions::default()))
            .map_err(|e| sarek::Error::NoAdapter(format!(": {e}")))?;
    let (device, queue) =
        pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor::default()))
            .map_err(sarek::Error::RequestDevice)?;
    println!("adapter: {}", adapter.get_info().name);

    let n = 1000usize;
    let data = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("application data"),
        size: (n * 4) as u64,
        usage: wgpu::BufferUsages::STORAGE
            | wgpu::BufferUsages::COPY_SRC
            | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let input: Vec<f32> = (0..n).map(|i| i as f32).collect();
    queue.write_buffer(&data, 0, bytemuck::cast_slice(&input));

    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("add one"),
        source: wgpu::ShaderSource::Wgsl(ADD_ONE.into()),
    });
    let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some("add one"),
        layout: None,
        module: &module,
        entry_point: Some("main"),
        compilation_options: Default::default(),
        cache: None,
    });
    let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("add one"),
        layout: &pipeline.get_bind_group_layout(0),
        entries: &[wgpu::BindGroupEntry {
            binding: 0,
            resource: data.as_entire_binding(),
        }],
    });

    // 2. Hand Sarek the same device and the same buffer.
    let dev = Device::from_wgpu(device.clone(), queue.clone());
    let mut shared = sarek::Buffer::<f32>::from_wgpu(&dev, data.clone(), 0, n)?;

    // 3. One encoder: the application's pass, then Sarek's kernel, then the application's
    //    pass again, in that order.
    let mut encoder = device.create_command_encoder(&Default::default());
    let add_one = |encoder: &mut wgpu::CommandEncoder| {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &bind_group, &[]);
        pass.dispatch_workgroups(n.div_ceil(64) as u32, 1, 1);
    };
    add_one(&mut encoder);
    scale.record(&dev, &mut encoder, Grid::cover(n), 10.0, &mut shared)?;
    add_one(&mut encoder);
    queue.submit([encoder.finish()]);

    // 4. Read the result through Sarek (or through the application's own staging buffer).
    let out = shared.read()?;
    let wrong = (0..n)
        .filter(|&i| out[i] != (i as f32 + 1.0) * 10.0 + 1.0)
        .count();
    println!("(x + 1) · 10 + 1 over {n} elements: {} wrong", wrong);
    if wrong != 0 {
        std::process::exit(1);
    }
    Ok(())
}
