@group(0) @binding(0) var<storage, read> x: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
var<workgroup> a: array<u32, 256>;
var<workgroup> b: array<u32, 256>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    let t = lid.x;
    if wid.x + wid.y * nwg.x >= (arrayLength(&out) + 255u) / 256u {
        return;
    }
    let i = (wid.x + wid.y * nwg.x) * 256u + t;
    let n = arrayLength(&out);
    a[t] = select(0u, x[i], i < n);
    workgroupBarrier();
    var from_a = true;
    for (var offset = 1u; offset < 256u; offset *= 2u) {
        if from_a {
            b[t] = select(a[t], a[t] + a[t - offset], t >= offset);
        } else {
            a[t] = select(b[t], b[t] + b[t - offset], t >= offset);
        }
        workgroupBarrier();
        from_a = !from_a;
    }
    if i < n {
        out[i] = select(b[t], a[t], from_a);
    }
}
