//! Splitting a 1-D index range over several devices: a convenience for data partitioned by
//! index, not a scheduler. [`Split`] cuts `0..len` into one contiguous part per device,
//! uploads each part's slice of the inputs to its device, runs the caller's launches on every
//! part at once (one host thread per device) and gathers the parts back in order.

use std::ops::Range;

use crate::buffer::{Buffer, Element};
use crate::device::Device;
use crate::error::{Error, Result};

/// One device's part of a [`Split`]: the indices `offset..offset + len` of the whole range.
///
/// A kernel launched on a part sees only its part's buffers, so its `global_thread_id()`
/// counts from 0 within the part; where it needs the global index (a position in the whole
/// data, a seed), pass [`Part::offset`] as an ordinary scalar parameter and add it.
#[derive(Clone, Debug)]
pub struct Part {
    /// The device this part runs on.
    pub device: Device,
    /// The part's position among the split's parts (and its device's in the device list).
    pub index: usize,
    /// The first index of the whole range in this part.
    pub offset: usize,
    /// How many indices the part holds (0 where there are more devices than indices).
    pub len: usize,
}

impl Part {
    /// The part's indices in the whole range.
    ///
    /// ```
    /// let split = sarek_rt::Split::new(&[sarek_rt::Device::cpu(), sarek_rt::Device::cpu()], 5)?;
    /// assert_eq!(split.parts()[0].range(), 0..3);
    /// assert_eq!(split.parts()[1].range(), 3..5);
    /// # Ok::<(), sarek_rt::Error>(())
    /// ```
    pub fn range(&self) -> Range<usize> {
        self.offset..self.offset + self.len
    }
}

/// The indices `0..len` cut into one contiguous part per device, as equal as possible (the
/// first `len % n` parts hold one index more). Each index may own a row of `width` elements
/// of the data ([`Split::scatter_rows`]), as a matrix row does.
///
/// ```
/// # use sarek_rt::fixture::add_one;
/// use sarek_rt::{Device, Grid, Split};
/// # fn main() -> sarek_rt::Result<()> {
/// // `add_one`: `#[sarek::kernel] fn add_one(x: &mut [u32])` adds 1 to each element.
/// let devices = vec![Device::new()?, Device::cpu()];
/// let split = Split::new(&devices, 10)?;
/// let mut parts = split.scatter(&(0..10).collect::<Vec<u32>>())?;
/// split.run(&mut parts, |part, x| {
///     add_one.launch(&part.device, Grid::cover(part.len), x)?;
///     Ok(())
/// })?;
/// assert_eq!(split.gather(&parts)?, (1..11).collect::<Vec<u32>>());
/// # Ok(()) }
/// ```
#[derive(Clone, Debug)]
pub struct Split {
    parts: Vec<Part>,
    len: usize,
}

impl Split {
    /// Cuts `0..len` over `devices` (at least one).
    ///
    /// ```
    /// use sarek_rt::{Device, Split};
    /// let split = Split::new(&[Device::cpu(), Device::cpu(), Device::cpu()], 10)?;
    /// let lens: Vec<usize> = split.parts().iter().map(|p| p.len).collect();
    /// assert_eq!(lens, [4, 3, 3]);
    /// assert!(Split::new(&[], 10).is_err());
    /// # Ok::<(), sarek_rt::Error>(())
    /// ```
    pub fn new(devices: &[Device], len: usize) -> Result<Split> {
        if devices.is_empty() {
            return Err(Error::NoAdapter(
                " to split over (the device list is empty)".into(),
            ));
        }
        let n = devices.len();
        let mut offset = 0;
        let parts = devices
            .iter()
            .enumerate()
            .map(|(index, device)| {
                let part_len = len / n + usize::from(index < len % n);
                let part = Part {
                    device: device.clone(),
                    index,
                    offset,
                    len: part_len,
                };
                offset += part_len;
                part
            })
            .collect();
        Ok(Split { parts, len })
    }

    /// The parts, in index order.
    pub fn parts(&self) -> &[Part] {
        &self.parts
    }

    /// The length of the whole range.
    ///
    /// ```
    /// let split = sarek_rt::Split::new(&[sarek_rt::Device::cpu()], 7)?;
    /// assert_eq!(split.len(), 7);
    /// assert!(!split.is_empty());
    /// # Ok::<(), sarek_rt::Error>(())
    /// ```
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the range is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Uploads each part's slice of `data` (one element per index, so `data.len()` must be
    /// the split's length) to the part's device.
    pub fn scatter<T: Element>(&self, data: &[T]) -> Result<Vec<Buffer<T>>> {
        self.scatter_rows(data, 1)
    }

    /// Uploads each part's rows of `data`, where every index owns `width` consecutive
    /// elements (`data.len()` must be the split's length times `width`).
    ///
    /// ```
    /// use sarek_rt::{Device, Split};
    /// let split = Split::new(&[Device::cpu(), Device::cpu()], 3)?;
    /// // Three rows of two elements: rows 0 and 1 on the first device, row 2 on the second.
    /// let parts = split.scatter_rows(&[1u32, 2, 3, 4, 5, 6], 2)?;
    /// assert_eq!(parts[0].read()?, [1, 2, 3, 4]);
    /// assert_eq!(parts[1].read()?, [5, 6]);
    /// assert_eq!(split.gather_rows(&parts, 2)?, [1, 2, 3, 4, 5, 6]);
    /// # Ok::<(), sarek_rt::Error>(())
    /// ```
    pub fn scatter_rows<T: Element>(&self, data: &[T], width: usize) -> Result<Vec<Buffer<T>>> {
        let expected = self.len.saturating_mul(width);
        if data.len() != expected {
            return Err(Error::LengthMismatch {
                len: expected,
                given: data.len(),
            });
        }
        self.parts
            .iter()
            .map(|p| {
                p.device
                    .upload(&data[p.offset * width..(p.offset + p.len) * width])
            })
            .collect()
    }

    /// A buffer of each part's `len × width` zeros on the part's device, for outputs.
    ///
    /// ```
    /// let split = sarek_rt::Split::new(&[sarek_rt::Device::cpu(), sarek_rt::Device::cpu()], 3)?;
    /// let out = split.zeros::<f32>(4)?;
    /// assert_eq!((out[0].len(), out[1].len()), (8, 4));
    /// # Ok::<(), sarek_rt::Error>(())
    /// ```
    pub fn zeros<T: Element>(&self, width: usize) -> Result<Vec<Buffer<T>>> {
        self.parts
            .iter()
            .map(|p| p.device.zeros(p.len.saturating_mul(width)))
            .collect()
    }

    /// Uploads the whole of `data` to every part's device (an input every part reads whole,
    /// such as the right-hand matrix of a product split by rows).
    ///
    /// ```
    /// let split = sarek_rt::Split::new(&[sarek_rt::Device::cpu(), sarek_rt::Device::cpu()], 3)?;
    /// let b = split.replicate(&[1.0f32, 2.0])?;
    /// assert_eq!(b[1].read()?, [1.0, 2.0]);
    /// # Ok::<(), sarek_rt::Error>(())
    /// ```
    pub fn replicate<T: Element>(&self, data: &[T]) -> Result<Vec<Buffer<T>>> {
        self.parts.iter().map(|p| p.device.upload(data)).collect()
    }

    /// Runs `f` on every part at once, one host thread per part, with that part's state
    /// (`per_part[i]` goes with part `i`: its buffers, typically), then waits for each
    /// device to finish. The first error, in part order, is returned; a panic in `f` is
    /// resumed on the calling thread.
    ///
    /// ```
    /// use sarek_rt::{Device, Split};
    /// let split = Split::new(&[Device::cpu(), Device::cpu()], 4)?;
    /// let mut seen = vec![0..0; 2];
    /// split.run(&mut seen, |part, s| {
    ///     *s = part.range();
    ///     Ok(())
    /// })?;
    /// assert_eq!(seen, [0..2, 2..4]);
    /// # Ok::<(), sarek_rt::Error>(())
    /// ```
    pub fn run<S, F>(&self, per_part: &mut [S], f: F) -> Result<()>
    where
        S: Send,
        F: Fn(&Part, &mut S) -> Result<()> + Sync,
    {
        if per_part.len() != self.parts.len() {
            return Err(Error::LengthMismatch {
                len: self.parts.len(),
                given: per_part.len(),
            });
        }
        let f = &f;
        let outcomes: Vec<std::thread::Result<Result<()>>> = std::thread::scope(|scope| {
            let handles: Vec<_> = self
                .parts
                .iter()
                .zip(per_part.iter_mut())
                .map(|(part, state)| {
                    scope.spawn(move || {
                        f(part, state)?;
                        part.device.synchronize()
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join()).collect()
        });
        let mut first = Ok(());
        for outcome in outcomes {
            match outcome {
                Ok(result) => {
                    if first.is_ok() {
                        first = result;
                    }
                }
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        first
    }

    /// Reads every part's buffer back and joins them in index order (one element per index).
    pub fn gather<T: Element>(&self, parts: &[Buffer<T>]) -> Result<Vec<T>> {
        self.gather_rows(parts, 1)
    }

    /// Reads every part's rows back (`width` elements per index) and joins them in order.
    /// Each buffer must hold at least its part's rows; extra elements are left out.
    pub fn gather_rows<T: Element>(&self, parts: &[Buffer<T>], width: usize) -> Result<Vec<T>> {
        if parts.len() != self.parts.len() {
            return Err(Error::LengthMismatch {
                len: self.parts.len(),
                given: parts.len(),
            });
        }
        let mut all = Vec::with_capacity(self.len.saturating_mul(width));
        for (part, buf) in self.parts.iter().zip(parts) {
            all.extend(buf.read_range(0..part.len * width)?);
        }
        Ok(all)
    }
}
