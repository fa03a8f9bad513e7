@group(0) @binding(0) var<storage, read> data: array<u32>;
@group(0) @binding(1) var<storage, read_write> bins: array<atomic<u32>>;
var<workgroup> local_bins: array<atomic<u32>, 256>;

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {
    let t = lid.x;
    if wid.x + wid.y * nwg.x >= (arrayLength(&data) + 255u) / 256u {
        return;
    }
    atomicStore(&local_bins[t], 0u);
    workgroupBarrier();
    let i = (wid.x + wid.y * nwg.x) * 256u + t;
    if i < arrayLength(&data) {
        atomicAdd(&local_bins[data[i] & 255u], 1u);
    }
    workgroupBarrier();
    let count = atomicLoad(&local_bins[t]);
    if count > 0u {
        atomicAdd(&bins[t], count);
    }
}
