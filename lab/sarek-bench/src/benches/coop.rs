//! The f16 matrix product on cooperative matrices (wgpu feature
//! `EXPERIMENTAL_COOPERATIVE_MATRIX`, NVIDIA's tensor cores through Vulkan), with f32
//! accumulation, in TFLOP/s (the report's GFLOP/s / 1000): `coop_q4::matmul_f16_q4p2` (128×128
//! blocks of four subgroups) against the hand-written WGSL twin `wgsl/matmul_f16_q4p2.wgsl`
//! using the same extension (tiles staged in workgroup arrays of `F16Vec4`, each step's words
//! loaded two steps ahead; `SAREK_BENCH_F16_ROW=p2|staged|vec|e|p2e` measures another pair in
//! the same place: `p2`, the row before, `coop_prefetch::matmul_f16_vec_p2` against
//! `wgsl/matmul_f16_vec_p2.wgsl` on 128×256 blocks, `staged` the one before it, and the others);
//! the other kernels and WGSL variants are the experiment `x_matmul_f16`
//! (`super::coop_variants`). Checked against an f32 host
//! reference: the inputs are small multiples of 1/4 (exact in f16, products exact in f32), so
//! every partial sum is exact in f32 and the tolerance is 0 (both sides must equal the
//! reference exactly at the sampled elements, and each other everywhere). Skipped, with a
//! message, on a device without the feature or without the 16×16×16 f16·f16+f32 shape.

use sarek::coop::{A, B, C}; // the roles, for the plain-Rust body
use sarek::{f16, Buffer, F16Vec4, Grid};

use super::coop_prefetch::{matmul_f16_vec_e, matmul_f16_vec_p2, matmul_f16_vec_p2e};
use super::coop_q4::matmul_f16_q4p2;
use super::{Bench, Result};
use crate::measure::{first_launch, Measured, Work};
use crate::raw::{read, storage};

/// `c = a * b` for `m`×`m` row-major f16 matrices (`m` a multiple of 256), f32 accumulation
/// (twin `wgsl/matmul_f16_vec.wgsl`, the same algorithm; the suite's row loads each step's
/// words two steps ahead, `super::coop_prefetch::matmul_f16_vec_p2`). 256 threads (eight
/// subgroups of 32) compute a 128×256 block of `c`, each subgroup a 64×64 part as 4×4
/// accumulators of 16×16. Per step of 32 along `k` every thread copies 8-byte words
/// (`F16Vec4`, four halves) of the 128×32 tile of `a` and the 32×256 tile of `b` into
/// workgroup arrays of `F16Vec4` (one store a word; rows padded by two words so the matrix
/// loads spread over the memory banks), and the subgroups' matrix loads read their f16
/// operands from those arrays (offset and stride in words). One buffer (two do not fit the
/// device's 48 KiB): store, barrier, the next step's words loaded (in flight during the
/// products), products, barrier. Measured against the staged kernel below (copies by matrix
/// loads, the row before) and the `[f16]` arrays of `coop_vec::matmul_f16_s32`: BENCHMARKS.md,
/// "f16 matrix product: workgroup arrays of `F16Vec4`". Subgroup `t / 32` takes part
/// `(t / 128, t / 32 % 4)` of the block, which assumes subgroups of 32 consecutive threads (as
/// on NVIDIA; on the CPU backend's other subgroup sizes each emulated subgroup computes the
/// part of its `t / 32`, so the result is the same).
#[sarek::kernel(workgroup_size = [256], limits = "device")]
pub fn matmul_f16_vec(a: &[F16Vec4], b: &[F16Vec4], c: &mut [f32], m: u32) {
    let m = m as usize;
    let row0 = block_idx_y() * 128;
    let col0 = block_idx_x() * 256;
    let t = thread_idx_x();
    let sg = t / 32;
    let ar = (sg / 4) * 64; // this subgroup's rows in the block
    let bc = (sg % 4) * 64; // and columns
    let sa = shared::<[F16Vec4; 1280]>(); // 128 rows of 8 words (32 halves), padded to 10
    let sb = shared::<[F16Vec4; 2112]>(); // 32 rows of 64 words (256 halves), padded to 66
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
    // Thread t copies word t % 8 of rows t / 8 + 32·j of the tile of `a`, and word
    // t % 64 of rows t / 64 + 4·j of the tile of `b`; `q` words a matrix row; `pa`, `pb`
    // its words in the workgroup arrays.
    let q = m / 4;
    let la = (row0 + t / 8) * q + t % 8;
    let pa = (t / 8) * 10 + t % 8;
    let lb = (t / 64) * q + col0 / 4 + t % 64;
    let pb = (t / 64) * 66 + t % 64;
    let mut ra0 = a[la];
    let mut ra1 = a[la + 32 * q];
    let mut ra2 = a[la + 64 * q];
    let mut ra3 = a[la + 96 * q];
    let mut rb0 = b[lb];
    let mut rb1 = b[lb + 4 * q];
    let mut rb2 = b[lb + 8 * q];
    let mut rb3 = b[lb + 12 * q];
    let mut rb4 = b[lb + 16 * q];
    let mut rb5 = b[lb + 20 * q];
    let mut rb6 = b[lb + 24 * q];
    let mut rb7 = b[lb + 28 * q];
    let mut k = 0;
    while k < m {
        sa[pa] = ra0;
        sa[pa + 320] = ra1;
        sa[pa + 640] = ra2;
        sa[pa + 960] = ra3;
        sb[pb] = rb0;
        sb[pb + 264] = rb1;
        sb[pb + 528] = rb2;
        sb[pb + 792] = rb3;
        sb[pb + 1056] = rb4;
        sb[pb + 1320] = rb5;
        sb[pb + 1584] = rb6;
        sb[pb + 1848] = rb7;
        block_barrier();
        // The next step's words, in flight during the products (on the last step the last
        // ones again: cooperative operations need no condition around them).
        let kn = (k + 32).min(m - 32);
        ra0 = a[la + kn / 4];
        ra1 = a[la + kn / 4 + 32 * q];
        ra2 = a[la + kn / 4 + 64 * q];
        ra3 = a[la + kn / 4 + 96 * q];
        rb0 = b[lb + kn * q];
        rb1 = b[lb + (kn + 4) * q];
        rb2 = b[lb + (kn + 8) * q];
        rb3 = b[lb + (kn + 12) * q];
        rb4 = b[lb + (kn + 16) * q];
        rb5 = b[lb + (kn + 20) * q];
        rb6 = b[lb + (kn + 24) * q];
        rb7 = b[lb + (kn + 28) * q];
        let a0_0 = CoopMatrix::<f16, 16, A>::load_rows(sa, ar * 10, 10);
        let a1_0 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 16) * 10, 10);
        let a2_0 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 32) * 10, 10);
        let a3_0 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 48) * 10, 10);
        let b0_0 = CoopMatrix::<f16, 16, B>::load_rows(sb, bc / 4, 66);
        let b1_0 = CoopMatrix::<f16, 16, B>::load_rows(sb, bc / 4 + 4, 66);
        let b2_0 = CoopMatrix::<f16, 16, B>::load_rows(sb, bc / 4 + 8, 66);
        let b3_0 = CoopMatrix::<f16, 16, B>::load_rows(sb, bc / 4 + 12, 66);
        c00 = a0_0.multiply_add(b0_0, c00);
        c01 = a0_0.multiply_add(b1_0, c01);
        c02 = a0_0.multiply_add(b2_0, c02);
        c03 = a0_0.multiply_add(b3_0, c03);
        c10 = a1_0.multiply_add(b0_0, c10);
        c11 = a1_0.multiply_add(b1_0, c11);
        c12 = a1_0.multiply_add(b2_0, c12);
        c13 = a1_0.multiply_add(b3_0, c13);
        c20 = a2_0.multiply_add(b0_0, c20);
        c21 = a2_0.multiply_add(b1_0, c21);
        c22 = a2_0.multiply_add(b2_0, c22);
        c23 = a2_0.multiply_add(b3_0, c23);
        c30 = a3_0.multiply_add(b0_0, c30);
        c31 = a3_0.multiply_add(b1_0, c31);
        c32 = a3_0.multiply_add(b2_0, c32);
        c33 = a3_0.multiply_add(b3_0, c33);
        let a0_16 = CoopMatrix::<f16, 16, A>::load_rows(sa, ar * 10 + 4, 10);
        let a1_16 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 16) * 10 + 4, 10);
        let a2_16 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 32) * 10 + 4, 10);
        let a3_16 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 48) * 10 + 4, 10);
        let b0_16 = CoopMatrix::<f16, 16, B>::load_rows(sb, 1056 + bc / 4, 66);
        let b1_16 = CoopMatrix::<f16, 16, B>::load_rows(sb, 1056 + bc / 4 + 4, 66);
        let b2_16 = CoopMatrix::<f16, 16, B>::load_rows(sb, 1056 + bc / 4 + 8, 66);
        let b3_16 = CoopMatrix::<f16, 16, B>::load_rows(sb, 1056 + bc / 4 + 12, 66);
        c00 = a0_16.multiply_add(b0_16, c00);
        c01 = a0_16.multiply_add(b1_16, c01);
        c02 = a0_16.multiply_add(b2_16, c02);
        c03 = a0_16.multiply_add(b3_16, c03);
        c10 = a1_16.multiply_add(b0_16, c10);
        c11 = a1_16.multiply_add(b1_16, c11);
        c12 = a1_16.multiply_add(b2_16, c12);
        c13 = a1_16.multiply_add(b3_16, c13);
        c20 = a2_16.multiply_add(b0_16, c20);
        c21 = a2_16.multiply_add(b1_16, c21);
        c22 = a2_16.multiply_add(b2_16, c22);
        c23 = a2_16.multiply_add(b3_16, c23);
        c30 = a3_16.multiply_add(b0_16, c30);
        c31 = a3_16.multiply_add(b1_16, c31);
        c32 = a3_16.multiply_add(b2_16, c32);
        c33 = a3_16.multiply_add(b3_16, c33);
        block_barrier();
        k += 32;
    }
    c00.store_rows(c, (row0 + ar) * m + col0 + bc, m);
    c01.store_rows(c, (row0 + ar) * m + col0 + bc + 16, m);
    c02.store_rows(c, (row0 + ar) * m + col0 + bc + 32, m);
    c03.store_rows(c, (row0 + ar) * m + col0 + bc + 48, m);
    c10.store_rows(c, (row0 + ar + 16) * m + col0 + bc, m);
    c11.store_rows(c, (row0 + ar + 16) * m + col0 + bc + 16, m);
    c12.store_rows(c, (row0 + ar + 16) * m + col0 + bc + 32, m);
    c13.store_rows(c, (row0 + ar + 16) * m + col0 + bc + 48, m);
    c20.store_rows(c, (row0 + ar + 32) * m + col0 + bc, m);
    c21.store_rows(c, (row0 + ar + 32) * m + col0 + bc + 16, m);
    c22.store_rows(c, (row0 + ar + 32) * m + col0 + bc + 32, m);
    c23.store_rows(c, (row0 + ar + 32) * m + col0 + bc + 48, m);
    c30.store_rows(c, (row0 + ar + 48) * m + col0 + bc, m);
    c31.store_rows(c, (row0 + ar + 48) * m + col0 + bc + 16, m);
    c32.store_rows(c, (row0 + ar + 48) * m + col0 + bc + 32, m);
    c33.store_rows(c, (row0 + ar + 48) * m + col0 + bc + 48, m);
}

/// `c = a * b` for `m`×`m` row-major f16 matrices (`m` a multiple of 256), f32 accumulation,
/// with the tiles of `a` and `b` staged in workgroup memory (the twin is
/// `wgsl/matmul_f16_staged.wgsl`). 256 threads (eight subgroups of 32) compute a 128×256 block
/// of `c`, each subgroup a 64×64 part as 4×4 accumulators of 16×16. Per step of 32 along `k`,
/// each subgroup copies a 16×32 part of the 128×32 tile of `a` and a 32×32 part of the 32×256
/// tile of `b` into workgroup memory as 16×16 matrices (loaded from the buffers, stored into the
/// arrays; rows padded by 8 halves so the matrix loads spread over the memory banks), and each
/// subgroup loads its operands from there: every byte fetched from global memory feeds two or
/// four subgroups' products. One buffer (two, 54 KiB, do not fit the device's 48 KiB): store,
/// barrier, the next step's loads issued, products, barrier. Subgroup `t / 32` takes part
/// `(t / 128, t / 32 % 4)` of the block, which assumes subgroups of 32 consecutive threads (as
/// on NVIDIA, the devices with these matrices; on the CPU backend's other subgroup sizes each
/// emulated subgroup computes the part of its `t / 32`, so the result is the same).
#[sarek::kernel(workgroup_size = [256], limits = "device")]
pub fn matmul_f16_staged(a: &[f16], b: &[f16], c: &mut [f32], m: u32) {
    let m = m as usize;
    let row0 = block_idx_y() * 128;
    let col0 = block_idx_x() * 256;
    let t = thread_idx_x();
    let sg = t / 32;
    let ar = (sg / 4) * 64; // this subgroup's rows in the block
    let bc = (sg % 4) * 64; // and columns
    let sa = shared::<[f16; 5120]>(); // 128 rows of 32 halves, padded to 40
    let sb = shared::<[f16; 8448]>(); // 32 rows of 256 halves, padded to 264
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
    // Subgroup sg copies rows 16·sg.. of the tile of `a` and columns 32·sg.. of that of `b`.
    let ca = row0 + sg * 16;
    let cb = col0 + sg * 32;
    let mut ga0 = CoopMatrix::<f16, 16, A>::load_rows(a, (ca + 0) * m + 0, m);
    let mut ga1 = CoopMatrix::<f16, 16, A>::load_rows(a, (ca + 0) * m + 16, m);
    let mut gb0 = CoopMatrix::<f16, 16, B>::load_rows(b, (0) * m + cb + 0, m);
    let mut gb1 = CoopMatrix::<f16, 16, B>::load_rows(b, (0) * m + cb + 16, m);
    let mut gb2 = CoopMatrix::<f16, 16, B>::load_rows(b, (16) * m + cb + 0, m);
    let mut gb3 = CoopMatrix::<f16, 16, B>::load_rows(b, (16) * m + cb + 16, m);
    let mut k = 0;
    while k < m {
        ga0.store_rows(sa, (sg * 16 + 0) * 40 + 0, 40);
        ga1.store_rows(sa, (sg * 16 + 0) * 40 + 16, 40);
        gb0.store_rows(sb, 0 + sg * 32 + 0, 264);
        gb1.store_rows(sb, 0 + sg * 32 + 16, 264);
        gb2.store_rows(sb, 4224 + sg * 32 + 0, 264);
        gb3.store_rows(sb, 4224 + sg * 32 + 16, 264);
        block_barrier();
        // The next step's matrices, in flight during the products (on the last step the last
        // ones again: cooperative loads must not be under a condition on the loop counter).
        let kn = (k + 32).min(m - 32);
        ga0 = CoopMatrix::<f16, 16, A>::load_rows(a, (ca + 0) * m + kn + 0, m);
        ga1 = CoopMatrix::<f16, 16, A>::load_rows(a, (ca + 0) * m + kn + 16, m);
        gb0 = CoopMatrix::<f16, 16, B>::load_rows(b, (kn + 0) * m + cb + 0, m);
        gb1 = CoopMatrix::<f16, 16, B>::load_rows(b, (kn + 0) * m + cb + 16, m);
        gb2 = CoopMatrix::<f16, 16, B>::load_rows(b, (kn + 16) * m + cb + 0, m);
        gb3 = CoopMatrix::<f16, 16, B>::load_rows(b, (kn + 16) * m + cb + 16, m);
        let a0 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 0) * 40 + 0, 40);
        let a1 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 16) * 40 + 0, 40);
        let a2 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 32) * 40 + 0, 40);
        let a3 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 48) * 40 + 0, 40);
        let b0 = CoopMatrix::<f16, 16, B>::load_rows(sb, 0 + bc + 0, 264);
        let b1 = CoopMatrix::<f16, 16, B>::load_rows(sb, 0 + bc + 16, 264);
        let b2 = CoopMatrix::<f16, 16, B>::load_rows(sb, 0 + bc + 32, 264);
        let b3 = CoopMatrix::<f16, 16, B>::load_rows(sb, 0 + bc + 48, 264);
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
        let a0 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 0) * 40 + 16, 40);
        let a1 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 16) * 40 + 16, 40);
        let a2 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 32) * 40 + 16, 40);
        let a3 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 48) * 40 + 16, 40);
        let b0 = CoopMatrix::<f16, 16, B>::load_rows(sb, 4224 + bc + 0, 264);
        let b1 = CoopMatrix::<f16, 16, B>::load_rows(sb, 4224 + bc + 16, 264);
        let b2 = CoopMatrix::<f16, 16, B>::load_rows(sb, 4224 + bc + 32, 264);
        let b3 = CoopMatrix::<f16, 16, B>::load_rows(sb, 4224 + bc + 48, 264);
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

/// The inputs, row-major m×m: multiples of 1/4 from -1.5 to 1.5, exact in f16.
pub(super) fn inputs(m: usize) -> (Vec<f16>, Vec<f16>) {
    let a = (0..m * m)
        .map(|i| f16::from_f32(((i * 7) % 13) as f32 * 0.25 - 1.5))
        .collect();
    let b = (0..m * m)
        .map(|i| f16::from_f32(((i * 5) % 11) as f32 * 0.25 - 1.25))
        .collect();
    (a, b)
}

/// Element `(r, col)` of the f32 host product of the m×m matrices `a` and `b`, summed along
/// `k` in order: what every f16 product is checked against (exact for [`inputs`]).
pub(super) fn host_at(m: usize, a: &[f16], b: &[f16], r: usize, col: usize) -> f32 {
    (0..m)
        .map(|k| a[r * m + k].to_f32() * b[k * m + col].to_f32())
        .sum()
}

/// Asserts that `got` equals the f32 host product everywhere (the CPU backend's tests of
/// the f16 kernels); `what` starts each failure's message.
#[cfg(test)]
pub(super) fn assert_host_product(m: usize, a: &[f16], b: &[f16], got: &[f32], what: &str) {
    for r in 0..m {
        for col in 0..m {
            assert_eq!(
                got[r * m + col],
                host_at(m, a, b, r, col),
                "{what}c[{r}][{col}]"
            );
        }
    }
}

/// Whether both sides agree everywhere and equal the f32 host reference at sampled elements.
pub(super) fn verify(m: usize, a: &[f16], b: &[f16], got: &[f32], raw: &[f32]) -> bool {
    let sample = [
        (0, 0),
        (1, m - 1),
        (m / 2, m / 3),
        (m - 1, 0),
        (m - 1, m - 1),
        (m / 3, m / 2),
    ];
    got == raw
        && sample
            .iter()
            .all(|&(r, col)| got[r * m + col] == host_at(m, a, b, r, col))
}

/// The 16×16×16 f16·f16+f32 shape, or `None` (with a message) on a device without it.
pub(super) fn has_shape(dev: &sarek::Device, what: &str) -> bool {
    let shape = sarek::abi::CoopShape {
        size: 16,
        ab: Some(sarek::abi::CoopScalar::F16),
        c: Some(sarek::abi::CoopScalar::F32),
    };
    let has = dev.cooperative_matrix_shapes().contains(&shape);
    if !has {
        eprintln!(
            "{what}: skipped, {} has no cooperative matrices of {shape}",
            dev.name()
        );
    }
    has
}

/// The f16 product at 4096² (1024² and 2048² too), f32 accumulation: `matmul_f16_q4p2`
/// (`super::coop_q4`, 128×128 blocks) against `wgsl/matmul_f16_q4p2.wgsl`.
/// `SAREK_BENCH_F16_ROW` measures another pair in the same place: `p2` (the row before,
/// `matmul_f16_vec_p2` against `wgsl/matmul_f16_vec_p2.wgsl`, 128×256 blocks), `staged` (the
/// one before it, `matmul_f16_staged` against `wgsl/matmul_f16_staged.wgsl`), `vec`
/// (`matmul_f16_vec`), `e`, `p2e`.
pub fn matmul_f16(b: &Bench) -> Result<Vec<Measured>> {
    let ctx = b.ctx;
    let dev = &ctx.dev;
    if !has_shape(dev, "matmul_f16") {
        return Ok(Vec::new());
    }
    // The kernel measured: the row's, or another pair in the same place (an experiment).
    let which = std::env::var("SAREK_BENCH_F16_ROW").unwrap_or_default();
    let sizes: &[usize] = if b.quick { &[256] } else { &[1024, 2048, 4096] };
    let mut rows = Vec::new();
    for &m in sizes {
        let (av, bv) = inputs(m);
        let (a, bm) = (dev.upload(&av)?, dev.upload(&bv)?);
        let a4 = dev.upload::<F16Vec4>(bytemuck::cast_slice(&av))?;
        let b4 = dev.upload::<F16Vec4>(bytemuck::cast_slice(&bv))?;
        let mut c = dev.zeros::<f32>(m * m)?;
        // 128×128 blocks for the row, 128×256 for the others
        let cols = if matches!(which.as_str(), "p2" | "staged" | "e" | "vec" | "p2e") {
            256
        } else {
            128
        };
        let g = [(m / cols) as u32, (m / 128) as u32, 1];
        let grid = Grid::groups(g);
        let launch = |c: &mut Buffer<f32>| {
            match which.as_str() {
                "staged" => matmul_f16_staged.launch(dev, grid, &a, &bm, c, m as u32),
                "e" => matmul_f16_vec_e.launch(dev, grid, &a4, &b4, c, m as u32),
                "vec" => matmul_f16_vec.launch(dev, grid, &a4, &b4, c, m as u32),
                "p2e" => matmul_f16_vec_p2e.launch(dev, grid, &a4, &b4, c, m as u32),
                "p2" => matmul_f16_vec_p2.launch(dev, grid, &a4, &b4, c, m as u32),
                _ => matmul_f16_q4p2.launch(dev, grid, &a4, &b4, c, m as u32),
            }
            .expect("launch")
        };
        let first = first_launch(|| launch(&mut c));
        let got = c.read()?;
        let ra = storage(ctx, bytemuck::cast_slice(&av));
        let rbm = storage(ctx, bytemuck::cast_slice(&bv));
        let rc = storage(ctx, &vec![0u8; m * m * 4]);
        let params = ctx.uniform(bytemuck::cast_slice(&[m as u32]));
        let p = ctx.pipeline(match which.as_str() {
            "staged" => include_str!("../wgsl/matmul_f16_staged.wgsl"),
            "e" => include_str!("../wgsl/experiments/matmul_f16_vec_e.wgsl"),
            "vec" => include_str!("../wgsl/matmul_f16_vec.wgsl"),
            "p2e" => include_str!("../wgsl/experiments/matmul_f16_vec_p2e.wgsl"),
            "p2" => include_str!("../wgsl/matmul_f16_vec_p2.wgsl"),
            _ => include_str!("../wgsl/matmul_f16_q4p2.wgsl"),
        });
        let bg = ctx.bind(&p, &[&ra, &rbm, &rc, &params]);
        ctx.time_passes(&[(&p, &bg, g)]);
        let raw: Vec<f32> = read(ctx, &rc);
        let verified = verify(m, &av, &bv, &got, &raw);
        let (sarek, wgsl) = b
            .timer
            .compare_one(|| vec![launch(&mut c)], &[(&p, &bg, g)]);
        rows.push(Measured {
            size: format!("{m}²"),
            work: Work::Flops(2.0 * (m as f64).powi(3)),
            sarek,
            wgsl,
            wgsl_vec4: None,
            verified,
            first_launch: first,
        });
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::benches::coop_variants::{matmul_f16_staged_128, matmul_f16_staged_threads};

    /// The staged kernels on the CPU backend (which emulates cooperative matrices) equal the
    /// f32 host product everywhere (the row's `matmul_f16_vec` reading its matrices from
    /// workgroup arrays of `F16Vec4`, too), over two blocks (one for the 128×256 block's columns) and
    /// eight steps along `k`, so both halves of a double buffer and every subgroup's part are
    /// used.
    #[test]
    fn the_staged_products_match_the_host() {
        let m = 256;
        let dev = sarek::Device::cpu();
        let (av, bv) = inputs(m);
        let a = dev.upload(&av).unwrap();
        let bm = dev.upload(&bv).unwrap();
        let grid = Grid::groups([2, 2, 1]);
        let a4 = dev.upload::<F16Vec4>(bytemuck::cast_slice(&av)).unwrap();
        let b4 = dev.upload::<F16Vec4>(bytemuck::cast_slice(&bv)).unwrap();
        for kernel in 0..4 {
            let mut c = dev.zeros::<f32>(m * m).unwrap();
            let launch = match kernel {
                3 => {
                    matmul_f16_vec.launch(&dev, Grid::groups([1, 2, 1]), &a4, &b4, &mut c, m as u32)
                }
                0 => matmul_f16_staged.launch(
                    &dev,
                    Grid::groups([1, 2, 1]),
                    &a,
                    &bm,
                    &mut c,
                    m as u32,
                ),
                1 => matmul_f16_staged_128.launch(&dev, grid, &a, &bm, &mut c, m as u32),
                _ => matmul_f16_staged_threads.launch(&dev, grid, &a, &bm, &mut c, m as u32),
            };
            launch.unwrap().wait().unwrap();
            let got = c.read().unwrap();
            assert_host_product(m, &av, &bv, &got, &format!("kernel {kernel}: "));
        }
    }
}
