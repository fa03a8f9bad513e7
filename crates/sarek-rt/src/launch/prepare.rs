//! Preparing kernels: their pipelines made ahead of their first launches, all at once.
//!
//! Why: a launch sequence of several kernels (the library scan's three passes) made their
//! pipelines one after another, each at its kernel's first launch; on an H200 the scan's
//! first submission spent 31.4 + 46.9 + 72.0 ms so. Vulkan pipeline creation is thread-safe,
//! and a pipeline created on another thread measured no effect on the calling one
//! (BENCHMARKS.md, "Tiered compilation"), so [`Device::prepare`] makes each kernel's pipeline
//! on its own thread and the wait is that of the slowest one.

use super::args::workgroup_memory;
use super::pipeline::Entry;
use crate::arg::KernelSource;
use crate::device::Device;
use crate::error::Result;

impl Device {
    /// Makes the pipelines of `kernels` now, each on its own thread, so that their first
    /// launches find them made: the wait is that of the slowest kernel instead of the sum of
    /// all. Pass each kernel's `SOURCE`: `dev.prepare(&[saxpy::SOURCE, scale::SOURCE])`.
    ///
    /// It makes the entry point a launch uses for an ordinary grid (the direct one): a launch
    /// whose grid needs another (a 1-D grid over the per-dimension limit, or the coarsened or
    /// vectorised forms of an element-wise kernel's large grids) still makes that one at its
    /// first launch. With tiered compilation ([`Device::set_tiered`]) a kernel's quick form
    /// is made here and serves its first launch while its optimized pipeline compiles on a
    /// thread, as it would at that launch. Kernels already made cost a cache look-up; one
    /// that another thread is making (a launch, or another prepare) is waited for and made
    /// once. Results and the order of launches do not change.
    ///
    /// The kernels are checked against the device's features and limits as a launch checks
    /// them; the first error is returned (after every thread has finished). On the CPU
    /// backend it reads each kernel's IR and compiles it as `SAREK_CPU_ENGINE` asks (what a
    /// first launch there does), one after the other.
    pub fn prepare(&self, kernels: &[&'static KernelSource]) -> Result<()> {
        if let Some(cpu) = self.as_cpu() {
            for &k in kernels {
                cpu.prepared(k)?;
            }
            return Ok(());
        }
        self.check_lost()?;
        let limits = self.limits();
        let offer = self.coop_offer();
        for k in kernels {
            crate::features::check(&k.abi, self.features(), limits, offer.as_deref())?;
            workgroup_memory(limits, &k.abi)?;
        }
        let mut todo: Vec<&'static KernelSource> = Vec::new();
        for &k in kernels {
            if !todo.iter().any(|&t| std::ptr::eq(t, k)) {
                todo.push(k);
            }
        }
        let Some((&first, rest)) = todo.split_first() else {
            return Ok(());
        };
        let make =
            |k: &'static KernelSource| self.pipeline_for(k, Entry::Direct, false, true).map(drop);
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
