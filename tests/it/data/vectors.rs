//! Vector types in kernels: WGSL's `vecN<T>` with glam's names, methods and layout, on the
//! host as `sarek::Vec3` and friends or as glam's own types.

use crate::common;
use crate::common::backends;
use sarek::Device;

use sarek::{Element, Grid, IVec2, UVec4, Vec2, Vec3, Vec4};

#[sarek::module]
mod geo {
    use sarek::prelude::*;

    /// A `Vec3` followed by an `f32`: WGSL packs the `f32` into the vector's last 4 bytes.
    #[derive(Debug, PartialEq)]
    pub struct Body {
        pub pos: Vec3,
        pub mass: f32,
        pub vel: Vec3,
        pub id: u32,
    }

    /// A `Vec2` after an `f32`: WGSL aligns it to 8 bytes.
    #[derive(Debug, PartialEq)]
    pub struct Tagged {
        pub tag: f32,
        pub uv: Vec2,
    }

    #[sarek::kernel]
    pub fn geometry(axis: Vec3, xs: &[Vec3], ys: &[Vec4], out: &mut [Vec4]) {
        let i = global_thread_id();
        if i < xs.len() {
            let v = xs[i];
            let n = v.normalize();
            let c = v.cross(axis);
            let mut w = ys[i] * 2.0 - Vec4::ONE;
            w.x += n.dot(axis);
            w.y = c.length() + v.distance(axis);
            w.z = -(w.z) + v.length_squared();
            w += Vec4::new(0.0, 0.0, 0.0, n.max(c).min(Vec3::splat(0.5)).x);
            out[i] = w;
        }
    }

    #[sarek::kernel]
    pub fn advance(dt: f32, bodies: &mut [Body], tags: &mut [Tagged]) {
        let i = global_thread_id();
        if i < bodies.len() {
            let b = bodies[i];
            bodies[i].pos = b.pos + b.vel * dt;
            bodies[i].mass = b.mass * 0.5;
            bodies[i].id += 1;
            tags[i].uv = Vec2::new(tags[i].uv.y, tags[i].tag);
            tags[i].tag = b.mass;
        }
    }

    #[sarek::kernel]
    pub fn ints(a: &[IVec2], b: &mut [UVec4]) {
        let i = global_thread_id();
        if i < a.len() {
            let v = a[i] * 3 + IVec2::new(1, -1);
            let m = v.abs().max(IVec2::splat(2));
            b[i] = UVec4::new(m.x as u32, m.y as u32, v.dot(v) as u32, b[i].w) + UVec4::X;
        }
    }
}

fn close(a: f32, b: f32) -> bool {
    (a - b).abs() <= 1e-5 * (1.0 + b.abs())
}

#[backends]
fn vector_math_matches_the_host(dev: Device) {
    let n = 300;
    let r = common::random_u32(11, 4 * n);
    let f = |k: usize| (r[k] % 2000) as f32 / 100.0 - 10.0;
    let xs: Vec<Vec3> = (0..n)
        .map(|i| Vec3::new(f(4 * i), f(4 * i + 1), f(4 * i + 2) + 0.5))
        .collect();
    let ys: Vec<Vec4> = (0..n)
        .map(|i| Vec4::new(f(4 * i + 3), 1.0, -2.0, i as f32))
        .collect();
    let axis = Vec3::new(0.25, -1.0, 2.0);
    let xb = dev.upload(&xs).unwrap();
    let yb = dev.upload(&ys).unwrap();
    let mut out = dev.zeros::<Vec4>(n).unwrap();
    geo::geometry
        .launch(&dev, Grid::cover(n), axis, &xb, &yb, &mut out)
        .unwrap();
    // A buffer of `Vec3` has WGSL's 16-byte stride.
    assert_eq!(geo::geometry::ABI.buffers[0].stride, 16);
    let got = out.read().unwrap();
    for i in 0..n {
        let mut expected = vec![Vec4::ZERO];
        geo::geometry::body(axis, &xs[i..=i], &ys[i..=i], &mut expected);
        let (g, e) = (got[i], expected[0]);
        assert!(
            close(g.x, e.x) && close(g.y, e.y) && close(g.z, e.z) && close(g.w, e.w),
            "element {i}: GPU {g:?}, host {e:?}"
        );
    }
}

#[backends]
fn structs_with_vectors_keep_wgsl_layout(dev: Device) {
    use geo::{Body, Tagged};
    // WGSL: pos at 0 (12 bytes), mass at 12, vel at 16, id at 28, size 32.
    assert_eq!(std::mem::size_of::<<Body as Element>::Gpu>(), 32);
    assert_eq!(geo::advance::ABI.buffers[0].stride, 32);
    // WGSL: tag at 0, uv at 8 (8-byte aligned), size 16.
    assert_eq!(geo::advance::ABI.buffers[1].stride, 16);
    let n = 70;
    let bodies: Vec<Body> = (0..n)
        .map(|i| Body {
            pos: Vec3::new(i as f32, 1.0, 2.0),
            mass: 4.0 + i as f32,
            vel: Vec3::new(-1.0, 0.5, i as f32),
            id: 10 * i as u32,
        })
        .collect();
    let tags: Vec<Tagged> = (0..n)
        .map(|i| Tagged {
            tag: i as f32,
            uv: Vec2::new(0.5, -0.5),
        })
        .collect();
    let mut bb = dev.upload(&bodies).unwrap();
    let mut tb = dev.upload(&tags).unwrap();
    geo::advance
        .launch(&dev, Grid::cover(n), 0.5, &mut bb, &mut tb)
        .unwrap();
    let (mut eb, mut et) = (bodies.clone(), tags.clone());
    // The plain-Rust body, once per element (as invocation 0 of a one-element slice).
    for i in 0..n {
        let (mut b1, mut t1) = ([bodies[i]], [tags[i]]);
        geo::advance::body(0.5, &mut b1, &mut t1);
        eb[i] = b1[0];
        et[i] = t1[0];
    }
    assert_eq!(bb.read().unwrap(), eb);
    assert_eq!(tb.read().unwrap(), et);
}

#[backends]
fn integer_vectors(dev: Device) {
    let a: Vec<IVec2> = (0..50).map(|i| IVec2::new(i - 25, 7 - i)).collect();
    let ab = dev.upload(&a).unwrap();
    let mut bb = dev.upload(&vec![UVec4::new(0, 0, 0, 9); 50]).unwrap();
    geo::ints
        .launch(&dev, Grid::cover(50), &ab, &mut bb)
        .unwrap();
    let expected: Vec<UVec4> = a
        .iter()
        .map(|&a| {
            let v = a * 3 + IVec2::new(1, -1);
            let m = v.abs().max(IVec2::splat(2));
            UVec4::new(m.x as u32 + 1, m.y as u32, v.dot(v) as u32, 9)
        })
        .collect();
    assert_eq!(bb.read().unwrap(), expected);
}

/// glam's own vectors are buffer elements too, and convert to Sarek's.
#[cfg(feature = "glam")]
#[sarek::kernel]
fn scale_glam(s: f32, v: &mut [glam::Vec3]) {
    let i = sarek::gpu::global_thread_id();
    if i < v.len() {
        v[i] = v[i] * s + glam::Vec3::Z;
    }
}

#[cfg(feature = "glam")]
#[backends]
fn glam_vectors_interoperate(dev: Device) {
    assert_eq!(
        Vec3::from(glam::Vec3::new(1.0, 2.0, 3.0)),
        Vec3::new(1.0, 2.0, 3.0)
    );
    assert_eq!(glam::Vec4::from(Vec4::splat(2.0)), glam::Vec4::splat(2.0));
    let data: Vec<glam::Vec3> = (0..40)
        .map(|i| glam::Vec3::new(i as f32, -1.0, 0.5))
        .collect();
    let mut buf = dev.upload(&data).unwrap();
    scale_glam
        .launch(&dev, Grid::cover(40), 2.0, &mut buf)
        .unwrap();
    let expected: Vec<glam::Vec3> = data.iter().map(|v| *v * 2.0 + glam::Vec3::Z).collect();
    assert_eq!(buf.read().unwrap(), expected);
    // Sarek's vectors and glam's `Vec4` are the same 16 bytes: bytemuck casts between them.
    let ours = [Vec4::new(1.0, 2.0, 3.0, 4.0)];
    let theirs: &[glam::Vec4] = bytemuck::cast_slice(&ours);
    assert_eq!(theirs[0], glam::Vec4::new(1.0, 2.0, 3.0, 4.0));
}
