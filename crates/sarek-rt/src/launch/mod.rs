//! Launches above the backend seam: the checks every backend shares (`args`: the grid, the
//! workgroup memory, the arguments against the ABI, the uniform block; `crate::features`:
//! the device's features and limits), run once here before a launch crosses to its backend
//! (`crate::backend`); the handle of a launch (`handle`); and `SAREK_DUMP_WGSL` (`dump`),
//! which every backend honours.

pub(crate) mod args;
mod handle;

pub(crate) use args::{pack_uniform, workgroup_memory, Entry};
pub use handle::Launch;

use sarek_ir::abi::Abi;

use crate::arg::{Arg, KernelSource};
use crate::backend::{with_backend, Backend};
use crate::buffer::RawBuffer;
use crate::device::Device;
use crate::error::Result;
use crate::grid::Grid;
use crate::trace::Args;

/// How many pipelines (or CPU programs) of one kernel's entry point, each for other lengths
/// of its workgroup arrays sized at launch, a device keeps: a kernel launched over many
/// widths must not grow the cache without bound (one past it drops another, which is made
/// again if launched again).
pub(crate) const LENGTHS_KEPT: usize = 16;

/// A launch whose grid and arguments passed the checks every backend shares.
pub(crate) struct Valid<'a> {
    /// The grid in workgroups, as the user asked for it.
    pub(crate) groups: [u64; 3],
    /// The entry point the grid runs through (before vectorising, which a backend decides).
    pub(crate) entry: Entry,
    /// The physical dispatch of that entry point.
    pub(crate) dispatch: [u32; 3],
    /// The buffers, in binding order.
    pub(crate) buffers: Vec<&'a RawBuffer>,
    /// The lengths of the workgroup arrays sized at launch (`Abi::launch_sized`), in order;
    /// empty for a kernel without any.
    pub(crate) lengths: Vec<u32>,
}

impl Device {
    /// Checks a kernel against the device's features and limits and its workgroup memory,
    /// as a launch and [`Device::prepare`] check it.
    pub(crate) fn check_kernel(&self, abi: &Abi) -> Result<()> {
        self.check_kernel_on(self.backend_impl(), abi)
    }

    /// [`Device::check_kernel`] on `backend`, the device's own.
    fn check_kernel_on<B: Backend + ?Sized>(&self, backend: &B, abi: &Abi) -> Result<()> {
        let limits = backend.limits();
        let offer = backend.launch_coop_offer();
        crate::features::check(abi, backend.features(), limits, offer.as_deref())?;
        workgroup_memory(limits, abi)
    }

    /// Checks a launch: the device, the kernel ([`Device::check_kernel`]), the grid and the
    /// arguments. `None` for an empty grid.
    pub(crate) fn check_launch<'a>(
        &self,
        abi: &Abi,
        grid: Grid,
        args: &[Arg<'a>],
    ) -> Result<Option<Valid<'a>>> {
        self.check_launch_on(self.backend_impl(), abi, grid, args)
    }

    /// [`Device::check_launch`] on `backend`, the device's own.
    fn check_launch_on<'a, B: Backend + ?Sized>(
        &self,
        backend: &B,
        abi: &Abi,
        grid: Grid,
        args: &[Arg<'a>],
    ) -> Result<Option<Valid<'a>>> {
        backend.check_lost()?;
        let groups = grid.workgroups_u64(abi.workgroup_size);
        if groups.contains(&0) {
            return Ok(None);
        }
        self.check_kernel_on(backend, abi)?;
        let coarsening = backend.coarsens() && backend.config().coarsen;
        let (entry, dispatch) = args::entry(backend.limits(), abi, groups, coarsening)?;
        let buffers = args::buffers(abi, args, backend.id())?;
        let lengths = args::launch_lengths(backend.limits(), abi, args)?;
        Ok(Some(Valid {
            groups,
            entry,
            dispatch,
            buffers,
            lengths,
        }))
    }

    /// Launches `source` with type-erased arguments ([`crate::raw::launch`]): checked here,
    /// then run or submitted by the backend.
    pub(crate) fn launch_raw(
        &self,
        source: &'static KernelSource,
        grid: Grid,
        args: &[Arg<'_>],
    ) -> Result<Launch> {
        // Checked and launched with the backend's own type: no virtual call on this path.
        with_backend!(&self.backend, backend => {
            let Some(trace) = backend.trace.as_deref() else {
                let Some(valid) = self.check_launch_on(&**backend, &source.abi, grid, args)? else {
                    return Ok(Launch::empty(self, source));
                };
                return backend.launch(self, source, valid, args);
            };
            let span = trace.span();
            let mut entry = None;
            let result = self
                .check_launch_on(&**backend, &source.abi, grid, args)
                .and_then(|valid| match valid {
                    None => Ok(Launch::empty(self, source)),
                    Some(valid) => {
                        entry = Some((valid.entry, valid.dispatch));
                        backend.launch(self, source, valid, args)
                    }
                });
            let args = launch_args(&source.abi, grid, entry).outcome(&result);
            span.end(&source.abi.kernel, "launch", args);
            result
        })
    }

    /// Makes the pipelines of `kernels` now, each on its own thread, so that their first
    /// launches find them made: the wait is that of the slowest kernel instead of the sum of
    /// all. Pass each kernel's `SOURCE`: `dev.prepare(&[saxpy::SOURCE, scale::SOURCE])`.
    ///
    /// It makes the entry point a launch uses for an ordinary grid (the direct one): a launch
    /// whose grid needs another (a 1-D grid over the per-dimension limit, or the coarsened or
    /// vectorised forms of an element-wise kernel's large grids) still makes that one at its
    /// first launch. With tiered compilation ([`Device::set_tiered`]) a kernel's quick form
    /// is made here and serves its first launch while its optimized pipeline compiles on a
    /// thread, as it would at that launch. Kernels already made cost a cache look-up; one
    /// that another thread is making (a launch, or another prepare) is waited for and made
    /// once. Results and the order of launches do not change. A kernel with workgroup arrays
    /// sized at launch (`shared_len`) is checked but not made here: no length is known yet,
    /// and each length's pipeline is made at its first launch.
    ///
    /// The kernels are checked against the device's features and limits as a launch checks
    /// them; the first error is returned (after every thread has finished). On the CPU
    /// backend it reads each kernel's IR and compiles it as `SAREK_CPU_ENGINE` asks (what a
    /// first launch there does), one after the other.
    pub fn prepare(&self, kernels: &[&'static KernelSource]) -> Result<()> {
        let names = || {
            let names: Vec<&str> = kernels.iter().map(|k| &*k.abi.kernel).collect();
            Args::new().str("kernels", &names.join(", "))
        };
        self.traced("prepare", "prepare", names, || {
            self.backend_impl().prepare(self, kernels)
        })
    }
}

/// What a trace records of a launch of a kernel of `abi` over `grid`: the kernel, its grid in
/// workgroups and in invocations, its workgroup size, and where it was checked, the entry
/// point and dispatch it runs through (a coarsened or folded entry point's dispatch differs
/// from the grid).
pub(crate) fn launch_args(abi: &Abi, grid: Grid, entry: Option<(Entry, [u32; 3])>) -> Args {
    let size = abi.workgroup_size;
    let groups = grid.workgroups_u64(size);
    let threads: Vec<u64> = (0..3)
        .map(|i| groups[i].saturating_mul(u64::from(size[i])))
        .collect();
    let args = Args::new()
        .str("kernel", &abi.kernel)
        .u64s("workgroups", &groups)
        .u64s("workgroup_size", &size.map(u64::from))
        .u64s("grid", &threads);
    match entry {
        None => args,
        Some((entry, dispatch)) => args
            .str("entry", &format!("{entry:?}").to_lowercase())
            .u64s("dispatch", &dispatch.map(u64::from)),
    }
}

/// `SAREK_DUMP_WGSL=<dir>` ([`crate::Config::dump_wgsl`]): writes the kernel's WGSL and ABI
/// to `dir` when its pipeline is made (or, on the CPU backend, when its IR is read).
pub(crate) fn dump(source: &KernelSource, dir: Option<&std::path::Path>) {
    let Some(dir) = dir else {
        return;
    };
    let name = &source.abi.kernel;
    let wgsl = format!(
        "// Sarek kernel `{name}`, from {}\n{}",
        source.location, source.wgsl
    );
    let abi = source.abi.to_json();
    let written = std::fs::create_dir_all(dir)
        .and_then(|()| std::fs::write(dir.join(format!("{name}.wgsl")), wgsl))
        .and_then(|()| std::fs::write(dir.join(format!("{name}.abi.json")), abi))
        .and_then(|()| match source.ir {
            "" => Ok(()),
            ir => std::fs::write(dir.join(format!("{name}.ir.json")), ir),
        });
    if let Err(e) = written {
        log::warn!("sarek: could not dump `{name}` to {}: {e}", dir.display());
    }
}
