//! Variants of the f16 product on cooperative matrices, measured by the experiment
//! `--experiments --only x_matmul_f16` (BENCHMARKS.md, "tiles staged in workgroup memory"):
//! the first kernel, tiles loaded straight from storage (`matmul_f16_coop`, twin
//! `wgsl/matmul_f16_coop.wgsl`), the 128×128 staged block double-buffered, the same with the
//! tiles copied by the threads, and WGSL-only variants and bounds. Each result is checked as
//! the suite's row (`super::coop::matmul_f16`) checks it.

use sarek::coop::{A, B, C}; // the roles, for the plain-Rust body
use sarek::{f16, Buffer, F16Vec4, Grid};

use super::coop::{has_shape, inputs, matmul_f16_staged, verify};
use super::coop_vec::{matmul_f16_db16, matmul_f16_db16_early, matmul_f16_s32};
use super::{Bench, Result};
use crate::raw::{read, storage};

/// `c = a * b` for `m`×`m` row-major matrices (`m` a multiple of 64): one subgroup of 32 per
/// workgroup computes a 64×64 block of `c` as 4×4 tiles of 16×16, `f16` A and B straight from
/// the buffers, `f32` accumulators. The twin is `wgsl/matmul_f16_coop.wgsl`.
#[sarek::kernel(workgroup_size = [32])]
pub fn matmul_f16_coop(a: &[f16], b: &[f16], c: &mut [f32], m: u32) {
    let m = m as usize;
    let row = block_idx_y() * 64;
    let col = block_idx_x() * 64;
    let mut c00 = CoopMatrix::<f32, 16, C>::zeros();
    let mut c01 = CoopMatrix::<f32, 16, C>::zeros();
    let mut c02 = CoopMatrix::<f32, 16, C>::zeros();
    let mut c03 = CoopMatrix::<f32, 16, C>::zeros();
    let mut c10 = CoopMatrix::<f32, 16, C>::zeros();
    let mut c11 = CoopMatrix::<f32, 16, C>::zeros();
    let mut c12 = CoopMatrix::<f32, 16, C>::zeros();
    let mut c13 = CoopMatrix::<f32, 16, C>::zeros();
    let mut c20 = CoopMatrix::<f32, 16, C>::zeros();
    let mut c21 = CoopMatrix::<f32, 16, C>::zeros();
    let mut c22 = CoopMatrix::<f32, 16, C>::zeros();
    let mut c23 = CoopMatrix::<f32, 16, C>::zeros();
    let mut c30 = CoopMatrix::<f32, 16, C>::zeros();
    let mut c31 = CoopMatrix::<f32, 16, C>::zeros();
    let mut c32 = CoopMatrix::<f32, 16, C>::zeros();
    let mut c33 = CoopMatrix::<f32, 16, C>::zeros();
    let mut k = 0;
    while k < m {
        let a0 = CoopMatrix::<f16, 16, A>::load_rows(a, (row + 0) * m + k, m);
        let a1 = CoopMatrix::<f16, 16, A>::load_rows(a, (row + 16) * m + k, m);
        let a2 = CoopMatrix::<f16, 16, A>::load_rows(a, (row + 32) * m + k, m);
        let a3 = CoopMatrix::<f16, 16, A>::load_rows(a, (row + 48) * m + k, m);
        let b0 = CoopMatrix::<f16, 16, B>::load_rows(b, k * m + col + 0, m);
        let b1 = CoopMatrix::<f16, 16, B>::load_rows(b, k * m + col + 16, m);
        let b2 = CoopMatrix::<f16, 16, B>::load_rows(b, k * m + col + 32, m);
        let b3 = CoopMatrix::<f16, 16, B>::load_rows(b, k * m + col + 48, m);
        c00 = a0.multiply_add(b0, c00);
        c01 = a0.multiply_add(b1, c01);
        c02 = a0.multiply_add(b2, c02);
        c03 = a0.multiply_add(b3, c03);
        c10 = a1.multiply_add(b0, c10);
        c11 = a1.multiply_add(b1, c11);
        c12 = a1.multiply_add(b2, c12);
        c13 = a1.multiply_add(b3, c13);
        c20 = a2.multiply_add(b0, c20);
        c21 = a2.multiply_add(b1, c21);
        c22 = a2.multiply_add(b2, c22);
        c23 = a2.multiply_add(b3, c23);
        c30 = a3.multiply_add(b0, c30);
        c31 = a3.multiply_add(b1, c31);
        c32 = a3.multiply_add(b2, c32);
        c33 = a3.multiply_add(b3, c33);
        k += 16;
    }
    c00.store_rows(c, (row + 0) * m + col + 0, m);
    c01.store_rows(c, (row + 0) * m + col + 16, m);
    c02.store_rows(c, (row + 0) * m + col + 32, m);
    c03.store_rows(c, (row + 0) * m + col + 48, m);
    c10.store_rows(c, (row + 16) * m + col + 0, m);
    c11.store_rows(c, (row + 16) * m + col + 16, m);
    c12.store_rows(c, (row + 16) * m + col + 32, m);
    c13.store_rows(c, (row + 16) * m + col + 48, m);
    c20.store_rows(c, (row + 32) * m + col + 0, m);
    c21.store_rows(c, (row + 32) * m + col + 16, m);
    c22.store_rows(c, (row + 32) * m + col + 32, m);
    c23.store_rows(c, (row + 32) * m + col + 48, m);
    c30.store_rows(c, (row + 48) * m + col + 0, m);
    c31.store_rows(c, (row + 48) * m + col + 16, m);
    c32.store_rows(c, (row + 48) * m + col + 32, m);
    c33.store_rows(c, (row + 48) * m + col + 48, m);
}

/// The 128×128 block of four subgroups, double-buffered (an experiment, `x_matmul_f16`; twin
/// `wgsl/experiments/matmul_f16_staged_128.wgsl`): 128 threads (four subgroups of 32)
/// compute a 128×128 block of `c`, each subgroup a 64×64 part as 4×4 accumulators of 16×16. Per step of 32 along `k`,
/// each subgroup copies a 32×32 part of the 128×32 tile of `a` and of the 32×128 tile of `b`
/// into workgroup memory as four 16×16 matrices each (loaded from the buffers, stored into the
/// arrays; rows padded by 8 halves so the matrix loads spread over the memory banks), and each
/// subgroup loads its 16×16 operands from there: every byte fetched from global memory feeds
/// two subgroups' products. Double-buffered: the next step's matrices are loaded before the
/// products and stored into the other half of each array after them, one barrier a step.
/// Subgroup `t / 32` takes part `(t / 64, t / 32 % 2)` of the block, which assumes subgroups of
/// 32 consecutive threads (as on NVIDIA, the devices with these matrices; on the CPU backend's
/// other subgroup sizes each emulated subgroup computes the part of its `t / 32`, so the
/// result is the same).
#[sarek::kernel(workgroup_size = [128], limits = "device")]
pub fn matmul_f16_staged_128(a: &[f16], b: &[f16], c: &mut [f32], m: u32) {
    let m = m as usize;
    let row0 = block_idx_y() * 128;
    let col0 = block_idx_x() * 128;
    let t = thread_idx_x();
    let sg = t / 32;
    let ar = (sg / 2) * 64;
    let bc = (sg % 2) * 64;
    let sa = shared::<[f16; 10240]>();
    let sb = shared::<[f16; 8704]>();
    let mut c00 = CoopMatrix::<f32, 16, C>::zeros();
    let mut c01 = CoopMatrix::<f32, 16, C>::zeros();
    let mut c02 = CoopMatrix::<f32, 16, C>::zeros();
    let mut c03 = CoopMatrix::<f32, 16, C>::zeros();
    let mut c10 = CoopMatrix::<f32, 16, C>::zeros();
    let mut c11 = CoopMatrix::<f32, 16, C>::zeros();
    let mut c12 = CoopMatrix::<f32, 16, C>::zeros();
    let mut c13 = CoopMatrix::<f32, 16, C>::zeros();
    let mut c20 = CoopMatrix::<f32, 16, C>::zeros();
    let mut c21 = CoopMatrix::<f32, 16, C>::zeros();
    let mut c22 = CoopMatrix::<f32, 16, C>::zeros();
    let mut c23 = CoopMatrix::<f32, 16, C>::zeros();
    let mut c30 = CoopMatrix::<f32, 16, C>::zeros();
    let mut c31 = CoopMatrix::<f32, 16, C>::zeros();
    let mut c32 = CoopMatrix::<f32, 16, C>::zeros();
    let mut c33 = CoopMatrix::<f32, 16, C>::zeros();
    let ca = row0 + sg * 32;
    let cb = col0 + sg * 32;
    let mut ga0 = CoopMatrix::<f16, 16, A>::load_rows(a, (ca + 0) * m + 0, m);
    let mut ga1 = CoopMatrix::<f16, 16, A>::load_rows(a, (ca + 0) * m + 16, m);
    let mut ga2 = CoopMatrix::<f16, 16, A>::load_rows(a, (ca + 16) * m + 0, m);
    let mut ga3 = CoopMatrix::<f16, 16, A>::load_rows(a, (ca + 16) * m + 16, m);
    let mut gb0 = CoopMatrix::<f16, 16, B>::load_rows(b, (0) * m + cb + 0, m);
    let mut gb1 = CoopMatrix::<f16, 16, B>::load_rows(b, (0) * m + cb + 16, m);
    let mut gb2 = CoopMatrix::<f16, 16, B>::load_rows(b, (16) * m + cb + 0, m);
    let mut gb3 = CoopMatrix::<f16, 16, B>::load_rows(b, (16) * m + cb + 16, m);
    ga0.store_rows(sa, (sg * 32 + 0) * 40 + 0, 40);
    ga1.store_rows(sa, (sg * 32 + 0) * 40 + 16, 40);
    ga2.store_rows(sa, (sg * 32 + 16) * 40 + 0, 40);
    ga3.store_rows(sa, (sg * 32 + 16) * 40 + 16, 40);
    gb0.store_rows(sb, 0 + sg * 32 + 0, 136);
    gb1.store_rows(sb, 0 + sg * 32 + 16, 136);
    gb2.store_rows(sb, 2176 + sg * 32 + 0, 136);
    gb3.store_rows(sb, 2176 + sg * 32 + 16, 136);
    block_barrier();
    let mut k = 0;
    while k < m {
        let cur = (k / 32) % 2;
        // The next step's tiles (on the last step the last ones again: naga refuses
        // cooperative loads under a condition on the loop counter).
        let kn = (k + 32).min(m - 32);
        ga0 = CoopMatrix::<f16, 16, A>::load_rows(a, (ca + 0) * m + kn + 0, m);
        ga1 = CoopMatrix::<f16, 16, A>::load_rows(a, (ca + 0) * m + kn + 16, m);
        ga2 = CoopMatrix::<f16, 16, A>::load_rows(a, (ca + 16) * m + kn + 0, m);
        ga3 = CoopMatrix::<f16, 16, A>::load_rows(a, (ca + 16) * m + kn + 16, m);
        gb0 = CoopMatrix::<f16, 16, B>::load_rows(b, (kn + 0) * m + cb + 0, m);
        gb1 = CoopMatrix::<f16, 16, B>::load_rows(b, (kn + 0) * m + cb + 16, m);
        gb2 = CoopMatrix::<f16, 16, B>::load_rows(b, (kn + 16) * m + cb + 0, m);
        gb3 = CoopMatrix::<f16, 16, B>::load_rows(b, (kn + 16) * m + cb + 16, m);
        let ba = cur * 5120;
        let bb = cur * 4352;
        let a0 = CoopMatrix::<f16, 16, A>::load_rows(sa, ba + (ar + 0) * 40 + 0, 40);
        let a1 = CoopMatrix::<f16, 16, A>::load_rows(sa, ba + (ar + 16) * 40 + 0, 40);
        let a2 = CoopMatrix::<f16, 16, A>::load_rows(sa, ba + (ar + 32) * 40 + 0, 40);
        let a3 = CoopMatrix::<f16, 16, A>::load_rows(sa, ba + (ar + 48) * 40 + 0, 40);
        let b0 = CoopMatrix::<f16, 16, B>::load_rows(sb, bb + 0 + bc + 0, 136);
        let b1 = CoopMatrix::<f16, 16, B>::load_rows(sb, bb + 0 + bc + 16, 136);
        let b2 = CoopMatrix::<f16, 16, B>::load_rows(sb, bb + 0 + bc + 32, 136);
        let b3 = CoopMatrix::<f16, 16, B>::load_rows(sb, bb + 0 + bc + 48, 136);
        c00 = a0.multiply_add(b0, c00);
        c01 = a0.multiply_add(b1, c01);
        c02 = a0.multiply_add(b2, c02);
        c03 = a0.multiply_add(b3, c03);
        c10 = a1.multiply_add(b0, c10);
        c11 = a1.multiply_add(b1, c11);
        c12 = a1.multiply_add(b2, c12);
        c13 = a1.multiply_add(b3, c13);
        c20 = a2.multiply_add(b0, c20);
        c21 = a2.multiply_add(b1, c21);
        c22 = a2.multiply_add(b2, c22);
        c23 = a2.multiply_add(b3, c23);
        c30 = a3.multiply_add(b0, c30);
        c31 = a3.multiply_add(b1, c31);
        c32 = a3.multiply_add(b2, c32);
        c33 = a3.multiply_add(b3, c33);
        let a0 = CoopMatrix::<f16, 16, A>::load_rows(sa, ba + (ar + 0) * 40 + 16, 40);
        let a1 = CoopMatrix::<f16, 16, A>::load_rows(sa, ba + (ar + 16) * 40 + 16, 40);
        let a2 = CoopMatrix::<f16, 16, A>::load_rows(sa, ba + (ar + 32) * 40 + 16, 40);
        let a3 = CoopMatrix::<f16, 16, A>::load_rows(sa, ba + (ar + 48) * 40 + 16, 40);
        let b0 = CoopMatrix::<f16, 16, B>::load_rows(sb, bb + 2176 + bc + 0, 136);
        let b1 = CoopMatrix::<f16, 16, B>::load_rows(sb, bb + 2176 + bc + 16, 136);
        let b2 = CoopMatrix::<f16, 16, B>::load_rows(sb, bb + 2176 + bc + 32, 136);
        let b3 = CoopMatrix::<f16, 16, B>::load_rows(sb, bb + 2176 + bc + 48, 136);
        c00 = a0.multiply_add(b0, c00);
        c01 = a0.multiply_add(b1, c01);
        c02 = a0.multiply_add(b2, c02);
        c03 = a0.multiply_add(b3, c03);
        c10 = a1.multiply_add(b0, c10);
        c11 = a1.multiply_add(b1, c11);
        c12 = a1.multiply_add(b2, c12);
        c13 = a1.multiply_add(b3, c13);
        c20 = a2.multiply_add(b0, c20);
        c21 = a2.multiply_add(b1, c21);
        c22 = a2.multiply_add(b2, c22);
        c23 = a2.multiply_add(b3, c23);
        c30 = a3.multiply_add(b0, c30);
        c31 = a3.multiply_add(b1, c31);
        c32 = a3.multiply_add(b2, c32);
        c33 = a3.multiply_add(b3, c33);
        let na = (1 - cur) * 5120;
        let nb = (1 - cur) * 4352;
        ga0.store_rows(sa, na + (sg * 32 + 0) * 40 + 0, 40);
        ga1.store_rows(sa, na + (sg * 32 + 0) * 40 + 16, 40);
        ga2.store_rows(sa, na + (sg * 32 + 16) * 40 + 0, 40);
        ga3.store_rows(sa, na + (sg * 32 + 16) * 40 + 16, 40);
        gb0.store_rows(sb, nb + 0 + sg * 32 + 0, 136);
        gb1.store_rows(sb, nb + 0 + sg * 32 + 16, 136);
        gb2.store_rows(sb, nb + 2176 + sg * 32 + 0, 136);
        gb3.store_rows(sb, nb + 2176 + sg * 32 + 16, 136);
        block_barrier();
        k += 32;
    }
    c00.store_rows(c, (row0 + ar + 0) * m + col0 + bc + 0, m);
    c01.store_rows(c, (row0 + ar + 0) * m + col0 + bc + 16, m);
    c02.store_rows(c, (row0 + ar + 0) * m + col0 + bc + 32, m);
    c03.store_rows(c, (row0 + ar + 0) * m + col0 + bc + 48, m);
    c10.store_rows(c, (row0 + ar + 16) * m + col0 + bc + 0, m);
    c11.store_rows(c, (row0 + ar + 16) * m + col0 + bc + 16, m);
    c12.store_rows(c, (row0 + ar + 16) * m + col0 + bc + 32, m);
    c13.store_rows(c, (row0 + ar + 16) * m + col0 + bc + 48, m);
    c20.store_rows(c, (row0 + ar + 32) * m + col0 + bc + 0, m);
    c21.store_rows(c, (row0 + ar + 32) * m + col0 + bc + 16, m);
    c22.store_rows(c, (row0 + ar + 32) * m + col0 + bc + 32, m);
    c23.store_rows(c, (row0 + ar + 32) * m + col0 + bc + 48, m);
    c30.store_rows(c, (row0 + ar + 48) * m + col0 + bc + 0, m);
    c31.store_rows(c, (row0 + ar + 48) * m + col0 + bc + 16, m);
    c32.store_rows(c, (row0 + ar + 48) * m + col0 + bc + 32, m);
    c33.store_rows(c, (row0 + ar + 48) * m + col0 + bc + 48, m);
}

/// The same product with the tiles copied by the threads, eight consecutive halves of a row
/// each (an experiment, `x_matmul_f16`; twin `wgsl/experiments/matmul_f16_staged_threads.wgsl`).
#[sarek::kernel(workgroup_size = [128], limits = "device")]
pub fn matmul_f16_staged_threads(a: &[f16], b: &[f16], c: &mut [f32], m: u32) {
    let m = m as usize;
    let row0 = block_idx_y() * 128;
    let col0 = block_idx_x() * 128;
    let t = thread_idx_x();
    let sg = t / 32;
    let ar = (sg / 2) * 64;
    let bc = (sg % 2) * 64;
    let sa = shared::<[f16; 10240]>();
    let sb = shared::<[f16; 8704]>();
    let mut c00 = CoopMatrix::<f32, 16, C>::zeros();
    let mut c01 = CoopMatrix::<f32, 16, C>::zeros();
    let mut c02 = CoopMatrix::<f32, 16, C>::zeros();
    let mut c03 = CoopMatrix::<f32, 16, C>::zeros();
    let mut c10 = CoopMatrix::<f32, 16, C>::zeros();
    let mut c11 = CoopMatrix::<f32, 16, C>::zeros();
    let mut c12 = CoopMatrix::<f32, 16, C>::zeros();
    let mut c13 = CoopMatrix::<f32, 16, C>::zeros();
    let mut c20 = CoopMatrix::<f32, 16, C>::zeros();
    let mut c21 = CoopMatrix::<f32, 16, C>::zeros();
    let mut c22 = CoopMatrix::<f32, 16, C>::zeros();
    let mut c23 = CoopMatrix::<f32, 16, C>::zeros();
    let mut c30 = CoopMatrix::<f32, 16, C>::zeros();
    let mut c31 = CoopMatrix::<f32, 16, C>::zeros();
    let mut c32 = CoopMatrix::<f32, 16, C>::zeros();
    let mut c33 = CoopMatrix::<f32, 16, C>::zeros();
    let la = (row0 + t / 4) * m + (t % 4) * 8;
    let lb = (t / 16) * m + col0 + (t % 16) * 8;
    let pa = (t / 4) * 40 + (t % 4) * 8;
    let pb = (t / 16) * 136 + (t % 16) * 8;
    let mut ra = [f16::ZERO; 32];
    let mut rb = [f16::ZERO; 32];
    for j in 0..4 {
        for e in 0..8 {
            ra[j * 8 + e] = a[la + j * 32 * m + e];
            rb[j * 8 + e] = b[lb + (j * 8) * m + e];
        }
    }
    for j in 0..4 {
        for e in 0..8 {
            sa[pa + j * 1280 + e] = ra[j * 8 + e];
            sb[pb + j * 1088 + e] = rb[j * 8 + e];
        }
    }
    block_barrier();
    let mut k = 0;
    while k < m {
        let cur = (k / 32) % 2;
        let next = k + 32 < m;
        if next {
            for j in 0..4 {
                for e in 0..8 {
                    ra[j * 8 + e] = a[la + (k + 32) + j * 32 * m + e];
                    rb[j * 8 + e] = b[lb + ((k + 32) + j * 8) * m + e];
                }
            }
        }
        let ba = cur * 5120;
        let bb = cur * 4352;
        let a0 = CoopMatrix::<f16, 16, A>::load_rows(sa, ba + (ar + 0) * 40 + 0, 40);
        let a1 = CoopMatrix::<f16, 16, A>::load_rows(sa, ba + (ar + 16) * 40 + 0, 40);
        let a2 = CoopMatrix::<f16, 16, A>::load_rows(sa, ba + (ar + 32) * 40 + 0, 40);
        let a3 = CoopMatrix::<f16, 16, A>::load_rows(sa, ba + (ar + 48) * 40 + 0, 40);
        let b0 = CoopMatrix::<f16, 16, B>::load_rows(sb, bb + 0 + bc + 0, 136);
        let b1 = CoopMatrix::<f16, 16, B>::load_rows(sb, bb + 0 + bc + 16, 136);
        let b2 = CoopMatrix::<f16, 16, B>::load_rows(sb, bb + 0 + bc + 32, 136);
        let b3 = CoopMatrix::<f16, 16, B>::load_rows(sb, bb + 0 + bc + 48, 136);
        c00 = a0.multiply_add(b0, c00);
        c01 = a0.multiply_add(b1, c01);
        c02 = a0.multiply_add(b2, c02);
        c03 = a0.multiply_add(b3, c03);
        c10 = a1.multiply_add(b0, c10);
        c11 = a1.multiply_add(b1, c11);
        c12 = a1.multiply_add(b2, c12);
        c13 = a1.multiply_add(b3, c13);
        c20 = a2.multiply_add(b0, c20);
        c21 = a2.multiply_add(b1, c21);
        c22 = a2.multiply_add(b2, c22);
        c23 = a2.multiply_add(b3, c23);
        c30 = a3.multiply_add(b0, c30);
        c31 = a3.multiply_add(b1, c31);
        c32 = a3.multiply_add(b2, c32);
        c33 = a3.multiply_add(b3, c33);
        let a0 = CoopMatrix::<f16, 16, A>::load_rows(sa, ba + (ar + 0) * 40 + 16, 40);
        let a1 = CoopMatrix::<f16, 16, A>::load_rows(sa, ba + (ar + 16) * 40 + 16, 40);
        let a2 = CoopMatrix::<f16, 16, A>::load_rows(sa, ba + (ar + 32) * 40 + 16, 40);
        let a3 = CoopMatrix::<f16, 16, A>::load_rows(sa, ba + (ar + 48) * 40 + 16, 40);
        let b0 = CoopMatrix::<f16, 16, B>::load_rows(sb, bb + 2176 + bc + 0, 136);
        let b1 = CoopMatrix::<f16, 16, B>::load_rows(sb, bb + 2176 + bc + 16, 136);
        let b2 = CoopMatrix::<f16, 16, B>::load_rows(sb, bb + 2176 + bc + 32, 136);
        let b3 = CoopMatrix::<f16, 16, B>::load_rows(sb, bb + 2176 + bc + 48, 136);
        c00 = a0.multiply_add(b0, c00);
        c01 = a0.multiply_add(b1, c01);
        c02 = a0.multiply_add(b2, c02);
        c03 = a0.multiply_add(b3, c03);
        c10 = a1.multiply_add(b0, c10);
        c11 = a1.multiply_add(b1, c11);
        c12 = a1.multiply_add(b2, c12);
        c13 = a1.multiply_add(b3, c13);
        c20 = a2.multiply_add(b0, c20);
        c21 = a2.multiply_add(b1, c21);
        c22 = a2.multiply_add(b2, c22);
        c23 = a2.multiply_add(b3, c23);
        c30 = a3.multiply_add(b0, c30);
        c31 = a3.multiply_add(b1, c31);
        c32 = a3.multiply_add(b2, c32);
        c33 = a3.multiply_add(b3, c33);
        if next {
            let na = (1 - cur) * 5120;
            let nb = (1 - cur) * 4352;
            for j in 0..4 {
                for e in 0..8 {
                    sa[na + pa + j * 1280 + e] = ra[j * 8 + e];
                    sb[nb + pb + j * 1088 + e] = rb[j * 8 + e];
                }
            }
        }
        block_barrier();
        k += 32;
    }
    c00.store_rows(c, (row0 + ar + 0) * m + col0 + bc + 0, m);
    c01.store_rows(c, (row0 + ar + 0) * m + col0 + bc + 16, m);
    c02.store_rows(c, (row0 + ar + 0) * m + col0 + bc + 32, m);
    c03.store_rows(c, (row0 + ar + 0) * m + col0 + bc + 48, m);
    c10.store_rows(c, (row0 + ar + 16) * m + col0 + bc + 0, m);
    c11.store_rows(c, (row0 + ar + 16) * m + col0 + bc + 16, m);
    c12.store_rows(c, (row0 + ar + 16) * m + col0 + bc + 32, m);
    c13.store_rows(c, (row0 + ar + 16) * m + col0 + bc + 48, m);
    c20.store_rows(c, (row0 + ar + 32) * m + col0 + bc + 0, m);
    c21.store_rows(c, (row0 + ar + 32) * m + col0 + bc + 16, m);
    c22.store_rows(c, (row0 + ar + 32) * m + col0 + bc + 32, m);
    c23.store_rows(c, (row0 + ar + 32) * m + col0 + bc + 48, m);
    c30.store_rows(c, (row0 + ar + 48) * m + col0 + bc + 0, m);
    c31.store_rows(c, (row0 + ar + 48) * m + col0 + bc + 16, m);
    c32.store_rows(c, (row0 + ar + 48) * m + col0 + bc + 32, m);
    c33.store_rows(c, (row0 + ar + 48) * m + col0 + bc + 48, m);
}

/// `--experiments --only x_matmul_f16`: the f16 product at 4096² in each shape, every result
/// checked as the suite's row checks it (against the host at sampled elements, and equal to
/// the staged Sarek kernel's everywhere). Prints TFLOP/s.
pub fn variants(b: &Bench) -> Result<()> {
    let ctx = b.ctx;
    let dev = &ctx.dev;
    if !has_shape(dev, "x_matmul_f16") {
        return Ok(());
    }
    let m = if b.quick { 256usize } else { 4096 };
    let (av, bv) = inputs(m);
    let (ah, bh) = (dev.upload(&av)?, dev.upload(&bv)?);
    let ah4 = dev.upload::<F16Vec4>(bytemuck::cast_slice(&av))?;
    let bh4 = dev.upload::<F16Vec4>(bytemuck::cast_slice(&bv))?;
    let ra = storage(ctx, bytemuck::cast_slice(&av));
    let rbm = storage(ctx, bytemuck::cast_slice(&bv));
    let params = ctx.uniform(bytemuck::cast_slice(&[m as u32]));
    let g = |s: usize| (m / s) as u32;
    let mut want: Option<Vec<f32>> = None;
    let flops = 2.0 * (m as f64).powi(3);
    let mut report = |name: &str, t: std::time::Duration, got: Vec<f32>| {
        let ok = verify(m, &av, &bv, &got, want.get_or_insert_with(|| got.clone()));
        println!(
            "experiment: matmul_f16 {name:<58} {:>9.1} µs  {:>6.1} TFLOP/s  checked {ok}",
            t.as_secs_f64() * 1e6,
            flops / t.as_secs_f64() / 1e12
        );
    };
    // One result buffer for every variant, zeroed before each: on this host the H200 slows
    // down after many large allocations in one process (BENCHMARKS.md).
    let zeros = vec![0f32; m * m];
    let rc = storage(ctx, bytemuck::cast_slice(&zeros));
    let mut c = dev.zeros::<f32>(m * m)?;
    // `SAREK_BENCH_VARIANT=text`: only the variants whose name contains it (one a process).
    let only = std::env::var("SAREK_BENCH_VARIANT").ok();
    let wanted = |name: &str| only.as_deref().is_none_or(|o| name.contains(o));
    // Sarek: the staged kernel (the suite's row), its copy by threads, and the first kernel.
    for (name, kernel) in [
        ("Sarek 128x256, F16Vec4 copies, k-step 16, two buffers", 4),
        (
            "Sarek 128x256, F16Vec4 copies, k-step 16, two buffers, operands early",
            6,
        ),
        ("Sarek 128x256, F16Vec4 copies, k-step 32, one buffer", 5),
        (
            "Sarek staged 128x256, 8 subgroups, coop copy, one buffer (the row)",
            3,
        ),
        (
            "Sarek staged 128x128, copied by coop loads, double buffer",
            0,
        ),
        ("Sarek staged 128x128, copied by threads, double buffer", 1),
        ("Sarek 64x64 per subgroup, tiles from storage (before)", 2),
    ] {
        if !wanted(name) {
            continue;
        }
        c.write(&zeros)?;
        let go = |c: &mut Buffer<f32>| {
            let (big, small) = (g(128), g(64));
            let wide = Grid::groups([g(256), big, 1]);
            match kernel {
                4 => matmul_f16_db16.launch(dev, wide, &ah4, &bh4, c, m as u32),
                5 => matmul_f16_s32.launch(dev, wide, &ah4, &bh4, c, m as u32),
                6 => matmul_f16_db16_early.launch(dev, wide, &ah4, &bh4, c, m as u32),
                3 => matmul_f16_staged.launch(
                    dev,
                    Grid::groups([g(256), big, 1]),
                    &ah,
                    &bh,
                    c,
                    m as u32,
                ),
                0 => matmul_f16_staged_128.launch(
                    dev,
                    Grid::groups([big, big, 1]),
                    &ah,
                    &bh,
                    c,
                    m as u32,
                ),
                1 => matmul_f16_staged_threads.launch(
                    dev,
                    Grid::groups([big, big, 1]),
                    &ah,
                    &bh,
                    c,
                    m as u32,
                ),
                _ => matmul_f16_coop.launch(
                    dev,
                    Grid::groups([small, small, 1]),
                    &ah,
                    &bh,
                    c,
                    m as u32,
                ),
            }
            .expect("launch")
        };
        go(&mut c).wait()?;
        let got = c.read()?;
        let t = b.timer.time_sarek(|| vec![go(&mut c)]);
        report(name, t, got);
    }
    // WGSL.
    let wide = [g(256), g(128), 1];
    for (name, src, groups) in [
        (
            "WGSL 128x256, vec4<f16> copies, k-step 16, two buffers",
            include_str!("../wgsl/experiments/matmul_f16_db16.wgsl"),
            wide,
        ),
        (
            "WGSL 128x256, vec4<f16> copies, k-step 16, two buffers, operands early",
            include_str!("../wgsl/experiments/matmul_f16_db16_early.wgsl"),
            wide,
        ),
        (
            "WGSL 128x256, vec4<f16> copies, k-step 32, one buffer",
            include_str!("../wgsl/experiments/matmul_f16_s32_f16.wgsl"),
            wide,
        ),
        (
            "WGSL 128x256, vec4<f16> words stored whole, k-step 32, one buffer",
            include_str!("../wgsl/experiments/matmul_f16_s32_vecsmem.wgsl"),
            wide,
        ),
        (
            "WGSL 128x256, vec4<u32> copies, k-step 16, two buffers",
            include_str!("../wgsl/experiments/matmul_f16_db16_u32.wgsl"),
            wide,
        ),
        (
            "WGSL 128x256, vec4<u32> copies, k-step 16, two buffers, operands early",
            include_str!("../wgsl/experiments/matmul_f16_db16_u32_early.wgsl"),
            wide,
        ),
        (
            "WGSL staged 128x256, 8 subgroups, coop copy, one buffer (the row's twin)",
            include_str!("../wgsl/matmul_f16_staged.wgsl"),
            [g(256), g(128), 1],
        ),
        (
            "WGSL staged 128x256, 8 subgroups, 16-byte copy, one buffer",
            include_str!("../wgsl/experiments/matmul_f16_256_vec4_single.wgsl"),
            [g(256), g(128), 1],
        ),
        (
            "WGSL staged 128x128, copied by coop loads, double buffer",
            include_str!("../wgsl/experiments/matmul_f16_staged_128.wgsl"),
            [g(128), g(128), 1],
        ),
        (
            "WGSL staged 128x128, copied by threads",
            include_str!("../wgsl/experiments/matmul_f16_staged_threads.wgsl"),
            [g(128), g(128), 1],
        ),
        (
            "WGSL staged 128x128, copied by threads in 16-byte loads",
            include_str!("../wgsl/experiments/matmul_f16_staged_vec4.wgsl"),
            [g(128), g(128), 1],
        ),
        (
            "WGSL 64x64 per subgroup, tiles from storage (before)",
            include_str!("../wgsl/matmul_f16_coop.wgsl"),
            [g(64), g(64), 1],
        ),
        (
            "bound: the 64x64 kernel's products only, operands loaded once",
            include_str!("../wgsl/experiments/matmul_f16_peak.wgsl"),
            [g(64), g(64), 1],
        ),
        (
            "bound: the same, operands from workgroup memory each step",
            include_str!("../wgsl/experiments/matmul_f16_peak_shared.wgsl"),
            [g(64), g(64), 1],
        ),
    ] {
        if !wanted(name) {
            continue;
        }
        ctx.queue()
            .write_buffer(&rc, 0, bytemuck::cast_slice(&zeros));
        // A variant the device's compiler refuses is reported, not fatal to the run.
        let scope = ctx.device().push_error_scope(wgpu::ErrorFilter::Validation);
        let p = ctx.pipeline(src);
        if let Some(e) = pollster::block_on(scope.pop()) {
            println!("experiment: matmul_f16 {name}: refused: {e}");
            continue;
        }
        let bg = ctx.bind(&p, &[&ra, &rbm, &rc, &params]);
        ctx.time_passes(&[(&p, &bg, groups)]);
        let got: Vec<f32> = read(ctx, &rc);
        let t = b.timer.time_raw(&[(&p, &bg, groups)]);
        report(name, t, got);
    }
    // `SAREK_BENCH_WGSL_FILE=path`: a WGSL variant read at run time (to try a shape without a
    // rebuild), its block given by a line `// block: ROWSxCOLS` (default 128x256); checked as
    // the others, and its rows 1 and m - 2 and columns 3 and m - 5 against the host in full.
    if let Ok(path) = std::env::var("SAREK_BENCH_WGSL_FILE") {
        let src = std::fs::read_to_string(&path)?;
        let (rows, cols) = src
            .lines()
            .find_map(|l| l.trim().strip_prefix("// block: "))
            .and_then(|s| s.trim().split_once('x'))
            .map(|(r, c)| (r.parse().unwrap_or(128), c.parse().unwrap_or(256)))
            .unwrap_or((128, 256));
        let groups = [g(cols), g(rows), 1];
        ctx.queue()
            .write_buffer(&rc, 0, bytemuck::cast_slice(&zeros));
        // The driver's refusals are internal errors, naga's validation errors: both reported.
        let internal = ctx.device().push_error_scope(wgpu::ErrorFilter::Internal);
        let scope = ctx.device().push_error_scope(wgpu::ErrorFilter::Validation);
        let p = ctx.pipeline(&src);
        let refused = [
            pollster::block_on(scope.pop()),
            pollster::block_on(internal.pop()),
        ];
        if let Some(e) = refused.into_iter().flatten().next() {
            println!("experiment: matmul_f16 {path}: refused: {e}");
            return Ok(());
        }
        let bg = ctx.bind(&p, &[&ra, &rbm, &rc, &params]);
        ctx.time_passes(&[(&p, &bg, groups)]);
        let got: Vec<f32> = read(ctx, &rc);
        let full = lines_match_host(m, &av, &bv, &got);
        let t = b.timer.time_raw(&[(&p, &bg, groups)]);
        report(&format!("{path} (full lines {full})"), t, got);
    }
    Ok(())
}

/// Whether rows 1 and m - 2 and columns 3 and m - 5 of `got` equal the f32 host product
/// everywhere (exact: see `super::coop`), so that every block row and column is checked.
pub(super) fn lines_match_host(m: usize, a: &[f16], b: &[f16], got: &[f32]) -> bool {
    let at = |r: usize, col: usize| super::coop::host_at(m, a, b, r, col);
    let rows = [1, m - 2];
    let cols = [3, m - 5];
    rows.iter()
        .all(|&r| (0..m).all(|col| got[r * m + col] == at(r, col)))
        && cols
            .iter()
            .all(|&col| (0..m).all(|r| got[r * m + col] == at(r, col)))
}
