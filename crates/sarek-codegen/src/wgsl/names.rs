//! WGSL names for the locals of a kernel.

use std::collections::{HashMap, HashSet};

use crate::arena::Handle;
use crate::ir::{Kernel, Local};

use super::escape;

/// Names the workgroup arrays: the escaped Rust name unless another array or a buffer has it,
/// then `sarek_w<n>_<name>`.
pub fn shared(kernel: &Kernel, buffer_names: &HashSet<String>) -> Vec<String> {
    let mut counts: HashMap<String, usize> = HashMap::new();
    for var in &kernel.shared {
        *counts.entry(escape::escape(&var.name)).or_default() += 1;
    }
    kernel
        .shared
        .iter()
        .enumerate()
        .map(|(i, var)| {
            let plain = escape::escape(&var.name);
            if counts[&plain] == 1 && !buffer_names.contains(&plain) {
                plain
            } else {
                escape::internal(&format!("w{i}_{}", var.name))
            }
        })
        .collect()
}

/// Gives every local a name unique in the module. A Rust binding keeps its escaped name
/// unless another binding (Rust shadowing) or a module-scope name already took it; then it
/// becomes `sarek_l<n>_<name>`, which no user name escapes to.
pub fn locals(kernel: &Kernel, module_names: &HashSet<String>) -> HashMap<Handle<Local>, String> {
    let mut counts: HashMap<String, usize> = HashMap::new();
    for (_, local) in kernel.locals.iter() {
        *counts.entry(escape::escape(&local.name)).or_default() += 1;
    }
    kernel
        .locals
        .iter()
        .map(|(handle, local)| {
            let plain = escape::escape(&local.name);
            let name = if counts[&plain] == 1 && !module_names.contains(&plain) {
                plain
            } else {
                escape::internal(&format!("l{}_{}", handle.index(), local.name))
            };
            (handle, name)
        })
        .collect()
}
