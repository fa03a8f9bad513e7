//! Methods of module types: associated functions (`Vec2::new`), `self`/`&self` methods, and
//! `&mut self` methods that change a local, a buffer element or a workgroup-array element in
//! place, as in Rust. Checked against the same `impl` run on the host.

use crate::common::backends;
use sarek::Device;

use sarek::Grid;

#[sarek::module]
mod shapes {
    use sarek::prelude::*;

    #[derive(Debug, PartialEq)]
    pub struct Vec2 {
        pub x: f32,
        pub y: f32,
    }

    impl Vec2 {
        pub fn new(x: f32, y: f32) -> Self {
            Self { x, y }
        }

        pub fn dot(&self, o: Vec2) -> f32 {
            self.x * o.x + self.y * o.y
        }

        pub fn scaled(self, k: f32) -> Vec2 {
            Vec2::new(self.x * k, self.y * k)
        }
    }

    #[derive(Debug, PartialEq)]
    pub struct Particle {
        pub pos: Vec2,
        pub vel: Vec2,
        pub steps: u32,
    }

    impl Particle {
        /// Moves by `vel * dt`, bouncing off the floor at 0.
        pub fn advance(&mut self, dt: f32) {
            self.pos = Vec2::new(self.pos.x + self.vel.x * dt, self.pos.y + self.vel.y * dt);
            self.steps += 1;
            if self.pos.y >= 0.0 {
                return;
            }
            self.vel.y = -self.vel.y;
            self.pos.y = 0.0
        }

        pub fn energy(&self) -> f32 {
            self.vel.dot(self.vel) * 0.5
        }
    }

    /// `&mut self` on buffer elements; `&self` and associated functions on locals.
    #[sarek::kernel(workgroup_size = [64])]
    pub fn step(dt: f32, ps: &mut [Particle], energy: &mut [f32]) {
        let i = global_thread_id();
        if i < ps.len() {
            ps[i].advance(dt);
            ps[i].advance(dt);
            let mut copy = ps[i];
            copy.advance(dt); // a local changes; the buffer does not
            energy[i] = copy.energy() + Vec2::new(1.0, 2.0).scaled(2.0).dot(copy.pos);
        }
    }

    /// A xorshift generator: a `&mut self` method that also returns a value.
    #[derive(Debug, PartialEq)]
    pub struct Rng {
        pub state: u32,
    }

    impl Rng {
        pub fn next(&mut self) -> u32 {
            self.state ^= self.state << 13;
            self.state ^= self.state >> 17;
            self.state ^= self.state << 5;
            self.state
        }
    }

    /// Draws from a generator in a buffer (which advances) and from a local copy.
    #[sarek::kernel(workgroup_size = [64])]
    pub fn draw(rngs: &mut [Rng], out: &mut [u32]) {
        let i = global_thread_id();
        if i < rngs.len() {
            let a = rngs[i].next();
            let mut local = rngs[i];
            let b = local.next() % 1000;
            out[i] = a % 1000 + b * 1000 + local.next() % 7;
        }
    }

    /// `&mut self` on workgroup-array elements.
    #[sarek::kernel(workgroup_size = [64])]
    pub fn in_tile(ps: &mut [Particle]) {
        let tile = shared::<[Particle; 64]>();
        let i = global_thread_id();
        let t = thread_idx_x();
        if i < ps.len() {
            tile[t] = ps[i];
        }
        block_barrier();
        if i < ps.len() {
            tile[t].advance(0.5);
            ps[i] = tile[t];
        }
    }
}

/// `&mut self` methods that leave early with `return`, methods called by path, and a
/// module trait's methods called with method syntax.
#[sarek::module]
// Kernel code: it is written the way the test exercises the compiler, not as clippy prefers.
#[allow(clippy::single_match, clippy::needless_return)]
mod counters {
    use sarek::prelude::*;

    #[derive(Debug, PartialEq)]
    pub struct Counter {
        pub n: u32,
        pub wraps: u32,
    }

    impl Counter {
        /// Counts up, wrapping at `limit`; returns the previous count, `limit + 100` on a wrap
        /// and twice the count on multiples of 3: `return` at several depths.
        pub fn bump(&mut self, limit: u32) -> u32 {
            let before = self.n;
            self.n += 1;
            if self.n >= limit {
                self.n = 0;
                self.wraps += 1;
                return limit + 100;
            }
            match self.n % 3 {
                0 => return before * 2,
                _ => {}
            }
            if before == 1 {
                self.n += 1;
                before + 50
            } else {
                before
            }
        }

        /// A tail `match` whose arms return or give the value; the result changes the
        /// receiver after its value is taken.
        pub fn take(&mut self) -> u32 {
            let v = self.n;
            match v % 4 {
                0 => {
                    self.n = 1;
                    return v + 1000;
                }
                1 => v + self.bump(5),
                _ => {
                    self.n = 0;
                    v
                }
            }
        }

        pub fn add(&mut self, k: u32) {
            self.n += k;
        }

        pub fn get(&self) -> u32 {
            self.n
        }
    }

    /// A module trait with receivers, implemented by a struct: static dispatch.
    pub trait Tally {
        fn tally(&self) -> u32;
        fn reset_to(&mut self, v: u32);
        /// A default method, inherited.
        fn twice(&self) -> u32 {
            self.tally() * 2
        }
    }

    impl Tally for Counter {
        fn tally(&self) -> u32 {
            self.n + self.wraps * 1000
        }

        fn reset_to(&mut self, v: u32) {
            self.n = v;
        }
    }

    /// Every call form on buffer elements and locals.
    #[sarek::kernel(workgroup_size = [64])]
    pub fn count(limit: u32, cs: &mut [Counter], out: &mut [u32]) {
        let i = global_thread_id();
        if i < cs.len() {
            let a = cs[i].bump(limit);
            let b = Counter::bump(&mut cs[i], limit);
            let t = cs[i].take();
            let mut local = cs[i];
            let c = Counter::get(&local)
                + local.tally()
                + Tally::tally(&local)
                + <Counter as Tally>::tally(&local)
                + local.twice();
            Counter::add(&mut local, 5);
            Tally::reset_to(&mut cs[i], local.n + a % 3);
            local.reset_to(7);
            let d = Counter::take(&mut local);
            out[i] = a + b * 3 + c * 7 + t * 11 + d * 13 + local.n;
        }
    }

    /// A trait method with method syntax inside a generic kernel's instance.
    #[sarek::kernel(workgroup_size = [64])]
    pub fn tallies<T: Scalar>(k: T, cs: &mut [Counter], out: &mut [T]) {
        let i = global_thread_id();
        if i < cs.len() {
            let twice = cs[i].twice();
            cs[i].reset_to(twice);
            out[i] = k + T::ONE;
        }
    }
}

use counters::{Counter, Tally};

#[backends]
fn mut_self_methods_return_early_and_are_called_by_path(dev: Device) {
    let n = 200;
    let limit = 6;
    let mut expected: Vec<Counter> = (0..n)
        .map(|i| Counter {
            n: (i % 9) as u32,
            wraps: (i % 4) as u32,
        })
        .collect();
    let mut cs = dev.upload(&expected).unwrap();
    let mut out = dev.zeros::<u32>(n).unwrap();
    counters::count
        .launch(&dev, Grid::cover(n), limit, &mut cs, &mut out)
        .unwrap();
    let mut expected_out = Vec::new();
    for c in &mut expected {
        let a = c.bump(limit);
        let b = Counter::bump(c, limit);
        let t = c.take();
        let mut local = *c;
        let s = Counter::get(&local)
            + local.tally()
            + Tally::tally(&local)
            + <Counter as Tally>::tally(&local)
            + local.twice();
        Counter::add(&mut local, 5);
        Tally::reset_to(c, local.n + a % 3);
        local.reset_to(7);
        let d = Counter::take(&mut local);
        expected_out.push(a + b * 3 + s * 7 + t * 11 + d * 13 + local.n);
    }
    assert_eq!(cs.read().unwrap(), expected);
    assert_eq!(out.read().unwrap(), expected_out);

    let mut outf = dev.zeros::<f32>(n).unwrap();
    counters::tallies
        .launch(&dev, Grid::cover(n), 1.5f32, &mut cs, &mut outf)
        .unwrap();
    for c in &mut expected {
        let twice = c.twice();
        c.reset_to(twice);
    }
    assert_eq!(cs.read().unwrap(), expected);
    assert_eq!(outf.read().unwrap(), vec![2.5f32; n]);
}

use shapes::{Particle, Rng, Vec2};

fn particles(n: usize) -> Vec<Particle> {
    (0..n)
        .map(|i| Particle {
            pos: Vec2::new(i as f32 * 0.5, (i % 5) as f32),
            vel: Vec2::new(1.0, -((i % 7) as f32)),
            steps: 0,
        })
        .collect()
}

#[backends]
fn methods_change_buffer_elements_and_locals(dev: Device) {
    let n = 150;
    let mut expected = particles(n);
    let mut buf = dev.upload(&expected).unwrap();
    let mut energy = dev.zeros::<f32>(n).unwrap();
    shapes::step
        .launch(&dev, Grid::cover(n), 0.25, &mut buf, &mut energy)
        .unwrap();
    let mut expected_energy = Vec::new();
    for p in &mut expected {
        p.advance(0.25);
        p.advance(0.25);
        let mut copy = *p;
        copy.advance(0.25);
        expected_energy.push(copy.energy() + Vec2::new(1.0, 2.0).scaled(2.0).dot(copy.pos));
    }
    assert_eq!(buf.read().unwrap(), expected);
    assert_eq!(energy.read().unwrap(), expected_energy);
}

#[backends]
fn methods_change_workgroup_array_elements(dev: Device) {
    let n = 100;
    let mut expected = particles(n);
    let mut buf = dev.upload(&expected).unwrap();
    shapes::in_tile
        .launch(&dev, Grid::cover(n), &mut buf)
        .unwrap();
    for p in &mut expected {
        p.advance(0.5);
    }
    assert_eq!(buf.read().unwrap(), expected);
}

#[backends]
fn mut_self_methods_that_return_values(dev: Device) {
    let n = 90;
    let mut expected: Vec<Rng> = (0..n)
        .map(|i| Rng {
            state: i as u32 * 7919 + 1,
        })
        .collect();
    let mut rngs = dev.upload(&expected).unwrap();
    let mut out = dev.zeros::<u32>(n).unwrap();
    shapes::draw
        .launch(&dev, Grid::cover(n), &mut rngs, &mut out)
        .unwrap();
    let mut expected_out = Vec::new();
    for r in &mut expected {
        let a = r.next();
        let mut local = *r;
        let b = local.next() % 1000;
        expected_out.push(a % 1000 + b * 1000 + local.next() % 7);
    }
    assert_eq!(rngs.read().unwrap(), expected);
    assert_eq!(out.read().unwrap(), expected_out);
}
