//! `match` and `if let`: a WGSL `switch` on an enum's tag or an integer, every arm binding its
//! payload from the scrutinee, which is evaluated once. Only the taken arm runs, whatever the
//! arms' types, and the switch always has a `default` arm: the catch-all arm; for an enum
//! whose arms name every variant (rustc checks that on the same code), the last arm; for
//! integers and `bool` without `_`, an empty one that cannot be reached.

use proc_macro2::Span;
use syn::spanned::Spanned;

use super::items::Item;
use super::{ident_name, Binding, Lowerer, Reported, Value, R};
use crate::arena::Handle;
use crate::front::diagnostic::ErrorKind;
use crate::front::infer::{Ty, VarKind};
use crate::ir::*;

/// What an arm's pattern accepts and binds.
pub(super) struct Arm {
    /// Selector values; `None` for a catch-all.
    pub(super) values: Option<Vec<Literal>>,
    /// `(name, mutable, value)` bindings.
    pub(super) bindings: Vec<(String, bool, Handle<Expression>, Span)>,
}

/// The body of an arm.
enum ArmBody<'a> {
    Expr(&'a syn::Expr),
    Block(&'a syn::Block),
    Unit,
}

/// What the scrutinee is.
#[derive(Clone, Copy)]
pub(super) enum Scrutinee {
    /// An enum value held in a local.
    Enum { value: Handle<Expression>, ty: Type },
    /// An integer or `bool` value (the selector itself).
    Scalar {
        value: Handle<Expression>,
        scalar: Scalar,
    },
}

impl Lowerer<'_> {
    pub(super) fn match_expr(&mut self, m: &syn::ExprMatch) -> R<Value> {
        if m.arms.is_empty() {
            self.empty_match(m)?;
        }
        if m.arms.iter().any(|a| a.guard.is_some()) {
            let arms: Vec<(&syn::Pat, &syn::Expr, Option<&syn::Expr>)> = m
                .arms
                .iter()
                .map(|a| (&a.pat, &*a.body, a.guard.as_ref().map(|g| &*g.1)))
                .collect();
            let (scrut, selector) = self.scrutinee(&m.expr, m.span())?;
            return self.guarded_match(scrut, selector, &arms, m.span());
        }
        let arms: Vec<(&syn::Pat, ArmBody<'_>, Option<Span>)> = m
            .arms
            .iter()
            .map(|a| {
                (
                    &a.pat,
                    ArmBody::Expr(&a.body),
                    a.guard.as_ref().map(|g| g.0.span()),
                )
            })
            .collect();
        self.lower_match(&m.expr, arms, m.span())
    }

    /// `match x {}` is only exhaustive on an empty enum; on any other type rustc refuses it
    /// (and a helper returning a value would end without one).
    fn empty_match(&mut self, m: &syn::ExprMatch) -> R<()> {
        let value = self.value(&m.expr)?;
        let ty = self.ty(value);
        let empty_enum = match self.infer.shallow(ty) {
            Ty::Compound(Type::Struct(id)) => self
                .cx
                .kernel
                .struct_def(id)
                .and_then(|d| d.variants.as_ref())
                .is_some_and(|v| v.is_empty()),
            _ => false,
        };
        if empty_enum {
            return Ok(());
        }
        let name = self.describe(ty);
        Err(self.error(
            m.expr.span(),
            format!("non-exhaustive patterns: type `{name}` is non-empty; a `match` needs arms that cover every value (add `_ => ..`)"),
        ))
    }

    pub(super) fn if_let(&mut self, i: &syn::ExprIf) -> R<Value> {
        let syn::Expr::Let(l) = &*i.cond else {
            return Err(Reported);
        };
        let wild = syn::Pat::Wild(syn::PatWild {
            attrs: Vec::new(),
            underscore_token: Default::default(),
        });
        let else_body = match &i.else_branch {
            Some((_, e)) => ArmBody::Expr(e),
            None => ArmBody::Unit,
        };
        let arms = vec![
            (&*l.pat, ArmBody::Block(&i.then_branch), None),
            (&wild, else_body, None),
        ];
        self.lower_match(&l.expr, arms, i.span())
    }

    fn lower_match(
        &mut self,
        scrutinee: &syn::Expr,
        arms: Vec<(&syn::Pat, ArmBody<'_>, Option<Span>)>,
        span: Span,
    ) -> R<Value> {
        let (scrut, selector) = self.scrutinee(scrutinee, span)?;

        let mut taken: Vec<Literal> = Vec::new();
        let mut cases: Vec<Case> = Vec::new();
        let mut default: Option<Block> = None;
        let mut results: Vec<(usize, Handle<Expression>)> = Vec::new();
        let mut blocks: Vec<Block> = Vec::new();
        let mut all_never = true;
        let mut unit = false;
        let mut failed = false;
        let count = arms.len();
        for (n, (pat, body, guard)) in arms.into_iter().enumerate() {
            if let Some(g) = guard {
                self.fail(g, ErrorKind::unsupported("match guards (`if` after a pattern) are not supported in kernels; test the condition inside the arm"));
                failed = true;
                continue;
            }
            let arm = match self.pattern(pat, scrut) {
                Ok(a) => a,
                Err(Reported) => {
                    failed = true;
                    continue;
                }
            };
            let catch_all = arm.values.is_none()
                || (n + 1 == count && default.is_none() && matches!(scrut, Scrutinee::Enum { .. }));
            let values: Vec<Literal> = arm
                .values
                .clone()
                .unwrap_or_default()
                .into_iter()
                .filter(|v| !taken.contains(v))
                .collect();
            if !catch_all && values.is_empty() {
                continue; // every value was taken by an earlier arm
            }
            let (block, result) = self.with_block(|this| {
                for (name, mutable, value, span) in &arm.bindings {
                    let ty = this.ty(*value);
                    let local = this.new_local(name, ty, *mutable, !*mutable, *span);
                    this.push(
                        Stmt::Let {
                            local,
                            init: Some(*value),
                        },
                        *span,
                    );
                    this.bind(name.clone(), Binding::Local(local));
                }
                match body {
                    ArmBody::Expr(e) => this.expression(e),
                    ArmBody::Block(b) => this.block_contents(b),
                    ArmBody::Unit => Ok(Value::Unit),
                }
            });
            match result {
                Ok(Value::Expr(h)) => {
                    all_never = false;
                    results.push((blocks.len(), h));
                }
                Ok(Value::Unit) => {
                    all_never = false;
                    unit = true;
                }
                Ok(Value::Never) => {}
                Err(Reported) => failed = true,
            }
            if catch_all {
                blocks.push(block);
                default = Some(Vec::new());
                break;
            }
            taken.extend(values.iter().copied());
            cases.push(Case {
                values,
                body: Vec::new(),
            });
            blocks.push(block);
        }
        if failed {
            return Err(Reported);
        }
        if !results.is_empty() && unit {
            return Err(self.error(
                span,
                "the arms of this `match` have different types: some yield a value and some `()`",
            ));
        }
        // The value, if any, goes through a local that only the taken arm writes.
        let mut result_local = None;
        if let Some(&(_, first)) = results.first() {
            let mut ty = self.ty(first);
            for &(_, h) in &results[1..] {
                let t = self.ty(h);
                let at = self.expr_span(h);
                ty = self.unify(ty, t, at)?;
            }
            let local = self.new_local("__match", ty, true, false, span);
            self.push(Stmt::Let { local, init: None }, span);
            for &(b, h) in &results {
                let ir_span = self.function.exprs[h].span;
                blocks[b].push(Statement {
                    kind: Stmt::Assign {
                        place: Place::Local(local),
                        op: None,
                        value: h,
                    },
                    span: ir_span,
                });
            }
            result_local = Some((local, ty));
        }
        let mut blocks = blocks.into_iter();
        for case in &mut cases {
            case.body = blocks.next().unwrap_or_default();
        }
        let default = match default {
            Some(_) => blocks.next().unwrap_or_default(),
            None => Vec::new(),
        };
        self.push(
            Stmt::Switch {
                selector,
                cases,
                default,
            },
            span,
        );
        Ok(match result_local {
            Some((local, ty)) => Value::Expr(self.read(local, ty, span)),
            None if all_never => Value::Never,
            None => Value::Unit,
        })
    }

    /// The scrutinee of a `match`, evaluated once, and the selector its patterns test.
    fn scrutinee(
        &mut self,
        scrutinee: &syn::Expr,
        span: Span,
    ) -> R<(Scrutinee, Handle<Expression>)> {
        let value = self.value(scrutinee)?;
        let ty = self.ty(value);
        Ok(match self.infer.shallow(ty) {
            Ty::Compound(t @ Type::Struct(id))
                if self
                    .cx
                    .kernel
                    .struct_def(id)
                    .is_some_and(|d| d.variants.is_some()) =>
            {
                let local = self.temp(value, None);
                let read = self.read(local, ty, span);
                let tag = self.expr(
                    Expr::Field {
                        base: read,
                        field: 0,
                    },
                    Ty::Known(Scalar::U32),
                    span,
                );
                (Scrutinee::Enum { value: read, ty: t }, tag)
            }
            Ty::Known(Scalar::Bool) => {
                let v = self.spill(value, None);
                let sel = self.expr(
                    Expr::Cast {
                        expr: v,
                        to: Scalar::U32,
                    },
                    Ty::Known(Scalar::U32),
                    span,
                );
                (
                    Scrutinee::Scalar {
                        value: v,
                        scalar: Scalar::Bool,
                    },
                    sel,
                )
            }
            Ty::Known(s) if s.is_wide() => {
                return Err(self.error(
                    scrutinee.span(),
                    format!("a `match` becomes WGSL's `switch`, which takes only 32-bit integers, so it cannot match a `{}`; compare with `if x == 1 {{ .. }} else if ..`", s.rust_name()),
                ));
            }
            Ty::Known(s) if s.is_integer() => {
                let v = self.spill(value, None);
                (
                    Scrutinee::Scalar {
                        value: v,
                        scalar: s,
                    },
                    v,
                )
            }
            t @ Ty::Var(_) if self.infer.kind_of(t) == Some(VarKind::Int) => {
                self.unify(t, Ty::Known(Scalar::I32), scrutinee.span())?;
                let v = self.spill(value, None);
                (
                    Scrutinee::Scalar {
                        value: v,
                        scalar: Scalar::I32,
                    },
                    v,
                )
            }
            other => {
                let found = self.describe(other);
                return Err(self.error(
                    scrutinee.span(),
                    format!(
                        "a kernel can `match` on an enum, an integer or a `bool`, not on `{found}`"
                    ),
                ));
            }
        })
    }

    /// What `pat` accepts of `scrut`, and what it binds.
    pub(super) fn pattern(&mut self, pat: &syn::Pat, scrut: Scrutinee) -> R<Arm> {
        let unsupported = "this pattern is not supported in kernels; kernels match enum variants (`E::V(a, _)`, `E::V { x, .. }`, `E::V`), integer and `bool` literals, `|`, `_` and plain names";
        match pat {
            syn::Pat::Wild(_) => Ok(Arm {
                values: None,
                bindings: Vec::new(),
            }),
            syn::Pat::Paren(p) => self.pattern(&p.pat, scrut),
            syn::Pat::Ident(p) if p.subpat.is_none() && p.by_ref.is_none() => {
                // A unit variant or constant named without its enum is not a binding.
                if let Scrutinee::Enum { ty, .. } = scrut {
                    if self.is_variant_name(ty, &p.ident) {
                        return Err(self
                            .error(p.span(), "write the variant with its enum, `Enum::Variant`"));
                    }
                }
                let value = match scrut {
                    Scrutinee::Enum { value, .. } | Scrutinee::Scalar { value, .. } => value,
                };
                Ok(Arm {
                    values: None,
                    bindings: vec![(
                        ident_name(&p.ident),
                        p.mutability.is_some(),
                        value,
                        p.ident.span(),
                    )],
                })
            }
            syn::Pat::Or(o) => {
                let mut values = Vec::new();
                for case in &o.cases {
                    let arm = self.pattern(case, scrut)?;
                    if !arm.bindings.is_empty() {
                        return Err(self.error(
                            case.span(),
                            "`|` patterns cannot bind names in kernels; bind in separate arms",
                        ));
                    }
                    match arm.values {
                        Some(v) => values.extend(v),
                        None => {
                            return Ok(Arm {
                                values: None,
                                bindings: Vec::new(),
                            })
                        }
                    }
                }
                Ok(Arm {
                    values: Some(values),
                    bindings: Vec::new(),
                })
            }
            syn::Pat::Lit(l) => {
                let Scrutinee::Scalar { scalar, .. } = scrut else {
                    return Err(self.error(l.span(), "match an enum with its variants"));
                };
                let lit = self.pattern_literal(&l.lit, false, scalar, l.span())?;
                Ok(Arm {
                    values: Some(vec![lit]),
                    bindings: Vec::new(),
                })
            }
            syn::Pat::Path(p) => self.variant_pattern(&p.path, &[], None, scrut, p.span()),
            syn::Pat::TupleStruct(t) => {
                let subs: Vec<&syn::Pat> = t.elems.iter().collect();
                self.variant_pattern(&t.path, &subs, None, scrut, t.span())
            }
            syn::Pat::Struct(s) => self.variant_pattern(&s.path, &[], Some(s), scrut, s.span()),
            syn::Pat::Range(r) => Err(self.fail(
                r.span(),
                ErrorKind::unsupported(
                    "range patterns are not supported in kernels; use `if` with comparisons",
                ),
            )),
            other => {
                // `-1` parses as an expression pattern in some positions.
                if let syn::Pat::Verbatim(_) = other {
                    return Err(self.error(other.span(), unsupported));
                }
                Err(self.error(other.span(), unsupported))
            }
        }
    }

    fn is_variant_name(&self, ty: Type, ident: &syn::Ident) -> bool {
        let Type::Struct(id) = ty else { return false };
        let name = ident_name(ident);
        self.cx
            .kernel
            .struct_def(id)
            .and_then(|d| d.variants.as_ref())
            .is_some_and(|v| v.contains(&name))
    }

    fn pattern_literal(
        &mut self,
        lit: &syn::Lit,
        negative: bool,
        scalar: Scalar,
        span: Span,
    ) -> R<Literal> {
        let bad = |this: &mut Self| {
            this.error(span, format!("expected a `{}` pattern", scalar.rust_name()))
        };
        match (lit, scalar) {
            (syn::Lit::Bool(b), Scalar::Bool) => Ok(Literal::U32(u32::from(b.value))),
            (syn::Lit::Int(i), Scalar::I32) => {
                let v = i.base10_parse::<i64>().map_err(|_| bad(self))?;
                i32::try_from(if negative { -v } else { v })
                    .map(Literal::I32)
                    .map_err(|_| bad(self))
            }
            (syn::Lit::Int(i), Scalar::U32) if !negative => i
                .base10_parse::<u32>()
                .map(Literal::U32)
                .map_err(|_| bad(self)),
            _ => Err(bad(self)),
        }
    }

    /// `E::V`, `E::V(a, _, ..)` or `E::V { x, y: b, .. }`, with sub-patterns that bind names,
    /// ignore values, or destructure a struct payload one level down.
    fn variant_pattern(
        &mut self,
        path: &syn::Path,
        tuple: &[&syn::Pat],
        named: Option<&syn::PatStruct>,
        scrut: Scrutinee,
        span: Span,
    ) -> R<Arm> {
        let Scrutinee::Enum { value, ty } = scrut else {
            return Err(self.error(span, "variant patterns match enums; this value is a number"));
        };
        let segments: Vec<&syn::PathSegment> = path.segments.iter().collect();
        let [enum_seg, variant] = segments.as_slice() else {
            return Err(self.error(
                path.span(),
                "write the variant with its enum, `Enum::Variant`",
            ));
        };
        match self.cx.items.lookup(&ident_name(&enum_seg.ident)) {
            Some(Item::Enum(e)) if self.cx.enum_type(&e)? == ty => {}
            _ => {
                let name = type_name(&self.cx.kernel.types, ty);
                return Err(self.error(enum_seg.span(), format!("expected a variant of `{name}`")));
            }
        }
        let (tag, payload) = self.variant_fields(ty, &variant.ident)?;
        let mut bindings = Vec::new();
        let mut subs: Vec<(u32, &syn::Pat)> = Vec::new();
        if let Some(s) = named {
            for f in &s.fields {
                let name = match &f.member {
                    syn::Member::Named(i) => ident_name(i),
                    syn::Member::Unnamed(i) => i.index.to_string(),
                };
                match payload.iter().find(|(n, _)| *n == name) {
                    Some((_, i)) => subs.push((*i, &f.pat)),
                    None => {
                        return Err(self.error(
                            f.member.span(),
                            format!("this variant has no field `{name}`"),
                        ))
                    }
                }
            }
        } else {
            let mut k = 0;
            for (n, p) in tuple.iter().enumerate() {
                if let syn::Pat::Rest(_) = p {
                    // `..` skips the fields the remaining sub-patterns do not name.
                    let after = tuple.len() - n - 1;
                    match payload.len().checked_sub(after) {
                        Some(start) if start >= k => k = start,
                        _ => {
                            return Err(self.error(
                                p.span(),
                                format!(
                                    "this pattern names more fields than the variant has ({})",
                                    payload.len()
                                ),
                            ))
                        }
                    }
                    continue;
                }
                match payload.get(k) {
                    Some((_, i)) => subs.push((*i, *p)),
                    None => {
                        return Err(self.error(
                            p.span(),
                            format!(
                                "this pattern names more fields than the variant has ({})",
                                payload.len()
                            ),
                        ))
                    }
                }
                k += 1;
            }
        }
        for (field, sub) in subs {
            let Type::Struct(id) = ty else {
                return Err(Reported);
            };
            let fty = self
                .cx
                .kernel
                .struct_def(id)
                .and_then(|d| d.fields.get(field as usize))
                .map(|f| f.ty)
                .ok_or(Reported)?;
            let read = self.expr(Expr::Field { base: value, field }, Ty::of(fty), sub.span());
            self.bind_irrefutable(sub, read, fty, &mut bindings)?;
        }
        Ok(Arm {
            values: Some(vec![Literal::U32(tag)]),
            bindings,
        })
    }

    /// A sub-pattern that always matches: a name, `_`, or a struct's fields.
    fn bind_irrefutable(
        &mut self,
        pat: &syn::Pat,
        value: Handle<Expression>,
        ty: Type,
        bindings: &mut Vec<(String, bool, Handle<Expression>, Span)>,
    ) -> R<()> {
        match pat {
            syn::Pat::Wild(_) => Ok(()),
            syn::Pat::Ident(p) if p.subpat.is_none() && p.by_ref.is_none() => {
                bindings.push((ident_name(&p.ident), p.mutability.is_some(), value, p.ident.span()));
                Ok(())
            }
            syn::Pat::Struct(s) => {
                let vt = Ty::of(ty);
                for f in &s.fields {
                    let (field, fty) = self.field_of(vt, &f.member, f.member.span())?;
                    let read = self.expr(Expr::Field { base: value, field }, Ty::of(fty), f.span());
                    self.bind_irrefutable(&f.pat, read, fty, bindings)?;
                }
                Ok(())
            }
            other => Err(self.error(other.span(), "inside a variant, a kernel pattern can bind a name, ignore with `_`, or take a struct apart (`P { x, y }`); match nested enums in the arm with another `match`")),
        }
    }
}
