//! Encoding: one compute pass for a launch or for a whole batch.

use super::pipeline::Pipeline;
use super::timer::Timer;

/// One dispatch of a pass.
pub(crate) struct Dispatch<'a> {
    pub(crate) pipeline: &'a Pipeline,
    pub(crate) bind_group: &'a wgpu::BindGroup,
    pub(crate) workgroups: [u32; 3],
}

/// Records `dispatches` in order into one compute pass of `encoder`, timed by `timer`; the
/// pipeline is set only where it changes.
pub(crate) fn pass<'a>(
    channels: &super::debug::Channels,
    encoder: &mut wgpu::CommandEncoder,
    label: &str,
    timer: Option<&Timer>,
    dispatches: impl IntoIterator<Item = Dispatch<'a>>,
) {
    let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
        label: Some(label),
        timestamp_writes: timer.map(Timer::writes),
    });
    let mut current: Option<*const Pipeline> = None;
    for d in dispatches {
        let ptr = std::ptr::from_ref(d.pipeline);
        if current != Some(ptr) {
            pass.set_pipeline(&d.pipeline.pipeline);
            current = Some(ptr);
        }
        pass.set_bind_group(0, d.bind_group, &[]);
        if let Some(cut) = &d.pipeline.loop_status {
            pass.set_bind_group(super::loop_cap::GROUP, cut, &[]);
        }
        super::debug::bind(&mut pass, d.pipeline.debug.as_ref(), channels);
        let [x, y, z] = d.workgroups;
        pass.dispatch_workgroups(x, y, z);
    }
}
