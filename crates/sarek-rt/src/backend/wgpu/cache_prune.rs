//! Keeps the cache directory (`disk_cache.rs`'s pipeline files, `module_cache.rs`'s parsed
//! modules) from growing without end: each file is named after a hash of what it was made
//! from, so a Sarek upgrade, a new driver or an edited kernel writes new files and the old
//! ones would stay forever.
//!
//! Once per process and directory, when a device opens its pipeline cache, a thread of its
//! own (off the launch path) removes, among the files Sarek names (`pipelines-<hash>.bin`,
//! `naga-<hash>.bin` and the `.….tmp` files they are written through):
//!
//! 1. temporary files older than an hour: a write takes milliseconds, so these were left by
//!    a process that died mid-write; a younger one may be another process's write under way,
//!    and is never touched;
//! 2. files of another Sarek version or file format, once unused for a day: the grace keeps
//!    two projects on different Sarek versions sharing the directory from deleting each
//!    other's files (each refreshes its files' times when it uses them, `cache_file.rs`);
//! 3. files unused for [`MAX_AGE`] (30 days);
//! 4. the least recently used files, until the rest fit in the size cap: 256 MiB, or
//!    `SAREK_CACHE_MAX_MB` ([`crate::Config::cache_max_mb`]; `0` lifts the cap).
//!
//! "Used" is the file's modification time, which a read refreshes (`Layout::read`). Other
//! files in the directory are never touched (it may be a directory the user shares). A file
//! that vanished meanwhile (another process pruned it) or cannot be removed is skipped; a
//! failure is one `warn` log line and never reaches a launch: the cache only saves time, and
//! a removed file is rebuilt at the next save, as a missing one always was.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

/// How long a file may go unused before it is removed.
pub(crate) const MAX_AGE: Duration = Duration::from_secs(30 * 24 * 60 * 60);

/// How long a file of another Sarek version or format may go unused before it is removed.
const OTHER_VERSION_AGE: Duration = Duration::from_secs(24 * 60 * 60);

/// How old a temporary file must be before it counts as left by a process that died.
const TEMP_AGE: Duration = Duration::from_secs(60 * 60);

/// The current formats: each file's magic bytes, and the start of the key it repeats when
/// written by this Sarek version.
const CURRENT: [(&[u8; 8], &str); 2] = [
    (
        b"SAREKPC1",
        concat!("sarek ", env!("CARGO_PKG_VERSION"), " |"),
    ),
    (
        b"SAREKNM1",
        concat!("sarek ", env!("CARGO_PKG_VERSION"), " |"),
    ),
];

/// What the pruner keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Policy {
    /// The most bytes the files may take; `None`: no cap.
    pub(crate) max_bytes: Option<u64>,
}

impl Policy {
    /// A cap of `mb` MiB, none for `0` ([`crate::Config::cache_max_mb`]).
    pub(crate) fn of_mb(mb: u64) -> Policy {
        Policy {
            max_bytes: (mb > 0).then(|| mb.saturating_mul(1 << 20)),
        }
    }
}

/// What kind of Sarek file an entry is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// A temporary file a write goes through.
    Temp,
    /// A whole file of this Sarek version and format (or one whose header could not be read:
    /// it is kept as if current and only its age and size count).
    Current,
    /// A file of another Sarek version or format.
    Other,
}

/// One of Sarek's files in the directory.
#[derive(Clone, Debug)]
struct Entry {
    path: PathBuf,
    kind: Kind,
    /// When it was last written or read.
    used: SystemTime,
    bytes: u64,
}

/// What one pruning did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Pruned {
    /// Files removed.
    pub(crate) removed: usize,
    /// Their bytes.
    pub(crate) bytes: u64,
    /// Files that could not be removed (other than those that had vanished).
    pub(crate) failed: usize,
}

/// Whether `name` is one Sarek gives its cache files or their temporary files.
fn kind_of_name(name: &str) -> Option<Kind> {
    if name.starts_with('.') && name.ends_with(".tmp") {
        let inner = &name[1..];
        return (inner.starts_with("pipelines-") || inner.starts_with("naga-"))
            .then_some(Kind::Temp);
    }
    let hash = name
        .strip_prefix("pipelines-")
        .or_else(|| name.strip_prefix("naga-"))?
        .strip_suffix(".bin")?;
    (hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit())).then_some(Kind::Current)
}

/// Whether the file at `path` is of this Sarek version and format, from its first bytes:
/// the magic, then the key's 4-byte length and the key (`cache_file.rs`'s layout).
fn kind_of_contents(path: &Path) -> Kind {
    use std::io::Read;
    let mut head = Vec::with_capacity(64);
    let read = super::cache_file::open_for_reading(path).and_then(|f| {
        // Only a regular file is read: a FIFO or a device at the path would block or never end.
        if !f.metadata()?.is_file() {
            return Err(std::io::ErrorKind::InvalidInput.into());
        }
        f.take(64).read_to_end(&mut head)
    });
    if read.is_err() || head.len() < 12 {
        // Unreadable or too short to tell: a reader would refuse a short file and rewrite it,
        // so only its age and size decide.
        return Kind::Current;
    }
    let (magic, rest) = head.split_at(8);
    let current = CURRENT
        .iter()
        .any(|(m, prefix)| magic == &m[..] && rest[4..].starts_with(prefix.as_bytes()));
    if current {
        Kind::Current
    } else {
        Kind::Other
    }
}

/// Sarek's files in `dir` (none if it cannot be listed).
fn survey(dir: &Path) -> Vec<Entry> {
    let Ok(list) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut entries = Vec::new();
    for item in list.flatten() {
        let Some(kind) = item.file_name().to_str().and_then(kind_of_name) else {
            continue;
        };
        let Ok(meta) = item.metadata() else { continue };
        if !meta.is_file() {
            continue;
        }
        let path = item.path();
        let kind = match kind {
            Kind::Temp => Kind::Temp,
            _ => kind_of_contents(&path),
        };
        entries.push(Entry {
            path,
            kind,
            used: meta.modified().unwrap_or(SystemTime::UNIX_EPOCH),
            bytes: meta.len(),
        });
    }
    entries
}

/// The entries to remove at `now` under `policy`: the stale ones, then the least recently
/// used of the rest until they fit in the cap.
fn plan(mut entries: Vec<Entry>, now: SystemTime, policy: Policy) -> Vec<Entry> {
    let age = |e: &Entry| now.duration_since(e.used).unwrap_or_default();
    let (stale, mut kept): (Vec<Entry>, Vec<Entry>) =
        entries.drain(..).partition(|e| match e.kind {
            Kind::Temp => age(e) > TEMP_AGE,
            Kind::Other => age(e) > OTHER_VERSION_AGE,
            Kind::Current => age(e) > MAX_AGE,
        });
    let mut remove = stale;
    if let Some(cap) = policy.max_bytes {
        // A young temporary file is another process's write: it is neither removed nor
        // counted (it replaces a file once renamed).
        kept.retain(|e| e.kind != Kind::Temp);
        kept.sort_by_key(|e| e.used);
        let mut total: u64 = kept.iter().map(|e| e.bytes).sum();
        for e in kept {
            if total <= cap {
                break;
            }
            total -= e.bytes;
            remove.push(e);
        }
    }
    remove
}

/// Removes `entries`; one that vanished meanwhile counts as neither removed nor failed.
fn remove(entries: &[Entry]) -> (Pruned, Option<std::io::Error>) {
    let mut pruned = Pruned::default();
    let mut first_error = None;
    for e in entries {
        match std::fs::remove_file(&e.path) {
            Ok(()) => {
                pruned.removed += 1;
                pruned.bytes += e.bytes;
            }
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
            Err(err) => {
                pruned.failed += 1;
                first_error.get_or_insert(err);
            }
        }
    }
    (pruned, first_error)
}

/// Prunes `dir` now under `policy`, with log lines; what it did.
pub(crate) fn prune(dir: &Path, policy: Policy) -> Pruned {
    let entries = plan(survey(dir), SystemTime::now(), policy);
    let (pruned, error) = remove(&entries);
    if pruned.removed > 0 {
        log::info!(
            "sarek: pruned {} old cache files ({} KiB) from {}",
            pruned.removed,
            pruned.bytes.div_ceil(1024),
            dir.display()
        );
    }
    if let Some(e) = error {
        log::warn!(
            "sarek: could not prune {} cache files in {} ({e}); the cache still works",
            pruned.failed,
            dir.display()
        );
    }
    pruned
}

/// Prunes `dir` on a thread of its own, once per process and directory (the first device to
/// open a pipeline cache there starts it, with its `policy`; later ones find it done or under
/// way).
pub(crate) fn start(dir: &Path, policy: Policy) {
    static STARTED: Mutex<Option<HashSet<PathBuf>>> = Mutex::new(None);
    {
        let mut started = crate::sync::lock(&STARTED);
        if !started
            .get_or_insert_with(HashSet::new)
            .insert(dir.to_path_buf())
        {
            return;
        }
    }
    let dir = dir.to_path_buf();
    let spawned = std::thread::Builder::new()
        .name("sarek-cache-prune".into())
        .spawn(move || {
            prune(&dir, policy);
        });
    if let Err(e) = spawned {
        log::warn!("sarek: could not start pruning the cache directory: {e}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::wgpu::cache_file::{Field, Layout};

    const DAY: Duration = Duration::from_secs(24 * 60 * 60);

    /// A fresh directory for one test.
    fn dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("sarek-prune-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// Writes a file of `magic` and `key` with `len` data bytes, last used `ago`.
    fn file(dir: &Path, name: &str, magic: &'static [u8; 8], key: &str, len: usize, ago: Duration) {
        let layout = Layout {
            magic,
            foreign: "",
            what: "",
        };
        let bytes = layout.encode(&[Field::short(key.as_bytes(), "")], &vec![7u8; len]);
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        let f = std::fs::File::options().append(true).open(&path).unwrap();
        f.set_modified(SystemTime::now() - ago).unwrap();
    }

    fn current_key() -> String {
        format!(
            "sarek {} | naga 30.0.2 | postcard 1",
            env!("CARGO_PKG_VERSION")
        )
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        names
    }

    const NO_CAP: Policy = Policy { max_bytes: None };

    #[test]
    fn other_versions_formats_and_leftovers_go_current_files_stay() {
        let d = dir("stale");
        let key = current_key();
        file(
            &d,
            "naga-0000000000000001.bin",
            b"SAREKNM1",
            &key,
            10,
            DAY * 2,
        );
        file(
            &d,
            "pipelines-0000000000000002.bin",
            b"SAREKPC1",
            &format!("{key} | vulkan"),
            10,
            Duration::ZERO,
        );
        // Another Sarek version, and an older format: removed once unused for a day.
        file(
            &d,
            "naga-0000000000000003.bin",
            b"SAREKNM1",
            "sarek 0.0.0-old | naga 1",
            10,
            DAY * 2,
        );
        file(
            &d,
            "naga-0000000000000004.bin",
            b"SAREKNM0",
            &key,
            10,
            DAY * 2,
        );
        // ... but not while another process of that version may still be using them.
        file(
            &d,
            "naga-0000000000000005.bin",
            b"SAREKNM1",
            "sarek 0.0.0-old | naga 1",
            10,
            Duration::from_secs(60),
        );
        // A current file unused for longer than MAX_AGE.
        file(
            &d,
            "naga-0000000000000006.bin",
            b"SAREKNM1",
            &key,
            10,
            MAX_AGE + DAY,
        );
        // A temporary file left by a dead process, and one being written now.
        file(
            &d,
            ".naga-0000000000000007.bin.1.0.tmp",
            b"SAREKNM1",
            &key,
            10,
            DAY,
        );
        file(
            &d,
            ".naga-0000000000000008.bin.2.0.tmp",
            b"SAREKNM1",
            &key,
            10,
            Duration::ZERO,
        );
        // Files Sarek does not name are never touched, however old.
        file(&d, "notes.txt", b"SAREKNM0", "x", 10, MAX_AGE * 3);
        file(&d, "naga-xyz.bin", b"SAREKNM0", "x", 10, MAX_AGE * 3);
        let pruned = prune(&d, NO_CAP);
        assert_eq!(pruned.removed, 4, "{:?}", names(&d));
        assert_eq!(pruned.failed, 0);
        assert_eq!(
            names(&d),
            [
                ".naga-0000000000000008.bin.2.0.tmp",
                "naga-0000000000000001.bin",
                "naga-0000000000000005.bin",
                "naga-xyz.bin",
                "notes.txt",
                "pipelines-0000000000000002.bin",
            ]
        );
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn the_cap_removes_the_least_recently_used_first() {
        let d = dir("cap");
        let key = current_key();
        for (i, days) in [3u32, 1, 4, 2].into_iter().enumerate() {
            file(
                &d,
                &format!("naga-000000000000000{i}.bin"),
                b"SAREKNM1",
                &key,
                1000,
                DAY * days,
            );
        }
        let size = std::fs::metadata(d.join("naga-0000000000000000.bin"))
            .unwrap()
            .len();
        // Room for two files: the two least recently used (4 and 3 days) go.
        let pruned = prune(
            &d,
            Policy {
                max_bytes: Some(2 * size + size / 2),
            },
        );
        assert_eq!(pruned.removed, 2);
        assert_eq!(
            names(&d),
            ["naga-0000000000000001.bin", "naga-0000000000000003.bin"]
        );
        // Under the cap nothing more goes.
        assert_eq!(
            prune(
                &d,
                Policy {
                    max_bytes: Some(2 * size)
                }
            )
            .removed,
            0
        );
        assert_eq!(prune(&d, NO_CAP).removed, 0);
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn vanished_read_only_and_missing_files_are_no_failure() {
        let d = dir("odd");
        let key = current_key();
        file(
            &d,
            "naga-0000000000000001.bin",
            b"SAREKNM1",
            &key,
            10,
            MAX_AGE + DAY,
        );
        file(
            &d,
            "naga-0000000000000002.bin",
            b"SAREKNM1",
            &key,
            10,
            MAX_AGE + DAY,
        );
        // A file another process prunes between the survey and the removal.
        let entries = plan(survey(&d), SystemTime::now(), NO_CAP);
        assert_eq!(entries.len(), 2);
        std::fs::remove_file(d.join("naga-0000000000000001.bin")).unwrap();
        let (pruned, error) = remove(&entries);
        assert_eq!((pruned.removed, pruned.failed), (1, 0));
        assert!(error.is_none());
        // A read-only file in a read-only directory: removing it may fail (not as root); either
        // way pruning returns, and a file it could not remove is counted, not fatal.
        file(
            &d,
            "naga-0000000000000003.bin",
            b"SAREKNM1",
            &key,
            10,
            MAX_AGE + DAY,
        );
        let path = d.join("naga-0000000000000003.bin");
        let mut perms = std::fs::metadata(&path).unwrap().permissions();
        perms.set_readonly(true);
        std::fs::set_permissions(&path, perms.clone()).unwrap();
        let mut dir_perms = std::fs::metadata(&d).unwrap().permissions();
        dir_perms.set_readonly(true);
        std::fs::set_permissions(&d, dir_perms.clone()).unwrap();
        let pruned = prune(&d, NO_CAP);
        assert_eq!(pruned.removed + pruned.failed, 1);
        // Writable again, so the directory can be removed (this is a test's own directory).
        #[allow(clippy::permissions_set_readonly_false)]
        dir_perms.set_readonly(false);
        std::fs::set_permissions(&d, dir_perms).unwrap();
        // A directory that does not exist prunes nothing.
        let _ = std::fs::remove_dir_all(&d);
        assert_eq!(prune(&d, Policy { max_bytes: Some(0) }), Pruned::default());
    }

    #[test]
    fn names_sarek_gives_its_files() {
        assert_eq!(
            kind_of_name("naga-0123456789abcdef.bin"),
            Some(Kind::Current)
        );
        assert_eq!(
            kind_of_name("pipelines-0123456789abcdef.bin"),
            Some(Kind::Current)
        );
        assert_eq!(
            kind_of_name(".pipelines-0123456789abcdef.bin.12.3.tmp"),
            Some(Kind::Temp)
        );
        assert_eq!(kind_of_name("naga-0123.bin"), None);
        assert_eq!(kind_of_name("other.bin"), None);
        assert_eq!(kind_of_name(".other.tmp"), None);
    }
}
