//! Generic kernels: type parameters bounded by `Scalar`/`Float`/`Integer`, const
//! generics with listed values, and module traits with static dispatch. Every instance is
//! built at compile time; `launch` selects one from the arguments or the turbofish. Each test
//! runs on the device `common::device()` gives (lavapipe here, the CPU backend with
//! `SAREK_DEVICE=cpu`) and checks against the host.

use crate::common::backends;
use sarek::Device;

use sarek::gpu::Scalar;
use sarek::Grid;

/// `y = a * x`, for every scalar type.
#[sarek::kernel(workgroup_size = [64])]
pub(crate) fn scale<T: Scalar>(a: T, x: &[T], y: &mut [T]) {
    let i = global_thread_id();
    if i < y.len() {
        y[i] = a * x[i];
    }
}

#[backends]
fn a_type_parameter_is_inferred_from_the_arguments(dev: Device) {
    let n = 100;
    let xf: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
    let xi: Vec<i32> = (0..n).map(|i| i as i32 - 50).collect();
    let xu: Vec<u32> = (0..n).map(|i| i as u32 * 3).collect();
    let (bf, bi, bu) = (
        dev.upload(&xf).unwrap(),
        dev.upload(&xi).unwrap(),
        dev.upload(&xu).unwrap(),
    );
    let mut yf = dev.zeros::<f32>(n).unwrap();
    let mut yi = dev.zeros::<i32>(n).unwrap();
    let mut yu = dev.zeros::<u32>(n).unwrap();
    scale
        .launch(&dev, Grid::cover(n), 2.0f32, &bf, &mut yf)
        .unwrap();
    scale
        .launch(&dev, Grid::cover(n), -3i32, &bi, &mut yi)
        .unwrap();
    scale
        .launch(&dev, Grid::cover(n), 7u32, &bu, &mut yu)
        .unwrap();
    assert_eq!(
        yf.read().unwrap(),
        xf.iter().map(|x| 2.0 * x).collect::<Vec<_>>()
    );
    assert_eq!(
        yi.read().unwrap(),
        xi.iter().map(|x| -3 * x).collect::<Vec<_>>()
    );
    assert_eq!(
        yu.read().unwrap(),
        xu.iter().map(|x| 7 * x).collect::<Vec<_>>()
    );
    // Three instances, each with its own WGSL.
    assert_eq!(scale::INSTANCES, ["T = f32", "T = i32", "T = u32"]);
    assert!(scale.wgsl::<i32>().contains("i32"));
    assert_ne!(scale.wgsl::<f32>(), scale.wgsl::<u32>());
}

/// One workgroup's sum (a tree in workgroup memory) and maximum (a loop to `B`), with the
/// workgroup size, the workgroup array's length and the loop bounds all `B`.
#[sarek::kernel(workgroup_size = [B], instances(B = [64, 256]))]
fn block_sum<const B: usize>(x: &[f32], sums: &mut [f32], maxima: &mut [f32]) {
    let tile = shared::<[f32; B]>();
    let t = thread_idx_x();
    let i = global_thread_id();
    tile[t] = if i < x.len() { x[i] } else { 0.0 };
    block_barrier();
    if t == 0 {
        let mut m = tile[0];
        for k in 1..B {
            m = m.max(tile[k]);
        }
        maxima[block_idx_x()] = m;
    }
    block_barrier();
    let mut stride = B / 2;
    while stride > 0 {
        if t < stride {
            tile[t] += tile[t + stride];
        }
        block_barrier();
        stride /= 2;
    }
    if t == 0 {
        sums[block_idx_x()] = tile[0];
    }
}

fn block_sums(x: &[f32], b: usize) -> (Vec<f32>, Vec<f32>) {
    x.chunks(b)
        .map(|c| {
            let m = c.iter().copied().fold(0.0f32, f32::max);
            let m = if c.len() < b { m.max(0.0) } else { m };
            (c.iter().sum::<f32>(), m)
        })
        .unzip()
}

#[backends]
fn a_const_parameter_is_chosen_by_the_turbofish(dev: Device) {
    let n = 1000usize;
    let x: Vec<f32> = (0..n).map(|i| ((i * 7) % 13) as f32).collect();
    let bx = dev.upload(&x).unwrap();
    for b in [64usize, 256] {
        let groups = n.div_ceil(b);
        let mut sums = dev.zeros::<f32>(groups).unwrap();
        let mut maxima = dev.zeros::<f32>(groups).unwrap();
        if b == 64 {
            block_sum
                .launch::<64>(&dev, Grid::cover(n), &bx, &mut sums, &mut maxima)
                .unwrap();
        } else {
            block_sum
                .launch::<256>(&dev, Grid::cover(n), &bx, &mut sums, &mut maxima)
                .unwrap();
        }
        let (want_sums, want_max) = block_sums(&x, b);
        assert_eq!(sums.read().unwrap(), want_sums, "B = {b}");
        assert_eq!(maxima.read().unwrap(), want_max, "B = {b}");
    }
    assert_eq!(block_sum.abi::<64>().workgroup_size, [64, 1, 1]);
    assert_eq!(block_sum.abi::<256>().workgroup_size, [256, 1, 1]);
}

/// A tiled transpose over any scalar and tile size: `T` and `TILE` together.
#[sarek::kernel(workgroup_size = [TILE, TILE], instances(TILE = [4, 8]))]
fn transpose<T: Scalar, const TILE: usize>(n: u32, x: &[T], y: &mut [T]) {
    let tile = shared::<[[T; TILE]; TILE]>();
    let (tx, ty) = (thread_idx_x(), thread_idx_y());
    let n = n as usize;
    let (gx, gy) = (block_idx_x() * TILE + tx, block_idx_y() * TILE + ty);
    if gx < n && gy < n {
        tile[ty][tx] = x[gy * n + gx];
    }
    block_barrier();
    let (ox, oy) = (block_idx_y() * TILE + tx, block_idx_x() * TILE + ty);
    if ox < n && oy < n {
        y[oy * n + ox] = tile[tx][ty];
    }
}

#[backends]
fn types_and_values_mix_in_one_turbofish(dev: Device) {
    let n = 13usize;
    let xf: Vec<f32> = (0..n * n).map(|i| i as f32).collect();
    let xu: Vec<u32> = (0..n * n).map(|i| i as u32 * 3).collect();
    let want = |x: &[u32]| -> Vec<u32> { (0..n * n).map(|k| x[(k % n) * n + k / n]).collect() };
    let bf = dev.upload(&xf).unwrap();
    let mut yf = dev.zeros::<f32>(n * n).unwrap();
    transpose
        .launch::<f32, 8>(&dev, Grid::cover_2d(n, n), n as u32, &bf, &mut yf)
        .unwrap();
    let got: Vec<u32> = yf.read().unwrap().iter().map(|v| *v as u32).collect();
    assert_eq!(got, want(&(0..(n * n) as u32).collect::<Vec<_>>()));
    // `_`: the type comes from the buffers.
    let bu = dev.upload(&xu).unwrap();
    let mut yu = dev.zeros::<u32>(n * n).unwrap();
    transpose
        .launch::<_, 4>(&dev, Grid::cover_2d(n, n), n as u32, &bu, &mut yu)
        .unwrap();
    assert_eq!(yu.read().unwrap(), want(&xu));
    assert_eq!(transpose::INSTANCES.len(), 6);
}

#[backends]
fn enqueue_and_record_are_generic_too(dev: Device) {
    let x: Vec<i32> = (0..300).map(|i| i - 150).collect();
    let bx = dev.upload(&x).unwrap();
    let mut y = dev.zeros::<i32>(300).unwrap();
    let mut sums = dev.zeros::<f32>(5).unwrap();
    let mut maxima = dev.zeros::<f32>(5).unwrap();
    let ones = dev.upload(&[1.0f32; 300]).unwrap();
    let mut batch = dev.batch();
    scale
        .enqueue(&mut batch, Grid::cover(300), 2, &bx, &mut y)
        .unwrap();
    block_sum
        .enqueue::<64>(&mut batch, Grid::cover(300), &ones, &mut sums, &mut maxima)
        .unwrap();
    batch.submit().unwrap().wait().unwrap();
    assert_eq!(
        y.read().unwrap(),
        x.iter().map(|v| v * 2).collect::<Vec<_>>()
    );
    assert_eq!(sums.read().unwrap(), [64.0, 64.0, 64.0, 64.0, 44.0]);
    if dev.is_cpu() {
        return; // wgpu encoders need a GPU device
    }
    let mut encoder = dev
        .wgpu_device()
        .create_command_encoder(&Default::default());
    scale
        .record(&dev, &mut encoder, Grid::cover(300), -1, &bx, &mut y)
        .unwrap();
    dev.wgpu_queue().submit([encoder.finish()]);
    assert_eq!(y.read().unwrap(), x.iter().map(|v| -v).collect::<Vec<_>>());
}

#[sarek::module]
pub(crate) mod ops {
    use sarek::prelude::*;

    /// A binary operator with its identity, for `f32`.
    pub trait Op {
        const IDENTITY: f32;
        fn apply(a: f32, b: f32) -> f32;
        /// A default method: the impls that do not override it get it.
        fn twice(a: f32) -> f32 {
            Self::apply(a, a)
        }
    }

    pub struct Add;
    pub struct Max;

    impl Op for Add {
        const IDENTITY: f32 = 0.0;
        fn apply(a: f32, b: f32) -> f32 {
            a + b
        }
    }

    impl Op for Max {
        const IDENTITY: f32 = f32::NEG_INFINITY;
        fn apply(a: f32, b: f32) -> f32 {
            a.max(b)
        }
    }

    /// `out = op(op(op(identity, x), y), twice(y))`: static dispatch through `O`.
    #[sarek::kernel(workgroup_size = [64])]
    pub fn combine<O: Op>(x: &[f32], y: &[f32], out: &mut [f32]) {
        let i = global_thread_id();
        if i < out.len() {
            out[i] = O::apply(O::apply(O::apply(O::IDENTITY, x[i]), y[i]), O::twice(y[i]));
        }
    }

    /// An operator over every scalar type: one generic impl per operator.
    pub trait Reducer<T> {
        const IDENTITY: T;
        fn apply(a: T, b: T) -> T;
    }

    pub struct Sum;
    pub struct Largest;

    impl<T: Scalar> Reducer<T> for Sum {
        const IDENTITY: T = T::ZERO;
        fn apply(a: T, b: T) -> T {
            a + b
        }
    }

    impl<T: Scalar> Reducer<T> for Largest {
        const IDENTITY: T = T::MIN;
        fn apply(a: T, b: T) -> T {
            if a > b {
                a
            } else {
                b
            }
        }
    }

    /// A generic helper: one instance per type it is called with.
    pub fn add<T: Scalar>(a: T, b: T) -> T {
        a + b
    }

    /// A generic helper over a buffer: `T` comes from the buffer passed.
    pub fn scaled<T: Scalar>(k: T, x: &[T], i: usize) -> T {
        k * x[i]
    }

    /// Generic helpers called from a generic kernel (at its `T`) and at fixed types.
    #[sarek::kernel(workgroup_size = [64])]
    pub fn add_twice<T: Scalar>(x: &[T], y: &mut [T], counts: &mut [u32]) {
        let i = global_thread_id();
        if i < y.len() {
            y[i] = add(add(x[i], scaled(T::ONE, x, i)), y[i]);
            counts[i] = add::<u32>(counts[i], 1) + add(2u32, 0);
            let half = add(0.25f32, 0.25);
            if half != 0.5 {
                counts[i] = 0;
            }
        }
    }

    /// One workgroup's reduction by `O` over `T`, `B` wide.
    #[sarek::kernel(workgroup_size = [B], instances(B = [64, 128]))]
    pub fn reduce<T: Scalar, O: Reducer<T>, const B: usize>(x: &[T], out: &mut [T]) {
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
}

#[backends]
fn a_module_trait_dispatches_statically(dev: Device) {
    use ops::{Add, Max, Op};
    let n = 200;
    let x: Vec<f32> = (0..n).map(|i| (i as f32 * 0.37).sin()).collect();
    let y: Vec<f32> = (0..n).map(|i| (i as f32 * 0.11).cos()).collect();
    let (bx, by) = (dev.upload(&x).unwrap(), dev.upload(&y).unwrap());
    let mut out = dev.zeros::<f32>(n).unwrap();
    ops::combine
        .launch::<Add>(&dev, Grid::cover(n), &bx, &by, &mut out)
        .unwrap();
    let want: Vec<f32> = (0..n)
        .map(|i| {
            Add::apply(
                Add::apply(Add::apply(Add::IDENTITY, x[i]), y[i]),
                Add::twice(y[i]),
            )
        })
        .collect();
    assert_eq!(out.read().unwrap(), want);
    ops::combine
        .launch::<Max>(&dev, Grid::cover(n), &bx, &by, &mut out)
        .unwrap();
    let want: Vec<f32> = (0..n)
        .map(|i| {
            Max::apply(
                Max::apply(Max::apply(Max::IDENTITY, x[i]), y[i]),
                Max::twice(y[i]),
            )
        })
        .collect();
    assert_eq!(out.read().unwrap(), want);
}

#[backends]
fn a_generic_trait_ranges_over_its_impls_for_each_type(dev: Device) {
    use ops::{Largest, Sum};
    let n = 500;
    let xi: Vec<i32> = (0..n).map(|i| (i as i32 * 37) % 101 - 50).collect();
    let xf: Vec<f32> = xi.iter().map(|v| *v as f32 * 0.5).collect();
    let (bi, bf) = (dev.upload(&xi).unwrap(), dev.upload(&xf).unwrap());
    let mut oi = dev.zeros::<i32>(8).unwrap();
    let mut of = dev.zeros::<f32>(8).unwrap();
    ops::reduce
        .launch::<_, Sum, 64>(&dev, Grid::cover(n), &bi, &mut oi)
        .unwrap();
    let want: Vec<i32> = xi.chunks(64).map(|c| c.iter().sum()).collect();
    assert_eq!(oi.read().unwrap(), want);
    ops::reduce
        .launch::<_, Largest, 128>(&dev, Grid::cover(n), &bf, &mut of)
        .unwrap();
    let want: Vec<f32> = xf
        .chunks(128)
        .map(|c| c.iter().copied().fold(f32::MIN, f32::max))
        .collect();
    assert_eq!(of.read().unwrap()[..4], want[..]);
    assert_eq!(ops::reduce::INSTANCES.len(), 12);
}

#[backends]
fn generic_helpers_are_instantiated_per_call(dev: Device) {
    let n = 100;
    let xi: Vec<i32> = (0..n).map(|i| i as i32 - 40).collect();
    let xf: Vec<f32> = (0..n).map(|i| i as f32 * 0.25).collect();
    let (bi, bf) = (dev.upload(&xi).unwrap(), dev.upload(&xf).unwrap());
    let mut yi = dev.upload(&vec![5i32; n]).unwrap();
    let mut yf = dev.upload(&vec![0.5f32; n]).unwrap();
    let mut counts = dev.zeros::<u32>(n).unwrap();
    ops::add_twice
        .launch(&dev, Grid::cover(n), &bi, &mut yi, &mut counts)
        .unwrap();
    ops::add_twice
        .launch(&dev, Grid::cover(n), &bf, &mut yf, &mut counts)
        .unwrap();
    assert_eq!(
        yi.read().unwrap(),
        xi.iter().map(|x| 2 * x + 5).collect::<Vec<_>>()
    );
    assert_eq!(
        yf.read().unwrap(),
        xf.iter().map(|x| 2.0 * x + 0.5).collect::<Vec<_>>()
    );
    assert_eq!(counts.read().unwrap(), vec![6u32; n]);
    // The helpers are plain Rust on the host too.
    assert_eq!(ops::add(2u32, 3), 5);
}
