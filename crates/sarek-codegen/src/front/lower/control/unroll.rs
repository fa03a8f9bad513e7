//! Full unrolling of short `for` loops with constant bounds whose counter indexes a local or
//! workgroup array (`for i in 0..4 { acc[i] += .. }`), or whose body names an element of an
//! array of cooperative matrices: each iteration's counter becomes a
//! literal, so the indices are constants. The GPU compiler can then keep a local array in
//! registers, which it cannot do for an array indexed at run time, and address workgroup
//! memory without arithmetic. Measured on an H200, a register-blocked matrix product at 4096²:
//! 2.0 TFLOP/s with its accumulators indexed in loops, 26 TFLOP/s with the accumulator loops
//! unrolled, 36 TFLOP/s with the loop over the staged slice unrolled too.

use proc_macro2::TokenTree;
use syn::spanned::Spanned;

use crate::front::lower::{ident_name, Binding, Lowerer, Value, R};

/// Loops with at most this many iterations are unrolled.
const MAX_TRIP: i64 = 16;

/// Nested unrolled loops copy a body at most this many times.
const MAX_COPIES: i64 = 256;

/// Whether `tokens` mention `name`.
fn mentions(tokens: proc_macro2::TokenStream, name: &str) -> bool {
    tokens.into_iter().any(|t| match t {
        TokenTree::Ident(i) => i == name,
        TokenTree::Group(g) => mentions(g.stream(), name),
        _ => false,
    })
}

/// Whether a `break` or `continue` in `block` belongs to the loop around it.
fn leaves_loop(tokens: proc_macro2::TokenStream) -> bool {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    for (i, t) in tokens.iter().enumerate() {
        match t {
            TokenTree::Ident(id) if id == "break" || id == "continue" => return true,
            // An inner loop's `break`/`continue` stay inside it: skip its body.
            TokenTree::Ident(id) if id == "loop" || id == "while" || id == "for" => {
                let rest = &tokens[i + 1..];
                if let Some(body) = rest.iter().position(|t| matches!(t, TokenTree::Group(g) if g.delimiter() == proc_macro2::Delimiter::Brace)) {
                    if rest[..body].iter().any(|t| matches!(t, TokenTree::Group(g) if leaves_loop(g.stream()))) {
                        return true;
                    }
                    return leaves_loop(rest[body + 1..].iter().cloned().collect());
                }
            }
            TokenTree::Group(g) if leaves_loop(g.stream()) => return true,
            _ => {}
        }
    }
    false
}

impl Lowerer<'_> {
    /// Whether `body` indexes a local or workgroup array with an expression that mentions
    /// `name`.
    fn indexes_local_with(&self, body: &syn::Block, name: &str) -> bool {
        struct Finder<'a, 'm> {
            lowerer: &'a Lowerer<'m>,
            name: &'a str,
            locals: Vec<String>,
            /// Arrays of matrices declared in the body.
            coop_arrays: Vec<String>,
            found: bool,
        }
        fn walk_expr(f: &mut Finder<'_, '_>, e: &syn::Expr) {
            if f.found {
                return;
            }
            if let syn::Expr::Index(ix) = e {
                let mut base = &*ix.expr;
                loop {
                    match base {
                        syn::Expr::Index(inner) => base = &inner.expr,
                        syn::Expr::Field(fe) => base = &fe.base,
                        syn::Expr::Paren(p) => base = &p.expr,
                        _ => break,
                    }
                }
                if let syn::Expr::Path(p) = base {
                    if let Some(id) = p.path.get_ident() {
                        let root = ident_name(id);
                        let coop = f.coop_arrays.contains(&root)
                            || matches!(f.lowerer.lookup(&root), Some(Binding::Coop(m)) if m.is_array());
                        let local = f.locals.contains(&root)
                            || matches!(
                                f.lowerer.lookup(&root),
                                Some(Binding::Local(_) | Binding::Shared(_))
                            )
                            || coop;
                        if local && mentions(quote::ToTokens::to_token_stream(&*ix.index), f.name) {
                            f.found = true;
                            return;
                        }
                        // Any element of an array of matrices: a loop over tiles (its
                        // counter may only move the loads' offsets, `for h in 0..2`) is
                        // unrolled so that every index in it is a constant.
                        if coop {
                            f.found = true;
                            return;
                        }
                    }
                }
            }
            // Recurse through the expression's tokens: re-parse sub-expressions cheaply by
            // walking the syntax tree of common forms.
            match e {
                syn::Expr::Index(ix) => {
                    walk_expr(f, &ix.expr);
                    walk_expr(f, &ix.index);
                }
                syn::Expr::Binary(b) => {
                    walk_expr(f, &b.left);
                    walk_expr(f, &b.right);
                }
                syn::Expr::Assign(a) => {
                    walk_expr(f, &a.left);
                    walk_expr(f, &a.right);
                }
                syn::Expr::Unary(u) => walk_expr(f, &u.expr),
                syn::Expr::Paren(p) => walk_expr(f, &p.expr),
                syn::Expr::Field(fe) => walk_expr(f, &fe.base),
                syn::Expr::MethodCall(m) => {
                    walk_expr(f, &m.receiver);
                    m.args.iter().for_each(|a| walk_expr(f, a));
                }
                syn::Expr::Call(c) => c.args.iter().for_each(|a| walk_expr(f, a)),
                syn::Expr::Cast(c) => walk_expr(f, &c.expr),
                syn::Expr::If(i) => {
                    walk_expr(f, &i.cond);
                    walk_block(f, &i.then_branch);
                    if let Some((_, e)) = &i.else_branch {
                        walk_expr(f, e);
                    }
                }
                syn::Expr::Block(b) => walk_block(f, &b.block),
                syn::Expr::ForLoop(l) => walk_block(f, &l.body),
                syn::Expr::While(w) => {
                    walk_expr(f, &w.cond);
                    walk_block(f, &w.body);
                }
                syn::Expr::Loop(l) => walk_block(f, &l.body),
                syn::Expr::Struct(s) => s.fields.iter().for_each(|fv| walk_expr(f, &fv.expr)),
                syn::Expr::Array(a) => a.elems.iter().for_each(|x| walk_expr(f, x)),
                _ => {}
            }
        }
        fn walk_block(f: &mut Finder<'_, '_>, b: &syn::Block) {
            for s in &b.stmts {
                match s {
                    syn::Stmt::Local(l) => {
                        if let Some(init) = &l.init {
                            walk_expr(f, &init.expr);
                        }
                        let mut pat = &l.pat;
                        if let syn::Pat::Type(t) = pat {
                            pat = &t.pat;
                        }
                        if let syn::Pat::Ident(p) = pat {
                            f.locals.push(ident_name(&p.ident));
                            if l.init
                                .as_ref()
                                .is_some_and(|i| f.lowerer.is_coop_array_expr(&i.expr))
                            {
                                f.coop_arrays.push(ident_name(&p.ident));
                            }
                        }
                    }
                    syn::Stmt::Expr(e, _) => walk_expr(f, e),
                    _ => {}
                }
            }
        }
        let mut f = Finder {
            lowerer: self,
            name,
            locals: Vec::new(),
            coop_arrays: Vec::new(),
            found: false,
        };
        walk_block(&mut f, body);
        f.found
    }

    /// Unrolls `for name in start..end` when the bounds are constants, the loop is short, it
    /// is never left early, and its counter indexes a local array (or its body names an element
    /// of an array of cooperative matrices). `None` when it does not apply.
    pub(super) fn unrolled_for(
        &mut self,
        f: &syn::ExprForLoop,
        name: &str,
        mutable: bool,
        range: &syn::ExprRange,
    ) -> Option<R<Value>> {
        if !self.cx.unroll_for {
            return None;
        }
        let (Some(start), Some(end)) = (&range.start, &range.end) else {
            return None;
        };
        let (lo, mut hi) = (self.const_int(start, true)?, self.const_int(end, true)?);
        if matches!(range.limits, syn::RangeLimits::Closed(_)) {
            hi = hi.checked_add(1)?;
        }
        if mutable
            || hi - lo > MAX_TRIP
            || name == "_"
            || self.unroll_copies * (hi - lo) > MAX_COPIES
        {
            return None;
        }
        if leaves_loop(quote::ToTokens::to_token_stream(&f.body))
            || !self.indexes_local_with(&f.body, name)
        {
            return None;
        }
        // The counter's type, shared by every iteration's literal, is inferred from the bounds
        // and the uses, as for a loop.
        let v = match self.operands(&[start, end]) {
            Ok(v) => v,
            Err(e) => return Some(Err(e)),
        };
        let ty = match self.unify(self.ty(v[0]), self.ty(v[1]), range.span()) {
            Ok(t) => t,
            Err(e) => return Some(Err(e)),
        };
        if let Err(e) = self.require_int(v[0], range.span()) {
            return Some(Err(e));
        }
        let outer = self.unroll_copies;
        self.unroll_copies = outer * (hi - lo).max(1);
        self.cx.unrolled = true;
        for value in lo..hi {
            let (block, result) = self.with_block(|this| {
                this.bind(name.to_owned(), Binding::Counter(value, ty));
                this.block_contents(&f.body)
            });
            if let Err(e) = result {
                self.unroll_copies = outer;
                return Some(Err(e));
            }
            // Locals are unique in the IR, so the iteration's statements need no block.
            self.blocks
                .last_mut()
                .expect("inside a block")
                .extend(block);
        }
        self.unroll_copies = outer;
        Some(Ok(Value::Unit))
    }
}
