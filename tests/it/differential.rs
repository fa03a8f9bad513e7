//! Differential tests with proptest: every kernel runs on each backend (the GPU through wgpu
//! when there is one, and the CPU backend, `Device::cpu()`) and, when it has no workgroup
//! memory or barriers, as its plain-Rust body (`kernel::body`, called once per invocation on
//! the host), on random inputs with edge values mixed in. Integers are compared exactly,
//! floats bit for bit or within the ULP bounds that README.md documents. A failure is shrunk
//! to a small input and printed with it, naming the output, its inputs and the backend that
//! disagreed.
//!
//! The example programs (examples/*.rs) are included as modules, so their kernels run here as
//! they are, and every semantic rule of README.md ("Rust's meaning on the GPU") has a case of
//! its own. Where Rust would panic (an integer division by zero, an index out of bounds) there is no body to run:
//! the backends are compared with each other and with the documented result instead.

use crate::common;

use std::fmt::Debug;
use std::sync::OnceLock;

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use sarek::gpu::{with_invocation, Invocation};
use sarek::prelude::*;

use common::polyfills::{self, float_methods};

// ---------------------------------------------------------------------------------------------
// The harness.

/// The backends every kernel runs on, by name: the GPU when there is one ([`common::device`];
/// a failure without one under `SAREK_REQUIRE_GPU=1`), then always the CPU backend, unchecked
/// and checked (every index and integer division checked, as `#[backends]`'s `cpu_checked`).
/// Under `SAREK_DEVICE=cpu`, or without a GPU, the GPU is left out. Created once: creating a
/// device is slow.
pub(crate) fn backends() -> &'static [(String, Device)] {
    static BACKENDS: OnceLock<Vec<(String, Device)>> = OnceLock::new();
    BACKENDS.get_or_init(|| {
        let mut all = Vec::new();
        if let Some(dev) = common::device().filter(|d| !d.is_cpu()) {
            all.push((format!("the GPU ({})", dev.name()), dev));
        }
        all.push(("the CPU backend".to_string(), Device::cpu()));
        all.push((
            "the checked CPU backend".to_string(),
            common::cpu_checked_device(),
        ));
        all
    })
}

/// Runs `launch` on every backend; each backend's name with what it returned.
pub(crate) fn on_backends<T>(launch: impl FnMut(&Device) -> T) -> Vec<(&'static str, T)> {
    on_each(backends(), launch)
}

/// `launch` on each of `devices`, paired with the device's name.
fn on_each<T>(
    devices: &'static [(String, Device)],
    mut launch: impl FnMut(&Device) -> T,
) -> Vec<(&'static str, T)> {
    devices
        .iter()
        .map(|(name, dev)| (name.as_str(), launch(dev)))
        .collect()
}

/// [`backends`] with one CPU backend, of its own, that stays unchecked even under
/// `SAREK_CHECKS=1`, for the tests of what faults give (division by zero, reads out of
/// bounds): checked, those stop with `KernelFault`, which other tests cover.
pub(crate) fn unchecked_backends() -> &'static [(String, Device)] {
    static BACKENDS: OnceLock<Vec<(String, Device)>> = OnceLock::new();
    BACKENDS.get_or_init(|| {
        let cpu = Device::cpu();
        cpu.set_checks(false);
        backends()
            .iter()
            .filter(|(_, dev)| !dev.is_cpu())
            .cloned()
            .chain([("the CPU backend".to_string(), cpu)])
            .collect()
    })
}

/// [`on_backends`] over [`unchecked_backends`].
pub(crate) fn on_unchecked_backends<T>(launch: impl FnMut(&Device) -> T) -> Vec<(&'static str, T)> {
    on_each(unchecked_backends(), launch)
}

/// Runs `body` on the host once per invocation of a 1-D grid of `n` threads in workgroups of
/// `wg`, as the GPU would.
pub(crate) fn on_host(n: usize, wg: u32, mut body: impl FnMut()) {
    let groups = (n as u32).div_ceil(wg);
    for g in 0..groups {
        for t in 0..wg {
            let inv = Invocation {
                thread_idx: [t, 0, 0],
                block_idx: [g, 0, 0],
                block_dim: [wg, 1, 1],
                grid_dim: [groups, 1, 1],
            };
            with_invocation(inv, &mut body);
        }
    }
}

/// What the plain-Rust body of a kernel is called in failure messages.
pub(crate) const BODY: &str = "the plain-Rust body";

/// Checks that every backend's outputs agree, output by output (`same(k, got, expected)`),
/// with `reference` (the kernel's plain-Rust body, or the documented result where Rust would
/// panic), and with the first backend's (the GPU's, when there is one). A failure names the
/// kernel, the output and its inputs (`inputs(k)`), the backend and both values.
pub(crate) fn agree<T: Debug>(
    kernel: &str,
    outputs: &[(&str, Vec<T>)],
    reference: Option<(&str, &[T])>,
    same: impl Fn(usize, &T, &T) -> bool,
    inputs: impl Fn(usize) -> String,
) -> Result<(), TestCaseError> {
    let first = (outputs[0].0, outputs[0].1.as_slice());
    let references = reference.into_iter().chain([first]);
    for (reference, expected) in references {
        for (backend, got) in outputs {
            if *backend == reference {
                continue;
            }
            prop_assert_eq!(
                got.len(),
                expected.len(),
                "{}: {} gives {} values, {} {}",
                kernel,
                backend,
                got.len(),
                reference,
                expected.len()
            );
            for (k, (g, e)) in got.iter().zip(expected).enumerate() {
                prop_assert!(
                    same(k, g, e),
                    "{kernel}: {}: {backend} gives {g:?}, {reference} gives {e:?}",
                    inputs(k)
                );
            }
        }
    }
    Ok(())
}

/// Exact equality, for integers and structs.
pub(crate) fn exact<T: PartialEq>(_: usize, a: &T, b: &T) -> bool {
    a == b
}

/// Below `f32`'s normal range (subnormal or zero).
fn tiny(v: f32) -> bool {
    v.abs() < f32::MIN_POSITIVE
}

/// The same `f32`: equal bits (so `-0.0` differs from `0.0`), both NaN, or both below the
/// normal range with one of them subnormal (WGSL lets a device flush subnormals to zero;
/// an H200 does).
pub(crate) fn same_f32(a: f32, b: f32) -> bool {
    a.to_bits() == b.to_bits()
        || (a.is_nan() && b.is_nan())
        || (tiny(a) && tiny(b) && (a.is_subnormal() || b.is_subnormal()))
}

/// [`same_f32`], as an [`agree`] comparison.
fn same_bits(_: usize, a: &f32, b: &f32) -> bool {
    same_f32(*a, *b)
}

/// Within `bound` ULP (`±0` equal, both NaN equal), or both below the normal range.
pub(crate) fn near_f32(a: f32, b: f32, bound: u32) -> bool {
    common::ulps(a, b) <= bound || (tiny(a) && tiny(b))
}

/// Uploads `data` on `dev` (a shorthand).
pub(crate) fn up<T: sarek::Element>(dev: &Device, data: &[T]) -> sarek::Buffer<T> {
    dev.upload(data).unwrap()
}

/// `len` zeros on `dev` (a shorthand).
pub(crate) fn zeros<T: sarek::Element>(dev: &Device, len: usize) -> sarek::Buffer<T> {
    dev.zeros::<T>(len).unwrap()
}

// ---------------------------------------------------------------------------------------------
// Input strategies: random values with the edge values mixed in.

pub(crate) fn i32s() -> impl Strategy<Value = i32> {
    prop_oneof![
        6 => any::<i32>(),
        1 => Just(i32::MIN),
        1 => Just(i32::MAX),
        1 => Just(-1),
        1 => Just(0),
        1 => Just(1),
    ]
}

pub(crate) fn u32s() -> impl Strategy<Value = u32> {
    prop_oneof![
        6 => any::<u32>(),
        1 => Just(0u32),
        1 => Just(1u32),
        1 => Just(u32::MAX),
        1 => Just(1u32 << 31),
        1 => Just(32u32),
    ]
}

/// Any `f32` (`any::<f32>()` gives NaN, infinities, zeros and subnormals too) and the edges.
pub(crate) fn f32s() -> impl Strategy<Value = f32> {
    prop_oneof![
        6 => any::<f32>(),
        3 => prop::sample::select(vec![
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            0.0,
            -0.0,
            f32::MAX,
            f32::MIN,
            f32::MIN_POSITIVE,
            -f32::MIN_POSITIVE,
            0.5,
            -0.5,
            1.5,
            -2.5,
            0.49999997,
            2147483520.0,
            2147483648.0,
            4294967040.0,
            4294967296.0,
            -2147483904.0,
            16777217.0,
            1e10,
            -1e10,
        ]),
        2 => -1e6f32..1e6,
    ]
}

/// [`f32s`] without subnormals (replaced by a zero of the same sign): a device may flush an
/// input to zero, which changes e.g. `1.0 % 1e-40` from a subnormal to NaN.
fn normal_f32s() -> impl Strategy<Value = f32> {
    f32s().prop_map(|v| {
        if v.is_subnormal() {
            0.0f32.copysign(v)
        } else {
            v
        }
    })
}

/// `cases` random cases per test. A failure is shrunk and printed, not saved to a file next
/// to this one: add a printed input as a case of its own where it is worth keeping.
pub(crate) fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

// ---------------------------------------------------------------------------------------------
// The example programs themselves, as modules: their kernels run here exactly as written there.

#[allow(dead_code)]
#[path = "../../examples/interop.rs"]
mod interop_example;
#[allow(dead_code)]
#[path = "../../examples/matmul.rs"]
mod matmul_example;
#[allow(dead_code)]
#[path = "../../examples/particles.rs"]
mod particles_example;
#[allow(dead_code)]
#[path = "../../examples/reduce.rs"]
mod reduce_example;
#[allow(dead_code)]
#[path = "../../examples/saxpy.rs"]
mod saxpy_example;

use interop_example::{scale, ADD_ONE};
use matmul_example::matmul;
use particles_example::physics;
use reduce_example::block_sum;
use saxpy_example::saxpy;

use physics::{Params, Particle, Shape};

/// A multiple of 1/4 in `[-16, 16]`.
fn quarter() -> impl Strategy<Value = f32> {
    (-64i32..=64).prop_map(|k| k as f32 / 4.0)
}

fn point() -> impl Strategy<Value = physics::Vec2> {
    (quarter(), quarter()).prop_map(|(x, y)| physics::Vec2 { x, y })
}

fn shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        (point(), 0i32..=32).prop_map(|(center, r)| Shape::Circle {
            center,
            radius: r as f32 / 4.0
        }),
        (point(), 0i32..=64, 0i32..=64).prop_map(|(lo, w, h)| {
            let hi = physics::Vec2 {
                x: lo.x + w as f32 / 4.0,
                y: lo.y + h as f32 / 4.0,
            };
            Shape::Rect(lo, hi)
        }),
        Just(Shape::Nothing),
    ]
}

/// examples/interop.rs on a GPU device: the application's buffer and pass, then `scale`
/// recorded into the application's encoder, then the pass again; `(x + 1) · factor + 1`.
fn interop_on(dev: &Device, factor: f32, input: &[f32]) -> Vec<f32> {
    use sarek::wgpu;
    let (device, queue) = (dev.wgpu_device(), dev.wgpu_queue());
    let n = input.len();
    let data = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("application data"),
        size: (n * 4) as u64,
        usage: wgpu::BufferUsages::STORAGE
            | wgpu::BufferUsages::COPY_SRC
            | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    queue.write_buffer(&data, 0, bytemuck::cast_slice(input));
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("add one"),
        source: wgpu::ShaderSource::Wgsl(ADD_ONE.into()),
    });
    let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some("add one"),
        layout: None,
        module: &module,
        entry_point: Some("main"),
        compilation_options: Default::default(),
        cache: None,
    });
    let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("add one"),
        layout: &pipeline.get_bind_group_layout(0),
        entries: &[wgpu::BindGroupEntry {
            binding: 0,
            resource: data.as_entire_binding(),
        }],
    });
    let mut shared = sarek::Buffer::<f32>::from_wgpu(dev, data.clone(), 0, n).unwrap();
    let mut encoder = device.create_command_encoder(&Default::default());
    let add_one = |encoder: &mut wgpu::CommandEncoder| {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &bind_group, &[]);
        pass.dispatch_workgroups(n.div_ceil(64) as u32, 1, 1);
    };
    add_one(&mut encoder);
    scale
        .record(dev, &mut encoder, Grid::cover(n), factor, &mut shared)
        .unwrap();
    add_one(&mut encoder);
    queue.submit([encoder.finish()]);
    shared.read().unwrap()
}

/// The dot-product error bound, `(n + 1)·u·Σ|aᵢbᵢ|` with `u = 2⁻²⁴`: how far an `f32` sum of
/// `n` products may be from the exact value, in any order, fused or not.
fn dot_bound(n: usize, abs_sum: f64) -> f64 {
    (n as f64 + 1.0) * f64::from(f32::EPSILON) / 2.0 * abs_sum
}

/// Reduces `xs` to one value on `dev`, as examples/reduce.rs does: `block_sum` launched over
/// the per-workgroup sums until one is left. The first level's sums and the total.
fn reduce_on(dev: &Device, xs: &[f32]) -> (Vec<f32>, f32) {
    let x = dev.upload(xs).unwrap();
    let mut first = None;
    let mut level = x;
    let mut len = xs.len();
    while len > 1 || first.is_none() {
        let groups = len.div_ceil(256);
        let mut sums = dev.zeros::<f32>(groups).unwrap();
        block_sum
            .launch(dev, Grid::cover(len), &level, &mut sums)
            .unwrap();
        level = sums;
        len = groups;
        if first.is_none() {
            first = Some(level.read().unwrap());
        }
    }
    (first.unwrap(), level.read().unwrap()[0])
}

fn matmul_on(dev: &Device, n: usize, a: &[f32], b: &[f32]) -> Vec<f32> {
    let (ab, bb) = (dev.upload(a).unwrap(), dev.upload(b).unwrap());
    let mut c = dev.zeros::<f32>(n * n).unwrap();
    matmul
        .launch(dev, Grid::cover_2d(n, n), n, &ab, &bb, &mut c)
        .unwrap();
    c.read().unwrap()
}

proptest! {
    #![proptest_config(config(48))]

    /// examples/saxpy.rs on every backend and as its body, compared bit for bit: `a·x + y`
    /// is two correctly rounded operations, but WGSL lets a device fuse them into one `fma`
    /// (one rounding): either result is accepted.
    #[test]
    fn example_saxpy(a in normal_f32s(), xy in vec((-1e6f32..1e6, -1e6f32..1e6), 1..200)) {
        let (x, y): (Vec<f32>, Vec<f32>) = xy.into_iter().unzip();
        let n = x.len();
        let outputs = on_backends(|dev| {
            let xb = dev.upload(&x).unwrap();
            let mut yb = dev.upload(&y).unwrap();
            saxpy.launch(dev, Grid::cover(n), a, &xb, &mut yb).unwrap();
            yb.read().unwrap()
        });
        let mut expected = y.clone();
        on_host(n, saxpy::ABI.workgroup_size[0], || saxpy::body(a, &x, &mut expected));
        agree(
            "saxpy",
            &outputs,
            Some((BODY, &expected)),
            // Each backend gives `a * x + y` rounded once or twice (a GPU may fuse it), whatever
            // the other side of the comparison gave.
            |k, g, _| same_f32(*g, a * x[k] + y[k]) || same_f32(*g, a.mul_add(x[k], y[k])),
            |k| format!("y[{k}] with a = {a:?}, x = {:?}, y = {:?}", x[k], y[k]),
        )?;
    }

    /// examples/interop.rs: `scale` launched on every backend and as its body, and on the GPU
    /// also recorded into the application's encoder between its own passes, as the example
    /// does (compared with the body on `x + 1`, then `+ 1`).
    #[test]
    fn example_interop_scale(factor in normal_f32s(), v in vec(-1e6f32..1e6, 1..200)) {
        let n = v.len();
        let outputs = on_backends(|dev| {
            let mut b = dev.upload(&v).unwrap();
            scale.launch(dev, Grid::cover(n), factor, &mut b).unwrap();
            b.read().unwrap()
        });
        let mut expected = v.clone();
        on_host(n, scale::ABI.workgroup_size[0], || scale::body(factor, &mut expected));
        let show = |k: usize| format!("v[{k}] = {:?}, factor = {factor:?}", v[k]);
        agree("scale", &outputs, Some((BODY, &expected)), same_bits, show)?;

        let mut expected: Vec<f32> = v.iter().map(|x| x + 1.0).collect();
        on_host(n, scale::ABI.workgroup_size[0], || scale::body(factor, &mut expected));
        let expected: Vec<f32> = expected.iter().map(|x| x + 1.0).collect();
        for (name, dev) in backends().iter().filter(|(_, dev)| !dev.is_cpu()) {
            let got = interop_on(dev, factor, &v);
            agree(
                "interop (add one, scale, add one)",
                &[(name.as_str(), got)],
                Some((BODY, &expected)),
                same_bits,
                show,
            )?;
        }
    }

    /// examples/particles.rs: structs in a buffer, an enum matched per element, helpers, on
    /// every backend and as the body. Coordinates are multiples of 1/4 and `dt` of 1/4, so
    /// every product and sum is exact in `f32` and a fused multiply-add cannot change a
    /// result or who dies at an obstacle's boundary: compared exactly.
    #[test]
    fn example_particles_step(
        dt in (1i32..=4).prop_map(|k| k as f32 / 4.0),
        gravity in (0i32..=16).prop_map(|k| k as f32 / 2.0),
        world in vec(((point(), point(), any::<bool>()), shape()), 1..200),
    ) {
        let params = Params { dt, gravity };
        let (particles, obstacles): (Vec<Particle>, Vec<Shape>) = world
            .into_iter()
            .map(|((pos, vel, alive), s)| (Particle { pos, vel, alive }, s))
            .unzip();
        let n = particles.len();
        let outputs = on_backends(|dev| {
            let mut pb = dev.upload(&particles).unwrap();
            let sb = dev.upload(&obstacles).unwrap();
            physics::step.launch(dev, Grid::cover(n), params, &mut pb, &sb).unwrap();
            pb.read().unwrap()
        });
        let mut expected = particles.clone();
        let wg = physics::step::ABI.workgroup_size[0];
        on_host(n, wg, || physics::step::body(params, &mut expected, &obstacles));
        agree("physics::step", &outputs, Some((BODY, &expected)), exact, |k| {
            format!("particle {k} = {:?}, obstacle {:?}, {params:?}", particles[k], obstacles[k])
        })?;
    }
}

proptest! {
    #![proptest_config(config(32))]

    /// examples/reduce.rs (workgroup memory and barriers: no body) on every backend, whole
    /// reductions as in the example. Integer-valued inputs: every partial sum is exact, so the
    /// per-workgroup sums and the total equal the plain CPU sum exactly. Random inputs: the
    /// tree's order is the same on every backend (1 ULP allowed) and within the summation
    /// error bound of the exact sum.
    #[test]
    fn example_reduce(
        ints in vec(-1000i32..=1000, 1..1500),
        floats in vec(prop_oneof![-1e3f32..1e3, -1.0f32..1.0], 1..1500),
    ) {
        let xs: Vec<f32> = ints.iter().map(|&v| v as f32).collect();
        let outputs = on_backends(|dev| reduce_on(dev, &xs));
        let blocks: Vec<f32> = ints.chunks(256).map(|c| c.iter().sum::<i32>() as f32).collect();
        let total = ints.iter().sum::<i32>() as f32;
        let per_block: Vec<_> = outputs.iter().map(|(name, o)| (*name, o.0.clone())).collect();
        let plain = "the plain CPU sum";
        agree("block_sum", &per_block, Some((plain, &blocks)), same_bits, |k| {
            let block = &ints[k * 256..(k * 256 + 256).min(ints.len())];
            format!("workgroup {k} of integers {block:?}")
        })?;
        let totals: Vec<_> = outputs.iter().map(|(name, o)| (*name, vec![o.1])).collect();
        agree("block_sum (all levels)", &totals, Some((plain, &[total])), same_bits, |_| {
            format!("the sum of integers {ints:?}")
        })?;

        let outputs = on_backends(|dev| reduce_on(dev, &floats));
        let per_block: Vec<_> = outputs.iter().map(|(name, o)| (*name, o.0.clone())).collect();
        let block = |k: usize| &floats[k * 256..(k * 256 + 256).min(floats.len())];
        agree("block_sum", &per_block, None, |_, g, e| near_f32(*g, *e, 1), |k| {
            format!("workgroup {k} of {:?}", block(k))
        })?;
        for (name, (sums, _)) in &outputs {
            for (k, s) in sums.iter().enumerate() {
                let exact: f64 = block(k).iter().map(|&v| f64::from(v)).sum();
                let abs: f64 = block(k).iter().map(|&v| f64::from(v).abs()).sum();
                // A tree of depth 8: each value goes through 8 additions.
                let bound = 9.0 * f64::from(f32::EPSILON) / 2.0 * abs;
                prop_assert!(
                    (f64::from(*s) - exact).abs() <= bound,
                    "block_sum: workgroup {} of {:?}: {} gives {}, the exact sum is {}",
                    k, block(k), name, s, exact
                );
            }
        }
    }

    /// examples/matmul.rs (tiles in workgroup memory, barriers: no body) on every backend,
    /// with small integer entries: every product and sum is exact, so compared exactly with
    /// the plain CPU product.
    #[test]
    fn example_matmul_integers(
        (n, a, b) in (1usize..=40).prop_flat_map(|n| {
            (Just(n), vec(-6i32..=6, n * n), vec(-6i32..=6, n * n))
        }),
    ) {
        let af: Vec<f32> = a.iter().map(|&v| v as f32).collect();
        let bf: Vec<f32> = b.iter().map(|&v| v as f32).collect();
        let outputs = on_backends(|dev| matmul_on(dev, n, &af, &bf));
        let expected: Vec<f32> = (0..n * n)
            .map(|rc| {
                let (r, c) = (rc / n, rc % n);
                (0..n).map(|k| a[r * n + k] * b[k * n + c]).sum::<i32>() as f32
            })
            .collect();
        let reference = Some(("the plain CPU product", expected.as_slice()));
        agree("matmul", &outputs, reference, same_bits, |rc| {
            format!("c[{}][{}] of a = {a:?}, b = {b:?} ({n}×{n})", rc / n, rc % n)
        })?;
    }

    /// examples/matmul.rs with random entries in [-1, 1]. The summation order is the same on
    /// every backend, but WGSL lets a device fuse `acc += a·b`, which under cancellation is
    /// more than a few ULP: the backends agree within 2 ULP or twice the dot-product error
    /// bound, and each is within that bound of the exact product.
    #[test]
    fn example_matmul_floats(
        (n, a, b) in (1usize..=40).prop_flat_map(|n| {
            (Just(n), vec(-1.0f32..1.0, n * n), vec(-1.0f32..1.0, n * n))
        }),
    ) {
        let outputs = on_backends(|dev| matmul_on(dev, n, &a, &b));
        let (exact, abs): (Vec<f64>, Vec<f64>) = (0..n * n)
            .map(|rc| {
                let (r, c) = (rc / n, rc % n);
                let terms = (0..n).map(|k| f64::from(a[r * n + k]) * f64::from(b[k * n + c]));
                (terms.clone().sum::<f64>(), terms.map(f64::abs).sum::<f64>())
            })
            .unzip();
        let show = |rc: usize| format!("c[{}][{}] of a = {a:?}, b = {b:?} ({n}×{n})", rc / n, rc % n);
        agree("matmul", &outputs, None, |rc, g, e| {
            near_f32(*g, *e, 2) || f64::from(g - e).abs() <= 2.0 * dot_bound(n, abs[rc])
        }, show)?;
        for (name, c) in &outputs {
            for (rc, v) in c.iter().enumerate() {
                prop_assert!(
                    (f64::from(*v) - exact[rc]).abs() <= dot_bound(n, abs[rc]),
                    "matmul: {}: {} gives {}, the exact product is {}",
                    show(rc), name, v, exact[rc]
                );
            }
        }
    }
}

// The semantic rules (README.md, "Rust's meaning on the GPU"), one kernel each.
mod semantics;
pub(crate) use semantics::{nth, polyfill_args};

mod cooperating;
