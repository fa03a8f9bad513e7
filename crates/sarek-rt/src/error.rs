//! Sarek's one error type.

/// Everything that can go wrong at run time. Messages say what happened and what to do.
///
/// ```
/// let e = sarek_rt::Error::LengthMismatch { len: 4, given: 3 };
/// assert_eq!(e.to_string(), "cannot write 3 elements into a buffer of 4; lengths must match");
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// No GPU adapter was found (or none matched `SAREK_ADAPTER`).
    #[error("no GPU adapter found{0}; install a Vulkan, Metal or DX12 driver (on Linux without a GPU: `apt-get install mesa-vulkan-drivers`)")]
    NoAdapter(String),
    /// The adapter refused to create a device (wgpu's error is the [`source`]); the
    /// adapter's driver may be broken or out of memory: try another adapter or
    /// [`crate::Device::cpu`].
    ///
    /// [`source`]: std::error::Error::source
    #[error("the GPU adapter refused to create a device")]
    // Public interop: wgpu's own error, as the source.
    RequestDevice(#[source] wgpu::RequestDeviceError),
    /// A buffer larger than the device allows in one binding or allocation.
    #[error("a buffer of {bytes} bytes exceeds this device's limit of {limit} bytes ({which}); split the data across launches")]
    BufferTooLarge {
        /// The requested size (`u64::MAX` when the byte count overflows 64 bits).
        bytes: u64,
        /// The device limit.
        limit: u64,
        /// Which limit.
        which: &'static str,
    },
    /// A wgpu buffer that cannot serve as a kernel buffer, or lacks a usage an operation needs.
    #[error("this buffer cannot be used: {0}")]
    BadBuffer(String),
    /// A write whose length differs from the buffer's.
    #[error("cannot write {given} elements into a buffer of {len}; lengths must match")]
    LengthMismatch {
        /// The buffer's length.
        len: usize,
        /// The data's length.
        given: usize,
    },
    /// A grid the device cannot run: a dimension over the device's limit that cannot be
    /// folded, or more than 2^32 invocations in all (`hint` says which).
    #[error("grid of {groups:?} workgroups is more than this device runs (at most {limit} workgroups per dimension, and 2^32 invocations in all){hint}")]
    GridTooLarge {
        /// The workgroups asked for.
        groups: [u64; 3],
        /// The per-dimension limit.
        limit: u32,
        /// How to fix it.
        hint: &'static str,
    },
    /// A kernel that declares more workgroup memory than the device has (at this launch's
    /// lengths, for arrays sized at launch).
    #[error("kernel `{kernel}` uses {needed} bytes of workgroup memory, but this device allows {limit} (max_compute_workgroup_storage_size); use smaller `shared()` arrays, or pass a smaller length to a `shared_len()` one")]
    WorkgroupMemory {
        /// The kernel.
        kernel: String,
        /// Bytes the kernel declares.
        needed: u32,
        /// The device limit.
        limit: u32,
    },
    /// A launch that sizes a workgroup array (`shared_len::<T>(n)`) with a length of 0, which
    /// WGSL cannot declare.
    #[error("kernel `{kernel}` sizes a workgroup array with `shared_len` by parameter {param}, which is 0 at this launch; WGSL has no empty arrays, so pass a length of at least 1 (or skip the launch)")]
    EmptyWorkgroupArray {
        /// The kernel.
        kernel: String,
        /// The index of the parameter that gives the length.
        param: usize,
    },
    /// A kernel that needs a wgpu feature the device does not have (its `ABI.features`; see
    /// [`crate::Device::features`]).
    #[error("kernel `{kernel}` uses {}, which needs the wgpu feature {feature}, and this device does not have it{detail}; run it on a device that has it (`Device::features()` lists a device's features; a device given to `Device::from_wgpu` must be created with it in `required_features`) or write the kernel without it", feature.used_by())]
    MissingFeature {
        /// The kernel.
        kernel: String,
        /// The feature it needs (for cooperative matrices, with the shape it needs).
        feature: sarek_ir::abi::Feature,
        /// What else helps: for cooperative matrices, the shapes the device offers
        /// (`Device::cooperative_matrix_shapes`); empty otherwise.
        detail: String,
    },
    /// A kernel that needs more of a limit than the device allows: only a kernel declared
    /// with `limits = "device"` can (a portable one fits WebGPU's defaults).
    #[error("kernel `{kernel}` needs {needed} for the device limit `{limit}`, but this device allows {available}; use a device with a higher limit or make the kernel fit (a kernel without `limits = \"device\"` fits every device)")]
    DeviceLimit {
        /// The kernel.
        kernel: String,
        /// The wgpu limit (`max_compute_invocations_per_workgroup`, ...).
        limit: &'static str,
        /// What the kernel needs.
        needed: u64,
        /// What the device allows.
        available: u64,
    },
    /// The same buffer bound twice to one launch, where one binding writes.
    #[error("kernel `{kernel}`: the same buffer is passed as parameters {first} and {second}, and one of them is `&mut`; a kernel cannot read and write one buffer through two bindings")]
    Aliasing {
        /// The kernel.
        kernel: String,
        /// One parameter index.
        first: usize,
        /// The other parameter index.
        second: usize,
    },
    /// A buffer created on another device; move it with [`crate::Buffer::copy_to`] first.
    #[error("kernel `{kernel}`: parameter {param} is a buffer of another device; move it with `Buffer::copy_to` first")]
    WrongDevice {
        /// The kernel.
        kernel: String,
        /// The parameter index.
        param: usize,
    },
    /// A range of elements ([`crate::Buffer::read_range`], [`crate::Buffer::write_at`],
    /// [`crate::Device::copy`]) that does not lie inside the buffer.
    #[error("elements {start}..{end} are not inside a buffer of {len}")]
    RangeOutOfBounds {
        /// The first element asked for.
        start: usize,
        /// One past the last element asked for.
        end: usize,
        /// The buffer's length.
        len: usize,
    },
    /// A buffer of another device given to a device's copy ([`crate::Device::copy`]).
    #[error("the {0} buffer of this copy belongs to another device; move it with `Buffer::copy_to` first")]
    ForeignBuffer(&'static str),
    /// A scalar argument that does not fit the GPU type (a `usize` over `u32::MAX`).
    #[error("kernel `{kernel}`: parameter {param} is {value}, which does not fit in the GPU's 32-bit `usize`")]
    ScalarOutOfRange {
        /// The kernel.
        kernel: String,
        /// The parameter index.
        param: usize,
        /// The value.
        value: u64,
    },
    /// Arguments that do not match the kernel's ABI (through the untyped API), or that a
    /// `sarek::algo` call cannot take (buffer lengths that do not fit its sizes).
    #[error("kernel `{kernel}`: {message}")]
    BadArguments {
        /// The kernel.
        kernel: String,
        /// What is wrong.
        message: String,
    },
    /// The device refused the kernel's pipeline: naga validated the kernel when it compiled,
    /// so this is a driver limit or a driver bug; the message is wgpu's (kept as text because
    /// wgpu's error type cannot cross threads). Try the kernel on another device or the CPU
    /// backend, and report it with the message.
    #[error("kernel `{kernel}`: the device could not create its pipeline: {message}")]
    Pipeline {
        /// The kernel.
        kernel: String,
        /// wgpu's report.
        message: String,
    },
    /// The device ran out of memory (wgpu's message): drop buffers no longer needed, or work
    /// in smaller pieces.
    #[error("the GPU is out of memory: {0}")]
    OutOfMemory(String),
    /// The device was lost (driver reset, GPU removed, or destroyed); make a new `Device`.
    #[error("the GPU device was lost ({0}); create a new `Device`")]
    DeviceLost(String),
    /// Waiting for the GPU failed (wgpu's error is the [`source`]): a timeout or a lost
    /// device; create a new `Device` if it persists.
    ///
    /// [`source`]: std::error::Error::source
    #[error("waiting for the GPU failed")]
    // Public interop: wgpu's own error, as the source.
    Poll(#[source] wgpu::PollError),
    /// A kernel run with the CPU backend's checks on ([`crate::Device::set_checks`]) indexed
    /// out of bounds or divided an integer by zero.
    #[error("kernel `{kernel}` at {location}, block_idx {block:?}, thread_idx {thread:?}: {message} (found by the CPU backend's checks)")]
    KernelFault {
        /// The kernel.
        kernel: String,
        /// `file:line:column` of the faulting operation.
        location: String,
        /// `block_idx` of the faulting invocation.
        block: [u32; 3],
        /// `thread_idx` of the faulting invocation.
        thread: [u32; 3],
        /// What went wrong, in Rust's words (`index out of bounds: ...`).
        message: String,
    },
    /// An assertion of a kernel failed (`assert!`, `assert_eq!`, `assert_ne!`, or a
    /// `debug_assert!` compiled in): reported by the launch on the CPU backend, and on a GPU
    /// by what next waits for it ([`crate::Launch::wait`], a buffer's `read`,
    /// [`crate::Device::synchronize`]). The kernel's other invocations ran on (a GPU cannot
    /// stop a kernel); the ids are those of the first invocation that failed.
    #[error("kernel `{kernel}` panicked at {location} in invocation {global:?} (block_idx {block:?}, thread_idx {thread:?}):\n{message}")]
    KernelAssert {
        /// The kernel.
        kernel: String,
        /// `file:line:column` of the assertion.
        location: String,
        /// Its message, as Rust's assertion would print it.
        message: String,
        /// The failing invocation's global id (`global_idx_*`).
        global: [u32; 3],
        /// Its workgroup (`block_idx_*`).
        block: [u32; 3],
        /// Its place in the workgroup (`thread_idx_*`).
        thread: [u32; 3],
    },
    /// A launch on the CPU backend that ran past its step limit
    /// ([`crate::Device::set_step_limit`]): most likely a loop that never ends.
    #[error("kernel `{kernel}` ran more than {limit} steps in workgroup {block:?} on the CPU backend (stopped at {location}); it may never terminate. If it is only long, raise the limit with `Device::set_step_limit` or `SAREK_CPU_STEPS`")]
    StepLimit {
        /// The kernel.
        kernel: String,
        /// The limit, in steps (an invocation running a statement or starting a loop
        /// iteration) per workgroup.
        limit: u64,
        /// `file:line:column` of the statement or loop it stopped at.
        location: String,
        /// `block_idx` of the workgroup that ran out.
        block: [u32; 3],
    },
    /// The CPU backend cannot run a kernel.
    #[error("kernel `{kernel}` cannot run on the CPU backend: {message}")]
    CpuBackend {
        /// The kernel.
        kernel: String,
        /// Why.
        message: String,
    },
    /// A wgpu-only operation was asked of the CPU backend.
    #[error("{0} needs a GPU device; this is the CPU backend (`Device::cpu`, or `Device::new` without a GPU)")]
    NotOnCpu(&'static str),
    /// Reading a buffer back failed: wgpu could not map it (its error is the [`source`]), or
    /// the mapping never completed. Usually the device was lost; create a new `Device`.
    ///
    /// [`source`]: std::error::Error::source
    #[error("reading a buffer back from the GPU failed{}", if .source.is_some() { "" } else { ": the mapping never completed" })]
    Map {
        /// wgpu's error, where it gave one.
        #[source]
        source: Option<Box<dyn std::error::Error + Send + Sync>>,
    },
    /// A launch since the device's last read left a loop that a software adapter cut short
    /// (Mesa's lavapipe stops every loop of an invocation after 65,535 iterations in all), so
    /// its results are wrong; the read that found it returns this instead of its data.
    #[error("kernel `{kernel}` ran a loop past this software adapter's limit (lavapipe stops an invocation's loops after 65,535 iterations in all, nested ones counted) and its results are wrong; run it on the CPU backend (`Device::cpu()`) or a hardware GPU")]
    LoopCut {
        /// The kernel whose loop was cut.
        kernel: String,
    },
    /// The trace file ([`crate::Config::trace`]) could not be written.
    #[error("could not write the trace file {}: {message}", .path.display())]
    Trace {
        /// The file.
        path: std::path::PathBuf,
        /// The operating system's error.
        message: String,
    },
}

/// `Result<T, sarek::Error>`.
///
/// ```
/// fn round_trip(dev: &sarek_rt::Device, data: &[u32]) -> sarek_rt::Result<Vec<u32>> {
///     dev.upload(data)?.read()
/// }
/// # fn main() -> sarek_rt::Result<()> {
/// let dev = sarek_rt::Device::new()?;
/// assert_eq!(round_trip(&dev, &[1, 2])?, [1, 2]);
/// # Ok(()) }
/// ```
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::error::Error as _;

    #[test]
    fn errors_cross_threads_and_chain_what_they_wrap() {
        fn shareable<T: Send + Sync + 'static>() {}
        shareable::<Error>();
        let poll = Error::Poll(wgpu::PollError::Timeout);
        assert_eq!(poll.to_string(), "waiting for the GPU failed");
        let inner = poll.source().expect("the wgpu error is the source");
        assert_eq!(inner.to_string(), wgpu::PollError::Timeout.to_string());
        let map = Error::Map {
            source: Some(Box::new(wgpu::BufferAsyncError)),
        };
        assert!(map.source().is_some());
        let never = Error::Map { source: None };
        assert!(never.source().is_none());
        assert!(never.to_string().contains("never completed"), "{never}");
    }
}
