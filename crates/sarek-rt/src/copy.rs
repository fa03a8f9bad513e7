//! Moving elements between devices and parts of buffers: [`Buffer::copy_to`] (another device,
//! through the host), [`Buffer::read_range`] and [`Buffer::write_at`] (a range of elements, as
//! halo exchanges need, or one flag or pivot without a kernel or a whole upload), and
//! [`Device::copy`] (a range of one buffer into another, on the device).
//!
//! Devices are independent: wgpu gives no path between two devices (nor between a GPU and
//! the CPU backend), so a copy to another device reads the bytes back to the host and uploads
//! them. The bytes are copied as the GPU stores them, without converting to `T` and back.

use std::ops::Range;

use crate::buffer::{Buffer, Element};
use crate::device::Device;
use crate::error::{Error, Result};
use crate::trace::Args;

impl<T: Element> Buffer<T> {
    /// A copy of the buffer on `device`, which may be another device (or the same one).
    /// Between two devices the copy goes through host memory (read back, then uploaded), after
    /// every launch submitted before on this buffer's device; on one GPU device it is a copy on
    /// the GPU. A buffer of one device cannot be passed to a launch on another
    /// ([`Error::WrongDevice`]): copy it first.
    ///
    /// ```
    /// # fn main() -> sarek_rt::Result<()> {
    /// let gpu = sarek_rt::Device::new()?;
    /// let cpu = sarek_rt::Device::cpu();
    /// let a = gpu.upload(&[1u32, 2, 3])?;
    /// let b = a.copy_to(&cpu)?;
    /// assert!(b.device().is_cpu());
    /// assert_eq!(b.read()?, [1, 2, 3]);
    /// # Ok(()) }
    /// ```
    pub fn copy_to(&self, device: &Device) -> Result<Buffer<T>> {
        let args = || {
            Args::new()
                .u64("bytes", self.byte_len())
                .u64("from_device", self.device.id())
        };
        device.traced("copy_to", "transfer", args, || {
            self.copy_to_untraced(device)
        })
    }

    /// [`Buffer::copy_to`], recorded by the caller.
    fn copy_to_untraced(&self, device: &Device) -> Result<Buffer<T>> {
        device.check_lost()?;
        let elem = std::mem::size_of::<T::Gpu>() as u64;
        let bytes = elem * self.len() as u64;
        device.check_buffer_size(bytes)?;
        if device.id() == self.device.id() {
            if let Some(storage) = device.backend_impl().duplicate(device, &self.raw, bytes)? {
                return Ok(Buffer::wrap_storage(device, storage, 0, self.len()));
            }
        }
        let data = self.bytes_in(0..self.len())?;
        let storage = device
            .backend_impl()
            .create_buffer(device, bytes, 0, Some(&data))?;
        Ok(Buffer::wrap_storage(device, storage, 0, self.len()))
    }

    /// Copies elements `range` back to the host, blocking until every launch submitted before
    /// has finished (as [`Buffer::read`] does for the whole buffer).
    ///
    /// ```
    /// # fn main() -> sarek_rt::Result<()> {
    /// let dev = sarek_rt::Device::new()?;
    /// let buf = dev.upload(&[1u32, 2, 3, 4])?;
    /// assert_eq!(buf.read_range(1..3)?, [2, 3]);
    /// assert!(buf.read_range(3..5).is_err());
    /// # Ok(()) }
    /// ```
    pub fn read_range(&self, range: Range<usize>) -> Result<Vec<T>> {
        let elem = std::mem::size_of::<T::Gpu>() as u64;
        let count = range.end.saturating_sub(range.start) as u64;
        let bytes = self.device.traced(
            "read",
            "transfer",
            || {
                Args::new()
                    .u64("bytes", count * elem)
                    .u64s("range", &[range.start as u64, range.end as u64])
            },
            || self.bytes_in(range.clone()),
        )?;
        crate::buffer::decode(&bytes)
    }

    /// Overwrites the elements from `start` with `data`, ordered after every launch submitted
    /// before (as [`Buffer::write`] does for the whole buffer); the rest of the buffer keeps
    /// its contents.
    ///
    /// ```
    /// # fn main() -> sarek_rt::Result<()> {
    /// let dev = sarek_rt::Device::new()?;
    /// let mut buf = dev.upload(&[1u32, 2, 3, 4])?;
    /// buf.write_at(2, &[7, 8])?;
    /// assert_eq!(buf.read()?, [1, 2, 7, 8]);
    /// assert!(buf.write_at(3, &[0, 0]).is_err());
    /// # Ok(()) }
    /// ```
    pub fn write_at(&mut self, start: usize, data: &[T]) -> Result<()> {
        self.check_range(start..start.saturating_add(data.len()))?;
        let elem = std::mem::size_of::<T::Gpu>();
        let gpu = T::slice_to_gpu(data);
        let bytes: &[u8] = bytemuck::cast_slice(&gpu);
        if self.device.trace().is_none() {
            return self.write_bytes_at((start * elem) as u64, bytes);
        }
        // `self` is borrowed mutably by the write: the span holds a clone of the device.
        let device = self.device.clone();
        device.traced(
            "write",
            "transfer",
            || {
                Args::new()
                    .u64("bytes", bytes.len() as u64)
                    .u64("at", start as u64)
            },
            || self.write_bytes_at((start * elem) as u64, bytes),
        )
    }

    /// Writes `bytes` from byte `at`, as whole words: of a word it covers only in part (2-byte
    /// elements at an odd position), the other bytes are read first and written back as they
    /// were.
    fn write_bytes_at(&mut self, at: u64, bytes: &[u8]) -> Result<()> {
        let len = bytes.len() as u64;
        let (first, span) = words_around(at, len);
        let backend = self.device.backend_impl();
        if first == at && span == len {
            return backend.write(&self.device, &self.raw, Some(at), bytes);
        }
        let mut block = vec![0u8; span as usize];
        let head = (at - first) as usize;
        if head > 0 {
            let word = backend.read(&self.device, &self.raw, Some((first, 4)))?;
            block[..4].copy_from_slice(&word);
        }
        if !(at + len).is_multiple_of(4) {
            let last = first + span - 4;
            let word = backend.read(&self.device, &self.raw, Some((last, 4)))?;
            block[span as usize - 4..].copy_from_slice(&word);
        }
        block[head..head + bytes.len()].copy_from_slice(bytes);
        backend.write(&self.device, &self.raw, Some(first), &block)
    }

    /// `range`'s end, if the range lies inside the buffer.
    pub(crate) fn check_range(&self, range: Range<usize>) -> Result<usize> {
        if range.start > range.end || range.end > self.len() {
            return Err(Error::RangeOutOfBounds {
                start: range.start,
                end: range.end,
                len: self.len(),
            });
        }
        Ok(range.end)
    }

    /// The GPU bytes of elements `range`, after every launch submitted before.
    fn bytes_in(&self, range: Range<usize>) -> Result<Vec<u8>> {
        let end = self.check_range(range.clone())?;
        let elem = std::mem::size_of::<T::Gpu>();
        let len = (end - range.start) * elem;
        if len == 0 {
            return Ok(Vec::new());
        }
        let start = (range.start * elem) as u64;
        let (first, span) = words_around(start, len as u64);
        let words =
            self.device
                .backend_impl()
                .read(&self.device, &self.raw, Some((first, span)))?;
        let skip = (start - first) as usize;
        Ok(words[skip..skip + len].to_vec())
    }
}

/// The whole 4-byte words that hold bytes `start..start + len`, as `(first byte, length)`:
/// backends move whole words (wgpu's `COPY_BUFFER_ALIGNMENT`, the CPU backend's storage), and
/// a range of 2-byte elements may start or end inside one. Buffers are allocated in whole
/// words, so the widened range stays inside the allocation.
fn words_around(start: u64, len: u64) -> (u64, u64) {
    let first = start / 4 * 4;
    (first, (start + len).div_ceil(4) * 4 - first)
}

impl Device {
    /// Copies elements `src_range` of `src` into `dst`, starting at element `dst_offset`,
    /// without going through the host: a copy on the GPU, ordered after every launch submitted
    /// before and before every launch submitted after (as a launch is), or a copy of the words
    /// on the CPU backend (a range of 2-byte elements that starts or ends inside a 4-byte word
    /// goes through the host instead, since devices copy whole words). The rest of `dst` keeps
    /// its contents. Both buffers must live on
    /// this device ([`Error::ForeignBuffer`]; [`Buffer::copy_to`] moves a buffer to another),
    /// and both ranges must lie inside their buffers ([`Error::RangeOutOfBounds`]).
    ///
    /// ```
    /// # fn main() -> sarek_rt::Result<()> {
    /// let dev = sarek_rt::Device::new()?;
    /// let src = dev.upload(&[1u32, 2, 3, 4])?;
    /// let mut dst = dev.zeros::<u32>(5)?;
    /// dev.copy(&src, 1..3, &mut dst, 2)?;
    /// assert_eq!(dst.read()?, [0, 0, 2, 3, 0]);
    /// // Ranges outside either buffer are refused, not clamped.
    /// assert!(dev.copy(&src, 2..5, &mut dst, 0).is_err());
    /// assert!(dev.copy(&src, 0..2, &mut dst, 4).is_err());
    /// # Ok(()) }
    /// ```
    pub fn copy<T: Element>(
        &self,
        src: &Buffer<T>,
        src_range: Range<usize>,
        dst: &mut Buffer<T>,
        dst_offset: usize,
    ) -> Result<()> {
        let elem = std::mem::size_of::<T::Gpu>() as u64;
        let count = src_range.end.saturating_sub(src_range.start) as u64;
        self.traced(
            "copy",
            "transfer",
            || Args::new().u64("bytes", count * elem),
            || self.copy_untraced(src, src_range.clone(), dst, dst_offset),
        )
    }

    /// [`Device::copy`], recorded by the caller.
    fn copy_untraced<T: Element>(
        &self,
        src: &Buffer<T>,
        src_range: Range<usize>,
        dst: &mut Buffer<T>,
        dst_offset: usize,
    ) -> Result<()> {
        self.check_lost()?;
        for (buffer, which) in [
            (src.raw.device_id, "source"),
            (dst.raw.device_id, "destination"),
        ] {
            if buffer != self.id() {
                return Err(Error::ForeignBuffer(which));
            }
        }
        let end = src.check_range(src_range.clone())?;
        let count = end - src_range.start;
        dst.check_range(dst_offset..dst_offset.saturating_add(count))?;
        if count == 0 {
            return Ok(());
        }
        let elem = std::mem::size_of::<T::Gpu>();
        let (from, to, bytes) = (src_range.start * elem, dst_offset * elem, count * elem);
        if !(from.is_multiple_of(4) && to.is_multiple_of(4) && bytes.is_multiple_of(4)) {
            // 2-byte elements that start or end inside a word: devices copy whole words.
            let data = src.bytes_in(src_range)?;
            return dst.write_bytes_at(to as u64, &data);
        }
        self.backend_impl().copy(
            self,
            (&src.raw, from as u64),
            (&dst.raw, to as u64),
            bytes as u64,
        )
    }
}
