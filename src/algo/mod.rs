//! Device-wide algorithms written in Sarek, each with a plain host call and a form that
//! records into a [`Batch`](crate::Batch) without waiting:
//!
//! - [`sort`]: a stable LSD radix sort of `u32`, `i32`, `f32` and `f16` keys, alone or with
//!   values, ascending or descending ([`sort::sort`], [`sort::sort_pairs`], [`sort::Sorter`]).

pub mod sort;

pub use sort::{sort, sort_descending, sort_pairs, sort_pairs_descending};
