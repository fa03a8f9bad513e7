//! Control flow: `if` (as a statement and as a value), `while`, `loop`, labels, and `for`
//! (in [`ranges`], fully unrolled in [`unroll`]).

use proc_macro2::Span;
use syn::spanned::Spanned;

use crate::arena::Handle;
use crate::front::infer::Ty;
use crate::ir::*;

use crate::front::lower::{Lowerer, Value, R};

mod labels;
mod ranges;
mod unroll;

pub(in crate::front::lower) use labels::Flags;

impl Lowerer<'_> {
    pub(in crate::front::lower) fn condition(&mut self, e: &syn::Expr) -> R<Handle<Expression>> {
        let c = self.value(e)?;
        self.require(c, Scalar::Bool, e.span())?;
        Ok(c)
    }

    pub(in crate::front::lower) fn if_expr(&mut self, i: &syn::ExprIf) -> R<Value> {
        let span = i.span();
        let cond = self.condition(&i.cond)?;
        let (accept, a) = self.with_block(|this| this.block_contents(&i.then_branch));
        let (reject, b) = match &i.else_branch {
            Some((_, e)) => self.with_block(|this| this.expression(e)),
            None => (Vec::new(), Ok(Value::Unit)),
        };
        let (a, b) = (a?, b?);
        match (a, b) {
            (Value::Expr(x), Value::Expr(y)) => {
                let ty = self.unify(self.ty(x), self.ty(y), span)?;
                // `select` evaluates both arms and takes only scalars and vectors. Between
                // vectors it is used only when neither arm reads memory: the scan's
                // `if keep { value } else { Vec4::ZERO }` (a loaded local) had a branch and a
                // temporary per load where its twin has `select`, but the register-blocked
                // product's `if in_range { a[..] } else { Vec4::ZERO }` ran at 0.935× its
                // twin as a `select` (the load made unconditional) against 0.979× as a branch
                // (H200).
                let selectable = match self.infer.shallow(ty) {
                    Ty::Compound(crate::ir::Type::Vector(..)) => {
                        !self.reads_memory(x) && !self.reads_memory(y)
                    }
                    Ty::Compound(_) => false,
                    _ => true,
                };
                if accept.is_empty() && reject.is_empty() && selectable {
                    // Both arms are effect-free: `select` is exact and branch-free.
                    return Ok(Value::Expr(self.expr(
                        Expr::Select {
                            cond,
                            accept: x,
                            reject: y,
                        },
                        ty,
                        span,
                    )));
                }
                self.value_if(cond, accept, reject, &[(true, x), (false, y)], ty, span)
            }
            (Value::Expr(x), Value::Never) => {
                let ty = self.ty(x);
                self.value_if(cond, accept, reject, &[(true, x)], ty, span)
            }
            (Value::Never, Value::Expr(y)) => {
                let ty = self.ty(y);
                self.value_if(cond, accept, reject, &[(false, y)], ty, span)
            }
            (Value::Expr(_), Value::Unit) | (Value::Unit, Value::Expr(_)) => Err(self.error(
                span,
                "`if` without `else` has type `()`; add an `else` arm that yields a value",
            )),
            (Value::Never, Value::Never) => {
                self.push(
                    Stmt::If {
                        cond,
                        accept,
                        reject,
                    },
                    span,
                );
                Ok(Value::Never)
            }
            _ => {
                self.push(
                    Stmt::If {
                        cond,
                        accept,
                        reject,
                    },
                    span,
                );
                Ok(Value::Unit)
            }
        }
    }

    /// An `if` whose value comes from arms with effects: only the taken arm runs.
    pub(in crate::front::lower) fn value_if(
        &mut self,
        cond: Handle<Expression>,
        mut accept: Block,
        mut reject: Block,
        results: &[(bool, Handle<Expression>)],
        ty: Ty,
        span: Span,
    ) -> R<Value> {
        let temp = self.new_local("__if", ty, true, false, span);
        self.push(
            Stmt::Let {
                local: temp,
                init: None,
            },
            span,
        );
        for &(arm, value) in results {
            let ir_span = self.span(span);
            let store = Statement {
                kind: Stmt::Assign {
                    place: Place::Local(temp),
                    op: None,
                    value,
                },
                span: ir_span,
            };
            if arm {
                accept.push(store)
            } else {
                reject.push(store)
            }
        }
        self.push(
            Stmt::If {
                cond,
                accept,
                reject,
            },
            span,
        );
        Ok(Value::Expr(self.read(temp, ty, span)))
    }

    pub(in crate::front::lower) fn loop_body(
        &mut self,
        body: &syn::Block,
        prologue: impl FnOnce(&mut Self) -> R<()>,
    ) -> (Block, bool, R<()>) {
        let frame = self.loop_frame();
        self.loops.push(frame);
        let (block, result) = self.with_block(|this| {
            prologue(this)?;
            this.block_contents(body)?;
            Ok(Value::Unit)
        });
        let frame = self.loops.pop().expect("pushed above");
        // Labelled exits through this loop: `after_loop` tests them once the loop is pushed.
        self.left_exits = frame.exits;
        (block, frame.has_break, result.map(|_| ()))
    }

    pub(in crate::front::lower) fn while_loop(&mut self, w: &syn::ExprWhile) -> R<Value> {
        self.open_label(&w.label, &w.body)?;
        let span = w.span();
        let (body, _, result) = self.loop_body(&w.body, |this| {
            let cond = this.condition(&w.cond)?;
            let exit = this.exit_unless(cond, span);
            this.blocks.last_mut().expect("inside a block").push(exit);
            Ok(())
        });
        result?;
        self.push(
            Stmt::Loop {
                body,
                continuing: Vec::new(),
                break_if: None,
            },
            span,
        );
        self.after_loop(span);
        Ok(Value::Unit)
    }

    /// `if cond {} else { break; }`: the loop test in the shape WGSL's own `while` has, which
    /// drivers compile best (measured: an `if !cond { break; }` made a loop 2% slower on an
    /// NVIDIA H200).
    pub(in crate::front::lower) fn exit_unless(
        &mut self,
        cond: Handle<Expression>,
        span: Span,
    ) -> Statement {
        let break_span = self.span(span);
        let if_span = self.span(span);
        Statement {
            kind: Stmt::If {
                cond,
                accept: Vec::new(),
                reject: vec![Statement {
                    kind: Stmt::Break,
                    span: break_span,
                }],
            },
            span: if_span,
        }
    }

    pub(in crate::front::lower) fn loop_expr(&mut self, l: &syn::ExprLoop) -> R<Value> {
        self.open_label(&l.label, &l.body)?;
        let span = l.span();
        let (body, has_break, result) = self.loop_body(&l.body, |_| Ok(()));
        result?;
        self.push(
            Stmt::Loop {
                body,
                continuing: Vec::new(),
                break_if: None,
            },
            span,
        );
        self.after_loop(span);
        Ok(if has_break { Value::Unit } else { Value::Never })
    }
}
