//! Names: `let` (with a plain name or a tuple of names), workgroup arrays declared with
//! `let tile = shared::<[T; N]>();` or sized at launch with `let row = shared_len::<T>(n);`, and
//! the lookup of a name in an expression.

use syn::spanned::Spanned;

use crate::arena::Handle;
use crate::front::diagnostic::ErrorKind;
use crate::front::infer::{Ty, VarKind};
use crate::ir::*;

use super::{ident_name, Binding, Item, Lowerer, Reported, Value, R};

/// The names a pattern binds.
fn pattern_names(pat: &syn::Pat, out: &mut Vec<String>) {
    match pat {
        syn::Pat::Ident(p) => out.push(ident_name(&p.ident)),
        syn::Pat::Type(t) => pattern_names(&t.pat, out),
        syn::Pat::Paren(p) => pattern_names(&p.pat, out),
        syn::Pat::Reference(r) => pattern_names(&r.pat, out),
        syn::Pat::Tuple(t) => t.elems.iter().for_each(|p| pattern_names(p, out)),
        syn::Pat::TupleStruct(t) => t.elems.iter().for_each(|p| pattern_names(p, out)),
        syn::Pat::Slice(s) => s.elems.iter().for_each(|p| pattern_names(p, out)),
        syn::Pat::Struct(s) => s.fields.iter().for_each(|f| pattern_names(&f.pat, out)),
        _ => {}
    }
}

impl Lowerer<'_> {
    /// `shared::<T>()` or `shared_len::<T>(n)` when `e` is such a call: the turbofish type,
    /// and whether the length is given at launch (`shared_len`).
    pub(super) fn shared_call(e: &syn::Expr) -> Option<(&syn::ExprCall, Option<&syn::Type>, bool)> {
        let syn::Expr::Call(call) = e else {
            return None;
        };
        let syn::Expr::Path(p) = &*call.func else {
            return None;
        };
        let segments = &p.path.segments;
        let last = segments.last()?;
        let from_gpu = segments.len() == 1
            || segments
                .iter()
                .rev()
                .nth(1)
                .is_some_and(|s| s.ident == "gpu");
        let at_launch = last.ident == "shared_len";
        if !(last.ident == "shared" || at_launch) || !from_gpu {
            return None;
        }
        let ty = match &last.arguments {
            syn::PathArguments::AngleBracketed(args) => args.args.iter().find_map(|a| match a {
                syn::GenericArgument::Type(t) => Some(t),
                _ => None,
            }),
            _ => None,
        };
        Some((call, ty, at_launch))
    }

    /// The parameter that `shared_len::<T>(n)` names as its length: a `u32` or `usize`
    /// parameter of the kernel, named directly, since the runtime sizes the array (and makes
    /// its pipeline) before the kernel runs.
    fn launch_length(&mut self, call: &syn::ExprCall) -> R<ParamId> {
        const WHAT: &str = "the length of `shared_len::<T>(n)` must be a `u32` or `usize` parameter of the kernel, named directly";
        let [arg] = call.args.iter().collect::<Vec<_>>()[..] else {
            // An empty argument list has no token of its own: point at the name.
            let span = if call.args.is_empty() {
                call.func.span()
            } else {
                call.args.span()
            };
            return Err(self.error(
                span,
                "`shared_len` takes one argument, the length: `shared_len::<f32>(n)` with `n: u32` a parameter of the kernel",
            ));
        };
        if self.helper.is_some() {
            return Err(self.error(
                call.func.span(),
                "workgroup memory sized at launch is declared in the kernel itself, whose parameters give its length; declare it there",
            ));
        }
        let ident = match arg {
            syn::Expr::Path(p) => p.path.get_ident(),
            _ => None,
        };
        let Some(ident) = ident else {
            return Err(self.error(
                arg.span(),
                format!("{WHAT}, because the runtime sizes the array before the kernel runs and cannot evaluate an expression; pass the length as a parameter (or use `shared::<[T; N]>()` for a constant length)"),
            ));
        };
        let name = ident_name(ident);
        match self.lookup(&name) {
            Some(Binding::Param(id)) => match self.cx.kernel.param(id).ty {
                ParamType::Value(Type::Scalar(Scalar::U32)) => Ok(id),
                _ => Err(self.error(
                    arg.span(),
                    format!("`{name}` is not a `u32` or `usize` parameter, and {WHAT}; pass the length as a `u32` parameter"),
                )),
            },
            Some(Binding::Const(_)) => Err(self.error(
                arg.span(),
                format!("`{name}` is a constant, and {WHAT}; for a constant length write `shared::<[T; {name}]>()`"),
            )),
            Some(Binding::Failed) => Err(Reported),
            Some(_) => Err(self.error(
                arg.span(),
                format!("`{name}` is a local value the kernel computes while it runs, but {WHAT}, because workgroup memory is sized before the kernel runs; pass the length as a parameter and name it here"),
            )),
            None => Err(self.error(
                arg.span(),
                format!("`{name}` is not a parameter of the kernel, and {WHAT}"),
            )),
        }
    }

    /// The element type, atomicity and lengths of a workgroup array type `[[T; N]; M]`.
    pub(super) fn shared_type(&mut self, ty: &syn::Type) -> R<(Type, bool, Vec<u32>)> {
        match ty {
            syn::Type::Array(a) => {
                let (elem, atomic, mut dims) = self.shared_type(&a.elem)?;
                let len = self.cx.constant_length(&a.len, "a workgroup array")?;
                dims.insert(0, len);
                Ok((elem, atomic, dims))
            }
            syn::Type::Path(p) => {
                let name = p.path.segments.last().map(|s| s.ident.to_string()).unwrap_or_default();
                match name.as_str() {
                    "AtomicU32" => Ok((Type::Scalar(Scalar::U32), true, Vec::new())),
                    "AtomicI32" => Ok((Type::Scalar(Scalar::I32), true, Vec::new())),
                    "AtomicF32" => Ok((Type::Scalar(Scalar::F32), true, Vec::new())),
                    "AtomicU64" | "AtomicI64" => Err(self.error(ty.span(), "64-bit atomics live only in buffers (a `&[AtomicU64]` or `&[AtomicI64]` parameter), where wgpu's `SHADER_INT64_ATOMIC_*` features allow them; count in an `AtomicU32` workgroup array, or in the buffer")),
                    _ => match self.cx.resolve_type(ty)? {
                        Type::Scalar(Scalar::Bool) => Err(self.error(ty.span(), "WebGPU cannot keep `bool` in workgroup memory here; use `u32` 0 and 1")),
                        t => Ok((t, false, Vec::new())),
                    },
                }
            }
            other => Err(self.error(other.span(), "workgroup memory is an array: `shared::<[f32; 256]>()` or `shared::<[[f32; 16]; 16]>()`")),
        }
    }

    /// `let tile = shared::<[T; N]>();`: a workgroup array hoisted to module scope.
    pub(super) fn shared_let(
        &mut self,
        local: &syn::Local,
        call: &syn::ExprCall,
        ty: Option<&syn::Type>,
        at_launch: bool,
    ) -> R<Value> {
        if !at_launch && !call.args.is_empty() {
            return Err(self.error(
                call.args.span(),
                "`shared` takes no arguments; the type gives the size: `shared::<[f32; 256]>()`",
            ));
        }
        let Some(ty) = ty else {
            let fix = if at_launch {
                "name the element type: `shared_len::<f32>(n)`"
            } else {
                "name the array type: `shared::<[f32; 256]>()`"
            };
            return Err(self.error(call.func.span(), fix));
        };
        let sized_by = if at_launch {
            Some(self.launch_length(call)?)
        } else {
            None
        };
        let ident = match &local.pat {
            syn::Pat::Ident(p) => &p.ident,
            syn::Pat::Type(t) => match &*t.pat {
                syn::Pat::Ident(p) => &p.ident,
                other => {
                    return Err(self.error(
                        other.span(),
                        "bind the workgroup array to a name: `let tile = shared::<..>();`",
                    ))
                }
            },
            other => {
                return Err(self.error(
                    other.span(),
                    "bind the workgroup array to a name: `let tile = shared::<..>();`",
                ))
            }
        };
        // In a helper, one array per declaration, whatever the number of calls: the helper
        // may be lowered once per specialisation, and each must see the same array.
        if self.helper.is_some() {
            if let Some(id) = self.cx.calls.helper_shared(call) {
                self.bind(ident_name(ident), Binding::Shared(id));
                return Ok(Value::Unit);
            }
        }
        let (elem, atomic, mut dims) = self.shared_type(ty)?;
        if sized_by.is_some() {
            // The outermost length is the launch's; 0 until a runner sets it.
            dims.insert(0, 0);
        }
        let span = self.span(ident.span());
        let id = SharedId(self.cx.kernel.shared.len() as u32);
        self.cx.kernel.shared.push(SharedVar {
            name: ident_name(ident),
            elem,
            atomic,
            dims,
            sized_by,
            span,
        });
        if self.helper.is_some() {
            self.cx.calls.remember_shared(call, id);
        }
        self.bind(ident_name(ident), Binding::Shared(id));
        Ok(Value::Unit)
    }

    pub(super) fn local(&mut self, local: &syn::Local) -> R<Value> {
        let result = self.local_inner(local);
        if result.is_err() {
            // Later uses of the names would only repeat the error.
            let mut names = Vec::new();
            pattern_names(&local.pat, &mut names);
            let scope = self.scopes.last_mut().expect("a scope");
            for name in names {
                scope.entry(name).or_insert(Binding::Failed);
            }
        }
        result
    }

    pub(super) fn local_inner(&mut self, local: &syn::Local) -> R<Value> {
        if let Some((call, ty, at_launch)) =
            local.init.as_ref().and_then(|i| Self::shared_call(&i.expr))
        {
            return self.shared_let(local, call, ty, at_launch);
        }
        if let Some(v) = self.coop_let(local) {
            return v;
        }
        let (pat, annotation) = match &local.pat {
            syn::Pat::Type(t) => (&*t.pat, Some(&*t.ty)),
            other => (other, None),
        };
        if let syn::Pat::Tuple(tuple) = pat {
            return self.tuple_let(local, tuple, annotation);
        }
        let declared = match annotation {
            Some(ty) => Some(self.cx.resolve_type(ty)?),
            None => None,
        };
        if let Some(init) = &local.init {
            if let Some((_, diverge)) = &init.diverge {
                return Err(self.error(diverge.span(), "`let ... else` needs patterns that can fail, which kernels do not have; use `if`"));
            }
        }
        if let Some(reason) = self.discarded_buffer(local) {
            return Err(self.fail(local.span(), ErrorKind::unsupported(reason)));
        }
        let value = match &local.init {
            Some(init) => Some(self.value_expecting(&init.expr, declared)?),
            None => None,
        };
        let declared = declared.map(Ty::of);
        match pat {
            syn::Pat::Ident(p) => {
                if p.by_ref.is_some() || p.subpat.is_some() {
                    return Err(self.error(p.span(), "bind a plain name: `let x = ..` or `let mut x = ..`"));
                }
                let ty = match (declared, value) {
                    (Some(d), Some(v)) => {
                        let vt = self.ty(v);
                        let span = local.init.as_ref().map_or(p.span(), |i| i.expr.span());
                        self.unify(d, vt, span)?
                    }
                    (Some(d), None) => d,
                    (None, Some(v)) => self.ty(v),
                    // A deferred `let x;`: typed by its later assignments, as in rustc.
                    (None, None) => {
                        let t = self.infer.fresh(VarKind::Any);
                        self.deferred.push((t, p.ident.span()));
                        t
                    }
                };
                let name = ident_name(&p.ident);
                let mutable = p.mutability.is_some();
                let stable = !mutable && value.is_some();
                let handle = self.new_local(&name, ty, mutable || value.is_none(), stable, p.ident.span());
                self.push(Stmt::Let { local: handle, init: value }, local.span());
                self.bind(name, Binding::Local(handle));
                Ok(Value::Unit)
            }
            syn::Pat::Wild(_) => Ok(Value::Unit),
            other => Err(self.fail(other.span(), ErrorKind::unsupported("only plain names can be bound in a kernel (`let x = ..`); WGSL has no tuples or destructuring"))),
        }
    }

    /// `let (a, mut b, _) = (x, y, z);`: the values in order, then one binding each (WGSL
    /// has no tuples, so only a tuple of values can be taken apart).
    pub(super) fn tuple_let(
        &mut self,
        local: &syn::Local,
        tuple: &syn::PatTuple,
        annotation: Option<&syn::Type>,
    ) -> R<Value> {
        let refuse = "WGSL has no tuples: a tuple pattern can only take apart a tuple of values, `let (a, b) = (x, y);`; otherwise bind separate variables";
        let Some(init) = &local.init else {
            return Err(self.error(tuple.span(), refuse));
        };
        let mut rhs = &*init.expr;
        while let syn::Expr::Paren(p) = rhs {
            rhs = &p.expr;
        }
        let syn::Expr::Tuple(values) = rhs else {
            // A tuple-typed value (a helper's result): taken apart element by element.
            let declared = match annotation {
                Some(ty) => Some(self.cx.resolve_type(ty)?),
                None => None,
            };
            self.tuple_let_value(tuple, &init.expr, declared, local.span())?;
            return Ok(Value::Unit);
        };
        if values.elems.len() != tuple.elems.len() {
            return Err(self.error(
                init.expr.span(),
                format!(
                    "mismatched types: a tuple of {} values bound to a pattern of {}",
                    values.elems.len(),
                    tuple.elems.len()
                ),
            ));
        }
        let types: Vec<Option<Type>> = match annotation {
            Some(syn::Type::Tuple(t)) if t.elems.len() == tuple.elems.len() => {
                let mut out = Vec::new();
                for ty in &t.elems {
                    out.push(Some(self.cx.resolve_type(ty)?));
                }
                out
            }
            Some(other) => {
                return Err(self.error(
                    other.span(),
                    "annotate a tuple pattern with a tuple type of the same length",
                ))
            }
            None => vec![None; tuple.elems.len()],
        };
        let exprs: Vec<&syn::Expr> = values.elems.iter().collect();
        let values = self.operands(&exprs)?;
        for ((p, v), (want, e)) in tuple
            .elems
            .iter()
            .zip(values)
            .zip(types.into_iter().zip(&exprs))
        {
            let ty = match want {
                Some(w) => self.unify(Ty::of(w), self.ty(v), e.span())?,
                None => self.ty(v),
            };
            match p {
                syn::Pat::Ident(id) if id.by_ref.is_none() && id.subpat.is_none() => {
                    let name = ident_name(&id.ident);
                    let mutable = id.mutability.is_some();
                    self.let_binding(&name, ty, mutable, v, id.ident.span(), local.span());
                }
                syn::Pat::Wild(_) => {}
                other => {
                    return Err(self.error(
                        other.span(),
                        "bind plain names in a tuple pattern: `let (a, mut b, _) = ..`",
                    ))
                }
            }
        }
        Ok(Value::Unit)
    }

    pub(super) fn lookup(&self, name: &str) -> Option<Binding> {
        self.scopes
            .iter()
            .rev()
            .find_map(|s| s.get(name).copied())
            .or_else(|| match self.cx.items.lookup(name) {
                Some(Item::Const(literal)) => Some(Binding::Const(literal)),
                Some(Item::FailedConst) => Some(Binding::Failed),
                _ => None,
            })
    }

    pub(super) fn path(&mut self, p: &syn::ExprPath) -> R<Handle<Expression>> {
        let span = p.span();
        if p.qself.is_some() {
            return Err(self.fail(
                span,
                ErrorKind::unsupported("qualified paths are not supported in kernels"),
            ));
        }
        if let Some(ident) = p.path.get_ident() {
            let name = ident_name(ident);
            return match self.lookup(&name) {
                Some(Binding::Local(l)) => {
                    let ty = self.local_tys[l.index()];
                    Ok(self.read(l, ty, span))
                }
                Some(Binding::Param(id)) => match self.cx.kernel.param(id).ty {
                    ParamType::Value(t) => Ok(self.expr(Expr::Param(id), Ty::of(t), span)),
                    ParamType::Slice { .. } | ParamType::AtomicSlice { .. } => Err(self.error(
                        span,
                        "a buffer can only be indexed (`x[i]`) or measured (`x.len()`) inside a kernel",
                    )),
                },
                Some(Binding::Shared(_)) => Err(self.error(
                    span,
                    "a workgroup array can only be indexed (`tile[i]`) inside a kernel",
                )),
                Some(Binding::Coop(_)) => Err(self.error(
                    span,
                    "a cooperative matrix is used only through `multiply_add`, `store_rows` and `store_columns`, and assigned a new matrix",
                )),
                Some(Binding::Failed) => Err(Reported),
                Some(Binding::Counter(value, ty)) => {
                    let h = self.expr(Expr::Literal(Literal::I32(0)), ty, span);
                    self.int_literals.push((h, i128::from(value)));
                    Ok(h)
                }
                Some(Binding::Const(literal)) => {
                    Ok(self.expr(Expr::Literal(literal), Ty::Known(literal.scalar()), span))
                }
                None if super::items::looks_constant(&name) => {
                    Err(self.fail(span, ErrorKind::UnknownConst(name)))
                }
                None => Err(self.fail(span, ErrorKind::UnknownName(name))),
            };
        }
        if let Some(v) = self.variant_path(&p.path) {
            return v;
        }
        if let Some(v) = self.vector_constant(&p.path) {
            return v;
        }
        self.constant(&p.path).ok_or(()).map_err(|()| {
            self.error(span, "this path is not a constant Sarek knows; kernels can use `i32::MAX`, `f32::INFINITY`, `std::f32::consts::PI` and similar")
        })?
    }
}
