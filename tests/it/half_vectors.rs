//! `F16Vec2` / `F16Vec4` in kernels (WGSL's `vec2<f16>` / `vec4<f16>`, feature `SHADER_F16`):
//! buffer elements, uniform values, locals, struct fields, constructors, operators, methods
//! and conversions to and from the `f32` vectors, on the test device and on the CPU backend,
//! compared with the host types (`sarek::F16Vec2`, `sarek::F16Vec4`), which round as the GPU
//! does.

use crate::common;

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

#[test]
fn an_f16vec4_saxpy_runs_as_on_the_host() {
    use sarek::abi::Feature;
    assert_eq!(&*saxpy_f16x4::ABI.features, [Feature::ShaderF16]);
    assert_eq!(saxpy_f16x4::ABI.buffers[0].elem, "vec4<f16>");
    assert_eq!(saxpy_f16x4::ABI.buffers[0].stride, 8);
    assert!(
        saxpy_f16x4::WGSL.contains("array<vec4<f16>>"),
        "{}",
        saxpy_f16x4::WGSL
    );
    let Some(dev) = common::device() else { return };
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
    saxpy_f16x4
        .launch(&dev, Grid::cover(n), a, &x, &mut y)
        .unwrap();
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

#[test]
fn f16vec_operations_round_like_the_host() {
    let Some(dev) = common::device() else { return };
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
    half_vector_ops
        .launch(&dev, Grid::cover(n), &x, s, &mut out, &mut wide)
        .unwrap();
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

#[test]
fn f16vec_struct_fields_follow_wgsl_layout_in_buffers_the_uniform_block_and_locals() {
    use half_vector_structs::{shuffle, Packet};
    assert_eq!(shuffle::ABI.buffers[0].stride, 24);
    let Some(dev) = common::device() else { return };
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
    shuffle
        .launch(&dev, Grid::cover(items.len()), p, &buf, &mut out)
        .unwrap();
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

#[test]
fn a_device_without_shader_f16_refuses_an_f16vec_kernel() {
    let Some(dev) = crate::subgroups::bare_device() else {
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
