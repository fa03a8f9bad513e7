//! A small kernel library written once and used at several types and sizes: one generic
//! `reduce<T: Scalar, O: Op<T>, const B: usize>` (sum, maximum and minimum of `f32`, `i32` and
//! `u32`, in workgroups of 64 or 256) and one tiled `matmul<const TILE: usize>` (8×8 and
//! 16×16 tiles). Every instance is WGSL generated and validated by naga at build time; each
//! launch picks one through its arguments and turbofish. Every result is checked against the
//! host; a mismatch exits non-zero.
//!
//! Run it with `cargo run --example generic` (`SAREK_DEVICE=cpu` runs it on the CPU backend).

use sarek::prelude::*;

#[sarek::module]
mod lib {
    use sarek::prelude::*;

    /// An associative operator with its identity, for every scalar type.
    pub trait Op<T> {
        const IDENTITY: T;
        fn apply(a: T, b: T) -> T;
    }

    pub struct Sum;
    pub struct Max;
    pub struct Min;

    impl<T: Scalar> Op<T> for Sum {
        const IDENTITY: T = T::ZERO;
        fn apply(a: T, b: T) -> T {
            a + b
        }
    }

    impl<T: Scalar> Op<T> for Max {
        const IDENTITY: T = T::MIN;
        fn apply(a: T, b: T) -> T {
            if a > b {
                a
            } else {
                b
            }
        }
    }

    impl<T: Scalar> Op<T> for Min {
        const IDENTITY: T = T::MAX;
        fn apply(a: T, b: T) -> T {
            if a < b {
                a
            } else {
                b
            }
        }
    }

    /// Reduces each workgroup's `B` elements of `x` by `O` into `out[workgroup]`.
    #[sarek::kernel(workgroup_size = [B], instances(B = [64, 256]))]
    pub fn reduce<T: Scalar, O: Op<T>, const B: usize>(x: &[T], out: &mut [T]) {
        let tile = shared::<[T; B]>();
        let t = thread_idx_x();
        let i = global_thread_id();
        tile[t] = if i < x.len() { x[i] } else { O::IDENTITY };
        block_barrier();
        let mut stride = B / 2;
        while stride > 0 {
            if t < stride {
                tile[t] = O::apply(tile[t], tile[t + stride]);
            }
            block_barrier();
            stride /= 2;
        }
        if t == 0 {
            out[block_idx_x()] = tile[0];
        }
    }

    /// `c = a × b` for `n × n` matrices, staging `TILE × TILE` tiles in workgroup memory.
    #[sarek::kernel(workgroup_size = [TILE, TILE], instances(TILE = [8, 16]))]
    pub fn matmul<const TILE: usize>(n: u32, a: &[f32], b: &[f32], c: &mut [f32]) {
        let ta = shared::<[[f32; TILE]; TILE]>();
        let tb = shared::<[[f32; TILE]; TILE]>();
        let n = n as usize;
        let (tx, ty) = (thread_idx_x(), thread_idx_y());
        let (row, col) = (global_idx_y(), global_idx_x());
        let mut acc = 0.0f32;
        for t in 0..(n + TILE - 1) / TILE {
            let (ac, br) = (t * TILE + tx, t * TILE + ty);
            ta[ty][tx] = if row < n && ac < n {
                a[row * n + ac]
            } else {
                0.0
            };
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
}

use lib::{Max, Min, Op, Sum};

/// Reduces `x` on the device with the instance `<T, O, B>` until one value is left.
fn reduce_all<T, O, const B: usize>(dev: &Device, x: &[T]) -> sarek::Result<T>
where
    T: Scalar,
    lib::reduce: sarek::Instance<T, O, sarek::gpu::Const<B>>,
{
    let mut data = dev.upload(x)?;
    let mut n = x.len();
    while n > 1 {
        let groups = n.div_ceil(B);
        let mut out = dev.zeros::<T>(groups)?;
        lib::reduce.launch::<T, O, B>(dev, Grid::cover(n), &data, &mut out)?;
        data = out;
        n = groups;
    }
    Ok(data.read()?[0])
}

/// Exits non-zero when `got` differs from `want`.
fn check<T: PartialEq + std::fmt::Debug>(what: &str, got: T, want: T) {
    if got != want {
        eprintln!("{what}: got {got:?}, expected {want:?}");
        std::process::exit(1);
    }
    println!("{what}: {got:?}");
}

fn host<T: Scalar, O: Op<T>>(x: &[T]) -> T {
    x.iter().fold(O::IDENTITY, |a, b| O::apply(a, *b))
}

fn main() -> sarek::Result<()> {
    let dev = Device::new()?;
    println!("adapter: {} ({:?})", dev.name(), dev.backend());
    let n = 10_000;
    // Small integers, so that every f32 sum is exact whatever the order.
    let xi: Vec<i32> = (0..n).map(|i| (i * 7919 % 2001) - 1000).collect();
    let xu: Vec<u32> = xi.iter().map(|v| v.unsigned_abs()).collect();
    let xf: Vec<f32> = xi.iter().map(|v| *v as f32 * 0.5).collect();

    check(
        "sum i32 (B = 256)",
        reduce_all::<i32, Sum, 256>(&dev, &xi)?,
        host::<i32, Sum>(&xi),
    );
    check(
        "max i32 (B = 64)",
        reduce_all::<i32, Max, 64>(&dev, &xi)?,
        host::<i32, Max>(&xi),
    );
    check(
        "sum u32 (B = 64)",
        reduce_all::<u32, Sum, 64>(&dev, &xu)?,
        host::<u32, Sum>(&xu),
    );
    check(
        "min u32 (B = 256)",
        reduce_all::<u32, Min, 256>(&dev, &xu)?,
        host::<u32, Min>(&xu),
    );
    check(
        "sum f32 (B = 256)",
        reduce_all::<f32, Sum, 256>(&dev, &xf)?,
        host::<f32, Sum>(&xf),
    );
    check(
        "min f32 (B = 64)",
        reduce_all::<f32, Min, 64>(&dev, &xf)?,
        host::<f32, Min>(&xf),
    );

    for (n, tile) in [(50usize, 8usize), (100, 16), (129, 16)] {
        let av: Vec<f32> = (0..n * n).map(|i| ((i * 7) % 13) as f32 - 6.0).collect();
        let bv: Vec<f32> = (0..n * n).map(|i| ((i * 5) % 11) as f32 - 5.0).collect();
        let (a, b) = (dev.upload(&av)?, dev.upload(&bv)?);
        let mut c = dev.zeros::<f32>(n * n)?;
        let grid = Grid::cover_2d(n, n);
        if tile == 8 {
            lib::matmul.launch::<8>(&dev, grid, n as u32, &a, &b, &mut c)?;
        } else {
            lib::matmul.launch::<16>(&dev, grid, n as u32, &a, &b, &mut c)?;
        }
        let got = c.read()?;
        let want: Vec<f32> = (0..n * n)
            .map(|k| (0..n).map(|j| av[k / n * n + j] * bv[j * n + k % n]).sum())
            .collect();
        check(
            &format!("matmul {n}×{n} (TILE = {tile}) matches the host"),
            got == want,
            true,
        );
    }
    Ok(())
}
