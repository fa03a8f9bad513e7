//! Typed GPU buffers.

use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering};

pub(crate) use crate::backend::Storage;
use crate::device::Device;
use crate::error::{Error, Result};
use crate::trace::{Args, Trace};

/// A type that can live in a kernel's buffer or be passed to a kernel by value.
///
/// On the GPU a value is stored as [`Element::Gpu`]: plain data with exactly WGSL's memory
/// layout. For `f32`, `i32`, `u32`, arrays of them and the structs of a `#[sarek::module]`
/// without `bool` or enum fields, that is the type itself and nothing is converted. A struct
/// with a `bool` field (stored as a `u32` 0 or 1) or an enum (stored as a `u32` tag followed by
/// the fields of every variant) is converted on upload and on read-back; `#[sarek::module]`
/// generates that conversion and checks the layout with const assertions.
///
/// ```
/// use sarek_rt::Element;
/// assert_eq!(7u32.to_gpu(), 7);
/// assert_eq!(<[f32; 2]>::from_gpu([1.0, 2.0]), Some([1.0, 2.0]));
/// assert_eq!(std::mem::size_of::<<[u32; 4] as Element>::Gpu>(), 16);
/// ```
pub trait Element: Copy + Send + Sync + 'static {
    /// How the value is stored on the GPU.
    type Gpu: bytemuck::Pod + Send + Sync;

    /// The value as the GPU stores it.
    ///
    /// ```
    /// use sarek_rt::{Element, Vec3};
    /// // A `vec3` takes 16 bytes on the GPU.
    /// assert_eq!(Vec3::new(1.0, 2.0, 3.0).to_gpu(), [1.0, 2.0, 3.0, 0.0]);
    /// ```
    fn to_gpu(self) -> Self::Gpu;

    /// The value back from the GPU's bytes; `None` when they hold no valid value (an enum tag
    /// out of range, written by code other than Sarek's).
    ///
    /// ```
    /// use sarek_rt::{Element, Vec3};
    /// assert_eq!(Vec3::from_gpu([1.0, 2.0, 3.0, 0.0]), Some(Vec3::new(1.0, 2.0, 3.0)));
    /// ```
    fn from_gpu(gpu: Self::Gpu) -> Option<Self>;

    /// The values as the GPU stores them, without a copy when the types are the same.
    ///
    /// ```
    /// use std::borrow::Cow;
    /// use sarek_rt::{Element, Vec3};
    /// assert!(matches!(f32::slice_to_gpu(&[1.0, 2.0]), Cow::Borrowed(_)));
    /// assert_eq!(*Vec3::slice_to_gpu(&[Vec3::X]), [[1.0, 0.0, 0.0, 0.0]]);
    /// ```
    fn slice_to_gpu(values: &[Self]) -> std::borrow::Cow<'_, [Self::Gpu]>
    where
        [Self::Gpu]: ToOwned<Owned = Vec<Self::Gpu>>,
    {
        std::borrow::Cow::Owned(values.iter().map(|v| v.to_gpu()).collect())
    }
}

macro_rules! identity_element {
    ($($t:ty),*) => {$(
        impl Element for $t {
            type Gpu = $t;
            fn to_gpu(self) -> $t {
                self
            }
            fn from_gpu(gpu: $t) -> Option<$t> {
                Some(gpu)
            }
            fn slice_to_gpu(values: &[$t]) -> std::borrow::Cow<'_, [$t]> {
                std::borrow::Cow::Borrowed(values)
            }
        }
    )*};
}
identity_element!(f32, i32, u32, half::f16, i64, u64);

impl<T: Element, const N: usize> Element for [T; N]
where
    [T::Gpu; N]: bytemuck::Pod,
{
    type Gpu = [T::Gpu; N];
    fn to_gpu(self) -> Self::Gpu {
        self.map(Element::to_gpu)
    }
    fn from_gpu(gpu: Self::Gpu) -> Option<Self> {
        let values = gpu.map(T::from_gpu);
        if values.iter().any(Option::is_none) {
            return None;
        }
        Some(values.map(|v| v.unwrap_or_else(|| unreachable!("checked above"))))
    }
}

/// The size of `T` on the GPU; an error for a zero-sized type, which no GPU buffer can hold
/// (WGSL has no zero-sized types, and a length would not follow from a byte count).
fn element_size<T: Element>() -> Result<u64> {
    match std::mem::size_of::<T::Gpu>() {
        0 => Err(Error::BadBuffer(format!(
            "`{}` takes no bytes; a buffer cannot hold zero-sized elements",
            std::any::type_name::<T>()
        ))),
        size => Ok(size as u64),
    }
}

/// The bytes of `len` elements of `elem` bytes, saturated at `u64::MAX` (which no device
/// allows, so an overflowing length is refused as too large rather than wrapping).
fn byte_size(elem: u64, len: usize) -> u64 {
    elem.saturating_mul(len as u64)
}

/// Decodes elements read back from the GPU.
pub(crate) fn decode<T: Element>(bytes: &[u8]) -> Result<Vec<T>> {
    let gpu: Vec<T::Gpu> = bytemuck::pod_collect_to_vec(bytes);
    gpu.into_iter()
        .enumerate()
        .map(|(i, g)| {
            T::from_gpu(g).ok_or_else(|| {
                Error::BadBuffer(format!(
                    "element {i} holds no valid `{}` (an enum tag out of range?)",
                    std::any::type_name::<T>()
                ))
            })
        })
        .collect()
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// The untyped part of a [`Buffer`]: a wgpu buffer, the byte range the kernel sees, and
/// the element count.
///
/// ```
/// # fn main() -> sarek_rt::Result<()> {
/// let dev = sarek_rt::Device::new()?;
/// let buf = dev.upload(&[1.0f32, 2.0, 3.0])?;
/// let raw: &sarek_rt::raw::RawBuffer = buf.raw();
/// assert_eq!(raw.len(), 3);
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct RawBuffer {
    pub(crate) storage: Storage,
    pub(crate) offset: u64,
    pub(crate) len: usize,
    pub(crate) elem_size: u64,
    pub(crate) device_id: u64,
    pub(crate) id: u64,
}

impl RawBuffer {
    /// The number of elements.
    ///
    /// ```
    /// # fn main() -> sarek_rt::Result<()> {
    /// let dev = sarek_rt::Device::new()?;
    /// assert_eq!(dev.upload(&[1u32, 2, 3])?.raw().len(), 3);
    /// # Ok(()) }
    /// ```
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the buffer has no elements.
    ///
    /// ```
    /// # fn main() -> sarek_rt::Result<()> {
    /// let dev = sarek_rt::Device::new()?;
    /// assert!(dev.zeros::<u32>(0)?.raw().is_empty());
    /// # Ok(()) }
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// A buffer of `T` in GPU memory, made by [`Device::upload`] or [`Device::zeros`], or a view
/// of a wgpu buffer the caller owns ([`Buffer::from_wgpu`]).
///
/// A kernel parameter `&[T]` takes a `&Buffer<T>`, and `&mut [T]` a `&mut Buffer<T>`, so the
/// borrow checker rules out writing a buffer through two bindings of one launch. Dropping a
/// buffer while a launch that uses it is in flight is safe: wgpu frees it after the launch.
///
/// ```
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
        let elem = element_size::<T>()?;
        let bytes = byte_size(elem, len);
        device.check_buffer_size(bytes)?;
        let gpu = contents.map(T::slice_to_gpu);
        let contents = gpu.as_deref().map(bytemuck::cast_slice);
        let name = if contents.is_some() {
            "upload"
        } else {
            "zeros"
        };
        let storage = device.traced(
            name,
            "transfer",
            || Args::new().u64("bytes", bytes),
            || {
                device
                    .backend_impl()
                    .create_buffer(device, bytes, elem, contents)
            },
        )?;
        Ok(Buffer::wrap_storage(device, storage, 0, len))
    }

    pub(crate) fn wrap_storage(device: &Device, storage: Storage, offset: u64, len: usize) -> Self {
        Buffer {
            raw: RawBuffer {
                storage,
                offset,
                len,
                elem_size: std::mem::size_of::<T::Gpu>() as u64,
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
    /// the device's `min_storage_buffer_offset_alignment`, and the range must fit in the buffer
    /// (an empty view too must leave room for the one element a kernel binds).
    ///
    /// ```
    /// # fn main() -> sarek_rt::Result<()> {
    /// let dev = sarek_rt::Device::new()?;
    /// # if dev.is_cpu() { return Ok(()); } // wgpu objects need a GPU device
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
    // Public interop: takes wgpu's own buffer, so it names wgpu outside the wgpu backend.
    pub fn from_wgpu(
        device: &Device,
        buffer: wgpu::Buffer,
        offset: u64,
        len: usize,
    ) -> Result<Self> {
        let elem = element_size::<T>()?;
        let bytes = byte_size(elem, len);
        let align = u64::from(device.limits().min_storage_buffer_offset_alignment);
        let bad = |message: String| Error::BadBuffer(message);
        if device.is_cpu() {
            return Err(bad(
                "a wgpu buffer cannot be used on the CPU backend; use `Device::upload` or a GPU device".into(),
            ));
        }
        if !buffer.usage().contains(wgpu::BufferUsages::STORAGE) {
            return Err(bad(
                "it lacks `wgpu::BufferUsages::STORAGE`, which kernels need".into(),
            ));
        }
        if !offset.is_multiple_of(align) {
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
        // A kernel's view binds at least one element (wgpu cannot bind an empty range, and
        // a binding of size 0 would mean "the rest of the buffer").
        let bound = bytes.max(elem.max(4));
        if offset
            .checked_add(bound)
            .is_none_or(|end| end > buffer.size())
        {
            return Err(bad(format!(
                "an empty view from offset {offset} leaves no room for the one element of {elem} bytes a kernel binds, in its {} bytes",
                buffer.size()
            )));
        }
        if !bytes.is_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT) {
            return Err(bad(format!("{bytes} bytes is not a multiple of 4")));
        }
        device.check_buffer_size(bytes)?;
        Ok(Buffer::wrap_storage(
            device,
            Storage::Wgpu(buffer),
            offset,
            len,
        ))
    }

    /// The number of elements.
    ///
    /// ```
    /// # fn main() -> sarek_rt::Result<()> {
    /// let dev = sarek_rt::Device::new()?;
    /// assert_eq!(dev.zeros::<f32>(10)?.len(), 10);
    /// # Ok(()) }
    /// ```
    pub fn len(&self) -> usize {
        self.raw.len
    }

    /// Whether the buffer has no elements.
    ///
    /// ```
    /// # fn main() -> sarek_rt::Result<()> {
    /// let dev = sarek_rt::Device::new()?;
    /// assert!(dev.upload::<f32>(&[])?.is_empty());
    /// assert!(!dev.zeros::<f32>(1)?.is_empty());
    /// # Ok(()) }
    /// ```
    pub fn is_empty(&self) -> bool {
        self.raw.len == 0
    }

    /// The device the buffer lives on.
    ///
    /// ```
    /// # fn main() -> sarek_rt::Result<()> {
    /// let dev = sarek_rt::Device::new()?;
    /// let buf = dev.zeros::<f32>(4)?;
    /// assert_eq!(buf.device().name(), dev.name());
    /// # Ok(()) }
    /// ```
    pub fn device(&self) -> &Device {
        &self.device
    }

    /// The underlying wgpu buffer, for the caller's own passes. The elements start at
    /// [`Buffer::offset`]; the buffer may be larger than the data (an empty buffer keeps 16
    /// bytes).
    ///
    /// ```
    /// # fn main() -> sarek_rt::Result<()> {
    /// let dev = sarek_rt::Device::new()?;
    /// # if dev.is_cpu() { return Ok(()); } // wgpu objects need a GPU device
    /// let buf = dev.upload(&[1u32, 2])?;
    /// // Copy it with wgpu directly.
    /// let copy = dev.zeros::<u32>(2)?;
    /// let mut encoder = dev.wgpu_device().create_command_encoder(&Default::default());
    /// encoder.copy_buffer_to_buffer(buf.wgpu_buffer(), buf.offset(), copy.wgpu_buffer(), copy.offset(), 8);
    /// dev.wgpu_queue().submit([encoder.finish()]);
    /// assert_eq!(copy.read()?, [1, 2]);
    /// # Ok(()) }
    /// ```
    ///
    /// # Panics
    ///
    /// On the CPU backend, whose buffers live in host memory (check [`Device::is_cpu`]).
    pub fn wgpu_buffer(&self) -> &wgpu::Buffer {
        // Public interop: hands out wgpu's own buffer.
        assert!(
            !self.device.is_cpu(),
            "a buffer of the CPU backend has no wgpu buffer"
        );
        self.raw.gpu()
    }

    /// Where the elements start in [`Buffer::wgpu_buffer`], in bytes.
    ///
    /// ```
    /// # fn main() -> sarek_rt::Result<()> {
    /// let dev = sarek_rt::Device::new()?;
    /// # if dev.is_cpu() { return Ok(()); } // wgpu objects need a GPU device
    /// assert_eq!(dev.zeros::<f32>(4)?.offset(), 0);
    /// let mine = dev.wgpu_device().create_buffer(&wgpu::BufferDescriptor {
    ///     label: None,
    ///     size: 1024,
    ///     usage: wgpu::BufferUsages::STORAGE,
    ///     mapped_at_creation: false,
    /// });
    /// assert_eq!(sarek_rt::Buffer::<f32>::from_wgpu(&dev, mine, 256, 4)?.offset(), 256);
    /// # Ok(()) }
    /// ```
    pub fn offset(&self) -> u64 {
        self.raw.offset
    }

    /// The untyped view used by launches ([`crate::raw::RawBuffer`]). Hidden, like the rest
    /// of the type-erased layer, from the `sarek` crate's documented API.
    ///
    /// ```
    /// # fn main() -> sarek_rt::Result<()> {
    /// let dev = sarek_rt::Device::new()?;
    /// let buf = dev.upload(&[1.0f32, 2.0])?;
    /// assert_eq!(buf.raw().len(), buf.len());
    /// # Ok(()) }
    /// ```
    #[doc(hidden)]
    pub fn raw(&self) -> &RawBuffer {
        &self.raw
    }

    /// Copies the buffer back to the host, blocking until every launch submitted before has
    /// finished. Use [`Buffer::read_async`] inside async code.
    ///
    /// ```
    /// use sarek_rt::Vec3;
    /// # fn main() -> sarek_rt::Result<()> {
    /// let dev = sarek_rt::Device::new()?;
    /// let buf = dev.upload(&[Vec3::new(1.0, 2.0, 3.0), Vec3::Z])?;
    /// assert_eq!(buf.read()?, [Vec3::new(1.0, 2.0, 3.0), Vec3::Z]);
    /// # Ok(()) }
    /// ```
    pub fn read(&self) -> Result<Vec<T>> {
        if self.is_empty() {
            return Ok(Vec::new());
        }
        let device = &self.device;
        let bytes = device.traced(
            "read",
            "transfer",
            || Args::new().u64("bytes", self.byte_len()),
            || device.backend_impl().read(device, &self.raw, None),
        )?;
        // What the kernels printed, and a failed assertion (`crate::debug`).
        device.drain_debug()?;
        decode(&bytes)
    }

    /// Copies the buffer back to the host without blocking: the future resolves once every
    /// launch submitted before has finished. Works with any executor (a Sarek thread polls the
    /// device while futures wait).
    ///
    /// ```
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
        // Traced from the call to the bytes' arrival, on the thread that finished it.
        let span = self.device.trace().map(Trace::span);
        let result = async {
            let pending = self
                .device
                .backend_impl()
                .read_async(&self.device, &self.raw)?;
            pending.await
        }
        .await;
        if let Some(span) = span {
            let args = Args::new().u64("bytes", self.byte_len()).outcome(&result);
            span.end("read_async", "transfer", args);
        }
        decode(&result?)
    }

    /// Replaces the contents with `data`, which must have the buffer's length. Ordered after
    /// every launch submitted before; does not wait for the GPU.
    ///
    /// ```
    /// # fn main() -> sarek_rt::Result<()> {
    /// let dev = sarek_rt::Device::new()?;
    /// let mut buf = dev.zeros::<u32>(3)?;
    /// buf.write(&[7, 8, 9])?;
    /// assert_eq!(buf.read()?, [7, 8, 9]);
    /// let err = buf.write(&[1, 2]).unwrap_err();
    /// assert!(matches!(err, sarek_rt::Error::LengthMismatch { len: 3, given: 2 }));
    /// # Ok(()) }
    /// ```
    pub fn write(&mut self, data: &[T]) -> Result<()> {
        if data.len() != self.len() {
            return Err(Error::LengthMismatch {
                len: self.len(),
                given: data.len(),
            });
        }
        let gpu = T::slice_to_gpu(data);
        let device = &self.device;
        device.traced(
            "write",
            "transfer",
            || Args::new().u64("bytes", self.byte_len()),
            || {
                device
                    .backend_impl()
                    .write(device, &self.raw, None, bytemuck::cast_slice(&gpu))
            },
        )
    }

    /// The bytes of the buffer's elements as the device stores them.
    pub(crate) fn byte_len(&self) -> u64 {
        self.raw.len as u64 * self.raw.elem_size
    }
}
