//! Indices of arrays of matrices: which element a slice keeps, in terms of loop counters.

use std::collections::HashMap;

use crate::arena::Handle;
use crate::ir::*;

pub(super) use crate::passes::u32_literal as literal;

use super::loops::ForLoop;
use super::Sym;

/// What a coop statement's index of a sliced array asks for.
pub(super) enum Solved {
    /// A constant element: the statement runs in the slices whose element it is.
    Element,
    /// The counters of enclosing loops that pick the slice's element, and their values.
    Counters(Vec<(Handle<Local>, Sym)>),
}

/// The initial value of every immutable local declared once with one (`let x = e;`), and of
/// the hidden counters of `for` loops.
pub(super) fn lets(f: &Function) -> HashMap<Handle<Local>, Handle<Expression>> {
    let mut out = HashMap::new();
    visit(&f.body, &mut |s| {
        if let Stmt::Let {
            local,
            init: Some(init),
        } = &s.kind
        {
            out.insert(*local, *init);
        }
    });
    out
}

/// `e`, through reads of immutable locals to their initial value.
pub(super) fn resolve(
    f: &Function,
    lets: &HashMap<Handle<Local>, Handle<Expression>>,
    mut e: Handle<Expression>,
) -> Handle<Expression> {
    for _ in 0..64 {
        match f.exprs[e].kind {
            Expr::Local(l) if !f.locals[l].mutable => match lets.get(&l) {
                Some(&init) if !matches!(f.exprs[init].kind, Expr::Local(c) if f.locals[c].mutable) => {
                    e = init
                }
                _ => return e,
            },
            _ => return e,
        }
    }
    e
}

/// A literal's value through [`resolve`].
pub(super) fn constant(
    f: &Function,
    lets: &HashMap<Handle<Local>, Handle<Expression>>,
    e: Handle<Expression>,
) -> Option<u32> {
    literal(f, resolve(f, lets, e))
}

/// Whether indices `x` and `y` are the same expression (through [`resolve`]).
pub(super) fn same_index(
    f: &Function,
    lets: &HashMap<Handle<Local>, Handle<Expression>>,
    x: Handle<Expression>,
    y: Handle<Expression>,
) -> bool {
    let (x, y) = (resolve(f, lets, x), resolve(f, lets, y));
    if x == y {
        return true;
    }
    match (&f.exprs[x].kind, &f.exprs[y].kind) {
        (Expr::Literal(a), Expr::Literal(b)) => a == b,
        (Expr::Local(a), Expr::Local(b)) => a == b,
        (
            Expr::Binary {
                op: o1,
                left: l1,
                right: r1,
            },
            Expr::Binary {
                op: o2,
                left: l2,
                right: r2,
            },
        ) => o1 == o2 && same_index(f, lets, *l1, *l2) && same_index(f, lets, *r1, *r2),
        _ => false,
    }
}

/// Which element index `e` names when it must equal `sym` (whose values are below
/// `sym.bound(n)`): a constant, or values of loop counters.
pub(super) fn solve(
    f: &Function,
    lets: &HashMap<Handle<Local>, Handle<Expression>>,
    loops: &HashMap<Handle<Local>, ForLoop>,
    e: Handle<Expression>,
    sym: &Sym,
    n: u32,
) -> Option<Solved> {
    let e = resolve(f, lets, e);
    if literal(f, e).is_some() {
        return Some(Solved::Element);
    }
    let counter = |x: Handle<Expression>| match f.exprs[resolve(f, lets, x)].kind {
        Expr::Local(u) => loops.get(&u).copied(),
        _ => None,
    };
    if let Some(l) = counter(e) {
        return (sym.bound(n) <= l.end).then(|| Solved::Counters(vec![(l.user, sym.clone())]));
    }
    // `K * i + j` (either order of either operation) with `j < K`.
    let Expr::Binary {
        op: BinaryOp::Add,
        left,
        right,
    } = f.exprs[e].kind
    else {
        return None;
    };
    let scaled = |x: Handle<Expression>| -> Option<(ForLoop, u32)> {
        let Expr::Binary {
            op: BinaryOp::Mul,
            left,
            right,
        } = f.exprs[resolve(f, lets, x)].kind
        else {
            return None;
        };
        match (
            counter(left),
            constant(f, lets, right),
            counter(right),
            constant(f, lets, left),
        ) {
            (Some(l), Some(k), _, _) | (_, _, Some(l), Some(k)) => Some((l, k)),
            _ => None,
        }
    };
    let ((outer, k), inner) = match (scaled(left), counter(right), scaled(right), counter(left)) {
        (Some(s), Some(c), _, _) | (_, _, Some(s), Some(c)) => (s, c),
        _ => return None,
    };
    let fits = k > 0 && inner.end == k && sym.bound(n) <= outer.end.saturating_mul(k);
    fits.then(|| {
        Solved::Counters(vec![
            (outer.user, Sym::Div(Box::new(sym.clone()), k)),
            (inner.user, Sym::Rem(Box::new(sym.clone()), k)),
        ])
    })
}

/// The value of index `e` given the counters' values, if it is one of them or a constant.
pub(super) fn value_of(
    f: &Function,
    lets: &HashMap<Handle<Local>, Handle<Expression>>,
    e: Handle<Expression>,
    counters: &[(Handle<Local>, Sym)],
) -> Option<Sym> {
    let e = resolve(f, lets, e);
    if let Some(k) = literal(f, e) {
        return Some(Sym::Lit(k));
    }
    match f.exprs[e].kind {
        Expr::Local(u) => counters
            .iter()
            .find(|(c, _)| *c == u)
            .map(|(_, s)| s.clone()),
        _ => None,
    }
}
