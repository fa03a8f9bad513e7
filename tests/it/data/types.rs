//! Kernel data on the GPU: structs in buffers and by value, enums matched per element,
//! helper functions (with slices, shadowing, tail recursion), local arrays, and the names
//! that must not collide. Every result is checked against the same computation in plain Rust.

use crate::common;
use crate::common::{backends, gpu_only};
use sarek::Device;

use sarek::{Element, Grid};

#[sarek::module]
mod sim {
    use sarek::prelude::*;

    #[derive(Debug, PartialEq)]
    pub struct Vec2 {
        pub x: f32,
        pub y: f32,
    }

    #[derive(Debug, PartialEq)]
    pub struct Particle {
        pub pos: Vec2,
        pub vel: Vec2,
        pub hits: [u32; 3],
        pub alive: bool,
    }

    pub struct Step {
        pub dt: f32,
        pub floor: f32,
        pub bounce: bool,
    }

    fn advance(p: Vec2, v: Vec2, dt: f32) -> Vec2 {
        Vec2 {
            x: p.x + v.x * dt,
            y: p.y + v.y * dt,
        }
    }

    /// Moves each particle; a particle below the floor bounces (or dies) and counts the hit.
    #[sarek::kernel(workgroup_size = [64])]
    pub fn step(s: Step, ps: &mut [Particle]) {
        let i = global_thread_id();
        if i < ps.len() {
            if ps[i].alive {
                ps[i].pos = advance(ps[i].pos, ps[i].vel, s.dt);
                if ps[i].pos.y < s.floor {
                    ps[i].hits[(i % 3) as usize] += 1;
                    if s.bounce {
                        ps[i].vel.y = -ps[i].vel.y;
                    } else {
                        ps[i].alive = false;
                    }
                }
            }
        }
    }
}

fn particle(i: usize) -> sim::Particle {
    sim::Particle {
        pos: sim::Vec2 {
            x: i as f32,
            y: (i % 7) as f32 - 2.0,
        },
        vel: sim::Vec2 {
            x: 0.5,
            y: -((i % 5) as f32),
        },
        hits: [i as u32, 0, 7],
        alive: !i.is_multiple_of(4),
    }
}

fn step_cpu(s: &sim::Step, ps: &mut [sim::Particle]) {
    for (i, p) in ps.iter_mut().enumerate() {
        if p.alive {
            p.pos = sim::Vec2 {
                x: p.pos.x + p.vel.x * s.dt,
                y: p.pos.y + p.vel.y * s.dt,
            };
            if p.pos.y < s.floor {
                p.hits[i % 3] += 1;
                if s.bounce {
                    p.vel.y = -p.vel.y;
                } else {
                    p.alive = false;
                }
            }
        }
    }
}

#[backends]
fn particles_update_in_place_with_struct_params(dev: Device) {
    let n = 1000; // not a multiple of the workgroup
    let mut expected: Vec<sim::Particle> = (0..n).map(particle).collect();
    let mut buf = dev.upload(&expected).unwrap();
    for (k, bounce) in [true, false, true].into_iter().enumerate() {
        let s = sim::Step {
            dt: 0.25 * (k + 1) as f32,
            floor: -1.5,
            bounce,
        };
        sim::step.launch(&dev, Grid::cover(n), s, &mut buf).unwrap();
        step_cpu(&s, &mut expected);
    }
    let got = buf.read().unwrap();
    assert_eq!(got, expected);
    assert!(got.iter().any(|p| !p.alive) && got.iter().any(|p| p.alive));
    // `bool` is stored as a `u32` 0 or 1; the host type itself keeps `bool`.
    let gpu = particle(1).to_gpu();
    assert_eq!(gpu.alive, 1);
    assert_eq!(
        std::mem::size_of_val(&gpu),
        sim::step::ABI.buffers[0].stride as usize
    );
}

#[sarek::module]
mod options {
    use sarek::prelude::*;

    /// An `Option`-like enum.
    #[derive(Debug, PartialEq)]
    pub enum Maybe {
        Nothing,
        Just(i32),
    }

    /// Two payloads in one variant, named fields in another.
    #[derive(Debug, PartialEq)]
    pub enum Op {
        Add(i32, i32),
        Neg { v: i32 },
        Keep,
    }

    #[sarek::kernel]
    pub fn unwrap_or(default: i32, xs: &[Maybe], out: &mut [i32]) {
        let i = global_thread_id();
        if i < xs.len() {
            out[i] = match xs[i] {
                Maybe::Just(v) => v,
                Maybe::Nothing => default,
            };
        }
    }

    /// Halves even values, drops odd ones: writes enums back.
    #[sarek::kernel]
    pub fn keep_even(xs: &mut [Maybe]) {
        let i = global_thread_id();
        if i < xs.len() {
            if let Maybe::Just(v) = xs[i] {
                xs[i] = if v % 2 == 0 {
                    Maybe::Just(v / 2)
                } else {
                    Maybe::Nothing
                };
            }
        }
    }

    #[sarek::kernel]
    pub fn apply(ops: &[Op], out: &mut [i32]) {
        let i = global_thread_id();
        if i < ops.len() {
            // The arm binder `i` shadows the thread index inside its arm only.
            let r = match ops[i] {
                Op::Add(i, j) => i.wrapping_add(j),
                Op::Neg { v } => -v,
                _ => i as i32,
            };
            out[i] = r;
        }
    }
}

#[backends]
fn enums_in_buffers_match_exhaustively(dev: Device) {
    use options::{Maybe, Op};
    let n = 333;
    let r = common::random_u32(5, n);
    let xs: Vec<Maybe> = r
        .iter()
        .map(|&v| {
            if v % 3 == 0 {
                Maybe::Nothing
            } else {
                Maybe::Just(v as i32 % 1000)
            }
        })
        .collect();
    let buf = dev.upload(&xs).unwrap();
    let mut out = dev.zeros::<i32>(n).unwrap();
    options::unwrap_or
        .launch(&dev, Grid::cover(n), -7, &buf, &mut out)
        .unwrap();
    let expected: Vec<i32> = xs
        .iter()
        .map(|m| match m {
            Maybe::Just(v) => *v,
            Maybe::Nothing => -7,
        })
        .collect();
    assert_eq!(out.read().unwrap(), expected);

    let mut buf = buf;
    options::keep_even
        .launch(&dev, Grid::cover(n), &mut buf)
        .unwrap();
    let expected: Vec<Maybe> = xs
        .iter()
        .map(|m| match *m {
            Maybe::Just(v) if v % 2 == 0 => Maybe::Just(v / 2),
            Maybe::Just(_) => Maybe::Nothing,
            Maybe::Nothing => Maybe::Nothing,
        })
        .collect();
    assert_eq!(buf.read().unwrap(), expected);

    let ops: Vec<Op> = r
        .iter()
        .map(|&v| match v % 3 {
            0 => Op::Add(v as i32, i32::MAX),
            1 => Op::Neg { v: v as i32 },
            _ => Op::Keep,
        })
        .collect();
    let ops_buf = dev.upload(&ops).unwrap();
    let mut out = dev.zeros::<i32>(n).unwrap();
    options::apply
        .launch(&dev, Grid::cover(n), &ops_buf, &mut out)
        .unwrap();
    let expected: Vec<i32> = ops
        .iter()
        .enumerate()
        .map(|(i, op)| match *op {
            Op::Add(a, b) => a.wrapping_add(b),
            Op::Neg { v } => v.wrapping_neg(),
            Op::Keep => i as i32,
        })
        .collect();
    assert_eq!(out.read().unwrap(), expected);
}

#[gpu_only]
fn an_invalid_enum_tag_is_an_error_not_a_panic() {
    use options::Maybe;
    let Some(dev) = common::gpu_device() else {
        return;
    };
    let mut tags = dev.upload(&[0u32, 0, 9, 0]).unwrap();
    // Reinterpret the bytes through a user-owned buffer view of the same memory.
    let raw = tags.wgpu_buffer().clone();
    let view = sarek::Buffer::<Maybe>::from_wgpu(&dev, raw, 0, 2).unwrap();
    let err = view.read().unwrap_err();
    assert!(err.to_string().contains("element 1"), "{err}");
    tags.write(&[1, 5, 0, 0]).unwrap();
    assert_eq!(view.read().unwrap(), vec![Maybe::Just(5), Maybe::Nothing]);
}

#[sarek::module]
// Kernel code: it is written the way the test exercises the compiler, not as clippy prefers.
#[allow(clippy::manual_is_multiple_of)]
mod helpers {
    use sarek::prelude::*;

    pub struct Pair {
        pub lo: u32,
        pub hi: u32,
    }

    /// Self tail recursion: becomes a loop.
    fn fact(n: u32, acc: u32) -> u32 {
        if n <= 1 {
            acc
        } else {
            fact(n - 1, acc.wrapping_mul(n))
        }
    }

    /// Tail recursion that returns a struct: the Collatz steps and peak of `n`.
    fn collatz(n: u32, steps: u32, peak: u32) -> Pair {
        if n == 1 {
            return Pair {
                lo: steps,
                hi: peak,
            };
        }
        let next = if n % 2 == 0 { n / 2 } else { 3 * n + 1 };
        collatz(next, steps + 1, peak.max(next))
    }

    /// A helper taking a slice, whose parameter `n` shadows the kernel's scalar `n`.
    fn window_sum(xs: &[u32], i: usize, n: usize) -> u32 {
        let mut s = 0u32;
        for k in 0..n {
            if i + k < xs.len() {
                s = s.wrapping_add(xs[i + k]);
            }
        }
        s
    }

    /// A helper writing through a `&mut` slice.
    fn put(out: &mut [u32], i: usize, v: u32) {
        if i < out.len() {
            out[i] = v;
        }
    }

    #[sarek::kernel]
    pub fn facts(out: &mut [u32]) {
        let i = global_thread_id();
        put(out, i, fact(i as u32, 1));
    }

    #[sarek::kernel]
    pub fn collatz_k(out: &mut [Pair]) {
        let i = global_thread_id();
        if i < out.len() {
            out[i] = collatz(i as u32 + 1, 0, i as u32 + 1);
        }
    }

    #[sarek::kernel]
    pub fn windows(n: u32, xs: &[u32], out: &mut [u32]) {
        let i = global_thread_id();
        // `n` here is the kernel's parameter; inside `window_sum` it is the helper's.
        put(out, i, window_sum(xs, i, 3) + n);
    }

    #[sarek::kernel]
    pub fn windows_twice(xs: &[u32], ys: &[u32], out: &mut [u32]) {
        let i = global_thread_id();
        put(out, i, window_sum(xs, i, 2) ^ window_sum(ys, i, 2));
    }
}

#[backends]
fn helpers_tail_recursion_and_shadowing(dev: Device) {
    let n = 300;
    let mut out = dev.zeros::<u32>(n).unwrap();
    helpers::facts
        .launch(&dev, Grid::cover(n), &mut out)
        .unwrap();
    let fact = |n: u32| (1..=n.max(1)).fold(1u32, |a, k| a.wrapping_mul(k));
    assert_eq!(
        out.read().unwrap(),
        (0..n as u32).map(fact).collect::<Vec<_>>()
    );

    let mut pairs = dev.zeros::<helpers::Pair>(n).unwrap();
    helpers::collatz_k
        .launch(&dev, Grid::cover(n), &mut pairs)
        .unwrap();
    let got = pairs.read().unwrap();
    for (i, p) in got.iter().enumerate() {
        let (mut x, mut steps, mut peak) = (i as u32 + 1, 0, i as u32 + 1);
        while x != 1 {
            x = if x % 2 == 0 { x / 2 } else { 3 * x + 1 };
            steps += 1;
            peak = peak.max(x);
        }
        assert_eq!((p.lo, p.hi), (steps, peak), "collatz({})", i + 1);
    }

    let xs = common::random_u32(9, n);
    let ys = common::random_u32(10, n);
    let xb = dev.upload(&xs).unwrap();
    let yb = dev.upload(&ys).unwrap();
    let win =
        |v: &[u32], i: usize, k: usize| (i..(i + k).min(n)).fold(0u32, |a, j| a.wrapping_add(v[j]));
    helpers::windows
        .launch(&dev, Grid::cover(n), 1000, &xb, &mut out)
        .unwrap();
    let expected: Vec<u32> = (0..n).map(|i| win(&xs, i, 3).wrapping_add(1000)).collect();
    assert_eq!(out.read().unwrap(), expected);
    assert!(
        !helpers::windows::WGSL.contains("sarek_params.n;\n    var s"),
        "the helper's `n` must not read the kernel's"
    );

    helpers::windows_twice
        .launch(&dev, Grid::cover(n), &xb, &yb, &mut out)
        .unwrap();
    let expected: Vec<u32> = (0..n).map(|i| win(&xs, i, 2) ^ win(&ys, i, 2)).collect();
    assert_eq!(out.read().unwrap(), expected);
    // One specialisation per buffer, each emitted once.
    let w = helpers::windows_twice::WGSL;
    assert_eq!(w.matches("fn put(").count(), 1, "{w}");
    assert_eq!(w.matches("window_sum(sarek_a0").count(), 2, "{w}");
}

#[sarek::module]
mod names {
    use sarek::prelude::*;

    pub struct Point {
        pub x: i32,
        pub y: i32,
    }

    /// A struct named like the uniform block's type in other compilers, with a keyword field.
    pub struct Params {
        pub r#type: i32,
        pub scale: i32,
    }

    /// A variant named like a struct, carrying that struct.
    pub enum Shape {
        Point(Point),
        Span { from: Point, to: Point },
    }

    /// Two enums with the same variant names.
    pub enum A {
        One(i32),
        Two,
    }
    pub enum B {
        One(i32),
        Two,
    }

    #[sarek::kernel]
    pub fn measure(p: Params, shapes: &[Shape], out: &mut [i32]) {
        let i = global_thread_id();
        if i < shapes.len() {
            let a = if i % 2 == 0 { A::One(i as i32) } else { A::Two };
            let b = if i % 3 == 0 {
                B::Two
            } else {
                B::One(-(i as i32))
            };
            let extra = match a {
                A::One(v) => v,
                A::Two => 100,
            } + match b {
                B::One(v) => v,
                B::Two => 1000,
            };
            let size = match shapes[i] {
                Shape::Point(Point { x, y }) => x + y,
                Shape::Span { from, to } => (to.x - from.x) * (to.y - from.y),
            };
            out[i] = size * p.scale + p.r#type + extra;
        }
    }
}

#[backends]
fn names_do_not_collide(dev: Device) {
    use names::{Params, Point, Shape};
    let n = 100;
    let shapes: Vec<Shape> = (0..n as i32)
        .map(|i| {
            if i % 4 == 0 {
                Shape::Point(Point { x: i, y: -3 })
            } else {
                Shape::Span {
                    from: Point { x: i, y: 1 },
                    to: Point { x: 2 * i, y: 5 },
                }
            }
        })
        .collect();
    let buf = dev.upload(&shapes).unwrap();
    let mut out = dev.zeros::<i32>(n).unwrap();
    names::measure
        .launch(
            &dev,
            Grid::cover(n),
            Params {
                r#type: 7,
                scale: 3,
            },
            &buf,
            &mut out,
        )
        .unwrap();
    let expected: Vec<i32> = shapes
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let extra = (if i % 2 == 0 { i as i32 } else { 100 })
                + (if i % 3 == 0 { 1000 } else { -(i as i32) });
            let size = match *s {
                Shape::Point(Point { x, y }) => x + y,
                Shape::Span { from, to } => (to.x - from.x) * (to.y - from.y),
            };
            size * 3 + 7 + extra
        })
        .collect();
    assert_eq!(out.read().unwrap(), expected);
}

#[sarek::module]
mod arrays {
    use sarek::prelude::*;

    pub const K: usize = 8;

    pub struct Hist {
        pub bins: [u32; 8],
        pub total: u32,
    }

    /// Local arrays indexed at run time, filled by a repeat and a literal, summed in a loop.
    #[sarek::kernel]
    pub fn local_hist(xs: &[u32], out: &mut [Hist]) {
        let i = global_thread_id();
        if i < out.len() {
            let mut bins = [0u32; K];
            let weights = [1u32, 2, 3, 4, 5, 6, 7, 8];
            let mut seen = [false; 8];
            for k in 0..16 {
                let v = xs[(i * 16 + k) % xs.len()];
                let b = (v % 8) as usize;
                bins[b] += weights[b];
                seen[b] = true;
            }
            let mut total = 0u32;
            for b in 0..K {
                if seen[b] {
                    total += bins[b];
                }
            }
            out[i] = Hist { bins, total };
        }
    }

    /// A long repeat (a loop fills it) and a 2-D local array.
    #[sarek::kernel]
    pub fn grid_sum(out: &mut [f32]) {
        let i = global_thread_id();
        if i < out.len() {
            let mut big = [1.5f32; 100];
            big[i % 100] = 0.0;
            let mut g = [[0.0f32; 4]; 3];
            for r in 0..3 {
                for c in 0..4 {
                    g[r][c] = (r * 4 + c) as f32;
                }
            }
            let mut s = 0.0f32;
            for k in 0..100 {
                s += big[k];
            }
            out[i] = s + g[i % 3][i % 4];
        }
    }
}

#[backends]
fn local_arrays_and_array_fields(dev: Device) {
    let n = 77;
    let xs = common::random_u32(3, 500);
    let xb = dev.upload(&xs).unwrap();
    let mut out = dev.zeros::<arrays::Hist>(n).unwrap();
    arrays::local_hist
        .launch(&dev, Grid::cover(n), &xb, &mut out)
        .unwrap();
    let got = out.read().unwrap();
    for (i, h) in got.iter().enumerate() {
        let mut bins = [0u32; 8];
        for k in 0..16 {
            let b = (xs[(i * 16 + k) % xs.len()] % 8) as usize;
            bins[b] += b as u32 + 1;
        }
        assert_eq!(h.bins, bins, "thread {i}");
        assert_eq!(h.total, bins.iter().sum::<u32>());
    }
    let mut f = dev.zeros::<f32>(n).unwrap();
    arrays::grid_sum
        .launch(&dev, Grid::cover(n), &mut f)
        .unwrap();
    let expected: Vec<f32> = (0..n)
        .map(|i| 99.0 * 1.5 + ((i % 3) * 4 + i % 4) as f32)
        .collect();
    assert_eq!(f.read().unwrap(), expected);
}

#[sarek::module]
mod tiles {
    use sarek::prelude::*;

    pub struct Acc {
        pub sum: f32,
        pub count: u32,
    }

    /// Workgroup memory of struct elements: per-workgroup sums and counts of positive values.
    #[sarek::kernel(workgroup_size = [64])]
    pub fn positive_stats(xs: &[f32], out: &mut [Acc]) {
        let tile = shared::<[Acc; 64]>();
        let t = thread_idx_x();
        let i = global_thread_id();
        let mut a = Acc { sum: 0.0, count: 0 };
        if i < xs.len() && xs[i] > 0.0 {
            a = Acc {
                sum: xs[i],
                count: 1,
            };
        }
        tile[t] = a;
        block_barrier();
        let mut stride = 32;
        while stride > 0 {
            if t < stride {
                tile[t].sum += tile[t + stride].sum;
                tile[t].count += tile[t + stride].count;
            }
            block_barrier();
            stride /= 2;
        }
        if t == 0 {
            out[block_idx_x()] = tile[0];
        }
    }
}

#[backends]
fn workgroup_memory_of_structs(dev: Device) {
    let n = 1000;
    let xs: Vec<f32> = common::random_u32(4, n)
        .iter()
        .map(|&v| (v % 200) as f32 - 100.0)
        .collect();
    let xb = dev.upload(&xs).unwrap();
    let groups = n.div_ceil(64);
    let mut out = dev.zeros::<tiles::Acc>(groups).unwrap();
    tiles::positive_stats
        .launch(&dev, Grid::cover(n), &xb, &mut out)
        .unwrap();
    assert_eq!(tiles::positive_stats::ABI.workgroup_memory, 64 * 8);
    for (g, acc) in out.read().unwrap().iter().enumerate() {
        let chunk = &xs[g * 64..((g + 1) * 64).min(n)];
        let pos: Vec<f32> = chunk.iter().copied().filter(|&v| v > 0.0).collect();
        assert_eq!(acc.count as usize, pos.len(), "group {g}");
        assert_eq!(acc.sum, pos.iter().sum::<f32>(), "group {g}");
    }
}

/// Structs, enums and helpers declared inside a kernel's body, without a module.
#[sarek::kernel]
fn local_items(xs: &[f32], out: &mut [f32]) {
    struct Range {
        lo: f32,
        hi: f32,
    }
    enum Side {
        Below(f32),
        Inside,
        Above { by: f32 },
    }
    fn classify(r: Range, v: f32) -> Side {
        if v < r.lo {
            Side::Below(r.lo - v)
        } else if v > r.hi {
            Side::Above { by: v - r.hi }
        } else {
            Side::Inside
        }
    }
    let i = sarek::gpu::global_thread_id();
    if i < xs.len() {
        let r = Range { lo: -1.0, hi: 1.0 };
        out[i] = match classify(r, xs[i]) {
            Side::Below(d) => -d,
            Side::Inside => 0.0,
            Side::Above { by } => by,
        };
    }
}

#[backends]
fn items_declared_in_a_kernel_body(dev: Device) {
    let xs: Vec<f32> = (0..50).map(|i| i as f32 * 0.1 - 2.5).collect();
    let xb = dev.upload(&xs).unwrap();
    let mut out = dev.zeros::<f32>(xs.len()).unwrap();
    local_items
        .launch(&dev, Grid::cover(xs.len()), &xb, &mut out)
        .unwrap();
    let expected: Vec<f32> = xs
        .iter()
        .map(|&v| {
            if v < -1.0 {
                -(-1.0 - v)
            } else if v > 1.0 {
                v - 1.0
            } else {
                0.0
            }
        })
        .collect();
    assert_eq!(out.read().unwrap(), expected);
}
