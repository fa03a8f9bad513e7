//! Compiled pipelines kept across processes, through wgpu's `PipelineCache`
//! (`Features::PIPELINE_CACHE`, Vulkan only in wgpu 30): the driver's compiled code for every
//! pipeline a device makes is saved in a per-user directory, so that the first launch of a
//! kernel in the next process skips the driver's compilation.
//!
//! The directory is `SAREK_CACHE_DIR`, else `$XDG_CACHE_HOME/sarek`, else `~/.cache/sarek`;
//! `SAREK_CACHE=0` turns the cache off ([`crate::Config::pipeline_cache_dir`] does both when a
//! device is made, [`Device::set_pipeline_cache_dir`] on a live device). One file per adapter, driver and Sarek version: its name is a hash of that key,
//! and the file repeats the key, so a file of another adapter or version that lands under the
//! same name is ignored. wgpu checks only a header of its data and hands the rest to the
//! driver, so Sarek wraps it with its own checksum: a truncated, corrupt or foreign file is
//! ignored with a `warn` log line (and replaced at the next save), never handed to the driver.
//! Files are written to a temporary file and renamed over the old one, so two processes
//! saving at once leave one whole file, never a mix.
//!
//! Old files of the directory (other Sarek versions, unused for long, over the size cap
//! `SAREK_CACHE_MAX_MB`) are removed on a thread of their own when the cache opens
//! (`cache_prune.rs`).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use super::cache_file::{fnv, write_atomically, Contents, Field, Layout};
use crate::device::Device;

/// The layout of a cache file.
const LAYOUT: Layout = Layout {
    magic: b"SAREKPC1",
    foreign: "not a Sarek pipeline cache",
    what: "the pipeline cache",
};

/// One device's pipeline cache and the file it is saved to.
pub(crate) struct DiskCache {
    cache: wgpu::PipelineCache,
    file: PathBuf,
    key: String,
    /// Whether the cache started from a file's data.
    reused: bool,
    /// The checksum of the data last read or written, so unchanged data is not rewritten.
    saved: Mutex<Option<u64>>,
}

/// What a cache file must have been made by: the adapter, its driver, wgpu's own key and
/// Sarek's version. `None` where wgpu keeps no pipeline cache for the backend.
fn key(info: &wgpu::AdapterInfo) -> Option<String> {
    let wgpu_key = wgpu::util::pipeline_cache_key(info)?;
    Some(format!(
        "sarek {} | {wgpu_key} | {:?} {:?} | vendor {:#x} device {:#x} | driver {:?} {:?}",
        env!("CARGO_PKG_VERSION"),
        info.backend,
        info.name,
        info.vendor,
        info.device,
        info.driver,
        info.driver_info
    ))
}

/// What a cache file repeats: the key it was made for.
fn fields(key: &str) -> [Field<'_>; 1] {
    [Field::short(
        key.as_bytes(),
        "made for another adapter, driver or Sarek version",
    )]
}

/// A cache file holding `data` for `key`.
fn encode(key: &str, data: &[u8]) -> Vec<u8> {
    LAYOUT.encode(&fields(key), data)
}

impl DiskCache {
    /// The pipeline cache of `device` on the adapter `info`, saved in `dir` and started from
    /// the file there when it holds valid data; `None` where the device has no
    /// `PIPELINE_CACHE` or wgpu keeps none for its backend. `max_mb` caps the directory
    /// (`cache_prune.rs`).
    pub(crate) fn open(
        device: &wgpu::Device,
        info: &wgpu::AdapterInfo,
        dir: &Path,
        max_mb: u64,
    ) -> Option<DiskCache> {
        if !device.features().contains(wgpu::Features::PIPELINE_CACHE) {
            return None;
        }
        let key = key(info)?;
        let file = dir.join(format!("pipelines-{:016x}.bin", fnv(key.as_bytes())));
        let contents = LAYOUT.read(&file, &fields(&key));
        // After the read, which refreshed this file's time: old files go on a thread of
        // their own, once per process and directory.
        super::cache_prune::start(dir, super::cache_prune::Policy::of_mb(max_mb));
        let data = contents.as_ref().map(Contents::data);
        // SAFETY: `data` is exactly what `PipelineCache::get_data` returned for this key (the
        // adapter, driver and wgpu's own key): the file repeats the key and a checksum of the
        // data, both checked above, so a foreign, truncated or corrupt file never gets here.
        // wgpu checks its own header again and, with `fallback`, starts empty if it refuses.
        let cache = unsafe {
            device.create_pipeline_cache(&wgpu::PipelineCacheDescriptor {
                label: Some("sarek pipelines"),
                data,
                fallback: true,
            })
        };
        if let Some(data) = data {
            log::info!(
                "sarek: loaded {} bytes of compiled pipelines from {}",
                data.len(),
                file.display()
            );
        }
        Some(DiskCache {
            cache,
            file,
            key,
            reused: data.is_some(),
            saved: Mutex::new(data.map(fnv)),
        })
    }

    /// The directory of the cache file, which also holds the parsed modules
    /// (`module_cache.rs`).
    pub(crate) fn dir(&self) -> &Path {
        self.file.parent().unwrap_or(Path::new("."))
    }

    /// The wgpu cache, for `ComputePipelineDescriptor::cache`.
    pub(crate) fn cache(&self) -> &wgpu::PipelineCache {
        &self.cache
    }

    /// Saves the cache's data if it changed since it was read or last saved; a failure is a
    /// log line (the cache only saves time).
    pub(crate) fn save(&self) {
        let Some(data) = self.cache.get_data() else {
            return;
        };
        let sum = fnv(&data);
        let mut saved = crate::sync::lock(&self.saved);
        if *saved == Some(sum) {
            return;
        }
        match write_atomically(&self.file, &encode(&self.key, &data)) {
            Ok(()) => {
                *saved = Some(sum);
                log::debug!(
                    "sarek: saved {} bytes of compiled pipelines to {}",
                    data.len(),
                    self.file.display()
                );
            }
            Err(e) => log::warn!(
                "sarek: could not save the pipeline cache {}: {e}",
                self.file.display()
            ),
        }
    }
}

impl Device {
    /// Where this device keeps compiled pipelines between processes: `Some(dir)` saves them in
    /// a file under `dir` and starts from that file's pipelines, `None` turns the cache off.
    /// Affects the pipelines made from now on (a kernel's pipeline is made at its first launch
    /// on the device). By default a GPU device uses [`crate::Config::pipeline_cache_dir`]:
    /// `SAREK_CACHE_DIR`, else `$XDG_CACHE_HOME/sarek`, else `~/.cache/sarek`, and none with
    /// `SAREK_CACHE=0`. Opening
    /// a directory prunes it once per process, in the background: Sarek's files of other
    /// versions unused for a day, any unused for 30 days, then the least recently used beyond
    /// 256 MiB ([`crate::Config::cache_max_mb`]; `0` lifts the cap).
    ///
    /// Returns the cache file now in use: `None` when turned off, on the CPU backend, for a
    /// device from [`Device::from_wgpu`] (Sarek does not know its adapter), and where the
    /// adapter has no `wgpu::Features::PIPELINE_CACHE` (wgpu 30 keeps one on Vulkan only).
    /// A file that is not a whole cache of this adapter, driver and Sarek version is ignored
    /// with a `warn` log line and replaced at the next save.
    ///
    /// Only the user running the program should be able to write `dir`: the compiled-pipeline
    /// file goes to the driver once Sarek's key and checksum match. Sarek writes its files
    /// readable by their owner alone and reads only regular files of at most 256 MiB that the
    /// current user owns and others cannot write (anything else is ignored with a `warn` log
    /// line); a parsed module read from the directory is validated again and never trusted
    /// to drop index clamps without the runtime's own proof.
    ///
    /// ```
    /// # fn main() -> sarek_rt::Result<()> {
    /// let dev = sarek_rt::Device::new()?;
    /// let dir = std::env::temp_dir().join(format!("sarek-doc-cache-{}", std::process::id()));
    /// if let Some(file) = dev.set_pipeline_cache_dir(Some(&dir)) {
    ///     assert!(file.starts_with(&dir));
    /// }
    /// assert_eq!(dev.set_pipeline_cache_dir(None), None); // off
    /// # let _ = std::fs::remove_dir_all(&dir);
    /// # Ok(()) }
    /// ```
    pub fn set_pipeline_cache_dir(&self, dir: Option<&Path>) -> Option<PathBuf> {
        let inner = self.as_wgpu()?;
        let cache = match (dir, &inner.info) {
            (Some(dir), Some(info)) => {
                DiskCache::open(&inner.device, info, dir, inner.config.cache_max_mb).map(Arc::new)
            }
            _ => None,
        };
        let file = cache.as_ref().map(|c| c.file.clone());
        *crate::sync::lock(&inner.disk_cache) = cache;
        file
    }

    /// The file this device keeps compiled pipelines in ([`Device::set_pipeline_cache_dir`]),
    /// if any.
    ///
    /// ```
    /// # fn main() -> sarek_rt::Result<()> {
    /// let dev = sarek_rt::Device::cpu();
    /// assert_eq!(dev.pipeline_cache_file(), None); // the CPU backend compiles nothing
    /// # Ok(()) }
    /// ```
    pub fn pipeline_cache_file(&self) -> Option<PathBuf> {
        self.disk_cache().map(|c| c.file.clone())
    }

    /// Whether this device's pipeline cache started from a file's data (a previous process,
    /// or another device, saved it), so first launches skip the driver's compilation.
    ///
    /// ```
    /// # fn main() -> sarek_rt::Result<()> {
    /// let dev = sarek_rt::Device::cpu();
    /// assert!(!dev.pipeline_cache_reused());
    /// # Ok(()) }
    /// ```
    pub fn pipeline_cache_reused(&self) -> bool {
        self.disk_cache().is_some_and(|c| c.reused)
    }

    /// The device's pipeline cache, if it keeps one.
    pub(crate) fn disk_cache(&self) -> Option<Arc<DiskCache>> {
        let inner = self.as_wgpu()?;
        crate::sync::lock(&inner.disk_cache).clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cached data in `bytes`, if they are a whole cache file made for `key`; otherwise why
    /// not.
    fn parse<'a>(bytes: &'a [u8], key: &str) -> Result<&'a [u8], &'static str> {
        LAYOUT.parse(bytes, &fields(key))
    }

    #[test]
    fn files_round_trip_and_bad_ones_are_refused() {
        let data = b"compiled code".to_vec();
        let file = encode("key a", &data);
        assert_eq!(parse(&file, "key a"), Ok(&data[..]));
        assert!(parse(&file, "key b").is_err());
        assert!(parse(&file[..file.len() - 1], "key a").is_err());
        assert!(parse(b"SAREK", "key a").is_err());
        assert!(parse(b"", "key a").is_err());
        let mut flipped = file.clone();
        *flipped.last_mut().unwrap() ^= 1;
        assert_eq!(
            parse(&flipped, "key a"),
            Err("corrupt (its checksum does not match)")
        );
    }
}
