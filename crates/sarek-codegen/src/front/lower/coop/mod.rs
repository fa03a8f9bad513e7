//! Cooperative matrices (`sarek::gpu::CoopMatrix<T, N, Role>`, WGSL's experimental
//! `wgpu_cooperative_matrix`): a matrix is bound to a name by `let` and changed only by
//! assigning it a new matrix, so each name is one matrix variable ([`CoopMatrix::id`]) and
//! each operation one [`Stmt::Coop`]:
//!
//! ```text
//! let mut acc = CoopMatrix::<f32, 16, C>::zeros();        Zero
//! let a = CoopMatrix::<f32, 16, A>::load_rows(&x, o, s);   Load (row-major)
//! acc = a.multiply_add(b, acc);                            MultiplyAdd
//! acc.store_rows(&mut y, o, s);                            Store
//! ```
//!
//! An array of matrices is one variable too, [`CoopMatrix::len`] of them, and `m[i]` names
//! element `i` ([`CoopMatrix::index`]) wherever a matrix name can stand, so a kernel can loop
//! over its tiles:
//!
//! ```text
//! let mut acc = [CoopMatrix::<f32, 16, C>::zeros(); 4];    Zero of each element
//! for j in 0..4 {
//!     acc[j] = a.multiply_add(b[j], acc[j]);               MultiplyAdd, indexed
//! }
//! ```
//!
//! Shapes and element types are checked here against what WGSL has (8×8 and 16×16; `f32`,
//! and `f16` where the kernel has it); the device's own shapes are checked at launch.

use proc_macro2::Span;
use syn::spanned::Spanned;

use crate::ir::*;

mod arrays;

use super::{Binding, Lowerer, Value, R};

use arrays::is_coop_array_type;

/// The type of a matrix variable, before it has a number.
#[derive(Clone, Copy, PartialEq)]
struct CoopType {
    size: u32,
    scalar: Scalar,
    role: CoopRole,
}

/// Where a matrix expression's value goes: a variable, or an element of an array variable.
#[derive(Clone, Copy)]
struct Slot {
    id: u32,
    len: u32,
    index: Option<crate::arena::Handle<Expression>>,
}

impl Slot {
    fn of(m: CoopMatrix) -> Slot {
        Slot {
            id: m.id,
            len: m.len,
            index: m.index,
        }
    }
}

impl CoopType {
    fn at(self, slot: Slot) -> CoopMatrix {
        CoopMatrix {
            id: slot.id,
            len: slot.len,
            index: slot.index,
            size: self.size,
            scalar: self.scalar,
            role: self.role,
        }
    }

    fn of(m: CoopMatrix) -> CoopType {
        CoopType {
            size: m.size,
            scalar: m.scalar,
            role: m.role,
        }
    }

    fn rust(self) -> String {
        format!(
            "CoopMatrix<{}, {}, {}>",
            self.scalar.rust_name(),
            self.size,
            self.role.name()
        )
    }
}

/// The matrix operations a method call can be.
const METHODS: [&str; 3] = ["multiply_add", "store_rows", "store_columns"];

/// Whether `path` names the `CoopMatrix` type (with or without a module path).
fn coop_segment(path: &syn::Path) -> Option<&syn::PathSegment> {
    path.segments.iter().find(|s| s.ident == "CoopMatrix")
}

/// Whether `ty` is a `CoopMatrix<..>` type.
pub(super) fn names_coop_matrix(ty: &syn::Type) -> bool {
    matches!(ty, syn::Type::Path(p) if coop_segment(&p.path).is_some())
}

/// Why a helper neither takes nor returns a matrix, and what to write instead.
pub(super) const NOT_PASSED: &str = "a cooperative matrix is a variable of the function that declares it, so it cannot be passed to or returned from a helper (Sarek's IR has no matrix values); pass the helper the buffers or workgroup arrays its matrices load from and store to (`&[f16]`, `&mut [f32; N]`), and load, multiply-add and store the matrices inside the helper";

/// Strips `&`, `&mut`, `*` and parentheses from a memory argument.
fn memory_name(e: &syn::Expr) -> Option<&syn::Ident> {
    match e {
        syn::Expr::Reference(r) => memory_name(&r.expr),
        syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) => memory_name(&u.expr),
        syn::Expr::Paren(p) => memory_name(&p.expr),
        syn::Expr::Path(p) => p.path.get_ident(),
        _ => None,
    }
}

/// The element types a matrix of `scalar` loads from and stores to, as a diagnostic lists
/// them: the scalar and its 2- and 4-wide vectors (`f16`, `F16Vec2` or `F16Vec4`).
fn memory_types(scalar: Scalar) -> String {
    format!(
        "`{}`, `{}` or `{}`",
        scalar.rust_name(),
        vector_name(2, scalar),
        vector_name(4, scalar)
    )
}

impl Lowerer<'_> {
    /// A number for a new matrix variable: one more than any the function uses, and than
    /// any given in another function of the kernel (helpers and their callers never share
    /// one).
    fn next_coop_id(&mut self) -> u32 {
        let blocks = std::iter::once(&self.function.body).chain(&self.blocks);
        let id = crate::ir::first_free_matrix(blocks).max(self.cx.coop_ids);
        self.cx.coop_ids = id + 1;
        id
    }

    /// Whether `e` is a matrix expression: a `CoopMatrix::..` call or a `multiply_add`.
    fn is_coop_expr(&self, e: &syn::Expr) -> bool {
        match e {
            syn::Expr::Call(c) => {
                matches!(&*c.func, syn::Expr::Path(p) if coop_segment(&p.path).is_some())
            }
            syn::Expr::MethodCall(m) => m.method == "multiply_add",
            syn::Expr::Paren(p) => self.is_coop_expr(&p.expr),
            _ => false,
        }
    }

    /// The matrix variable `e` names, if it is a name bound to one (or to an array of them).
    fn coop_binding(&self, e: &syn::Expr) -> Option<CoopMatrix> {
        let syn::Expr::Path(p) = e else { return None };
        match self.lookup(&super::ident_name(p.path.get_ident()?)) {
            Some(Binding::Coop(m)) => Some(m),
            _ => None,
        }
    }

    /// The matrix `e` names, if it names one: a name bound to a matrix, or an element `m[i]`
    /// of an array of them (its index lowered here, `u32`). A whole array is refused.
    fn coop_operand(&mut self, e: &syn::Expr) -> Option<R<CoopMatrix>> {
        match e {
            syn::Expr::Paren(p) => self.coop_operand(&p.expr),
            syn::Expr::Index(ix) => {
                let array = self.coop_binding(&ix.expr)?;
                Some(self.coop_element(array, ix))
            }
            _ => {
                let m = self.coop_binding(e)?;
                if m.is_array() {
                    return Some(Err(self.error(
                        e.span(),
                        format!(
                            "this is an array of {} cooperative matrices; name one of them: `{}[i]`",
                            m.len,
                            quote::ToTokens::to_token_stream(e)
                        ),
                    )));
                }
                Some(Ok(m))
            }
        }
    }

    /// `let m = <matrix expression>;` (with an optional `CoopMatrix<..>` annotation), if the
    /// `let` binds a matrix.
    pub(super) fn coop_let(&mut self, local: &syn::Local) -> Option<R<Value>> {
        let (pat, annotation) = match &local.pat {
            syn::Pat::Type(t) => (&*t.pat, Some(&*t.ty)),
            other => (other, None),
        };
        let annotated =
            matches!(annotation, Some(syn::Type::Path(p)) if coop_segment(&p.path).is_some());
        let init = local.init.as_ref().map(|i| &*i.expr);
        if is_coop_array_type(annotation) || init.is_some_and(|e| self.is_coop_array_expr(e)) {
            return Some(self.coop_array_let(local, pat, annotation, init));
        }
        if !annotated && !init.is_some_and(|e| self.is_coop_expr(e)) {
            return None;
        }
        Some(self.coop_let_inner(local, pat, annotation, init))
    }

    fn coop_let_inner(
        &mut self,
        local: &syn::Local,
        pat: &syn::Pat,
        annotation: Option<&syn::Type>,
        init: Option<&syn::Expr>,
    ) -> R<Value> {
        let syn::Pat::Ident(ident) = pat else {
            return Err(self.error(
                pat.span(),
                "bind a cooperative matrix to a name: `let m = CoopMatrix::<..>::zeros();`",
            ));
        };
        let Some(init) = init else {
            return Err(self.error(local.span(), "give the matrix its value where it is declared: `let m = CoopMatrix::<f32, 16, C>::zeros();`"));
        };
        let expected = match annotation {
            Some(syn::Type::Path(p)) => match coop_segment(&p.path) {
                Some(seg) => Some(self.coop_type(seg, p.span())?),
                None => None,
            },
            _ => None,
        };
        let id = self.next_coop_id();
        let slot = Slot {
            id,
            len: 0,
            index: None,
        };
        let ty = self.coop_value(init, expected, slot)?;
        self.bind(super::ident_name(&ident.ident), Binding::Coop(ty.at(slot)));
        Ok(Value::Unit)
    }

    /// `m = <matrix expression>;` for a name `m` bound to a matrix, or `m[i] = ..` for an
    /// element of an array of them.
    pub(super) fn coop_assign(&mut self, left: &syn::Expr, right: &syn::Expr) -> Option<R<Value>> {
        let target = match self.coop_operand(left)? {
            Ok(t) => t,
            Err(e) => return Some(Err(e)),
        };
        Some(
            self.coop_value(right, Some(CoopType::of(target)), Slot::of(target))
                .map(|_| Value::Unit),
        )
    }

    /// Lowers the matrix expression `e` into `slot`; returns its type, which must be
    /// `expected` where one is given.
    fn coop_value(&mut self, e: &syn::Expr, expected: Option<CoopType>, slot: Slot) -> R<CoopType> {
        let span = e.span();
        let ty = match e {
            syn::Expr::Paren(p) => return self.coop_value(&p.expr, expected, slot),
            syn::Expr::Call(c) => self.coop_constructor(c, expected, slot)?,
            syn::Expr::MethodCall(m) if m.method == "multiply_add" => {
                self.coop_multiply_add(m, slot)?
            }
            _ if self.coop_binding(e).is_some()
                || matches!(e, syn::Expr::Index(ix) if self.coop_binding(&ix.expr).is_some()) =>
            {
                return Err(self.error(span, "a cooperative matrix cannot be copied into another name; load it again, or keep using the one name"));
            }
            _ => {
                return Err(self.error(span, "a cooperative matrix gets its value from `CoopMatrix::zeros()`, `CoopMatrix::load_rows(..)`, `CoopMatrix::load_columns(..)` or `a.multiply_add(b, c)`"));
            }
        };
        if let Some(want) = expected {
            if want != ty {
                return Err(self.error(
                    span,
                    format!(
                        "mismatched cooperative matrix types: expected `{}`, found `{}`",
                        want.rust(),
                        ty.rust()
                    ),
                ));
            }
        }
        Ok(ty)
    }

    /// The type `CoopMatrix<T, N, Role>` written in `seg`'s generic arguments.
    fn coop_type(&mut self, seg: &syn::PathSegment, span: Span) -> R<CoopType> {
        let syn::PathArguments::AngleBracketed(args) = &seg.arguments else {
            return Err(self.error(span, "name the matrix type: `CoopMatrix::<f32, 16, C>`"));
        };
        let args: Vec<&syn::GenericArgument> = args.args.iter().collect();
        let [scalar, size, role] = args[..] else {
            return Err(self.error(
                seg.span(),
                "`CoopMatrix` takes three arguments: the element type, the size (8 or 16) and the role (`A`, `B` or `C`): `CoopMatrix<f32, 16, C>`",
            ));
        };
        let scalar = match scalar {
            syn::GenericArgument::Type(t) => match self.cx.resolve_type(t)? {
                Type::Scalar(s) if crate::features::CoopScalar::of(s).is_some() => s,
                _ => {
                    return Err(self.error(t.span(), "cooperative matrices hold `f16` or `f32` (WGSL's extension has no other element type); declare it `CoopMatrix<f32, ..>` or `CoopMatrix<f16, ..>` and convert the data to that type"))
                }
            },
            other => return Err(self.error(other.span(), "the first argument of `CoopMatrix` is the element type, `f16` or `f32`: `CoopMatrix<f32, 16, C>`")),
        };
        let size = match size {
            syn::GenericArgument::Const(e) => self.cx.constant_length(e, "a matrix size")?,
            syn::GenericArgument::Type(syn::Type::Path(p)) if p.path.get_ident().is_some() => {
                let e: syn::Expr = syn::parse_quote!(#p);
                self.cx.constant_length(&e, "a matrix size")?
            }
            other => {
                return Err(self.error(
                    other.span(),
                    "the second argument of `CoopMatrix` is its size, 8 or 16 (a literal or a constant): `CoopMatrix<f32, 16, C>`",
                ))
            }
        };
        if !COOP_SIZES.contains(&size) {
            return Err(self.error(args[1].span(), format!("WGSL's cooperative matrices are 8×8 or 16×16 (`coop_mat8x8`, `coop_mat16x16`), not {size}×{size}; declare it `CoopMatrix<T, 8, ..>` or `CoopMatrix<T, 16, ..>` and cover a larger tile with several matrices")));
        }
        let role = match role {
            syn::GenericArgument::Type(syn::Type::Path(p)) => {
                match p
                    .path
                    .segments
                    .last()
                    .map(|s| s.ident.to_string())
                    .as_deref()
                {
                    Some("A") => Some(CoopRole::A),
                    Some("B") => Some(CoopRole::B),
                    Some("C") => Some(CoopRole::C),
                    _ => None,
                }
            }
            _ => None,
        };
        let Some(role) = role else {
            return Err(self.error(
                args[2].span(),
                "the third argument of `CoopMatrix` is its role: `sarek::coop::A`, `B` or `C`",
            ));
        };
        Ok(CoopType { size, scalar, role })
    }

    /// `CoopMatrix::<..>::zeros()`, `::load_rows(src, offset, stride)` or `::load_columns`.
    fn coop_constructor(
        &mut self,
        c: &syn::ExprCall,
        expected: Option<CoopType>,
        slot: Slot,
    ) -> R<CoopType> {
        let span = c.span();
        let syn::Expr::Path(p) = &*c.func else {
            return Err(self.error(span, "expected `CoopMatrix::<T, N, Role>::zeros()`, `::load_rows(&x, offset, stride)` or `::load_columns(&x, offset, stride)`"));
        };
        let Some(seg) = coop_segment(&p.path) else {
            return Err(self.error(span, "expected `CoopMatrix::<T, N, Role>::zeros()`, `::load_rows(&x, offset, stride)` or `::load_columns(&x, offset, stride)`"));
        };
        let ty = if matches!(seg.arguments, syn::PathArguments::None) {
            match expected {
                Some(t) => t,
                None => {
                    return Err(self.error(
                        p.span(),
                        "name the matrix type: `CoopMatrix::<f32, 16, C>::zeros()`",
                    ))
                }
            }
        } else {
            self.coop_type(seg, p.span())?
        };
        let function = p
            .path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default();
        let dst = ty.at(slot);
        match function.as_str() {
            "zeros" => {
                if !c.args.is_empty() {
                    return Err(self.error(
                        c.args.span(),
                        "`zeros` takes no arguments: `CoopMatrix::<f32, 16, C>::zeros()`",
                    ));
                }
                self.push(Stmt::Coop(CoopOp::Zero { dst }), span);
            }
            "load_rows" | "load_columns" => {
                let args: Vec<&syn::Expr> = c.args.iter().collect();
                let [src, offset, stride] = args[..] else {
                    return Err(self.error(span, format!("`{function}` takes the buffer or workgroup array, the index of element (0, 0) and the stride: `{function}(&x, offset, stride)`")));
                };
                let memory = self.coop_memory(src, ty.scalar, false)?;
                let (offset, stride) = self.coop_index(offset, stride)?;
                let layout = if function == "load_rows" {
                    CoopLayout::Rows
                } else {
                    CoopLayout::Columns
                };
                self.push(
                    Stmt::Coop(CoopOp::Load {
                        dst,
                        memory,
                        offset,
                        stride,
                        layout,
                    }),
                    span,
                );
            }
            other => {
                return Err(self.error(span, format!("`CoopMatrix::{other}` is not a cooperative-matrix operation; use `zeros`, `load_rows` or `load_columns`")));
            }
        }
        Ok(ty)
    }

    /// The offset and stride of a load or store, both `usize` (or `u32`).
    fn coop_index(
        &mut self,
        offset: &syn::Expr,
        stride: &syn::Expr,
    ) -> R<(
        crate::arena::Handle<Expression>,
        crate::arena::Handle<Expression>,
    )> {
        let o = self.value(offset)?;
        self.require(o, Scalar::U32, offset.span())?;
        let s = self.value(stride)?;
        self.require(s, Scalar::U32, stride.span())?;
        Ok((o, s))
    }

    /// The buffer or workgroup array a load reads or a store (`write`) writes: its elements
    /// must be the matrix's `scalar` or 2- or 4-wide vectors of it.
    fn coop_memory(&mut self, e: &syn::Expr, scalar: Scalar, write: bool) -> R<CoopMemory> {
        let accepted = memory_types(scalar);
        let t = scalar.rust_name();
        let want = format!(
            "a buffer parameter (`&[{t}]`, `&mut [{t}]`) or a one-dimensional, non-atomic \
             workgroup array (`shared::<[{t}; N]>()`) named directly; its elements are {accepted}"
        );
        let Some(ident) = memory_name(e) else {
            return Err(self.error(e.span(), format!("expected {want}")));
        };
        let (memory, elem, writable) = match self.lookup(&super::ident_name(ident)) {
            Some(Binding::Param(id)) => match self.cx.kernel.param(id).ty {
                ParamType::Slice { elem, access } => {
                    (CoopMemory::Buffer(id), elem, access == Access::ReadWrite)
                }
                _ => return Err(self.error(e.span(), format!("expected {want}"))),
            },
            Some(Binding::Shared(id)) => {
                let v = self.cx.kernel.shared_var(id);
                // An array sized at launch has no length the proof of the load could use.
                if v.atomic || v.dims.len() != 1 || v.sized_by.is_some() {
                    return Err(self.error(e.span(), format!("expected {want}")));
                }
                (CoopMemory::Shared(id), v.elem, true)
            }
            _ => return Err(self.error(e.span(), format!("expected {want}"))),
        };
        // A workgroup array or buffer of 2- or 4-wide vectors of the scalar (`[F16Vec4; N]`)
        // is read and written as its scalars in order, offset and stride counted in vectors
        // (WGSL's `coopLoadT(&v[i], stride)` on an array of `vec4<f16>`): a tile staged as
        // whole vectors (one 8-byte store for four halves) feeds the matrix loads directly.
        let vector_of_scalar = matches!(elem, Type::Vector(2 | 4, s) if s == scalar);
        if elem != Type::Scalar(scalar) && !vector_of_scalar {
            let found = type_name(&self.cx.kernel.types, elem);
            // Memory a matrix of another element type could use: say to declare that one.
            let advice = match elem {
                Type::Scalar(s) | Type::Vector(2 | 4, s)
                    if crate::features::CoopScalar::of(s).is_some() =>
                {
                    format!(
                        "declare the matrix `CoopMatrix<{}, ..>` to use this memory as it is",
                        s.rust_name()
                    )
                }
                _ => format!("convert the data to `{t}` first"),
            };
            return Err(self.error(
                e.span(),
                format!(
                    "this matrix holds `{t}`, so it loads from and stores to memory of {accepted} \
                     (a vector is read as its scalars in order, offset and stride counted in \
                     vectors), not of `{found}`; pass memory of one of those, or {advice}"
                ),
            ));
        }
        if write && !writable {
            let found = type_name(&self.cx.kernel.types, elem);
            return Err(self.error(
                e.span(),
                format!(
                    "a matrix is stored into a `&mut [T]` buffer or a workgroup array, and this \
                     buffer is read-only; declare the parameter `&mut [{found}]`"
                ),
            ));
        }
        Ok(memory)
    }

    /// `a.multiply_add(b, c)` into `slot`.
    fn coop_multiply_add(&mut self, m: &syn::ExprMethodCall, slot: Slot) -> R<CoopType> {
        let span = m.span();
        let args: Vec<&syn::Expr> = m.args.iter().collect();
        let [b, c] = args[..] else {
            return Err(self.error(
                span,
                "`multiply_add` takes B and C: `a.multiply_add(b, c)` is `a * b + c`",
            ));
        };
        let mut operands = Vec::new();
        for (e, role) in [
            (&*m.receiver, CoopRole::A),
            (b, CoopRole::B),
            (c, CoopRole::C),
        ] {
            let Some(matrix) = self.coop_operand(e) else {
                return Err(self.error(
                    e.span(),
                    "the operands of `multiply_add` are names bound to cooperative matrices (or elements `m[i]` of arrays of them); bind this one with `let` first (`let b = CoopMatrix::<f32, 16, B>::load_rows(&x, offset, stride);`) and pass the name",
                ));
            };
            let matrix = matrix?;
            if matrix.role != role {
                return Err(self.error(
                    e.span(),
                    format!(
                        "this operand of `multiply_add` has role {}, not {}: `a.multiply_add(b, c)` is `a * b + c` and takes a matrix of role A, then B, then C (`CoopMatrix<T, N, {}>` here)",
                        matrix.role.name(),
                        role.name(),
                        role.name()
                    ),
                ));
            }
            operands.push(matrix);
        }
        let (a, b, c) = (operands[0], operands[1], operands[2]);
        if a.size != b.size || a.size != c.size {
            return Err(self.error(
                span,
                format!(
                    "the matrices of `multiply_add` have one size, but A is {0}×{0}, B {1}×{1} and C {2}×{2}; declare all three 8×8 or all three 16×16",
                    a.size, b.size, c.size
                ),
            ));
        }
        if a.scalar != b.scalar {
            return Err(self.error(
                span,
                format!(
                    "A and B of `multiply_add` hold one element type, but A holds `{}` and B `{}`; declare both `CoopMatrix<f16, ..>` or both `CoopMatrix<f32, ..>` (C may hold `f32` while A and B hold `f16`)",
                    a.scalar.rust_name(),
                    b.scalar.rust_name()
                ),
            ));
        }
        let dst = CoopType::of(c).at(slot);
        self.push(Stmt::Coop(CoopOp::MultiplyAdd { dst, a, b, c }), span);
        Ok(CoopType::of(c))
    }

    /// A method call on a matrix (`m.store_rows(..)`, `m.store_columns(..)`), or a
    /// `multiply_add` whose result is not bound.
    pub(super) fn coop_method(&mut self, m: &syn::ExprMethodCall) -> Option<R<Value>> {
        let name = m.method.to_string();
        if !METHODS.contains(&name.as_str()) {
            return None;
        }
        let matrix = match self.coop_operand(&m.receiver)? {
            Ok(matrix) => matrix,
            Err(e) => return Some(Err(e)),
        };
        Some(self.coop_method_inner(m, matrix, &name))
    }

    fn coop_method_inner(
        &mut self,
        m: &syn::ExprMethodCall,
        src: CoopMatrix,
        name: &str,
    ) -> R<Value> {
        let span = m.span();
        if name == "multiply_add" {
            return Err(self.error(
                span,
                "bind the result of `multiply_add` to a matrix: `acc = a.multiply_add(b, acc);`",
            ));
        }
        let args: Vec<&syn::Expr> = m.args.iter().collect();
        let [dst, offset, stride] = args[..] else {
            return Err(self.error(span, format!("`{name}` takes the buffer or workgroup array, the index of element (0, 0) and the stride: `m.{name}(&mut y, offset, stride)`")));
        };
        let memory = self.coop_memory(dst, src.scalar, true)?;
        let (offset, stride) = self.coop_index(offset, stride)?;
        let layout = if name == "store_rows" {
            CoopLayout::Rows
        } else {
            CoopLayout::Columns
        };
        self.push(
            Stmt::Coop(CoopOp::Store {
                src,
                memory,
                offset,
                stride,
                layout,
            }),
            span,
        );
        Ok(Value::Unit)
    }
}

#[cfg(test)]
mod tests {
    use quote::quote;

    /// The compile errors of a kernel with `body`, as text.
    pub(super) fn errors(
        params: proc_macro2::TokenStream,
        body: proc_macro2::TokenStream,
    ) -> String {
        let item = quote!(fn k(#params) { #body });
        let out = crate::front::expand_kernel(quote!(workgroup_size = [32]), item);
        out.to_string()
    }

    #[test]
    fn a_divergent_operation_is_refused_at_the_condition_and_the_call() {
        let text = errors(
            quote!(x: &[f32], z: &mut [f32]),
            quote! {
                let mut acc = CoopMatrix::<f32, 16, C>::zeros();
                if x[thread_idx_x()] > 0.0 {
                    acc = CoopMatrix::<f32, 16, C>::load_rows(x, 0, 16);
                }
                acc.store_rows(z, 0, 16);
            },
        );
        assert!(
            text.contains("this condition can differ between the threads"),
            "{text}"
        );
        assert!(
            text.contains("this `CoopMatrix::load_rows()` is not reached by every thread"),
            "{text}"
        );
    }

    #[test]
    fn shapes_element_types_and_roles_are_checked() {
        let text = errors(
            quote!(x: &[f32], y: &[u32], z: &[f32]),
            quote! {
                let a = CoopMatrix::<f32, 12, A>::load_rows(x, 0, 12);
                let b = CoopMatrix::<u32, 16, B>::zeros();
                let a2 = CoopMatrix::<f32, 16, A>::load_rows(y, 0, 16);
                let b2 = CoopMatrix::<f32, 16, B>::load_rows(x, 0, 16);
                let c = CoopMatrix::<f32, 16, C>::zeros();
                let wrong = b2.multiply_add(b2, c);
                c.store_rows(z, 0, 16);
            },
        );
        for want in [
            "WGSL's cooperative matrices are 8×8 or 16×16",
            "cooperative matrices hold `f16` or `f32`",
            "this matrix holds `f32`, so it loads from and stores to memory of `f32`, `Vec2` or `Vec4`",
            "not of `u32`; pass memory of one of those, or convert the data to `f32` first",
            "this operand of `multiply_add` has role B, not A",
            "this buffer is read-only; declare the parameter `&mut [f32]`",
        ] {
            assert!(text.contains(want), "{want}: {text}");
        }
    }

    #[test]
    fn a_valid_kernel_compiles_to_the_extension() {
        let text = errors(
            quote!(x: &[f32], z: &mut [f32]),
            quote! {
                let a = CoopMatrix::<f32, 16, A>::load_rows(x, 0, 16);
                let b = CoopMatrix::<f32, 16, B>::load_columns(x, 256, 16);
                let mut c = CoopMatrix::<f32, 16, C>::zeros();
                c = a.multiply_add(b, c);
                c.store_rows(z, 0, 16);
            },
        );
        assert!(!text.contains("compile_error"), "{text}");
        assert!(text.contains("enable wgpu_cooperative_matrix;"), "{text}");
        assert!(text.contains("coopMultiplyAdd"), "{text}");
    }

    /// Memory of 4-wide vectors of the matrix's scalar (a buffer or a workgroup array of
    /// `F16Vec4`) is loaded from and stored to with the pointer to a vector, naga-valid; a
    /// vector of another scalar is refused as a scalar of it is.
    #[test]
    fn vectors_of_the_matrix_scalar_are_memory_for_it() {
        let text = errors(
            quote!(x: &[F16Vec4], z: &mut [f32]),
            quote! {
                let s = shared::<[F16Vec4; 1024]>();
                let a = CoopMatrix::<f16, 16, A>::load_rows(x, 0, 8);
                a.store_rows(s, 4, 8);
                let b = CoopMatrix::<f16, 16, B>::load_columns(s, 4, 8);
                let mut c = CoopMatrix::<f32, 16, C>::zeros();
                c = a.multiply_add(b, c);
                c.store_rows(z, 0, 16);
            },
        );
        assert!(!text.contains("compile_error"), "{text}");
        assert!(text.contains("vec4<f16>, 1024>"), "{text}");
        assert!(
            text.contains("coopLoadT<coop_mat16x16<f16, A>>(&x["),
            "{text}"
        );
        assert!(
            text.contains("coopLoad<coop_mat16x16<f16, B>>(&s["),
            "{text}"
        );
        // The same holds for an `f32` matrix and `Vec2`/`Vec4` memory, as the refusal says.
        let text = errors(
            quote!(x: &[Vec4], z: &mut [Vec2]),
            quote! {
                let a = CoopMatrix::<f32, 16, A>::load_rows(x, 0, 4);
                let b = CoopMatrix::<f32, 16, B>::load_columns(x, 64, 4);
                let mut c = CoopMatrix::<f32, 16, C>::zeros();
                c = a.multiply_add(b, c);
                c.store_rows(z, 0, 8);
            },
        );
        assert!(!text.contains("compile_error"), "{text}");
        let text = errors(
            quote!(y: &[UVec4], z: &mut [f32]),
            quote! {
                let a = CoopMatrix::<f16, 16, A>::load_rows(y, 0, 8);
                let b = CoopMatrix::<f16, 16, B>::load_rows(y, 0, 8);
                let mut c = CoopMatrix::<f32, 16, C>::zeros();
                c = a.multiply_add(b, c);
                c.store_rows(z, 0, 16);
            },
        );
        assert!(
            text.contains("this matrix holds `f16`, so it loads from and stores to memory of `f16`, `F16Vec2` or `F16Vec4`"),
            "{text}"
        );
        assert!(text.contains("convert the data to `f16` first"), "{text}");
        // Memory another matrix type could use: the refusal names that type.
        let text = errors(
            quote!(x: &[F16Vec4], z: &mut [f32]),
            quote! {
                let c = CoopMatrix::<f32, 16, C>::load_rows(x, 0, 4);
                c.store_rows(z, 0, 16);
            },
        );
        assert!(
            text.contains("not of `F16Vec4`; pass memory of one of those, or declare the matrix `CoopMatrix<f16, ..>` to use this memory as it is"),
            "{text}"
        );
    }

    /// In a kernel with cooperative matrices every workgroup array takes a whole number of 16
    /// bytes (a one-`u32` flag beside a matrix's memory made NVIDIA's driver compute wrong
    /// products); a kernel without them declares its arrays as written.
    #[test]
    fn workgroup_arrays_beside_matrices_take_whole_sixteen_bytes() {
        let text = errors(
            quote!(x: &[f16], z: &mut [f32]),
            quote! {
                let s = shared::<[f16; 256]>();
                let flag = shared::<[u32; 1]>();
                let odd = shared::<[f16; 3]>();
                let t = thread_idx_x();
                if t == 0 {
                    flag[0] = 1;
                    odd[2] = x[0];
                }
                s[t] = x[t];
                block_barrier();
                let a = CoopMatrix::<f16, 16, A>::load_rows(s, 0, 16);
                let b = CoopMatrix::<f16, 16, B>::load_rows(s, 0, 16);
                let mut c = CoopMatrix::<f32, 16, C>::zeros();
                c = a.multiply_add(b, c);
                c.store_rows(z, 0, 16);
                z[t] += f32::from(odd[2]) + flag[0] as f32;
            },
        );
        assert!(!text.contains("compile_error"), "{text}");
        assert!(text.contains("array<u32, 4>"), "{text}");
        assert!(text.contains("array<f16, 8>"), "{text}");
        assert!(text.contains("array<f16, 256>"), "{text}");
        let plain = errors(
            quote!(z: &mut [u32]),
            quote! {
                let flag = shared::<[u32; 1]>();
                flag[0] = 1;
                block_barrier();
                z[0] = flag[0];
            },
        );
        assert!(plain.contains("array<u32, 1>"), "{plain}");
    }

    /// `&&` and `||` of uniform values keep the control flow uniform: a barrier and matrix
    /// operations under them compile (naga counts its own lowering of `&&` as divergent, so
    /// the WGSL says `&` where the right side reads no memory); a right side that indexes
    /// memory keeps `&&`.
    #[test]
    fn uniform_conditions_joined_by_and_keep_matrices_and_barriers() {
        let text = errors(
            quote!(x: &[f16], z: &mut [f32], mode: u32, n: u32),
            quote! {
                if mode != 3 && mode != 5 || n == 0 {
                    block_barrier();
                    let a = CoopMatrix::<f16, 16, A>::load_rows(x, 0, 16);
                    let b = CoopMatrix::<f16, 16, B>::load_rows(x, 0, 16);
                    let mut c = CoopMatrix::<f32, 16, C>::zeros();
                    c = a.multiply_add(b, c);
                    c.store_rows(z, 0, 16);
                }
                let i = thread_idx_x();
                if i < z.len() && z[i] > 0.0 {
                    z[i] = 1.0;
                }
            },
        );
        assert!(!text.contains("compile_error"), "{text}");
        assert!(text.contains("u) & ("), "{text}");
        assert!(text.contains(") | ("), "{text}");
        assert!(text.contains(") && ("), "{text}");
        // Without a barrier or matrix operation, nothing needs uniform flow: `&&` stays.
        let plain = errors(
            quote!(z: &mut [f32], mode: u32, n: u32),
            quote! {
                if mode != 3 && n > 0 {
                    z[0] = 1.0;
                }
            },
        );
        assert!(plain.contains("u) && ("), "{plain}");
        assert!(!plain.contains(") & ("), "{plain}");
    }

    /// A matrix made where a value is expected is refused with what to write, not as a call
    /// the GPU cannot make.
    #[test]
    fn a_matrix_made_inside_an_expression_says_to_bind_it() {
        let text = errors(
            quote!(x: &[f16], z: &mut [f32], mode: u32),
            quote! {
                let a = CoopMatrix::<f16, 16, A>::load_rows(x, 0, 16);
                let b = if mode == 1 {
                    CoopMatrix::<f16, 16, B>::load_rows(x, 0, 16)
                } else {
                    CoopMatrix::<f16, 16, B>::load_columns(x, 0, 16)
                };
                let mut c = CoopMatrix::<f32, 16, C>::zeros();
                c = a.multiply_add(b, c);
                c.store_rows(z, 0, 16);
            },
        );
        assert!(text.contains("a statement of its own"), "{text}");
        assert!(!text.contains("cannot call"), "{text}");
    }
}
