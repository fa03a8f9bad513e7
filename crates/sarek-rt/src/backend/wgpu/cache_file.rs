//! The one layout of Sarek's cache files, shared by the pipeline cache (`disk_cache.rs`) and
//! the parsed modules (`module_cache.rs`): eight magic bytes, the fields the file must have
//! been made for (each a little-endian length and its bytes, checked against the reader's),
//! then the data's length, an FNV-1a checksum of it and the data. A file that fails a check is
//! refused with the reason, which the `warn` log line gives; files are written to a temporary
//! file and renamed, so two processes saving at once leave one whole file, never a mix.

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

/// FNV-1a, 64 bits: a checksum that stays the same across Rust versions and platforms (std's
/// `DefaultHasher` promises neither).
pub(crate) fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The largest cache file read: a pipeline cache of every kernel of a large program is a few
/// tens of megabytes, and a file past this is refused before any of it is read.
pub(crate) const MAX_FILE_BYTES: u64 = 256 << 20;

/// Writes `bytes` to `file` through a temporary file in the same directory and a rename. On
/// Unix the file is readable and writable by its owner alone, as [`read_with_handle`] requires.
pub(crate) fn write_atomically(file: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let dir = file.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let temp = dir.join(format!(
        ".{}.{}.{}.tmp",
        file.file_name().and_then(|n| n.to_str()).unwrap_or("cache"),
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    let mut options = std::fs::File::options();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let written = options
        .open(&temp)
        .and_then(|mut f| f.write_all(bytes))
        .and_then(|()| std::fs::rename(&temp, file));
    if written.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    written
}

/// `file` opened for reading without blocking: on Unix with `O_NONBLOCK`, so that a FIFO at
/// the path opens at once (and is then refused as not a regular file) instead of waiting for a
/// writer; reads of a regular file are not affected.
pub(crate) fn open_for_reading(file: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::File::options();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    options.open(file)
}

/// Why an opened file is not read: not a regular file (a FIFO would block the read, a device
/// such as `/dev/zero` never end it), too large, or (on Unix) written by someone else.
fn refuse(handle: &std::fs::File) -> std::io::Result<Option<&'static str>> {
    let meta = handle.metadata()?;
    if !meta.is_file() {
        return Ok(Some("not a regular file"));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Ok(Some("larger than any cache file Sarek writes"));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        // SAFETY: `geteuid` has no preconditions and cannot fail.
        let me = unsafe { libc::geteuid() };
        if meta.uid() != me {
            return Ok(Some("owned by another user"));
        }
        if meta.mode() & 0o022 != 0 {
            return Ok(Some("writable by other users"));
        }
    }
    Ok(None)
}

/// The bytes of `file`, and the open file to refresh its time through; `Err` with the reason
/// for a file that is not read ([`refuse`]). Opening never blocks: on Unix the file is opened
/// non-blocking, so a FIFO at the path is refused instead of waiting for a writer.
fn read_with_handle(
    file: &Path,
) -> std::io::Result<Result<(Vec<u8>, std::fs::File), &'static str>> {
    use std::io::Read;
    let handle = open_for_reading(file)?;
    if let Some(why) = refuse(&handle)? {
        return Ok(Err(why));
    }
    let mut bytes = Vec::new();
    // A file that grows while it is read stops at the limit and fails its length check.
    (&handle).take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes)?;
    Ok(Ok((bytes, handle)))
}

/// Sets the modification time of an opened cache file to now, when it is more than an hour
/// old (so a hot file is not written to at every read). A failure (another owner, a
/// read-only file system) only leaves the file looking older to the pruner.
fn mark_used(handle: &std::fs::File) {
    let now = std::time::SystemTime::now();
    let old = handle
        .metadata()
        .and_then(|m| m.modified())
        .is_ok_and(|t| now.duration_since(t).unwrap_or_default().as_secs() > 60 * 60);
    if old {
        let _ = handle.set_modified(now);
    }
}

/// A field a file repeats, which must equal the reader's for the file to be used.
pub(crate) struct Field<'a> {
    bytes: &'a [u8],
    /// How many bytes its little-endian length takes (4 or 8): part of each file format.
    width: usize,
    /// Why a file whose field differs is refused.
    mismatch: &'static str,
}

impl<'a> Field<'a> {
    /// A field with a 32-bit length.
    pub(crate) fn short(bytes: &'a [u8], mismatch: &'static str) -> Field<'a> {
        Field {
            bytes,
            width: 4,
            mismatch,
        }
    }

    /// A field with a 64-bit length.
    pub(crate) fn long(bytes: &'a [u8], mismatch: &'static str) -> Field<'a> {
        Field {
            bytes,
            width: 8,
            mismatch,
        }
    }
}

/// One kind of cache file.
pub(crate) struct Layout {
    /// The first bytes of its files.
    pub(crate) magic: &'static [u8; 8],
    /// Why a file without them is refused.
    pub(crate) foreign: &'static str,
    /// What its files are called in log lines ("the pipeline cache", "the module file").
    pub(crate) what: &'static str,
}

/// The data of a file that passed every check.
pub(crate) struct Contents {
    bytes: Vec<u8>,
    /// Where the data starts in `bytes` (it runs to the end).
    start: usize,
}

impl Contents {
    /// The data the file was written with.
    pub(crate) fn data(&self) -> &[u8] {
        &self.bytes[self.start..]
    }
}

/// Splits `n` bytes off `rest`.
fn take(rest: &[u8], n: usize) -> Result<(&[u8], &[u8]), &'static str> {
    (rest.len() >= n)
        .then(|| rest.split_at(n))
        .ok_or("truncated")
}

/// A little-endian number of `width` (at most 8) bytes off `rest`.
fn take_number(rest: &[u8], width: usize) -> Result<(u64, &[u8]), &'static str> {
    let (bytes, rest) = take(rest, width)?;
    let mut wide = [0u8; 8];
    wide[..width].copy_from_slice(bytes);
    Ok((u64::from_le_bytes(wide), rest))
}

impl Layout {
    /// A file holding `data`, made for `fields`.
    pub(crate) fn encode(&self, fields: &[Field], data: &[u8]) -> Vec<u8> {
        let header: usize = fields.iter().map(|f| f.width + f.bytes.len()).sum();
        let mut out = Vec::with_capacity(self.magic.len() + header + 16 + data.len());
        out.extend_from_slice(self.magic);
        for field in fields {
            out.extend_from_slice(&(field.bytes.len() as u64).to_le_bytes()[..field.width]);
            out.extend_from_slice(field.bytes);
        }
        out.extend_from_slice(&(data.len() as u64).to_le_bytes());
        out.extend_from_slice(&fnv(data).to_le_bytes());
        out.extend_from_slice(data);
        out
    }

    /// The data in `bytes`, if they are a whole file made for `fields`; otherwise why not.
    pub(crate) fn parse<'b>(
        &self,
        bytes: &'b [u8],
        fields: &[Field],
    ) -> Result<&'b [u8], &'static str> {
        let mut rest = bytes.strip_prefix(self.magic).ok_or(self.foreign)?;
        for field in fields {
            let (len, after) = take_number(rest, field.width)?;
            let (found, after) = take(after, usize::try_from(len).map_err(|_| "truncated")?)?;
            if found != field.bytes {
                return Err(field.mismatch);
            }
            rest = after;
        }
        let (len, rest) = take_number(rest, 8)?;
        let (sum, data) = take_number(rest, 8)?;
        if data.len() as u64 != len {
            return Err("truncated or padded");
        }
        if fnv(data) != sum {
            return Err("corrupt (its checksum does not match)");
        }
        Ok(data)
    }

    /// The contents of `file` if it is a whole file made for `fields`: none when there is no
    /// such file, and a `warn` log line with the reason when it cannot be read or fails a check.
    /// A file that passes has its modification time refreshed (at most once an hour), which
    /// is how the pruner (`cache_prune.rs`) tells a file in use from a forgotten one.
    pub(crate) fn read(&self, file: &Path, fields: &[Field]) -> Option<Contents> {
        let (bytes, handle) = match read_with_handle(file) {
            Ok(Ok(read)) => read,
            Ok(Err(why)) => {
                self.ignore(file, why);
                return None;
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
            Err(e) => {
                log::warn!("sarek: ignoring {} {}: {e}", self.what, file.display());
                return None;
            }
        };
        match self.parse(&bytes, fields) {
            Ok(data) => {
                mark_used(&handle);
                let start = bytes.len() - data.len();
                Some(Contents { bytes, start })
            }
            Err(why) => {
                self.ignore(file, why);
                None
            }
        }
    }

    /// The `warn` log line of a `file` refused because of `why`.
    pub(crate) fn ignore(&self, file: &Path, why: &str) {
        log::warn!(
            "sarek: ignoring {} {}: {why}; it will be rewritten",
            self.what,
            file.display()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LAYOUT: Layout = Layout {
        magic: b"SAREKTS1",
        foreign: "not a test file",
        what: "the test file",
    };

    #[test]
    fn files_are_laid_out_as_before() {
        let fields = [
            Field::short(b"key", "other key"),
            Field::long(b"tx", "other text"),
        ];
        let file = LAYOUT.encode(&fields, b"data");
        let mut expected = b"SAREKTS1".to_vec();
        expected.extend_from_slice(&3u32.to_le_bytes());
        expected.extend_from_slice(b"key");
        expected.extend_from_slice(&2u64.to_le_bytes());
        expected.extend_from_slice(b"tx");
        expected.extend_from_slice(&4u64.to_le_bytes());
        expected.extend_from_slice(&fnv(b"data").to_le_bytes());
        expected.extend_from_slice(b"data");
        assert_eq!(file, expected);
        assert_eq!(LAYOUT.parse(&file, &fields), Ok(&b"data"[..]));
        let other = [
            Field::short(b"key", "other key"),
            Field::long(b"ty", "other text"),
        ];
        assert_eq!(LAYOUT.parse(&file, &other), Err("other text"));
        assert_eq!(LAYOUT.parse(b"SAREKPC1", &fields), Err("not a test file"));
    }

    #[test]
    fn a_read_file_gives_its_data() {
        let dir = std::env::temp_dir().join(format!("sarek-cache-file-{}", std::process::id()));
        let file = dir.join("test.bin");
        let fields = [Field::short(b"key", "other key")];
        assert!(LAYOUT.read(&file, &fields).is_none(), "no file yet");
        write_atomically(&file, &LAYOUT.encode(&fields, b"data")).unwrap();
        assert_eq!(LAYOUT.read(&file, &fields).unwrap().data(), b"data");
        // A read refreshes the time of a file unused for long, for the pruner.
        let week = std::time::Duration::from_secs(7 * 24 * 60 * 60);
        let old = std::time::SystemTime::now() - week;
        let handle = std::fs::File::options().append(true).open(&file).unwrap();
        handle.set_modified(old).unwrap();
        assert!(LAYOUT.read(&file, &fields).is_some());
        let used = std::fs::metadata(&file).unwrap().modified().unwrap();
        assert!(used > old + week / 2, "{used:?}");
        assert!(LAYOUT
            .read(&file, &[Field::short(b"kez", "other key")])
            .is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Reads `file` on a thread, failing the test if that blocks for seconds.
    #[cfg(unix)]
    fn read_or_hang(file: &Path) -> std::io::Result<Result<usize, &'static str>> {
        let file = file.to_owned();
        let (send, receive) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let read = read_with_handle(&file).map(|r| r.map(|(bytes, _)| bytes.len()));
            let _ = send.send(read);
        });
        receive
            .recv_timeout(std::time::Duration::from_secs(20))
            .expect("reading a cache file blocked")
    }

    #[cfg(unix)]
    #[test]
    fn hostile_files_are_refused_without_blocking() {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("sarek-hostile-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let fields = [Field::short(b"key", "other key")];
        // A FIFO with no writer: a blocking open would wait forever.
        let fifo = dir.join("fifo.bin");
        let path = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: `path` is a valid C string that outlives the call.
        assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o600) }, 0);
        assert_eq!(read_or_hang(&fifo).unwrap(), Err("not a regular file"));
        assert!(LAYOUT.read(&fifo, &fields).is_none());
        // A link to an endless device: a whole read would fill the memory.
        let zero = dir.join("zero.bin");
        std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
        assert_eq!(read_or_hang(&zero).unwrap(), Err("not a regular file"));
        // A 3 GiB file (sparse): refused before a byte is read.
        let huge = dir.join("huge.bin");
        std::fs::File::create(&huge)
            .unwrap()
            .set_len(3 << 30)
            .unwrap();
        assert_eq!(
            read_or_hang(&huge).unwrap(),
            Err("larger than any cache file Sarek writes")
        );
        // A whole, valid file that other users may write: not trusted.
        let shared = dir.join("shared.bin");
        write_atomically(&shared, &LAYOUT.encode(&fields, b"data")).unwrap();
        assert_eq!(
            std::fs::metadata(&shared).unwrap().permissions().mode() & 0o777,
            0o600
        );
        assert_eq!(LAYOUT.read(&shared, &fields).unwrap().data(), b"data");
        std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o666)).unwrap();
        assert_eq!(
            read_or_hang(&shared).unwrap(),
            Err("writable by other users")
        );
        assert!(LAYOUT.read(&shared, &fields).is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
