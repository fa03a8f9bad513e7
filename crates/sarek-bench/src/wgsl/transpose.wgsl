struct Params { n: u32 }
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> b: array<f32>;
@group(0) @binding(2) var<uniform> p: Params;
var<workgroup> tile: array<array<f32, 17>, 16>;

@compute @workgroup_size(16, 16)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(workgroup_id) wid: vec3<u32>) {
    let n = p.n;
    if gid.x < n && gid.y < n {
        tile[lid.y][lid.x] = a[gid.y * n + gid.x];
    }
    workgroupBarrier();
    let ox = wid.y * 16u + lid.x;
    let oy = wid.x * 16u + lid.y;
    if ox < n && oy < n {
        b[oy * n + ox] = tile[lid.x][lid.y];
    }
}
