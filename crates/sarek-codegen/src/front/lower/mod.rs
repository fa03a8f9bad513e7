//! Lowering of a kernel's body from `syn` to the IR.
//!
//! This module is the dispatcher: the [`Lowerer`] of one function body, its statements and
//! the `match` that sends each expression to the module named after what it lowers
//! (`bindings`, `literals`, `operators`, `places`, `intrinsics`, `atomics`, `control`,
//! `data`, `patterns`, `vectors`, `calls`). What outlives one function is in
//! [`ModuleContext`]; the IR-building helpers every construct shares are in `build`.
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

use super::diagnostic::{Diagnostics, ErrorKind};
use super::infer::{Infer, Ty};

mod atomics;
mod bindings;
mod build;
mod calls;
pub mod context;
mod control;
mod coop;
mod data;
mod debug;
mod generic_calls;
mod guards;
mod half;
mod half_vectors;
mod intrinsics;
pub mod items;
mod literals;
mod methods;
mod operators;
mod packing;
mod patterns;
mod places;
mod refusals;
mod std_methods;
mod subgroups;
mod tuples;
mod typing;
mod uniform_load;
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
    /// A cooperative matrix of the kernel body (`let m = CoopMatrix::<..>::zeros()`).
    Coop(CoopMatrix),
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
    /// The loop's label, without its `'`.
    label: Option<String>,
    /// Its flags, when nested loops leave it through its label.
    flags: Option<control::Flags>,
    /// Labelled exits from inside this loop to outer loops: (target depth, `continue`?).
    exits: Vec<(usize, bool)>,
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
    /// The types of deferred `let x;` bindings, each with its name's span: one that nothing
    /// assigns is an error (rustc's "type annotations needed").
    deferred: Vec<(Ty, Span)>,
    scopes: Vec<HashMap<String, Binding>>,
    blocks: Vec<Block>,
    loops: Vec<LoopFrame>,
    /// The label of the loop about to open, with its flags (see `control::labels`).
    next_label: Option<(String, Option<control::Flags>)>,
    /// The labelled exits of the loop just lowered, for `after_loop`.
    left_exits: Vec<(usize, bool)>,
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
        syn::Expr::Macro(_) => "this macro cannot run on the GPU: a kernel prints with `gpu_println!`/`gpu_print!` and checks with `assert!`, `assert_eq!`, `assert_ne!` and their `debug_` forms",
        syn::Expr::Range(_) => "a range is only allowed as the iterator of a `for` loop (`for i in a..b`)",
        syn::Expr::Reference(_) => "WGSL cannot pass references around inside a kernel; index the buffer directly",
        syn::Expr::Try(_) => "the `?` operator needs `Result`/`Option`, which do not exist on the GPU",
        syn::Expr::TryBlock(_) => "`try` blocks are not available on the GPU",
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
            deferred: Vec::new(),
            next_label: None,
            left_exits: Vec::new(),
            scopes: vec![HashMap::new()],
            blocks: Vec::new(),
            loops: Vec::new(),
            helper: None,
            expect: None,
            unroll_copies: 1,
            first_error: cx.diagnostics.len(),
            cx,
        }
    }

    /// Whether an error was found since this function's lowering began.
    fn has_errors(&self) -> bool {
        self.cx.diagnostics.len() > self.first_error
    }

    fn span(&mut self, span: Span) -> crate::ir::Span {
        self.cx.span(span)
    }

    fn error(&mut self, span: Span, message: impl std::fmt::Display) -> Reported {
        self.cx.error(span, message)
    }

    fn fail(&mut self, span: Span, kind: ErrorKind) -> Reported {
        self.cx.fail(span, kind)
    }

    /// The Rust span of expression `h`.
    fn expr_span(&self, h: Handle<Expression>) -> Span {
        self.cx.rust_span(self.function.exprs[h].span)
    }

    /// Declares a parameter whose type was refused, so that its uses stay quiet.
    pub fn add_failed_param(&mut self, ident: &syn::Ident) {
        self.scopes[0].insert(ident_name(ident), Binding::Failed);
    }

    /// Declares kernel parameter `ident` of type `ty` and binds its name in the body.
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

    pub fn body(&mut self, block: &syn::Block) {
        self.blocks.push(Vec::new());
        if let Ok(Value::Expr(h)) = self.block_contents(block) {
            let span = self.expr_span(h);
            self.error(
                span,
                "a kernel returns nothing; end the body with a statement (add `;`)",
            );
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
                syn::Stmt::Macro(m) => match self.debug_macro(&m.mac) {
                    Some(result) => result,
                    None => Err(self.fail(
                        m.mac.path.span(),
                        ErrorKind::unsupported(debug::other_macro(&m.mac.path)),
                    )),
                },
                syn::Stmt::Expr(e, semi) => match self.expression(e) {
                    Ok(Value::Expr(h)) if last && semi.is_none() => {
                        value = Value::Expr(h);
                        Ok(Value::Unit)
                    }
                    Ok(Value::Expr(_)) if semi.is_none() => {
                        Err(self.error(e.span(), "expected `()`: add a `;` to discard this value"))
                    }
                    Ok(Value::Expr(h)) => {
                        self.discard_wide_atomic_result(h);
                        Ok(Value::Unit)
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
        if let syn::Expr::Macro(m) = e {
            if let Some(result) = self.debug_macro(&m.mac) {
                return result;
            }
            if !m.mac.path.is_ident("vec") {
                let why = debug::other_macro(&m.mac.path);
                return Err(self.fail(m.mac.path.span(), ErrorKind::unsupported(why)));
            }
        }
        if let Some(reason) = refusals::specific(e) {
            return Err(self.fail(span, ErrorKind::unsupported(reason)));
        }
        if let Some(reason) = unsupported_expr(e) {
            return Err(self.fail(span, ErrorKind::unsupported(reason)));
        }
        match e {
            syn::Expr::Field(f) => self.field(f).map(Value::Expr),
            syn::Expr::Struct(s) => self.struct_literal(s).map(Value::Expr),
            syn::Expr::Tuple(t) => self.tuple_value(t, expect).map(Value::Expr),
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
                    self.push(Stmt::Barrier(kind), span);
                    return Ok(Value::Unit);
                }
                self.call(c)
            }
            syn::Expr::Block(b) => {
                if let Some(label) = &b.label {
                    return Err(self.fail(
                        label.span(),
                        ErrorKind::unsupported(
                            "WGSL has no labelled blocks; restructure with `if`/`else`",
                        ),
                    ));
                }
                self.inline_block(&b.block)
            }
            syn::Expr::If(i) => self.if_expr(i),
            syn::Expr::While(w) => self.while_loop(w),
            syn::Expr::Loop(l) => self.loop_expr(l),
            syn::Expr::ForLoop(f) => self.for_loop(f),
            syn::Expr::Break(b) => self.break_expr(b),
            syn::Expr::Continue(c) => self.continue_expr(c),
            syn::Expr::Return(r) => self.return_expr(r),
            _ => Err(self.fail(
                span,
                ErrorKind::unsupported("this expression is not supported in a Sarek kernel"),
            )),
        }
    }

    fn inline_block(&mut self, block: &syn::Block) -> R<Value> {
        self.scopes.push(HashMap::new());
        let v = self.block_contents(block);
        self.scopes.pop();
        v
    }
}

/// Whether `name` is a type Sarek knows without any declaration (a scalar, a vector,
/// an atomic), which a module may also import from elsewhere under that name for its host code.
pub(crate) fn is_sarek_type_name(name: &str) -> bool {
    vectors::vector_type(name).is_some()
        || matches!(
            name,
            "f32"
                | "f16"
                | "i32"
                | "u32"
                | "i64"
                | "u64"
                | "bool"
                | "usize"
                | "AtomicU32"
                | "AtomicI32"
                | "AtomicU64"
                | "AtomicI64"
        )
}

/// Resolves every struct and enum of a module: the type table, the type of each item (in
/// order; `None` for other items) and the errors found.
pub fn module_types(module: &[syn::Item]) -> (Vec<TypeDef>, Vec<Option<Type>>, Diagnostics) {
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
            // An enum without variants has no values and no GPU layout; only a kernel that
            // uses one is refused (when it is lowered), as rustc accepts an unused one.
            Some(Item::Enum(e)) if e.variants.is_empty() => None,
            Some(Item::Enum(e)) => cx.enum_type(&e).ok(),
            _ => None,
        });
        out.push(ty);
    }
    (cx.kernel.types, out, cx.diagnostics)
}
