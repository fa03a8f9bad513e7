//! The f16 matrix product on cooperative matrices (wgpu feature
//! `EXPERIMENTAL_COOPERATIVE_MATRIX`, NVIDIA's tensor cores through Vulkan), with f32
//! accumulation, in TFLOP/s (the report's GFLOP/s / 1000), against the hand-written WGSL twin
//! `wgsl/matmul_f16_coop.wgsl` using the same extension. Checked against an f32 host
//! reference: the inputs are small multiples of 1/4 (exact in f16, products exact in f32), so
//! every partial sum is exact in f32 and the tolerance is 0 (both sides must equal the
//! reference exactly at the sampled elements, and each other everywhere). Skipped, with a
//! message, on a device without the feature or without the 16×16×16 f16·f16+f32 shape.

use sarek::coop::{A, B, C}; // the roles, for the plain-Rust body
use sarek::{f16, Buffer, Grid};

use super::{Bench, Result};
use crate::measure::{first_launch, Measured, Work};
use crate::raw::{read, storage};

/// `c = a * b` for `m`×`m` row-major matrices (`m` a multiple of 64): one subgroup of 32 per
/// workgroup computes a 64×64 block of `c` as 4×4 tiles of 16×16, `f16` A and B straight from
/// the buffers, `f32` accumulators. The twin is `wgsl/matmul_f16_coop.wgsl`.
#[sarek::kernel(workgroup_size = [32])]
pub fn matmul_f16_coop(a: &[f16], b: &[f16], c: &mut [f32], m: u32) {
    let m = m as usize;
    let row = block_idx_y() * 64;
    let col = block_idx_x() * 64;
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
    let mut k = 0;
    while k < m {
        let a0 = CoopMatrix::<f16, 16, A>::load_rows(a, (row + 0) * m + k, m);
        let a1 = CoopMatrix::<f16, 16, A>::load_rows(a, (row + 16) * m + k, m);
        let a2 = CoopMatrix::<f16, 16, A>::load_rows(a, (row + 32) * m + k, m);
        let a3 = CoopMatrix::<f16, 16, A>::load_rows(a, (row + 48) * m + k, m);
        let b0 = CoopMatrix::<f16, 16, B>::load_rows(b, k * m + col + 0, m);
        let b1 = CoopMatrix::<f16, 16, B>::load_rows(b, k * m + col + 16, m);
        let b2 = CoopMatrix::<f16, 16, B>::load_rows(b, k * m + col + 32, m);
        let b3 = CoopMatrix::<f16, 16, B>::load_rows(b, k * m + col + 48, m);
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
        k += 16;
    }
    c00.store_rows(c, (row + 0) * m + col + 0, m);
    c01.store_rows(c, (row + 0) * m + col + 16, m);
    c02.store_rows(c, (row + 0) * m + col + 32, m);
    c03.store_rows(c, (row + 0) * m + col + 48, m);
    c10.store_rows(c, (row + 16) * m + col + 0, m);
    c11.store_rows(c, (row + 16) * m + col + 16, m);
    c12.store_rows(c, (row + 16) * m + col + 32, m);
    c13.store_rows(c, (row + 16) * m + col + 48, m);
    c20.store_rows(c, (row + 32) * m + col + 0, m);
    c21.store_rows(c, (row + 32) * m + col + 16, m);
    c22.store_rows(c, (row + 32) * m + col + 32, m);
    c23.store_rows(c, (row + 32) * m + col + 48, m);
    c30.store_rows(c, (row + 48) * m + col + 0, m);
    c31.store_rows(c, (row + 48) * m + col + 16, m);
    c32.store_rows(c, (row + 48) * m + col + 32, m);
    c33.store_rows(c, (row + 48) * m + col + 48, m);
}

/// The inputs, row-major m×m: multiples of 1/4 from -1.5 to 1.5, exact in f16.
fn inputs(m: usize) -> (Vec<f16>, Vec<f16>) {
    let a = (0..m * m)
        .map(|i| f16::from_f32(((i * 7) % 13) as f32 * 0.25 - 1.5))
        .collect();
    let b = (0..m * m)
        .map(|i| f16::from_f32(((i * 5) % 11) as f32 * 0.25 - 1.25))
        .collect();
    (a, b)
}

/// Whether both sides agree everywhere and equal the f32 host reference at sampled elements.
fn verify(m: usize, a: &[f16], b: &[f16], got: &[f32], raw: &[f32]) -> bool {
    let sample = [
        (0, 0),
        (1, m - 1),
        (m / 2, m / 3),
        (m - 1, 0),
        (m - 1, m - 1),
        (m / 3, m / 2),
    ];
    got == raw
        && sample.iter().all(|&(r, col)| {
            let want: f32 = (0..m)
                .map(|k| a[r * m + k].to_f32() * b[k * m + col].to_f32())
                .sum();
            got[r * m + col] == want
        })
}

/// The f16 product at 4096² (1024² and 2048² too), f32 accumulation.
pub fn matmul_f16(b: &Bench) -> Result<Vec<Measured>> {
    let ctx = b.ctx;
    let dev = &ctx.dev;
    let shape = sarek::abi::CoopShape {
        size: 16,
        ab: Some(sarek::abi::CoopScalar::F16),
        c: Some(sarek::abi::CoopScalar::F32),
    };
    if !dev.cooperative_matrix_shapes().contains(&shape) {
        eprintln!(
            "matmul_f16: skipped, {} has no cooperative matrices of {shape}",
            dev.name()
        );
        return Ok(Vec::new());
    }
    let sizes: &[usize] = if b.quick { &[128] } else { &[1024, 2048, 4096] };
    let mut rows = Vec::new();
    for &m in sizes {
        let (av, bv) = inputs(m);
        let (a, bm) = (dev.upload(&av)?, dev.upload(&bv)?);
        let mut c = dev.zeros::<f32>(m * m)?;
        let g = (m / 64) as u32;
        let grid = Grid::groups([g, g, 1]);
        let launch = |c: &mut Buffer<f32>| {
            matmul_f16_coop
                .launch(dev, grid, &a, &bm, c, m as u32)
                .expect("launch")
        };
        let first = first_launch(|| launch(&mut c));
        let got = c.read()?;
        let ra = storage(ctx, bytemuck::cast_slice(&av));
        let rbm = storage(ctx, bytemuck::cast_slice(&bv));
        let rc = storage(ctx, &vec![0u8; m * m * 4]);
        let params = ctx.uniform(bytemuck::cast_slice(&[m as u32]));
        let p = ctx.pipeline(include_str!("../wgsl/matmul_f16_coop.wgsl"));
        let bg = ctx.bind(&p, &[&ra, &rbm, &rc, &params]);
        ctx.time_passes(&[(&p, &bg, [g, g, 1])]);
        let raw: Vec<f32> = read(ctx, &rc);
        let verified = verify(m, &av, &bv, &got, &raw);
        let (sarek, wgsl) = b
            .timer
            .compare_one(|| vec![launch(&mut c)], &[(&p, &bg, [g, g, 1])]);
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
