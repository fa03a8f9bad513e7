// With `limits = "device"`, a kernel may use more than WebGPU guarantees: each launch checks
// the device's own limits instead.
use sarek::prelude::*;

#[sarek::kernel(workgroup_size = [512], limits = "device")]
fn wide(out: &mut [f32]) {
    out[global_thread_id()] = 1.0;
}

#[sarek::kernel(limits = "device")]
fn nine_buffers(
    a: &[f32],
    b: &[f32],
    c: &[f32],
    d: &[f32],
    e: &[f32],
    f: &[f32],
    g: &[f32],
    h: &[f32],
    out: &mut [f32],
) {
    let i = global_thread_id();
    out[i] = a[i] + b[i] + c[i] + d[i] + e[i] + f[i] + g[i] + h[i];
}

#[sarek::kernel(workgroup_size = [64], limits = "device")]
fn much_shared(out: &mut [f32]) {
    let a = shared::<[f32; 8192]>();
    a[thread_idx_x()] = 1.0;
}

fn main() {
    assert_eq!(wide::ABI.limits, sarek::abi::Limits::Device);
    assert_eq!(nine_buffers::ABI.buffers.len(), 9);
    assert_eq!(much_shared::ABI.workgroup_memory, 32768);
}
