// The f16 matrix product with f32 accumulation on cooperative matrices, tiles staged in
// workgroup memory: 128 invocations (4 subgroups of 32) compute a 128x128 block of c, each
// subgroup a 64x64 part as 4x4 accumulators of 16x16 (subgroup t / 32; subgroups of 32
// consecutive invocations, as on NVIDIA). Per step of 32 along k, the 128x32 tile of a and
// the 32x128 tile of b go through workgroup memory (rows padded by 8 halves so the matrix
// loads spread over the banks): each subgroup copies a 32x32 part of each tile as four 16x16 cooperative matrices
// (coopLoadT from storage, coopStoreT into workgroup memory), loaded before the products
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
    let ca = row0 + sg * 32u;
    let cb = col0 + sg * 32u;
    var ga0 = coopLoadT<coop_mat16x16<f16, A>>(&a[(ca + 0u) * m + 0u], m);
    var ga1 = coopLoadT<coop_mat16x16<f16, A>>(&a[(ca + 0u) * m + 16u], m);
    var ga2 = coopLoadT<coop_mat16x16<f16, A>>(&a[(ca + 16u) * m + 0u], m);
    var ga3 = coopLoadT<coop_mat16x16<f16, A>>(&a[(ca + 16u) * m + 16u], m);
    var gb0 = coopLoadT<coop_mat16x16<f16, B>>(&b[(0u) * m + cb + 0u], m);
    var gb1 = coopLoadT<coop_mat16x16<f16, B>>(&b[(0u) * m + cb + 16u], m);
    var gb2 = coopLoadT<coop_mat16x16<f16, B>>(&b[(16u) * m + cb + 0u], m);
    var gb3 = coopLoadT<coop_mat16x16<f16, B>>(&b[(16u) * m + cb + 16u], m);
    {
        let at = &sa[(sg * 32u + 0u) * 40u + 0u];
        let v = ga0;
        coopStoreT(v, at, 40u);
    }
    {
        let at = &sa[(sg * 32u + 0u) * 40u + 16u];
        let v = ga1;
        coopStoreT(v, at, 40u);
    }
    {
        let at = &sa[(sg * 32u + 16u) * 40u + 0u];
        let v = ga2;
        coopStoreT(v, at, 40u);
    }
    {
        let at = &sa[(sg * 32u + 16u) * 40u + 16u];
        let v = ga3;
        coopStoreT(v, at, 40u);
    }
    {
        let at = &sb[0u + sg * 32u + 0u];
        let v = gb0;
        coopStoreT(v, at, 136u);
    }
    {
        let at = &sb[0u + sg * 32u + 16u];
        let v = gb1;
        coopStoreT(v, at, 136u);
    }
    {
        let at = &sb[2176u + sg * 32u + 0u];
        let v = gb2;
        coopStoreT(v, at, 136u);
    }
    {
        let at = &sb[2176u + sg * 32u + 16u];
        let v = gb3;
        coopStoreT(v, at, 136u);
    }
    workgroupBarrier();
    for (var k = 0u; k < m; k += 32u) {
        let cur = (k / 32u) & 1u;
        // The next step's tiles (on the last step the last ones again: naga refuses
        // cooperative loads under a condition on the loop counter).
        let kn = min(k + 32u, m - 32u);
        ga0 = coopLoadT<coop_mat16x16<f16, A>>(&a[(ca + 0u) * m + kn + 0u], m);
        ga1 = coopLoadT<coop_mat16x16<f16, A>>(&a[(ca + 0u) * m + kn + 16u], m);
        ga2 = coopLoadT<coop_mat16x16<f16, A>>(&a[(ca + 16u) * m + kn + 0u], m);
        ga3 = coopLoadT<coop_mat16x16<f16, A>>(&a[(ca + 16u) * m + kn + 16u], m);
        gb0 = coopLoadT<coop_mat16x16<f16, B>>(&b[(kn + 0u) * m + cb + 0u], m);
        gb1 = coopLoadT<coop_mat16x16<f16, B>>(&b[(kn + 0u) * m + cb + 16u], m);
        gb2 = coopLoadT<coop_mat16x16<f16, B>>(&b[(kn + 16u) * m + cb + 0u], m);
        gb3 = coopLoadT<coop_mat16x16<f16, B>>(&b[(kn + 16u) * m + cb + 16u], m);
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
        let na = (1u - cur) * 5120u;
        let nb = (1u - cur) * 4352u;
        {
            let at = &sa[na + (sg * 32u + 0u) * 40u + 0u];
            let v = ga0;
            coopStoreT(v, at, 40u);
        }
        {
            let at = &sa[na + (sg * 32u + 0u) * 40u + 16u];
            let v = ga1;
            coopStoreT(v, at, 40u);
        }
        {
            let at = &sa[na + (sg * 32u + 16u) * 40u + 0u];
            let v = ga2;
            coopStoreT(v, at, 40u);
        }
        {
            let at = &sa[na + (sg * 32u + 16u) * 40u + 16u];
            let v = ga3;
            coopStoreT(v, at, 40u);
        }
        {
            let at = &sb[nb + 0u + sg * 32u + 0u];
            let v = gb0;
            coopStoreT(v, at, 136u);
        }
        {
            let at = &sb[nb + 0u + sg * 32u + 16u];
            let v = gb1;
            coopStoreT(v, at, 136u);
        }
        {
            let at = &sb[nb + 2176u + sg * 32u + 0u];
            let v = gb2;
            coopStoreT(v, at, 136u);
        }
        {
            let at = &sb[nb + 2176u + sg * 32u + 16u];
            let v = gb3;
            coopStoreT(v, at, 136u);
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
