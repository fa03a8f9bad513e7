//! `F16Vec2` / `F16Vec4` in kernels (WGSL's `vec2<f16>` / `vec4<f16>`, feature `SHADER_F16`):
//! buffer elements, uniform values, locals, struct fields, constructors, operators, methods
//! and conversions to and from the `f32` vectors, on the test device and on the CPU backend,
//! compared with the host types (`sarek::F16Vec2`, `sarek::F16Vec4`), which round as the GPU
//! does.

use crate::common::{backends, gpu_only};

use sarek::f16;
use sarek::prelude::*;

fn h(v: f32) -> f16 {
    f16::from_f32(v)
}

// The f16 saxpy four halves at a time: 8-byte loads and stores.
#[sarek::kernel]
fn saxpy_f16x4(a: f16, x: &[F16Vec4], y: &mut [F16Vec4]) {
    let i = global_thread_id();
    if i < y.len() {
        y[i] = x[i] * a + y[i];
    }
}

#[backends]
fn an_f16vec4_saxpy_runs_as_on_the_host(dev: Device) {
    use sarek::abi::Feature;
    assert_eq!(&*saxpy_f16x4::ABI.features, [Feature::ShaderF16]);
    assert_eq!(saxpy_f16x4::ABI.buffers[0].elem, "vec4<f16>");
    assert_eq!(saxpy_f16x4::ABI.buffers[0].stride, 8);
    assert!(
        saxpy_f16x4::WGSL.contains("array<vec4<f16>>"),
        "{}",
        saxpy_f16x4::WGSL
    );
    let n = 333;
    let xs: Vec<F16Vec4> = (0..n)
        .map(|i| F16Vec4::from_vec4(Vec4::new(i as f32 * 0.37, -(i as f32), 0.1, 1e4)))
        .collect();
    let ys: Vec<F16Vec4> = (0..n)
        .map(|i| F16Vec4::splat(h(1.0 / (i as f32 + 1.0))))
        .collect();
    let a = h(1.7);
    let x = dev.upload(&xs).unwrap();
    let mut y = dev.upload(&ys).unwrap();
    let Some(_) = crate::common::unless_no_f16(
        &dev,
        saxpy_f16x4.launch(&dev, Grid::cover(n), a, &x, &mut y),
    ) else {
        return;
    };
    let want: Vec<F16Vec4> = xs.iter().zip(&ys).map(|(x, y)| *x * a + *y).collect();
    let got = y.read().unwrap();
    for i in 0..n {
        assert_eq!(
            got[i].to_array().map(f16::to_bits),
            want[i].to_array().map(f16::to_bits),
            "element {i}: {:?} vs {:?}",
            got[i],
            want[i]
        );
    }
}

// Constructors, constants, components, operators, methods and conversions.
#[sarek::kernel]
fn half_vector_ops(x: &[F16Vec4], s: F16Vec2, out: &mut [F16Vec4], wide: &mut [Vec4]) {
    let i = global_thread_id();
    if i < x.len() {
        let v = x[i];
        let two = f16::from_f32(2.0);
        let mut acc = F16Vec4::ZERO;
        acc += v * two - F16Vec4::ONE;
        acc = acc / F16Vec4::splat(f16::from_f32(3.0));
        acc.y = acc.y + s.x;
        let p = F16Vec2::new(v.x, v.w) * s + F16Vec2::Y;
        let base = i * 6;
        out[base] = acc;
        out[base + 1] = F16Vec4::new(p.x, p.y, v.dot(F16Vec4::ONE), -v.z);
        out[base + 2] = v
            .abs()
            .max(F16Vec4::splat(f16::from_f32(0.25)))
            .min(F16Vec4::W * two + v);
        out[base + 3] = F16Vec4::new(
            v.length(),
            v.distance(F16Vec4::X),
            s.length_squared(),
            two * s.y,
        );
        out[base + 4] = F16Vec4::from_vec4(v.to_vec4() * 0.5) + F16Vec4::from(Vec4::Z);
        out[base + 5] = -v.floor() - v.ceil() + v.trunc();
        let mut w = v.to_vec4();
        if v == F16Vec4::ZERO || F16Vec2::from(Vec2::new(w.x, w.y)) != F16Vec2::new(v.x, v.y) {
            w = Vec4::splat(-1.0);
        }
        wide[i] = w + Vec4::from(acc);
    }
}

#[backends]
// The host side repeats the kernel's statements one for one.
#[allow(clippy::assign_op_pattern)]
fn f16vec_operations_round_like_the_host(dev: Device) {
    let mut xs: Vec<F16Vec4> = (0..150)
        .map(|i| {
            let t = (i as f32 - 75.0) * 0.173;
            F16Vec4::from_vec4(Vec4::new(t, 1.0 - t, t * t, 0.5))
        })
        .collect();
    xs.push(F16Vec4::ZERO);
    let s = F16Vec2::new(h(0.75), h(-3.0));
    let n = xs.len();
    let x = dev.upload(&xs).unwrap();
    let mut out = dev.zeros::<F16Vec4>(n * 6).unwrap();
    let mut wide = dev.zeros::<Vec4>(n).unwrap();
    let Some(_) = crate::common::unless_no_f16(
        &dev,
        half_vector_ops.launch(&dev, Grid::cover(n), &x, s, &mut out, &mut wide),
    ) else {
        return;
    };
    let out = out.read().unwrap();
    let wide = wide.read().unwrap();
    for (i, &v) in xs.iter().enumerate() {
        let two = h(2.0);
        let mut acc = F16Vec4::ZERO;
        acc += v * two - F16Vec4::ONE;
        acc = acc / F16Vec4::splat(h(3.0));
        acc.y = acc.y + s.x;
        let p = F16Vec2::new(v.x, v.w) * s + F16Vec2::Y;
        let want = [
            acc,
            F16Vec4::new(p.x, p.y, v.dot(F16Vec4::ONE), -v.z),
            v.abs()
                .max(F16Vec4::splat(h(0.25)))
                .min(F16Vec4::W * two + v),
            F16Vec4::new(
                v.length(),
                v.distance(F16Vec4::X),
                s.length_squared(),
                two * s.y,
            ),
            F16Vec4::from_vec4(v.to_vec4() * 0.5) + F16Vec4::from(Vec4::Z),
            -v.floor() - v.ceil() + v.trunc(),
        ];
        for (k, w) in want.iter().enumerate() {
            let g = out[i * 6 + k];
            // `length` and `distance` may differ by an ulp of the half (a square root in
            // `f32` on the GPU is not always correctly rounded).
            let close = |a: f16, b: f16| {
                a == b || (k == 3 && (a.to_f32() - b.to_f32()).abs() <= b.to_f32().abs() * 1e-3)
            };
            let ok = close(g.x, w.x) && close(g.y, w.y) && close(g.z, w.z) && close(g.w, w.w);
            assert!(ok, "x = {v:?}, result {k}: got {g:?}, want {w:?}");
        }
        let mut w = v.to_vec4();
        if v == F16Vec4::ZERO || F16Vec2::from(Vec2::new(w.x, w.y)) != F16Vec2::new(v.x, v.y) {
            w = Vec4::splat(-1.0);
        }
        assert_eq!(wide[i], w + Vec4::from(acc), "wide result of {v:?}");
    }
}

// `F16Vec2` and `F16Vec4` fields at WGSL's offsets: `a` at 0, `b` at 4 (size 4, align 4),
// `c` at 8 (size 8, align 8), `d` at 16, size 24 (the struct is 8-byte aligned); as buffer
// elements, as a uniform value and in a local array.
#[sarek::module]
mod half_vector_structs {
    use sarek::f16;
    use sarek::prelude::*;

    pub struct Packet {
        pub a: f16,
        pub b: F16Vec2,
        pub c: F16Vec4,
        pub d: f32,
    }

    #[sarek::kernel]
    pub fn shuffle(p: Packet, items: &[Packet], out: &mut [Packet]) {
        let i = global_thread_id();
        if i < items.len() {
            let m = items[i];
            let mut lanes = [F16Vec4::ZERO; 3];
            lanes[0] = m.c;
            lanes[1] = p.c;
            lanes[2] = F16Vec4::new(m.b.x, m.b.y, p.b.x, p.b.y);
            let k = i % 3;
            out[i] = Packet {
                a: m.a + p.a,
                b: F16Vec2::new(m.c.w, m.c.z) + p.b,
                c: lanes[k] + lanes[(k + 1) % 3],
                d: m.d * p.d + m.b.x.to_f32(),
            };
        }
    }
}

#[backends]
fn f16vec_struct_fields_follow_wgsl_layout_in_buffers_the_uniform_block_and_locals(dev: Device) {
    use half_vector_structs::{shuffle, Packet};
    assert_eq!(shuffle::ABI.buffers[0].stride, 24);
    let items: Vec<Packet> = (0..41)
        .map(|i| Packet {
            a: h(i as f32),
            b: F16Vec2::new(h(i as f32 * 0.5), h(-1.0)),
            c: F16Vec4::from_vec4(Vec4::new(1.0, 2.0, i as f32, -(i as f32) * 0.25)),
            d: i as f32 * 0.5,
        })
        .collect();
    let p = Packet {
        a: h(0.5),
        b: F16Vec2::new(h(7.0), h(-2.0)),
        c: F16Vec4::splat(h(0.125)),
        d: 3.0,
    };
    let buf = dev.upload(&items).unwrap();
    let mut out = dev.zeros::<Packet>(items.len()).unwrap();
    let Some(_) = crate::common::unless_no_f16(
        &dev,
        shuffle.launch(&dev, Grid::cover(items.len()), p, &buf, &mut out),
    ) else {
        return;
    };
    let got = out.read().unwrap();
    for (i, (m, g)) in items.iter().zip(&got).enumerate() {
        let lanes = [m.c, p.c, F16Vec4::new(m.b.x, m.b.y, p.b.x, p.b.y)];
        let k = i % 3;
        assert_eq!(g.a, m.a + p.a, "{i}");
        assert_eq!(g.b, F16Vec2::new(m.c.w, m.c.z) + p.b, "{i}");
        assert_eq!(g.c, lanes[k] + lanes[(k + 1) % 3], "{i}");
        assert_eq!(g.d, m.d * p.d + m.b.x.to_f32(), "{i}");
    }
}

#[gpu_only]
fn a_device_without_shader_f16_refuses_an_f16vec_kernel() {
    let Some(dev) = crate::extensions::subgroups::bare_device() else {
        return;
    };
    let x = dev.upload(&[F16Vec4::ONE; 4]).unwrap();
    let mut y = dev.upload(&[F16Vec4::ONE; 4]).unwrap();
    match saxpy_f16x4.launch(&dev, Grid::cover(4), h(3.0), &x, &mut y) {
        Err(sarek::Error::MissingFeature {
            feature: sarek::abi::Feature::ShaderF16,
            ..
        }) => {}
        other => panic!("expected MissingFeature, got {other:?}"),
    }
}

// Subgroup operations on `f16` and `F16Vec4` (features `SHADER_F16` and `SUBGROUP`).
#[sarek::kernel(workgroup_size = [64])]
fn half_subgroups(
    x: &[f16],
    v: &[F16Vec4],
    out: &mut [f16],
    vout: &mut [F16Vec4],
    sizes: &mut [u32],
) {
    let i = global_thread_id();
    let a = x[i];
    let w = v[i];
    let sum = subgroup_add(a);
    let lo = subgroup_min(a);
    let hi = subgroup_max(a);
    let inc = subgroup_inclusive_add(a);
    let exc = subgroup_exclusive_add(a);
    let first = subgroup_broadcast_first(a);
    let swapped = subgroup_shuffle_xor(a, 1);
    let b0 = subgroup_broadcast(a, 0);
    let vsum = subgroup_add(w);
    let vmax = subgroup_max(w);
    let vswap = subgroup_shuffle(w, subgroup_invocation_id() ^ 1);
    let size = subgroup_size();
    let base = i * 8;
    out[base] = sum;
    out[base + 1] = lo;
    out[base + 2] = hi;
    out[base + 3] = inc;
    out[base + 4] = exc;
    out[base + 5] = first;
    out[base + 6] = swapped;
    out[base + 7] = b0;
    vout[i * 3] = vsum;
    vout[i * 3 + 1] = vmax;
    vout[i * 3 + 2] = vswap;
    sizes[i] = size;
}

#[backends]
fn subgroup_operations_on_f16_and_f16vec4_match_the_host(dev: Device) {
    use sarek::abi::Feature;
    let features = &half_subgroups::ABI.features;
    assert!(features.contains(&Feature::ShaderF16) && features.contains(&Feature::Subgroup));
    if !dev.features().contains(sarek::wgpu::Features::SUBGROUP) {
        eprintln!("no SUBGROUP on this device: skipped");
        return;
    }
    let n = 256;
    // Multiples of 0.5 up to 2: every sum and prefix of up to 64 of them is exact in `f16`,
    // so the device's order of summation does not matter.
    let xs: Vec<f16> = (0..n)
        .map(|i| h(((i * 7 % 9) as f32 - 4.0) * 0.5))
        .collect();
    let vs: Vec<F16Vec4> = xs
        .iter()
        .map(|&a| F16Vec4::new(a, -a, f16::ONE, a * h(2.0)))
        .collect();
    let x = dev.upload(&xs).unwrap();
    let v = dev.upload(&vs).unwrap();
    let mut out = dev.zeros::<f16>(n * 8).unwrap();
    let mut vout = dev.zeros::<F16Vec4>(n * 3).unwrap();
    let mut sizes = dev.zeros::<u32>(n).unwrap();
    half_subgroups
        .launch(
            &dev,
            Grid::cover(n),
            &x,
            &v,
            &mut out,
            &mut vout,
            &mut sizes,
        )
        .unwrap();
    let (out, vout, sizes) = (
        out.read().unwrap(),
        vout.read().unwrap(),
        sizes.read().unwrap(),
    );
    let size = sizes[0] as usize;
    assert!(
        size.is_power_of_two() && size >= 2 && 64 % size == 0,
        "{size}"
    );
    for i in 0..n {
        let lane = i % size;
        let group = &xs[i - lane..i - lane + size];
        let vgroup = &vs[i - lane..i - lane + size];
        let sum = group.iter().fold(f16::ZERO, |s, &a| s + a);
        let inc = group[..=lane].iter().fold(f16::ZERO, |s, &a| s + a);
        let exc = group[..lane].iter().fold(f16::ZERO, |s, &a| s + a);
        let lo = group.iter().copied().fold(f16::INFINITY, f16::min);
        let hi = group.iter().copied().fold(f16::NEG_INFINITY, f16::max);
        let want = [sum, lo, hi, inc, exc, group[0], group[lane ^ 1], group[0]];
        assert_eq!(&out[i * 8..i * 8 + 8], want, "invocation {i}");
        let vsum = vgroup.iter().fold(F16Vec4::ZERO, |s, &a| s + a);
        let vmax = vgroup
            .iter()
            .fold(F16Vec4::splat(f16::NEG_INFINITY), |m, &a| m.max(a));
        assert_eq!(
            &vout[i * 3..i * 3 + 3],
            [vsum, vmax, vgroup[lane ^ 1]],
            "invocation {i}"
        );
    }
}
