//! An application of the `reductions` kernel library: it adds its own element type and monoid
//! (`ArgMax`, the largest value and where it is) to the library's generic reduction, asks for
//! that instance, and calls the library's helpers (`clamp_to`, the generic `larger`) from a
//! kernel of its own. Every result is checked against the host; a mismatch exits non-zero.
//!
//! Run it with `cargo run -p reductions-app` (`SAREK_DEVICE=cpu` runs it on the CPU backend).

use sarek::{Device, Grid};

#[sarek::module]
mod sensors {
    use reductions::blocks::{clamp_to, larger, reduce, Monoid, Total};
    use sarek::prelude::*;

    /// The largest value seen and its index (the first such index on ties).
    pub struct ArgMax {
        pub value: f32,
        pub index: u32,
    }

    impl Monoid for ArgMax {
        fn identity() -> Self {
            ArgMax {
                value: -3.0e38,
                index: u32::MAX,
            }
        }
        fn combine(a: Self, b: Self) -> Self {
            if b.value > a.value || (b.value == a.value && b.index < a.index) {
                b
            } else {
                a
            }
        }
    }

    // Compiled, checked and validated here, where `ArgMax` and its impl are; and the
    // library's own `Total` instance again as a kernel of this crate (Rust's orphan rule lets
    // only the library implement `sarek::Instance` with its types alone).
    sarek::instances!(reduce<ArgMax>, pub sum_totals = reduce<Total>);

    /// Tags each reading, clamped into the sensor's range, with its index.
    #[sarek::kernel]
    pub fn tag(readings: &[f32], out: &mut [ArgMax]) {
        let i = global_thread_id();
        if i < readings.len() {
            out[i] = ArgMax {
                value: clamp_to(readings[i], 0.0, 100.0),
                index: larger(i as u32, 0u32),
            };
        }
    }
}

use reductions::blocks::Total;
use sensors::ArgMax;

fn main() -> sarek::Result<()> {
    let dev = Device::new()?;
    println!("device: {}", dev.name());
    let n = 100_003;
    let readings: Vec<f32> = (0..n)
        .map(|i| ((i as u64 * 2_654_435_761u64) % 1000) as f32 * 0.15 - 20.0)
        .collect();

    let r = dev.upload(&readings)?;
    let mut tagged = dev.upload(&vec![
        ArgMax {
            value: 0.0,
            index: 0
        };
        n
    ])?;
    sensors::tag
        .launch(&dev, Grid::cover(n), &r, &mut tagged)?
        .wait()?;
    let best = reductions::reduce_all(&dev, &tagged.read()?)?;

    let clamped: Vec<f32> = readings.iter().map(|x| x.clamp(0.0, 100.0)).collect();
    let top = clamped.iter().cloned().fold(f32::MIN, f32::max);
    let first = clamped.iter().position(|&x| x == top).unwrap() as u32;
    println!(
        "largest clamped reading: {} at {} (host: {top} at {first})",
        best.value, best.index
    );

    // The library's own instance, through the same host code.
    let totals: Vec<Total> = (0..n)
        .map(|i| Total {
            sum: (i % 7) as f32,
        })
        .collect();
    let total = reductions::reduce_all(&dev, &totals)?;
    let expected: f32 = (0..n).map(|i| (i % 7) as f32).sum();
    println!("total: {} (host: {expected})", total.sum);

    // One level of the same reduction through this crate's own kernel for it.
    let t = dev.upload(&totals)?;
    let groups = n.div_ceil(reductions::blocks::BLOCK);
    let mut partials = dev.upload(&vec![Total { sum: 0.0 }; groups])?;
    sensors::sum_totals
        .launch(&dev, Grid::cover(n), &t, &mut partials)?
        .wait()?;
    let level: f32 = partials.read()?.iter().map(|p| p.sum).sum();
    println!("sum of the first level's partials: {level}");

    if best.value != top || best.index != first || total.sum != expected || level != expected {
        eprintln!("mismatch");
        std::process::exit(1);
    }
    Ok(())
}
