struct Params { a: f32, b: f32, c: f32, n: u32 }
@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read_write> y: array<f32>;
@group(0) @binding(2) var<uniform> p: Params;

// Coarsened by 16, the loads first: the shape of Sarek's coarsened entry (element
// t + j*T for j < 16, T the number of threads).
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let total = nwg.x * nwg.y * 256u;
    let t = gid.x + gid.y * nwg.x * 256u;
    let v0 = x[t + 0u * total];
    let v1 = x[t + 1u * total];
    let v2 = x[t + 2u * total];
    let v3 = x[t + 3u * total];
    let v4 = x[t + 4u * total];
    let v5 = x[t + 5u * total];
    let v6 = x[t + 6u * total];
    let v7 = x[t + 7u * total];
    let v8 = x[t + 8u * total];
    let v9 = x[t + 9u * total];
    let v10 = x[t + 10u * total];
    let v11 = x[t + 11u * total];
    let v12 = x[t + 12u * total];
    let v13 = x[t + 13u * total];
    let v14 = x[t + 14u * total];
    let v15 = x[t + 15u * total];
    if t + 0u * total < p.n {
        y[t + 0u * total] = (p.a * v0 + p.b) * v0 + p.c;
    }
    if t + 1u * total < p.n {
        y[t + 1u * total] = (p.a * v1 + p.b) * v1 + p.c;
    }
    if t + 2u * total < p.n {
        y[t + 2u * total] = (p.a * v2 + p.b) * v2 + p.c;
    }
    if t + 3u * total < p.n {
        y[t + 3u * total] = (p.a * v3 + p.b) * v3 + p.c;
    }
    if t + 4u * total < p.n {
        y[t + 4u * total] = (p.a * v4 + p.b) * v4 + p.c;
    }
    if t + 5u * total < p.n {
        y[t + 5u * total] = (p.a * v5 + p.b) * v5 + p.c;
    }
    if t + 6u * total < p.n {
        y[t + 6u * total] = (p.a * v6 + p.b) * v6 + p.c;
    }
    if t + 7u * total < p.n {
        y[t + 7u * total] = (p.a * v7 + p.b) * v7 + p.c;
    }
    if t + 8u * total < p.n {
        y[t + 8u * total] = (p.a * v8 + p.b) * v8 + p.c;
    }
    if t + 9u * total < p.n {
        y[t + 9u * total] = (p.a * v9 + p.b) * v9 + p.c;
    }
    if t + 10u * total < p.n {
        y[t + 10u * total] = (p.a * v10 + p.b) * v10 + p.c;
    }
    if t + 11u * total < p.n {
        y[t + 11u * total] = (p.a * v11 + p.b) * v11 + p.c;
    }
    if t + 12u * total < p.n {
        y[t + 12u * total] = (p.a * v12 + p.b) * v12 + p.c;
    }
    if t + 13u * total < p.n {
        y[t + 13u * total] = (p.a * v13 + p.b) * v13 + p.c;
    }
    if t + 14u * total < p.n {
        y[t + 14u * total] = (p.a * v14 + p.b) * v14 + p.c;
    }
    if t + 15u * total < p.n {
        y[t + 15u * total] = (p.a * v15 + p.b) * v15 + p.c;
    }
}
