// The f16 matrix product with f32 accumulation on cooperative matrices, tiles staged in
// workgroup memory (the twin of sarek-bench's `matmul_f16_staged`): a 128x256 block of c per
// workgroup of 256 invocations (8 subgroups of 32, subgroup t / 32 a 64x64 part as 4x4
// accumulators of 16x16; subgroups of 32 consecutive invocations, as on NVIDIA); rows of the
// tiles padded by 8 halves so the matrix loads spread over the banks. Per step of 32 along k, each subgroup copies a 16x32 part of the tile of a and a 32x32 part of the tile of b as
// 16x16 cooperative matrices (coopLoadT from storage, coopStoreT into workgroup memory);
// one buffer (store, barrier, next step loaded, products, barrier): two of 54 KiB did not fit.
// Each store takes its pointer from a `let`: naga 30 emits a coopStore's argument
// expressions after the store, and its SPIR-V writer panics on them ("not cached").
enable f16;
enable wgpu_cooperative_matrix;

struct Params { m: u32 }
@group(0) @binding(0) var<storage, read> a: array<f16>;
@group(0) @binding(1) var<storage, read> b: array<f16>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;
@group(0) @binding(3) var<uniform> p: Params;
var<workgroup> sa: array<f16, 5120>;
var<workgroup> sb: array<f16, 8448>;

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
    let ca = row0 + sg * 16u;
    let cb = col0 + sg * 32u;
    var ga0 = coopLoadT<coop_mat16x16<f16, A>>(&a[(ca + 0u) * m + 0u], m);
    var ga1 = coopLoadT<coop_mat16x16<f16, A>>(&a[(ca + 0u) * m + 16u], m);
    var gb0 = coopLoadT<coop_mat16x16<f16, B>>(&b[(0u) * m + cb + 0u], m);
    var gb1 = coopLoadT<coop_mat16x16<f16, B>>(&b[(0u) * m + cb + 16u], m);
    var gb2 = coopLoadT<coop_mat16x16<f16, B>>(&b[(16u) * m + cb + 0u], m);
    var gb3 = coopLoadT<coop_mat16x16<f16, B>>(&b[(16u) * m + cb + 16u], m);
    for (var k = 0u; k < m; k += 32u) {
        {
            let at = &sa[(sg * 16u + 0u) * 40u + 0u];
            let v = ga0;
            coopStoreT(v, at, 40u);
        }
        {
            let at = &sa[(sg * 16u + 0u) * 40u + 16u];
            let v = ga1;
            coopStoreT(v, at, 40u);
        }
        {
            let at = &sb[0u + sg * 32u + 0u];
            let v = gb0;
            coopStoreT(v, at, 264u);
        }
        {
            let at = &sb[0u + sg * 32u + 16u];
            let v = gb1;
            coopStoreT(v, at, 264u);
        }
        {
            let at = &sb[4224u + sg * 32u + 0u];
            let v = gb2;
            coopStoreT(v, at, 264u);
        }
        {
            let at = &sb[4224u + sg * 32u + 16u];
            let v = gb3;
            coopStoreT(v, at, 264u);
        }
        workgroupBarrier();
        let kn = min(k + 32u, m - 32u);
        ga0 = coopLoadT<coop_mat16x16<f16, A>>(&a[(ca + 0u) * m + kn + 0u], m);
        ga1 = coopLoadT<coop_mat16x16<f16, A>>(&a[(ca + 0u) * m + kn + 16u], m);
        gb0 = coopLoadT<coop_mat16x16<f16, B>>(&b[(kn + 0u) * m + cb + 0u], m);
        gb1 = coopLoadT<coop_mat16x16<f16, B>>(&b[(kn + 0u) * m + cb + 16u], m);
        gb2 = coopLoadT<coop_mat16x16<f16, B>>(&b[(kn + 16u) * m + cb + 0u], m);
        gb3 = coopLoadT<coop_mat16x16<f16, B>>(&b[(kn + 16u) * m + cb + 16u], m);
        let a0_0 = coopLoadT<coop_mat16x16<f16, A>>(&sa[(ar + 0u) * 40u + 0u], 40u);
        let a1_0 = coopLoadT<coop_mat16x16<f16, A>>(&sa[(ar + 16u) * 40u + 0u], 40u);
        let a2_0 = coopLoadT<coop_mat16x16<f16, A>>(&sa[(ar + 32u) * 40u + 0u], 40u);
        let a3_0 = coopLoadT<coop_mat16x16<f16, A>>(&sa[(ar + 48u) * 40u + 0u], 40u);
        let b0_0 = coopLoadT<coop_mat16x16<f16, B>>(&sb[0u + bc + 0u], 264u);
        let b1_0 = coopLoadT<coop_mat16x16<f16, B>>(&sb[0u + bc + 16u], 264u);
        let b2_0 = coopLoadT<coop_mat16x16<f16, B>>(&sb[0u + bc + 32u], 264u);
        let b3_0 = coopLoadT<coop_mat16x16<f16, B>>(&sb[0u + bc + 48u], 264u);
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
        let a0_16 = coopLoadT<coop_mat16x16<f16, A>>(&sa[(ar + 0u) * 40u + 16u], 40u);
        let a1_16 = coopLoadT<coop_mat16x16<f16, A>>(&sa[(ar + 16u) * 40u + 16u], 40u);
        let a2_16 = coopLoadT<coop_mat16x16<f16, A>>(&sa[(ar + 32u) * 40u + 16u], 40u);
        let a3_16 = coopLoadT<coop_mat16x16<f16, A>>(&sa[(ar + 48u) * 40u + 16u], 40u);
        let b0_16 = coopLoadT<coop_mat16x16<f16, B>>(&sb[4224u + bc + 0u], 264u);
        let b1_16 = coopLoadT<coop_mat16x16<f16, B>>(&sb[4224u + bc + 16u], 264u);
        let b2_16 = coopLoadT<coop_mat16x16<f16, B>>(&sb[4224u + bc + 32u], 264u);
        let b3_16 = coopLoadT<coop_mat16x16<f16, B>>(&sb[4224u + bc + 48u], 264u);
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
