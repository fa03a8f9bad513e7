// A sum in one pass with subgroup reductions: four floats per load, a subgroup sum in
// registers, one slot per subgroup (taken from a counter, so no assumption about which
// invocations share a subgroup), every subgroup adding the slots, then one float atomic add
// per workgroup into result[0]. Needs `SUBGROUP` and `SHADER_FLOAT32_ATOMIC`.
@group(0) @binding(0) var<storage, read> x: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read_write> result: array<atomic<f32>>;
var<workgroup> slots: array<f32, 64>;
var<workgroup> taken: atomic<u32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(subgroup_size) size: u32, @builtin(subgroup_invocation_id) lane: u32) {
    let stride = nwg.x * 256u;
    let n = arrayLength(&x);
    var i = gid.x;
    var a = vec4<f32>();
    var b = vec4<f32>();
    while i + stride < n {
        a += x[i];
        b += x[i + stride];
        i += 2u * stride;
    }
    if i < n {
        a += x[i];
    }
    let s = a + b;
    let total = subgroupAdd((s.x + s.y) + (s.z + s.w));
    if lane == subgroupBroadcastFirst(lane) {
        slots[atomicAdd(&taken, 1u)] = total;
    }
    workgroupBarrier();
    let count = atomicLoad(&taken);
    var part = 0.0;
    for (var k = lane; k < count; k += size) {
        part += slots[k];
    }
    let sum = subgroupAdd(part);
    if lid.x == 0u {
        atomicAdd(&result[0], sum);
    }
}
