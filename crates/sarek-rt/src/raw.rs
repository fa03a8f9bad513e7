//! The type-erased layer under the typed API: what the code `#[sarek::kernel]` and
//! `#[sarek::module]` generate calls. A kernel's `launch`, `enqueue` and `record` methods turn
//! their typed arguments into [`Arg`]s and call [`launch`], [`enqueue`] and [`record`] with the
//! kernel's [`KernelSource`]; the arguments are checked against its ABI, so a mismatch is an
//! error, not undefined behaviour. The `sarek` crate keeps this module out of its documented
//! API (`sarek::__private`).
//!
//! The examples launch `add_one`, a hand-written kernel shaped like the macro's output (the
//! runtime cannot use the macro, whose output names the `sarek` crate).

pub use crate::arg::{Arg, KernelSource};
pub use crate::buffer::RawBuffer;
use crate::{Batch, Device, Grid, Launch, Result};

/// Launches `source` on `device` over `grid` with type-erased arguments, which are checked
/// against the kernel's ABI. Returns once the work is submitted (on the CPU backend, once it
/// has run), with a handle to wait for it.
///
/// ```
/// use sarek_rt::raw::{self, Arg};
/// use sarek_rt::Grid;
/// # use sarek_rt::fixture::add_one;
/// # fn main() -> sarek_rt::Result<()> {
/// let dev = sarek_rt::Device::new()?;
/// let mut x = dev.upload(&[1u32, 2, 3])?;
/// // What `add_one.launch(&dev, Grid::cover(3), &mut x)` does.
/// raw::launch(&dev, add_one::SOURCE, Grid::cover(3), &[Arg::write(&mut x)])?.wait()?;
/// assert_eq!(x.read()?, [2, 3, 4]);
/// // Arguments that do not match the kernel are an error, not undefined behaviour.
/// let err = raw::launch(&dev, add_one::SOURCE, Grid::cover(3), &[Arg::u32(7)]).unwrap_err();
/// assert!(matches!(err, sarek_rt::Error::BadArguments { .. }));
/// # Ok(()) }
/// ```
pub fn launch(
    device: &Device,
    source: &'static KernelSource,
    grid: Grid,
    args: &[Arg<'_>],
) -> Result<Launch> {
    device.launch_raw(source, grid, args)
}

/// Adds a launch of `source` to `batch`, checked now as [`launch`] checks one. An empty grid
/// adds nothing.
///
/// ```
/// use sarek_rt::raw::{self, Arg};
/// use sarek_rt::Grid;
/// # use sarek_rt::fixture::add_one;
/// # fn main() -> sarek_rt::Result<()> {
/// let dev = sarek_rt::Device::new()?;
/// let mut x = dev.upload(&[1u32, 2, 3])?;
/// let mut batch = dev.batch();
/// // What `add_one.enqueue(&mut batch, Grid::cover(3), &mut x)` does.
/// raw::enqueue(&mut batch, add_one::SOURCE, Grid::cover(3), &[Arg::write(&mut x)])?;
/// // A missing argument is an error.
/// assert!(raw::enqueue(&mut batch, add_one::SOURCE, Grid::cover(3), &[]).is_err());
/// batch.submit()?.wait()?;
/// assert_eq!(x.read()?, [2, 3, 4]);
/// # Ok(()) }
/// ```
pub fn enqueue(
    batch: &mut Batch,
    source: &'static KernelSource,
    grid: Grid,
    args: &[Arg<'_>],
) -> Result<()> {
    batch.add(source, grid, args)
}

/// Records a launch of `source` into the caller's command encoder instead of submitting it:
/// the work runs when the caller submits the encoder, ordered with their own passes.
///
/// ```
/// use sarek_rt::raw::{self, Arg};
/// use sarek_rt::Grid;
/// # use sarek_rt::fixture::add_one;
/// # fn main() -> sarek_rt::Result<()> {
/// let dev = sarek_rt::Device::new()?;
/// # if dev.is_cpu() { return Ok(()); } // wgpu objects need a GPU device
/// let mut x = dev.upload(&[1u32, 2, 3])?;
/// let mut encoder = dev.wgpu_device().create_command_encoder(&Default::default());
/// // What `add_one.record(&dev, &mut encoder, Grid::cover(3), &mut x)` does.
/// raw::record(&dev, add_one::SOURCE, &mut encoder, Grid::cover(3), &[Arg::write(&mut x)])?;
/// dev.wgpu_queue().submit([encoder.finish()]);
/// assert_eq!(x.read()?, [2, 3, 4]);
/// # Ok(()) }
/// ```
pub fn record(
    device: &Device,
    source: &'static KernelSource,
    // Public interop: records into the caller's wgpu encoder.
    encoder: &mut wgpu::CommandEncoder,
    grid: Grid,
    args: &[Arg<'_>],
) -> Result<()> {
    device.record_raw(source, encoder, grid, args)
}

/// `v`'s components, as the host code of a `#[sarek::module]` struct stores a three-component
/// vector field (where WGSL packs the 12 bytes and lets the next field follow).
///
/// ```
/// assert_eq!(sarek_rt::raw::to_array3(sarek_rt::UVec3::new(1, 2, 3)), [1, 2, 3]);
/// ```
pub fn to_array3<V: crate::vector::Components3>(v: V) -> [V::Scalar; 3] {
    v.to_array3()
}

/// The vector of components `a` (the inverse of [`to_array3`]).
///
/// ```
/// let v: sarek_rt::Vec3 = sarek_rt::raw::from_array3([1.0, 2.0, 3.0]);
/// assert_eq!(v, sarek_rt::Vec3::new(1.0, 2.0, 3.0));
/// ```
pub fn from_array3<V: crate::vector::Components3>(a: [V::Scalar; 3]) -> V {
    V::from_array3(a)
}
