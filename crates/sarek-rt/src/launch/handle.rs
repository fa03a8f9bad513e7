//! The handle of a submitted launch: waiting, polling, `.await` and GPU time.

use std::future::{Future, IntoFuture};
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use super::submit::Ticket;
use super::timer::Timer;
use crate::arg::KernelSource;
use crate::device::Device;
use crate::error::{Error, Result};
use crate::poller::Completion;

/// A submitted launch. Dropping it does not cancel or wait for anything; `.await` it (any
/// executor), [`wait`](Launch::wait) for it, or check [`is_done`](Launch::is_done).
///
/// ```
/// use sarek_rt::Grid;
/// # use sarek_rt::fixture::add_one;
/// # fn main() -> sarek_rt::Result<()> {
/// // `add_one`: `#[sarek::kernel] fn add_one(x: &mut [u32])` adds 1 to each element.
/// let dev = sarek_rt::Device::new()?;
/// let mut x = dev.upload(&[1u32, 2, 3])?;
/// let launch = add_one.launch(&dev, Grid::cover(3), &mut x)?;
/// launch.wait()?; // or `launch.await?` in async code
/// assert_eq!(x.read()?, [2, 3, 4]);
/// # Ok(()) }
/// ```
pub struct Launch {
    device: Device,
    kernel: &'static str,
    /// What to wait for; `None` when nothing was submitted (an empty grid). The launch may
    /// still be in the device's open encoder: see `submit.rs`.
    submission: Option<Arc<Ticket>>,
    /// Completion flag for `is_done` and `.await`, registered with wgpu on first use so that a
    /// launch nobody checks costs nothing.
    done: std::sync::OnceLock<Arc<Completion>>,
    timer: Option<Timer>,
}

impl std::fmt::Debug for Launch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Launch")
            .field("kernel", &self.kernel)
            .field("done", &self.is_done())
            .finish()
    }
}

impl Launch {
    /// The handle of a launch of `source` that submitted nothing (an empty grid, or a CPU
    /// launch, which has already run).
    pub(crate) fn empty(device: &Device, source: &'static KernelSource) -> Launch {
        Launch::finished(device, kernel_name(source))
    }

    /// The handle of work that has already run (nothing was submitted to a GPU).
    pub(crate) fn finished(device: &Device, kernel: &'static str) -> Launch {
        Launch {
            device: device.clone(),
            kernel,
            submission: None,
            done: Default::default(),
            timer: None,
        }
    }

    /// The handle of a launch of `source` issued with `ticket`, timed by `timer`.
    pub(super) fn submitted(
        device: &Device,
        source: &'static KernelSource,
        ticket: Arc<Ticket>,
        timer: Option<Timer>,
    ) -> Launch {
        Launch {
            device: device.clone(),
            kernel: kernel_name(source),
            submission: Some(ticket),
            done: Default::default(),
            timer,
        }
    }

    /// Times the handle's work with `timer` (a batch's whole pass).
    pub(crate) fn set_timer(&mut self, timer: Option<Timer>) {
        self.timer = timer;
    }

    /// The handle of `submission`.
    pub(crate) fn after_submit(
        device: &Device,
        kernel: &'static str,
        submission: wgpu::SubmissionIndex,
    ) -> Launch {
        Launch {
            device: device.clone(),
            kernel,
            submission: Some(Ticket::submitted(submission)),
            done: Default::default(),
            timer: None,
        }
    }

    /// The launch's submission, submitting the device's open encoder first if the launch is
    /// still in it; `None` when nothing was submitted.
    fn index(&self) -> Option<wgpu::SubmissionIndex> {
        let ticket = self.submission.as_ref()?;
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

    /// Whether the GPU has finished the launch (checks without waiting).
    ///
    /// ```
    /// use sarek_rt::Grid;
    /// # use sarek_rt::fixture::add_one;
    /// # fn main() -> sarek_rt::Result<()> {
    /// // `add_one`: `#[sarek::kernel] fn add_one(x: &mut [u32])` adds 1 to each element.
    /// let dev = sarek_rt::Device::new()?;
    /// let mut x = dev.upload(&[1u32, 2, 3])?;
    /// let launch = add_one.launch(&dev, Grid::cover(3), &mut x)?;
    /// while !launch.is_done() {
    ///     // other work
    /// }
    /// assert_eq!(x.read()?, [2, 3, 4]);
    /// # Ok(()) }
    /// ```
    pub fn is_done(&self) -> bool {
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

    /// Blocks until the GPU has finished the launch.
    ///
    /// ```
    /// use sarek_rt::Grid;
    /// # use sarek_rt::fixture::add_one;
    /// # fn main() -> sarek_rt::Result<()> {
    /// // `add_one`: `#[sarek::kernel] fn add_one(x: &mut [u32])` adds 1 to each element.
    /// let dev = sarek_rt::Device::new()?;
    /// let mut x = dev.upload(&[1u32, 2, 3])?;
    /// let launch = add_one.launch(&dev, Grid::cover(3), &mut x)?;
    /// launch.wait()?;
    /// assert!(launch.is_done());
    /// # Ok(()) }
    /// ```
    pub fn wait(&self) -> Result<()> {
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
        self.device.check_lost()
    }

    /// The launch's time on the GPU, from timestamp queries, waiting for it to finish.
    /// `None` unless profiling was on when it was launched ([`Device::set_profiling`]) and the
    /// grid was not empty. Several threads may ask at once (a `Launch` is `Sync`): the
    /// timestamps are read back once, and every caller gets the same time.
    ///
    /// ```
    /// use sarek_rt::Grid;
    /// # use sarek_rt::fixture::add_one;
    /// # fn main() -> sarek_rt::Result<()> {
    /// // `add_one`: `#[sarek::kernel] fn add_one(x: &mut [u32])` adds 1 to each element.
    /// let dev = sarek_rt::Device::new()?;
    /// let mut x = dev.upload(&[1u32, 2, 3])?;
    /// let profiling = dev.set_profiling(true);
    /// let launch = add_one.launch(&dev, Grid::cover(3), &mut x)?;
    /// let time = launch.gpu_time()?;
    /// assert_eq!(time.is_some(), profiling);
    /// # Ok(()) }
    /// ```
    pub fn gpu_time(&self) -> Result<Option<Duration>> {
        let Some(timer) = &self.timer else {
            return Ok(None);
        };
        self.wait()?;
        let ticks = timer.ticks(&self.device.inner().device)?;
        let period = f64::from(self.device.inner().queue.get_timestamp_period());
        let nanos = ticks[1].saturating_sub(ticks[0]) as f64 * period;
        let time = Duration::from_nanos(nanos as u64);
        log::info!("sarek: `{}` took {time:?} on the GPU", self.kernel);
        Ok(Some(time))
    }
}

fn kernel_name(source: &'static KernelSource) -> &'static str {
    match &source.abi.kernel {
        std::borrow::Cow::Borrowed(s) => s,
        std::borrow::Cow::Owned(_) => "kernel",
    }
}

impl IntoFuture for Launch {
    type Output = Result<()>;
    type IntoFuture = Pin<Box<dyn Future<Output = Result<()>> + Send>>;

    /// Resolves when the GPU has finished the launch, without blocking the executor.
    fn into_future(self) -> Self::IntoFuture {
        Box::pin(async move {
            // A CPU launch (or an empty one) submitted nothing: it is already done.
            if self.index().is_some() {
                let inner = self.device.inner();
                inner.poller.wait(&inner.device, self.completion()).await;
            }
            self.device.check_lost()
        })
    }
}
