//! An f16 matrix product on the GPU's matrix units (cooperative matrices, wgpu feature
//! `EXPERIMENTAL_COOPERATIVE_MATRIX`: NVIDIA's tensor cores through Vulkan), accumulated in
//! f32 and checked against an f32 product on the host.
//!
//! Each subgroup of 32 computes a 32×32 block of `c` as 2×2 tiles of 16×16, an array of four
//! matrices. A device without
//! cooperative matrices of 16×16×16 with f16 A and B and an f32 C (lavapipe, browsers, most
//! non-NVIDIA GPUs under wgpu 30) refuses the launch with `Error::MissingFeature`, which names
//! the shapes it offers; this example prints that and runs the product on the CPU backend,
//! which emulates cooperative matrices.
//!
//! `cargo run --release --example f16_matmul [m]` (m a multiple of 32; 1024 by default).

use std::time::Instant;

use sarek::coop::{A, B, C};
use sarek::f16;
use sarek::prelude::*;

#[sarek::kernel(workgroup_size = [32])]
fn product(a: &[f16], b: &[f16], c: &mut [f32], m: u32) {
    let m = m as usize;
    let row = block_idx_y() * 32;
    let col = block_idx_x() * 32;
    // The 2×2 tiles of the block, row by row; the loops over them are unrolled, so each tile
    // is a matrix variable of its own in the WGSL.
    let mut acc = [CoopMatrix::<f32, 16, C>::zeros(); 4];
    let mut k = 0;
    while k < m {
        let mut am = [CoopMatrix::<f16, 16, A>::zeros(); 2];
        let mut bm = [CoopMatrix::<f16, 16, B>::zeros(); 2];
        for i in 0..2 {
            am[i] = CoopMatrix::load_rows(a, (row + 16 * i) * m + k, m);
            bm[i] = CoopMatrix::load_rows(b, k * m + col + 16 * i, m);
        }
        for i in 0..2 {
            for j in 0..2 {
                acc[2 * i + j] = am[i].multiply_add(bm[j], acc[2 * i + j]);
            }
        }
        k += 16;
    }
    for i in 0..2 {
        for j in 0..2 {
            acc[2 * i + j].store_rows(c, (row + 16 * i) * m + col + 16 * j, m);
        }
    }
}

fn run(dev: &Device, m: usize, a: &[f16], b: &[f16]) -> sarek::Result<Vec<f32>> {
    let (ab, bb) = (dev.upload(a)?, dev.upload(b)?);
    let mut cb = dev.zeros::<f32>(m * m)?;
    let g = (m / 32) as u32;
    let start = Instant::now();
    product
        .launch(dev, Grid::groups([g, g, 1]), &ab, &bb, &mut cb, m as u32)?
        .wait()?;
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{}: {m}×{m} in {:.3} ms ({:.1} TFLOP/s, first launch included)",
        dev.name(),
        secs * 1e3,
        2.0 * (m as f64).powi(3) / secs / 1e12
    );
    cb.read()
}

fn main() -> sarek::Result<()> {
    let m: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1024);
    assert!(m.is_multiple_of(32), "m must be a multiple of 32");
    // Multiples of 1/4 from -1.5 to 1.5: exact in f16, and every partial sum exact in f32.
    let a: Vec<f16> = (0..m * m)
        .map(|i| f16::from_f32(((i * 7) % 13) as f32 * 0.25 - 1.5))
        .collect();
    let b: Vec<f16> = (0..m * m)
        .map(|i| f16::from_f32(((i * 5) % 11) as f32 * 0.25 - 1.25))
        .collect();
    // Tensor cores are one of wgpu's experimental features, which a device has only on request.
    // SAFETY: this program accepts wgpu's contract for its experimental features.
    let dev = match Device::gpu_with(unsafe { sarek::GpuOptions::new().experimental_features() }) {
        Ok(dev) if !dev.is_software() => dev,
        _ => Device::new()?,
    };
    println!(
        "{}: offers {:?}",
        dev.name(),
        dev.cooperative_matrix_shapes()
    );
    let c = match run(&dev, m, &a, &b) {
        Ok(c) => c,
        Err(e @ sarek::Error::MissingFeature { .. }) => {
            println!("{e}\nfalling back to the CPU backend, which emulates cooperative matrices");
            let m = m.min(128);
            return check(
                m,
                &a[..m * m],
                &b[..m * m],
                &run(&Device::cpu(), m, &a[..m * m], &b[..m * m])?,
            );
        }
        Err(e) => return Err(e),
    };
    check(m, &a, &b, &c)
}

/// Compares rows of `c` with an f32 host product: exact for these inputs (tolerance 0).
fn check(m: usize, a: &[f16], b: &[f16], c: &[f32]) -> sarek::Result<()> {
    for r in [0, m / 2, m - 1] {
        for col in 0..m {
            let want: f32 = (0..m)
                .map(|k| a[r * m + k].to_f32() * b[k * m + col].to_f32())
                .sum();
            assert_eq!(c[r * m + col], want, "c[{r}][{col}]");
        }
    }
    println!("checked rows 0, m/2 and m-1 against the f32 host product: exact");
    Ok(())
}
