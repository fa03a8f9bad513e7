// The twin of sarek-bench's `matmul_f16_q4p2` (`benches/coop_q4.rs`), the suite's f16 row,
// written by tools/matmul_f16_prefetch_tail.py --row from the plan it follows: a 128x128 block
// of c per 128 invocations (4 subgroups of 32, each a 64x64 part as 4x4 accumulators of
// 16x16), steps of 32 along k, one buffer of vec4<f16> words in workgroup memory (rows padded
// by two words), read by the matrix loads (stride in words); the words of step k + 64 loaded
// at step k (2 register sets, the loop unrolled by two), after the first barrier; the rows
// of a that a half-warp stores are r and r + 4, so its 64-bit stores meet no bank twice; m a
// multiple of 128. Each store of c takes its pointer from a `let`: naga 30 emits a
// coopStore's argument expressions after the store, and its SPIR-V writer panics on them.
// block: 128x128
enable f16;
enable wgpu_cooperative_matrix;

struct Params { m: u32 }
@group(0) @binding(0) var<storage, read> a: array<vec4<f16>>;
@group(0) @binding(1) var<storage, read> b: array<vec4<f16>>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;
@group(0) @binding(3) var<uniform> p: Params;
var<workgroup> sa: array<vec4<f16>, 1280>;
var<workgroup> sb: array<vec4<f16>, 1088>;

@compute @workgroup_size(128)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) t: u32) {
    let m = p.m;
    let row0 = wid.y * 128u;
    let col0 = wid.x * 128u;
    let sg = t / 32u;
    let ar = (sg / 2u) * 64u;
    let bc = (sg % 2u) * 16u;
    var c00: coop_mat16x16<f32, C>;
    var c01: coop_mat16x16<f32, C>;
    var c02: coop_mat16x16<f32, C>;
    var c03: coop_mat16x16<f32, C>;
    var c10: coop_mat16x16<f32, C>;
    var c11: coop_mat16x16<f32, C>;
    var c12: coop_mat16x16<f32, C>;
    var c13: coop_mat16x16<f32, C>;
    var c20: coop_mat16x16<f32, C>;
    var c21: coop_mat16x16<f32, C>;
    var c22: coop_mat16x16<f32, C>;
    var c23: coop_mat16x16<f32, C>;
    var c30: coop_mat16x16<f32, C>;
    var c31: coop_mat16x16<f32, C>;
    var c32: coop_mat16x16<f32, C>;
    var c33: coop_mat16x16<f32, C>;
    let q = m / 4u;
    let ta = ((t / 8u) % 2u) * 4u + (t / 16u) % 4u + (t / 64u) * 8u;
    let la = (row0 + ta) * q + t % 8u;
    let pa = ta * 10u + t % 8u;
    let lb = (t / 32u) * q + col0 / 4u + t % 32u;
    let pb = (t / 32u) * 34u + t % 32u;
    var ra0_0 = a[la + (0u) / 4u + 0u * q];
    var ra0_1 = a[la + (0u) / 4u + 16u * q];
    var ra0_2 = a[la + (0u) / 4u + 32u * q];
    var ra0_3 = a[la + (0u) / 4u + 48u * q];
    var ra0_4 = a[la + (0u) / 4u + 64u * q];
    var ra0_5 = a[la + (0u) / 4u + 80u * q];
    var ra0_6 = a[la + (0u) / 4u + 96u * q];
    var ra0_7 = a[la + (0u) / 4u + 112u * q];
    var rb0_0 = b[lb + (0u + 0u) * q];
    var rb0_1 = b[lb + (0u + 4u) * q];
    var rb0_2 = b[lb + (0u + 8u) * q];
    var rb0_3 = b[lb + (0u + 12u) * q];
    var rb0_4 = b[lb + (0u + 16u) * q];
    var rb0_5 = b[lb + (0u + 20u) * q];
    var rb0_6 = b[lb + (0u + 24u) * q];
    var rb0_7 = b[lb + (0u + 28u) * q];
    var ra1_0 = a[la + (min(32u, m - 32u)) / 4u + 0u * q];
    var ra1_1 = a[la + (min(32u, m - 32u)) / 4u + 16u * q];
    var ra1_2 = a[la + (min(32u, m - 32u)) / 4u + 32u * q];
    var ra1_3 = a[la + (min(32u, m - 32u)) / 4u + 48u * q];
    var ra1_4 = a[la + (min(32u, m - 32u)) / 4u + 64u * q];
    var ra1_5 = a[la + (min(32u, m - 32u)) / 4u + 80u * q];
    var ra1_6 = a[la + (min(32u, m - 32u)) / 4u + 96u * q];
    var ra1_7 = a[la + (min(32u, m - 32u)) / 4u + 112u * q];
    var rb1_0 = b[lb + (min(32u, m - 32u) + 0u) * q];
    var rb1_1 = b[lb + (min(32u, m - 32u) + 4u) * q];
    var rb1_2 = b[lb + (min(32u, m - 32u) + 8u) * q];
    var rb1_3 = b[lb + (min(32u, m - 32u) + 12u) * q];
    var rb1_4 = b[lb + (min(32u, m - 32u) + 16u) * q];
    var rb1_5 = b[lb + (min(32u, m - 32u) + 20u) * q];
    var rb1_6 = b[lb + (min(32u, m - 32u) + 24u) * q];
    var rb1_7 = b[lb + (min(32u, m - 32u) + 28u) * q];
    for (var k = 0u; k < m; k += 64u) {
        {
            sa[0u + pa + 0u] = ra0_0;
            sa[0u + pa + 160u] = ra0_1;
            sa[0u + pa + 320u] = ra0_2;
            sa[0u + pa + 480u] = ra0_3;
            sa[0u + pa + 640u] = ra0_4;
            sa[0u + pa + 800u] = ra0_5;
            sa[0u + pa + 960u] = ra0_6;
            sa[0u + pa + 1120u] = ra0_7;
            sb[0u + pb + 0u] = rb0_0;
            sb[0u + pb + 136u] = rb0_1;
            sb[0u + pb + 272u] = rb0_2;
            sb[0u + pb + 408u] = rb0_3;
            sb[0u + pb + 544u] = rb0_4;
            sb[0u + pb + 680u] = rb0_5;
            sb[0u + pb + 816u] = rb0_6;
            sb[0u + pb + 952u] = rb0_7;
            workgroupBarrier();
            let kn0 = min(k + 64u, m - 32u);
            ra0_0 = a[la + (kn0) / 4u + 0u * q];
            ra0_1 = a[la + (kn0) / 4u + 16u * q];
            ra0_2 = a[la + (kn0) / 4u + 32u * q];
            ra0_3 = a[la + (kn0) / 4u + 48u * q];
            ra0_4 = a[la + (kn0) / 4u + 64u * q];
            ra0_5 = a[la + (kn0) / 4u + 80u * q];
            ra0_6 = a[la + (kn0) / 4u + 96u * q];
            ra0_7 = a[la + (kn0) / 4u + 112u * q];
            rb0_0 = b[lb + (kn0 + 0u) * q];
            rb0_1 = b[lb + (kn0 + 4u) * q];
            rb0_2 = b[lb + (kn0 + 8u) * q];
            rb0_3 = b[lb + (kn0 + 12u) * q];
            rb0_4 = b[lb + (kn0 + 16u) * q];
            rb0_5 = b[lb + (kn0 + 20u) * q];
            rb0_6 = b[lb + (kn0 + 24u) * q];
            rb0_7 = b[lb + (kn0 + 28u) * q];
            let a0_0 = coopLoadT<coop_mat16x16<f16, A>>(&sa[0u + (ar + 0u) * 10u + 0u], 10u);
            let a1_0 = coopLoadT<coop_mat16x16<f16, A>>(&sa[0u + (ar + 16u) * 10u + 0u], 10u);
            let a2_0 = coopLoadT<coop_mat16x16<f16, A>>(&sa[0u + (ar + 32u) * 10u + 0u], 10u);
            let a3_0 = coopLoadT<coop_mat16x16<f16, A>>(&sa[0u + (ar + 48u) * 10u + 0u], 10u);
            let b0_0 = coopLoadT<coop_mat16x16<f16, B>>(&sb[0u + bc + 0u], 34u);
            let b1_0 = coopLoadT<coop_mat16x16<f16, B>>(&sb[0u + bc + 4u], 34u);
            let b2_0 = coopLoadT<coop_mat16x16<f16, B>>(&sb[0u + bc + 8u], 34u);
            let b3_0 = coopLoadT<coop_mat16x16<f16, B>>(&sb[0u + bc + 12u], 34u);
            c00 = coopMultiplyAdd(a0_0, b0_0, c00);
            c01 = coopMultiplyAdd(a0_0, b1_0, c01);
            c02 = coopMultiplyAdd(a0_0, b2_0, c02);
            c03 = coopMultiplyAdd(a0_0, b3_0, c03);
            c10 = coopMultiplyAdd(a1_0, b0_0, c10);
            c11 = coopMultiplyAdd(a1_0, b1_0, c11);
            c12 = coopMultiplyAdd(a1_0, b2_0, c12);
            c13 = coopMultiplyAdd(a1_0, b3_0, c13);
            c20 = coopMultiplyAdd(a2_0, b0_0, c20);
            c21 = coopMultiplyAdd(a2_0, b1_0, c21);
            c22 = coopMultiplyAdd(a2_0, b2_0, c22);
            c23 = coopMultiplyAdd(a2_0, b3_0, c23);
            c30 = coopMultiplyAdd(a3_0, b0_0, c30);
            c31 = coopMultiplyAdd(a3_0, b1_0, c31);
            c32 = coopMultiplyAdd(a3_0, b2_0, c32);
            c33 = coopMultiplyAdd(a3_0, b3_0, c33);
            let a0_1 = coopLoadT<coop_mat16x16<f16, A>>(&sa[0u + (ar + 0u) * 10u + 4u], 10u);
            let a1_1 = coopLoadT<coop_mat16x16<f16, A>>(&sa[0u + (ar + 16u) * 10u + 4u], 10u);
            let a2_1 = coopLoadT<coop_mat16x16<f16, A>>(&sa[0u + (ar + 32u) * 10u + 4u], 10u);
            let a3_1 = coopLoadT<coop_mat16x16<f16, A>>(&sa[0u + (ar + 48u) * 10u + 4u], 10u);
            let b0_1 = coopLoadT<coop_mat16x16<f16, B>>(&sb[544u + bc + 0u], 34u);
            let b1_1 = coopLoadT<coop_mat16x16<f16, B>>(&sb[544u + bc + 4u], 34u);
            let b2_1 = coopLoadT<coop_mat16x16<f16, B>>(&sb[544u + bc + 8u], 34u);
            let b3_1 = coopLoadT<coop_mat16x16<f16, B>>(&sb[544u + bc + 12u], 34u);
            c00 = coopMultiplyAdd(a0_1, b0_1, c00);
            c01 = coopMultiplyAdd(a0_1, b1_1, c01);
            c02 = coopMultiplyAdd(a0_1, b2_1, c02);
            c03 = coopMultiplyAdd(a0_1, b3_1, c03);
            c10 = coopMultiplyAdd(a1_1, b0_1, c10);
            c11 = coopMultiplyAdd(a1_1, b1_1, c11);
            c12 = coopMultiplyAdd(a1_1, b2_1, c12);
            c13 = coopMultiplyAdd(a1_1, b3_1, c13);
            c20 = coopMultiplyAdd(a2_1, b0_1, c20);
            c21 = coopMultiplyAdd(a2_1, b1_1, c21);
            c22 = coopMultiplyAdd(a2_1, b2_1, c22);
            c23 = coopMultiplyAdd(a2_1, b3_1, c23);
            c30 = coopMultiplyAdd(a3_1, b0_1, c30);
            c31 = coopMultiplyAdd(a3_1, b1_1, c31);
            c32 = coopMultiplyAdd(a3_1, b2_1, c32);
            c33 = coopMultiplyAdd(a3_1, b3_1, c33);
            workgroupBarrier();
        }
        {
            sa[0u + pa + 0u] = ra1_0;
            sa[0u + pa + 160u] = ra1_1;
            sa[0u + pa + 320u] = ra1_2;
            sa[0u + pa + 480u] = ra1_3;
            sa[0u + pa + 640u] = ra1_4;
            sa[0u + pa + 800u] = ra1_5;
            sa[0u + pa + 960u] = ra1_6;
            sa[0u + pa + 1120u] = ra1_7;
            sb[0u + pb + 0u] = rb1_0;
            sb[0u + pb + 136u] = rb1_1;
            sb[0u + pb + 272u] = rb1_2;
            sb[0u + pb + 408u] = rb1_3;
            sb[0u + pb + 544u] = rb1_4;
            sb[0u + pb + 680u] = rb1_5;
            sb[0u + pb + 816u] = rb1_6;
            sb[0u + pb + 952u] = rb1_7;
            workgroupBarrier();
            let kn1 = min((k + 32u) + 64u, m - 32u);
            ra1_0 = a[la + (kn1) / 4u + 0u * q];
            ra1_1 = a[la + (kn1) / 4u + 16u * q];
            ra1_2 = a[la + (kn1) / 4u + 32u * q];
            ra1_3 = a[la + (kn1) / 4u + 48u * q];
            ra1_4 = a[la + (kn1) / 4u + 64u * q];
            ra1_5 = a[la + (kn1) / 4u + 80u * q];
            ra1_6 = a[la + (kn1) / 4u + 96u * q];
            ra1_7 = a[la + (kn1) / 4u + 112u * q];
            rb1_0 = b[lb + (kn1 + 0u) * q];
            rb1_1 = b[lb + (kn1 + 4u) * q];
            rb1_2 = b[lb + (kn1 + 8u) * q];
            rb1_3 = b[lb + (kn1 + 12u) * q];
            rb1_4 = b[lb + (kn1 + 16u) * q];
            rb1_5 = b[lb + (kn1 + 20u) * q];
            rb1_6 = b[lb + (kn1 + 24u) * q];
            rb1_7 = b[lb + (kn1 + 28u) * q];
            let a0_0 = coopLoadT<coop_mat16x16<f16, A>>(&sa[0u + (ar + 0u) * 10u + 0u], 10u);
            let a1_0 = coopLoadT<coop_mat16x16<f16, A>>(&sa[0u + (ar + 16u) * 10u + 0u], 10u);
            let a2_0 = coopLoadT<coop_mat16x16<f16, A>>(&sa[0u + (ar + 32u) * 10u + 0u], 10u);
            let a3_0 = coopLoadT<coop_mat16x16<f16, A>>(&sa[0u + (ar + 48u) * 10u + 0u], 10u);
            let b0_0 = coopLoadT<coop_mat16x16<f16, B>>(&sb[0u + bc + 0u], 34u);
            let b1_0 = coopLoadT<coop_mat16x16<f16, B>>(&sb[0u + bc + 4u], 34u);
            let b2_0 = coopLoadT<coop_mat16x16<f16, B>>(&sb[0u + bc + 8u], 34u);
            let b3_0 = coopLoadT<coop_mat16x16<f16, B>>(&sb[0u + bc + 12u], 34u);
            c00 = coopMultiplyAdd(a0_0, b0_0, c00);
            c01 = coopMultiplyAdd(a0_0, b1_0, c01);
            c02 = coopMultiplyAdd(a0_0, b2_0, c02);
            c03 = coopMultiplyAdd(a0_0, b3_0, c03);
            c10 = coopMultiplyAdd(a1_0, b0_0, c10);
            c11 = coopMultiplyAdd(a1_0, b1_0, c11);
            c12 = coopMultiplyAdd(a1_0, b2_0, c12);
            c13 = coopMultiplyAdd(a1_0, b3_0, c13);
            c20 = coopMultiplyAdd(a2_0, b0_0, c20);
            c21 = coopMultiplyAdd(a2_0, b1_0, c21);
            c22 = coopMultiplyAdd(a2_0, b2_0, c22);
            c23 = coopMultiplyAdd(a2_0, b3_0, c23);
            c30 = coopMultiplyAdd(a3_0, b0_0, c30);
            c31 = coopMultiplyAdd(a3_0, b1_0, c31);
            c32 = coopMultiplyAdd(a3_0, b2_0, c32);
            c33 = coopMultiplyAdd(a3_0, b3_0, c33);
            let a0_1 = coopLoadT<coop_mat16x16<f16, A>>(&sa[0u + (ar + 0u) * 10u + 4u], 10u);
            let a1_1 = coopLoadT<coop_mat16x16<f16, A>>(&sa[0u + (ar + 16u) * 10u + 4u], 10u);
            let a2_1 = coopLoadT<coop_mat16x16<f16, A>>(&sa[0u + (ar + 32u) * 10u + 4u], 10u);
            let a3_1 = coopLoadT<coop_mat16x16<f16, A>>(&sa[0u + (ar + 48u) * 10u + 4u], 10u);
            let b0_1 = coopLoadT<coop_mat16x16<f16, B>>(&sb[544u + bc + 0u], 34u);
            let b1_1 = coopLoadT<coop_mat16x16<f16, B>>(&sb[544u + bc + 4u], 34u);
            let b2_1 = coopLoadT<coop_mat16x16<f16, B>>(&sb[544u + bc + 8u], 34u);
            let b3_1 = coopLoadT<coop_mat16x16<f16, B>>(&sb[544u + bc + 12u], 34u);
            c00 = coopMultiplyAdd(a0_1, b0_1, c00);
            c01 = coopMultiplyAdd(a0_1, b1_1, c01);
            c02 = coopMultiplyAdd(a0_1, b2_1, c02);
            c03 = coopMultiplyAdd(a0_1, b3_1, c03);
            c10 = coopMultiplyAdd(a1_1, b0_1, c10);
            c11 = coopMultiplyAdd(a1_1, b1_1, c11);
            c12 = coopMultiplyAdd(a1_1, b2_1, c12);
            c13 = coopMultiplyAdd(a1_1, b3_1, c13);
            c20 = coopMultiplyAdd(a2_1, b0_1, c20);
            c21 = coopMultiplyAdd(a2_1, b1_1, c21);
            c22 = coopMultiplyAdd(a2_1, b2_1, c22);
            c23 = coopMultiplyAdd(a2_1, b3_1, c23);
            c30 = coopMultiplyAdd(a3_1, b0_1, c30);
            c31 = coopMultiplyAdd(a3_1, b1_1, c31);
            c32 = coopMultiplyAdd(a3_1, b2_1, c32);
            c33 = coopMultiplyAdd(a3_1, b3_1, c33);
            workgroupBarrier();
        }
    }
    {
        let at = &c[(row0 + ar + 0u) * m + col0 + bc * 4u + 0u];
        let v = c00;
        coopStoreT(v, at, m);
    }
    {
        let at = &c[(row0 + ar + 0u) * m + col0 + bc * 4u + 16u];
        let v = c01;
        coopStoreT(v, at, m);
    }
    {
        let at = &c[(row0 + ar + 0u) * m + col0 + bc * 4u + 32u];
        let v = c02;
        coopStoreT(v, at, m);
    }
    {
        let at = &c[(row0 + ar + 0u) * m + col0 + bc * 4u + 48u];
        let v = c03;
        coopStoreT(v, at, m);
    }
    {
        let at = &c[(row0 + ar + 16u) * m + col0 + bc * 4u + 0u];
        let v = c10;
        coopStoreT(v, at, m);
    }
    {
        let at = &c[(row0 + ar + 16u) * m + col0 + bc * 4u + 16u];
        let v = c11;
        coopStoreT(v, at, m);
    }
    {
        let at = &c[(row0 + ar + 16u) * m + col0 + bc * 4u + 32u];
        let v = c12;
        coopStoreT(v, at, m);
    }
    {
        let at = &c[(row0 + ar + 16u) * m + col0 + bc * 4u + 48u];
        let v = c13;
        coopStoreT(v, at, m);
    }
    {
        let at = &c[(row0 + ar + 32u) * m + col0 + bc * 4u + 0u];
        let v = c20;
        coopStoreT(v, at, m);
    }
    {
        let at = &c[(row0 + ar + 32u) * m + col0 + bc * 4u + 16u];
        let v = c21;
        coopStoreT(v, at, m);
    }
    {
        let at = &c[(row0 + ar + 32u) * m + col0 + bc * 4u + 32u];
        let v = c22;
        coopStoreT(v, at, m);
    }
    {
        let at = &c[(row0 + ar + 32u) * m + col0 + bc * 4u + 48u];
        let v = c23;
        coopStoreT(v, at, m);
    }
    {
        let at = &c[(row0 + ar + 48u) * m + col0 + bc * 4u + 0u];
        let v = c30;
        coopStoreT(v, at, m);
    }
    {
        let at = &c[(row0 + ar + 48u) * m + col0 + bc * 4u + 16u];
        let v = c31;
        coopStoreT(v, at, m);
    }
    {
        let at = &c[(row0 + ar + 48u) * m + col0 + bc * 4u + 32u];
        let v = c32;
        coopStoreT(v, at, m);
    }
    {
        let at = &c[(row0 + ar + 48u) * m + col0 + bc * 4u + 48u];
        let v = c33;
        coopStoreT(v, at, m);
    }
}
