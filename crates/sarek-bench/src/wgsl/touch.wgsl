@group(0) @binding(0) var<storage, read_write> v: array<u32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    if gid.x < arrayLength(&v) {
        v[gid.x] += 1u;
    }
}
