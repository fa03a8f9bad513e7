//! [`Instance`]: which instances of a generic kernel exist, as a trait host code can bound on.

use sarek_rt::raw::KernelSource;

/// Implemented by a generic kernel's type for each instance Sarek built: `reduce: Instance<T,
/// O, Const<B>>` says that `reduce` was compiled, checked and validated for those generic
/// arguments, in the kernel's parameter order, a const value as
/// [`Const<N>`](crate::gpu::Const). The parameters past the kernel's last are `()`.
///
/// Generic host code bounds on it to launch whatever instance its caller picks:
///
/// ```
/// use sarek::{Buffer, Device, Grid, Instance};
///
/// #[sarek::module]
/// mod k {
///     use sarek::prelude::*;
///
///     #[sarek::kernel]
///     pub fn double<T: Scalar>(xs: &mut [T]) {
///         let i = global_thread_id();
///         if i < xs.len() {
///             xs[i] = xs[i] + xs[i];
///         }
///     }
/// }
///
/// fn double_all<T>(dev: &Device, xs: &mut Buffer<T>) -> sarek::Result<()>
/// where
///     T: sarek::gpu::Scalar,
///     k::double: Instance<T>,
/// {
///     k::double.launch::<T>(dev, Grid::cover(xs.len()), xs)?.wait()
/// }
///
/// # fn main() -> sarek::Result<()> {
/// let dev = Device::new()?;
/// let mut xs = dev.upload(&[1u32, 2, 3])?;
/// double_all(&dev, &mut xs)?;
/// assert_eq!(xs.read()?, [2, 4, 6]);
/// # Ok(()) }
/// ```
///
/// An instance comes from the kernel's bounds and `instances(..)` list, or from a
/// `sarek::instances!` request in any `#[sarek::module]` (of the kernel's crate or of a crate
/// that depends on it), which compiles it where it is asked for. Only that generated code
/// implements the trait, which is why it is `unsafe`: an implementation vouches that its
/// source is the kernel's, as Sarek's front end made and checked it.
///
/// # Safety
///
/// `SOURCE` must be the kernel instance's source as `#[sarek::kernel]`, `#[sarek::module]` or
/// `sarek::instances!` generate it: its IR is what the CPU backend's JIT compiles, which only
/// Sarek's front end may vouch for. Implement the trait only through those macros.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no instance for the generic arguments <{A}, {B}, {C}, {D}> (`()` fills the places past the kernel's parameters)",
    label = "no instance of the kernel for these arguments",
    note = "a generic kernel has the instances its bounds and `#[sarek::kernel(instances(..))]` give, and those asked for with `sarek::instances!(kernel<..>)` in a `#[sarek::module]`: ask for this one there"
)]
pub unsafe trait Instance<A = (), B = (), C = (), D = (), E = (), F = (), G = (), H = ()> {
    /// The instance's WGSL, ABI and IR, as the runtime takes them.
    #[doc(hidden)]
    const SOURCE: &'static KernelSource;
}
