@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read_write> partial: array<f32>;
var<workgroup> tile: array<f32, 256>;

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {
    let t = lid.x;
    let group = wid.x + wid.y * nwg.x;
    // A dispatch folded into x·y may have a few workgroups past the end.
    if group >= arrayLength(&partial) {
        return;
    }
    let i = group * 256u + t;
    if i < arrayLength(&x) {
        tile[t] = x[i];
    } else {
        tile[t] = 0.0;
    }
    workgroupBarrier();
    for (var s = 128u; s > 0u; s /= 2u) {
        if t < s {
            tile[t] += tile[t + s];
        }
        workgroupBarrier();
    }
    if t == 0u {
        partial[group] = tile[0];
    }
}
