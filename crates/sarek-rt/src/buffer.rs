//! Typed GPU buffers.

use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::device::Device;
use crate::error::{Error, Result};

/// A type that can live in a kernel's buffer: plain data with WGSL's layout.
///
/// Implemented for `f32`, `i32` and `u32`.
///
/// ```
/// fn bytes<T: sarek_rt::Element>(n: usize) -> usize {
///     n * std::mem::size_of::<T>()
/// }
/// assert_eq!(bytes::<f32>(10), 40);
/// ```
pub trait Element: bytemuck::Pod + Send + Sync + 'static {}
impl Element for f32 {}
impl Element for i32 {}
impl Element for u32 {}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// The untyped part of a [`Buffer`]: a wgpu buffer, the byte range the kernel sees, and
/// the element count.
#[derive(Debug)]
pub struct RawBuffer {
    pub(crate) buffer: wgpu::Buffer,
    pub(crate) offset: u64,
    pub(crate) len: usize,
    pub(crate) elem_size: u64,
    pub(crate) device_id: u64,
    pub(crate) id: u64,
}

impl RawBuffer {
    /// A view for binding only (a batch re-creates the views it recorded).
    pub(crate) fn view(
        buffer: wgpu::Buffer,
        offset: u64,
        len: usize,
        elem_size: u64,
        id: u64,
    ) -> RawBuffer {
        RawBuffer {
            buffer,
            offset,
            len,
            elem_size,
            device_id: 0,
            id,
        }
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the buffer has no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The binding of the kernel's view: `len` elements from `offset` (at least one element,
    /// since wgpu cannot bind an empty range).
    pub(crate) fn binding(&self) -> wgpu::BindingResource<'_> {
        let bytes = (self.len as u64 * self.elem_size).max(self.elem_size.max(4));
        let size = bytes.min(self.buffer.size() - self.offset);
        wgpu::BindingResource::Buffer(wgpu::BufferBinding {
            buffer: &self.buffer,
            offset: self.offset,
            size: std::num::NonZeroU64::new(size),
        })
    }
}

/// A buffer of `T` in GPU memory, made by [`Device::upload`] or [`Device::zeros`], or a view
/// of a wgpu buffer the caller owns ([`Buffer::from_wgpu`]).
///
/// A kernel parameter `&[T]` takes a `&Buffer<T>`, and `&mut [T]` a `&mut Buffer<T>`, so the
/// borrow checker rules out writing a buffer through two bindings of one launch. Dropping a
/// buffer while a launch that uses it is in flight is safe: wgpu frees it after the launch.
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

impl<T: Element> Drop for Buffer<T> {
    fn drop(&mut self) {
        // A cached bind group would keep the wgpu buffer alive.
        self.device.forget_buffer(self.raw.id);
    }
}

impl<T: Element> Buffer<T> {
    pub(crate) fn new(device: &Device, contents: Option<&[T]>, len: usize) -> Result<Self> {
        let elem = std::mem::size_of::<T>() as u64;
        let bytes = elem * len as u64;
        device.check_buffer_size(bytes)?;
        // wgpu cannot bind an empty buffer; an empty `Buffer` keeps a few bytes.
        let alloc = bytes.max(16).next_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT);
        let buffer = device.create_storage_buffer(alloc, contents.map(bytemuck::cast_slice))?;
        Ok(Buffer::wrap(device, buffer, 0, len))
    }

    fn wrap(device: &Device, buffer: wgpu::Buffer, offset: u64, len: usize) -> Self {
        Buffer {
            raw: RawBuffer {
                buffer,
                offset,
                len,
                elem_size: std::mem::size_of::<T>() as u64,
                device_id: device.id(),
                id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            },
            device: device.clone(),
            marker: PhantomData,
        }
    }

    /// A view of `len` elements of a wgpu buffer the caller owns, starting `offset` bytes in,
    /// for passing to kernels. The buffer must have `STORAGE` usage (and `COPY_SRC` /
    /// `COPY_DST` for [`Buffer::read`] / [`Buffer::write`]), the offset must be a multiple of
    /// the device's `min_storage_buffer_offset_alignment`, and the range must fit in the buffer.
    ///
    /// ```no_run
    /// # fn main() -> sarek_rt::Result<()> {
    /// let dev = sarek_rt::Device::new()?;
    /// let mine = dev.wgpu_device().create_buffer(&wgpu::BufferDescriptor {
    ///     label: Some("mine"),
    ///     size: 4096,
    ///     usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
    ///     mapped_at_creation: false,
    /// });
    /// // Elements 64.. of the buffer, as 100 floats.
    /// let view = sarek_rt::Buffer::<f32>::from_wgpu(&dev, mine, 256, 100)?;
    /// assert_eq!(view.len(), 100);
    /// # Ok(()) }
    /// ```
    pub fn from_wgpu(
        device: &Device,
        buffer: wgpu::Buffer,
        offset: u64,
        len: usize,
    ) -> Result<Self> {
        let elem = std::mem::size_of::<T>() as u64;
        let bytes = len as u64 * elem;
        let align = u64::from(device.limits().min_storage_buffer_offset_alignment);
        let bad = |message: String| Error::BadBuffer(message);
        if !buffer.usage().contains(wgpu::BufferUsages::STORAGE) {
            return Err(bad(
                "it lacks `wgpu::BufferUsages::STORAGE`, which kernels need".into(),
            ));
        }
        if offset % align != 0 {
            return Err(bad(format!(
                "offset {offset} is not a multiple of this device's min_storage_buffer_offset_alignment ({align})"
            )));
        }
        if offset
            .checked_add(bytes)
            .is_none_or(|end| end > buffer.size())
        {
            return Err(bad(format!(
                "{len} elements of {elem} bytes from offset {offset} do not fit in its {} bytes",
                buffer.size()
            )));
        }
        if bytes % wgpu::COPY_BUFFER_ALIGNMENT != 0 {
            return Err(bad(format!("{bytes} bytes is not a multiple of 4")));
        }
        device.check_buffer_size(bytes)?;
        Ok(Buffer::wrap(device, buffer, offset, len))
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

    /// The underlying wgpu buffer, for the caller's own passes. The elements start at
    /// [`Buffer::offset`]; the buffer may be larger than the data (an empty buffer keeps 16
    /// bytes).
    pub fn wgpu_buffer(&self) -> &wgpu::Buffer {
        &self.raw.buffer
    }

    /// Where the elements start in [`Buffer::wgpu_buffer`], in bytes.
    pub fn offset(&self) -> u64 {
        self.raw.offset
    }

    /// The untyped view used by launches.
    pub fn raw(&self) -> &RawBuffer {
        &self.raw
    }

    fn byte_len(&self) -> u64 {
        (self.len() * std::mem::size_of::<T>()) as u64
    }

    fn check_usage(&self, usage: wgpu::BufferUsages, what: &str) -> Result<()> {
        if self.raw.buffer.usage().contains(usage) {
            Ok(())
        } else {
            Err(Error::BadBuffer(format!(
                "{what} needs `wgpu::BufferUsages::{usage:?}` on the buffer"
            )))
        }
    }

    /// Copies the buffer back to the host, blocking until every launch submitted before has
    /// finished. Use [`Buffer::read_async`] inside async code.
    pub fn read(&self) -> Result<Vec<T>> {
        if self.is_empty() {
            return Ok(Vec::new());
        }
        self.check_usage(wgpu::BufferUsages::COPY_SRC, "reading")?;
        let bytes = self
            .device
            .start_read(&self.raw.buffer, self.raw.offset, self.byte_len())?
            .wait()?;
        Ok(bytemuck::pod_collect_to_vec(&bytes))
    }

    /// Copies the buffer back to the host without blocking: the future resolves once every
    /// launch submitted before has finished. Works with any executor (a Sarek thread polls the
    /// device while futures wait).
    ///
    /// ```no_run
    /// # fn main() -> sarek_rt::Result<()> {
    /// let dev = sarek_rt::Device::new()?;
    /// let buf = dev.upload(&[1u32, 2, 3])?;
    /// let data = pollster::block_on(buf.read_async())?;
    /// assert_eq!(data, vec![1, 2, 3]);
    /// # Ok(()) }
    /// ```
    pub async fn read_async(&self) -> Result<Vec<T>> {
        if self.is_empty() {
            return Ok(Vec::new());
        }
        self.check_usage(wgpu::BufferUsages::COPY_SRC, "reading")?;
        let pending = self
            .device
            .start_read(&self.raw.buffer, self.raw.offset, self.byte_len())?;
        let bytes = pending.wait_async().await?;
        Ok(bytemuck::pod_collect_to_vec(&bytes))
    }

    /// Replaces the contents with `data`, which must have the buffer's length. Ordered after
    /// every launch submitted before; does not wait for the GPU.
    pub fn write(&mut self, data: &[T]) -> Result<()> {
        if data.len() != self.len() {
            return Err(Error::LengthMismatch {
                len: self.len(),
                given: data.len(),
            });
        }
        self.check_usage(wgpu::BufferUsages::COPY_DST, "writing")?;
        self.device.write_bytes(
            &self.raw.buffer,
            self.raw.offset,
            bytemuck::cast_slice(data),
        )
    }
}
