//! Launching on the GPU: a launch that passed the shared checks gets its entry point's
//! pipeline and uniform block, is bound and encoded into the open command encoder (or a
//! caller's encoder, for `raw::record`).

use std::sync::Arc;

use super::bind::Submission;
use super::pending::Submitted;
use super::{pass, Pipeline};
use crate::arg::{Arg, KernelSource};
use crate::buffer::RawBuffer;
use crate::device::Device;
use crate::error::{Error, Result};
use crate::grid::Grid;
use crate::launch::{args, Entry, Launch, Valid};
use crate::trace::Args;

/// A launch ready to bind: its dispatch, buffers, uniform block and pipeline.
pub(crate) struct Checked<'a> {
    pub(crate) dispatch: [u32; 3],
    pub(crate) buffers: Vec<&'a RawBuffer>,
    pub(crate) uniform: Vec<u8>,
    pub(crate) pipeline: Arc<Pipeline>,
}

impl Device {
    /// Completes a checked launch for the GPU: the vectorised entry point where the buffers
    /// allow it, the uniform block, and the pipeline of the entry point the grid needs.
    pub(crate) fn gpu_checked<'a>(
        &self,
        source: &'static KernelSource,
        valid: Valid<'a>,
        args: &[Arg<'a>],
    ) -> Result<Checked<'a>> {
        let abi = &source.abi;
        let Valid {
            groups,
            mut entry,
            dispatch,
            buffers,
            lengths,
        } = valid;
        let threads = groups[0] * u64::from(abi.workgroup_size[0]);
        let views = buffers.iter().map(|b| (b.offset, b.len));
        if args::vectorise(abi, entry, threads, views, self.inner().config.vec4) {
            // The same dispatch: a quarter of the threads, each doing four elements.
            entry = Entry::Vec4;
        }
        let uniform = args::pack_uniform(abi, groups, args)?;
        if entry != Entry::Direct {
            log::debug!(
                "sarek: `{}` runs through its {entry:?} entry point ({dispatch:?} workgroups)",
                abi.kernel
            );
        }
        let pipeline = self.pipeline(source, entry, &lengths, dispatch)?;
        // A quick form in slices runs each workgroup as that many along z.
        let dispatch = [dispatch[0], dispatch[1], dispatch[2] * pipeline.slices];
        Ok(Checked {
            dispatch,
            buffers,
            uniform,
            pipeline,
        })
    }

    /// Submits a checked launch of `source` through the open command encoder.
    pub(crate) fn launch_gpu(
        &self,
        source: &'static KernelSource,
        valid: Valid<'_>,
        args: &[Arg<'_>],
    ) -> Result<Launch> {
        let started = std::time::Instant::now();
        let checked = self.gpu_checked(source, valid, args)?;
        let profiling = self
            .inner()
            .profiling
            .load(std::sync::atomic::Ordering::Relaxed);
        let (timer, traced) = self.timer(profiling);
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
            pass(
                &self.inner().debug_channels,
                encoder,
                &source.abi.kernel,
                Some(&**t),
                [bound.dispatch()],
            );
            t.resolve(encoder);
        } else {
            // Untimed launches share the open pass (see `submit.rs`).
            let d = bound.dispatch();
            let pass = open.pass();
            pass.set_pipeline(&d.pipeline.pipeline);
            pass.set_bind_group(0, d.bind_group, &[]);
            if let Some(cut) = &d.pipeline.loop_status {
                pass.set_bind_group(super::loop_cap::GROUP, cut, &[]);
            }
            super::debug::bind(
                pass,
                d.pipeline.debug.as_ref(),
                &self.inner().debug_channels,
            );
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
        let dispatch = bound.checked.dispatch;
        // The ring slot, if any, is released only now that the launch is encoded.
        drop(bound);
        if let (true, Some(t)) = (traced, &timer) {
            let args = Args::new()
                .str("kernel", &source.abi.kernel)
                .u64s("dispatch", &dispatch.map(u64::from));
            self.trace_gpu(&source.abi.kernel, args, t.clone(), ticket.clone());
        }
        // Only a launch timed for the user reports a GPU time.
        let timer = timer.filter(|_| profiling);
        Ok(Launch::pending(
            self,
            source,
            Box::new(Submitted::new(self, ticket, timer)),
        ))
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
        let record = || {
            if let Some(valid) = self.check_launch(&source.abi, grid, args)? {
                let checked = self.gpu_checked(source, valid, args)?;
                let bound = self.bind(&source.abi, checked, Submission::Later);
                pass(
                    &self.inner().debug_channels,
                    encoder,
                    &source.abi.kernel,
                    None,
                    [bound.dispatch()],
                );
            }
            Ok(())
        };
        // The caller submits the encoder: the trace has the recording, not the GPU's time.
        let args = || crate::launch::launch_args(&source.abi, grid, None);
        self.traced(&source.abi.kernel, "record", args, record)
    }
}
