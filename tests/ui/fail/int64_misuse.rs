use std::sync::atomic::AtomicU64;

use sarek::prelude::*;

// Rust has no arithmetic between `i64` and `i32` without a cast.
#[sarek::kernel]
fn mixed(a: &[i64], b: &[i32], out: &mut [i64]) {
    let i = global_thread_id();
    out[i] = a[i] + b[i];
}

// Indices stay `usize`: a 64-bit index is refused at the index.
#[sarek::kernel]
fn wide_index(a: &[f32], out: &mut [f32]) {
    let j = 3i64;
    out[0] = a[j];
    let local = [1u64; 4];
    out[1] = local[j] as f32;
}

// WGSL's `switch` takes 32-bit integers only.
#[sarek::kernel]
fn wide_match(a: &[u64], out: &mut [u32]) {
    let i = global_thread_id();
    out[i] = match a[i] {
        0 => 1,
        _ => 2,
    };
}

// 64-bit atomics live only in buffers.
#[sarek::kernel]
fn wide_shared(out: &mut [u64]) {
    let counter = shared::<[AtomicU64; 1]>();
    out[0] = 0;
}

// 128-bit integers do not exist on any GPU.
#[sarek::kernel]
fn wide_128(out: &mut [u64]) {
    let x = 1u128;
    out[0] = 0;
}

// The integer methods of std and the math functions are the 32-bit types' only.
#[sarek::kernel]
fn wide_method(a: &[i64], out: &mut [i64]) {
    let i = global_thread_id();
    out[i] = a[i].abs();
    out[i + 1] = a[i].max(3);
}

fn main() {}
