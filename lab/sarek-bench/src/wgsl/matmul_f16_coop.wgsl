// The f16 matrix product with f32 accumulation on cooperative matrices (WGSL's
// experimental wgpu_cooperative_matrix): one subgroup of 32 per workgroup computes a 64x64
// block of c as 4x4 tiles of 16x16, loading 16x16 tiles of a and b straight from storage.
// Each store takes its pointer from a `let`: naga 30 emits a coopStore's argument
// expressions after the store, and its SPIR-V writer panics on them ("not cached").
enable f16;
enable wgpu_cooperative_matrix;

struct Params { m: u32 }
@group(0) @binding(0) var<storage, read> a: array<f16>;
@group(0) @binding(1) var<storage, read> b: array<f16>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;
@group(0) @binding(3) var<uniform> p: Params;

@compute @workgroup_size(32)
fn main(@builtin(workgroup_id) wid: vec3<u32>) {
    let m = p.m;
    let row = wid.y * 64u;
    let col = wid.x * 64u;
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
    for (var k = 0u; k < m; k += 16u) {
        let a0 = coopLoadT<coop_mat16x16<f16, A>>(&a[(row + 0u) * m + k], m);
        let a1 = coopLoadT<coop_mat16x16<f16, A>>(&a[(row + 16u) * m + k], m);
        let a2 = coopLoadT<coop_mat16x16<f16, A>>(&a[(row + 32u) * m + k], m);
        let a3 = coopLoadT<coop_mat16x16<f16, A>>(&a[(row + 48u) * m + k], m);
        let b0 = coopLoadT<coop_mat16x16<f16, B>>(&b[k * m + col + 0u], m);
        let b1 = coopLoadT<coop_mat16x16<f16, B>>(&b[k * m + col + 16u], m);
        let b2 = coopLoadT<coop_mat16x16<f16, B>>(&b[k * m + col + 32u], m);
        let b3 = coopLoadT<coop_mat16x16<f16, B>>(&b[k * m + col + 48u], m);
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
    }
    {
        let at = &c[(row + 0u) * m + col + 0u];
        let v = acc00;
        coopStoreT(v, at, m);
    }
    {
        let at = &c[(row + 0u) * m + col + 16u];
        let v = acc01;
        coopStoreT(v, at, m);
    }
    {
        let at = &c[(row + 0u) * m + col + 32u];
        let v = acc02;
        coopStoreT(v, at, m);
    }
    {
        let at = &c[(row + 0u) * m + col + 48u];
        let v = acc03;
        coopStoreT(v, at, m);
    }
    {
        let at = &c[(row + 16u) * m + col + 0u];
        let v = acc10;
        coopStoreT(v, at, m);
    }
    {
        let at = &c[(row + 16u) * m + col + 16u];
        let v = acc11;
        coopStoreT(v, at, m);
    }
    {
        let at = &c[(row + 16u) * m + col + 32u];
        let v = acc12;
        coopStoreT(v, at, m);
    }
    {
        let at = &c[(row + 16u) * m + col + 48u];
        let v = acc13;
        coopStoreT(v, at, m);
    }
    {
        let at = &c[(row + 32u) * m + col + 0u];
        let v = acc20;
        coopStoreT(v, at, m);
    }
    {
        let at = &c[(row + 32u) * m + col + 16u];
        let v = acc21;
        coopStoreT(v, at, m);
    }
    {
        let at = &c[(row + 32u) * m + col + 32u];
        let v = acc22;
        coopStoreT(v, at, m);
    }
    {
        let at = &c[(row + 32u) * m + col + 48u];
        let v = acc23;
        coopStoreT(v, at, m);
    }
    {
        let at = &c[(row + 48u) * m + col + 0u];
        let v = acc30;
        coopStoreT(v, at, m);
    }
    {
        let at = &c[(row + 48u) * m + col + 16u];
        let v = acc31;
        coopStoreT(v, at, m);
    }
    {
        let at = &c[(row + 48u) * m + col + 32u];
        let v = acc32;
        coopStoreT(v, at, m);
    }
    {
        let at = &c[(row + 48u) * m + col + 48u];
        let v = acc33;
        coopStoreT(v, at, m);
    }
}
