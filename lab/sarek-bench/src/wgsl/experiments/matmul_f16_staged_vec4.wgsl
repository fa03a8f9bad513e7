// The f16 matrix product with f32 accumulation on cooperative matrices, tiles staged in
// workgroup memory: 128 invocations (4 subgroups of 32) compute a 128x128 block of c, each
// subgroup a 64x64 part as 4x4 accumulators of 16x16 (subgroup t / 32; subgroups of 32
// consecutive invocations, as on NVIDIA). Per step of 32 along k, the 128x32 tile of a and
// the 32x128 tile of b go through workgroup memory (rows padded by 8 halves so the matrix
// loads spread over the banks): each invocation copies 16-byte chunks of each tile (eight halves in a vec4<u32>, the
// binding read as words, converted by vec2<f16>(unpack2x16float(..)) since naga 30 has no
// bitcast from u32 to vec2<f16>), loaded into registers before the products
// and stored into the other half of each array after them (double buffering, one barrier a
// step). Every subgroup loads its 16x16 operands from workgroup memory.
// Each store takes its pointer from a `let`: naga 30 emits a coopStore's argument
// expressions after the store, and its SPIR-V writer panics on them ("not cached").
enable f16;
enable wgpu_cooperative_matrix;

struct Params { m: u32 }
@group(0) @binding(0) var<storage, read> a: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read> b: array<vec4<u32>>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;
@group(0) @binding(3) var<uniform> p: Params;
var<workgroup> sa: array<f16, 10240>;
var<workgroup> sb: array<f16, 8704>;

fn put_a(at: u32, v: vec4<u32>) {
    let h0 = vec2<f16>(unpack2x16float(v.x));
    sa[at + 0u] = h0.x;
    sa[at + 1u] = h0.y;
    let h1 = vec2<f16>(unpack2x16float(v.y));
    sa[at + 2u] = h1.x;
    sa[at + 3u] = h1.y;
    let h2 = vec2<f16>(unpack2x16float(v.z));
    sa[at + 4u] = h2.x;
    sa[at + 5u] = h2.y;
    let h3 = vec2<f16>(unpack2x16float(v.w));
    sa[at + 6u] = h3.x;
    sa[at + 7u] = h3.y;
}

fn put_b(at: u32, v: vec4<u32>) {
    let h0 = vec2<f16>(unpack2x16float(v.x));
    sb[at + 0u] = h0.x;
    sb[at + 1u] = h0.y;
    let h1 = vec2<f16>(unpack2x16float(v.y));
    sb[at + 2u] = h1.x;
    sb[at + 3u] = h1.y;
    let h2 = vec2<f16>(unpack2x16float(v.z));
    sb[at + 4u] = h2.x;
    sb[at + 5u] = h2.y;
    let h3 = vec2<f16>(unpack2x16float(v.w));
    sb[at + 6u] = h3.x;
    sb[at + 7u] = h3.y;
}

@compute @workgroup_size(128)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) t: u32) {
    let m = p.m;
    let row0 = wid.y * 128u;
    let col0 = wid.x * 128u;
    let sg = t / 32u;
    let ar = (sg / 2u) * 64u;
    let bc = (sg % 2u) * 64u;
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
    let q = m / 8u;
    let la = (row0 + t / 4u) * q + t % 4u;
    let lb = (t / 16u) * q + col0 / 8u + t % 16u;
    let pa = (t / 4u) * 40u + (t % 4u) * 8u;
    let pb = (t / 16u) * 136u + (t % 16u) * 8u;
    var ra: array<vec4<u32>, 4>;
    var rb: array<vec4<u32>, 4>;
    ra[0] = a[la + 0u * q];
    ra[1] = a[la + 32u * q];
    ra[2] = a[la + 64u * q];
    ra[3] = a[la + 96u * q];
    rb[0] = b[lb + (0u) * q];
    rb[1] = b[lb + (8u) * q];
    rb[2] = b[lb + (16u) * q];
    rb[3] = b[lb + (24u) * q];
    put_a(pa + 0u, ra[0]);
    put_a(pa + 1280u, ra[1]);
    put_a(pa + 2560u, ra[2]);
    put_a(pa + 3840u, ra[3]);
    put_b(pb + 0u, rb[0]);
    put_b(pb + 1088u, rb[1]);
    put_b(pb + 2176u, rb[2]);
    put_b(pb + 3264u, rb[3]);
    workgroupBarrier();
    for (var k = 0u; k < m; k += 32u) {
        let cur = (k / 32u) & 1u;
        let next = k + 32u < m;
        if (next) {
            ra[0] = a[la + (k + 32u) / 8u + 0u * q];
            ra[1] = a[la + (k + 32u) / 8u + 32u * q];
            ra[2] = a[la + (k + 32u) / 8u + 64u * q];
            ra[3] = a[la + (k + 32u) / 8u + 96u * q];
            rb[0] = b[lb + (k + 32u + 0u) * q];
            rb[1] = b[lb + (k + 32u + 8u) * q];
            rb[2] = b[lb + (k + 32u + 16u) * q];
            rb[3] = b[lb + (k + 32u + 24u) * q];
        }
        let ba = cur * 5120u;
        let bb = cur * 4352u;
        let a0_0 = coopLoadT<coop_mat16x16<f16, A>>(&sa[ba + (ar + 0u) * 40u + 0u], 40u);
        let a1_0 = coopLoadT<coop_mat16x16<f16, A>>(&sa[ba + (ar + 16u) * 40u + 0u], 40u);
        let a2_0 = coopLoadT<coop_mat16x16<f16, A>>(&sa[ba + (ar + 32u) * 40u + 0u], 40u);
        let a3_0 = coopLoadT<coop_mat16x16<f16, A>>(&sa[ba + (ar + 48u) * 40u + 0u], 40u);
        let b0_0 = coopLoadT<coop_mat16x16<f16, B>>(&sb[bb + 0u + bc + 0u], 136u);
        let b1_0 = coopLoadT<coop_mat16x16<f16, B>>(&sb[bb + 0u + bc + 16u], 136u);
        let b2_0 = coopLoadT<coop_mat16x16<f16, B>>(&sb[bb + 0u + bc + 32u], 136u);
        let b3_0 = coopLoadT<coop_mat16x16<f16, B>>(&sb[bb + 0u + bc + 48u], 136u);
        acc00 = coopMultiplyAdd(a0_0, b0_0, acc00);
        acc01 = coopMultiplyAdd(a0_0, b1_0, acc01);
        acc02 = coopMultiplyAdd(a0_0, b2_0, acc02);
        acc03 = coopMultiplyAdd(a0_0, b3_0, acc03);
        acc10 = coopMultiplyAdd(a1_0, b0_0, acc10);
        acc11 = coopMultiplyAdd(a1_0, b1_0, acc11);
        acc12 = coopMultiplyAdd(a1_0, b2_0, acc12);
        acc13 = coopMultiplyAdd(a1_0, b3_0, acc13);
        acc20 = coopMultiplyAdd(a2_0, b0_0, acc20);
        acc21 = coopMultiplyAdd(a2_0, b1_0, acc21);
        acc22 = coopMultiplyAdd(a2_0, b2_0, acc22);
        acc23 = coopMultiplyAdd(a2_0, b3_0, acc23);
        acc30 = coopMultiplyAdd(a3_0, b0_0, acc30);
        acc31 = coopMultiplyAdd(a3_0, b1_0, acc31);
        acc32 = coopMultiplyAdd(a3_0, b2_0, acc32);
        acc33 = coopMultiplyAdd(a3_0, b3_0, acc33);
        let a0_16 = coopLoadT<coop_mat16x16<f16, A>>(&sa[ba + (ar + 0u) * 40u + 16u], 40u);
        let a1_16 = coopLoadT<coop_mat16x16<f16, A>>(&sa[ba + (ar + 16u) * 40u + 16u], 40u);
        let a2_16 = coopLoadT<coop_mat16x16<f16, A>>(&sa[ba + (ar + 32u) * 40u + 16u], 40u);
        let a3_16 = coopLoadT<coop_mat16x16<f16, A>>(&sa[ba + (ar + 48u) * 40u + 16u], 40u);
        let b0_16 = coopLoadT<coop_mat16x16<f16, B>>(&sb[bb + 2176u + bc + 0u], 136u);
        let b1_16 = coopLoadT<coop_mat16x16<f16, B>>(&sb[bb + 2176u + bc + 16u], 136u);
        let b2_16 = coopLoadT<coop_mat16x16<f16, B>>(&sb[bb + 2176u + bc + 32u], 136u);
        let b3_16 = coopLoadT<coop_mat16x16<f16, B>>(&sb[bb + 2176u + bc + 48u], 136u);
        acc00 = coopMultiplyAdd(a0_16, b0_16, acc00);
        acc01 = coopMultiplyAdd(a0_16, b1_16, acc01);
        acc02 = coopMultiplyAdd(a0_16, b2_16, acc02);
        acc03 = coopMultiplyAdd(a0_16, b3_16, acc03);
        acc10 = coopMultiplyAdd(a1_16, b0_16, acc10);
        acc11 = coopMultiplyAdd(a1_16, b1_16, acc11);
        acc12 = coopMultiplyAdd(a1_16, b2_16, acc12);
        acc13 = coopMultiplyAdd(a1_16, b3_16, acc13);
        acc20 = coopMultiplyAdd(a2_16, b0_16, acc20);
        acc21 = coopMultiplyAdd(a2_16, b1_16, acc21);
        acc22 = coopMultiplyAdd(a2_16, b2_16, acc22);
        acc23 = coopMultiplyAdd(a2_16, b3_16, acc23);
        acc30 = coopMultiplyAdd(a3_16, b0_16, acc30);
        acc31 = coopMultiplyAdd(a3_16, b1_16, acc31);
        acc32 = coopMultiplyAdd(a3_16, b2_16, acc32);
        acc33 = coopMultiplyAdd(a3_16, b3_16, acc33);
        if (next) {
            let na = (1u - cur) * 5120u;
            let nb = (1u - cur) * 4352u;
            put_a(na + pa + 0u, ra[0]);
            put_a(na + pa + 1280u, ra[1]);
            put_a(na + pa + 2560u, ra[2]);
            put_a(na + pa + 3840u, ra[3]);
            put_b(nb + pb + 0u, rb[0]);
            put_b(nb + pb + 1088u, rb[1]);
            put_b(nb + pb + 2176u, rb[2]);
            put_b(nb + pb + 3264u, rb[3]);
        }
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
