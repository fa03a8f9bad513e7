// An experiment (x_matmul_f16), the twin of sarek-bench's `matmul_f16_vec_p2e` (written from one plan
// with it): a 128x256 block of c per 256 invocations (8 subgroups of 32, each a 64x64 part
// as 4x4 accumulators of 16x16), steps of 32 along k, one buffer of vec4<f16> words in
// workgroup memory (rows padded by two words), read by the matrix loads (stride in words);
// the words of step k + 64 loaded at step k (2 register sets, the loop unrolled by two),
// before the first barrier.
enable f16;
enable wgpu_cooperative_matrix;

struct Params { m: u32 }
@group(0) @binding(0) var<storage, read> a: array<vec4<f16>>;
@group(0) @binding(1) var<storage, read> b: array<vec4<f16>>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;
@group(0) @binding(3) var<uniform> p: Params;
var<workgroup> sa: array<vec4<f16>, 1280>;
var<workgroup> sb: array<vec4<f16>, 2112>;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) t: u32) {
    let m = p.m;
    let row0 = wid.y * 128u;
    let col0 = wid.x * 256u;
    let sg = t / 32u;
    let ar = (sg / 4u) * 64u;
    let bc = (sg % 4u) * 16u;
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
    let la = (row0 + t / 8u) * q + t % 8u;
    let pa = (t / 8u) * 10u + t % 8u;
    let lb = (t / 64u) * q + col0 / 4u + t % 64u;
    let pb = (t / 64u) * 66u + t % 64u;
    var ra00 = a[la + (0u) / 4u + 0u * q];
    var ra01 = a[la + (0u) / 4u + 32u * q];
    var ra02 = a[la + (0u) / 4u + 64u * q];
    var ra03 = a[la + (0u) / 4u + 96u * q];
    var rb00 = b[lb + (0u + 0u) * q];
    var rb01 = b[lb + (0u + 4u) * q];
    var rb02 = b[lb + (0u + 8u) * q];
    var rb03 = b[lb + (0u + 12u) * q];
    var rb04 = b[lb + (0u + 16u) * q];
    var rb05 = b[lb + (0u + 20u) * q];
    var rb06 = b[lb + (0u + 24u) * q];
    var rb07 = b[lb + (0u + 28u) * q];
    var ra10 = a[la + (min(32u, m - 32u)) / 4u + 0u * q];
    var ra11 = a[la + (min(32u, m - 32u)) / 4u + 32u * q];
    var ra12 = a[la + (min(32u, m - 32u)) / 4u + 64u * q];
    var ra13 = a[la + (min(32u, m - 32u)) / 4u + 96u * q];
    var rb10 = b[lb + (min(32u, m - 32u) + 0u) * q];
    var rb11 = b[lb + (min(32u, m - 32u) + 4u) * q];
    var rb12 = b[lb + (min(32u, m - 32u) + 8u) * q];
    var rb13 = b[lb + (min(32u, m - 32u) + 12u) * q];
    var rb14 = b[lb + (min(32u, m - 32u) + 16u) * q];
    var rb15 = b[lb + (min(32u, m - 32u) + 20u) * q];
    var rb16 = b[lb + (min(32u, m - 32u) + 24u) * q];
    var rb17 = b[lb + (min(32u, m - 32u) + 28u) * q];
    for (var k = 0u; k < m; k += 64u) {
        sa[pa + 0u] = ra00;
        sa[pa + 320u] = ra01;
        sa[pa + 640u] = ra02;
        sa[pa + 960u] = ra03;
        sb[pb + 0u] = rb00;
        sb[pb + 264u] = rb01;
        sb[pb + 528u] = rb02;
        sb[pb + 792u] = rb03;
        sb[pb + 1056u] = rb04;
        sb[pb + 1320u] = rb05;
        sb[pb + 1584u] = rb06;
        sb[pb + 1848u] = rb07;
        let kn0 = min(k + 64u, m - 32u);
        ra00 = a[la + kn0 / 4u + 0u * q];
        ra01 = a[la + kn0 / 4u + 32u * q];
        ra02 = a[la + kn0 / 4u + 64u * q];
        ra03 = a[la + kn0 / 4u + 96u * q];
        rb00 = b[lb + (kn0 + 0u) * q];
        rb01 = b[lb + (kn0 + 4u) * q];
        rb02 = b[lb + (kn0 + 8u) * q];
        rb03 = b[lb + (kn0 + 12u) * q];
        rb04 = b[lb + (kn0 + 16u) * q];
        rb05 = b[lb + (kn0 + 20u) * q];
        rb06 = b[lb + (kn0 + 24u) * q];
        rb07 = b[lb + (kn0 + 28u) * q];
        workgroupBarrier();
        let a0_00 = coopLoadT<coop_mat16x16<f16, A>>(&sa[(ar + 0u) * 10u + 0u], 10u);
        let a1_00 = coopLoadT<coop_mat16x16<f16, A>>(&sa[(ar + 16u) * 10u + 0u], 10u);
        let a2_00 = coopLoadT<coop_mat16x16<f16, A>>(&sa[(ar + 32u) * 10u + 0u], 10u);
        let a3_00 = coopLoadT<coop_mat16x16<f16, A>>(&sa[(ar + 48u) * 10u + 0u], 10u);
        let b0_00 = coopLoadT<coop_mat16x16<f16, B>>(&sb[0u + bc + 0u], 66u);
        let b1_00 = coopLoadT<coop_mat16x16<f16, B>>(&sb[0u + bc + 4u], 66u);
        let b2_00 = coopLoadT<coop_mat16x16<f16, B>>(&sb[0u + bc + 8u], 66u);
        let b3_00 = coopLoadT<coop_mat16x16<f16, B>>(&sb[0u + bc + 12u], 66u);
        c00 = coopMultiplyAdd(a0_00, b0_00, c00);
        c01 = coopMultiplyAdd(a0_00, b1_00, c01);
        c02 = coopMultiplyAdd(a0_00, b2_00, c02);
        c03 = coopMultiplyAdd(a0_00, b3_00, c03);
        c10 = coopMultiplyAdd(a1_00, b0_00, c10);
        c11 = coopMultiplyAdd(a1_00, b1_00, c11);
        c12 = coopMultiplyAdd(a1_00, b2_00, c12);
        c13 = coopMultiplyAdd(a1_00, b3_00, c13);
        c20 = coopMultiplyAdd(a2_00, b0_00, c20);
        c21 = coopMultiplyAdd(a2_00, b1_00, c21);
        c22 = coopMultiplyAdd(a2_00, b2_00, c22);
        c23 = coopMultiplyAdd(a2_00, b3_00, c23);
        c30 = coopMultiplyAdd(a3_00, b0_00, c30);
        c31 = coopMultiplyAdd(a3_00, b1_00, c31);
        c32 = coopMultiplyAdd(a3_00, b2_00, c32);
        c33 = coopMultiplyAdd(a3_00, b3_00, c33);
        let a0_01 = coopLoadT<coop_mat16x16<f16, A>>(&sa[(ar + 0u) * 10u + 4u], 10u);
        let a1_01 = coopLoadT<coop_mat16x16<f16, A>>(&sa[(ar + 16u) * 10u + 4u], 10u);
        let a2_01 = coopLoadT<coop_mat16x16<f16, A>>(&sa[(ar + 32u) * 10u + 4u], 10u);
        let a3_01 = coopLoadT<coop_mat16x16<f16, A>>(&sa[(ar + 48u) * 10u + 4u], 10u);
        let b0_01 = coopLoadT<coop_mat16x16<f16, B>>(&sb[1056u + bc + 0u], 66u);
        let b1_01 = coopLoadT<coop_mat16x16<f16, B>>(&sb[1056u + bc + 4u], 66u);
        let b2_01 = coopLoadT<coop_mat16x16<f16, B>>(&sb[1056u + bc + 8u], 66u);
        let b3_01 = coopLoadT<coop_mat16x16<f16, B>>(&sb[1056u + bc + 12u], 66u);
        c00 = coopMultiplyAdd(a0_01, b0_01, c00);
        c01 = coopMultiplyAdd(a0_01, b1_01, c01);
        c02 = coopMultiplyAdd(a0_01, b2_01, c02);
        c03 = coopMultiplyAdd(a0_01, b3_01, c03);
        c10 = coopMultiplyAdd(a1_01, b0_01, c10);
        c11 = coopMultiplyAdd(a1_01, b1_01, c11);
        c12 = coopMultiplyAdd(a1_01, b2_01, c12);
        c13 = coopMultiplyAdd(a1_01, b3_01, c13);
        c20 = coopMultiplyAdd(a2_01, b0_01, c20);
        c21 = coopMultiplyAdd(a2_01, b1_01, c21);
        c22 = coopMultiplyAdd(a2_01, b2_01, c22);
        c23 = coopMultiplyAdd(a2_01, b3_01, c23);
        c30 = coopMultiplyAdd(a3_01, b0_01, c30);
        c31 = coopMultiplyAdd(a3_01, b1_01, c31);
        c32 = coopMultiplyAdd(a3_01, b2_01, c32);
        c33 = coopMultiplyAdd(a3_01, b3_01, c33);
        workgroupBarrier();
        sa[pa + 0u] = ra10;
        sa[pa + 320u] = ra11;
        sa[pa + 640u] = ra12;
        sa[pa + 960u] = ra13;
        sb[pb + 0u] = rb10;
        sb[pb + 264u] = rb11;
        sb[pb + 528u] = rb12;
        sb[pb + 792u] = rb13;
        sb[pb + 1056u] = rb14;
        sb[pb + 1320u] = rb15;
        sb[pb + 1584u] = rb16;
        sb[pb + 1848u] = rb17;
        let kn1 = min((k + 32u) + 64u, m - 32u);
        ra10 = a[la + kn1 / 4u + 0u * q];
        ra11 = a[la + kn1 / 4u + 32u * q];
        ra12 = a[la + kn1 / 4u + 64u * q];
        ra13 = a[la + kn1 / 4u + 96u * q];
        rb10 = b[lb + (kn1 + 0u) * q];
        rb11 = b[lb + (kn1 + 4u) * q];
        rb12 = b[lb + (kn1 + 8u) * q];
        rb13 = b[lb + (kn1 + 12u) * q];
        rb14 = b[lb + (kn1 + 16u) * q];
        rb15 = b[lb + (kn1 + 20u) * q];
        rb16 = b[lb + (kn1 + 24u) * q];
        rb17 = b[lb + (kn1 + 28u) * q];
        workgroupBarrier();
        let a0_10 = coopLoadT<coop_mat16x16<f16, A>>(&sa[(ar + 0u) * 10u + 0u], 10u);
        let a1_10 = coopLoadT<coop_mat16x16<f16, A>>(&sa[(ar + 16u) * 10u + 0u], 10u);
        let a2_10 = coopLoadT<coop_mat16x16<f16, A>>(&sa[(ar + 32u) * 10u + 0u], 10u);
        let a3_10 = coopLoadT<coop_mat16x16<f16, A>>(&sa[(ar + 48u) * 10u + 0u], 10u);
        let b0_10 = coopLoadT<coop_mat16x16<f16, B>>(&sb[0u + bc + 0u], 66u);
        let b1_10 = coopLoadT<coop_mat16x16<f16, B>>(&sb[0u + bc + 4u], 66u);
        let b2_10 = coopLoadT<coop_mat16x16<f16, B>>(&sb[0u + bc + 8u], 66u);
        let b3_10 = coopLoadT<coop_mat16x16<f16, B>>(&sb[0u + bc + 12u], 66u);
        c00 = coopMultiplyAdd(a0_10, b0_10, c00);
        c01 = coopMultiplyAdd(a0_10, b1_10, c01);
        c02 = coopMultiplyAdd(a0_10, b2_10, c02);
        c03 = coopMultiplyAdd(a0_10, b3_10, c03);
        c10 = coopMultiplyAdd(a1_10, b0_10, c10);
        c11 = coopMultiplyAdd(a1_10, b1_10, c11);
        c12 = coopMultiplyAdd(a1_10, b2_10, c12);
        c13 = coopMultiplyAdd(a1_10, b3_10, c13);
        c20 = coopMultiplyAdd(a2_10, b0_10, c20);
        c21 = coopMultiplyAdd(a2_10, b1_10, c21);
        c22 = coopMultiplyAdd(a2_10, b2_10, c22);
        c23 = coopMultiplyAdd(a2_10, b3_10, c23);
        c30 = coopMultiplyAdd(a3_10, b0_10, c30);
        c31 = coopMultiplyAdd(a3_10, b1_10, c31);
        c32 = coopMultiplyAdd(a3_10, b2_10, c32);
        c33 = coopMultiplyAdd(a3_10, b3_10, c33);
        let a0_11 = coopLoadT<coop_mat16x16<f16, A>>(&sa[(ar + 0u) * 10u + 4u], 10u);
        let a1_11 = coopLoadT<coop_mat16x16<f16, A>>(&sa[(ar + 16u) * 10u + 4u], 10u);
        let a2_11 = coopLoadT<coop_mat16x16<f16, A>>(&sa[(ar + 32u) * 10u + 4u], 10u);
        let a3_11 = coopLoadT<coop_mat16x16<f16, A>>(&sa[(ar + 48u) * 10u + 4u], 10u);
        let b0_11 = coopLoadT<coop_mat16x16<f16, B>>(&sb[1056u + bc + 0u], 66u);
        let b1_11 = coopLoadT<coop_mat16x16<f16, B>>(&sb[1056u + bc + 4u], 66u);
        let b2_11 = coopLoadT<coop_mat16x16<f16, B>>(&sb[1056u + bc + 8u], 66u);
        let b3_11 = coopLoadT<coop_mat16x16<f16, B>>(&sb[1056u + bc + 12u], 66u);
        c00 = coopMultiplyAdd(a0_11, b0_11, c00);
        c01 = coopMultiplyAdd(a0_11, b1_11, c01);
        c02 = coopMultiplyAdd(a0_11, b2_11, c02);
        c03 = coopMultiplyAdd(a0_11, b3_11, c03);
        c10 = coopMultiplyAdd(a1_11, b0_11, c10);
        c11 = coopMultiplyAdd(a1_11, b1_11, c11);
        c12 = coopMultiplyAdd(a1_11, b2_11, c12);
        c13 = coopMultiplyAdd(a1_11, b3_11, c13);
        c20 = coopMultiplyAdd(a2_11, b0_11, c20);
        c21 = coopMultiplyAdd(a2_11, b1_11, c21);
        c22 = coopMultiplyAdd(a2_11, b2_11, c22);
        c23 = coopMultiplyAdd(a2_11, b3_11, c23);
        c30 = coopMultiplyAdd(a3_11, b0_11, c30);
        c31 = coopMultiplyAdd(a3_11, b1_11, c31);
        c32 = coopMultiplyAdd(a3_11, b2_11, c32);
        c33 = coopMultiplyAdd(a3_11, b3_11, c33);
        workgroupBarrier();
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
