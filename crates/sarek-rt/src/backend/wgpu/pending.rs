//! A launch in flight on the GPU: waiting for it, polling it, `.await` and its GPU time (the
//! wgpu backend's [`Pending`], behind a [`crate::Launch`]).

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use super::poller::Completion;
use super::submit::Ticket;
use super::timer::Timer;
use crate::backend::{Pending, Wait};
use crate::device::Device;
use crate::error::{Error, Result};

/// A submitted launch (or batch).
pub(crate) struct Submitted {
    device: Device,
    /// What to wait for. The launch may still be in the device's open encoder: see
    /// `submit.rs`.
    submission: Arc<Ticket>,
    /// Completion flag for `is_done` and `.await`, registered with wgpu on first use so that a
    /// launch nobody checks costs nothing.
    done: OnceLock<Arc<Completion>>,
    timer: Option<Arc<Timer>>,
}

impl Submitted {
    /// A launch issued with `ticket`, timed by `timer`.
    pub(crate) fn new(
        device: &Device,
        ticket: Arc<Ticket>,
        timer: Option<Arc<Timer>>,
    ) -> Submitted {
        Submitted {
            device: device.clone(),
            submission: ticket,
            done: OnceLock::new(),
            timer,
        }
    }

    /// Work already submitted as `submission`, timed by `timer` (a batch's whole pass).
    pub(crate) fn after_submit(
        device: &Device,
        submission: wgpu::SubmissionIndex,
        timer: Option<Arc<Timer>>,
    ) -> Submitted {
        Submitted::new(device, Ticket::submitted(submission), timer)
    }

    /// The launch's submission, submitting the device's open encoder first if the launch is
    /// still in it.
    fn index(&self) -> Option<wgpu::SubmissionIndex> {
        let ticket = &self.submission;
        if let Some(index) = ticket.index() {
            return Some(index);
        }
        self.device.flush();
        ticket.index()
    }

    /// The completion flag, set when everything submitted up to now has run (which includes
    /// this launch).
    fn completion(&self) -> Arc<Completion> {
        self.done
            .get_or_init(|| {
                let done = Completion::new();
                // Registered after the launch is submitted, so it covers it.
                if self.index().is_some() {
                    let flag = done.clone();
                    self.device
                        .inner()
                        .queue
                        .on_submitted_work_done(move || flag.complete());
                } else {
                    done.complete();
                }
                done
            })
            .clone()
    }
}

impl Pending for Submitted {
    fn is_done(&self) -> bool {
        let done = self.completion();
        if done.is_done() {
            return true;
        }
        // The completion callback fires when everything submitted before it was registered
        // is done, which on a shared device can include later submissions (other threads'),
        // so a finished launch is also recognised by its own submission index, without
        // waiting (a zero timeout).
        match self.index() {
            Some(index) => self
                .device
                .inner()
                .device
                .poll(wgpu::PollType::Wait {
                    submission_index: Some(index),
                    timeout: Some(std::time::Duration::ZERO),
                })
                .is_ok(),
            None => done.is_done(),
        }
    }

    fn wait(&self) -> Result<()> {
        if let Some(index) = self.index() {
            self.device
                .inner()
                .device
                .poll(wgpu::PollType::Wait {
                    submission_index: Some(index),
                    timeout: None,
                })
                .map_err(|e| self.device.check_lost().err().unwrap_or(Error::Poll(e)))?;
        }
        Ok(())
    }

    fn finished(&self) -> Wait<'_, ()> {
        Box::pin(async move {
            if self.index().is_some() {
                let inner = self.device.inner();
                inner.poller.wait(&inner.device, self.completion()).await;
            }
        })
    }

    fn timed(&self) -> bool {
        self.timer.is_some()
    }

    fn elapsed(&self) -> Result<Duration> {
        let Some(timer) = &self.timer else {
            return Ok(Duration::ZERO);
        };
        let ticks = timer.ticks(&self.device.inner().device)?;
        let period = f64::from(self.device.inner().queue.get_timestamp_period());
        let nanos = ticks[1].saturating_sub(ticks[0]) as f64 * period;
        Ok(Duration::from_nanos(nanos as u64))
    }
}
