@group(0) @binding(0) var<storage, read> x: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read_write> partial: array<f32>;
var<workgroup> tile: array<f32, 256>;

// One accumulator: one load in flight per iteration.
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let t = lid.x;
    let stride = nwg.x * 256u;
    let n = arrayLength(&x);
    var a = vec4<f32>();
    for (var i = gid.x; i < n; i += stride) {
        a += x[i];
    }
    tile[t] = (a.x + a.y) + (a.z + a.w);
    workgroupBarrier();
    for (var h = 128u; h > 0u; h /= 2u) {
        if t < h {
            tile[t] += tile[t + h];
        }
        workgroupBarrier();
    }
    if t == 0u {
        partial[wid.x] = tile[0];
    }
}
