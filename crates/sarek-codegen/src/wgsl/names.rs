//! WGSL names for what a kernel declares. Every name is the escaped Rust name unless another
//! declaration already took it (Rust shadowing, two structs of the same name in different
//! scopes, a helper specialised twice); then it gets a generated `sarek_<kind><n>_<name>`,
//! which no user name escapes to.

use std::collections::{HashMap, HashSet};

use crate::arena::{Arena, Handle};
use crate::ir::{Kernel, Local, TypeDef};

use super::escape;

/// Picks `escape(name)` for each item unless it is taken or repeated; then
/// `sarek_<kind><index>_<name>`. Adds the chosen names to `taken`.
fn pick<'a>(
    items: impl Iterator<Item = (usize, &'a str)>,
    kind: &str,
    taken: &mut HashSet<String>,
) -> HashMap<usize, String> {
    let items: Vec<(usize, &str)> = items.collect();
    let mut counts: HashMap<String, usize> = HashMap::new();
    for (_, name) in &items {
        *counts.entry(escape::escape(name)).or_default() += 1;
    }
    let names: HashMap<usize, String> = items
        .into_iter()
        .map(|(i, name)| {
            let plain = escape::escape(name);
            let chosen = if counts[&plain] == 1 && !taken.contains(&plain) {
                plain
            } else {
                escape::internal(&format!("{kind}{i}_{name}"))
            };
            (i, chosen)
        })
        .collect();
    taken.extend(names.values().cloned());
    names
}

/// Module-scope names of a kernel: buffers, struct types, workgroup arrays, helper functions.
#[derive(Clone, Debug, Default)]
pub struct ModuleNames {
    /// By [`crate::ir::TypeId`] (structs only).
    pub types: HashMap<usize, String>,
    /// By [`crate::ir::SharedId`].
    pub shared: Vec<String>,
    /// By [`crate::ir::FunctionId`].
    pub functions: Vec<String>,
    /// Every module-scope name, for locals to avoid.
    pub taken: HashSet<String>,
}

/// Names the module-scope declarations of `kernel`.
pub fn module(kernel: &Kernel) -> ModuleNames {
    let mut taken: HashSet<String> = kernel
        .params
        .iter()
        .filter(|p| p.ty.buffer().is_some())
        .map(|p| escape::escape(&p.name))
        .collect();
    let structs = kernel
        .types
        .iter()
        .enumerate()
        .filter_map(|(i, t)| match t {
            TypeDef::Struct(s) => Some((i, s.name.as_str())),
            TypeDef::Array { .. } => None,
        });
    let types = pick(structs, "t", &mut taken);
    let shared = pick(
        kernel
            .shared
            .iter()
            .enumerate()
            .map(|(i, v)| (i, v.name.as_str())),
        "w",
        &mut taken,
    );
    let functions = pick(
        kernel
            .functions
            .iter()
            .enumerate()
            .map(|(i, f)| (i, f.name.as_str())),
        "f",
        &mut taken,
    );
    ModuleNames {
        types,
        shared: (0..kernel.shared.len())
            .map(|i| shared[&i].clone())
            .collect(),
        functions: (0..kernel.functions.len())
            .map(|i| functions[&i].clone())
            .collect(),
        taken,
    }
}

/// Gives every local of one function a name unique in the module. A Rust binding keeps its
/// escaped name unless another binding (Rust shadowing) or a module-scope name already took
/// it; then it becomes `sarek_l<n>_<name>`.
pub fn locals(
    locals: &Arena<Local>,
    module_names: &HashSet<String>,
) -> HashMap<Handle<Local>, String> {
    let mut taken = module_names.clone();
    let names = pick(
        locals.iter().map(|(h, l)| (h.index(), l.name.as_str())),
        "l",
        &mut taken,
    );
    locals
        .iter()
        .map(|(h, _)| (h, names[&h.index()].clone()))
        .collect()
}
