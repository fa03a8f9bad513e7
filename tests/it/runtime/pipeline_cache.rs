//! Compiled pipelines kept across processes: a device writes its cache file after a first
//! launch, a second device with the same directory starts from it, a corrupt file is ignored
//! (and replaced), and a device with the cache off writes nothing. The directory is set per
//! device (`Device::set_pipeline_cache_dir`, which `SAREK_CACHE_DIR` and `SAREK_CACHE=0` map
//! to), so these tests touch no environment variable that other tests read.

use std::path::PathBuf;

use crate::common;
use crate::common::{cpu_only, gpu_only};

use sarek::prelude::*;

#[sarek::kernel]
fn cache_probe(k: u32, out: &mut [u32]) {
    let i = global_thread_id();
    if i < out.len() {
        out[i] = (i as u32) * k + 1;
    }
}

#[sarek::kernel]
fn cache_probe_other(out: &mut [u32]) {
    let i = global_thread_id();
    if i < out.len() {
        out[i] = 7;
    }
}

/// A fresh directory of this test.
fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "sarek-pipeline-cache-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// A GPU device keeping its pipelines in `dir`, with the file it uses; `None` (the test is
/// skipped, said on stderr) where the adapter keeps no pipeline cache.
fn cached_device(dir: &std::path::Path) -> Option<(Device, PathBuf)> {
    let dev = common::gpu_device()?;
    match dev.set_pipeline_cache_dir(Some(dir)) {
        Some(file) => Some((dev, file)),
        None => {
            // Vulkan adapters (lavapipe included) have `PIPELINE_CACHE`; others may not.
            assert_ne!(
                dev.backend(),
                Some(sarek::wgpu::Backend::Vulkan),
                "a Vulkan device without a pipeline cache"
            );
            eprintln!("skipping: {} keeps no pipeline cache", dev.name());
            None
        }
    }
}

fn probe(dev: &Device) -> Vec<u32> {
    let mut out = dev.zeros::<u32>(5).unwrap();
    cache_probe
        .launch(dev, Grid::cover(5), 3, &mut out)
        .unwrap();
    out.read().unwrap()
}

#[gpu_only]
fn a_first_launch_writes_the_cache_and_a_second_device_reuses_it() {
    let dir = fresh_dir("reuse");
    let Some((first, file)) = cached_device(&dir) else {
        return;
    };
    assert!(file.starts_with(&dir));
    assert!(!first.pipeline_cache_reused());
    assert!(
        !file.exists(),
        "nothing is written before a pipeline is made"
    );
    assert_eq!(probe(&first), [1, 4, 7, 10, 13]);
    let written = std::fs::metadata(&file).expect("the cache file").len();
    assert!(written > 0);
    // No temporary file is left behind.
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    // The pipelines' file and the launched entry point's parsed module (`naga-*.bin`).
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(
        names.iter().all(|n| !n.to_string_lossy().ends_with(".tmp")),
        "{names:?}"
    );

    let (second, same) = cached_device(&dir).unwrap();
    assert_eq!(same, file);
    assert!(second.pipeline_cache_reused());
    assert_eq!(probe(&second), [1, 4, 7, 10, 13]);
    // Another kernel adds to the file.
    let mut out = second.zeros::<u32>(2).unwrap();
    cache_probe_other
        .launch(&second, Grid::cover(2), &mut out)
        .unwrap();
    assert_eq!(out.read().unwrap(), [7, 7]);
    assert_eq!(first.pipeline_cache_file(), Some(file));
    let _ = std::fs::remove_dir_all(&dir);
}

#[gpu_only]
fn a_corrupt_or_foreign_cache_file_is_ignored_and_replaced() {
    let dir = fresh_dir("corrupt");
    let Some((_, file)) = cached_device(&dir) else {
        return;
    };
    std::fs::create_dir_all(&dir).unwrap();
    for garbage in [&b"not a cache at all"[..], b"", b"SAREKPC1\xff\xff\xff\xff"] {
        std::fs::write(&file, garbage).unwrap();
        let (dev, _) = cached_device(&dir).unwrap();
        assert!(!dev.pipeline_cache_reused());
        assert_eq!(probe(&dev), [1, 4, 7, 10, 13]);
        // The launch replaced the file with a valid one, which opening it again reuses (on
        // the same device: these tests keep the number of devices, and so memory, down).
        assert_ne!(std::fs::read(&file).unwrap(), garbage);
        assert_eq!(dev.set_pipeline_cache_dir(Some(&dir)), Some(file.clone()));
        assert!(dev.pipeline_cache_reused());
    }
    // A valid file whose data was changed afterwards (a checksum mismatch).
    let mut bytes = std::fs::read(&file).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x55;
    std::fs::write(&file, &bytes).unwrap();
    let (dev, _) = cached_device(&dir).unwrap();
    assert!(!dev.pipeline_cache_reused());
    assert_eq!(probe(&dev), [1, 4, 7, 10, 13]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[gpu_only]
fn with_the_cache_off_nothing_is_written() {
    let dir = fresh_dir("off");
    let Some((dev, _)) = cached_device(&dir) else {
        return;
    };
    assert_eq!(dev.set_pipeline_cache_dir(None), None);
    assert_eq!(dev.pipeline_cache_file(), None);
    assert!(!dev.pipeline_cache_reused());
    assert_eq!(probe(&dev), [1, 4, 7, 10, 13]);
    assert!(
        !dir.exists(),
        "the cache was off, yet {} was made",
        dir.display()
    );
}

#[cpu_only]
fn the_cpu_backend_keeps_no_pipeline_cache() {
    let cpu = Device::cpu();
    assert_eq!(cpu.set_pipeline_cache_dir(Some(&fresh_dir("cpu"))), None);
    assert_eq!(cpu.pipeline_cache_file(), None);
    assert_eq!(probe(&cpu), [1, 4, 7, 10, 13]);
}

/// The parsed-module files (`naga-*.bin`) in `dir`.
fn module_files(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    files.retain(|f| {
        f.file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with("naga-") && n.ends_with(".bin"))
    });
    files
}

#[gpu_only]
fn a_second_device_launches_from_the_saved_module() {
    let dir = fresh_dir("modules");
    let Some((first, _)) = cached_device(&dir) else {
        return;
    };
    assert_eq!(probe(&first), [1, 4, 7, 10, 13]);
    let files = module_files(&dir);
    assert_eq!(files.len(), 1, "one entry point launched: {files:?}");
    let saved = std::fs::read(&files[0]).unwrap();
    #[cfg(unix)]
    let inode = || std::os::unix::fs::MetadataExt::ino(&std::fs::metadata(&files[0]).unwrap());
    #[cfg(unix)]
    let before = inode();
    // A fresh device (as a second process would) launches from the saved module, with the
    // same results, and leaves the file as it was.
    let (second, _) = cached_device(&dir).unwrap();
    assert_eq!(probe(&second), [1, 4, 7, 10, 13]);
    assert_eq!(module_files(&dir), files);
    assert_eq!(std::fs::read(&files[0]).unwrap(), saved);
    // Not rewritten (a save renames a new file over it): the module came from the file.
    #[cfg(unix)]
    assert_eq!(inode(), before, "the second device parsed the text again");
    let _ = std::fs::remove_dir_all(&dir);
}

#[gpu_only]
fn a_corrupt_or_foreign_module_file_is_ignored_and_replaced() {
    let dir = fresh_dir("bad-modules");
    let Some((dev, _)) = cached_device(&dir) else {
        return;
    };
    assert_eq!(probe(&dev), [1, 4, 7, 10, 13]);
    let file = module_files(&dir).pop().expect("the module file");
    let good = std::fs::read(&file).unwrap();
    let mut flipped = good.clone();
    let last = flipped.len() - 1;
    flipped[last] ^= 0x55;
    let mut foreign = good.clone();
    foreign[14] ^= 1; // in the key: another Sarek or naga version
    let garbage: [&[u8]; 5] = [
        b"not a module at all",
        b"",
        &good[..good.len() / 2],
        &flipped,
        &foreign,
    ];
    for bad in garbage {
        std::fs::write(&file, bad).unwrap();
        // A fresh device, so the kernel's pipeline is made again and reads the file.
        let (fresh, _) = cached_device(&dir).unwrap();
        assert_eq!(probe(&fresh), [1, 4, 7, 10, 13]);
        assert_eq!(std::fs::read(&file).unwrap(), good, "the file is rewritten");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
