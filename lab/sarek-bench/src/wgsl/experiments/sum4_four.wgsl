@group(0) @binding(0) var<storage, read> x: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read_write> partial: array<f32>;
var<workgroup> tile: array<f32, 256>;

// Four accumulators: four loads in flight per iteration.
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let t = lid.x;
    let stride = nwg.x * 256u;
    let n = arrayLength(&x);
    var i = gid.x;
    var a = vec4<f32>();
    var b = vec4<f32>();
    var c = vec4<f32>();
    var d = vec4<f32>();
    while i + 3u * stride < n {
        a += x[i];
        b += x[i + stride];
        c += x[i + 2u * stride];
        d += x[i + 3u * stride];
        i += 4u * stride;
    }
    while i < n {
        a += x[i];
        i += stride;
    }
    let s = (a + b) + (c + d);
    tile[t] = (s.x + s.y) + (s.z + s.w);
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
