//! `sarek::algo`: every algorithm against a host reference, on every backend (the property
//! tests run each case on each backend, `crate::differential::backends`).

mod attention;
mod histogram;
mod matmul;
mod reduce;
mod rows;
mod select;
mod sort;
mod topk;
