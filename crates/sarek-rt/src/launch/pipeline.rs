//! Pipelines: one per kernel, entry point and device, made on first use and cached by the
//! address of the kernel's `static KernelSource`.

use std::sync::Arc;

use sarek_codegen::abi::{Access, COARSE_ENTRY_POINT, FOLDED_ENTRY_POINT, VEC4_ENTRY_POINT};

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
    /// `sarek_main_vec4`, instead of the coarsened one when the buffers allow 16-byte access
    Vec4,
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

/// `SAREK_VEC4=0` keeps element-wise kernels on the coarsened scalar entry point (to measure
/// the vectorised one, or to rule it out).
pub(super) fn vectorising_enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("SAREK_VEC4").as_deref() != Ok("0"))
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
        let entry_point: &str = match entry {
            Entry::Direct => &abi.entry_point,
            Entry::Folded => FOLDED_ENTRY_POINT,
            Entry::Coarse => COARSE_ENTRY_POINT,
            Entry::Vec4 => VEC4_ENTRY_POINT,
        };
        let layouts = started.elapsed();
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(&abi.kernel),
            source: wgpu::ShaderSource::Wgsl(only_entry_point(source.wgsl, entry_point)),
        });
        let moduled = started.elapsed();
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(&abi.kernel),
            layout: Some(&pipeline_layout),
            module: &module,
            entry_point: Some(entry_point),
            compilation_options: Default::default(),
            cache: disk.as_deref().map(crate::disk_cache::DiskCache::cache),
        });
        let compiled = started.elapsed();
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(Error::Pipeline {
                kernel: abi.kernel.to_string(),
                message: e.to_string(),
            });
        }
        if let Some(disk) = disk {
            disk.save();
        }
        log::info!(
            "sarek: created the pipeline of `{}` ({entry_point}) in {:?}: layouts {:?}, shader module {:?}, pipeline {:?}, cache save {:?}",
            abi.kernel,
            started.elapsed(),
            layouts,
            moduled - layouts,
            compiled - moduled,
            started.elapsed() - compiled,
        );
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

/// The text of `wgsl` without the entry points other than `entry_point`, so that wgpu parses
/// and validates (and the driver sees) only the code of the entry point being launched: the
/// direct and the folded entry point each hold a copy of the kernel's body, and the coarsened
/// one four, so a module with all of them costs naga two to six times the work of one. Relies
/// on the writer's layout (an entry point is a line `@compute ...`, a line `fn name(`, and
/// ends at a line `}`); where the text does not look like that, it is returned whole.
pub(crate) fn only_entry_point<'a>(wgsl: &'a str, entry_point: &str) -> std::borrow::Cow<'a, str> {
    let mut lines = wgsl.split_inclusive('\n').peekable();
    let mut out = String::with_capacity(wgsl.len());
    let mut found = false;
    while let Some(line) = lines.next() {
        if !line.starts_with("@compute") {
            out.push_str(line);
            continue;
        }
        let Some(name) = lines
            .peek()
            .and_then(|next| next.strip_prefix("fn "))
            .and_then(|rest| rest.split('(').next())
        else {
            return wgsl.into();
        };
        if name.trim() == entry_point {
            found = true;
            out.push_str(line);
            continue;
        }
        // Skip the whole function, up to its closing line.
        let mut closed = false;
        for skipped in lines.by_ref() {
            if skipped.trim_end() == "}" {
                closed = true;
                break;
            }
        }
        if !closed {
            return wgsl.into();
        }
    }
    if found {
        out.into()
    } else {
        wgsl.into()
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

#[cfg(test)]
mod tests {
    use super::only_entry_point;

    /// Laid out as the WGSL writer lays out a module: a helper, then three entry points.
    const MODULE: &str = "struct P {\n    n: u32,\n}\n\nfn helper(a: f32) -> f32 {\n    if a > 0.0 {\n        return a;\n    }\n    return -a;\n}\n\n@compute @workgroup_size(64, 1, 1)\nfn sarek_main(\n    @builtin(global_invocation_id) g: vec3<u32>,\n) {\n    if g.x > 1u {\n        return;\n    }\n}\n\n@compute @workgroup_size(64, 1, 1)\nfn sarek_main_folded(\n    @builtin(workgroup_id) w: vec3<u32>,\n) {\n    let a = helper(1.0);\n}\n\n@compute @workgroup_size(64, 1, 1)\nfn sarek_main_coarse(\n    @builtin(workgroup_id) w: vec3<u32>,\n) {\n    {\n        let b = 2u;\n    }\n}\n";

    #[test]
    fn keeps_only_the_entry_point_launched() {
        for (name, body) in [
            ("sarek_main", "if g.x > 1u"),
            ("sarek_main_folded", "let a = helper(1.0);"),
            ("sarek_main_coarse", "let b = 2u;"),
        ] {
            let text = only_entry_point(MODULE, name);
            assert_eq!(text.matches("@compute").count(), 1, "{text}");
            assert!(text.contains(&format!("fn {name}(")), "{text}");
            assert!(text.contains(body), "{text}");
            // Everything that is not an entry point stays, in order.
            assert!(text.starts_with("struct P {\n    n: u32,\n}\n\nfn helper(a: f32)"));
            assert!(text.contains("    return -a;\n}\n"));
        }
        let direct = only_entry_point(MODULE, "sarek_main");
        assert!(
            direct.trim_end().ends_with("        return;\n    }\n}"),
            "{direct}"
        );
    }

    #[test]
    fn leaves_text_it_does_not_recognise_whole() {
        assert_eq!(only_entry_point(MODULE, "missing"), MODULE);
        let odd = "@compute @workgroup_size(1)\n@other\nfn sarek_main() {\n}\n";
        assert_eq!(only_entry_point(odd, "sarek_main"), odd);
        let unclosed = "@compute @workgroup_size(1)\nfn a() {\n@compute @workgroup_size(1)\nfn sarek_main() {\n}\n";
        assert_eq!(only_entry_point(unclosed, "sarek_main"), unclosed);
    }
}
