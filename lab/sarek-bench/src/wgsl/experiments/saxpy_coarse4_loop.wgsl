struct Params { a: f32, n: u32 }
@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read_write> y: array<f32>;
@group(0) @binding(2) var<uniform> p: Params;

// Thread coarsening by 4 as a plain loop around the scalar body.
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let total = nwg.x * 256u;
    for (var k = 0u; k < 4u; k++) {
        let i = gid.x + k * total;
        if i < p.n {
            y[i] = p.a * x[i] + y[i];
        }
    }
}
