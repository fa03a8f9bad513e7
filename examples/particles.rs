//! A particle simulation on the GPU: a buffer of structs updated in place, an enum of shapes
//! matched per element, and helper functions, all in one `#[sarek::module]`.
//!
//! Run with `cargo run --release --example particles`.

#[sarek::module]
pub mod physics {
    use sarek::prelude::*;

    /// A point in the plane.
    #[derive(Debug, PartialEq)]
    pub struct Vec2 {
        pub x: f32,
        pub y: f32,
    }

    /// A particle: position, velocity, and whether it is still inside the box.
    #[derive(Debug, PartialEq)]
    pub struct Particle {
        pub pos: Vec2,
        pub vel: Vec2,
        pub alive: bool,
    }

    /// The obstacle a particle is tested against.
    #[derive(Debug, PartialEq)]
    pub enum Shape {
        Circle { center: Vec2, radius: f32 },
        Rect(Vec2, Vec2),
        Nothing,
    }

    /// The simulation's constants, passed by value.
    #[derive(Debug)]
    pub struct Params {
        pub dt: f32,
        pub gravity: f32,
    }

    /// `a + b * s`.
    pub fn add(a: Vec2, b: Vec2, s: f32) -> Vec2 {
        Vec2 {
            x: a.x + b.x * s,
            y: a.y + b.y * s,
        }
    }

    /// Whether `p` is inside `shape`.
    pub fn inside(shape: Shape, p: Vec2) -> bool {
        match shape {
            Shape::Circle { center, radius } => {
                let dx = p.x - center.x;
                let dy = p.y - center.y;
                dx * dx + dy * dy <= radius * radius
            }
            Shape::Rect(lo, hi) => p.x >= lo.x && p.x <= hi.x && p.y >= lo.y && p.y <= hi.y,
            Shape::Nothing => false,
        }
    }

    /// Moves every live particle one step and kills those that hit their obstacle.
    #[sarek::kernel]
    pub fn step(params: Params, particles: &mut [Particle], obstacles: &[Shape]) {
        let i = global_thread_id();
        if i < particles.len() {
            let mut p = particles[i];
            if p.alive {
                p.vel.y -= params.gravity * params.dt;
                p.pos = add(p.pos, p.vel, params.dt);
                if inside(obstacles[i], p.pos) {
                    p.alive = false;
                }
            }
            particles[i] = p;
        }
    }
}

use physics::{Params, Particle, Shape, Vec2};

fn main() -> sarek::Result<()> {
    let dev = sarek::Device::new()?;
    let n = 1000;
    let particles: Vec<Particle> = (0..n)
        .map(|i| Particle {
            pos: Vec2 {
                x: i as f32 * 0.01,
                y: 1.0,
            },
            vel: Vec2 { x: 0.1, y: 0.0 },
            alive: true,
        })
        .collect();
    let obstacles: Vec<Shape> = (0..n)
        .map(|i| match i % 3 {
            0 => Shape::Circle {
                center: Vec2 {
                    x: i as f32 * 0.01,
                    y: 0.9,
                },
                radius: 0.2,
            },
            1 => Shape::Rect(Vec2 { x: -10.0, y: -10.0 }, Vec2 { x: 10.0, y: 0.5 }),
            _ => Shape::Nothing,
        })
        .collect();
    let mut buf = dev.upload(&particles)?;
    let shapes = dev.upload(&obstacles)?;
    let params = Params {
        dt: 0.1,
        gravity: 9.8,
    };
    for _ in 0..10 {
        physics::step.launch(&dev, sarek::Grid::cover(n), params, &mut buf, &shapes)?;
    }
    let out = buf.read()?;
    let alive = out.iter().filter(|p| p.alive).count();
    println!(
        "{alive} of {n} particles alive after 10 steps; first: {:?}",
        out[0]
    );
    Ok(())
}
