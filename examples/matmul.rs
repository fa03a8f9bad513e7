//! A tiled f32 matrix product: 16×16 workgroups stage tiles of A and B in workgroup memory.
//!
//! Run it with `cargo run --release --example matmul`.

use std::time::Instant;

use sarek::prelude::*;

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

fn main() -> sarek::Result<()> {
    let n = 384;
    let dev = Device::new()?;
    println!("adapter: {} ({:?})", dev.name(), dev.backend());
    let av: Vec<f32> = (0..n * n).map(|i| ((i * 7) % 13) as f32 - 6.0).collect();
    let bv: Vec<f32> = (0..n * n).map(|i| ((i * 5) % 11) as f32 - 5.0).collect();
    let (a, b) = (dev.upload(&av)?, dev.upload(&bv)?);
    let mut c = dev.zeros::<f32>(n * n)?;

    matmul.launch(&dev, Grid::cover_2d(n, n), n, &a, &b, &mut c)?; // creates the pipeline
    dev.synchronize()?;
    let start = Instant::now();
    matmul.launch(&dev, Grid::cover_2d(n, n), n, &a, &b, &mut c)?;
    dev.synchronize()?;
    let elapsed = start.elapsed();
    let got = c.read()?;

    // Check a sample of entries exactly (small integers: every sum is exact in f32).
    for (r, col) in [
        (0, 0),
        (1, 383),
        (200, 100),
        (383, 0),
        (383, 383),
        (123, 256),
    ] {
        let expect: f32 = (0..n).map(|k| av[r * n + k] * bv[k * n + col]).sum();
        if got[r * n + col] != expect {
            eprintln!("c[{r}][{col}] = {}, expected {expect}", got[r * n + col]);
            std::process::exit(1);
        }
    }
    let gflops = 2.0 * (n as f64).powi(3) / elapsed.as_secs_f64() / 1e9;
    println!(
        "{n}×{n} product in {elapsed:?} ({gflops:.1} GFLOP/s, wall time); sampled entries correct"
    );
    Ok(())
}
