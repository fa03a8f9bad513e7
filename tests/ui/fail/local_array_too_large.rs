//! A local array over the documented limit on function-scope memory is
//! refused at its length (it compiled, then aborted the CPU backend and stalled lavapipe).

use sarek::prelude::*;

#[sarek::kernel]
pub fn huge(out: &mut [u32]) {
    let i = global_thread_id();
    let mut a = [0u32; 67108864];
    a[i % 16] = 1;
    if i < out.len() {
        out[i] = a[0];
    }
}

#[sarek::kernel]
pub fn just_over(out: &mut [u32]) {
    let i = global_thread_id();
    let a = [[1.0f32; 4]; 4097];
    if i < out.len() {
        out[i] = a[i % 4097][0] as u32;
    }
}

#[sarek::kernel]
pub fn at_limit(out: &mut [u32]) {
    let i = global_thread_id();
    let a = [0u32; 16384];
    if i < out.len() {
        out[i] = a[i % 16384];
    }
}

fn main() {}
