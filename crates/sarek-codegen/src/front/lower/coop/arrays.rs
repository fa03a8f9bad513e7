//! Arrays of cooperative matrices (`let mut acc = [CoopMatrix::<f32, 16, C>::zeros(); 4]`):
//! one matrix variable of [`CoopMatrix::len`] matrices, its initialiser one statement per
//! element, and `m[i]` an element ([`CoopMatrix::index`]) wherever a matrix name stands
//! (`super::Lowerer::coop_operand`). `passes::coop_arrays` turns an array indexed only by
//! constants back into one variable per element.

use proc_macro2::Span;
use syn::spanned::Spanned;

use crate::ir::*;

use super::super::{Binding, Lowerer, Value, R};
use super::{coop_segment, names_coop_matrix, Slot};

/// The most matrices an array may hold: each is lowered (and unrolled loops over it copied)
/// one element at a time, and 256 matrices of the smallest shape, 8×8, already hold 16,384
/// values per subgroup, 512 registers per thread of 32, twice what a GPU thread has.
pub(crate) const MAX_MATRICES: u32 = 256;

/// Why an array of arrays of matrices is refused, and what to write instead.
pub(super) const NESTED: &str = "an array of cooperative matrices has one dimension; for a grid of tiles, declare one array and index it `m[i * COLUMNS + j]`";

/// Whether `ty` is an array type of matrices, `[CoopMatrix<..>; N]` (or of arrays of them).
pub(super) fn is_coop_array_type(ty: Option<&syn::Type>) -> bool {
    match ty {
        Some(syn::Type::Array(a)) => {
            names_coop_matrix(&a.elem) || is_coop_array_type(Some(&a.elem))
        }
        _ => false,
    }
}

impl Lowerer<'_> {
    /// Element `ix.index` of the array of matrices `array`.
    pub(super) fn coop_element(&mut self, array: CoopMatrix, ix: &syn::ExprIndex) -> R<CoopMatrix> {
        if !array.is_array() {
            return Err(self.error(
                ix.span(),
                "a cooperative matrix is not an array; to index matrices, declare an array of them: `let mut m = [CoopMatrix::<f32, 16, C>::zeros(); 4];`",
            ));
        }
        if let Some(k) = self.const_int(&ix.index, true) {
            if k < 0 || k >= i64::from(array.len) {
                return Err(self.error(
                    ix.index.span(),
                    format!(
                        "index {k} is out of bounds: this array holds {} matrices (indices 0 to {})",
                        array.len,
                        array.len - 1
                    ),
                ));
            }
        }
        let i = self.value(&ix.index)?;
        self.require(i, Scalar::U32, ix.index.span())?;
        Ok(CoopMatrix {
            index: Some(i),
            ..array
        })
    }

    /// Whether `e` is an array expression of matrices: `[CoopMatrix::..; N]` or
    /// `[a, b, ..]` whose first element is a matrix expression.
    pub(in crate::front::lower) fn is_coop_array_expr(&self, e: &syn::Expr) -> bool {
        match e {
            syn::Expr::Repeat(r) => self.is_coop_expr(&r.expr) || self.is_coop_array_expr(&r.expr),
            syn::Expr::Array(a) => a
                .elems
                .first()
                .is_some_and(|x| self.is_coop_expr(x) || self.is_coop_array_expr(x)),
            syn::Expr::Paren(p) => self.is_coop_array_expr(&p.expr),
            _ => false,
        }
    }

    /// `let m = [CoopMatrix::<..>::zeros(); N];` or `let m = [e0, e1, ..];` (matrix
    /// expressions), with an optional `[CoopMatrix<..>; N]` annotation: an array variable.
    pub(super) fn coop_array_let(
        &mut self,
        local: &syn::Local,
        pat: &syn::Pat,
        annotation: Option<&syn::Type>,
        init: Option<&syn::Expr>,
    ) -> R<Value> {
        let syn::Pat::Ident(ident) = pat else {
            return Err(self.error(
                pat.span(),
                "bind an array of cooperative matrices to a name: `let mut m = [CoopMatrix::<f32, 16, C>::zeros(); 4];`",
            ));
        };
        let Some(init) = init else {
            return Err(self.error(local.span(), "give the array its matrices where it is declared: `let mut m = [CoopMatrix::<f32, 16, C>::zeros(); 4];`"));
        };
        let (expected, declared_len) = match annotation {
            Some(syn::Type::Array(a)) => match &*a.elem {
                syn::Type::Path(p) if coop_segment(&p.path).is_some() => {
                    let seg = coop_segment(&p.path).expect("checked");
                    let ty = self.coop_type(seg, p.span())?;
                    let len = self.cx.constant_length(&a.len, "the number of matrices")?;
                    self.matrix_count(len, a.len.span())?;
                    (Some(ty), Some(len))
                }
                other => return Err(self.error(other.span(), NESTED)),
            },
            _ => (None, None),
        };
        let init = match init {
            syn::Expr::Paren(p) => &*p.expr,
            other => other,
        };
        let id = self.next_coop_id();
        let span = init.span();
        let m = match init {
            syn::Expr::Repeat(r) => {
                if self.is_coop_array_expr(&r.expr) {
                    return Err(self.error(r.expr.span(), NESTED));
                }
                let zeros = matches!(&*r.expr, syn::Expr::Call(c) if matches!(&*c.func, syn::Expr::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "zeros")));
                if !zeros {
                    return Err(self.error(r.expr.span(), "an array of cooperative matrices written `[m; N]` starts as `[CoopMatrix::<T, N, Role>::zeros(); N]`; then give each element its matrix: `for i in 0..N { m[i] = CoopMatrix::load_rows(..); }`"));
                }
                let len = self.cx.constant_length(&r.len, "the number of matrices")?;
                self.matrix_count(len, r.len.span())?;
                let mut ty = expected;
                for k in 0..len {
                    let slot = self.coop_slot(id, len, k, span);
                    ty = Some(self.coop_value(&r.expr, ty, slot)?);
                }
                ty.map(|t| (t, len))
            }
            syn::Expr::Array(a) => {
                let len = u32::try_from(a.elems.len()).unwrap_or(u32::MAX);
                self.matrix_count(len, a.span())?;
                let mut ty = expected;
                for (k, e) in a.elems.iter().enumerate() {
                    if self.is_coop_array_expr(e) {
                        return Err(self.error(e.span(), NESTED));
                    }
                    let slot = self.coop_slot(id, len, k as u32, e.span());
                    ty = Some(self.coop_value(e, ty, slot)?);
                }
                ty.map(|t| (t, len))
            }
            other => {
                return Err(self.error(other.span(), "an array of cooperative matrices gets its matrices from `[CoopMatrix::<T, N, Role>::zeros(); N]` or `[m0, m1, ..]`"));
            }
        };
        let Some((ty, len)) = m else {
            return Err(self.error(span, "an array of cooperative matrices holds at least one; declare `[CoopMatrix::<T, N, Role>::zeros(); N]` with N ≥ 1"));
        };
        if let Some(want) = declared_len.filter(|&n| n != len) {
            return Err(self.error(
                span,
                format!("the type says {want} matrices but the array has {len}"),
            ));
        }
        self.bind(
            super::super::ident_name(&ident.ident),
            Binding::Coop(ty.at(Slot {
                id,
                len,
                index: None,
            })),
        );
        Ok(Value::Unit)
    }

    /// Refuses an array of more than [`MAX_MATRICES`] matrices at `span`.
    fn matrix_count(&mut self, len: u32, span: Span) -> R<()> {
        if len <= MAX_MATRICES {
            return Ok(());
        }
        Err(self.error(
            span,
            format!("an array of {len} cooperative matrices is more than a subgroup can hold in registers; Sarek allows at most {MAX_MATRICES}: compute the tiles in a loop, a few at a time"),
        ))
    }

    /// Element `k` of array variable `id` of `len` matrices, its index a literal.
    fn coop_slot(&mut self, id: u32, len: u32, k: u32, span: Span) -> Slot {
        let index = self.expr(
            Expr::Literal(Literal::U32(k)),
            crate::front::infer::Ty::Known(Scalar::U32),
            span,
        );
        Slot {
            id,
            len,
            index: Some(index),
        }
    }
}

#[cfg(test)]
mod tests {
    use quote::quote;

    use super::super::tests::errors;

    /// A kernel written with loops over arrays of matrices: unrolled, every element is a
    /// matrix variable of its own (the operands `let`s, as when written one name per matrix);
    /// its quick form keeps the loops, in slices of one accumulator each; both naga-valid.
    #[test]
    fn arrays_of_matrices_unroll_to_variables_and_the_quick_form_runs_in_slices() {
        let text = errors(
            quote!(x: &[f32], y: &[f32], z: &mut [f32], n: u32),
            quote! {
                let n = n as usize;
                let mut acc = [CoopMatrix::<f32, 16, C>::zeros(); 4];
                let mut k = 0;
                while k < n {
                    let a = CoopMatrix::<f32, 16, A>::load_rows(x, k, n);
                    let mut bm = [CoopMatrix::<f32, 16, B>::zeros(); 4];
                    for j in 0..4 {
                        bm[j] = CoopMatrix::load_rows(y, k * n + 16 * j, n);
                    }
                    for j in 0..4 {
                        acc[j] = a.multiply_add(bm[j], acc[j]);
                    }
                    k += 16;
                }
                for j in 0..4 {
                    acc[j].store_rows(z, 16 * j, n);
                }
            },
        );
        assert!(!text.contains("compile_error"), "{text}");
        // The optimized text (both entry points): four B operands, each a `let` at its load,
        // and four accumulators, no `zeros()` left for the operands; the quick form keeps
        // the arrays and one load in its loop.
        let (optimized, quick) = text.split_once("with_quick").expect("a quick form");
        // The quick form's text and its slices, up to the next builder call.
        let quick = quick.split_once("with_in_bounds").map_or(quick, |(q, _)| q);
        let optimized = optimized
            .split_once("pub const WGSL")
            .map_or("", |(_, w)| w)
            .split_once("pub const ABI")
            .map_or("", |(w, _)| w);
        let main = optimized.split("fn sarek_main_folded").next().unwrap_or("");
        assert_eq!(
            main.matches("= coopLoadT<coop_mat16x16<f32, B>>").count(),
            4,
            "{main}"
        );
        // (The token text escapes the newlines.)
        let lets = main
            .split("\\n")
            .filter(|l| l.contains("let sarek_coop") && l.contains("coopLoadT"))
            .count();
        assert_eq!(lets, 5, "A and B are `let`s: {main}");
        assert_eq!(main.matches("var sarek_coop").count(), 4, "{main}");
        assert!(!optimized.contains("array<coop_mat"), "{optimized}");
        assert!(!main.contains("coop_mat16x16<f32, B>()"), "{main}");
        // The quick form keeps the loops but runs in four slices (`passes::slice_coop`):
        // one accumulator and one B operand each, the loops over them run once.
        assert!(
            quick.contains(", 4u32)")
                && quick.contains("let sarek___slice: u32 = (sarek_bid.z % 4u);")
                && !quick.contains("array<coop_mat")
                && quick.matches("coopMultiplyAdd(").count() == 1
                && quick.matches("= coopLoadT<coop_mat16x16<f32, B>>").count() == 1,
            "{quick}"
        );
    }

    #[test]
    fn misused_arrays_of_matrices_are_refused_with_advice() {
        let text = errors(
            quote!(x: &[f32], z: &mut [f32], n: u32),
            quote! {
                let mut acc = [CoopMatrix::<f32, 16, C>::zeros(); 2];
                let grid = [[CoopMatrix::<f32, 16, C>::zeros(); 2]; 2];
                let loaded = [CoopMatrix::<f32, 16, A>::load_rows(x, 0, 16); 2];
                let a = CoopMatrix::<f32, 16, A>::load_rows(x, 0, 16);
                let b = CoopMatrix::<f32, 16, B>::load_rows(x, 0, 16);
                acc[2] = a.multiply_add(b, acc[1]);
                acc[thread_idx_x() % 2] = a.multiply_add(b, acc[0]);
                acc[0] = a.multiply_add(b, acc);
                a[0].store_rows(z, 0, 16);
                acc[n as usize].store_rows(z, 0, 16);
            },
        );
        for want in [
            "an array of cooperative matrices has one dimension",
            "starts as `[CoopMatrix::<T, N, Role>::zeros(); N]`",
            "index 2 is out of bounds: this array holds 2 matrices (indices 0 to 1)",
            "this is an array of 2 cooperative matrices; name one of them: `acc[i]`",
            "a cooperative matrix is not an array",
        ] {
            assert!(text.contains(want), "{want}: {text}");
        }
        // The index that varies between threads is refused by the uniformity check (which
        // runs once lowering succeeded), a uniform one is accepted.
        let text = errors(
            quote!(x: &[f32], z: &mut [f32], n: u32),
            quote! {
                let mut acc = [CoopMatrix::<f32, 16, C>::zeros(); 2];
                let a = CoopMatrix::<f32, 16, A>::load_rows(x, 0, 16);
                let b = CoopMatrix::<f32, 16, B>::load_rows(x, 0, 16);
                acc[thread_idx_x() % 2] = a.multiply_add(b, acc[0]);
                acc[n as usize].store_rows(z, 0, 16);
            },
        );
        assert!(
            text.contains(
                "this index into an array of cooperative matrices can differ between the threads"
            ),
            "{text}"
        );
        assert_eq!(
            text.matches("can differ between the threads").count(),
            1,
            "{text}"
        );
    }
}
