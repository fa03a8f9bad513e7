//! Preparing kernels: their pipelines made ahead of their first launches, all at once.
//!
//! Why: a launch sequence of several kernels (the library scan's three passes) made their
//! pipelines one after another, each at its kernel's first launch; on an H200 the scan's
//! first submission spent 31.4 + 46.9 + 72.0 ms so. Vulkan pipeline creation is thread-safe,
//! and a pipeline created on another thread measured no effect on the calling one
//! (BENCHMARKS.md, "Tiered compilation"), so [`Device::prepare`] makes each kernel's pipeline
//! on its own thread and the wait is that of the slowest one.

use crate::arg::KernelSource;
use crate::device::Device;
use crate::error::Result;
use crate::launch::Entry;

impl Device {
    /// Makes the pipelines of `kernels` now ([`Device::prepare`] on a GPU).
    pub(crate) fn prepare_gpu(&self, kernels: &[&'static KernelSource]) -> Result<()> {
        self.check_lost()?;
        for k in kernels {
            self.check_kernel(&k.abi)?;
        }
        let mut todo: Vec<&'static KernelSource> = Vec::new();
        for &k in kernels {
            // A kernel with workgroup arrays sized at launch is made at its first launch of
            // each length: none is known here.
            if !k.abi.launch_sized.is_empty() {
                continue;
            }
            if !todo.iter().any(|&t| std::ptr::eq(t, k)) {
                todo.push(k);
            }
        }
        let Some((&first, rest)) = todo.split_first() else {
            return Ok(());
        };
        let make = |k: &'static KernelSource| {
            self.pipeline_for(k, Entry::Direct, &[], false, true)
                .map(drop)
        };
        std::thread::scope(|s| {
            let threads: Vec<_> = rest
                .iter()
                .map(|&k| {
                    let spawned = std::thread::Builder::new()
                        .name(format!("sarek prepare {}", k.abi.kernel))
                        .spawn_scoped(s, move || make(k));
                    // No thread: made on this one after the others started.
                    spawned.map_err(|e| {
                        log::warn!("sarek: no thread to prepare `{}`: {e}", k.abi.kernel);
                        k
                    })
                })
                .collect();
            let mut result = make(first);
            for t in threads {
                let made = match t {
                    Ok(t) => t.join().unwrap_or_else(|p| std::panic::resume_unwind(p)),
                    Err(k) => make(k),
                };
                result = result.and(made);
            }
            result
        })
    }
}
