// WebGPU guarantees 8 storage buffers, 16 KiB of workgroup memory and 256 invocations per
// workgroup; a kernel that needs more says so with `limits = "device"`.

#[sarek::kernel]
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
}

#[sarek::kernel(workgroup_size = [64])]
fn too_much_shared(out: &mut [f32]) {
    let a = shared::<[f32; 2048]>();
    let b = shared::<[f32; 4096]>();
    a[0] = 1.0;
    b[0] = 1.0;
}

#[sarek::kernel(workgroup_size = [512], limits = "unlimited")]
fn unknown_limits(out: &mut [f32]) {}

#[sarek::kernel(limits = "device", workgroup_size = [0])]
fn zero_under_device_limits(out: &mut [f32]) {}

fn main() {}
