//! Experiment kernels of the f16 product that copy their tiles into workgroup memory as
//! `F16Vec4`s, all threads taking part (`--experiments --only x_matmul_f16`, BENCHMARKS.md,
//! "16-byte copies and double buffering"): two buffers in steps of 16 along `k` with one
//! barrier a step (`matmul_f16_db16`), the same with each step's operand loads before the
//! stores (`matmul_f16_db16_early`), and one buffer in steps of 32 (`matmul_f16_s32`). Each has
//! a WGSL twin of the same shape in `wgsl/experiments/`, written from the same plan.

use sarek::coop::{A, B, C}; // the roles, for the plain-Rust body
use sarek::F16Vec4;

/// `c = a * b` for `m`×`m` row-major f16 matrices (`m` a multiple of 256), f32 accumulation
/// (an experiment, twin `wgsl/experiments/matmul_f16_db16.wgsl`, the same algorithm). 256 threads (eight
/// subgroups of 32) compute a 128×256 block of `c`, each subgroup a 64×64 part as 4×4
/// accumulators of 16×16. The tiles of `a` and `b` are read as `F16Vec4`s (8-byte loads, four
/// halves) by all threads and staged in workgroup memory in steps of 16 along `k`, in two
/// buffers (2 × (128×24 + 16×264) halves = 28.5 KiB; rows padded so the matrix loads spread
/// over the memory banks): each step stores the words a thread holds for the next step into
/// the idle buffer, issues the loads of the step after it, and does its products from the
/// current buffer, with one barrier a step. Subgroup `t / 32` takes part `(t / 128, t / 32 % 4)`
/// of the block, which assumes subgroups of 32 consecutive threads (as on NVIDIA, the devices
/// with these matrices; on the CPU backend's other subgroup sizes each emulated subgroup
/// computes the part of its `t / 32`, so the result is the same).
#[sarek::kernel(workgroup_size = [256], limits = "device")]
pub fn matmul_f16_db16(a: &[F16Vec4], b: &[F16Vec4], c: &mut [f32], m: u32) {
    let m = m as usize;
    let row0 = block_idx_y() * 128;
    let col0 = block_idx_x() * 256;
    let t = thread_idx_x();
    let sg = t / 32;
    let ar = (sg / 4) * 64; // this subgroup's rows in the block
    let bc = (sg % 4) * 64; // and columns
    let sa = shared::<[f16; 6144]>(); // two tiles of 128 rows of 16 halves, padded to 24
    let sb = shared::<[f16; 8448]>(); // two tiles of 16 rows of 256 halves, padded to 264
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
    // Thread t copies word t % 4 of row t / 4 (and row 64 + t / 4) of the tile of `a`, and
    // word t % 64 of rows t / 64, +4, +8, +12 of the tile of `b`; `q` words a matrix row.
    let q = m / 4;
    let la = (row0 + t / 4) * q + t % 4;
    let pa = (t / 4) * 24 + (t % 4) * 4;
    let lb = (t / 64) * q + col0 / 4 + t % 64;
    let pb = (t / 64) * 264 + (t % 64) * 4;
    let mut ra0 = a[la];
    let mut ra1 = a[la + 64 * q];
    let mut rb0 = b[lb];
    let mut rb1 = b[lb + 4 * q];
    let mut rb2 = b[lb + 8 * q];
    let mut rb3 = b[lb + 12 * q];
    sa[pa + 0] = ra0.x;
    sa[pa + 1] = ra0.y;
    sa[pa + 2] = ra0.z;
    sa[pa + 3] = ra0.w;
    sa[pa + 1536] = ra1.x;
    sa[pa + 1537] = ra1.y;
    sa[pa + 1538] = ra1.z;
    sa[pa + 1539] = ra1.w;
    sb[pb + 0] = rb0.x;
    sb[pb + 1] = rb0.y;
    sb[pb + 2] = rb0.z;
    sb[pb + 3] = rb0.w;
    sb[pb + 1056] = rb1.x;
    sb[pb + 1057] = rb1.y;
    sb[pb + 1058] = rb1.z;
    sb[pb + 1059] = rb1.w;
    sb[pb + 2112] = rb2.x;
    sb[pb + 2113] = rb2.y;
    sb[pb + 2114] = rb2.z;
    sb[pb + 2115] = rb2.w;
    sb[pb + 3168] = rb3.x;
    sb[pb + 3169] = rb3.y;
    sb[pb + 3170] = rb3.z;
    sb[pb + 3171] = rb3.w;
    // The second step's words, in flight across the barrier.
    let k1 = 16.min(m - 16);
    ra0 = a[la + k1 / 4];
    ra1 = a[la + k1 / 4 + 64 * q];
    rb0 = b[lb + k1 * q];
    rb1 = b[lb + (k1 + 4) * q];
    rb2 = b[lb + (k1 + 8) * q];
    rb3 = b[lb + (k1 + 12) * q];
    block_barrier();
    let mut k = 0;
    while k < m {
        let cur = (k / 16) % 2;
        let oa = cur * 3072;
        let ob = cur * 4224;
        // Into the idle buffer: the next step's words (on the last step, unused ones).
        let na = 3072 - oa;
        let nb = 4224 - ob;
        sa[na + pa + 0] = ra0.x;
        sa[na + pa + 1] = ra0.y;
        sa[na + pa + 2] = ra0.z;
        sa[na + pa + 3] = ra0.w;
        sa[na + pa + 1536] = ra1.x;
        sa[na + pa + 1537] = ra1.y;
        sa[na + pa + 1538] = ra1.z;
        sa[na + pa + 1539] = ra1.w;
        sb[nb + pb + 0] = rb0.x;
        sb[nb + pb + 1] = rb0.y;
        sb[nb + pb + 2] = rb0.z;
        sb[nb + pb + 3] = rb0.w;
        sb[nb + pb + 1056] = rb1.x;
        sb[nb + pb + 1057] = rb1.y;
        sb[nb + pb + 1058] = rb1.z;
        sb[nb + pb + 1059] = rb1.w;
        sb[nb + pb + 2112] = rb2.x;
        sb[nb + pb + 2113] = rb2.y;
        sb[nb + pb + 2114] = rb2.z;
        sb[nb + pb + 2115] = rb2.w;
        sb[nb + pb + 3168] = rb3.x;
        sb[nb + pb + 3169] = rb3.y;
        sb[nb + pb + 3170] = rb3.z;
        sb[nb + pb + 3171] = rb3.w;
        // The loads of the step after next, in flight during the products (the last two
        // steps reload the last tile: cooperative operations need no condition around them).
        let kn = (k + 32).min(m - 16);
        ra0 = a[la + kn / 4];
        ra1 = a[la + kn / 4 + 64 * q];
        rb0 = b[lb + kn * q];
        rb1 = b[lb + (kn + 4) * q];
        rb2 = b[lb + (kn + 8) * q];
        rb3 = b[lb + (kn + 12) * q];
        let a0 = CoopMatrix::<f16, 16, A>::load_rows(sa, oa + ar * 24, 24);
        let a1 = CoopMatrix::<f16, 16, A>::load_rows(sa, oa + (ar + 16) * 24, 24);
        let a2 = CoopMatrix::<f16, 16, A>::load_rows(sa, oa + (ar + 32) * 24, 24);
        let a3 = CoopMatrix::<f16, 16, A>::load_rows(sa, oa + (ar + 48) * 24, 24);
        let b0 = CoopMatrix::<f16, 16, B>::load_rows(sb, ob + bc, 264);
        let b1 = CoopMatrix::<f16, 16, B>::load_rows(sb, ob + bc + 16, 264);
        let b2 = CoopMatrix::<f16, 16, B>::load_rows(sb, ob + bc + 32, 264);
        let b3 = CoopMatrix::<f16, 16, B>::load_rows(sb, ob + bc + 48, 264);
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
        k += 16;
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

/// `matmul_f16_db16`'s shape with one buffer (an experiment, twin
/// `wgsl/experiments/matmul_f16_s32_f16.wgsl`): a 128×256 block of `c` per 256 threads, the
/// tiles read as `F16Vec4`s and staged in steps of 32 along `k` in one buffer (store, barrier,
/// the next step's loads issued, products, barrier).
#[sarek::kernel(workgroup_size = [256], limits = "device")]
pub fn matmul_f16_s32(a: &[F16Vec4], b: &[F16Vec4], c: &mut [f32], m: u32) {
    let m = m as usize;
    let row0 = block_idx_y() * 128;
    let col0 = block_idx_x() * 256;
    let t = thread_idx_x();
    let sg = t / 32;
    let ar = (sg / 4) * 64; // this subgroup's rows in the block
    let bc = (sg % 4) * 64; // and columns
    let sa = shared::<[f16; 5120]>(); // 1 tile(s) of 128 rows of 32 halves, padded to 40
    let sb = shared::<[f16; 8448]>(); // 1 tile(s) of 32 rows of 256 halves, padded to 264
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
    // t % 64 of rows t / 64 + 4·j of the tile of `b`; `q` words a matrix row.
    let q = m / 4;
    let la = (row0 + t / 8) * q + t % 8;
    let pa = (t / 8) * 40 + (t % 8) * 4;
    let lb = (t / 64) * q + col0 / 4 + t % 64;
    let pb = (t / 64) * 264 + (t % 64) * 4;
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
        sa[pa] = ra0.x;
        sa[pa + 1] = ra0.y;
        sa[pa + 2] = ra0.z;
        sa[pa + 3] = ra0.w;
        sa[pa + 1280] = ra1.x;
        sa[pa + 1281] = ra1.y;
        sa[pa + 1282] = ra1.z;
        sa[pa + 1283] = ra1.w;
        sa[pa + 2560] = ra2.x;
        sa[pa + 2561] = ra2.y;
        sa[pa + 2562] = ra2.z;
        sa[pa + 2563] = ra2.w;
        sa[pa + 3840] = ra3.x;
        sa[pa + 3841] = ra3.y;
        sa[pa + 3842] = ra3.z;
        sa[pa + 3843] = ra3.w;
        sb[pb] = rb0.x;
        sb[pb + 1] = rb0.y;
        sb[pb + 2] = rb0.z;
        sb[pb + 3] = rb0.w;
        sb[pb + 1056] = rb1.x;
        sb[pb + 1057] = rb1.y;
        sb[pb + 1058] = rb1.z;
        sb[pb + 1059] = rb1.w;
        sb[pb + 2112] = rb2.x;
        sb[pb + 2113] = rb2.y;
        sb[pb + 2114] = rb2.z;
        sb[pb + 2115] = rb2.w;
        sb[pb + 3168] = rb3.x;
        sb[pb + 3169] = rb3.y;
        sb[pb + 3170] = rb3.z;
        sb[pb + 3171] = rb3.w;
        sb[pb + 4224] = rb4.x;
        sb[pb + 4225] = rb4.y;
        sb[pb + 4226] = rb4.z;
        sb[pb + 4227] = rb4.w;
        sb[pb + 5280] = rb5.x;
        sb[pb + 5281] = rb5.y;
        sb[pb + 5282] = rb5.z;
        sb[pb + 5283] = rb5.w;
        sb[pb + 6336] = rb6.x;
        sb[pb + 6337] = rb6.y;
        sb[pb + 6338] = rb6.z;
        sb[pb + 6339] = rb6.w;
        sb[pb + 7392] = rb7.x;
        sb[pb + 7393] = rb7.y;
        sb[pb + 7394] = rb7.z;
        sb[pb + 7395] = rb7.w;
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
        let a0_0 = CoopMatrix::<f16, 16, A>::load_rows(sa, ar * 40, 40);
        let a1_0 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 16) * 40, 40);
        let a2_0 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 32) * 40, 40);
        let a3_0 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 48) * 40, 40);
        let b0_0 = CoopMatrix::<f16, 16, B>::load_rows(sb, bc, 264);
        let b1_0 = CoopMatrix::<f16, 16, B>::load_rows(sb, bc + 16, 264);
        let b2_0 = CoopMatrix::<f16, 16, B>::load_rows(sb, bc + 32, 264);
        let b3_0 = CoopMatrix::<f16, 16, B>::load_rows(sb, bc + 48, 264);
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
        let a0_16 = CoopMatrix::<f16, 16, A>::load_rows(sa, ar * 40 + 16, 40);
        let a1_16 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 16) * 40 + 16, 40);
        let a2_16 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 32) * 40 + 16, 40);
        let a3_16 = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + 48) * 40 + 16, 40);
        let b0_16 = CoopMatrix::<f16, 16, B>::load_rows(sb, 4224 + bc, 264);
        let b1_16 = CoopMatrix::<f16, 16, B>::load_rows(sb, 4224 + bc + 16, 264);
        let b2_16 = CoopMatrix::<f16, 16, B>::load_rows(sb, 4224 + bc + 32, 264);
        let b3_16 = CoopMatrix::<f16, 16, B>::load_rows(sb, 4224 + bc + 48, 264);
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

/// `matmul_f16_db16` with each step's operands loaded from workgroup memory before
/// the stores into the idle buffer (an experiment, twin `wgsl/experiments/matmul_f16_db16_early.wgsl`).
#[sarek::kernel(workgroup_size = [256], limits = "device")]
pub fn matmul_f16_db16_early(a: &[F16Vec4], b: &[F16Vec4], c: &mut [f32], m: u32) {
    let m = m as usize;
    let row0 = block_idx_y() * 128;
    let col0 = block_idx_x() * 256;
    let t = thread_idx_x();
    let sg = t / 32;
    let ar = (sg / 4) * 64; // this subgroup's rows in the block
    let bc = (sg % 4) * 64; // and columns
    let sa = shared::<[f16; 6144]>(); // 2 tile(s) of 128 rows of 16 halves, padded to 24
    let sb = shared::<[f16; 8448]>(); // 2 tile(s) of 16 rows of 256 halves, padded to 264
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
    // Thread t copies word t % 4 of rows t / 4 + 64·j of the tile of `a`, and word
    // t % 64 of rows t / 64 + 4·j of the tile of `b`; `q` words a matrix row.
    let q = m / 4;
    let la = (row0 + t / 4) * q + t % 4;
    let pa = (t / 4) * 24 + (t % 4) * 4;
    let lb = (t / 64) * q + col0 / 4 + t % 64;
    let pb = (t / 64) * 264 + (t % 64) * 4;
    let mut ra0 = a[la];
    let mut ra1 = a[la + 64 * q];
    let mut rb0 = b[lb];
    let mut rb1 = b[lb + 4 * q];
    let mut rb2 = b[lb + 8 * q];
    let mut rb3 = b[lb + 12 * q];
    sa[pa] = ra0.x;
    sa[pa + 1] = ra0.y;
    sa[pa + 2] = ra0.z;
    sa[pa + 3] = ra0.w;
    sa[pa + 1536] = ra1.x;
    sa[pa + 1537] = ra1.y;
    sa[pa + 1538] = ra1.z;
    sa[pa + 1539] = ra1.w;
    sb[pb] = rb0.x;
    sb[pb + 1] = rb0.y;
    sb[pb + 2] = rb0.z;
    sb[pb + 3] = rb0.w;
    sb[pb + 1056] = rb1.x;
    sb[pb + 1057] = rb1.y;
    sb[pb + 1058] = rb1.z;
    sb[pb + 1059] = rb1.w;
    sb[pb + 2112] = rb2.x;
    sb[pb + 2113] = rb2.y;
    sb[pb + 2114] = rb2.z;
    sb[pb + 2115] = rb2.w;
    sb[pb + 3168] = rb3.x;
    sb[pb + 3169] = rb3.y;
    sb[pb + 3170] = rb3.z;
    sb[pb + 3171] = rb3.w;
    // The second step's words, in flight across the barrier.
    let k1 = 16.min(m - 16);
    ra0 = a[la + k1 / 4];
    ra1 = a[la + k1 / 4 + 64 * q];
    rb0 = b[lb + k1 * q];
    rb1 = b[lb + (k1 + 4) * q];
    rb2 = b[lb + (k1 + 8) * q];
    rb3 = b[lb + (k1 + 12) * q];
    block_barrier();
    let mut k = 0;
    while k < m {
        let cur = (k / 16) % 2;
        let oa = cur * 3072;
        let ob = cur * 4224;
        // This step's operands, loaded before the stores into the idle buffer so that
        // the compiler need not order them after those stores.
        let a0 = CoopMatrix::<f16, 16, A>::load_rows(sa, oa + ar * 24, 24);
        let a1 = CoopMatrix::<f16, 16, A>::load_rows(sa, oa + (ar + 16) * 24, 24);
        let a2 = CoopMatrix::<f16, 16, A>::load_rows(sa, oa + (ar + 32) * 24, 24);
        let a3 = CoopMatrix::<f16, 16, A>::load_rows(sa, oa + (ar + 48) * 24, 24);
        let b0 = CoopMatrix::<f16, 16, B>::load_rows(sb, ob + bc, 264);
        let b1 = CoopMatrix::<f16, 16, B>::load_rows(sb, ob + bc + 16, 264);
        let b2 = CoopMatrix::<f16, 16, B>::load_rows(sb, ob + bc + 32, 264);
        let b3 = CoopMatrix::<f16, 16, B>::load_rows(sb, ob + bc + 48, 264);
        // Into the idle buffer: the next step's words (on the last step, unused ones).
        let na = 3072 - oa;
        let nb = 4224 - ob;
        sa[na + pa] = ra0.x;
        sa[na + pa + 1] = ra0.y;
        sa[na + pa + 2] = ra0.z;
        sa[na + pa + 3] = ra0.w;
        sa[na + pa + 1536] = ra1.x;
        sa[na + pa + 1537] = ra1.y;
        sa[na + pa + 1538] = ra1.z;
        sa[na + pa + 1539] = ra1.w;
        sb[nb + pb] = rb0.x;
        sb[nb + pb + 1] = rb0.y;
        sb[nb + pb + 2] = rb0.z;
        sb[nb + pb + 3] = rb0.w;
        sb[nb + pb + 1056] = rb1.x;
        sb[nb + pb + 1057] = rb1.y;
        sb[nb + pb + 1058] = rb1.z;
        sb[nb + pb + 1059] = rb1.w;
        sb[nb + pb + 2112] = rb2.x;
        sb[nb + pb + 2113] = rb2.y;
        sb[nb + pb + 2114] = rb2.z;
        sb[nb + pb + 2115] = rb2.w;
        sb[nb + pb + 3168] = rb3.x;
        sb[nb + pb + 3169] = rb3.y;
        sb[nb + pb + 3170] = rb3.z;
        sb[nb + pb + 3171] = rb3.w;
        // The loads of the step after next, in flight during the products (the last two
        // steps reload the last tile: cooperative operations need no condition around them).
        let kn = (k + 32).min(m - 16);
        ra0 = a[la + kn / 4];
        ra1 = a[la + kn / 4 + 64 * q];
        rb0 = b[lb + kn * q];
        rb1 = b[lb + (kn + 4) * q];
        rb2 = b[lb + (kn + 8) * q];
        rb3 = b[lb + (kn + 12) * q];
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
        k += 16;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::benches::coop::{assert_host_product, inputs};
    use sarek::Grid;

    /// The three kernels on the CPU backend (which emulates cooperative matrices) equal the
    /// f32 host product everywhere, over two blocks of 128 rows and 8 or 16 steps along `k`
    /// (both buffers of the double-buffered ones, every subgroup's part, the clamped reloads
    /// of the last steps).
    #[test]
    fn the_f16vec4_products_match_the_host() {
        let m = 256;
        let dev = sarek::Device::cpu();
        let (av, bv) = inputs(m);
        let a = dev.upload::<F16Vec4>(bytemuck::cast_slice(&av)).unwrap();
        let b = dev.upload::<F16Vec4>(bytemuck::cast_slice(&bv)).unwrap();
        let grid = Grid::groups([1, 2, 1]);
        for kernel in 0..3 {
            let mut c = dev.zeros::<f32>(m * m).unwrap();
            let launch = match kernel {
                0 => matmul_f16_db16.launch(&dev, grid, &a, &b, &mut c, m as u32),
                1 => matmul_f16_db16_early.launch(&dev, grid, &a, &b, &mut c, m as u32),
                _ => matmul_f16_s32.launch(&dev, grid, &a, &b, &mut c, m as u32),
            };
            launch.unwrap().wait().unwrap();
            let got = c.read().unwrap();
            assert_host_product(m, &av, &bv, &got, &format!("kernel {kernel}: "));
        }
    }
}
