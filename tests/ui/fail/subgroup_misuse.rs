use sarek::prelude::*;

// A subgroup operation must be reached by every thread of the workgroup together.
#[sarek::kernel(workgroup_size = [64])]
fn divergent(x: &[f32], out: &mut [f32]) {
    let i = global_thread_id();
    if x[i] > 0.0 {
        out[i] = subgroup_add(x[i]);
    }
}

// After an early return of only some threads.
#[sarek::kernel(workgroup_size = [64])]
fn after_return(x: &[u32], out: &mut [u32]) {
    let i = global_thread_id();
    if i >= x.len() {
        return;
    }
    out[i] = subgroup_max(x[i]);
}

// The lane of a broadcast is a constant; `subgroup_shuffle` takes any lane.
#[sarek::kernel(workgroup_size = [64])]
fn lane_not_constant(x: &[u32], out: &mut [u32]) {
    let i = global_thread_id();
    out[i] = subgroup_broadcast(x[i], x[0]);
}

// Bitwise operations take integers; `subgroup_all` a `bool`.
#[sarek::kernel(workgroup_size = [64])]
fn wrong_types(x: &[f32], out: &mut [u32]) {
    let i = global_thread_id();
    let a = subgroup_and(x[i]);
    let b = subgroup_all(x[i]);
}

// `AtomicF32` has no `fetch_max` or `compare_exchange` in WGSL.
#[sarek::kernel(workgroup_size = [64])]
fn float_atomics(acc: &[AtomicF32]) {
    acc[0].fetch_max(1.0, std::sync::atomic::Ordering::Relaxed);
}

fn main() {}
