struct Params { a: f32, b: f32, c: f32, n: u32 }
@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read_write> y: array<f32>;
@group(0) @binding(2) var<uniform> p: Params;

// Coarsened by 4 over adjacent elements (4t + j), scalar bindings, loads first, each
// store under its own guard: does the driver merge adjacent scalar accesses?
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let t = gid.x + gid.y * nwg.x * 256u;
    let i = 4u * t;
    let v0 = x[i];
    let v1 = x[i + 1u];
    let v2 = x[i + 2u];
    let v3 = x[i + 3u];
    if i < p.n {
        y[i] = (p.a * v0 + p.b) * v0 + p.c;
    }
    if i + 1u < p.n {
        y[i + 1u] = (p.a * v1 + p.b) * v1 + p.c;
    }
    if i + 2u < p.n {
        y[i + 2u] = (p.a * v2 + p.b) * v2 + p.c;
    }
    if i + 3u < p.n {
        y[i + 3u] = (p.a * v3 + p.b) * v3 + p.c;
    }
}
