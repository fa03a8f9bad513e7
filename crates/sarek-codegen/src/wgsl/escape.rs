//! The one naming rule of the WGSL back end.
//!
//! A Rust identifier `x` is emitted unchanged unless WGSL refuses it or the back end needs it:
//! a keyword or reserved word, a predeclared type, enumerant or built-in function (a local
//! `max` would hide `max()`), a bare `_`, or anything starting with `__` or `sarek_`. Those are
//! emitted as `sarek_x`. Names the back end invents are `sarek_` followed by a word that the
//! rule never escapes, so they can never meet an escaped user name: the mapping from Rust
//! names plus generated names to WGSL names is injective.

use std::collections::HashSet;
use std::sync::LazyLock;

/// The prefix of every name the back end escapes or invents.
pub const PREFIX: &str = "sarek_";

/// Words WGSL rejects as identifiers, words it predeclares, and words naga refuses, taken
/// from naga itself (pinned exactly, and probed by the test suite).
static RESERVED: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    naga::keywords::wgsl::RESERVED
        .iter()
        .chain(naga::keywords::wgsl::BUILTIN_IDENTIFIERS)
        .copied()
        .collect()
});

/// Whether `name` is a WGSL keyword, reserved word or predeclared name.
pub fn is_reserved(name: &str) -> bool {
    RESERVED.contains(name)
}

/// Whether the escaping rule rewrites `name`.
pub fn needs_escape(name: &str) -> bool {
    name == "_" || name.starts_with("__") || name.starts_with(PREFIX) || is_reserved(name)
}

/// The WGSL spelling of the Rust identifier `name` (given without `r#`).
///
/// ```
/// use sarek_codegen::wgsl::escape;
/// assert_eq!(escape("acc"), "acc");
/// assert_eq!(escape("filter"), "sarek_filter");
/// assert_eq!(escape("max"), "sarek_max");
/// assert_eq!(escape("sarek_x"), "sarek_sarek_x");
/// assert_eq!(escape("_"), "sarek__");
/// ```
pub fn escape(name: &str) -> String {
    if needs_escape(name) {
        format!("{PREFIX}{name}")
    } else {
        name.to_owned()
    }
}

/// A name invented by the back end: `sarek_` followed by `word`, which the escaping rule must
/// leave alone (checked in debug builds and by the tests), so no user name can produce it.
pub fn internal(word: &str) -> String {
    debug_assert!(
        !needs_escape(word) && !word.starts_with('_') && !word.is_empty(),
        "generated name {word:?} could collide with an escaped user name"
    );
    format!("{PREFIX}{word}")
}
