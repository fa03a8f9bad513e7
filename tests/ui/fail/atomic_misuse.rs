use std::sync::atomic::{AtomicU32, Ordering};

use sarek::prelude::*;

#[sarek::kernel]
fn k(counts: &[AtomicU32], plain: &mut [u32]) {
    let a = counts[0];
    plain[0].fetch_add(1, Ordering::Relaxed);
    counts[1].fetch_add(1, 5);
}

#[sarek::kernel]
fn mutable_atomics(counts: &mut [AtomicU32]) {}

fn main() {}
