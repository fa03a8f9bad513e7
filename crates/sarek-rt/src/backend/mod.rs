//! The seam between the runtime and what runs kernels: the [`Backend`] trait, which a device
//! backend implements, and the one place that knows which backends exist ([`Backends`]).
//!
//! Above the seam live the user-facing types ([`Device`], [`Buffer`](crate::Buffer),
//! [`Launch`], [`Batch`](crate::Batch)) and every rule that does not depend on the backend:
//! the checks of a launch against its kernel's ABI and the device's limits and features
//! (`crate::launch::args`, `crate::features`), the uniform block's packing, buffer sizes and
//! ranges. Below it, each backend has a room of its own: `wgpu` (a GPU through wgpu: pipelines,
//! bind groups, the open command encoder, staging buffers, caches; the only room that names
//! wgpu) and `cpu` (the IR run by `sarek_codegen`'s interpreter and JIT on host memory).
//!
//! A launch crosses the seam once: [`Device`] checks it (`Device::check_launch_on`) and hands
//! the checked launch to [`Backend::launch`], both compiled for each backend's own type
//! through `with_backend!` (no virtual call on a launch's path); each backend then works on
//! its own types without dispatching again.
//!
//! # Adding a backend
//!
//! A third backend (say a native one) is one new room, `backend/<name>/`:
//!
//! 1. a state type (the device: its limits, features, settings, caches) implementing
//!    [`Backend`]: buffers (create, duplicate, read, write, copy, forget), kernels (prepare,
//!    launch a checked launch, collect a batch), synchronisation (flush, synchronize, device
//!    loss) and timing (profiling);
//! 2. its buffers as a variant of [`Storage`], and a [`Pending`] for launches that finish
//!    after `launch` returns (one that runs before returning, as the CPU backend does, needs
//!    none);
//! 3. a variant of [`Backends`] (with its arm in `with_backend!`, next to it) and a
//!    constructor on [`Device`] (as `Device::cpu_with` and `Device::gpu_with` are), plus
//!    whatever its own public settings are, reached through an accessor like
//!    [`Device::as_cpu`];
//! 4. a field `trace: Option<Arc<crate::trace::Trace>>`, opened from [`Config::trace`] when the
//!    device is made: the shared layer records launches, batches and transfers into it
//!    (`crate::trace`), and the backend adds its own events (pipelines, GPU spans).
//!
//! The shared checks need nothing: a launch reaches [`Backend::launch`] already checked
//! against the limits and features the backend reports.

pub(crate) mod cpu;
pub(crate) mod wgpu;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use crate::arg::{Arg, KernelSource};
use crate::buffer::RawBuffer;
use crate::config::Config;
use crate::device::{Device, Features, Limits};
use crate::error::Result;
use crate::launch::{Launch, Valid};
use sarek_ir::abi::CoopShape;

/// A boxed future the backends return for waits that do not block.
pub(crate) type Wait<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// What a device backend does for a [`Device`]. Methods that hand out user-facing types
/// ([`Launch`], wrapped buffers) take the `Device` that owns the backend.
pub(crate) trait Backend: Send + Sync {
    /// The device's identity, which buffers carry (a buffer of another device is refused).
    fn id(&self) -> u64;
    /// The settings the device was made with.
    fn config(&self) -> &Config;
    /// Where its kernels' prints go, and their channels' size (`crate::debug`).
    fn debug(&self) -> &crate::debug::DebugState;
    /// The name [`Device::name`] reports.
    fn name(&self) -> String;
    /// The limits launches are checked against.
    fn limits(&self) -> &Limits;
    /// The features launches are checked against.
    fn features(&self) -> Features;
    /// The cooperative-matrix shapes the device offers (`None`: unknown).
    fn coop_offer(&self) -> Option<Vec<CoopShape>>;
    /// The shapes a launch's cooperative matrices are checked against (`None`: only the
    /// feature is checked).
    fn launch_coop_offer(&self) -> Option<Vec<CoopShape>> {
        self.coop_offer()
    }
    /// Whether launches may run through a kernel's coarsened entry point (with
    /// [`Config::coarsen`]).
    fn coarsens(&self) -> bool;
    /// An error once the device is lost.
    fn check_lost(&self) -> Result<()>;

    /// A buffer of `bytes` bytes (at least `at_least` of room), holding `contents` or zeros.
    fn create_buffer(
        &self,
        device: &Device,
        bytes: u64,
        at_least: u64,
        contents: Option<&[u8]>,
    ) -> Result<Storage>;
    /// A copy of the first `bytes` bytes of `src` made on the device itself, or `None` where
    /// the backend copies through the host as between two devices.
    fn duplicate(&self, device: &Device, src: &RawBuffer, bytes: u64) -> Result<Option<Storage>>;
    /// The bytes of `buffer` (its whole view, or `(start, len)` bytes of it), after every
    /// launch issued before.
    fn read(
        &self,
        device: &Device,
        buffer: &RawBuffer,
        range: Option<(u64, u64)>,
    ) -> Result<Vec<u8>>;
    /// The bytes of `buffer`'s whole view, without blocking.
    fn read_async(
        &self,
        device: &Device,
        buffer: &RawBuffer,
    ) -> Result<Wait<'static, Result<Vec<u8>>>>;
    /// Writes `bytes` into `buffer`'s view (from its start, or from byte `at`).
    fn write(
        &self,
        device: &Device,
        buffer: &RawBuffer,
        at: Option<u64>,
        bytes: &[u8],
    ) -> Result<()>;
    /// Copies `bytes` bytes from byte `src_at` of `src` to byte `dst_at` of `dst`, in order
    /// with launches.
    fn copy(
        &self,
        device: &Device,
        src: (&RawBuffer, u64),
        dst: (&RawBuffer, u64),
        bytes: u64,
    ) -> Result<()>;
    /// Forgets what the backend caches about buffer `id`, which is being dropped.
    fn forget_buffer(&self, id: u64);

    /// Makes `kernels` ready ahead of their first launches ([`Device::prepare`]).
    fn prepare(&self, device: &Device, kernels: &[&'static KernelSource]) -> Result<()>;
    /// Runs or submits a checked launch of `source`.
    fn launch(
        &self,
        device: &Device,
        source: &'static KernelSource,
        valid: Valid<'_>,
        args: &[Arg<'_>],
    ) -> Result<Launch>;
    /// An empty batch of launches ([`Device::batch`]).
    fn batch(&self) -> Box<dyn BatchWork>;

    /// Sends what the backend holds back to the device now.
    fn flush(&self);
    /// Waits until every launch issued before has finished.
    fn synchronize(&self) -> Result<()>;
    /// Whether launches can be timed.
    fn can_profile(&self) -> bool;
    /// Turns timing on or off (only called with `on` where [`Backend::can_profile`]).
    fn set_profiling(&self, on: bool);
    /// Whether launches are timed now.
    fn profiling(&self) -> bool;
}

/// A launch that finishes after `launch` returned: what its [`Launch`] waits for.
pub(crate) trait Pending: Send + Sync {
    /// Whether it has finished (without waiting).
    fn is_done(&self) -> bool;
    /// Blocks until it has finished.
    fn wait(&self) -> Result<()>;
    /// Resolves when it has finished, without blocking.
    fn finished(&self) -> Wait<'_, ()>;
    /// Whether it was timed.
    fn timed(&self) -> bool;
    /// Its time on the device, once finished (only called where [`Pending::timed`]).
    fn elapsed(&self) -> Result<Duration>;
}

/// A backend's collection of checked launches ([`crate::Batch`]).
pub(crate) trait BatchWork: Send + Sync {
    /// The number of launches added.
    fn len(&self) -> usize;
    /// Adds a checked launch.
    fn add(
        &mut self,
        device: &Device,
        source: &'static KernelSource,
        valid: Valid<'_>,
        args: &[Arg<'_>],
    ) -> Result<()>;
    /// Runs or submits the launches, in order.
    fn submit(self: Box<Self>, device: &Device) -> Result<Launch>;
}

/// Evaluates `$body` with `$b` bound to the backend in `$backends` (a `&Backends`) as its own
/// type: the one `match` over the backends, so that a launch reaches its backend without a
/// virtual call ([`Backends::get`] is this, made a trait object).
macro_rules! with_backend {
    ($backends:expr, $b:ident => $body:expr) => {
        match $backends {
            $crate::backend::Backends::Wgpu($b) => $body,
            $crate::backend::Backends::Cpu($b) => $body,
        }
    };
}
pub(crate) use with_backend;

/// The backends a [`Device`] can hold: the one place that lists them.
#[derive(Clone)]
pub(crate) enum Backends {
    Wgpu(Arc<wgpu::WgpuBackend>),
    Cpu(Arc<cpu::CpuBackend>),
}

/// Where a buffer's bytes live: one variant per backend.
#[derive(Debug)]
pub(crate) enum Storage {
    /// In a GPU buffer.
    Wgpu(wgpu::GpuBuffer),
    /// In host memory, for the CPU backend.
    Cpu(cpu::Words),
}

impl Backends {
    /// The backend behind the trait.
    #[inline]
    pub(crate) fn get(&self) -> &dyn Backend {
        with_backend!(self, b => &**b as &dyn Backend)
    }
}

impl Device {
    /// The device's backend.
    #[inline]
    pub(crate) fn backend_impl(&self) -> &dyn Backend {
        self.backend.get()
    }

    /// The wgpu backend's state, on a GPU device.
    #[inline]
    pub(crate) fn as_wgpu(&self) -> Option<&wgpu::WgpuBackend> {
        match &self.backend {
            Backends::Wgpu(b) => Some(b),
            Backends::Cpu(_) => None,
        }
    }

    /// The CPU backend's state, on a CPU device.
    #[inline]
    pub(crate) fn as_cpu(&self) -> Option<&cpu::CpuBackend> {
        match &self.backend {
            Backends::Cpu(b) => Some(b),
            Backends::Wgpu(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    /// The rooms above the seam and the CPU backend's, which must not name wgpu (the public
    /// interop in `device.rs`, `buffer.rs`, `error.rs`, `raw.rs` and `lib.rs` may).
    const WGPU_FREE: [(&str, &str); 10] = [
        ("backend/mod.rs", include_str!("mod.rs")),
        ("backend/cpu/mod.rs", include_str!("cpu/mod.rs")),
        ("backend/cpu/engine.rs", include_str!("cpu/engine.rs")),
        ("launch/mod.rs", include_str!("../launch/mod.rs")),
        ("launch/args.rs", include_str!("../launch/args.rs")),
        ("launch/handle.rs", include_str!("../launch/handle.rs")),
        ("batch.rs", include_str!("../batch.rs")),
        ("copy.rs", include_str!("../copy.rs")),
        ("split.rs", include_str!("../split.rs")),
        ("trace.rs", include_str!("../trace.rs")),
    ];

    #[test]
    fn only_the_wgpu_room_names_wgpu() {
        for (file, text) in WGPU_FREE {
            // Up to the file's tests (this one spells wgpu's paths to look for them).
            let code = text.split("#[cfg(test)]").next().unwrap_or(text);
            for (n, line) in code.lines().enumerate() {
                let code = line.split("//").next().unwrap_or("");
                // The wgpu room itself is named `backend::wgpu`; its types are not wgpu's.
                let named = code
                    .replace("wgpu::WgpuBackend", "")
                    .replace("wgpu::GpuBuffer", "")
                    .replace("backend::wgpu", "");
                assert!(
                    !named.contains("wgpu::") && !named.contains("use wgpu"),
                    "{file}:{}: `{line}` names wgpu outside the wgpu backend",
                    n + 1
                );
            }
        }
    }
}
