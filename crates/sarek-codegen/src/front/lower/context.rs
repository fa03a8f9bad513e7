//! Module-wide state of a kernel's lowering: one [`ModuleContext`] is owned for the whole
//! kernel module and lent to the [`Lowerer`](super::Lowerer) of each function body (the
//! kernel's entry and every helper it calls), so a helper is lowered by borrowing the context
//! rather than by moving shared state out and back.
//!
//! What lives here is what outlives one function: the kernel being built (its parameters,
//! workgroup arrays, type table and finished helpers), the Rust spans behind every IR span,
//! the errors, the item scopes and the helpers lowered so far. Resolving a Rust type needs
//! only this, so type resolution is a method of the context, usable without a function.

use proc_macro2::Span;
use syn::spanned::Spanned;

use super::calls::CallState;
use super::items::ItemScopes;
use super::{Reported, R};
use crate::front::diagnostic::{Diagnostics, ErrorKind};
use crate::front::types;
use crate::ir::*;

/// The state one kernel module's lowering shares across its functions.
pub struct ModuleContext {
    /// The kernel being built; its [`Kernel::entry`] is filled in last.
    pub kernel: Kernel,
    /// Rust spans, indexed by [`crate::ir::Span`].
    pub spans: Vec<Span>,
    /// Every error found so far.
    pub diagnostics: Diagnostics,
    /// Structs, enums, helpers and constants in scope (the module's, then each block's).
    pub items: ItemScopes,
    /// Helpers lowered so far, and the chain of helpers being lowered.
    pub calls: CallState,
    /// The struct types that stand for tuple types.
    pub tuples: Vec<TypeId>,
    /// Methods of the module's types, by method name.
    pub methods: std::collections::HashMap<String, Vec<super::methods::Method>>,
    /// The names of the module's traits, whose functions may be called by path with a
    /// receiver (`Shape::area(&s)`).
    pub traits: std::collections::HashSet<String>,
    /// Instances of generic helpers, by helper (`Rc` address) and type arguments.
    pub generic_helpers:
        std::collections::HashMap<(usize, Vec<&'static str>), std::rc::Rc<syn::ItemFn>>,
    /// One more than the highest cooperative-matrix number given so far in any function, so
    /// a helper's matrices never share a number with its caller's (the interpreter keeps a
    /// matrix's elements by number).
    pub coop_ids: u32,
    /// Whether short `for` loops over local arrays are unrolled (`control/unroll.rs`): off
    /// only for a kernel's quick form, which the runtime launches while the unrolled one
    /// compiles (tiered compilation, `sarek-rt`'s `launch/tiered.rs`).
    pub unroll_for: bool,
    /// Whether any loop was unrolled, i.e. whether a quick form would differ.
    pub unrolled: bool,
    /// Whether `debug_assert!` and its forms are lowered (the user crate's
    /// `debug_assertions`; see `expand.rs`).
    pub debug_assertions: bool,
    /// The debug site of each print or assertion macro lowered so far, by the address of
    /// its syntax, so that the copies of an unrolled loop share one site.
    pub debug_sites: std::collections::HashMap<usize, u32>,
}

impl ModuleContext {
    /// The context of kernel `name`, declared at `span`.
    pub fn new(name: String, workgroup_size: [u32; 3], span: Span) -> Self {
        let mut cx = ModuleContext {
            kernel: Kernel {
                name: name.clone(),
                params: Vec::new(),
                workgroup_size,
                shared: Vec::new(),
                entry: Function::new(name, crate::ir::Span(0)),
                span: crate::ir::Span(0),
                types: Vec::new(),
                functions: Vec::new(),
                limits: crate::ir::Limits::Portable,
                debug: Vec::new(),
            },
            spans: Vec::new(),
            diagnostics: Diagnostics::new(),
            items: ItemScopes::default(),
            calls: CallState::default(),
            tuples: Vec::new(),
            methods: std::collections::HashMap::new(),
            traits: std::collections::HashSet::new(),
            generic_helpers: std::collections::HashMap::new(),
            coop_ids: 0,
            unroll_for: true,
            unrolled: false,
            debug_assertions: true,
            debug_sites: std::collections::HashMap::new(),
        };
        cx.kernel.span = cx.span(span);
        cx.kernel.entry.span = cx.kernel.span;
        cx
    }

    /// Records a Rust span; the IR refers to it by the returned index.
    pub fn span(&mut self, span: Span) -> crate::ir::Span {
        self.spans.push(span);
        crate::ir::Span(self.spans.len() as u32 - 1)
    }

    /// The Rust span behind an IR span.
    pub fn rust_span(&self, span: crate::ir::Span) -> Span {
        self.spans[span.0 as usize]
    }

    /// Records an error of kind `kind` at `span`.
    pub fn fail(&mut self, span: Span, kind: ErrorKind) -> Reported {
        self.diagnostics.push(span, kind);
        Reported
    }

    /// Records an error at `span` with its own text ([`ErrorKind::Other`]).
    pub fn error(&mut self, span: Span, message: impl std::fmt::Display) -> Reported {
        self.diagnostics.error(span, message);
        Reported
    }

    /// Declares the items of the kernel's module (scope 0 of every lookup).
    pub fn declare_module(&mut self, module: &[syn::Item]) {
        self.items.open();
        for i in module {
            if let syn::Item::Trait(t) = i {
                self.traits.insert(super::ident_name(&t.ident));
            }
        }
        let items: Vec<&syn::Item> = module
            .iter()
            .filter(|i| {
                // Only inherent, non-generic `impl` blocks are the kernels' business; trait
                // impls serve the host.
                if let syn::Item::Impl(imp) = i {
                    return imp.trait_.is_none() && imp.generics.params.is_empty();
                }
                !matches!(
                    i,
                    syn::Item::Use(_)
                        | syn::Item::Trait(_)
                        | syn::Item::Macro(_)
                        | syn::Item::Mod(_)
                        | syn::Item::Static(_)
                        | syn::Item::Type(_)
                )
            })
            .collect();
        self.declare_items(items);
    }

    /// Evaluates a workgroup size written with constants (`workgroup_size = [TILE, TILE]`),
    /// now that the module's constants are declared, and checks it against WebGPU's limits.
    /// The `const`s at the top of the kernel's `body` are seen as well.
    pub fn workgroup_size(&mut self, attr: &crate::front::KernelAttr, body: &syn::Block) {
        let outer = self.items.open();
        for stmt in &body.stmts {
            if let syn::Stmt::Item(syn::Item::Const(c)) = stmt {
                self.items.insert(
                    super::ident_name(&c.ident),
                    super::Item::PendingConst(std::rc::Rc::new(c.clone())),
                );
            }
        }
        self.workgroup_size_in_scope(attr);
        self.items.restore(outer);
    }

    fn workgroup_size_in_scope(&mut self, attr: &crate::front::KernelAttr) {
        let mut size = [1u32; 3];
        let mut failed = false;
        for (slot, e) in size.iter_mut().zip(&attr.workgroup_size_exprs) {
            match crate::front::consteval::eval_count(e, &mut |n: &str| self.const_name(n)) {
                Ok(0) => {
                    self.error(e.span(), "a workgroup dimension must be at least 1");
                    failed = true;
                }
                Ok(v) => *slot = v,
                Err(fail) => {
                    self.const_failed(fail);
                    failed = true;
                }
            }
        }
        if failed {
            return;
        }
        match crate::check::workgroup_size_for(size, attr.limits) {
            Ok(()) => self.kernel.workgroup_size = size,
            Err(message) => {
                self.fail(attr.workgroup_size_span, ErrorKind::Rule(message));
            }
        }
    }

    /// The IR type of a kernel parameter.
    pub fn param_type(&mut self, param: &types::HostParam) -> R<ParamType> {
        use types::{HostElem, HostParam};
        Ok(match param {
            HostParam::Scalar(s) => ParamType::Value(Type::Scalar(s.scalar())),
            HostParam::AtomicSlice { elem } => ParamType::AtomicSlice {
                elem: elem.scalar(),
            },
            HostParam::Slice {
                elem: HostElem::Scalar(s),
                access,
            } => ParamType::Slice {
                elem: Type::Scalar(s.scalar()),
                access: *access,
            },
            HostParam::Slice {
                elem: HostElem::Named(t),
                access,
            } => {
                let elem = self.resolve_type(t)?;
                if let Some(e) = self.host_shareable(elem) {
                    return Err(self.error(t.span(), e));
                }
                ParamType::Slice {
                    elem,
                    access: *access,
                }
            }
            HostParam::Value(t) => {
                let ty = self.resolve_type(t)?;
                if let Type::Array(_) = ty {
                    return Err(self.error(t.span(), "an array cannot be passed by value (WebGPU's uniform block needs 16-byte array strides); pass it in a buffer, `&[T]`"));
                }
                if let Some(problem) = crate::layout::uniform_problem(&self.kernel.types, ty) {
                    return Err(self.error(t.span(), format!("this struct cannot be passed by value: by-value parameters live in WebGPU's uniform block, and {problem}; pass it as a one-element buffer, `&[T]`, instead")));
                }
                ParamType::Value(ty)
            }
        })
    }

    /// Why values of `ty` cannot be stored in a buffer, if they cannot.
    fn host_shareable(&self, ty: Type) -> Option<&'static str> {
        match ty {
            Type::Scalar(Scalar::Bool) => Some("WebGPU cannot store `bool` in a buffer (it is not host-shareable); use a `&[u32]` of 0 and 1"),
            Type::Array(id) => array_def(&self.kernel.types, id).and_then(|(e, _)| self.host_shareable(e)),
            _ => None,
        }
    }
}
