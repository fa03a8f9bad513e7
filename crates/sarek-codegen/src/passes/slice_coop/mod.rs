//! The tiered quick form of a kernel that keeps an array of cooperative accumulators, split
//! over workgroups: each of `N` copies of a workgroup ("slices", one per accumulator) computes
//! one accumulator, so the driver compiles one product where the quick form had `N`.
//!
//! Why: NVIDIA's driver spends its time on cooperative matrices kept in arrays. The suite's
//! f16 product keeps 16 accumulators and 4 + 4 operands in arrays in its quick form
//! (`launch/tiered.rs`), whose pipeline took 122–138 ms on an H200 host where the same form
//! with one accumulator and one operand of each role, hand-written, took 58–84 ms (and 73–76
//! against 48–51 ms on another host; BENCHMARKS.md, "f16 matrix product: a quick form in
//! slices"). The quick form serves one launch, the first, so it can afford to repeat the
//! staging of its tiles once per accumulator.
//!
//! The transformation, on the kernel as lowered with its loops rolled:
//! - `s = block_idx_z() % N` is the slice, and every `block_idx_z()` becomes
//!   `block_idx_z() / N`: the runtime dispatches `N` times as many workgroups along z
//!   (`KernelSource::quick_slices`), and `grid_dim_z()` (from the uniform block) stays the
//!   launch's;
//! - the accumulator array keeps only element `s`, and each operand array (role A or B) the
//!   one element the products of element `s` read, an expression of `s` (`s / K`, `s % K`),
//!   so every array becomes one matrix;
//! - a `for` loop over `0..n` whose counter picks those elements (`acc[K * i + j]`,
//!   `a[i]`, `b[j]`) runs only the iteration that touches them: its body, once, with the
//!   counter set to that expression;
//! - a statement naming a constant element (`acc[3] = zeros()`) runs only in its slice.
//!
//! It applies only where that computes what the quick form computes, element by element:
//! the kernel calls no helpers, writes no buffer but through stores of accumulators (nor reads
//! the buffers those stores write), uses no atomics, `global_idx_z()` or `global_thread_id()`;
//! every product accumulates into an element of the one accumulator array
//! (`acc[e] = a.multiply_add(b, acc[e])`); a loop it shortens has no effect but on locals
//! declared in it and on elements its counter selects (no barrier, buffer or workgroup store,
//! `break`, `continue` or `return`; each array element it writes is named through its
//! counter); indices are literals, a loop counter, or `K * i + j` over two counters with
//! `j < K`. Stores of different accumulators are taken to write different memory, as a tiled
//! product's do: slices store concurrently where the quick form stored in order. Otherwise the
//! quick form stays as it is.

use std::collections::{HashMap, HashSet};

use crate::arena::Handle;
use crate::ir::*;

use indices::{lets, same_index, solve, value_of, Solved};
use loops::{collect, for_loops, shortenable, ForLoop};

mod indices;
mod loops;
mod rewrite;
#[cfg(all(test, feature = "front"))]
mod tests;

/// The value a sliced array's element, or a shortened loop's counter, takes in a slice, as an
/// expression of the slice `s`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Sym {
    /// `s`
    Slice,
    /// A constant.
    Lit(u32),
    /// `x / k`
    Div(Box<Sym>, u32),
    /// `x % k`
    Rem(Box<Sym>, u32),
}

impl Sym {
    /// Every value it takes when `s < n` is below this.
    pub(super) fn bound(&self, n: u32) -> u32 {
        match self {
            Sym::Slice => n,
            Sym::Lit(k) => k.saturating_add(1),
            Sym::Div(x, k) => x.bound(n).div_ceil(*k),
            Sym::Rem(x, k) => (*k).min(x.bound(n)),
        }
    }
}

/// The quick form of `kernel` in slices, and their number, where it applies (see the module
/// documentation); `None` leaves the quick form as it is.
pub fn run(kernel: &Kernel) -> Option<(Kernel, u32)> {
    let f = &kernel.entry;
    let plan = Plan::new(f)?;
    let mut sliced = kernel.clone();
    plan.apply(&mut sliced.entry);
    Some((sliced, plan.n))
}

/// What [`run`] found: the arrays, their elements per slice and the loops to shorten.
struct Plan {
    /// The accumulator array's length: the number of slices.
    n: u32,
    /// Per sliced array (the accumulators' included), the element a slice keeps.
    elements: HashMap<u32, Sym>,
    /// Per shortened loop (by its user counter), the counter's value in a slice.
    counters: HashMap<Handle<Local>, Sym>,
}

impl Plan {
    fn new(f: &Function) -> Option<Plan> {
        let lets = lets(f);
        let loops = for_loops(f, &lets);
        let by_user: HashMap<Handle<Local>, ForLoop> = loops.iter().map(|l| (l.user, *l)).collect();

        // The one accumulator array, of at least two elements.
        let mut arrays: HashMap<u32, CoopMatrix> = HashMap::new();
        let mut ok = true;
        visit(&f.body, &mut |s| match &s.kind {
            Stmt::Coop(op) => {
                for m in op.matrices() {
                    if m.is_array() {
                        arrays.insert(m.id, m.var());
                    }
                }
            }
            // No helpers, atomics or buffer writes but the accumulators' stores.
            Stmt::Call { .. } | Stmt::Atomic { .. } | Stmt::CompareExchange { .. } => ok = false,
            Stmt::Assign { place, .. } if writes_buffer(place) => ok = false,
            _ => {}
        });
        let accs: Vec<&CoopMatrix> = arrays.values().filter(|m| m.role == CoopRole::C).collect();
        let [acc] = accs.as_slice() else { return None };
        let (acc, n) = (acc.id, acc.len);
        if !ok || n < 2 {
            return None;
        }
        // Builtins whose value the slices would change.
        let bad_builtin = f.exprs.iter().any(|(_, e)| {
            matches!(
                e.kind,
                Expr::Builtin(Builtin::GlobalIdx(Axis::Z) | Builtin::GlobalThreadId)
            )
        });
        if bad_builtin {
            return None;
        }

        // Every coop statement, with the loops around it (innermost last).
        let mut statements = Vec::new();
        collect(&f.body, &by_user, &mut Vec::new(), &mut statements);

        // The stores write only accumulators to buffers that nothing reads.
        let mut stored = HashSet::new();
        for (op, _) in &statements {
            match op {
                CoopOp::Store { src, memory, .. } => match memory {
                    CoopMemory::Buffer(p) if src.id == acc => {
                        stored.insert(*p);
                    }
                    _ => return None,
                },
                CoopOp::MultiplyAdd { dst, c, .. } => {
                    let same = match (dst.index, c.index) {
                        (Some(x), Some(y)) => same_index(f, &lets, x, y),
                        _ => false,
                    };
                    if dst.id != acc || c.id != acc || !same {
                        return None;
                    }
                }
                CoopOp::Zero { .. } | CoopOp::Load { .. } => {}
            }
        }
        let reads_stored = f.exprs.iter().any(|(_, e)| {
            matches!(e.kind, Expr::Index { slice, .. } if stored.contains(&slice))
        }) || statements.iter().any(|(op, _)| {
            matches!(op, CoopOp::Load { memory: CoopMemory::Buffer(p), .. } if stored.contains(p))
        });
        if reads_stored {
            return None;
        }

        // The element of each operand array the products of the slice's accumulator read.
        let mut elements: HashMap<u32, Sym> = HashMap::from([(acc, Sym::Slice)]);
        for (op, _) in &statements {
            let CoopOp::MultiplyAdd { dst, a, b, .. } = op else {
                continue;
            };
            let solved = solve(f, &lets, &by_user, dst.index?, &Sym::Slice, n)?;
            let Solved::Counters(counters) = solved else {
                // A constant accumulator: only operands that are not arrays.
                if a.is_array() || b.is_array() {
                    return None;
                }
                continue;
            };
            for m in [a, b].into_iter().filter(|m| m.is_array()) {
                let sym = value_of(f, &lets, m.index?, &counters)?;
                match elements.get(&m.id) {
                    Some(known) if *known != sym => return None,
                    _ => {
                        elements.insert(m.id, sym);
                    }
                }
            }
        }
        // Every array is sliced (an operand array no product reads is not worth the rules).
        if arrays.keys().any(|id| !elements.contains_key(id)) {
            return None;
        }

        // The loops to shorten, from every statement's indices; writes inside them must
        // name their element through each of their counters.
        let mut counters: HashMap<Handle<Local>, Sym> = HashMap::new();
        let mut writes: Vec<(Vec<Handle<Local>>, Vec<ForLoop>)> = Vec::new();
        let mut constants: Vec<Vec<ForLoop>> = Vec::new();
        for (op, around) in &statements {
            for m in op.matrices().into_iter().filter(|m| m.is_array()) {
                let sym = &elements[&m.id];
                match solve(f, &lets, &by_user, m.index?, sym, n)? {
                    Solved::Element => constants.push(around.clone()),
                    Solved::Counters(found) => {
                        for (user, value) in &found {
                            match counters.get(user) {
                                Some(known) if known != value => return None,
                                _ => {
                                    counters.insert(*user, value.clone());
                                }
                            }
                        }
                        if op.written() == Some(m) {
                            let named = found.iter().map(|(u, _)| *u).collect();
                            writes.push((named, around.clone()));
                        }
                    }
                }
            }
        }
        let shortened = |l: &ForLoop| counters.contains_key(&l.user);
        // A constant element inside a shortened loop would be written by one iteration only.
        if constants.iter().flatten().any(shortened) {
            return None;
        }
        if writes.iter().any(|(named, around)| {
            around
                .iter()
                .filter(|l| shortened(l))
                .any(|l| !named.contains(&l.user))
        }) {
            return None;
        }
        // Each shortened loop has no other effect.
        let users: HashSet<Handle<Local>> = counters.keys().copied().collect();
        if !shortenable(f, &f.body, &users) {
            return None;
        }
        Some(Plan {
            n,
            elements,
            counters,
        })
    }
}

/// Whether `place` is (part of) a buffer element.
fn writes_buffer(place: &Place) -> bool {
    match place {
        Place::Index { .. } => true,
        Place::Local(_) | Place::Shared { .. } => false,
        Place::Field { base, .. } | Place::Element { base, .. } => writes_buffer(base),
    }
}
