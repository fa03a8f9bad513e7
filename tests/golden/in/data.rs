// Structs, enums, `match`, local arrays and helper functions. The file is one module: its
// items are visible to every kernel below.

pub struct Point {
    pub x: f32,
    pub y: f32,
}

/// A struct named like the uniform block Sarek generates.
pub struct Params {
    pub scale: f32,
    pub offset: f32,
}

/// A field named with a raw identifier, and an array-typed field.
pub struct Tagged {
    pub r#type: u32,
    pub weights: [f32; 4],
}

/// A variant named like a struct.
pub enum Shape {
    Point(Point),
    Circle { center: Point, radius: f32 },
    Segment(Point, Point),
}

/// Option-like.
pub enum MaybeF {
    Some(f32),
    None,
}

/// The same variant names as `MaybeF`.
pub enum MaybeU {
    Some(u32),
    None,
}

pub enum Pair {
    Both(f32, u32),
    Neither,
}

const N: usize = 16;

fn fact(n: u32, acc: u32) -> u32 {
    if n <= 1 {
        acc
    } else {
        fact(n - 1, acc * n)
    }
}

/// Tail-recursive, returning a struct: halves a point until it is inside the unit square.
fn shrink(p: Point, steps: u32) -> Point {
    if p.x.abs() <= 1.0 && p.y.abs() <= 1.0 {
        return p;
    }
    shrink(Point { x: p.x * 0.5, y: p.y * 0.5 }, steps + 1)
}

/// Its parameter `scale` is named like the kernel parameter `scale` of `shadowed_param`.
fn scaled(scale: f32, v: f32) -> f32 {
    v * scale
}

#[sarek::kernel]
fn struct_update(points: &mut [Point]) {
    let i = global_thread_id();
    if i < points.len() {
        points[i].x += 1.0;
        points[i].y = points[i].y * 2.0;
    }
}

#[sarek::kernel]
fn option_like(xs: &[MaybeF], ys: &[MaybeU], out: &mut [f32]) {
    let i = global_thread_id();
    if i < out.len() {
        let a = match xs[i] {
            MaybeF::Some(v) => v,
            MaybeF::None => 0.0,
        };
        let b = match ys[i] {
            MaybeU::Some(u) => u as f32,
            MaybeU::None => -1.0,
        };
        out[i] = a + b;
    }
}

#[sarek::kernel]
fn two_payloads(pairs: &[Pair], out: &mut [f32]) {
    let i = global_thread_id();
    if i < out.len() {
        match pairs[i] {
            Pair::Both(f, n) => {
                out[i] = f * n as f32;
            }
            Pair::Neither => {
                out[i] = 0.0;
            }
        }
    }
}

#[sarek::kernel]
fn match_shadow(xs: &[MaybeF], out: &mut [f32]) {
    let i = global_thread_id();
    if i < out.len() {
        let v = 10.0;
        let r = match xs[i] {
            MaybeF::Some(v) => v * 2.0,
            MaybeF::None => v,
        };
        out[i] = r + v;
    }
}

#[sarek::kernel]
fn recursion(points: &mut [Point], out: &mut [u32]) {
    let i = global_thread_id();
    if i < out.len() {
        out[i] = fact(i as u32 % 10, 1);
        points[i] = shrink(points[i], 0);
    }
}

#[sarek::kernel]
fn shadowed_param(scale: f32, out: &mut [f32]) {
    let i = global_thread_id();
    if i < out.len() {
        out[i] = scaled(2.0, out[i]) + scale;
    }
}

#[sarek::kernel]
fn collisions(params: Params, shapes: &[Shape], tags: &[Tagged], out: &mut [f32]) {
    let i = global_thread_id();
    if i < out.len() {
        let s = match shapes[i] {
            Shape::Point(p) => p.x + p.y,
            Shape::Circle { center, radius } => center.x + radius,
            Shape::Segment(a, b) => b.x - a.x,
        };
        let t = tags[i];
        let w = if t.r#type == 0 { t.weights[0] } else { t.weights[(t.r#type % 4) as usize] };
        out[i] = s * params.scale + params.offset + w;
    }
}

#[sarek::kernel]
fn local_arrays(k: usize, xs: &[f32], out: &mut [f32]) {
    let i = global_thread_id();
    if i < out.len() {
        let mut a = [0.0f32; 16];
        for j in 0..16 {
            a[j] = xs[(i + j) % xs.len()];
        }
        let mut b = [1.0f32; N];
        b[k % N] = a[k % 16];
        let mut sum = 0.0;
        for j in 0..N {
            sum += a[j] * b[j];
        }
        let small = [1u32, 2, 3, 4];
        out[i] = sum + small[i % 4] as f32;
    }
}

/// Local arrays indexed only by constants (after unrolling) are printed as one `var` per
/// element; `whole` is also copied whole, so it stays an array.
#[sarek::kernel]
fn split_arrays(xs: &[Vec4], out: &mut [f32]) {
    let i = global_thread_id();
    let mut v = [Vec4::ZERO; 4];
    for k in 0..4 {
        if i * 4 + k < xs.len() {
            v[k] = xs[i * 4 + k];
        }
    }
    let weights = [1.0f32, 2.0, 3.0, 4.0];
    let mut sums = [0.0f32; 4];
    for k in 0..4 {
        sums[k] = (v[k].x + v[k].w) * weights[k];
    }
    let whole = sums;
    let copy = whole;
    if i < out.len() {
        out[i] = sums[0] + sums[3] + copy[1];
    }
}

#[sarek::kernel]
fn array_field(tags: &mut [Tagged]) {
    let i = global_thread_id();
    if i < tags.len() {
        let mut t = tags[i];
        for j in 0..4 {
            t.weights[j] *= 2.0;
        }
        t.r#type += 1;
        tags[i].weights[3] = t.weights[0];
        tags[i] = t;
    }
}

#[sarek::kernel]
fn values(c: bool, n: i32, xs: &[MaybeF], points: &mut [Point]) {
    let i = global_thread_id();
    if i < points.len() {
        // A struct and an array as the value of an `if`: no `select` on them.
        let p = if c { Point { x: 1.0, y: 2.0 } } else { points[i] };
        let arr = if c { [1.0f32, 2.0] } else { [3.0f32, 4.0] };
        // Struct update syntax.
        let q = Point { x: arr[i % 2], ..p };
        // `match` on an integer and on a `bool`, as values.
        let k = match n {
            0 | 1 => 1.0,
            2 => 2.0,
            _ => 3.0,
        };
        let b = match c {
            true => 1.0,
            false => 0.0,
        };
        // `if let` with and without `else`.
        let mut extra = 0.0;
        if let MaybeF::Some(v) = xs[i] {
            extra = v;
        }
        let e = if let MaybeF::None = xs[i] { 1.0 } else { extra };
        // A long repeat of a value known only at run time.
        let long = [xs.len() as f32; 32];
        points[i] = Point { x: q.x * k + long[i % 32], y: q.y * b + e };
    }
}
