//! IR-building helpers every construct shares: appending statements and expressions,
//! declaring and reading locals, binding names in the innermost scope, pinning earlier operands
//! into temporaries so that Rust's evaluation order survives.

use std::collections::HashMap;

use proc_macro2::Span;

use crate::arena::Handle;
use crate::front::infer::Ty;
use crate::ir::*;

use super::{Binding, Lowerer, Reported, Value, R};

impl Lowerer<'_> {
    pub(super) fn push(&mut self, kind: Stmt, span: Span) {
        let span = self.span(span);
        self.blocks
            .last_mut()
            .expect("inside a block")
            .push(Statement { kind, span });
    }

    pub(super) fn block_len(&self) -> usize {
        self.blocks.last().map_or(0, Vec::len)
    }

    pub(super) fn with_block(
        &mut self,
        f: impl FnOnce(&mut Self) -> R<Value>,
    ) -> (Block, R<Value>) {
        self.blocks.push(Vec::new());
        self.scopes.push(HashMap::new());
        let value = f(self);
        self.scopes.pop();
        (self.blocks.pop().expect("pushed above"), value)
    }

    pub(super) fn expr(&mut self, kind: Expr, ty: Ty, span: Span) -> Handle<Expression> {
        let span = self.span(span);
        self.expr_tys.push(ty);
        self.function.exprs.append(Expression {
            kind,
            ty: Type::Scalar(Scalar::I32), // replaced in `finish`
            span,
        })
    }

    pub(super) fn ty(&self, h: Handle<Expression>) -> Ty {
        self.expr_tys[h.index()]
    }

    pub(super) fn new_local(
        &mut self,
        name: &str,
        ty: Ty,
        mutable: bool,
        stable: bool,
        span: Span,
    ) -> Handle<Local> {
        let ir_span = self.span(span);
        self.local_tys.push(ty);
        self.local_stable.push(stable);
        self.function.locals.append(Local {
            name: name.to_owned(),
            ty: Type::Scalar(Scalar::I32), // replaced in `finish`
            mutable,
            span: ir_span,
        })
    }

    /// A `let` of a compiler temporary holding `value`, inserted at `at` (or appended).
    pub(super) fn temp(&mut self, value: Handle<Expression>, at: Option<usize>) -> Handle<Local> {
        let ty = self.ty(value);
        let span = self.expr_span(value);
        let local = self.new_local("__v", ty, false, true, span);
        let ir_span = self.span(span);
        let stmt = Statement {
            kind: Stmt::Let {
                local,
                init: Some(value),
            },
            span: ir_span,
        };
        let block = self.blocks.last_mut().expect("inside a block");
        match at {
            Some(i) => block.insert(i, stmt),
            None => block.push(stmt),
        }
        local
    }

    /// Like [`Self::temp`], returning a read of the temporary.
    pub(super) fn spill(
        &mut self,
        value: Handle<Expression>,
        at: Option<usize>,
    ) -> Handle<Expression> {
        let ty = self.ty(value);
        let span = self.expr_span(value);
        let local = self.temp(value, at);
        self.expr(Expr::Local(local), ty, span)
    }

    /// Whether evaluating `h` reads a buffer or workgroup memory.
    pub(super) fn reads_memory(&self, h: Handle<Expression>) -> bool {
        match &self.function.exprs[h].kind {
            Expr::Index { .. } | Expr::SharedIndex { .. } => true,
            kind => kind.operands().any(|o| self.reads_memory(o)),
        }
    }

    /// Whether no statement can change the value of `h`.
    pub(super) fn is_stable(&self, h: Handle<Expression>) -> bool {
        match &self.function.exprs[h].kind {
            Expr::Local(l) => self.local_stable[l.index()],
            Expr::Index { .. } | Expr::SharedIndex { .. } => false,
            // Literals, parameters, lengths, builtins, zeros and arguments have no operands.
            kind => kind.operands().all(|o| self.is_stable(o)),
        }
    }

    /// Lowers operands left to right, keeping Rust's order when a later one needs statements.
    pub(super) fn operands(&mut self, exprs: &[&syn::Expr]) -> R<Vec<Handle<Expression>>> {
        let mut values: Vec<Handle<Expression>> = Vec::new();
        let mut ends: Vec<usize> = Vec::new();
        let mut failed = false;
        for e in exprs {
            let before = self.block_len();
            match self.value(e) {
                Ok(h) => {
                    if self.block_len() != before {
                        // Statements ran after the earlier operands were read: pin those first.
                        for i in (0..values.len()).rev() {
                            if !self.is_stable(values[i]) {
                                values[i] = self.spill(values[i], Some(ends[i]));
                            }
                        }
                    }
                    values.push(h);
                    ends.push(self.block_len());
                }
                Err(Reported) => failed = true,
            }
        }
        if failed {
            Err(Reported)
        } else {
            Ok(values)
        }
    }

    /// `left op right`.
    pub(super) fn bin(
        &mut self,
        op: BinaryOp,
        left: Handle<Expression>,
        right: Handle<Expression>,
        ty: Ty,
        span: Span,
    ) -> Handle<Expression> {
        self.expr(Expr::Binary { op, left, right }, ty, span)
    }

    /// A read of `local`.
    pub(super) fn read(&mut self, local: Handle<Local>, ty: Ty, span: Span) -> Handle<Expression> {
        self.expr(Expr::Local(local), ty, span)
    }

    /// Binds `name` in the innermost scope.
    pub(super) fn bind(&mut self, name: String, binding: Binding) {
        self.scopes
            .last_mut()
            .expect("a scope")
            .insert(name, binding);
    }

    /// `let name = init;` (`let mut` when `mutable`): declares a local for a Rust binding,
    /// bound in the innermost scope, at `name_span`; the statement is at `span`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn let_binding(
        &mut self,
        name: &str,
        ty: Ty,
        mutable: bool,
        init: Handle<Expression>,
        name_span: Span,
        span: Span,
    ) -> Handle<Local> {
        let local = self.new_local(name, ty, mutable, !mutable, name_span);
        self.push(
            Stmt::Let {
                local,
                init: Some(init),
            },
            span,
        );
        self.bind(name.to_owned(), Binding::Local(local));
        local
    }

    /// Binds a `for` loop's pattern `name` to the current value of the loop's `counter`, at
    /// the top of each iteration (a copy, so the body cannot change the iteration).
    pub(super) fn bind_counter(
        &mut self,
        counter: Handle<Local>,
        name: &str,
        ty: Ty,
        mutable: bool,
        span: Span,
    ) {
        let read = self.read(counter, ty, span);
        self.let_binding(name, ty, mutable, read, span, span);
    }

    /// The hidden counter of a `for` loop (`let mut __i = init;`), declared at the loop.
    pub(super) fn loop_counter(
        &mut self,
        init: Handle<Expression>,
        ty: Ty,
        pat_span: Span,
        span: Span,
    ) -> Handle<Local> {
        let counter = self.new_local("__i", ty, true, false, pat_span);
        self.push(
            Stmt::Let {
                local: counter,
                init: Some(init),
            },
            span,
        );
        counter
    }
}
