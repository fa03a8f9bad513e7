struct Params { a: f32, n: u32 }
@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read_write> y: array<f32>;
@group(0) @binding(2) var<uniform> p: Params;

// Thread coarsening by 4: a quarter of the threads, each handling elements t + k·T; all
// loads first (four coalesced scalar loads in flight), then the stores.
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let total = nwg.x * 256u;
    let t = gid.x;
    let i0 = t;
    let i1 = t + total;
    let i2 = t + 2u * total;
    let i3 = t + 3u * total;
    let n = p.n;
    var x0 = 0.0; var x1 = 0.0; var x2 = 0.0; var x3 = 0.0;
    var y0 = 0.0; var y1 = 0.0; var y2 = 0.0; var y3 = 0.0;
    if i0 < n { x0 = x[i0]; y0 = y[i0]; }
    if i1 < n { x1 = x[i1]; y1 = y[i1]; }
    if i2 < n { x2 = x[i2]; y2 = y[i2]; }
    if i3 < n { x3 = x[i3]; y3 = y[i3]; }
    if i0 < n { y[i0] = p.a * x0 + y0; }
    if i1 < n { y[i1] = p.a * x1 + y1; }
    if i2 < n { y[i2] = p.a * x2 + y2; }
    if i3 < n { y[i3] = p.a * x3 + y3; }
}
