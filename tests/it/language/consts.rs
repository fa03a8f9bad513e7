//! Constant expressions wherever a constant is needed: `const` items built from other
//! constants (module and kernel level, in any order), padded workgroup tiles
//! (`[[f32; BLOCK_SIZE + 1]; BLOCK_SIZE + 1]`), a workgroup size naming module constants,
//! array lengths in struct fields and locals, and unrolled loop bounds. Each result is checked
//! against the same computation on the host.

use crate::common;
use crate::common::backends;
use sarek::Device;

use sarek::Grid;

#[sarek::module]
mod tiles {
    use sarek::prelude::*;

    // `PADDED` is declared before the constant it is built from.
    const PADDED: usize = BLOCK_SIZE + 1;
    pub const BLOCK_SIZE: usize = 8;
    const HALF: usize = BLOCK_SIZE / 2;
    const LANES: usize = if HALF > 2 { 3 } else { 1 };
    const SCALE: f32 = (BLOCK_SIZE as f32) * 0.25 - 0.5;
    const SHIFTED: u32 = (1u32 << 4) | 3;
    // `i32::MAX / i32::MAX` is deliberate: the kernel's constant folding must divide two
    // equal operands near the type's limit (no overflow, result 1) as the host does.
    #[allow(clippy::eq_op)]
    const SIGNED: i32 = -(PADDED as i32) * 2 + i32::MAX / i32::MAX;
    const WIDE: bool = BLOCK_SIZE * BLOCK_SIZE >= 64 && !(HALF == 0);

    #[derive(Debug, PartialEq)]
    pub struct Lanes {
        pub v: [u32; LANES * 2],
    }

    /// Transposes an `n`×`n` matrix through a workgroup tile padded by one column (the CUDA
    /// sample's bank-conflict trick), with the workgroup size written as constants.
    #[sarek::kernel(workgroup_size = [BLOCK_SIZE, BLOCK_SIZE])]
    pub fn transpose(n: usize, a: &[f32], out: &mut [f32]) {
        let tile = shared::<[[f32; BLOCK_SIZE + 1]; PADDED]>();
        let (tx, ty) = (thread_idx_x(), thread_idx_y());
        let (bx, by) = (block_idx_x(), block_idx_y());
        let (x, y) = (bx * BLOCK_SIZE + tx, by * BLOCK_SIZE + ty);
        if x < n && y < n {
            tile[ty][tx] = a[y * n + x] * SCALE;
        }
        block_barrier();
        let (ox, oy) = (by * BLOCK_SIZE + tx, bx * BLOCK_SIZE + ty);
        if ox < n && oy < n {
            out[oy * n + ox] = tile[tx][ty];
        }
    }

    /// Constants of every type, a kernel-level constant built from module ones, and an
    /// unrolled loop whose bound is an expression. (`min`/`max` are not `const fn`s for
    /// rustc, which checks the constants too, so they serve in the attribute only.)
    #[sarek::kernel(workgroup_size = [HALF.min(8) * 16])]
    pub fn mix(xs: &[u32], out: &mut [Lanes], flags: &mut [i32]) {
        const STEPS: usize = LANES * 2;
        let i = global_thread_id();
        if i < xs.len() {
            let mut acc = [0u32; STEPS];
            for k in 0..STEPS / 2 * 2 {
                acc[k] = xs[i] * (k as u32 + 1) + SHIFTED;
            }
            out[i] = Lanes { v: acc };
            flags[i] = if WIDE { SIGNED } else { 0 };
        }
    }
}

#[backends]
fn padded_tile_and_constant_workgroup_size(dev: Device) {
    let n = 21; // not a multiple of the block
    let av: Vec<f32> = (0..n * n).map(|v| v as f32).collect();
    let a = dev.upload(&av).unwrap();
    let mut out = dev.zeros::<f32>(n * n).unwrap();
    tiles::transpose
        .launch(&dev, Grid::cover_2d(n, n), n, &a, &mut out)
        .unwrap();
    let got = out.read().unwrap();
    for r in 0..n {
        for c in 0..n {
            assert_eq!(got[c * n + r], av[r * n + c] * 1.5, "[{r}][{c}]");
        }
    }
    assert_eq!(tiles::transpose::ABI.workgroup_size, [8, 8, 1]);
    assert!(tiles::transpose::WGSL.contains("array<array<f32, 9>, 9>"));
    // The module's constants are ordinary Rust constants on the host as well.
    assert_eq!(tiles::BLOCK_SIZE, 8);
}

#[backends]
fn constants_of_every_type_in_lengths_bounds_and_values(dev: Device) {
    let n = 100;
    let xs: Vec<u32> = common::random_u32(4, n).iter().map(|v| v % 1000).collect();
    let x = dev.upload(&xs).unwrap();
    let mut out = dev.zeros::<tiles::Lanes>(n).unwrap();
    let mut flags = dev.zeros::<i32>(n).unwrap();
    tiles::mix
        .launch(&dev, Grid::cover(n), &x, &mut out, &mut flags)
        .unwrap();
    let got = out.read().unwrap();
    for (i, lanes) in got.iter().enumerate() {
        let expect: Vec<u32> = (0..6).map(|k| xs[i] * (k + 1) + 19).collect();
        assert_eq!(lanes.v.to_vec(), expect, "element {i}");
    }
    assert!(flags.read().unwrap().iter().all(|&f| f == -17));
    assert_eq!(tiles::mix::ABI.workgroup_size, [64, 1, 1]);
}

/// A kernel outside any module: its own constants, built from one another, one of them
/// naming its workgroup size.
#[sarek::kernel(workgroup_size = [GROUP / 2])]
fn stencil(xs: &[f32], out: &mut [f32]) {
    const GROUP: usize = 128;
    const RADIUS: usize = 2;
    const WIDTH: usize = 2 * RADIUS + 1;
    const WEIGHT: f32 = 1.0 / WIDTH as f32;
    let i = global_thread_id();
    if i < out.len() {
        let mut window = [0.0f32; WIDTH];
        for k in 0..WIDTH {
            window[k] = xs[i + k];
        }
        let mut s = 0.0;
        for k in 0..RADIUS * 2 + 1 {
            s += window[k];
        }
        out[i] = s * WEIGHT;
    }
}

#[backends]
fn kernel_constants_built_from_each_other(dev: Device) {
    let n = 300;
    let xs: Vec<f32> = (0..n + 4).map(|v| (v % 10) as f32).collect();
    let x = dev.upload(&xs).unwrap();
    let mut out = dev.zeros::<f32>(n).unwrap();
    stencil.launch(&dev, Grid::cover(n), &x, &mut out).unwrap();
    let got = out.read().unwrap();
    for i in 0..n {
        let s: f32 = xs[i..i + 5].iter().sum();
        assert!(
            (got[i] - s * 0.2).abs() < 1e-5,
            "{i}: {} vs {}",
            got[i],
            s * 0.2
        );
    }
    assert_eq!(stencil::ABI.workgroup_size, [64, 1, 1]);
}
