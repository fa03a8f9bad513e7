//! Local arrays indexed only by constants, written as one `var` per element.
//!
//! A kernel that keeps a few values per thread in a local array (`let mut v = [Vec4::ZERO;
//! 8]`, filled and read in loops the front end unrolls) indexes it only with constants. Printed
//! as a WGSL `array` in a function `var`, it still cost the H200's compiler: the scan's third
//! pass with its four such arrays (`v`, `before`, `row`, `rows`) ran 3.5 µs slower over 2^26
//! floats than the same text with one `var` per element, as the hand-written twin has them
//! (measured by bisection, BENCHMARKS.md). So such an array is printed as elements
//! `sarek_e<k>_<name>`, each access `name[k]` as its element's name.
//!
//! Which arrays qualify: [`candidates`] picks the arrays of scalars or vectors declared by a
//! `let` from nothing, a zero value or a list of elements; the writer then prints the body
//! and drops every candidate whose own name is still in the text ([`mentions`]: an access by a
//! run-time index, a read or write of the whole array, a statement naming it), and prints the
//! body again without it. The check is on the printed text, so no use of the array can escape
//! it, whatever statement makes it.

use std::collections::HashMap;

use crate::arena::Handle;
use crate::ir::*;

/// The most elements an array may have to be split. Measured on the H200 (one call, two
/// rounds, 2026-12-02): splitting the register-blocked product's sixteen `Vec4` accumulators
/// too ran it at 37.3 TFLOP/s (0.90× its twin) against 42.0 (1.014×) with them kept as an
/// array; the scan's arrays of eight are what gains (0.996× its twin split, 0.98× whole).
const MAX_ELEMENTS: u32 = 8;

/// The arrays of `function` that may be split, with their element type and length.
pub(super) fn candidates(
    function: &Function,
    types: &[TypeDef],
) -> HashMap<Handle<Local>, (Type, u32)> {
    let mut found = HashMap::new();
    crate::ir::visit(&function.body, &mut |s: &Statement| {
        let Stmt::Let { local, init } = &s.kind else {
            return;
        };
        let Type::Array(id) = function.locals[*local].ty else {
            return;
        };
        let Some((elem, len)) = array_def(types, id) else {
            return;
        };
        let simple = matches!(elem, Type::Scalar(_) | Type::Vector(..));
        let init_ok = match init {
            None => true,
            Some(h) => match &function.exprs[*h].kind {
                Expr::Zero(_) => true,
                Expr::Compose { components, .. } => components.len() == len as usize,
                _ => false,
            },
        };
        if simple && init_ok && len > 0 && len <= MAX_ELEMENTS {
            found.insert(*local, (elem, len));
        }
    });
    found
}

/// The WGSL name of element `k` of the split array named `name`.
pub(super) fn element_name(name: &str, k: u32) -> String {
    crate::wgsl::escape::internal(&format!("e{k}_{name}"))
}

/// Whether `text` names `name` as a whole identifier (an element name `sarek_e<k>_<name>`
/// does not count: `name` follows an `_` there).
pub(super) fn mentions(text: &str, name: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(name).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + name.len()..].chars().next();
        !before.is_some_and(ident) && !after.is_some_and(ident)
    })
}

#[cfg(test)]
mod tests {
    use super::{element_name, mentions};

    #[test]
    fn whole_identifiers_only() {
        assert!(mentions("let a = v[i];", "v"));
        assert!(mentions("v = w;", "v"));
        assert!(!mentions("sarek_e0_v = 1.0; let v0 = x.v_1;", "v"));
        assert!(!mentions("let vv = av;", "v"));
        assert!(mentions("f(sarek_l3_v)", "sarek_l3_v"));
        assert!(!mentions("sarek_e1_sarek_l3_v", "sarek_l3_v"));
    }

    #[test]
    fn element_names_are_internal_and_distinct() {
        assert_eq!(element_name("v", 3), "sarek_e3_v");
        // The full name, so that `sarek_l3_v` and a user's `l3_v` keep apart.
        assert_eq!(element_name("sarek_l3_v", 0), "sarek_e0_sarek_l3_v");
        assert_ne!(element_name("v", 12), element_name("v", 1));
    }
}
