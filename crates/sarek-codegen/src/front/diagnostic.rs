//! The front end's one diagnostics channel. Every problem is a [`Diagnostic`]: where it is
//! and what went wrong, as an [`ErrorKind`] by category. Kinds are rendered to text in one
//! place (the `Display` impl of [`ErrorKind`]), and every error of an item goes into one
//! [`Diagnostics`] collector that is checked once, at the end, so that all of them are
//! reported together (as serde_derive's `Ctxt` does).

use std::borrow::Cow;
use std::fmt;

use proc_macro2::{Span, TokenStream};

/// What went wrong.
#[derive(Debug)]
pub enum ErrorKind {
    /// A Rust construct kernels cannot use; the text says why and what to write instead.
    Unsupported(Cow<'static, str>),
    /// Two types that must agree do not (rustc's "mismatched types").
    Mismatch {
        /// The type wanted, as rustc prints it.
        expected: String,
        /// The type found.
        found: String,
    },
    /// A value of the wrong kind of type where an operator or intrinsic needs one kind
    /// (rustc's "expected an integer, found `f32`").
    Expected {
        /// The kind wanted, with its article (`an integer`, `a number`).
        what: &'static str,
        /// The type found, as rustc prints it.
        found: String,
    },
    /// A type name that is not in scope.
    UnknownType(String),
    /// A struct name, in a struct expression or pattern, that is not in scope.
    UnknownStruct(String),
    /// A value name that is not in scope.
    UnknownName(String),
    /// A literal that does not fit its type.
    OutOfRange(String),
    /// A name where a constant is needed that the macro cannot see (a `const` outside the
    /// kernel and its module is invisible to it).
    UnknownConst(String),
    /// Something that is not a constant where one is needed; the text names it.
    NotConstant(String),
    /// A constant expression whose evaluation fails (overflow, division by zero).
    ConstEval(String),
    /// A rule of WebGPU that the lowered kernel breaks, found by the checks on the IR (a limit
    /// exceeded, a barrier in divergent control flow); the text comes from the check.
    Rule(String),
    /// An attribute the macros do not accept.
    InvalidAttribute(&'static str),
    /// naga rejected the WGSL Sarek generated: a bug in Sarek.
    Naga {
        /// naga's report.
        message: String,
        /// The rejected module.
        wgsl: String,
    },
    /// An error as syn reports it (a parse error, or one that already carries its spans).
    Syn(syn::Error),
    /// Any other error, with its text. The front end's many specific messages that have no
    /// category above yet are kept here, word for word; a new category replaces them as
    /// it is introduced.
    Other(String),
}

impl ErrorKind {
    /// [`ErrorKind::Unsupported`] with this explanation.
    pub fn unsupported(text: impl Into<Cow<'static, str>>) -> Self {
        ErrorKind::Unsupported(text.into())
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::Unsupported(text) => f.write_str(text),
            ErrorKind::InvalidAttribute(text) => f.write_str(text),
            ErrorKind::Mismatch { expected, found } => {
                write!(f, "mismatched types: expected `{expected}`, found `{found}`")
            }
            ErrorKind::Expected { what, found } => write!(f, "expected {what}, found `{found}`"),
            ErrorKind::UnknownType(name) => write!(
                f,
                "cannot find type `{name}` here: a kernel sees only the structs and enums of its `#[sarek::module]`, of the `#[sarek::module]`s it imports with `use`, and of its own body, because the macro must read their fields at compile time; move `{name}` into a `#[sarek::module]`"
            ),
            ErrorKind::UnknownStruct(name) => write!(
                f,
                "cannot find struct `{name}` here: a kernel sees only the structs of its `#[sarek::module]`, of the `#[sarek::module]`s it imports with `use`, and of its own body; move `{name}` into a `#[sarek::module]`"
            ),
            ErrorKind::UnknownName(name) => write!(
                f,
                "cannot find `{name}` in this kernel: a kernel sees its parameters, its own `let` bindings and Sarek's intrinsics"
            ),
            ErrorKind::OutOfRange(ty) => write!(f, "literal out of range for `{ty}`"),
            ErrorKind::UnknownConst(name) => write!(
                f,
                "cannot find constant `{name}` here: the macro evaluates constants at compile time and sees only the `const`s of the kernel's body, of its `#[sarek::module]` and of the modules it imports, not the rest of the file; move `{name}` into the kernel's body, or put the kernel and `{name}` in a `#[sarek::module] mod`"
            ),
            ErrorKind::NotConstant(what) => write!(
                f,
                "{what} cannot be evaluated at compile time, where this constant is needed: a constant is built from literals, other `const`s, arithmetic, comparisons, `as` casts, `min`/`max` and `if`"
            ),
            ErrorKind::ConstEval(text) => f.write_str(text),
            ErrorKind::Rule(text) | ErrorKind::Other(text) => f.write_str(text),
            ErrorKind::Naga { message, wgsl } => f.write_str(&crate::valid::report(message, wgsl)),
            ErrorKind::Syn(e) => fmt::Display::fmt(e, f),
        }
    }
}

/// An error at a place in the user's code.
#[derive(Debug)]
pub struct Diagnostic {
    /// Where: the Rust token it is reported at.
    pub span: Span,
    /// What went wrong.
    pub kind: ErrorKind,
}

impl Diagnostic {
    /// An error of kind `kind` at `span`.
    pub fn new(span: Span, kind: ErrorKind) -> Self {
        Diagnostic { span, kind }
    }

    /// The error as syn reports it (a [`ErrorKind::Syn`] keeps its own spans).
    pub fn into_syn(self) -> syn::Error {
        match self.kind {
            ErrorKind::Syn(e) => e,
            kind => syn::Error::new(self.span, kind),
        }
    }
}

impl From<syn::Error> for Diagnostic {
    fn from(e: syn::Error) -> Self {
        Diagnostic {
            span: e.span(),
            kind: ErrorKind::Syn(e),
        }
    }
}

impl fmt::Display for Diagnostics {
    /// Every message, one a line (for tests and tools; the macros report through
    /// [`Diagnostics::check`], at each error's span).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.list.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            match &d.kind {
                ErrorKind::Syn(e) => {
                    let all: Vec<String> = e.clone().into_iter().map(|e| e.to_string()).collect();
                    f.write_str(&all.join("\n"))?;
                }
                kind => write!(f, "{kind}")?,
            }
        }
        Ok(())
    }
}

/// Every error of one item, in the order found. Push while working; check once at the end.
#[derive(Debug, Default)]
pub struct Diagnostics {
    list: Vec<Diagnostic>,
}

impl Diagnostics {
    /// An empty collector.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records an error of kind `kind` at `span`.
    pub fn push(&mut self, span: Span, kind: ErrorKind) {
        self.list.push(Diagnostic { span, kind });
    }

    /// Records a diagnostic made elsewhere.
    pub fn add(&mut self, diagnostic: Diagnostic) {
        self.list.push(diagnostic);
    }

    /// Records an error with its own text (see [`ErrorKind::Other`]).
    pub fn error(&mut self, span: Span, message: impl fmt::Display) {
        self.push(span, ErrorKind::Other(message.to_string()));
    }

    /// Records an error that syn reported.
    pub fn syn(&mut self, error: syn::Error) {
        self.list.push(error.into());
    }

    /// How many errors were recorded.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Forgets the errors after the first `len` (those of a tentative lowering).
    pub fn truncate(&mut self, len: usize) {
        self.list.truncate(len);
    }

    /// Whether none was.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The same errors, each message prefixed by `prefix` (an instance of a generic kernel
    /// names itself: "in the instance T = i32: ..."); syn's own errors keep their text.
    pub fn prefixed(self, prefix: &str) -> Diagnostics {
        let list = self
            .list
            .into_iter()
            .map(|d| match d.kind {
                ErrorKind::Syn(_) => d,
                kind => Diagnostic::new(d.span, ErrorKind::Other(format!("{prefix}{kind}"))),
            })
            .collect();
        Diagnostics { list }
    }

    /// [`Diagnostics::prefixed`], and each error also names the source position of its span
    /// (`at src/lib.rs:12:5`): for code of another crate, whose spans rustc shows at the
    /// macro call that brought them in.
    pub fn prefixed_with_place(self, prefix: &str) -> Diagnostics {
        let list = self
            .list
            .into_iter()
            .map(|d| match d.kind {
                ErrorKind::Syn(_) => d,
                kind => {
                    let place = super::library::place(d.span)
                        .map(|p| format!(" (at {p})"))
                        .unwrap_or_default();
                    Diagnostic::new(d.span, ErrorKind::Other(format!("{prefix}{kind}{place}")))
                }
            })
            .collect();
        Diagnostics { list }
    }

    /// Moves every error of `other` after these.
    pub fn append(&mut self, other: Diagnostics) {
        self.list.extend(other.list);
    }

    /// The check at the end: every error, combined into one syn error (each part at its own
    /// span), or `Ok` when there were none.
    pub fn check(self) -> Result<(), syn::Error> {
        let mut iter = self.list.into_iter().map(Diagnostic::into_syn);
        let Some(mut first) = iter.next() else {
            return Ok(());
        };
        for e in iter {
            first.combine(e);
        }
        Err(first)
    }

    /// The `compile_error!` invocations that report every error (empty when there are none).
    pub fn into_compile_errors(self) -> TokenStream {
        match self.check() {
            Ok(()) => TokenStream::new(),
            Err(e) => e.to_compile_error(),
        }
    }
}
