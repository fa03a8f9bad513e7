//! `gpu_println!`, `gpu_print!`, `assert!`, `assert_eq!`, `assert_ne!` and their `debug_`
//! forms: each becomes a [`Stmt::Debug`] writing a record to the kernel's debug channel
//! (`sarek_ir::ir::debug`), with its format string parsed here, at compile time, into the
//! pieces the runtime formats with.

use proc_macro2::Span;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;

use crate::arena::Handle;
use crate::front::infer::{Ty, VarKind};
use crate::ir::debug::{DebugKind, DebugSite, FormatPiece, FormatSpec};
use crate::ir::*;

use super::{Lowerer, Reported, Value, R};

/// A macro the kernel may call.
#[derive(Clone, Copy, PartialEq, Eq)]
enum DebugMacro {
    Print { newline: bool },
    Assert { compare: Compare, debug: bool },
}

/// What an assertion compares.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Compare {
    /// `assert!(cond)`
    Holds,
    /// `assert_eq!(left, right)`
    Eq,
    /// `assert_ne!(left, right)`
    Ne,
}

/// The debug macro `path` names: its last segment, under `sarek::gpu`, `std` or `core` when
/// it has more.
fn classify(path: &syn::Path) -> Option<DebugMacro> {
    let last = path.segments.last()?.ident.to_string();
    let prefix: Vec<String> = path
        .segments
        .iter()
        .rev()
        .skip(1)
        .map(|s| s.ident.to_string())
        .collect();
    let print = matches!(last.as_str(), "gpu_println" | "gpu_print");
    let prefix_ok = prefix.is_empty()
        || if print {
            prefix.first().is_some_and(|p| p == "gpu")
        } else {
            prefix.len() == 1 && matches!(prefix[0].as_str(), "std" | "core")
        };
    if !prefix_ok {
        return None;
    }
    let assert = |compare, debug| Some(DebugMacro::Assert { compare, debug });
    match last.as_str() {
        "gpu_println" => Some(DebugMacro::Print { newline: true }),
        "gpu_print" => Some(DebugMacro::Print { newline: false }),
        "assert" => assert(Compare::Holds, false),
        "assert_eq" => assert(Compare::Eq, false),
        "assert_ne" => assert(Compare::Ne, false),
        "debug_assert" => assert(Compare::Holds, true),
        "debug_assert_eq" => assert(Compare::Eq, true),
        "debug_assert_ne" => assert(Compare::Ne, true),
        _ => None,
    }
}

/// Why a macro other than the debug ones cannot be called in a kernel, and what to write.
pub(super) fn other_macro(path: &syn::Path) -> &'static str {
    let last = path.segments.last().map(|s| s.ident.to_string());
    match last.as_deref() {
        Some("println" | "print" | "eprintln" | "eprint") => "this macro prints on the host only; a kernel prints with `gpu_println!` or `gpu_print!`, which take the same format string",
        Some("panic" | "unreachable" | "todo" | "unimplemented") => "a kernel cannot panic; check a condition with `assert!(cond, \"message\")`, which reports the first failing invocation",
        _ => "this macro cannot run on the GPU: a kernel prints with `gpu_println!`/`gpu_print!` and checks with `assert!`, `assert_eq!`, `assert_ne!` and their `debug_` forms",
    }
}

/// Which argument a placeholder names.
#[derive(Clone, Debug, PartialEq)]
enum ArgRef {
    /// `{}`: the next positional argument.
    Next,
    /// `{0}`
    Index(usize),
    /// `{name}`: a named argument, else a variable in scope.
    Name(String),
}

/// A piece of a format string before its arguments are resolved.
#[derive(Clone, Debug, PartialEq)]
enum RawPiece {
    Text(String),
    Arg(ArgRef, FormatSpec),
}

/// Parses a format string with Rust's syntax (`{}`, `{0}`, `{name}`, `{:>8.3}`, `{:?}`,
/// `{{`, `}}`); an error is one sentence on what is wrong.
fn parse_format(text: &str) -> Result<Vec<RawPiece>, String> {
    let mut pieces = Vec::new();
    let mut literal = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                literal.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                literal.push('}');
            }
            '}' => {
                return Err(
                    "unmatched `}` in the format string; write `}}` for a literal brace".into(),
                )
            }
            '{' => {
                let mut inner = String::new();
                loop {
                    match chars.next() {
                        Some('}') => break,
                        Some('{') | None => return Err("unclosed `{` in the format string; close the placeholder with `}`, or write `{{` for a literal brace".into()),
                        Some(c) => inner.push(c),
                    }
                }
                if !literal.is_empty() {
                    pieces.push(RawPiece::Text(std::mem::take(&mut literal)));
                }
                let (arg, spec) = inner.split_once(':').unwrap_or((&inner, ""));
                let arg = arg.trim();
                let arg = if arg.is_empty() {
                    ArgRef::Next
                } else if let Ok(n) = arg.parse::<usize>() {
                    ArgRef::Index(n)
                } else if is_identifier(arg) {
                    ArgRef::Name(arg.strip_prefix("r#").unwrap_or(arg).to_owned())
                } else {
                    return Err(format!("`{arg}` is not an argument: a placeholder names an argument by position (`{{0}}`) or by name (`{{x}}`)"));
                };
                pieces.push(RawPiece::Arg(arg, parse_spec(spec)?));
            }
            c => literal.push(c),
        }
    }
    if !literal.is_empty() {
        pieces.push(RawPiece::Text(literal));
    }
    Ok(pieces)
}

fn is_identifier(s: &str) -> bool {
    let s = s.strip_prefix("r#").unwrap_or(s);
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c == '_' || c.is_ascii_alphabetic())
        && chars.all(|c| c == '_' || c.is_ascii_alphanumeric())
        && s != "_"
}

/// Parses `[[fill]align][sign]['#']['0'][width]['.' precision][type]`.
fn parse_spec(spec: &str) -> Result<FormatSpec, String> {
    let mut out = FormatSpec::default();
    let chars: Vec<char> = spec.chars().collect();
    let mut i = 0;
    let align_of = |c: char| match c {
        '<' => Some(-1),
        '^' => Some(0),
        '>' => Some(1),
        _ => None,
    };
    if chars.len() >= 2 && align_of(chars[1]).is_some() {
        out.fill = Some(chars[0]);
        out.align = align_of(chars[1]);
        i = 2;
    } else if let Some(a) = chars.first().and_then(|&c| align_of(c)) {
        out.align = Some(a);
        i = 1;
    }
    if chars.get(i) == Some(&'+') {
        out.plus = true;
        i += 1;
    } else if chars.get(i) == Some(&'-') {
        i += 1;
    }
    if chars.get(i) == Some(&'#') {
        out.alternate = true;
        i += 1;
    }
    if chars.get(i) == Some(&'0') {
        out.zero = true;
        i += 1;
    }
    let number = |i: &mut usize| -> Result<Option<u32>, String> {
        let start = *i;
        while chars.get(*i).is_some_and(char::is_ascii_digit) {
            *i += 1;
        }
        if matches!(chars.get(*i), Some('$' | '*')) {
            return Err("a width or precision taken from an argument (`$`, `*`) cannot be printed on the GPU; write the number in the format string".into());
        }
        if *i == start {
            return Ok(None);
        }
        let digits: String = chars[start..*i].iter().collect();
        digits
            .parse::<u32>()
            .ok()
            .filter(|&n| n <= 1024)
            .map(Some)
            .ok_or_else(|| "a width or precision must be at most 1024".to_owned())
    };
    out.width = number(&mut i)?;
    if chars.get(i) == Some(&'.') {
        i += 1;
        out.precision = number(&mut i)?;
        if out.precision.is_none() {
            return Err("`.` must be followed by a precision (`{:.3}`)".into());
        }
    }
    match chars.get(i..).unwrap_or(&[]) {
        [] => {}
        ['?'] => out.debug = true,
        rest => {
            let t: String = rest.iter().collect();
            return Err(
                if t.len() == 1 && t.chars().all(|c| c.is_ascii_alphabetic()) {
                    format!("the format trait `{t}` is not available on the GPU (only `{{}}` and `{{:?}}` are); print the value with `{{}}`")
                } else {
                    format!("`{{:{spec}}}` is not a format spec; write `{{}}`, `{{:?}}`, or a width and precision such as `{{:>8.3}}`")
                },
            );
        }
    }
    Ok(out)
}

/// Writes `tokens` as rustc's `stringify!` spaces an expression: `x[i] < 10`, `f(a, b)`,
/// `a.len()`, `!done`.
fn spell(tokens: proc_macro2::TokenStream, out: &mut String) {
    use proc_macro2::{Delimiter, TokenTree};
    // Whether the previous token lets the next one follow without a space.
    let mut glue = true;
    // Whether the previous token ends an operand (a name, literal or group).
    let mut operand = false;
    // Whether the previous token was punctuation joined to this one (`&&`, `::`).
    let mut joined = false;
    for t in tokens {
        match t {
            TokenTree::Group(g) => {
                let (open, close) = match g.delimiter() {
                    Delimiter::Parenthesis => ("(", ")"),
                    Delimiter::Bracket => ("[", "]"),
                    Delimiter::Brace => ("{ ", " }"),
                    Delimiter::None => ("", ""),
                };
                // A call or an index follows its operand directly.
                if !(glue || operand && open != "{ ") {
                    out.push(' ');
                }
                out.push_str(open);
                spell(g.stream(), out);
                out.push_str(close);
                glue = false;
                operand = true;
                joined = false;
            }
            TokenTree::Punct(p) => {
                let c = p.as_char();
                let tight = matches!(c, ',' | ';' | '.' | ':') || joined;
                if !glue && !tight {
                    out.push(' ');
                }
                out.push(c);
                // `.`, a joint punctuation (`::`, `<=`) and a prefix operator bind the next token.
                let prefix = !operand && !joined && matches!(c, '!' | '-' | '*' | '&');
                joined = p.spacing() == proc_macro2::Spacing::Joint;
                glue = c == '.' || c == ':' || joined || prefix;
                operand = false;
            }
            other => {
                if !glue {
                    out.push(' ');
                }
                out.push_str(&other.to_string());
                glue = false;
                operand = true;
                joined = false;
            }
        }
    }
}

impl Lowerer<'_> {
    /// Lowers `mac` if it is a print or an assertion; `None` when it is another macro.
    pub(super) fn debug_macro(&mut self, mac: &syn::Macro) -> Option<R<Value>> {
        let which = classify(&mac.path)?;
        let span = mac.path.span();
        let args =
            match mac.parse_body_with(Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated) {
                Ok(args) => args,
                Err(e) => {
                    return Some(Err(self.error(
                        e.span(),
                        format!(
                        "{e}: the arguments of this macro must be expressions separated by commas"
                    ),
                    )))
                }
            };
        let args: Vec<syn::Expr> = args.into_iter().collect();
        Some(match which {
            DebugMacro::Print { newline } => self.print(mac, &args, newline, span),
            // Disabled debug assertions are not lowered at all (rustc still checks them in
            // the kernel's `body`).
            DebugMacro::Assert { debug: true, .. } if !self.cx.debug_assertions => Ok(Value::Unit),
            DebugMacro::Assert { compare, .. } => self.assertion(mac, &args, compare, span),
        })
    }

    /// `gpu_print!(format, args..)` / `gpu_println!`.
    fn print(
        &mut self,
        mac: &syn::Macro,
        args: &[syn::Expr],
        newline: bool,
        span: Span,
    ) -> R<Value> {
        let Some((first, rest)) = args.split_first() else {
            if newline {
                // `gpu_println!()` prints an empty line.
                let site = self.site(mac, DebugKind::Print { newline }, Vec::new(), span);
                let ids = self.ids(3, span);
                self.push(Stmt::Debug { site, args: ids }, span);
                return Ok(Value::Unit);
            }
            return Err(self.error(
                span,
                "`gpu_print!` needs a format string literal (`gpu_print!(\"x = {x}\")`)",
            ));
        };
        let (pieces, values) = self.format(first, rest, "`gpu_println!` and `gpu_print!` take a format string literal first (`gpu_println!(\"x = {x}\")`)")?;
        let site = self.site(mac, DebugKind::Print { newline }, pieces, span);
        let mut all = self.ids(3, span);
        all.extend(values);
        self.push(Stmt::Debug { site, args: all }, span);
        Ok(Value::Unit)
    }

    /// `assert!(cond, msg..)`, `assert_eq!(left, right, msg..)`, `assert_ne!`: when the
    /// assertion fails, a record of the first failing invocation.
    fn assertion(
        &mut self,
        mac: &syn::Macro,
        args: &[syn::Expr],
        compare: Compare,
        span: Span,
    ) -> R<Value> {
        let operands = if compare == Compare::Holds { 1 } else { 2 };
        if args.len() < operands {
            let what = if operands == 1 {
                "a condition"
            } else {
                "two values to compare"
            };
            return Err(self.error(span, format!("this assertion needs {what}")));
        }
        let (checked, message) = args.split_at(operands);
        let (cond, mut pieces, mut values) = if compare == Compare::Holds {
            let cond = self.value(&checked[0])?;
            self.require(cond, Scalar::Bool, checked[0].span())?;
            // The condition as written, spaced as `stringify!` gives it to std's `assert!`.
            let mut text = String::new();
            spell(quote::ToTokens::to_token_stream(&checked[0]), &mut text);
            (
                cond,
                vec![FormatPiece::Text(format!("assertion failed: {text}"))],
                Vec::new(),
            )
        } else {
            let refs: Vec<&syn::Expr> = checked.iter().collect();
            let both = self.operands(&refs)?;
            let (left, right) = (both[0], both[1]);
            for (h, e) in both.iter().zip(checked) {
                if let Ty::Compound(t) = self.infer.shallow(self.ty(*h)) {
                    let name = type_name(&self.cx.kernel.types, t);
                    return Err(self.error(e.span(), format!("`assert_eq!` and `assert_ne!` compare scalars in a kernel, and this is a `{name}`; compare its components one by one")));
                }
                if let Ty::Known(s) = self.infer.shallow(self.ty(*h)) {
                    if s.is_wide() {
                        return Err(self.error(e.span(), "`assert_eq!` and `assert_ne!` print both sides when they fail, and the debug channel holds 32-bit words, not this 64-bit integer; write `assert!(left == right)`"));
                    }
                }
            }
            let ty = self.unify(self.ty(left), self.ty(right), checked[1].span())?;
            let op = if compare == Compare::Eq {
                BinaryOp::Eq
            } else {
                BinaryOp::Ne
            };
            let cond = self.bin(op, left, right, Ty::Known(Scalar::Bool), span);
            let _ = ty;
            let sign = if compare == Compare::Eq { "==" } else { "!=" };
            let text = format!("assertion `left {sign} right` failed");
            (cond, vec![FormatPiece::Text(text)], vec![left, right])
        };
        // The message is lowered where the assertion fails, so its arguments cost nothing
        // otherwise.
        let (accept, result) = self.with_block(|this| {
            let mut user = Vec::new();
            if let Some((first, rest)) = message.split_first() {
                let (text, args) = this.format(first, rest, "an assertion's message is a format string literal (`assert!(x < n, \"x = {x}\")`); a value cannot be the message")?;
                user = args;
                let shift = values.len() as u32;
                pieces.push(FormatPiece::Text(": ".into()));
                pieces.extend(text.into_iter().map(|p| match p {
                    FormatPiece::Arg { arg, spec } => FormatPiece::Arg { arg: arg + shift, spec },
                    text => text,
                }));
            }
            if values.len() == 2 {
                let debug = FormatSpec { debug: true, ..FormatSpec::default() };
                pieces.push(FormatPiece::Text("\n  left: ".into()));
                pieces.push(FormatPiece::Arg { arg: 0, spec: debug });
                pieces.push(FormatPiece::Text("\n right: ".into()));
                pieces.push(FormatPiece::Arg { arg: 1, spec: debug });
            }
            let site = this.site(mac, DebugKind::Assert, std::mem::take(&mut pieces), span);
            let mut all = this.ids(9, span);
            all.append(&mut values);
            all.extend(user);
            this.push(Stmt::Debug { site, args: all }, span);
            Ok(Value::Unit)
        });
        result?;
        let not = self.expr(
            Expr::Unary {
                op: UnaryOp::Not,
                expr: cond,
            },
            Ty::Known(Scalar::Bool),
            span,
        );
        self.push(
            Stmt::If {
                cond: not,
                accept,
                reject: Vec::new(),
            },
            span,
        );
        Ok(Value::Unit)
    }

    /// The site of `mac` in [`Kernel::debug`], added on its first lowering: an unrolled loop
    /// lowers its body once per iteration, and every copy records the same site.
    fn site(
        &mut self,
        mac: &syn::Macro,
        kind: DebugKind,
        pieces: Vec<FormatPiece>,
        span: Span,
    ) -> u32 {
        let key = std::ptr::from_ref(mac) as usize;
        if let Some(&site) = self.cx.debug_sites.get(&key) {
            return site;
        }
        let site = self.cx.kernel.debug.len() as u32;
        let span = self.span(span);
        self.cx.kernel.debug.push(DebugSite {
            kind,
            pieces,
            args: Vec::new(),
            span,
        });
        self.cx.debug_sites.insert(key, site);
        site
    }

    /// The invocation's ids a record starts with: the global id (`n == 3`), then the
    /// workgroup and local ids (`n == 9`).
    fn ids(&mut self, n: usize, span: Span) -> Vec<Handle<Expression>> {
        let axes = [Axis::X, Axis::Y, Axis::Z];
        let mut out = Vec::new();
        let kinds: [fn(Axis) -> Builtin; 3] =
            [Builtin::GlobalIdx, Builtin::BlockIdx, Builtin::ThreadIdx];
        for kind in kinds.iter().take(n / 3) {
            for a in axes {
                out.push(self.expr(Expr::Builtin(kind(a)), Ty::Known(Scalar::U32), span));
            }
        }
        out
    }

    /// A format string and its arguments: the pieces, and one value per argument used, in
    /// the order the pieces number them.
    fn format(
        &mut self,
        first: &syn::Expr,
        rest: &[syn::Expr],
        not_literal: &str,
    ) -> R<(Vec<FormatPiece>, Vec<Handle<Expression>>)> {
        let lit = match first {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) => s,
            other => return Err(self.error(other.span(), not_literal)),
        };
        let raw = parse_format(&lit.value()).map_err(|e| self.error(lit.span(), e))?;
        // Positional arguments first, then `name = value` ones.
        let mut positional: Vec<&syn::Expr> = Vec::new();
        let mut named: Vec<(String, &syn::Expr, Span)> = Vec::new();
        for a in rest {
            match a {
                syn::Expr::Assign(assign) => match &*assign.left {
                    syn::Expr::Path(p) if p.path.get_ident().is_some() => {
                        let name = super::ident_name(p.path.get_ident().expect("checked"));
                        named.push((name, &assign.right, assign.left.span()));
                    }
                    other => {
                        return Err(self.error(other.span(), "a named argument is `name = value`"))
                    }
                },
                other if named.is_empty() => positional.push(other),
                other => {
                    return Err(
                        self.error(other.span(), "positional arguments come before named ones")
                    )
                }
            }
        }
        // Every argument is lowered once, in the order written; captures after them.
        let mut sources: Vec<syn::Expr> = positional.iter().map(|e| (*e).clone()).collect();
        sources.extend(named.iter().map(|(_, e, _)| (*e).clone()));
        let mut used = vec![false; sources.len()];
        let mut next = 0usize;
        let mut pieces = Vec::new();
        let mut failed = false;
        for piece in raw {
            let (arg, spec) = match piece {
                RawPiece::Text(t) => {
                    pieces.push(FormatPiece::Text(t));
                    continue;
                }
                RawPiece::Arg(arg, spec) => (arg, spec),
            };
            let index = match arg {
                ArgRef::Next => {
                    next += 1;
                    next - 1
                }
                ArgRef::Index(n) => n,
                ArgRef::Name(name) => match named.iter().position(|(n, _, _)| *n == name) {
                    Some(i) => positional.len() + i,
                    None => {
                        // An inline capture: `{x}` reads the variable `x`.
                        let ident = syn::Ident::new(&name, lit.span());
                        sources.push(syn::Expr::Path(syn::ExprPath {
                            attrs: Vec::new(),
                            qself: None,
                            path: ident.into(),
                        }));
                        used.push(false);
                        sources.len() - 1
                    }
                },
            };
            let Some(slot) = used.get_mut(index) else {
                failed = true;
                let count = positional.len();
                self.error(lit.span(), format!("this format string refers to argument {index}, but there {} {count} positional argument{}", if count == 1 { "is" } else { "are" }, if count == 1 { "" } else { "s" }));
                continue;
            };
            *slot = true;
            pieces.push(FormatPiece::Arg {
                arg: index as u32,
                spec,
            });
        }
        for (i, u) in used.iter().enumerate() {
            if !u {
                let span = if i < positional.len() {
                    positional[i].span()
                } else {
                    named[i - positional.len()].2
                };
                failed = true;
                self.error(
                    span,
                    "this argument is never used by the format string; remove it or add a `{}`",
                );
            }
        }
        if failed {
            return Err(Reported);
        }
        let refs: Vec<&syn::Expr> = sources.iter().collect();
        let values = self.operands(&refs)?;
        for (i, (&h, e)) in values.iter().zip(&sources).enumerate() {
            let t = self.infer.shallow(self.ty(h));
            let bad = match t {
                Ty::Compound(Type::Array(_) | Type::Struct(_)) => true,
                Ty::Var(_) if self.infer.kind_of(t) == Some(VarKind::Any) => true,
                _ => false,
            };
            if bad {
                let name = self.describe(t);
                failed = true;
                self.error(e.span(), format!("a `{name}` cannot be printed on the GPU: only scalars and vectors can; print its fields or elements one by one"));
                continue;
            }
            if let Ty::Known(s) | Ty::Compound(Type::Vector(_, s)) = t {
                if s.is_wide() {
                    let name = self.describe(t);
                    failed = true;
                    self.error(e.span(), format!("a `{name}` cannot be printed on the GPU: the debug channel holds 32-bit words; print its halves, `x as u32` and `(x >> 32) as u32`"));
                    continue;
                }
            }
            if let Ty::Compound(Type::Vector(..)) = t {
                let display = pieces.iter().any(|p| matches!(p, FormatPiece::Arg { arg, spec } if *arg as usize == i && !spec.debug));
                if display {
                    let name = self.describe(t);
                    failed = true;
                    self.error(
                        e.span(),
                        format!("`{name}` has no `Display`; print it with `{{:?}}`"),
                    );
                }
            }
        }
        if failed {
            return Err(Reported);
        }
        Ok((pieces, values))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_rust_format_strings() {
        let p = parse_format("i = {i}, x = {:>8.3} {{}} {0:?}").unwrap();
        assert_eq!(p[0], RawPiece::Text("i = ".into()));
        assert_eq!(
            p[1],
            RawPiece::Arg(ArgRef::Name("i".into()), FormatSpec::default())
        );
        let RawPiece::Arg(ArgRef::Next, spec) = &p[3] else {
            panic!("{p:?}")
        };
        assert_eq!(
            (spec.align, spec.width, spec.precision),
            (Some(1), Some(8), Some(3))
        );
        assert_eq!(p[4], RawPiece::Text(" {} ".into()));
        let RawPiece::Arg(ArgRef::Index(0), spec) = &p[5] else {
            panic!("{p:?}")
        };
        assert!(spec.debug);
    }

    #[test]
    fn spells_conditions_as_stringify_does() {
        let spelled = |e: syn::Expr| {
            let mut out = String::new();
            spell(quote::ToTokens::to_token_stream(&e), &mut out);
            out
        };
        assert_eq!(spelled(syn::parse_quote!(x[i] < 10)), "x[i] < 10");
        assert_eq!(
            spelled(syn::parse_quote!(f(a, b.len()) <= -1)),
            "f(a, b.len()) <= -1"
        );
        assert_eq!(
            spelled(syn::parse_quote!(!done && gpu::ok())),
            "!done && gpu::ok()"
        );
    }

    #[test]
    fn the_debug_channel_counts_against_the_buffer_limit() {
        let item = quote::quote! {
            fn eight(a: &[f32], b: &[f32], c: &[f32], d: &[f32], e: &[f32], f: &[f32], g: &[f32], h: &mut [f32]) {
                let i = global_thread_id();
                gpu_println!("{}", a[i]);
                h[i] = a[i] + b[i] + c[i] + d[i] + e[i] + f[i] + g[i];
            }
        };
        let out = crate::front::expand_kernel(proc_macro2::TokenStream::new(), item).to_string();
        assert!(
            out.contains("printing or asserting adds a storage buffer"),
            "{out}"
        );
    }

    #[test]
    fn refuses_bad_format_strings() {
        for bad in ["{", "}", "{:x}", "{:.}", "{:1$}", "{a b}"] {
            assert!(parse_format(bad).is_err(), "{bad}");
        }
    }
}
