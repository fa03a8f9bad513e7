//! The matrix products, in GFLOP/s at several sizes: the library's `f32` product
//! (`sarek::algo::matmul::Matmul`, register-blocked 128×128 tiles on a GPU) against the twin of
//! the register-blocked kernel it grew from, and plain 16×16 tiles.

use sarek::algo::matmul::Matmul;
use sarek::{Buffer, Grid};

use super::{Bench, Result};
use crate::kernels;
use crate::measure::{first_launch, Measured, Work};
use crate::raw::{read, storage};

/// The sizes of the square matrices.
fn sizes(quick: bool) -> &'static [usize] {
    if quick {
        &[40]
    } else {
        &[1024, 2048, 4096]
    }
}

/// The inputs `a` and `b`, row-major m×m: small integers, so that products and sums are
/// exact in f32 whatever the order of the additions.
fn inputs(m: usize) -> (Vec<f32>, Vec<f32>) {
    let a = (0..m * m).map(|i| ((i * 7) % 13) as f32 - 6.0).collect();
    let b = (0..m * m).map(|i| ((i * 5) % 11) as f32 - 5.0).collect();
    (a, b)
}

/// Whether Sarek's product `got` equals the twin's `raw`, and both are right at a few
/// elements (corners and one inside) computed on the host.
fn verify(m: usize, a: &[f32], b: &[f32], got: &[f32], raw: &[f32]) -> bool {
    let sample = [
        (0, 0),
        (1, m - 1),
        (m / 2, m / 3),
        (m - 1, 0),
        (m - 1, m - 1),
    ];
    got == raw
        && sample.iter().all(|&(r, col)| {
            got[r * m + col] == (0..m).map(|k| a[r * m + k] * b[k * m + col]).sum::<f32>()
        })
}

/// 2m³ floating-point operations per product.
fn work(m: usize) -> Work {
    Work::Flops(2.0 * (m as f64).powi(3))
}

/// The library's product (`Matmul::run`: on a GPU a 16×16 workgroup per 128×128 tile of `c`)
/// against `wgsl/matmul_rb.wgsl` (bindings a, b, c, a uniform with n) at each size.
pub fn register_blocked(b: &Bench) -> Result<Vec<Measured>> {
    let ctx = b.ctx;
    let dev = &ctx.dev;
    let mut rows = Vec::new();
    for &m in sizes(b.quick) {
        let (av, bv) = inputs(m);
        let (a, bm) = (dev.upload(&av)?, dev.upload(&bv)?);
        let mut c = dev.zeros::<f32>(m * m)?;
        let product = Matmul::new(m, m, m);
        let launch = |c: &mut Buffer<f32>| product.run(&a, &bm, c).expect("launch");
        let first = first_launch(|| launch(&mut c));
        let got = c.read()?;
        let tiles = m.div_ceil(128) as u32;
        let ra = storage(ctx, bytemuck::cast_slice(&av));
        let rbm = storage(ctx, bytemuck::cast_slice(&bv));
        let rc = storage(ctx, &vec![0u8; m * m * 4]);
        let params = ctx.uniform(bytemuck::cast_slice(&[m as u32, 0, 0, 0]));
        let p = ctx.pipeline(include_str!("../wgsl/matmul_rb.wgsl"));
        let bg = ctx.bind(&p, &[&ra, &rbm, &rc, &params]);
        ctx.time_passes(&[(&p, &bg, [tiles, tiles, 1])]);
        let raw: Vec<f32> = read(ctx, &rc);
        let verified = verify(m, &av, &bv, &got, &raw);
        let (sarek, wgsl) = b
            .timer
            .compare_one(|| vec![launch(&mut c)], &[(&p, &bg, [tiles, tiles, 1])]);
        rows.push(Measured {
            size: format!("{m}²"),
            work: work(m),
            sarek,
            wgsl,
            wgsl_vec4: None,
            verified,
            first_launch: first,
        });
    }
    Ok(rows)
}

/// The plain tiled product: a 16×16 workgroup per 16×16 tile of `c`.
pub fn tiled_16x16(b: &Bench) -> Result<Vec<Measured>> {
    let ctx = b.ctx;
    let dev = &ctx.dev;
    let mut rows = Vec::new();
    for &m in sizes(b.quick) {
        let (av, bv) = inputs(m);
        let (a, bm) = (dev.upload(&av)?, dev.upload(&bv)?);
        let mut c = dev.zeros::<f32>(m * m)?;
        let launch = |c: &mut Buffer<f32>| {
            kernels::matmul
                .launch(dev, Grid::cover_2d(m, m), m, &a, &bm, c)
                .expect("launch")
        };
        let first = first_launch(|| launch(&mut c));
        let got = c.read()?;
        let ra = storage(ctx, bytemuck::cast_slice(&av));
        let rbm = storage(ctx, bytemuck::cast_slice(&bv));
        let rc = storage(ctx, &vec![0u8; m * m * 4]);
        let params = ctx.uniform(bytemuck::cast_slice(&[m as u32]));
        let p = ctx.pipeline(include_str!("../wgsl/matmul.wgsl"));
        let bg = ctx.bind(&p, &[&ra, &rbm, &rc, &params]);
        let g = m.div_ceil(16) as u32;
        ctx.time_passes(&[(&p, &bg, [g, g, 1])]);
        let raw: Vec<f32> = read(ctx, &rc);
        let verified = verify(m, &av, &bv, &got, &raw);
        let (sarek, wgsl) = b
            .timer
            .compare_one(|| vec![launch(&mut c)], &[(&p, &bg, [g, g, 1])]);
        rows.push(Measured {
            size: format!("{m}²"),
            work: work(m),
            sarek,
            wgsl,
            wgsl_vec4: None,
            verified,
            first_launch: first,
        });
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sarek::Vec4;

    /// The register-blocked kernels equal the host product everywhere at a size that is no
    /// multiple of the 128×128 tile nor of the two slices a trip of `matmul_rb` stages, so
    /// every guard and both workgroup buffers are used: on the CPU backend and on the
    /// default device (lavapipe here).
    #[test]
    fn the_register_blocked_products_match_the_host() {
        let m = 140;
        let (av, bv) = inputs(m);
        let want: Vec<f32> = (0..m * m)
            .map(|i| (0..m).map(|k| av[i / m * m + k] * bv[k * m + i % m]).sum())
            .collect();
        for dev in [sarek::Device::cpu(), sarek::Device::new().unwrap()] {
            let a = dev.upload(&av).unwrap();
            let bm = dev.upload(bytemuck::cast_slice::<f32, Vec4>(&bv)).unwrap();
            let tiles = m.div_ceil(128) as u32;
            let grid = Grid::groups([tiles, tiles, 1]);
            for which in ["matmul_rb", "matmul_rb_single", "matmul_rb_one"] {
                let mut c = dev.zeros::<Vec4>(m * m / 4).unwrap();
                let launch = match which {
                    "matmul_rb" => kernels::matmul_rb.launch(&dev, grid, m, &a, &bm, &mut c),
                    "matmul_rb_single" => {
                        kernels::matmul_rb_single.launch(&dev, grid, m, &a, &bm, &mut c)
                    }
                    _ => kernels::matmul_rb_one.launch(&dev, grid, m, &a, &bm, &mut c),
                };
                launch.unwrap().wait().unwrap();
                let got: Vec<f32> = bytemuck::cast_slice(&c.read().unwrap()).to_vec();
                assert!(got == want, "{which}, device {:?}", dev.name());
            }
        }
    }
}
