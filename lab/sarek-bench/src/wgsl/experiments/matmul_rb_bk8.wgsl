struct Params { n: u32 }
@group(0) @binding(0) var<storage, read> a: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read> b: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> c: array<vec4<f32>>;
@group(0) @binding(3) var<uniform> p: Params;
var<workgroup> at: array<array<f32, 128>, 8>;
var<workgroup> bt: array<array<vec4<f32>, 32>, 8>;

// A 16×16 workgroup computes a 128×128 tile of c; each thread an 8×8 block in registers
// (the accumulator indices written out), and the loop over k unrolled too.
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
        {
            let k = 0u;
            let b0 = bt[k][tx];
                let b1 = bt[k][16u + tx];
                let a0_0 = at[k][ty * 4u + 0u];
                let a1_0 = at[k][64u + ty * 4u + 0u];
                acc[0] += b0 * a0_0;
                acc[1] += b1 * a0_0;
                acc[8] += b0 * a1_0;
                acc[9] += b1 * a1_0;
                let a0_1 = at[k][ty * 4u + 1u];
                let a1_1 = at[k][64u + ty * 4u + 1u];
                acc[2] += b0 * a0_1;
                acc[3] += b1 * a0_1;
                acc[10] += b0 * a1_1;
                acc[11] += b1 * a1_1;
                let a0_2 = at[k][ty * 4u + 2u];
                let a1_2 = at[k][64u + ty * 4u + 2u];
                acc[4] += b0 * a0_2;
                acc[5] += b1 * a0_2;
                acc[12] += b0 * a1_2;
                acc[13] += b1 * a1_2;
                let a0_3 = at[k][ty * 4u + 3u];
                let a1_3 = at[k][64u + ty * 4u + 3u];
                acc[6] += b0 * a0_3;
                acc[7] += b1 * a0_3;
                acc[14] += b0 * a1_3;
                acc[15] += b1 * a1_3;
        }
        {
            let k = 1u;
            let b0 = bt[k][tx];
                let b1 = bt[k][16u + tx];
                let a0_0 = at[k][ty * 4u + 0u];
                let a1_0 = at[k][64u + ty * 4u + 0u];
                acc[0] += b0 * a0_0;
                acc[1] += b1 * a0_0;
                acc[8] += b0 * a1_0;
                acc[9] += b1 * a1_0;
                let a0_1 = at[k][ty * 4u + 1u];
                let a1_1 = at[k][64u + ty * 4u + 1u];
                acc[2] += b0 * a0_1;
                acc[3] += b1 * a0_1;
                acc[10] += b0 * a1_1;
                acc[11] += b1 * a1_1;
                let a0_2 = at[k][ty * 4u + 2u];
                let a1_2 = at[k][64u + ty * 4u + 2u];
                acc[4] += b0 * a0_2;
                acc[5] += b1 * a0_2;
                acc[12] += b0 * a1_2;
                acc[13] += b1 * a1_2;
                let a0_3 = at[k][ty * 4u + 3u];
                let a1_3 = at[k][64u + ty * 4u + 3u];
                acc[6] += b0 * a0_3;
                acc[7] += b1 * a0_3;
                acc[14] += b0 * a1_3;
                acc[15] += b1 * a1_3;
        }
        {
            let k = 2u;
            let b0 = bt[k][tx];
                let b1 = bt[k][16u + tx];
                let a0_0 = at[k][ty * 4u + 0u];
                let a1_0 = at[k][64u + ty * 4u + 0u];
                acc[0] += b0 * a0_0;
                acc[1] += b1 * a0_0;
                acc[8] += b0 * a1_0;
                acc[9] += b1 * a1_0;
                let a0_1 = at[k][ty * 4u + 1u];
                let a1_1 = at[k][64u + ty * 4u + 1u];
                acc[2] += b0 * a0_1;
                acc[3] += b1 * a0_1;
                acc[10] += b0 * a1_1;
                acc[11] += b1 * a1_1;
                let a0_2 = at[k][ty * 4u + 2u];
                let a1_2 = at[k][64u + ty * 4u + 2u];
                acc[4] += b0 * a0_2;
                acc[5] += b1 * a0_2;
                acc[12] += b0 * a1_2;
                acc[13] += b1 * a1_2;
                let a0_3 = at[k][ty * 4u + 3u];
                let a1_3 = at[k][64u + ty * 4u + 3u];
                acc[6] += b0 * a0_3;
                acc[7] += b1 * a0_3;
                acc[14] += b0 * a1_3;
                acc[15] += b1 * a1_3;
        }
        {
            let k = 3u;
            let b0 = bt[k][tx];
                let b1 = bt[k][16u + tx];
                let a0_0 = at[k][ty * 4u + 0u];
                let a1_0 = at[k][64u + ty * 4u + 0u];
                acc[0] += b0 * a0_0;
                acc[1] += b1 * a0_0;
                acc[8] += b0 * a1_0;
                acc[9] += b1 * a1_0;
                let a0_1 = at[k][ty * 4u + 1u];
                let a1_1 = at[k][64u + ty * 4u + 1u];
                acc[2] += b0 * a0_1;
                acc[3] += b1 * a0_1;
                acc[10] += b0 * a1_1;
                acc[11] += b1 * a1_1;
                let a0_2 = at[k][ty * 4u + 2u];
                let a1_2 = at[k][64u + ty * 4u + 2u];
                acc[4] += b0 * a0_2;
                acc[5] += b1 * a0_2;
                acc[12] += b0 * a1_2;
                acc[13] += b1 * a1_2;
                let a0_3 = at[k][ty * 4u + 3u];
                let a1_3 = at[k][64u + ty * 4u + 3u];
                acc[6] += b0 * a0_3;
                acc[7] += b1 * a0_3;
                acc[14] += b0 * a1_3;
                acc[15] += b1 * a1_3;
        }
        {
            let k = 4u;
            let b0 = bt[k][tx];
                let b1 = bt[k][16u + tx];
                let a0_0 = at[k][ty * 4u + 0u];
                let a1_0 = at[k][64u + ty * 4u + 0u];
                acc[0] += b0 * a0_0;
                acc[1] += b1 * a0_0;
                acc[8] += b0 * a1_0;
                acc[9] += b1 * a1_0;
                let a0_1 = at[k][ty * 4u + 1u];
                let a1_1 = at[k][64u + ty * 4u + 1u];
                acc[2] += b0 * a0_1;
                acc[3] += b1 * a0_1;
                acc[10] += b0 * a1_1;
                acc[11] += b1 * a1_1;
                let a0_2 = at[k][ty * 4u + 2u];
                let a1_2 = at[k][64u + ty * 4u + 2u];
                acc[4] += b0 * a0_2;
                acc[5] += b1 * a0_2;
                acc[12] += b0 * a1_2;
                acc[13] += b1 * a1_2;
                let a0_3 = at[k][ty * 4u + 3u];
                let a1_3 = at[k][64u + ty * 4u + 3u];
                acc[6] += b0 * a0_3;
                acc[7] += b1 * a0_3;
                acc[14] += b0 * a1_3;
                acc[15] += b1 * a1_3;
        }
        {
            let k = 5u;
            let b0 = bt[k][tx];
                let b1 = bt[k][16u + tx];
                let a0_0 = at[k][ty * 4u + 0u];
                let a1_0 = at[k][64u + ty * 4u + 0u];
                acc[0] += b0 * a0_0;
                acc[1] += b1 * a0_0;
                acc[8] += b0 * a1_0;
                acc[9] += b1 * a1_0;
                let a0_1 = at[k][ty * 4u + 1u];
                let a1_1 = at[k][64u + ty * 4u + 1u];
                acc[2] += b0 * a0_1;
                acc[3] += b1 * a0_1;
                acc[10] += b0 * a1_1;
                acc[11] += b1 * a1_1;
                let a0_2 = at[k][ty * 4u + 2u];
                let a1_2 = at[k][64u + ty * 4u + 2u];
                acc[4] += b0 * a0_2;
                acc[5] += b1 * a0_2;
                acc[12] += b0 * a1_2;
                acc[13] += b1 * a1_2;
                let a0_3 = at[k][ty * 4u + 3u];
                let a1_3 = at[k][64u + ty * 4u + 3u];
                acc[6] += b0 * a0_3;
                acc[7] += b1 * a0_3;
                acc[14] += b0 * a1_3;
                acc[15] += b1 * a1_3;
        }
        {
            let k = 6u;
            let b0 = bt[k][tx];
                let b1 = bt[k][16u + tx];
                let a0_0 = at[k][ty * 4u + 0u];
                let a1_0 = at[k][64u + ty * 4u + 0u];
                acc[0] += b0 * a0_0;
                acc[1] += b1 * a0_0;
                acc[8] += b0 * a1_0;
                acc[9] += b1 * a1_0;
                let a0_1 = at[k][ty * 4u + 1u];
                let a1_1 = at[k][64u + ty * 4u + 1u];
                acc[2] += b0 * a0_1;
                acc[3] += b1 * a0_1;
                acc[10] += b0 * a1_1;
                acc[11] += b1 * a1_1;
                let a0_2 = at[k][ty * 4u + 2u];
                let a1_2 = at[k][64u + ty * 4u + 2u];
                acc[4] += b0 * a0_2;
                acc[5] += b1 * a0_2;
                acc[12] += b0 * a1_2;
                acc[13] += b1 * a1_2;
                let a0_3 = at[k][ty * 4u + 3u];
                let a1_3 = at[k][64u + ty * 4u + 3u];
                acc[6] += b0 * a0_3;
                acc[7] += b1 * a0_3;
                acc[14] += b0 * a1_3;
                acc[15] += b1 * a1_3;
        }
        {
            let k = 7u;
            let b0 = bt[k][tx];
                let b1 = bt[k][16u + tx];
                let a0_0 = at[k][ty * 4u + 0u];
                let a1_0 = at[k][64u + ty * 4u + 0u];
                acc[0] += b0 * a0_0;
                acc[1] += b1 * a0_0;
                acc[8] += b0 * a1_0;
                acc[9] += b1 * a1_0;
                let a0_1 = at[k][ty * 4u + 1u];
                let a1_1 = at[k][64u + ty * 4u + 1u];
                acc[2] += b0 * a0_1;
                acc[3] += b1 * a0_1;
                acc[10] += b0 * a1_1;
                acc[11] += b1 * a1_1;
                let a0_2 = at[k][ty * 4u + 2u];
                let a1_2 = at[k][64u + ty * 4u + 2u];
                acc[4] += b0 * a0_2;
                acc[5] += b1 * a0_2;
                acc[12] += b0 * a1_2;
                acc[13] += b1 * a1_2;
                let a0_3 = at[k][ty * 4u + 3u];
                let a1_3 = at[k][64u + ty * 4u + 3u];
                acc[6] += b0 * a0_3;
                acc[7] += b1 * a0_3;
                acc[14] += b0 * a1_3;
                acc[15] += b1 * a1_3;
        }
        workgroupBarrier();
    }
    {
        let r = row0 + 0u + ty * 4u + 0u;
        let c0 = col0 + tx * 4u;
        if r < n && c0 < n {
            c[r * n4 + c0 / 4u] = acc[0];
        }
        if r < n && c0 + 64u < n {
            c[r * n4 + (c0 + 64u) / 4u] = acc[1];
        }
    }
    {
        let r = row0 + 0u + ty * 4u + 1u;
        let c0 = col0 + tx * 4u;
        if r < n && c0 < n {
            c[r * n4 + c0 / 4u] = acc[2];
        }
        if r < n && c0 + 64u < n {
            c[r * n4 + (c0 + 64u) / 4u] = acc[3];
        }
    }
    {
        let r = row0 + 0u + ty * 4u + 2u;
        let c0 = col0 + tx * 4u;
        if r < n && c0 < n {
            c[r * n4 + c0 / 4u] = acc[4];
        }
        if r < n && c0 + 64u < n {
            c[r * n4 + (c0 + 64u) / 4u] = acc[5];
        }
    }
    {
        let r = row0 + 0u + ty * 4u + 3u;
        let c0 = col0 + tx * 4u;
        if r < n && c0 < n {
            c[r * n4 + c0 / 4u] = acc[6];
        }
        if r < n && c0 + 64u < n {
            c[r * n4 + (c0 + 64u) / 4u] = acc[7];
        }
    }
    {
        let r = row0 + 64u + ty * 4u + 0u;
        let c0 = col0 + tx * 4u;
        if r < n && c0 < n {
            c[r * n4 + c0 / 4u] = acc[8];
        }
        if r < n && c0 + 64u < n {
            c[r * n4 + (c0 + 64u) / 4u] = acc[9];
        }
    }
    {
        let r = row0 + 64u + ty * 4u + 1u;
        let c0 = col0 + tx * 4u;
        if r < n && c0 < n {
            c[r * n4 + c0 / 4u] = acc[10];
        }
        if r < n && c0 + 64u < n {
            c[r * n4 + (c0 + 64u) / 4u] = acc[11];
        }
    }
    {
        let r = row0 + 64u + ty * 4u + 2u;
        let c0 = col0 + tx * 4u;
        if r < n && c0 < n {
            c[r * n4 + c0 / 4u] = acc[12];
        }
        if r < n && c0 + 64u < n {
            c[r * n4 + (c0 + 64u) / 4u] = acc[13];
        }
    }
    {
        let r = row0 + 64u + ty * 4u + 3u;
        let c0 = col0 + tx * 4u;
        if r < n && c0 < n {
            c[r * n4 + c0 / 4u] = acc[14];
        }
        if r < n && c0 + 64u < n {
            c[r * n4 + (c0 + 64u) / 4u] = acc[15];
        }
    }
}
