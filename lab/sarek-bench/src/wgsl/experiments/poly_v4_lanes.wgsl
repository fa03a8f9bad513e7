struct Params { a: f32, b: f32, c: f32, n: u32 }
@group(0) @binding(0) var<storage, read> x: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read_write> y: array<vec4<f32>>;
@group(0) @binding(2) var<uniform> p: Params;

// One 16-byte load, then four guarded component stores: does the driver merge them?
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let t = gid.x + gid.y * nwg.x * 256u;
    let v = x[t];
    if 4u * t < p.n { y[t].x = (p.a * v.x + p.b) * v.x + p.c; }
    if 4u * t + 1u < p.n { y[t].y = (p.a * v.y + p.b) * v.y + p.c; }
    if 4u * t + 2u < p.n { y[t].z = (p.a * v.z + p.b) * v.z + p.c; }
    if 4u * t + 3u < p.n { y[t].w = (p.a * v.w + p.b) * v.w + p.c; }
}
