//! Typed GPU buffers.

use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::device::Device;
use crate::error::{Error, Result};

/// A type that can live in a kernel's buffer: plain data with WGSL's layout.
///
/// Implemented for `f32`, `i32` and `u32`.
pub trait Element: bytemuck::Pod + Send + Sync + 'static {}
impl Element for f32 {}
impl Element for i32 {}
impl Element for u32 {}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// The untyped part of a [`Buffer`].
#[derive(Debug)]
pub struct RawBuffer {
    pub(crate) buffer: wgpu::Buffer,
    pub(crate) len: usize,
    pub(crate) device_id: u64,
    pub(crate) id: u64,
}

impl RawBuffer {
    /// The number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the buffer has no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// A buffer of `T` in GPU memory, made by [`Device::upload`] or [`Device::zeros`].
///
/// A kernel parameter `&[T]` takes a `&Buffer<T>`, and `&mut [T]` a `&mut Buffer<T>`, so the
/// borrow checker rules out writing a buffer through two bindings of one launch.
///
/// ```no_run
/// # fn main() -> sarek_rt::Result<()> {
/// let dev = sarek_rt::Device::new()?;
/// let mut buf = dev.upload(&[1.0f32, 2.0, 3.0])?;
/// buf.write(&[4.0, 5.0, 6.0])?;
/// assert_eq!(buf.read()?, vec![4.0, 5.0, 6.0]);
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct Buffer<T: Element> {
    pub(crate) raw: RawBuffer,
    pub(crate) device: Device,
    marker: PhantomData<T>,
}

impl<T: Element> Buffer<T> {
    pub(crate) fn new(device: &Device, contents: Option<&[T]>, len: usize) -> Result<Self> {
        let elem = std::mem::size_of::<T>() as u64;
        let bytes = elem * len as u64;
        device.check_buffer_size(bytes)?;
        // wgpu cannot bind an empty buffer; an empty `Buffer` keeps a few bytes.
        let alloc = bytes.max(16).next_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT);
        let buffer = device.create_storage_buffer(alloc, contents.map(bytemuck::cast_slice))?;
        Ok(Buffer {
            raw: RawBuffer {
                buffer,
                len,
                device_id: device.id(),
                id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            },
            device: device.clone(),
            marker: PhantomData,
        })
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.raw.len
    }

    /// Whether the buffer has no elements.
    pub fn is_empty(&self) -> bool {
        self.raw.len == 0
    }

    /// The device the buffer lives on.
    pub fn device(&self) -> &Device {
        &self.device
    }

    /// The underlying wgpu buffer, for the user's own passes. It may be larger than the
    /// data (an empty buffer keeps 16 bytes).
    pub fn wgpu_buffer(&self) -> &wgpu::Buffer {
        &self.raw.buffer
    }

    /// The untyped view used by launches.
    pub fn raw(&self) -> &RawBuffer {
        &self.raw
    }

    /// Copies the buffer back to the host, waiting for every launch submitted before.
    pub fn read(&self) -> Result<Vec<T>> {
        if self.is_empty() {
            return Ok(Vec::new());
        }
        let bytes = self.device.read_buffer(
            &self.raw.buffer,
            (self.len() * std::mem::size_of::<T>()) as u64,
        )?;
        Ok(bytemuck::pod_collect_to_vec(&bytes))
    }

    /// Replaces the contents with `data`, which must have the buffer's length. Ordered after
    /// every launch submitted before.
    pub fn write(&mut self, data: &[T]) -> Result<()> {
        if data.len() != self.len() {
            return Err(Error::LengthMismatch {
                len: self.len(),
                given: data.len(),
            });
        }
        self.device
            .write_buffer(&self.raw.buffer, bytemuck::cast_slice(data))
    }
}
