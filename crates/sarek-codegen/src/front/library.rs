//! Kernel libraries: how a `#[sarek::module]` sees the items of another, in its crate or in a
//! crate it depends on, and how it asks for instances of a generic kernel.
//!
//! A proc macro sees only its own tokens, so every module hands its items on through a hidden
//! `macro_rules!` macro, `path::__sarek_module!` (exported with `#[macro_export]` from a
//! `pub` module, so that dependent crates reach it through the module's path, as they reach
//! any public item). A module that imports items with `use path::{Tile, dot}` expands to a call
//! of that macro; the macro calls back `sarek::__private::import!` with the tokens of the
//! module it belongs to (its own items and, transitively, the items it imports), one call per
//! imported module, and the last call expands the importing module with everything it sees.
//! Rust itself resolves the `use` items as always, so visibility is Rust's: the kernels'
//! `body` functions and the helpers are ordinary Rust that names what it uses.
//!
//! `sarek::instances!(reduce<ArgMax, 256>)` in a module compiles that instance there, where the
//! module's types and trait impls are seen, and implements `sarek::Instance` for it.

use std::collections::{HashMap, HashSet};

extern crate proc_macro;

use proc_macro2::{Delimiter, Group, Ident, Span, TokenStream, TokenTree};
use quote::{format_ident, quote, quote_spanned, ToTokens};
use syn::spanned::Spanned;

use super::diagnostic::Diagnostics;

/// The Sarek version whose front end wrote a module's exported tokens: a module is imported
/// only by the same version, since the token protocol and the language may change.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The first path segments whose items are never a Sarek module's.
const NOT_SAREK: &[&str] = &["std", "core", "alloc"];

/// The modules of the `sarek` crate that are `#[sarek::module]`s, which kernels may import
/// from; its other paths (`sarek::prelude`, `sarek::gpu`) are the language itself.
const SAREK_LIBRARIES: &[&str] = &["algo"];

/// One block of exported items: where they come from and the items.
#[derive(Clone)]
pub struct Block {
    /// Identifies the module that declared the items (its name and a hash of its tokens).
    pub origin: String,
    /// The crate that declared them (`CARGO_CRATE_NAME` when it was built).
    pub krate: String,
    /// The items, as the declaring module's kernels see them.
    pub items: Vec<syn::Item>,
}

/// The crate being compiled, as cargo names it to rustc (empty outside cargo).
pub fn this_crate() -> String {
    std::env::var("CARGO_CRATE_NAME").unwrap_or_default()
}

/// Collects `use` leaves: the module path and each name (renames are refused: Sarek reads an
/// imported item under its own name).
fn leaves(
    tree: &syn::UseTree,
    prefix: &mut Vec<Ident>,
    leading: bool,
    out: &mut Vec<(TokenStream, Ident)>,
    renames: &mut Vec<(TokenStream, Ident)>,
) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.clone());
            leaves(&p.tree, prefix, leading, out, renames);
            prefix.pop();
        }
        syn::UseTree::Name(n) if n.ident != "self" && !prefix.is_empty() => {
            let colon = leading.then(|| quote!(::));
            let path = quote!(#colon #(#prefix)::*);
            out.push((path, n.ident.clone()));
        }
        syn::UseTree::Rename(r) if !prefix.is_empty() => {
            let colon = leading.then(|| quote!(::));
            let path = quote!(#colon #(#prefix)::*);
            renames.push((path, r.rename.clone()));
        }
        syn::UseTree::Group(g) => {
            for t in &g.items {
                leaves(t, prefix, leading, out, renames);
            }
        }
        _ => {}
    }
}

/// Every identifier in `tokens`.
fn idents(tokens: TokenStream, out: &mut HashSet<String>) {
    for t in tokens {
        match t {
            TokenTree::Ident(i) => {
                out.insert(i.to_string());
            }
            TokenTree::Group(g) => idents(g.stream(), out),
            _ => {}
        }
    }
}

/// The name an item declares, if any.
pub fn item_name(item: &syn::Item) -> Option<&Ident> {
    match item {
        syn::Item::Struct(s) => Some(&s.ident),
        syn::Item::Enum(e) => Some(&e.ident),
        syn::Item::Fn(f) => Some(&f.sig.ident),
        syn::Item::Const(c) => Some(&c.ident),
        syn::Item::Trait(t) => Some(&t.ident),
        syn::Item::Static(s) => Some(&s.ident),
        syn::Item::Type(t) => Some(&t.ident),
        syn::Item::Mod(m) => Some(&m.ident),
        _ => None,
    }
}

/// The module paths whose items this module's kernels need: a `use`d name that the module's
/// other items mention, that the module does not declare and that is not a Sarek type
/// (`Vec4`), from a path outside `std`, `core`, `alloc` and the language modules of `sarek`
/// (`sarek::prelude`, `sarek::gpu`: all but `sarek::algo`). Each path once, in
/// source order.
pub fn paths_to_import(items: &[syn::Item], errors: &mut Diagnostics) -> Vec<TokenStream> {
    let mut mentioned = HashSet::new();
    let mut declared = HashSet::new();
    for item in items {
        if !matches!(item, syn::Item::Use(_)) {
            idents(item.to_token_stream(), &mut mentioned);
        }
        if let Some(n) = item_name(item) {
            declared.insert(n.to_string());
        }
    }
    let mut found = Vec::new();
    let mut renames = Vec::new();
    for item in items {
        if let syn::Item::Use(u) = item {
            if u.attrs.iter().any(|a| a.path().is_ident("cfg")) {
                // A `use` under `cfg` may not exist in the build: what it names stays Rust's.
                continue;
            }
            leaves(
                &u.tree,
                &mut Vec::new(),
                u.leading_colon.is_some(),
                &mut found,
                &mut renames,
            );
        }
    }
    let is_library = |path: &TokenStream| {
        let segments: Vec<String> = path
            .clone()
            .into_iter()
            .filter_map(|t| match t {
                TokenTree::Ident(i) => Some(i.to_string()),
                _ => None,
            })
            .collect();
        match segments.first().map(String::as_str) {
            Some(root) if NOT_SAREK.contains(&root) => false,
            Some("sarek") => segments
                .get(1)
                .is_some_and(|s| SAREK_LIBRARIES.contains(&s.as_str())),
            _ => true,
        }
    };
    let wanted = |path: &TokenStream, n: &str| {
        is_library(path)
            && mentioned.contains(n)
            && !declared.contains(n)
            && !super::lower::is_sarek_type_name(n)
    };
    for (path, name) in &renames {
        if wanted(path, &name.to_string()) {
            errors.error(name.span(), "a kernel sees an imported item under its own name: import it without `as` (`use path::item;`)");
        }
    }
    let mut out: Vec<TokenStream> = Vec::new();
    for (path, name) in found {
        if wanted(&path, &name.to_string())
            && !out.iter().any(|p| p.to_string() == path.to_string())
        {
            out.push(path);
        }
    }
    out
}

/// Sets every span in `tokens` to `span` (so that a failed fetch points at the `use`).
fn respan(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|t| match t {
            TokenTree::Group(g) => {
                let mut n = Group::new(g.delimiter(), respan(g.stream(), span));
                n.set_span(span);
                TokenTree::Group(n)
            }
            mut other => {
                other.set_span(span);
                other
            }
        })
        .collect()
}

/// The call that fetches the first of `paths` (the others stay pending), carrying the module
/// being expanded: `header` (`vis mod name`), its `items` and the blocks `collected` so far.
pub fn fetch(
    header: &TokenStream,
    paths: &[TokenStream],
    items: &TokenStream,
    collected: &TokenStream,
) -> TokenStream {
    let (first, rest) = paths.split_first().expect("a path to fetch");
    let span = first
        .clone()
        .into_iter()
        .last()
        .map(|t| t.span())
        .unwrap_or_else(Span::call_site);
    let mac = Ident::new("__sarek_module", span);
    let first_spanned = respan(first.clone(), span);
    quote_spanned! {span=>
        #first_spanned::#mac! { (#header) (#first) (#({#rest})*) (#items) (#collected) }
    }
}

/// Blocks as tokens, for a callback's state or an export.
pub fn blocks_tokens(blocks: &[Block]) -> TokenStream {
    let mut out = TokenStream::new();
    for b in blocks {
        let (origin, krate, items) = (&b.origin, &b.krate, &b.items);
        out.extend(quote!({ #origin #krate { #(#items)* } }));
    }
    out
}

fn parse_items(tokens: TokenStream) -> syn::Result<Vec<syn::Item>> {
    syn::parse::Parser::parse2(
        |input: syn::parse::ParseStream| {
            let mut v = Vec::new();
            while !input.is_empty() {
                v.push(input.parse()?);
            }
            Ok(v)
        },
        tokens,
    )
}

fn parse_blocks(tokens: TokenStream) -> syn::Result<Vec<Block>> {
    let mut out = Vec::new();
    for t in tokens {
        let TokenTree::Group(g) = t else {
            return Err(syn::Error::new(t.span(), "a block"));
        };
        let mut it = g.stream().into_iter();
        let origin = match it.next() {
            Some(TokenTree::Literal(l)) => {
                syn::parse2::<syn::LitStr>(l.into_token_stream())?.value()
            }
            other => {
                return Err(syn::Error::new(
                    other.map_or(g.span(), |t| t.span()),
                    "an origin",
                ))
            }
        };
        let krate = match it.next() {
            Some(TokenTree::Literal(l)) => {
                syn::parse2::<syn::LitStr>(l.into_token_stream())?.value()
            }
            other => {
                return Err(syn::Error::new(
                    other.map_or(g.span(), |t| t.span()),
                    "a crate",
                ))
            }
        };
        let items = match it.next() {
            Some(TokenTree::Group(i)) => parse_items(i.stream())?,
            other => {
                return Err(syn::Error::new(
                    other.map_or(g.span(), |t| t.span()),
                    "items",
                ))
            }
        };
        out.push(Block {
            origin,
            krate,
            items,
        });
    }
    Ok(out)
}

/// A module's header in the callback state: `vis mod name`.
pub struct Header {
    /// The module's visibility.
    pub vis: syn::Visibility,
    /// Its name.
    pub name: Ident,
}

impl syn::parse::Parse for Header {
    fn parse(input: syn::parse::ParseStream) -> syn::Result<Self> {
        let vis = input.parse()?;
        input.parse::<syn::Token![mod]>()?;
        Ok(Header {
            vis,
            name: input.parse()?,
        })
    }
}

/// What `sarek::__private::import!` is called with, read.
pub struct ImportCall {
    /// The importing module's header.
    pub header: TokenStream,
    /// The path just fetched, as the importing module wrote it.
    pub current: TokenStream,
    /// The paths still to fetch.
    pub pending: Vec<TokenStream>,
    /// The importing module's items.
    pub items: TokenStream,
    /// What earlier fetches brought.
    pub collected: Vec<Block>,
    /// The Sarek version and crate that exported the fetched module.
    pub version: String,
    /// The crate of the fetched module.
    pub krate: String,
    /// What the fetch brought.
    pub blocks: Vec<Block>,
}

/// Reads an `import!` call's tokens (written by Sarek's own macros).
pub fn parse_import(tokens: TokenStream) -> syn::Result<ImportCall> {
    let groups: Vec<TokenTree> = tokens.into_iter().collect();
    let group = |k: usize| -> syn::Result<TokenStream> {
        match groups.get(k) {
            Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis => Ok(g.stream()),
            other => Err(syn::Error::new(
                other.map_or(Span::call_site(), |t| t.span()),
                "`sarek::__private::import!` is called by the macros `#[sarek::module]` generates, not by hand",
            )),
        }
    };
    if groups.len() != 7 {
        return Err(syn::Error::new(
            Span::call_site(),
            "`sarek::__private::import!` is called by the macros `#[sarek::module]` generates, not by hand",
        ));
    }
    let pending = group(2)?
        .into_iter()
        .filter_map(|t| match t {
            TokenTree::Group(g) => Some(g.stream()),
            _ => None,
        })
        .collect();
    let meta: Vec<String> = group(5)?
        .into_iter()
        .filter_map(|t| syn::parse2::<syn::LitStr>(t.into_token_stream()).ok())
        .map(|l| l.value())
        .collect();
    Ok(ImportCall {
        header: group(0)?,
        current: group(1)?,
        pending,
        items: group(3)?,
        collected: parse_blocks(group(4)?)?,
        version: meta.first().cloned().unwrap_or_default(),
        krate: meta.get(1).cloned().unwrap_or_default(),
        blocks: parse_blocks(group(6)?)?,
    })
}

/// Continues an import chain: the next fetch, or the importing module expanded with every
/// imported block.
pub fn expand_import(tokens: TokenStream) -> TokenStream {
    let call = match parse_import(tokens) {
        Ok(c) => c,
        Err(e) => return e.to_compile_error(),
    };
    let at = call
        .current
        .clone()
        .into_iter()
        .last()
        .map(|t| t.span())
        .unwrap_or_else(Span::call_site);
    let path = call.current.to_string().replace(' ', "");
    if call.version != VERSION {
        let mut errors = Diagnostics::new();
        errors.error(at, format!("`{path}` was compiled by Sarek {} (in the crate `{}`) and this crate uses Sarek {VERSION}: a `#[sarek::module]` imports only modules of its own Sarek version; make both crates depend on the same `sarek`", call.version, call.krate));
        return errors.into_compile_errors();
    }
    let mut collected = call.collected;
    for b in call.blocks {
        if !collected.iter().any(|c| c.origin == b.origin) {
            collected.push(b);
        }
    }
    if !call.pending.is_empty() {
        return fetch(
            &call.header,
            &call.pending,
            &call.items,
            &blocks_tokens(&collected),
        );
    }
    let header: Header = match syn::parse2(call.header) {
        Ok(h) => h,
        Err(e) => return e.to_compile_error(),
    };
    let items = match parse_items(call.items) {
        Ok(i) => i,
        Err(e) => return e.to_compile_error(),
    };
    super::module::expand_body(&header.vis, &header.name, items, collected)
}

/// The hidden macro through which a module hands its items on, and its re-export as
/// `__sarek_module` in the module. `own` are the module's items as its kernels see them,
/// `imported` what it imports.
pub fn export(
    vis: &syn::Visibility,
    name: &Ident,
    own: Vec<syn::Item>,
    imported: &[Block],
) -> TokenStream {
    // Items that cannot travel as macro input (a `$` would be read as a metavariable) or that
    // only Rust needs.
    let own: Vec<syn::Item> = own
        .into_iter()
        .filter(|i| {
            !matches!(
                i,
                syn::Item::Macro(_) | syn::Item::Use(_) | syn::Item::Mod(_)
            )
        })
        .filter(|i| !has_dollar(i.to_token_stream()))
        .collect();
    let text = quote!(#(#own)*).to_string();
    let krate = this_crate();
    let origin = format!("{krate}::{name}#{:016x}", fnv(&text));
    // Where the module is written keeps two identical modules of one crate apart.
    let place = if proc_macro::is_available() {
        let s = name.span().unwrap();
        format!("{}:{}:{}", s.file(), s.line(), s.column())
    } else {
        String::new()
    };
    let mac = format_ident!(
        "__sarek_module_{}_{:016x}",
        name,
        fnv(&format!("{krate}{place}{text}"))
    );
    let mut blocks = vec![Block {
        origin,
        krate: krate.clone(),
        items: own,
    }];
    blocks.extend(imported.iter().cloned());
    let body = blocks_tokens(&blocks);
    let public = matches!(vis, syn::Visibility::Public(_));
    let (attr, use_vis) = if public {
        (quote!(#[macro_export]), quote!(pub))
    } else {
        (TokenStream::new(), quote!(pub(crate)))
    };
    quote! {
        #[doc(hidden)]
        #attr
        macro_rules! #mac {
            ($($state:tt)*) => {
                ::sarek::__private::import! { $($state)* (#VERSION #krate) (#body) }
            };
        }
        #[doc(hidden)]
        #[allow(unused_imports)]
        #use_vis use #mac as __sarek_module;
    }
}

fn has_dollar(tokens: TokenStream) -> bool {
    tokens.into_iter().any(|t| match t {
        TokenTree::Punct(p) => p.as_char() == '$',
        TokenTree::Group(g) => has_dollar(g.stream()),
        _ => false,
    })
}

/// `file:line:column` of a span, where the compiler says (inside a proc macro).
pub fn place(span: Span) -> Option<String> {
    if !proc_macro::is_available() {
        return None;
    }
    let s = span.unwrap();
    Some(format!("{}:{}:{}", s.file(), s.line(), s.column()))
}

/// FNV-1a, for names that must be the same in every build of the same tokens.
fn fnv(text: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The module's name in an origin (`krate::name#hash`).
fn module_name(origin: &str) -> &str {
    let path = origin.split('#').next().unwrap_or_default();
    path.rsplit("::").next().unwrap_or(path)
}

/// Joins the module's own items and its imports into what its kernels see, refusing a name
/// declared twice (Sarek gives a module and what it imports one namespace).
pub fn visible_imports(
    own: &[syn::Item],
    imported: &[Block],
    errors: &mut Diagnostics,
) -> Vec<syn::Item> {
    let mut seen: HashMap<String, String> = HashMap::new();
    for item in own {
        if let Some(n) = item_name(item) {
            seen.insert(n.to_string(), String::new());
        }
    }
    let mut out = Vec::new();
    for b in imported {
        for item in &b.items {
            if let Some(n) = item_name(item) {
                match seen.get(&n.to_string()) {
                    Some(o) if o.is_empty() => {
                        let local = own
                            .iter()
                            .find_map(|i| item_name(i).filter(|m| *m == n))
                            .map_or(Span::call_site(), Ident::span);
                        let module = module_name(&b.origin);
                        errors.error(local, format!("`{n}` is also an item of the module `{module}`, which this module imports: a module's kernels see its items and every item of the modules it imports under their own names; rename one of them"));
                        continue;
                    }
                    Some(o) if *o != b.origin => {
                        let (a, c) = (module_name(o), module_name(&b.origin));
                        errors.error(Span::call_site(), format!("`{n}` is an item of both the modules `{a}` and `{c}`, which this module imports: a module's kernels see every item of the modules it imports under their own names; rename one of them"));
                        continue;
                    }
                    _ => {
                        seen.insert(n.to_string(), b.origin.clone());
                    }
                }
            }
            out.push(item.clone());
        }
    }
    out
}

/// A request `kernel<args>` of `sarek::instances!`, or `vis name = kernel<args>` for an
/// instance that is a kernel of its own.
pub struct Request {
    /// `vis name =`, when the instance gets a kernel type of its own.
    pub alias: Option<(syn::Visibility, Ident)>,
    /// The kernel's path as written.
    pub path: syn::Path,
    /// Its generic arguments (`None`: none written, which is refused where it is read).
    pub args: Option<Vec<syn::GenericArgument>>,
}

impl syn::parse::Parse for Request {
    fn parse(input: syn::parse::ParseStream) -> syn::Result<Self> {
        let vis: syn::Visibility = input.parse()?;
        let alias = if input.peek(syn::Ident) && input.peek2(syn::Token![=]) {
            let name: Ident = input.parse()?;
            input.parse::<syn::Token![=]>()?;
            Some((vis, name))
        } else {
            if !matches!(vis, syn::Visibility::Inherited) {
                return Err(syn::Error::new(
                    vis.span(),
                    "a visibility goes with a name for the instance: `pub name = kernel<f32, 256>`",
                ));
            }
            None
        };
        let mut path: syn::Path = input.parse()?;
        let last = path.segments.last_mut().expect("a segment");
        let args = match std::mem::replace(&mut last.arguments, syn::PathArguments::None) {
            syn::PathArguments::AngleBracketed(a) => Some(a.args.into_iter().collect()),
            syn::PathArguments::None => None,
            other => {
                return Err(syn::Error::new(
                    other.span(),
                    "write an instance as `kernel<T, 256>`",
                ))
            }
        };
        Ok(Request { alias, path, args })
    }
}

/// Reads `sarek::instances!(k<A, 64>, pub k128 = k<f32, 128>)`.
pub fn parse_requests(tokens: TokenStream) -> syn::Result<Vec<Request>> {
    Ok(syn::parse::Parser::parse2(
        syn::punctuated::Punctuated::<Request, syn::Token![,]>::parse_terminated,
        tokens,
    )?
    .into_iter()
    .collect())
}

/// Tokens as a person writes them (`k<f32, 64>`), for messages.
fn pretty(tokens: &TokenStream) -> String {
    tokens
        .to_string()
        .replace(" < ", "<")
        .replace("< ", "<")
        .replace(" <", "<")
        .replace(" >", ">")
        .replace(" ,", ",")
        .replace(" :: ", "::")
}

/// Whether `m` is a `sarek::instances!` item.
pub fn is_instances(m: &syn::ItemMacro) -> bool {
    m.mac
        .path
        .segments
        .last()
        .is_some_and(|s| s.ident == "instances")
}

/// A generic kernel a request may name: its function (without the kernel attribute), its
/// attribute, and the crate it is declared in.
pub struct Instantiable {
    /// The kernel.
    pub item: syn::ItemFn,
    /// Its `#[sarek::kernel(..)]` arguments.
    pub attr: super::attr::KernelAttr,
    /// Its crate (`CARGO_CRATE_NAME`).
    pub krate: String,
    /// The items of its own module, whose instances the kernel builds itself.
    pub home: Vec<syn::Item>,
}

/// The `sarek::Instance` impls of one `sarek::instances!` item: each requested instance
/// lowered, compiled and validated with everything `visible` (the requesting module's items
/// and imports), or the errors, at the request's tokens for what the request got wrong and at
/// the kernel's tokens (with the request named) for what fails inside the kernel.
pub fn instance_impls(
    mac: &syn::ItemMacro,
    kernels: &[Instantiable],
    visible: &[syn::Item],
    local_types: &HashSet<String>,
    errors: &mut Diagnostics,
) -> TokenStream {
    let requests = match parse_requests(mac.mac.tokens.clone()) {
        Ok(r) => r,
        Err(e) => {
            errors.syn(e);
            return TokenStream::new();
        }
    };
    let here = this_crate();
    let mut out = TokenStream::new();
    let mut seen: HashSet<String> = HashSet::new();
    for r in requests {
        let last = &r.path.segments.last().expect("a segment").ident;
        let Some(k) = kernels.iter().find(|k| k.item.sig.ident == *last) else {
            errors.error(last.span(), format!("`{last}` is not a generic kernel this module sees: name a generic `#[sarek::kernel]` of this module or of one it imports with `use`"));
            continue;
        };
        let path = &r.path;
        let Some(args) = &r.args else {
            errors.error(
                last.span(),
                format!("name the instance's generic arguments: `{last}<f32, 256>`"),
            );
            continue;
        };
        let at = quote!(#path<#(#args),*>);
        let text = pretty(&at);
        if !seen.insert(text.clone()) {
            errors.error(
                at.span(),
                format!("`{text}` is requested twice in this module"),
            );
            continue;
        }
        let (inst, built) = match super::generics::requested_instance(
            &k.attr,
            &k.item,
            visible,
            &k.home,
            args,
            last.span(),
        ) {
            Ok(i) => i,
            Err(e) => {
                errors.append(e);
                continue;
            }
        };
        if built && r.alias.is_none() {
            errors.error(last.span(), format!("`{text}` is built with the kernel already (its bounds and `instances(..)` give it): remove this request"));
            continue;
        }
        // Rust's orphan rule: only the kernel's crate may implement `Instance` for it with
        // arguments that are all foreign to the requesting crate.
        let names_local = args.iter().any(|a| match a {
            syn::GenericArgument::Type(t) => {
                let mut ids = HashSet::new();
                idents(t.to_token_stream(), &mut ids);
                ids.iter().any(|i| local_types.contains(i))
            }
            _ => false,
        });
        if k.krate != here && !names_local && r.alias.is_none() {
            let suggested = std::iter::once(k.item.sig.ident.to_string())
                .chain(args.iter().map(|a| {
                    a.to_token_stream()
                        .to_string()
                        .chars()
                        .filter(char::is_ascii_alphanumeric)
                        .collect::<String>()
                        .to_lowercase()
                }))
                .collect::<Vec<_>>()
                .join("_");
            errors.error(last.span(), format!("`{text}` names no type of this crate, so Rust's orphan rule lets only `{}`, the kernel's crate, implement `sarek::Instance` for it: give the instance a kernel of its own, `sarek::instances!(pub {suggested} = {text})`, or ask `{}` for it", k.krate, k.krate));
            continue;
        }
        let name = &k.item.sig.ident;
        let mut own = Diagnostics::new();
        let Some((lowered, tiered)) =
            super::expand::compile_kernel(&inst.attr, &inst.item, &inst.module, &mut own)
        else {
            let label = &inst.label;
            let prefix = format!("in the instance {label} of `{name}`: ");
            // rustc shows another crate's spans at the `use` that imported them: name the
            // library's own position in the message.
            errors.append(if k.krate == here {
                own.prefixed(&prefix)
            } else {
                own.prefixed_with_place(&prefix)
            });
            errors.error(last.span(), format!("the instance {label} of `{name}` requested here does not compile (see the error above)"));
            continue;
        };
        if let Some((vis, alias)) = &r.alias {
            let doc = format!(
                " The instance `{text}` of `{name}` as a kernel of its own (`sarek::instances!`)."
            );
            out.extend(super::expand::emit_kernel(
                vis,
                alias,
                &[syn::parse_quote!(#[doc = #doc])],
                &[],
                &lowered,
                &tiered,
                TokenStream::new(),
            ));
            continue;
        }
        let arg_tokens = args.iter().map(|a| match a {
            syn::GenericArgument::Const(e) => quote!(::sarek::gpu::Const<{ #e }>),
            syn::GenericArgument::Type(syn::Type::Path(p)) if p.path.is_ident("f16") => {
                quote!(::sarek::f16)
            }
            other => quote!(#other),
        });
        let source = super::expand_generic::source_tokens(name, &lowered, &tiered);
        out.extend(quote! {
            // SAFETY: the source is the one Sarek's front end made and checked for this instance.
            unsafe impl ::sarek::Instance<#(#arg_tokens),*> for #path {
                const SOURCE: &'static ::sarek::__private::KernelSource = #source;
            }
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items(tokens: TokenStream) -> Vec<syn::Item> {
        parse_items(tokens).expect("items")
    }

    #[test]
    fn only_the_paths_of_names_kernels_use_are_imported() {
        let items = items(quote! {
            use crate::linalg::{dot, Tile, unused};
            use super::other::helper;
            use std::sync::atomic::AtomicU32;
            use sarek::prelude::*;
            use sarek::coop::C;
            use crate::user::Vec4;
            use crate::shadowed::local;
            pub fn local(x: f32) -> f32 { x }
            #[sarek::kernel]
            pub fn k(t: &[Tile], v: &[Vec4], out: &mut [f32]) {
                out[0] = dot(t[0], t[1]) + helper(1.0) + local(2.0);
            }
        });
        let mut errors = Diagnostics::new();
        let paths: Vec<String> = paths_to_import(&items, &mut errors)
            .iter()
            .map(|p| p.to_string().replace(' ', ""))
            .collect();
        assert!(errors.is_empty());
        assert_eq!(paths, ["crate::linalg", "super::other"]);
    }

    #[test]
    fn a_renamed_import_a_kernel_uses_is_refused() {
        let items = items(quote! {
            use crate::linalg::dot as d;
            use crate::linalg::cross as unused;
            #[sarek::kernel]
            pub fn k(out: &mut [f32]) {
                out[0] = d(1.0);
            }
        });
        let mut errors = Diagnostics::new();
        paths_to_import(&items, &mut errors);
        assert_eq!(errors.len(), 1);
    }

    #[test]
    fn requests_read_plain_and_named_instances() {
        let r = parse_requests(quote!(fold<ArgMax>, lib::add<7>, pub add_seven = add<7>,))
            .expect("requests");
        assert_eq!(r.len(), 3);
        assert!(r[0].alias.is_none() && r[0].args.as_ref().is_some_and(|a| a.len() == 1));
        assert_eq!(
            r[1].path.to_token_stream().to_string().replace(' ', ""),
            "lib::add"
        );
        let (vis, name) = r[2].alias.as_ref().expect("a name");
        assert!(matches!(vis, syn::Visibility::Public(_)));
        assert_eq!(name, "add_seven");
        assert!(parse_requests(quote!(fold)).is_ok_and(|r| r[0].args.is_none()));
        assert!(parse_requests(quote!(pub fold<u32>)).is_err());
    }

    #[test]
    fn an_import_call_round_trips_its_state() {
        let blocks = blocks_tokens(&[Block {
            origin: "lib::m#1".into(),
            krate: "lib".into(),
            items: items(quote!(
                pub fn helper(x: f32) -> f32 {
                    x
                }
            )),
        }]);
        let call = parse_import(quote! {
            (pub mod app) (crate::m) ({super::n}) (pub fn f() {}) () ("0.1.0" "lib") (#blocks)
        })
        .expect("a call");
        assert_eq!(call.pending.len(), 1);
        assert_eq!(
            (call.version.as_str(), call.krate.as_str()),
            ("0.1.0", "lib")
        );
        assert_eq!(call.blocks.len(), 1);
        assert_eq!(call.blocks[0].items.len(), 1);
        assert!(parse_import(quote!((a)(b))).is_err());
    }

    #[test]
    fn another_version_is_refused_at_the_import() {
        let out = expand_import(quote! {
            (mod app) (crate::m) () (pub fn f() {}) () ("0.0.1" "lib") ()
        })
        .to_string();
        assert!(out.contains("compiled by Sarek 0.0.1"), "{out}");
    }
}
