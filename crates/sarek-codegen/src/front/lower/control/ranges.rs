//! `for` over `(a..b).rev()`, `(a..b).step_by(k)`, `(a..b).rev().step_by(k)` and
//! `(a..b).step_by(k).rev()` (and the `..=` forms): the bounds and the step are evaluated
//! once, the loop never overflows past its last value, and every iteration's value is
//! Rust's. `step_by(0)`, which panics in Rust, runs no iteration.

use syn::spanned::Spanned;

use crate::arena::Handle;
use crate::front::infer::Ty;
use crate::ir::*;

use crate::front::lower::{ident_name, Lowerer, Value, R};

/// An adapter applied to a range, innermost first.
pub(super) enum Adapter<'a> {
    Rev,
    StepBy(&'a syn::Expr),
}

/// Splits `(a..b).rev().step_by(k)` into the range and its adapters (innermost first).
pub(super) fn split(e: &syn::Expr) -> (&syn::Expr, Vec<Adapter<'_>>) {
    let mut adapters = Vec::new();
    let mut e = e;
    loop {
        match e {
            syn::Expr::Paren(p) => e = &p.expr,
            syn::Expr::MethodCall(m) if m.method == "rev" && m.args.is_empty() => {
                adapters.push(Adapter::Rev);
                e = &m.receiver;
            }
            syn::Expr::MethodCall(m) if m.method == "step_by" && m.args.len() == 1 => {
                adapters.push(Adapter::StepBy(&m.args[0]));
                e = &m.receiver;
            }
            _ => break,
        }
    }
    adapters.reverse();
    (e, adapters)
}

impl Lowerer<'_> {
    /// `for i in a..b` / `a..=b`: bounds evaluated once, no overflow at the type's maximum.
    pub(in crate::front::lower) fn for_loop(&mut self, f: &syn::ExprForLoop) -> R<Value> {
        self.open_label(&f.label, &f.body)?;
        let span = f.span();
        let (name, mutable) = match &*f.pat {
            syn::Pat::Ident(p) if p.by_ref.is_none() && p.subpat.is_none() => {
                (ident_name(&p.ident), p.mutability.is_some())
            }
            syn::Pat::Wild(_) => ("_".to_owned(), false),
            other => {
                return Err(self.error(
                    other.span(),
                    "bind the loop counter to a plain name: `for i in a..b`",
                ))
            }
        };
        let (range_expr, adapters) = split(&f.expr);
        let syn::Expr::Range(range) = range_expr else {
            return Err(self.error(f.expr.span(), "a kernel `for` loop iterates over a range: `a..b` or `a..=b`, optionally with `.rev()` and `.step_by(k)`; other iterators have no GPU form"));
        };
        if !adapters.is_empty() {
            return self.adapted_for(f, &name, mutable, range, &adapters);
        }
        if f.label.is_none() {
            if let Some(v) = self.unrolled_for(f, &name, mutable, range) {
                return v;
            }
        }
        let (Some(start), Some(end)) = (&range.start, &range.end) else {
            return Err(self.error(
                range.span(),
                "a `for` range needs both bounds: `a..b` or `a..=b`",
            ));
        };
        let inclusive = matches!(range.limits, syn::RangeLimits::Closed(_));
        let bounds = self.operands(&[start, end])?;
        let ty = self.unify(self.ty(bounds[0]), self.ty(bounds[1]), range.span())?;
        self.require_int(bounds[0], range.span())?;
        let start_local = self.temp(bounds[0], None);
        let end_local = self.temp(bounds[1], None);
        let start = self.read(start_local, ty, span);
        let end = self.read(end_local, ty, span);
        let counter = self.loop_counter(start, ty, f.pat.span(), span);

        let pat_span = f.pat.span();
        let (mut body, _, result) = self.loop_body(&f.body, |this| {
            this.bind_counter(counter, &name, ty, mutable, pat_span);
            Ok(())
        });
        result?;
        let bool_ty = Ty::Known(Scalar::Bool);
        let one = self.expr(Expr::Literal(Literal::I32(0)), ty, span);
        self.int_literals.push((one, 1));
        let counter_span = self.span(pat_span);
        let increment = Statement {
            kind: Stmt::Assign {
                place: Place::Local(counter),
                op: Some(BinaryOp::Add),
                value: one,
            },
            span: counter_span,
        };
        let c = self.read(counter, ty, span);
        if inclusive {
            // Decide before incrementing so `..=MAX` ends instead of wrapping.
            let is_last = self.expr(
                Expr::Binary {
                    op: BinaryOp::Eq,
                    left: c,
                    right: end,
                },
                bool_ty,
                span,
            );
            let last = self.new_local("__last", bool_ty, false, true, span);
            let read_last = self.read(last, bool_ty, span);
            let last_span = self.span(span);
            let continuing = vec![
                Statement {
                    kind: Stmt::Let {
                        local: last,
                        init: Some(is_last),
                    },
                    span: last_span,
                },
                increment,
            ];
            let s2 = self.read(start_local, ty, span);
            let e2 = self.read(end_local, ty, span);
            let nonempty = self.expr(
                Expr::Binary {
                    op: BinaryOp::Le,
                    left: s2,
                    right: e2,
                },
                bool_ty,
                span,
            );
            let loop_span = self.span(span);
            let lp = Statement {
                kind: Stmt::Loop {
                    body,
                    continuing,
                    break_if: Some(read_last),
                },
                span: loop_span,
            };
            self.push(
                Stmt::If {
                    cond: nonempty,
                    accept: vec![lp],
                    reject: Vec::new(),
                },
                span,
            );
        } else {
            let in_range = self.expr(
                Expr::Binary {
                    op: BinaryOp::Lt,
                    left: c,
                    right: end,
                },
                bool_ty,
                span,
            );
            let exit = self.exit_unless(in_range, span);
            body.insert(0, exit);
            self.push(
                Stmt::Loop {
                    body,
                    continuing: vec![increment],
                    break_if: None,
                },
                span,
            );
        }
        self.after_loop(span);
        Ok(Value::Unit)
    }

    /// A `for` loop over a range with adapters; `pattern` binds each value.
    pub(super) fn adapted_for(
        &mut self,
        f: &syn::ExprForLoop,
        name: &str,
        mutable: bool,
        range: &syn::ExprRange,
        adapters: &[Adapter<'_>],
    ) -> R<Value> {
        let span = f.span();
        let (rev_first, step, rev_after) =
            match adapters {
                [Adapter::Rev] => (true, None, false),
                [Adapter::StepBy(k)] => (false, Some(*k), false),
                [Adapter::Rev, Adapter::StepBy(k)] => (true, Some(*k), false),
                [Adapter::StepBy(k), Adapter::Rev] => (false, Some(*k), true),
                _ => return Err(self.error(
                    f.expr.span(),
                    "a kernel `for` loop takes a range with at most `.rev()` and one `.step_by(k)`",
                )),
            };
        let (Some(start), Some(end)) = (&range.start, &range.end) else {
            return Err(self.error(
                range.span(),
                "a `for` range needs both bounds: `a..b` or `a..=b`",
            ));
        };
        let inclusive = matches!(range.limits, syn::RangeLimits::Closed(_));
        let mut operands: Vec<&syn::Expr> = vec![start, end];
        if let Some(k) = step {
            operands.push(k);
        }
        let v = self.operands(&operands)?;
        let ty = self.unify(self.ty(v[0]), self.ty(v[1]), range.span())?;
        self.require_int(v[0], range.span())?;
        let u32_ty = Ty::Known(Scalar::U32);
        let bool_ty = Ty::Known(Scalar::Bool);
        let lo = self.temp(v[0], None);
        let hi = self.temp(v[1], None);
        let k = match step {
            Some(e) => {
                self.require(v[2], Scalar::U32, e.span())?;
                Some(self.temp(v[2], None))
            }
            None => None,
        };
        let one_u = self.expr(Expr::Literal(Literal::U32(1)), u32_ty, span);
        let k_read = |this: &mut Self| match k {
            Some(k) => this.read(k, u32_ty, span),
            None => this.expr(Expr::Literal(Literal::U32(1)), u32_ty, span),
        };
        let _ = one_u;
        // The loop runs when the range is not empty (and the step is not zero).
        let (l, h) = (self.read(lo, ty, span), self.read(hi, ty, span));
        let mut guard = self.bin(
            if inclusive {
                BinaryOp::Le
            } else {
                BinaryOp::Lt
            },
            l,
            h,
            bool_ty,
            span,
        );
        if k.is_some() {
            let kr = k_read(self);
            let zero = self.expr(Expr::Literal(Literal::U32(0)), u32_ty, span);
            let nonzero = self.bin(BinaryOp::Ne, kr, zero, bool_ty, span);
            guard = self.bin(BinaryOp::LogicalAnd, guard, nonzero, bool_ty, span);
        }
        let (inner, _) = self.with_block(|this| {
            // The last value of the range, computed only when the range is not empty.
            let h = this.read(hi, ty, span);
            let top = if inclusive {
                h
            } else {
                let one = this.expr(Expr::Literal(Literal::I32(0)), ty, span);
                this.int_literals.push((one, 1));
                this.bin(BinaryOp::Sub, h, one, ty, span)
            };
            let top = this.temp(top, None);
            let distance = |this: &mut Self, from: Handle<Expression>, to: Handle<Expression>| {
                let d = this.bin(BinaryOp::Sub, to, from, ty, span);
                this.expr(
                    Expr::Cast {
                        expr: d,
                        to: Scalar::U32,
                    },
                    u32_ty,
                    span,
                )
            };
            let as_ty = |this: &mut Self, u: Handle<Expression>| {
                let t = this.infer.shallow(ty);
                if t == Ty::Known(Scalar::U32) {
                    u
                } else {
                    this.expr(
                        Expr::Cast {
                            expr: u,
                            to: Scalar::I32,
                        },
                        ty,
                        span,
                    )
                }
            };
            let descending = rev_first || rev_after;
            let first = if rev_first {
                this.read(top, ty, span)
            } else if rev_after {
                // Step's last value: lo + ((top - lo) / k) * k.
                let (lo_r, top_r) = (this.read(lo, ty, span), this.read(top, ty, span));
                let d = distance(this, lo_r, top_r);
                let kr = k_read(this);
                let q = this.bin(BinaryOp::Div, d, kr, u32_ty, span);
                let kr = k_read(this);
                let off = this.bin(BinaryOp::Mul, q, kr, u32_ty, span);
                let off = as_ty(this, off);
                let lo_r = this.read(lo, ty, span);
                this.bin(BinaryOp::Add, lo_r, off, ty, span)
            } else {
                this.read(lo, ty, span)
            };
            let counter = this.loop_counter(first, ty, f.pat.span(), span);
            let pat_span = f.pat.span();
            let (body, _, result) = this.loop_body(&f.body, |this| {
                this.bind_counter(counter, name, ty, mutable, pat_span);
                Ok(())
            });
            result?;
            // continuing: last = distance to the end < k; i ±= k; break if last.
            let c = this.read(counter, ty, span);
            let remaining = if descending {
                let lo_r = this.read(lo, ty, span);
                distance(this, lo_r, c)
            } else {
                let top_r = this.read(top, ty, span);
                distance(this, c, top_r)
            };
            let kr = k_read(this);
            let is_last = this.bin(BinaryOp::Lt, remaining, kr, bool_ty, span);
            let last = this.new_local("__last", bool_ty, false, true, span);
            let kr = k_read(this);
            let delta = as_ty(this, kr);
            let step_span = this.span(span);
            let last_span = this.span(span);
            let continuing = vec![
                Statement {
                    kind: Stmt::Let {
                        local: last,
                        init: Some(is_last),
                    },
                    span: last_span,
                },
                Statement {
                    kind: Stmt::Assign {
                        place: Place::Local(counter),
                        op: Some(if descending {
                            BinaryOp::Sub
                        } else {
                            BinaryOp::Add
                        }),
                        value: delta,
                    },
                    span: step_span,
                },
            ];
            let read_last = this.read(last, bool_ty, span);
            this.push(
                Stmt::Loop {
                    body,
                    continuing,
                    break_if: Some(read_last),
                },
                span,
            );
            Ok(Value::Unit)
        });
        self.push(
            Stmt::If {
                cond: guard,
                accept: inner,
                reject: Vec::new(),
            },
            span,
        );
        self.after_loop(span);
        Ok(Value::Unit)
    }
}
