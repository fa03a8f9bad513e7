//! [`Plan::apply`]: the rewriting of a kernel's entry into its slices.

use std::collections::HashSet;

use crate::arena::Handle;
use crate::ir::*;

use super::indices::literal;
use super::{Plan, Sym};

impl Plan {
    /// Rewrites `f` into its slices.
    pub(super) fn apply(&self, f: &mut Function) {
        let u32_ty = Type::Scalar(Scalar::U32);
        let span = f.span;
        let n = self.n;
        // Every `block_idx_z()` read becomes `block_idx_z() / N`, then `s` is declared first.
        let originals: Vec<Handle<Expression>> = f
            .exprs
            .iter()
            .filter(|(_, e)| matches!(e.kind, Expr::Builtin(Builtin::BlockIdx(Axis::Z))))
            .map(|(h, _)| h)
            .collect();
        let bid = push(f, Expr::Builtin(Builtin::BlockIdx(Axis::Z)), u32_ty);
        let lit_n = push(f, Expr::Literal(Literal::U32(n)), u32_ty);
        for h in originals {
            f.exprs[h].kind = Expr::Binary {
                op: BinaryOp::Div,
                left: bid,
                right: lit_n,
            };
        }
        let slice_value = push(
            f,
            Expr::Binary {
                op: BinaryOp::Rem,
                left: bid,
                right: lit_n,
            },
            u32_ty,
        );
        let slice = f.locals.append(Local {
            name: "__slice".into(),
            ty: u32_ty,
            mutable: false,
            span,
        });
        let mut body = std::mem::take(&mut f.body);
        let cx = Rewrite { plan: self, slice };
        body = cx.block(f, body);
        body.insert(
            0,
            Statement {
                kind: Stmt::Let {
                    local: slice,
                    init: Some(slice_value),
                },
                span,
            },
        );
        f.body = body;
    }
}

/// The rewriting of [`Plan::apply`].
struct Rewrite<'p> {
    plan: &'p Plan,
    slice: Handle<Local>,
}

impl Rewrite<'_> {
    fn block(&self, f: &mut Function, block: Block) -> Block {
        let mut out = Vec::with_capacity(block.len());
        let mut block = block.into_iter().peekable();
        while let Some(s) = block.next() {
            // A run of `x[k] = zeros()` naming every element a slice can keep (an array's
            // initialisation) sets the slice's one matrix: one zero, no guards.
            if let Some((id, first)) = self.constant_zero(f, &s) {
                let bound = self.plan.elements[&id].bound(self.plan.n);
                let mut named = HashSet::from([first]);
                let mut run = vec![s];
                while let Some(next) = block.peek() {
                    match self.constant_zero(f, next) {
                        Some((same, k)) if same == id => {
                            named.insert(k);
                            run.extend(block.next());
                        }
                        _ => break,
                    }
                }
                if (0..bound).all(|k| named.contains(&k)) {
                    let mut zero = run.swap_remove(0);
                    if let Stmt::Coop(CoopOp::Zero { dst }) = &mut zero.kind {
                        *dst = CoopMatrix {
                            len: 0,
                            index: None,
                            ..*dst
                        };
                    }
                    out.push(zero);
                } else {
                    for s in run {
                        self.statement(f, s, &mut out);
                    }
                }
                continue;
            }
            self.statement(f, s, &mut out);
        }
        out
    }

    /// `s` rewritten, onto `out`.
    fn statement(&self, f: &mut Function, mut s: Statement, out: &mut Block) {
        match s.kind {
            Stmt::Loop {
                body,
                continuing,
                break_if,
            } => {
                let user = match body.get(1).map(|s| &s.kind) {
                    Some(Stmt::Let { local, .. }) if self.plan.counters.contains_key(local) => {
                        Some(*local)
                    }
                    _ => None,
                };
                match user {
                    Some(user) => {
                        // The one iteration: `let i = value;` and the rest of the body.
                        let value = self.sym(f, &self.plan.counters[&user]);
                        out.push(Statement {
                            kind: Stmt::Let {
                                local: user,
                                init: Some(value),
                            },
                            span: body[1].span,
                        });
                        let rest: Block = body.into_iter().skip(2).collect();
                        out.extend(self.block(f, rest));
                    }
                    None => {
                        let body = self.block(f, body);
                        let continuing = self.block(f, continuing);
                        s.kind = Stmt::Loop {
                            body,
                            continuing,
                            break_if,
                        };
                        out.push(s);
                    }
                }
            }
            Stmt::Coop(op) => {
                let mut guard = None;
                let op = op.map_matrices(|m| {
                    if !m.is_array() {
                        return m;
                    }
                    if let Some(i) = m.index {
                        if let Some(k) = literal(f, i) {
                            guard = Some((self.plan.elements[&m.id].clone(), k));
                        }
                    }
                    CoopMatrix {
                        len: 0,
                        index: None,
                        ..m
                    }
                });
                let span = s.span;
                let stmt = Statement {
                    kind: Stmt::Coop(op),
                    span,
                };
                match guard {
                    Some((sym, k)) => {
                        let value = self.sym(f, &sym);
                        let k = push(f, Expr::Literal(Literal::U32(k)), U32);
                        let cond = push(
                            f,
                            Expr::Binary {
                                op: BinaryOp::Eq,
                                left: value,
                                right: k,
                            },
                            Type::Scalar(Scalar::Bool),
                        );
                        out.push(Statement {
                            kind: Stmt::If {
                                cond,
                                accept: vec![stmt],
                                reject: Vec::new(),
                            },
                            span,
                        });
                    }
                    None => out.push(stmt),
                }
            }
            mut kind => {
                for child in kind.child_blocks_mut() {
                    let taken = std::mem::take(child);
                    *child = self.block(f, taken);
                }
                s.kind = kind;
                out.push(s);
            }
        }
    }

    /// The array and element of `s` when it is `x[k] = zeros()` on a sliced array `x`.
    fn constant_zero(&self, f: &Function, s: &Statement) -> Option<(u32, u32)> {
        match &s.kind {
            Stmt::Coop(CoopOp::Zero { dst }) if dst.is_array() => {
                Some((dst.id, literal(f, dst.index?)?))
            }
            _ => None,
        }
    }

    /// `sym` as an expression of the slice.
    fn sym(&self, f: &mut Function, sym: &Sym) -> Handle<Expression> {
        match sym {
            Sym::Slice => push(f, Expr::Local(self.slice), U32),
            Sym::Lit(k) => push(f, Expr::Literal(Literal::U32(*k)), U32),
            Sym::Div(x, k) | Sym::Rem(x, k) => {
                let left = self.sym(f, x);
                let right = push(f, Expr::Literal(Literal::U32(*k)), U32);
                let op = match sym {
                    Sym::Div(..) => BinaryOp::Div,
                    _ => BinaryOp::Rem,
                };
                push(f, Expr::Binary { op, left, right }, U32)
            }
        }
    }
}
pub(super) const U32: Type = Type::Scalar(Scalar::U32);

pub(super) fn push(f: &mut Function, kind: Expr, ty: Type) -> Handle<Expression> {
    let span = f.span;
    f.exprs.append(Expression { kind, ty, span })
}
