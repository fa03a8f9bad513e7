//! Byte data on a device that has no 8-bit type: `dev.upload_bytes(&bytes)` packs four bytes
//! a `u32` word (little-endian, the order WGSL's `unpack4xU8` and Sarek's `unpack4x_u8` take
//! them apart), zero-padding the last word, and `buf.read_bytes()` gives them back.

use crate::{Buffer, Device, Result};

/// `bytes` as little-endian words, the last one zero-padded.
fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks(4)
        .map(|c| {
            let mut w = [0u8; 4];
            w[..c.len()].copy_from_slice(c);
            u32::from_le_bytes(w)
        })
        .collect()
}

impl Device {
    /// A `Buffer<u32>` holding `bytes`, four to a word (byte `4·i + k` is byte `k` of word
    /// `i`, counted from the low end), the last word padded with zeros; a kernel takes it as
    /// `&[u32]` and unpacks a word with `unpack4x_u8(word)`.
    ///
    /// ```
    /// # fn main() -> sarek_rt::Result<()> {
    /// let dev = sarek_rt::Device::new()?;
    /// let buf = dev.upload_bytes(b"hello")?;
    /// assert_eq!(buf.len(), 2);
    /// assert_eq!(buf.read()?, [u32::from_le_bytes(*b"hell"), u32::from(b'o')]);
    /// assert_eq!(&buf.read_bytes()?[..5], b"hello");
    /// # Ok(()) }
    /// ```
    pub fn upload_bytes(&self, bytes: &[u8]) -> Result<Buffer<u32>> {
        self.upload(&words(bytes))
    }
}

impl Buffer<u32> {
    /// The buffer's words as bytes, four per word, low byte first: `4 · len()` bytes, the
    /// padding of [`Device::upload_bytes`] included (truncate to the length you uploaded).
    pub fn read_bytes(&self) -> Result<Vec<u8>> {
        Ok(self
            .read()?
            .into_iter()
            .flat_map(u32::to_le_bytes)
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::words;

    #[test]
    fn bytes_pack_little_endian_with_zero_padding() {
        assert_eq!(words(&[]), Vec::<u32>::new());
        assert_eq!(words(&[1, 2, 3, 4, 5]), [0x0403_0201, 5]);
    }
}
