// An experiment (x_matmul_f16; in its vec4<f16> form the twin of sarek-bench's
// `matmul_f16_db16`): the staged f16 product, a 128x256 block of c per workgroup of 256 invocations (8 subgroups of 32,
// subgroup t / 32 a 64x64 part as 4x4 accumulators of 16x16). Steps of 16 along k with two
// buffers in workgroup memory (2 x (128x24 + 16x264) halves = 28.5 KiB; rows padded so the
// matrix loads spread over the banks) and one barrier a step: the invocations store the
// words they hold for the next step into the other buffer, issue the loads of the step after
// it, and do the products of this one. The copy goes through 8-byte words (vec4<f16>, four halves).
enable f16;
enable wgpu_cooperative_matrix;

struct Params { m: u32 }
@group(0) @binding(0) var<storage, read> a: array<vec4<f16>>;
@group(0) @binding(1) var<storage, read> b: array<vec4<f16>>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;
@group(0) @binding(3) var<uniform> p: Params;
var<workgroup> sa: array<f16, 6144>;
var<workgroup> sb: array<f16, 8448>;

fn put_a(at: u32, v: vec4<f16>) {
    sa[at + 0u] = v.x;
    sa[at + 1u] = v.y;
    sa[at + 2u] = v.z;
    sa[at + 3u] = v.w;
}

fn put_b(at: u32, v: vec4<f16>) {
    sb[at + 0u] = v.x;
    sb[at + 1u] = v.y;
    sb[at + 2u] = v.z;
    sb[at + 3u] = v.w;
}

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) t: u32) {
    let m = p.m;
    let row0 = wid.y * 128u;
    let col0 = wid.x * 256u;
    let sg = t / 32u;
    let ar = (sg / 4u) * 64u;
    let bc = (sg % 4u) * 64u;
    var acc00: coop_mat16x16<f32, C>;
    var acc01: coop_mat16x16<f32, C>;
    var acc02: coop_mat16x16<f32, C>;
    var acc03: coop_mat16x16<f32, C>;
    var acc10: coop_mat16x16<f32, C>;
    var acc11: coop_mat16x16<f32, C>;
    var acc12: coop_mat16x16<f32, C>;
    var acc13: coop_mat16x16<f32, C>;
    var acc20: coop_mat16x16<f32, C>;
    var acc21: coop_mat16x16<f32, C>;
    var acc22: coop_mat16x16<f32, C>;
    var acc23: coop_mat16x16<f32, C>;
    var acc30: coop_mat16x16<f32, C>;
    var acc31: coop_mat16x16<f32, C>;
    var acc32: coop_mat16x16<f32, C>;
    var acc33: coop_mat16x16<f32, C>;
    let q = m / 4u;
    let la = (row0 + t / 4u) * q + t % 4u;
    let pa = (t / 4u) * 24u + (t % 4u) * 4u;
    let lb = (t / 64u) * q + col0 / 4u + t % 64u;
    let pb = (t / 64u) * 264u + (t % 64u) * 4u;
    var ra0: vec4<f16>;
    var ra1: vec4<f16>;
    var rb0: vec4<f16>;
    var rb1: vec4<f16>;
    var rb2: vec4<f16>;
    var rb3: vec4<f16>;
    {
        ra0 = a[la + (0u) / 4u + 0u * q];
        ra1 = a[la + (0u) / 4u + 64u * q];
        rb0 = b[lb + (0u + 0u) * q];
        rb1 = b[lb + (0u + 4u) * q];
        rb2 = b[lb + (0u + 8u) * q];
        rb3 = b[lb + (0u + 12u) * q];
    }
        put_a(0u + pa + 0u, ra0);
        put_a(0u + pa + 1536u, ra1);
        put_b(0u + pb + 0u, rb0);
        put_b(0u + pb + 1056u, rb1);
        put_b(0u + pb + 2112u, rb2);
        put_b(0u + pb + 3168u, rb3);
    {
        ra0 = a[la + (min(16u, m - 16u)) / 4u + 0u * q];
        ra1 = a[la + (min(16u, m - 16u)) / 4u + 64u * q];
        rb0 = b[lb + (min(16u, m - 16u) + 0u) * q];
        rb1 = b[lb + (min(16u, m - 16u) + 4u) * q];
        rb2 = b[lb + (min(16u, m - 16u) + 8u) * q];
        rb3 = b[lb + (min(16u, m - 16u) + 12u) * q];
    }
    workgroupBarrier();
    for (var k = 0u; k < m; k += 16u) {
        let cur = (k / 16u) % 2u;
        let oa = cur * 3072u;
        let ob = cur * 4224u;
        // The last step stores into the idle buffer, and the last two reload the last tile:
        // cheaper than conditions, and the same in Sarek (cooperative operations stay in
        // uniform control flow with nothing to prove).
        {
        put_a(3072u - oa + pa + 0u, ra0);
        put_a(3072u - oa + pa + 1536u, ra1);
        put_b(4224u - ob + pb + 0u, rb0);
        put_b(4224u - ob + pb + 1056u, rb1);
        put_b(4224u - ob + pb + 2112u, rb2);
        put_b(4224u - ob + pb + 3168u, rb3);
        }
        {
        let kn = min(k + 32u, m - 16u);
        ra0 = a[la + (kn) / 4u + 0u * q];
        ra1 = a[la + (kn) / 4u + 64u * q];
        rb0 = b[lb + (kn + 0u) * q];
        rb1 = b[lb + (kn + 4u) * q];
        rb2 = b[lb + (kn + 8u) * q];
        rb3 = b[lb + (kn + 12u) * q];
        }
        let a0 = coopLoadT<coop_mat16x16<f16, A>>(&sa[oa + (ar + 0u) * 24u], 24u);
        let a1 = coopLoadT<coop_mat16x16<f16, A>>(&sa[oa + (ar + 16u) * 24u], 24u);
        let a2 = coopLoadT<coop_mat16x16<f16, A>>(&sa[oa + (ar + 32u) * 24u], 24u);
        let a3 = coopLoadT<coop_mat16x16<f16, A>>(&sa[oa + (ar + 48u) * 24u], 24u);
        let b0 = coopLoadT<coop_mat16x16<f16, B>>(&sb[ob + bc + 0u], 264u);
        let b1 = coopLoadT<coop_mat16x16<f16, B>>(&sb[ob + bc + 16u], 264u);
        let b2 = coopLoadT<coop_mat16x16<f16, B>>(&sb[ob + bc + 32u], 264u);
        let b3 = coopLoadT<coop_mat16x16<f16, B>>(&sb[ob + bc + 48u], 264u);
        acc00 = coopMultiplyAdd(a0, b0, acc00);
        acc01 = coopMultiplyAdd(a0, b1, acc01);
        acc02 = coopMultiplyAdd(a0, b2, acc02);
        acc03 = coopMultiplyAdd(a0, b3, acc03);
        acc10 = coopMultiplyAdd(a1, b0, acc10);
        acc11 = coopMultiplyAdd(a1, b1, acc11);
        acc12 = coopMultiplyAdd(a1, b2, acc12);
        acc13 = coopMultiplyAdd(a1, b3, acc13);
        acc20 = coopMultiplyAdd(a2, b0, acc20);
        acc21 = coopMultiplyAdd(a2, b1, acc21);
        acc22 = coopMultiplyAdd(a2, b2, acc22);
        acc23 = coopMultiplyAdd(a2, b3, acc23);
        acc30 = coopMultiplyAdd(a3, b0, acc30);
        acc31 = coopMultiplyAdd(a3, b1, acc31);
        acc32 = coopMultiplyAdd(a3, b2, acc32);
        acc33 = coopMultiplyAdd(a3, b3, acc33);
        workgroupBarrier();
    }
    {
        let at = &c[(row0 + ar + 0u) * m + col0 + bc + 0u];
        let v = acc00;
        coopStoreT(v, at, m);
    }
    {
        let at = &c[(row0 + ar + 0u) * m + col0 + bc + 16u];
        let v = acc01;
        coopStoreT(v, at, m);
    }
    {
        let at = &c[(row0 + ar + 0u) * m + col0 + bc + 32u];
        let v = acc02;
        coopStoreT(v, at, m);
    }
    {
        let at = &c[(row0 + ar + 0u) * m + col0 + bc + 48u];
        let v = acc03;
        coopStoreT(v, at, m);
    }
    {
        let at = &c[(row0 + ar + 16u) * m + col0 + bc + 0u];
        let v = acc10;
        coopStoreT(v, at, m);
    }
    {
        let at = &c[(row0 + ar + 16u) * m + col0 + bc + 16u];
        let v = acc11;
        coopStoreT(v, at, m);
    }
    {
        let at = &c[(row0 + ar + 16u) * m + col0 + bc + 32u];
        let v = acc12;
        coopStoreT(v, at, m);
    }
    {
        let at = &c[(row0 + ar + 16u) * m + col0 + bc + 48u];
        let v = acc13;
        coopStoreT(v, at, m);
    }
    {
        let at = &c[(row0 + ar + 32u) * m + col0 + bc + 0u];
        let v = acc20;
        coopStoreT(v, at, m);
    }
    {
        let at = &c[(row0 + ar + 32u) * m + col0 + bc + 16u];
        let v = acc21;
        coopStoreT(v, at, m);
    }
    {
        let at = &c[(row0 + ar + 32u) * m + col0 + bc + 32u];
        let v = acc22;
        coopStoreT(v, at, m);
    }
    {
        let at = &c[(row0 + ar + 32u) * m + col0 + bc + 48u];
        let v = acc23;
        coopStoreT(v, at, m);
    }
    {
        let at = &c[(row0 + ar + 48u) * m + col0 + bc + 0u];
        let v = acc30;
        coopStoreT(v, at, m);
    }
    {
        let at = &c[(row0 + ar + 48u) * m + col0 + bc + 16u];
        let v = acc31;
        coopStoreT(v, at, m);
    }
    {
        let at = &c[(row0 + ar + 48u) * m + col0 + bc + 32u];
        let v = acc32;
        coopStoreT(v, at, m);
    }
    {
        let at = &c[(row0 + ar + 48u) * m + col0 + bc + 48u];
        let v = acc33;
        coopStoreT(v, at, m);
    }
}
