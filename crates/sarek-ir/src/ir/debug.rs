//! The debug channel: `gpu_println!`, `gpu_print!` and the assertions of a kernel.
//!
//! A kernel that prints or asserts gets one more storage buffer, the debug channel, an array
//! of atomic `u32` words bound apart from its parameters; a kernel that does neither has none
//! and is printed exactly as before. Each [`Stmt::Debug`] names a
//! [`DebugSite`] of [`Kernel::debug`](super::Kernel::debug) (its format pieces and kind) and
//! carries the words to record: the invocation's ids first, then the format's arguments.
//!
//! The channel's words ([`HEADER`] is the fixed part):
//!
//! - word [`NEXT`]: the number of record words reserved so far (an `atomicAdd` reserves a
//!   record's words; a record that would not fit is not written);
//! - word [`DROPPED`]: how many records did not fit;
//! - word [`FAILED`]: 0, or the site number + 1 of the first assertion that failed (set by a
//!   compare-exchange from 0, so only the first failing invocation writes what follows);
//! - words `HEADER..HEADER + assert_words`: that assertion's record ([`assert_words`]);
//! - the rest: print records, each `[site, ids.., arguments..]`, one word per scalar
//!   (floats as their `f32` bits, `bool` as 0 or 1) and one per vector component.
//!
//! Records of one invocation are reserved in its program order (one counter word), so a
//! reader sorting by invocation keeps each invocation's lines in order.

use super::{Kernel, Scalar, Span, Stmt, Type};

/// Word of the number of record words reserved.
pub const NEXT: usize = 0;
/// Word of the number of records dropped because the channel was full.
pub const DROPPED: usize = 1;
/// Word of the failed assertion's site number + 1 (0: none failed).
pub const FAILED: usize = 2;
/// Words before the failed assertion's record.
pub const HEADER: usize = 3;
/// Id words at the start of a print record: the global invocation id (x, y, z).
pub const PRINT_IDS: usize = 3;
/// Id words at the start of an assertion's record: global, workgroup and local ids.
pub const ASSERT_IDS: usize = 9;

/// What a debug site does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum DebugKind {
    /// `gpu_print!` (`newline: false`) or `gpu_println!` (`true`): a record appended to the
    /// channel.
    Print {
        /// Whether a line ends after the text.
        newline: bool,
    },
    /// An assertion that failed (`assert!`, `assert_eq!`, `assert_ne!`, `debug_assert!`..):
    /// the first failing invocation's record, in the channel's fixed slot.
    Assert,
}

/// How a value is formatted: the part of Rust's format spec after `:`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FormatSpec {
    /// The fill character (`' '` unless given).
    pub fill: Option<char>,
    /// `<` (-1), `^` (0) or `>` (1), when given.
    pub align: Option<i8>,
    /// `+`: print the sign of positive numbers.
    pub plus: bool,
    /// `#`: the alternate form.
    pub alternate: bool,
    /// `0`: pad numbers with zeros after the sign.
    pub zero: bool,
    /// The minimum width.
    pub width: Option<u32>,
    /// The precision (digits after the point).
    pub precision: Option<u32>,
    /// `?`: `Debug` rather than `Display`.
    pub debug: bool,
}

/// A piece of a format string.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum FormatPiece {
    /// Text printed as it is (`{{` and `}}` already unescaped).
    Text(String),
    /// Argument `arg` (an index into the site's arguments), formatted as `spec` says.
    Arg {
        /// The argument's index.
        arg: u32,
        /// How it is formatted.
        spec: FormatSpec,
    },
}

/// One `gpu_println!`, `gpu_print!` or assertion of a kernel.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct DebugSite {
    /// Print or assertion.
    pub kind: DebugKind,
    /// The text: the format string, or the assertion's message.
    pub pieces: Vec<FormatPiece>,
    /// The arguments' types (scalars and vectors), in order.
    pub args: Vec<Type>,
    /// Where it was written.
    pub span: Span,
}

/// Words one value of `ty` takes in a record (0 for a type that cannot be printed).
pub fn words_of(ty: Type) -> usize {
    match ty {
        Type::Scalar(_) => 1,
        Type::Vector(n, _) => usize::from(n),
        Type::Array(_) | Type::Struct(_) => 0,
    }
}

/// The scalar and component count of a printable type.
pub fn printable(ty: Type) -> Option<(Scalar, usize)> {
    match ty {
        Type::Scalar(s) => Some((s, 1)),
        Type::Vector(n, s) => Some((s, usize::from(n))),
        Type::Array(_) | Type::Struct(_) => None,
    }
}

impl DebugSite {
    /// Words of this site's record: its number, its ids and its arguments.
    pub fn record_words(&self) -> usize {
        let ids = match self.kind {
            DebugKind::Print { .. } => PRINT_IDS,
            DebugKind::Assert => ASSERT_IDS,
        };
        1 + ids + self.args.iter().map(|&t| words_of(t)).sum::<usize>()
    }
}

/// Words of the failed assertion's slot: the longest assertion record of the kernel (0 when
/// it asserts nothing).
pub fn assert_words(sites: &[DebugSite]) -> usize {
    sites
        .iter()
        .filter(|s| s.kind == DebugKind::Assert)
        .map(DebugSite::record_words)
        .max()
        .unwrap_or(0)
}

/// Where print records start: after the header and the assertion slot.
pub fn records_start(sites: &[DebugSite]) -> usize {
    HEADER + assert_words(sites)
}

impl Kernel {
    /// Whether the kernel prints or asserts, and so has a debug channel.
    pub fn has_debug(&self) -> bool {
        !self.debug.is_empty()
    }
}

/// Gives each site the types of its arguments, read from its statements (the ids are
/// skipped): the front end knows them only once inference is done.
pub fn settle(kernel: &mut Kernel) {
    let mut found: Vec<Option<Vec<Type>>> = vec![None; kernel.debug.len()];
    for f in kernel.all_functions() {
        super::visit(&f.body, &mut |s| {
            if let Stmt::Debug { site, args } = &s.kind {
                let Some(slot) = found.get_mut(*site as usize) else {
                    return;
                };
                let ids = match kernel.debug[*site as usize].kind {
                    DebugKind::Print { .. } => PRINT_IDS,
                    DebugKind::Assert => ASSERT_IDS,
                };
                if slot.is_none() {
                    *slot = Some(args.iter().skip(ids).map(|&a| f.exprs[a].ty).collect());
                }
            }
        });
    }
    for (site, args) in kernel.debug.iter_mut().zip(found) {
        site.args = args.unwrap_or_default();
    }
}
