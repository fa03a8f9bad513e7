//! The handle of a launch: waiting, polling, `.await` and GPU time, whatever the backend (a
//! launch that finishes after `launch` returns hands its backend's [`Pending`] to it).

use std::future::{Future, IntoFuture};
use std::pin::Pin;
use std::time::Duration;

use crate::arg::KernelSource;
use crate::backend::Pending;
use crate::device::Device;
use crate::error::Result;

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
    /// What to wait for; `None` when the launch has run already (an empty grid, or the CPU
    /// backend).
    pending: Option<Box<dyn Pending>>,
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
            pending: None,
        }
    }

    /// The handle of a launch of `source` that finishes when `pending` does.
    pub(crate) fn pending(
        device: &Device,
        source: &'static KernelSource,
        pending: Box<dyn Pending>,
    ) -> Launch {
        Launch::pending_named(device, kernel_name(source), pending)
    }

    /// The handle of work named `kernel` (a batch) that finishes when `pending` does.
    pub(crate) fn pending_named(
        device: &Device,
        kernel: &'static str,
        pending: Box<dyn Pending>,
    ) -> Launch {
        Launch {
            device: device.clone(),
            kernel,
            pending: Some(pending),
        }
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
        self.pending.as_ref().is_none_or(|p| p.is_done())
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
        let Some(pending) = &self.pending else {
            return self.device.check_lost();
        };
        let wait = || {
            pending.wait()?;
            self.device.check_lost()?;
            // What the kernels printed, and a failed assertion (`crate::debug`).
            self.device.drain_debug()
        };
        self.device.traced(
            "wait",
            "sync",
            || crate::trace::Args::new().str("kernel", self.kernel),
            wait,
        )
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
        let Some(pending) = self.pending.as_ref().filter(|p| p.timed()) else {
            return Ok(None);
        };
        self.wait()?;
        let time = pending.elapsed()?;
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
            if let Some(pending) = &self.pending {
                pending.finished().await;
            }
            self.device.check_lost()
        })
    }
}
