//! The suite's f16 row (BENCHMARKS.md),
//! written as a user would write it: loops over the register sets, the copied words, the two
//! k16 halves of a step and the 4×4 tiles of a subgroup, with arrays of cooperative matrices.
//! The lowering unrolls every one of those `for` loops (each indexes a local array or names an
//! element of an array of matrices), and `passes::coop_arrays` gives each element a matrix
//! variable of its own, so the WGSL is its twin's statements in its twin's order
//! (`wgsl/matmul_f16_q4p2.wgsl`, written by `tools/matmul_f16_prefetch_tail.py --row` from the
//! plan this kernel follows); the tiered quick form (`launch/tiered.rs`) keeps the loops and
//! the arrays, which NVIDIA's driver compiles in a tenth of the time (BENCHMARKS.md, "f16
//! matrix product: a quick form from loops"). Subgroup `t / 32` takes part
//! `(t / 64, t / 32 % 2)` of the block, which assumes subgroups of 32 consecutive threads (as
//! on NVIDIA; on the CPU backend's other subgroup sizes each emulated subgroup computes the
//! part of its `t / 32`, so the result is the same). `m` is a multiple of 128.

use sarek::coop::{A, B, C}; // the roles, for the plain-Rust body
use sarek::F16Vec4;

/// The suite's f16 row: a 128×128 block of `c` per 128 invocations (four subgroups of 32,
/// each a 64×64 part as 4×4 accumulators of 16×16), steps of 32 along `k`, one buffer of
/// `F16Vec4` words in workgroup memory (rows padded by two words), each step's words loaded
/// two steps ahead into two register sets, after the first barrier; the generated WGSL `q4p2`
/// (BENCHMARKS.md, "f16 matrix product: the last untried shapes") without its peeled tail.
/// Twin `wgsl/matmul_f16_q4p2.wgsl`.
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
    let mut acc = [CoopMatrix::<f32, 16, C>::zeros(); 16];
    // Thread t copies word t % 8 of rows ta + 16·j of the tile of `a`, and word
    // t % 32 of rows t / 32 + 4·j of the tile of `b`; `q` words a matrix row; `pa`,
    // `pb` its words in the workgroup arrays. The 16 threads of a half-warp store rows
    // r and r + 4 of `a`'s tile (320 bytes apart, 16 banks), so their 64-bit stores
    // meet no bank twice; rows r and r + 1 (80 bytes apart) shared four banks, and
    // this alone took the row from 236–237 to 246–248 TFLOP/s (BENCHMARKS.md, "f16
    // matrix product: stores without bank conflicts").
    let q = m / 4;
    let ta = ((t / 8) % 2) * 4 + (t / 16) % 4 + (t / 64) * 8;
    let la = (row0 + ta) * q + t % 8;
    let pa = ta * 10 + t % 8;
    let lb = (t / 32) * q + col0 / 4 + t % 32;
    let pb = (t / 32) * 34 + t % 32;
    // Register set s holds the words of the step two ahead of the one it is stored for.
    let mut ra = [F16Vec4::ZERO; 16];
    let mut rb = [F16Vec4::ZERO; 16];
    for s in 0..2 {
        let k0 = (32 * s).min(m - 32);
        for j in 0..8 {
            ra[8 * s + j] = a[la + k0 / 4 + 16 * j * q];
        }
        for j in 0..8 {
            rb[8 * s + j] = b[lb + (k0 + 4 * j) * q];
        }
    }
    let mut k = 0;
    while k < m {
        for s in 0..2 {
            for j in 0..8 {
                sa[pa + 160 * j] = ra[8 * s + j];
            }
            for j in 0..8 {
                sb[pb + 136 * j] = rb[8 * s + j];
            }
            block_barrier();
            let kn = (k + 32 * s + 64).min(m - 32);
            for j in 0..8 {
                ra[8 * s + j] = a[la + kn / 4 + 16 * j * q];
            }
            for j in 0..8 {
                rb[8 * s + j] = b[lb + (kn + 4 * j) * q];
            }
            // the step's two k16 halves: four tiles of `a`, four of `b`, 16 products
            for h in 0..2 {
                let mut am = [CoopMatrix::<f16, 16, A>::zeros(); 4];
                let mut bm = [CoopMatrix::<f16, 16, B>::zeros(); 4];
                for i in 0..4 {
                    am[i] = CoopMatrix::load_rows(sa, (ar + 16 * i) * 10 + 4 * h, 10);
                }
                for j in 0..4 {
                    bm[j] = CoopMatrix::load_rows(sb, 544 * h + bc + 4 * j, 34);
                }
                for i in 0..4 {
                    for j in 0..4 {
                        acc[4 * i + j] = am[i].multiply_add(bm[j], acc[4 * i + j]);
                    }
                }
            }
            block_barrier();
        }
        k += 64;
    }
    for i in 0..4 {
        for j in 0..4 {
            let at = (row0 + ar + 16 * i) * m + col0 + bc * 4 + 16 * j;
            acc[4 * i + j].store_rows(c, at, m);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::benches::coop::{assert_host_product, inputs};
    use sarek::Grid;

    /// The row on the CPU backend (which emulates cooperative matrices) equals the f32 host
    /// product everywhere at 256², over all four 128×128 blocks and 8 steps along `k` (both
    /// register sets, the clamped reloads of the last steps).
    /// The row's optimized entry point is proven in bounds (every index of its workgroup
    /// arrays, local arrays and cooperative loads), so that Vulkan devices run it without
    /// naga's index clamps, which gave it 3% on the H200.
    #[test]
    fn the_row_needs_no_index_clamps() {
        let source = matmul_f16_q4p2::SOURCE;
        assert!(
            source.in_bounds().contains(&"sarek_main"),
            "{:?}",
            source.in_bounds()
        );
    }

    /// The row's quick form runs in 16 slices, one per accumulator
    /// (`sarek_codegen::passes::slice_coop`): one product in its text, no array of matrices,
    /// which NVIDIA's driver compiles in about two thirds of the time of the whole quick form.
    #[test]
    fn the_quick_form_runs_in_one_slice_per_accumulator() {
        let source = matmul_f16_q4p2::SOURCE;
        assert_eq!(source.quick_slices(), 16);
        assert_eq!(source.quick().matches("coopMultiplyAdd(").count(), 1);
        assert!(
            !source.quick().contains("array<coop_mat"),
            "{}",
            source.quick()
        );
        assert!(
            source.quick().contains("sarek_bid.z % 16u"),
            "{}",
            source.quick()
        );
    }

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
