struct Params { n: u32 }
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;
@group(0) @binding(3) var<uniform> p: Params;
var<workgroup> ta: array<array<f32, 16>, 16>;
var<workgroup> tb: array<array<f32, 16>, 16>;

@compute @workgroup_size(16, 16)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
    let n = p.n;
    let row = gid.y;
    let col = gid.x;
    var acc = 0.0;
    let tiles = (n + 15u) / 16u;
    for (var t = 0u; t < tiles; t++) {
        let ac = t * 16u + lid.x;
        ta[lid.y][lid.x] = select(0.0, a[row * n + ac], row < n && ac < n);
        let br = t * 16u + lid.y;
        tb[lid.y][lid.x] = select(0.0, b[br * n + col], br < n && col < n);
        workgroupBarrier();
        for (var k = 0u; k < 16u; k++) {
            acc += ta[lid.y][k] * tb[k][lid.x];
        }
        workgroupBarrier();
    }
    if row < n && col < n {
        c[row * n + col] = acc;
    }
}
