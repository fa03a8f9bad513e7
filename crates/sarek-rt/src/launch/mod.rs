//! Launches, by job: checking a launch against the ABI and the limits (`args`), pipelines
//! (`pipeline`; made ahead by `prepare`), bind groups and uniform blocks (`bind`), encoding a compute pass (`encode`),
//! timestamps (`timer`) and the handle of a submitted launch (`handle`). This module puts
//! them in order for `launch` and `record`; a [`Batch`](crate::Batch) uses the same steps.

mod args;
mod bind;
mod encode;
mod handle;
pub(crate) mod loop_cap;
mod pipeline;
mod prepare;
mod submit;
mod tiered;
mod timer;
pub(crate) mod unclamped;

use std::sync::Arc;

pub(crate) use args::{buffers, dispatch_size, pack_uniform, workgroup_memory};
pub(crate) use bind::{bind_entries, UniformRing};
pub(crate) use encode::{pass, Dispatch};
pub use handle::Launch;
pub(crate) use pipeline::{dump, Making, Pipeline};
pub(crate) use submit::Submitter;
pub(crate) use tiered::Tiers;
pub(crate) use timer::Timer;

use crate::arg::{Arg, KernelSource};
use crate::buffer::RawBuffer;
use crate::device::Device;
use crate::error::{Error, Result};
use crate::grid::Grid;
use bind::Submission;

/// A launch whose arguments passed the checks.
pub(crate) struct Checked<'a> {
    pub(crate) dispatch: [u32; 3],
    pub(crate) buffers: Vec<&'a RawBuffer>,
    pub(crate) uniform: Vec<u8>,
    pub(crate) pipeline: Arc<Pipeline>,
}

impl Device {
    /// Checks a launch: the grid, the workgroup memory, the arguments; packs the uniform block
    /// and finds the pipeline of the entry point the grid needs. `None` for an empty grid.
    pub(crate) fn check_launch<'a>(
        &self,
        source: &'static KernelSource,
        grid: Grid,
        args: &[Arg<'a>],
    ) -> Result<Option<Checked<'a>>> {
        self.check_lost()?;
        let abi = &source.abi;
        let groups = grid.workgroups_u64(abi.workgroup_size);
        if groups.contains(&0) {
            return Ok(None);
        }
        let limits = self.limits();
        let offer = self.coop_offer();
        crate::features::check(abi, self.features(), limits, offer.as_deref())?;
        workgroup_memory(limits, abi)?;
        let config = self.config();
        let (mut entry, dispatch) = args::entry(limits, abi, groups, config.coarsen)?;
        let buffers = buffers(abi, args, self.id())?;
        let threads = groups[0] * u64::from(abi.workgroup_size[0]);
        let views = buffers.iter().map(|b| (b.offset, b.len));
        if args::vectorise(abi, entry, threads, views, config.vec4) {
            // The same dispatch: a quarter of the threads, each doing four elements.
            entry = pipeline::Entry::Vec4;
        }
        let uniform = pack_uniform(abi, groups, args)?;
        if entry != pipeline::Entry::Direct {
            log::debug!(
                "sarek: `{}` runs through its {entry:?} entry point ({dispatch:?} workgroups)",
                abi.kernel
            );
        }
        let pipeline = self.pipeline(source, entry, dispatch)?;
        // A quick form in slices runs each workgroup as that many along z.
        let dispatch = [dispatch[0], dispatch[1], dispatch[2] * pipeline.slices];
        Ok(Some(Checked {
            dispatch,
            buffers,
            uniform,
            pipeline,
        }))
    }

    /// Launches `source` with type-erased arguments and submits it ([`crate::raw::launch`]).
    pub(crate) fn launch_raw(
        &self,
        source: &'static KernelSource,
        grid: Grid,
        args: &[Arg<'_>],
    ) -> Result<Launch> {
        if let Some(cpu) = self.as_cpu() {
            return self.launch_cpu(cpu, source, grid, args);
        }
        let started = std::time::Instant::now();
        let Some(checked) = self.check_launch(source, grid, args)? else {
            return Ok(Launch::empty(self, source));
        };
        let device = &self.inner().device;
        let timer = self.profiling().then(|| Timer::new(device));
        // Locked from the uniform block's write to the launch's encoding, so launches from
        // several threads keep one order in the encoder and in the uniform ring.
        let mut open = self.inner().submitter.lock();
        if self.ring_would_wrap(checked.uniform.len()) {
            // The ring's next slot may hold the block of a launch still in the encoder.
            open.submit();
        }
        let bound = self.bind(&source.abi, checked, Submission::Now);
        if let Some(t) = &timer {
            // A timed launch has a pass of its own, stamped at its start and end.
            let encoder = open.encoder();
            pass(encoder, &source.abi.kernel, Some(t), [bound.dispatch()]);
            t.resolve(encoder);
        } else {
            // Untimed launches share the open pass (see `submit.rs`).
            let d = bound.dispatch();
            let pass = open.pass();
            pass.set_pipeline(&d.pipeline.pipeline);
            pass.set_bind_group(0, d.bind_group, &[]);
            if let Some(cut) = &d.pipeline.loop_status {
                pass.set_bind_group(loop_cap::GROUP, cut, &[]);
            }
            let [x, y, z] = d.workgroups;
            pass.dispatch_workgroups(x, y, z);
        }
        let ticket = open.launched();
        log::debug!(
            "sarek: launched `{}` ({:?} workgroups) in {:?} of CPU time",
            source.abi.kernel,
            bound.checked.dispatch,
            started.elapsed()
        );
        // The ring slot, if any, is released only now that the launch is encoded.
        drop(bound);
        Ok(Launch::submitted(self, source, ticket, timer))
    }

    /// Records a launch of `source` into `encoder` ([`crate::raw::record`]).
    pub(crate) fn record_raw(
        &self,
        source: &'static KernelSource,
        encoder: &mut wgpu::CommandEncoder,
        grid: Grid,
        args: &[Arg<'_>],
    ) -> Result<()> {
        if self.is_cpu() {
            return Err(Error::NotOnCpu("recording into a wgpu command encoder"));
        }
        if let Some(checked) = self.check_launch(source, grid, args)? {
            let bound = self.bind(&source.abi, checked, Submission::Later);
            pass(encoder, &source.abi.kernel, None, [bound.dispatch()]);
        }
        Ok(())
    }
}
