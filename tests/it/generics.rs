//! Generic kernels (issue 13): type parameters bounded by `Scalar`/`Float`/`Integer`, const
//! generics with listed values, and module traits with static dispatch. Every instance is
//! built at compile time; `launch` selects one from the arguments or the turbofish. Each test
//! runs on the device `common::device()` gives (lavapipe here, the CPU backend with
//! `SAREK_DEVICE=cpu`) and checks against the host.

use crate::common;

use sarek::gpu::Scalar;
use sarek::Grid;

/// `y = a * x`, for every scalar type.
#[sarek::kernel(workgroup_size = [64])]
fn scale<T: Scalar>(a: T, x: &[T], y: &mut [T]) {
    let i = global_thread_id();
    if i < y.len() {
        y[i] = a * x[i];
    }
}

#[test]
fn a_type_parameter_is_inferred_from_the_arguments() {
    let Some(dev) = common::device() else { return };
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
