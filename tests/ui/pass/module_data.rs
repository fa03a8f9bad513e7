//! A `#[sarek::module]` with the data features: structs, enums with tuple and named variants,
//! helpers (one taking a buffer, one tail-recursive), local arrays indexed at run time,
//! `if let` and `match` as a value.

#[sarek::module]
mod m {
    use sarek::prelude::*;

    #[derive(Debug, PartialEq)]
    pub struct Vec2 {
        pub x: f32,
        pub y: f32,
    }

    #[derive(Debug, PartialEq)]
    pub enum Shape {
        Circle { center: Vec2, radius: f32 },
        Segment(Vec2, Vec2),
        Empty,
    }

    pub struct Params {
        pub scale: f32,
        pub steps: u32,
    }

    const N: usize = 8;

    /// Reads a buffer through a slice parameter.
    fn sum_first(xs: &[f32], n: usize) -> f32 {
        let mut s = 0.0;
        let mut k = 0;
        while k < n && k < xs.len() {
            s += xs[k];
            k += 1;
        }
        s
    }

    /// Tail-recursive: becomes a loop.
    fn gcd(a: u32, b: u32) -> u32 {
        if b == 0 {
            a
        } else {
            gcd(b, a % b)
        }
    }

    fn area(s: Shape) -> f32 {
        match s {
            Shape::Circle { radius, .. } => 3.14159 * radius * radius,
            Shape::Segment(a, b) => (b.x - a.x).abs() * (b.y - a.y).abs(),
            Shape::Empty => 0.0,
        }
    }

    #[sarek::kernel]
    pub fn measure(params: Params, shapes: &[Shape], weights: &[f32], out: &mut [f32]) {
        let i = global_thread_id();
        if i >= out.len() {
            return;
        }
        let mut table = [0.0f32; N];
        for k in 0..N {
            table[k] = (k as f32) * params.scale;
        }
        let pick = table[i % N];
        let a = area(shapes[i]);
        let mut bonus = 0.0;
        if let Shape::Circle { center, .. } = shapes[i] {
            bonus = center.x + center.y;
        }
        let kind = match shapes[i] {
            Shape::Circle { .. } => 1u32,
            Shape::Segment(..) => 2,
            Shape::Empty => 0,
        };
        let g = gcd(params.steps, kind + 6);
        out[i] = a + pick + bonus + sum_first(weights, 4) + g as f32;
    }
}

fn main() {
    assert!(m::measure::WGSL.contains("fn gcd"));
    let _ = m::Shape::Segment(m::Vec2 { x: 0.0, y: 0.0 }, m::Vec2 { x: 1.0, y: 1.0 });
}
