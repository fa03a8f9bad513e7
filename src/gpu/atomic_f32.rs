//! `AtomicF32`: an atomic `f32` for kernels (WGSL `atomic<f32>`).

use std::sync::atomic::{AtomicU32, Ordering};

/// An `f32` that invocations update atomically: `acc[0].fetch_add(x, Ordering::Relaxed)`.
/// Kernels support `load`, `store`, `fetch_add`, `fetch_sub` and `swap` (WGSL's float
/// atomics; no `compare_exchange`, `fetch_min`/`fetch_max`), relaxed as every WGSL atomic.
///
/// - A buffer parameter `&[AtomicF32]` (passed as a `&Buffer<f32>`) is WGSL's
///   `array<atomic<f32>>` and needs the wgpu feature `SHADER_FLOAT32_ATOMIC` (`ABI.features`):
///   lavapipe, NVIDIA and recent AMD drivers have it; launching on a device without it fails
///   with `Error::MissingFeature`.
/// - A workgroup array `shared::<[AtomicF32; N]>()` needs nothing: WGSL allows float atomics
///   only in storage buffers, so Sarek keeps the bits in an `atomic<u32>` and adds with a
///   compare-exchange loop, which runs on every WebGPU device.
///
/// The order of concurrent additions is the device's, so a float sum through atomics can
/// differ between runs in its last bits. On the host it is an ordinary atomic over the
/// float's bits.
///
/// ```
/// use std::sync::atomic::Ordering;
/// let a = sarek::gpu::AtomicF32::new(1.5);
/// assert_eq!(a.fetch_add(2.0, Ordering::Relaxed), 1.5);
/// assert_eq!(a.swap(-1.0, Ordering::Relaxed), 3.5);
/// assert_eq!(a.load(Ordering::Relaxed), -1.0);
/// ```
#[derive(Debug, Default)]
#[repr(transparent)]
pub struct AtomicF32(AtomicU32);

impl AtomicF32 {
    /// An atomic holding `value`.
    pub const fn new(value: f32) -> AtomicF32 {
        AtomicF32(AtomicU32::new(value.to_bits()))
    }

    /// The current value.
    pub fn load(&self, order: Ordering) -> f32 {
        f32::from_bits(self.0.load(order))
    }

    /// Stores `value`.
    pub fn store(&self, value: f32, order: Ordering) {
        self.0.store(value.to_bits(), order)
    }

    /// Stores `value`; returns the previous value.
    pub fn swap(&self, value: f32, order: Ordering) -> f32 {
        f32::from_bits(self.0.swap(value.to_bits(), order))
    }

    /// Adds `value`; returns the previous value.
    pub fn fetch_add(&self, value: f32, order: Ordering) -> f32 {
        self.update(order, |v| v + value)
    }

    /// Subtracts `value`; returns the previous value.
    pub fn fetch_sub(&self, value: f32, order: Ordering) -> f32 {
        self.update(order, |v| v - value)
    }

    fn update(&self, order: Ordering, f: impl Fn(f32) -> f32) -> f32 {
        let load = match order {
            Ordering::Release | Ordering::AcqRel => Ordering::Acquire,
            other => other,
        };
        let previous = self
            .0
            .fetch_update(order, load, |bits| Some(f(f32::from_bits(bits)).to_bits()))
            .unwrap_or_else(|bits| bits);
        f32::from_bits(previous)
    }
}
