//! The vectorising pass on hand-built IR (the kernels of `tests.rs`).

use super::tests::{element_wise, expr, kernel, stmt, F32};
use super::*;
use crate::ir::*;

use coarsen::Role;

/// Every buffer store left in `block`.
fn buffer_stores(block: &[Statement]) -> usize {
    block
        .iter()
        .map(|s| match &s.kind {
            Stmt::Assign {
                place: Place::Index { .. },
                ..
            } => 1,
            Stmt::If { accept, reject, .. } => buffer_stores(accept) + buffer_stores(reject),
            _ => 0,
        })
        .sum()
}

#[test]
fn stores_become_staged_values_and_flags_under_the_same_guards() {
    let mut k = kernel();
    element_wise(&mut k);
    let plan = vectorise::plan(&k).expect("element-wise over f32");
    assert_eq!(plan.written, vec![ParamId(2)]);
    let v = vectorise::apply(&k, &plan);
    let lanes = vectorise::LANES as usize;
    assert_eq!(v.staged.len(), lanes);
    assert_eq!(v.coarse.roles.len(), v.coarse.function.locals.len());
    let body = &v.coarse.function.body;
    // The staged value (no initial value) and its flag (false) of each copy come first...
    for (copy, &(value, stored)) in v.staged.iter().enumerate() {
        let slice = ParamId(2);
        let copy = copy as u32;
        assert_eq!(v.coarse.roles[value.index()], Role::Staged { copy, slice });
        assert_eq!(v.coarse.roles[stored.index()], Role::Stored { copy, slice });
        let n = 2 * copy as usize;
        assert_eq!(
            body[n].kind,
            Stmt::Let {
                local: value,
                init: None
            }
        );
        let Stmt::Let {
            local,
            init: Some(no),
        } = body[n + 1].kind
        else {
            panic!("the flag's declaration");
        };
        assert_eq!(local, stored);
        assert_eq!(
            v.coarse.function.exprs[no].kind,
            Expr::Literal(Literal::Bool(false))
        );
    }
    // ... then each copy, whose guarded store now sets its own staged value and flag.
    assert_eq!(buffer_stores(body), 0);
    let copies = &body[2 * lanes..];
    assert_eq!(copies.len(), 2 * lanes);
    for (copy, pair) in copies.chunks(2).enumerate() {
        let Stmt::If { accept, .. } = &pair[1].kind else {
            panic!("the guard stays");
        };
        let (value, stored) = v.staged[copy];
        let [set, flag] = &accept[..] else {
            panic!("two assignments");
        };
        assert!(matches!(
            set.kind,
            Stmt::Assign { place: Place::Local(l), op: None, .. } if l == value
        ));
        let Stmt::Assign {
            place: Place::Local(l),
            value: yes,
            ..
        } = flag.kind
        else {
            panic!("the flag");
        };
        assert_eq!(l, stored);
        assert_eq!(
            v.coarse.function.exprs[yes].kind,
            Expr::Literal(Literal::Bool(true))
        );
    }
    // `run` prepares it beside the coarsened entry.
    let prepared = run(&k);
    assert!(prepared.coarse.is_some() && prepared.vec4.is_some());
}

#[test]
fn kernels_it_cannot_vectorise_keep_the_coarsened_entry_only() {
    // A compound assignment to a buffer (`y[i] += ..` reads the element it writes).
    let mut k = kernel();
    element_wise(&mut k);
    let Stmt::If { accept, .. } = &mut k.entry.body[1].kind else {
        panic!("the guard");
    };
    let Stmt::Assign { op, .. } = &mut accept[0].kind else {
        panic!("the store");
    };
    *op = Some(BinaryOp::Add);
    assert!(coarsen::plan(&k).is_some());
    assert_eq!(vectorise::plan(&k), None);
    // Buffers of 16-byte elements.
    let mut k = kernel();
    element_wise(&mut k);
    let vec4 = Type::Vector(4, Scalar::F32);
    for p in &mut k.params[1..] {
        if let ParamType::Slice { elem, .. } = &mut p.ty {
            *elem = vec4;
        }
    }
    assert_eq!(vectorise::plan(&k), None);
    // Not element-wise (a store at another index).
    let mut k = kernel();
    let f = &mut k.entry;
    let zero = expr(f, Expr::Literal(Literal::U32(0)), super::tests::U32);
    let one = expr(f, Expr::Literal(Literal::F32(1.0)), F32);
    f.body = vec![stmt(Stmt::Assign {
        place: Place::Index {
            slice: ParamId(2),
            index: zero,
        },
        op: None,
        value: one,
    })];
    assert_eq!(vectorise::plan(&k), None);
    assert!(run(&k).vec4.is_none());
}
