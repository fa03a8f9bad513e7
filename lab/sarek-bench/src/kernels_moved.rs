//! Kernels that left `crates/sarek-bench/src/kernels.rs` with the experiments that used them
//! (`experiments.rs` refers to them as `kernels::...`).

use sarek::Vec4;

/// [`matmul_rb`] with its loop over slices of k written as a `for` loop (an experiment).
///
/// Matrix product with register blocking: a 16×16 workgroup computes a 128×128 tile of `c`,
/// each thread an 8×8 block kept in registers as sixteen `Vec4`s (rows `4ty..4ty+3` and
/// `64+4ty..`, columns `4tx..4tx+3` and `64+4tx..`). Each step along k stages an 128×8 slice
/// of `a` (transposed) and an 8×128 slice of `b` in workgroup memory, read four floats at a
/// time. `n` must be a multiple of 4 (the matrices are passed as rows of `Vec4`).
#[sarek::kernel(workgroup_size = [16, 16])]
pub fn matmul_rb_for(n: usize, a: &[Vec4], b: &[Vec4], c: &mut [Vec4]) {
    const BK: usize = 8;
    let at = shared::<[[f32; 128]; BK]>();
    let bt = shared::<[[Vec4; 32]; BK]>();
    let tx = thread_idx_x();
    let ty = thread_idx_y();
    let tid = ty * 16 + tx;
    let row0 = block_idx_y() * 128;
    let col0 = block_idx_x() * 128;
    let n4 = n / 4;
    let mut acc = [Vec4::ZERO; 16];
    // What this thread stages: one `Vec4` of `a` (row `ar`, columns `ak..ak+3` of the slice)
    // and one of `b` (row `br`, columns `4bc..4bc+3`).
    let ar = tid / 2;
    let ak = (tid % 2) * 4;
    let br = tid / 32;
    let bc = tid % 32;
    for kt in 0..(n + BK - 1) / BK {
        let k0 = kt * BK;
        let gr = row0 + ar;
        let va = if gr < n && k0 + ak < n {
            a[gr * n4 + (k0 + ak) / 4]
        } else {
            Vec4::ZERO
        };
        at[ak][ar] = va.x;
        at[ak + 1][ar] = va.y;
        at[ak + 2][ar] = va.z;
        at[ak + 3][ar] = va.w;
        let gk = k0 + br;
        let gc = col0 + bc * 4;
        bt[br][bc] = if gk < n && gc < n {
            b[gk * n4 + gc / 4]
        } else {
            Vec4::ZERO
        };
        block_barrier();
        for k in 0..BK {
            let b0 = bt[k][tx];
            let b1 = bt[k][16 + tx];
            for i in 0..4 {
                let a0 = at[k][ty * 4 + i];
                let a1 = at[k][64 + ty * 4 + i];
                acc[i * 2] += b0 * a0;
                acc[i * 2 + 1] += b1 * a0;
                acc[8 + i * 2] += b0 * a1;
                acc[8 + i * 2 + 1] += b1 * a1;
            }
        }
        block_barrier();
    }
    for i in 0..4 {
        for half in 0..2 {
            let r = row0 + half * 64 + ty * 4 + i;
            let c0 = col0 + tx * 4;
            if r < n && c0 < n {
                c[r * n4 + c0 / 4] = acc[half * 8 + i * 2];
            }
            if r < n && c0 + 64 < n {
                c[r * n4 + (c0 + 64) / 4] = acc[half * 8 + i * 2 + 1];
            }
        }
    }
}
