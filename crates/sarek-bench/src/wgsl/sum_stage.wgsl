@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read_write> partial: array<f32>;
var<workgroup> tile: array<f32, 256>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let t = lid.x;
    let stride = nwg.x * 256u;
    let n = arrayLength(&x);
    var acc = 0.0;
    for (var i = gid.x; i < n; i += stride) {
        acc += x[i];
    }
    tile[t] = acc;
    workgroupBarrier();
    for (var s = 128u; s > 0u; s /= 2u) {
        if t < s {
            tile[t] += tile[t + s];
        }
        workgroupBarrier();
    }
    if t == 0u {
        partial[wid.x] = tile[0];
    }
}
