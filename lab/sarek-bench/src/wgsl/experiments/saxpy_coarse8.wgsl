struct Params { a: f32, n: u32 }
@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read_write> y: array<f32>;
@group(0) @binding(2) var<uniform> p: Params;

// Coarsened by 8, the loads first: the shape of Sarek's coarsened entry (element
// t + j*T for j < 8, T the number of threads).
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let total = nwg.x * nwg.y * 256u;
    let t = gid.x + gid.y * nwg.x * 256u;
    let v0 = x[t + 0u * total];
    let w0 = y[t + 0u * total];
    let v1 = x[t + 1u * total];
    let w1 = y[t + 1u * total];
    let v2 = x[t + 2u * total];
    let w2 = y[t + 2u * total];
    let v3 = x[t + 3u * total];
    let w3 = y[t + 3u * total];
    let v4 = x[t + 4u * total];
    let w4 = y[t + 4u * total];
    let v5 = x[t + 5u * total];
    let w5 = y[t + 5u * total];
    let v6 = x[t + 6u * total];
    let w6 = y[t + 6u * total];
    let v7 = x[t + 7u * total];
    let w7 = y[t + 7u * total];
    if t + 0u * total < p.n {
        y[t + 0u * total] = p.a * v0 + w0;
    }
    if t + 1u * total < p.n {
        y[t + 1u * total] = p.a * v1 + w1;
    }
    if t + 2u * total < p.n {
        y[t + 2u * total] = p.a * v2 + w2;
    }
    if t + 3u * total < p.n {
        y[t + 3u * total] = p.a * v3 + w3;
    }
    if t + 4u * total < p.n {
        y[t + 4u * total] = p.a * v4 + w4;
    }
    if t + 5u * total < p.n {
        y[t + 5u * total] = p.a * v5 + w5;
    }
    if t + 6u * total < p.n {
        y[t + 6u * total] = p.a * v6 + w6;
    }
    if t + 7u * total < p.n {
        y[t + 7u * total] = p.a * v7 + w7;
    }
}
