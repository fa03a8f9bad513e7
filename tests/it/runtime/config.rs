//! A device made with a `Config` uses its settings, on the CPU backend and on a GPU, whatever
//! the environment says (the parsing of each variable is tested in `sarek-rt`'s `config.rs`).

use crate::common;
use crate::common::{cpu_only, gpu_only};

use sarek::prelude::*;
use sarek::{Config, CpuEngine, DeviceChoice, Error, GpuOptions};

#[sarek::kernel(workgroup_size = [64])]
fn gather_config(idx: &[u32], src: &[f32], out: &mut [f32]) {
    let i = global_thread_id();
    if i < out.len() {
        out[i] = src[idx[i] as usize];
    }
}

/// A GPU device made with `config`, where the test machine has one (see `common`).
fn gpu_with(config: Config) -> Option<Device> {
    common::gpu_device()?;
    Some(Device::gpu_with(GpuOptions::new().config(config)).unwrap())
}

#[cpu_only]
fn a_cpu_device_takes_its_settings_from_the_config() {
    let config = Config::default()
        .cpu_threads(1)
        .checks(true)
        .step_limit(Some(12_345))
        .cpu_subgroup_size(8)
        .cpu_engine(Some(CpuEngine::Interpreter));
    let dev = Device::cpu_with(config);
    assert_eq!(dev.name(), "Sarek CPU backend (1 threads)");
    assert_eq!(dev.step_limit(), Some(12_345));
    // An invalid size changes nothing, so this reads the size in force.
    assert_eq!(dev.set_subgroup_size(3), 8);
    assert_eq!(
        dev.cpu_engine(gather_config::SOURCE).unwrap(),
        Some(CpuEngine::Interpreter)
    );
    // Checks are on from the start: the out-of-bounds read is a fault, not a clamped read.
    let run = |dev: &Device| {
        let mut out = dev.zeros::<f32>(2).unwrap();
        gather_config.launch(dev, Grid::cover(2), &idx_on(dev), &src_on(dev), &mut out)
    };
    let err = run(&dev).unwrap_err();
    assert!(matches!(err, Error::KernelFault { .. }), "{err:?}");
    // The defaults, for contrast.
    let plain = Device::cpu_with(Config::default().cpu_threads(2));
    assert_eq!(plain.name(), "Sarek CPU backend (2 threads)");
    assert_eq!(plain.step_limit(), Some(Device::DEFAULT_STEP_LIMIT));
    assert!(run(&plain).is_ok());
}

/// Indices into a source of four, the second out of bounds.
fn idx_on(dev: &Device) -> Buffer<u32> {
    dev.upload(&[0u32, 1000]).unwrap()
}

/// A source of four elements.
fn src_on(dev: &Device) -> Buffer<f32> {
    dev.upload(&[1.0f32; 4]).unwrap()
}

#[cpu_only]
fn with_config_and_all_with_follow_the_device_choice() {
    let config = Config::default().device(DeviceChoice::Cpu).cpu_threads(1);
    let dev = Device::with_config(config.clone()).unwrap();
    assert!(dev.is_cpu());
    assert_eq!(dev.name(), "Sarek CPU backend (1 threads)");
    let all = Device::all_with(config).unwrap();
    assert_eq!(all.len(), 1);
    assert_eq!(all[0].name(), "Sarek CPU backend (1 threads)");
}

#[cpu_only]
fn the_dump_directory_of_the_config_receives_the_kernels() {
    let dir = std::env::temp_dir().join(format!("sarek-config-dump-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let config = Config::default().dump_wgsl(Some(&dir));
    let mut devices = vec![Device::cpu_with(config.clone())];
    devices.extend(gpu_with(config));
    for dev in devices {
        let idx = idx_on(&dev);
        let src = src_on(&dev);
        let mut out = dev.zeros::<f32>(1).unwrap();
        gather_config
            .launch(&dev, Grid::cover(1), &idx, &src, &mut out)
            .unwrap()
            .wait()
            .unwrap();
        let file = dir.join("gather_config.wgsl");
        let wgsl = std::fs::read_to_string(&file)
            .unwrap_or_else(|e| panic!("{} not written on {}: {e}", file.display(), dev.name()));
        assert!(wgsl.contains(gather_config::WGSL), "{}", dev.name());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[gpu_only]
fn a_gpu_device_takes_its_settings_from_the_config() {
    let dir = std::env::temp_dir().join(format!("sarek-config-cache-{}", std::process::id()));
    let Some(off) = gpu_with(
        Config::default()
            .pipeline_cache_dir(None)
            .tiered(false)
            .unclamped(false),
    ) else {
        return;
    };
    assert_eq!(off.pipeline_cache_file(), None);
    assert!(!off.set_tiered(true), "tiered compilation was off");
    assert!(!off.drops_proven_clamps());
    let on = gpu_with(Config::default().pipeline_cache_dir(Some(&dir))).unwrap();
    assert!(on.set_tiered(true), "tiered compilation is on by default");
    // wgpu keeps a pipeline cache on Vulkan only.
    if on.backend() == Some(sarek::wgpu::Backend::Vulkan) {
        let file = on.pipeline_cache_file().expect("a cache file");
        assert!(file.starts_with(&dir), "{}", file.display());
    }
    drop(on);
    let _ = std::fs::remove_dir_all(&dir);
}

#[sarek::kernel(workgroup_size = [64])]
fn subgroup_count(out: &mut [u32]) {
    let t = global_thread_id();
    let n = subgroup_add(1u32);
    if t < out.len() {
        out[t] = n;
    }
}

/// `Config::backends` (`SAREK_BACKEND`) chooses the wgpu backend: a backend the host lacks is
/// `Error::NoAdapter` naming it; wgpu's GL backend, where OpenGL ES 3.1 is there (required
/// under `SAREK_BACKEND=gl`, as in CI), runs kernels and refuses one with subgroups, which GL
/// lacks, with `MissingFeature`.
#[gpu_only]
fn the_config_chooses_the_wgpu_backend() {
    if common::gpu_device().is_none() {
        return;
    }
    let with = |backends| {
        Device::gpu_with(GpuOptions::new().config(Config::from_env().backends(backends)))
    };
    // No Linux host has Metal.
    #[cfg(target_os = "linux")]
    match with(sarek::wgpu::Backends::METAL) {
        Err(e @ Error::NoAdapter(_)) => {
            let text = e.to_string();
            assert!(
                text.contains("SAREK_BACKEND") && text.contains("metal"),
                "{text}"
            );
        }
        other => panic!("expected NoAdapter, got {:?}", other.map(|d| d.name())),
    }
    // GL checks no buffer index: chosen in code, it needs the `unsafe` opt-in.
    if std::env::var("SAREK_BACKEND").as_deref() != Ok("gl") {
        let refused = Device::gpu_with(
            GpuOptions::new().config(Config::default().backends(sarek::wgpu::Backends::GL)),
        );
        if let Err(e @ Error::NoAdapter(_)) = &refused {
            let text = e.to_string();
            assert!(
                text.contains("OpenGL ES 3.1") || text.contains("unchecked_gl"),
                "{text}"
            );
        } else {
            panic!(
                "a GL device without the opt-in: {:?}",
                refused.map(|d| d.name())
            );
        }
    }
    let with = |backends| {
        // SAFETY: the kernels below index only within their buffers.
        let config = unsafe { Config::from_env().backends(backends).unchecked_gl() };
        Device::gpu_with(GpuOptions::new().config(config))
    };
    let dev = match with(sarek::wgpu::Backends::GL) {
        Ok(dev) => dev,
        Err(e @ Error::NoAdapter(_)) if std::env::var("SAREK_BACKEND").as_deref() != Ok("gl") => {
            assert!(e.to_string().contains("OpenGL ES 3.1"), "{e}");
            eprintln!("no GL adapter on this host: {e}");
            return;
        }
        Err(e) => panic!("SAREK_BACKEND=gl but no GL device: {e}"),
    };
    assert_eq!(dev.backend(), Some(sarek::wgpu::Backend::Gl));
    let idx = dev.upload(&[2u32, 0, 1]).unwrap();
    let src = dev.upload(&[10.0f32, 20.0, 30.0]).unwrap();
    let mut out = dev.zeros::<f32>(3).unwrap();
    gather_config
        .launch(&dev, Grid::cover(3), &idx, &src, &mut out)
        .unwrap();
    assert_eq!(out.read().unwrap(), [30.0, 10.0, 20.0]);
    let mut counts = dev.zeros::<u32>(64).unwrap();
    let launched = subgroup_count.launch(&dev, Grid::cover(64), &mut counts);
    if dev.features().contains(sarek::wgpu::Features::SUBGROUP) {
        launched.unwrap();
    } else {
        match launched {
            Err(Error::MissingFeature {
                feature: sarek::abi::Feature::Subgroup,
                ..
            }) => {}
            other => panic!("expected MissingFeature(Subgroup), got {other:?}"),
        }
    }
}
