//! The suite's f16 row since f16mm4 (BENCHMARKS.md, "f16 matrix product: the 128×128 row"):
//! written, with its twin `wgsl/matmul_f16_q4p2.wgsl`, by
//! `tools/matmul_f16_prefetch_tail.py --row` from one plan (then `cargo fmt`); do not edit by
//! hand. Subgroup `t / 32` takes part `(t / 64, t / 32 % 2)` of the block, which assumes
//! subgroups of 32 consecutive threads (as on NVIDIA; on the CPU backend's other subgroup sizes
//! each emulated subgroup computes the part of its `t / 32`, so the result is the same). `m` is
//! a multiple of 128.

use sarek::coop::{A, B, C}; // the roles, for the plain-Rust body
use sarek::F16Vec4;

/// The suite's f16 row: a 128×128 block of `c` per 128 invocations (four subgroups of 32,
/// each a 64×64 part as 4×4 accumulators of 16×16), steps of 32 along `k`, one buffer of
/// `F16Vec4` words in workgroup memory (rows padded by two words), each step's words loaded
/// two steps ahead into two register sets (the loop unrolled by two), after the first
/// barrier; f16mm3's WGSL `q4p2` (BENCHMARKS.md, "f16 matrix product: the last untried
/// shapes") without its peeled tail. Twin `wgsl/matmul_f16_q4p2.wgsl`.
#[sarek::kernel(workgroup_size = [128], limits = "device")]
pub fn matmul_f16_q4p2(a: &[F16Vec4], b: &[F16Vec4], c: &mut [f32], m: u32) {
    let m = m as usize;
    let row0 = block_idx_y() * 128;
    let col0 = block_idx_x() * 128;
    let t = thread_idx_x();
    let sg = t / 32;
    // the tiles: 128 rows of 8 words (32 halves) padded to 10, and 32 rows of
    // 32 words (128 halves) padded to 34
    let ar = (sg / 2) * 64; // this subgroup's rows in the block
    let bc = (sg % 2) * 16; // and columns, in words
    let sa = shared::<[F16Vec4; 1280]>();
    let sb = shared::<[F16Vec4; 1088]>();
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
    // Thread t copies word t % 8 of rows t / 8 + 16·j of the tile of `a`, and word
    // t % 32 of rows t / 32 + 4·j of the tile of `b`; `q` words a matrix row; `pa`,
    // `pb` its words in the workgroup arrays.
    let q = m / 4;
    let la = (row0 + t / 8) * q + t % 8;
    let pa = (t / 8) * 10 + t % 8;
    let lb = (t / 32) * q + col0 / 4 + t % 32;
    let pb = (t / 32) * 34 + t % 32;
    let mut ra0_0 = a[la + (0) / 4 + 0 * q];
    let mut ra0_1 = a[la + (0) / 4 + 16 * q];
    let mut ra0_2 = a[la + (0) / 4 + 32 * q];
    let mut ra0_3 = a[la + (0) / 4 + 48 * q];
    let mut ra0_4 = a[la + (0) / 4 + 64 * q];
    let mut ra0_5 = a[la + (0) / 4 + 80 * q];
    let mut ra0_6 = a[la + (0) / 4 + 96 * q];
    let mut ra0_7 = a[la + (0) / 4 + 112 * q];
    let mut rb0_0 = b[lb + (0 + 0) * q];
    let mut rb0_1 = b[lb + (0 + 4) * q];
    let mut rb0_2 = b[lb + (0 + 8) * q];
    let mut rb0_3 = b[lb + (0 + 12) * q];
    let mut rb0_4 = b[lb + (0 + 16) * q];
    let mut rb0_5 = b[lb + (0 + 20) * q];
    let mut rb0_6 = b[lb + (0 + 24) * q];
    let mut rb0_7 = b[lb + (0 + 28) * q];
    let mut ra1_0 = a[la + (32.min(m - 32)) / 4 + 0 * q];
    let mut ra1_1 = a[la + (32.min(m - 32)) / 4 + 16 * q];
    let mut ra1_2 = a[la + (32.min(m - 32)) / 4 + 32 * q];
    let mut ra1_3 = a[la + (32.min(m - 32)) / 4 + 48 * q];
    let mut ra1_4 = a[la + (32.min(m - 32)) / 4 + 64 * q];
    let mut ra1_5 = a[la + (32.min(m - 32)) / 4 + 80 * q];
    let mut ra1_6 = a[la + (32.min(m - 32)) / 4 + 96 * q];
    let mut ra1_7 = a[la + (32.min(m - 32)) / 4 + 112 * q];
    let mut rb1_0 = b[lb + (32.min(m - 32) + 0) * q];
    let mut rb1_1 = b[lb + (32.min(m - 32) + 4) * q];
    let mut rb1_2 = b[lb + (32.min(m - 32) + 8) * q];
    let mut rb1_3 = b[lb + (32.min(m - 32) + 12) * q];
    let mut rb1_4 = b[lb + (32.min(m - 32) + 16) * q];
    let mut rb1_5 = b[lb + (32.min(m - 32) + 20) * q];
    let mut rb1_6 = b[lb + (32.min(m - 32) + 24) * q];
    let mut rb1_7 = b[lb + (32.min(m - 32) + 28) * q];
    let mut k = 0;
    while k < m {
        {
            sa[pa + 0] = ra0_0;
            sa[pa + 160] = ra0_1;
            sa[pa + 320] = ra0_2;
            sa[pa + 480] = ra0_3;
            sa[pa + 640] = ra0_4;
            sa[pa + 800] = ra0_5;
            sa[pa + 960] = ra0_6;
            sa[pa + 1120] = ra0_7;
            sb[pb + 0] = rb0_0;
            sb[pb + 136] = rb0_1;
            sb[pb + 272] = rb0_2;
            sb[pb + 408] = rb0_3;
            sb[pb + 544] = rb0_4;
            sb[pb + 680] = rb0_5;
            sb[pb + 816] = rb0_6;
            sb[pb + 952] = rb0_7;
            block_barrier();
            let kn = (k + 64).min(m - 32);
            ra0_0 = a[la + (kn) / 4 + 0 * q];
            ra0_1 = a[la + (kn) / 4 + 16 * q];
            ra0_2 = a[la + (kn) / 4 + 32 * q];
            ra0_3 = a[la + (kn) / 4 + 48 * q];
            ra0_4 = a[la + (kn) / 4 + 64 * q];
            ra0_5 = a[la + (kn) / 4 + 80 * q];
            ra0_6 = a[la + (kn) / 4 + 96 * q];
            ra0_7 = a[la + (kn) / 4 + 112 * q];
            rb0_0 = b[lb + (kn + 0) * q];
            rb0_1 = b[lb + (kn + 4) * q];
            rb0_2 = b[lb + (kn + 8) * q];
            rb0_3 = b[lb + (kn + 12) * q];
            rb0_4 = b[lb + (kn + 16) * q];
            rb0_5 = b[lb + (kn + 20) * q];
            rb0_6 = b[lb + (kn + 24) * q];
            rb0_7 = b[lb + (kn + 28) * q];
            let a0 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 0) * 10 + 0, 10);
            let a1 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 16) * 10 + 0, 10);
            let a2 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 32) * 10 + 0, 10);
            let a3 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 48) * 10 + 0, 10);
            let b0 = CoopMatrix::<f16, 16, B>::load_rows(sb, 0 + bc + 0, 34);
            let b1 = CoopMatrix::<f16, 16, B>::load_rows(sb, 0 + bc + 4, 34);
            let b2 = CoopMatrix::<f16, 16, B>::load_rows(sb, 0 + bc + 8, 34);
            let b3 = CoopMatrix::<f16, 16, B>::load_rows(sb, 0 + bc + 12, 34);
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
            let b0 = CoopMatrix::<f16, 16, B>::load_rows(sb, 544 + bc + 0, 34);
            let b1 = CoopMatrix::<f16, 16, B>::load_rows(sb, 544 + bc + 4, 34);
            let b2 = CoopMatrix::<f16, 16, B>::load_rows(sb, 544 + bc + 8, 34);
            let b3 = CoopMatrix::<f16, 16, B>::load_rows(sb, 544 + bc + 12, 34);
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
            sa[pa + 0] = ra1_0;
            sa[pa + 160] = ra1_1;
            sa[pa + 320] = ra1_2;
            sa[pa + 480] = ra1_3;
            sa[pa + 640] = ra1_4;
            sa[pa + 800] = ra1_5;
            sa[pa + 960] = ra1_6;
            sa[pa + 1120] = ra1_7;
            sb[pb + 0] = rb1_0;
            sb[pb + 136] = rb1_1;
            sb[pb + 272] = rb1_2;
            sb[pb + 408] = rb1_3;
            sb[pb + 544] = rb1_4;
            sb[pb + 680] = rb1_5;
            sb[pb + 816] = rb1_6;
            sb[pb + 952] = rb1_7;
            block_barrier();
            let kn = ((k + 32) + 64).min(m - 32);
            ra1_0 = a[la + (kn) / 4 + 0 * q];
            ra1_1 = a[la + (kn) / 4 + 16 * q];
            ra1_2 = a[la + (kn) / 4 + 32 * q];
            ra1_3 = a[la + (kn) / 4 + 48 * q];
            ra1_4 = a[la + (kn) / 4 + 64 * q];
            ra1_5 = a[la + (kn) / 4 + 80 * q];
            ra1_6 = a[la + (kn) / 4 + 96 * q];
            ra1_7 = a[la + (kn) / 4 + 112 * q];
            rb1_0 = b[lb + (kn + 0) * q];
            rb1_1 = b[lb + (kn + 4) * q];
            rb1_2 = b[lb + (kn + 8) * q];
            rb1_3 = b[lb + (kn + 12) * q];
            rb1_4 = b[lb + (kn + 16) * q];
            rb1_5 = b[lb + (kn + 20) * q];
            rb1_6 = b[lb + (kn + 24) * q];
            rb1_7 = b[lb + (kn + 28) * q];
            let a0 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 0) * 10 + 0, 10);
            let a1 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 16) * 10 + 0, 10);
            let a2 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 32) * 10 + 0, 10);
            let a3 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 48) * 10 + 0, 10);
            let b0 = CoopMatrix::<f16, 16, B>::load_rows(sb, 0 + bc + 0, 34);
            let b1 = CoopMatrix::<f16, 16, B>::load_rows(sb, 0 + bc + 4, 34);
            let b2 = CoopMatrix::<f16, 16, B>::load_rows(sb, 0 + bc + 8, 34);
            let b3 = CoopMatrix::<f16, 16, B>::load_rows(sb, 0 + bc + 12, 34);
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
            let b0 = CoopMatrix::<f16, 16, B>::load_rows(sb, 544 + bc + 0, 34);
            let b1 = CoopMatrix::<f16, 16, B>::load_rows(sb, 544 + bc + 4, 34);
            let b2 = CoopMatrix::<f16, 16, B>::load_rows(sb, 544 + bc + 8, 34);
            let b3 = CoopMatrix::<f16, 16, B>::load_rows(sb, 544 + bc + 12, 34);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::benches::coop::{assert_host_product, inputs};
    use sarek::Grid;

    /// The row on the CPU backend (which emulates cooperative matrices) equals the f32 host
    /// product everywhere at 256², over all four 128×128 blocks and 8 steps along `k` (both
    /// register sets, the clamped reloads of the last steps).
    #[test]
    fn the_128x128_products_match_the_host() {
        let m = 256;
        let dev = sarek::Device::cpu();
        let (av, bv) = inputs(m);
        let a = dev.upload::<F16Vec4>(bytemuck::cast_slice(&av)).unwrap();
        let b = dev.upload::<F16Vec4>(bytemuck::cast_slice(&bv)).unwrap();
        let mut c = dev.zeros::<f32>(m * m).unwrap();
        let grid = Grid::groups([2, 2, 1]);
        matmul_f16_q4p2
            .launch(&dev, grid, &a, &b, &mut c, m as u32)
            .unwrap()
            .wait()
            .unwrap();
        let got = c.read().unwrap();
        assert_host_product(m, &av, &bv, &got, "");
    }
}
