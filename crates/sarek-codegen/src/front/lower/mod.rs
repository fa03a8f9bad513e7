//! Lowering of a kernel's body from `syn` to the IR.
//!
//! Every error is collected (the lowering goes on after one) and reported at the Rust token
//! that caused it. Expressions with effects are turned into statements in Rust's evaluation
//! order: when a later operand needs statements, earlier operands that those statements could
//! change are first copied into `let` bindings.

use std::collections::HashMap;

use proc_macro2::Span;
use syn::spanned::Spanned;

use crate::arena::Handle;
use crate::ir::*;

use super::infer::{Infer, Ty, VarKind};
use super::types;

mod calls;
pub mod context;
mod data;
pub mod items;
mod patterns;
mod ranges;
mod unroll;
mod vectors;

pub use context::ModuleContext;
pub use items::Item;

/// Marker for an error already recorded.
#[derive(Debug)]
pub struct Reported;
type R<T> = Result<T, Reported>;

/// The result of lowering an expression.
#[derive(Clone, Copy, Debug)]
enum Value {
    /// `()`
    Unit,
    /// Control never gets here (`return`, `break`, `continue`, a `loop` without `break`).
    Never,
    /// A value.
    Expr(Handle<Expression>),
}

#[derive(Clone, Copy)]
enum Binding {
    Local(Handle<Local>),
    Param(ParamId),
    Shared(SharedId),
    /// A `const` item of the kernel body.
    Const(Literal),
    /// A name whose declaration failed (already reported): uses stay quiet.
    Failed,
    /// The counter of an unrolled loop in one iteration: an integer literal of a type that is
    /// still being inferred.
    Counter(i64, Ty),
}

/// An element of a buffer or workgroup array, as indexing resolves it.
enum Element {
    Buffer {
        slice: ParamId,
        elem: Type,
        access: Access,
        atomic: bool,
        index: Handle<Expression>,
    },
    Shared {
        var: SharedId,
        elem: Type,
        atomic: bool,
        indices: Vec<Handle<Expression>>,
    },
}

struct LoopFrame {
    has_break: bool,
}

/// The lowerer of one function body: the state that lives while one function is lowered
/// (its IR, inference, scopes, blocks and loops), with the module's context borrowed.
pub struct Lowerer<'m> {
    /// The module-wide state, lent for the whole function.
    pub cx: &'m mut ModuleContext,
    /// The function being built.
    function: Function,
    infer: Infer,
    expr_tys: Vec<Ty>,
    local_tys: Vec<Ty>,
    /// Locals whose value cannot change after their `let` (no `mut`, initialised).
    local_stable: Vec<bool>,
    /// Integer literals waiting for their type: (expression, value).
    int_literals: Vec<(Handle<Expression>, i128)>,
    /// Float literals waiting for their type.
    float_literals: Vec<(Handle<Expression>, f32)>,
    scopes: Vec<HashMap<String, Binding>>,
    blocks: Vec<Block>,
    loops: Vec<LoopFrame>,
    /// Set while lowering a helper function rather than the kernel.
    helper: Option<calls::HelperFrame>,
    /// The type the context wants from the expression being lowered (fixes the element type
    /// of `[0.0; 4]` in `let a: [f32; 4] = [0.0; 4]`).
    expect: Option<Type>,
    /// How many copies of the current statement the unrolled loops around it make.
    unroll_copies: i64,
    /// How many errors the module had when this function's lowering began: checks that stay
    /// quiet after an earlier error look only at this function's.
    first_error: usize,
}

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

/// The identifier's name without `r#`.
pub fn ident_name(ident: &syn::Ident) -> String {
    let s = ident.to_string();
    s.strip_prefix("r#").map(str::to_owned).unwrap_or(s)
}

fn unsupported_expr(expr: &syn::Expr) -> Option<&'static str> {
    Some(match expr {
        syn::Expr::Async(_) | syn::Expr::Await(_) => "a GPU kernel cannot be `async`",
        syn::Expr::Closure(_) => "WGSL has no closures; write the computation inline",
        syn::Expr::Let(_) => "`let` patterns are supported only as `if let Pattern = value { .. }`; use `match` or `loop` with `if let`",
        syn::Expr::Macro(_) => "macros cannot run on the GPU: the kernel body must be plain expressions and statements",
        syn::Expr::Range(_) => "a range is only allowed as the iterator of a `for` loop (`for i in a..b`)",
        syn::Expr::Reference(_) => "WGSL cannot pass references around inside a kernel; index the buffer directly",
        syn::Expr::Try(_) => "the `?` operator needs `Result`/`Option`, which do not exist on the GPU",
        syn::Expr::TryBlock(_) => "`try` blocks are not available on the GPU",
        syn::Expr::Tuple(_) => "WGSL has no tuples; use separate variables",
        syn::Expr::Unsafe(_) => "`unsafe` has no meaning in a kernel; remove it",
        syn::Expr::Yield(_) => "generators cannot run on the GPU",
        syn::Expr::Const(_) => "`const` blocks are not supported in kernels; use a literal",
        syn::Expr::Infer(_) => "`_` is not a value",
        _ => return None,
    })
}

impl<'m> Lowerer<'m> {
    /// The lowerer of one function body (the kernel's entry or a helper, named `name` and
    /// declared at `span`), borrowing the module's context.
    pub fn new(cx: &'m mut ModuleContext, name: String, span: crate::ir::Span) -> Self {
        Lowerer {
            function: Function::new(name, span),
            infer: Infer::default(),
            expr_tys: Vec::new(),
            local_tys: Vec::new(),
            local_stable: Vec::new(),
            int_literals: Vec::new(),
            float_literals: Vec::new(),
            scopes: vec![HashMap::new()],
            blocks: Vec::new(),
            loops: Vec::new(),
            helper: None,
            expect: None,
            unroll_copies: 1,
            first_error: cx.errors.len(),
            cx,
        }
    }

    /// Whether an error was found since this function's lowering began.
    fn has_errors(&self) -> bool {
        self.cx.errors.len() > self.first_error
    }

    fn span(&mut self, span: Span) -> crate::ir::Span {
        self.cx.span(span)
    }

    fn error(&mut self, span: Span, message: impl std::fmt::Display) -> Reported {
        self.cx.error(span, message)
    }

    /// The Rust span of expression `h`.
    fn expr_span(&self, h: Handle<Expression>) -> Span {
        self.cx.rust_span(self.function.exprs[h].span)
    }

    /// Declares a parameter whose type was refused, so that its uses stay quiet.
    pub fn add_failed_param(&mut self, ident: &syn::Ident) {
        self.scopes[0].insert(ident_name(ident), Binding::Failed);
    }

    pub fn add_param(&mut self, ident: &syn::Ident, ty: ParamType) {
        let span = self.span(ident.span());
        let id = ParamId(self.cx.kernel.params.len() as u32);
        self.cx.kernel.params.push(Param {
            name: ident_name(ident),
            ty,
            span,
        });
        self.scopes[0].insert(ident_name(ident), Binding::Param(id));
    }

    // ---- building blocks ----

    fn push(&mut self, kind: Stmt, span: Span) {
        let span = self.span(span);
        self.blocks
            .last_mut()
            .expect("inside a block")
            .push(Statement { kind, span });
    }

    fn block_len(&self) -> usize {
        self.blocks.last().map_or(0, Vec::len)
    }

    fn with_block(&mut self, f: impl FnOnce(&mut Self) -> R<Value>) -> (Block, R<Value>) {
        self.blocks.push(Vec::new());
        self.scopes.push(HashMap::new());
        let value = f(self);
        self.scopes.pop();
        (self.blocks.pop().expect("pushed above"), value)
    }

    fn expr(&mut self, kind: Expr, ty: Ty, span: Span) -> Handle<Expression> {
        let span = self.span(span);
        self.expr_tys.push(ty);
        self.function.exprs.append(Expression {
            kind,
            ty: Type::Scalar(Scalar::I32), // replaced in `finish`
            span,
        })
    }

    fn ty(&self, h: Handle<Expression>) -> Ty {
        self.expr_tys[h.index()]
    }

    fn new_local(
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
    fn temp(&mut self, value: Handle<Expression>, at: Option<usize>) -> Handle<Local> {
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
    fn spill(&mut self, value: Handle<Expression>, at: Option<usize>) -> Handle<Expression> {
        let ty = self.ty(value);
        let span = self.expr_span(value);
        let local = self.temp(value, at);
        self.expr(Expr::Local(local), ty, span)
    }

    /// Whether no statement can change the value of `h`.
    fn is_stable(&self, h: Handle<Expression>) -> bool {
        match &self.function.exprs[h].kind {
            Expr::Literal(_) | Expr::Param(_) | Expr::Len(_) | Expr::Builtin(_) => true,
            Expr::Local(l) => self.local_stable[l.index()],
            Expr::Index { .. } | Expr::SharedIndex { .. } => false,
            Expr::Unary { expr, .. } | Expr::Cast { expr, .. } => self.is_stable(*expr),
            Expr::Binary { left, right, .. } => self.is_stable(*left) && self.is_stable(*right),
            Expr::Select {
                cond,
                accept,
                reject,
            } => self.is_stable(*cond) && self.is_stable(*accept) && self.is_stable(*reject),
            Expr::Math { args, .. } => args.iter().all(|a| self.is_stable(*a)),
            Expr::Field { base, .. } => self.is_stable(*base),
            Expr::Access { base, index } => self.is_stable(*base) && self.is_stable(*index),
            Expr::Compose { components, .. } => components.iter().all(|c| self.is_stable(*c)),
            Expr::Zero(_) | Expr::Argument(_) => true,
        }
    }

    /// Lowers operands left to right, keeping Rust's order when a later one needs statements.
    fn operands(&mut self, exprs: &[&syn::Expr]) -> R<Vec<Handle<Expression>>> {
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

    fn unify(&mut self, a: Ty, b: Ty, span: Span) -> R<Ty> {
        match self.infer.unify(a, b) {
            Ok(t) => Ok(t),
            Err((a, b)) => {
                let (a, b) = (self.describe(a), self.describe(b));
                Err(self.error(
                    span,
                    format!("mismatched types: expected `{a}`, found `{b}`"),
                ))
            }
        }
    }

    /// How rustc would print `ty`.
    fn describe(&mut self, ty: Ty) -> String {
        match self.infer.shallow(ty) {
            Ty::Compound(t) => type_name(&self.cx.kernel.types, t),
            other => self.infer.describe(other),
        }
    }

    fn require(&mut self, h: Handle<Expression>, want: Scalar, span: Span) -> R<()> {
        let t = self.ty(h);
        self.unify(t, Ty::Known(want), span).map(|_| ())
    }

    fn require_int(&mut self, h: Handle<Expression>, span: Span) -> R<()> {
        let t = self.ty(h);
        match self.infer.shallow(t) {
            Ty::Known(s) if s.is_integer() => Ok(()),
            Ty::Var(_) if self.infer.kind_of(t) == Some(VarKind::Int) => Ok(()),
            other => {
                let found = self.describe(other);
                Err(self.error(span, format!("expected an integer, found `{found}`")))
            }
        }
    }

    fn require_numeric(&mut self, h: Handle<Expression>, span: Span) -> R<()> {
        let t = self.ty(h);
        match self.infer.shallow(t) {
            Ty::Known(Scalar::Bool) => {
                let found = self.describe(t);
                Err(self.error(span, format!("expected a number, found `{found}`")))
            }
            _ => Ok(()),
        }
    }

    // ---- statements ----

    pub fn body(&mut self, block: &syn::Block) {
        self.blocks.push(Vec::new());
        match self.block_contents(block) {
            Ok(Value::Expr(h)) => {
                let span = self.expr_span(h);
                self.error(
                    span,
                    "a kernel returns nothing; end the body with a statement (add `;`)",
                );
            }
            Ok(_) | Err(Reported) => {}
        }
        self.function.body = self.blocks.pop().expect("pushed above");
    }

    fn block_contents(&mut self, block: &syn::Block) -> R<Value> {
        let outer = self.cx.items.open();
        let items: Vec<&syn::Item> = block
            .stmts
            .iter()
            .filter_map(|s| match s {
                syn::Stmt::Item(item) => Some(item),
                _ => None,
            })
            .collect();
        self.cx.declare_items(items);
        let result = self.statements(block);
        self.cx.items.restore(outer);
        result
    }

    fn statements(&mut self, block: &syn::Block) -> R<Value> {
        let mut diverged = false;
        let mut value = Value::Unit;
        let mut tail_failed = false;
        let count = block.stmts.len();
        for (i, stmt) in block.stmts.iter().enumerate() {
            let last = i + 1 == count;
            let result = match stmt {
                syn::Stmt::Local(local) => self.local(local),
                // Declared on entry to the block; a helper is lowered where it is called.
                syn::Stmt::Item(_) => Ok(Value::Unit),
                syn::Stmt::Macro(m) => Err(self.error(
                    m.mac.path.span(),
                    "macros cannot run on the GPU: `println!`, `assert!` and friends have no WGSL equivalent; remove the call",
                )),
                syn::Stmt::Expr(e, semi) => match self.expression(e) {
                    Ok(Value::Expr(h)) if last && semi.is_none() => {
                        value = Value::Expr(h);
                        Ok(Value::Unit)
                    }
                    Ok(Value::Expr(_)) if semi.is_none() => {
                        Err(self.error(e.span(), "expected `()`: add a `;` to discard this value"))
                    }
                    other => other,
                },
            };
            match result {
                Ok(Value::Never) => diverged = true,
                Err(Reported) if last && matches!(stmt, syn::Stmt::Expr(_, None)) => {
                    tail_failed = true
                }
                _ => {}
            }
        }
        if tail_failed {
            // The block's value is unknown; a guess would only add misleading errors.
            return Err(Reported);
        }
        if diverged && !matches!(value, Value::Expr(_)) {
            return Ok(Value::Never);
        }
        Ok(value)
    }

    /// `shared::<T>()` when `e` is such a call: the turbofish type.
    fn shared_call(e: &syn::Expr) -> Option<(&syn::ExprCall, Option<&syn::Type>)> {
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
        if last.ident != "shared" || !from_gpu {
            return None;
        }
        let ty = match &last.arguments {
            syn::PathArguments::AngleBracketed(args) => args.args.iter().find_map(|a| match a {
                syn::GenericArgument::Type(t) => Some(t),
                _ => None,
            }),
            _ => None,
        };
        Some((call, ty))
    }

    /// The element type, atomicity and lengths of a workgroup array type `[[T; N]; M]`.
    fn shared_type(&mut self, ty: &syn::Type) -> R<(Type, bool, Vec<u32>)> {
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
    fn shared_let(
        &mut self,
        local: &syn::Local,
        call: &syn::ExprCall,
        ty: Option<&syn::Type>,
    ) -> R<Value> {
        if !call.args.is_empty() {
            return Err(self.error(
                call.args.span(),
                "`shared` takes no arguments; the type gives the size: `shared::<[f32; 256]>()`",
            ));
        }
        let Some(ty) = ty else {
            return Err(self.error(
                call.func.span(),
                "name the array type: `shared::<[f32; 256]>()`",
            ));
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
        if self.helper.is_some() {
            return Err(self.error(call.func.span(), "workgroup memory is declared in the kernel body, not in a helper function; declare it there and pass values"));
        }
        let (elem, atomic, dims) = self.shared_type(ty)?;
        let span = self.span(ident.span());
        let id = SharedId(self.cx.kernel.shared.len() as u32);
        self.cx.kernel.shared.push(SharedVar {
            name: ident_name(ident),
            elem,
            atomic,
            dims,
            span,
        });
        self.scopes
            .last_mut()
            .expect("a scope")
            .insert(ident_name(ident), Binding::Shared(id));
        Ok(Value::Unit)
    }

    fn local(&mut self, local: &syn::Local) -> R<Value> {
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

    fn local_inner(&mut self, local: &syn::Local) -> R<Value> {
        if let Some((call, ty)) = local.init.as_ref().and_then(|i| Self::shared_call(&i.expr)) {
            return self.shared_let(local, call, ty);
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
                    (None, None) => self.infer.fresh(VarKind::Int),
                };
                let name = ident_name(&p.ident);
                let mutable = p.mutability.is_some();
                let stable = !mutable && value.is_some();
                let handle = self.new_local(&name, ty, mutable || value.is_none(), stable, p.ident.span());
                self.push(Stmt::Let { local: handle, init: value }, local.span());
                self.scopes.last_mut().expect("a scope").insert(name, Binding::Local(handle));
                Ok(Value::Unit)
            }
            syn::Pat::Wild(_) => Ok(Value::Unit),
            other => Err(self.error(other.span(), "only plain names can be bound in a kernel (`let x = ..`); WGSL has no tuples or destructuring")),
        }
    }

    /// `let (a, mut b, _) = (x, y, z);`: the values in order, then one binding each (WGSL
    /// has no tuples, so only a tuple of values can be taken apart).
    fn tuple_let(
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
            return Err(self.error(init.expr.span(), refuse));
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
                    let handle = self.new_local(&name, ty, mutable, !mutable, id.ident.span());
                    self.push(
                        Stmt::Let {
                            local: handle,
                            init: Some(v),
                        },
                        local.span(),
                    );
                    self.scopes
                        .last_mut()
                        .expect("a scope")
                        .insert(name, Binding::Local(handle));
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

    // ---- expressions ----

    /// Lowers an expression that must produce a value.
    fn value(&mut self, e: &syn::Expr) -> R<Handle<Expression>> {
        match self.expression(e)? {
            Value::Expr(h) => Ok(h),
            Value::Unit => Err(self.error(e.span(), "expected a value, but this expression is `()`")),
            Value::Never => Err(self.error(e.span(), "this expression never produces a value (it returns or breaks); move it into a statement")),
        }
    }

    /// Lowers `e` in a context that wants a value of type `want`.
    fn value_expecting(&mut self, e: &syn::Expr, want: Option<Type>) -> R<Handle<Expression>> {
        self.expect = want;
        let v = self.value(e);
        self.expect = None;
        v
    }

    fn expression(&mut self, e: &syn::Expr) -> R<Value> {
        let span = e.span();
        let expect = self.expect.take();
        if let Some(reason) = unsupported_expr(e) {
            return Err(self.error(span, reason));
        }
        match e {
            syn::Expr::Field(f) => self.field(f).map(Value::Expr),
            syn::Expr::Struct(s) => self.struct_literal(s).map(Value::Expr),
            syn::Expr::Array(a) => self.array_literal(a, expect).map(Value::Expr),
            syn::Expr::Repeat(r) => self.repeat(r, expect).map(Value::Expr),
            syn::Expr::Match(m) => self.match_expr(m),
            syn::Expr::If(i) if matches!(&*i.cond, syn::Expr::Let(_)) => self.if_let(i),
            syn::Expr::Lit(lit) => self.literal(&lit.lit, false).map(Value::Expr),
            syn::Expr::Paren(p) => self.expression(&p.expr),
            syn::Expr::Group(g) => self.expression(&g.expr),
            syn::Expr::Path(p) => self.path(p).map(Value::Expr),
            syn::Expr::Unary(u) => self.unary(u).map(Value::Expr),
            syn::Expr::Binary(b) => self.binary(b),
            syn::Expr::Assign(a) => self.assign(&a.left, None, &a.right, span),
            syn::Expr::Index(i) => self.index(i).map(Value::Expr),
            syn::Expr::Cast(c) => self.cast(c).map(Value::Expr),
            syn::Expr::MethodCall(m) => self.method_call(m),
            syn::Expr::Call(c) => {
                if let Some(kind) = Self::barrier(c) {
                    if !c.args.is_empty() {
                        return Err(self.error(c.args.span(), "a barrier takes no arguments"));
                    }
                    if self.helper.is_some() {
                        return Err(self.error(c.func.span(), "barriers belong in the kernel body, where Sarek proves every thread reaches them; call it there, around the helper call"));
                    }
                    self.push(Stmt::Barrier(kind), span);
                    return Ok(Value::Unit);
                }
                self.call(c)
            }
            syn::Expr::Block(b) => {
                if let Some(label) = &b.label {
                    return Err(self.error(
                        label.span(),
                        "WGSL has no labelled blocks; restructure with `if`/`else`",
                    ));
                }
                self.inline_block(&b.block)
            }
            syn::Expr::If(i) => self.if_expr(i),
            syn::Expr::While(w) => self.while_loop(w),
            syn::Expr::Loop(l) => self.loop_expr(l),
            syn::Expr::ForLoop(f) => self.for_loop(f),
            syn::Expr::Break(b) => {
                if let Some(label) = &b.label {
                    return Err(self.error(
                        label.span(),
                        "WGSL has no labelled `break`; use a flag variable to leave outer loops",
                    ));
                }
                if let Some(v) = &b.expr {
                    return Err(self.error(v.span(), "`break` with a value is not supported; assign to a `let mut` before `break`"));
                }
                match self.loops.last_mut() {
                    Some(frame) => frame.has_break = true,
                    None => return Err(self.error(span, "`break` outside of a loop")),
                }
                self.push(Stmt::Break, span);
                Ok(Value::Never)
            }
            syn::Expr::Continue(c) => {
                if let Some(label) = &c.label {
                    return Err(self.error(
                        label.span(),
                        "WGSL has no labelled `continue`; use a flag variable",
                    ));
                }
                if self.loops.is_empty() {
                    return Err(self.error(span, "`continue` outside of a loop"));
                }
                self.push(Stmt::Continue, span);
                Ok(Value::Never)
            }
            syn::Expr::Return(r) => self.return_expr(r),
            _ => Err(self.error(span, "this expression is not supported in a Sarek kernel")),
        }
    }

    fn inline_block(&mut self, block: &syn::Block) -> R<Value> {
        self.scopes.push(HashMap::new());
        let v = self.block_contents(block);
        self.scopes.pop();
        v
    }

    fn literal(&mut self, lit: &syn::Lit, negative: bool) -> R<Handle<Expression>> {
        let span = lit.span();
        match lit {
            syn::Lit::Bool(b) => {
                if negative {
                    return Err(self.error(span, "cannot negate a `bool`; use `!`"));
                }
                Ok(self.expr(
                    Expr::Literal(Literal::Bool(b.value)),
                    Ty::Known(Scalar::Bool),
                    span,
                ))
            }
            syn::Lit::Int(int) => {
                let ty = match int.suffix() {
                    "" => self.infer.fresh(VarKind::Int),
                    "f32" => {
                        let value = int.base10_parse::<f32>().map_err(|e| self.error(span, e))?;
                        let value = if negative { -value } else { value };
                        return Ok(self.expr(
                            Expr::Literal(Literal::F32(value)),
                            Ty::Known(Scalar::F32),
                            span,
                        ));
                    }
                    suffix => Ty::Known(self.suffix_type(suffix, span)?),
                };
                let magnitude = int.base10_parse::<u64>().map_err(|_| {
                    self.error(
                        span,
                        "integer literal out of range: kernels use 32-bit integers",
                    )
                })?;
                let value = if negative {
                    -(magnitude as i128)
                } else {
                    magnitude as i128
                };
                let h = self.expr(Expr::Literal(Literal::I32(0)), ty, span);
                self.int_literals.push((h, value));
                Ok(h)
            }
            syn::Lit::Float(f) => {
                let ty = match f.suffix() {
                    "" => self.infer.fresh(VarKind::Float),
                    "f32" => Ty::Known(Scalar::F32),
                    suffix => Ty::Known(self.suffix_type(suffix, span)?),
                };
                let value = f.base10_parse::<f32>().map_err(|e| self.error(span, e))?;
                let value = if negative { -value } else { value };
                let h = self.expr(Expr::Literal(Literal::F32(0.0)), ty, span);
                self.float_literals.push((h, value));
                Ok(h)
            }
            _ => Err(self.error(
                span,
                "only numbers and `true`/`false` can be literals in a kernel",
            )),
        }
    }

    fn suffix_type(&mut self, suffix: &str, span: Span) -> R<Scalar> {
        match suffix {
            "i32" => Ok(Scalar::I32),
            "u32" | "usize" => Ok(Scalar::U32),
            "f32" => Ok(Scalar::F32),
            other => Err(self.error(
                span,
                types::refusal(other)
                    .unwrap_or_else(|| format!("unknown literal suffix `{other}`")),
            )),
        }
    }

    fn lookup(&self, name: &str) -> Option<Binding> {
        self.scopes
            .iter()
            .rev()
            .find_map(|s| s.get(name).copied())
            .or_else(|| match self.cx.items.lookup(name) {
                Some(Item::Const(literal)) => Some(Binding::Const(literal)),
                _ => None,
            })
    }

    fn path(&mut self, p: &syn::ExprPath) -> R<Handle<Expression>> {
        let span = p.span();
        if p.qself.is_some() {
            return Err(self.error(span, "qualified paths are not supported in kernels"));
        }
        if let Some(ident) = p.path.get_ident() {
            let name = ident_name(ident);
            return match self.lookup(&name) {
                Some(Binding::Local(l)) => {
                    let ty = self.local_tys[l.index()];
                    Ok(self.expr(Expr::Local(l), ty, span))
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
                Some(Binding::Failed) => Err(Reported),
                Some(Binding::Counter(value, ty)) => {
                    let h = self.expr(Expr::Literal(Literal::I32(0)), ty, span);
                    self.int_literals.push((h, i128::from(value)));
                    Ok(h)
                }
                Some(Binding::Const(literal)) => {
                    Ok(self.expr(Expr::Literal(literal), Ty::Known(literal.scalar()), span))
                }
                None => Err(self.error(
                    span,
                    format!("cannot find `{name}` in this kernel: a kernel sees its parameters, its own `let` bindings and Sarek's intrinsics"),
                )),
            };
        }
        if let Some(v) = self.variant_path(&p.path) {
            return v;
        }
        if let Some(v) = self.vector_constant(&p.path) {
            return v;
        }
        self.constant(&p.path).ok_or(()).or_else(|()| {
            Err(self.error(span, "this path is not a constant Sarek knows; kernels can use `i32::MAX`, `f32::INFINITY`, `std::f32::consts::PI` and similar"))
        })?
    }

    /// `i32::MAX`, `f32::NAN`, `std::f32::consts::PI`, ...
    fn constant(&mut self, path: &syn::Path) -> Option<R<Handle<Expression>>> {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        let n = segments.len();
        if n < 2 {
            return None;
        }
        let (ty, name) = (segments[n - 2].as_str(), segments[n - 1].as_str());
        let span = path.span();
        if ty == "consts" && n >= 3 && segments[n - 3] == "f32" {
            use std::f32::consts::*;
            let v = match name {
                "PI" => PI,
                "TAU" => TAU,
                "E" => E,
                "SQRT_2" => SQRT_2,
                "LN_2" => LN_2,
                "LN_10" => LN_10,
                "LOG2_E" => LOG2_E,
                "LOG10_E" => LOG10_E,
                "FRAC_PI_2" => FRAC_PI_2,
                "FRAC_PI_3" => FRAC_PI_3,
                "FRAC_PI_4" => FRAC_PI_4,
                "FRAC_PI_6" => FRAC_PI_6,
                "FRAC_PI_8" => FRAC_PI_8,
                "FRAC_1_PI" => FRAC_1_PI,
                "FRAC_2_PI" => FRAC_2_PI,
                "FRAC_1_SQRT_2" => FRAC_1_SQRT_2,
                _ => return None,
            };
            return Some(Ok(self.expr(
                Expr::Literal(Literal::F32(v)),
                Ty::Known(Scalar::F32),
                span,
            )));
        }
        let literal = match (ty, name) {
            ("i32", "MAX") => Literal::I32(i32::MAX),
            ("i32", "MIN") => Literal::I32(i32::MIN),
            ("u32", "MAX") => Literal::U32(u32::MAX),
            ("u32", "MIN") => Literal::U32(0),
            ("usize", "MIN") => Literal::U32(0),
            ("usize", "MAX") => {
                return Some(Err(self.error(span, "`usize::MAX` is 2^64-1 on the host but 2^32-1 on the GPU; write `u32::MAX as usize` if you mean the GPU's value")))
            }
            ("f32", "MAX") => Literal::F32(f32::MAX),
            ("f32", "MIN") => Literal::F32(f32::MIN),
            ("f32", "MIN_POSITIVE") => Literal::F32(f32::MIN_POSITIVE),
            ("f32", "EPSILON") => Literal::F32(f32::EPSILON),
            ("f32", "INFINITY") => Literal::F32(f32::INFINITY),
            ("f32", "NEG_INFINITY") => Literal::F32(f32::NEG_INFINITY),
            ("f32", "NAN") => Literal::F32(f32::NAN),
            (t, _) => {
                if let Some(reason) = types::refusal(t) {
                    return Some(Err(self.error(span, reason)));
                }
                return None;
            }
        };
        Some(Ok(self.expr(
            Expr::Literal(literal),
            Ty::Known(literal.scalar()),
            span,
        )))
    }

    fn unary(&mut self, u: &syn::ExprUnary) -> R<Handle<Expression>> {
        let span = u.span();
        match u.op {
            syn::UnOp::Neg(_) => {
                // `-2147483648` is one literal to rustc; keep it one here.
                let mut inner = &*u.expr;
                while let syn::Expr::Paren(p) = inner {
                    inner = &p.expr;
                }
                if let syn::Expr::Lit(lit) = inner {
                    return self.literal(&lit.lit, true);
                }
                let e = self.value(&u.expr)?;
                self.require_numeric(e, span)?;
                if let Ty::Compound(t) = self.infer.shallow(self.ty(e)) {
                    if !matches!(t, Type::Vector(_, Scalar::F32 | Scalar::I32)) {
                        let name = type_name(&self.cx.kernel.types, t);
                        return Err(self.error(span, format!("cannot apply unary `-` to `{name}`")));
                    }
                }
                if let Ty::Known(Scalar::U32) = self.infer.shallow(self.ty(e)) {
                    return Err(self.error(
                        span,
                        "cannot apply unary `-` to an unsigned integer; use `0u32.wrapping_sub(x)`",
                    ));
                }
                let ty = self.ty(e);
                Ok(self.expr(
                    Expr::Unary {
                        op: UnaryOp::Neg,
                        expr: e,
                    },
                    ty,
                    span,
                ))
            }
            syn::UnOp::Not(_) => {
                let e = self.value(&u.expr)?;
                if let Ty::Known(Scalar::F32) = self.infer.shallow(self.ty(e)) {
                    return Err(self.error(span, "cannot apply `!` to `f32`"));
                }
                if let Ty::Compound(t) = self.infer.shallow(self.ty(e)) {
                    let name = type_name(&self.cx.kernel.types, t);
                    return Err(self.error(span, format!("cannot apply `!` to `{name}`")));
                }
                let ty = self.ty(e);
                Ok(self.expr(
                    Expr::Unary {
                        op: UnaryOp::Not,
                        expr: e,
                    },
                    ty,
                    span,
                ))
            }
            syn::UnOp::Deref(_) => Err(self.error(
                span,
                "kernels have no references to dereference; use the value directly",
            )),
            _ => Err(self.error(span, "this operator is not supported in kernels")),
        }
    }

    fn binary_op(op: &syn::BinOp) -> (BinaryOp, bool) {
        use syn::BinOp as B;
        match op {
            B::Add(_) => (BinaryOp::Add, false),
            B::Sub(_) => (BinaryOp::Sub, false),
            B::Mul(_) => (BinaryOp::Mul, false),
            B::Div(_) => (BinaryOp::Div, false),
            B::Rem(_) => (BinaryOp::Rem, false),
            B::And(_) => (BinaryOp::LogicalAnd, false),
            B::Or(_) => (BinaryOp::LogicalOr, false),
            B::BitXor(_) => (BinaryOp::BitXor, false),
            B::BitAnd(_) => (BinaryOp::BitAnd, false),
            B::BitOr(_) => (BinaryOp::BitOr, false),
            B::Shl(_) => (BinaryOp::Shl, false),
            B::Shr(_) => (BinaryOp::Shr, false),
            B::Eq(_) => (BinaryOp::Eq, false),
            B::Lt(_) => (BinaryOp::Lt, false),
            B::Le(_) => (BinaryOp::Le, false),
            B::Ne(_) => (BinaryOp::Ne, false),
            B::Ge(_) => (BinaryOp::Ge, false),
            B::Gt(_) => (BinaryOp::Gt, false),
            B::AddAssign(_) => (BinaryOp::Add, true),
            B::SubAssign(_) => (BinaryOp::Sub, true),
            B::MulAssign(_) => (BinaryOp::Mul, true),
            B::DivAssign(_) => (BinaryOp::Div, true),
            B::RemAssign(_) => (BinaryOp::Rem, true),
            B::BitXorAssign(_) => (BinaryOp::BitXor, true),
            B::BitAndAssign(_) => (BinaryOp::BitAnd, true),
            B::BitOrAssign(_) => (BinaryOp::BitOr, true),
            B::ShlAssign(_) => (BinaryOp::Shl, true),
            B::ShrAssign(_) => (BinaryOp::Shr, true),
            _ => (BinaryOp::Add, false),
        }
    }

    /// The type of `left op right`, checking operand types the way rustc does.
    fn binary_type(
        &mut self,
        op: BinaryOp,
        l: Handle<Expression>,
        r: Handle<Expression>,
        span: Span,
    ) -> R<Ty> {
        let (lt, rt) = (self.ty(l), self.ty(r));
        let is_vector = |t: Ty| matches!(t, Ty::Compound(Type::Vector(..)));
        if is_vector(self.infer.shallow(lt)) || is_vector(self.infer.shallow(rt)) {
            return self.vector_binary_type(op, lt, rt, span);
        }
        for t in [lt, rt] {
            if let Ty::Compound(c) = self.infer.shallow(t) {
                let name = type_name(&self.cx.kernel.types, c);
                let advice = match (c, op.is_comparison()) {
                    (Type::Array(_), true) => {
                        "WGSL has no `==` on arrays: compare the elements in a loop"
                    }
                    (_, true) => "WGSL has no `==` on structs: compare the fields you care about",
                    (Type::Array(_), false) => {
                        "operators apply to numbers: index the array to get one"
                    }
                    _ => "operators apply to numbers: use the struct's fields",
                };
                return Err(self.error(
                    span,
                    format!("this operator cannot be applied to `{name}`; {advice}"),
                ));
            }
        }
        match op {
            BinaryOp::Shl | BinaryOp::Shr => {
                self.require_int(l, span)?;
                self.require_int(r, span)?;
                Ok(lt)
            }
            BinaryOp::LogicalAnd | BinaryOp::LogicalOr => {
                self.require(l, Scalar::Bool, span)?;
                self.require(r, Scalar::Bool, span)?;
                Ok(Ty::Known(Scalar::Bool))
            }
            op if op.is_comparison() => {
                self.unify(lt, rt, span)?;
                Ok(Ty::Known(Scalar::Bool))
            }
            BinaryOp::BitAnd | BinaryOp::BitOr | BinaryOp::BitXor => {
                let t = self.unify(lt, rt, span)?;
                if self.infer.shallow(t) == Ty::Known(Scalar::F32)
                    || self.infer.kind_of(t) == Some(VarKind::Float)
                {
                    return Err(self.error(
                        span,
                        "bitwise operators do not apply to `f32`; use `f32::to_bits` first",
                    ));
                }
                Ok(t)
            }
            _ => {
                let t = self.unify(lt, rt, span)?;
                if self.infer.shallow(t) == Ty::Known(Scalar::Bool) {
                    return Err(self.error(span, "arithmetic does not apply to `bool`"));
                }
                Ok(t)
            }
        }
    }

    fn binary(&mut self, b: &syn::ExprBinary) -> R<Value> {
        let span = b.span();
        let (op, compound) = Self::binary_op(&b.op);
        if compound {
            return self.assign(&b.left, Some(op), &b.right, span);
        }
        if matches!(op, BinaryOp::LogicalAnd | BinaryOp::LogicalOr) {
            return self.short_circuit(op, b).map(Value::Expr);
        }
        let v = self.operands(&[&b.left, &b.right])?;
        let ty = self.binary_type(op, v[0], v[1], span)?;
        Ok(Value::Expr(self.expr(
            Expr::Binary {
                op,
                left: v[0],
                right: v[1],
            },
            ty,
            span,
        )))
    }

    /// `a && b` / `a || b`: when `b` needs statements they run only if `a` lets them.
    fn short_circuit(&mut self, op: BinaryOp, b: &syn::ExprBinary) -> R<Handle<Expression>> {
        let span = b.span();
        let left = self.value(&b.left)?;
        self.require(left, Scalar::Bool, b.left.span())?;
        let (rhs_block, right) = self.with_block(|this| this.value(&b.right).map(Value::Expr));
        let Value::Expr(right) = right? else {
            return Err(self.error(b.right.span(), "expected a `bool` value"));
        };
        self.require(right, Scalar::Bool, b.right.span())?;
        let bool_ty = Ty::Known(Scalar::Bool);
        if rhs_block.is_empty() {
            return Ok(self.expr(Expr::Binary { op, left, right }, bool_ty, span));
        }
        let flag = self.new_local("__cond", bool_ty, true, false, span);
        self.push(
            Stmt::Let {
                local: flag,
                init: Some(left),
            },
            span,
        );
        let mut accept = rhs_block;
        let ir_span = self.span(span);
        accept.push(Statement {
            kind: Stmt::Assign {
                place: Place::Local(flag),
                op: None,
                value: right,
            },
            span: ir_span,
        });
        let read = self.expr(Expr::Local(flag), bool_ty, span);
        let cond = if op == BinaryOp::LogicalAnd {
            read
        } else {
            self.expr(
                Expr::Unary {
                    op: UnaryOp::Not,
                    expr: read,
                },
                bool_ty,
                span,
            )
        };
        self.push(
            Stmt::If {
                cond,
                accept,
                reject: Vec::new(),
            },
            span,
        );
        Ok(self.expr(Expr::Local(flag), bool_ty, span))
    }

    /// The buffer parameter named by `e` (for `.len()`).
    fn slice_param(&mut self, e: &syn::Expr) -> R<ParamId> {
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
    fn element(&mut self, e: &syn::ExprIndex) -> R<Option<Element>> {
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
                return Err(self.error(
                    r.span(),
                    "sub-slices are not supported in kernels; index single elements",
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
                self.require(index, Scalar::U32, index_exprs[0].span())?;
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
                    self.require(*h, Scalar::U32, ix.span())?;
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

    fn index(&mut self, i: &syn::ExprIndex) -> R<Handle<Expression>> {
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

    fn assign(
        &mut self,
        left: &syn::Expr,
        op: Option<BinaryOp>,
        right: &syn::Expr,
        span: Span,
    ) -> R<Value> {
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
                self.binary_type(op, stand_in, value, span)?;
            }
        }
        self.push(Stmt::Assign { place, op, value }, span);
        Ok(Value::Unit)
    }

    /// The place an assignment writes, and its type.
    fn place(&mut self, left: &syn::Expr) -> R<(Place, Ty)> {
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
                Some(Element::Shared { var, elem, indices, .. }) => Ok((Place::Shared { var, indices }, Ty::of(elem))),
                None => {
                    let (base, base_ty) = self.place(&i.expr)?;
                    let index = self.value(&i.index)?;
                    self.require(index, Scalar::U32, i.index.span())?;
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

    fn cast(&mut self, c: &syn::ExprCast) -> R<Handle<Expression>> {
        let to = types::scalar(&c.ty).map_err(|e| {
            self.cx.errors.push(e);
            Reported
        })?;
        let e = self.value(&c.expr)?;
        let from = self.ty(e);
        if let Ty::Compound(t) = self.infer.shallow(from) {
            let name = type_name(&self.cx.kernel.types, t);
            return Err(self.error(c.span(), format!("`as` converts numbers; `{name}` is not one (to number an enum's variants, `match` on it)")));
        }
        if let Ty::Known(Scalar::F32) | Ty::Var(_) = self.infer.shallow(from) {
            if to == types::HostScalar::Bool {
                return Err(self.error(
                    c.span(),
                    "cannot cast a number to `bool`; compare it instead (`x != 0`)",
                ));
            }
        }
        if let Ty::Known(s) = self.infer.shallow(from) {
            if s.is_integer() && to == types::HostScalar::Bool {
                return Err(self.error(
                    c.span(),
                    "cannot cast a number to `bool`; compare it instead (`x != 0`)",
                ));
            }
        }
        Ok(self.expr(
            Expr::Cast {
                expr: e,
                to: to.scalar(),
            },
            Ty::Known(to.scalar()),
            c.span(),
        ))
    }

    fn math_fun(name: &str) -> Option<MathFun> {
        Some(match name {
            "abs" => MathFun::Abs,
            "min" => MathFun::Min,
            "max" => MathFun::Max,
            "sqrt" => MathFun::Sqrt,
            "sin" => MathFun::Sin,
            "cos" => MathFun::Cos,
            "tan" => MathFun::Tan,
            "exp" => MathFun::Exp,
            "ln" => MathFun::Ln,
            "powf" => MathFun::Powf,
            "floor" => MathFun::Floor,
            "ceil" => MathFun::Ceil,
            "trunc" => MathFun::Trunc,
            "round" => MathFun::Round,
            "mul_add" => MathFun::MulAdd,
            "log10" => MathFun::Log10,
            "log2" => MathFun::Log2,
            "cbrt" => MathFun::Cbrt,
            "hypot" => MathFun::Hypot,
            "exp_m1" => MathFun::ExpM1,
            "ln_1p" => MathFun::Ln1p,
            "copysign" => MathFun::Copysign,
            "recip" => MathFun::Recip,
            "to_degrees" => MathFun::ToDegrees,
            "to_radians" => MathFun::ToRadians,
            "signum" => MathFun::Signum,
            "rem_euclid" => MathFun::RemEuclid,
            "clamp" => MathFun::Clamp,
            "atan2" => MathFun::Atan2,
            "tanh" => MathFun::Tanh,
            "asinh" => MathFun::Asinh,
            "acosh" => MathFun::Acosh,
            "atanh" => MathFun::Atanh,
            "count_ones" => MathFun::CountOnes,
            "leading_zeros" => MathFun::LeadingZeros,
            "trailing_zeros" => MathFun::TrailingZeros,
            "pow" | "wrapping_pow" => MathFun::Pow,
            _ => return None,
        })
    }

    /// `block_barrier()` or `storage_barrier()` (optionally as `gpu::..`).
    fn barrier(c: &syn::ExprCall) -> Option<Barrier> {
        let syn::Expr::Path(p) = &*c.func else {
            return None;
        };
        let segments = &p.path.segments;
        let from_gpu = segments.len() == 1
            || segments
                .iter()
                .rev()
                .nth(1)
                .is_some_and(|s| s.ident == "gpu");
        match segments.last()?.ident.to_string().as_str() {
            "block_barrier" if from_gpu => Some(Barrier::Workgroup),
            "storage_barrier" if from_gpu => Some(Barrier::Storage),
            _ => None,
        }
    }

    /// Checks that `e` names a `std::sync::atomic::Ordering` variant. WGSL atomics are all
    /// relaxed; stronger orderings are accepted (barriers give the workgroup-level ordering).
    fn ordering(&mut self, e: &syn::Expr) -> R<()> {
        if let syn::Expr::Path(p) = e {
            if let Some(last) = p.path.segments.last() {
                if ["Relaxed", "Acquire", "Release", "AcqRel", "SeqCst"]
                    .iter()
                    .any(|v| last.ident == v)
                {
                    return Ok(());
                }
            }
        }
        Err(self.error(
            e.span(),
            "expected an `Ordering` (`Ordering::Relaxed`, ...)",
        ))
    }

    /// `x[i].fetch_add(v, ord)` and the other atomic methods; returns the previous value.
    fn atomic_method(&mut self, m: &syn::ExprMethodCall, name: &str) -> R<Value> {
        let span = m.span();
        let fun = match name {
            "load" => AtomicFun::Load,
            "store" => AtomicFun::Store,
            "fetch_add" => AtomicFun::Add,
            "fetch_sub" => AtomicFun::Sub,
            "fetch_min" => AtomicFun::Min,
            "fetch_max" => AtomicFun::Max,
            "fetch_and" => AtomicFun::And,
            "fetch_or" => AtomicFun::Or,
            "fetch_xor" => AtomicFun::Xor,
            "swap" => AtomicFun::Exchange,
            _ => return self.compare_exchange(m).map(|_| Value::Unit),
        };
        let arity = if fun == AtomicFun::Load { 1 } else { 2 };
        if m.args.len() != arity {
            return Err(self.error(
                span,
                format!("`{name}` takes {arity} argument(s), the last an `Ordering`"),
            ));
        }
        let (target, elem) = self.atomic_target(&m.receiver)?;
        let args: Vec<&syn::Expr> = m.args.iter().collect();
        self.ordering(args[arity - 1])?;
        let value = if arity == 2 {
            let v = self.value(args[0])?;
            self.require(v, elem, args[0].span())?;
            Some(self.spill(v, None))
        } else {
            None
        };
        let ty = Ty::Known(elem);
        let result =
            (fun != AtomicFun::Store).then(|| self.new_local("__old", ty, false, false, span));
        self.push(
            Stmt::Atomic {
                fun,
                target,
                value,
                result,
            },
            span,
        );
        Ok(match result {
            Some(l) => Value::Expr(self.expr(Expr::Local(l), ty, span)),
            None => Value::Unit,
        })
    }

    /// The atomic element a method is called on, and its type.
    fn atomic_target(&mut self, receiver: &syn::Expr) -> R<(AtomicTarget, Scalar)> {
        let mut r = receiver;
        while let syn::Expr::Paren(p) = r {
            r = &p.expr;
        }
        let syn::Expr::Index(ix) = r else {
            return Err(self.error(receiver.span(), "atomic methods apply to an element of an atomic buffer or workgroup array: `counts[i].fetch_add(1, Ordering::Relaxed)`"));
        };
        let scalar = |t: Type| t.scalar().unwrap_or(Scalar::U32);
        match self.element(ix)? {
            Some(Element::Buffer { slice, elem, atomic: true, index, .. }) => Ok((AtomicTarget::Buffer { slice, index }, scalar(elem))),
            Some(Element::Shared { var, elem, atomic: true, indices }) => Ok((AtomicTarget::Shared { var, indices }, scalar(elem))),
            _ => Err(self.error(receiver.span(), "this element is not atomic: declare the parameter `&[AtomicU32]`/`&[AtomicI32]` or the array `shared::<[AtomicU32; N]>()`")),
        }
    }

    /// `x[i].compare_exchange(current, new, ord, ord)`: returns (previous value, exchanged).
    fn compare_exchange(&mut self, m: &syn::ExprMethodCall) -> R<(Handle<Local>, Handle<Local>)> {
        let span = m.span();
        if m.args.len() != 4 {
            return Err(self.error(
                span,
                "`compare_exchange` takes `current, new, success: Ordering, failure: Ordering`",
            ));
        }
        let (target, elem) = self.atomic_target(&m.receiver)?;
        let args: Vec<&syn::Expr> = m.args.iter().collect();
        self.ordering(args[2])?;
        self.ordering(args[3])?;
        let v = self.operands(&args[..2])?;
        self.require(v[0], elem, args[0].span())?;
        self.require(v[1], elem, args[1].span())?;
        let compare = self.spill(v[0], None);
        let value = self.spill(v[1], None);
        let old = self.new_local("__old", Ty::Known(elem), true, false, span);
        let exchanged = self.new_local("__exchanged", Ty::Known(Scalar::Bool), true, false, span);
        self.push(
            Stmt::CompareExchange {
                target,
                compare,
                value,
                old,
                exchanged,
            },
            span,
        );
        Ok((old, exchanged))
    }

    /// `.is_ok()`, `.is_err()`, `.unwrap_or_else(|v| v)` on the `Result` of `compare_exchange`.
    fn exchange_result(
        &mut self,
        m: &syn::ExprMethodCall,
        inner: &syn::ExprMethodCall,
        name: &str,
    ) -> R<Value> {
        let span = m.span();
        let closure_is_identity = |e: &syn::Expr| match e {
            syn::Expr::Closure(c) if c.inputs.len() == 1 => match (&c.inputs[0], &*c.body) {
                (syn::Pat::Ident(p), syn::Expr::Path(b)) => b.path.is_ident(&p.ident),
                _ => false,
            },
            _ => false,
        };
        let ok = match name {
            "is_ok" | "is_err" if m.args.is_empty() => Some(name == "is_ok"),
            "unwrap_or_else" if m.args.len() == 1 && closure_is_identity(&m.args[0]) => None,
            _ => {
                return Err(self.error(
                    m.method.span(),
                    "the `Result` of `compare_exchange` supports `.is_ok()`, `.is_err()` and `.unwrap_or_else(|v| v)` (the previous value) in kernels",
                ))
            }
        };
        let (old, exchanged) = self.compare_exchange(inner)?;
        let elem_ty = self.local_tys[old.index()];
        let bool_ty = Ty::Known(Scalar::Bool);
        Ok(Value::Expr(match ok {
            Some(true) => self.expr(Expr::Local(exchanged), bool_ty, span),
            Some(false) => {
                let e = self.expr(Expr::Local(exchanged), bool_ty, span);
                self.expr(
                    Expr::Unary {
                        op: UnaryOp::Not,
                        expr: e,
                    },
                    bool_ty,
                    span,
                )
            }
            None => self.expr(Expr::Local(old), elem_ty, span),
        }))
    }

    fn method_call(&mut self, m: &syn::ExprMethodCall) -> R<Value> {
        let name = m.method.to_string();
        const ATOMIC: [&str; 12] = [
            "load",
            "store",
            "fetch_add",
            "fetch_sub",
            "fetch_min",
            "fetch_max",
            "fetch_and",
            "fetch_or",
            "fetch_xor",
            "swap",
            "compare_exchange",
            "compare_exchange_weak",
        ];
        if ATOMIC.contains(&name.as_str()) {
            return self.atomic_method(m, &name);
        }
        if let syn::Expr::MethodCall(inner) = &*m.receiver {
            if inner.method == "compare_exchange" || inner.method == "compare_exchange_weak" {
                return self.exchange_result(m, inner, &name);
            }
        }
        self.plain_method_call(m).map(Value::Expr)
    }

    fn plain_method_call(&mut self, m: &syn::ExprMethodCall) -> R<Handle<Expression>> {
        let span = m.span();
        let name = m.method.to_string();
        if m.turbofish.is_some() {
            return Err(self.error(
                m.method.span(),
                "turbofish arguments are not supported here",
            ));
        }
        if name == "len" {
            if !m.args.is_empty() {
                return Err(self.error(m.args.span(), "`len` takes no arguments"));
            }
            let slice = self.slice_param(&m.receiver)?;
            return Ok(self.expr(Expr::Len(slice), Ty::Known(Scalar::U32), span));
        }
        let receiver = self.value(&m.receiver)?;
        let receiver_end = self.block_len();
        if let Ty::Compound(Type::Vector(..)) = self.infer.shallow(self.ty(receiver)) {
            let rest: Vec<&syn::Expr> = m.args.iter().collect();
            return self.vector_method(&name, m.method.span(), receiver, &rest, span);
        }
        let mut operands: Vec<&syn::Expr> = vec![&m.receiver];
        operands.extend(m.args.iter());
        self.math_call_with(
            &name,
            m.method.span(),
            &operands,
            Some((receiver, receiver_end)),
            span,
        )
    }

    fn math_call(
        &mut self,
        name: &str,
        name_span: Span,
        operands: &[&syn::Expr],
        span: Span,
    ) -> R<Handle<Expression>> {
        self.math_call_with(name, name_span, operands, None, span)
    }

    /// A math function; `receiver` is the first operand when it is already lowered (with the
    /// block length after it).
    fn math_call_with(
        &mut self,
        name: &str,
        name_span: Span,
        operands: &[&syn::Expr],
        receiver: Option<(Handle<Expression>, usize)>,
        span: Span,
    ) -> R<Handle<Expression>> {
        let wrapping = match name {
            "wrapping_add" => Some(BinaryOp::Add),
            "wrapping_sub" => Some(BinaryOp::Sub),
            "wrapping_mul" => Some(BinaryOp::Mul),
            // WGSL defines `MIN / -1` as `MIN` and `MIN % -1` as 0: Rust's wrapping results.
            "wrapping_div" => Some(BinaryOp::Div),
            "wrapping_rem" => Some(BinaryOp::Rem),
            "wrapping_shl" => Some(BinaryOp::Shl),
            "wrapping_shr" => Some(BinaryOp::Shr),
            _ => None,
        };
        if name == "wrapping_neg" || name == "wrapping_abs" {
            if operands.len() != 1 {
                return Err(self.error(span, format!("`{name}` takes no arguments")));
            }
            let v = match receiver {
                Some((r, _)) => r,
                None => self.value(operands[0])?,
            };
            self.require_int(v, span)?;
            let ty = self.ty(v);
            let kind = if name == "wrapping_neg" {
                Expr::Unary {
                    op: UnaryOp::Neg,
                    expr: v,
                }
            } else {
                if self.infer.shallow(ty) == Ty::Known(Scalar::U32) {
                    return Err(self.error(name_span, "`wrapping_abs` is not defined for `u32`"));
                }
                Expr::Math {
                    fun: MathFun::Abs,
                    args: vec![v],
                }
            };
            return Ok(self.expr(kind, ty, span));
        }
        let Some(fun) = Self::math_fun(name).or(wrapping.map(|_| MathFun::Abs)) else {
            return Err(self.error(
                name_span,
                format!("`{name}` is not a method Sarek can run on the GPU; kernels support `len`; on `f32`: `abs`, `min`, `max`, `clamp`, `sqrt`, `cbrt`, `hypot`, `sin`, `cos`, `tan`, `atan2`, `tanh`, `asinh`, `acosh`, `atanh`, `exp`, `exp_m1`, `ln`, `ln_1p`, `log2`, `log10`, `powf`, `floor`, `ceil`, `trunc`, `round`, `mul_add`, `recip`, `signum`, `copysign`, `rem_euclid`, `to_degrees`, `to_radians`; on integers: `abs`, `min`, `max`, `clamp`, `pow`, `rem_euclid`, `count_ones`, `leading_zeros`, `trailing_zeros` and `wrapping_add/sub/mul/div/rem/neg/abs/shl/shr/pow`"),
            ));
        };
        let arity = if wrapping.is_some() { 2 } else { fun.arity() };
        if operands.len() != arity {
            return Err(self.error(span, format!("`{name}` takes {} argument(s)", arity - 1)));
        }
        let args = match receiver {
            Some((r, end)) => {
                let before = self.block_len();
                let mut rest = self.operands(&operands[1..])?;
                let r = if self.block_len() != before && !self.is_stable(r) {
                    self.spill(r, Some(end))
                } else {
                    r
                };
                rest.insert(0, r);
                rest
            }
            None => self.operands(operands)?,
        };
        if let Some(op) = wrapping {
            self.require_int(args[0], span)?;
            let ty = self.binary_type(op, args[0], args[1], span)?;
            return Ok(self.expr(
                Expr::Binary {
                    op,
                    left: args[0],
                    right: args[1],
                },
                ty,
                span,
            ));
        }
        match fun {
            MathFun::CountOnes | MathFun::LeadingZeros | MathFun::TrailingZeros => {
                self.require_int(args[0], span)?;
                return Ok(self.expr(Expr::Math { fun, args }, Ty::Known(Scalar::U32), span));
            }
            MathFun::Pow => {
                self.require_int(args[0], span)?;
                self.require(args[1], Scalar::U32, operands[1].span())?;
                let ty = self.ty(args[0]);
                return Ok(self.expr(Expr::Math { fun, args }, ty, span));
            }
            _ => {}
        }
        let mut ty = self.ty(args[0]);
        for &a in &args[1..] {
            let at = self.ty(a);
            ty = self.unify(ty, at, span)?;
        }
        match fun {
            MathFun::Abs | MathFun::Min | MathFun::Max | MathFun::Clamp | MathFun::RemEuclid => {
                let t = self.infer.shallow(ty);
                if t == Ty::Known(Scalar::Bool)
                    || (fun == MathFun::Abs && t == Ty::Known(Scalar::U32))
                {
                    let found = self.describe(t);
                    return Err(
                        self.error(name_span, format!("`{name}` is not defined for `{found}`"))
                    );
                }
            }
            _ => {
                if self.infer.shallow(ty) != Ty::Known(Scalar::F32)
                    && self.infer.kind_of(ty) != Some(VarKind::Float)
                {
                    let found = self.describe(ty);
                    return Err(self.error(name_span, format!("`{name}` is an `f32` method, but the receiver is `{found}`; convert it with `as f32`")));
                }
                ty = self.unify(ty, Ty::Known(Scalar::F32), span)?;
            }
        }
        Ok(self.expr(Expr::Math { fun, args }, ty, span))
    }

    fn intrinsic(name: &str) -> Option<Builtin> {
        let axis = |s: &str| match s {
            "x" => Some(Axis::X),
            "y" => Some(Axis::Y),
            "z" => Some(Axis::Z),
            _ => None,
        };
        if name == "global_thread_id" {
            return Some(Builtin::GlobalThreadId);
        }
        let (base, a) = name.rsplit_once('_')?;
        let a = axis(a)?;
        Some(match base {
            "thread_idx" => Builtin::ThreadIdx(a),
            "block_idx" => Builtin::BlockIdx(a),
            "block_dim" => Builtin::BlockDim(a),
            "grid_dim" => Builtin::GridDim(a),
            "global_idx" => Builtin::GlobalIdx(a),
            _ => return None,
        })
    }

    fn call(&mut self, c: &syn::ExprCall) -> R<Value> {
        let span = c.span();
        let syn::Expr::Path(p) = &*c.func else {
            return Err(self.error(
                c.func.span(),
                "only Sarek's intrinsics, helper functions and `f32` functions can be called in a kernel",
            ));
        };
        if let Some(Item::Fn(f, scope)) =
            items::local_path_name(&p.path).and_then(|n| self.cx.items.lookup(&n))
        {
            return self.helper_call(c, &f, scope);
        }
        if let Some(v) = self.variant_call(c, p) {
            return v.map(Value::Expr);
        }
        if let Some(v) = self.vector_call(c, p) {
            return v.map(Value::Expr);
        }
        let segments: Vec<String> = p
            .path
            .segments
            .iter()
            .map(|s| s.ident.to_string())
            .collect();
        let last = segments.last().cloned().unwrap_or_default();
        let prefix = &segments[..segments.len() - 1];
        let from_gpu = prefix.is_empty() || prefix.last().is_some_and(|s| s == "gpu");
        if from_gpu {
            if let Some(builtin) = Self::intrinsic(&last) {
                if !c.args.is_empty() {
                    return Err(self.error(c.args.span(), format!("`{last}()` takes no arguments")));
                }
                if self.helper.is_some() {
                    return Err(self.error(p.span(), format!("`{last}()` can only be called in the kernel body; pass its value to the helper as an argument")));
                }
                return Ok(Value::Expr(self.expr(
                    Expr::Builtin(builtin),
                    Ty::Known(Scalar::U32),
                    span,
                )));
            }
            if last == "shared" {
                return Err(self.error(p.span(), "bind workgroup memory to a name where it is created: `let tile = shared::<[f32; 256]>();`"));
            }
        }
        // `f32::sqrt(x)`, `i32::max(a, b)`: the method-call forms of the same functions.
        if let [ty] = prefix {
            if let Some(reason) = types::refusal(ty) {
                return Err(self.error(p.span(), reason));
            }
            if matches!(ty.as_str(), "f32" | "i32" | "u32" | "usize") {
                let operands: Vec<&syn::Expr> = c.args.iter().collect();
                let name_span = p.path.segments.last().map_or(span, |s| s.ident.span());
                return self
                    .math_call(&last, name_span, &operands, span)
                    .map(Value::Expr);
            }
        }
        Err(self.error(
            c.func.span(),
            format!("cannot call `{0}` on the GPU: a kernel can call Sarek's intrinsics (`global_thread_id()`, `thread_idx_x()`, ...), math methods, and the `fn`s of its `#[sarek::module]` or its own body, whose code the macro reads; move `{0}` into the module", segments.join("::")),
        ))
    }

    fn condition(&mut self, e: &syn::Expr) -> R<Handle<Expression>> {
        let c = self.value(e)?;
        self.require(c, Scalar::Bool, e.span())?;
        Ok(c)
    }

    fn if_expr(&mut self, i: &syn::ExprIf) -> R<Value> {
        let span = i.span();
        let cond = self.condition(&i.cond)?;
        let (accept, a) = self.with_block(|this| this.block_contents(&i.then_branch));
        let (reject, b) = match &i.else_branch {
            Some((_, e)) => self.with_block(|this| this.expression(e)),
            None => (Vec::new(), Ok(Value::Unit)),
        };
        let (a, b) = (a?, b?);
        match (a, b) {
            (Value::Expr(x), Value::Expr(y)) => {
                let ty = self.unify(self.ty(x), self.ty(y), span)?;
                // `select` evaluates both arms and takes only scalars (and vectors).
                let scalar = !matches!(self.infer.shallow(ty), Ty::Compound(_));
                if accept.is_empty() && reject.is_empty() && scalar {
                    // Both arms are effect-free scalars: `select` is exact and branch-free.
                    return Ok(Value::Expr(self.expr(
                        Expr::Select {
                            cond,
                            accept: x,
                            reject: y,
                        },
                        ty,
                        span,
                    )));
                }
                self.value_if(cond, accept, reject, &[(true, x), (false, y)], ty, span)
            }
            (Value::Expr(x), Value::Never) => {
                let ty = self.ty(x);
                self.value_if(cond, accept, reject, &[(true, x)], ty, span)
            }
            (Value::Never, Value::Expr(y)) => {
                let ty = self.ty(y);
                self.value_if(cond, accept, reject, &[(false, y)], ty, span)
            }
            (Value::Expr(_), Value::Unit) | (Value::Unit, Value::Expr(_)) => Err(self.error(
                span,
                "`if` without `else` has type `()`; add an `else` arm that yields a value",
            )),
            (Value::Never, Value::Never) => {
                self.push(
                    Stmt::If {
                        cond,
                        accept,
                        reject,
                    },
                    span,
                );
                Ok(Value::Never)
            }
            _ => {
                self.push(
                    Stmt::If {
                        cond,
                        accept,
                        reject,
                    },
                    span,
                );
                Ok(Value::Unit)
            }
        }
    }

    /// An `if` whose value comes from arms with effects: only the taken arm runs.
    fn value_if(
        &mut self,
        cond: Handle<Expression>,
        mut accept: Block,
        mut reject: Block,
        results: &[(bool, Handle<Expression>)],
        ty: Ty,
        span: Span,
    ) -> R<Value> {
        let temp = self.new_local("__if", ty, true, false, span);
        self.push(
            Stmt::Let {
                local: temp,
                init: None,
            },
            span,
        );
        for &(arm, value) in results {
            let ir_span = self.span(span);
            let store = Statement {
                kind: Stmt::Assign {
                    place: Place::Local(temp),
                    op: None,
                    value,
                },
                span: ir_span,
            };
            if arm {
                accept.push(store)
            } else {
                reject.push(store)
            }
        }
        self.push(
            Stmt::If {
                cond,
                accept,
                reject,
            },
            span,
        );
        Ok(Value::Expr(self.expr(Expr::Local(temp), ty, span)))
    }

    fn loop_body(
        &mut self,
        body: &syn::Block,
        prologue: impl FnOnce(&mut Self) -> R<()>,
    ) -> (Block, bool, R<()>) {
        self.loops.push(LoopFrame { has_break: false });
        let (block, result) = self.with_block(|this| {
            prologue(this)?;
            this.block_contents(body)?;
            Ok(Value::Unit)
        });
        let frame = self.loops.pop().expect("pushed above");
        (block, frame.has_break, result.map(|_| ()))
    }

    fn check_label(&mut self, label: &Option<syn::Label>) -> R<()> {
        if let Some(label) = label {
            return Err(self.error(
                label.span(),
                "WGSL has no loop labels; use a flag variable to leave outer loops",
            ));
        }
        Ok(())
    }

    fn while_loop(&mut self, w: &syn::ExprWhile) -> R<Value> {
        self.check_label(&w.label)?;
        let span = w.span();
        let (body, _, result) = self.loop_body(&w.body, |this| {
            let cond = this.condition(&w.cond)?;
            let exit = this.exit_unless(cond, span);
            this.blocks.last_mut().expect("inside a block").push(exit);
            Ok(())
        });
        result?;
        self.push(
            Stmt::Loop {
                body,
                continuing: Vec::new(),
                break_if: None,
            },
            span,
        );
        Ok(Value::Unit)
    }

    /// `if cond {} else { break; }`: the loop test in the shape WGSL's own `while` has, which
    /// drivers compile best (measured: an `if !cond { break; }` made a loop 2% slower on an
    /// NVIDIA H200).
    fn exit_unless(&mut self, cond: Handle<Expression>, span: Span) -> Statement {
        let break_span = self.span(span);
        let if_span = self.span(span);
        Statement {
            kind: Stmt::If {
                cond,
                accept: Vec::new(),
                reject: vec![Statement {
                    kind: Stmt::Break,
                    span: break_span,
                }],
            },
            span: if_span,
        }
    }

    fn loop_expr(&mut self, l: &syn::ExprLoop) -> R<Value> {
        self.check_label(&l.label)?;
        let span = l.span();
        let (body, has_break, result) = self.loop_body(&l.body, |_| Ok(()));
        result?;
        self.push(
            Stmt::Loop {
                body,
                continuing: Vec::new(),
                break_if: None,
            },
            span,
        );
        Ok(if has_break { Value::Unit } else { Value::Never })
    }

    /// `for i in a..b` / `a..=b`: bounds evaluated once, no overflow at the type's maximum.
    fn for_loop(&mut self, f: &syn::ExprForLoop) -> R<Value> {
        self.check_label(&f.label)?;
        let span = f.span();
        let (name, mutable) = match &*f.pat {
            syn::Pat::Ident(p) if p.by_ref.is_none() && p.subpat.is_none() => {
                (ident_name(&p.ident), p.mutability.is_some())
            }
            syn::Pat::Wild(_) => ("_".to_owned(), false),
            other => {
                return Err(self.error(
                    other.span(),
                    "bind the loop counter to a plain name: `for i in a..b`",
                ))
            }
        };
        let (range_expr, adapters) = ranges::split(&f.expr);
        let syn::Expr::Range(range) = range_expr else {
            return Err(self.error(f.expr.span(), "a kernel `for` loop iterates over a range: `a..b` or `a..=b`, optionally with `.rev()` and `.step_by(k)`; other iterators have no GPU form"));
        };
        if !adapters.is_empty() {
            return self.adapted_for(f, &name, mutable, range, &adapters);
        }
        if let Some(v) = self.unrolled_for(f, &name, mutable, range) {
            return v;
        }
        let (Some(start), Some(end)) = (&range.start, &range.end) else {
            return Err(self.error(
                range.span(),
                "a `for` range needs both bounds: `a..b` or `a..=b`",
            ));
        };
        let inclusive = matches!(range.limits, syn::RangeLimits::Closed(_));
        let bounds = self.operands(&[start, end])?;
        let ty = self.unify(self.ty(bounds[0]), self.ty(bounds[1]), range.span())?;
        self.require_int(bounds[0], range.span())?;
        let start_local = self.temp(bounds[0], None);
        let end_local = self.temp(bounds[1], None);
        let start = self.expr(Expr::Local(start_local), ty, span);
        let end = self.expr(Expr::Local(end_local), ty, span);
        let counter = self.new_local("__i", ty, true, false, f.pat.span());
        self.push(
            Stmt::Let {
                local: counter,
                init: Some(start),
            },
            span,
        );

        let pat_span = f.pat.span();
        let (mut body, _, result) = self.loop_body(&f.body, |this| {
            let read = this.expr(Expr::Local(counter), ty, pat_span);
            let var = this.new_local(&name, ty, mutable, !mutable, pat_span);
            this.push(
                Stmt::Let {
                    local: var,
                    init: Some(read),
                },
                pat_span,
            );
            this.scopes
                .last_mut()
                .expect("a scope")
                .insert(name.clone(), Binding::Local(var));
            Ok(())
        });
        result?;
        let bool_ty = Ty::Known(Scalar::Bool);
        let one = self.expr(Expr::Literal(Literal::I32(0)), ty, span);
        self.int_literals.push((one, 1));
        let counter_span = self.span(pat_span);
        let increment = Statement {
            kind: Stmt::Assign {
                place: Place::Local(counter),
                op: Some(BinaryOp::Add),
                value: one,
            },
            span: counter_span,
        };
        let c = self.expr(Expr::Local(counter), ty, span);
        if inclusive {
            // Decide before incrementing so `..=MAX` ends instead of wrapping.
            let is_last = self.expr(
                Expr::Binary {
                    op: BinaryOp::Eq,
                    left: c,
                    right: end,
                },
                bool_ty,
                span,
            );
            let last = self.new_local("__last", bool_ty, false, true, span);
            let read_last = self.expr(Expr::Local(last), bool_ty, span);
            let last_span = self.span(span);
            let continuing = vec![
                Statement {
                    kind: Stmt::Let {
                        local: last,
                        init: Some(is_last),
                    },
                    span: last_span,
                },
                increment,
            ];
            let s2 = self.expr(Expr::Local(start_local), ty, span);
            let e2 = self.expr(Expr::Local(end_local), ty, span);
            let nonempty = self.expr(
                Expr::Binary {
                    op: BinaryOp::Le,
                    left: s2,
                    right: e2,
                },
                bool_ty,
                span,
            );
            let loop_span = self.span(span);
            let lp = Statement {
                kind: Stmt::Loop {
                    body,
                    continuing,
                    break_if: Some(read_last),
                },
                span: loop_span,
            };
            self.push(
                Stmt::If {
                    cond: nonempty,
                    accept: vec![lp],
                    reject: Vec::new(),
                },
                span,
            );
        } else {
            let in_range = self.expr(
                Expr::Binary {
                    op: BinaryOp::Lt,
                    left: c,
                    right: end,
                },
                bool_ty,
                span,
            );
            let exit = self.exit_unless(in_range, span);
            body.insert(0, exit);
            self.push(
                Stmt::Loop {
                    body,
                    continuing: vec![increment],
                    break_if: None,
                },
                span,
            );
        }
        Ok(Value::Unit)
    }

    // ---- finishing ----

    /// Resolves every type and literal; reports what rustc would also refuse, and floats
    /// that Rust would make `f64`.
    pub fn finish(mut self) -> Function {
        for (h, value) in std::mem::take(&mut self.int_literals) {
            let span = self.expr_span(h);
            let ty = self.expr_tys[h.index()];
            let literal = match self.infer.resolve(ty) {
                Some(Scalar::I32) => i32::try_from(value).ok().map(Literal::I32),
                Some(Scalar::U32) => u32::try_from(value).ok().map(Literal::U32),
                Some(Scalar::F32) => Some(Literal::F32(value as f32)),
                _ => None,
            };
            match literal {
                Some(l) => self.function.exprs[h].kind = Expr::Literal(l),
                None => {
                    let t = self.describe(ty);
                    self.error(span, format!("literal out of range for `{t}`"));
                }
            }
        }
        // An earlier error can leave a literal without its context; don't pile on.
        let earlier_errors = self.has_errors();
        for (h, value) in std::mem::take(&mut self.float_literals) {
            self.function.exprs[h].kind = Expr::Literal(Literal::F32(value));
            let ty = self.expr_tys[h.index()];
            if self.infer.resolve(ty).is_none() && !earlier_errors {
                let span = self.expr_span(h);
                self.error(span, "nothing fixes the type of this float literal, so Rust would make it `f64`, which WebGPU lacks; write it with a suffix (`1.0f32`) or annotate the binding (`let x: f32 = ..`)");
            }
        }
        let handles: Vec<Handle<Expression>> = self.function.exprs.iter().map(|(h, _)| h).collect();
        for h in handles {
            let ty = self.expr_tys[h.index()];
            self.function.exprs[h].ty = self.final_type(ty);
        }
        let locals: Vec<Handle<Local>> = self.function.locals.iter().map(|(h, _)| h).collect();
        for h in locals {
            let ty = self.local_tys[h.index()];
            self.function.locals[h].ty = self.final_type(ty);
        }
        self.function
    }

    fn final_type(&mut self, ty: Ty) -> Type {
        match self.infer.shallow(ty) {
            Ty::Compound(t) => t,
            other => Type::Scalar(self.infer.resolve(other).unwrap_or(Scalar::F32)),
        }
    }
}

/// Resolves every struct and enum of a module: the type table, the type of each item (in
/// order; `None` for other items) and the errors found.
pub fn module_types(module: &[syn::Item]) -> (Vec<TypeDef>, Vec<Option<Type>>, Vec<syn::Error>) {
    let mut cx = ModuleContext::new(String::new(), [1, 1, 1], Span::call_site());
    cx.declare_module(module);
    let mut out = Vec::new();
    for item in module {
        let name = match item {
            syn::Item::Struct(s) => Some(ident_name(&s.ident)),
            syn::Item::Enum(e) => Some(ident_name(&e.ident)),
            _ => None,
        };
        let ty = name.and_then(|n| match cx.items.lookup(&n) {
            Some(Item::Struct(s)) => cx.struct_type(&s).ok(),
            Some(Item::Enum(e)) => cx.enum_type(&e).ok(),
            _ => None,
        });
        out.push(ty);
    }
    (cx.kernel.types, out, cx.errors)
}
