//! `x_noopt`: how long NVIDIA's driver takes to create a compute pipeline with Vulkan's
//! `VK_PIPELINE_CREATE_DISABLE_OPTIMIZATION_BIT` against without it (the
//! f16 row's quick form costs the driver 77–140 ms in a first process). wgpu has no way to
//! pass pipeline-creation flags, so the pipeline is made through the raw Vulkan device under
//! Sarek's (`wgpu::hal`), from SPIR-V naga writes with the options wgpu-hal uses. Meant to run
//! in a fresh process per case with the driver's shader cache off:
//!
//! ```text
//! SAREK_NOOPT=q_row:1 __GL_SHADER_DISK_CACHE=0 sarek-bench --quick --runs 1 --experiments --only x_noopt
//! ```
//!
//! `SAREK_NOOPT` is `CASE:FLAG` (comma-separated for several in one process): `CASE` is
//! `q_row` (the row's quick form) or `o_row` (its optimized text), `FLAG` 1 to disable
//! optimization, 0 not to, `c` not to but through a new empty `VkPipelineCache` (as wgpu
//! passes Sarek's pipeline cache). Prints one `noopt` line per case.

use ash::vk;
use std::ffi::CString;
use std::time::Instant;

use crate::benches::{Bench, Result};

/// Runs the cases `SAREK_NOOPT` names (`q_row:1,q_row:0` when unset).
pub fn noopt(b: &Bench) -> Result<()> {
    if let Ok(dir) = std::env::var("SAREK_NOOPT_DUMP") {
        // the row's two texts, for hand-made variants (`x_coop_first`'s `file:` cases)
        let source = crate::benches::coop_q4::matmul_f16_q4p2::SOURCE;
        std::fs::write(format!("{dir}/q_row.wgsl"), source.quick())?;
        std::fs::write(format!("{dir}/o_row.wgsl"), source.wgsl())?;
    }
    let cases = std::env::var("SAREK_NOOPT").unwrap_or_else(|_| "q_row:1,q_row:0".into());
    for case in cases.split(',') {
        let (name, flag) = case.split_once(':').ok_or("SAREK_NOOPT: CASE:FLAG")?;
        let source = crate::benches::coop_q4::matmul_f16_q4p2::SOURCE;
        let text = match name {
            "q_row" => source.quick(),
            "o_row" => source.wgsl(),
            other => return Err(format!("no noopt case {other}").into()),
        };
        one(b, case, text, &source.abi().entry_point, flag)?;
    }
    Ok(())
}

/// SPIR-V of `entry` in `text`, written as wgpu-hal's Vulkan backend writes it on an H200
/// (index clamps, loop bounding, native workgroup zeroing, SPIR-V 1.6).
fn spirv(text: &str, entry: &str) -> Result<Vec<u32>> {
    use naga::back::spv;
    let module = naga::front::wgsl::parse_str(text).map_err(|e| e.emit_to_string(text))?;
    let info = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::all(),
    )
    .validate(&module)
    .map_err(|e| format!("{e:?}"))?;
    let options = spv::Options {
        lang_version: (1, 6),
        flags: spv::WriterFlags::empty(),
        bounds_check_policies: naga::proc::BoundsCheckPolicies {
            index: naga::proc::BoundsCheckPolicy::Restrict,
            buffer: naga::proc::BoundsCheckPolicy::Unchecked,
            image_load: naga::proc::BoundsCheckPolicy::Unchecked,
            binding_array: naga::proc::BoundsCheckPolicy::Unchecked,
        },
        zero_initialize_workgroup_memory: spv::ZeroInitializeWorkgroupMemoryMode::Native,
        force_loop_bounding: true,
        ..Default::default()
    };
    let pipeline = spv::PipelineOptions {
        shader_stage: naga::ShaderStage::Compute,
        entry_point: entry.into(),
    };
    Ok(spv::write_vec(&module, &info, &options, Some(&pipeline)).map_err(|e| format!("{e}"))?)
}

/// The descriptor bindings of group 0 of `text`: storage and uniform buffers.
fn bindings(text: &str) -> Result<Vec<vk::DescriptorSetLayoutBinding<'static>>> {
    let module = naga::front::wgsl::parse_str(text).map_err(|e| e.emit_to_string(text))?;
    let mut out = Vec::new();
    for (_, var) in module.global_variables.iter() {
        let Some(binding) = &var.binding else {
            continue;
        };
        let kind = match var.space {
            naga::AddressSpace::Storage { .. } => vk::DescriptorType::STORAGE_BUFFER,
            naga::AddressSpace::Uniform => vk::DescriptorType::UNIFORM_BUFFER,
            _ => continue,
        };
        out.push(
            vk::DescriptorSetLayoutBinding::default()
                .binding(binding.binding)
                .descriptor_type(kind)
                .descriptor_count(1)
                .stage_flags(vk::ShaderStageFlags::COMPUTE),
        );
    }
    Ok(out)
}

/// One pipeline creation, timed, then destroyed.
fn one(b: &Bench, case: &str, text: &str, entry: &str, flag: &str) -> Result<()> {
    let disable = flag == "1";
    let t = Instant::now();
    let words = spirv(text, entry)?;
    let naga_ms = t.elapsed().as_secs_f64() * 1e3;
    let bindings = bindings(text)?;
    // SAFETY: the hal device is used only within this function, for objects it creates and
    // destroys here; nothing of wgpu's is touched.
    let hal = unsafe { b.ctx.device().as_hal::<wgpu::hal::api::Vulkan>() }
        .ok_or("x_noopt needs a Vulkan device")?;
    let raw = hal.raw_device();
    let name = CString::new(entry)?;
    // SAFETY: plain object creation and destruction on a live device, each object destroyed
    // after its last use.
    unsafe {
        let dsl = raw.create_descriptor_set_layout(
            &vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings),
            None,
        )?;
        let layouts = [dsl];
        let layout = raw.create_pipeline_layout(
            &vk::PipelineLayoutCreateInfo::default().set_layouts(&layouts),
            None,
        )?;
        let t = Instant::now();
        let module =
            raw.create_shader_module(&vk::ShaderModuleCreateInfo::default().code(&words), None)?;
        let module_ms = t.elapsed().as_secs_f64() * 1e3;
        let flags = if disable {
            vk::PipelineCreateFlags::DISABLE_OPTIMIZATION
        } else {
            vk::PipelineCreateFlags::empty()
        };
        let stage = vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(module)
            .name(&name);
        let info = vk::ComputePipelineCreateInfo::default()
            .flags(flags)
            .stage(stage)
            .layout(layout);
        let cache = match flag {
            "c" => raw.create_pipeline_cache(&vk::PipelineCacheCreateInfo::default(), None)?,
            _ => vk::PipelineCache::null(),
        };
        let t = Instant::now();
        let pipelines = raw
            .create_compute_pipelines(cache, &[info], None)
            .map_err(|(_, e)| e)?;
        let pipeline_ms = t.elapsed().as_secs_f64() * 1e3;
        println!(
            "noopt {case} disable_optimization={disable} cache={} pipeline {pipeline_ms:.2} ms; naga {naga_ms:.2} ms, shader module {module_ms:.2} ms, {} SPIR-V words",
            flag == "c",
            words.len()
        );
        for p in pipelines {
            raw.destroy_pipeline(p, None);
        }
        raw.destroy_shader_module(module, None);
        if cache != vk::PipelineCache::null() {
            raw.destroy_pipeline_cache(cache, None);
        }
        raw.destroy_pipeline_layout(layout, None);
        raw.destroy_descriptor_set_layout(dsl, None);
    }
    Ok(())
}
