// Pass 1 of the reduce-then-scan: the sum of each tile of 2048 vec4s (8192 floats), eight
// coalesced vec4 loads per thread, then a tree in workgroup memory. The loop over the eight
// loads is written out.
@group(0) @binding(0) var<storage, read> x: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read_write> sums: array<f32>;
var<workgroup> tree: array<f32, 256>;

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    let t = lid.x;
    let first = wid.x * 2048u + t;
    let n = arrayLength(&x);
    var v0 = vec4<f32>();
    if first + 0u < n {
        v0 = x[first + 0u];
    }
    var v1 = vec4<f32>();
    if first + 256u < n {
        v1 = x[first + 256u];
    }
    var v2 = vec4<f32>();
    if first + 512u < n {
        v2 = x[first + 512u];
    }
    var v3 = vec4<f32>();
    if first + 768u < n {
        v3 = x[first + 768u];
    }
    var v4 = vec4<f32>();
    if first + 1024u < n {
        v4 = x[first + 1024u];
    }
    var v5 = vec4<f32>();
    if first + 1280u < n {
        v5 = x[first + 1280u];
    }
    var v6 = vec4<f32>();
    if first + 1536u < n {
        v6 = x[first + 1536u];
    }
    var v7 = vec4<f32>();
    if first + 1792u < n {
        v7 = x[first + 1792u];
    }
    let s = ((v0 + v1) + (v2 + v3)) + ((v4 + v5) + (v6 + v7));
    tree[t] = (s.x + s.y) + (s.z + s.w);
    workgroupBarrier();
    for (var h = 128u; h > 0u; h /= 2u) {
        if t < h {
            tree[t] += tree[t + h];
        }
        workgroupBarrier();
    }
    if t == 0u {
        sums[wid.x] = tree[0];
    }
}
