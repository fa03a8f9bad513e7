// The f16 matrix product with f32 accumulation on cooperative matrices, tiles staged in
// workgroup memory: 128 invocations (4 subgroups of 32) compute a 128x128 block of c, each
// subgroup a 64x64 part as 4x4 accumulators of 16x16 (subgroup t / 32; subgroups of 32
// consecutive invocations, as on NVIDIA). Per step of 32 along k, the 128x32 tile of a and
// the 32x128 tile of b go through workgroup memory (rows padded by 8 halves so the matrix
// loads spread over the banks): each invocation copies eight consecutive halves of a row of each tile per chunk (four
// chunks of each), loaded into registers before the products
// and stored into the other half of each array after them (double buffering, one barrier a
// step). Every subgroup loads its 16x16 operands from workgroup memory.
// Each store takes its pointer from a `let`: naga 30 emits a coopStore's argument
// expressions after the store, and its SPIR-V writer panics on them ("not cached").
enable f16;
enable wgpu_cooperative_matrix;

struct Params { m: u32 }
@group(0) @binding(0) var<storage, read> a: array<f16>;
@group(0) @binding(1) var<storage, read> b: array<f16>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;
@group(0) @binding(3) var<uniform> p: Params;
var<workgroup> sa: array<f16, 10240>;
var<workgroup> sb: array<f16, 8704>;

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
    let la = (row0 + t / 4u) * m + (t % 4u) * 8u;
    let lb = (t / 16u) * m + col0 + (t % 16u) * 8u;
    let pa = (t / 4u) * 40u + (t % 4u) * 8u;
    let pb = (t / 16u) * 136u + (t % 16u) * 8u;
    var ra: array<f16, 32>;
    var rb: array<f16, 32>;
    ra[0] = a[la + 0u * m + 0u];
    ra[1] = a[la + 0u * m + 1u];
    ra[2] = a[la + 0u * m + 2u];
    ra[3] = a[la + 0u * m + 3u];
    ra[4] = a[la + 0u * m + 4u];
    ra[5] = a[la + 0u * m + 5u];
    ra[6] = a[la + 0u * m + 6u];
    ra[7] = a[la + 0u * m + 7u];
    ra[8] = a[la + 32u * m + 0u];
    ra[9] = a[la + 32u * m + 1u];
    ra[10] = a[la + 32u * m + 2u];
    ra[11] = a[la + 32u * m + 3u];
    ra[12] = a[la + 32u * m + 4u];
    ra[13] = a[la + 32u * m + 5u];
    ra[14] = a[la + 32u * m + 6u];
    ra[15] = a[la + 32u * m + 7u];
    ra[16] = a[la + 64u * m + 0u];
    ra[17] = a[la + 64u * m + 1u];
    ra[18] = a[la + 64u * m + 2u];
    ra[19] = a[la + 64u * m + 3u];
    ra[20] = a[la + 64u * m + 4u];
    ra[21] = a[la + 64u * m + 5u];
    ra[22] = a[la + 64u * m + 6u];
    ra[23] = a[la + 64u * m + 7u];
    ra[24] = a[la + 96u * m + 0u];
    ra[25] = a[la + 96u * m + 1u];
    ra[26] = a[la + 96u * m + 2u];
    ra[27] = a[la + 96u * m + 3u];
    ra[28] = a[la + 96u * m + 4u];
    ra[29] = a[la + 96u * m + 5u];
    ra[30] = a[la + 96u * m + 6u];
    ra[31] = a[la + 96u * m + 7u];
    rb[0] = b[lb + (0u) * m + 0u];
    rb[1] = b[lb + (0u) * m + 1u];
    rb[2] = b[lb + (0u) * m + 2u];
    rb[3] = b[lb + (0u) * m + 3u];
    rb[4] = b[lb + (0u) * m + 4u];
    rb[5] = b[lb + (0u) * m + 5u];
    rb[6] = b[lb + (0u) * m + 6u];
    rb[7] = b[lb + (0u) * m + 7u];
    rb[8] = b[lb + (8u) * m + 0u];
    rb[9] = b[lb + (8u) * m + 1u];
    rb[10] = b[lb + (8u) * m + 2u];
    rb[11] = b[lb + (8u) * m + 3u];
    rb[12] = b[lb + (8u) * m + 4u];
    rb[13] = b[lb + (8u) * m + 5u];
    rb[14] = b[lb + (8u) * m + 6u];
    rb[15] = b[lb + (8u) * m + 7u];
    rb[16] = b[lb + (16u) * m + 0u];
    rb[17] = b[lb + (16u) * m + 1u];
    rb[18] = b[lb + (16u) * m + 2u];
    rb[19] = b[lb + (16u) * m + 3u];
    rb[20] = b[lb + (16u) * m + 4u];
    rb[21] = b[lb + (16u) * m + 5u];
    rb[22] = b[lb + (16u) * m + 6u];
    rb[23] = b[lb + (16u) * m + 7u];
    rb[24] = b[lb + (24u) * m + 0u];
    rb[25] = b[lb + (24u) * m + 1u];
    rb[26] = b[lb + (24u) * m + 2u];
    rb[27] = b[lb + (24u) * m + 3u];
    rb[28] = b[lb + (24u) * m + 4u];
    rb[29] = b[lb + (24u) * m + 5u];
    rb[30] = b[lb + (24u) * m + 6u];
    rb[31] = b[lb + (24u) * m + 7u];
    sa[pa + 0u] = ra[0];
    sa[pa + 1u] = ra[1];
    sa[pa + 2u] = ra[2];
    sa[pa + 3u] = ra[3];
    sa[pa + 4u] = ra[4];
    sa[pa + 5u] = ra[5];
    sa[pa + 6u] = ra[6];
    sa[pa + 7u] = ra[7];
    sa[pa + 1280u] = ra[8];
    sa[pa + 1281u] = ra[9];
    sa[pa + 1282u] = ra[10];
    sa[pa + 1283u] = ra[11];
    sa[pa + 1284u] = ra[12];
    sa[pa + 1285u] = ra[13];
    sa[pa + 1286u] = ra[14];
    sa[pa + 1287u] = ra[15];
    sa[pa + 2560u] = ra[16];
    sa[pa + 2561u] = ra[17];
    sa[pa + 2562u] = ra[18];
    sa[pa + 2563u] = ra[19];
    sa[pa + 2564u] = ra[20];
    sa[pa + 2565u] = ra[21];
    sa[pa + 2566u] = ra[22];
    sa[pa + 2567u] = ra[23];
    sa[pa + 3840u] = ra[24];
    sa[pa + 3841u] = ra[25];
    sa[pa + 3842u] = ra[26];
    sa[pa + 3843u] = ra[27];
    sa[pa + 3844u] = ra[28];
    sa[pa + 3845u] = ra[29];
    sa[pa + 3846u] = ra[30];
    sa[pa + 3847u] = ra[31];
    sb[pb + 0u] = rb[0];
    sb[pb + 1u] = rb[1];
    sb[pb + 2u] = rb[2];
    sb[pb + 3u] = rb[3];
    sb[pb + 4u] = rb[4];
    sb[pb + 5u] = rb[5];
    sb[pb + 6u] = rb[6];
    sb[pb + 7u] = rb[7];
    sb[pb + 1088u] = rb[8];
    sb[pb + 1089u] = rb[9];
    sb[pb + 1090u] = rb[10];
    sb[pb + 1091u] = rb[11];
    sb[pb + 1092u] = rb[12];
    sb[pb + 1093u] = rb[13];
    sb[pb + 1094u] = rb[14];
    sb[pb + 1095u] = rb[15];
    sb[pb + 2176u] = rb[16];
    sb[pb + 2177u] = rb[17];
    sb[pb + 2178u] = rb[18];
    sb[pb + 2179u] = rb[19];
    sb[pb + 2180u] = rb[20];
    sb[pb + 2181u] = rb[21];
    sb[pb + 2182u] = rb[22];
    sb[pb + 2183u] = rb[23];
    sb[pb + 3264u] = rb[24];
    sb[pb + 3265u] = rb[25];
    sb[pb + 3266u] = rb[26];
    sb[pb + 3267u] = rb[27];
    sb[pb + 3268u] = rb[28];
    sb[pb + 3269u] = rb[29];
    sb[pb + 3270u] = rb[30];
    sb[pb + 3271u] = rb[31];
    workgroupBarrier();
    for (var k = 0u; k < m; k += 32u) {
        let cur = (k / 32u) & 1u;
        let next = k + 32u < m;
        if (next) {
            ra[0] = a[la + (k + 32u) + 0u * m + 0u];
            ra[1] = a[la + (k + 32u) + 0u * m + 1u];
            ra[2] = a[la + (k + 32u) + 0u * m + 2u];
            ra[3] = a[la + (k + 32u) + 0u * m + 3u];
            ra[4] = a[la + (k + 32u) + 0u * m + 4u];
            ra[5] = a[la + (k + 32u) + 0u * m + 5u];
            ra[6] = a[la + (k + 32u) + 0u * m + 6u];
            ra[7] = a[la + (k + 32u) + 0u * m + 7u];
            ra[8] = a[la + (k + 32u) + 32u * m + 0u];
            ra[9] = a[la + (k + 32u) + 32u * m + 1u];
            ra[10] = a[la + (k + 32u) + 32u * m + 2u];
            ra[11] = a[la + (k + 32u) + 32u * m + 3u];
            ra[12] = a[la + (k + 32u) + 32u * m + 4u];
            ra[13] = a[la + (k + 32u) + 32u * m + 5u];
            ra[14] = a[la + (k + 32u) + 32u * m + 6u];
            ra[15] = a[la + (k + 32u) + 32u * m + 7u];
            ra[16] = a[la + (k + 32u) + 64u * m + 0u];
            ra[17] = a[la + (k + 32u) + 64u * m + 1u];
            ra[18] = a[la + (k + 32u) + 64u * m + 2u];
            ra[19] = a[la + (k + 32u) + 64u * m + 3u];
            ra[20] = a[la + (k + 32u) + 64u * m + 4u];
            ra[21] = a[la + (k + 32u) + 64u * m + 5u];
            ra[22] = a[la + (k + 32u) + 64u * m + 6u];
            ra[23] = a[la + (k + 32u) + 64u * m + 7u];
            ra[24] = a[la + (k + 32u) + 96u * m + 0u];
            ra[25] = a[la + (k + 32u) + 96u * m + 1u];
            ra[26] = a[la + (k + 32u) + 96u * m + 2u];
            ra[27] = a[la + (k + 32u) + 96u * m + 3u];
            ra[28] = a[la + (k + 32u) + 96u * m + 4u];
            ra[29] = a[la + (k + 32u) + 96u * m + 5u];
            ra[30] = a[la + (k + 32u) + 96u * m + 6u];
            ra[31] = a[la + (k + 32u) + 96u * m + 7u];
            rb[0] = b[lb + ((k + 32u) + 0u) * m + 0u];
            rb[1] = b[lb + ((k + 32u) + 0u) * m + 1u];
            rb[2] = b[lb + ((k + 32u) + 0u) * m + 2u];
            rb[3] = b[lb + ((k + 32u) + 0u) * m + 3u];
            rb[4] = b[lb + ((k + 32u) + 0u) * m + 4u];
            rb[5] = b[lb + ((k + 32u) + 0u) * m + 5u];
            rb[6] = b[lb + ((k + 32u) + 0u) * m + 6u];
            rb[7] = b[lb + ((k + 32u) + 0u) * m + 7u];
            rb[8] = b[lb + ((k + 32u) + 8u) * m + 0u];
            rb[9] = b[lb + ((k + 32u) + 8u) * m + 1u];
            rb[10] = b[lb + ((k + 32u) + 8u) * m + 2u];
            rb[11] = b[lb + ((k + 32u) + 8u) * m + 3u];
            rb[12] = b[lb + ((k + 32u) + 8u) * m + 4u];
            rb[13] = b[lb + ((k + 32u) + 8u) * m + 5u];
            rb[14] = b[lb + ((k + 32u) + 8u) * m + 6u];
            rb[15] = b[lb + ((k + 32u) + 8u) * m + 7u];
            rb[16] = b[lb + ((k + 32u) + 16u) * m + 0u];
            rb[17] = b[lb + ((k + 32u) + 16u) * m + 1u];
            rb[18] = b[lb + ((k + 32u) + 16u) * m + 2u];
            rb[19] = b[lb + ((k + 32u) + 16u) * m + 3u];
            rb[20] = b[lb + ((k + 32u) + 16u) * m + 4u];
            rb[21] = b[lb + ((k + 32u) + 16u) * m + 5u];
            rb[22] = b[lb + ((k + 32u) + 16u) * m + 6u];
            rb[23] = b[lb + ((k + 32u) + 16u) * m + 7u];
            rb[24] = b[lb + ((k + 32u) + 24u) * m + 0u];
            rb[25] = b[lb + ((k + 32u) + 24u) * m + 1u];
            rb[26] = b[lb + ((k + 32u) + 24u) * m + 2u];
            rb[27] = b[lb + ((k + 32u) + 24u) * m + 3u];
            rb[28] = b[lb + ((k + 32u) + 24u) * m + 4u];
            rb[29] = b[lb + ((k + 32u) + 24u) * m + 5u];
            rb[30] = b[lb + ((k + 32u) + 24u) * m + 6u];
            rb[31] = b[lb + ((k + 32u) + 24u) * m + 7u];
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
            sa[na + pa + 0u] = ra[0];
            sa[na + pa + 1u] = ra[1];
            sa[na + pa + 2u] = ra[2];
            sa[na + pa + 3u] = ra[3];
            sa[na + pa + 4u] = ra[4];
            sa[na + pa + 5u] = ra[5];
            sa[na + pa + 6u] = ra[6];
            sa[na + pa + 7u] = ra[7];
            sa[na + pa + 1280u] = ra[8];
            sa[na + pa + 1281u] = ra[9];
            sa[na + pa + 1282u] = ra[10];
            sa[na + pa + 1283u] = ra[11];
            sa[na + pa + 1284u] = ra[12];
            sa[na + pa + 1285u] = ra[13];
            sa[na + pa + 1286u] = ra[14];
            sa[na + pa + 1287u] = ra[15];
            sa[na + pa + 2560u] = ra[16];
            sa[na + pa + 2561u] = ra[17];
            sa[na + pa + 2562u] = ra[18];
            sa[na + pa + 2563u] = ra[19];
            sa[na + pa + 2564u] = ra[20];
            sa[na + pa + 2565u] = ra[21];
            sa[na + pa + 2566u] = ra[22];
            sa[na + pa + 2567u] = ra[23];
            sa[na + pa + 3840u] = ra[24];
            sa[na + pa + 3841u] = ra[25];
            sa[na + pa + 3842u] = ra[26];
            sa[na + pa + 3843u] = ra[27];
            sa[na + pa + 3844u] = ra[28];
            sa[na + pa + 3845u] = ra[29];
            sa[na + pa + 3846u] = ra[30];
            sa[na + pa + 3847u] = ra[31];
            sb[nb + pb + 0u] = rb[0];
            sb[nb + pb + 1u] = rb[1];
            sb[nb + pb + 2u] = rb[2];
            sb[nb + pb + 3u] = rb[3];
            sb[nb + pb + 4u] = rb[4];
            sb[nb + pb + 5u] = rb[5];
            sb[nb + pb + 6u] = rb[6];
            sb[nb + pb + 7u] = rb[7];
            sb[nb + pb + 1088u] = rb[8];
            sb[nb + pb + 1089u] = rb[9];
            sb[nb + pb + 1090u] = rb[10];
            sb[nb + pb + 1091u] = rb[11];
            sb[nb + pb + 1092u] = rb[12];
            sb[nb + pb + 1093u] = rb[13];
            sb[nb + pb + 1094u] = rb[14];
            sb[nb + pb + 1095u] = rb[15];
            sb[nb + pb + 2176u] = rb[16];
            sb[nb + pb + 2177u] = rb[17];
            sb[nb + pb + 2178u] = rb[18];
            sb[nb + pb + 2179u] = rb[19];
            sb[nb + pb + 2180u] = rb[20];
            sb[nb + pb + 2181u] = rb[21];
            sb[nb + pb + 2182u] = rb[22];
            sb[nb + pb + 2183u] = rb[23];
            sb[nb + pb + 3264u] = rb[24];
            sb[nb + pb + 3265u] = rb[25];
            sb[nb + pb + 3266u] = rb[26];
            sb[nb + pb + 3267u] = rb[27];
            sb[nb + pb + 3268u] = rb[28];
            sb[nb + pb + 3269u] = rb[29];
            sb[nb + pb + 3270u] = rb[30];
            sb[nb + pb + 3271u] = rb[31];
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
