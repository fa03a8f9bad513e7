//! `SAREK_TRACE=<file>` ([`crate::Config::trace`]): a device writes what it did to a trace
//! file in the Chrome trace-event format (a JSON object with a `traceEvents` array), which
//! Perfetto (<https://ui.perfetto.dev>) and `chrome://tracing` open.
//!
//! Every event is a complete event (`"ph": "X"`) with its start (`ts`) and duration (`dur`) in
//! microseconds since the first trace of the process was opened, on the host's clock:
//! launches (`cat` `launch`, named by the kernel), batches (`batch`: the submission with its
//! number of launches; `enqueue`: each launch added), transfers (`transfer`: uploads, zeroed buffers,
//! reads, writes and copies, with their bytes), pipeline creations (`pipeline`: the kernel,
//! its entry point, its tier, and whether its module came from the cache directory),
//! `Device::prepare` (`prepare`), launches recorded into a caller's encoder (`record`) and
//! waits (`sync`). Each device is a process of the trace (`pid`, named after the device), each host
//! thread a thread of it (`tid`). Where the device has timestamp queries, each launch and
//! batch also has a span on the device's `GPU` thread (`tid` 0, `cat` `gpu`) measured by the
//! GPU itself.
//!
//! The file is a complete JSON document at every moment: events are appended in place of its
//! closing `]}`, which is written again after them. Events wait in memory until the device
//! writes them: every 64 KiB of them, at [`crate::Device::flush_trace`], and when the device
//! (its last clone) is dropped, which first waits for the GPU times of the launches issued.
//! Devices of one process that trace to the same path share the file (the first truncates
//! it). This room names no backend: each backend holds its device's [`Trace`], the shared
//! layer records what every backend does, and the wgpu backend adds its pipelines and its
//! GPU spans (as closures that read its timestamps).

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::fs::File;
use std::io::{Seek, SeekFrom, Write as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

use crate::backend::with_backend;
use crate::device::Device;
use crate::error::{Error, Result};

/// What opens a trace file: the object and its array.
const HEADER: &str = "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[";

/// What closes it, written again after every append.
const TRAILER: &str = "\n]}\n";

/// Events held in memory before they are written without being asked to.
const WRITE_AT: usize = 64 * 1024;

/// GPU spans waiting for their timestamps before the device reads them all (each holds a
/// query set and two small buffers until then).
const GPU_BACKLOG: usize = 1024;

/// The thread id of the GPU track in each device's process.
const GPU_TID: u64 = 0;

/// The instant all traces of the process measure from.
fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

/// Microseconds from the epoch to `at` (0 for an instant before it).
fn micros(at: Instant) -> f64 {
    at.saturating_duration_since(epoch()).as_nanos() as f64 / 1000.0
}

/// The trace's id of the calling thread (from 1; 0 is the GPU track).
fn thread_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    thread_local! {
        static ID: u64 = NEXT.fetch_add(1, Ordering::Relaxed);
    }
    ID.with(|id| *id)
}

/// Appends `s` to `out` as a JSON string, quotes included: `"` and `\` escaped, control
/// characters as `\n`, `\t`, ... or `\u00XX`; everything else as it is (JSON text is UTF-8).
pub(crate) fn escape_into(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// A number as JSON: finite values with three decimals (nanoseconds, in microseconds), and 0
/// for what JSON cannot hold.
fn number(out: &mut String, x: f64) {
    let x = if x.is_finite() { x } else { 0.0 };
    let _ = write!(out, "{x:.3}");
}

/// The `args` object of an event, built field by field.
#[derive(Clone, Debug, Default)]
pub(crate) struct Args(String);

impl Args {
    /// No fields.
    pub(crate) fn new() -> Args {
        Args::default()
    }

    fn key(&mut self, key: &str) -> &mut String {
        if !self.0.is_empty() {
            self.0.push(',');
        }
        escape_into(&mut self.0, key);
        self.0.push(':');
        &mut self.0
    }

    /// A string field.
    pub(crate) fn str(mut self, key: &str, value: &str) -> Args {
        escape_into(self.key(key), value);
        self
    }

    /// A whole number field.
    pub(crate) fn u64(mut self, key: &str, value: u64) -> Args {
        let _ = write!(self.key(key), "{value}");
        self
    }

    /// A yes/no field.
    pub(crate) fn bool(mut self, key: &str, value: bool) -> Args {
        let _ = write!(self.key(key), "{value}");
        self
    }

    /// An array of whole numbers (a grid, a workgroup size).
    pub(crate) fn u64s(mut self, key: &str, values: &[u64]) -> Args {
        let out = self.key(key);
        out.push('[');
        for (i, v) in values.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let _ = write!(out, "{v}");
        }
        out.push(']');
        self
    }

    /// An `error` field with `result`'s error, if it is one.
    pub(crate) fn outcome<T>(self, result: &Result<T>) -> Args {
        match result {
            Ok(_) => self,
            Err(e) => self.str("error", &e.to_string()),
        }
    }
}

/// A trace file, shared by the devices of the process that trace to its path.
struct TraceFile {
    path: PathBuf,
    state: Mutex<FileState>,
}

struct FileState {
    file: File,
    /// Where the trailer starts: the next events go there.
    end: u64,
    /// Whether no event was written yet (the next one takes no comma).
    empty: bool,
}

impl TraceFile {
    /// The file at `path`: the one this process already traces to, or a new one (truncated,
    /// holding an empty array).
    fn open(path: &Path) -> std::io::Result<Arc<TraceFile>> {
        static FILES: OnceLock<Mutex<HashMap<PathBuf, Arc<TraceFile>>>> = OnceLock::new();
        let mut files = crate::sync::lock(FILES.get_or_init(Default::default));
        if let Some(file) = files.get(path) {
            return Ok(file.clone());
        }
        let mut file = File::create(path)?;
        file.write_all(format!("{HEADER}{TRAILER}").as_bytes())?;
        let opened = Arc::new(TraceFile {
            path: path.to_path_buf(),
            state: Mutex::new(FileState {
                file,
                end: HEADER.len() as u64,
                empty: true,
            }),
        });
        // Kept for the process: a later device tracing to the same path appends to it.
        files.insert(path.to_path_buf(), opened.clone());
        Ok(opened)
    }

    /// Writes `events` (each starting with `,`) in place of the trailer, then the trailer.
    fn append(&self, events: &str) -> std::io::Result<()> {
        if events.is_empty() {
            return Ok(());
        }
        let mut state = crate::sync::lock(&self.state);
        let events = if state.empty { &events[1..] } else { events };
        // One write, so that the file is a whole document before and after it.
        let mut block = String::with_capacity(events.len() + TRAILER.len());
        block.push_str(events);
        block.push_str(TRAILER);
        let at = state.end;
        state.file.seek(SeekFrom::Start(at))?;
        state.file.write_all(block.as_bytes())?;
        state.end = at + events.len() as u64;
        state.empty = false;
        Ok(())
    }
}

/// A span on the GPU track, waiting for its timestamps.
pub(crate) struct GpuSpan {
    /// The kernel's name, or `batch`.
    pub(crate) name: String,
    pub(crate) args: Args,
    /// When the host issued the work.
    pub(crate) issued: Instant,
    /// Whether the work has been submitted to the device (its timestamps can be read: a
    /// launch still in an open command encoder is left for a later read).
    pub(crate) submitted: Box<dyn Fn() -> bool + Send>,
    /// The work's start and end in nanoseconds of the GPU's clock, once it has been
    /// submitted (`None` if they cannot be read: a lost device).
    pub(crate) read: Box<dyn FnOnce() -> Option<[f64; 2]> + Send>,
}

/// What a device has recorded and not yet written.
#[derive(Default)]
struct State {
    /// Events, each starting with `,`.
    text: String,
    gpu: Vec<GpuSpan>,
    /// Host threads already named in the trace.
    threads: HashSet<u64>,
    /// Microseconds added to a GPU time (in microseconds of its own clock) to place it on the
    /// host's timeline.
    gpu_offset: Option<f64>,
}

/// One device's trace ([`crate::Config::trace`]).
pub(crate) struct Trace {
    /// The device's process in the trace: its id.
    pid: u64,
    file: Arc<TraceFile>,
    state: Mutex<State>,
}

impl std::fmt::Debug for Trace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Trace")
            .field("path", &self.file.path)
            .field("pid", &self.pid)
            .finish()
    }
}

impl Trace {
    /// The trace of device `id`, named `name`, into `path` (`None`: no trace); `gpu_track`
    /// when it will have GPU spans. A file that cannot be opened is logged at `warn` level and
    /// the device runs without a trace (making a device does not fail for it).
    pub(crate) fn open(
        path: Option<&Path>,
        id: u64,
        name: &str,
        gpu_track: bool,
    ) -> Option<Arc<Trace>> {
        let path = path?;
        epoch();
        let file = match TraceFile::open(path) {
            Ok(file) => file,
            Err(e) => {
                log::warn!(
                    "sarek: cannot write the trace file {}: {e}; this device runs without a trace",
                    path.display()
                );
                return None;
            }
        };
        let trace = Trace {
            pid: id,
            file,
            state: Mutex::new(State::default()),
        };
        {
            let mut state = crate::sync::lock(&trace.state);
            let label = format!("Sarek device {id}: {name}");
            trace.metadata(&mut state.text, "process_name", 0, &label);
            if gpu_track {
                trace.metadata(&mut state.text, "thread_name", GPU_TID, "GPU");
            }
        }
        Some(Arc::new(trace))
    }

    /// The file's path.
    pub(crate) fn path(&self) -> &Path {
        &self.file.path
    }

    /// A metadata event naming this device's process or one of its threads.
    fn metadata(&self, out: &mut String, what: &str, tid: u64, name: &str) {
        let _ = write!(
            out,
            ",\n{{\"name\":\"{what}\",\"ph\":\"M\",\"pid\":{},\"tid\":{tid},\"args\":{{\"name\":",
            self.pid
        );
        escape_into(out, name);
        out.push_str("}}");
    }

    /// A complete event, from `start` to now, on the calling thread.
    pub(crate) fn complete(&self, name: &str, cat: &str, start: Instant, args: &Args) {
        let end = Instant::now();
        let tid = thread_id();
        let mut state = crate::sync::lock(&self.state);
        if state.threads.insert(tid) {
            let current = std::thread::current();
            let thread = match current.name() {
                Some(name) => name.to_owned(),
                None => format!("thread {tid}"),
            };
            self.metadata(&mut state.text, "thread_name", tid, &thread);
        }
        let ts = micros(start);
        let dur = (micros(end) - ts).max(0.0);
        self.event(&mut state.text, name, cat, tid, ts, dur, args);
        if state.text.len() >= WRITE_AT {
            let text = std::mem::take(&mut state.text);
            drop(state);
            self.write(&text);
        }
    }

    /// Appends one complete event to `out`.
    #[allow(clippy::too_many_arguments)]
    fn event(
        &self,
        out: &mut String,
        name: &str,
        cat: &str,
        tid: u64,
        ts: f64,
        dur: f64,
        args: &Args,
    ) {
        out.push_str(",\n{\"name\":");
        escape_into(out, name);
        out.push_str(",\"cat\":");
        escape_into(out, cat);
        out.push_str(",\"ph\":\"X\",\"ts\":");
        number(out, ts);
        out.push_str(",\"dur\":");
        number(out, dur);
        let _ = write!(
            out,
            ",\"pid\":{},\"tid\":{tid},\"args\":{{{}}}}}",
            self.pid, args.0
        );
    }

    /// Writes `text` to the file, logging a failure (for writes nobody asked for).
    fn write(&self, text: &str) {
        if let Err(e) = self.file.append(text) {
            log::warn!(
                "sarek: could not write the trace file {}: {e}",
                self.file.path.display()
            );
        }
    }

    /// Keeps `span` until its timestamps are read. Returns whether enough spans wait that
    /// the caller should submit its work and [`Trace::resolve_gpu`].
    pub(crate) fn push_gpu(&self, span: GpuSpan) -> bool {
        let mut state = crate::sync::lock(&self.state);
        state.gpu.push(span);
        state.gpu.len() >= GPU_BACKLOG
    }

    /// Reads the timestamps of the GPU spans waiting whose work was submitted (this waits for
    /// it to finish) and records them on the GPU track; the others wait for a later call. The
    /// GPU's clock is placed on the host's by the largest offset that puts no span before its
    /// issue on the host, so durations and gaps between spans are the GPU's own.
    pub(crate) fn resolve_gpu(&self) {
        let spans = std::mem::take(&mut crate::sync::lock(&self.state).gpu);
        if spans.is_empty() {
            return;
        }
        // Launches another thread left in the open encoder since the caller submitted it.
        let (spans, later): (Vec<GpuSpan>, Vec<GpuSpan>) =
            spans.into_iter().partition(|span| (span.submitted)());
        let read: Vec<(GpuSpan, f64, [f64; 2])> = spans
            .into_iter()
            .filter_map(|mut span| {
                let read = std::mem::replace(&mut span.read, Box::new(|| None));
                let [start, end] = read()?;
                let issued = micros(span.issued);
                Some((span, issued, [start / 1000.0, end / 1000.0]))
            })
            .collect();
        let mut state = crate::sync::lock(&self.state);
        state.gpu.extend(later);
        if read.is_empty() {
            return;
        }
        let earliest = read
            .iter()
            .map(|(_, issued, [start, _])| issued - start)
            .fold(f64::NEG_INFINITY, f64::max);
        let offset = state.gpu_offset.map_or(earliest, |o| o.max(earliest));
        state.gpu_offset = Some(offset);
        for (span, _, [start, end]) in &read {
            let dur = (end - start).max(0.0);
            self.event(
                &mut state.text,
                &span.name,
                "gpu",
                GPU_TID,
                start + offset,
                dur,
                &span.args,
            );
        }
    }

    /// Records the GPU spans waiting and writes every event held to the file.
    pub(crate) fn flush(&self) -> std::io::Result<()> {
        self.resolve_gpu();
        let text = std::mem::take(&mut crate::sync::lock(&self.state).text);
        self.file.append(&text)
    }
}

impl Drop for Trace {
    fn drop(&mut self) {
        // The device is going away (its backend submitted what it held): its last events.
        if let Err(e) = self.flush() {
            log::warn!(
                "sarek: could not write the trace file {}: {e}",
                self.file.path.display()
            );
        }
    }
}

/// A host span being timed: ended by [`Span::end`].
pub(crate) struct Span<'a> {
    trace: &'a Trace,
    start: Instant,
}

impl Trace {
    /// A span starting now.
    pub(crate) fn span(&self) -> Span<'_> {
        Span {
            trace: self,
            start: Instant::now(),
        }
    }
}

impl Span<'_> {
    /// Records the span, from its start to now.
    pub(crate) fn end(self, name: &str, cat: &str, args: Args) {
        self.trace.complete(name, cat, self.start, &args);
    }
}

impl Device {
    /// The device's trace, when [`crate::Config::trace`] asked for one: one branch when off,
    /// and no virtual call.
    #[inline]
    pub(crate) fn trace(&self) -> Option<&Trace> {
        with_backend!(&self.backend, b => b.trace.as_deref())
    }

    /// Runs `f`, recorded as an event `name` of category `cat` with `args` (and its error, if
    /// it fails) when the device traces.
    #[inline]
    pub(crate) fn traced<R>(
        &self,
        name: &str,
        cat: &str,
        args: impl FnOnce() -> Args,
        f: impl FnOnce() -> Result<R>,
    ) -> Result<R> {
        match self.trace() {
            None => f(),
            Some(trace) => {
                let span = trace.span();
                let result = f();
                span.end(name, cat, args().outcome(&result));
                result
            }
        }
    }

    /// Writes this device's trace events to its trace file now ([`crate::Config::trace`],
    /// `SAREK_TRACE`), after submitting the launches it holds and reading the GPU times of
    /// those issued so far (which waits for them to finish). Without a trace it does
    /// nothing. The file is a complete JSON document after each write, so a program that
    /// ends without dropping its devices (`std::process::exit`, a panic that aborts) still
    /// leaves one, with every event up to the last flush; events are also written every
    /// 64 KiB of them, and when the device (its last clone) is dropped.
    ///
    /// ```
    /// # use sarek_rt::fixture::add_one;
    /// # fn main() -> sarek_rt::Result<()> {
    /// let path = std::env::temp_dir().join(format!("sarek-doc-{}.json", std::process::id()));
    /// let dev = sarek_rt::Device::cpu_with(sarek_rt::Config::default().trace(Some(&path)));
    /// let mut x = dev.upload(&[1u32, 2, 3])?;
    /// add_one.launch(&dev, sarek_rt::Grid::cover(3), &mut x)?;
    /// dev.flush_trace()?;
    /// let json = std::fs::read_to_string(&path).unwrap();
    /// assert!(json.contains(r#""name":"add_one","cat":"launch""#));
    /// # std::fs::remove_file(&path).ok();
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Trace`] when the file cannot be written.
    pub fn flush_trace(&self) -> Result<()> {
        let Some(trace) = self.trace() else {
            return Ok(());
        };
        // The GPU spans' timestamps are read after their work was submitted.
        self.flush();
        trace.flush().map_err(|e| Error::Trace {
            path: trace.path().to_path_buf(),
            message: e.to_string(),
        })
    }

    /// The file this device writes its trace to ([`crate::Config::trace`], `SAREK_TRACE`),
    /// or `None` when it does not trace (never asked, or the file could not be created).
    ///
    /// ```
    /// let dev = sarek_rt::Device::cpu_with(sarek_rt::Config::default());
    /// assert_eq!(dev.trace_path(), None);
    /// ```
    pub fn trace_path(&self) -> Option<&Path> {
        self.trace().map(Trace::path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn escaped(s: &str) -> String {
        let mut out = String::new();
        escape_into(&mut out, s);
        out
    }

    #[test]
    fn strings_are_escaped_as_json() {
        assert_eq!(escaped("saxpy"), r#""saxpy""#);
        assert_eq!(escaped(r#"a"b\c"#), r#""a\"b\\c""#);
        assert_eq!(escaped("a\nb\tc\rd"), r#""a\nb\tc\rd""#);
        assert_eq!(escaped("\u{8}\u{c}"), r#""\b\f""#);
        assert_eq!(escaped("\u{0}\u{1f}\u{7f}"), "\"\\u0000\\u001f\u{7f}\"");
        assert_eq!(escaped("é ∑ 🦀"), "\"é ∑ 🦀\"");
        // Every character up to U+00FF, and some beyond, reads back as itself.
        let all: String = (0u32..0x100)
            .chain([0x2028, 0x2029, 0xfeff, 0x1f980])
            .filter_map(char::from_u32)
            .collect();
        let back: String = serde_json::from_str(&escaped(&all)).unwrap();
        assert_eq!(back, all);
    }

    #[test]
    fn args_and_events_are_json() {
        let args = Args::new()
            .str("kernel", "k\"1")
            .u64("bytes", 12)
            .bool("cached", true)
            .u64s("grid", &[4, 1, 1]);
        let value: serde_json::Value = serde_json::from_str(&format!("{{{}}}", args.0)).unwrap();
        assert_eq!(
            value,
            serde_json::json!({"kernel": "k\"1", "bytes": 12, "cached": true, "grid": [4, 1, 1]})
        );
        let mut out = String::new();
        number(&mut out, f64::NAN);
        out.push(' ');
        number(&mut out, 1.5);
        assert_eq!(out, "0.000 1.500");
    }

    #[test]
    fn the_file_is_a_document_after_each_append() {
        let path = std::env::temp_dir().join(format!(
            "sarek-trace-unit-{}-{:?}.json",
            std::process::id(),
            std::thread::current().id()
        ));
        let read = || -> serde_json::Value {
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
        };
        let file = TraceFile::open(&path).unwrap();
        assert_eq!(read()["traceEvents"], serde_json::json!([]));
        file.append(",\n{\"a\":1}").unwrap();
        assert_eq!(read()["traceEvents"], serde_json::json!([{"a": 1}]));
        file.append(",\n{\"b\":2},\n{\"c\":3}").unwrap();
        file.append("").unwrap();
        assert_eq!(
            read()["traceEvents"],
            serde_json::json!([{"a": 1}, {"b": 2}, {"c": 3}])
        );
        // The same path again in this process appends to the same file.
        let again = TraceFile::open(&path).unwrap();
        assert!(Arc::ptr_eq(&file, &again));
        std::fs::remove_file(&path).ok();
    }
}
