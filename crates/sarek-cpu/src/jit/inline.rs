//! Helpers that hold a barrier, inlined into the kernel's entry before code is generated.
//!
//! The barrier split ([`super::region`]) works on the entry's statements and keeps the
//! entry's locals in each invocation's frame between segments; a barrier inside a helper
//! would have to split the caller's segments inside the helper's body, with the helper's
//! locals framed too. Rewriting the kernel so that each call of such a helper is its body
//! (its locals new locals of the entry, its arguments `let`s evaluated once at the call, as
//! the interpreter does) gives the split one function to work on, and the rest of the JIT
//! is unchanged. Calls of helpers without barriers stay calls (inlined while generated).
//!
//! A `return` that is not the helper's last statement becomes a `break` out of a one-trip
//! loop around the body (and out of the helper's own loops, through a flag); a `return`
//! inside a `switch` is left to the interpreter, whose `switch` has its own `break`.

use crate::arena::Handle;
use crate::ir::{
    Case, Expr, Expression, Function, Kernel, Literal, Local, Place, Remap, Scalar, Statement,
    Stmt, Type,
};

use super::region::any_barrier;
use super::Unsupported;

/// Whether `k`'s entry (at any depth, through helpers) calls a helper that holds a barrier.
pub(super) fn needed(k: &Kernel) -> bool {
    let mut found = false;
    crate::ir::visit(&k.entry.body, &mut |s| {
        if let Stmt::Call { function, .. } = &s.kind {
            found |= holds_barrier(k, function.0);
        }
    });
    found
}

fn holds_barrier(k: &Kernel, function: u32) -> bool {
    k.functions
        .get(function as usize)
        .is_some_and(|f| any_barrier(k, &f.body))
}

/// `k` with every call of a helper that holds a barrier replaced by the helper's body.
pub(super) fn inline_barrier_helpers(k: &Kernel) -> Result<Kernel, Unsupported> {
    let mut out = k.clone();
    let body = std::mem::take(&mut out.entry.body);
    let mut inl = Inliner {
        k,
        entry: &mut out.entry,
        depth: 0,
    };
    let body = inl.block(body)?;
    out.entry.body = body;
    Ok(out)
}

struct Inliner<'k, 'e> {
    k: &'k Kernel,
    entry: &'e mut Function,
    depth: u32,
}

impl Inliner<'_, '_> {
    /// The entry block `body` with the calls it holds (at any depth) inlined.
    fn block(&mut self, body: Vec<Statement>) -> Result<Vec<Statement>, Unsupported> {
        let mut out = Vec::with_capacity(body.len());
        for s in body {
            self.statement(s, &mut out)?;
        }
        Ok(out)
    }

    fn statement(&mut self, s: Statement, out: &mut Vec<Statement>) -> Result<(), Unsupported> {
        let span = s.span;
        let kind = match s.kind {
            Stmt::Call {
                function,
                args,
                result,
            } if holds_barrier(self.k, function.0) => {
                return self.call(function.0, &args, result, out);
            }
            Stmt::If {
                cond,
                accept,
                reject,
            } => Stmt::If {
                cond,
                accept: self.block(accept)?,
                reject: self.block(reject)?,
            },
            Stmt::Loop {
                body,
                continuing,
                break_if,
            } => Stmt::Loop {
                body: self.block(body)?,
                continuing: self.block(continuing)?,
                break_if,
            },
            Stmt::Switch {
                selector,
                cases,
                default,
            } => Stmt::Switch {
                selector,
                cases: cases
                    .into_iter()
                    .map(|c| {
                        Ok(Case {
                            values: c.values,
                            body: self.block(c.body)?,
                        })
                    })
                    .collect::<Result<_, Unsupported>>()?,
                default: self.block(default)?,
            },
            kind => kind,
        };
        out.push(Statement { kind, span });
        Ok(())
    }

    /// The statements of one call of helper `function` (already in the entry's terms).
    fn call(
        &mut self,
        function: u32,
        args: &[Handle<Expression>],
        result: Option<Handle<Local>>,
        out: &mut Vec<Statement>,
    ) -> Result<(), Unsupported> {
        if self.depth > 32 {
            return Err(Unsupported("helpers nested deeper than 32 calls".into()));
        }
        let f = &self.k.functions[function as usize];
        let span = f.span;
        // The arguments, evaluated once at the call (a helper's argument is a value).
        let mut arg_locals = Vec::with_capacity(args.len());
        for (i, (a, ty)) in args.iter().zip(&f.args).enumerate() {
            let l = self.entry.locals.append(Local {
                name: format!("{}_arg{i}", f.name),
                ty: *ty,
                mutable: false,
                span,
            });
            out.push(Statement {
                kind: Stmt::Let {
                    local: l,
                    init: Some(*a),
                },
                span,
            });
            arg_locals.push(l);
        }
        let locals: Vec<Handle<Local>> = f
            .locals
            .iter()
            .map(|(_, l)| self.entry.locals.append(l.clone()))
            .collect();
        let mut exprs: Vec<Handle<Expression>> = Vec::with_capacity(f.exprs.len());
        for (_, e) in f.exprs.iter() {
            // Arguments become the locals bound above; every other expression is the
            // helper's, renumbered into the entry's arenas.
            let kind = match &e.kind {
                Expr::Argument(n) => Expr::Local(
                    *arg_locals
                        .get(*n as usize)
                        .ok_or_else(|| Unsupported("a missing helper argument".into()))?,
                ),
                kind => renumber(&exprs, &locals).expr_kind(kind),
            };
            let h = self.entry.exprs.append(Expression {
                kind,
                ty: e.ty,
                span: e.span,
            });
            exprs.push(h);
        }
        let mut body = renumber(&exprs, &locals).block(&f.body);
        // A last `return` is the result's assignment; any other needs the one-trip loop.
        let last = match body.last().map(|s| &s.kind) {
            Some(Stmt::Return(v)) => Some(*v),
            _ => None,
        };
        if let Some(v) = last {
            let s = body.pop().map_or(span, |s| s.span);
            if let (Some(v), Some(r)) = (v, result) {
                body.push(assign(r, v, s));
            }
        }
        let mut body = if returns(&body) {
            let flag = self.entry.locals.append(Local {
                name: format!("{}_returned", f.name),
                ty: Type::Scalar(Scalar::Bool),
                mutable: true,
                span,
            });
            let yes = self.literal(Literal::Bool(true), span);
            let no = self.literal(Literal::Bool(false), span);
            let read = self.entry.exprs.append(Expression {
                kind: Expr::Local(flag),
                ty: Type::Scalar(Scalar::Bool),
                span,
            });
            out.push(Statement {
                kind: Stmt::Let {
                    local: flag,
                    init: Some(no),
                },
                span,
            });
            let ret = Returns {
                flag,
                yes,
                read,
                result,
            };
            let mut inner = ret.block(body, false)?;
            inner.push(Statement {
                kind: Stmt::Break,
                span,
            });
            vec![Statement {
                kind: Stmt::Loop {
                    body: inner,
                    continuing: Vec::new(),
                    break_if: None,
                },
                span,
            }]
        } else {
            body
        };
        // Helpers with barriers that this helper calls are inlined in turn.
        self.depth += 1;
        body = self.block(body)?;
        self.depth -= 1;
        out.extend(body);
        Ok(())
    }

    fn literal(&mut self, l: Literal, span: crate::ir::Span) -> Handle<Expression> {
        self.entry.exprs.append(Expression {
            kind: Expr::Literal(l),
            ty: Type::Scalar(l.scalar()),
            span,
        })
    }
}

fn assign(local: Handle<Local>, value: Handle<Expression>, span: crate::ir::Span) -> Statement {
    Statement {
        kind: Stmt::Assign {
            place: Place::Local(local),
            op: None,
            value,
        },
        span,
    }
}

/// Whether a block holds a `return` at any depth.
fn returns(body: &[Statement]) -> bool {
    let mut found = false;
    let body: &Vec<Statement> = &body.to_vec();
    crate::ir::visit(body, &mut |s| {
        found |= matches!(s.kind, Stmt::Return(_));
    });
    found
}

/// The renumbering of a helper's expressions and locals into the entry's arenas (`exprs[i]`
/// and `locals[i]` are the entry's handles of the helper's `i`th).
// The closures' types cannot be named on stable Rust (no `impl Trait` in type aliases).
#[allow(clippy::type_complexity)]
fn renumber<'m>(
    exprs: &'m [Handle<Expression>],
    locals: &'m [Handle<Local>],
) -> Remap<
    impl Fn(Handle<Expression>) -> Handle<Expression> + 'm,
    impl Fn(Handle<Local>) -> Handle<Local> + 'm,
> {
    Remap {
        expr: move |h: Handle<Expression>| exprs[h.index()],
        local: move |l: Handle<Local>| locals[l.index()],
    }
}

/// How an early `return` of an inlined helper leaves its one-trip loop.
struct Returns {
    flag: Handle<Local>,
    yes: Handle<Expression>,
    read: Handle<Expression>,
    result: Option<Handle<Local>>,
}

impl Returns {
    /// `body` with each `return` a `break` (setting the flag where it leaves an inner loop);
    /// `in_loop` says whether `body` is inside one of the helper's own loops.
    fn block(&self, body: Vec<Statement>, in_loop: bool) -> Result<Vec<Statement>, Unsupported> {
        let mut out = Vec::with_capacity(body.len());
        for s in body {
            let span = s.span;
            if matches!(s.kind, Stmt::Switch { .. }) && returns(std::slice::from_ref(&s)) {
                return Err(Unsupported(
                    "a `return` inside a `switch` of a helper that holds a barrier".into(),
                ));
            }
            match s.kind {
                Stmt::Return(v) => {
                    if let (Some(v), Some(r)) = (v, self.result) {
                        out.push(assign(r, v, span));
                    }
                    if in_loop {
                        out.push(assign(self.flag, self.yes, span));
                    }
                    out.push(Statement {
                        kind: Stmt::Break,
                        span,
                    });
                }
                Stmt::If {
                    cond,
                    accept,
                    reject,
                } => out.push(Statement {
                    kind: Stmt::If {
                        cond,
                        accept: self.block(accept, in_loop)?,
                        reject: self.block(reject, in_loop)?,
                    },
                    span,
                }),
                Stmt::Loop {
                    body,
                    continuing,
                    break_if,
                } => {
                    let leaves = returns(&body) || returns(&continuing);
                    out.push(Statement {
                        kind: Stmt::Loop {
                            body: self.block(body, true)?,
                            continuing: self.block(continuing, true)?,
                            break_if,
                        },
                        span,
                    });
                    if leaves {
                        // Out of the enclosing loop too (or the one-trip loop); the flag
                        // stays set for the loops further out.
                        out.push(Statement {
                            kind: Stmt::If {
                                cond: self.read,
                                accept: vec![Statement {
                                    kind: Stmt::Break,
                                    span,
                                }],
                                reject: Vec::new(),
                            },
                            span,
                        });
                    }
                }
                kind => out.push(Statement { kind, span }),
            }
        }
        Ok(out)
    }
}
