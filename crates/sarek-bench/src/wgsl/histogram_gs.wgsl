@group(0) @binding(0) var<storage, read> data: array<u32>;
@group(0) @binding(1) var<storage, read_write> bins: array<atomic<u32>>;
var<workgroup> local_bins: array<atomic<u32>, 256>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {
    let t = lid.x;
    atomicStore(&local_bins[t], 0u);
    workgroupBarrier();
    let n = arrayLength(&data);
    let stride = nwg.x * 256u;
    for (var i = gid.x; i < n; i += stride) {
        atomicAdd(&local_bins[data[i] & 255u], 1u);
    }
    workgroupBarrier();
    let count = atomicLoad(&local_bins[t]);
    if count > 0u {
        atomicAdd(&bins[t], count);
    }
}
