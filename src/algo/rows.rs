//! Row operations of ML models on `rows × cols` row-major `f32` matrices, `cols` chosen at
//! run time: [`softmax`] and [`log_softmax`] (numerically safe: the row's maximum is
//! subtracted), [`layer_norm`] with the per-row mean and reciprocal standard deviation that
//! its backward pass [`layer_norm_backward`] takes (as PyTorch's `native_layer_norm` returns
//! them), and [`cross_entropy`] (each row's `logsumexp(x) - x[target]` and their mean).
//!
//! ```
//! use sarek::algo::rows::softmax;
//!
//! # fn main() -> sarek::Result<()> {
//! let dev = sarek::Device::new()?;
//! // Two rows of three columns.
//! let x = dev.upload(&[0.0f32, 0.0, 0.0, 1000.0, 1000.0, 1000.0])?;
//! let y = softmax(&dev, &x, 3)?.read()?;
//! for p in y {
//!     assert!((p - 1.0 / 3.0).abs() < 1e-6);
//! }
//! # Ok(()) }
//! ```
//!
//! Each call has a form that adds its kernels to a [`Batch`] without waiting
//! ([`enqueue_softmax`], [`enqueue_layer_norm`], ...), into buffers of your own.
//!
//! # The algorithm
//!
//! One workgroup of 256 threads per row (the workgroups stride over the rows past
//! [`MAX_GROUPS`]), each thread striding over the row's columns, the row's statistics
//! reduced across the workgroup in workgroup memory; nothing needs a feature beyond core
//! WebGPU, so every device runs the same kernels.
//!
//! - Softmax reads the row once for its maximum and sum together (an online softmax: each
//!   thread keeps a running maximum and the sum of `exp(x - max)`, rescaled when the maximum
//!   grows, four columns at a time), and once more to write `exp(x - max) / sum`.
//! - Layer norm keeps the row's first [`REGISTER_COLS`] columns in registers (four a thread),
//!   so a row of up to 1024 columns is read once and written once; the mean is reduced first
//!   and the variance as the mean of `(x - mean)²` after it (not `E[x²] - mean²`, which loses
//!   the variance to cancellation when the mean is large).
//! - The backward pass reads `dy` and `x` of a row once (again held in registers up to
//!   [`REGISTER_COLS`]) for `dx`; `dgamma` and `dbeta`, sums over the rows, are summed in
//!   blocks of rows into partial sums, one per column and block, then the partials per
//!   column, without float atomics and with the same result on every run.

use crate::{Batch, Buffer, Device, Grid, Result};

/// The most workgroups a row operation launches along x (WebGPU's guaranteed limit per
/// dimension); past it each workgroup does every `MAX_GROUPS`-th row.
pub const MAX_GROUPS: usize = 65_535;

/// The columns of a row that layer norm and its backward pass hold in registers (256 threads,
/// four columns each): rows up to this width are read from memory once.
pub const REGISTER_COLS: usize = 1024;

/// The kernels of the row operations, public as an example of a library written in Sarek; the
/// host calls of [`crate::algo::rows`] are how they are meant to be used.
#[sarek::module]
pub mod kernels {
    use sarek::prelude::*;
    use std::sync::atomic::{AtomicU32, Ordering};

    /// The running maximum and sum `(m, s)` of a row after the values `(m2, s2)` of another
    /// part of it are merged in: both sums rescaled to the larger maximum. Both maxima are
    /// finite (`-f32::MAX` stands for "no value yet"), so no `inf - inf` arises.
    pub fn merge(m: f32, s: f32, m2: f32, s2: f32) -> (f32, f32) {
        let mx = m.max(m2);
        (mx, s * (m - mx).exp() + s2 * (m2 - mx).exp())
    }

    /// Column `j` of the row at `base`, or `-f32::MAX` past its `n` columns (the load made
    /// from a clamped index all the same, so that the four loads of a step are in flight
    /// together rather than each behind its test).
    pub fn lane(x: &[f32], base: usize, n: usize, j: usize) -> f32 {
        let e = x[base + if j < n { j } else { n - 1 }];
        if j < n {
            e
        } else {
            -f32::MAX
        }
    }

    /// `exp(v - mx)` for a column of the row, zero for a lane past its end.
    pub fn weight(v: f32, mx: f32, valid: bool) -> f32 {
        if valid {
            (v - mx).exp()
        } else {
            0.0
        }
    }

    /// Each thread's running maximum and sum of `exp(x - max)` over its columns of the row
    /// at `base` (columns `t`, `t + 256`, ...), four loads in flight at a time.
    pub fn online_max_sum(x: &[f32], base: usize, n: usize, t: usize) -> (f32, f32) {
        let mut m = -f32::MAX;
        let mut s = 0.0f32;
        let mut c = t;
        while c < n {
            let v0 = lane(x, base, n, c);
            let v1 = lane(x, base, n, c + 256);
            let v2 = lane(x, base, n, c + 512);
            let v3 = lane(x, base, n, c + 768);
            let mx = m.max(v0.max(v1).max(v2.max(v3)));
            let add = weight(v0, mx, c < n)
                + weight(v1, mx, c + 256 < n)
                + weight(v2, mx, c + 512 < n)
                + weight(v3, mx, c + 768 < n);
            s = s * (m - mx).exp() + add;
            m = mx;
            c += 1024;
        }
        (m, s)
    }

    /// Softmax (`log == 0`) or log-softmax (`log != 0`) of each row of `x` (`rows × cols`,
    /// row-major) into `y`: `exp(x - max) / sum` or `x - max - ln(sum)`, where `sum` is the
    /// row's sum of `exp(x - max)`.
    #[sarek::kernel(workgroup_size = [256])]
    pub fn softmax_rows(x: &[f32], rows: u32, cols: u32, log: u32, y: &mut [f32]) {
        let sm = shared::<[f32; 256]>();
        let ss = shared::<[f32; 256]>();
        let t = thread_idx_x();
        let n = cols as usize;
        let mut row = block_idx_x();
        while row < rows as usize {
            let base = row * n;
            let p = online_max_sum(x, base, n, t);
            sm[t] = p.0;
            ss[t] = p.1;
            block_barrier();
            let mut h = 128;
            while h > 0 {
                if t < h {
                    let q = merge(sm[t], ss[t], sm[t + h], ss[t + h]);
                    sm[t] = q.0;
                    ss[t] = q.1;
                }
                block_barrier();
                h /= 2;
            }
            let m = sm[0];
            let s = ss[0];
            let inv = 1.0 / s;
            let shift = m + s.ln();
            let mut c = t;
            while c < n {
                let v = x[base + c];
                y[base + c] = if log != 0 {
                    v - shift
                } else {
                    (v - m).exp() * inv
                };
                c += 256;
            }
            // Everyone has read the row's maximum and sum before the next row's overwrite it.
            block_barrier();
            row += grid_dim_x();
        }
    }

    /// The running maximum and sum `(m, s)` of a row after the elements of word `w` of `x`
    /// (elements `4w..4w + 4`) that lie in the row's `[lo, hi)` are added.
    pub fn word_max_sum(v: Vec4, w: usize, lo: usize, hi: usize, m: f32, s: f32) -> (f32, f32) {
        let e = 4 * w;
        let (a, b, c, d) = (
            e >= lo && e < hi,
            e + 1 >= lo && e + 1 < hi,
            e + 2 >= lo && e + 2 < hi,
            e + 3 < hi,
        );
        let mx = m.max(
            pick(a, v.x)
                .max(pick(b, v.y))
                .max(pick(c, v.z).max(pick(d, v.w))),
        );
        let add = weight(v.x, mx, a) + weight(v.y, mx, b) + weight(v.z, mx, c) + weight(v.w, mx, d);
        (mx, s * (m - mx).exp() + add)
    }

    /// `x` where `ok`, else `-f32::MAX`, which no maximum takes.
    pub fn pick(ok: bool, x: f32) -> f32 {
        if ok {
            x
        } else {
            -f32::MAX
        }
    }

    /// [`softmax_rows`] over `x` and `y` read as words of four floats, for a matrix whose
    /// length is a multiple of 4: rows need not start on a word (a row of 50,257 floats does
    /// not), so the words at a row's ends are shared with its neighbours, read masked and
    /// written a component at a time; 16-byte loads put four times the bytes in flight of
    /// scalar ones.
    #[sarek::kernel(workgroup_size = [256])]
    pub fn softmax_rows4(x: &[Vec4], rows: u32, cols: u32, log: u32, y: &mut [Vec4]) {
        let sm = shared::<[f32; 256]>();
        let ss = shared::<[f32; 256]>();
        let t = thread_idx_x();
        let n = cols as usize;
        let mut row = block_idx_x();
        while row < rows as usize {
            let (lo, hi) = (row * n, row * n + n);
            let (w0, w1) = (lo / 4, hi.div_ceil(4));
            let mut m = -f32::MAX;
            let mut s = 0.0f32;
            let mut w = w0 + t;
            // Two words in flight per thread; the second load's index is clamped into the
            // row so that both are issued before either is used.
            while w < w1 {
                let w2 = if w + 256 < w1 { w + 256 } else { w };
                let (a, b) = (x[w], x[w2]);
                let p = word_max_sum(a, w, lo, hi, m, s);
                let q = if w + 256 < w1 {
                    word_max_sum(b, w2, lo, hi, p.0, p.1)
                } else {
                    p
                };
                m = q.0;
                s = q.1;
                w += 512;
            }
            sm[t] = m;
            ss[t] = s;
            block_barrier();
            let mut h = 128;
            while h > 0 {
                if t < h {
                    let q = merge(sm[t], ss[t], sm[t + h], ss[t + h]);
                    sm[t] = q.0;
                    ss[t] = q.1;
                }
                block_barrier();
                h /= 2;
            }
            let (m, s) = (sm[0], ss[0]);
            let (inv, shift) = (1.0 / s, m + s.ln());
            let mut w = w0 + t;
            while w < w1 {
                let v = x[w];
                let o = Vec4::new(
                    out(v.x, m, inv, shift, log),
                    out(v.y, m, inv, shift, log),
                    out(v.z, m, inv, shift, log),
                    out(v.w, m, inv, shift, log),
                );
                let e = 4 * w;
                if e >= lo && e + 4 <= hi {
                    y[w] = o;
                } else {
                    // A word shared with a neighbouring row: only this row's elements.
                    if e >= lo {
                        y[w].x = o.x;
                    }
                    if e + 1 >= lo && e + 1 < hi {
                        y[w].y = o.y;
                    }
                    if e + 2 >= lo && e + 2 < hi {
                        y[w].z = o.z;
                    }
                    if e + 3 < hi {
                        y[w].w = o.w;
                    }
                }
                w += 256;
            }
            block_barrier();
            row += grid_dim_x();
        }
    }

    /// The softmax (`log == 0`) or log-softmax of a value of a row with maximum `m`,
    /// `inv = 1 / sum` and `shift = m + ln(sum)`.
    pub fn out(v: f32, m: f32, inv: f32, shift: f32, log: u32) -> f32 {
        if log != 0 {
            v - shift
        } else {
            (v - m).exp() * inv
        }
    }

    /// Each row's cross-entropy against its class `targets[row]`:
    /// `loss[row] = max + ln(sum) - x[row, target]`, or NaN where the target is not a column.
    #[sarek::kernel(workgroup_size = [256])]
    pub fn cross_entropy_rows(x: &[f32], targets: &[u32], rows: u32, cols: u32, loss: &mut [f32]) {
        let sm = shared::<[f32; 256]>();
        let ss = shared::<[f32; 256]>();
        let t = thread_idx_x();
        let n = cols as usize;
        let mut row = block_idx_x();
        while row < rows as usize {
            let base = row * n;
            let p = online_max_sum(x, base, n, t);
            sm[t] = p.0;
            ss[t] = p.1;
            block_barrier();
            let mut h = 128;
            while h > 0 {
                if t < h {
                    let q = merge(sm[t], ss[t], sm[t + h], ss[t + h]);
                    sm[t] = q.0;
                    ss[t] = q.1;
                }
                block_barrier();
                h /= 2;
            }
            if t == 0 {
                let target = targets[row] as usize;
                loss[row] = if target < n {
                    sm[0] + ss[0].ln() - x[base + target]
                } else {
                    f32::NAN
                };
            }
            block_barrier();
            row += grid_dim_x();
        }
    }

    /// On one workgroup: `mean[0]` = the mean of `loss` (NaN when it is empty).
    #[sarek::kernel(workgroup_size = [256])]
    pub fn mean_f32(loss: &[f32], mean: &mut [f32]) {
        let tree = shared::<[f32; 256]>();
        let t = thread_idx_x();
        let n = loss.len();
        let mut s = 0.0f32;
        let mut i = t;
        while i < n {
            s += loss[i];
            i += 256;
        }
        tree[t] = s;
        block_barrier();
        let mut h = 128;
        while h > 0 {
            if t < h {
                tree[t] += tree[t + h];
            }
            block_barrier();
            h /= 2;
        }
        if t == 0 {
            mean[0] = if n == 0 {
                f32::NAN
            } else {
                tree[0] / (n as f32)
            };
        }
    }

    /// The sum over a workgroup of each thread's `v`, given to every thread; `tree` is free
    /// again when it returns.
    pub fn block_sum(tree: &mut [f32; 256], t: usize, v: f32) -> f32 {
        tree[t] = v;
        block_barrier();
        let mut h = 128;
        while h > 0 {
            if t < h {
                tree[t] += tree[t + h];
            }
            block_barrier();
            h /= 2;
        }
        let total = tree[0];
        // Everyone has the total before `tree` is written again.
        block_barrier();
        total
    }

    /// Layer norm of each row of `x` (`rows × cols`):
    /// `y = (x - mean) * rstd * gamma + beta` with `rstd = 1 / sqrt(var + eps)` (the biased
    /// variance), and each row's `mean` and `rstd`.
    #[sarek::kernel(workgroup_size = [256])]
    pub fn layer_norm_rows(
        x: &[f32],
        gamma: &[f32],
        beta: &[f32],
        rows: u32,
        cols: u32,
        eps: f32,
        y: &mut [f32],
        mean: &mut [f32],
        rstd: &mut [f32],
    ) {
        let tree = shared::<[f32; 256]>();
        let t = thread_idx_x();
        let n = cols as usize;
        let inv_n = 1.0 / (cols as f32);
        let mut row = block_idx_x();
        while row < rows as usize {
            let base = row * n;
            // The first 1024 columns stay in registers, all four loads in flight together.
            let mut v = [0.0f32; 4];
            for k in 0..4 {
                let j = t + k * 256;
                let e = x[base + if j < n { j } else { n - 1 }];
                v[k] = if j < n { e } else { 0.0 };
            }
            let mut s = v[0] + v[1] + v[2] + v[3];
            let mut c = t + 1024;
            while c < n {
                s += x[base + c];
                c += 256;
            }
            let mu = block_sum(tree, t, s) * inv_n;
            let mut q = 0.0f32;
            for k in 0..4 {
                if t + k * 256 < n {
                    let d = v[k] - mu;
                    q += d * d;
                }
            }
            c = t + 1024;
            while c < n {
                let d = x[base + c] - mu;
                q += d * d;
                c += 256;
            }
            let r = 1.0 / (block_sum(tree, t, q) * inv_n + eps).sqrt();
            for k in 0..4 {
                let j = t + k * 256;
                if j < n {
                    y[base + j] = (v[k] - mu) * r * gamma[j] + beta[j];
                }
            }
            c = t + 1024;
            while c < n {
                y[base + c] = (x[base + c] - mu) * r * gamma[c] + beta[c];
                c += 256;
            }
            if t == 0 {
                mean[row] = mu;
                rstd[row] = r;
            }
            row += grid_dim_x();
        }
    }

    /// [`layer_norm_rows`] with a subgroup per row (`SUBGROUP`): each subgroup takes a slot
    /// from a workgroup counter (WebGPU does not promise which invocations share a subgroup),
    /// handles the rows of that slot, and sums with `subgroup_add`, so a row costs no barrier.
    /// Every loop runs a count that is the same for the whole workgroup (loads past a row's end
    /// are clamped and masked), as subgroup operations need.
    #[sarek::kernel(workgroup_size = [256])]
    pub fn layer_norm_rows_sg(
        x: &[f32],
        gamma: &[f32],
        beta: &[f32],
        rows: u32,
        cols: u32,
        eps: f32,
        y: &mut [f32],
        mean: &mut [f32],
        rstd: &mut [f32],
    ) {
        let counter = shared::<[AtomicU32; 1]>();
        let sg = subgroup_size() as usize;
        let lane = subgroup_invocation_id() as usize;
        let claimed = if subgroup_elect() {
            counter[0].fetch_add(1, Ordering::Relaxed)
        } else {
            0
        };
        let slot = subgroup_broadcast_first(claimed) as usize;
        let per_group = 256 / sg;
        let n = cols as usize;
        let inv_n = 1.0 / (cols as f32);
        let steps = (n + sg - 1) / sg;
        let stride = grid_dim_x() * per_group;
        let rounds = (rows as usize + stride - 1) / stride;
        let mut round = 0;
        while round < rounds {
            let row = round * stride + block_idx_x() * per_group + slot;
            let valid = row < rows as usize;
            let base = if valid { row * n } else { 0 };
            let mut s = 0.0f32;
            let mut k = 0;
            while k < steps {
                let j = k * sg + lane;
                let e = x[base + if j < n { j } else { n - 1 }];
                s += if j < n { e } else { 0.0 };
                k += 1;
            }
            let mu = subgroup_add(s) * inv_n;
            let mut q = 0.0f32;
            k = 0;
            while k < steps {
                let j = k * sg + lane;
                let d = x[base + if j < n { j } else { n - 1 }] - mu;
                q += if j < n { d * d } else { 0.0 };
                k += 1;
            }
            let r = 1.0 / (subgroup_add(q) * inv_n + eps).sqrt();
            if valid {
                let mut c = lane;
                while c < n {
                    y[base + c] = (x[base + c] - mu) * r * gamma[c] + beta[c];
                    c += sg;
                }
                if lane == 0 {
                    mean[row] = mu;
                    rstd[row] = r;
                }
            }
            round += 1;
        }
    }

    /// The input gradient of layer norm, row by row: with `xhat = (x - mean) * rstd` and
    /// `g = dy * gamma`, `dx = rstd * (g - mean(g) - xhat * mean(g * xhat))`.
    #[sarek::kernel(workgroup_size = [256])]
    pub fn layer_norm_backward_rows(
        dy: &[f32],
        x: &[f32],
        mean: &[f32],
        rstd: &[f32],
        gamma: &[f32],
        rows: u32,
        cols: u32,
        dx: &mut [f32],
    ) {
        let tree = shared::<[f32; 256]>();
        let t = thread_idx_x();
        let n = cols as usize;
        let inv_n = 1.0 / (cols as f32);
        let mut row = block_idx_x();
        while row < rows as usize {
            let base = row * n;
            let mu = mean[row];
            let r = rstd[row];
            let mut g = [0.0f32; 4];
            let mut xh = [0.0f32; 4];
            for k in 0..4 {
                let j = t + k * 256;
                let at = if j < n { j } else { n - 1 };
                let d = dy[base + at];
                let e = x[base + at];
                let w = gamma[at];
                g[k] = if j < n { d * w } else { 0.0 };
                xh[k] = if j < n { (e - mu) * r } else { 0.0 };
            }
            let mut a = 0.0f32;
            let mut b = 0.0f32;
            for k in 0..4 {
                a += g[k];
                b += g[k] * xh[k];
            }
            let mut c = t + 1024;
            while c < n {
                let gc = dy[base + c] * gamma[c];
                a += gc;
                b += gc * (x[base + c] - mu) * r;
                c += 256;
            }
            let ga = block_sum(tree, t, a) * inv_n;
            let gb = block_sum(tree, t, b) * inv_n;
            for k in 0..4 {
                let j = t + k * 256;
                if j < n {
                    dx[base + j] = r * (g[k] - ga - xh[k] * gb);
                }
            }
            c = t + 1024;
            while c < n {
                let gc = dy[base + c] * gamma[c];
                let xc = (x[base + c] - mu) * r;
                dx[base + c] = r * (gc - ga - xc * gb);
                c += 256;
            }
            row += grid_dim_x();
        }
    }

    /// Partial sums of layer norm's parameter gradients: workgroup `(i, b)` sums, for the
    /// columns `256 i ..`, one a thread, rows `b * block_rows ..` (at most `block_rows` of
    /// them): `dgamma_part[b * cols + c] = Σ dy * xhat`, `dbeta_part[b * cols + c] = Σ dy`.
    #[sarek::kernel(workgroup_size = [256])]
    pub fn layer_norm_param_partials(
        dy: &[f32],
        x: &[f32],
        mean: &[f32],
        rstd: &[f32],
        rows: u32,
        cols: u32,
        block_rows: u32,
        dgamma_part: &mut [f32],
        dbeta_part: &mut [f32],
    ) {
        let n = cols as usize;
        let c = block_idx_x() * 256 + thread_idx_x();
        let b = block_idx_y();
        if c < n {
            let first = b * block_rows as usize;
            let end = (first + block_rows as usize).min(rows as usize);
            let mut sg = 0.0f32;
            let mut sb = 0.0f32;
            let mut row = first;
            while row < end {
                let d = dy[row * n + c];
                sg += d * (x[row * n + c] - mean[row]) * rstd[row];
                sb += d;
                row += 1;
            }
            dgamma_part[b * n + c] = sg;
            dbeta_part[b * n + c] = sb;
        }
    }

    /// `out[c]` = the sum of the `blocks` partials `part[b * cols + c]`, one thread a column.
    #[sarek::kernel(workgroup_size = [256])]
    pub fn sum_partials(part: &[f32], blocks: u32, out: &mut [f32]) {
        let c = global_thread_id();
        let n = out.len();
        if c < n {
            let mut s = 0.0f32;
            for b in 0..blocks as usize {
                s += part[b * n + c];
            }
            out[c] = s;
        }
    }
}

/// The number of rows of `len` elements of `cols` columns, or
/// [`Error::BadArguments`](crate::Error::BadArguments) for `call` unless `cols > 0` divides `len`
/// and both fit the kernels' `u32` arithmetic.
fn rows_of(call: &str, len: usize, cols: usize) -> Result<usize> {
    if cols == 0 {
        return Err(super::bad_arguments(
            call,
            "a row operation needs at least one column".into(),
        ));
    }
    if !len.is_multiple_of(cols) {
        return Err(super::bad_arguments(
            call,
            format!("{len} elements are not whole rows of {cols} columns"),
        ));
    }
    if u32::try_from(len).is_err() {
        return Err(super::bad_arguments(
            call,
            format!("at most 2^32 - 1 elements, not {len}"),
        ));
    }
    Ok(len / cols)
}

/// [`Error::BadArguments`](crate::Error::BadArguments) for `call` unless `buf` (named `what`) holds
/// `want` elements.
fn check_len<T: crate::gpu::Scalar>(
    call: &str,
    what: &str,
    buf: &Buffer<T>,
    want: usize,
) -> Result<()> {
    if buf.len() == want {
        return Ok(());
    }
    Err(super::bad_arguments(
        call,
        format!("`{what}` holds {} elements, not {want}", buf.len()),
    ))
}

/// The workgroups of a launch over `rows` rows, one a row up to [`MAX_GROUPS`].
fn row_groups(rows: usize) -> Grid {
    Grid::groups(rows.min(MAX_GROUPS))
}

/// Adds to `batch` the softmax of each row of `x` (`cols` columns, row-major) into `y` (as long as
/// `x`): `y = exp(x - max) / Σ exp(x - max)` over the row, so large values do not overflow.
/// [`Error::BadArguments`](crate::Error::BadArguments) unless `cols > 0` divides `x.len()`.
///
/// ```
/// use sarek::algo::rows::enqueue_softmax;
///
/// # fn main() -> sarek::Result<()> {
/// let dev = sarek::Device::new()?;
/// let x = dev.upload(&[1.0f32, 1.0, 2.0f32.ln(), 0.0])?;
/// let mut y = dev.zeros::<f32>(4)?;
/// let mut batch = dev.batch();
/// enqueue_softmax(&mut batch, &x, 2, &mut y)?;
/// batch.submit()?;
/// let y = y.read()?;
/// assert!((y[0] - 0.5).abs() < 1e-6 && (y[2] - 2.0 / 3.0).abs() < 1e-6);
/// # Ok(()) }
/// ```
pub fn enqueue_softmax(
    batch: &mut Batch,
    x: &Buffer<f32>,
    cols: usize,
    y: &mut Buffer<f32>,
) -> Result<()> {
    enqueue_softmax_rows(batch, x, cols, false, y)
}

/// Adds to `batch` the log-softmax of each row of `x` into `y`: `x - max - ln Σ exp(x - max)` over
/// the row, accurate where the softmax itself underflows.
/// [`Error::BadArguments`](crate::Error::BadArguments) unless `cols > 0` divides `x.len()`.
///
/// ```
/// use sarek::algo::rows::enqueue_log_softmax;
///
/// # fn main() -> sarek::Result<()> {
/// let dev = sarek::Device::new()?;
/// let x = dev.upload(&[0.0f32, -200.0])?;
/// let mut y = dev.zeros::<f32>(2)?;
/// let mut batch = dev.batch();
/// enqueue_log_softmax(&mut batch, &x, 2, &mut y)?;
/// batch.submit()?;
/// // exp(-200) underflows f32, its logarithm does not.
/// assert!((y.read()?[1] + 200.0).abs() < 1e-3);
/// # Ok(()) }
/// ```
pub fn enqueue_log_softmax(
    batch: &mut Batch,
    x: &Buffer<f32>,
    cols: usize,
    y: &mut Buffer<f32>,
) -> Result<()> {
    enqueue_softmax_rows(batch, x, cols, true, y)
}

fn enqueue_softmax_rows(
    batch: &mut Batch,
    x: &Buffer<f32>,
    cols: usize,
    log: bool,
    y: &mut Buffer<f32>,
) -> Result<()> {
    let rows = rows_of("softmax", x.len(), cols)?;
    check_len("softmax", "y", y, x.len())?;
    if rows == 0 {
        return Ok(());
    }
    let grid = row_groups(rows);
    // Words of four floats where the matrix is made of whole words (a GPU buffer can be
    // viewed so; the CPU backend's cannot, and gains nothing from it).
    if x.len().is_multiple_of(4) {
        if let (Some(x4), Some(mut y4)) = (super::view(x, x.len() / 4), super::view(y, y.len() / 4))
        {
            return kernels::softmax_rows4.enqueue(
                batch,
                grid,
                &x4,
                rows as u32,
                cols as u32,
                log as u32,
                &mut y4,
            );
        }
    }
    kernels::softmax_rows.enqueue(batch, grid, x, rows as u32, cols as u32, log as u32, y)
}

/// The softmax of each row of `x` (`cols` columns, row-major), as [`enqueue_softmax`] computes
/// it, in a new buffer (PyTorch's `softmax(x, dim=-1)`).
///
/// ```
/// use sarek::algo::rows::softmax;
///
/// # fn main() -> sarek::Result<()> {
/// let dev = sarek::Device::new()?;
/// let x = dev.upload(&[0.0f32, 0.0, 0.0, 0.0])?;
/// assert_eq!(softmax(&dev, &x, 4)?.read()?, [0.25; 4]);
/// # Ok(()) }
/// ```
pub fn softmax(dev: &Device, x: &Buffer<f32>, cols: usize) -> Result<Buffer<f32>> {
    let mut y = dev.zeros::<f32>(x.len())?;
    let mut batch = dev.batch();
    enqueue_softmax(&mut batch, x, cols, &mut y)?;
    batch.submit()?;
    Ok(y)
}

/// The log-softmax of each row of `x`, as [`enqueue_log_softmax`] computes it, in a new
/// buffer (PyTorch's `log_softmax(x, dim=-1)`).
///
/// ```
/// use sarek::algo::rows::log_softmax;
///
/// # fn main() -> sarek::Result<()> {
/// let dev = sarek::Device::new()?;
/// let x = dev.upload(&[5.0f32, 5.0])?;
/// let y = log_softmax(&dev, &x, 2)?.read()?;
/// assert!((y[0] + 2.0f32.ln()).abs() < 1e-6);
/// # Ok(()) }
/// ```
pub fn log_softmax(dev: &Device, x: &Buffer<f32>, cols: usize) -> Result<Buffer<f32>> {
    let mut y = dev.zeros::<f32>(x.len())?;
    let mut batch = dev.batch();
    enqueue_log_softmax(&mut batch, x, cols, &mut y)?;
    batch.submit()?;
    Ok(y)
}

/// The outputs of [`layer_norm`]: the normalised rows and, per row, the mean and the
/// reciprocal standard deviation that [`layer_norm_backward`] takes.
pub struct LayerNorm {
    /// `(x - mean) * rstd * gamma + beta`, as long as `x`.
    pub y: Buffer<f32>,
    /// Each row's mean, one per row.
    pub mean: Buffer<f32>,
    /// Each row's `1 / sqrt(var + eps)` (the biased variance, as PyTorch's), one per row.
    pub rstd: Buffer<f32>,
}

/// Adds to `batch` the layer norm of each row of `x` (`gamma.len()` columns): into `y` (as long as
/// `x`) `(x - mean) / sqrt(var + eps) * gamma + beta`, with the row's mean and biased variance, and
/// into `mean` and `rstd` (one per row) the mean and `1 / sqrt(var + eps)`.
/// [`Error::BadArguments`](crate::Error::BadArguments) unless `gamma` and `beta` have the same
/// length, at least one, dividing `x.len()`.
///
/// ```
/// use sarek::algo::rows::enqueue_layer_norm;
///
/// # fn main() -> sarek::Result<()> {
/// let dev = sarek::Device::new()?;
/// let x = dev.upload(&[1.0f32, 3.0])?;
/// let (gamma, beta) = (dev.upload(&[1.0f32, 2.0])?, dev.upload(&[0.0f32, 10.0])?);
/// let (mut y, mut mean, mut rstd) = (dev.zeros(2)?, dev.zeros(1)?, dev.zeros(1)?);
/// let mut batch = dev.batch();
/// enqueue_layer_norm(&mut batch, &x, &gamma, &beta, 0.0, &mut y, &mut mean, &mut rstd)?;
/// batch.submit()?;
/// assert_eq!(y.read()?, [-1.0, 12.0]);
/// assert_eq!((mean.read()?, rstd.read()?), (vec![2.0], vec![1.0]));
/// # Ok(()) }
/// ```
#[allow(clippy::too_many_arguments)]
pub fn enqueue_layer_norm(
    batch: &mut Batch,
    x: &Buffer<f32>,
    gamma: &Buffer<f32>,
    beta: &Buffer<f32>,
    eps: f32,
    y: &mut Buffer<f32>,
    mean: &mut Buffer<f32>,
    rstd: &mut Buffer<f32>,
) -> Result<()> {
    let cols = gamma.len();
    let rows = rows_of("layer_norm", x.len(), cols)?;
    check_len("layer_norm", "beta", beta, cols)?;
    check_len("layer_norm", "y", y, x.len())?;
    check_len("layer_norm", "mean", mean, rows)?;
    check_len("layer_norm", "rstd", rstd, rows)?;
    if rows == 0 {
        return Ok(());
    }
    // A subgroup per row where there are subgroups: no barrier per row.
    if super::subgroups(batch.device()) {
        let per_group = 8; // rows a workgroup takes at once with subgroups of 32
        return kernels::layer_norm_rows_sg.enqueue(
            batch,
            row_groups(rows.div_ceil(per_group)),
            x,
            gamma,
            beta,
            rows as u32,
            cols as u32,
            eps,
            y,
            mean,
            rstd,
        );
    }
    kernels::layer_norm_rows.enqueue(
        batch,
        row_groups(rows),
        x,
        gamma,
        beta,
        rows as u32,
        cols as u32,
        eps,
        y,
        mean,
        rstd,
    )
}

/// The layer norm of each row of `x` over `gamma.len()` columns, as [`enqueue_layer_norm`]
/// computes it, in new buffers (PyTorch's `layer_norm(x, [cols], gamma, beta, eps)`, with the
/// mean and `rstd` of `native_layer_norm`).
///
/// ```
/// use sarek::algo::rows::layer_norm;
///
/// # fn main() -> sarek::Result<()> {
/// let dev = sarek::Device::new()?;
/// let x = dev.upload(&[2.0f32, 4.0, 6.0, 8.0, 10.0, 12.0])?;
/// let gamma = dev.upload(&[1.0f32; 3])?;
/// let beta = dev.upload(&[0.0f32; 3])?;
/// let out = layer_norm(&dev, &x, &gamma, &beta, 1e-5)?;
/// assert_eq!(out.mean.read()?, [4.0, 10.0]);
/// let y = out.y.read()?;
/// assert!((y[0] + 1.2247).abs() < 1e-3 && y[1].abs() < 1e-6);
/// # Ok(()) }
/// ```
pub fn layer_norm(
    dev: &Device,
    x: &Buffer<f32>,
    gamma: &Buffer<f32>,
    beta: &Buffer<f32>,
    eps: f32,
) -> Result<LayerNorm> {
    let rows = rows_of("layer_norm", x.len(), gamma.len())?;
    let mut out = LayerNorm {
        y: dev.zeros(x.len())?,
        mean: dev.zeros(rows)?,
        rstd: dev.zeros(rows)?,
    };
    let mut batch = dev.batch();
    enqueue_layer_norm(
        &mut batch,
        x,
        gamma,
        beta,
        eps,
        &mut out.y,
        &mut out.mean,
        &mut out.rstd,
    )?;
    batch.submit()?;
    Ok(out)
}

/// The gradients of [`layer_norm`] from [`layer_norm_backward`].
pub struct LayerNormGrads {
    /// The gradient of the input, as long as it.
    pub dx: Buffer<f32>,
    /// The gradient of `gamma`: `Σ dy * (x - mean) * rstd` over the rows.
    pub dgamma: Buffer<f32>,
    /// The gradient of `beta`: `Σ dy` over the rows.
    pub dbeta: Buffer<f32>,
}

/// Scratch for the parameter gradients of [`layer_norm_backward`] and its `enqueue`: the partial
/// sums of `dgamma` and `dbeta` over blocks of rows, for one shape.
pub struct LayerNormBackward {
    rows: usize,
    cols: usize,
    block_rows: usize,
    dgamma_part: Buffer<f32>,
    dbeta_part: Buffer<f32>,
}

impl LayerNormBackward {
    /// Scratch for the backward pass over `rows × cols` inputs: the rows are summed in blocks
    /// of at least 64, at most 4096 blocks, so it holds at most `2 · 4096 · cols` floats.
    ///
    /// ```
    /// use sarek::algo::rows::LayerNormBackward;
    ///
    /// # fn main() -> sarek::Result<()> {
    /// let dev = sarek::Device::new()?;
    /// let scratch = LayerNormBackward::new(&dev, 8192, 768)?;
    /// # let _ = scratch;
    /// # Ok(()) }
    /// ```
    pub fn new(dev: &Device, rows: usize, cols: usize) -> Result<LayerNormBackward> {
        let block_rows = rows.div_ceil(4096).max(64);
        let blocks = rows.div_ceil(block_rows);
        Ok(LayerNormBackward {
            rows,
            cols,
            block_rows,
            dgamma_part: dev.zeros(blocks * cols)?,
            dbeta_part: dev.zeros(blocks * cols)?,
        })
    }

    /// Adds layer norm's backward pass to `batch`: from the output gradient `dy`, the input `x`,
    /// the `mean` and `rstd` that the forward pass returned and `gamma`, the input gradient into
    /// `dx` and the parameter gradients into `dgamma` and `dbeta` (each `cols` long).
    /// [`Error::BadArguments`](crate::Error::BadArguments) unless the shapes are this scratch's.
    ///
    /// ```
    /// use sarek::algo::rows::{layer_norm, LayerNormBackward};
    ///
    /// # fn main() -> sarek::Result<()> {
    /// let dev = sarek::Device::new()?;
    /// let x = dev.upload(&[1.0f32, 3.0, 0.0, 4.0])?;
    /// let gamma = dev.upload(&[1.0f32, 1.0])?;
    /// let fwd = layer_norm(&dev, &x, &gamma, &dev.zeros(2)?, 0.0)?;
    /// let dy = dev.upload(&[1.0f32, 1.0, 0.0, 2.0])?;
    /// let (mut dx, mut dgamma, mut dbeta) = (dev.zeros(4)?, dev.zeros(2)?, dev.zeros(2)?);
    /// let mut scratch = LayerNormBackward::new(&dev, 2, 2)?;
    /// let mut batch = dev.batch();
    /// scratch.enqueue(
    ///     &mut batch, &dy, &x, &fwd.mean, &fwd.rstd, &gamma, &mut dx, &mut dgamma, &mut dbeta,
    /// )?;
    /// batch.submit()?;
    /// // xhat is [-1, 1] in both rows.
    /// assert_eq!(dbeta.read()?, [1.0, 3.0]);
    /// assert_eq!(dgamma.read()?, [-1.0, 3.0]);
    /// // A gradient along the row's constant direction does not reach the input.
    /// assert_eq!(dx.read()?[..2], [0.0, 0.0]);
    /// # Ok(()) }
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn enqueue(
        &mut self,
        batch: &mut Batch,
        dy: &Buffer<f32>,
        x: &Buffer<f32>,
        mean: &Buffer<f32>,
        rstd: &Buffer<f32>,
        gamma: &Buffer<f32>,
        dx: &mut Buffer<f32>,
        dgamma: &mut Buffer<f32>,
        dbeta: &mut Buffer<f32>,
    ) -> Result<()> {
        let (rows, cols) = (self.rows, self.cols);
        if cols == 0 || x.len() != rows * cols {
            return Err(super::bad_arguments(
                "layer_norm_backward",
                format!(
                    "the backward pass's scratch was made for {rows} rows of {cols} columns, \
                     not {} elements",
                    x.len()
                ),
            ));
        }
        rows_of("layer_norm_backward", x.len(), cols)?;
        check_len("layer_norm_backward", "dy", dy, x.len())?;
        check_len("layer_norm_backward", "dx", dx, x.len())?;
        check_len("layer_norm_backward", "mean", mean, rows)?;
        check_len("layer_norm_backward", "rstd", rstd, rows)?;
        check_len("layer_norm_backward", "gamma", gamma, cols)?;
        check_len("layer_norm_backward", "dgamma", dgamma, cols)?;
        check_len("layer_norm_backward", "dbeta", dbeta, cols)?;
        let blocks = rows.div_ceil(self.block_rows);
        if rows > 0 {
            kernels::layer_norm_backward_rows.enqueue(
                batch,
                row_groups(rows),
                dy,
                x,
                mean,
                rstd,
                gamma,
                rows as u32,
                cols as u32,
                dx,
            )?;
            kernels::layer_norm_param_partials.enqueue(
                batch,
                Grid::groups_2d(cols.div_ceil(256), blocks),
                dy,
                x,
                mean,
                rstd,
                rows as u32,
                cols as u32,
                self.block_rows as u32,
                &mut self.dgamma_part,
                &mut self.dbeta_part,
            )?;
        }
        // With no rows the sums are over nothing: zero.
        let grid = Grid::cover(cols);
        kernels::sum_partials.enqueue(batch, grid, &self.dgamma_part, blocks as u32, dgamma)?;
        kernels::sum_partials.enqueue(batch, grid, &self.dbeta_part, blocks as u32, dbeta)
    }
}

/// Layer norm's backward pass, as [`LayerNormBackward::enqueue`] computes it, in new buffers
/// (the gradients PyTorch's autograd gives `x`, `weight` and `bias` of `layer_norm`).
///
/// ```
/// use sarek::algo::rows::{layer_norm, layer_norm_backward};
///
/// # fn main() -> sarek::Result<()> {
/// let dev = sarek::Device::new()?;
/// let x = dev.upload(&[1.0f32, 2.0, 3.0])?;
/// let gamma = dev.upload(&[1.0f32; 3])?;
/// let fwd = layer_norm(&dev, &x, &gamma, &dev.zeros(3)?, 1e-5)?;
/// let dy = dev.upload(&[0.5f32; 3])?;
/// let g = layer_norm_backward(&dev, &dy, &x, &fwd.mean, &fwd.rstd, &gamma)?;
/// assert_eq!(g.dbeta.read()?, [0.5; 3]);
/// assert!(g.dx.read()?.iter().all(|d| d.abs() < 1e-6));
/// # Ok(()) }
/// ```
pub fn layer_norm_backward(
    dev: &Device,
    dy: &Buffer<f32>,
    x: &Buffer<f32>,
    mean: &Buffer<f32>,
    rstd: &Buffer<f32>,
    gamma: &Buffer<f32>,
) -> Result<LayerNormGrads> {
    let cols = gamma.len();
    let rows = rows_of("layer_norm_backward", x.len(), cols)?;
    let mut out = LayerNormGrads {
        dx: dev.zeros(x.len())?,
        dgamma: dev.zeros(cols)?,
        dbeta: dev.zeros(cols)?,
    };
    let mut scratch = LayerNormBackward::new(dev, rows, cols)?;
    let mut batch = dev.batch();
    scratch.enqueue(
        &mut batch,
        dy,
        x,
        mean,
        rstd,
        gamma,
        &mut out.dx,
        &mut out.dgamma,
        &mut out.dbeta,
    )?;
    batch.submit()?;
    Ok(out)
}

/// Adds to `batch` the cross-entropy of each row of logits `x` (`cols` columns) against its class
/// `targets[row]`: `loss[row] = logsumexp(x[row]) - x[row, target]` (NaN where the target is `cols`
/// or more), and their mean to `mean[0]` (NaN with no rows).
/// [`Error::BadArguments`](crate::Error::BadArguments) unless `cols > 0` divides `x.len()` and
/// `targets` and `loss` hold one element per row.
///
/// ```
/// use sarek::algo::rows::enqueue_cross_entropy;
///
/// # fn main() -> sarek::Result<()> {
/// let dev = sarek::Device::new()?;
/// let x = dev.upload(&[0.0f32, 0.0, 0.0, 0.0, 100.0, 0.0])?;
/// let targets = dev.upload(&[2u32, 1])?;
/// let (mut loss, mut mean) = (dev.zeros(2)?, dev.zeros(1)?);
/// let mut batch = dev.batch();
/// enqueue_cross_entropy(&mut batch, &x, 3, &targets, &mut loss, &mut mean)?;
/// batch.submit()?;
/// let loss = loss.read()?;
/// assert!((loss[0] - 3.0f32.ln()).abs() < 1e-6 && loss[1].abs() < 1e-6);
/// assert!((mean.read()?[0] - 3.0f32.ln() / 2.0).abs() < 1e-6);
/// # Ok(()) }
/// ```
pub fn enqueue_cross_entropy(
    batch: &mut Batch,
    x: &Buffer<f32>,
    cols: usize,
    targets: &Buffer<u32>,
    loss: &mut Buffer<f32>,
    mean: &mut Buffer<f32>,
) -> Result<()> {
    let rows = rows_of("cross_entropy", x.len(), cols)?;
    check_len("cross_entropy", "targets", targets, rows)?;
    check_len("cross_entropy", "loss", loss, rows)?;
    check_len("cross_entropy", "mean", mean, 1)?;
    if rows > 0 {
        kernels::cross_entropy_rows.enqueue(
            batch,
            row_groups(rows),
            x,
            targets,
            rows as u32,
            cols as u32,
            &mut *loss,
        )?;
    }
    kernels::mean_f32.enqueue(batch, Grid::groups(1), &*loss, mean)
}

/// The cross-entropy of each row of logits `x` against `targets`, and their mean, from
/// [`cross_entropy`].
pub struct CrossEntropy {
    /// Each row's loss, one per row.
    pub loss: Buffer<f32>,
    /// The mean of the losses (PyTorch's `cross_entropy` with `reduction="mean"`).
    pub mean: f32,
}

/// The cross-entropy of each row of logits `x` (`cols` columns) against its class
/// `targets[row]`, as [`enqueue_cross_entropy`] computes it, and their mean, read back.
///
/// ```
/// use sarek::algo::rows::cross_entropy;
///
/// # fn main() -> sarek::Result<()> {
/// let dev = sarek::Device::new()?;
/// let x = dev.upload(&[1.0f32, 1.0, 1.0, 1.0])?;
/// let ce = cross_entropy(&dev, &x, 4, &dev.upload(&[3u32])?)?;
/// assert!((ce.mean - 4.0f32.ln()).abs() < 1e-6);
/// assert_eq!(ce.loss.len(), 1);
/// # Ok(()) }
/// ```
pub fn cross_entropy(
    dev: &Device,
    x: &Buffer<f32>,
    cols: usize,
    targets: &Buffer<u32>,
) -> Result<CrossEntropy> {
    let rows = rows_of("cross_entropy", x.len(), cols)?;
    let mut loss = dev.zeros(rows)?;
    let mut mean = dev.zeros(1)?;
    let mut batch = dev.batch();
    enqueue_cross_entropy(&mut batch, x, cols, targets, &mut loss, &mut mean)?;
    batch.submit()?;
    let mean = mean.read()?[0];
    Ok(CrossEntropy { loss, mean })
}
