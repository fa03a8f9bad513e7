//! `f16` in kernels (wgpu feature `SHADER_F16`, WGSL `enable f16;`): buffers, uniform scalars,
//! locals, arithmetic, comparisons, conversions, math and layout, on the test device and on
//! the CPU backend, compared with `half::f16` on the host (every operation rounds to the
//! nearest half, ties to even).

use crate::common;

use sarek::f16;
use sarek::prelude::*;

fn h(v: f32) -> f16 {
    f16::from_f32(v)
}

// The f16 saxpy: buffers of halves and a half in the uniform block.
#[sarek::kernel]
fn saxpy_f16(a: f16, x: &[f16], y: &mut [f16]) {
    let i = global_thread_id();
    if i < y.len() {
        y[i] = a * x[i] + y[i];
    }
}

#[test]
fn an_f16_buffer_kernel_runs_as_on_the_host() {
    let Some(dev) = common::device() else { return };
    let n = 1001; // odd: the buffers end in half a word
    let xs: Vec<f16> = (0..n).map(|i| h(i as f32 * 0.37 - 100.0)).collect();
    let ys: Vec<f16> = (0..n).map(|i| h(1.0 / (i as f32 + 1.0))).collect();
    let a = h(1.7);
    let x = dev.upload(&xs).unwrap();
    let mut y = dev.upload(&ys).unwrap();
    saxpy_f16
        .launch(&dev, Grid::cover(n), a, &x, &mut y)
        .unwrap();
    let want: Vec<f16> = xs.iter().zip(&ys).map(|(x, y)| a * *x + *y).collect();
    let got = y.read().unwrap();
    for i in 0..n {
        assert_eq!(
            got[i].to_bits(),
            want[i].to_bits(),
            "element {i}: {} vs {}",
            got[i],
            want[i]
        );
    }
}

#[test]
fn the_abi_lists_shader_f16_and_the_wgsl_enables_it() {
    use sarek::abi::Feature;
    assert_eq!(&*saxpy_f16::ABI.features, [Feature::ShaderF16]);
    assert!(
        saxpy_f16::WGSL.contains("enable f16;"),
        "{}",
        saxpy_f16::WGSL
    );
    assert_eq!(saxpy_f16::ABI.buffers[0].elem, "f16");
    assert_eq!(saxpy_f16::ABI.buffers[0].stride, 2);
    assert!(saxpy_f16::ABI.to_json().contains("\"SHADER_F16\""));
}

#[test]
fn a_device_without_shader_f16_refuses_with_missing_feature() {
    let Some(dev) = crate::subgroups::bare_device() else {
        return;
    };
    assert!(!dev.features().contains(sarek::wgpu::Features::SHADER_F16));
    let x = dev.upload(&[h(1.0); 4]).unwrap();
    let mut y = dev.upload(&[h(2.0); 4]).unwrap();
    match saxpy_f16.launch(&dev, Grid::cover(4), h(3.0), &x, &mut y) {
        Err(
            e @ sarek::Error::MissingFeature {
                feature: sarek::abi::Feature::ShaderF16,
                ..
            },
        ) => {
            let text = e.to_string();
            assert!(
                text.contains("`saxpy_f16`")
                    && text.contains("SHADER_F16")
                    && text.contains("`f16`"),
                "{text}"
            );
        }
        other => panic!("expected MissingFeature, got {other:?}"),
    }
}
