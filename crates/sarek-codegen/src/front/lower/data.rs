//! Structs, enums and arrays as values: literals, variant constructors, field and element
//! reads.

use proc_macro2::Span;
use syn::spanned::Spanned;

use super::items::{local_path_name, Item};
use super::{ident_name, Binding, Lowerer, Reported, R};
use crate::arena::Handle;
use crate::front::diagnostic::ErrorKind;
use crate::front::infer::Ty;
use crate::ir::*;

/// The largest array a kernel may build in its own (function-scope) memory, in bytes: 64 KiB.
/// WGSL guarantees only 8 KiB of function-scope memory to every implementation; Sarek allows
/// more because drivers accept it, but larger arrays make GPU compilers take minutes and the
/// CPU backend hold one copy per invocation. Buffers and workgroup memory are the places for
/// large data.
pub const MAX_LOCAL_ARRAY_BYTES: u64 = 64 * 1024;

/// Repeat expressions up to this length are written as a constructor; longer ones as a loop.
const MAX_INLINE_REPEAT: u32 = 16;

impl Lowerer<'_> {
    /// The struct definition behind `ty`, or an error naming what was found.
    fn struct_of(&mut self, ty: Ty, span: Span) -> R<(TypeId, StructDef)> {
        if let Ty::Compound(Type::Struct(id)) = self.infer.shallow(ty) {
            if let Some(def) = self.cx.kernel.struct_def(id) {
                return Ok((id, def.clone()));
            }
        }
        let found = self.describe(ty);
        Err(self.error(span, format!("`{found}` has no fields")))
    }

    /// The index and type of field `member` of a value of type `ty`.
    pub(super) fn field_of(&mut self, ty: Ty, member: &syn::Member, span: Span) -> R<(u32, Type)> {
        if let Ty::Compound(v @ Type::Vector(n, s)) = self.infer.shallow(ty) {
            let name = match member {
                syn::Member::Named(i) => ident_name(i),
                syn::Member::Unnamed(i) => i.index.to_string(),
            };
            return match super::vectors::component(&name, n) {
                Some(i) => Ok((i, Type::Scalar(s))),
                None => {
                    let vname = type_name(&[], v);
                    Err(self.error(
                        span,
                        format!(
                            "`{vname}` has no component `{name}`; it has {}",
                            ["`x`", "`y`", "`z`", "`w`"][..usize::from(n)].join(", ")
                        ),
                    ))
                }
            };
        }
        if let Some(r) = self.tuple_field(ty, member) {
            return r;
        }
        let (_, def) = self.struct_of(ty, span)?;
        if def.variants.is_some() {
            return Err(self.error(
                span,
                format!(
                    "`{}` is an enum: read its payload with `match` or `if let`",
                    def.name
                ),
            ));
        }
        let syn::Member::Named(ident) = member else {
            return Err(self.fail(
                span,
                ErrorKind::unsupported(
                    "kernel structs have named fields; tuple fields (`.0`) are not supported",
                ),
            ));
        };
        let name = ident_name(ident);
        match def
            .fields
            .iter()
            .position(|f| f.name == FieldName::Named(name.clone()))
        {
            Some(i) => Ok((i as u32, def.fields[i].ty)),
            None => Err(self.error(span, format!("`{}` has no field `{name}`", def.name))),
        }
    }

    /// `value.field`.
    pub(super) fn field(&mut self, f: &syn::ExprField) -> R<Handle<Expression>> {
        let base = self.value(&f.base)?;
        let base_ty = self.ty(base);
        let (field, ty) = self.field_of(base_ty, &f.member, f.member.span())?;
        Ok(self.expr(Expr::Field { base, field }, Ty::of(ty), f.span()))
    }

    /// The element type of an array type.
    pub(super) fn array_elem(&mut self, ty: Ty, span: Span) -> R<Type> {
        if let Ty::Compound(Type::Array(id)) = self.infer.shallow(ty) {
            if let Some((elem, _)) = array_def(&self.cx.kernel.types, id) {
                return Ok(elem);
            }
        }
        let found = self.describe(ty);
        Err(self.error(span, format!("cannot index a value of type `{found}`: only arrays, buffers and `shared()` arrays can be indexed")))
    }

    /// Whether WGSL sees `h` as a memory reference (a variable, a parameter, a buffer element
    /// or a part of one), which it can index at run time.
    fn is_reference(&self, h: Handle<Expression>) -> bool {
        match &self.function.exprs[h].kind {
            Expr::Local(_) | Expr::Param(_) | Expr::Index { .. } | Expr::SharedIndex { .. } => true,
            Expr::Field { base, .. } | Expr::Access { base, .. } => self.is_reference(*base),
            _ => false,
        }
    }

    /// `array[i]` on an array value.
    pub(super) fn array_access(&mut self, i: &syn::ExprIndex) -> R<Handle<Expression>> {
        let v = self.operands(&[&i.expr, &i.index])?;
        let (mut base, index) = (v[0], v[1]);
        self.require_index(index, i.index.span())?;
        let elem = self.array_elem(self.ty(base), i.expr.span())?;
        if !self.is_reference(base) {
            base = self.spill(base, None);
        }
        Ok(self.expr(Expr::Access { base, index }, Ty::of(elem), i.span()))
    }

    /// The type an assignment's target has, when it is known before the value is lowered.
    pub(super) fn place_type_hint(&mut self, left: &syn::Expr) -> Option<Type> {
        match left {
            syn::Expr::Path(p) => match p
                .path
                .get_ident()
                .and_then(|i| self.lookup(&ident_name(i)))?
            {
                Binding::Local(l) => match self.infer.shallow(self.local_tys[l.index()]) {
                    Ty::Compound(t) => Some(t),
                    Ty::Known(s) => Some(Type::Scalar(s)),
                    Ty::Var(_) => None,
                },
                _ => None,
            },
            _ => None,
        }
    }

    /// A struct literal, `S { a: 1.0, b }` or `S { a: 1.0, ..base }`, or a variant with named
    /// fields, `E::V { w, h }`.
    pub(super) fn struct_literal(&mut self, s: &syn::ExprStruct) -> R<Handle<Expression>> {
        let span = s.span();
        if s.qself.is_some() {
            return Err(self.fail(
                span,
                ErrorKind::unsupported("qualified paths are not supported in kernels"),
            ));
        }
        let segments: Vec<&syn::PathSegment> = s.path.segments.iter().collect();
        if let [enum_seg, variant] = segments.as_slice() {
            if let Some(Item::Enum(e)) = self.cx.items.lookup(&ident_name(&enum_seg.ident)) {
                let ty = self.cx.enum_type(&e)?;
                return self.variant_value(ty, &variant.ident, VariantArgs::Named(s), span);
            }
        }
        let item = local_path_name(&s.path).and_then(|n| self.cx.items.lookup(&n));
        let Some(Item::Struct(item)) = item else {
            let name = s
                .path
                .segments
                .last()
                .map(|s| s.ident.to_string())
                .unwrap_or_default();
            return Err(self.fail(s.path.span(), ErrorKind::UnknownStruct(name)));
        };
        let ty = self.cx.struct_type(&item)?;
        let Type::Struct(id) = ty else {
            return Err(Reported);
        };
        let def = self.cx.kernel.struct_def(id).cloned().ok_or(Reported)?;
        // Rust evaluates the fields in the order written, then the base.
        let mut exprs: Vec<&syn::Expr> = s.fields.iter().map(|f| &f.expr).collect();
        if let Some(rest) = &s.rest {
            exprs.push(rest);
        }
        let mut slots: Vec<Option<Handle<Expression>>> = vec![None; def.fields.len()];
        let mut targets = Vec::new();
        let mut failed = false;
        for f in &s.fields {
            let syn::Member::Named(ident) = &f.member else {
                self.error(f.member.span(), "kernel structs have named fields");
                failed = true;
                continue;
            };
            let name = ident_name(ident);
            match def
                .fields
                .iter()
                .position(|d| d.name == FieldName::Named(name.clone()))
            {
                Some(i) => targets.push(i),
                None => {
                    self.error(
                        ident.span(),
                        format!("`{}` has no field `{name}`", def.name),
                    );
                    failed = true;
                }
            }
        }
        if failed {
            return Err(Reported);
        }
        let values = self.operands(&exprs)?;
        for ((&i, &v), f) in targets.iter().zip(&values).zip(&s.fields) {
            let want = Ty::of(def.fields[i].ty);
            let got = self.ty(v);
            self.unify(want, got, f.expr.span())?;
            slots[i] = Some(v);
        }
        if let Some(rest) = &s.rest {
            let mut base = values[values.len() - 1];
            let got = self.ty(base);
            self.unify(Ty::of(ty), got, rest.span())?;
            if !self.is_stable(base) || !self.is_reference(base) {
                base = self.spill(base, None);
            }
            for (i, slot) in slots.iter_mut().enumerate() {
                if slot.is_none() {
                    let fty = def.fields[i].ty;
                    *slot = Some(self.expr(
                        Expr::Field {
                            base,
                            field: i as u32,
                        },
                        Ty::of(fty),
                        rest.span(),
                    ));
                }
            }
        }
        let mut components = Vec::new();
        for (slot, f) in slots.into_iter().zip(&def.fields) {
            match slot {
                Some(v) => components.push(v),
                None => {
                    let name = match &f.name {
                        FieldName::Named(n) => n.clone(),
                        _ => String::new(),
                    };
                    return Err(self.error(
                        span,
                        format!("missing field `{name}` in this `{}` literal", def.name),
                    ));
                }
            }
        }
        Ok(self.expr(Expr::Compose { ty, components }, Ty::of(ty), span))
    }

    /// `E::V` as a value, when the path names a unit variant.
    pub(super) fn variant_path(&mut self, path: &syn::Path) -> Option<R<Handle<Expression>>> {
        let segments: Vec<&syn::PathSegment> = path.segments.iter().collect();
        let [enum_seg, variant] = segments.as_slice() else {
            return None;
        };
        let Some(Item::Enum(e)) = self.cx.items.lookup(&ident_name(&enum_seg.ident)) else {
            return None;
        };
        Some(
            self.cx.enum_type(&e).and_then(|ty| {
                self.variant_value(ty, &variant.ident, VariantArgs::None, path.span())
            }),
        )
    }

    /// `E::V(a, b)`, when the called path names a tuple variant.
    pub(super) fn variant_call(
        &mut self,
        c: &syn::ExprCall,
        p: &syn::ExprPath,
    ) -> Option<R<Handle<Expression>>> {
        let segments: Vec<&syn::PathSegment> = p.path.segments.iter().collect();
        let [enum_seg, variant] = segments.as_slice() else {
            return None;
        };
        let Some(Item::Enum(e)) = self.cx.items.lookup(&ident_name(&enum_seg.ident)) else {
            return None;
        };
        Some(
            self.cx.enum_type(&e).and_then(|ty| {
                self.variant_value(ty, &variant.ident, VariantArgs::Tuple(c), c.span())
            }),
        )
    }

    /// The variant's index in an enum type, and the indices of its payload fields.
    pub(super) fn variant_fields(
        &mut self,
        ty: Type,
        variant: &syn::Ident,
    ) -> R<(u32, Vec<(String, u32)>)> {
        let Type::Struct(id) = ty else {
            return Err(Reported);
        };
        let def = self.cx.kernel.struct_def(id).cloned().ok_or(Reported)?;
        let name = ident_name(variant);
        let Some(index) = def
            .variants
            .as_ref()
            .and_then(|v| v.iter().position(|n| *n == name))
        else {
            return Err(self.error(
                variant.span(),
                format!("`{}` has no variant `{name}`", def.name),
            ));
        };
        let fields = def
            .fields
            .iter()
            .enumerate()
            .filter_map(|(i, f)| match &f.name {
                FieldName::Payload { variant, name } if *variant == index as u32 => {
                    Some((name.clone(), i as u32))
                }
                _ => None,
            })
            .collect();
        Ok((index as u32, fields))
    }

    fn variant_value(
        &mut self,
        ty: Type,
        variant: &syn::Ident,
        args: VariantArgs<'_>,
        span: Span,
    ) -> R<Handle<Expression>> {
        let (tag, payload) = self.variant_fields(ty, variant)?;
        let Type::Struct(id) = ty else {
            return Err(Reported);
        };
        let def = self.cx.kernel.struct_def(id).cloned().ok_or(Reported)?;
        let given: Vec<(u32, &syn::Expr)> = match args {
            VariantArgs::None => Vec::new(),
            VariantArgs::Tuple(c) => {
                if c.args.len() != payload.len() {
                    return Err(self.error(
                        span,
                        format!("`{}::{variant}` takes {} value(s)", def.name, payload.len()),
                    ));
                }
                payload.iter().map(|(_, i)| *i).zip(c.args.iter()).collect()
            }
            VariantArgs::Named(s) => {
                if let Some(rest) = &s.rest {
                    return Err(self.fail(
                        rest.span(),
                        ErrorKind::unsupported("`..base` is not supported for enum variants"),
                    ));
                }
                let mut out = Vec::new();
                for f in &s.fields {
                    let name = match &f.member {
                        syn::Member::Named(i) => ident_name(i),
                        syn::Member::Unnamed(i) => i.index.to_string(),
                    };
                    match payload.iter().find(|(n, _)| *n == name) {
                        Some((_, i)) => out.push((*i, &f.expr)),
                        None => {
                            return Err(self.error(
                                f.member.span(),
                                format!("`{}::{variant}` has no field `{name}`", def.name),
                            ))
                        }
                    }
                }
                if out.len() != payload.len() {
                    return Err(self.error(
                        span,
                        format!("`{}::{variant}` needs all its fields", def.name),
                    ));
                }
                out
            }
        };
        if matches!(args, VariantArgs::None) && !payload.is_empty() {
            return Err(self.error(
                span,
                format!(
                    "`{}::{variant}` carries values: write `{}::{variant}(..)`",
                    def.name, def.name
                ),
            ));
        }
        let exprs: Vec<&syn::Expr> = given.iter().map(|(_, e)| *e).collect();
        let values = self.operands(&exprs)?;
        let mut components = Vec::new();
        for (i, f) in def.fields.iter().enumerate() {
            let i = i as u32;
            let c = if f.name == FieldName::Tag {
                self.expr(
                    Expr::Literal(Literal::U32(tag)),
                    Ty::Known(Scalar::U32),
                    span,
                )
            } else if let Some(k) = given.iter().position(|(fi, _)| *fi == i) {
                let v = values[k];
                let got = self.ty(v);
                self.unify(Ty::of(f.ty), got, given[k].1.span())?;
                v
            } else {
                self.expr(Expr::Zero(f.ty), Ty::of(f.ty), span)
            };
            components.push(c);
        }
        Ok(self.expr(Expr::Compose { ty, components }, Ty::of(ty), span))
    }

    /// `[a, b, c]`.
    pub(super) fn array_literal(
        &mut self,
        a: &syn::ExprArray,
        expect: Option<Type>,
    ) -> R<Handle<Expression>> {
        let span = a.span();
        if a.elems.is_empty() {
            return Err(self.fail(span, ErrorKind::unsupported("WGSL has no empty arrays")));
        }
        let want = self.expected_elem(expect);
        let exprs: Vec<&syn::Expr> = a.elems.iter().collect();
        let values = self.operands(&exprs)?;
        let mut ty = want.map(Ty::of).unwrap_or_else(|| self.ty(values[0]));
        for (v, e) in values.iter().zip(&exprs) {
            let t = self.ty(*v);
            ty = self.unify(ty, t, e.span())?;
        }
        let elem = self.settle(ty, span)?;
        let array = self.cx.array_type(elem, values.len() as u32);
        Ok(self.expr(
            Expr::Compose {
                ty: array,
                components: values,
            },
            Ty::of(array),
            span,
        ))
    }

    fn expected_elem(&self, expect: Option<Type>) -> Option<Type> {
        match expect? {
            Type::Array(id) => array_def(&self.cx.kernel.types, id).map(|a| a.0),
            _ => None,
        }
    }

    /// The element type an array gets now: an unconstrained `{integer}` becomes `i32` as in
    /// Rust, an unconstrained `{float}` becomes `f32` (the GPU has no `f64`).
    pub(super) fn settle(&mut self, ty: Ty, span: Span) -> R<Type> {
        Ok(match self.infer.shallow(ty) {
            Ty::Compound(t) => t,
            Ty::Known(s) => Type::Scalar(s),
            var @ Ty::Var(_) => {
                let s = match self.infer.kind_of(var) {
                    Some(crate::front::infer::VarKind::Float) => Scalar::F32,
                    _ => Scalar::I32,
                };
                self.unify(var, Ty::Known(s), span)?;
                Type::Scalar(s)
            }
        })
    }

    /// `[v; N]`, at most [`MAX_LOCAL_ARRAY_BYTES`] large.
    pub(super) fn repeat(
        &mut self,
        r: &syn::ExprRepeat,
        expect: Option<Type>,
    ) -> R<Handle<Expression>> {
        let span = r.span();
        let len = self.cx.constant_length(&r.len, "a local array")?;
        let want = self.expected_elem(expect);
        let mut v = self.value_expecting(&r.expr, want)?;
        let mut ty = self.ty(v);
        if let Some(w) = want {
            ty = self.unify(Ty::of(w), ty, r.expr.span())?;
        }
        let elem = self.settle(ty, r.expr.span())?;
        let stride = u64::from(crate::layout::of(&self.cx.kernel.types, elem).stride());
        let bytes = stride * u64::from(len);
        if bytes > MAX_LOCAL_ARRAY_BYTES {
            return Err(self.fail(
                r.len.span(),
                ErrorKind::unsupported(format!(
                    "this local array takes {bytes} bytes in every invocation, over Sarek's \
                     limit of {MAX_LOCAL_ARRAY_BYTES} bytes for an array in a kernel's local \
                     memory (WGSL guarantees only 8192 bytes of it, GPU compilers slow down \
                     long before, and the CPU backend holds one copy per invocation): keep \
                     large data in a buffer parameter (`&mut [T]`), or share it in the \
                     workgroup with `shared::<[T; N]>()`"
                )),
            ));
        }
        let array = self.cx.array_type(elem, len);
        let is_zero = matches!(
            &*r.expr,
            syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(i), .. }) if i.base10_digits() == "0"
        ) || matches!(
            &*r.expr,
            syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Float(f), .. }) if f.base10_parse::<f32>().is_ok_and(|x| x == 0.0 && x.is_sign_positive())
        ) || matches!(&*r.expr, syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Bool(b), .. }) if !b.value)
            || matches!(self.function.exprs[v].kind, Expr::Zero(_));
        if is_zero {
            return Ok(self.expr(Expr::Zero(array), Ty::of(array), span));
        }
        if !self.is_stable(v) || !matches!(self.function.exprs[v].kind, Expr::Literal(_)) {
            v = self.spill(v, None);
        }
        if len <= MAX_INLINE_REPEAT {
            let components = vec![v; len as usize];
            return Ok(self.expr(
                Expr::Compose {
                    ty: array,
                    components,
                },
                Ty::of(array),
                span,
            ));
        }
        // A long repeat: fill a zeroed array in a loop rather than writing N copies.
        let arr = self.new_local("__array", Ty::of(array), true, false, span);
        let zero = self.expr(Expr::Zero(array), Ty::of(array), span);
        self.push(
            Stmt::Let {
                local: arr,
                init: Some(zero),
            },
            span,
        );
        let u32_ty = Ty::Known(Scalar::U32);
        let i = self.new_local("__i", u32_ty, true, false, span);
        let start = self.expr(Expr::Literal(Literal::U32(0)), u32_ty, span);
        self.push(
            Stmt::Let {
                local: i,
                init: Some(start),
            },
            span,
        );
        let read_i = self.read(i, u32_ty, span);
        let end = self.expr(Expr::Literal(Literal::U32(len)), u32_ty, span);
        let cond = self.expr(
            Expr::Binary {
                op: BinaryOp::Lt,
                left: read_i,
                right: end,
            },
            Ty::Known(Scalar::Bool),
            span,
        );
        let exit = self.exit_unless(cond, span);
        let index = self.read(i, u32_ty, span);
        let store_span = self.span(span);
        let store = Statement {
            kind: Stmt::Assign {
                place: Place::Element {
                    base: Box::new(Place::Local(arr)),
                    index,
                },
                op: None,
                value: v,
            },
            span: store_span,
        };
        let one = self.expr(Expr::Literal(Literal::U32(1)), u32_ty, span);
        let inc_span = self.span(span);
        let increment = Statement {
            kind: Stmt::Assign {
                place: Place::Local(i),
                op: Some(BinaryOp::Add),
                value: one,
            },
            span: inc_span,
        };
        self.push(
            Stmt::Loop {
                body: vec![exit, store],
                continuing: vec![increment],
                break_if: None,
            },
            span,
        );
        Ok(self.expr(Expr::Local(arr), Ty::of(array), span))
    }
}

#[derive(Clone, Copy)]
enum VariantArgs<'a> {
    None,
    Tuple(&'a syn::ExprCall),
    Named(&'a syn::ExprStruct),
}
