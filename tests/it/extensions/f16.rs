//! `f16` in kernels (wgpu feature `SHADER_F16`, WGSL `enable f16;`): buffers, uniform scalars,
//! locals, arithmetic, comparisons, conversions, math and layout, on the test device and on
//! the CPU backend, compared with `half::f16` on the host (every operation rounds to the
//! nearest half, ties to even).

use crate::common::{backends, gpu_only};

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

#[backends]
fn an_f16_buffer_kernel_runs_as_on_the_host(dev: Device) {
    let n = 1001; // odd: the buffers end in half a word
    let xs: Vec<f16> = (0..n).map(|i| h(i as f32 * 0.37 - 100.0)).collect();
    let ys: Vec<f16> = (0..n).map(|i| h(1.0 / (i as f32 + 1.0))).collect();
    let a = h(1.7);
    let x = dev.upload(&xs).unwrap();
    let mut y = dev.upload(&ys).unwrap();
    let Some(_) =
        crate::common::unless_no_f16(&dev, saxpy_f16.launch(&dev, Grid::cover(n), a, &x, &mut y))
    else {
        return;
    };
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

#[gpu_only]
fn a_device_without_shader_f16_refuses_with_missing_feature() {
    let Some(dev) = crate::extensions::subgroups::bare_device() else {
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

// Literals, constants, conversions, comparisons, locals and math.
#[sarek::kernel]
fn half_ops(x: &[f16], out: &mut [f16], flags: &mut [u32], ints: &mut [i32]) {
    let i = global_thread_id();
    if i < x.len() {
        let v = x[i];
        let two = f16::from_f32(2.0);
        let mut acc = f16::ZERO;
        acc += v * two - f16::ONE;
        acc = acc / f16::from_f32(3.0);
        let w = f16::from_f32(v.to_f32() * 0.5);
        let base = i * 8;
        out[base] = acc;
        out[base + 1] = w;
        out[base + 2] = v.sqrt();
        out[base + 3] = v.abs().max(f16::from_f32(-0.25));
        out[base + 4] = v.sin();
        out[base + 5] = v.floor();
        out[base + 6] = -v % f16::from_f32(0.75);
        out[base + 7] = f16::from_f32(i as f32) + f16::MAX / f16::from_f32(65504.0);
        let mut f = 0u32;
        if v < two {
            f |= 1;
        }
        if v >= f16::ZERO {
            f |= 2;
        }
        if v != v {
            f |= 4;
        }
        if v.is_nan() {
            f |= 8;
        }
        flags[i] = f;
        ints[i] = (v.to_f32() * 100.0) as i32;
    }
}

#[backends]
// `v != v` is the NaN test the kernel makes, on the host (clippy allows it only in `#[test]`s).
#[allow(clippy::eq_op)]
fn f16_operations_round_like_the_host(dev: Device) {
    let mut xs: Vec<f16> = (0..200).map(|i| h((i as f32 - 100.0) * 0.173)).collect();
    xs.extend([
        f16::NAN,
        f16::INFINITY,
        f16::NEG_INFINITY,
        f16::MAX,
        f16::MIN_POSITIVE_SUBNORMAL,
        h(-0.0),
    ]);
    let n = xs.len();
    let x = dev.upload(&xs).unwrap();
    let mut out = dev.zeros::<f16>(n * 8).unwrap();
    let mut flags = dev.zeros::<u32>(n).unwrap();
    let mut ints = dev.zeros::<i32>(n).unwrap();
    let Some(_) = crate::common::unless_no_f16(
        &dev,
        half_ops.launch(&dev, Grid::cover(n), &x, &mut out, &mut flags, &mut ints),
    ) else {
        return;
    };
    let out = out.read().unwrap();
    let flags = flags.read().unwrap();
    let ints = ints.read().unwrap();
    use sarek::gpu::Float;
    for (i, &v) in xs.iter().enumerate() {
        let two = h(2.0);
        let acc = (v * two - f16::ONE) / h(3.0);
        let want = [
            acc,
            h(v.to_f32() * 0.5),
            Float::sqrt(v),
            Float::abs(v).max(h(-0.25)),
            Float::sin(v),
            Float::floor(v),
            -v % h(0.75),
            h(i as f32) + f16::MAX / h(65504.0),
        ];
        for (k, w) in want.iter().enumerate() {
            let g = out[i * 8 + k];
            // `sin` may differ by an ulp of the half (the GPU's `f32` sine is approximate).
            let ok = g.to_bits() == w.to_bits()
                || (g.is_nan() && w.is_nan())
                || (k == 4 && (g.to_f32() - w.to_f32()).abs() <= f16::EPSILON.to_f32() * 2.0);
            assert!(ok, "x = {v}, result {k}: got {g}, want {w}");
        }
        let mut f = 0;
        if v < two {
            f |= 1;
        }
        if v >= f16::ZERO {
            f |= 2;
        }
        if v != v {
            f |= 4;
        }
        if v.is_nan() {
            f |= 8;
        }
        assert_eq!(flags[i], f, "flags of {v}");
        assert_eq!(ints[i], (v.to_f32() * 100.0) as i32, "int of {v}");
    }
}

#[test]
fn f16_wgsl_spells_literals_with_the_h_suffix() {
    let wgsl = half_ops::WGSL;
    assert!(
        wgsl.starts_with("// Generated") && wgsl.contains("\nenable f16;\n"),
        "{wgsl}"
    );
    assert!(wgsl.contains("2.0h") && wgsl.contains("65504.0h"), "{wgsl}");
}

// `f16` fields at WGSL's offsets: `a` at 0, `b` at 4, `c` at 8, `d` at 10, size 12.
#[sarek::module]
mod halves {
    use sarek::f16;
    use sarek::prelude::*;

    pub struct Mixed {
        pub a: f16,
        pub b: f32,
        pub c: f16,
        pub d: f16,
    }

    #[sarek::kernel]
    pub fn mix(p: Mixed, items: &[Mixed], out: &mut [Mixed]) {
        let i = global_thread_id();
        if i < items.len() {
            let m = items[i];
            out[i] = Mixed {
                a: m.a + p.a,
                b: m.b * p.b,
                c: m.d,
                d: m.c * p.d,
            };
        }
    }
}

#[backends]
fn f16_struct_fields_follow_wgsl_layout_in_buffers_and_the_uniform_block(dev: Device) {
    use halves::{mix, Mixed};
    assert_eq!(mix::ABI.buffers[0].stride, 12);
    let items: Vec<Mixed> = (0..37)
        .map(|i| Mixed {
            a: h(i as f32),
            b: i as f32 * 0.5,
            c: h(-(i as f32)),
            d: h(i as f32 * 0.25),
        })
        .collect();
    let p = Mixed {
        a: h(0.5),
        b: 3.0,
        c: h(7.0),
        d: h(-2.0),
    };
    let buf = dev.upload(&items).unwrap();
    let mut out = dev.zeros::<Mixed>(items.len()).unwrap();
    let Some(_) = crate::common::unless_no_f16(
        &dev,
        mix.launch(&dev, Grid::cover(items.len()), p, &buf, &mut out),
    ) else {
        return;
    };
    let got = out.read().unwrap();
    for (m, g) in items.iter().zip(&got) {
        assert_eq!(g.a, m.a + p.a);
        assert_eq!(g.b, m.b * p.b);
        assert_eq!(g.c, m.d);
        assert_eq!(g.d, m.c * p.d);
    }
}

// A generic kernel over `Float` gets an `f16` instance where `instances` lists it.
#[sarek::kernel(instances(T = [f32, f16]))]
fn soft_clip<T: Float>(x: &[T], y: &mut [T]) {
    let i = global_thread_id();
    if i < x.len() {
        let v = x[i];
        y[i] = v / (T::ONE + v.abs()) + T::ZERO;
    }
}

#[backends]
fn a_generic_float_kernel_has_the_listed_f16_instance(dev: Device) {
    use sarek::abi::Feature;
    assert!(soft_clip.abi::<f32>().features.is_empty());
    assert_eq!(&*soft_clip.abi::<f16>().features, [Feature::ShaderF16]);
    let xs: Vec<f16> = (0..300).map(|i| h((i as f32 - 150.0) * 0.07)).collect();
    let x = dev.upload(&xs).unwrap();
    let mut y = dev.zeros::<f16>(xs.len()).unwrap();
    let Some(_) = crate::common::unless_no_f16(
        &dev,
        soft_clip.launch(&dev, Grid::cover(xs.len()), &x, &mut y),
    ) else {
        return;
    };
    use sarek::gpu::Float;
    let want: Vec<f16> = xs
        .iter()
        .map(|v| *v / (f16::ONE + Float::abs(*v)) + f16::ZERO)
        .collect();
    assert_eq!(y.read().unwrap(), want);
}
