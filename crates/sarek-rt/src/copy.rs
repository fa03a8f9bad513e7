//! Moving elements between devices and parts of buffers: [`Buffer::copy_to`] (another device,
//! through the host), [`Buffer::read_range`] and [`Buffer::write_at`] (a range of elements, as
//! halo exchanges need, or one flag or pivot without a kernel or a whole upload), and
//! [`Device::copy`] (a range of one buffer into another, on the device).
//!
//! Devices are independent: wgpu gives no path between two devices (nor between a GPU and
//! the CPU backend), so a copy to another device reads the bytes back to the host and uploads
//! them. The bytes are copied as the GPU stores them, without converting to `T` and back.

use std::ops::Range;
use std::sync::atomic::AtomicU32;
use std::sync::Arc;

use crate::buffer::{Buffer, Element, Storage};
use crate::device::Device;
use crate::error::{Error, Result};

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
        device.check_lost()?;
        let elem = std::mem::size_of::<T::Gpu>() as u64;
        let bytes = elem * self.len() as u64;
        device.check_buffer_size(bytes)?;
        if device.id() == self.device.id() && !device.is_cpu() {
            // One GPU: copy on the device, ordered after earlier launches.
            device.flush();
            let alloc = bytes.max(16).next_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT);
            let target = device.create_storage_buffer(alloc, None)?;
            let inner = device.inner();
            let mut encoder =
                inner
                    .device
                    .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                        label: Some("sarek copy"),
                    });
            if bytes > 0 {
                encoder.copy_buffer_to_buffer(self.raw.gpu(), self.raw.offset, &target, 0, bytes);
            }
            inner.queue.submit([encoder.finish()]);
            return Ok(Buffer::wrap(device, target, 0, self.len()));
        }
        let data = self.bytes_in(0..self.len())?;
        if device.is_cpu() {
            let words: Arc<[AtomicU32]> = crate::cpu::words_of(&data);
            return Ok(Buffer::wrap_storage(
                device,
                Storage::Cpu(words),
                0,
                self.len(),
            ));
        }
        let alloc = bytes.max(16).next_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT);
        let target = device.create_storage_buffer(alloc, Some(&data))?;
        Ok(Buffer::wrap(device, target, 0, self.len()))
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
        let bytes = self.bytes_in(range)?;
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
        let end = self.check_range(start..start.saturating_add(data.len()))?;
        let elem = std::mem::size_of::<T::Gpu>();
        let gpu = T::slice_to_gpu(data);
        let bytes: &[u8] = bytemuck::cast_slice(&gpu);
        if let Some(words) = self.raw.words() {
            // Element sizes are whole words (every WGSL type's size is a multiple of 4).
            let first = start * elem / 4;
            crate::cpu::write_words(&words[first..end * elem / 4], bytes);
            return Ok(());
        }
        if !self
            .raw
            .gpu()
            .usage()
            .contains(wgpu::BufferUsages::COPY_DST)
        {
            return Err(Error::BadBuffer(
                "writing needs `wgpu::BufferUsages::COPY_DST` on the buffer".into(),
            ));
        }
        self.device.write_bytes(
            self.raw.gpu(),
            self.raw.offset + (start * elem) as u64,
            bytes,
        )
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
        if let Some(words) = self.raw.words() {
            let first = range.start * elem / 4;
            return Ok(crate::cpu::bytes_of(&words[first..end * elem / 4], len));
        }
        if !self
            .raw
            .gpu()
            .usage()
            .contains(wgpu::BufferUsages::COPY_SRC)
        {
            return Err(Error::BadBuffer(
                "reading needs `wgpu::BufferUsages::COPY_SRC` on the buffer".into(),
            ));
        }
        self.device
            .start_read(
                self.raw.gpu(),
                self.raw.offset + (range.start * elem) as u64,
                len as u64,
            )?
            .wait()
    }
}

impl Device {
    /// Copies elements `src_range` of `src` into `dst`, starting at element `dst_offset`,
    /// without going through the host: a copy on the GPU, ordered after every launch submitted
    /// before and before every launch submitted after (as a launch is), or a copy of the words
    /// on the CPU backend. The rest of `dst` keeps its contents. Both buffers must live on
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
        if let (Some(from), Some(to)) = (src.raw.words(), dst.raw.words()) {
            // Element sizes are whole words; through a copy in case both share their words.
            let words = elem / 4;
            let bytes =
                crate::cpu::bytes_of(&from[src_range.start * words..end * words], count * elem);
            crate::cpu::write_words(&to[dst_offset * words..], &bytes);
            return Ok(());
        }
        for (buffer, usage, name, which) in [
            (
                src.raw.gpu(),
                wgpu::BufferUsages::COPY_SRC,
                "COPY_SRC",
                "from",
            ),
            (
                dst.raw.gpu(),
                wgpu::BufferUsages::COPY_DST,
                "COPY_DST",
                "into",
            ),
        ] {
            if !buffer.usage().contains(usage) {
                return Err(Error::BadBuffer(format!(
                    "copying {which} it needs `wgpu::BufferUsages::{name}` on the buffer"
                )));
            }
        }
        // In the open encoder, after the launches issued before and before those after.
        let mut open = self.inner().submitter.lock();
        open.encoder().copy_buffer_to_buffer(
            src.raw.gpu(),
            src.raw.offset + (src_range.start * elem) as u64,
            dst.raw.gpu(),
            dst.raw.offset + (dst_offset * elem) as u64,
            (count * elem) as u64,
        );
        // Submitted as a launch would be: with the launches around it, or at once.
        let _ticket = open.launched();
        Ok(())
    }
}
