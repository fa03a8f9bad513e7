//! A `match` with guards (`Some(v) if v > 0 =>`). A WGSL `switch` cannot fall through to the
//! next arm when a guard fails, so such a match becomes a chain of `if`s in the arms' order,
//! as rustc's own decision tree tests them: each arm runs when no earlier arm was taken, its
//! pattern accepts the scrutinee and its guard holds. A flag records that an arm was taken.

use proc_macro2::Span;

use super::patterns::Scrutinee;
use super::{Binding, Lowerer, Value, R};
use crate::arena::Handle;
use crate::front::infer::{Ty, VarKind};
use crate::ir::*;

impl Lowerer<'_> {
    /// Lowers `arms` (pattern, body, guard) against `scrut`, whose `selector` is what the
    /// patterns' values are compared with.
    pub(super) fn guarded_match(
        &mut self,
        scrut: Scrutinee,
        selector: Handle<Expression>,
        arms: &[(&syn::Pat, &syn::Expr, Option<&syn::Expr>)],
        span: Span,
    ) -> R<Value> {
        let bool_ty = Ty::Known(Scalar::Bool);
        let done = self.new_local("__taken", bool_ty, true, false, span);
        let result_ty = self.infer.fresh(VarKind::Any);
        let result = self.new_local("__match", result_ty, true, false, span);
        let mut has_result = false;
        let mut unit = false;
        let mut chain = Vec::new();
        for (pat, body, guard) in arms {
            let arm = self.pattern(pat, scrut)?;
            let (block, outcome) = self.with_block(|this| {
                for (name, mutable, value, at) in &arm.bindings {
                    let ty = this.ty(*value);
                    let local = this.new_local(name, ty, *mutable, !*mutable, *at);
                    this.push(
                        Stmt::Let {
                            local,
                            init: Some(*value),
                        },
                        *at,
                    );
                    this.bind(name.clone(), Binding::Local(local));
                }
                let cond = match guard {
                    Some(g) => Some(this.condition(g)?),
                    None => None,
                };
                let (taken, value) = this.with_block(|this| {
                    let yes = this.expr(Expr::Literal(Literal::Bool(true)), bool_ty, span);
                    this.push(
                        Stmt::Assign {
                            place: Place::Local(done),
                            op: None,
                            value: yes,
                        },
                        span,
                    );
                    let v = this.expression(body)?;
                    if let Value::Expr(h) = v {
                        let at = this.expr_span(h);
                        this.unify(result_ty, this.ty(h), at)?;
                        this.push(
                            Stmt::Assign {
                                place: Place::Local(result),
                                op: None,
                                value: h,
                            },
                            at,
                        );
                    }
                    Ok(v)
                });
                let value = value?;
                match cond {
                    Some(cond) => this.push(
                        Stmt::If {
                            cond,
                            accept: taken,
                            reject: Vec::new(),
                        },
                        span,
                    ),
                    None => this.blocks.last_mut().expect("a block").extend(taken),
                }
                Ok(value)
            });
            match outcome? {
                Value::Expr(_) => has_result = true,
                Value::Unit => unit = true,
                Value::Never => {}
            }
            chain.push((arm.values, block));
        }
        if has_result && unit {
            return Err(self.error(
                span,
                "the arms of this `match` have different types: some yield a value and some `()`",
            ));
        }
        let no = self.expr(Expr::Literal(Literal::Bool(false)), bool_ty, span);
        self.push(
            Stmt::Let {
                local: done,
                init: Some(no),
            },
            span,
        );
        if has_result {
            self.push(
                Stmt::Let {
                    local: result,
                    init: None,
                },
                span,
            );
        }
        let selector_ty = self.ty(selector);
        for (values, block) in chain {
            let taken = self.read(done, bool_ty, span);
            let mut cond = self.expr(
                Expr::Unary {
                    op: UnaryOp::Not,
                    expr: taken,
                },
                bool_ty,
                span,
            );
            if let Some(values) = values {
                let mut test = None;
                for v in values {
                    let lit = self.expr(Expr::Literal(v), selector_ty, span);
                    let eq = self.expr(
                        Expr::Binary {
                            op: BinaryOp::Eq,
                            left: selector,
                            right: lit,
                        },
                        bool_ty,
                        span,
                    );
                    test = Some(match test {
                        None => eq,
                        Some(t) => self.expr(
                            Expr::Binary {
                                op: BinaryOp::LogicalOr,
                                left: t,
                                right: eq,
                            },
                            bool_ty,
                            span,
                        ),
                    });
                }
                if let Some(test) = test {
                    cond = self.expr(
                        Expr::Binary {
                            op: BinaryOp::LogicalAnd,
                            left: cond,
                            right: test,
                        },
                        bool_ty,
                        span,
                    );
                }
            }
            self.push(
                Stmt::If {
                    cond,
                    accept: block,
                    reject: Vec::new(),
                },
                span,
            );
        }
        Ok(if has_result {
            Value::Expr(self.read(result, result_ty, span))
        } else {
            Value::Unit
        })
    }
}
