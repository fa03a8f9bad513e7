//! Thread coarsening of element-wise kernels: on large 1-D grids each invocation does the work
//! of four, with the loads first; the results are those of the plain kernel.

use crate::common::backends;

use sarek::prelude::*;

#[sarek::kernel]
fn axpby(a: f32, b: f32, x: &[f32], y: &mut [f32], flags: &mut [u32]) {
    let i = global_thread_id();
    if i < y.len() {
        let v = a * x[i] + b * y[i];
        y[i] = v;
        flags[i] = if v > 0.0 { i as u32 } else { 7 };
    }
}

/// Reads `y[i]` after writing it: hoisting the read would be wrong, so not coarsened.
#[sarek::kernel]
fn write_then_read(y: &mut [f32], out: &mut [f32]) {
    let i = global_thread_id();
    if i < y.len() {
        y[i] = 1.0;
        out[i] = y[i] * 2.0;
    }
}

/// Reads a neighbour: not element-wise, so not coarsened.
#[sarek::kernel]
fn neighbour(x: &[f32], out: &mut [f32]) {
    let i = global_thread_id();
    if i + 1 < x.len() {
        out[i] = x[i + 1];
    }
}

#[test]
// The kernel's ABI and WGSL are constants: asserting them is this test.
#[allow(clippy::assertions_on_constants)]
fn only_element_wise_kernels_are_coarsened() {
    assert!(axpby::ABI.coarsened);
    assert!(axpby::WGSL.contains("fn sarek_main_coarse("));
    assert!(!write_then_read::ABI.coarsened);
    assert!(!neighbour::ABI.coarsened);
    assert!(!neighbour::WGSL.contains("sarek_main_coarse"));
}

#[backends]
fn coarsened_launches_compute_what_the_plain_kernel_does(dev: Device) {
    // Over 8192 workgroups of 256, and not a multiple of anything convenient.
    let n = 8192 * 256 + 1234;
    let xs: Vec<f32> = (0..n).map(|i| (i % 1000) as f32 - 500.0).collect();
    let ys: Vec<f32> = (0..n).map(|i| (i % 7) as f32).collect();
    let x = dev.upload(&xs).unwrap();
    let mut y = dev.upload(&ys).unwrap();
    let mut flags = dev.zeros::<u32>(n).unwrap();
    axpby
        .launch(&dev, Grid::cover(n), 2.0, -1.0, &x, &mut y, &mut flags)
        .unwrap();
    let (got, got_flags) = (y.read().unwrap(), flags.read().unwrap());
    for i in 0..n {
        let v = 2.0 * xs[i] - ys[i];
        assert_eq!(got[i], v, "y[{i}]");
        assert_eq!(
            got_flags[i],
            if v > 0.0 { i as u32 } else { 7 },
            "flags[{i}]"
        );
    }
    // A small grid of the same kernel runs plainly, with the same results.
    let mut small = dev.upload(&ys[..1000]).unwrap();
    let mut small_flags = dev.zeros::<u32>(1000).unwrap();
    let xs_small = dev.upload(&xs[..1000]).unwrap();
    axpby
        .launch(
            &dev,
            Grid::cover(1000),
            2.0,
            -1.0,
            &xs_small,
            &mut small,
            &mut small_flags,
        )
        .unwrap();
    assert_eq!(small.read().unwrap(), got[..1000].to_vec());
}
