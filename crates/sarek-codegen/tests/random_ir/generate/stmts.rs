//! Statements: blocks, control flow, assignments.

use super::*;

impl Gen<'_> {
    pub(super) fn block(&mut self, b: &mut Body, len: usize, nesting: usize) -> Block {
        let scope_len = b.scope.len();
        let mut out = Vec::new();
        for _ in 0..len {
            out.push(self.statement(b, nesting));
        }
        b.scope.truncate(scope_len);
        out
    }

    pub(super) fn statement(&mut self, b: &mut Body, nesting: usize) -> Statement {
        let choice = if nesting > 2 {
            self.rng.below(3)
        } else {
            self.rng.below(9)
        };
        match choice {
            0 | 1 => {
                let ty = self.pick_type();
                let init = if self.rng.chance(80) {
                    Some(self.expr(b, ty))
                } else {
                    None
                };
                let local = b.locals.append(Local {
                    name: ["x", "acc", "max", "select", "r#type", "_", "__v", "sarek_k"]
                        [self.rng.below(8)]
                    .trim_start_matches("r#")
                    .to_owned(),
                    ty,
                    mutable: init.is_none() || self.rng.chance(60),
                    span: Span(0),
                });
                b.scope.push((local, ty));
                st(Stmt::Let { local, init })
            }
            2 => self.assign(b),
            3 => {
                let cond = self.expr(b, BOOL);
                let accept = {
                    let n = 1 + self.rng.below(3);
                    self.block(b, n, nesting + 1)
                };
                let reject = {
                    let n = self.rng.below(3);
                    self.block(b, n, nesting + 1)
                };
                st(Stmt::If {
                    cond,
                    accept,
                    reject,
                })
            }
            4 => {
                self.loops += 1;
                let cond = self.expr(b, BOOL);
                let exit = st(Stmt::If {
                    cond,
                    accept: vec![st(Stmt::Break)],
                    reject: vec![],
                });
                let mut body = vec![exit];
                body.extend({
                    let n = 1 + self.rng.below(3);
                    self.block(b, n, nesting + 1)
                });
                if self.rng.chance(30) {
                    body.push(st(Stmt::Continue));
                }
                let break_if = self.rng.chance(40).then(|| self.expr(b, BOOL));
                self.loops -= 1;
                st(Stmt::Loop {
                    body,
                    continuing: vec![],
                    break_if,
                })
            }
            5 => {
                let sel_ty = [I32, U32][self.rng.below(2)];
                let selector = self.expr(b, sel_ty);
                let signed = b.exprs[selector].ty == I32;
                let lit = |v: u32| {
                    if signed {
                        Literal::I32(v as i32)
                    } else {
                        Literal::U32(v)
                    }
                };
                let cases = vec![
                    Case {
                        values: vec![lit(0), lit(2)],
                        body: self.block(b, 1, nesting + 1),
                    },
                    Case {
                        values: vec![lit(1)],
                        body: self.block(b, 1, nesting + 1),
                    },
                ];
                let default = {
                    let n = self.rng.below(2);
                    self.block(b, n, nesting + 1)
                };
                st(Stmt::Switch {
                    selector,
                    cases,
                    default,
                })
            }
            6 if self.loops > 0 && self.rng.chance(50) => st(Stmt::Break),
            6 | 7 => match self.helper.clone() {
                Some((function, arg_tys, result)) if !self.in_helper => {
                    let args = arg_tys.iter().map(|t| self.expr(b, *t)).collect();
                    let local = b.locals.append(Local {
                        name: "r".into(),
                        ty: result,
                        mutable: false,
                        span: Span(0),
                    });
                    b.scope.push((local, result));
                    st(Stmt::Call {
                        function,
                        args,
                        result: Some(local),
                    })
                }
                _ => self.assign(b),
            },
            _ => self.assign(b),
        }
    }

    pub(super) fn assign(&mut self, b: &mut Body) -> Statement {
        let mutable: Vec<(Handle<Local>, Type)> = b
            .scope
            .iter()
            .copied()
            .filter(|(l, _)| b.locals[*l].mutable)
            .collect();
        let place_ty = if !mutable.is_empty() && self.rng.chance(60) {
            let (l, t) = mutable[self.rng.below(mutable.len())];
            if t == self.structure && self.rng.chance(50) {
                (
                    Place::Field {
                        base: Box::new(Place::Local(l)),
                        field: [0, 2][self.rng.below(2)],
                    },
                    None,
                )
            } else if t == self.array && self.rng.chance(50) {
                let index = self.expr(b, U32);
                (
                    Place::Element {
                        base: Box::new(Place::Local(l)),
                        index,
                    },
                    Some(F32),
                )
            } else {
                (Place::Local(l), Some(t))
            }
        } else if !self.in_helper {
            let writable: Vec<usize> = self
                .params
                .iter()
                .enumerate()
                .filter(|(_, p)| {
                    matches!(
                        p.ty,
                        ParamType::Slice {
                            access: Access::ReadWrite,
                            ..
                        }
                    )
                })
                .map(|(i, _)| i)
                .collect();
            let i = writable[self.rng.below(writable.len())];
            let ParamType::Slice { elem, .. } = self.params[i].ty else {
                unreachable!()
            };
            let index = self.expr(b, U32);
            (
                Place::Index {
                    slice: ParamId(i as u32),
                    index,
                },
                Some(elem),
            )
        } else {
            let value = self.expr(b, F32);
            return st(Stmt::Return(Some(value)));
        };
        let (place, ty) = place_ty;
        // A struct field: field 0 is f32, field 2 is bool.
        let field = if let Place::Field { field: 2, .. } = place {
            BOOL
        } else {
            F32
        };
        let ty = ty.unwrap_or(field);
        let value = self.expr(b, ty);
        let op = match ty {
            Type::Scalar(Scalar::F32) | Type::Scalar(Scalar::I32) | Type::Scalar(Scalar::U32)
                if self.rng.chance(30) =>
            {
                Some(
                    [BinaryOp::Add, BinaryOp::Mul, BinaryOp::Div, BinaryOp::Rem][self.rng.below(4)],
                )
            }
            _ => None,
        };
        st(Stmt::Assign { place, op, value })
    }
}
