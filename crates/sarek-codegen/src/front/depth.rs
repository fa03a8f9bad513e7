//! How deeply a kernel's source may nest, checked before anything else walks it.
//!
//! Lowering, type inference, the IR passes and the WGSL writer are recursive walks; an
//! expression nested thousands deep (a long `a + a + … + a` is a left-nested tree in `syn`,
//! a chain of `.abs()` or unary minuses likewise) would overflow rustc's stack inside the
//! macro. Rust itself accepts such code, but WGSL implementations are not required to: the
//! WGSL specification's limits (§ 2.4) allow a brace nesting depth of only 127, and naga's
//! WGSL parser, which validates every kernel inside the macro and compiles it in wgpu, stops
//! at 200 nested expressions and statements ("Parser recursion limit exceeded"). Sarek's WGSL
//! nests about one level per Rust level (a parenthesis, an operator, a call), sometimes a
//! few more (polyfills wrap operations in calls), so a kernel gets a limit of 128, well
//! inside naga's, and a spanned error at the first token past it instead of a crash or a
//! rejected module.
//!
//! This walk is recursive too, but it stops descending at the limit, so its own depth is
//! bounded.

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::visit::Visit;

use super::diagnostic::{Diagnostic, ErrorKind};

/// The deepest nesting of expressions, patterns and types a kernel, helper or constant may
/// have (each parenthesis, operator, method call, block or `if` is one level).
pub const MAX_NESTING: usize = 128;

/// The longest chain of helpers calling helpers a kernel may start (lowering a helper happens
/// inside the lowering of its caller, so the chain is a recursion of the macro too).
pub const MAX_HELPER_DEPTH: usize = 64;

/// Finds the first place nested deeper than [`MAX_NESTING`].
struct Depth {
    depth: usize,
    too_deep: Option<Span>,
}

impl Depth {
    /// Enters one level at `span`; false (and the place recorded) when it is past the limit.
    fn enter(&mut self, span: impl FnOnce() -> Span) -> bool {
        if self.too_deep.is_some() {
            return false;
        }
        if self.depth >= MAX_NESTING {
            self.too_deep = Some(span());
            return false;
        }
        self.depth += 1;
        true
    }
}

impl<'ast> Visit<'ast> for Depth {
    fn visit_expr(&mut self, e: &'ast syn::Expr) {
        if self.enter(|| token(e)) {
            syn::visit::visit_expr(self, e);
            self.depth -= 1;
        }
    }

    fn visit_pat(&mut self, p: &'ast syn::Pat) {
        if self.enter(|| p.span()) {
            syn::visit::visit_pat(self, p);
            self.depth -= 1;
        }
    }

    fn visit_type(&mut self, t: &'ast syn::Type) {
        if self.enter(|| t.span()) {
            syn::visit::visit_type(self, t);
            self.depth -= 1;
        }
    }

    fn visit_block(&mut self, b: &'ast syn::Block) {
        if self.enter(|| b.span()) {
            syn::visit::visit_block(self, b);
            self.depth -= 1;
        }
    }
}

/// The token that makes `e` one level deeper than its operands: its operator, method or
/// parenthesis (a long chain's whole span would start at its first operand).
fn token(e: &syn::Expr) -> Span {
    match e {
        syn::Expr::Binary(b) => b.op.span(),
        syn::Expr::Unary(u) => u.op.span(),
        syn::Expr::MethodCall(m) => m.method.span(),
        syn::Expr::Call(c) => c.paren_token.span.open(),
        syn::Expr::Paren(p) => p.paren_token.span.open(),
        syn::Expr::Field(f) => f.dot_token.span(),
        syn::Expr::Index(i) => i.bracket_token.span.open(),
        other => other.span(),
    }
}

/// An error at the first token of `items` nested deeper than [`MAX_NESTING`], if any.
pub fn check<'a>(items: impl IntoIterator<Item = &'a syn::Item>) -> Option<Diagnostic> {
    let mut d = Depth {
        depth: 0,
        too_deep: None,
    };
    for item in items {
        d.visit_item(item);
        if let Some(span) = d.too_deep {
            return Some(too_deep(span));
        }
    }
    None
}

/// The same check for a lone function.
pub fn check_fn(f: &syn::ItemFn) -> Option<Diagnostic> {
    let mut d = Depth {
        depth: 0,
        too_deep: None,
    };
    d.visit_item_fn(f);
    d.too_deep.map(too_deep)
}

/// Token groups (parentheses, brackets, braces) a macro input may nest before `syn` parses
/// it: the limit on expressions plus the few groups around a kernel's body (a module's
/// braces, the function's braces, an attribute's brackets).
pub const MAX_TOKEN_NESTING: usize = MAX_NESTING + 8;

/// An error at the first delimiter of `tokens` nested deeper than [`MAX_TOKEN_NESTING`].
///
/// Runs before `syn::parse2`, whose recursive-descent parser has no depth limit of its own:
/// a thousand nested parentheses overflow rustc's stack inside `syn` before [`check`] could
/// see the tree. The walk keeps its own stack, so it cannot overflow either.
pub fn check_tokens(tokens: &proc_macro2::TokenStream) -> Option<Diagnostic> {
    let mut stack = vec![tokens.clone().into_iter()];
    while let Some(iter) = stack.last_mut() {
        match iter.next() {
            Some(proc_macro2::TokenTree::Group(g)) => {
                if stack.len() > MAX_TOKEN_NESTING {
                    return Some(too_deep(g.span_open()));
                }
                stack.push(g.stream().into_iter());
            }
            Some(_) => {}
            None => {
                stack.pop();
            }
        }
    }
    None
}

fn too_deep(span: Span) -> Diagnostic {
    Diagnostic::new(
        span,
        ErrorKind::unsupported(format!(
            "this is nested more than {MAX_NESTING} levels deep (expressions, blocks, patterns \
             and types together), the most a Sarek kernel may nest: WGSL compilers are not \
             required to accept deeper code; split it with `let` bindings or a loop"
        )),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nested_sum(terms: usize) -> syn::ItemFn {
        let sum = vec!["a"; terms].join(" + ");
        syn::parse_str(&format!("fn f(a: f32) -> f32 {{ {sum} }}")).expect("parses")
    }

    #[test]
    fn deep_parentheses_are_refused_before_syn_parses_them() {
        let nested = |n: usize| -> proc_macro2::TokenStream {
            let src = format!(
                "fn f(a: f32) -> f32 {{ {}a{} }}",
                "(".repeat(n),
                ")".repeat(n)
            );
            src.parse().expect("lexes")
        };
        assert!(check_tokens(&nested(100)).is_none());
        // Deep enough that a recursive walk of the tokens would overflow a small stack.
        let deep = "(".repeat(100_000) + &")".repeat(100_000);
        let e = std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(move || {
                // Token streams are not `Send`: lex on the small stack itself (the lexer
                // is iterative too).
                let tokens: proc_macro2::TokenStream = deep.parse().expect("lexes");
                check_tokens(&tokens).map(|e| e.into_syn().to_string())
            })
            .expect("thread")
            .join()
            .expect("no overflow");
        assert!(e.expect("too deep").contains("more than 128 levels"));
    }

    #[test]
    fn a_long_sum_is_refused_and_a_short_one_is_not() {
        assert!(check_fn(&nested_sum(100)).is_none());
        let e = check_fn(&nested_sum(2000)).expect("too deep");
        assert!(format!("{}", e.into_syn()).contains("more than 128 levels"));
    }
}
