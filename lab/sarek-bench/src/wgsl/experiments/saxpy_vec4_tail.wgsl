struct Params { a: f32, n: u32 }
@group(0) @binding(0) var<storage, read> x: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read_write> y: array<vec4<f32>>;
@group(0) @binding(2) var<uniform> p: Params;

// What a widened scalar kernel looks like: vec4 loads and stores, the scalar guard `i < n`
// tested on the first of each four elements (n is a multiple of 4).
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let j = gid.x + gid.y * nwg.x * 256u;
    if j * 4u < p.n {
        y[j] = p.a * x[j] + y[j];
    }
}
