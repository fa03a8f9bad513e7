//! `mul_add` with Rust's single rounding on a software adapter.
//!
//! WGSL lets `fma` round twice, and Mesa's lavapipe does (the product, then the sum: of
//! 200,000 random and cancelling triples, 108,538 differed from Rust's `f32::mul_add`). On a
//! software adapter every `fma` of `f32`s (scalars and vectors) in a module is therefore
//! replaced by a call of `exact_fma.wgsl`, Berkeley SoftFloat's `mulAddF32` in integer
//! arithmetic, which rounds once. `f16` `fma`s are left as they are. Hardware adapters run
//! the text unchanged.

use std::collections::HashMap;

use naga::{Expression, Function, Handle, MathFunction, Scalar, Statement, TypeInner};

/// Each `fma` to replace: the helper to call, and its arguments.
type Calls = HashMap<Handle<Expression>, (Handle<Function>, Vec<Handle<Expression>>)>;

/// `SAREK_EXACT_FMA=0` leaves a software adapter's `fma` as it is (to measure what the exact
/// one costs, or to rule it out).
pub(crate) static EXACT_FMA: sarek_codegen::toggle::Toggle =
    sarek_codegen::toggle::Toggle::new("SAREK_EXACT_FMA", true);

/// The helpers, put into a module's text before it is parsed ([`with_helpers`]).
pub(crate) const HELPERS: &str = include_str!("exact_fma.wgsl");

/// `text` with [`HELPERS`] after its directives (`enable`, `requires`, `diagnostic`) and
/// before its first declaration, since naga lets a function call only those before it.
pub(crate) fn with_helpers(text: &str) -> String {
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let t = line.trim();
        let directive = ["enable ", "requires ", "diagnostic"]
            .iter()
            .any(|d| t.starts_with(d));
        if !(t.is_empty() || t.starts_with("//") || directive) {
            break;
        }
        at += line.len();
    }
    format!("{}{HELPERS}\n{}", &text[..at], &text[at..])
}

/// Replaces each `fma` of `f32`s in `module` (parsed from a text with [`HELPERS`] appended)
/// by a call of the helper of its size; whether any was replaced.
pub(crate) fn replace(module: &mut naga::Module) -> Result<bool, String> {
    let flags = naga::valid::ValidationFlags::all();
    let info = naga::valid::Validator::new(flags, naga::valid::Capabilities::all())
        .validate(module)
        .map_err(|e| e.into_inner().to_string())?;
    let find = |name: &str| {
        module
            .functions
            .iter()
            .find(|(_, f)| f.name.as_deref() == Some(name))
            .map(|(h, _)| h)
            .ok_or_else(|| format!("no `{name}` in the module"))
    };
    let helpers = [
        find("sarek_exact_fma")?,
        find("sarek_exact_fma2")?,
        find("sarek_exact_fma3")?,
        find("sarek_exact_fma4")?,
    ];
    let mut replaced = false;
    let types = &module.types;
    for (h, function) in module.functions.iter_mut() {
        if function
            .name
            .as_deref()
            .is_some_and(|n| n.starts_with("sarek_"))
        {
            continue;
        }
        replaced |= in_function(function, &info[h], types, helpers);
    }
    for (i, entry) in module.entry_points.iter_mut().enumerate() {
        replaced |= in_function(&mut entry.function, info.get_entry_point(i), types, helpers);
    }
    Ok(replaced)
}

/// [`replace`] in one function whose analysis is `info`.
fn in_function(
    function: &mut Function,
    info: &naga::valid::FunctionInfo,
    types: &naga::UniqueArena<naga::Type>,
    helpers: [Handle<Function>; 4],
) -> bool {
    let mut calls = Calls::new();
    for (h, e) in function.expressions.iter() {
        let Expression::Math {
            fun: MathFunction::Fma,
            arg,
            arg1: Some(b),
            arg2: Some(c),
            ..
        } = *e
        else {
            continue;
        };
        let helper = match *info[h].ty.inner_with(types) {
            TypeInner::Scalar(Scalar::F32) => helpers[0],
            TypeInner::Vector {
                size,
                scalar: Scalar::F32,
            } => helpers[size as usize - 1],
            _ => continue,
        };
        calls.insert(h, (helper, vec![arg, b, c]));
    }
    if calls.is_empty() {
        return false;
    }
    for (&h, (helper, _)) in &calls {
        function.expressions[h] = Expression::CallResult(*helper);
    }
    let body = std::mem::take(&mut function.body);
    function.body = block(body, &calls);
    true
}

/// `block` with each emitted `fma` of `calls` emitted as a call instead: the emit range
/// around it split, the call between the halves (its arguments come before it in the arena,
/// so in the first half or earlier).
fn block(block: naga::Block, calls: &Calls) -> naga::Block {
    let mut out = naga::Block::with_capacity(block.len());
    for (statement, span) in block.span_into_iter() {
        match statement {
            Statement::Emit(range) => {
                let mut first: Option<Handle<Expression>> = None;
                let mut last: Option<Handle<Expression>> = None;
                for h in range.clone() {
                    if let Some((function, arguments)) = calls.get(&h) {
                        if let (Some(f), Some(l)) = (first.take(), last.take()) {
                            out.push(Statement::Emit(naga::Range::new_from_bounds(f, l)), span);
                        }
                        out.push(
                            Statement::Call {
                                function: *function,
                                arguments: arguments.clone(),
                                result: Some(h),
                            },
                            span,
                        );
                    } else {
                        first.get_or_insert(h);
                        last = Some(h);
                    }
                }
                if let (Some(f), Some(l)) = (first, last) {
                    out.push(Statement::Emit(naga::Range::new_from_bounds(f, l)), span);
                }
            }
            Statement::Block(b) => out.push(Statement::Block(self::block(b, calls)), span),
            Statement::If {
                condition,
                accept,
                reject,
            } => out.push(
                Statement::If {
                    condition,
                    accept: self::block(accept, calls),
                    reject: self::block(reject, calls),
                },
                span,
            ),
            Statement::Switch {
                selector,
                mut cases,
            } => {
                for case in &mut cases {
                    let body = std::mem::take(&mut case.body);
                    case.body = self::block(body, calls);
                }
                out.push(Statement::Switch { selector, cases }, span);
            }
            Statement::Loop {
                body,
                continuing,
                break_if,
            } => out.push(
                Statement::Loop {
                    body: self::block(body, calls),
                    continuing: self::block(continuing, calls),
                    break_if,
                },
                span,
            ),
            other => out.push(other, span),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    /// Scalar and vector `fma`s of `f32`s become calls of the helpers, `f16` ones stay, and
    /// the module validates.
    #[test]
    fn f32_fmas_become_calls() {
        let text = super::with_helpers(
            "enable f16;
            @group(0) @binding(0) var<storage, read_write> out: array<vec4<f32>>;
            @group(0) @binding(1) var<storage, read_write> halves: array<f16>;
            fn twice(a: f32) -> f32 { return fma(a, 2.0, a) + 1.0; }
            @compute @workgroup_size(1)
            fn main() {
                let v = out[0];
                let s = fma(v.x, v.y, twice(v.z));
                out[1] = fma(v, v, vec4<f32>(s));
                out[2] = vec4<f32>(fma(v.xyz, v.xyz, v.xyz), fma(v.x, s, s));
                let h = halves[0];
                halves[1] = fma(h, h, h);
            }",
        );
        let mut module = naga::front::wgsl::parse_str(&text).unwrap();
        assert!(super::replace(&mut module).unwrap());
        let flags = naga::valid::ValidationFlags::all();
        let info = naga::valid::Validator::new(flags, naga::valid::Capabilities::all())
            .validate(&module)
            .unwrap();
        let written =
            naga::back::wgsl::write_string(&module, &info, naga::back::wgsl::WriterFlags::empty())
                .unwrap();
        let main = &written[written.find("fn main").unwrap()..];
        let twice = &written[written.find("fn twice").unwrap()..written.find("fn main").unwrap()];
        assert!(twice.contains("sarek_exact_fma("), "{twice}");
        assert_eq!(main.matches("sarek_exact_fma(").count(), 2, "{main}");
        assert_eq!(main.matches("sarek_exact_fma4_(").count(), 1, "{main}");
        assert_eq!(main.matches("sarek_exact_fma3_(").count(), 1, "{main}");
        // The `f16` one only.
        assert_eq!(main.matches(" fma(").count(), 1, "{main}");
    }
}
