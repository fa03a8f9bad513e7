//! Scaled dot-product attention, forward, as PyTorch's `scaled_dot_product_attention`:
//! `O = softmax(Q · Kᵀ · scale (+ causal mask)) · V` for `f16` tensors of shape `[B, H, T, d]`
//! (batch, heads, sequence, head dimension; row-major, so each head is a `T`×`d` matrix), with
//! `scale = 1/√d` unless set, in one fused kernel that never writes the `T`×`T` matrix.
//!
//! ```
//! use sarek::algo::attention::{attention, Attention};
//! use sarek::f16;
//!
//! # fn main() -> sarek::Result<()> {
//! let dev = sarek::Device::new()?;
//! // One head of three positions, d = 64: every key equal, so each output row is the mean of
//! // the values (causal: of the values up to its position).
//! let (t, d) = (3, 64);
//! let q = dev.upload(&vec![f16::from_f32(0.5); t * d])?;
//! let k = dev.upload(&vec![f16::from_f32(0.25); t * d])?;
//! let v: Vec<f16> = (0..t * d).map(|i| f16::from_f32((i / d) as f32)).collect();
//! let v = dev.upload(&v)?;
//! let o = attention(&dev, &q, &k, &v, &Attention::new(1, 1, t, d).causal(true))?.read()?;
//! assert_eq!(o[0].to_f32(), 0.0); // row 0 sees value row 0
//! assert_eq!(o[d].to_f32(), 0.5); // row 1: the mean of 0 and 1
//! assert_eq!(o[2 * d].to_f32(), 1.0); // row 2: the mean of 0, 1 and 2
//! # Ok(()) }
//! ```
//!
//! [`Attention::enqueue`] adds the same work to a [`Batch`] without waiting, into a buffer of
//! your own.
//!
//! # The kernels
//!
//! Both are FlashAttention-2's loop: a workgroup owns a block of 64 query rows of one head,
//! walks the head's keys and values a block at a time (staged in workgroup memory, zero past
//! `T`), keeps each row's running maximum and sum of `exp(s - max)` (an online softmax) and
//! the row's output accumulator in `f32`, and divides by the sum once at the end; with
//! `causal`, blocks wholly above the diagonal are not visited and the diagonal's are masked.
//!
//! - [`kernels::attention_tiled`], the portable one (every device with `SHADER_F16`, and what
//!   the CPU backend runs by default): one thread per query row, its row of `Q` and its output
//!   in registers, blocks of 32 keys and values of up to 128 halves each in 16 KiB of
//!   workgroup memory (WebGPU's guaranteed amount), so any `d` from 1 to 128 runs;
//! - [`kernels::attention_coop`], on cooperative matrices of 16×16×16 with `f16` A and B and an
//!   `f32` C (NVIDIA's tensor cores; see [extensions](crate::guide::extensions)), `d` = 64 or
//!   128: four subgroups of 32, each 16 query rows, `Q` held in matrices for the whole loop;
//!   `S = Q · Kᵀ` on the matrices, staged to workgroup memory, the softmax applied by the
//!   subgroup's threads in one pass (two a row, which meet by a subgroup shuffle, so the
//!   kernel needs `SUBGROUP`), `P` rounded to `f16` and `O += P · V` on the matrices.
//!   Its tiles are sized for the 48 KiB of workgroup memory WGSL has on an H200 (and no
//!   asynchronous copies, so a block is loaded, then used): key blocks of 64 for `d` = 64 and
//!   32 for `d` = 128, 44,560 bytes in all (see the kernel). On a GPU it reads `Q`, `K` and
//!   `V` as words of four halves and loads each block's words during the previous block's
//!   products ([`kernels::attention_coop_x4`]).
//!
//! A cooperative matrix's elements cannot be scaled in place (WGSL offers loads, stores and
//! multiply-adds only), so the output accumulator cannot be rescaled at every block as
//! FlashAttention-2 does on CUDA. The kernel instead keeps a row's maximum until a block's
//! scores pass it by more than 8 (so every `exp` stays below `e^8`, well inside `f16`), and
//! only then rescales the accumulators, through workgroup memory; after the first blocks of a
//! row that is rare. The result is the same softmax: the maximum only guards the exponentials.
//!
//! Both sum in `f32`; `P` is rounded to `f16` before `P · V` on the cooperative kernel (as
//! FlashAttention does), and each output is rounded once to `f16`.

use crate::{Batch, Buffer, Device, Error, Grid, Result};

/// The query rows one workgroup of either kernel owns.
pub const QUERY_BLOCK: usize = 64;

/// The largest head dimension of the portable kernel.
pub const MAX_TILED_HEAD_DIM: usize = 128;

/// The head dimensions of the cooperative kernel.
pub const COOP_HEAD_DIMS: [usize; 2] = [64, 128];

/// The kernels of attention, public as an example of a library written in Sarek;
/// [`Attention`] and [`attention()`] are how they are meant to be used.
///
/// Both take `q`, `k`, `v` and the output `o` (`[B, H, T, d]` row-major halves, one head after
/// another), `t_len` (`T`), the scale and `causal` (0 or 1), and run on a grid of
/// `⌈T / 64⌉ × B·H` workgroups: `block_idx_x` picks the block of query rows (the cooperative
/// kernels take the last block first), `block_idx_y` the head.
#[sarek::module]
pub mod kernels {
    use sarek::coop::{A, B, C};
    use sarek::f16;
    use sarek::prelude::*;

    /// The portable kernel, for any head dimension `d` from 1 to 128: thread `t` owns query row
    /// `64 · block_idx_x + t` (its row of `Q`, pre-scaled, and its output in `f32` registers);
    /// each step stages 32 keys and values of the head in workgroup memory (two arrays of
    /// 32×128 halves: 16 KiB, WebGPU's guaranteed workgroup memory), computes the row's 32
    /// scores, rescales the row's sum and output once to the block's maximum, and adds the
    /// block's weighted values.
    #[sarek::kernel(workgroup_size = [64])]
    pub fn attention_tiled(
        q: &[f16],
        k: &[f16],
        v: &[f16],
        o: &mut [f16],
        t_len: u32,
        d: u32,
        scale: f32,
        causal: u32,
    ) {
        let ks = shared::<[f16; 4096]>();
        let vs = shared::<[f16; 4096]>();
        let t = thread_idx_x();
        let n = t_len as usize;
        let d = d as usize;
        let head = block_idx_y() * n * d;
        let q0 = block_idx_x() * 64;
        let qi = q0 + t;
        let live = qi < n;
        let mut qr = [0.0f32; 128];
        let mut acc = [0.0f32; 128];
        let mut c = 0;
        while c < d {
            qr[c] = if live {
                q[head + qi * d + c].to_f32() * scale
            } else {
                0.0
            };
            c += 1;
        }
        let mut m = -f32::MAX;
        let mut l = 0.0f32;
        // Causal: no key past the block's last row is visited.
        let kend = if causal != 0 { n.min(q0 + 64) } else { n };
        let mut kb = 0;
        while kb < kend {
            let mut e = t;
            while e < 32 * d {
                let key = kb + e / d;
                let at = if key < n { head + key * d + e % d } else { 0 };
                let (kx, vx) = (k[at], v[at]);
                ks[e] = if key < n { kx } else { f16::ZERO };
                vs[e] = if key < n { vx } else { f16::ZERO };
                e += 64;
            }
            block_barrier();
            let mut s = [0.0f32; 32];
            let mut mx = m;
            let mut j = 0;
            while j < 32 {
                let key = kb + j;
                let ok = live && key < n && (causal == 0 || key <= qi);
                let mut dot = 0.0f32;
                if ok {
                    let mut c = 0;
                    while c < d {
                        dot += qr[c] * ks[j * d + c].to_f32();
                        c += 1;
                    }
                    mx = mx.max(dot);
                }
                // `-f32::MAX` marks a masked key (no score reaches it).
                s[j] = if ok { dot } else { -f32::MAX };
                j += 1;
            }
            // One rescale a block: the row's sum and output to the new maximum.
            let corr = (m - mx).exp();
            l *= corr;
            c = 0;
            while c < d {
                acc[c] *= corr;
                c += 1;
            }
            j = 0;
            while j < 32 {
                if s[j] > -f32::MAX {
                    let p = (s[j] - mx).exp();
                    l += p;
                    let mut c = 0;
                    while c < d {
                        acc[c] += p * vs[j * d + c].to_f32();
                        c += 1;
                    }
                }
                j += 1;
            }
            m = mx;
            // Everyone has read the block before the next one overwrites it.
            block_barrier();
            kb += 32;
        }
        if live {
            let inv = 1.0 / l;
            c = 0;
            while c < d {
                o[head + qi * d + c] = f16::from_f32(acc[c] * inv);
                c += 1;
            }
        }
    }

    /// The largest of the four scores `x` of keys `key..key + 4` that lie below `lim`
    /// (`-f32::MAX`, which no maximum takes, where none does).
    pub fn word_max(x: Vec4, key: usize, lim: usize) -> f32 {
        let a = visible(x.x, key < lim).max(visible(x.y, key + 1 < lim));
        a.max(visible(x.z, key + 2 < lim).max(visible(x.w, key + 3 < lim)))
    }

    /// `x` where `ok`, else `-f32::MAX`.
    pub fn visible(x: f32, ok: bool) -> f32 {
        if ok {
            x
        } else {
            -f32::MAX
        }
    }

    /// The weights `exp(x - m)` of keys `key..key + 4`, 0 from `lim` on, rounded to halves.
    pub fn word_weights(x: Vec4, key: usize, lim: usize, m: f32) -> F16Vec4 {
        F16Vec4::new(
            weight(x.x, key < lim, m),
            weight(x.y, key + 1 < lim, m),
            weight(x.z, key + 2 < lim, m),
            weight(x.w, key + 3 < lim, m),
        )
    }

    /// `exp(x - m)` rounded to a half where `ok`, else 0.
    pub fn weight(x: f32, ok: bool, m: f32) -> f16 {
        f16::from_f32(if ok { (x - m).exp() } else { 0.0 })
    }

    /// The sum of four halves, in `f32`.
    pub fn word_sum(h: F16Vec4) -> f32 {
        let w = h.to_vec4();
        (w.x + w.y) + (w.z + w.w)
    }

    /// One block's softmax for the row this thread shares with its neighbouring lane: its
    /// `half` of the row's `2 · hw` words of scores at `ss[srow..]` become weights
    /// `exp(s · scale - m)` at `ps[prow..]` against the row's maximum so far `m`, summed, in
    /// one pass that also finds the block's maximum (the two lanes' maxima and sums meet by a
    /// subgroup shuffle); a row whose block passes `m` by more than 8 takes the block's
    /// maximum and does the pass again (every row's first block, later ones rarely). Writes
    /// the row's rescale factor to `frow[row]`, raises `flag[0]` where a row with an earlier
    /// sum moved its maximum, and returns the row's new maximum and sum (of the rounded
    /// weights, the ones `P · V` multiplies). Each thread's words start at a word of its own
    /// (`r` rotates them), so that every eight threads read eight different 16-byte banks.
    #[allow(clippy::too_many_arguments)]
    pub fn block_softmax(
        ss: &[Vec4; 1024],
        ps: &mut [F16Vec4; 1152],
        frow: &mut [f32; 64],
        flag: &mut [u32; 1],
        srow: usize,
        prow: usize,
        hw: usize,
        r: usize,
        half: usize,
        row: usize,
        kb: usize,
        lim: usize,
        scale: f32,
        m: f32,
        l: f32,
    ) -> (f32, f32) {
        let mut mx = -f32::MAX;
        let mut sum = 0.0f32;
        let mut c = 0;
        while c < hw {
            let col = half * hw + (c + r + 4 * half) % hw;
            let x = ss[srow + col] * scale;
            let key = kb + 4 * col;
            mx = mx.max(word_max(x, key, lim));
            let ph = word_weights(x, key, lim, m);
            ps[prow + col] = ph;
            sum += word_sum(ph);
            c += 1;
        }
        let mblk = mx.max(subgroup_shuffle_xor(mx, 1));
        let grow = mblk > m + 8.0;
        if grow {
            sum = 0.0;
            c = 0;
            while c < hw {
                let col = half * hw + (c + r + 4 * half) % hw;
                let x = ss[srow + col] * scale;
                let ph = word_weights(x, kb + 4 * col, lim, mblk);
                ps[prow + col] = ph;
                sum += word_sum(ph);
                c += 1;
            }
        }
        let mnew = if grow { mblk } else { m };
        sum += subgroup_shuffle_xor(sum, 1);
        let f = (m - mnew).exp();
        if half == 0 {
            frow[row] = f;
            if grow && l > 0.0 {
                flag[0] = 1;
            }
        }
        (mnew, l * f + sum)
    }

    /// The cooperative kernel for head dimension `D` (64 or 128), on 16×16×16 matrices of
    /// `f16` A and B and `f32` C: four subgroups of 32 (`t / 32`, as on NVIDIA; the CPU
    /// backend's emulated subgroups compute the same), each owning 16 of the workgroup's 64
    /// query rows, its `Q` as `D / 16` A matrices and its output as `D / 16` accumulators.
    ///
    /// Workgroup memory, sized for the 48 KiB of an H200 (44,560 bytes): key blocks of
    /// `BK = 4096 / D` rows (64 for `D` = 64, 32 for `D` = 128), `K` and `V` of a block in
    /// `kv` at rows of `D + 8` halves (padded so that each matrix load starts on 16 bytes;
    /// 18,432 bytes, which first holds the 64 rows of `Q`), each subgroup's 16×`BK` scores in
    /// `f32` (16,384 bytes) and its 16×`BK` weights `P` in `f16` at rows of `BK + 8` (9,216
    /// bytes), both as words of four, and the rows' sums and rescale factors.
    ///
    /// Per block: `S = Q · Kᵀ` (`Kᵀ` loaded column-major from `K`'s rows), stored; two threads
    /// a row (their partial maxima and sums exchanged by a subgroup shuffle) write
    /// `P = exp(s · scale - max)` as halves against the row's running maximum and add them
    /// to the row's sum in one pass, and keep that maximum unless the block passes it by
    /// more than 8, where the row takes the new one and writes `P` again; where a row with
    /// earlier sums moved its maximum, every accumulator is stored, scaled by row and loaded
    /// again (the one place the whole output is touched); then `O += P · V`. Four barriers
    /// a block. At the end each accumulator passes through workgroup memory to be divided by
    /// its row's sum and written where the row is inside `T`.
    #[sarek::kernel(workgroup_size = [128], limits = "device", instances(D = [64, 128]))]
    pub fn attention_coop<const D: usize>(
        q: &[f16],
        k: &[f16],
        v: &[f16],
        o: &mut [f16],
        t_len: u32,
        scale: f32,
        causal: u32,
    ) {
        // K at 0 and V at 4608 (64×72 or 32×136 halves each); Q's 64×(D + 8) first.
        let kv = shared::<[f16; 9216]>();
        let ss = shared::<[Vec4; 1024]>();
        let ps = shared::<[F16Vec4; 1152]>();
        let lrow = shared::<[f32; 64]>();
        let frow = shared::<[f32; 64]>();
        let flag = shared::<[u32; 1]>();
        let t = thread_idx_x();
        let sg = t / 32;
        let lane = t % 32;
        let n = t_len as usize;
        let head = block_idx_y() * n * D;
        // The longest causal blocks (the last rows) first, so that the short ones fill the tail.
        let q0 = (grid_dim_x() - 1 - block_idx_x()) * 64;
        let ds = D + 8;
        let bk = 4096 / D;
        let mut e = t;
        while e < 64 * D {
            let r = e / D;
            let qi = q0 + r;
            let at = if qi < n { head + qi * D + e % D } else { 0 };
            let x = q[at];
            kv[r * ds + e % D] = if qi < n { x } else { f16::ZERO };
            e += 128;
        }
        block_barrier();
        let mut qa = [CoopMatrix::<f16, 16, A>::zeros(); 8];
        for kk in 0..D / 16 {
            qa[kk] = CoopMatrix::load_rows(kv, sg * 16 * ds + 16 * kk, ds);
        }
        let mut acc = [CoopMatrix::<f32, 16, C>::zeros(); 8];
        // Everyone holds its Q before the first block overwrites it.
        block_barrier();
        // This thread's row of the softmax (two threads a row, each half of the block).
        let r = lane / 2;
        let half = lane % 2;
        let row = sg * 16 + r;
        let qi = q0 + row;
        // Scores and weights as words of four: each row of `S` is `bw` words of `ss`, each
        // row of `P` `pstride` words of `ps` (padded by two).
        let bw = bk / 4;
        let sbase = sg * 16 * bw;
        let pstride = bw + 2;
        let pbase = sg * 16 * pstride;
        // Each thread's half of a row of scores, in words.
        let hw = bk / 8;
        // The keys this row sees: below `lim`.
        let lim = if causal != 0 { n.min(qi + 1) } else { n };
        // The row's running maximum and sum, the same in both of its threads.
        let mut m = -f32::MAX;
        let mut l = 0.0f32;
        let kend = if causal != 0 { n.min(q0 + 64) } else { n };
        let mut kb = 0;
        while kb < kend {
            e = t;
            while e < bk * D {
                let key = kb + e / D;
                let at = if key < n { head + key * D + e % D } else { 0 };
                let (kx, vx) = (k[at], v[at]);
                let to = (e / D) * ds + e % D;
                kv[to] = if key < n { kx } else { f16::ZERO };
                kv[4608 + to] = if key < n { vx } else { f16::ZERO };
                e += 128;
            }
            if t == 0 {
                flag[0] = 0;
            }
            block_barrier();
            for j in 0..4096 / D / 16 {
                let mut s = CoopMatrix::<f32, 16, C>::zeros();
                for kk in 0..D / 16 {
                    let kt = CoopMatrix::<f16, 16, B>::load_columns(kv, 16 * j * ds + 16 * kk, ds);
                    s = qa[kk].multiply_add(kt, s);
                }
                s.store_rows(ss, sbase + 4 * j, bw);
            }
            block_barrier();
            let row_stats = block_softmax(
                ss,
                ps,
                frow,
                flag,
                sbase + r * bw,
                pbase + r * pstride,
                hw,
                r,
                half,
                row,
                kb,
                lim,
                scale,
                m,
                l,
            );
            m = row_stats.0;
            l = row_stats.1;
            if workgroup_uniform_load(&flag[0]) != 0 {
                for j in 0..D / 16 {
                    acc[j].store_rows(ss, sbase, 4);
                    block_barrier();
                    for qq in 0..2 {
                        let x = lane + 32 * qq;
                        ss[sbase + x] = ss[sbase + x] * frow[sg * 16 + x / 4];
                    }
                    block_barrier();
                    acc[j] = CoopMatrix::load_rows(ss, sbase, 4);
                    block_barrier();
                }
            }
            let mut pa = [CoopMatrix::<f16, 16, A>::zeros(); 4];
            for kk in 0..4096 / D / 16 {
                pa[kk] = CoopMatrix::load_rows(ps, pbase + 4 * kk, pstride);
            }
            for j in 0..D / 16 {
                for kk in 0..4096 / D / 16 {
                    let vt =
                        CoopMatrix::<f16, 16, B>::load_rows(kv, 4608 + 16 * kk * ds + 16 * j, ds);
                    acc[j] = pa[kk].multiply_add(vt, acc[j]);
                }
            }
            // Everyone has used the block before the next one overwrites it.
            block_barrier();
            kb += bk;
        }
        if half == 0 {
            lrow[row] = l;
        }
        for j in 0..D / 16 {
            acc[j].store_rows(ss, sbase, 4);
            block_barrier();
            for qq in 0..2 {
                let x = lane + 32 * qq;
                let rr = sg * 16 + x / 4;
                let qi = q0 + rr;
                if qi < n {
                    let y = ss[sbase + x] / lrow[rr];
                    let at = head + qi * D + 16 * j + 4 * (x % 4);
                    o[at] = f16::from_f32(y.x);
                    o[at + 1] = f16::from_f32(y.y);
                    o[at + 2] = f16::from_f32(y.z);
                    o[at + 3] = f16::from_f32(y.w);
                }
            }
            block_barrier();
        }
    }

    /// [`attention_coop`] reading `Q`, `K` and `V` as words of four halves (`F16Vec4`; every
    /// row of `d` = 64 or 128 halves starts on a word), what runs on a GPU: each block's words
    /// are loaded into registers during the previous block's products (eight words of `K`
    /// and eight of `V` a thread), then stored to workgroup memory at its top, as the
    /// library's fastest matrix product does. Workgroup memory and the rest of the loop are
    /// [`attention_coop`]'s, with `kv` held as words (offsets and strides in words).
    #[sarek::kernel(workgroup_size = [128], limits = "device", instances(D = [64, 128]))]
    pub fn attention_coop_x4<const D: usize>(
        q: &[F16Vec4],
        k: &[F16Vec4],
        v: &[F16Vec4],
        o: &mut [f16],
        t_len: u32,
        scale: f32,
        causal: u32,
    ) {
        let kv = shared::<[F16Vec4; 2304]>();
        let ss = shared::<[Vec4; 1024]>();
        let ps = shared::<[F16Vec4; 1152]>();
        let lrow = shared::<[f32; 64]>();
        let frow = shared::<[f32; 64]>();
        let flag = shared::<[u32; 1]>();
        let t = thread_idx_x();
        let sg = t / 32;
        let lane = t % 32;
        let n = t_len as usize;
        let head = block_idx_y() * n * D;
        let hw4 = head / 4;
        // The longest causal blocks (the last rows) first, so that the short ones fill the tail.
        let q0 = (grid_dim_x() - 1 - block_idx_x()) * 64;
        // Rows of `D / 4` words, padded by two words.
        let w = D / 4;
        let ds = w + 2;
        let bk = 4096 / D;
        let mut e = t;
        while e < 64 * w {
            let r = e / w;
            let qi = q0 + r;
            let at = if qi < n { hw4 + qi * w + e % w } else { 0 };
            let x = q[at];
            kv[r * ds + e % w] = if qi < n { x } else { F16Vec4::ZERO };
            e += 128;
        }
        block_barrier();
        let mut qa = [CoopMatrix::<f16, 16, A>::zeros(); 8];
        for kk in 0..D / 16 {
            qa[kk] = CoopMatrix::load_rows(kv, sg * 16 * ds + 4 * kk, ds);
        }
        let mut acc = [CoopMatrix::<f32, 16, C>::zeros(); 8];
        // The first block's words (1024 of `K` and of `V` for either `D`: eight a thread).
        let mut rk = [F16Vec4::ZERO; 8];
        let mut rv = [F16Vec4::ZERO; 8];
        for j in 0..8 {
            let x = t + 128 * j;
            let key = x / w;
            let at = if key < n { hw4 + key * w + x % w } else { 0 };
            let (kx, vx) = (k[at], v[at]);
            rk[j] = if key < n { kx } else { F16Vec4::ZERO };
            rv[j] = if key < n { vx } else { F16Vec4::ZERO };
        }
        // Everyone holds its Q before the first block overwrites it.
        block_barrier();
        let r = lane / 2;
        let half = lane % 2;
        let row = sg * 16 + r;
        let qi = q0 + row;
        // Scores and weights as words of four: each row of `S` is `bw` words of `ss`, each
        // row of `P` `pstride` words of `ps` (padded by two).
        let bw = bk / 4;
        let sbase = sg * 16 * bw;
        let pstride = bw + 2;
        let pbase = sg * 16 * pstride;
        // Each thread's half of a row of scores, in words.
        let hw = bk / 8;
        // The keys this row sees: below `lim`.
        let lim = if causal != 0 { n.min(qi + 1) } else { n };
        // The row's running maximum and sum, the same in both of its threads.
        let mut m = -f32::MAX;
        let mut l = 0.0f32;
        let kend = if causal != 0 { n.min(q0 + 64) } else { n };
        let mut kb = 0;
        while kb < kend {
            for j in 0..8 {
                let x = t + 128 * j;
                let to = (x / w) * ds + x % w;
                kv[to] = rk[j];
                kv[1152 + to] = rv[j];
            }
            if t == 0 {
                flag[0] = 0;
            }
            block_barrier();
            // The next block's words, in flight during this block's work.
            let kn = kb + bk;
            for j in 0..8 {
                let x = t + 128 * j;
                let key = kn + x / w;
                let at = if key < n { hw4 + key * w + x % w } else { 0 };
                let (kx, vx) = (k[at], v[at]);
                rk[j] = if key < n { kx } else { F16Vec4::ZERO };
                rv[j] = if key < n { vx } else { F16Vec4::ZERO };
            }
            for j in 0..4096 / D / 16 {
                let mut s = CoopMatrix::<f32, 16, C>::zeros();
                for kk in 0..D / 16 {
                    let kt = CoopMatrix::<f16, 16, B>::load_columns(kv, 16 * j * ds + 4 * kk, ds);
                    s = qa[kk].multiply_add(kt, s);
                }
                s.store_rows(ss, sbase + 4 * j, bw);
            }
            block_barrier();
            let row_stats = block_softmax(
                ss,
                ps,
                frow,
                flag,
                sbase + r * bw,
                pbase + r * pstride,
                hw,
                r,
                half,
                row,
                kb,
                lim,
                scale,
                m,
                l,
            );
            m = row_stats.0;
            l = row_stats.1;
            if workgroup_uniform_load(&flag[0]) != 0 {
                for j in 0..D / 16 {
                    acc[j].store_rows(ss, sbase, 4);
                    block_barrier();
                    for qq in 0..2 {
                        let x = lane + 32 * qq;
                        ss[sbase + x] = ss[sbase + x] * frow[sg * 16 + x / 4];
                    }
                    block_barrier();
                    acc[j] = CoopMatrix::load_rows(ss, sbase, 4);
                    block_barrier();
                }
            }
            let mut pa = [CoopMatrix::<f16, 16, A>::zeros(); 4];
            for kk in 0..4096 / D / 16 {
                pa[kk] = CoopMatrix::load_rows(ps, pbase + 4 * kk, pstride);
            }
            for j in 0..D / 16 {
                for kk in 0..4096 / D / 16 {
                    let vt =
                        CoopMatrix::<f16, 16, B>::load_rows(kv, 1152 + 16 * kk * ds + 4 * j, ds);
                    acc[j] = pa[kk].multiply_add(vt, acc[j]);
                }
            }
            block_barrier();
            kb += bk;
        }
        if half == 0 {
            lrow[row] = l;
        }
        for j in 0..D / 16 {
            acc[j].store_rows(ss, sbase, 4);
            block_barrier();
            for qq in 0..2 {
                let x = lane + 32 * qq;
                let rr = sg * 16 + x / 4;
                let qi = q0 + rr;
                if qi < n {
                    let y = ss[sbase + x] / lrow[rr];
                    let at = head + qi * D + 16 * j + 4 * (x % 4);
                    o[at] = f16::from_f32(y.x);
                    o[at + 1] = f16::from_f32(y.y);
                    o[at + 2] = f16::from_f32(y.z);
                    o[at + 3] = f16::from_f32(y.w);
                }
            }
            block_barrier();
        }
    }
}

/// Which kernel computes attention.
///
/// ```
/// use sarek::algo::attention::{Attention, Engine};
///
/// let dev = sarek::Device::cpu();
/// assert_eq!(Attention::new(1, 1, 8, 64).engine_for(&dev), Engine::Tiled);
/// let coop = Attention::new(1, 1, 8, 64).engine(Engine::Cooperative);
/// assert_eq!(coop.engine_for(&dev), Engine::Cooperative);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Engine {
    /// Cooperative matrices for `d` = 64 and 128 where
    /// [`matmul::cooperative`](crate::algo::matmul::cooperative) says the device has them, it
    /// has subgroup operations (`SUBGROUP`) and it offers the kernel's 44,560 bytes of
    /// workgroup memory; the portable kernel elsewhere.
    #[default]
    Auto,
    /// The portable kernel ([`kernels::attention_tiled`]), on every device with `SHADER_F16`,
    /// for any `d` from 1 to 128.
    Tiled,
    /// Cooperative matrices ([`kernels::attention_coop`]), `d` = 64 or 128:
    /// [`Error::MissingFeature`] on a device without 16×16×16 matrices of `f16` A and B and an
    /// `f32` C or without `SUBGROUP`, and [`Error::BadArguments`] for another `d` or on a GPU
    /// whose subgroups are not 32 wide. The CPU backend emulates them.
    Cooperative,
}

/// Attention over `[B, H, T, d]` tensors: the shape, whether it is causal, the scale and the
/// engine, set once and run on any buffers of that shape. By default it is not causal, the
/// scale is `1/√d` and the engine [`Engine::Auto`].
///
/// With `causal`, query `i` attends to keys `0..=i` only (PyTorch's `is_causal=True`, the
/// upper triangle masked). Any of `B`, `H` and `T` may be 0 (nothing is written).
///
/// ```
/// use sarek::algo::attention::Attention;
/// use sarek::f16;
///
/// # fn main() -> sarek::Result<()> {
/// let dev = sarek::Device::new()?;
/// let (b, h, t, d) = (2, 3, 5, 64);
/// let x: Vec<f16> = (0..b * h * t * d).map(|i| f16::from_f32((i % 7) as f32 / 8.0)).collect();
/// let q = dev.upload(&x)?;
/// let mut o = dev.zeros::<f16>(x.len())?;
/// let attn = Attention::new(b, h, t, d).causal(true).scale(0.5);
/// let mut batch = dev.batch();
/// attn.enqueue(&mut batch, &q, &q, &q, &mut o)?;
/// batch.submit()?;
/// // The first row of each head attends to itself only: its output is its value.
/// assert_eq!(o.read()?[..d], x[..d]);
/// # Ok(()) }
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Attention {
    batch: usize,
    heads: usize,
    seq: usize,
    head_dim: usize,
    causal: bool,
    scale: Option<f32>,
    engine: Engine,
}

impl Attention {
    /// Attention over `batch`×`heads` heads of `seq` positions and head dimension `head_dim`.
    ///
    /// ```
    /// let a = sarek::algo::attention::Attention::new(8, 12, 1024, 64);
    /// assert_eq!(a.shape(), (8, 12, 1024, 64));
    /// ```
    pub fn new(batch: usize, heads: usize, seq: usize, head_dim: usize) -> Attention {
        Attention {
            batch,
            heads,
            seq,
            head_dim,
            causal: false,
            scale: None,
            engine: Engine::Auto,
        }
    }

    /// `(B, H, T, d)`.
    ///
    /// ```
    /// let a = sarek::algo::attention::Attention::new(1, 2, 3, 64);
    /// assert_eq!(a.shape(), (1, 2, 3, 64));
    /// ```
    pub fn shape(&self) -> (usize, usize, usize, usize) {
        (self.batch, self.heads, self.seq, self.head_dim)
    }

    /// Whether query `i` sees only keys `0..=i` (false by default).
    ///
    /// ```
    /// let a = sarek::algo::attention::Attention::new(1, 1, 4, 64).causal(true);
    /// assert!(a.is_causal());
    /// ```
    pub fn causal(mut self, causal: bool) -> Attention {
        self.causal = causal;
        self
    }

    /// Whether the attention is causal.
    ///
    /// ```
    /// assert!(!sarek::algo::attention::Attention::new(1, 1, 4, 64).is_causal());
    /// ```
    pub fn is_causal(&self) -> bool {
        self.causal
    }

    /// The factor of the scores `Q · Kᵀ` (`1/√d` by default).
    ///
    /// ```
    /// use sarek::algo::attention::Attention;
    /// assert_eq!(Attention::new(1, 1, 4, 64).scale_value(), 0.125);
    /// assert_eq!(Attention::new(1, 1, 4, 64).scale(1.0).scale_value(), 1.0);
    /// ```
    pub fn scale(mut self, scale: f32) -> Attention {
        self.scale = Some(scale);
        self
    }

    /// The scale that runs: the one set, or `1/√d`.
    ///
    /// ```
    /// assert_eq!(sarek::algo::attention::Attention::new(1, 1, 4, 16).scale_value(), 0.25);
    /// ```
    pub fn scale_value(&self) -> f32 {
        self.scale
            .unwrap_or_else(|| (1.0 / (self.head_dim as f64).sqrt()) as f32)
    }

    /// Which kernel runs ([`Engine::Auto`] by default).
    ///
    /// ```
    /// use sarek::algo::attention::{Attention, Engine};
    /// let a = Attention::new(1, 1, 4, 64).engine(Engine::Tiled);
    /// assert_eq!(a.engine_for(&sarek::Device::cpu()), Engine::Tiled);
    /// ```
    pub fn engine(mut self, engine: Engine) -> Attention {
        self.engine = engine;
        self
    }

    /// The engine that runs on `dev`: never [`Engine::Auto`].
    ///
    /// ```
    /// use sarek::algo::attention::{Attention, Engine};
    /// // Not a head dimension of the cooperative kernel: the portable one, on every device.
    /// let dev = sarek::Device::new().unwrap();
    /// assert_eq!(Attention::new(1, 1, 4, 32).engine_for(&dev), Engine::Tiled);
    /// ```
    pub fn engine_for(&self, dev: &Device) -> Engine {
        match self.engine {
            Engine::Auto
                if COOP_HEAD_DIMS.contains(&self.head_dim)
                    && crate::algo::matmul::cooperative(dev)
                    && super::subgroups(dev)
                    && dev.limits().max_compute_workgroup_storage_size
                        >= kernels::attention_coop_x4.abi::<128>().workgroup_memory =>
            {
                Engine::Cooperative
            }
            Engine::Auto => Engine::Tiled,
            e => e,
        }
    }

    /// Adds attention to `batch` without waiting, `o = softmax(q · kᵀ · scale) · v`. Errors
    /// ([`Error::BadArguments`]) when a buffer does not hold exactly `B·H·T·d` halves, when `d`
    /// is not one the engine runs (1 to 128 for [`Engine::Tiled`], 64 or 128 for
    /// [`Engine::Cooperative`]), when an index would pass 2^32 - 1, or when `B·H` passes the
    /// device's workgroups per dimension; [`Engine::Cooperative`] errors as its docs say.
    ///
    /// ```
    /// use sarek::algo::attention::Attention;
    /// use sarek::f16;
    /// # fn main() -> sarek::Result<()> {
    /// let dev = sarek::Device::new()?;
    /// let x = dev.upload(&vec![f16::ONE; 2 * 64])?;
    /// let mut o = dev.zeros::<f16>(2 * 64)?;
    /// let mut batch = dev.batch();
    /// Attention::new(1, 1, 2, 64).enqueue(&mut batch, &x, &x, &x, &mut o)?;
    /// batch.submit()?;
    /// assert!(o.read()?.iter().all(|&y| y == f16::ONE));
    /// // Three positions do not fit these buffers.
    /// let mut batch = dev.batch();
    /// assert!(Attention::new(1, 1, 3, 64).enqueue(&mut batch, &x, &x, &x, &mut o).is_err());
    /// # Ok(()) }
    /// ```
    pub fn enqueue(
        &self,
        batch: &mut Batch,
        q: &Buffer<half::f16>,
        k: &Buffer<half::f16>,
        v: &Buffer<half::f16>,
        o: &mut Buffer<half::f16>,
    ) -> Result<()> {
        let dev = batch.device().clone();
        let engine = self.engine_for(&dev);
        let kernel = match engine {
            Engine::Cooperative => "attention_coop",
            _ => "attention_tiled",
        };
        let bad = |message: String| Error::BadArguments {
            kernel: kernel.into(),
            message,
        };
        let (b, h, t, d) = self.shape();
        match engine {
            Engine::Cooperative if !COOP_HEAD_DIMS.contains(&d) => {
                return Err(bad(format!(
                    "the cooperative kernel runs head dimensions 64 and 128, not {d}; use \
                     `Engine::Tiled` (1 to 128) or `Engine::Auto`"
                )))
            }
            Engine::Cooperative if !subgroups_of_32(&dev) => {
                return Err(bad(
                    "the cooperative kernel assumes subgroups of 32 invocations, and this \
                     device's differ; use `Engine::Tiled` or `Engine::Auto`"
                        .into(),
                ))
            }
            _ if d == 0 || d > MAX_TILED_HEAD_DIM => {
                return Err(bad(format!(
                    "the head dimension must be from 1 to {MAX_TILED_HEAD_DIM}, not {d}"
                )))
            }
            _ => {}
        }
        let heads = b.checked_mul(h);
        let len = heads
            .and_then(|x| x.checked_mul(t))
            .and_then(|x| x.checked_mul(d))
            .filter(|&x| x <= u32::MAX as usize)
            .ok_or_else(|| bad(format!("{b}×{h}×{t}×{d} halves pass 2^32 - 1")))?;
        let heads = heads.unwrap_or(0);
        for (name, buf_len) in [
            ("q", q.len()),
            ("k", k.len()),
            ("v", v.len()),
            ("o", o.len()),
        ] {
            if buf_len != len {
                return Err(bad(format!(
                    "{name} of shape [{b}, {h}, {t}, {d}] must hold exactly {len} halves, and \
                     its buffer holds {buf_len}"
                )));
            }
        }
        if len == 0 {
            return Ok(());
        }
        let max_groups = dev.limits().max_compute_workgroups_per_dimension as usize;
        if heads > max_groups {
            return Err(bad(format!(
                "B·H = {heads} heads pass the device's {max_groups} workgroups per dimension"
            )));
        }
        let grid = Grid::groups([t.div_ceil(QUERY_BLOCK) as u32, heads as u32, 1]);
        let (t, scale, causal) = (t as u32, self.scale_value(), self.causal as u32);
        match engine {
            Engine::Cooperative => match (view(q), view(k), view(v)) {
                (Some(q4), Some(k4), Some(v4)) if d == 64 => kernels::attention_coop_x4
                    .enqueue::<64>(batch, grid, &q4, &k4, &v4, o, t, scale, causal),
                (Some(q4), Some(k4), Some(v4)) => kernels::attention_coop_x4
                    .enqueue::<128>(batch, grid, &q4, &k4, &v4, o, t, scale, causal),
                _ if d == 64 => {
                    kernels::attention_coop.enqueue::<64>(batch, grid, q, k, v, o, t, scale, causal)
                }
                _ => kernels::attention_coop
                    .enqueue::<128>(batch, grid, q, k, v, o, t, scale, causal),
            },
            _ => kernels::attention_tiled
                .enqueue(batch, grid, q, k, v, o, t, d as u32, scale, causal),
        }
    }

    /// Runs attention in a submission of its own, not waited for ([`Buffer::read`] waits).
    ///
    /// ```
    /// use sarek::algo::attention::Attention;
    /// use sarek::f16;
    /// # fn main() -> sarek::Result<()> {
    /// let dev = sarek::Device::new()?;
    /// let x = dev.upload(&vec![f16::from_f32(2.0); 64])?;
    /// let mut o = dev.zeros::<f16>(64)?;
    /// Attention::new(1, 1, 1, 64).run(&x, &x, &x, &mut o)?.wait()?;
    /// assert_eq!(o.read()?[0].to_f32(), 2.0);
    /// # Ok(()) }
    /// ```
    pub fn run(
        &self,
        q: &Buffer<half::f16>,
        k: &Buffer<half::f16>,
        v: &Buffer<half::f16>,
        o: &mut Buffer<half::f16>,
    ) -> Result<crate::Launch> {
        let mut batch = o.device().batch();
        self.enqueue(&mut batch, q, k, v, o)?;
        batch.submit()
    }
}

/// `x` as words of four halves, on a GPU (every row of a head of 64 or 128 halves starts on a
/// word); `None` on the CPU backend, which has no view of a buffer as another element type,
/// or where wgpu refuses the range.
fn view(x: &Buffer<half::f16>) -> Option<Buffer<crate::F16Vec4>> {
    if !x.len().is_multiple_of(4) || !x.offset().is_multiple_of(8) {
        return None;
    }
    super::view(x, x.len() / 4)
}

/// Whether every subgroup of `dev` is 32 invocations wide, as the cooperative kernel's split of
/// a workgroup into four subgroups assumes (the CPU backend's emulation needs no such width).
fn subgroups_of_32(dev: &Device) -> bool {
    if dev.is_cpu() {
        return true;
    }
    let info = dev.wgpu_device().adapter_info();
    info.subgroup_min_size == 32 && info.subgroup_max_size == 32
}

/// Scaled dot-product attention of `[B, H, T, d]` halves `q`, `k`, `v` (shape, causality, scale
/// and engine from `attn`) into a new buffer of the same shape. Errors as
/// [`Attention::enqueue`] does.
///
/// ```
/// use sarek::algo::attention::{attention, Attention};
/// use sarek::f16;
/// # fn main() -> sarek::Result<()> {
/// let dev = sarek::Device::new()?;
/// let x = dev.upload(&vec![f16::from_f32(0.5); 4 * 128])?;
/// let o = attention(&dev, &x, &x, &x, &Attention::new(1, 1, 4, 128))?;
/// assert!(o.read()?.iter().all(|y| y.to_f32() == 0.5));
/// // A head dimension of 200 is refused.
/// let y = dev.upload(&vec![f16::ZERO; 200])?;
/// assert!(attention(&dev, &y, &y, &y, &Attention::new(1, 1, 1, 200)).is_err());
/// # Ok(()) }
/// ```
pub fn attention(
    dev: &Device,
    q: &Buffer<half::f16>,
    k: &Buffer<half::f16>,
    v: &Buffer<half::f16>,
    attn: &Attention,
) -> Result<Buffer<half::f16>> {
    let mut o = dev.zeros::<half::f16>(q.len())?;
    attn.run(q, k, v, &mut o)?;
    Ok(o)
}
