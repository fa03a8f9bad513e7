//! Helper functions: each `fn` of the module (or of the kernel's body) that a kernel calls
//! becomes a WGSL function, specialised to the buffers it is given (WGSL cannot pass a storage
//! buffer to a function, so a helper taking `&[T]` reads the kernel's buffer directly). A self
//! tail call becomes a jump back to the top of the function; any other recursion is refused,
//! because WGSL forbids it.
//!
//! Workgroup arrays are specialised the same way: a `&[T; N]` / `&mut [T; N]` parameter is
//! always one of the kernel's `var<workgroup>` arrays (module-scope in WGSL), so the helper
//! reads and writes that array directly instead of taking a pointer. Helpers may also use the
//! index intrinsics, barriers, atomics and declare their own `shared::<..>()` arrays; the
//! uniformity check (`check::uniformity`) follows barriers through the calls.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use proc_macro2::Span;
use syn::spanned::Spanned;

use super::{ident_name, Binding, Lowerer, Reported, Value, R};
use crate::arena::Handle;
use crate::front::diagnostic::ErrorKind;
use crate::front::infer::Ty;
use crate::front::types;
use crate::ir::*;

/// What a helper's reference parameter is bound to in one specialisation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Bound {
    /// A kernel buffer (a `&[T]` / `&mut [T]` parameter).
    Buffer(u32),
    /// A workgroup array (a `&[T; N]` / `&mut [T; N]` parameter).
    Shared(u32),
}

/// A helper specialisation: the function item and what each of its reference parameters is
/// bound to.
type Key = (usize, Vec<Bound>);

/// Helpers lowered so far, and the chain of helpers being lowered.
#[derive(Default)]
pub struct CallState {
    memo: HashMap<Key, FunctionId>,
    stack: Vec<Key>,
    /// The workgroup array of each `shared::<..>()` declared in a helper, by the address of
    /// its call: one array per declaration, however often (and for however many
    /// specialisations) the helper is lowered, as CUDA's `__shared__` in a `__device__`
    /// function.
    shared: HashMap<usize, SharedId>,
}

impl CallState {
    /// The workgroup array already made for the `shared::<..>()` call at `call`, if any.
    pub(super) fn helper_shared(&self, call: &syn::ExprCall) -> Option<SharedId> {
        self.shared
            .get(&(call as *const syn::ExprCall as usize))
            .copied()
    }

    /// Records the workgroup array made for the `shared::<..>()` call at `call`.
    pub(super) fn remember_shared(&mut self, call: &syn::ExprCall, id: SharedId) {
        self.shared
            .insert(call as *const syn::ExprCall as usize, id);
    }
}

/// The helper being lowered.
pub struct HelperFrame {
    key: Key,
    name: String,
    result: Option<Type>,
    /// Calls (by address) in tail position: a self call there is a jump.
    tail_calls: HashSet<usize>,
    /// The locals holding the value parameters, in order.
    params: Vec<Handle<Local>>,
    /// Whether a tail call was lowered (the body then runs in a loop).
    looped: bool,
    /// Workgroup arrays this helper received as `&[T; N]`: it may not write them.
    read_only: Vec<SharedId>,
}

impl HelperFrame {
    /// Whether the helper received workgroup array `var` by `&` (not `&mut`).
    pub(super) fn reads_only(&self, var: SharedId) -> bool {
        self.read_only.contains(&var)
    }
}

/// A workgroup array parameter's type: element, atomicity, lengths, and `&mut`.
#[derive(Clone, PartialEq)]
struct SharedParam {
    elem: Type,
    atomic: bool,
    dims: Vec<u32>,
    mutable: bool,
}

/// A parameter of a helper.
enum HelperParam {
    Value(Type, bool),
    Slice(ParamType),
    Shared(SharedParam),
}

fn call_key(c: &syn::ExprCall) -> usize {
    c as *const syn::ExprCall as usize
}

/// The calls in tail position of a block: its final expression, through `if`, `match`,
/// blocks and parentheses.
fn tail_calls(block: &syn::Block, out: &mut HashSet<usize>) {
    if let Some(syn::Stmt::Expr(e, None)) = block.stmts.last() {
        tail_expr(e, out);
    }
}

fn tail_expr(e: &syn::Expr, out: &mut HashSet<usize>) {
    match e {
        syn::Expr::Call(c) => {
            out.insert(call_key(c));
        }
        syn::Expr::Paren(p) => tail_expr(&p.expr, out),
        syn::Expr::Group(g) => tail_expr(&g.expr, out),
        syn::Expr::Block(b) => tail_calls(&b.block, out),
        syn::Expr::If(i) => {
            tail_calls(&i.then_branch, out);
            if let Some((_, e)) = &i.else_branch {
                tail_expr(e, out);
            }
        }
        syn::Expr::Match(m) => {
            for arm in &m.arms {
                tail_expr(&arm.body, out);
            }
        }
        syn::Expr::Return(r) => {
            if let Some(v) = &r.expr {
                tail_expr(v, out);
            }
        }
        _ => {}
    }
}

impl Lowerer<'_> {
    /// `return` / `return value`.
    pub(super) fn return_expr(&mut self, r: &syn::ExprReturn) -> R<Value> {
        let span = r.span();
        let Some(frame) = &self.helper else {
            if let Some(v) = &r.expr {
                return Err(self.error(v.span(), "a kernel returns nothing: write `return;`"));
            }
            self.push(Stmt::Return(None), span);
            return Ok(Value::Never);
        };
        let result = frame.result;
        match (&r.expr, result) {
            (None, None) => {
                self.push(Stmt::Return(None), span);
                Ok(Value::Never)
            }
            (Some(v), Some(want)) => {
                if let syn::Expr::Call(c) = &**v {
                    if let Some(f) = self.helper.as_mut() {
                        f.tail_calls.insert(call_key(c));
                    }
                }
                let value = self.value_expecting(v, Some(want))?;
                // A tail call lowers to a jump and yields no value.
                if let Ok(h) = self.returned(value, want, v.span()) {
                    self.push(Stmt::Return(Some(h)), span);
                }
                Ok(Value::Never)
            }
            (Some(v), None) => Err(self.error(
                v.span(),
                "this function returns nothing; remove the value or declare `-> T`",
            )),
            (None, Some(_)) => {
                Err(self.error(span, "this function returns a value: write `return value;`"))
            }
        }
    }

    fn returned(
        &mut self,
        value: Handle<Expression>,
        want: Type,
        span: Span,
    ) -> R<Handle<Expression>> {
        let got = self.ty(value);
        self.unify(Ty::of(want), got, span)?;
        Ok(value)
    }

    fn helper_params(
        &mut self,
        f: &syn::ItemFn,
    ) -> R<Vec<(Option<syn::Ident>, HelperParam, Span)>> {
        let mut out = Vec::new();
        let mut failed = false;
        for input in &f.sig.inputs {
            let syn::FnArg::Typed(t) = input else {
                self.error(
                    input.span(),
                    "a helper is a free function; it cannot take `self`",
                );
                failed = true;
                continue;
            };
            let (ident, mutable) = match &*t.pat {
                syn::Pat::Ident(p) if p.by_ref.is_none() && p.subpat.is_none() => {
                    (Some(p.ident.clone()), p.mutability.is_some())
                }
                syn::Pat::Wild(_) => (None, false),
                other => {
                    self.error(other.span(), "helper parameters must be plain names");
                    failed = true;
                    continue;
                }
            };
            let param = match &*t.ty {
                syn::Type::Reference(r) => match &*r.elem {
                    syn::Type::Slice(s) => {
                        let access = if r.mutability.is_some() { Access::ReadWrite } else { Access::Read };
                        if let Some(a) = types::atomic(&s.elem) {
                            Ok(HelperParam::Slice(ParamType::AtomicSlice { elem: a.scalar() }))
                        } else {
                            self.cx.resolve_type(&s.elem).map(|elem| HelperParam::Slice(ParamType::Slice { elem, access }))
                        }
                    }
                    syn::Type::Array(_) => self.shared_type(&r.elem).map(|(elem, atomic, dims)| {
                        HelperParam::Shared(SharedParam { elem, atomic, dims, mutable: r.mutability.is_some() })
                    }),
                    _ => Err(self.error(t.ty.span(), "a helper takes buffers as slices (`&[T]`, `&mut [T]`) and other values by copy")),
                },
                ty if super::coop::names_coop_matrix(ty) => Err(self.error(ty.span(), super::coop::NOT_PASSED)),
                ty => self.cx.resolve_type(ty).map(|t| HelperParam::Value(t, mutable)),
            };
            match param {
                Ok(p) => out.push((ident, p, t.span())),
                Err(Reported) => failed = true,
            }
        }
        if failed {
            Err(Reported)
        } else {
            Ok(out)
        }
    }

    /// The kernel buffer a slice argument names.
    fn slice_argument(&mut self, arg: &syn::Expr, want: ParamType) -> R<ParamId> {
        let mut e = arg;
        loop {
            match e {
                syn::Expr::Paren(p) => e = &p.expr,
                syn::Expr::Reference(r) => e = &r.expr,
                syn::Expr::Unary(syn::ExprUnary {
                    op: syn::UnOp::Deref(_),
                    expr,
                    ..
                }) => e = expr,
                _ => break,
            }
        }
        let id = match e {
            syn::Expr::Path(p) => match p.path.get_ident().and_then(|i| self.lookup(&ident_name(i))) {
                Some(Binding::Param(id)) if self.cx.kernel.param(id).ty.buffer().is_some() => id,
                _ => return Err(self.error(arg.span(), "pass a buffer parameter here (a helper's slice is always one of the kernel's buffers)")),
            },
            _ => return Err(self.error(arg.span(), "pass a buffer parameter here (a helper's slice is always one of the kernel's buffers)")),
        };
        let have = self.cx.kernel.param(id).ty;
        let ok = match (have, want) {
            (
                ParamType::Slice {
                    elem: a,
                    access: have,
                },
                ParamType::Slice {
                    elem: b,
                    access: want,
                },
            ) => a == b && (have == Access::ReadWrite || want == Access::Read),
            (ParamType::AtomicSlice { elem: a }, ParamType::AtomicSlice { elem: b }) => a == b,
            _ => false,
        };
        if !ok {
            return Err(self.error(arg.span(), "this buffer does not match the helper's parameter (element type, `&mut` or atomics differ)"));
        }
        Ok(id)
    }

    /// The workgroup array a `&[T; N]` / `&mut [T; N]` argument names.
    fn shared_argument(&mut self, arg: &syn::Expr, want: &SharedParam) -> R<SharedId> {
        let mut e = arg;
        loop {
            match e {
                syn::Expr::Paren(p) => e = &p.expr,
                syn::Expr::Reference(r) => e = &r.expr,
                syn::Expr::Unary(syn::ExprUnary {
                    op: syn::UnOp::Deref(_),
                    expr,
                    ..
                }) => e = expr,
                _ => break,
            }
        }
        let binding = match e {
            syn::Expr::Path(p) => p.path.get_ident().and_then(|i| self.lookup(&ident_name(i))),
            _ => None,
        };
        let Some(Binding::Shared(id)) = binding else {
            return Err(self.error(arg.span(), "pass a workgroup array here (`&mut tile` with `let tile = shared::<[T; N]>();`): a helper's `&[T; N]` / `&mut [T; N]` parameter is always one of the workgroup's arrays; pass a local array by value instead, and return the new value"));
        };
        let have = self.cx.kernel.shared_var(id);
        if have.sized_by.is_some() {
            return Err(self.error(arg.span(), "a workgroup array sized at launch (`shared_len`) cannot be passed to a helper, whose parameter has a length fixed at build time; index it in the kernel, or pass the elements the helper needs"));
        }
        if have.elem != want.elem || have.atomic != want.atomic || have.dims != want.dims {
            return Err(self.error(arg.span(), "this workgroup array does not match the helper's parameter (element type, atomics or lengths differ)"));
        }
        if want.mutable && self.helper.as_ref().is_some_and(|h| h.reads_only(id)) {
            return Err(self.error(arg.span(), "this workgroup array was borrowed with `&`, so it cannot be passed on as `&mut`; declare this helper's parameter `&mut [T; N]`"));
        }
        Ok(id)
    }

    /// A call of helper `f`, declared in item scope `scope`.
    pub(super) fn helper_call(
        &mut self,
        c: &syn::ExprCall,
        f: &Rc<syn::ItemFn>,
        scope: Option<usize>,
    ) -> R<Value> {
        if !f.sig.generics.params.is_empty() {
            return self.generic_helper_call(c, f, scope);
        }
        let span = c.span();
        let here = self.cx.items.current();
        self.cx.items.restore(scope);
        let params = self.helper_params(f);
        let result = match &f.sig.output {
            syn::ReturnType::Default => Ok(None),
            syn::ReturnType::Type(_, ty) if matches!(&**ty, syn::Type::Reference(_)) => {
                Err(self.error(ty.span(), "a helper cannot return a reference (WGSL functions return values, and a workgroup array cannot leave its workgroup): return the value, or take the array as a `&mut [T; N]` parameter and write into it"))
            }
            syn::ReturnType::Type(_, ty) if super::coop::names_coop_matrix(ty) => {
                Err(self.error(ty.span(), super::coop::NOT_PASSED))
            }
            syn::ReturnType::Type(_, ty) => self.cx.resolve_type(ty).map(Some),
        };
        self.cx.items.restore(here);
        let (params, result) = (params?, result?);
        if c.args.len() != params.len() {
            return Err(self.error(
                span,
                format!("`{}` takes {} argument(s)", f.sig.ident, params.len()),
            ));
        }
        let mut slices = Vec::new();
        let mut value_args: Vec<&syn::Expr> = Vec::new();
        let mut value_tys = Vec::new();
        for ((_, p, _), arg) in params.iter().zip(&c.args) {
            match p {
                HelperParam::Slice(want) => {
                    slices.push(Bound::Buffer(self.slice_argument(arg, *want)?.0))
                }
                HelperParam::Shared(want) => {
                    slices.push(Bound::Shared(self.shared_argument(arg, want)?.0))
                }
                HelperParam::Value(t, _) => {
                    value_args.push(arg);
                    value_tys.push(*t);
                }
            }
        }
        let mut args = self.operands(&value_args)?;
        for ((a, t), e) in args.iter().zip(&value_tys).zip(&value_args) {
            let got = self.ty(*a);
            self.unify(Ty::of(*t), got, e.span())?;
        }
        let key: Key = (Rc::as_ptr(f) as usize, slices.clone());
        let self_call = self.helper.as_ref().map(|f| {
            (
                f.key == key,
                f.tail_calls.contains(&call_key(c)),
                f.params.clone(),
            )
        });
        if let Some((true, is_tail, locals)) = self_call {
            {
                if !is_tail {
                    return Err(self.fail(span, ErrorKind::unsupported("WGSL forbids recursion; this call is not the last thing its function does (not a tail call), so Sarek cannot turn it into a loop: rewrite the function with a loop, or make the call its final expression")));
                }
                // A tail call: the arguments become the parameters, and the body starts over.
                for a in args.iter_mut() {
                    *a = self.spill(*a, None);
                }
                for (local, value) in locals.into_iter().zip(args) {
                    self.push(
                        Stmt::Assign {
                            place: Place::Local(local),
                            op: None,
                            value,
                        },
                        span,
                    );
                }
                self.push(Stmt::Continue, span);
                if let Some(f) = self.helper.as_mut() {
                    f.looped = true;
                }
                return Ok(Value::Never);
            }
        }
        if self.cx.calls.stack.contains(&key) {
            return Err(self.fail(span, ErrorKind::unsupported("WGSL forbids recursion, and this call leads back to a function that is still running (mutual recursion); rewrite it as a loop")));
        }
        let function = match self.cx.calls.memo.get(&key) {
            Some(id) => *id,
            None if self.cx.calls.stack.len() >= crate::front::depth::MAX_HELPER_DEPTH => {
                // Each helper is lowered inside its caller's lowering: a long chain would
                // overflow rustc's stack.
                return Err(self.fail(
                    span,
                    ErrorKind::unsupported(format!(
                        "this call nests helpers more than {} deep (a helper calling a helper \
                         calling a helper ...), the most a Sarek kernel may: merge some of \
                         them, or call them one after another from a common caller",
                        crate::front::depth::MAX_HELPER_DEPTH
                    )),
                ));
            }
            None => self.lower_helper(f, scope, key, &params, result, &slices)?,
        };
        let result_local = result.map(|t| self.new_local("__r", Ty::of(t), false, true, span));
        self.push(
            Stmt::Call {
                function,
                args,
                result: result_local,
            },
            span,
        );
        Ok(match (result_local, result) {
            (Some(l), Some(t)) => Value::Expr(self.expr(Expr::Local(l), Ty::of(t), span)),
            _ => Value::Unit,
        })
    }

    /// Lowers helper `f` for the buffers `slices` into a new WGSL function.
    fn lower_helper(
        &mut self,
        f: &Rc<syn::ItemFn>,
        scope: Option<usize>,
        key: Key,
        params: &[(Option<syn::Ident>, HelperParam, Span)],
        result: Option<Type>,
        slices: &[Bound],
    ) -> R<FunctionId> {
        let sig = &f.sig;
        let refuse = |this: &mut Self, span: Span, what: &str| {
            this.error(
                span,
                format!("a helper called from a kernel cannot be {what}"),
            );
        };
        if sig.constness.is_some()
            || sig.asyncness.is_some()
            || sig.unsafety.is_some()
            || sig.abi.is_some()
        {
            refuse(
                self,
                sig.ident.span(),
                "`const`, `async`, `unsafe` or `extern`",
            );
            return Err(Reported);
        }
        if !sig.generics.params.is_empty() || sig.generics.where_clause.is_some() {
            refuse(
                self,
                super::items::generics_span(&sig.generics),
                "generic (WGSL needs concrete types)",
            );
            return Err(Reported);
        }
        // The helper is lowered by its own lowerer, borrowing the module's context; it sees
        // the items of the scope it was declared in.
        let here = self.cx.items.current();
        self.cx.items.restore(scope);
        self.cx.calls.stack.push(key.clone());
        let span = self.cx.span(sig.ident.span());
        let mut sub = Lowerer::new(self.cx, ident_name(&sig.ident), span);
        let mut tails = HashSet::new();
        tail_calls(&f.block, &mut tails);
        let loops_back = !tails.is_empty();
        sub.blocks.push(Vec::new());
        let mut param_locals = Vec::new();
        let mut arg_tys = Vec::new();
        let mut slice_iter = slices.iter();
        let mut read_only = Vec::new();
        for (ident, p, span) in params {
            match p {
                HelperParam::Value(t, mutable) => {
                    let k = arg_tys.len() as u32;
                    arg_tys.push(*t);
                    let name = ident.as_ref().map_or_else(|| "_".to_owned(), ident_name);
                    let arg = sub.expr(Expr::Argument(k), Ty::of(*t), *span);
                    let local = sub.new_local(
                        &name,
                        Ty::of(*t),
                        *mutable || loops_back,
                        !(*mutable || loops_back),
                        *span,
                    );
                    sub.push(
                        Stmt::Let {
                            local,
                            init: Some(arg),
                        },
                        *span,
                    );
                    if let Some(ident) = ident {
                        sub.scopes[0].insert(ident_name(ident), Binding::Local(local));
                    }
                    param_locals.push(local);
                }
                HelperParam::Slice(_) => {
                    if let (Some(Bound::Buffer(id)), Some(ident)) = (slice_iter.next(), ident) {
                        sub.scopes[0].insert(ident_name(ident), Binding::Param(ParamId(*id)));
                    }
                }
                HelperParam::Shared(p) => {
                    if let Some(Bound::Shared(id)) = slice_iter.next() {
                        if !p.mutable {
                            read_only.push(SharedId(*id));
                        }
                        if let Some(ident) = ident {
                            sub.scopes[0].insert(ident_name(ident), Binding::Shared(SharedId(*id)));
                        }
                    }
                }
            }
        }
        sub.helper = Some(HelperFrame {
            key: key.clone(),
            name: ident_name(&sig.ident),
            result,
            tail_calls: tails,
            params: param_locals,
            looped: false,
            read_only,
        });
        let prologue = sub.blocks.pop().unwrap_or_default();
        sub.blocks.push(Vec::new());
        let value = sub.block_contents(&f.block);
        let earlier_errors = sub.has_errors();
        match (value, result) {
            _ if earlier_errors => {}
            (Ok(Value::Expr(h)), Some(want)) => {
                let at = sub.expr_span(h);
                if let Ok(h) = sub.returned(h, want, at) {
                    sub.push(Stmt::Return(Some(h)), at);
                }
            }
            (Ok(Value::Expr(h)), None) => {
                let at = sub.expr_span(h);
                sub.error(at, "this function returns nothing; end the body with a statement (add `;`) or declare `-> T`");
            }
            (Ok(Value::Unit), Some(_)) => {
                let at = f.block.span();
                sub.error(
                    at,
                    "this function must return a value, but its body ends without one",
                );
            }
            _ => {}
        }
        let mut body = sub.blocks.pop().unwrap_or_default();
        let looped = sub.helper.as_ref().is_some_and(|h| h.looped);
        let name = sub
            .helper
            .as_ref()
            .map(|h| h.name.clone())
            .unwrap_or_default();
        if looped {
            if result.is_none() {
                let end = sub.span(f.block.span());
                body.push(Statement {
                    kind: Stmt::Return(None),
                    span: end,
                });
            }
            let at = sub.span(f.block.span());
            body = vec![Statement {
                kind: Stmt::Loop {
                    body,
                    continuing: Vec::new(),
                    break_if: None,
                },
                span: at,
            }];
            if let Some(t) = result {
                // Never reached (the loop only returns), but naga wants the function to end
                // in a `return` of its type.
                let zero = sub.expr(Expr::Zero(t), Ty::of(t), f.block.span());
                let at = sub.span(f.block.span());
                body.push(Statement {
                    kind: Stmt::Return(Some(zero)),
                    span: at,
                });
            }
        }
        let mut full = prologue;
        full.extend(body);
        sub.function.body = full;
        let first_error = sub.first_error;
        let mut function = sub.finish();
        let failed = self.cx.diagnostics.len() > first_error;
        self.cx.calls.stack.pop();
        self.cx.items.restore(here);
        if failed {
            return Err(Reported);
        }
        function.name = name;
        function.args = arg_tys;
        function.result = result;
        self.cx.kernel.functions.push(function);
        let id = FunctionId(self.cx.kernel.functions.len() as u32 - 1);
        self.cx.calls.memo.insert(key, id);
        Ok(id)
    }
}
