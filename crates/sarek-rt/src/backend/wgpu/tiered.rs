//! Tiered compilation: a kernel's first launch without a cached pipeline runs its quick form
//! while the optimized pipeline compiles on another thread.
//!
//! Why: a kernel whose loops Sarek unrolls (the register-blocked matrix product, 512 `Vec4`
//! multiply-adds a slice) costs NVIDIA's compiler 150–290 ms on an H200, against 13–25 ms for
//! an ordinary kernel, and every shape fast enough to keep (≥ 40 TFLOP/s) measured ≥ 131 ms.
//! The same kernel lowered with the unrolling of short `for` loops off (the macro embeds it
//! as [`KernelSource::quick`]) compiled in 45–63 ms and computed the same results, at a
//! twentieth of the speed (BENCHMARKS.md, "Tiered compilation"). So the first launch uses the
//! quick form, and the unrolled pipeline is made meanwhile; a pipeline created on another
//! thread measured no effect on the launches and pipeline creations of the calling one.
//!
//! The quick form serves **one** launch, the first: a later launch of the kernel waits for
//! the optimized pipeline (as every first launch did before), since launches queued on the
//! quick form would each cost up to twenty times their GPU time, more than the compile they
//! save. So the first launch returns sooner, the total never grows by more than that one
//! launch's GPU time, and every later launch runs the optimized code.
//!
//! Only where the optimized pipeline is not expected in the pipeline cache: a module file of
//! its entry point (`module_cache.rs`) is written only after its pipeline was compiled and
//! the cache saved, so its presence means a previous process compiled it, and the pipeline
//! comes from the cache in a few milliseconds. Dropping the device waits for compiles still
//! running, so a short process still leaves the optimized pipeline in the cache.
//! `SAREK_TIERED=0` (or [`Device::set_tiered`]) turns tiering off.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::thread::JoinHandle;

use super::bind::Repeats;
use super::disk_cache::DiskCache;
use super::pipeline::Pipeline;
use crate::arg::KernelSource;
use crate::device::Device;

/// The shortest optimized entry point (module text, in bytes) worth a quick form: on an H200,
/// kernels of up to ~6 KB of WGSL compiled in 13–25 ms, where the register-blocked product's
/// 29 KB took 145–290 ms; a quick form of a short kernel saves the driver little and the first
/// launch runs slower code. (On lavapipe the quick forms of short kernels even compiled
/// slower than the unrolled ones.) The quick text must also be at most half as long, or have
/// at most half the cooperative products ([`coop_products`]).
const MIN_TEXT: usize = 8 * 1024;

/// The cooperative-matrix products written in a module text. NVIDIA's driver spends about
/// 25 ms on each one in a loop that carries the accumulators (BENCHMARKS.md, "First launches of
/// cooperative-matrix kernels"), far more than text length predicts: the f16 product's
/// optimized entry point is 1.9 times its quick form's length but holds 64 products to its
/// one, and compiled in 1.06 s against 0.12 s (BENCHMARKS.md, "f16 matrix product: a quick
/// form from loops").
fn coop_products(text: &str) -> usize {
    text.matches("coopMultiplyAdd(").count()
}

/// Whether an optimized entry point's `text` is long enough, and its `quick` form (empty when
/// the kernel has none) short enough or with few enough cooperative products, for a first
/// launch to run the quick form.
fn worth_a_quick_form(text: &str, quick: &str) -> bool {
    let shorter = text.len() >= 2 * quick.len();
    let fewer_products = coop_products(text) >= 2 * coop_products(quick).max(1);
    !quick.is_empty() && text.len() >= MIN_TEXT && (shorter || fewer_products)
}

/// A kernel launched through its quick form whose optimized pipeline is being compiled.
pub(crate) struct Tier {
    /// The bind group layout both pipelines share.
    layout: wgpu::BindGroupLayout,
    /// The quick pipeline, kept should the optimized one fail.
    quick: Arc<Pipeline>,
    /// The thread compiling the optimized pipeline (`None` if it failed).
    compiling: JoinHandle<Option<wgpu::ComputePipeline>>,
    /// Whether the quick pipeline was made by [`Device::prepare`] and no launch ran it yet:
    /// the first launch still runs it rather than wait for the optimized one.
    unserved: bool,
}

impl Tier {
    /// Waits for the optimized pipeline's thread (its pipeline is saved to the cache there).
    pub(crate) fn finish(self) {
        let _ = self.compiling.join();
    }

    /// Drops the quick pipeline's cached bind groups that hold buffer `id`.
    pub(crate) fn forget(&self, id: u64) {
        self.quick.forget(id);
    }
}

/// What the optimized pipeline's thread needs.
pub(super) struct Optimized {
    pub(super) device: wgpu::Device,
    pub(super) layout: wgpu::PipelineLayout,
    pub(super) source: &'static KernelSource,
    pub(super) entry_point: &'static str,
    pub(super) text: std::borrow::Cow<'static, str>,
    pub(super) disk: Option<Arc<DiskCache>>,
    /// Whether the device allows modules without index clamps (`unclamped.rs`).
    pub(super) unclamped: bool,
    /// On a software adapter, the bind group of the status word its loops report being cut
    /// to (`loop_cap.rs`; `text` is already instrumented, and on GL zeroes its workgroup memory, `zero_workgroup.rs`).
    pub(super) loop_status: Option<wgpu::BindGroup>,
    /// The kernel's debug channel, if it prints or asserts (`debug.rs`).
    pub(super) debug: Option<Arc<super::debug::Channel>>,
    /// The device's trace, which records the compile on this thread.
    pub(super) trace: Option<Arc<crate::trace::Trace>>,
}

impl Optimized {
    /// Compiles the pipeline on this thread; on success saves the pipeline cache, then the
    /// module file (in that order: the file's presence tells a later process the pipeline is
    /// cached).
    fn compile(self) -> Option<wgpu::ComputePipeline> {
        let started = std::time::Instant::now();
        let abi = &self.source.abi;
        let options = super::zero_workgroup::compilation_options(&self.text);
        let created = super::module_cache::create(
            &self.device,
            &abi.kernel,
            self.text,
            self.disk.as_deref().map(DiskCache::dir),
            (self.unclamped && super::unclamped::hinted(self.source, self.entry_point, false))
                .then_some(self.entry_point),
        );
        let (module, origin, parsed) = (created.module, created.origin, created.pending);
        // Error scopes are per thread: this one sees this thread's errors only.
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let pipeline = self
            .device
            .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(&abi.kernel),
                layout: Some(&self.layout),
                module: &module,
                entry_point: Some(self.entry_point),
                compilation_options: options,
                cache: self.disk.as_deref().map(DiskCache::cache),
            });
        if let Some(e) = pollster::block_on(scope.pop()) {
            log::warn!(
                "sarek: the optimized pipeline of `{}` failed ({e}); it keeps its quick form",
                abi.kernel
            );
            return None;
        }
        if let Some(disk) = &self.disk {
            disk.save();
        }
        if let Some(parsed) = parsed {
            parsed.save();
        }
        if let Some(trace) = &self.trace {
            let args = super::pipeline::pipeline_args(
                &abi.kernel,
                self.entry_point,
                "optimized",
                origin,
                created.unclamped,
            );
            trace.complete(&abi.kernel, "pipeline", started, &args);
        }
        log::info!(
            "sarek: compiled the optimized pipeline of `{}` ({}) on a thread in {:?} (shader module {origin:?})",
            abi.kernel,
            self.entry_point,
            started.elapsed(),
        );
        Some(pipeline)
    }
}

impl Device {
    /// Turns tiered compilation on or off for this device's later first launches (on by
    /// default unless `SAREK_TIERED=0` or [`crate::Config::tiered`]); returns the previous
    /// setting. Off, a first launch
    /// compiles the kernel's optimized pipeline before it returns, as without tiering. The
    /// CPU backend has nothing to compile: always off there.
    ///
    /// ```
    /// # fn main() -> sarek_rt::Result<()> {
    /// let dev = sarek_rt::Device::new()?;
    /// dev.set_tiered(false); // first launches compile the optimized code before returning
    /// # Ok(()) }
    /// ```
    pub fn set_tiered(&self, on: bool) -> bool {
        if self.is_cpu() {
            return false;
        }
        self.inner().tiered.swap(on, Ordering::Relaxed)
    }

    /// How many kernels ran (or, after [`Device::prepare`], made) their quick form and have
    /// not yet switched to their optimized pipeline (tiered compilation,
    /// [`Device::set_tiered`]): each switches at its next launch (after a prepare, at the one
    /// after the first), which waits for the compile if it is still running.
    pub fn pending_compiles(&self) -> usize {
        if self.is_cpu() {
            return 0;
        }
        crate::sync::lock(&self.inner().tiers).len()
    }

    /// Whether a first launch of `source`'s direct entry point should use its quick form.
    pub(super) fn tiers(&self, source: &KernelSource, text: &str) -> bool {
        if !worth_a_quick_form(text, source.quick) || !self.inner().tiered.load(Ordering::Relaxed) {
            return false;
        }
        // A module file means a previous process compiled and cached the pipeline.
        match self.disk_cache() {
            Some(disk) => !super::module_cache::saved(disk.dir(), text),
            None => true,
        }
    }

    /// Records `quick`, launched in place of the pipeline `optimized` compiles on a new
    /// thread; returns the quick pipeline.
    pub(super) fn start_tier(
        &self,
        key: (usize, u8),
        layout: wgpu::BindGroupLayout,
        quick: wgpu::ComputePipeline,
        optimized: Optimized,
        unserved: bool,
    ) -> Arc<Pipeline> {
        let quick = Arc::new(Pipeline {
            pipeline: quick,
            layout: layout.clone(),
            repeats: Repeats::default(),
            slices: optimized.source.quick_slices.max(1),
            loop_status: optimized.loop_status.clone(),
            debug: optimized.debug.clone(),
        });
        let spawned = std::thread::Builder::new()
            .name(format!("sarek compile {}", optimized.source.abi.kernel))
            .spawn(move || optimized.compile());
        match spawned {
            Ok(compiling) => {
                crate::sync::lock(&self.inner().tiers).insert(
                    key,
                    Tier {
                        layout,
                        quick: quick.clone(),
                        compiling,
                        unserved,
                    },
                );
            }
            // No thread: the quick form stays (the launch still runs correctly).
            Err(e) => log::warn!("sarek: no thread to compile an optimized pipeline: {e}"),
        }
        quick
    }

    /// The pipeline of a kernel whose quick form was made: for a `launch`, the optimized
    /// one, waited for if still compiling (or the quick one, should it have failed), now the
    /// kernel's pipeline in the cache; but the quick one for the first launch after
    /// [`Device::prepare`] made it, unless the optimized one is ready. For a prepare, the
    /// quick one as it is (nothing to wait for). `None` when `key` has no tier. The caller
    /// holds `key`'s slot, not the cache lock, so joining the thread holds up no other key.
    /// `quick_fits`: whether the launch may run the quick form (its slices within the
    /// device's limits).
    pub(super) fn finish_tier(
        &self,
        key: (usize, u8),
        launch: bool,
        quick_fits: bool,
    ) -> Option<Arc<Pipeline>> {
        let tier = {
            let mut tiers = crate::sync::lock(&self.inner().tiers);
            let tier = tiers.get_mut(&key)?;
            if !launch {
                return Some(tier.quick.clone());
            }
            if tier.unserved && quick_fits && !tier.compiling.is_finished() {
                tier.unserved = false;
                return Some(tier.quick.clone());
            }
            tiers.remove(&key)?
        };
        let p = match tier.compiling.join() {
            Ok(Some(pipeline)) => Arc::new(Pipeline {
                pipeline,
                layout: tier.layout,
                repeats: Repeats::default(),
                slices: 1,
                loop_status: tier.quick.loop_status.clone(),
                debug: tier.quick.debug.clone(),
            }),
            _ => tier.quick,
        };
        crate::sync::lock(&self.inner().pipelines)
            .insert((key.0, key.1, Box::default()), p.clone());
        Some(p)
    }
}

/// The tiers of one device. Dropping the device waits for the threads still compiling, so
/// that their pipelines reach the cache for the next process; a thread holds its own handles
/// to the wgpu device and nothing of Sarek's, so this cannot deadlock.
pub(crate) type Tiers = HashMap<(usize, u8), Tier>;

#[cfg(test)]
mod tests {
    use super::worth_a_quick_form;

    #[test]
    fn a_quick_form_is_worth_it_when_much_shorter_or_with_far_fewer_products() {
        let long = "x".repeat(20_000);
        let half = "x".repeat(12_000);
        assert!(worth_a_quick_form(&long, &"x".repeat(9_000)));
        assert!(
            !worth_a_quick_form(&long, &half),
            "1.7 times as long, no products"
        );
        assert!(!worth_a_quick_form(&long, ""), "no quick form");
        assert!(
            !worth_a_quick_form(&"x".repeat(7_000), "x"),
            "short kernels compile fast"
        );
        // The f16 product's shape: 64 products unrolled against one in the loops.
        let products = format!("{long}{}", "coopMultiplyAdd(a, b, c);".repeat(64));
        let quick = format!("{half}coopMultiplyAdd(a[i], b[j], c[k]);");
        assert!(worth_a_quick_form(&products, &quick));
        let same = format!("{half}{}", "coopMultiplyAdd(a, b, c);".repeat(40));
        assert!(
            !worth_a_quick_form(&products, &same),
            "64 against 40 products"
        );
    }
}
