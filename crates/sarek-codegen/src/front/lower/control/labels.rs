//! Labelled loops: `break 'outer` and `continue 'outer` from inside nested loops.
//!
//! WGSL's `break` and `continue` leave only the innermost loop, so a labelled exit is lowered
//! as rustc's own MIR would see it after flattening: the target loop owns two `bool` flags,
//! declared just before it; the exit sets one and breaks out of the innermost loop, and after
//! each loop between the exit and its target, a test of the flag breaks again (or, directly
//! inside the target, clears the `continue` flag and continues). Only labels that a nested loop
//! names get flags, so a labelled loop left only from its own body is an ordinary loop.

use proc_macro2::Span;
use syn::spanned::Spanned;

use crate::arena::Handle;
use crate::front::diagnostic::ErrorKind;
use crate::front::infer::Ty;
use crate::front::lower::{ident_name, LoopFrame, Lowerer, Value, R};
use crate::ir::*;

/// A labelled loop's flags: set by `break 'label` and `continue 'label` in nested loops.
#[derive(Clone, Copy)]
pub(in crate::front::lower) struct Flags {
    brk: Handle<Local>,
    cont: Handle<Local>,
}

/// Whether `body` names `label` in a `break` or `continue`.
fn names_label(body: &syn::Block, label: &str) -> bool {
    struct Find<'a> {
        label: &'a str,
        found: bool,
    }
    impl<'ast> syn::visit::Visit<'ast> for Find<'_> {
        fn visit_expr_break(&mut self, b: &'ast syn::ExprBreak) {
            self.found |= b.label.as_ref().is_some_and(|l| l.ident == self.label);
            syn::visit::visit_expr_break(self, b);
        }
        fn visit_expr_continue(&mut self, c: &'ast syn::ExprContinue) {
            self.found |= c.label.as_ref().is_some_and(|l| l.ident == self.label);
        }
    }
    let mut f = Find {
        label,
        found: false,
    };
    syn::visit::Visit::visit_block(&mut f, body);
    f.found
}

impl Lowerer<'_> {
    /// Before a loop: remembers its label for the frame `loop_body` opens, declaring the
    /// label's flags when the body names it (a nested loop might leave through it).
    pub(in crate::front::lower) fn open_label(
        &mut self,
        label: &Option<syn::Label>,
        body: &syn::Block,
    ) -> R<()> {
        let Some(label) = label else {
            self.next_label = None;
            return Ok(());
        };
        let name = ident_name(&label.name.ident);
        let span = label.span();
        let flags = names_label(body, &name).then(|| {
            let bool_ty = Ty::Known(Scalar::Bool);
            let flag = |this: &mut Self, what: &str| {
                let local = this.new_local(&format!("__{what}_{name}"), bool_ty, true, false, span);
                let init = this.expr(Expr::Literal(Literal::Bool(false)), bool_ty, span);
                this.push(
                    Stmt::Let {
                        local,
                        init: Some(init),
                    },
                    span,
                );
                local
            };
            let brk = flag(self, "break");
            let cont = flag(self, "continue");
            Flags { brk, cont }
        });
        self.next_label = Some((name, flags));
        Ok(())
    }

    /// A new loop frame, with the label `open_label` remembered.
    pub(in crate::front::lower) fn loop_frame(&mut self) -> LoopFrame {
        let (label, flags) = match self.next_label.take() {
            Some((name, flags)) => (Some(name), flags),
            None => (None, None),
        };
        LoopFrame {
            has_break: false,
            label,
            flags,
            exits: Vec::new(),
        }
    }

    /// The loop a `break`/`continue` leaves: its depth in `self.loops`.
    fn target(&mut self, label: &Option<syn::Lifetime>, span: Span, what: &str) -> R<usize> {
        if self.loops.is_empty() {
            return Err(self.error(span, format!("`{what}` outside of a loop")));
        }
        let Some(label) = label else {
            return Ok(self.loops.len() - 1);
        };
        let name = ident_name(&label.ident);
        match self
            .loops
            .iter()
            .rposition(|f| f.label.as_deref() == Some(name.as_str()))
        {
            Some(depth) => Ok(depth),
            None => Err(self.fail(label.span(), ErrorKind::UnknownName(format!("'{name}")))),
        }
    }

    /// `break` and `break 'label`.
    pub(in crate::front::lower) fn break_expr(&mut self, b: &syn::ExprBreak) -> R<Value> {
        let span = b.span();
        if let Some(v) = &b.expr {
            return Err(self.fail(
                v.span(),
                ErrorKind::unsupported(
                    "`break` with a value is not supported; assign to a `let mut` before `break`",
                ),
            ));
        }
        let target = self.target(&b.label, span, "break")?;
        self.loops[target].has_break = true;
        self.exit_to(target, false, span);
        Ok(Value::Never)
    }

    /// `continue` and `continue 'label`.
    pub(in crate::front::lower) fn continue_expr(&mut self, c: &syn::ExprContinue) -> R<Value> {
        let span = c.span();
        let target = self.target(&c.label, span, "continue")?;
        self.exit_to(target, true, span);
        Ok(Value::Never)
    }

    /// Leaves the loop at `target`: directly when it is the innermost, else through its flag.
    fn exit_to(&mut self, target: usize, cont: bool, span: Span) {
        let innermost = self.loops.len() - 1;
        if target != innermost {
            let flags = self.loops[target].flags.expect("declared by open_label");
            let flag = if cont { flags.cont } else { flags.brk };
            let yes = self.expr(
                Expr::Literal(Literal::Bool(true)),
                Ty::Known(Scalar::Bool),
                span,
            );
            self.push(
                Stmt::Assign {
                    place: Place::Local(flag),
                    op: None,
                    value: yes,
                },
                span,
            );
            self.loops[innermost].has_break = true;
            self.loops[innermost].exits.push((target, cont));
            self.push(Stmt::Break, span);
        } else if cont {
            self.push(Stmt::Continue, span);
        } else {
            self.push(Stmt::Break, span);
        }
    }

    /// After a loop statement: passes on the labelled exits that left it towards their
    /// targets (`loop_body` kept them from its frame).
    pub(in crate::front::lower) fn after_loop(&mut self, span: Span) {
        let mut exits = std::mem::take(&mut self.left_exits);
        exits.sort_unstable();
        exits.dedup();
        let Some(enclosing) = self.loops.len().checked_sub(1) else {
            return;
        };
        for (target, cont) in exits {
            let flags = self.loops[target].flags.expect("declared by open_label");
            let flag = if cont { flags.cont } else { flags.brk };
            let bool_ty = Ty::Known(Scalar::Bool);
            let set = self.read(flag, bool_ty, span);
            let ir_span = self.span(span);
            let mut accept = Vec::new();
            if target == enclosing && cont {
                let no = self.expr(Expr::Literal(Literal::Bool(false)), bool_ty, span);
                accept.push(Statement {
                    kind: Stmt::Assign {
                        place: Place::Local(flag),
                        op: None,
                        value: no,
                    },
                    span: ir_span,
                });
                accept.push(Statement {
                    kind: Stmt::Continue,
                    span: ir_span,
                });
            } else {
                accept.push(Statement {
                    kind: Stmt::Break,
                    span: ir_span,
                });
                if target != enclosing {
                    self.loops[enclosing].exits.push((target, cont));
                    self.loops[enclosing].has_break = true;
                }
            }
            self.push(
                Stmt::If {
                    cond: set,
                    accept,
                    reject: Vec::new(),
                },
                span,
            );
        }
    }
}
