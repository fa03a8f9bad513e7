//! Pipelines: one per kernel, entry point and device, made on first use and cached by the
//! address of the kernel's `static KernelSource`.

use std::sync::Arc;

use sarek_codegen::abi::{Access, COARSE_ENTRY_POINT, FOLDED_ENTRY_POINT};

use super::bind::Repeats;
use crate::arg::KernelSource;
use crate::device::Device;
use crate::error::{Error, Result};

/// Which entry point of a kernel's module a launch uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Entry {
    /// `sarek_main`
    Direct,
    /// `sarek_main_folded`, for a 1-D grid over the per-dimension limit
    Folded,
    /// `sarek_main_coarse`, for large 1-D grids of element-wise kernels
    Coarse,
}

/// A kernel's compute pipeline and bind group layout on one device, with the bind groups of
/// the argument sets `launch` has seen more than once.
pub(crate) struct Pipeline {
    pub(crate) pipeline: wgpu::ComputePipeline,
    pub(crate) layout: wgpu::BindGroupLayout,
    pub(super) repeats: Repeats,
}

impl Pipeline {
    /// Drops cached bind groups that hold buffer `id`, so the buffer can be freed.
    pub(crate) fn forget(&self, id: u64) {
        self.repeats.forget(id);
    }
}

/// `SAREK_COARSEN=0` turns coarsening off (to measure it, or to rule it out).
pub(super) fn coarsening_enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("SAREK_COARSEN").as_deref() != Ok("0"))
}

impl Device {
    /// The pipeline of `source`'s `entry` on this device, made once.
    pub(super) fn pipeline(
        &self,
        source: &'static KernelSource,
        entry: Entry,
    ) -> Result<Arc<Pipeline>> {
        let key = (std::ptr::from_ref(source) as usize, entry as u8);
        let mut cache = crate::sync::lock(&self.inner().pipelines);
        if let Some(p) = cache.get(&key) {
            return Ok(p.clone());
        }
        self.check_lost()?;
        let started = std::time::Instant::now();
        let device = &self.inner().device;
        let abi = &source.abi;
        let mut entries: Vec<wgpu::BindGroupLayoutEntry> = abi
            .buffers
            .iter()
            .map(|b| wgpu::BindGroupLayoutEntry {
                binding: b.binding,
                visibility: wgpu::ShaderStages::COMPUTE,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Storage {
                        read_only: b.access == Access::Read,
                    },
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            })
            .collect();
        entries.push(wgpu::BindGroupLayoutEntry {
            binding: abi.uniform.binding,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Uniform,
                // Not a dynamic offset: measured on an H200, a uniform block bound at a dynamic
                // offset made a Mandelbrot kernel 5% slower (its loop reads the block).
                has_dynamic_offset: false,
                min_binding_size: std::num::NonZeroU64::new(u64::from(abi.uniform.size)),
            },
            count: None,
        });
        let disk = self.disk_cache();
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some(&abi.kernel),
            entries: &entries,
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some(&abi.kernel),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(&abi.kernel),
            source: wgpu::ShaderSource::Wgsl(source.wgsl.into()),
        });
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(&abi.kernel),
            layout: Some(&pipeline_layout),
            module: &module,
            entry_point: Some(match entry {
                Entry::Direct => &abi.entry_point,
                Entry::Folded => FOLDED_ENTRY_POINT,
                Entry::Coarse => COARSE_ENTRY_POINT,
            }),
            compilation_options: Default::default(),
            cache: disk.as_deref().map(crate::disk_cache::DiskCache::cache),
        });
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(Error::Pipeline {
                kernel: abi.kernel.to_string(),
                message: e.to_string(),
            });
        }
        log::info!(
            "sarek: created the pipeline of `{}` in {:?}",
            abi.kernel,
            started.elapsed()
        );
        if let Some(disk) = disk {
            disk.save();
        }
        dump(source);
        let p = Arc::new(Pipeline {
            pipeline,
            layout,
            repeats: Repeats::default(),
        });
        cache.insert(key, p.clone());
        Ok(p)
    }
}

/// `SAREK_DUMP_WGSL=<dir>`: writes the kernel's WGSL and ABI there when its pipeline is made
/// (or, on the CPU backend, when its IR is read).
pub(crate) fn dump(source: &KernelSource) {
    let Some(dir) = std::env::var_os("SAREK_DUMP_WGSL") else {
        return;
    };
    let dir = std::path::PathBuf::from(dir);
    let name = &source.abi.kernel;
    let wgsl = format!(
        "// Sarek kernel `{name}`, from {}\n{}",
        source.location, source.wgsl
    );
    let abi = source.abi.to_json();
    let written = std::fs::create_dir_all(&dir)
        .and_then(|()| std::fs::write(dir.join(format!("{name}.wgsl")), wgsl))
        .and_then(|()| std::fs::write(dir.join(format!("{name}.abi.json")), abi))
        .and_then(|()| match source.ir {
            "" => Ok(()),
            ir => std::fs::write(dir.join(format!("{name}.ir.json")), ir),
        });
    if let Err(e) = written {
        log::warn!("sarek: could not dump `{name}` to {}: {e}", dir.display());
    }
}
