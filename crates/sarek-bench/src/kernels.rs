//! The benchmark kernels, written once in Sarek. Their hand-written WGSL twins are in `wgsl/`.

use std::sync::atomic::{AtomicU32, Ordering};

use sarek::f16;
use sarek::Vec4;

#[sarek::kernel]
pub fn saxpy(a: f32, x: &[f32], y: &mut [f32]) {
    let i = global_thread_id();
    if i < y.len() {
        y[i] = a * x[i] + y[i];
    }
}

/// [`saxpy`] with a `debug_assert!`: in a build without debug assertions, the same WGSL as
/// `saxpy` and no debug channel.
#[sarek::kernel]
pub fn saxpy_debug_assert(a: f32, x: &[f32], y: &mut [f32]) {
    let i = global_thread_id();
    if i < y.len() {
        debug_assert!(x[i] < 1.0e30, "x is too large");
        y[i] = a * x[i] + y[i];
    }
}

/// [`saxpy`] with an `assert!`, which every build checks: the cost of an assertion that holds.
#[sarek::kernel]
pub fn saxpy_assert(a: f32, x: &[f32], y: &mut [f32]) {
    let i = global_thread_id();
    if i < y.len() {
        assert!(x[i] < 1.0e30, "x is too large");
        y[i] = a * x[i] + y[i];
    }
}

/// `y = a·x + y` in `f16` (the device feature `SHADER_F16`).
#[sarek::kernel]
pub fn saxpy_f16(a: f16, x: &[f16], y: &mut [f16]) {
    let i = global_thread_id();
    if i < y.len() {
        y[i] = a * x[i] + y[i];
    }
}

/// `y = a·x + y` in `f16`, four halves a thread through `F16Vec4` (WGSL's `vec4<f16>`):
/// 8-byte loads and stores, as a user writes a vectorised half-precision saxpy.
#[sarek::kernel]
pub fn saxpy_f16x4(a: f16, x: &[sarek::F16Vec4], y: &mut [sarek::F16Vec4]) {
    let i = global_thread_id();
    if i < y.len() {
        y[i] = x[i] * a + y[i];
    }
}

/// First stage of a sum: a grid-stride loop per thread, then a tree in workgroup memory.
#[sarek::kernel]
pub fn sum_stage(x: &[f32], partial: &mut [f32]) {
    let tile = shared::<[f32; 256]>();
    let t = thread_idx_x();
    let stride = grid_dim_x() * block_dim_x();
    let mut i = global_idx_x();
    let mut acc = 0.0f32;
    while i < x.len() {
        acc += x[i];
        i += stride;
    }
    tile[t] = acc;
    block_barrier();
    let mut s = block_dim_x() / 2;
    while s > 0 {
        if t < s {
            tile[t] += tile[t + s];
        }
        block_barrier();
        s /= 2;
    }
    if t == 0 {
        partial[block_idx_x()] = tile[0];
    }
}

/// Inclusive scan of each 256-element block (Hillis–Steele, double-buffered).
#[sarek::kernel]
pub fn block_scan(x: &[u32], out: &mut [u32]) {
    let a = shared::<[u32; 256]>();
    let b = shared::<[u32; 256]>();
    let t = thread_idx_x();
    let i = global_idx_x();
    a[t] = if i < x.len() { x[i] } else { 0 };
    block_barrier();
    let mut offset = 1usize;
    let mut from_a = true;
    while offset < 256 {
        if from_a {
            b[t] = if t >= offset {
                a[t] + a[t - offset]
            } else {
                a[t]
            };
        } else {
            a[t] = if t >= offset {
                b[t] + b[t - offset]
            } else {
                b[t]
            };
        }
        block_barrier();
        from_a = !from_a;
        offset *= 2;
    }
    if i < out.len() {
        out[i] = if from_a { a[t] } else { b[t] };
    }
}

#[sarek::kernel]
pub fn histogram(data: &[u32], bins: &[AtomicU32]) {
    let local = shared::<[AtomicU32; 256]>();
    let t = thread_idx_x();
    local[t].store(0, Ordering::Relaxed);
    block_barrier();
    let i = global_idx_x();
    if i < data.len() {
        local[(data[i] & 255) as usize].fetch_add(1, Ordering::Relaxed);
    }
    block_barrier();
    let count = local[t].load(Ordering::Relaxed);
    if count > 0 {
        bins[t].fetch_add(count, Ordering::Relaxed);
    }
}

#[sarek::kernel(workgroup_size = [16, 16])]
pub fn transpose(n: usize, a: &[f32], b: &mut [f32]) {
    const T: usize = 16;
    let tile = shared::<[[f32; 17]; T]>();
    let x = global_idx_x();
    let y = global_idx_y();
    if x < n && y < n {
        tile[thread_idx_y()][thread_idx_x()] = a[y * n + x];
    }
    block_barrier();
    let ox = block_idx_y() * T + thread_idx_x();
    let oy = block_idx_x() * T + thread_idx_y();
    if ox < n && oy < n {
        b[oy * n + ox] = tile[thread_idx_x()][thread_idx_y()];
    }
}

#[sarek::kernel(workgroup_size = [16, 16])]
pub fn matmul(n: usize, a: &[f32], b: &[f32], c: &mut [f32]) {
    const TILE: usize = 16;
    let ta = shared::<[[f32; TILE]; TILE]>();
    let tb = shared::<[[f32; TILE]; TILE]>();
    let tx = thread_idx_x();
    let ty = thread_idx_y();
    let row = global_idx_y();
    let col = global_idx_x();
    let mut acc = 0.0f32;
    for t in 0..(n + TILE - 1) / TILE {
        let ac = t * TILE + tx;
        ta[ty][tx] = if row < n && ac < n {
            a[row * n + ac]
        } else {
            0.0
        };
        let br = t * TILE + ty;
        tb[ty][tx] = if br < n && col < n {
            b[br * n + col]
        } else {
            0.0
        };
        block_barrier();
        for k in 0..TILE {
            acc += ta[ty][k] * tb[k][tx];
        }
        block_barrier();
    }
    if row < n && col < n {
        c[row * n + col] = acc;
    }
}

#[sarek::kernel(workgroup_size = [16, 16])]
pub fn mandelbrot(width: usize, height: usize, max_iter: u32, out: &mut [u32]) {
    let px = global_idx_x();
    let py = global_idx_y();
    if px < width && py < height {
        let cx = px as f32 / width as f32 * 3.5 - 2.5;
        let cy = py as f32 / height as f32 * 2.0 - 1.0;
        let mut x = 0.0f32;
        let mut y = 0.0f32;
        let mut iter = 0u32;
        while x * x + y * y <= 4.0 && iter < max_iter {
            let xt = x * x - y * y + cx;
            y = 2.0 * x * y + cy;
            x = xt;
            iter += 1;
        }
        out[py * width + px] = iter;
    }
}

/// One n-body step: the acceleration of every body from all others (softened gravity).
#[sarek::kernel]
pub fn nbody(pos: &[f32], acc: &mut [f32]) {
    let i = global_thread_id();
    let n = pos.len() / 4;
    if i < n {
        let xi = pos[i * 4];
        let yi = pos[i * 4 + 1];
        let zi = pos[i * 4 + 2];
        let mut ax = 0.0f32;
        let mut ay = 0.0f32;
        let mut az = 0.0f32;
        for j in 0..n {
            let dx = pos[j * 4] - xi;
            let dy = pos[j * 4 + 1] - yi;
            let dz = pos[j * 4 + 2] - zi;
            let d2 = dx * dx + dy * dy + dz * dz + 1e-9;
            let inv = 1.0 / d2.sqrt();
            let s = pos[j * 4 + 3] * inv * inv * inv;
            ax += dx * s;
            ay += dy * s;
            az += dz * s;
        }
        acc[i * 4] = ax;
        acc[i * 4 + 1] = ay;
        acc[i * 4 + 2] = az;
        acc[i * 4 + 3] = 0.0;
    }
}

/// A tiny kernel for the CPU cost of a launch.
#[sarek::kernel]
pub fn touch(v: &mut [u32]) {
    let i = global_thread_id();
    if i < v.len() {
        v[i] += 1;
    }
}

/// First stage of a sum reading four floats per load: a grid-stride loop over `Vec4`s with
/// two independent accumulators (two loads in flight per thread; four measured no faster on
/// an H200), then a tree in workgroup memory.
#[sarek::kernel]
pub fn sum4_stage(x: &[Vec4], partial: &mut [f32]) {
    let tile = shared::<[f32; 256]>();
    let t = thread_idx_x();
    let stride = grid_dim_x() * block_dim_x();
    let mut i = global_idx_x();
    let mut a = Vec4::ZERO;
    let mut b = Vec4::ZERO;
    while i + stride < x.len() {
        a += x[i];
        b += x[i + stride];
        i += 2 * stride;
    }
    if i < x.len() {
        a += x[i];
    }
    let s = a + b;
    tile[t] = (s.x + s.y) + (s.z + s.w);
    block_barrier();
    let mut h = block_dim_x() / 2;
    while h > 0 {
        if t < h {
            tile[t] += tile[t + h];
        }
        block_barrier();
        h /= 2;
    }
    if t == 0 {
        partial[block_idx_x()] = tile[0];
    }
}

/// Matrix product with register blocking: a 16×16 workgroup computes a 128×128 tile of `c`,
/// each thread an 8×8 block kept in registers as sixteen `Vec4`s (rows `4ty..4ty+3` and
/// `64+4ty..`, columns `4tx..4tx+3` and `64+4tx..`). Slices of 8 along k are staged in
/// workgroup memory, two buffers of each: while the products of one slice run, the global
/// loads of the next are already in flight into registers, which are stored into the other
/// buffer afterwards, one barrier per slice. `a` is staged transposed as `Vec4`s of four rows
/// (each thread loads four floats of one k, one from each of four rows, and stores them as one
/// vector; rows padded by one `Vec4` so that those stores hit distinct banks), `b` as rows of
/// `Vec4`. `n` must be a multiple of 4 (`b` and `c` are passed as rows of `Vec4`).
// 16,640 bytes of workgroup memory (the padding), over WebGPU's guaranteed 16,384.
#[sarek::kernel(workgroup_size = [16, 16], limits = "device")]
pub fn matmul_rb(n: usize, a: &[f32], b: &[Vec4], c: &mut [Vec4]) {
    const BK: usize = 8;
    // Rows `0..BK` are one buffer, `BK..2 * BK` the other.
    let at = shared::<[[Vec4; 33]; 16]>();
    let bt = shared::<[[Vec4; 32]; 16]>();
    let tx = thread_idx_x();
    let ty = thread_idx_y();
    let tid = ty * 16 + tx;
    let row0 = block_idx_y() * 128;
    let col0 = block_idx_x() * 128;
    let n4 = n / 4;
    let mut acc = [Vec4::ZERO; 16];
    // What this thread stages: rows `r..r+3` of `a` at column `ak` of the slice (one `Vec4`
    // of the transposed slice), and one `Vec4` of `b` (row `br`, columns `4bc..4bc+3`).
    let r = row0 + (tid / BK) * 4;
    let ar = tid / BK;
    let ak = tid % BK;
    let br = tid / 32;
    let bc = tid % 32;
    // The first slice, into the first buffer.
    let a0 = if r < n && ak < n { a[r * n + ak] } else { 0.0 };
    let a1 = if r + 1 < n && ak < n {
        a[(r + 1) * n + ak]
    } else {
        0.0
    };
    let a2 = if r + 2 < n && ak < n {
        a[(r + 2) * n + ak]
    } else {
        0.0
    };
    let a3 = if r + 3 < n && ak < n {
        a[(r + 3) * n + ak]
    } else {
        0.0
    };
    let vb = if br < n && col0 + bc * 4 < n {
        b[br * n4 + col0 / 4 + bc]
    } else {
        Vec4::ZERO
    };
    at[ak][ar] = Vec4::new(a0, a1, a2, a3);
    bt[br][bc] = vb;
    block_barrier();
    let mut k0 = 0;
    while k0 < n {
        // Two slices per trip, one from each buffer, so that every index stays a constant.
        for buf in 0..2 {
            // The next slice's loads, in flight during this slice's products.
            let kn = k0 + (buf + 1) * BK + ak;
            let a0 = if r < n && kn < n { a[r * n + kn] } else { 0.0 };
            let a1 = if r + 1 < n && kn < n {
                a[(r + 1) * n + kn]
            } else {
                0.0
            };
            let a2 = if r + 2 < n && kn < n {
                a[(r + 2) * n + kn]
            } else {
                0.0
            };
            let a3 = if r + 3 < n && kn < n {
                a[(r + 3) * n + kn]
            } else {
                0.0
            };
            let gk = k0 + (buf + 1) * BK + br;
            let vb = if gk < n && col0 + bc * 4 < n {
                b[gk * n4 + col0 / 4 + bc]
            } else {
                Vec4::ZERO
            };
            for k in 0..BK {
                let b0 = bt[buf * BK + k][tx];
                let b1 = bt[buf * BK + k][16 + tx];
                let x0 = at[buf * BK + k][ty];
                let x1 = at[buf * BK + k][16 + ty];
                acc[0] += b0 * x0.x;
                acc[1] += b1 * x0.x;
                acc[8] += b0 * x1.x;
                acc[9] += b1 * x1.x;
                acc[2] += b0 * x0.y;
                acc[3] += b1 * x0.y;
                acc[10] += b0 * x1.y;
                acc[11] += b1 * x1.y;
                acc[4] += b0 * x0.z;
                acc[5] += b1 * x0.z;
                acc[12] += b0 * x1.z;
                acc[13] += b1 * x1.z;
                acc[6] += b0 * x0.w;
                acc[7] += b1 * x0.w;
                acc[14] += b0 * x1.w;
                acc[15] += b1 * x1.w;
            }
            // Into the other buffer: every thread has finished reading it (the barrier
            // before this slice's products).
            at[(1 - buf) * BK + ak][ar] = Vec4::new(a0, a1, a2, a3);
            bt[(1 - buf) * BK + br][bc] = vb;
            block_barrier();
        }
        k0 += 2 * BK;
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

/// [`matmul_rb`] with one workgroup buffer (an experiment): the next slice's loads are still
/// issued before this slice's products, but stored between two barriers after them, so the
/// body is written once (half of [`matmul_rb`]'s code, for the driver's compile time).
/// Measured on the H200 at 4096²: 37.6 TFLOP/s, 0.908× the twin (BENCHMARKS.md, "The
/// one-buffer matrix product, bisected"); the prefetched values carried round the loop cost
/// 3% of that against [`matmul_rb_one`].
#[sarek::kernel(workgroup_size = [16, 16])]
pub fn matmul_rb_single(n: usize, a: &[f32], b: &[Vec4], c: &mut [Vec4]) {
    const BK: usize = 8;
    let at = shared::<[[Vec4; 33]; BK]>();
    let bt = shared::<[[Vec4; 32]; BK]>();
    let tx = thread_idx_x();
    let ty = thread_idx_y();
    let tid = ty * 16 + tx;
    let row0 = block_idx_y() * 128;
    let col0 = block_idx_x() * 128;
    let n4 = n / 4;
    let mut acc = [Vec4::ZERO; 16];
    let r = row0 + (tid / BK) * 4;
    let ar = tid / BK;
    let ak = tid % BK;
    let br = tid / 32;
    let bc = tid % 32;
    let mut a0 = if r < n && ak < n { a[r * n + ak] } else { 0.0 };
    let mut a1 = if r + 1 < n && ak < n {
        a[(r + 1) * n + ak]
    } else {
        0.0
    };
    let mut a2 = if r + 2 < n && ak < n {
        a[(r + 2) * n + ak]
    } else {
        0.0
    };
    let mut a3 = if r + 3 < n && ak < n {
        a[(r + 3) * n + ak]
    } else {
        0.0
    };
    let mut vb = if br < n && col0 + bc * 4 < n {
        b[br * n4 + col0 / 4 + bc]
    } else {
        Vec4::ZERO
    };
    let mut k0 = 0;
    while k0 < n {
        at[ak][ar] = Vec4::new(a0, a1, a2, a3);
        bt[br][bc] = vb;
        block_barrier();
        let kn = k0 + BK + ak;
        a0 = if r < n && kn < n { a[r * n + kn] } else { 0.0 };
        a1 = if r + 1 < n && kn < n {
            a[(r + 1) * n + kn]
        } else {
            0.0
        };
        a2 = if r + 2 < n && kn < n {
            a[(r + 2) * n + kn]
        } else {
            0.0
        };
        a3 = if r + 3 < n && kn < n {
            a[(r + 3) * n + kn]
        } else {
            0.0
        };
        let gk = k0 + BK + br;
        vb = if gk < n && col0 + bc * 4 < n {
            b[gk * n4 + col0 / 4 + bc]
        } else {
            Vec4::ZERO
        };
        for k in 0..BK {
            let b0 = bt[k][tx];
            let b1 = bt[k][16 + tx];
            let x0 = at[k][ty];
            let x1 = at[k][16 + ty];
            acc[0] += b0 * x0.x;
            acc[1] += b1 * x0.x;
            acc[8] += b0 * x1.x;
            acc[9] += b1 * x1.x;
            acc[2] += b0 * x0.y;
            acc[3] += b1 * x0.y;
            acc[10] += b0 * x1.y;
            acc[11] += b1 * x1.y;
            acc[4] += b0 * x0.z;
            acc[5] += b1 * x0.z;
            acc[12] += b0 * x1.z;
            acc[13] += b1 * x1.z;
            acc[6] += b0 * x0.w;
            acc[7] += b1 * x0.w;
            acc[14] += b0 * x1.w;
            acc[15] += b1 * x1.w;
        }
        block_barrier();
        k0 += BK;
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

/// [`matmul_rb_single`] with its loop written the way the hand-written one-buffer WGSL is
/// (an experiment): the first slice is stored before the loop; each trip loads the next slice
/// into fresh values, runs the products, and stores them between two barriers, so that no
/// prefetched value is carried round the loop. Measured on the H200 at 4096²: 38.8 TFLOP/s,
/// 0.938× the two-buffer twin; its driver compile (132 ms there) is not under 100 ms either.
#[sarek::kernel(workgroup_size = [16, 16])]
pub fn matmul_rb_one(n: usize, a: &[f32], b: &[Vec4], c: &mut [Vec4]) {
    const BK: usize = 8;
    let at = shared::<[[Vec4; 33]; BK]>();
    let bt = shared::<[[Vec4; 32]; BK]>();
    let tx = thread_idx_x();
    let ty = thread_idx_y();
    let tid = ty * 16 + tx;
    let row0 = block_idx_y() * 128;
    let col0 = block_idx_x() * 128;
    let n4 = n / 4;
    let mut acc = [Vec4::ZERO; 16];
    let r = row0 + (tid / BK) * 4;
    let ar = tid / BK;
    let ak = tid % BK;
    let br = tid / 32;
    let bc = tid % 32;
    let a0 = if r < n && ak < n { a[r * n + ak] } else { 0.0 };
    let a1 = if r + 1 < n && ak < n {
        a[(r + 1) * n + ak]
    } else {
        0.0
    };
    let a2 = if r + 2 < n && ak < n {
        a[(r + 2) * n + ak]
    } else {
        0.0
    };
    let a3 = if r + 3 < n && ak < n {
        a[(r + 3) * n + ak]
    } else {
        0.0
    };
    let vb = if br < n && col0 + bc * 4 < n {
        b[br * n4 + col0 / 4 + bc]
    } else {
        Vec4::ZERO
    };
    at[ak][ar] = Vec4::new(a0, a1, a2, a3);
    bt[br][bc] = vb;
    block_barrier();
    let mut k0 = 0;
    while k0 < n {
        // The next slice's loads, fresh values of this trip (nothing carried round the loop).
        let kn = k0 + BK + ak;
        let a0 = if r < n && kn < n { a[r * n + kn] } else { 0.0 };
        let a1 = if r + 1 < n && kn < n {
            a[(r + 1) * n + kn]
        } else {
            0.0
        };
        let a2 = if r + 2 < n && kn < n {
            a[(r + 2) * n + kn]
        } else {
            0.0
        };
        let a3 = if r + 3 < n && kn < n {
            a[(r + 3) * n + kn]
        } else {
            0.0
        };
        let gk = k0 + BK + br;
        let vb = if gk < n && col0 + bc * 4 < n {
            b[gk * n4 + col0 / 4 + bc]
        } else {
            Vec4::ZERO
        };
        for k in 0..BK {
            let b0 = bt[k][tx];
            let b1 = bt[k][16 + tx];
            let x0 = at[k][ty];
            let x1 = at[k][16 + ty];
            acc[0] += b0 * x0.x;
            acc[1] += b1 * x0.x;
            acc[8] += b0 * x1.x;
            acc[9] += b1 * x1.x;
            acc[2] += b0 * x0.y;
            acc[3] += b1 * x0.y;
            acc[10] += b0 * x1.y;
            acc[11] += b1 * x1.y;
            acc[4] += b0 * x0.z;
            acc[5] += b1 * x0.z;
            acc[12] += b0 * x1.z;
            acc[13] += b1 * x1.z;
            acc[6] += b0 * x0.w;
            acc[7] += b1 * x0.w;
            acc[14] += b0 * x1.w;
            acc[15] += b1 * x1.w;
        }
        block_barrier();
        at[ak][ar] = Vec4::new(a0, a1, a2, a3);
        bt[br][bc] = vb;
        block_barrier();
        k0 += BK;
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

// ---------------------------------------------------------------------------------------------
// Kernels as a user writes them: the textbook shape, no hand tuning.

/// `y = (a·x + b)·x + c`, element-wise: a polynomial evaluated by Horner's rule.
#[sarek::kernel]
pub fn poly(a: f32, b: f32, c: f32, x: &[f32], y: &mut [f32]) {
    let i = global_thread_id();
    if i < y.len() {
        y[i] = (a * x[i] + b) * x[i] + c;
    }
}

/// `poly` as a user writes it for full bandwidth: the same Horner polynomial over `Vec4`s,
/// one 16-byte load and store per thread (what the README recommends where the compiler's
/// scalar coarsening stops short).
#[sarek::kernel]
pub fn poly4(a: f32, b: f32, c: f32, x: &[Vec4], y: &mut [Vec4]) {
    let i = global_thread_id();
    if i < y.len() {
        let v = x[i];
        y[i] = (v * a + b) * v + c;
    }
}

/// `y = sin(x) + exp(x)`, element-wise: math functions the CPU JIT calls into Rust for (the
/// `transcend` row).
#[sarek::kernel]
pub fn transcend(x: &[f32], y: &mut [f32]) {
    let i = global_thread_id();
    if i < y.len() {
        y[i] = x[i].sin() + x[i].exp();
    }
}

/// A privatised 256-bin histogram: each workgroup counts its share of `data` (a grid-stride
/// loop) into workgroup memory, then adds its counts to `bins`.
#[sarek::kernel]
pub fn histogram_gs(data: &[u32], bins: &[AtomicU32]) {
    let local = shared::<[AtomicU32; 256]>();
    let t = thread_idx_x();
    local[t].store(0, Ordering::Relaxed);
    block_barrier();
    let stride = grid_dim_x() * block_dim_x();
    let mut i = global_idx_x();
    while i < data.len() {
        local[(data[i] & 255) as usize].fetch_add(1, Ordering::Relaxed);
        i += stride;
    }
    block_barrier();
    let count = local[t].load(Ordering::Relaxed);
    if count > 0 {
        bins[t].fetch_add(count, Ordering::Relaxed);
    }
}

/// The textbook tree reduction: one element per thread into workgroup memory, then halving
/// steps with a barrier each; one partial sum per workgroup.
#[sarek::kernel]
pub fn tree_sum(x: &[f32], partial: &mut [f32]) {
    let tile = shared::<[f32; 256]>();
    let t = thread_idx_x();
    let i = global_idx_x();
    tile[t] = if i < x.len() { x[i] } else { 0.0 };
    block_barrier();
    let mut s = block_dim_x() / 2;
    while s > 0 {
        if t < s {
            tile[t] += tile[t + s];
        }
        block_barrier();
        s /= 2;
    }
    if t == 0 {
        partial[block_idx_x()] = tile[0];
    }
}

/// The largest element of each subgroup, twice: `subgroup_max`, and a butterfly of
/// `subgroup_shuffle_xor` and a comparison (log2 of the subgroup size steps; not `f32::max`,
/// which the JIT calls into Rust for, to time the subgroup operations); the subgroup's elected
/// lane writes both to `partial[2 g]` and `partial[2 g + 1]`, `g` its subgroup in the grid.
/// Subgroup operations other than `+` on the CPU backend (the `sg_max` row).
#[sarek::kernel]
pub fn sg_max(x: &[f32], partial: &mut [f32]) {
    let i = global_idx_x();
    let v = if i < x.len() { x[i] } else { f32::NEG_INFINITY };
    let size = subgroup_size();
    let r = subgroup_max(v);
    let mut m = v;
    let mut d = 1u32;
    while d < size {
        let o = subgroup_shuffle_xor(m, d);
        if o > m {
            m = o;
        }
        d *= 2;
    }
    if subgroup_elect() {
        let g = i / size as usize;
        partial[2 * g] = r;
        partial[2 * g + 1] = m;
    }
}
