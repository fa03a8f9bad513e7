//! The intrinsics a kernel calls, as ordinary Rust functions.
//!
//! Inside `#[sarek::kernel]` these calls become WGSL built-ins; rustc still type-checks the
//! body against these signatures, so rust-analyzer completes and checks kernel code. Called on
//! the host (through the kernel's generated `body` function), they read the invocation set by
//! [`with_invocation`], which makes a kernel testable as plain Rust, one invocation at a time.
//!
//! Every index is a `usize`, which is 32 bits on the GPU.

use std::cell::Cell;

mod atomic_f32;
mod subgroups;
pub use crate::coop::{CoopElement, CoopMatrix};
pub use atomic_f32::AtomicF32;
pub use subgroups::*;
mod bounds;
pub use bounds::{Const, Float, Integer, Scalar};
/// `f16` in kernel bodies (the glob import of `sarek::gpu` brings it into a kernel's `body`).
pub use half::f16;
mod erf;
mod half_math;
pub use crate::{gpu_print, gpu_println};
pub use erf::Erf;
pub use half_math::HalfMath;

/// Prints a line from a kernel, with Rust's format syntax: `gpu_println!("i = {i}, x =
/// {:.3}", x[i])`. Arguments are the kernel's scalars and vectors (vectors with `{:?}`).
///
/// Inside `#[sarek::kernel]` the line goes to the kernel's debug buffer, and the runtime
/// writes it out (in invocation order) when the launch is waited for or its data read; see
/// the guide's chapter on debugging kernels. In a kernel's `body` on the host it is
/// `println!`.
#[macro_export]
macro_rules! gpu_println {
    ($($arg:tt)*) => { ::std::println!($($arg)*) };
}

/// [`gpu_println!`] without the newline.
#[macro_export]
macro_rules! gpu_print {
    ($($arg:tt)*) => { ::std::print!($($arg)*) };
}

/// The ids of one invocation, for running a kernel body on the host.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Invocation {
    /// Index inside the workgroup.
    pub thread_idx: [u32; 3],
    /// Index of the workgroup in the grid.
    pub block_idx: [u32; 3],
    /// The workgroup size.
    pub block_dim: [u32; 3],
    /// The grid size in workgroups.
    pub grid_dim: [u32; 3],
}

thread_local! {
    static CURRENT: Cell<Invocation> = const { Cell::new(Invocation {
        thread_idx: [0; 3],
        block_idx: [0; 3],
        block_dim: [1; 3],
        grid_dim: [1; 3],
    }) };
}

/// Runs `f` with the intrinsics of this module reporting `invocation`.
///
/// ```
/// use sarek::gpu::{self, Invocation};
/// let inv = Invocation { thread_idx: [3, 0, 0], block_idx: [2, 0, 0], block_dim: [64, 1, 1], grid_dim: [4, 1, 1] };
/// assert_eq!(gpu::with_invocation(inv, gpu::global_thread_id), 2 * 64 + 3);
/// ```
pub fn with_invocation<R>(invocation: Invocation, f: impl FnOnce() -> R) -> R {
    let previous = CURRENT.with(|c| c.replace(invocation));
    let result = f();
    CURRENT.with(|c| c.set(previous));
    result
}

fn current() -> Invocation {
    CURRENT.with(Cell::get)
}

macro_rules! axis_intrinsics {
    ($($(#[$doc:meta])* $name:ident => |$i:ident| $body:expr;)*) => {
        $(
            $(#[$doc])*
            #[inline]
            pub fn $name() -> usize {
                let $i = current();
                ($body) as usize
            }
        )*
    };
}

axis_intrinsics! {
    /// Index of the invocation inside its workgroup, along x.
    thread_idx_x => |i| i.thread_idx[0];
    /// Index of the invocation inside its workgroup, along y.
    thread_idx_y => |i| i.thread_idx[1];
    /// Index of the invocation inside its workgroup, along z.
    thread_idx_z => |i| i.thread_idx[2];
    /// Index of the workgroup in the grid, along x.
    block_idx_x => |i| i.block_idx[0];
    /// Index of the workgroup in the grid, along y.
    block_idx_y => |i| i.block_idx[1];
    /// Index of the workgroup in the grid, along z.
    block_idx_z => |i| i.block_idx[2];
    /// The kernel's workgroup size along x.
    block_dim_x => |i| i.block_dim[0];
    /// The kernel's workgroup size along y.
    block_dim_y => |i| i.block_dim[1];
    /// The kernel's workgroup size along z.
    block_dim_z => |i| i.block_dim[2];
    /// Number of workgroups in the grid along x.
    grid_dim_x => |i| i.grid_dim[0];
    /// Number of workgroups in the grid along y.
    grid_dim_y => |i| i.grid_dim[1];
    /// Number of workgroups in the grid along z.
    grid_dim_z => |i| i.grid_dim[2];
    /// `block_idx_x() * block_dim_x() + thread_idx_x()`.
    global_idx_x => |i| i.block_idx[0] * i.block_dim[0] + i.thread_idx[0];
    /// `block_idx_y() * block_dim_y() + thread_idx_y()`.
    global_idx_y => |i| i.block_idx[1] * i.block_dim[1] + i.thread_idx[1];
    /// `block_idx_z() * block_dim_z() + thread_idx_z()`.
    global_idx_z => |i| i.block_idx[2] * i.block_dim[2] + i.thread_idx[2];
}

/// The invocation's row-major index in the whole grid:
/// `global_idx_x() + width * (global_idx_y() + height * global_idx_z())`, where width and
/// height count threads. For a 1-D launch it equals `global_idx_x()`.
#[inline]
pub fn global_thread_id() -> usize {
    let i = current();
    let width = i.grid_dim[0].wrapping_mul(i.block_dim[0]);
    let height = i.grid_dim[1].wrapping_mul(i.block_dim[1]);
    let g = |a: usize| {
        i.block_idx[a]
            .wrapping_mul(i.block_dim[a])
            .wrapping_add(i.thread_idx[a])
    };
    g(0).wrapping_add(width.wrapping_mul(g(1).wrapping_add(height.wrapping_mul(g(2))))) as usize
}

/// Waits until every invocation of the workgroup reaches this point; workgroup memory written
/// before is then visible to all of them. Every invocation must reach it (Sarek checks this at
/// compile time). On the host, one invocation at a time, it does nothing.
#[inline]
pub fn block_barrier() {}

/// Like [`block_barrier`], for storage buffers (WGSL's `storageBarrier()`).
#[inline]
pub fn storage_barrier() {}

/// The low byte of each component in one word, component `x` in the lowest byte (WGSL's
/// `pack4xU8`): four bytes of a `&[u32]` buffer that `dev.upload_bytes` filled.
#[inline]
pub fn pack4x_u8(v: crate::UVec4) -> u32 {
    u32::from_le_bytes(v.to_array().map(|c| c as u8))
}

/// The low byte of each component in one word (WGSL's `pack4xI8`).
#[inline]
pub fn pack4x_i8(v: crate::IVec4) -> u32 {
    u32::from_le_bytes(v.to_array().map(|c| c as u8))
}

/// The four bytes of `word`, zero-extended, the lowest first (WGSL's `unpack4xU8`).
#[inline]
pub fn unpack4x_u8(word: u32) -> crate::UVec4 {
    crate::UVec4::from(word.to_le_bytes().map(u32::from))
}

/// The four bytes of `word`, sign-extended, the lowest first (WGSL's `unpack4xI8`).
#[inline]
pub fn unpack4x_i8(word: u32) -> crate::IVec4 {
    crate::IVec4::from(word.to_le_bytes().map(|b| i32::from(b as i8)))
}

/// Both components as IEEE halves (nearest, ties to even), `x` in the low 16 bits (WGSL's
/// `pack2x16float`; a value beyond the half range is indeterminate on a GPU).
#[inline]
pub fn pack2x16_float(v: crate::Vec2) -> u32 {
    use sarek_cpu::interp::packing::f32_to_f16;
    u32::from(f32_to_f16(v.x)) | u32::from(f32_to_f16(v.y)) << 16
}

/// The two IEEE halves of `word` as `f32`s, the low one in `x` (WGSL's `unpack2x16float`).
#[inline]
pub fn unpack2x16_float(word: u32) -> crate::Vec2 {
    use sarek_cpu::interp::packing::f16_to_f32;
    crate::Vec2::new(f16_to_f32(word as u16), f16_to_f32((word >> 16) as u16))
}

/// A [`block_barrier`], then the value of `element`, an element of a workgroup array
/// (`workgroup_uniform_load(&flag[0])`; WGSL's `workgroupUniformLoad`). Every invocation of
/// the workgroup gets the same value, so Sarek's uniformity check lets it decide a loop or a
/// branch that contains barriers: the way to end an iterative solver's loop on a flag that
/// some threads set. Like a barrier, every invocation must reach it. On the host, one
/// invocation at a time, it reads the element.
#[inline]
pub fn workgroup_uniform_load<T: Copy>(element: &T) -> T {
    *element
}

/// A type that can live in workgroup memory: `f32`, `i32`, `u32`, `f16`, `i64`, `u64`, `AtomicU32`,
/// `AtomicI32`, `AtomicF32`, the vectors (`Vec4`, `F16Vec4`, ...) and arrays of them.
pub trait SharedMemory: Sized + 'static {
    /// A zeroed value.
    fn zeroed() -> Self;
}

macro_rules! shared_memory {
    ($($t:ty => $zero:expr),*) => {
        $(impl SharedMemory for $t {
            fn zeroed() -> Self {
                $zero
            }
        })*
    };
}

shared_memory! {
    f32 => 0.0,
    i32 => 0,
    u32 => 0,
    std::sync::atomic::AtomicU32 => std::sync::atomic::AtomicU32::new(0),
    std::sync::atomic::AtomicI32 => std::sync::atomic::AtomicI32::new(0),
    AtomicF32 => AtomicF32::new(0.0),
    half::f16 => half::f16::ZERO,
    i64 => 0,
    u64 => 0
}

macro_rules! shared_vectors {
    ($($t:ty),*) => {
        $(impl SharedMemory for $t {
            fn zeroed() -> Self {
                <$t>::default()
            }
        })*
    };
}

shared_vectors!(
    crate::Vec2,
    crate::Vec3,
    crate::Vec4,
    crate::IVec2,
    crate::IVec3,
    crate::IVec4,
    crate::UVec2,
    crate::UVec3,
    crate::UVec4,
    crate::F16Vec2,
    crate::F16Vec4
);
#[cfg(feature = "glam")]
shared_vectors!(
    glam::Vec2,
    glam::Vec3,
    glam::Vec4,
    glam::IVec2,
    glam::IVec3,
    glam::IVec4,
    glam::UVec2,
    glam::UVec3,
    glam::UVec4
);

impl<T: SharedMemory, const N: usize> SharedMemory for [T; N] {
    fn zeroed() -> Self {
        std::array::from_fn(|_| T::zeroed())
    }
}

/// Workgroup memory: `let tile = shared::<[f32; 256]>();` declares an array shared by the
/// invocations of a workgroup (WGSL `var<workgroup>`). The size must be a literal or a `const`
/// of the kernel. On the GPU it is zero-initialised.
///
/// On the host (the plain-Rust `body` of a kernel) each call returns a fresh zeroed array that
/// is never freed, so workgroup cooperation cannot be reproduced there one invocation at a
/// time; it exists so that rustc type-checks the kernel.
pub fn shared<T: SharedMemory>() -> &'static mut T {
    Box::leak(Box::new(T::zeroed()))
}

/// Workgroup memory sized at launch: `let row = shared_len::<f32>(n);` declares an array of
/// `n` elements shared by the invocations of a workgroup, where `n` is a `u32` or `usize`
/// parameter of the kernel, named directly. It is CUDA's dynamic `extern __shared__ float
/// row[];` with the length taken from an argument instead of the launch's byte count. Index
/// it as `row[i]`; its length inside the kernel is `n`.
///
/// WGSL sizes the `var<workgroup>` array by an `override` constant; the runtime makes one
/// pipeline per distinct length (cached like any pipeline) and refuses a launch whose length
/// is 0, or whose workgroup memory in all passes the device's
/// `max_compute_workgroup_storage_size`, with [`crate::Error::WorkgroupMemory`] before
/// anything runs. The elements may be any type [`shared`] takes, arrays of them included
/// (`shared_len::<[f32; 4]>(n)` is `n` arrays of four). Such an array cannot be passed to a
/// helper function or used by a cooperative matrix load or store. On the GPU it is
/// zero-initialised, and an index past its end is clamped (like any workgroup index), unless
/// it is proven in bounds; the checked CPU backend reports it.
///
/// On the host (the plain-Rust `body` of a kernel) each call returns a fresh zeroed slice
/// that is never freed, as [`shared`] does.
pub fn shared_len<T: SharedMemory>(len: impl TryInto<usize>) -> &'static mut [T] {
    let len = len.try_into().unwrap_or(0);
    Box::leak((0..len).map(|_| T::zeroed()).collect())
}
