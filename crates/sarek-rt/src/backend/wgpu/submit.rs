//! When launches reach the GPU. Each `queue.submit` costs the GPU a gap (measured on an H200:
//! 200 back-to-back launches, each its own submission, took 227 µs each by the wall clock
//! against 191 µs on the GPU), so a launch issued while the GPU is still busy with earlier
//! work is encoded into the device's open command encoder instead, and the encoder is
//! submitted as one command buffer:
//!
//! - at once when the queue was idle, as far as Sarek knows (a lone launch starts at once);
//! - when it holds [`MAX_LAUNCHES`] launches, or its first launch is [`MAX_AGE`] old (checked
//!   by each launch and by a background thread, so launches followed by host work without a
//!   wait still start within about that time);
//! - before anything else reaches the queue or waits for it: a read, a write, a copy, a
//!   batch, `synchronize`, `Launch::wait` / `is_done` / `.await` / `gpu_time` on a launch still
//!   in the encoder, `Device::flush`, and `Device::wgpu_queue` / `wgpu_device` (so the caller's
//!   own submissions come after), and when the device is dropped.
//!
//! Order is the encoder's order, which is the order the launches took the lock in, as it was
//! the order of their submissions before, so every ordering guarantee holds: a read after a
//! launch sees its writes, launches from several threads run in the order they were issued.
//! Queue writes (`Queue::write_buffer`, which the uniform ring and `Buffer::write` use) land
//! before the command buffers of the next submission, so a write first submits the encoder,
//! and the uniform ring submits it before reusing a slot (see `bind.rs`).
//!
//! A device from `Device::from_wgpu` submits every launch at once: its caller submits their
//! own work to their own clone of the queue, which Sarek cannot order after an open encoder.
//! `SAREK_DEFER=0` does the same for every device (to measure, or to rule it out).

use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use super::poller::Completion;

/// Launches an open encoder holds at most.
const MAX_LAUNCHES: usize = 256;

/// How long the open encoder's first launch waits for company at most.
const MAX_AGE: Duration = Duration::from_micros(250);

/// The submission a launch is part of, known once its encoder is submitted.
#[derive(Default)]
pub(crate) struct Ticket(OnceLock<wgpu::SubmissionIndex>);

impl Ticket {
    /// A ticket of work already submitted as `index`.
    pub(crate) fn submitted(index: wgpu::SubmissionIndex) -> Arc<Ticket> {
        let ticket = Ticket::default();
        let _ = ticket.0.set(index);
        Arc::new(ticket)
    }

    /// The submission, once submitted.
    pub(crate) fn index(&self) -> Option<wgpu::SubmissionIndex> {
        self.0.get().cloned()
    }
}

/// The open encoder and what decides its submission.
pub(crate) struct State {
    /// The compute pass that untimed launches append their dispatches to, open in `encoder`
    /// (declared first: it is dropped, which ends it, before the encoder). One pass rather
    /// than a pass per launch: measured on an H200, each pass boundary cost the GPU about
    /// 5.5 µs between two saxpy dispatches at 2^26 (a pass each: 252.4 µs a dispatch from the
    /// first start to the last end, one pass: 246.9 µs); wgpu orders the dispatches of a pass
    /// with the same barriers as separate passes.
    pass: Option<wgpu::ComputePass<'static>>,
    encoder: Option<wgpu::CommandEncoder>,
    launches: usize,
    opened: Option<Instant>,
    ticket: Arc<Ticket>,
    /// Set when everything submitted so far has run (as far as wgpu has told).
    last: Option<Arc<Completion>>,
    shutdown: bool,
}

struct Shared {
    state: Mutex<State>,
    wake: Condvar,
    queue: wgpu::Queue,
    device: wgpu::Device,
}

/// A device's open encoder, and the background thread that submits it when it gets old.
pub(crate) struct Submitter {
    shared: Arc<Shared>,
    defer: bool,
    thread: Mutex<Option<std::thread::JoinHandle<()>>>,
    /// The status word of loops cut short, on a software adapter (`loop_cap.rs`).
    pub(crate) loop_cap: OnceLock<super::loop_cap::LoopCap>,
}

/// The open encoder, locked: launches encode into it in the order they lock it.
pub(crate) struct Open<'a> {
    submitter: &'a Submitter,
    state: MutexGuard<'a, State>,
}

impl State {
    /// Submits the open encoder, if any.
    fn submit(&mut self, queue: &wgpu::Queue) {
        // Ends the open pass, if any, so that the encoder can be finished.
        self.pass = None;
        let Some(encoder) = self.encoder.take() else {
            return;
        };
        let index = queue.submit([encoder.finish()]);
        log::trace!(
            "sarek: submitted {} launches in one command buffer",
            self.launches
        );
        let _ = self.ticket.0.set(index);
        self.ticket = Arc::default();
        self.launches = 0;
        self.opened = None;
        let done = Completion::new();
        let flag = done.clone();
        queue.on_submitted_work_done(move || flag.complete());
        self.last = Some(done);
    }
}

impl Submitter {
    /// The submitter of `queue`; `defer` lets launches wait in an open encoder (`false` for
    /// a device from `from_wgpu`, or with `SAREK_DEFER=0`, [`crate::Config::defer`]).
    pub(crate) fn new(device: wgpu::Device, queue: wgpu::Queue, defer: bool) -> Submitter {
        Submitter {
            shared: Arc::new(Shared {
                state: Mutex::new(State {
                    pass: None,
                    encoder: None,
                    launches: 0,
                    opened: None,
                    ticket: Arc::default(),
                    last: None,
                    shutdown: false,
                }),
                wake: Condvar::new(),
                queue,
                device,
            }),
            defer,
            thread: Mutex::new(None),
            loop_cap: OnceLock::new(),
        }
    }

    /// Locks the open encoder.
    pub(crate) fn lock(&self) -> Open<'_> {
        Open {
            submitter: self,
            state: crate::sync::lock(&self.shared.state),
        }
    }

    /// Submits the open encoder now, if there is one.
    pub(crate) fn flush(&self) {
        self.lock().submit();
    }

    /// Submits what is open and stops the background thread (the device is going away).
    pub(crate) fn shutdown(&self) {
        {
            let mut state = crate::sync::lock(&self.shared.state);
            state.submit(&self.shared.queue);
            state.shutdown = true;
        }
        self.shared.wake.notify_all();
        if let Some(handle) = crate::sync::lock(&self.thread).take() {
            if handle.thread().id() != std::thread::current().id() {
                let _ = handle.join();
            }
        }
    }

    /// Starts the background thread that submits an encoder that got old, once.
    fn start_thread(&self) {
        let mut thread = crate::sync::lock(&self.thread);
        if thread.is_some() {
            return;
        }
        let shared = self.shared.clone();
        match std::thread::Builder::new()
            .name("sarek-submit".into())
            .spawn(move || submit_loop(&shared))
        {
            Ok(handle) => *thread = Some(handle),
            Err(e) => log::warn!(
                "sarek: could not start the submit thread ({e}); deferred launches wait for the next launch or wait"
            ),
        }
    }
}

fn submit_loop(shared: &Shared) {
    let mut state = crate::sync::lock(&shared.state);
    loop {
        if state.shutdown {
            return;
        }
        state = match state.opened {
            None => crate::sync::wait(&shared.wake, state),
            Some(opened) => {
                let age = opened.elapsed();
                if age >= MAX_AGE {
                    state.submit(&shared.queue);
                    state
                } else {
                    match shared.wake.wait_timeout(state, MAX_AGE - age) {
                        Ok((s, _)) => s,
                        Err(poisoned) => poisoned.into_inner().0,
                    }
                }
            }
        };
    }
}

impl Open<'_> {
    /// The open encoder, opened if there is none; ends the open pass (commands recorded
    /// from now on come after its dispatches).
    pub(crate) fn encoder(&mut self) -> &mut wgpu::CommandEncoder {
        self.state.pass = None;
        let device = &self.submitter.shared.device;
        self.state.encoder.get_or_insert_with(|| {
            device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("sarek launches"),
            })
        })
    }

    /// The open compute pass of the open encoder, begun if there is none: an untimed launch
    /// records its dispatch here, after every launch already in the encoder.
    pub(crate) fn pass(&mut self) -> &mut wgpu::ComputePass<'static> {
        if self.state.pass.is_none() {
            let pass = self
                .encoder()
                .begin_compute_pass(&wgpu::ComputePassDescriptor {
                    label: Some("sarek launches"),
                    timestamp_writes: None,
                })
                .forget_lifetime();
            self.state.pass = Some(pass);
        }
        match &mut self.state.pass {
            Some(pass) => pass,
            None => unreachable!("the pass was begun above"),
        }
    }

    /// Submits the open encoder now, if there is one.
    pub(crate) fn submit(&mut self) {
        self.state.submit(&self.submitter.shared.queue);
    }

    /// Counts a launch just encoded and submits the encoder if the launch should not wait;
    /// returns the launch's ticket.
    pub(crate) fn launched(mut self) -> Arc<Ticket> {
        let ticket = self.state.ticket.clone();
        self.state.launches += 1;
        let opened = *self.state.opened.get_or_insert_with(Instant::now);
        let idle = self.state.last.as_ref().is_none_or(|done| done.is_done());
        if !self.submitter.defer
            || idle
            || self.state.launches >= MAX_LAUNCHES
            || opened.elapsed() >= MAX_AGE
        {
            self.submit();
            return ticket;
        }
        drop(self.state);
        self.submitter.start_thread();
        self.submitter.shared.wake.notify_all();
        ticket
    }
}
