//! Pipelines: one per kernel, entry point and device (and, for a kernel with workgroup arrays
//! sized at launch, per set of lengths), made on first use and cached by the address of the
//! kernel's `static KernelSource`.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use sarek_ir::abi::{Access, COARSE_ENTRY_POINT, FOLDED_ENTRY_POINT, VEC4_ENTRY_POINT};

use super::bind::Repeats;
use crate::arg::KernelSource;
use crate::device::Device;
use crate::error::{Error, Result};
use crate::launch::LENGTHS_KEPT;

/// What a pipeline is cached by: the kernel's address, the entry point, and the lengths of
/// its workgroup arrays sized at launch (empty for most kernels, which allocates nothing).
pub(crate) type Key = (usize, u8, Box<[u32]>);

/// One mutex per [`Key`] whose pipeline was asked for, held by the thread making it
/// (`WgpuBackend::making`): the key's pipeline is made once, other keys' meanwhile.
pub(crate) type Making = std::collections::HashMap<Key, Arc<std::sync::Mutex<()>>>;

pub(crate) use crate::launch::Entry;

/// A kernel's compute pipeline and bind group layout on one device, with the bind groups of
/// the argument sets `launch` has seen more than once.
pub(crate) struct Pipeline {
    pub(crate) pipeline: wgpu::ComputePipeline,
    pub(crate) layout: wgpu::BindGroupLayout,
    pub(super) repeats: Repeats,
    /// The copies of each workgroup it runs as: 1, or a quick form's
    /// [`KernelSource::quick_slices`] (its dispatch's z is multiplied by it).
    pub(crate) slices: u32,
    /// On a software adapter, the bind group of the status word its loops report being cut
    /// to (group [`super::loop_cap::GROUP`], `loop_cap.rs`).
    pub(crate) loop_status: Option<wgpu::BindGroup>,
    /// For a kernel that prints or asserts, its debug channel (group
    /// [`sarek_ir::abi::DEBUG_GROUP`], `debug.rs`).
    pub(crate) debug: Option<Arc<super::debug::Channel>>,
}

impl Pipeline {
    /// Drops cached bind groups that hold buffer `id`, so the buffer can be freed.
    pub(crate) fn forget(&self, id: u64) {
        self.repeats.forget(id);
    }
}

impl Device {
    /// The pipeline of `source`'s `entry` on this device, made once (per set of `lengths` of
    /// its workgroup arrays sized at launch), for a launch of `dispatch` workgroups.
    pub(super) fn pipeline(
        &self,
        source: &'static KernelSource,
        entry: Entry,
        lengths: &[u32],
        dispatch: [u32; 3],
    ) -> Result<Arc<Pipeline>> {
        // A quick form in slices runs `quick_slices` times the workgroups along z.
        let z = u64::from(dispatch[2]) * u64::from(source.quick_slices.max(1));
        let fits = z <= u64::from(self.inner().limits.max_compute_workgroups_per_dimension);
        self.pipeline_for(source, entry, lengths, true, fits)
    }

    /// The pipeline of `source`'s `entry`, made once: for a launch when `launch`, else for
    /// [`Device::prepare`] (whose quick form of a tiered kernel is kept for the first launch).
    /// `quick_fits` when the launch's dispatch, times the quick form's slices, is within the
    /// device's limits (a launch that does not fit waits for the optimized pipeline).
    ///
    /// The cache lock is held only to look a pipeline up and to insert it, never across the
    /// driver's compile, so that pipelines of different kernels are made at the same time on
    /// different threads; one thread makes a given (kernel, entry point) while the others
    /// wait for it on that key's slot and then find it in the cache.
    ///
    /// `lengths` are those of the kernel's workgroup arrays sized at launch, which the
    /// pipeline's `override` constants are set to; such a kernel has no quick form (its
    /// lengths are not known when it would be prepared).
    pub(super) fn pipeline_for(
        &self,
        source: &'static KernelSource,
        entry: Entry,
        lengths: &[u32],
        launch: bool,
        quick_fits: bool,
    ) -> Result<Arc<Pipeline>> {
        let key: Key = (
            std::ptr::from_ref(source) as usize,
            entry as u8,
            lengths.into(),
        );
        if let Some(p) = self.cached(&key) {
            return Ok(p);
        }
        let slot = crate::sync::lock(&self.inner().making)
            .entry(key.clone())
            .or_default()
            .clone();
        let _making = crate::sync::lock(&slot);
        if let Some(p) = self.cached(&key) {
            return Ok(p);
        }
        let sized = !source.abi.launch_sized.is_empty();
        // A kernel whose first launch ran its quick form switches to its optimized pipeline.
        if !sized {
            if let Some(p) = self.finish_tier((key.0, key.1), launch, quick_fits) {
                return Ok(p);
            }
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
        let loop_cap = self.loop_cap().cloned();
        let status_layout = loop_cap.as_ref().map(|c| &c.layout);
        // Only a kernel that prints or asserts has a debug channel (`debug.rs`).
        let debug = abi.debug.then(|| self.debug_channel(source));
        let debug_layout = abi.debug.then(|| self.debug_layout());
        let groups: &[Option<&wgpu::BindGroupLayout>] = match debug_layout {
            Some(d) => &[Some(&layout), status_layout, Some(d)],
            None => &[Some(&layout), status_layout],
        };
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some(&abi.kernel),
            bind_group_layouts: groups,
            immediate_size: 0,
        });
        let entry_point: &str = match entry {
            Entry::Direct => &abi.entry_point,
            Entry::Folded => FOLDED_ENTRY_POINT,
            Entry::Coarse => COARSE_ENTRY_POINT,
            Entry::Vec4 => VEC4_ENTRY_POINT,
        };
        let layouts = started.elapsed();
        let text = only_entry_point(source, entry_point);
        // On a software adapter, loops that report being cut (`loop_cap.rs`).
        let text = match &loop_cap {
            Some(cap) => cap.text(&abi.kernel, text),
            None => text,
        };
        // On GL, workgroup memory the module zeroes itself (`zero_workgroup.rs`); not an array
        // sized by an `override`, whose length the rewrite cannot see (wgpu zeroes that one).
        let text = if self.zeroes_workgroup_memory() && !sized {
            super::zero_workgroup::text(&abi.kernel, text)
        } else {
            text
        };
        if entry == Entry::Direct && quick_fits && !sized && self.tiers(source, &text) {
            let quick = (layout, pipeline_layout, text, scope);
            return self.quick_pipeline(source, (key.0, key.1), quick, !launch);
        }
        // From the parsed module a previous process saved, when there is one (`module_cache.rs`).
        let hinted = self.inner().unclamped && super::unclamped::hinted(source, entry_point, false);
        // Each array sized at launch gets its length through its `override` constant, keyed
        // by the constant's `@id`; the driver's pipeline cache keys on these values too.
        let ids: Vec<String> = abi.launch_sized.iter().map(|l| l.id.to_string()).collect();
        let constants: Vec<(&str, f64)> = ids
            .iter()
            .zip(lengths)
            .map(|(id, &len)| (id.as_str(), f64::from(len)))
            .collect();
        let options = wgpu::PipelineCompilationOptions {
            constants: &constants,
            ..super::zero_workgroup::compilation_options(&text)
        };
        let created = super::module_cache::create(
            device,
            &abi.kernel,
            text,
            disk.as_deref().map(super::disk_cache::DiskCache::dir),
            hinted.then_some(entry_point),
        );
        let (module, origin, parsed) = (created.module, created.origin, created.pending);
        let moduled = started.elapsed();
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(&abi.kernel),
            layout: Some(&pipeline_layout),
            module: &module,
            entry_point: Some(entry_point),
            compilation_options: options,
            cache: disk.as_deref().map(super::disk_cache::DiskCache::cache),
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
        if let Some(parsed) = parsed {
            parsed.save();
        }
        log::info!(
            "sarek: created the pipeline of `{}` ({entry_point}) in {:?}: layouts {:?}, shader module {:?} ({origin:?}{}), pipeline {:?}, cache save {:?}",
            abi.kernel,
            started.elapsed(),
            layouts,
            moduled - layouts,
            unclamped_note(hinted, created.unclamped, created.proof),
            compiled - moduled,
            started.elapsed() - compiled,
        );
        if let Some(trace) = self.trace() {
            let args = pipeline_args(
                &abi.kernel,
                entry_point,
                "single",
                origin,
                created.unclamped,
            );
            trace.complete(&abi.kernel, "pipeline", started, &args);
        }
        crate::launch::dump(source, self.config().dump_wgsl.as_deref());
        self.inner().pipelines_made.fetch_add(1, Ordering::Relaxed);
        if created.unclamped {
            self.inner()
                .pipelines_unclamped
                .fetch_add(1, Ordering::Relaxed);
        }
        let p = Arc::new(Pipeline {
            pipeline,
            layout,
            repeats: Repeats::default(),
            slices: 1,
            loop_status: loop_cap.map(|c| c.group),
            debug,
        });
        let mut pipelines = crate::sync::lock(&self.inner().pipelines);
        if sized {
            // Bounded: past `LENGTHS_KEPT` lengths of this entry point, one of them goes.
            let others: Vec<Key> = pipelines
                .keys()
                .filter(|k| k.0 == key.0 && k.1 == key.1)
                .cloned()
                .collect();
            if others.len() >= LENGTHS_KEPT {
                if let Some(old) = others.into_iter().next() {
                    pipelines.remove(&old);
                    crate::sync::lock(&self.inner().making).remove(&old);
                }
            }
        }
        pipelines.insert(key, p.clone());
        Ok(p)
    }

    /// The cached pipeline of `key`, if made.
    fn cached(&self, key: &Key) -> Option<Arc<Pipeline>> {
        crate::sync::lock(&self.inner().pipelines).get(key).cloned()
    }

    /// Whether this device creates the modules of entry points that the macro proved in
    /// bounds without naga's index clamps (a Vulkan device Sarek requested, with robust buffer
    /// access, unless `SAREK_UNCLAMPED=0`; `unclamped.rs`). For tests.
    #[doc(hidden)]
    pub fn drops_proven_clamps(&self) -> bool {
        !self.is_cpu() && self.inner().unclamped
    }

    /// How many of the pipelines [`Device::pipelines_made`] counts were created without naga's
    /// index clamps, their module proven in bounds. For tests.
    #[doc(hidden)]
    pub fn pipelines_unclamped(&self) -> usize {
        if self.is_cpu() {
            return 0;
        }
        self.inner().pipelines_unclamped.load(Ordering::Relaxed)
    }

    /// How many pipelines this device's launches and [`Device::prepare`] calls have created
    /// at a cache miss (a tiered kernel's quick form counts; its optimized pipeline, made on
    /// a thread, does not). For tests that a pipeline was made once, or found prepared.
    #[doc(hidden)]
    pub fn pipelines_made(&self) -> usize {
        if self.is_cpu() {
            return 0;
        }
        self.inner().pipelines_made.load(Ordering::Relaxed)
    }
}

impl Device {
    /// The first launch of a tiered kernel (`tiered.rs`): makes its quick form's pipeline
    /// here and starts the optimized one's on a thread. `quick` holds the bind group and
    /// pipeline layouts, the optimized entry point's text and the error scope that
    /// [`Device::pipeline_for`] opened around the layouts; `prepared` when no launch runs the
    /// quick form now (so the first launch will).
    fn quick_pipeline(
        &self,
        source: &'static KernelSource,
        key: (usize, u8),
        quick: QuickParts,
        prepared: bool,
    ) -> Result<Arc<Pipeline>> {
        let (layout, pipeline_layout, text, scope) = quick;
        let started = std::time::Instant::now();
        let device = &self.inner().device;
        let abi = &source.abi;
        let loop_cap = self.loop_cap().cloned();
        // On a software adapter, loops that report being cut (`loop_cap.rs`).
        let quick_text = match &loop_cap {
            Some(cap) => cap.text(&abi.kernel, source.quick.into()),
            None => source.quick.into(),
        };
        let quick_text = if self.zeroes_workgroup_memory() {
            super::zero_workgroup::text(&abi.kernel, quick_text)
        } else {
            quick_text
        };
        let options = super::zero_workgroup::compilation_options(&quick_text);
        let hinted =
            self.inner().unclamped && super::unclamped::hinted(source, &abi.entry_point, true);
        let created = super::module_cache::create(
            device,
            &abi.kernel,
            quick_text,
            None,
            hinted.then_some(&*abi.entry_point),
        );
        let module = created.module;
        let quick = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(&abi.kernel),
            layout: Some(&pipeline_layout),
            module: &module,
            entry_point: Some(&abi.entry_point),
            compilation_options: options,
            cache: None,
        });
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(Error::Pipeline {
                kernel: abi.kernel.to_string(),
                message: e.to_string(),
            });
        }
        if let Some(trace) = self.trace() {
            let args = pipeline_args(
                &abi.kernel,
                &abi.entry_point,
                "quick",
                created.origin,
                created.unclamped,
            );
            trace.complete(&abi.kernel, "pipeline", started, &args);
        }
        log::info!(
            "sarek: created the quick pipeline of `{}` in {:?}{}; the optimized one compiles on a thread",
            abi.kernel,
            started.elapsed(),
            unclamped_note(hinted, created.unclamped, created.proof),
        );
        crate::launch::dump(source, self.config().dump_wgsl.as_deref());
        self.inner().pipelines_made.fetch_add(1, Ordering::Relaxed);
        if created.unclamped {
            self.inner()
                .pipelines_unclamped
                .fetch_add(1, Ordering::Relaxed);
        }
        let optimized = super::tiered::Optimized {
            device: device.clone(),
            layout: pipeline_layout,
            source,
            entry_point: &source.abi.entry_point,
            text,
            disk: self.disk_cache(),
            unclamped: self.inner().unclamped,
            loop_status: loop_cap.map(|c| c.group),
            debug: abi.debug.then(|| self.debug_channel(source)),
            trace: self.inner().trace.clone(),
        };
        Ok(self.start_tier(key, layout, quick, optimized, prepared))
    }
}

/// What [`Device::quick_pipeline`] takes over from [`Device::pipeline_for`]: the bind group
/// layout, the pipeline layout, the optimized entry point's text and the open error scope.
type QuickParts = (
    wgpu::BindGroupLayout,
    wgpu::PipelineLayout,
    std::borrow::Cow<'static, str>,
    wgpu::ErrorScopeGuard,
);

/// The text of `source`'s module with `entry_point` alone, so that wgpu parses and validates
/// (and the driver sees) only the code of the entry point being launched: the direct and the
/// folded entry point each hold a copy of the kernel's body, and the coarsened one four, so a
/// module with all of them costs naga two to six times the work of one. The writer recorded
/// where each entry point's text lies ([`KernelSource::entry_points`]; everything they share
/// precedes the first), so this is the text up to the first entry point and the launched one's
/// range, which the macro's tests validate alone with naga. A source without the entry point's
/// range (hand-written) is given whole.
pub(crate) fn only_entry_point(
    source: &KernelSource,
    entry_point: &str,
) -> std::borrow::Cow<'static, str> {
    let ranges = source.entry_points;
    let first = ranges.iter().map(|&(_, start, _)| start).min();
    let found = ranges.iter().find(|&&(name, _, _)| name == entry_point);
    match (first, found) {
        // `get`: ranges of a hand-written source may fall outside the text or inside a character.
        (Some(first), Some(&(_, start, end))) if first <= start => {
            match (source.wgsl.get(..first), source.wgsl.get(start..end)) {
                (Some(head), Some(entry)) => format!("{head}{entry}").into(),
                _ => source.wgsl.into(),
            }
        }
        _ => source.wgsl.into(),
    }
}

/// What a trace records of a pipeline's creation: the kernel, its entry point, its `tier`
/// (`single` without tiered compilation, else `quick` or `optimized`), where its shader module
/// came from (`cached`: decoded from the cache directory's module file, which also means the
/// driver's pipeline cache held the pipeline when the cache was saved with it) and whether it
/// was created without index clamps.
pub(super) fn pipeline_args(
    kernel: &str,
    entry_point: &str,
    tier: &str,
    origin: super::module_cache::Origin,
    unclamped: bool,
) -> crate::trace::Args {
    let module = match origin {
        super::module_cache::Origin::Cached => "cached",
        super::module_cache::Origin::Parsed => "parsed",
        super::module_cache::Origin::Text => "text",
    };
    crate::trace::Args::new()
        .str("kernel", kernel)
        .str("entry_point", entry_point)
        .str("tier", tier)
        .str("module", module)
        .bool("cached", origin == super::module_cache::Origin::Cached)
        .bool("unclamped", unclamped)
}

/// What a pipeline's log line says of its index clamps: dropped, or kept although the macro
/// listed the entry point as proven (the proof failed on the module created), with the proof's
/// time.
fn unclamped_note(hinted: bool, unclamped: bool, proof: std::time::Duration) -> String {
    match (hinted, unclamped) {
        (_, true) => format!(", no index clamps (proven again in {proof:?})"),
        (true, false) => format!(", index clamps kept (not proven in {proof:?})"),
        (false, false) => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::only_entry_point;
    use crate::arg::KernelSource;

    /// Laid out as the WGSL writer lays out a module: a helper, then three entry points.
    const MODULE: &str = "struct P {\n    n: u32,\n}\n\nfn helper(a: f32) -> f32 {\n    return -a;\n}\n\n@compute @workgroup_size(64, 1, 1)\nfn sarek_main() {\n    let a = 1u;\n}\n\n@compute @workgroup_size(64, 1, 1)\nfn sarek_main_folded() {\n    let a = helper(1.0);\n}\n";

    /// `MODULE` with `ranges` as the writer records them.
    fn source(ranges: &'static [(&'static str, usize, usize)]) -> KernelSource {
        use sarek_ir::abi::{Abi, Limits, Uniform, ENTRY_POINT};
        use std::borrow::Cow::Borrowed as B;
        KernelSource {
            wgsl: MODULE,
            abi: Abi {
                kernel: B("k"),
                entry_point: B(ENTRY_POINT),
                workgroup_size: [64, 1, 1],
                buffers: B(&[]),
                uniform: Uniform {
                    binding: 0,
                    size: 16,
                    fields: B(&[]),
                },
                workgroup_memory: 0,
                launch_sized: B(&[]),
                coarsened: false,
                vectorised: false,
                features: B(&[]),
                limits: Limits::Portable,
                debug: false,
            },
            location: "",
            ir: "",
            spans: &[],
            entry_points: ranges,
            quick: "",
            in_bounds: &[],
            quick_in_bounds: false,
            quick_slices: 1,
        }
    }

    /// Where entry point `name`'s text lies in `MODULE`: from its `@compute` to after its
    /// closing line.
    fn range(name: &str) -> (usize, usize) {
        let at = MODULE.find(&format!("fn {name}()")).unwrap();
        let start = MODULE[..at].rfind("@compute").unwrap();
        let end = at + MODULE[at..].find("\n}\n").unwrap() + 3;
        (start, end)
    }

    #[test]
    fn keeps_the_shared_text_and_the_launched_entry_point() {
        let (d0, d1) = range("sarek_main");
        let (f0, f1) = range("sarek_main_folded");
        let ranges: &'static [(&'static str, usize, usize)] = Box::leak(Box::new([
            ("sarek_main", d0, d1),
            ("sarek_main_folded", f0, f1),
        ]));
        let s = source(ranges);
        let direct = only_entry_point(&s, "sarek_main");
        assert_eq!(direct, &MODULE[..d1]);
        let folded = only_entry_point(&s, "sarek_main_folded");
        assert_eq!(folded, format!("{}{}", &MODULE[..d0], &MODULE[f0..f1]));
        assert_eq!(folded.matches("@compute").count(), 1, "{folded}");
        assert!(folded.ends_with("fn sarek_main_folded() {\n    let a = helper(1.0);\n}\n"));
    }

    #[test]
    fn gives_a_source_without_ranges_whole() {
        assert_eq!(only_entry_point(&source(&[]), "sarek_main"), MODULE);
        let (d0, d1) = range("sarek_main");
        let ranges: &'static [(&'static str, usize, usize)] =
            Box::leak(Box::new([("sarek_main", d0, d1)]));
        assert_eq!(only_entry_point(&source(ranges), "missing"), MODULE);
        let past: &'static [(&'static str, usize, usize)] =
            Box::leak(Box::new([("sarek_main", d0, MODULE.len() + 1)]));
        assert_eq!(only_entry_point(&source(past), "sarek_main"), MODULE);
    }
}
