//! The items a kernel sees (structs, enums, helper functions and constants of its
//! `#[sarek::module]` and of its own blocks) and the resolution of Rust types to IR types.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use syn::spanned::Spanned;

use super::{ident_name, Binding, Lowerer, ModuleContext, Reported, R};
use crate::front::consteval::{self, Name};
use crate::front::diagnostic::ErrorKind;
use crate::front::types;
use crate::ir::*;

/// An item a kernel body can name.
#[derive(Clone)]
pub enum Item {
    /// A struct with named fields.
    Struct(Rc<syn::ItemStruct>),
    /// An enum.
    Enum(Rc<syn::ItemEnum>),
    /// A helper function, with the item scope it was declared in (what it sees).
    Fn(Rc<syn::ItemFn>, Option<usize>),
    /// A constant, evaluated.
    Const(Literal),
    /// A `const` declared but not evaluated yet (constants may name later ones).
    PendingConst(Rc<syn::ItemConst>),
    /// A `const` being evaluated: naming it again is a cycle.
    EvaluatingConst(Rc<syn::ItemConst>),
    /// A `const` whose evaluation failed (already reported): uses stay quiet.
    FailedConst,
}

struct ItemScope {
    parent: Option<usize>,
    items: HashMap<String, Item>,
}

/// Nested scopes of items, kept as an arena so that a helper can be lowered in the scope it was
/// declared in. Also remembers which IR type each struct and enum became.
#[derive(Default)]
pub struct ItemScopes {
    scopes: Vec<ItemScope>,
    current: Option<usize>,
    /// `Rc` address of a struct or enum item → its type.
    types: HashMap<usize, TypeId>,
    /// Structs and enums being lowered (a type containing itself has no size).
    in_progress: HashSet<usize>,
}

impl ItemScopes {
    /// Opens a scope inside the current one; returns the scope to restore afterwards.
    pub fn open(&mut self) -> Option<usize> {
        let previous = self.current;
        self.scopes.push(ItemScope {
            parent: previous,
            items: HashMap::new(),
        });
        self.current = Some(self.scopes.len() - 1);
        previous
    }

    /// Makes `scope` the current scope.
    pub fn restore(&mut self, scope: Option<usize>) {
        self.current = scope;
    }

    /// The current scope.
    pub fn current(&self) -> Option<usize> {
        self.current
    }

    /// Declares an item in the current scope.
    pub fn insert(&mut self, name: String, item: Item) {
        if self.current.is_none() {
            self.open();
        }
        if let Some(c) = self.current {
            self.scopes[c].items.insert(name, item);
        }
    }

    /// Replaces the innermost item called `name`.
    fn replace(&mut self, name: &str, item: Item) {
        let mut scope = self.current;
        while let Some(s) = scope {
            if let Some(slot) = self.scopes[s].items.get_mut(name) {
                *slot = item;
                return;
            }
            scope = self.scopes[s].parent;
        }
    }

    /// The innermost item called `name`.
    pub fn lookup(&self, name: &str) -> Option<Item> {
        let mut scope = self.current;
        while let Some(s) = scope {
            if let Some(item) = self.scopes[s].items.get(name) {
                return Some(item.clone());
            }
            scope = self.scopes[s].parent;
        }
        None
    }
}

fn rc_key<T>(rc: &Rc<T>) -> usize {
    Rc::as_ptr(rc) as *const () as usize
}

/// The name a path refers to when it can only mean an item of this module (`X`, `self::X`,
/// `Self`-free): `None` for longer paths.
pub fn local_path_name(path: &syn::Path) -> Option<String> {
    let segments: Vec<&syn::PathSegment> = path.segments.iter().collect();
    match segments.as_slice() {
        [one] => Some(ident_name(&one.ident)),
        [first, one] if first.ident == "self" => Some(ident_name(&one.ident)),
        _ => None,
    }
}

impl ModuleContext {
    /// Declares the items of a block (or a module) so that every statement of it sees them,
    /// whatever their order; refuses the kinds of item a kernel cannot use.
    pub(super) fn declare_items<'a>(&mut self, items: impl IntoIterator<Item = &'a syn::Item>) {
        let scope = self.items.current();
        let mut consts = Vec::new();
        for item in items {
            match item {
                syn::Item::Struct(s) => self
                    .items
                    .insert(ident_name(&s.ident), Item::Struct(Rc::new(s.clone()))),
                syn::Item::Enum(e) => self
                    .items
                    .insert(ident_name(&e.ident), Item::Enum(Rc::new(e.clone()))),
                syn::Item::Fn(f) => self.items.insert(
                    ident_name(&f.sig.ident),
                    Item::Fn(Rc::new(f.clone()), scope),
                ),
                syn::Item::Const(c) => {
                    let name = ident_name(&c.ident);
                    self.items
                        .insert(name.clone(), Item::PendingConst(Rc::new(c.clone())));
                    consts.push(name);
                }
                syn::Item::Use(_) => {}
                syn::Item::Impl(imp) if imp.trait_.is_none() && imp.generics.params.is_empty() => {
                    self.declare_impl(imp, scope)
                }
                other => {
                    self.error(
                        other.span(),
                        "only structs, enums, `fn` helpers, `const`s and `use` can be declared where a kernel sees them; move other items out of the kernel",
                    );
                }
            }
        }
        // Every constant is evaluated now, in its scope (one naming a later one evaluates that
        // first), so that its errors are reported once and at its declaration.
        for name in consts {
            self.const_name(&name);
        }
    }

    /// What `name` means to the constant evaluator in the current item scope, evaluating a
    /// pending `const` on first use.
    pub(super) fn const_name(&mut self, name: &str) -> Name {
        match self.items.lookup(name) {
            Some(Item::Const(literal)) => Name::Value(consteval::Value::of(literal)),
            Some(Item::PendingConst(c)) => {
                self.items.replace(name, Item::EvaluatingConst(c.clone()));
                match self.const_literal(&c) {
                    Ok(literal) => {
                        self.items.replace(name, Item::Const(literal));
                        Name::Value(consteval::Value::of(literal))
                    }
                    Err(Reported) => {
                        self.items.replace(name, Item::FailedConst);
                        Name::Reported
                    }
                }
            }
            Some(Item::EvaluatingConst(c)) => {
                self.error(
                    c.ident.span(),
                    format!("the value of `{name}` depends on itself, so it has none"),
                );
                Name::Reported
            }
            Some(Item::FailedConst) => Name::Reported,
            Some(_) => Name::Runtime,
            None if looks_constant(name) => Name::Unknown,
            None => Name::Runtime,
        }
    }

    /// Reports an evaluation's failure.
    pub(super) fn const_failed(&mut self, fail: consteval::Fail) -> Reported {
        if let consteval::Fail::Error(d) = fail {
            self.diagnostics.add(d);
        }
        Reported
    }

    /// The IR type of a Rust type written in a kernel, a helper or a struct.
    pub(super) fn resolve_type(&mut self, ty: &syn::Type) -> R<Type> {
        match ty {
            syn::Type::Paren(p) => self.resolve_type(&p.elem),
            syn::Type::Group(g) => self.resolve_type(&g.elem),
            syn::Type::Array(a) => {
                let elem = self.resolve_type(&a.elem)?;
                let len = self.constant_length(&a.len, "an array")?;
                let stride = crate::layout::of(&self.kernel.types, elem).stride();
                self.type_size(u64::from(stride) * u64::from(len), a.len.span())?;
                Ok(self.array_type(elem, len))
            }
            syn::Type::Path(p) if p.qself.is_none() => {
                if let Ok(s) = types::scalar(ty) {
                    return Ok(Type::Scalar(s.scalar()));
                }
                let last = p.path.segments.last().map(|s| ident_name(&s.ident)).unwrap_or_default();
                if let Some(reason) = types::refusal(&last) {
                    return Err(self.error(ty.span(), reason));
                }
                if p.path.segments.iter().any(|s| !s.arguments.is_empty()) {
                    return Err(self.fail(ty.span(), ErrorKind::unsupported("generic types cannot be used on the GPU: WGSL needs concrete types")));
                }
                let item = local_path_name(&p.path).and_then(|n| self.items.lookup(&n));
                match item {
                    Some(Item::Struct(s)) => self.struct_type(&s),
                    Some(Item::Enum(e)) => self.enum_type(&e),
                    _ if super::vectors::vector_type(&last).is_some() => {
                        Ok(super::vectors::vector_type(&last).unwrap_or(Type::Scalar(Scalar::F32)))
                    }
                    _ => Err(self.fail(ty.span(), ErrorKind::UnknownType(last))),
                }
            }
            syn::Type::Tuple(t) if t.elems.is_empty() => Err(self.error(ty.span(), "`()` is not a value type in a kernel")),
            syn::Type::Tuple(t) => {
                let mut elems = Vec::new();
                for e in &t.elems {
                    elems.push(self.resolve_type(e)?);
                }
                Ok(self.tuple_type(elems))
            }
            syn::Type::Reference(_) => Err(self.error(
                ty.span(),
                "references can only be parameters, as buffers (`&[T]`, `&mut [T]`); pass other values by copy",
            )),
            other => Err(self.fail(other.span(), ErrorKind::unsupported("this type is not supported in a Sarek kernel"))),
        }
    }

    /// The array type `[elem; len]`, registered once per kernel.
    pub(super) fn array_type(&mut self, elem: Type, len: u32) -> Type {
        let def = TypeDef::Array { elem, len };
        if let Some(i) = self.kernel.types.iter().position(|t| *t == def) {
            return Type::Array(TypeId(i as u32));
        }
        self.kernel.types.push(def);
        Type::Array(TypeId(self.kernel.types.len() as u32 - 1))
    }

    /// A constant length, for an array type or a repeat expression.
    pub(super) fn constant_length(&mut self, len: &syn::Expr, what: &str) -> R<u32> {
        let shared = what == "a workgroup array";
        match consteval::eval_count(len, &mut |n: &str| self.const_name(n)) {
            Ok(0) if shared => {
                Err(self.error(len.span(), "a workgroup array needs at least one element"))
            }
            Ok(0) => Err(self.fail(
                len.span(),
                ErrorKind::unsupported(
                    "WGSL has no empty arrays; give the array at least one element",
                ),
            )),
            Ok(v) => Ok(v),
            // A value known only at run time: the advice depends on the kind of array.
            Err(consteval::Fail::Error(d)) if matches!(d.kind, ErrorKind::NotConstant(_)) => {
                if shared {
                    Err(self.error(
                        len.span(),
                        "the length of a workgroup array must be known when the kernel is compiled: use an integer literal or a `const` of the kernel or its module; for a length known only at launch, declare `shared_len::<T>(n)` with `n` a `u32` or `usize` parameter of the kernel",
                    ))
                } else {
                    Err(self.error(
                        len.span(),
                        format!("the length of {what} must be known when the kernel is compiled (WGSL has no runtime-sized local arrays): use an integer literal or a `const`; for a size known only at run time, use a buffer or a fixed maximum"),
                    ))
                }
            }
            Err(fail) => Err(self.const_failed(fail)),
        }
    }

    /// The type of a field of a host-shareable struct; refuses what the host cannot share.
    fn field_type(&mut self, ty: &syn::Type) -> R<Type> {
        if let Ok(types::HostScalar::Usize) = types::scalar(ty) {
            return Err(self.error(ty.span(), "`usize` is 64 bits on the host and 32 on the GPU, so a struct holding it could not be shared; use `u32`"));
        }
        let t = self.resolve_type(ty)?;
        let mut inner = t;
        while let Type::Array(id) = inner {
            match array_def(&self.kernel.types, id) {
                Some((elem, _)) => inner = elem,
                None => break,
            }
            if inner == Type::Scalar(Scalar::Bool) {
                return Err(self.error(ty.span(), "an array of `bool` cannot be stored in a struct (WebGPU cannot share `bool` with the host); use `[u32; N]` of 0 and 1"));
            }
        }
        Ok(t)
    }

    fn check_generics(&mut self, generics: &syn::Generics, what: &str) -> R<()> {
        if generics.params.is_empty() && generics.where_clause.is_none() {
            return Ok(());
        }
        Err(self.error(
            generics_span(generics),
            format!("a generic {what} cannot be used on the GPU: WGSL needs concrete types; write it for one type"),
        ))
    }

    fn begin_type(&mut self, key: usize, ident: &syn::Ident) -> R<Option<Type>> {
        if let Some(&id) = self.items.types.get(&key) {
            let is_array = matches!(
                self.kernel.types.get(id.0 as usize),
                Some(TypeDef::Array { .. })
            );
            return Ok(Some(if is_array {
                Type::Array(id)
            } else {
                Type::Struct(id)
            }));
        }
        if !self.items.in_progress.insert(key) {
            return Err(self.error(ident.span(), "this type contains itself, so it has no size; Rust needs a `Box` for that, and the GPU has none"));
        }
        Ok(None)
    }

    fn end_type(&mut self, key: usize, def: Option<StructDef>) -> R<Type> {
        self.items.in_progress.remove(&key);
        let def = def.ok_or(Reported)?;
        self.kernel.types.push(TypeDef::Struct(def));
        let id = TypeId(self.kernel.types.len() as u32 - 1);
        self.items.types.insert(key, id);
        Ok(Type::Struct(id))
    }

    /// The IR type of a struct item (its fields' types first).
    pub(super) fn struct_type(&mut self, s: &Rc<syn::ItemStruct>) -> R<Type> {
        let key = rc_key(s);
        if let Some(t) = self.begin_type(key, &s.ident)? {
            return Ok(t);
        }
        let def = self.struct_def(s);
        self.end_type(key, def.ok())
    }

    fn struct_def(&mut self, s: &syn::ItemStruct) -> R<StructDef> {
        self.check_generics(&s.generics, "struct")?;
        let syn::Fields::Named(named) = &s.fields else {
            return Err(self.fail(s.ident.span(), ErrorKind::unsupported("a kernel struct needs named fields (`struct P { x: f32 }`), which map to WGSL struct members; tuple and unit structs are not supported")));
        };
        let mut fields = Vec::new();
        let mut failed = false;
        let mut seen = std::collections::HashSet::new();
        for f in &named.named {
            let name = f.ident.as_ref().map(ident_name).unwrap_or_default();
            if !seen.insert(name.clone()) {
                failed = true;
                self.duplicate_field(f, &name);
                continue;
            }
            match self.field_type(&f.ty) {
                Ok(ty) => fields.push(Field {
                    name: FieldName::Named(name),
                    ty,
                }),
                Err(Reported) => failed = true,
            }
        }
        if fields.is_empty() && !failed {
            return Err(self.fail(
                s.ident.span(),
                ErrorKind::unsupported("WGSL has no empty structs; give the struct a field"),
            ));
        }
        if failed {
            return Err(Reported);
        }
        let (_, layout) = crate::layout::fields(&self.kernel.types, fields.iter().map(|f| f.ty));
        self.type_size(u64::from(layout.size), s.ident.span())?;
        Ok(StructDef {
            name: ident_name(&s.ident),
            fields,
            variants: None,
        })
    }

    /// The IR type of an enum item: a struct of its tag and every variant's payload.
    pub(super) fn enum_type(&mut self, e: &Rc<syn::ItemEnum>) -> R<Type> {
        let key = rc_key(e);
        if let Some(t) = self.begin_type(key, &e.ident)? {
            return Ok(t);
        }
        let def = self.enum_def(e);
        self.end_type(key, def.ok())
    }

    fn enum_def(&mut self, e: &syn::ItemEnum) -> R<StructDef> {
        self.check_generics(&e.generics, "enum")?;
        if e.variants.is_empty() {
            return Err(self.error(
                e.ident.span(),
                "an enum without variants has no values, so a kernel cannot use it",
            ));
        }
        let mut fields = vec![Field {
            name: FieldName::Tag,
            ty: Type::Scalar(Scalar::U32),
        }];
        let mut variants = Vec::new();
        let mut failed = false;
        for (i, v) in e.variants.iter().enumerate() {
            if let Some((_, d)) = &v.discriminant {
                self.fail(d.span(), ErrorKind::unsupported("explicit discriminants are not supported in kernel enums: Sarek numbers the variants itself (the tag is the variant's index)"));
                failed = true;
            }
            if variants.contains(&ident_name(&v.ident)) {
                self.error(
                    v.ident.span(),
                    format!("the variant `{}` is declared twice; rename one", v.ident),
                );
                failed = true;
            }
            variants.push(ident_name(&v.ident));
            let mut seen = std::collections::HashSet::new();
            for (k, f) in v.fields.iter().enumerate() {
                let name = f.ident.as_ref().map_or_else(|| k.to_string(), ident_name);
                if !seen.insert(name.clone()) {
                    failed = true;
                    self.duplicate_field(f, &name);
                    continue;
                }
                match self.field_type(&f.ty) {
                    Ok(ty) => fields.push(Field {
                        name: FieldName::Payload {
                            variant: i as u32,
                            name,
                        },
                        ty,
                    }),
                    Err(Reported) => failed = true,
                }
            }
        }
        if failed {
            return Err(Reported);
        }
        let (_, layout) = crate::layout::fields(&self.kernel.types, fields.iter().map(|f| f.ty));
        self.type_size(u64::from(layout.size), e.ident.span())?;
        Ok(StructDef {
            name: ident_name(&e.ident),
            fields,
            variants: Some(variants),
        })
    }

    /// Refuses a type of `bytes` at `span` larger than WGSL allows (naga, which compiles it,
    /// refuses any type of 2 GiB or more).
    fn type_size(&mut self, bytes: u64, span: proc_macro2::Span) -> R<()> {
        if bytes <= MAX_TYPE_BYTES {
            return Ok(());
        }
        Err(self.error(
            span,
            format!("this type takes {bytes} bytes, more than WGSL allows for one type ({MAX_TYPE_BYTES} bytes); keep large data in a buffer of smaller elements, `&[T]`"),
        ))
    }

    /// Refuses a field declared twice in one struct (rustc would too, after the macro).
    fn duplicate_field(&mut self, f: &syn::Field, name: &str) {
        let span = f.ident.as_ref().map_or_else(|| f.span(), |i| i.span());
        self.error(
            span,
            format!("the field `{name}` is already declared in this struct; rename one"),
        );
    }

    /// `const N: usize = BLOCK + 1;`: its value, evaluated at compile time.
    fn const_literal(&mut self, c: &syn::ItemConst) -> R<Literal> {
        let ty = types::scalar(&c.ty).map_err(|d| {
            self.diagnostics.add(d);
            Reported
        })?;
        consteval::eval_literal(&c.expr, ty.scalar(), &mut |n: &str| self.const_name(n))
            .map_err(|fail| self.const_failed(fail))
    }
}

/// The largest type WGSL compilers accept, in bytes (naga's limit, the largest `i32`).
pub const MAX_TYPE_BYTES: u64 = i32::MAX as u64;

/// Whether a name is spelled as a constant (`BLOCK_SIZE`): an unknown one is most likely a
/// `const` declared where the macro cannot see it.
pub(super) fn looks_constant(name: &str) -> bool {
    name.chars().any(|c| c.is_ascii_uppercase())
        && name
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

impl Lowerer<'_> {
    /// The value of a constant integer expression (with `counters`, an unrolled loop's counter
    /// counts as a constant), or `None` when it is not one: its caller then does something
    /// else, so nothing is reported.
    pub(super) fn const_int(&mut self, e: &syn::Expr, counters: bool) -> Option<i64> {
        let value = consteval::eval(e, None, &mut |name: &str| match self
            .scopes
            .iter()
            .rev()
            .find_map(|s| s.get(name).copied())
        {
            Some(Binding::Counter(v, _)) if counters => Name::Value(consteval::Value::Int {
                value: v.into(),
                ty: None,
            }),
            Some(Binding::Const(literal)) => Name::Value(consteval::Value::of(literal)),
            Some(Binding::Failed) => Name::Reported,
            Some(_) => Name::Runtime,
            None => self.cx.const_name(name),
        });
        match value {
            Ok(consteval::Value::Int { value, .. }) => i64::try_from(value).ok(),
            _ => None,
        }
    }
}

/// Where to report generics: their `<..>`, or the `where` clause when there are no
/// parameters (`Generics` prints only its `<..>`, so a lone `where` clause would otherwise
/// have no span of its own and the error would land on the macro call).
pub(super) fn generics_span(generics: &syn::Generics) -> proc_macro2::Span {
    match &generics.where_clause {
        Some(w) if generics.params.is_empty() => w.span(),
        _ => generics.span(),
    }
}
