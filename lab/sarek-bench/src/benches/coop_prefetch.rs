//! The row's shape (`super::coop::matmul_f16_vec`: a 128×256 block, eight subgroups of 64×64,
//! steps of 32 along `k`, one buffer of `F16Vec4` words in workgroup memory) with the global
//! loads issued earlier: before the first barrier of a step instead of after it
//! (`matmul_f16_vec_e`), and two steps ahead in two register sets, the loop unrolled by two
//! (`matmul_f16_vec_p2`, the suite's row until f16mm4's `super::coop_q4`, and
//! `matmul_f16_vec_p2e` with both). Measured as the suite's row (`SAREK_BENCH_F16_ROW=p2|e|p2e
//! --only matmul_f16` for the others), each against its twin written from the same plan
//! (`wgsl/matmul_f16_vec_p2.wgsl`, the others in `wgsl/experiments/`; BENCHMARKS.md,
//! "f16 matrix product at 212 TFLOP/s"). Subgroup `t / 32` takes part `(t / 128, t / 32 % 4)` of the block, which
//! assumes subgroups of 32 consecutive threads (as on NVIDIA; on the CPU backend's other
//! subgroup sizes each emulated subgroup computes the part of its `t / 32`, so the result is
//! the same). `m` is a multiple of 256 (of 64 along `k` for the unrolled loops).

use sarek::coop::{A, B, C}; // the roles, for the plain-Rust body
use sarek::F16Vec4;

/// The suite's f16 row until f16mm4 (`SAREK_BENCH_F16_ROW=p2` now): `matmul_f16_vec` with
/// each step's words loaded two steps ahead (two register sets, the loop unrolled by two),
/// after the first barrier, so a load has two steps of products to arrive in; twin
/// `wgsl/matmul_f16_vec_p2.wgsl`.
#[sarek::kernel(workgroup_size = [256], limits = "device")]
pub fn matmul_f16_vec_p2(a: &[F16Vec4], b: &[F16Vec4], c: &mut [f32], m: u32) {
    let m = m as usize;
    let row0 = block_idx_y() * 128;
    let col0 = block_idx_x() * 256;
    let t = thread_idx_x();
    let sg = t / 32;
    let ar = (sg / 4) * 64; // this subgroup's rows in the block
    let bc = (sg % 4) * 16; // and columns, in words
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
    // Thread t copies word t % 8 of rows t / 8 + 32·j of the tile of `a`, and word t % 64
    // of rows t / 64 + 4·j of the tile of `b`; `q` words a matrix row; `pa`, `pb` its
    // words in the workgroup arrays.
    let q = m / 4;
    let la = (row0 + t / 8) * q + t % 8;
    let pa = (t / 8) * 10 + t % 8;
    let lb = (t / 64) * q + col0 / 4 + t % 64;
    let pb = (t / 64) * 66 + t % 64;
    let mut ra00 = a[la + (0) / 4 + 0 * q];
    let mut ra01 = a[la + (0) / 4 + 32 * q];
    let mut ra02 = a[la + (0) / 4 + 64 * q];
    let mut ra03 = a[la + (0) / 4 + 96 * q];
    let mut rb00 = b[lb + (0 + 0) * q];
    let mut rb01 = b[lb + (0 + 4) * q];
    let mut rb02 = b[lb + (0 + 8) * q];
    let mut rb03 = b[lb + (0 + 12) * q];
    let mut rb04 = b[lb + (0 + 16) * q];
    let mut rb05 = b[lb + (0 + 20) * q];
    let mut rb06 = b[lb + (0 + 24) * q];
    let mut rb07 = b[lb + (0 + 28) * q];
    let mut ra10 = a[la + (32.min(m - 32)) / 4 + 0 * q];
    let mut ra11 = a[la + (32.min(m - 32)) / 4 + 32 * q];
    let mut ra12 = a[la + (32.min(m - 32)) / 4 + 64 * q];
    let mut ra13 = a[la + (32.min(m - 32)) / 4 + 96 * q];
    let mut rb10 = b[lb + (32.min(m - 32) + 0) * q];
    let mut rb11 = b[lb + (32.min(m - 32) + 4) * q];
    let mut rb12 = b[lb + (32.min(m - 32) + 8) * q];
    let mut rb13 = b[lb + (32.min(m - 32) + 12) * q];
    let mut rb14 = b[lb + (32.min(m - 32) + 16) * q];
    let mut rb15 = b[lb + (32.min(m - 32) + 20) * q];
    let mut rb16 = b[lb + (32.min(m - 32) + 24) * q];
    let mut rb17 = b[lb + (32.min(m - 32) + 28) * q];
    let mut k = 0;
    while k < m {
        {
            sa[pa + 0] = ra00;
            sa[pa + 320] = ra01;
            sa[pa + 640] = ra02;
            sa[pa + 960] = ra03;
            sb[pb + 0] = rb00;
            sb[pb + 264] = rb01;
            sb[pb + 528] = rb02;
            sb[pb + 792] = rb03;
            sb[pb + 1056] = rb04;
            sb[pb + 1320] = rb05;
            sb[pb + 1584] = rb06;
            sb[pb + 1848] = rb07;
            block_barrier();
            let kn = (k + 64).min(m - 32);
            ra00 = a[la + kn / 4 + 0 * q];
            ra01 = a[la + kn / 4 + 32 * q];
            ra02 = a[la + kn / 4 + 64 * q];
            ra03 = a[la + kn / 4 + 96 * q];
            rb00 = b[lb + (kn + 0) * q];
            rb01 = b[lb + (kn + 4) * q];
            rb02 = b[lb + (kn + 8) * q];
            rb03 = b[lb + (kn + 12) * q];
            rb04 = b[lb + (kn + 16) * q];
            rb05 = b[lb + (kn + 20) * q];
            rb06 = b[lb + (kn + 24) * q];
            rb07 = b[lb + (kn + 28) * q];
            let a0 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 0) * 10 + 0, 10);
            let a1 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 16) * 10 + 0, 10);
            let a2 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 32) * 10 + 0, 10);
            let a3 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 48) * 10 + 0, 10);
            let b0 = CoopMatrix::<f16, 16, B>::load_rows(sb, 0 + bc + 0, 66);
            let b1 = CoopMatrix::<f16, 16, B>::load_rows(sb, 0 + bc + 4, 66);
            let b2 = CoopMatrix::<f16, 16, B>::load_rows(sb, 0 + bc + 8, 66);
            let b3 = CoopMatrix::<f16, 16, B>::load_rows(sb, 0 + bc + 12, 66);
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
            let a0 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 0) * 10 + 4, 10);
            let a1 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 16) * 10 + 4, 10);
            let a2 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 32) * 10 + 4, 10);
            let a3 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 48) * 10 + 4, 10);
            let b0 = CoopMatrix::<f16, 16, B>::load_rows(sb, 1056 + bc + 0, 66);
            let b1 = CoopMatrix::<f16, 16, B>::load_rows(sb, 1056 + bc + 4, 66);
            let b2 = CoopMatrix::<f16, 16, B>::load_rows(sb, 1056 + bc + 8, 66);
            let b3 = CoopMatrix::<f16, 16, B>::load_rows(sb, 1056 + bc + 12, 66);
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
        }
        {
            sa[pa + 0] = ra10;
            sa[pa + 320] = ra11;
            sa[pa + 640] = ra12;
            sa[pa + 960] = ra13;
            sb[pb + 0] = rb10;
            sb[pb + 264] = rb11;
            sb[pb + 528] = rb12;
            sb[pb + 792] = rb13;
            sb[pb + 1056] = rb14;
            sb[pb + 1320] = rb15;
            sb[pb + 1584] = rb16;
            sb[pb + 1848] = rb17;
            block_barrier();
            let kn = ((k + 32) + 64).min(m - 32);
            ra10 = a[la + kn / 4 + 0 * q];
            ra11 = a[la + kn / 4 + 32 * q];
            ra12 = a[la + kn / 4 + 64 * q];
            ra13 = a[la + kn / 4 + 96 * q];
            rb10 = b[lb + (kn + 0) * q];
            rb11 = b[lb + (kn + 4) * q];
            rb12 = b[lb + (kn + 8) * q];
            rb13 = b[lb + (kn + 12) * q];
            rb14 = b[lb + (kn + 16) * q];
            rb15 = b[lb + (kn + 20) * q];
            rb16 = b[lb + (kn + 24) * q];
            rb17 = b[lb + (kn + 28) * q];
            let a0 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 0) * 10 + 0, 10);
            let a1 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 16) * 10 + 0, 10);
            let a2 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 32) * 10 + 0, 10);
            let a3 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 48) * 10 + 0, 10);
            let b0 = CoopMatrix::<f16, 16, B>::load_rows(sb, 0 + bc + 0, 66);
            let b1 = CoopMatrix::<f16, 16, B>::load_rows(sb, 0 + bc + 4, 66);
            let b2 = CoopMatrix::<f16, 16, B>::load_rows(sb, 0 + bc + 8, 66);
            let b3 = CoopMatrix::<f16, 16, B>::load_rows(sb, 0 + bc + 12, 66);
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
            let a0 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 0) * 10 + 4, 10);
            let a1 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 16) * 10 + 4, 10);
            let a2 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 32) * 10 + 4, 10);
            let a3 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 48) * 10 + 4, 10);
            let b0 = CoopMatrix::<f16, 16, B>::load_rows(sb, 1056 + bc + 0, 66);
            let b1 = CoopMatrix::<f16, 16, B>::load_rows(sb, 1056 + bc + 4, 66);
            let b2 = CoopMatrix::<f16, 16, B>::load_rows(sb, 1056 + bc + 8, 66);
            let b3 = CoopMatrix::<f16, 16, B>::load_rows(sb, 1056 + bc + 12, 66);
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
        }
        k += 64;
    }
    c00.store_rows(c, (row0 + ar + 0) * m + col0 + bc * 4 + 0, m);
    c01.store_rows(c, (row0 + ar + 0) * m + col0 + bc * 4 + 16, m);
    c02.store_rows(c, (row0 + ar + 0) * m + col0 + bc * 4 + 32, m);
    c03.store_rows(c, (row0 + ar + 0) * m + col0 + bc * 4 + 48, m);
    c10.store_rows(c, (row0 + ar + 16) * m + col0 + bc * 4 + 0, m);
    c11.store_rows(c, (row0 + ar + 16) * m + col0 + bc * 4 + 16, m);
    c12.store_rows(c, (row0 + ar + 16) * m + col0 + bc * 4 + 32, m);
    c13.store_rows(c, (row0 + ar + 16) * m + col0 + bc * 4 + 48, m);
    c20.store_rows(c, (row0 + ar + 32) * m + col0 + bc * 4 + 0, m);
    c21.store_rows(c, (row0 + ar + 32) * m + col0 + bc * 4 + 16, m);
    c22.store_rows(c, (row0 + ar + 32) * m + col0 + bc * 4 + 32, m);
    c23.store_rows(c, (row0 + ar + 32) * m + col0 + bc * 4 + 48, m);
    c30.store_rows(c, (row0 + ar + 48) * m + col0 + bc * 4 + 0, m);
    c31.store_rows(c, (row0 + ar + 48) * m + col0 + bc * 4 + 16, m);
    c32.store_rows(c, (row0 + ar + 48) * m + col0 + bc * 4 + 32, m);
    c33.store_rows(c, (row0 + ar + 48) * m + col0 + bc * 4 + 48, m);
}

/// `matmul_f16_vec_p2` with the loads issued before the first barrier; twin
/// `wgsl/experiments/matmul_f16_vec_p2e.wgsl`.
#[sarek::kernel(workgroup_size = [256], limits = "device")]
pub fn matmul_f16_vec_p2e(a: &[F16Vec4], b: &[F16Vec4], c: &mut [f32], m: u32) {
    let m = m as usize;
    let row0 = block_idx_y() * 128;
    let col0 = block_idx_x() * 256;
    let t = thread_idx_x();
    let sg = t / 32;
    let ar = (sg / 4) * 64; // this subgroup's rows in the block
    let bc = (sg % 4) * 16; // and columns, in words
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
    // Thread t copies word t % 8 of rows t / 8 + 32·j of the tile of `a`, and word t % 64
    // of rows t / 64 + 4·j of the tile of `b`; `q` words a matrix row; `pa`, `pb` its
    // words in the workgroup arrays.
    let q = m / 4;
    let la = (row0 + t / 8) * q + t % 8;
    let pa = (t / 8) * 10 + t % 8;
    let lb = (t / 64) * q + col0 / 4 + t % 64;
    let pb = (t / 64) * 66 + t % 64;
    let mut ra00 = a[la + (0) / 4 + 0 * q];
    let mut ra01 = a[la + (0) / 4 + 32 * q];
    let mut ra02 = a[la + (0) / 4 + 64 * q];
    let mut ra03 = a[la + (0) / 4 + 96 * q];
    let mut rb00 = b[lb + (0 + 0) * q];
    let mut rb01 = b[lb + (0 + 4) * q];
    let mut rb02 = b[lb + (0 + 8) * q];
    let mut rb03 = b[lb + (0 + 12) * q];
    let mut rb04 = b[lb + (0 + 16) * q];
    let mut rb05 = b[lb + (0 + 20) * q];
    let mut rb06 = b[lb + (0 + 24) * q];
    let mut rb07 = b[lb + (0 + 28) * q];
    let mut ra10 = a[la + (32.min(m - 32)) / 4 + 0 * q];
    let mut ra11 = a[la + (32.min(m - 32)) / 4 + 32 * q];
    let mut ra12 = a[la + (32.min(m - 32)) / 4 + 64 * q];
    let mut ra13 = a[la + (32.min(m - 32)) / 4 + 96 * q];
    let mut rb10 = b[lb + (32.min(m - 32) + 0) * q];
    let mut rb11 = b[lb + (32.min(m - 32) + 4) * q];
    let mut rb12 = b[lb + (32.min(m - 32) + 8) * q];
    let mut rb13 = b[lb + (32.min(m - 32) + 12) * q];
    let mut rb14 = b[lb + (32.min(m - 32) + 16) * q];
    let mut rb15 = b[lb + (32.min(m - 32) + 20) * q];
    let mut rb16 = b[lb + (32.min(m - 32) + 24) * q];
    let mut rb17 = b[lb + (32.min(m - 32) + 28) * q];
    let mut k = 0;
    while k < m {
        {
            sa[pa + 0] = ra00;
            sa[pa + 320] = ra01;
            sa[pa + 640] = ra02;
            sa[pa + 960] = ra03;
            sb[pb + 0] = rb00;
            sb[pb + 264] = rb01;
            sb[pb + 528] = rb02;
            sb[pb + 792] = rb03;
            sb[pb + 1056] = rb04;
            sb[pb + 1320] = rb05;
            sb[pb + 1584] = rb06;
            sb[pb + 1848] = rb07;
            let kn = (k + 64).min(m - 32);
            ra00 = a[la + kn / 4 + 0 * q];
            ra01 = a[la + kn / 4 + 32 * q];
            ra02 = a[la + kn / 4 + 64 * q];
            ra03 = a[la + kn / 4 + 96 * q];
            rb00 = b[lb + (kn + 0) * q];
            rb01 = b[lb + (kn + 4) * q];
            rb02 = b[lb + (kn + 8) * q];
            rb03 = b[lb + (kn + 12) * q];
            rb04 = b[lb + (kn + 16) * q];
            rb05 = b[lb + (kn + 20) * q];
            rb06 = b[lb + (kn + 24) * q];
            rb07 = b[lb + (kn + 28) * q];
            block_barrier();
            let a0 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 0) * 10 + 0, 10);
            let a1 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 16) * 10 + 0, 10);
            let a2 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 32) * 10 + 0, 10);
            let a3 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 48) * 10 + 0, 10);
            let b0 = CoopMatrix::<f16, 16, B>::load_rows(sb, 0 + bc + 0, 66);
            let b1 = CoopMatrix::<f16, 16, B>::load_rows(sb, 0 + bc + 4, 66);
            let b2 = CoopMatrix::<f16, 16, B>::load_rows(sb, 0 + bc + 8, 66);
            let b3 = CoopMatrix::<f16, 16, B>::load_rows(sb, 0 + bc + 12, 66);
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
            let a0 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 0) * 10 + 4, 10);
            let a1 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 16) * 10 + 4, 10);
            let a2 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 32) * 10 + 4, 10);
            let a3 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 48) * 10 + 4, 10);
            let b0 = CoopMatrix::<f16, 16, B>::load_rows(sb, 1056 + bc + 0, 66);
            let b1 = CoopMatrix::<f16, 16, B>::load_rows(sb, 1056 + bc + 4, 66);
            let b2 = CoopMatrix::<f16, 16, B>::load_rows(sb, 1056 + bc + 8, 66);
            let b3 = CoopMatrix::<f16, 16, B>::load_rows(sb, 1056 + bc + 12, 66);
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
        }
        {
            sa[pa + 0] = ra10;
            sa[pa + 320] = ra11;
            sa[pa + 640] = ra12;
            sa[pa + 960] = ra13;
            sb[pb + 0] = rb10;
            sb[pb + 264] = rb11;
            sb[pb + 528] = rb12;
            sb[pb + 792] = rb13;
            sb[pb + 1056] = rb14;
            sb[pb + 1320] = rb15;
            sb[pb + 1584] = rb16;
            sb[pb + 1848] = rb17;
            let kn = ((k + 32) + 64).min(m - 32);
            ra10 = a[la + kn / 4 + 0 * q];
            ra11 = a[la + kn / 4 + 32 * q];
            ra12 = a[la + kn / 4 + 64 * q];
            ra13 = a[la + kn / 4 + 96 * q];
            rb10 = b[lb + (kn + 0) * q];
            rb11 = b[lb + (kn + 4) * q];
            rb12 = b[lb + (kn + 8) * q];
            rb13 = b[lb + (kn + 12) * q];
            rb14 = b[lb + (kn + 16) * q];
            rb15 = b[lb + (kn + 20) * q];
            rb16 = b[lb + (kn + 24) * q];
            rb17 = b[lb + (kn + 28) * q];
            block_barrier();
            let a0 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 0) * 10 + 0, 10);
            let a1 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 16) * 10 + 0, 10);
            let a2 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 32) * 10 + 0, 10);
            let a3 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 48) * 10 + 0, 10);
            let b0 = CoopMatrix::<f16, 16, B>::load_rows(sb, 0 + bc + 0, 66);
            let b1 = CoopMatrix::<f16, 16, B>::load_rows(sb, 0 + bc + 4, 66);
            let b2 = CoopMatrix::<f16, 16, B>::load_rows(sb, 0 + bc + 8, 66);
            let b3 = CoopMatrix::<f16, 16, B>::load_rows(sb, 0 + bc + 12, 66);
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
            let a0 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 0) * 10 + 4, 10);
            let a1 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 16) * 10 + 4, 10);
            let a2 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 32) * 10 + 4, 10);
            let a3 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 48) * 10 + 4, 10);
            let b0 = CoopMatrix::<f16, 16, B>::load_rows(sb, 1056 + bc + 0, 66);
            let b1 = CoopMatrix::<f16, 16, B>::load_rows(sb, 1056 + bc + 4, 66);
            let b2 = CoopMatrix::<f16, 16, B>::load_rows(sb, 1056 + bc + 8, 66);
            let b3 = CoopMatrix::<f16, 16, B>::load_rows(sb, 1056 + bc + 12, 66);
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
        }
        k += 64;
    }
    c00.store_rows(c, (row0 + ar + 0) * m + col0 + bc * 4 + 0, m);
    c01.store_rows(c, (row0 + ar + 0) * m + col0 + bc * 4 + 16, m);
    c02.store_rows(c, (row0 + ar + 0) * m + col0 + bc * 4 + 32, m);
    c03.store_rows(c, (row0 + ar + 0) * m + col0 + bc * 4 + 48, m);
    c10.store_rows(c, (row0 + ar + 16) * m + col0 + bc * 4 + 0, m);
    c11.store_rows(c, (row0 + ar + 16) * m + col0 + bc * 4 + 16, m);
    c12.store_rows(c, (row0 + ar + 16) * m + col0 + bc * 4 + 32, m);
    c13.store_rows(c, (row0 + ar + 16) * m + col0 + bc * 4 + 48, m);
    c20.store_rows(c, (row0 + ar + 32) * m + col0 + bc * 4 + 0, m);
    c21.store_rows(c, (row0 + ar + 32) * m + col0 + bc * 4 + 16, m);
    c22.store_rows(c, (row0 + ar + 32) * m + col0 + bc * 4 + 32, m);
    c23.store_rows(c, (row0 + ar + 32) * m + col0 + bc * 4 + 48, m);
    c30.store_rows(c, (row0 + ar + 48) * m + col0 + bc * 4 + 0, m);
    c31.store_rows(c, (row0 + ar + 48) * m + col0 + bc * 4 + 16, m);
    c32.store_rows(c, (row0 + ar + 48) * m + col0 + bc * 4 + 32, m);
    c33.store_rows(c, (row0 + ar + 48) * m + col0 + bc * 4 + 48, m);
}

/// `matmul_f16_vec` with the next step's loads issued before the first barrier (right after
/// the stores that free their registers); twin `wgsl/experiments/matmul_f16_vec_e.wgsl`.
#[sarek::kernel(workgroup_size = [256], limits = "device")]
pub fn matmul_f16_vec_e(a: &[F16Vec4], b: &[F16Vec4], c: &mut [f32], m: u32) {
    let m = m as usize;
    let row0 = block_idx_y() * 128;
    let col0 = block_idx_x() * 256;
    let t = thread_idx_x();
    let sg = t / 32;
    let ar = (sg / 4) * 64; // this subgroup's rows in the block
    let bc = (sg % 4) * 16; // and columns, in words
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
    // Thread t copies word t % 8 of rows t / 8 + 32·j of the tile of `a`, and word t % 64
    // of rows t / 64 + 4·j of the tile of `b`; `q` words a matrix row; `pa`, `pb` its
    // words in the workgroup arrays.
    let q = m / 4;
    let la = (row0 + t / 8) * q + t % 8;
    let pa = (t / 8) * 10 + t % 8;
    let lb = (t / 64) * q + col0 / 4 + t % 64;
    let pb = (t / 64) * 66 + t % 64;
    let mut ra00 = a[la + (0) / 4 + 0 * q];
    let mut ra01 = a[la + (0) / 4 + 32 * q];
    let mut ra02 = a[la + (0) / 4 + 64 * q];
    let mut ra03 = a[la + (0) / 4 + 96 * q];
    let mut rb00 = b[lb + (0 + 0) * q];
    let mut rb01 = b[lb + (0 + 4) * q];
    let mut rb02 = b[lb + (0 + 8) * q];
    let mut rb03 = b[lb + (0 + 12) * q];
    let mut rb04 = b[lb + (0 + 16) * q];
    let mut rb05 = b[lb + (0 + 20) * q];
    let mut rb06 = b[lb + (0 + 24) * q];
    let mut rb07 = b[lb + (0 + 28) * q];
    let mut k = 0;
    while k < m {
        sa[pa + 0] = ra00;
        sa[pa + 320] = ra01;
        sa[pa + 640] = ra02;
        sa[pa + 960] = ra03;
        sb[pb + 0] = rb00;
        sb[pb + 264] = rb01;
        sb[pb + 528] = rb02;
        sb[pb + 792] = rb03;
        sb[pb + 1056] = rb04;
        sb[pb + 1320] = rb05;
        sb[pb + 1584] = rb06;
        sb[pb + 1848] = rb07;
        let kn = (k + 32).min(m - 32);
        ra00 = a[la + kn / 4 + 0 * q];
        ra01 = a[la + kn / 4 + 32 * q];
        ra02 = a[la + kn / 4 + 64 * q];
        ra03 = a[la + kn / 4 + 96 * q];
        rb00 = b[lb + (kn + 0) * q];
        rb01 = b[lb + (kn + 4) * q];
        rb02 = b[lb + (kn + 8) * q];
        rb03 = b[lb + (kn + 12) * q];
        rb04 = b[lb + (kn + 16) * q];
        rb05 = b[lb + (kn + 20) * q];
        rb06 = b[lb + (kn + 24) * q];
        rb07 = b[lb + (kn + 28) * q];
        block_barrier();
        let a0 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 0) * 10 + 0, 10);
        let a1 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 16) * 10 + 0, 10);
        let a2 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 32) * 10 + 0, 10);
        let a3 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 48) * 10 + 0, 10);
        let b0 = CoopMatrix::<f16, 16, B>::load_rows(sb, 0 + bc + 0, 66);
        let b1 = CoopMatrix::<f16, 16, B>::load_rows(sb, 0 + bc + 4, 66);
        let b2 = CoopMatrix::<f16, 16, B>::load_rows(sb, 0 + bc + 8, 66);
        let b3 = CoopMatrix::<f16, 16, B>::load_rows(sb, 0 + bc + 12, 66);
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
        let a0 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 0) * 10 + 4, 10);
        let a1 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 16) * 10 + 4, 10);
        let a2 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 32) * 10 + 4, 10);
        let a3 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 48) * 10 + 4, 10);
        let b0 = CoopMatrix::<f16, 16, B>::load_rows(sb, 1056 + bc + 0, 66);
        let b1 = CoopMatrix::<f16, 16, B>::load_rows(sb, 1056 + bc + 4, 66);
        let b2 = CoopMatrix::<f16, 16, B>::load_rows(sb, 1056 + bc + 8, 66);
        let b3 = CoopMatrix::<f16, 16, B>::load_rows(sb, 1056 + bc + 12, 66);
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
    c00.store_rows(c, (row0 + ar + 0) * m + col0 + bc * 4 + 0, m);
    c01.store_rows(c, (row0 + ar + 0) * m + col0 + bc * 4 + 16, m);
    c02.store_rows(c, (row0 + ar + 0) * m + col0 + bc * 4 + 32, m);
    c03.store_rows(c, (row0 + ar + 0) * m + col0 + bc * 4 + 48, m);
    c10.store_rows(c, (row0 + ar + 16) * m + col0 + bc * 4 + 0, m);
    c11.store_rows(c, (row0 + ar + 16) * m + col0 + bc * 4 + 16, m);
    c12.store_rows(c, (row0 + ar + 16) * m + col0 + bc * 4 + 32, m);
    c13.store_rows(c, (row0 + ar + 16) * m + col0 + bc * 4 + 48, m);
    c20.store_rows(c, (row0 + ar + 32) * m + col0 + bc * 4 + 0, m);
    c21.store_rows(c, (row0 + ar + 32) * m + col0 + bc * 4 + 16, m);
    c22.store_rows(c, (row0 + ar + 32) * m + col0 + bc * 4 + 32, m);
    c23.store_rows(c, (row0 + ar + 32) * m + col0 + bc * 4 + 48, m);
    c30.store_rows(c, (row0 + ar + 48) * m + col0 + bc * 4 + 0, m);
    c31.store_rows(c, (row0 + ar + 48) * m + col0 + bc * 4 + 16, m);
    c32.store_rows(c, (row0 + ar + 48) * m + col0 + bc * 4 + 32, m);
    c33.store_rows(c, (row0 + ar + 48) * m + col0 + bc * 4 + 48, m);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::benches::coop::{assert_host_product, inputs};
    use sarek::Grid;

    /// The three kernels on the CPU backend (which emulates cooperative matrices) equal the
    /// f32 host product everywhere, over two blocks of 128 rows and 8 steps along `k` (both
    /// register sets, the clamped reloads of the last steps).
    #[test]
    fn the_prefetching_products_match_the_host() {
        let m = 256;
        let dev = sarek::Device::cpu();
        let (av, bv) = inputs(m);
        let a = dev.upload::<F16Vec4>(bytemuck::cast_slice(&av)).unwrap();
        let b = dev.upload::<F16Vec4>(bytemuck::cast_slice(&bv)).unwrap();
        let grid = Grid::groups([1, 2, 1]);
        for kernel in 0..3 {
            let mut c = dev.zeros::<f32>(m * m).unwrap();
            let launch = match kernel {
                0 => matmul_f16_vec_e.launch(&dev, grid, &a, &b, &mut c, m as u32),
                1 => matmul_f16_vec_p2.launch(&dev, grid, &a, &b, &mut c, m as u32),
                _ => matmul_f16_vec_p2e.launch(&dev, grid, &a, &b, &mut c, m as u32),
            };
            launch.unwrap().wait().unwrap();
            let got = c.read().unwrap();
            assert_host_product(m, &av, &bv, &got, &format!("kernel {kernel}: "));
        }
    }
}
