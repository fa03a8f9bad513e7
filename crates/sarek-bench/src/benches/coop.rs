//! The f16 matrix product on cooperative matrices (wgpu feature
//! `EXPERIMENTAL_COOPERATIVE_MATRIX`, NVIDIA's tensor cores through Vulkan), with f32
//! accumulation, in TFLOP/s (the report's GFLOP/s / 1000): the library's call
//! (`sarek::algo::matmul::Matmul`, whose whole-block kernel grew from
//! `coop_q4::matmul_f16_q4p2`: 128×128 blocks of four subgroups) against the hand-written WGSL
//! twin `wgsl/matmul_f16_q4p2.wgsl` using the same extension (tiles staged in workgroup arrays
//! of `F16Vec4`, each step's words loaded two steps ahead). The library writes `C` in `f16`
//! through its `alpha`/`beta`/bias epilogue, the twin writes the `f32` accumulators. Checked
//! against an f32 host reference: the inputs are small multiples of 1/4 (exact in f16,
//! products exact in f32), so every partial sum is exact in f32 and the tolerance is 0 (the
//! library's result must equal the reference rounded once to `f16` at the sampled elements,
//! and the twin's rounded everywhere). Skipped, with a message, on a device without the
//! feature or without the 16×16×16 f16·f16+f32 shape.

use sarek::algo::matmul::Matmul;
use sarek::{f16, Buffer};

use super::{Bench, Result};
use crate::measure::{first_launch, Measured, Work};
use crate::raw::{read, storage};

/// The inputs, row-major m×m: multiples of 1/4 from -1.5 to 1.5, exact in f16.
pub(super) fn inputs(m: usize) -> (Vec<f16>, Vec<f16>) {
    let a = (0..m * m)
        .map(|i| f16::from_f32(((i * 7) % 13) as f32 * 0.25 - 1.5))
        .collect();
    let b = (0..m * m)
        .map(|i| f16::from_f32(((i * 5) % 11) as f32 * 0.25 - 1.25))
        .collect();
    (a, b)
}

/// Element `(r, col)` of the f32 host product of the m×m matrices `a` and `b`, summed along
/// `k` in order: what every f16 product is checked against (exact for [`inputs`]).
pub(super) fn host_at(m: usize, a: &[f16], b: &[f16], r: usize, col: usize) -> f32 {
    (0..m)
        .map(|k| a[r * m + k].to_f32() * b[k * m + col].to_f32())
        .sum()
}

/// Asserts that `got` equals the f32 host product everywhere (the CPU backend's tests of
/// the f16 kernels); `what` starts each failure's message.
#[cfg(test)]
pub(super) fn assert_host_product(m: usize, a: &[f16], b: &[f16], got: &[f32], what: &str) {
    for r in 0..m {
        for col in 0..m {
            assert_eq!(
                got[r * m + col],
                host_at(m, a, b, r, col),
                "{what}c[{r}][{col}]"
            );
        }
    }
}

/// The 16×16×16 f16·f16+f32 shape, or `None` (with a message) on a device without it.
pub(super) fn has_shape(dev: &sarek::Device, what: &str) -> bool {
    let shape = sarek::abi::CoopShape {
        size: 16,
        ab: Some(sarek::abi::CoopScalar::F16),
        c: Some(sarek::abi::CoopScalar::F32),
    };
    let has = dev.cooperative_matrix_shapes().contains(&shape);
    if !has {
        eprintln!(
            "{what}: skipped, {} has no cooperative matrices of {shape}",
            dev.name()
        );
    }
    has
}

/// Whether the library's `f16` product `got` equals the twin's `f32` one `raw` rounded to
/// `f16` everywhere, and the f32 host reference rounded at sampled elements.
fn verify_rounded(m: usize, a: &[f16], b: &[f16], got: &[f16], raw: &[f32]) -> bool {
    let sample = [
        (0, 0),
        (1, m - 1),
        (m / 2, m / 3),
        (m - 1, 0),
        (m - 1, m - 1),
        (m / 3, m / 2),
    ];
    got.iter().zip(raw).all(|(&g, &r)| g == f16::from_f32(r))
        && sample
            .iter()
            .all(|&(r, col)| got[r * m + col] == f16::from_f32(host_at(m, a, b, r, col)))
}

/// The f16 product at 4096² (1024² and 2048² too), f32 accumulation: the library's
/// `Matmul::run` against `wgsl/matmul_f16_q4p2.wgsl`.
pub fn matmul_f16(b: &Bench) -> Result<Vec<Measured>> {
    let ctx = b.ctx;
    let dev = &ctx.dev;
    if !has_shape(dev, "matmul_f16") {
        return Ok(Vec::new());
    }
    let sizes: &[usize] = if b.quick { &[256] } else { &[1024, 2048, 4096] };
    let mut rows = Vec::new();
    for &m in sizes {
        let (av, bv) = inputs(m);
        let a = dev.upload(&av)?;
        let bm = dev.upload(&bv)?;
        let mut c = dev.zeros::<f16>(m * m)?;
        let product = Matmul::new(m, m, m);
        let launch = |c: &mut Buffer<f16>| product.run(&a, &bm, c).expect("launch");
        let first = first_launch(|| launch(&mut c));
        let got = c.read()?;
        // One workgroup a 128×128 block of `c` on the twin's side.
        let g = [(m / 128) as u32, (m / 128) as u32, 1];
        let ra = storage(ctx, bytemuck::cast_slice(&av));
        let rbm = storage(ctx, bytemuck::cast_slice(&bv));
        let rc = storage(ctx, &vec![0u8; m * m * 4]);
        let params = ctx.uniform(bytemuck::cast_slice(&[m as u32]));
        let p = ctx.pipeline(include_str!("../wgsl/matmul_f16_q4p2.wgsl"));
        let bg = ctx.bind(&p, &[&ra, &rbm, &rc, &params]);
        ctx.time_passes(&[(&p, &bg, g)]);
        let raw: Vec<f32> = read(ctx, &rc);
        let verified = verify_rounded(m, &av, &bv, &got, &raw);
        let (sarek, wgsl) = b
            .timer
            .compare_one(|| vec![launch(&mut c)], &[(&p, &bg, g)]);
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
