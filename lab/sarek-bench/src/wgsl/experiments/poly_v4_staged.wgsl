struct Params { a: f32, b: f32, c: f32, n: u32 }
@group(0) @binding(0) var<storage, read> x: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read_write> y: array<vec4<f32>>;
@group(0) @binding(2) var<uniform> p: Params;

// The shape of a compiler-made vec4 entry: one 16-byte load of lanes 4t..4t+3, four copies
// of the scalar body each with its own guard, whose stores go to a staged value and a flag;
// one 16-byte store when all four stored, else a component store per flagged lane.
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let t = gid.x + gid.y * nwg.x * 256u;
    let v = x[t];
    var s0: f32; var s1: f32; var s2: f32; var s3: f32;
    var f0 = false; var f1 = false; var f2 = false; var f3 = false;
    if 4u * t < p.n {
        s0 = (p.a * v.x + p.b) * v.x + p.c;
        f0 = true;
    }
    if 4u * t + 1u < p.n {
        s1 = (p.a * v.y + p.b) * v.y + p.c;
        f1 = true;
    }
    if 4u * t + 2u < p.n {
        s2 = (p.a * v.z + p.b) * v.z + p.c;
        f2 = true;
    }
    if 4u * t + 3u < p.n {
        s3 = (p.a * v.w + p.b) * v.w + p.c;
        f3 = true;
    }
    if f0 && f1 && f2 && f3 {
        y[t] = vec4<f32>(s0, s1, s2, s3);
    } else {
        if f0 { y[t].x = s0; }
        if f1 { y[t].y = s1; }
        if f2 { y[t].z = s2; }
        if f3 { y[t].w = s3; }
    }
}
