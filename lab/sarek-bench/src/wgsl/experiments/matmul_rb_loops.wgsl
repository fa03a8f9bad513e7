struct Params { n: u32 }
@group(0) @binding(0) var<storage, read> a: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read> b: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> c: array<vec4<f32>>;
@group(0) @binding(3) var<uniform> p: Params;
var<workgroup> at: array<array<f32, 128>, 8>;
var<workgroup> bt: array<array<vec4<f32>, 32>, 8>;

// The twin with its accumulator loops left as loops (indices computed at run time).
@compute @workgroup_size(16, 16)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    let n = p.n;
    let n4 = n / 4u;
    let tx = lid.x;
    let ty = lid.y;
    let tid = ty * 16u + tx;
    let row0 = wid.y * 128u;
    let col0 = wid.x * 128u;
    var acc: array<vec4<f32>, 16>;
    let ar = tid / 2u;
    let ak = (tid % 2u) * 4u;
    let br = tid / 32u;
    let bc = tid % 32u;
    for (var k0 = 0u; k0 < n; k0 += 8u) {
        let gr = row0 + ar;
        var va = vec4<f32>();
        if gr < n && k0 + ak < n {
            va = a[gr * n4 + (k0 + ak) / 4u];
        }
        at[ak][ar] = va.x;
        at[ak + 1u][ar] = va.y;
        at[ak + 2u][ar] = va.z;
        at[ak + 3u][ar] = va.w;
        let gk = k0 + br;
        let gc = col0 + bc * 4u;
        var vb = vec4<f32>();
        if gk < n && gc < n {
            vb = b[gk * n4 + gc / 4u];
        }
        bt[br][bc] = vb;
        workgroupBarrier();
        for (var k = 0u; k < 8u; k++) {
            let b0 = bt[k][tx];
            let b1 = bt[k][16u + tx];
            for (var i = 0u; i < 4u; i++) {
                let a0 = at[k][ty * 4u + i];
                let a1 = at[k][64u + ty * 4u + i];
                acc[i * 2u] += b0 * a0;
                acc[i * 2u + 1u] += b1 * a0;
                acc[8u + i * 2u] += b0 * a1;
                acc[8u + i * 2u + 1u] += b1 * a1;
            }
        }
        workgroupBarrier();
    }
    for (var i = 0u; i < 4u; i++) {
        for (var half = 0u; half < 2u; half++) {
            let r = row0 + half * 64u + ty * 4u + i;
            let c0 = col0 + tx * 4u;
            if r < n && c0 < n {
                c[r * n4 + c0 / 4u] = acc[half * 8u + i * 2u];
            }
            if r < n && c0 + 64u < n {
                c[r * n4 + (c0 + 64u) / 4u] = acc[half * 8u + i * 2u + 1u];
            }
        }
    }
}
