//! Matrix products on the device, cuBLAS's `gemm` and PyTorch's `addmm`/`baddbmm`:
//! `C = alpha · A · B + beta · C (+ bias)` for `f32` and `f16` matrices of any shape, each
//! operand row- or column-major, one product or a batch of them.
//!
//! ```
//! use sarek::algo::matmul::{matmul, Layout, Matmul};
//!
//! # fn main() -> sarek::Result<()> {
//! let dev = sarek::Device::new()?;
//! // A is 2×3, B is 3×2, both row-major.
//! let a = dev.upload(&[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0])?;
//! let b = dev.upload(&[1.0f32, 0.0, 0.0, 1.0, 1.0, 1.0])?;
//! assert_eq!(matmul(&dev, &a, &b, 2, 2, 3)?.read()?, [4.0, 5.0, 10.0, 11.0]);
//!
//! // The same B read as column-major (its transpose), C = 2·A·Bᵀ + C + bias.
//! let b = dev.upload(&[1.0f32, 0.0, 0.0, 0.0, 1.0, 1.0])?; // columns (1, 0, 0) and (0, 1, 1)
//! let bias = dev.upload(&[0.5f32, -0.5])?;
//! let mut c = dev.upload(&[1.0f32; 4])?;
//! Matmul::new(2, 2, 3)
//!     .b_layout(Layout::ColumnMajor)
//!     .alpha(2.0)
//!     .beta(1.0)
//!     .run_with_bias(&a, &b, &bias, &mut c)?;
//! assert_eq!(c.read()?, [3.5, 10.5, 9.5, 22.5]);
//! # Ok(()) }
//! ```
//!
//! [`Matmul::enqueue`] adds the same work to a [`Batch`] without waiting.
//!
//! # The kernels
//!
//! Every kernel computes a block of `C` per workgroup with edge guards, so
//! any `m`, `n` and `k` runs (not only multiples of the block), and with strides for each
//! operand's rows and columns, so each layout is read where it lies (no transposed copy):
//!
//! - a portable tiled kernel ([`kernels::gemm_tiled_f32`], [`kernels::gemm_tiled_f16`]): a
//!   64×64 block of `C` per workgroup of 16×16 threads, each thread 4×4 of it, slices of 16
//!   along `k` staged in workgroup memory, sums in `f32`. It needs no extension beyond
//!   `SHADER_F16` for halves, and is what the CPU backend runs. On a GPU, `f32` products with
//!   row-major `B` and `C` whose rows start on whole `Vec4`s (`n` a multiple of 4) run the
//!   suite's register-blocked product instead ([`kernels::gemm_rb_f32`]: 128×128 blocks, each
//!   thread 8×8 of them, two staging buffers), where the device has its 16,640 bytes of
//!   workgroup memory;
//! - on a GPU with cooperative matrices of 16×16×16 with `f16` A and B and an `f32` C
//!   (NVIDIA's tensor cores: see [extensions](crate::guide::extensions)) and subgroups of 32,
//!   `f16` products run on the matrix units ([`kernels::gemm_coop_f16`]): a 128×128 block of
//!   `C` per workgroup of four subgroups, each 64×64 of it as 4×4 accumulators in `f32`, slices
//!   of 32 along `k` staged in workgroup memory with zeros past the edges, and the accumulators
//!   written through workgroup memory so that `alpha`, `beta`, the bias and the edges apply
//!   element by element. Where `A` and `B` are row-major with `k`, `n` and their batch strides
//!   multiples of 4, it reads them as words of four halves ([`kernels::gemm_coop_f16x4`],
//!   the suite's `f16` product with guards at the edges), each slice's words loaded during the
//!   previous slice's products.
//!
//! [`Engine`] picks one explicitly (the CPU backend emulates cooperative matrices, so
//! [`Engine::Cooperative`] runs there too).
//!
//! All sum the `k` products of an element in `f32` (for `f16` operands too, as cuBLAS's
//! `CUBLAS_COMPUTE_32F` does) in an order of their own, so a result can differ from a
//! sequential host loop's in its last bits; `f16` results are rounded once, at the end.

use super::view;
use crate::{Batch, Buffer, Device, Error, Grid, Result};

/// The rows and columns of `C` one workgroup of the portable tiled kernel computes.
pub const TILE: usize = 64;

/// The rows and columns of `C` one workgroup of the register-blocked `f32` kernel computes.
pub const RB_TILE: usize = 128;

/// The rows and columns of `C` one workgroup of the cooperative kernel computes.
pub const COOP_TILE: usize = 128;

/// The kernels of the matrix products, public as an example of a library written in Sarek;
/// [`Matmul`] and [`matmul()`] are how they are meant to be used.
///
/// Every kernel takes the same arguments: the operands `a`, `b`, the bias row (read only where
/// `has_bias` is 1), `c`, the shape `m`, `n`, `k`, the strides of `A` (`a_rs` between rows,
/// `a_cs` between columns), of `B` and of `C`, the strides between the matrices of a batch
/// (`a_bs`, `b_bs`, `c_bs`; the batch is `block_idx_z`), then `alpha`, `beta` and
/// `has_bias`. `c` is read only where `beta` is not 0, so a `C` of NaNs times 0 is no NaN.
#[sarek::module]
pub mod kernels {
    use sarek::coop::{A, B, C};
    use sarek::f16;
    use sarek::prelude::*;

    /// `C = alpha · A · B + beta · C + bias` for `f32`: a 64×64 block of `C` per workgroup,
    /// thread `(tx, ty)` computing rows `ty + 16i` and columns `tx + 16j` of it (so that its
    /// reads of the staged slices are broadcasts or consecutive, and its stores coalesce),
    /// slices of 16 along `k` staged in workgroup memory with zeros past the edges.
    #[sarek::kernel(workgroup_size = [16, 16])]
    pub fn gemm_tiled_f32(
        a: &[f32],
        b: &[f32],
        bias: &[f32],
        c: &mut [f32],
        m: u32,
        n: u32,
        k: u32,
        a_rs: u32,
        a_cs: u32,
        b_rs: u32,
        b_cs: u32,
        c_rs: u32,
        c_cs: u32,
        a_bs: u32,
        b_bs: u32,
        c_bs: u32,
        alpha: f32,
        beta: f32,
        has_bias: u32,
    ) {
        // Rows padded by one so that a column of the slice spreads over the banks.
        let sa = shared::<[[f32; 65]; 16]>();
        let sb = shared::<[[f32; 65]; 16]>();
        let (m, n, k) = (m as usize, n as usize, k as usize);
        let tx = thread_idx_x();
        let ty = thread_idx_y();
        let tid = ty * 16 + tx;
        let row0 = block_idx_y() * 64;
        let col0 = block_idx_x() * 64;
        let z = block_idx_z();
        let a0 = z * a_bs as usize;
        let b0 = z * b_bs as usize;
        let c0 = z * c_bs as usize;
        let (a_rs, a_cs) = (a_rs as usize, a_cs as usize);
        let (b_rs, b_cs) = (b_rs as usize, b_cs as usize);
        let mut acc = [0.0f32; 16];
        let mut k0 = 0;
        while k0 < k {
            for j in 0..4 {
                let e = tid + 256 * j;
                // Consecutive threads take consecutive elements of memory: along `k` where
                // `A` is row-major, along its rows where it is column-major.
                let (ii, kk) = if a_cs == 1 {
                    (e / 16, e % 16)
                } else {
                    (e % 64, e / 64)
                };
                let (r, p) = (row0 + ii, k0 + kk);
                sa[kk][ii] = if r < m && p < k {
                    a[a0 + r * a_rs + p * a_cs]
                } else {
                    0.0
                };
                let (kk, jj) = if b_cs == 1 {
                    (e / 64, e % 64)
                } else {
                    (e % 16, e / 16)
                };
                let (p, col) = (k0 + kk, col0 + jj);
                sb[kk][jj] = if p < k && col < n {
                    b[b0 + p * b_rs + col * b_cs]
                } else {
                    0.0
                };
            }
            block_barrier();
            for kk in 0..16 {
                let x = [
                    sa[kk][ty],
                    sa[kk][ty + 16],
                    sa[kk][ty + 32],
                    sa[kk][ty + 48],
                ];
                let y = [
                    sb[kk][tx],
                    sb[kk][tx + 16],
                    sb[kk][tx + 32],
                    sb[kk][tx + 48],
                ];
                for i in 0..4 {
                    for j in 0..4 {
                        acc[4 * i + j] += x[i] * y[j];
                    }
                }
            }
            block_barrier();
            k0 += 16;
        }
        for i in 0..4 {
            for j in 0..4 {
                let r = row0 + ty + 16 * i;
                let col = col0 + tx + 16 * j;
                if r < m && col < n {
                    let at = c0 + r * c_rs as usize + col * c_cs as usize;
                    let mut v = alpha * acc[4 * i + j];
                    if beta != 0.0 {
                        v += beta * c[at];
                    }
                    if has_bias != 0 {
                        v += bias[col];
                    }
                    c[at] = v;
                }
            }
        }
    }

    /// [`gemm_tiled_f32`] for `f16` operands and result: halves widened to `f32` as they are
    /// staged, sums and `alpha`, `beta` and the bias in `f32`, each result rounded once.
    #[sarek::kernel(workgroup_size = [16, 16])]
    pub fn gemm_tiled_f16(
        a: &[f16],
        b: &[f16],
        bias: &[f16],
        c: &mut [f16],
        m: u32,
        n: u32,
        k: u32,
        a_rs: u32,
        a_cs: u32,
        b_rs: u32,
        b_cs: u32,
        c_rs: u32,
        c_cs: u32,
        a_bs: u32,
        b_bs: u32,
        c_bs: u32,
        alpha: f32,
        beta: f32,
        has_bias: u32,
    ) {
        let sa = shared::<[[f32; 65]; 16]>();
        let sb = shared::<[[f32; 65]; 16]>();
        let (m, n, k) = (m as usize, n as usize, k as usize);
        let tx = thread_idx_x();
        let ty = thread_idx_y();
        let tid = ty * 16 + tx;
        let row0 = block_idx_y() * 64;
        let col0 = block_idx_x() * 64;
        let z = block_idx_z();
        let a0 = z * a_bs as usize;
        let b0 = z * b_bs as usize;
        let c0 = z * c_bs as usize;
        let (a_rs, a_cs) = (a_rs as usize, a_cs as usize);
        let (b_rs, b_cs) = (b_rs as usize, b_cs as usize);
        let mut acc = [0.0f32; 16];
        let mut k0 = 0;
        while k0 < k {
            for j in 0..4 {
                let e = tid + 256 * j;
                let (ii, kk) = if a_cs == 1 {
                    (e / 16, e % 16)
                } else {
                    (e % 64, e / 64)
                };
                let (r, p) = (row0 + ii, k0 + kk);
                sa[kk][ii] = if r < m && p < k {
                    a[a0 + r * a_rs + p * a_cs].to_f32()
                } else {
                    0.0
                };
                let (kk, jj) = if b_cs == 1 {
                    (e / 64, e % 64)
                } else {
                    (e % 16, e / 16)
                };
                let (p, col) = (k0 + kk, col0 + jj);
                sb[kk][jj] = if p < k && col < n {
                    b[b0 + p * b_rs + col * b_cs].to_f32()
                } else {
                    0.0
                };
            }
            block_barrier();
            for kk in 0..16 {
                let x = [
                    sa[kk][ty],
                    sa[kk][ty + 16],
                    sa[kk][ty + 32],
                    sa[kk][ty + 48],
                ];
                let y = [
                    sb[kk][tx],
                    sb[kk][tx + 16],
                    sb[kk][tx + 32],
                    sb[kk][tx + 48],
                ];
                for i in 0..4 {
                    for j in 0..4 {
                        acc[4 * i + j] += x[i] * y[j];
                    }
                }
            }
            block_barrier();
            k0 += 16;
        }
        for i in 0..4 {
            for j in 0..4 {
                let r = row0 + ty + 16 * i;
                let col = col0 + tx + 16 * j;
                if r < m && col < n {
                    let at = c0 + r * c_rs as usize + col * c_cs as usize;
                    let mut v = alpha * acc[4 * i + j];
                    if beta != 0.0 {
                        v += beta * c[at].to_f32();
                    }
                    if has_bias != 0 {
                        v += bias[col].to_f32();
                    }
                    c[at] = f16::from_f32(v);
                }
            }
        }
    }

    /// `C = alpha · A · B + beta · C + bias` for `f16` on cooperative matrices (16×16×16, `f16`
    /// A and B, `f32` C): a 128×128 block of `C` per workgroup of 128 threads, subgroup
    /// `t / 32` computing the 64×64 part `(t / 64, t / 32 % 2)` as 4×4 accumulators (which
    /// assumes subgroups of 32 consecutive threads, as on NVIDIA; the CPU backend's emulated
    /// subgroups of another size each compute the part of their `t / 32`, so the result is
    /// the same). Slices of 32 along `k` are staged in workgroup memory, zeros past the
    /// edges, rows padded so that each matrix load starts on 16 bytes; each accumulator is
    /// then stored into workgroup memory, and its subgroup's 32 threads apply `alpha`,
    /// `beta` and the bias and write the elements inside `C`.
    #[sarek::kernel(workgroup_size = [128], limits = "device")]
    pub fn gemm_coop_f16(
        a: &[f16],
        b: &[f16],
        bias: &[f16],
        c: &mut [f16],
        m: u32,
        n: u32,
        k: u32,
        a_rs: u32,
        a_cs: u32,
        b_rs: u32,
        b_cs: u32,
        c_rs: u32,
        c_cs: u32,
        a_bs: u32,
        b_bs: u32,
        c_bs: u32,
        alpha: f32,
        beta: f32,
        has_bias: u32,
    ) {
        // 128 rows of 32 halves padded to 40 (80 bytes), 32 rows of 128 padded to 136 (272
        // bytes), and a 16×16 accumulator per subgroup.
        let sa = shared::<[f16; 5120]>();
        let sb = shared::<[f16; 4352]>();
        let st = shared::<[f32; 1024]>();
        let (m, n, k) = (m as usize, n as usize, k as usize);
        let t = thread_idx_x();
        let sg = t / 32;
        let lane = t % 32;
        let ar = (sg / 2) * 64;
        let bc = (sg % 2) * 64;
        let row0 = block_idx_y() * 128;
        let col0 = block_idx_x() * 128;
        let z = block_idx_z();
        let a0 = z * a_bs as usize;
        let b0 = z * b_bs as usize;
        let c0 = z * c_bs as usize;
        let (a_rs, a_cs) = (a_rs as usize, a_cs as usize);
        let (b_rs, b_cs) = (b_rs as usize, b_cs as usize);
        let mut acc = [CoopMatrix::<f32, 16, C>::zeros(); 16];
        let mut k0 = 0;
        while k0 < k {
            for j in 0..32 {
                let e = t + 128 * j;
                // Consecutive threads read consecutive elements of each operand's memory.
                let (ii, kk) = if a_cs == 1 {
                    (e / 32, e % 32)
                } else {
                    (e % 128, e / 128)
                };
                let (r, p) = (row0 + ii, k0 + kk);
                sa[ii * 40 + kk] = if r < m && p < k {
                    a[a0 + r * a_rs + p * a_cs]
                } else {
                    f16::ZERO
                };
                let (kk, jj) = if b_cs == 1 {
                    (e / 128, e % 128)
                } else {
                    (e % 32, e / 32)
                };
                let (p, col) = (k0 + kk, col0 + jj);
                sb[kk * 136 + jj] = if p < k && col < n {
                    b[b0 + p * b_rs + col * b_cs]
                } else {
                    f16::ZERO
                };
            }
            block_barrier();
            for h in 0..2 {
                let mut am = [CoopMatrix::<f16, 16, A>::zeros(); 4];
                let mut bm = [CoopMatrix::<f16, 16, B>::zeros(); 4];
                for i in 0..4 {
                    am[i] = CoopMatrix::load_rows(sa, (ar + 16 * i) * 40 + 16 * h, 40);
                }
                for j in 0..4 {
                    bm[j] = CoopMatrix::load_rows(sb, 16 * h * 136 + bc + 16 * j, 136);
                }
                for i in 0..4 {
                    for j in 0..4 {
                        acc[4 * i + j] = am[i].multiply_add(bm[j], acc[4 * i + j]);
                    }
                }
            }
            block_barrier();
            k0 += 32;
        }
        for i in 0..4 {
            for j in 0..4 {
                acc[4 * i + j].store_rows(st, sg * 256, 16);
                block_barrier();
                for q in 0..8 {
                    let e = lane + 32 * q;
                    let r = row0 + ar + 16 * i + e / 16;
                    let col = col0 + bc + 16 * j + e % 16;
                    if r < m && col < n {
                        let at = c0 + r * c_rs as usize + col * c_cs as usize;
                        let mut v = alpha * st[sg * 256 + e];
                        if beta != 0.0 {
                            v += beta * c[at].to_f32();
                        }
                        if has_bias != 0 {
                            v += bias[col].to_f32();
                        }
                        c[at] = f16::from_f32(v);
                    }
                }
                block_barrier();
            }
        }
    }

    /// [`gemm_coop_f16`] for row-major `A` and `B` whose rows and matrices start on whole
    /// 8-byte words (`k`, `n` and the batch strides of `A` and `B` multiples of 4), read as
    /// words of four halves (`F16Vec4`): thread `t` copies word `t % 8` of eight rows of the
    /// slice of `A` (rows ordered so that the 16 threads of a half-warp store to distinct
    /// banks) and word `t % 32` of eight rows of the slice of `B`, and loads the next slice's
    /// words into registers before the products of this one, as the suite's `f16` product
    /// does. Strides and offsets are in halves, as for the other kernels; a word lies wholly
    /// inside or outside the matrix, so the guards are per word.
    #[sarek::kernel(workgroup_size = [128], limits = "device")]
    pub fn gemm_coop_f16x4(
        a: &[F16Vec4],
        b: &[F16Vec4],
        bias: &[f16],
        c: &mut [f16],
        m: u32,
        n: u32,
        k: u32,
        a_rs: u32,
        _a_cs: u32,
        b_rs: u32,
        _b_cs: u32,
        c_rs: u32,
        c_cs: u32,
        a_bs: u32,
        b_bs: u32,
        c_bs: u32,
        alpha: f32,
        beta: f32,
        has_bias: u32,
    ) {
        // 128 rows of 8 words padded to 10, 32 rows of 32 words padded to 34, and a 16×16
        // accumulator per subgroup.
        let sa = shared::<[F16Vec4; 1280]>();
        let sb = shared::<[F16Vec4; 1088]>();
        let st = shared::<[f32; 1024]>();
        let (m, n, k) = (m as usize, n as usize, k as usize);
        let t = thread_idx_x();
        let sg = t / 32;
        let lane = t % 32;
        let ar = (sg / 2) * 64;
        let bc = (sg % 2) * 16;
        let row0 = block_idx_y() * 128;
        let col0 = block_idx_x() * 128;
        let z = block_idx_z();
        // `A` and `B` in words: unit strides between columns, rows of `a_rs / 4` words.
        let aw = (z * a_bs as usize) / 4;
        let bw = (z * b_bs as usize) / 4;
        let c0 = z * c_bs as usize;
        let (qa, qb) = (a_rs as usize / 4, b_rs as usize / 4);
        let ta = ((t / 8) % 2) * 4 + (t / 16) % 4 + (t / 64) * 8;
        let pa = ta * 10 + t % 8;
        let pb = (t / 32) * 34 + t % 32;
        let (wa, wb) = (t % 8, t % 32);
        let col_ok = col0 + 4 * wb < n;
        let mut ra = [F16Vec4::ZERO; 8];
        let mut rb = [F16Vec4::ZERO; 8];
        for j in 0..8 {
            let r = row0 + ta + 16 * j;
            ra[j] = if r < m && 4 * wa < k {
                a[aw + r * qa + wa]
            } else {
                F16Vec4::ZERO
            };
            let p = t / 32 + 4 * j;
            rb[j] = if p < k && col_ok {
                b[bw + p * qb + col0 / 4 + wb]
            } else {
                F16Vec4::ZERO
            };
        }
        let mut acc = [CoopMatrix::<f32, 16, C>::zeros(); 16];
        let mut k0 = 0;
        while k0 < k {
            for j in 0..8 {
                sa[pa + 160 * j] = ra[j];
                sb[pb + 136 * j] = rb[j];
            }
            block_barrier();
            // The next slice's words, in flight during this slice's products.
            let kn = k0 + 32;
            for j in 0..8 {
                let r = row0 + ta + 16 * j;
                ra[j] = if r < m && kn + 4 * wa < k {
                    a[aw + r * qa + kn / 4 + wa]
                } else {
                    F16Vec4::ZERO
                };
                let p = kn + t / 32 + 4 * j;
                rb[j] = if p < k && col_ok {
                    b[bw + p * qb + col0 / 4 + wb]
                } else {
                    F16Vec4::ZERO
                };
            }
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
            k0 += 32;
        }
        for i in 0..4 {
            for j in 0..4 {
                acc[4 * i + j].store_rows(st, sg * 256, 16);
                block_barrier();
                for q in 0..8 {
                    let e = lane + 32 * q;
                    let r = row0 + ar + 16 * i + e / 16;
                    let col = col0 + 4 * bc + 16 * j + e % 16;
                    if r < m && col < n {
                        let at = c0 + r * c_rs as usize + col * c_cs as usize;
                        let mut v = alpha * st[sg * 256 + e];
                        if beta != 0.0 {
                            v += beta * c[at].to_f32();
                        }
                        if has_bias != 0 {
                            v += bias[col].to_f32();
                        }
                        c[at] = f16::from_f32(v);
                    }
                }
                block_barrier();
            }
        }
    }

    /// Copies each of the `count` matrices of `src` (`rows × cols` halves at strides `rs`,
    /// `cs`, matrices `bs` apart) into a row-major `rows_p × cols_p` matrix of `dst` (`cols_p`
    /// a multiple of 4), zero past the source's edges: operands padded into whole blocks for
    /// [`gemm_coop_f16x4_blocks`]. A thread writes a word of four halves (a thread a half
    /// left the copies of an odd-shaped product at a third of copy bandwidth on an H200).
    #[sarek::kernel(workgroup_size = [16, 16])]
    pub fn pad_f16(
        src: &[f16],
        dst: &mut [F16Vec4],
        rows: u32,
        cols: u32,
        rs: u32,
        cs: u32,
        bs: u32,
        rows_p: u32,
        cols_p: u32,
    ) {
        let (w, r, z) = (global_idx_x(), global_idx_y(), global_idx_z());
        let wp = cols_p as usize / 4;
        if r < rows_p as usize && w < wp {
            let c = 4 * w;
            let row = r < rows as usize;
            let n = cols as usize;
            let base = z * bs as usize + r * rs as usize;
            let cs = cs as usize;
            let (i0, i1, i2, i3) = (
                if row && c < n { base + c * cs } else { 0 },
                if row && c + 1 < n {
                    base + (c + 1) * cs
                } else {
                    0
                },
                if row && c + 2 < n {
                    base + (c + 2) * cs
                } else {
                    0
                },
                if row && c + 3 < n {
                    base + (c + 3) * cs
                } else {
                    0
                },
            );
            let (x0, x1, x2, x3) = (src[i0], src[i1], src[i2], src[i3]);
            dst[(z * rows_p as usize + r) * wp + w] = F16Vec4::new(
                if row && c < n { x0 } else { f16::ZERO },
                if row && c + 1 < n { x1 } else { f16::ZERO },
                if row && c + 2 < n { x2 } else { f16::ZERO },
                if row && c + 3 < n { x3 } else { f16::ZERO },
            );
        }
    }

    /// The inverse of [`pad_f16`]: the `rows × cols` corner of each padded matrix of `src`
    /// (words of four halves) into `dst` at its strides, a word a thread.
    #[sarek::kernel(workgroup_size = [16, 16])]
    pub fn unpad_f16(
        src: &[F16Vec4],
        dst: &mut [f16],
        rows: u32,
        cols: u32,
        rs: u32,
        cs: u32,
        bs: u32,
        rows_p: u32,
        cols_p: u32,
    ) {
        let (w, r, z) = (global_idx_x(), global_idx_y(), global_idx_z());
        let wp = cols_p as usize / 4;
        let n = cols as usize;
        let c = 4 * w;
        if r < rows as usize && c < n {
            let v = src[(z * rows_p as usize + r) * wp + w];
            let base = z * bs as usize + r * rs as usize;
            let cs = cs as usize;
            dst[base + c * cs] = v.x;
            if c + 1 < n {
                dst[base + (c + 1) * cs] = v.y;
            }
            if c + 2 < n {
                dst[base + (c + 2) * cs] = v.z;
            }
            if c + 3 < n {
                dst[base + (c + 3) * cs] = v.w;
            }
        }
    }

    /// [`gemm_coop_f16x4`] for whole blocks (`m` and `n` multiples of 128, `k` a multiple of
    /// 64): no guard on a load, and each slice's words loaded two slices ahead into two sets
    /// of registers, the main loop of the suite's fastest `f16` product (which one slice ahead
    /// and guarded loads left at half its speed on an H200). `C` is row-major words of four
    /// halves (`c_cs` = 1; `c_rs` and `c_bs`, in halves, multiples of 4): each accumulator
    /// passes through workgroup memory and each thread writes two words of it, where a half
    /// a thread made the epilogue a sixth of the kernel's time at 4096³.
    #[sarek::kernel(workgroup_size = [128], limits = "device")]
    pub fn gemm_coop_f16x4_blocks(
        a: &[F16Vec4],
        b: &[F16Vec4],
        bias: &[f16],
        c: &mut [F16Vec4],
        m: u32,
        n: u32,
        k: u32,
        a_rs: u32,
        _a_cs: u32,
        b_rs: u32,
        _b_cs: u32,
        c_rs: u32,
        _c_cs: u32,
        a_bs: u32,
        b_bs: u32,
        c_bs: u32,
        alpha: f32,
        beta: f32,
        has_bias: u32,
    ) {
        let sa = shared::<[F16Vec4; 1280]>();
        let sb = shared::<[F16Vec4; 1088]>();
        let st = shared::<[Vec4; 256]>();
        let (m, n, k) = (m as usize, n as usize, k as usize);
        let t = thread_idx_x();
        let sg = t / 32;
        let lane = t % 32;
        let ar = (sg / 2) * 64;
        let bc = (sg % 2) * 16;
        let row0 = block_idx_y() * 128;
        let col0 = block_idx_x() * 128;
        let z = block_idx_z();
        let c0 = z * c_bs as usize;
        let (qa, qb) = (a_rs as usize / 4, b_rs as usize / 4);
        let ta = ((t / 8) % 2) * 4 + (t / 16) % 4 + (t / 64) * 8;
        let la = (z * a_bs as usize) / 4 + (row0 + ta) * qa + t % 8;
        let pa = ta * 10 + t % 8;
        let lb = (z * b_bs as usize) / 4 + (t / 32) * qb + col0 / 4 + t % 32;
        let pb = (t / 32) * 34 + t % 32;
        // Register set s holds the words of the slice two ahead of the one it is stored for.
        let mut ra = [F16Vec4::ZERO; 16];
        let mut rb = [F16Vec4::ZERO; 16];
        for s in 0..2 {
            let k0 = (32 * s).min(k - 32);
            for j in 0..8 {
                ra[8 * s + j] = a[la + k0 / 4 + 16 * j * qa];
            }
            for j in 0..8 {
                rb[8 * s + j] = b[lb + (k0 + 4 * j) * qb];
            }
        }
        let mut acc = [CoopMatrix::<f32, 16, C>::zeros(); 16];
        let mut k0 = 0;
        while k0 < k {
            for s in 0..2 {
                for j in 0..8 {
                    sa[pa + 160 * j] = ra[8 * s + j];
                }
                for j in 0..8 {
                    sb[pb + 136 * j] = rb[8 * s + j];
                }
                block_barrier();
                let kn = (k0 + 32 * s + 64).min(k - 32);
                for j in 0..8 {
                    ra[8 * s + j] = a[la + kn / 4 + 16 * j * qa];
                }
                for j in 0..8 {
                    rb[8 * s + j] = b[lb + (kn + 4 * j) * qb];
                }
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
            k0 += 64;
        }
        // A tile at a time through workgroup memory: staging four (two barriers for four
        // tiles, not for each) took the workgroup memory to 36 KiB and the product at 4096³
        // from 230 to 135 TFLOP/s on an H200.
        for i in 0..4 {
            for j in 0..4 {
                acc[4 * i + j].store_rows(st, sg * 64, 4);
                block_barrier();
                for q in 0..2 {
                    // Word `e` of the tile: row `e / 4`, columns `4 · (e % 4)` to `+ 3`.
                    let e = lane + 32 * q;
                    let r = row0 + ar + 16 * i + e / 4;
                    let col = col0 + 4 * bc + 16 * j + 4 * (e % 4);
                    if r < m && col < n {
                        let at = (c0 + r * c_rs as usize + col) / 4;
                        let mut v = st[sg * 64 + e] * alpha;
                        if beta != 0.0 {
                            v += c[at].to_vec4() * beta;
                        }
                        if has_bias != 0 {
                            v += Vec4::new(
                                bias[col].to_f32(),
                                bias[col + 1].to_f32(),
                                bias[col + 2].to_f32(),
                                bias[col + 3].to_f32(),
                            );
                        }
                        c[at] = F16Vec4::from_vec4(v);
                    }
                }
                block_barrier();
            }
        }
    }

    /// `C = alpha · A · B + beta · C + bias` for `f32` with register blocking, the suite's
    /// `matmul_rb` with guards at the edges: a 128×128 block of `C` per workgroup of 16×16
    /// threads, each thread an 8×8 part in sixteen `Vec4`s (rows `4ty..4ty+3` and `64+4ty..`,
    /// columns `4tx..4tx+3` and `64+4tx..`), slices of 8 along `k` staged in two buffers of
    /// workgroup memory (the next slice's loads in flight during this slice's products, one
    /// barrier a slice). `A` is read element by element in any layout; `B`, `C` and the bias
    /// are row-major rows of `Vec4` (`n`, the row strides and the batch strides of `B` and `C`
    /// multiples of 4; strides and offsets in floats, as for the other kernels).
    // 16,640 bytes of workgroup memory (rows padded by one `Vec4` against bank conflicts),
    // over WebGPU's guaranteed 16,384.
    #[sarek::kernel(workgroup_size = [16, 16], limits = "device")]
    pub fn gemm_rb_f32(
        a: &[f32],
        b: &[Vec4],
        bias: &[Vec4],
        c: &mut [Vec4],
        m: u32,
        n: u32,
        k: u32,
        a_rs: u32,
        a_cs: u32,
        b_rs: u32,
        _b_cs: u32,
        c_rs: u32,
        _c_cs: u32,
        a_bs: u32,
        b_bs: u32,
        c_bs: u32,
        alpha: f32,
        beta: f32,
        has_bias: u32,
    ) {
        let at = shared::<[[Vec4; 33]; 16]>();
        let bt = shared::<[[Vec4; 32]; 16]>();
        let (m, n, k) = (m as usize, n as usize, k as usize);
        let tx = thread_idx_x();
        let ty = thread_idx_y();
        let tid = ty * 16 + tx;
        let row0 = block_idx_y() * 128;
        let col0 = block_idx_x() * 128;
        let z = block_idx_z();
        let a0 = z * a_bs as usize;
        let bw = (z * b_bs as usize) / 4;
        let cw = (z * c_bs as usize) / 4;
        let (a_rs, a_cs) = (a_rs as usize, a_cs as usize);
        let (qb, qc) = (b_rs as usize / 4, c_rs as usize / 4);
        let mut acc = [Vec4::ZERO; 16];
        // What this thread stages: rows `r..r+3` of `A` at column `ak` of the slice (one
        // `Vec4` of the transposed slice), and one `Vec4` of `B` (row `br`, columns
        // `4bc..4bc+3`).
        let r = row0 + (tid / 8) * 4;
        let ar = tid / 8;
        let ak = tid % 8;
        let br = tid / 32;
        let bc = tid % 32;
        let col_ok = col0 + bc * 4 < n;
        let mut x = [0.0f32; 4];
        for i in 0..4 {
            x[i] = if r + i < m && ak < k {
                a[a0 + (r + i) * a_rs + ak * a_cs]
            } else {
                0.0
            };
        }
        let vb = if br < k && col_ok {
            b[bw + br * qb + col0 / 4 + bc]
        } else {
            Vec4::ZERO
        };
        at[ak][ar] = Vec4::new(x[0], x[1], x[2], x[3]);
        bt[br][bc] = vb;
        block_barrier();
        let mut k0 = 0;
        while k0 < k {
            // Two slices per trip, one from each buffer, so that every index stays a constant.
            for buf in 0..2 {
                // The next slice's loads, in flight during this slice's products.
                let kn = k0 + (buf + 1) * 8 + ak;
                for i in 0..4 {
                    x[i] = if r + i < m && kn < k {
                        a[a0 + (r + i) * a_rs + kn * a_cs]
                    } else {
                        0.0
                    };
                }
                let gk = k0 + (buf + 1) * 8 + br;
                let vb = if gk < k && col_ok {
                    b[bw + gk * qb + col0 / 4 + bc]
                } else {
                    Vec4::ZERO
                };
                for kk in 0..8 {
                    let b0 = bt[buf * 8 + kk][tx];
                    let b1 = bt[buf * 8 + kk][16 + tx];
                    let x0 = at[buf * 8 + kk][ty];
                    let x1 = at[buf * 8 + kk][16 + ty];
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
                at[(1 - buf) * 8 + ak][ar] = Vec4::new(x[0], x[1], x[2], x[3]);
                bt[(1 - buf) * 8 + br][bc] = vb;
                block_barrier();
            }
            k0 += 16;
        }
        for i in 0..4 {
            for half in 0..2 {
                let r = row0 + half * 64 + ty * 4 + i;
                for side in 0..2 {
                    let col = col0 + tx * 4 + 64 * side;
                    if r < m && col < n {
                        let at = cw + r * qc + col / 4;
                        let mut v = acc[half * 8 + i * 2 + side] * alpha;
                        if beta != 0.0 {
                            v += c[at] * beta;
                        }
                        if has_bias != 0 {
                            v += bias[col / 4];
                        }
                        c[at] = v;
                    }
                }
            }
        }
    }
}

/// How a matrix lies in its buffer.
///
/// ```
/// use sarek::algo::matmul::{Layout, Matmul};
///
/// # fn main() -> sarek::Result<()> {
/// let dev = sarek::Device::new()?;
/// // A 2×2 A given by columns: (1, 3) and (2, 4), that is [[1, 2], [3, 4]].
/// let a = dev.upload(&[1.0f32, 3.0, 2.0, 4.0])?;
/// let b = dev.upload(&[1.0f32, 0.0, 0.0, 1.0])?;
/// let mut c = dev.zeros::<f32>(4)?;
/// Matmul::new(2, 2, 2).a_layout(Layout::ColumnMajor).run(&a, &b, &mut c)?;
/// assert_eq!(c.read()?, [1.0, 2.0, 3.0, 4.0]);
/// # Ok(()) }
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Layout {
    /// Element `(r, c)` of an `rows`×`cols` matrix at `r * cols + c` (C's and PyTorch's
    /// order).
    #[default]
    RowMajor,
    /// Element `(r, c)` at `c * rows + r` (Fortran's and BLAS's order; a row-major matrix
    /// read this way is its transpose).
    ColumnMajor,
}

impl Layout {
    /// The strides between rows and between columns of an `rows`×`cols` matrix.
    fn strides(self, rows: usize, cols: usize) -> (usize, usize) {
        match self {
            Layout::RowMajor => (cols, 1),
            Layout::ColumnMajor => (1, rows),
        }
    }
}

/// Which kernel computes a product.
///
/// ```
/// use sarek::algo::matmul::{Engine, Matmul};
///
/// # fn main() -> sarek::Result<()> {
/// let dev = sarek::Device::new()?;
/// let a = dev.upload(&[2.0f32])?;
/// let b = dev.upload(&[3.0f32])?;
/// let mut c = dev.zeros::<f32>(1)?;
/// Matmul::new(1, 1, 1).engine(Engine::Tiled).run(&a, &b, &mut c)?;
/// assert_eq!(c.read()?, [6.0]);
/// # Ok(()) }
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Engine {
    /// Cooperative matrices for `f16` where [`cooperative`] says the device has them, the
    /// tiled kernel elsewhere and for `f32`.
    #[default]
    Auto,
    /// The portable tiled kernels, on every device (for `f32` on a GPU, the register-blocked
    /// one where the operands allow it).
    Tiled,
    /// Cooperative matrices (`f16` only): [`Error::MissingFeature`] on a device without
    /// 16×16×16 matrices of `f16` A and B and an `f32` C, and [`Error::BadArguments`] on a GPU
    /// whose subgroups are not 32 wide. The CPU backend emulates them.
    Cooperative,
}

/// Whether [`Engine::Auto`] runs `f16` products on cooperative matrices on `dev`: a GPU that
/// offers 16×16×16 matrices with `f16` A and B and an `f32` C (a device opened with
/// [`GpuOptions::experimental_features`](crate::GpuOptions::experimental_features)) and whose
/// subgroups are 32 invocations wide, which the kernel's split of a workgroup assumes. The CPU
/// backend runs the tiled kernel (its emulated matrices are slower), unless asked with
/// [`Engine::Cooperative`].
///
/// ```
/// let dev = sarek::Device::cpu();
/// assert!(!sarek::algo::matmul::cooperative(&dev));
/// ```
pub fn cooperative(dev: &Device) -> bool {
    if dev.is_cpu() {
        return false;
    }
    let shape = crate::abi::CoopShape {
        size: 16,
        ab: Some(crate::abi::CoopScalar::F16),
        c: Some(crate::abi::CoopScalar::F32),
    };
    if !dev.cooperative_matrix_shapes().contains(&shape) {
        return false;
    }
    subgroups_of_32(dev)
}

/// Whether every subgroup of `dev` is 32 invocations wide, as the cooperative kernels' split of
/// a workgroup into four subgroups assumes (the CPU backend's emulation needs no such width).
fn subgroups_of_32(dev: &Device) -> bool {
    if dev.is_cpu() {
        return true;
    }
    let info = dev.wgpu_device().adapter_info();
    info.subgroup_min_size == 32 && info.subgroup_max_size == 32
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for half::f16 {}
}

/// An element type [`Matmul`] multiplies: `f32`, or `f16` ([`half::f16`], which needs the
/// device's `SHADER_F16`). Sums are in `f32` for both.
///
/// ```
/// fn square<T: sarek::algo::matmul::MatmulElement>(
///     x: &sarek::Buffer<T>,
///     n: usize,
/// ) -> sarek::Result<sarek::Buffer<T>> {
///     sarek::algo::matmul::matmul(x.device(), x, x, n, n, n)
/// }
/// # fn main() -> sarek::Result<()> {
/// let dev = sarek::Device::new()?;
/// let x = dev.upload(&[0.0f32, 1.0, 1.0, 0.0])?;
/// assert_eq!(square(&x, 2)?.read()?, [1.0, 0.0, 0.0, 1.0]);
/// # Ok(()) }
/// ```
pub trait MatmulElement: crate::Element + sealed::Sealed {
    /// Adds the kernel of `s.engine` (never [`Engine::Auto`]) to `batch`; the
    /// library's internals (arguments already checked by [`Matmul`]).
    #[doc(hidden)]
    fn enqueue_kernel(
        batch: &mut Batch,
        a: &Buffer<Self>,
        b: &Buffer<Self>,
        bias: &Buffer<Self>,
        c: &mut Buffer<Self>,
        s: &Scalars,
    ) -> Result<()>;
}

/// The engine and batch count of a product, and the scalar arguments every kernel of
/// [`kernels`] takes, in order.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct Scalars {
    engine: Engine,
    count: u32,
    dims: [u32; 3],
    strides: [u32; 6],
    batch: [u32; 3],
    alpha: f32,
    beta: f32,
    has_bias: u32,
}

/// Expands to `kernel.enqueue(batch, grid, a, b, bias, c, <every scalar of s>)`, the grid a
/// workgroup for each `tile`×`tile` block of each product's `C`.
macro_rules! enqueue_with {
    ($kernel:path, $tile:expr, $batch:expr, $a:expr, $b:expr, $bias:expr, $c:expr, $s:expr) => {{
        let s = $s;
        let [m, n, _] = s.dims;
        let tile: u32 = $tile as u32;
        $kernel.enqueue(
            $batch,
            Grid::groups([n.div_ceil(tile), m.div_ceil(tile), s.count]),
            $a,
            $b,
            $bias,
            $c,
            s.dims[0],
            s.dims[1],
            s.dims[2],
            s.strides[0],
            s.strides[1],
            s.strides[2],
            s.strides[3],
            s.strides[4],
            s.strides[5],
            s.batch[0],
            s.batch[1],
            s.batch[2],
            s.alpha,
            s.beta,
            s.has_bias,
        )
    }};
}

impl MatmulElement for f32 {
    fn enqueue_kernel(
        batch: &mut Batch,
        a: &Buffer<f32>,
        b: &Buffer<f32>,
        bias: &Buffer<f32>,
        c: &mut Buffer<f32>,
        s: &Scalars,
    ) -> Result<()> {
        debug_assert_eq!(s.engine, Engine::Tiled);
        match rb_views(b, bias, c, s) {
            Some((b4, bias4, mut c4)) => {
                enqueue_with!(
                    kernels::gemm_rb_f32,
                    RB_TILE,
                    batch,
                    a,
                    &b4,
                    &bias4,
                    &mut c4,
                    s
                )
            }
            None => enqueue_with!(kernels::gemm_tiled_f32, TILE, batch, a, b, bias, c, s),
        }
    }
}

impl MatmulElement for half::f16 {
    fn enqueue_kernel(
        batch: &mut Batch,
        a: &Buffer<half::f16>,
        b: &Buffer<half::f16>,
        bias: &Buffer<half::f16>,
        c: &mut Buffer<half::f16>,
        s: &Scalars,
    ) -> Result<()> {
        if s.engine == Engine::Cooperative {
            let blocks = blocks_fit(a.device());
            if let Some(padded) = padding(s).filter(|_| blocks && !a.device().is_cpu()) {
                return enqueue_padded(batch, a, b, bias, c, s, &padded);
            }
            let c4 = if blocks && whole_blocks(s) {
                c_words(c, s)
            } else {
                None
            };
            match (word_views(a, b, s), c4) {
                (Some((a4, b4)), Some(mut c4)) => {
                    enqueue_with!(
                        kernels::gemm_coop_f16x4_blocks,
                        COOP_TILE,
                        batch,
                        &a4,
                        &b4,
                        bias,
                        &mut c4,
                        s
                    )
                }
                (Some((a4, b4)), None) => {
                    enqueue_with!(
                        kernels::gemm_coop_f16x4,
                        COOP_TILE,
                        batch,
                        &a4,
                        &b4,
                        bias,
                        c,
                        s
                    )
                }
                (None, _) => {
                    enqueue_with!(kernels::gemm_coop_f16, COOP_TILE, batch, a, b, bias, c, s)
                }
            }
        } else {
            enqueue_with!(kernels::gemm_tiled_f16, TILE, batch, a, b, bias, c, s)
        }
    }
}

/// A large product that is not made of whole blocks, as the whole-block product of its
/// operands padded with zeros (128 along `m` and `n`, 64 along `k`): the shape and strides
/// of the padded product, where padding adds at most a quarter to the work and every padded
/// index fits a `u32`; `None` where the guarded kernels serve better.
fn padding(s: &Scalars) -> Option<Scalars> {
    let [m, n, k] = s.dims.map(u64::from);
    if whole_blocks(s) || m * n * k < 1 << 27 {
        return None;
    }
    let (mp, np, kp) = (
        m.next_multiple_of(128),
        n.next_multiple_of(128),
        k.next_multiple_of(64),
    );
    let count = u64::from(s.count);
    let fits = [mp * kp, kp * np, mp * np]
        .iter()
        .all(|e| e * count < u64::from(u32::MAX));
    if !fits || mp * np * kp * 4 > m * n * k * 5 {
        return None;
    }
    let (mp, np, kp) = (mp as u32, np as u32, kp as u32);
    Some(Scalars {
        dims: [mp, np, kp],
        strides: [kp, 1, np, 1, np, 1],
        batch: [mp * kp, kp * np, mp * np],
        ..*s
    })
}

/// [`kernels::gemm_coop_f16x4_blocks`] on copies of the operands (and of `C` where `beta` is
/// not zero, and of the bias) padded with zeros to `p`'s shape, then the product's corner
/// copied back into `c`: four to six launches in `batch`, on buffers it keeps alive.
fn enqueue_padded(
    batch: &mut Batch,
    a: &Buffer<half::f16>,
    b: &Buffer<half::f16>,
    bias: &Buffer<half::f16>,
    c: &mut Buffer<half::f16>,
    s: &Scalars,
    p: &Scalars,
) -> Result<()> {
    let dev = batch.device().clone();
    let [m, n, k] = s.dims;
    let [mp, np, kp] = p.dims;
    let [a_rs, a_cs, b_rs, b_cs, c_rs, c_cs] = s.strides;
    let count = s.count;
    // A thread a word of four halves along the padded rows (every padded width is a
    // multiple of 4).
    let cover = |cols: u32, rows: u32, count: u32| {
        Grid::cover_3d(cols.div_ceil(4) as usize, rows as usize, count as usize)
    };
    let mut ap = dev.zeros::<crate::F16Vec4>((p.batch[0] * count / 4) as usize)?;
    let mut bp = dev.zeros::<crate::F16Vec4>((p.batch[1] * count / 4) as usize)?;
    let cp = dev.zeros::<half::f16>((p.batch[2] * count) as usize)?;
    let Some(mut cp4) = view(&cp, cp.len() / 4) else {
        return Err(crate::Error::BadArguments {
            kernel: "unpad_f16".into(),
            message: "the padded product could not be viewed as words of four halves".into(),
        });
    };
    kernels::pad_f16.enqueue(
        batch,
        cover(kp, mp, count),
        a,
        &mut ap,
        m,
        k,
        a_rs,
        a_cs,
        s.batch[0],
        mp,
        kp,
    )?;
    kernels::pad_f16.enqueue(
        batch,
        cover(np, kp, count),
        b,
        &mut bp,
        k,
        n,
        b_rs,
        b_cs,
        s.batch[1],
        kp,
        np,
    )?;
    if s.beta != 0.0 {
        kernels::pad_f16.enqueue(
            batch,
            cover(np, mp, count),
            c,
            &mut cp4,
            m,
            n,
            c_rs,
            c_cs,
            s.batch[2],
            mp,
            np,
        )?;
    }
    let bias_p = dev.zeros::<half::f16>(np as usize)?;
    if s.has_bias != 0 {
        let Some(mut bias4) = view(&bias_p, bias_p.len() / 4) else {
            return Err(crate::Error::BadArguments {
                kernel: "pad_f16".into(),
                message: "the padded bias could not be viewed as words of four halves".into(),
            });
        };
        kernels::pad_f16.enqueue(
            batch,
            cover(np, 1, 1),
            bias,
            &mut bias4,
            1,
            n,
            0,
            1,
            0,
            1,
            np,
        )?;
    }
    enqueue_with!(
        kernels::gemm_coop_f16x4_blocks,
        COOP_TILE,
        batch,
        &ap,
        &bp,
        &bias_p,
        &mut cp4,
        p
    )?;
    kernels::unpad_f16.enqueue(
        batch,
        cover(n, m, count),
        &cp4,
        c,
        m,
        n,
        c_rs,
        c_cs,
        s.batch[2],
        mp,
        np,
    )
}

/// `c` as words of four halves for [`kernels::gemm_coop_f16x4_blocks`], where it is row-major
/// with rows and matrices starting on whole words; `None` elsewhere.
fn c_words(c: &Buffer<half::f16>, s: &Scalars) -> Option<Buffer<crate::F16Vec4>> {
    let [_, n, _] = s.dims;
    let [.., c_rs, c_cs] = s.strides;
    let words = c_cs == 1 && [n, c_rs, s.batch[2]].iter().all(|v| v % 4 == 0);
    if !words || !c.len().is_multiple_of(4) || !c.offset().is_multiple_of(8) {
        return None;
    }
    view(c, c.len() / 4)
}

/// Whether `dev` offers [`kernels::gemm_coop_f16x4_blocks`]'s workgroup memory (23,040
/// bytes, past WebGPU's guaranteed 16 KiB).
fn blocks_fit(dev: &Device) -> bool {
    dev.is_cpu()
        || dev.limits().max_compute_workgroup_storage_size
            >= kernels::gemm_coop_f16x4_blocks::ABI.workgroup_memory
}

/// Whether the product is made of whole 128×128 blocks of `C` and slices of 64 along `k`,
/// for [`kernels::gemm_coop_f16x4_blocks`].
fn whole_blocks(s: &Scalars) -> bool {
    let [m, n, k] = s.dims;
    m % 128 == 0 && n % 128 == 0 && k % 64 == 0 && k >= 64
}

/// `a` and `b` as words of four halves, for [`kernels::gemm_coop_f16x4`], where both are
/// row-major with rows and matrices starting on whole words (and `n` a multiple of 4, so
/// that a word of `B` lies wholly inside or outside a row) on a GPU; `None` elsewhere.
fn word_views(
    a: &Buffer<half::f16>,
    b: &Buffer<half::f16>,
    s: &Scalars,
) -> Option<(Buffer<crate::F16Vec4>, Buffer<crate::F16Vec4>)> {
    let [_, n, k] = s.dims;
    let [a_rs, a_cs, b_rs, b_cs, ..] = s.strides;
    let words = a_cs == 1
        && b_cs == 1
        && [n, k, a_rs, b_rs, s.batch[0], s.batch[1]]
            .iter()
            .all(|v| v % 4 == 0);
    if !words {
        return None;
    }
    Some((view(a, a.len() / 4)?, view(b, b.len() / 4)?))
}

/// `b`, the bias (or `b` again without one) and `c` as rows of `Vec4`, for
/// [`kernels::gemm_rb_f32`], where `B` and `C` are row-major with rows and matrices starting
/// on whole `Vec4`s, on a GPU with the kernel's 16,640 bytes of workgroup memory; `None`
/// elsewhere.
fn rb_views(
    b: &Buffer<f32>,
    bias: &Buffer<f32>,
    c: &Buffer<f32>,
    s: &Scalars,
) -> Option<(
    Buffer<crate::Vec4>,
    Buffer<crate::Vec4>,
    Buffer<crate::Vec4>,
)> {
    let n = s.dims[1];
    let [_, _, b_rs, b_cs, c_rs, c_cs] = s.strides;
    let vectors = b_cs == 1
        && c_cs == 1
        && [n, b_rs, c_rs, s.batch[1], s.batch[2]]
            .iter()
            .all(|v| v % 4 == 0);
    let memory = c.device().limits().max_compute_workgroup_storage_size;
    if !vectors || memory < kernels::gemm_rb_f32::ABI.workgroup_memory {
        return None;
    }
    let b4 = view(b, b.len() / 4)?;
    let bias4 = if s.has_bias != 0 {
        view(bias, bias.len() / 4)?
    } else {
        view(b, b.len() / 4)?
    };
    Some((b4, bias4, view(c, c.len() / 4)?))
}

/// A matrix product `C = alpha · op(A) · op(B) + beta · C (+ bias)` of an `m`×`k` matrix `A`
/// and a `k`×`n` matrix `B` into an `m`×`n` matrix `C`, or a batch of them: the shape, the
/// layouts, the scalars and the engine, set once and run on any buffers of that shape.
/// By default every matrix is row-major, `alpha` is 1 and `beta` 0 (`C` is overwritten and
/// not read), the batch one product, and the engine [`Engine::Auto`].
///
/// The bias, where given, is a row of `n` elements added to every row of `C` (of every
/// product of a batch), as in PyTorch's `addmm(bias, a, b)` and a linear layer. Any of `m`,
/// `n`, `k` and the batch count may be 0: then nothing is written, except that `k = 0` makes
/// `C = beta · C (+ bias)`.
///
/// ```
/// use sarek::algo::matmul::Matmul;
///
/// # fn main() -> sarek::Result<()> {
/// let dev = sarek::Device::new()?;
/// // Two products of 1×2 by 2×1, one after the other in each buffer.
/// let a = dev.upload(&[1.0f32, 2.0, 3.0, 4.0])?;
/// let b = dev.upload(&[5.0f32, 6.0, 7.0, 8.0])?;
/// let mut c = dev.zeros::<f32>(2)?;
/// let product = Matmul::new(1, 1, 2).batch(2);
/// let mut batch = dev.batch();
/// product.enqueue(&mut batch, &a, &b, &mut c)?;
/// batch.submit()?;
/// assert_eq!(c.read()?, [17.0, 53.0]);
/// # Ok(()) }
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Matmul {
    m: usize,
    n: usize,
    k: usize,
    count: usize,
    strides: Option<[usize; 3]>,
    layouts: [Layout; 3],
    alpha: f32,
    beta: f32,
    engine: Engine,
}

impl Matmul {
    /// The product of an `m`×`k` matrix by a `k`×`n` one, into an `m`×`n` one.
    ///
    /// ```
    /// let p = sarek::algo::matmul::Matmul::new(4, 5, 6);
    /// assert_eq!(p.shape(), (4, 5, 6));
    /// ```
    pub fn new(m: usize, n: usize, k: usize) -> Matmul {
        Matmul {
            m,
            n,
            k,
            count: 1,
            strides: None,
            layouts: [Layout::RowMajor; 3],
            alpha: 1.0,
            beta: 0.0,
            engine: Engine::Auto,
        }
    }

    /// `(m, n, k)`.
    ///
    /// ```
    /// assert_eq!(sarek::algo::matmul::Matmul::new(1, 2, 3).shape(), (1, 2, 3));
    /// ```
    pub fn shape(&self) -> (usize, usize, usize) {
        (self.m, self.n, self.k)
    }

    /// How `A` lies in its buffer ([`Layout::ColumnMajor`] multiplies by the transpose of a
    /// row-major `k`×`m` matrix, BLAS's `transa = 'T'`).
    ///
    /// ```
    /// use sarek::algo::matmul::{Layout, Matmul};
    /// # fn main() -> sarek::Result<()> {
    /// let dev = sarek::Device::new()?;
    /// let x = dev.upload(&[1.0f32, 2.0, 3.0])?; // a column of 3
    /// let mut gram = dev.zeros::<f32>(1)?;
    /// // xᵀ·x: A is x read as a 1×3 row-major matrix, B is x as 3×1.
    /// Matmul::new(1, 1, 3).a_layout(Layout::ColumnMajor).run(&x, &x, &mut gram)?;
    /// assert_eq!(gram.read()?, [14.0]);
    /// # Ok(()) }
    /// ```
    pub fn a_layout(mut self, layout: Layout) -> Matmul {
        self.layouts[0] = layout;
        self
    }

    /// How `B` lies in its buffer ([`Layout::ColumnMajor`] multiplies by the transpose of a
    /// row-major `n`×`k` matrix, as a linear layer's weight `x · Wᵀ` does).
    ///
    /// ```
    /// use sarek::algo::matmul::{Layout, Matmul};
    /// # fn main() -> sarek::Result<()> {
    /// let dev = sarek::Device::new()?;
    /// let x = dev.upload(&[1.0f32, 2.0])?; // one input of 2 features
    /// let w = dev.upload(&[1.0f32, 1.0, 1.0, -1.0, 0.0, 2.0])?; // 3 outputs × 2 inputs
    /// let mut y = dev.zeros::<f32>(3)?;
    /// Matmul::new(1, 3, 2).b_layout(Layout::ColumnMajor).run(&x, &w, &mut y)?;
    /// assert_eq!(y.read()?, [3.0, -1.0, 4.0]);
    /// # Ok(()) }
    /// ```
    pub fn b_layout(mut self, layout: Layout) -> Matmul {
        self.layouts[1] = layout;
        self
    }

    /// How `C` lies in its buffer (read, where `beta` is not 0, and written).
    ///
    /// ```
    /// use sarek::algo::matmul::{Layout, Matmul};
    /// # fn main() -> sarek::Result<()> {
    /// let dev = sarek::Device::new()?;
    /// let a = dev.upload(&[1.0f32, 2.0])?; // 2×1
    /// let b = dev.upload(&[3.0f32, 4.0])?; // 1×2
    /// let mut c = dev.zeros::<f32>(4)?;
    /// Matmul::new(2, 2, 1).c_layout(Layout::ColumnMajor).run(&a, &b, &mut c)?;
    /// assert_eq!(c.read()?, [3.0, 6.0, 4.0, 8.0]); // by columns
    /// # Ok(()) }
    /// ```
    pub fn c_layout(mut self, layout: Layout) -> Matmul {
        self.layouts[2] = layout;
        self
    }

    /// The factor of the product (1 by default).
    ///
    /// ```
    /// use sarek::algo::matmul::Matmul;
    /// # fn main() -> sarek::Result<()> {
    /// let dev = sarek::Device::new()?;
    /// let (a, b) = (dev.upload(&[2.0f32])?, dev.upload(&[3.0f32])?);
    /// let mut c = dev.zeros::<f32>(1)?;
    /// Matmul::new(1, 1, 1).alpha(-0.5).run(&a, &b, &mut c)?;
    /// assert_eq!(c.read()?, [-3.0]);
    /// # Ok(()) }
    /// ```
    pub fn alpha(mut self, alpha: f32) -> Matmul {
        self.alpha = alpha;
        self
    }

    /// The factor of `C`'s old value (0 by default: `C` is then not read, so NaNs in it do not
    /// survive, as in BLAS).
    ///
    /// ```
    /// use sarek::algo::matmul::Matmul;
    /// # fn main() -> sarek::Result<()> {
    /// let dev = sarek::Device::new()?;
    /// let (a, b) = (dev.upload(&[2.0f32])?, dev.upload(&[3.0f32])?);
    /// let mut c = dev.upload(&[10.0f32])?;
    /// Matmul::new(1, 1, 1).beta(1.0).run(&a, &b, &mut c)?; // accumulate
    /// assert_eq!(c.read()?, [16.0]);
    /// # Ok(()) }
    /// ```
    pub fn beta(mut self, beta: f32) -> Matmul {
        self.beta = beta;
        self
    }

    /// `count` products, the matrices of each operand one after another in its buffer
    /// (`m·k`, `k·n` and `m·n` elements apart), as `torch.bmm` takes them.
    ///
    /// ```
    /// use sarek::algo::matmul::Matmul;
    /// # fn main() -> sarek::Result<()> {
    /// let dev = sarek::Device::new()?;
    /// let a = dev.upload(&[1.0f32, 2.0, 3.0])?; // three 1×1 matrices
    /// let b = dev.upload(&[4.0f32, 5.0, 6.0])?;
    /// let mut c = dev.zeros::<f32>(3)?;
    /// Matmul::new(1, 1, 1).batch(3).run(&a, &b, &mut c)?;
    /// assert_eq!(c.read()?, [4.0, 10.0, 18.0]);
    /// # Ok(()) }
    /// ```
    pub fn batch(mut self, count: usize) -> Matmul {
        self.count = count;
        self
    }

    /// `count` products whose matrices are `a`, `b` and `c` elements apart in their buffers;
    /// a stride of 0 uses the same matrix in every product (one weight for a batch of
    /// inputs). Buffers then need only reach the last matrix of the batch.
    ///
    /// ```
    /// use sarek::algo::matmul::Matmul;
    /// # fn main() -> sarek::Result<()> {
    /// let dev = sarek::Device::new()?;
    /// let x = dev.upload(&[1.0f32, 2.0, 3.0, 4.0])?; // two 1×2 inputs
    /// let w = dev.upload(&[1.0f32, 1.0])?; // one 2×1 weight for both
    /// let mut y = dev.zeros::<f32>(2)?;
    /// Matmul::new(1, 1, 2).batch_strides(2, 2, 0, 1).run(&x, &w, &mut y)?;
    /// assert_eq!(y.read()?, [3.0, 7.0]);
    /// # Ok(()) }
    /// ```
    pub fn batch_strides(mut self, count: usize, a: usize, b: usize, c: usize) -> Matmul {
        self.count = count;
        self.strides = Some([a, b, c]);
        self
    }

    /// Which kernel runs the product ([`Engine::Auto`] by default).
    ///
    /// ```
    /// use sarek::algo::matmul::{Engine, Matmul};
    /// # fn main() -> sarek::Result<()> {
    /// let dev = sarek::Device::cpu(); // emulates cooperative matrices
    /// let h = sarek::f16::from_f32;
    /// let a = dev.upload(&[h(1.5), h(2.0)])?;
    /// let b = dev.upload(&[h(2.0), h(0.25)])?;
    /// let mut c = dev.zeros::<sarek::f16>(1)?;
    /// Matmul::new(1, 1, 2).engine(Engine::Cooperative).run(&a, &b, &mut c)?;
    /// assert_eq!(c.read()?, [h(3.5)]);
    /// # Ok(()) }
    /// ```
    pub fn engine(mut self, engine: Engine) -> Matmul {
        self.engine = engine;
        self
    }

    /// Adds the product to `batch` without waiting. Errors ([`Error::BadArguments`]) when a
    /// buffer's length does not fit the shape: with [`Matmul::batch`]'s packed matrices each
    /// buffer must hold exactly `count` matrices, with [`Matmul::batch_strides`] at least up
    /// to its last one; when an index would pass 2^32 - 1; and for [`Engine::Cooperative`]
    /// with `f32` or on a GPU whose subgroups are not 32 wide.
    ///
    /// ```
    /// use sarek::algo::matmul::Matmul;
    /// # fn main() -> sarek::Result<()> {
    /// let dev = sarek::Device::new()?;
    /// let a = dev.upload(&[1.0f32, 2.0])?;
    /// let b = dev.upload(&[3.0f32, 4.0])?;
    /// let mut c = dev.zeros::<f32>(1)?;
    /// let mut batch = dev.batch();
    /// Matmul::new(1, 1, 2).enqueue(&mut batch, &a, &b, &mut c)?;
    /// batch.submit()?;
    /// assert_eq!(c.read()?, [11.0]);
    /// // A 2×2 product does not fit these buffers.
    /// let mut batch = dev.batch();
    /// assert!(Matmul::new(2, 2, 2).enqueue(&mut batch, &a, &b, &mut c).is_err());
    /// # Ok(()) }
    /// ```
    pub fn enqueue<T: MatmulElement>(
        &self,
        batch: &mut Batch,
        a: &Buffer<T>,
        b: &Buffer<T>,
        c: &mut Buffer<T>,
    ) -> Result<()> {
        self.enqueue_any(batch, a, b, None, c)
    }

    /// [`Matmul::enqueue`] with a bias: `bias` (`n` elements) added to every row of `C`.
    ///
    /// ```
    /// use sarek::algo::matmul::Matmul;
    /// # fn main() -> sarek::Result<()> {
    /// let dev = sarek::Device::new()?;
    /// let a = dev.upload(&[1.0f32, 2.0])?; // 2×1
    /// let b = dev.upload(&[1.0f32])?; // 1×1
    /// let bias = dev.upload(&[10.0f32])?;
    /// let mut c = dev.zeros::<f32>(2)?;
    /// let mut batch = dev.batch();
    /// Matmul::new(2, 1, 1).enqueue_with_bias(&mut batch, &a, &b, &bias, &mut c)?;
    /// batch.submit()?;
    /// assert_eq!(c.read()?, [11.0, 12.0]);
    /// # Ok(()) }
    /// ```
    pub fn enqueue_with_bias<T: MatmulElement>(
        &self,
        batch: &mut Batch,
        a: &Buffer<T>,
        b: &Buffer<T>,
        bias: &Buffer<T>,
        c: &mut Buffer<T>,
    ) -> Result<()> {
        self.enqueue_any(batch, a, b, Some(bias), c)
    }

    /// Runs the product in a submission of its own, not waited for ([`Buffer::read`] waits).
    ///
    /// ```
    /// use sarek::algo::matmul::Matmul;
    /// # fn main() -> sarek::Result<()> {
    /// let dev = sarek::Device::new()?;
    /// let a = dev.upload(&[1.0f32, 0.0, 0.0, 1.0])?;
    /// let b = dev.upload(&[5.0f32, 6.0, 7.0, 8.0])?;
    /// let mut c = dev.zeros::<f32>(4)?;
    /// Matmul::new(2, 2, 2).run(&a, &b, &mut c)?.wait()?;
    /// assert_eq!(c.read()?, [5.0, 6.0, 7.0, 8.0]);
    /// # Ok(()) }
    /// ```
    pub fn run<T: MatmulElement>(
        &self,
        a: &Buffer<T>,
        b: &Buffer<T>,
        c: &mut Buffer<T>,
    ) -> Result<crate::Launch> {
        let mut batch = c.device().batch();
        self.enqueue(&mut batch, a, b, c)?;
        batch.submit()
    }

    /// [`Matmul::run`] with a bias of `n` elements added to every row of `C`.
    ///
    /// ```
    /// use sarek::algo::matmul::Matmul;
    /// # fn main() -> sarek::Result<()> {
    /// let dev = sarek::Device::new()?;
    /// let a = dev.upload(&[2.0f32])?;
    /// let b = dev.upload(&[1.0f32, 2.0])?; // 1×2
    /// let bias = dev.upload(&[0.5f32, 0.25])?;
    /// let mut c = dev.zeros::<f32>(2)?;
    /// Matmul::new(1, 2, 1).run_with_bias(&a, &b, &bias, &mut c)?;
    /// assert_eq!(c.read()?, [2.5, 4.25]);
    /// # Ok(()) }
    /// ```
    pub fn run_with_bias<T: MatmulElement>(
        &self,
        a: &Buffer<T>,
        b: &Buffer<T>,
        bias: &Buffer<T>,
        c: &mut Buffer<T>,
    ) -> Result<crate::Launch> {
        let mut batch = c.device().batch();
        self.enqueue_with_bias(&mut batch, a, b, bias, c)?;
        batch.submit()
    }

    /// The engine that runs an element type `T` on `dev`: never [`Engine::Auto`].
    ///
    /// ```
    /// use sarek::algo::matmul::{Engine, Matmul};
    /// let dev = sarek::Device::cpu();
    /// assert_eq!(Matmul::new(8, 8, 8).engine_for::<f32>(&dev), Engine::Tiled);
    /// ```
    pub fn engine_for<T: MatmulElement>(&self, dev: &Device) -> Engine {
        match self.engine {
            Engine::Auto if is_half::<T>() && cooperative(dev) => Engine::Cooperative,
            Engine::Auto => Engine::Tiled,
            e => e,
        }
    }

    fn enqueue_any<T: MatmulElement>(
        &self,
        batch: &mut Batch,
        a: &Buffer<T>,
        b: &Buffer<T>,
        bias: Option<&Buffer<T>>,
        c: &mut Buffer<T>,
    ) -> Result<()> {
        let (m, n, k, count) = (self.m, self.n, self.k, self.count);
        let engine = self.engine_for::<T>(c.device());
        let kernel = match engine {
            Engine::Cooperative => "gemm_coop_f16",
            _ if is_half::<T>() => "gemm_tiled_f16",
            _ => "gemm_tiled_f32",
        };
        let bad = |message: String| Error::BadArguments {
            kernel: kernel.into(),
            message,
        };
        if engine == Engine::Cooperative && !is_half::<T>() {
            return Err(bad(
                "cooperative matrices run `f16` products only; use `Engine::Tiled` or \
                 `Engine::Auto` for `f32`"
                    .into(),
            ));
        }
        if engine == Engine::Cooperative && !subgroups_of_32(c.device()) {
            return Err(bad(
                "the cooperative kernels assume subgroups of 32 invocations, and this device's \
                 differ; use `Engine::Tiled` or `Engine::Auto`"
                    .into(),
            ));
        }
        let sizes = [
            ("A", m.checked_mul(k)),
            ("B", k.checked_mul(n)),
            ("C", m.checked_mul(n)),
        ];
        let packed = self.strides.is_none();
        // Every index must fit a `u32` (checked before the lengths, whose error would
        // otherwise hide this one).
        let mut batch_strides = [0u32; 3];
        let mut needs = [0usize; 3];
        for (i, (name, size)) in sizes.into_iter().enumerate() {
            let too_large = || bad(format!("{name} has more than 2^32 - 1 elements"));
            let size = size.ok_or_else(too_large)?;
            let stride = self.strides.map_or(size, |s| s[i]);
            // Elements the buffer must reach: up to the last element of the last matrix.
            needs[i] = if size == 0 || count == 0 {
                0
            } else {
                (count - 1)
                    .checked_mul(stride)
                    .and_then(|s| s.checked_add(size))
                    .ok_or_else(too_large)?
            };
            if needs[i] > u32::MAX as usize || stride > u32::MAX as usize {
                return Err(too_large());
            }
            batch_strides[i] = stride as u32;
        }
        for (i, buf_len) in [a.len(), b.len(), c.len()].into_iter().enumerate() {
            let need = needs[i];
            let fits = if packed {
                buf_len == need
            } else {
                buf_len >= need
            };
            if !fits {
                let name = sizes[i].0;
                let (rows, cols) = [(m, k), (k, n), (m, n)][i];
                let holds = if packed { "exactly" } else { "at least" };
                return Err(bad(format!(
                    "{name} of {count} product(s) of {rows}×{cols} must hold {holds} {need} \
                     elements, and its buffer holds {buf_len}"
                )));
            }
        }
        if let Some(bias) = bias {
            if bias.len() != n {
                return Err(bad(format!(
                    "the bias must hold n = {n} elements, and its buffer holds {}",
                    bias.len()
                )));
            }
        }
        if m == 0 || n == 0 || count == 0 {
            return Ok(());
        }
        let (a_rs, a_cs) = self.layouts[0].strides(m, k);
        let (b_rs, b_cs) = self.layouts[1].strides(k, n);
        let (c_rs, c_cs) = self.layouts[2].strides(m, n);
        let count = u32::try_from(count).map_err(|_| bad("more than 2^32 - 1 products".into()))?;
        let s = Scalars {
            engine,
            count,
            dims: [m as u32, n as u32, k as u32],
            strides: [a_rs, a_cs, b_rs, b_cs, c_rs, c_cs].map(|v| v as u32),
            batch: batch_strides,
            alpha: self.alpha,
            beta: self.beta,
            has_bias: bias.is_some() as u32,
        };
        // Without a bias the kernel's bias parameter is bound to `A` and never read.
        T::enqueue_kernel(batch, a, b, bias.unwrap_or(a), c, &s)
    }
}

/// Whether `T` is `f16`.
fn is_half<T: MatmulElement>() -> bool {
    std::mem::size_of::<T>() == 2
}

/// The product `A · B` of a row-major `m`×`k` matrix `a` and a row-major `k`×`n` matrix `b`,
/// in a new row-major `m`×`n` buffer; [`Matmul`] has the layouts, the scalars, the bias and
/// batches. Errors when a buffer does not hold its matrix exactly.
///
/// ```
/// use sarek::algo::matmul::matmul;
///
/// # fn main() -> sarek::Result<()> {
/// let dev = sarek::Device::new()?;
/// let a = dev.upload(&[1.0f32, 2.0, 3.0])?; // 1×3
/// let b = dev.upload(&[1.0f32, 2.0, 3.0])?; // 3×1
/// assert_eq!(matmul(&dev, &a, &b, 1, 1, 3)?.read()?, [14.0]);
/// # Ok(()) }
/// ```
pub fn matmul<T: MatmulElement>(
    dev: &Device,
    a: &Buffer<T>,
    b: &Buffer<T>,
    m: usize,
    n: usize,
    k: usize,
) -> Result<Buffer<T>> {
    let mut c = dev.zeros::<T>(m.saturating_mul(n))?;
    Matmul::new(m, n, k).run(a, b, &mut c)?;
    Ok(c)
}
