//! Places: indexing a buffer or workgroup array, and the left side of an assignment
//! (`x = ..`, `x += ..`, `buf[i] = ..`, `s.f[i] = ..`).

use proc_macro2::Span;
use syn::spanned::Spanned;

use crate::arena::Handle;
use crate::front::diagnostic::ErrorKind;
use crate::front::infer::Ty;
use crate::ir::*;

use super::{ident_name, Binding, Element, Lowerer, Reported, Value, R};

impl Lowerer<'_> {
    /// The buffer parameter named by `e` (for `.len()`).
    pub(super) fn slice_param(&mut self, e: &syn::Expr) -> R<ParamId> {
        let span = e.span();
        if let syn::Expr::Path(p) = e {
            if let Some(ident) = p.path.get_ident() {
                if let Some(Binding::Param(id)) = self.lookup(&ident_name(ident)) {
                    if self.cx.kernel.param(id).ty.buffer().is_some() {
                        return Ok(id);
                    }
                }
                return Err(self.error(span, format!("`{ident}` is not a buffer parameter; only `&[T]` and `&mut [T]` parameters have a length")));
            }
        }
        Err(self.error(span, "only buffer parameters have a length: write `name.len()` where `name: &[T]` or `&mut [T]`"))
    }

    /// Resolves `base[i]` or `base[i][j]..` to a buffer or workgroup-array element; `None`
    /// when `base` is neither (a local array, a struct field...).
    pub(super) fn element(&mut self, e: &syn::ExprIndex) -> R<Option<Element>> {
        let mut index_exprs: Vec<&syn::Expr> = vec![&e.index];
        let mut base = &*e.expr;
        loop {
            match base {
                syn::Expr::Index(inner) => {
                    index_exprs.push(&inner.index);
                    base = &inner.expr;
                }
                syn::Expr::Paren(p) => base = &p.expr,
                _ => break,
            }
        }
        index_exprs.reverse();
        for ix in &index_exprs {
            if let syn::Expr::Range(r) = ix {
                return Err(self.fail(
                    r.span(),
                    ErrorKind::unsupported(
                        "sub-slices are not supported in kernels; index single elements",
                    ),
                ));
            }
        }
        let binding = match base {
            syn::Expr::Path(p) => p.path.get_ident().and_then(|i| self.lookup(&ident_name(i))),
            _ => None,
        };
        match binding {
            Some(Binding::Param(id)) if self.cx.kernel.param(id).ty.buffer().is_some() => {
                let ty = self.cx.kernel.param(id).ty;
                let (elem, access) = ty
                    .buffer()
                    .unwrap_or((Type::Scalar(Scalar::U32), Access::Read));
                let atomic = matches!(ty, ParamType::AtomicSlice { .. });
                if index_exprs.len() != 1 {
                    // `buf[i][j]`: an array element of a buffer element.
                    return Ok(None);
                }
                let index = self.value(index_exprs[0])?;
                self.require_index(index, index_exprs[0].span())?;
                Ok(Some(Element::Buffer {
                    slice: id,
                    elem,
                    access,
                    atomic,
                    index,
                }))
            }
            Some(Binding::Shared(var)) => {
                let v = self.cx.kernel.shared_var(var);
                let (elem, atomic, dims) = (v.elem, v.atomic, v.dims.len());
                if index_exprs.len() > dims {
                    return Ok(None);
                }
                if index_exprs.len() != dims {
                    return Err(self.error(
                        e.span(),
                        format!("this workgroup array has {dims} dimension(s); index all of them (`tile[y][x]`) to reach an element"),
                    ));
                }
                let indices = self.operands(&index_exprs)?;
                for (h, ix) in indices.iter().zip(&index_exprs) {
                    self.require_index(*h, ix.span())?;
                }
                Ok(Some(Element::Shared {
                    var,
                    elem,
                    atomic,
                    indices,
                }))
            }
            _ => Ok(None),
        }
    }

    pub(super) fn index(&mut self, i: &syn::ExprIndex) -> R<Handle<Expression>> {
        let span = i.span();
        match self.element(i)? {
            Some(Element::Buffer { atomic: true, .. } | Element::Shared { atomic: true, .. }) => Err(self.error(
                span,
                "an atomic is read with `.load(Ordering::Relaxed)` (or changed with `fetch_add` and friends), not by value",
            )),
            Some(Element::Buffer { slice, elem, index, .. }) => Ok(self.expr(Expr::Index { slice, index }, Ty::of(elem), span)),
            Some(Element::Shared { var, elem, indices, .. }) => {
                Ok(self.expr(Expr::SharedIndex { var, indices }, Ty::of(elem), span))
            }
            None => self.array_access(i),
        }
    }

    pub(super) fn assign(
        &mut self,
        left: &syn::Expr,
        op: Option<BinaryOp>,
        right: &syn::Expr,
        span: Span,
    ) -> R<Value> {
        if op.is_none() {
            if let Some(v) = self.coop_assign(left, right) {
                return v;
            }
        }
        // Rust evaluates the assigned value before the place for primitive types.
        let want = if op.is_none() {
            self.place_type_hint(left)
        } else {
            None
        };
        let mut value = self.value_expecting(right, want)?;
        let value_end = self.block_len();
        let value_ty = self.ty(value);
        let before = self.block_len();
        let (place, place_ty) = self.place(left)?;
        if self.block_len() != before && !self.is_stable(value) {
            value = self.spill(value, Some(value_end));
        }
        match op {
            None => {
                self.unify(place_ty, value_ty, span)?;
            }
            Some(op) => {
                // Reuse the operator's typing on a stand-in read of the place.
                let stand_in = self.expr(Expr::Literal(Literal::Bool(false)), place_ty, span);
                let result = self.binary_type(op, stand_in, value, span)?;
                // `f32 += Vec2` types as `f32 + Vec2`, a `Vec2` that the `f32` cannot hold.
                if let Ty::Compound(t @ Type::Vector(..)) = self.infer.shallow(result) {
                    if self.infer.shallow(place_ty) != Ty::Compound(t) {
                        let (place, value) = (self.describe(place_ty), self.describe(value_ty));
                        let symbol = match op {
                            BinaryOp::Add => "+",
                            BinaryOp::Sub => "-",
                            BinaryOp::Mul => "*",
                            BinaryOp::Div => "/",
                            _ => "%",
                        };
                        return Err(self.error(
                            span,
                            format!("cannot apply `{symbol}=` to a `{place}` and a `{value}`: the result is a `{value}`, which a `{place}` cannot hold"),
                        ));
                    }
                }
            }
        }
        self.push(Stmt::Assign { place, op, value }, span);
        Ok(Value::Unit)
    }

    /// The place an assignment writes, and its type.
    pub(super) fn place(&mut self, left: &syn::Expr) -> R<(Place, Ty)> {
        match left {
            syn::Expr::Path(p) if p.path.get_ident().is_some() => {
                let ident = p.path.get_ident().expect("checked");
                match self.lookup(&ident_name(ident)) {
                    Some(Binding::Local(l)) => {
                        self.function.locals[l].mutable = true;
                        self.local_stable[l.index()] = false;
                        Ok((Place::Local(l), self.local_tys[l.index()]))
                    }
                    Some(Binding::Param(_)) => Err(self.error(
                        left.span(),
                        "kernel parameters cannot be assigned; copy into a `let mut` first",
                    )),
                    Some(Binding::Shared(_)) => Err(self.error(
                        left.span(),
                        "assign to an element of a workgroup array: `tile[i] = ..`",
                    )),
                    Some(Binding::Coop(_)) => Err(self.error(
                        left.span(),
                        "a cooperative matrix is assigned only a whole new matrix: `m = a.multiply_add(b, m);`",
                    )),
                    Some(Binding::Const(_)) => {
                        Err(self.error(left.span(), "a `const` cannot be assigned; use a `let mut`"))
                    }
                    Some(Binding::Failed) => Err(Reported),
                    Some(Binding::Counter(..)) => Err(self.error(left.span(), "a `for` loop's counter cannot be assigned; copy it into a `let mut`")),
                    None => Err(self.error(left.span(), format!("cannot find `{ident}` in this kernel"))),
                }
            }
            syn::Expr::Index(i) => match self.element(i)? {
                Some(Element::Buffer { atomic: true, .. } | Element::Shared { atomic: true, .. }) => {
                    Err(self.error(left.span(), "an atomic is written with `.store(value, Ordering::Relaxed)`, not by assignment"))
                }
                Some(Element::Buffer { access: Access::Read, .. }) => {
                    Err(self.error(i.expr.span(), "this buffer is read-only (`&[T]`); declare the parameter `&mut [T]` to write to it"))
                }
                Some(Element::Buffer { slice, elem, index, .. }) => Ok((Place::Index { slice, index }, Ty::of(elem))),
                Some(Element::Shared { var, .. }) if self.helper.as_ref().is_some_and(|h| h.reads_only(var)) => {
                    Err(self.error(i.expr.span(), "this workgroup array is borrowed read-only (`&[T; N]`); declare the parameter `&mut [T; N]` to write to it"))
                }
                Some(Element::Shared { var, elem, indices, .. }) => Ok((Place::Shared { var, indices }, Ty::of(elem))),
                None => {
                    let (base, base_ty) = self.place(&i.expr)?;
                    let index = self.value(&i.index)?;
                    self.require_index(index, i.index.span())?;
                    let elem = self.array_elem(base_ty, i.expr.span())?;
                    Ok((Place::Element { base: Box::new(base), index }, Ty::of(elem)))
                }
            },
            syn::Expr::Field(f) => {
                let (base, base_ty) = self.place(&f.base)?;
                let (field, ty) = self.field_of(base_ty, &f.member, f.member.span())?;
                Ok((Place::Field { base: Box::new(base), field }, Ty::of(ty)))
            }
            syn::Expr::Paren(p) => self.place(&p.expr),
            _ => Err(self.error(
                left.span(),
                "only a variable, a field or an element (`x`, `p.x`, `x[i]`) can be assigned",
            )),
        }
    }
}
