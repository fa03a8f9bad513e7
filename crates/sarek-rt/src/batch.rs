//! Many launches in one submission: each checked as it is added, then handed to the
//! backend's own collection (`crate::backend::BatchWork`).

use crate::arg::{Arg, KernelSource};
use crate::backend::BatchWork;
use crate::device::Device;
use crate::error::Result;
use crate::grid::Grid;
use crate::launch::Launch;
use crate::trace::Args;

/// Launches collected on the host and submitted together: one uniform buffer for all of
/// them (equal blocks stored once), one bind group per distinct set of buffers and uniform
/// block, one compute pass. Each launch is checked
/// when it is added, exactly as `launch` checks it; they run in the order they were added.
///
/// ```
/// use sarek_rt::Grid;
/// # use sarek_rt::fixture::add_one;
/// # fn main() -> sarek_rt::Result<()> {
/// // `add_one`: `#[sarek::kernel] fn add_one(x: &mut [u32])` adds 1 to each element.
/// let dev = sarek_rt::Device::new()?;
/// let mut x = dev.zeros::<u32>(256)?;
/// let mut batch = dev.batch();
/// for _ in 0..100 {
///     // `add_one.enqueue(&mut batch, grid, &mut x)` does this with typed arguments.
///     add_one.enqueue(&mut batch, Grid::cover(256), &mut x)?;
/// }
/// batch.submit()?.wait()?;
/// assert_eq!(x.read()?, [100; 256]);
/// # Ok(()) }
/// ```
pub struct Batch {
    device: Device,
    work: Box<dyn BatchWork>,
}

impl std::fmt::Debug for Batch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Batch")
            .field("launches", &self.len())
            .finish()
    }
}

impl Device {
    /// An empty [`Batch`] of launches on this device.
    ///
    /// ```
    /// # fn main() -> sarek_rt::Result<()> {
    /// let dev = sarek_rt::Device::new()?;
    /// let batch = dev.batch();
    /// assert!(batch.is_empty());
    /// # Ok(()) }
    /// ```
    pub fn batch(&self) -> Batch {
        Batch {
            device: self.clone(),
            work: self.backend_impl().batch(),
        }
    }
}

impl Batch {
    /// Number of launches added.
    ///
    /// ```
    /// use sarek_rt::Grid;
    /// # use sarek_rt::fixture::add_one;
    /// # fn main() -> sarek_rt::Result<()> {
    /// // `add_one`: `#[sarek::kernel] fn add_one(x: &mut [u32])` adds 1 to each element.
    /// let dev = sarek_rt::Device::new()?;
    /// let mut x = dev.upload(&[1u32, 2, 3])?;
    /// let mut batch = dev.batch();
    /// add_one.enqueue(&mut batch, Grid::cover(3), &mut x)?;
    /// add_one.enqueue(&mut batch, Grid::cover(3), &mut x)?;
    /// assert_eq!(batch.len(), 2);
    /// # Ok(()) }
    /// ```
    pub fn len(&self) -> usize {
        self.work.len()
    }

    /// Whether no launch was added.
    ///
    /// ```
    /// use sarek_rt::Grid;
    /// # use sarek_rt::fixture::add_one;
    /// # fn main() -> sarek_rt::Result<()> {
    /// // `add_one`: `#[sarek::kernel] fn add_one(x: &mut [u32])` adds 1 to each element.
    /// let dev = sarek_rt::Device::new()?;
    /// let mut x = dev.upload(&[1u32, 2, 3])?;
    /// let mut batch = dev.batch();
    /// assert!(batch.is_empty());
    /// // An empty grid adds nothing.
    /// add_one.enqueue(&mut batch, Grid::cover(0), &mut x)?;
    /// assert!(batch.is_empty());
    /// # Ok(()) }
    /// ```
    pub fn is_empty(&self) -> bool {
        self.work.len() == 0
    }

    /// Adds a launch with type-erased arguments ([`crate::raw::enqueue`]).
    pub(crate) fn add(
        &mut self,
        source: &'static KernelSource,
        grid: Grid,
        args: &[Arg<'_>],
    ) -> Result<()> {
        let Some(trace) = self.device.trace() else {
            let Some(valid) = self.device.check_launch(&source.abi, grid, args)? else {
                return Ok(());
            };
            return self.work.add(&self.device, source, valid, args);
        };
        let span = trace.span();
        let position = self.work.len() as u64;
        let mut entry = None;
        let result =
            self.device
                .check_launch(&source.abi, grid, args)
                .and_then(|valid| match valid {
                    None => Ok(()),
                    Some(valid) => {
                        entry = Some((valid.entry, valid.dispatch));
                        self.work.add(&self.device, source, valid, args)
                    }
                });
        let traced = crate::launch::launch_args(&source.abi, grid, entry)
            .u64("position", position)
            .outcome(&result);
        span.end(&source.abi.kernel, "enqueue", traced);
        result
    }

    /// The device the batch's launches run on (what a library call that records into a batch
    /// asks about, `batch.device().features()`).
    pub fn device(&self) -> &Device {
        &self.device
    }

    /// Submits every launch added, in order, in one compute pass.
    ///
    /// ```
    /// use sarek_rt::Grid;
    /// # use sarek_rt::fixture::add_one;
    /// # fn main() -> sarek_rt::Result<()> {
    /// // `add_one`: `#[sarek::kernel] fn add_one(x: &mut [u32])` adds 1 to each element.
    /// let dev = sarek_rt::Device::new()?;
    /// let mut x = dev.upload(&[1u32, 2, 3])?;
    /// let mut batch = dev.batch();
    /// for _ in 0..2 {
    ///     add_one.enqueue(&mut batch, Grid::cover(3), &mut x)?;
    /// }
    /// let launch = batch.submit()?;
    /// launch.wait()?;
    /// assert_eq!(x.read()?, [3, 4, 5]);
    /// # Ok(()) }
    /// ```
    pub fn submit(self) -> Result<Launch> {
        let launches = self.len() as u64;
        let Batch { device, work } = self;
        device.traced(
            "batch",
            "batch",
            || Args::new().u64("launches", launches),
            || {
                device.check_lost()?;
                // After the launches issued before.
                device.flush();
                work.submit(&device)
            },
        )
    }
}
