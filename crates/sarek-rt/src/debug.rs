//! What kernels print and assert (`gpu_println!`, `gpu_print!`, `assert!`): the debug
//! channel read back after a launch, decoded by the format table in the kernel's IR
//! (`sarek_ir::ir::debug`), ordered by invocation and written to the device's
//! [`DebugOutput`]; a failed assertion becomes [`Error::KernelAssert`].
//!
//! The CPU backend reports when its launch returns (it has run by then); a GPU device when
//! something waits for the GPU: [`crate::Launch::wait`], a buffer's `read` and
//! [`Device::synchronize`].

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::{Arc, Mutex, OnceLock};

use sarek_ir::ir::debug::{self, DebugKind, DebugSite, FormatPiece, FormatSpec};
use sarek_ir::ir::{Kernel, Scalar, Type};

use crate::arg::KernelSource;
use crate::device::Device;
use crate::error::{Error, Result};

/// The size of a kernel's debug channel without `SAREK_DEBUG_KIB`, in KiB.
pub(crate) const DEFAULT_KIB: u32 = 1024;

/// Words of a channel of `kib` KiB: at least 4 KiB, so that the header and an assertion's
/// record always fit.
fn words_of_kib(kib: u32) -> usize {
    (kib.max(4) as usize) * 256
}

/// Where a device writes the lines its kernels print ([`Device::set_debug_output`]).
#[derive(Clone, Default)]
pub enum DebugOutput {
    /// Standard output, as `println!` (the default).
    #[default]
    Stdout,
    /// Standard error, as `eprintln!`.
    Stderr,
    /// A function called with each line, without its newline.
    Lines(Arc<dyn Fn(&str) + Send + Sync>),
}

impl DebugOutput {
    /// Output to `f`, called once per line (without the newline).
    ///
    /// ```
    /// use std::sync::{Arc, Mutex};
    /// let lines = Arc::new(Mutex::new(Vec::<String>::new()));
    /// let sink = lines.clone();
    /// let output = sarek_rt::DebugOutput::lines(move |l| sink.lock().unwrap().push(l.to_owned()));
    /// # drop(output);
    /// ```
    pub fn lines(f: impl Fn(&str) + Send + Sync + 'static) -> DebugOutput {
        DebugOutput::Lines(Arc::new(f))
    }

    fn write(&self, line: &str) {
        match self {
            DebugOutput::Stdout => println!("{line}"),
            DebugOutput::Stderr => eprintln!("{line}"),
            DebugOutput::Lines(f) => f(line),
        }
    }
}

impl std::fmt::Debug for DebugOutput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            DebugOutput::Stdout => "Stdout",
            DebugOutput::Stderr => "Stderr",
            DebugOutput::Lines(_) => "Lines(..)",
        })
    }
}

/// A device's debug settings: where lines go, and the channel's size.
pub(crate) struct DebugState {
    output: Mutex<DebugOutput>,
    /// Words of each kernel's channel.
    words: std::sync::atomic::AtomicUsize,
}

impl DebugState {
    pub(crate) fn new(kib: u32) -> DebugState {
        DebugState {
            output: Mutex::new(DebugOutput::Stdout),
            words: std::sync::atomic::AtomicUsize::new(words_of_kib(kib)),
        }
    }

    /// Words of each kernel's channel.
    pub(crate) fn words(&self) -> usize {
        self.words.load(std::sync::atomic::Ordering::Relaxed)
    }

    fn output(&self) -> DebugOutput {
        crate::sync::lock(&self.output).clone()
    }
}

/// The debug sites of a kernel, `None` when its IR does not read back.
type Sites = Option<Arc<Vec<DebugSite>>>;

/// The debug sites of `source`'s kernel, read once from its embedded IR.
fn sites(source: &'static KernelSource) -> Sites {
    static TABLES: OnceLock<Mutex<HashMap<usize, Sites>>> = OnceLock::new();
    let key = std::ptr::from_ref(source) as usize;
    let mut tables = crate::sync::lock(TABLES.get_or_init(Mutex::default));
    tables
        .entry(key)
        .or_insert_with(|| Kernel::from_json(source.ir).ok().map(|k| Arc::new(k.debug)))
        .clone()
}

/// One decoded print record.
struct Record {
    id: [u32; 3],
    /// Its place in the channel: an invocation's records are in its program order.
    at: usize,
    text: String,
    newline: bool,
}

/// Decodes `words`, `source`'s channel after a launch: writes its lines to `state`'s output
/// (ordered by invocation: z, then y, then x of the global id, each invocation's in its
/// order) with a line saying how many did not fit, and returns the first failed assertion.
pub(crate) fn report(
    source: &'static KernelSource,
    words: &[u32],
    state: &DebugState,
) -> Result<()> {
    let kernel = source.abi.kernel.to_string();
    let Some(sites) = sites(source) else {
        log::warn!("sarek: `{kernel}`'s output cannot be decoded: its IR does not read back");
        return Ok(());
    };
    if words.len() < debug::HEADER {
        return Ok(());
    }
    let start = debug::records_start(&sites);
    let end = (words[debug::NEXT] as usize)
        .saturating_add(start)
        .min(words.len());
    let mut records = Vec::new();
    let mut at = start;
    while at < end {
        let Some(site) = sites.get(words[at] as usize) else {
            break;
        };
        let DebugKind::Print { newline } = site.kind else {
            break;
        };
        let n = site.record_words();
        let Some(record) = words.get(at..at + n).filter(|_| at + n <= end) else {
            break;
        };
        records.push(Record {
            id: [record[1], record[2], record[3]],
            at,
            text: format_site(site, &record[1 + debug::PRINT_IDS..]),
            newline,
        });
        at += n;
    }
    records.sort_by_key(|r| (r.id[2], r.id[1], r.id[0], r.at));
    let output = state.output();
    let mut pending = String::new();
    for r in &records {
        pending.push_str(&r.text);
        if r.newline {
            pending.push('\n');
        }
    }
    let mut lines = pending.split('\n').collect::<Vec<_>>();
    // A text without a final newline is still written, as its own line.
    if lines.last() == Some(&"") {
        lines.pop();
    }
    for line in lines {
        output.write(line);
    }
    let dropped = words[debug::DROPPED];
    if dropped > 0 {
        output.write(&format!(
            "sarek: `{kernel}` printed {dropped} more record{} than its debug buffer of {} KiB holds; they were dropped (raise it with Config::debug_buffer_kib or SAREK_DEBUG_KIB)",
            if dropped == 1 { "" } else { "s" },
            words.len() / 256
        ));
    }
    let failed = words[debug::FAILED];
    if failed == 0 {
        return Ok(());
    }
    let record = &words[debug::HEADER..];
    let site = sites
        .get(failed as usize - 1)
        .filter(|s| s.kind == DebugKind::Assert && s.record_words() <= record.len());
    let Some(site) = site else {
        return Err(Error::KernelAssert {
            kernel,
            location: source.location.to_owned(),
            message: "an assertion failed".into(),
            global: [0; 3],
            block: [0; 3],
            thread: [0; 3],
        });
    };
    let ids = |k: usize| [record[1 + 3 * k], record[2 + 3 * k], record[3 + 3 * k]];
    Err(Error::KernelAssert {
        kernel,
        location: crate::backend::cpu::location(source, site.span),
        message: format_site(site, &record[1 + debug::ASSERT_IDS..site.record_words()]),
        global: ids(0),
        block: ids(1),
        thread: ids(2),
    })
}

/// The text of a site's record, from its argument words.
fn format_site(site: &DebugSite, words: &[u32]) -> String {
    // Where each argument's words start.
    let mut offsets = Vec::with_capacity(site.args.len());
    let mut at = 0;
    for &t in &site.args {
        offsets.push(at);
        at += debug::words_of(t);
    }
    let mut out = String::new();
    for piece in &site.pieces {
        match piece {
            FormatPiece::Text(t) => out.push_str(t),
            FormatPiece::Arg { arg, spec } => {
                let i = *arg as usize;
                let (Some(&ty), Some(&from)) = (site.args.get(i), offsets.get(i)) else {
                    continue;
                };
                let Some(value) = words.get(from..from + debug::words_of(ty)) else {
                    continue;
                };
                out.push_str(&format_value(ty, value, spec));
            }
        }
    }
    out
}

/// A value as Rust's `format!` would write it with `spec`: a vector as its derived `Debug`
/// (`Vec3 { x: 1.0, y: 2.0, z: 3.0 }`), the spec applied to each component.
fn format_value(ty: Type, words: &[u32], spec: &FormatSpec) -> String {
    match ty {
        Type::Vector(n, s) => {
            let mut out = format!("{} {{ ", sarek_ir::ir::vector_name(n, s));
            for (k, (w, c)) in words.iter().zip(["x", "y", "z", "w"]).enumerate() {
                if k > 0 {
                    out.push_str(", ");
                }
                let _ = write!(out, "{c}: {}", format_scalar(s, *w, spec));
            }
            out.push_str(" }");
            out
        }
        Type::Scalar(s) => format_scalar(s, words.first().copied().unwrap_or(0), spec),
        Type::Array(_) | Type::Struct(_) => String::new(),
    }
}

/// One scalar, with `spec`'s sign, precision, width, fill and alignment.
fn format_scalar(s: Scalar, word: u32, spec: &FormatSpec) -> String {
    macro_rules! core {
        ($v:expr) => {{
            let v = $v;
            match (spec.debug, spec.plus, spec.precision) {
                (false, false, None) => format!("{v}"),
                (false, true, None) => format!("{v:+}"),
                (false, false, Some(p)) => format!("{v:.*}", p as usize),
                (false, true, Some(p)) => format!("{v:+.*}", p as usize),
                (true, false, None) => format!("{v:?}"),
                (true, true, None) => format!("{v:+?}"),
                (true, false, Some(p)) => format!("{v:.*?}", p as usize),
                (true, true, Some(p)) => format!("{v:+.*?}", p as usize),
            }
        }};
    }
    let (text, numeric) = match s {
        Scalar::F32 | Scalar::F16 => (core!(f32::from_bits(word)), true),
        Scalar::I32 => (core!(word as i32), true),
        Scalar::U32 => (core!(word), true),
        Scalar::Bool => (core!(word != 0), false),
        // The front end refuses to print 64-bit integers; a record of one shows its low word.
        Scalar::I64 | Scalar::U64 => (core!(word), true),
    };
    let Some(width) = spec.width.map(|w| w as usize) else {
        return text;
    };
    let len = text.chars().count();
    if len >= width {
        return text;
    }
    let pad = width - len;
    if spec.zero && numeric {
        // Zeros go after the sign, as Rust's `{:08}` puts them.
        let (sign, digits) = match text.strip_prefix(['+', '-']) {
            Some(rest) => (&text[..1], rest),
            None => ("", text.as_str()),
        };
        return format!("{sign}{}{digits}", "0".repeat(pad));
    }
    let fill = spec.fill.unwrap_or(' ').to_string();
    let align = spec.align.unwrap_or(if numeric { 1 } else { -1 });
    let (before, after) = match align {
        -1 => (0, pad),
        0 => (pad / 2, pad - pad / 2),
        _ => (pad, 0),
    };
    format!("{}{text}{}", fill.repeat(before), fill.repeat(after))
}

impl Device {
    /// On a GPU, reads back the channels of launches since the last time (`crate::debug`);
    /// the CPU backend reported them when its launches returned.
    pub(crate) fn drain_debug(&self) -> Result<()> {
        if self.is_cpu() {
            return Ok(());
        }
        self.drain_gpu_debug()
    }

    /// Where this device writes what its kernels print (`gpu_println!`, `gpu_print!`):
    /// standard output by default. Returns the previous output.
    ///
    /// ```
    /// use std::sync::{Arc, Mutex};
    /// use sarek_rt::DebugOutput;
    /// let dev = sarek_rt::Device::cpu();
    /// let lines = Arc::new(Mutex::new(Vec::<String>::new()));
    /// let sink = lines.clone();
    /// dev.set_debug_output(DebugOutput::lines(move |l| sink.lock().unwrap().push(l.to_owned())));
    /// ```
    pub fn set_debug_output(&self, output: DebugOutput) -> DebugOutput {
        let state = self.backend_impl().debug();
        std::mem::replace(&mut *crate::sync::lock(&state.output), output)
    }

    /// The size of the buffer each printing or asserting kernel writes its lines to, in
    /// bytes ([`crate::Config::debug_buffer_kib`]); lines beyond it are dropped and counted.
    pub fn debug_buffer_bytes(&self) -> usize {
        self.backend_impl().debug().words() * 4
    }

    /// Sets the size of the debug buffer of kernels launched from now on, in KiB (at least
    /// 4): on a GPU each kernel keeps the buffer of its first launch on the device. Returns
    /// the previous size in KiB.
    ///
    /// ```
    /// let dev = sarek_rt::Device::cpu();
    /// dev.set_debug_buffer_kib(16);
    /// assert_eq!(dev.debug_buffer_bytes(), 16 * 1024);
    /// ```
    pub fn set_debug_buffer_kib(&self, kib: u32) -> u32 {
        let state = self.backend_impl().debug();
        let old = state
            .words
            .swap(words_of_kib(kib), std::sync::atomic::Ordering::Relaxed);
        (old / 256) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_like_rust() {
        let spec = |f: &str| -> FormatSpec {
            match f {
                ".3" => FormatSpec {
                    precision: Some(3),
                    ..FormatSpec::default()
                },
                ">8.2" => FormatSpec {
                    align: Some(1),
                    width: Some(8),
                    precision: Some(2),
                    ..FormatSpec::default()
                },
                "+05" => FormatSpec {
                    plus: true,
                    zero: true,
                    width: Some(5),
                    ..FormatSpec::default()
                },
                "?" => FormatSpec {
                    debug: true,
                    ..FormatSpec::default()
                },
                "*^7" => FormatSpec {
                    fill: Some('*'),
                    align: Some(0),
                    width: Some(7),
                    ..FormatSpec::default()
                },
                _ => FormatSpec::default(),
            }
        };
        let f = |v: f32| v.to_bits();
        assert_eq!(
            format_scalar(Scalar::F32, f(1.0 / 3.0), &spec(".3")),
            format!("{:.3}", 1.0f32 / 3.0)
        );
        assert_eq!(
            format_scalar(Scalar::F32, f(2.5), &spec(">8.2")),
            format!("{:>8.2}", 2.5f32)
        );
        assert_eq!(
            format_scalar(Scalar::I32, (-7i32) as u32, &spec("+05")),
            format!("{:+05}", -7)
        );
        assert_eq!(
            format_scalar(Scalar::I32, 7, &spec("+05")),
            format!("{:+05}", 7)
        );
        assert_eq!(format_scalar(Scalar::F32, f(1.0), &spec("?")), "1.0");
        assert_eq!(format_scalar(Scalar::F32, f(1.0), &spec("")), "1");
        assert_eq!(
            format_scalar(Scalar::Bool, 1, &spec("*^7")),
            format!("{:*^7}", true)
        );
        assert_eq!(
            format_value(Type::Vector(2, Scalar::F32), &[f(1.0), f(0.5)], &spec("?")),
            format!("{:?}", crate::Vec2::new(1.0, 0.5))
        );
    }
}
