//! The vectorised entry point of element-wise kernels over 4-byte scalars: used when every
//! buffer covers the grid (16-byte loads and stores), the coarsened scalar entry otherwise;
//! both compute what the plain kernel does, bit for bit, on the GPU and the CPU backend.

use crate::common::backends;

use sarek::prelude::*;

/// The user's polynomial, one load stream.
#[sarek::kernel]
fn poly(a: f32, b: f32, c: f32, x: &[f32], y: &mut [f32]) {
    let i = global_thread_id();
    if i < y.len() {
        y[i] = (a * x[i] + b) * x[i] + c;
    }
}

/// Stores only some lanes (a store under a data-dependent condition, and a second buffer
/// written twice): the lanes a copy does not store keep their values.
#[sarek::kernel]
fn some_lanes(x: &[f32], y: &mut [f32], tag: &mut [u32]) {
    let i = global_thread_id();
    if i < x.len() {
        if x[i] > 0.0 {
            y[i] = x[i] * 2.0;
            tag[i] = 1;
        }
        if i % 3 == 0 {
            tag[i] = i as u32;
        }
    }
}

/// `y[i] += x[i]` reads the element it writes: coarsened, not vectorised.
#[sarek::kernel]
fn accumulate(x: &[f32], y: &mut [f32]) {
    let i = global_thread_id();
    if i < y.len() {
        y[i] += x[i];
    }
}

#[test]
// The kernel's ABI and WGSL are constants: asserting them is this test.
#[allow(clippy::assertions_on_constants)]
fn element_wise_kernels_over_scalars_get_a_vec4_entry() {
    assert!(poly::ABI.vectorised && poly::ABI.coarsened);
    assert!(poly::WGSL.contains("fn sarek_main_vec4("));
    assert!(poly::WGSL.contains("array<vec4<f32>>"));
    assert!(some_lanes::ABI.vectorised);
    assert!(accumulate::ABI.coarsened);
    assert!(!accumulate::ABI.vectorised);
    assert!(!accumulate::WGSL.contains("sarek_main_vec4"));
}

/// Over 8192 workgroups of 256: the coarsening threshold.
const N: usize = 8192 * 256;

fn xs(n: usize) -> Vec<f32> {
    (0..n).map(|i| (i % 999) as f32 - 500.0).collect()
}

#[backends]
// The loop indexes several arrays in step, which reads plainer than zipped iterators.
#[allow(clippy::needless_range_loop)]
fn the_vec4_entry_computes_what_the_scalar_kernel_does(dev: Device) {
    let host = xs(N);
    let x = dev.upload(&host).unwrap();
    let expect = |v: f32| (0.5 * v + -2.0) * v + 3.0;
    // Buffers covering the grid exactly: the vec4 entry.
    let mut y = dev.zeros::<f32>(N).unwrap();
    poly.launch(&dev, Grid::cover(N), 0.5, -2.0, 3.0, &x, &mut y)
        .unwrap();
    let vec4 = y.read().unwrap();
    for (i, (&got, &v)) in vec4.iter().zip(&host).enumerate() {
        assert_eq!(got.to_bits(), expect(v).to_bits(), "y[{i}]");
    }
    // One more workgroup than the buffers hold: the coarsened scalar entry, same bits.
    let mut y = dev.zeros::<f32>(N).unwrap();
    poly.launch(&dev, Grid::groups(N / 256 + 1), 0.5, -2.0, 3.0, &x, &mut y)
        .unwrap();
    assert_eq!(y.read().unwrap(), vec4);
    // A length that is not a multiple of four (the grid overhangs the buffers): scalar.
    let n = N + 1234;
    let x = dev.upload(&xs(n)).unwrap();
    let mut y = dev.zeros::<f32>(n).unwrap();
    poly.launch(&dev, Grid::cover(n), 0.5, -2.0, 3.0, &x, &mut y)
        .unwrap();
    let got = y.read().unwrap();
    assert_eq!(got[..N], vec4[..]);
    for i in N..n {
        assert_eq!(got[i].to_bits(), expect(xs(n)[i]).to_bits(), "y[{i}]");
    }
}

#[backends]
fn lanes_a_copy_does_not_store_keep_their_values(dev: Device) {
    let host = xs(N);
    let x = dev.upload(&host).unwrap();
    let before: Vec<f32> = (0..N).map(|i| i as f32).collect();
    let mut y = dev.upload(&before).unwrap();
    let mut tag = dev.upload(&vec![7u32; N]).unwrap();
    some_lanes
        .launch(&dev, Grid::cover(N), &x, &mut y, &mut tag)
        .unwrap();
    let (y, tag) = (y.read().unwrap(), tag.read().unwrap());
    for i in 0..N {
        let stored = host[i] > 0.0;
        let want_y = if stored { host[i] * 2.0 } else { before[i] };
        let want_tag = if i % 3 == 0 {
            i as u32
        } else if stored {
            1
        } else {
            7
        };
        assert_eq!(y[i].to_bits(), want_y.to_bits(), "y[{i}]");
        assert_eq!(tag[i], want_tag, "tag[{i}]");
    }
}
