//! Ordinary Rust control flow that ports unchanged: a deferred `let x;` typed by its later
//! assignments, labelled `break`/`continue` out of nested loops, and match guards. Every
//! kernel is checked against the same function run on the host.

use crate::common;
use crate::common::backends;
use sarek::Device;

use sarek::Grid;

#[sarek::module]
// Kernel code: it is written the way the test exercises the compiler, not as clippy prefers.
#[allow(clippy::let_and_return)]
mod flow {
    use sarek::prelude::*;

    #[derive(Debug, PartialEq)]
    pub enum Cell {
        Empty,
        Value(i32),
        Pair { a: i32, b: i32 },
    }

    /// The example: `n` is an `f32` because of its assignments.
    #[sarek::kernel]
    pub fn deferred(x: &[f32], flag: &[u32], out: &mut [f32]) {
        let i = global_thread_id();
        if i < x.len() {
            let n;
            if flag[i] % 2 == 0 {
                n = x[i] * 2.0;
            } else {
                n = x[i];
            }
            let k;
            k = flag[i] / 2; // a `u32`, from the buffer
            let c;
            match k % 3 {
                0 => c = Cell::Value(1),
                _ => c = Cell::Empty,
            }
            let bonus = if let Cell::Value(v) = c {
                v as f32
            } else {
                0.0
            };
            out[i] = n + k as f32 + bonus;
        }
    }

    /// Finds the first pair `(a, b)` with `a * b == target` by leaving both loops at once;
    /// counts rows skipped with `continue 'rows`.
    #[sarek::kernel]
    pub fn search(targets: &[u32], found: &mut [u32], skipped: &mut [u32]) {
        let i = global_thread_id();
        if i < targets.len() {
            let t = targets[i];
            let mut hit = 0u32;
            let mut skip = 0u32;
            'rows: for a in 1..20u32 {
                if a % 7 == 0 {
                    skip += 1;
                    continue;
                }
                let mut b = 1u32;
                'cols: while b < 20 {
                    let mut probe = 0u32;
                    loop {
                        probe += 1;
                        if a * b == t {
                            hit = a * 100 + b;
                            break 'rows;
                        }
                        if a * b > t {
                            skip += 1;
                            continue 'rows;
                        }
                        if probe > 0 {
                            b += 1;
                            continue 'cols;
                        }
                    }
                }
            }
            found[i] = hit;
            skipped[i] = skip;
        }
    }

    /// A helper returning a tuple.
    fn div_rem(a: u32, b: u32) -> (u32, u32) {
        (a / b, a % b)
    }

    fn stats(x: f32, y: f32) -> (f32, f32, bool) {
        let t = (x.min(y), x.max(y), x < y);
        t
    }

    /// Tuples as values: destructured from helpers, stored in locals, read with `.0`.
    #[sarek::kernel]
    pub fn tuples(xs: &[u32], out: &mut [u32], fs: &mut [f32]) {
        let i = global_thread_id();
        if i < xs.len() {
            let (q, r) = div_rem(xs[i], 7);
            let pair = div_rem(xs[i] + 3, 5);
            let (lo, mut hi, less) = stats(xs[i] as f32, 100.0);
            hi += 1.0;
            out[i] = q * 1000 + r * 100 + pair.0 * 10 + pair.1 + if less { 1 } else { 0 };
            fs[i] = lo + hi;
        }
    }

    /// Guards on enum payloads and on integers, falling through to later arms.
    #[sarek::kernel]
    pub fn classify(cells: &[Cell], out: &mut [i32]) {
        let i = global_thread_id();
        if i < cells.len() {
            let r = match cells[i] {
                Cell::Value(v) if v > 100 => 3,
                Cell::Value(v) if v < 0 => -v,
                Cell::Value(v) => v * 10,
                Cell::Pair { a, b } if a == b => 7,
                Cell::Pair { a, .. } => a,
                Cell::Empty => 0,
            };
            let s = i as i32 % 5;
            let bucket = match s {
                0 | 1 if r > 50 => 1000,
                0 | 1 => 2000,
                x if x == 4 => 4000,
                _ => 0,
            };
            out[i] = r + bucket;
        }
    }
}

use flow::Cell;

fn search_host(t: u32) -> (u32, u32) {
    let mut hit = 0;
    let mut skip = 0;
    'rows: for a in 1..20u32 {
        if a % 7 == 0 {
            skip += 1;
            continue;
        }
        let mut b = 1u32;
        while b < 20 {
            if a * b == t {
                hit = a * 100 + b;
                break 'rows;
            }
            if a * b > t {
                skip += 1;
                continue 'rows;
            }
            b += 1;
        }
    }
    (hit, skip)
}

fn classify_host(i: usize, c: &Cell) -> i32 {
    let r = match *c {
        Cell::Value(v) if v > 100 => 3,
        Cell::Value(v) if v < 0 => -v,
        Cell::Value(v) => v * 10,
        Cell::Pair { a, b } if a == b => 7,
        Cell::Pair { a, .. } => a,
        Cell::Empty => 0,
    };
    let bucket = match i as i32 % 5 {
        0 | 1 if r > 50 => 1000,
        0 | 1 => 2000,
        4 => 4000,
        _ => 0,
    };
    r + bucket
}

#[backends]
fn deferred_let_takes_the_type_of_its_assignments(dev: Device) {
    let n = 300;
    let xs: Vec<f32> = (0..n).map(|v| v as f32 * 0.5).collect();
    let flags: Vec<u32> = common::random_u32(9, n).iter().map(|v| v % 50).collect();
    let (x, f) = (dev.upload(&xs).unwrap(), dev.upload(&flags).unwrap());
    let mut out = dev.zeros::<f32>(n).unwrap();
    flow::deferred
        .launch(&dev, Grid::cover(n), &x, &f, &mut out)
        .unwrap();
    let got = out.read().unwrap();
    for i in 0..n {
        let base = if flags[i].is_multiple_of(2) {
            xs[i] * 2.0
        } else {
            xs[i]
        };
        let k = flags[i] / 2;
        let bonus = if k.is_multiple_of(3) { 1.0 } else { 0.0 };
        assert_eq!(got[i], base + k as f32 + bonus, "{i}");
    }
}

#[backends]
fn labelled_break_and_continue_leave_outer_loops(dev: Device) {
    let targets: Vec<u32> = (0..400).collect();
    let t = dev.upload(&targets).unwrap();
    let mut found = dev.zeros::<u32>(targets.len()).unwrap();
    let mut skipped = dev.zeros::<u32>(targets.len()).unwrap();
    flow::search
        .launch(
            &dev,
            Grid::cover(targets.len()),
            &t,
            &mut found,
            &mut skipped,
        )
        .unwrap();
    let (found, skipped) = (found.read().unwrap(), skipped.read().unwrap());
    for (i, &target) in targets.iter().enumerate() {
        assert_eq!(
            (found[i], skipped[i]),
            search_host(target),
            "target {target}"
        );
    }
    assert!(found.iter().any(|&f| f != 0) && found.contains(&0));
}

#[backends]
fn tuples_from_helpers(dev: Device) {
    let n = 200;
    let xs: Vec<u32> = common::random_u32(2, n).iter().map(|v| v % 300).collect();
    let x = dev.upload(&xs).unwrap();
    let mut out = dev.zeros::<u32>(n).unwrap();
    let mut fs = dev.zeros::<f32>(n).unwrap();
    flow::tuples
        .launch(&dev, Grid::cover(n), &x, &mut out, &mut fs)
        .unwrap();
    let (out, fs) = (out.read().unwrap(), fs.read().unwrap());
    for i in 0..n {
        let v = xs[i];
        let expect =
            (v / 7) * 1000 + (v % 7) * 100 + ((v + 3) / 5) * 10 + (v + 3) % 5 + u32::from(v < 100);
        assert_eq!(out[i], expect, "{i}");
        let f = v as f32;
        assert_eq!(fs[i], f.min(100.0) + f.max(100.0) + 1.0, "{i}");
    }
}

#[backends]
fn match_guards_fall_through_to_later_arms(dev: Device) {
    let n = 500;
    let r = common::random_u32(21, n);
    let cells: Vec<Cell> = r
        .iter()
        .map(|&v| match v % 4 {
            0 => Cell::Empty,
            1 => Cell::Value((v % 300) as i32 - 100),
            2 => Cell::Pair {
                a: (v % 3) as i32,
                b: (v / 3 % 3) as i32,
            },
            _ => Cell::Value((v % 1000) as i32),
        })
        .collect();
    let c = dev.upload(&cells).unwrap();
    let mut out = dev.zeros::<i32>(n).unwrap();
    flow::classify
        .launch(&dev, Grid::cover(n), &c, &mut out)
        .unwrap();
    let got = out.read().unwrap();
    for (i, cell) in cells.iter().enumerate() {
        assert_eq!(got[i], classify_host(i, cell), "{i}: {cell:?}");
    }
}
