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
/// a failure without one under `SAREK_REQUIRE_GPU=1`), then always the CPU backend. Under
/// `SAREK_DEVICE=cpu`, or without a GPU, that is the CPU backend alone, run once. Created once:
/// creating a device is slow.
pub(crate) fn backends() -> &'static [(String, Device)] {
    static BACKENDS: OnceLock<Vec<(String, Device)>> = OnceLock::new();
    BACKENDS.get_or_init(|| {
        let mut all = Vec::new();
        if let Some(dev) = common::device().filter(|d| !d.is_cpu()) {
            all.push((format!("the GPU ({})", dev.name()), dev));
        }
        all.push(("the CPU backend".to_string(), Device::cpu()));
        all
    })
}

/// Runs `launch` on every backend; each backend's name with what it returned.
pub(crate) fn on_backends<T>(mut launch: impl FnMut(&Device) -> T) -> Vec<(&'static str, T)> {
    backends()
        .iter()
        .map(|(name, dev)| (name.as_str(), launch(dev)))
        .collect()
}

/// [`backends`] with a CPU backend of its own that stays unchecked under `SAREK_CHECKS=1`, for
/// the tests of what faults give (division by zero, reads out of bounds): checked, those stop
/// with `KernelFault`, which other tests cover.
pub(crate) fn unchecked_backends() -> &'static [(String, Device)] {
    static BACKENDS: OnceLock<Vec<(String, Device)>> = OnceLock::new();
    BACKENDS.get_or_init(|| {
        backends()
            .iter()
            .map(|(name, dev)| {
                if dev.is_cpu() {
                    let cpu = Device::cpu();
                    cpu.set_checks(false);
                    (name.clone(), cpu)
                } else {
                    (name.clone(), dev.clone())
                }
            })
            .collect()
    })
}

/// [`on_backends`] over [`unchecked_backends`].
pub(crate) fn on_unchecked_backends<T>(
    mut launch: impl FnMut(&Device) -> T,
) -> Vec<(&'static str, T)> {
    unchecked_backends()
        .iter()
        .map(|(name, dev)| (name.as_str(), launch(dev)))
        .collect()
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

// ---------------------------------------------------------------------------------------------
// The semantic rules (README.md, "Rust's meaning on the GPU"), one kernel each.

/// Output `k` of a kernel that writes `names.len()` outputs per element: the element and the
/// output's name.
pub(crate) fn nth(names: &[&'static str], k: usize) -> (usize, &'static str) {
    (k / names.len(), names[k % names.len()])
}

/// `f32 % f32` is C's `fmod`: exact, also for huge quotients, and `x % ±inf == x`.
#[sarek::kernel(workgroup_size = [64])]
fn remainders(x: &[f32], y: &[f32], out: &mut [f32]) {
    let i = global_thread_id();
    if i < x.len() {
        out[i] = x[i] % y[i];
    }
}

const INT_ARITH: [&str; 10] = [
    "wrapping_add",
    "wrapping_sub",
    "wrapping_mul",
    "wrapping_neg",
    "wrapping_div",
    "wrapping_rem",
    "/",
    "%",
    "(x >> 1) + (y >> 1)",
    "(x >> 16) * (y >> 16) - (x & 255)",
];

/// Integer `/` and `%` truncate, `i32::MIN / -1` wraps, overflow wraps.
#[sarek::kernel(workgroup_size = [64])]
fn int_arith(a: &[i32], b: &[i32], out: &mut [i32]) {
    let i = global_thread_id();
    if i < a.len() {
        let (x, y) = (a[i], b[i]);
        let o = i * 10;
        out[o] = x.wrapping_add(y);
        out[o + 1] = x.wrapping_sub(y);
        out[o + 2] = x.wrapping_mul(y);
        out[o + 3] = x.wrapping_neg();
        out[o + 4] = if y != 0 { x.wrapping_div(y) } else { 0 };
        out[o + 5] = if y != 0 { x.wrapping_rem(y) } else { 0 };
        // The operators, where Rust defines them.
        let defined = y != 0 && (x != i32::MIN || y != -1);
        out[o + 6] = if defined { x / y } else { 0 };
        out[o + 7] = if defined { x % y } else { 0 };
        out[o + 8] = (x >> 1) + (y >> 1);
        out[o + 9] = (x >> 16) * (y >> 16) - (x & 255);
    }
}

const UINT_ARITH: [&str; 8] = [
    "wrapping_add",
    "wrapping_sub",
    "wrapping_mul",
    "wrapping_neg",
    "wrapping_div",
    "/",
    "%",
    "(x >> 1) + (y >> 1)",
];

#[sarek::kernel(workgroup_size = [64])]
fn uint_arith(a: &[u32], b: &[u32], out: &mut [u32]) {
    let i = global_thread_id();
    if i < a.len() {
        let (x, y) = (a[i], b[i]);
        let o = i * 8;
        out[o] = x.wrapping_add(y);
        out[o + 1] = x.wrapping_sub(y);
        out[o + 2] = x.wrapping_mul(y);
        out[o + 3] = x.wrapping_neg();
        out[o + 4] = if y != 0 { x.wrapping_div(y) } else { 0 };
        out[o + 5] = if y != 0 { x / y } else { 0 };
        out[o + 6] = if y != 0 { x % y } else { 0 };
        out[o + 7] = (x >> 1) + (y >> 1);
    }
}

const DIVISIONS: [&str; 3] = ["/", "%", "rem_euclid"];

/// Division by anything, zero included, where Rust panics: no body; the documented results
/// `x / 0 == x`, `x % 0 == 0` (`rem_euclid` too), `i32::MIN / -1 == i32::MIN`,
/// `i32::MIN % -1 == 0`.
#[sarek::kernel(workgroup_size = [64])]
fn divisions(a: &[i32], b: &[i32], ua: &[u32], ub: &[u32], out: &mut [i32], uout: &mut [u32]) {
    let i = global_thread_id();
    if i < a.len() {
        out[i * 3] = a[i] / b[i];
        out[i * 3 + 1] = a[i] % b[i];
        out[i * 3 + 2] = a[i].rem_euclid(b[i]);
        uout[i * 3] = ua[i] / ub[i];
        uout[i * 3 + 1] = ua[i] % ub[i];
        uout[i * 3 + 2] = ua[i].rem_euclid(ub[i]);
    }
}

const FLOAT_CONVERSIONS: [&str; 3] = ["x.round()", "n as f32", "u as f32"];
const INT_CONVERSIONS: [&str; 2] = ["x as i32", "u as i32"];
const UINT_CONVERSIONS: [&str; 2] = ["x as u32", "n as u32"];

/// `round` half away from zero, saturating `f32` to integer casts (NaN to 0), integers to
/// `f32` rounded like Rust.
#[sarek::kernel(workgroup_size = [64])]
fn conversions(
    x: &[f32],
    n: &[i32],
    u: &[u32],
    fout: &mut [f32],
    iout: &mut [i32],
    uout: &mut [u32],
) {
    let i = global_thread_id();
    if i < x.len() {
        fout[i * 3] = x[i].round();
        fout[i * 3 + 1] = n[i] as f32;
        fout[i * 3 + 2] = u[i] as f32;
        iout[i * 2] = x[i] as i32;
        iout[i * 2 + 1] = u[i] as i32;
        uout[i * 2] = x[i] as u32;
        uout[i * 2 + 1] = n[i] as u32;
    }
}

const FLOAT_CONSTANTS: [&str; 3] = [
    "one of INFINITY, NAN, MIN_POSITIVE, NEG_INFINITY, -MIN_POSITIVE, x",
    "x / f32::MIN_POSITIVE",
    "x + f32::INFINITY",
];
const INT_CONSTANTS: [&str; 3] = [
    "i32::MIN or n",
    "n ^ i32::MIN",
    "NaN and infinity tests (bits)",
];
const UINT_CONSTANTS: [&str; 2] = ["u32::MAX or n", "u32::MAX - n"];

/// The constants keep their exact value, chosen at run time so that no constant folding
/// hides them; NaN compares unequal (`==` false) to everything, itself included.
#[sarek::kernel(workgroup_size = [64])]
#[allow(invalid_nan_comparisons)]
fn constants(
    sel: &[u32],
    x: &[f32],
    n: &[i32],
    fout: &mut [f32],
    iout: &mut [i32],
    uout: &mut [u32],
) {
    let i = global_thread_id();
    if i < x.len() {
        let s = sel[i] % 6;
        let v = x[i];
        let f = if s == 0 {
            f32::INFINITY
        } else if s == 1 {
            f32::NAN
        } else if s == 2 {
            f32::MIN_POSITIVE
        } else if s == 3 {
            f32::NEG_INFINITY
        } else if s == 4 {
            -f32::MIN_POSITIVE
        } else {
            v
        };
        fout[i * 3] = f;
        fout[i * 3 + 1] = v / f32::MIN_POSITIVE;
        fout[i * 3 + 2] = v + f32::INFINITY;
        iout[i * 3] = if s == 0 { i32::MIN } else { n[i] };
        iout[i * 3 + 1] = n[i] ^ i32::MIN;
        // (`!=` on a NaN is `nan_is_not_equal_to_itself`'s.)
        iout[i * 3 + 2] = (f == f) as i32
            + (f == f32::INFINITY) as i32 * 2
            + (f < f32::INFINITY) as i32 * 4
            + (f == f32::NAN) as i32 * 8
            + (f32::NAN == f32::NAN) as i32 * 16
            + (f > f32::NEG_INFINITY) as i32 * 32;
        uout[i * 2] = if s == 1 { u32::MAX } else { n[i] as u32 };
        uout[i * 2 + 1] = u32::MAX - n[i] as u32;
    }
}

const SHIFTS: [&str; 4] = ["x << s", "x >> s", "x << t", "x >> t"];

/// Shifts mask their amount (`u32` or `i32`), `>>` arithmetic on `i32`, logical on `u32`:
/// the methods, with a body.
#[sarek::kernel(workgroup_size = [64])]
fn shift_methods(a: &[i32], u: &[u32], s: &[u32], t: &[i32], out: &mut [i32], uout: &mut [u32]) {
    let i = global_thread_id();
    if i < a.len() {
        out[i * 4] = a[i].wrapping_shl(s[i]);
        out[i * 4 + 1] = a[i].wrapping_shr(s[i]);
        out[i * 4 + 2] = a[i].wrapping_shl(t[i] as u32);
        out[i * 4 + 3] = a[i].wrapping_shr(t[i] as u32);
        uout[i * 4] = u[i].wrapping_shl(s[i]);
        uout[i * 4 + 1] = u[i].wrapping_shr(s[i]);
        uout[i * 4 + 2] = u[i].wrapping_shl(t[i] as u32);
        uout[i * 4 + 3] = u[i].wrapping_shr(t[i] as u32);
    }
}

/// The operators, with any amount: Rust panics (debug) for 32 and more, so no body.
#[sarek::kernel(workgroup_size = [64])]
fn shift_operators(a: &[i32], u: &[u32], s: &[u32], t: &[i32], out: &mut [i32], uout: &mut [u32]) {
    let i = global_thread_id();
    if i < a.len() {
        out[i * 4] = a[i] << s[i];
        out[i * 4 + 1] = a[i] >> s[i];
        out[i * 4 + 2] = a[i] << t[i];
        out[i * 4 + 3] = a[i] >> t[i];
        uout[i * 4] = u[i] << s[i];
        uout[i * 4 + 1] = u[i] >> s[i];
        uout[i * 4 + 2] = u[i] << t[i];
        uout[i * 4 + 3] = u[i] >> t[i];
    }
}

const RANGES: [&str; 14] = [
    "a..end (end changed in the body)",
    "a..=end (end changed in the body)",
    "(a..b).rev() with continue",
    "(a..=b).rev()",
    "(a..b).step_by(k)",
    "(a..=b).step_by(k)",
    "(a..b).rev().step_by(k)",
    "(a..b).step_by(k).rev()",
    "(a..=b).rev().step_by(k)",
    "ua..=ub with break",
    "(ua..=ub).rev().step_by(k)",
    "(ua..ub).step_by(k).rev()",
    "a..=i32::MAX",
    "(ua..=u32::MAX).step_by(k)",
];

/// `for` over ranges: bounds read once, ranges ending at the maximum terminate, `.rev()`,
/// `.step_by(k)` and their combinations; each form's iterations hashed in order and counted.
#[sarek::kernel(workgroup_size = [64])]
#[allow(unused_assignments)]
fn ranges(lo: &[i32], hi: &[i32], step: &[u32], ulo: &[u32], uhi: &[u32], out: &mut [u32]) {
    let i = global_thread_id();
    if i < lo.len() {
        let (a, b, k) = (lo[i], hi[i], step[i] as usize);
        let (ua, ub) = (ulo[i], uhi[i]);
        let mut h = [0u32; 14];
        let mut n = [0u32; 14];
        let mut end = b;
        for v in a..end {
            end = a;
            h[0] = h[0].wrapping_mul(31).wrapping_add(v as u32);
            n[0] += 1;
        }
        let mut end2 = b;
        for v in a..=end2 {
            end2 = a;
            h[1] = h[1].wrapping_mul(31).wrapping_add(v as u32);
            n[1] += 1;
        }
        for v in (a..b).rev() {
            if v % 3 == 0 {
                continue;
            }
            h[2] = h[2].wrapping_mul(31).wrapping_add(v as u32);
            n[2] += 1;
        }
        for v in (a..=b).rev() {
            h[3] = h[3].wrapping_mul(31).wrapping_add(v as u32);
            n[3] += 1;
        }
        for v in (a..b).step_by(k) {
            h[4] = h[4].wrapping_mul(31).wrapping_add(v as u32);
            n[4] += 1;
        }
        for v in (a..=b).step_by(k) {
            h[5] = h[5].wrapping_mul(31).wrapping_add(v as u32);
            n[5] += 1;
        }
        for v in (a..b).rev().step_by(k) {
            h[6] = h[6].wrapping_mul(31).wrapping_add(v as u32);
            n[6] += 1;
        }
        for v in (a..b).step_by(k).rev() {
            h[7] = h[7].wrapping_mul(31).wrapping_add(v as u32);
            n[7] += 1;
        }
        for v in (a..=b).rev().step_by(k) {
            h[8] = h[8].wrapping_mul(31).wrapping_add(v as u32);
            n[8] += 1;
        }
        for v in ua..=ub {
            if k == 4 && v == ub.wrapping_sub(2) {
                break;
            }
            h[9] = h[9].wrapping_mul(31).wrapping_add(v);
            n[9] += 1;
        }
        for v in (ua..=ub).rev().step_by(k) {
            h[10] = h[10].wrapping_mul(31).wrapping_add(v);
            n[10] += 1;
        }
        for v in (ua..ub).step_by(k).rev() {
            h[11] = h[11].wrapping_mul(31).wrapping_add(v);
            n[11] += 1;
        }
        if a > i32::MAX - 64 {
            for v in a..=i32::MAX {
                h[12] = h[12].wrapping_mul(31).wrapping_add(v as u32);
                n[12] += 1;
            }
        }
        if ua > u32::MAX - 64 {
            for v in (ua..=u32::MAX).step_by(k) {
                h[13] = h[13].wrapping_mul(31).wrapping_add(v);
                n[13] += 1;
            }
        }
        for j in 0..14 {
            out[i * 28 + 2 * j] = h[j];
            out[i * 28 + 2 * j + 1] = n[j];
        }
    }
}

/// Arguments of the polyfills: tests/it/semantics.rs's domain (normal values of magnitude
/// 1e-30 to 1e30, kept away from subnormal results that a device may flush), edge values
/// (NaN, infinities and zeros included: the polyfills give Rust's result there too), and
/// the domains of `acosh` and `atanh`. No subnormal arguments: the device's own `log2` and
/// `pow` (under `log2`, `log10`, `cbrt`) are not accurate there.
pub(crate) fn polyfill_args() -> impl Strategy<Value = f32> {
    prop_oneof![
        4 => any::<u32>().prop_map(f32::from_bits).prop_filter("normal, 1e-30 to 1e30", |v| {
            v.is_finite() && v.abs() > 1e-30 && v.abs() < 1e30
        }),
        2 => -10.0f32..10.0,
        1 => 1.0f32..20.0,
        1 => -1.0f32..1.0,
        1 => prop::sample::select(vec![
            0.0f32, -0.0, 1.0, -1.0, 0.5, -0.5, 1e-7, -1e-7, 2.0, 3.0, 10.0, 1000.0, 1e10,
            -1e10, 3.4e38, 0.999, -0.999, 1.0001, -7.25, f32::NAN, f32::INFINITY,
            f32::NEG_INFINITY, f32::MAX, f32::MIN, f32::MIN_POSITIVE,
        ]),
    ]
}

/// The integer methods, exactly (as in tests/it/semantics.rs, with the body's panics avoided).
#[sarek::kernel(workgroup_size = [64])]
fn int_methods(x: &[i32], y: &[i32], out: &mut [i32], uout: &mut [u32]) {
    let i = global_thread_id();
    if i < x.len() {
        let a = x[i];
        let b = y[i];
        let ua = a as u32;
        let ub = b as u32;
        let o = i * 10;
        out[o] = a.min(b);
        out[o + 1] = a.max(b);
        out[o + 2] = a.wrapping_abs();
        out[o + 3] = if a != i32::MIN { a.abs() } else { 0 };
        out[o + 4] = a.wrapping_pow((b & 7) as u32);
        out[o + 5] = a.wrapping_pow(ub);
        out[o + 6] = if b != 0 && (a != i32::MIN || b != -1) {
            a.rem_euclid(b)
        } else {
            0
        };
        out[o + 7] = a.clamp(-100, 100);
        out[o + 8] = a.wrapping_neg();
        out[o + 9] = if b != 0 {
            a.wrapping_div(b).wrapping_add(a.wrapping_rem(b))
        } else {
            0
        };
        uout[o] = a.count_ones();
        uout[o + 1] = a.leading_zeros();
        uout[o + 2] = a.trailing_zeros();
        uout[o + 3] = ua.count_ones() + ua.leading_zeros() * 100 + ua.trailing_zeros() * 10000;
        uout[o + 4] = ua.wrapping_pow(ub & 15);
        uout[o + 5] = ua.wrapping_pow(ub);
        uout[o + 6] = if ub != 0 { ua.rem_euclid(ub) } else { 0 };
        uout[o + 7] = ua.clamp(10, 1000);
        uout[o + 8] = ua.min(ub) ^ ua.max(ub).wrapping_mul(3);
        uout[o + 9] = ua.wrapping_shl(ub) ^ ua.wrapping_shr(ub.wrapping_add(3));
    }
}

const INT_METHODS: [&str; 10] = [
    "min",
    "max",
    "wrapping_abs",
    "abs",
    "wrapping_pow(y & 7)",
    "wrapping_pow(y as u32)",
    "rem_euclid",
    "clamp(-100, 100)",
    "wrapping_neg",
    "wrapping_div + wrapping_rem",
];

const UINT_METHODS: [&str; 10] = [
    "i32 count_ones",
    "i32 leading_zeros",
    "i32 trailing_zeros",
    "u32 count_ones, leading_zeros, trailing_zeros",
    "wrapping_pow(y & 15)",
    "wrapping_pow(y)",
    "rem_euclid",
    "clamp(10, 1000)",
    "min ^ max * 3",
    "wrapping_shl ^ wrapping_shr",
];

/// A gather: an index past the end of `src` is out of bounds.
#[sarek::kernel(workgroup_size = [64])]
fn gather(idx: &[u32], src: &[i32], out: &mut [i32]) {
    let i = global_thread_id();
    if i < out.len() {
        out[i] = src[idx[i] as usize];
    }
}

/// A mix of the integer rules in one kernel.
#[sarek::kernel(workgroup_size = [64])]
fn int_rules(a: &[i32], b: &[i32], out: &mut [i32]) {
    let i = global_thread_id();
    if i < a.len() {
        let (x, y) = (a[i], b[i]);
        let o = i * 8;
        out[o] = x.wrapping_add(y).wrapping_mul(3);
        out[o + 1] = x.wrapping_sub(y) >> (y & 31);
        out[o + 2] = x << (y & 31);
        out[o + 3] = if y != 0 { x.wrapping_div(y) } else { 0 };
        out[o + 4] = if y != 0 { x.wrapping_rem(y) } else { 0 };
        out[o + 5] = ((x as u32) >> (y as u32 & 31)) as i32;
        out[o + 6] = (x as f32 * 0.5) as i32;
        out[o + 7] = x.wrapping_abs().min(y).max(-7) ^ y.count_ones() as i32;
    }
}

/// A mix of the float rules in one kernel.
#[sarek::kernel(workgroup_size = [64])]
fn float_rules(a: &[f32], b: &[f32], out: &mut [f32]) {
    let i = global_thread_id();
    if i < a.len() {
        let (x, y) = (a[i], b[i]);
        let o = i * 6;
        out[o] = x % y;
        out[o + 1] = x.round();
        out[o + 2] = x.rem_euclid(y);
        out[o + 3] = x.clamp(-1.0, 1.0) * y.signum();
        out[o + 4] = x.hypot(y);
        out[o + 5] = (x as i32) as f32 + (y as u32) as f32;
    }
}

/// Uploads `data` on `dev` (a shorthand).
pub(crate) fn up<T: sarek::Element>(dev: &Device, data: &[T]) -> sarek::Buffer<T> {
    dev.upload(data).unwrap()
}

/// `len` zeros on `dev` (a shorthand).
pub(crate) fn zeros<T: sarek::Element>(dev: &Device, len: usize) -> sarek::Buffer<T> {
    dev.zeros::<T>(len).unwrap()
}

/// `(lo, hi)`: `lo` random or at an edge, `hi` at most 48 past it (saturating at the
/// maximum, so that ranges up to the maximum occur), or a little below it (empty ranges).
fn i32_bounds() -> impl Strategy<Value = (i32, i32)> {
    let lo = prop_oneof![
        3 => any::<i32>(),
        1 => Just(i32::MIN),
        1 => Just(i32::MAX - 40),
        1 => Just(i32::MAX),
        1 => Just(-20),
    ];
    (lo, -4i32..48).prop_map(|(lo, len)| (lo, lo.saturating_add(len)))
}

fn u32_bounds() -> impl Strategy<Value = (u32, u32)> {
    let lo = prop_oneof![
        3 => any::<u32>(),
        1 => Just(0u32),
        1 => Just(u32::MAX - 40),
        1 => Just(u32::MAX),
    ];
    (lo, -4i32..48).prop_map(|(lo, len)| (lo, lo.saturating_add_signed(len)))
}

proptest! {
    #![proptest_config(config(48))]

    #[test]
    fn float_remainder_is_c_fmod(
        xy in vec((normal_f32s(), prop_oneof![
            4 => normal_f32s(),
            1 => Just(f32::INFINITY),
            1 => Just(f32::NEG_INFINITY),
            2 => 1e-3f32..10.0,
        ]), 1..200),
    ) {
        let (x, y): (Vec<f32>, Vec<f32>) = xy.into_iter().unzip();
        let n = x.len();
        let outputs = on_backends(|dev| {
            let mut out = zeros::<f32>(dev, n);
            remainders.launch(dev, Grid::cover(n), &up(dev, &x), &up(dev, &y), &mut out).unwrap();
            out.read().unwrap()
        });
        let mut expected = vec![0f32; n];
        on_host(n, 64, || remainders::body(&x, &y, &mut expected));
        agree("remainders", &outputs, Some((BODY, &expected)), same_bits, |k| {
            format!("{:?} % {:?}", x[k], y[k])
        })?;
    }

    #[test]
    fn integer_arithmetic_truncates_and_wraps(
        ab in vec((i32s(), i32s()), 1..200),
        uab in vec((u32s(), u32s()), 1..200),
    ) {
        let (a, b): (Vec<i32>, Vec<i32>) = ab.into_iter().unzip();
        let n = a.len();
        let outputs = on_backends(|dev| {
            let mut out = zeros::<i32>(dev, n * 10);
            int_arith.launch(dev, Grid::cover(n), &up(dev, &a), &up(dev, &b), &mut out).unwrap();
            out.read().unwrap()
        });
        let mut expected = vec![0i32; n * 10];
        on_host(n, 64, || int_arith::body(&a, &b, &mut expected));
        agree("int_arith", &outputs, Some((BODY, &expected)), exact, |k| {
            let (e, name) = nth(&INT_ARITH, k);
            format!("{name} of x = {}, y = {}", a[e], b[e])
        })?;

        let (a, b): (Vec<u32>, Vec<u32>) = uab.into_iter().unzip();
        let n = a.len();
        let outputs = on_backends(|dev| {
            let mut out = zeros::<u32>(dev, n * 8);
            uint_arith.launch(dev, Grid::cover(n), &up(dev, &a), &up(dev, &b), &mut out).unwrap();
            out.read().unwrap()
        });
        let mut expected = vec![0u32; n * 8];
        on_host(n, 64, || uint_arith::body(&a, &b, &mut expected));
        agree("uint_arith", &outputs, Some((BODY, &expected)), exact, |k| {
            let (e, name) = nth(&UINT_ARITH, k);
            format!("{name} of x = {}, y = {}", a[e], b[e])
        })?;
    }

    /// Division by zero and `i32::MIN / -1`, where Rust panics: the backends agree exactly
    /// with each other and with the documented results.
    #[test]
    fn division_by_zero_is_defined(
        ab in vec((i32s(), prop_oneof![3 => Just(0i32), 1 => Just(-1i32), 2 => i32s()]), 1..200),
        uab in vec((u32s(), prop_oneof![1 => Just(0u32), 1 => u32s()]), 1..200),
    ) {
        // Same lengths for both halves: one launch.
        let n = ab.len().min(uab.len());
        let (a, b): (Vec<i32>, Vec<i32>) = ab[..n].iter().copied().unzip();
        let (ua, ub): (Vec<u32>, Vec<u32>) = uab[..n].iter().copied().unzip();
        let outputs = on_unchecked_backends(|dev| {
            let (mut out, mut uout) = (zeros::<i32>(dev, n * 3), zeros::<u32>(dev, n * 3));
            divisions
                .launch(
                    dev,
                    Grid::cover(n),
                    &up(dev, &a),
                    &up(dev, &b),
                    &up(dev, &ua),
                    &up(dev, &ub),
                    &mut out,
                    &mut uout,
                )
                .unwrap();
            (out.read().unwrap(), uout.read().unwrap())
        });
        let documented: Vec<i32> = a
            .iter()
            .zip(&b)
            .flat_map(|(&x, &y)| match y {
                0 => [x, 0, 0],
                _ => [x.wrapping_div(y), x.wrapping_rem(y), x.wrapping_rem_euclid(y)],
            })
            .collect();
        let udocumented: Vec<u32> = ua
            .iter()
            .zip(&ub)
            .flat_map(|(&x, &y)| match y {
                0 => [x, 0, 0],
                _ => [x / y, x % y, x.rem_euclid(y)],
            })
            .collect();
        let (signed, unsigned): (Vec<_>, Vec<_>) = outputs
            .into_iter()
            .map(|(name, (o, u))| ((name, o), (name, u)))
            .unzip();
        agree("divisions", &signed, Some(("the documented result", &documented)), exact, |k| {
            let (e, name) = nth(&DIVISIONS, k);
            format!("i32 {name} of x = {}, y = {}", a[e], b[e])
        })?;
        agree("divisions", &unsigned, Some(("the documented result", &udocumented)), exact, |k| {
            let (e, name) = nth(&DIVISIONS, k);
            format!("u32 {name} of x = {}, y = {}", ua[e], ub[e])
        })?;
    }

    #[test]
    fn round_and_casts_follow_rust(
        xnu in vec((f32s(), prop_oneof![3 => i32s(), 1 => -(1i32 << 25)..(1 << 25)], u32s()), 1..200),
    ) {
        let (x, nu): (Vec<f32>, Vec<(i32, u32)>) = xnu.into_iter().map(|(x, n, u)| (x, (n, u))).unzip();
        let (n, u): (Vec<i32>, Vec<u32>) = nu.into_iter().unzip();
        let len = x.len();
        let outputs = on_backends(|dev| {
            let mut f = zeros::<f32>(dev, len * 3);
            let (mut i, mut uo) = (zeros::<i32>(dev, len * 2), zeros::<u32>(dev, len * 2));
            conversions
                .launch(dev, Grid::cover(len), &up(dev, &x), &up(dev, &n), &up(dev, &u), &mut f, &mut i, &mut uo)
                .unwrap();
            (f.read().unwrap(), i.read().unwrap(), uo.read().unwrap())
        });
        let (mut f, mut i, mut uo) = (vec![0f32; len * 3], vec![0i32; len * 2], vec![0u32; len * 2]);
        on_host(len, 64, || conversions::body(&x, &n, &u, &mut f, &mut i, &mut uo));
        let show = |names: &[&'static str], k: usize| {
            let (e, name) = nth(names, k);
            format!("{name} with x = {:?}, n = {}, u = {}", x[e], n[e], u[e])
        };
        let fo: Vec<_> = outputs.iter().map(|(name, o)| (*name, o.0.clone())).collect();
        agree("conversions", &fo, Some((BODY, &f)), same_bits, |k| show(&FLOAT_CONVERSIONS, k))?;
        let io: Vec<_> = outputs.iter().map(|(name, o)| (*name, o.1.clone())).collect();
        agree("conversions", &io, Some((BODY, &i)), exact, |k| show(&INT_CONVERSIONS, k))?;
        let uoo: Vec<_> = outputs.iter().map(|(name, o)| (*name, o.2.clone())).collect();
        agree("conversions", &uoo, Some((BODY, &uo)), exact, |k| show(&UINT_CONVERSIONS, k))?;
    }

    /// `i32::MIN`, `u32::MAX`, `f32::INFINITY`, `f32::NAN`, `f32::MIN_POSITIVE`: compared bit
    /// for bit (NaN as "both NaN").
    #[test]
    fn constants_keep_their_value(input in vec((any::<u32>(), normal_f32s(), i32s()), 1..200)) {
        let len = input.len();
        let sel: Vec<u32> = input.iter().map(|v| v.0).collect();
        let x: Vec<f32> = input.iter().map(|v| v.1).collect();
        let n: Vec<i32> = input.iter().map(|v| v.2).collect();
        let outputs = on_backends(|dev| {
            let (mut f, mut i) = (zeros::<f32>(dev, len * 3), zeros::<i32>(dev, len * 3));
            let mut u = zeros::<u32>(dev, len * 2);
            constants
                .launch(dev, Grid::cover(len), &up(dev, &sel), &up(dev, &x), &up(dev, &n), &mut f, &mut i, &mut u)
                .unwrap();
            (f.read().unwrap(), i.read().unwrap(), u.read().unwrap())
        });
        let (mut f, mut i, mut u) = (vec![0f32; len * 3], vec![0i32; len * 3], vec![0u32; len * 2]);
        on_host(len, 64, || constants::body(&sel, &x, &n, &mut f, &mut i, &mut u));
        let show = |names: &[&'static str], k: usize| {
            let (e, name) = nth(names, k);
            format!("{name} with selector {}, x = {:?}, n = {}", sel[e] % 6, x[e], n[e])
        };
        let fo: Vec<_> = outputs.iter().map(|(name, o)| (*name, o.0.clone())).collect();
        agree("constants", &fo, Some((BODY, &f)), same_bits, |k| show(&FLOAT_CONSTANTS, k))?;
        let io: Vec<_> = outputs.iter().map(|(name, o)| (*name, o.1.clone())).collect();
        agree("constants", &io, Some((BODY, &i)), exact, |k| show(&INT_CONSTANTS, k))?;
        let uo: Vec<_> = outputs.iter().map(|(name, o)| (*name, o.2.clone())).collect();
        agree("constants", &uo, Some((BODY, &u)), exact, |k| show(&UINT_CONSTANTS, k))?;
    }

    /// Shift amounts from any integer, masked like `wrapping_shl`/`wrapping_shr`: the methods
    /// against their body, the operators (a panic in Rust from 32 on) against the methods.
    #[test]
    fn shifts_mask_their_amount(input in vec((i32s(), u32s(), u32s(), i32s()), 1..200)) {
        let len = input.len();
        let a: Vec<i32> = input.iter().map(|v| v.0).collect();
        let u: Vec<u32> = input.iter().map(|v| v.1).collect();
        let s: Vec<u32> = input.iter().map(|v| v.2).collect();
        let t: Vec<i32> = input.iter().map(|v| v.3).collect();
        let (mut out, mut uout) = (vec![0i32; len * 4], vec![0u32; len * 4]);
        on_host(len, 64, || shift_methods::body(&a, &u, &s, &t, &mut out, &mut uout));
        let show = |k: usize| {
            let (e, name) = nth(&SHIFTS, k);
            format!("{name} with x = {}, u = {}, s = {}, t = {}", a[e], u[e], s[e], t[e])
        };
        let methods = on_backends(|dev| {
            let (mut o, mut uo) = (zeros::<i32>(dev, len * 4), zeros::<u32>(dev, len * 4));
            shift_methods
                .launch(dev, Grid::cover(len), &up(dev, &a), &up(dev, &u), &up(dev, &s), &up(dev, &t), &mut o, &mut uo)
                .unwrap();
            (o.read().unwrap(), uo.read().unwrap())
        });
        let operators = on_backends(|dev| {
            let (mut o, mut uo) = (zeros::<i32>(dev, len * 4), zeros::<u32>(dev, len * 4));
            shift_operators
                .launch(dev, Grid::cover(len), &up(dev, &a), &up(dev, &u), &up(dev, &s), &up(dev, &t), &mut o, &mut uo)
                .unwrap();
            (o.read().unwrap(), uo.read().unwrap())
        });
        for (kernel, outputs, reference) in [
            ("shift_methods", methods, BODY),
            ("shift_operators", operators, "wrapping_shl/wrapping_shr in Rust"),
        ] {
            let (signed, unsigned): (Vec<_>, Vec<_>) = outputs
                .into_iter()
                .map(|(backend, (o, uo))| ((backend, o), (backend, uo)))
                .unzip();
            agree(kernel, &signed, Some((reference, &out)), exact, |k| format!("i32 {}", show(k)))?;
            agree(kernel, &unsigned, Some((reference, &uout)), exact, |k| {
                let (e, name) = nth(&SHIFTS, k);
                format!("u32 {} with x = {}, s = {}, t = {}", name, u[e], s[e], t[e])
            })?;
        }
    }

    #[test]
    fn for_ranges_iterate_like_rust(
        input in vec((i32_bounds(), 1u32..5, u32_bounds()), 1..120),
    ) {
        let len = input.len();
        let lo: Vec<i32> = input.iter().map(|v| v.0 .0).collect();
        let hi: Vec<i32> = input.iter().map(|v| v.0 .1).collect();
        let step: Vec<u32> = input.iter().map(|v| v.1).collect();
        let ulo: Vec<u32> = input.iter().map(|v| v.2 .0).collect();
        let uhi: Vec<u32> = input.iter().map(|v| v.2 .1).collect();
        let outputs = on_backends(|dev| {
            let mut out = zeros::<u32>(dev, len * 28);
            ranges
                .launch(
                    dev,
                    Grid::cover(len),
                    &up(dev, &lo),
                    &up(dev, &hi),
                    &up(dev, &step),
                    &up(dev, &ulo),
                    &up(dev, &uhi),
                    &mut out,
                )
                .unwrap();
            out.read().unwrap()
        });
        let mut expected = vec![0u32; len * 28];
        on_host(len, 64, || ranges::body(&lo, &hi, &step, &ulo, &uhi, &mut expected));
        agree("ranges", &outputs, Some((BODY, &expected)), exact, |k| {
            let e = k / 28;
            let what = if k % 2 == 0 { "hash" } else { "count" };
            format!(
                "{what} of `{}` with a = {}, b = {}, k = {}, ua = {}, ub = {}",
                RANGES[k % 28 / 2], lo[e], hi[e], step[e], ulo[e], uhi[e]
            )
        })?;
    }

    /// The polyfilled `f32` methods within README.md's bounds of the body (Rust's `std`).
    #[test]
    fn float_polyfills_within_documented_ulps(
        xy in vec((polyfill_args(), polyfill_args()), 1..200),
    ) {
        let (x, y): (Vec<f32>, Vec<f32>) = xy.into_iter().unzip();
        let n = x.len();
        let outputs = on_backends(|dev| {
            let mut out = zeros::<f32>(dev, n * 18);
            float_methods.launch(dev, Grid::cover(n), &up(dev, &x), &up(dev, &y), &mut out).unwrap();
            out.read().unwrap()
        });
        let mut expected = vec![0f32; n * 18];
        on_host(n, 64, || float_methods::body(&x, &y, &mut expected));
        agree(
            "float_methods",
            &outputs,
            Some((BODY, &expected)),
            |k, g, e| {
                let bound = polyfills::ulps(k % 18, x[k / 18]);
                if bound == 0 { same_f32(*g, *e) } else { near_f32(*g, *e, bound) }
            },
            |k| {
                let (e, name) = nth(&polyfills::NAMES, k);
                let bound = polyfills::ulps(k % 18, x[e]);
                format!("{name}({:?}, {:?}) (bound {bound} ULP)", x[e], y[e])
            },
        )?;
    }

    #[test]
    fn integer_methods_match_exactly(xy in vec((i32s(), prop_oneof![3 => i32s(), 1 => -40i32..40]), 1..200)) {
        let (x, y): (Vec<i32>, Vec<i32>) = xy.into_iter().unzip();
        let n = x.len();
        let outputs = on_backends(|dev| {
            let (mut out, mut uout) = (zeros::<i32>(dev, n * 10), zeros::<u32>(dev, n * 10));
            int_methods.launch(dev, Grid::cover(n), &up(dev, &x), &up(dev, &y), &mut out, &mut uout).unwrap();
            (out.read().unwrap(), uout.read().unwrap())
        });
        let (mut out, mut uout) = (vec![0i32; n * 10], vec![0u32; n * 10]);
        on_host(n, 64, || int_methods::body(&x, &y, &mut out, &mut uout));
        let (signed, unsigned): (Vec<_>, Vec<_>) = outputs
            .into_iter()
            .map(|(backend, (o, uo))| ((backend, o), (backend, uo)))
            .unzip();
        agree("int_methods", &signed, Some((BODY, &out)), exact, |k| {
            let (e, name) = nth(&INT_METHODS, k);
            format!("{name} of x = {}, y = {}", x[e], y[e])
        })?;
        agree("int_methods", &unsigned, Some((BODY, &uout)), exact, |k| {
            let (e, name) = nth(&UINT_METHODS, k);
            format!("{name} of x = {}, y = {} (as u32: {}, {})", x[e], y[e], x[e] as u32, y[e] as u32)
        })?;
    }

    /// An index out of bounds, where Rust panics. The CPU backend reads 0 (robust access);
    /// a GPU's robust access may read 0 or any element of the buffer, so out-of-bounds reads
    /// are not compared across backends, only in-bounds ones (exactly, with the host).
    #[test]
    fn out_of_bounds_reads_are_defined(
        src in vec(any::<i32>(), 1..64),
        idx in vec(prop_oneof![3 => 0u32..64, 1 => any::<u32>(), 1 => Just(u32::MAX)], 1..200),
    ) {
        let n = idx.len();
        for (name, dev) in unchecked_backends() {
            let mut out = up(dev, &vec![7i32; n]);
            gather.launch(dev, Grid::cover(n), &up(dev, &idx), &up(dev, &src), &mut out).unwrap();
            let got = out.read().unwrap();
            for (k, (&i, &g)) in idx.iter().zip(&got).enumerate() {
                let what = format!("gather: out[{k}] = src[{i}] of src = {src:?}: {name} gives {g}");
                match src.get(i as usize) {
                    Some(&v) => prop_assert_eq!(g, v, "{}, not src[{}] = {}", what, i, v),
                    None if dev.is_cpu() => {
                        prop_assert_eq!(g, 0, "{} (out of bounds), not 0", what)
                    }
                    None => prop_assert!(
                        g == 0 || src.contains(&g),
                        "{} (out of bounds), neither 0 nor an element of src",
                        what
                    ),
                }
            }
        }
    }

    #[test]
    fn integer_rules_mixed(pairs in vec((i32s(), i32s()), 1..200)) {
        let (a, b): (Vec<i32>, Vec<i32>) = pairs.into_iter().unzip();
        let n = a.len();
        let outputs = on_backends(|dev| {
            let mut out = zeros::<i32>(dev, n * 8);
            int_rules.launch(dev, Grid::cover(n), &up(dev, &a), &up(dev, &b), &mut out).unwrap();
            out.read().unwrap()
        });
        let mut expected = vec![0i32; n * 8];
        on_host(n, 64, || int_rules::body(&a, &b, &mut expected));
        agree("int_rules", &outputs, Some((BODY, &expected)), exact, |k| {
            format!("output {} of ({}, {})", k % 8, a[k / 8], b[k / 8])
        })?;
    }

    /// `%`, `round`, `rem_euclid`, `clamp`, `signum` and the casts are exact; `hypot` 2 ULP.
    #[test]
    fn float_rules_mixed(pairs in vec((-1e6f32..1e6, -1e3f32..1e3), 1..200)) {
        let (a, b): (Vec<f32>, Vec<f32>) = pairs.into_iter().unzip();
        let n = a.len();
        let outputs = on_backends(|dev| {
            let mut out = zeros::<f32>(dev, n * 6);
            float_rules.launch(dev, Grid::cover(n), &up(dev, &a), &up(dev, &b), &mut out).unwrap();
            out.read().unwrap()
        });
        let mut expected = vec![0f32; n * 6];
        on_host(n, 64, || float_rules::body(&a, &b, &mut expected));
        agree(
            "float_rules",
            &outputs,
            Some((BODY, &expected)),
            |k, g, e| if k % 6 == 4 { near_f32(*g, *e, 2) } else { same_f32(*g, *e) },
            |k| format!("output {} of ({:?}, {:?})", k % 6, a[k / 6], b[k / 6]),
        )?;
    }
}

/// `x != x` for a NaN `x` is `true`, as in Rust. Found by this harness: naga's SPIR-V back
/// end writes WGSL's float `!=` as `OpFOrdNotEqual` (ordered: false when either side is
/// NaN), so the WGSL back end writes a float `a != b` as `!(a == b)`. (`==`, `<`, `<=`, `>`,
/// `>=` are ordered in both and agree.)
#[sarek::kernel(workgroup_size = [64])]
#[allow(invalid_nan_comparisons)]
fn nan_not_equal(x: &[f32], out: &mut [u32]) {
    let i = global_thread_id();
    if i < x.len() {
        out[i * 3] = (x[i] != x[i]) as u32;
        out[i * 3 + 1] = (x[i] != 1.0f32) as u32;
        out[i * 3 + 2] = (f32::NAN != f32::NAN) as u32;
    }
}

#[test]
fn nan_is_not_equal_to_itself() {
    let x = [f32::NAN, 1.0];
    let outputs = on_backends(|dev| {
        let mut out = zeros::<u32>(dev, 6);
        nan_not_equal
            .launch(dev, Grid::cover(2), &up(dev, &x), &mut out)
            .unwrap();
        out.read().unwrap()
    });
    let mut expected = vec![0u32; 6];
    on_host(2, 64, || nan_not_equal::body(&x, &mut expected));
    assert_eq!(expected, [1, 1, 1, 0, 0, 1]);
    let names = ["x != x", "x != 1.0", "f32::NAN != f32::NAN"];
    agree(
        "nan_not_equal",
        &outputs,
        Some((BODY, &expected)),
        exact,
        |k| format!("{} with x = {:?}", names[k % 3], x[k / 3]),
    )
    .unwrap();
}

/// `cbrt` is within 2 ULP without overflow up to `f32::MAX`. Found by this harness: the
/// polyfill's Newton step `y - (y·y·y - a) / (3·y·y)` overflowed `y·y·y` for |x| from about
/// 3.4028147e38 when the device's `pow(a, 1/3)` rounded up (`-inf` on lavapipe); it now
/// scales large arguments by 2^-39 and the root back by 2^13.
#[test]
fn cbrt_of_the_largest_floats_is_finite() {
    let x = [f32::MAX, f32::MIN, 3.4028147e38];
    let y = [1.0f32; 3];
    let outputs = on_backends(|dev| {
        let mut out = zeros::<f32>(dev, 3 * 18);
        float_methods
            .launch(dev, Grid::cover(3), &up(dev, &x), &up(dev, &y), &mut out)
            .unwrap();
        out.read()
            .unwrap()
            .into_iter()
            .skip(2)
            .step_by(18)
            .collect::<Vec<_>>()
    });
    let expected: Vec<f32> = x.iter().map(|v| v.cbrt()).collect();
    agree(
        "float_methods",
        &outputs,
        Some((BODY, &expected)),
        |_, g, e| near_f32(*g, *e, 2),
        |k| format!("cbrt({:?})", x[k]),
    )
    .unwrap();
}

proptest! {
    #![proptest_config(config(24))]

    /// Generic kernels (tests/it/generics.rs) on every backend and as their plain-Rust body:
    /// the `i32` instance of `scale<T: Scalar>`, inferred from the arguments, and
    /// `combine::<Max>`, dispatched statically through a module trait.
    #[test]
    fn generic_and_trait_dispatched(
        a in -1000i32..1000,
        x in vec(-1000i32..1000, 1..200),
        y in vec(normal_f32s(), 1..200),
    ) {
        use crate::generics::{ops, scale};
        let n = x.len();
        let outputs = on_backends(|dev| {
            let xb = dev.upload(&x).unwrap();
            let mut yb = dev.zeros::<i32>(n).unwrap();
            scale.launch(dev, Grid::cover(n), a, &xb, &mut yb).unwrap();
            yb.read().unwrap()
        });
        let mut expected = vec![0i32; n];
        on_host(n, 64, || scale::body(a, &x, &mut expected));
        agree("scale::<i32>", &outputs, Some((BODY, &expected)), exact, |k| format!("y[{k}] with a = {a}, x = {}", x[k]))?;

        let m = y.len();
        let outputs = on_backends(|dev| {
            let yb = dev.upload(&y).unwrap();
            let mut out = dev.zeros::<f32>(m).unwrap();
            ops::combine.launch::<ops::Max>(dev, Grid::cover(m), &yb, &yb, &mut out).unwrap();
            out.read().unwrap()
        });
        let mut expected = vec![0f32; m];
        on_host(m, 64, || ops::combine::body::<ops::Max>(&y, &y, &mut expected));
        agree("combine::<Max>", &outputs, Some((BODY, &expected)), same_bits, |k| format!("out[{k}] with x = y = {:?}", y[k]))?;
    }
}

mod cooperating;
