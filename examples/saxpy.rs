//! `y = a·x + y` over 16 million floats: the main example.
//!
//! Run it with `cargo run --release --example saxpy`.

use std::time::Instant;

use sarek::prelude::*;

#[sarek::kernel]
pub fn saxpy(a: f32, x: &[f32], y: &mut [f32]) {
    let i = global_thread_id();
    if i < y.len() {
        y[i] = a * x[i] + y[i];
    }
}

fn main() -> sarek::Result<()> {
    let n = 1 << 24;
    let dev = Device::new()?;
    println!("adapter: {} ({:?})", dev.name(), dev.backend());

    let xs: Vec<f32> = (0..n).map(|i| (i % 1000) as f32).collect();
    let ys: Vec<f32> = (0..n).map(|i| (i % 7) as f32).collect();
    let x = dev.upload(&xs)?;
    let mut y = dev.upload(&ys)?;

    // The first launch creates the pipeline; time a second one as well.
    let start = Instant::now();
    saxpy.launch(&dev, Grid::cover(n), 2.0, &x, &mut y)?;
    dev.synchronize()?;
    let first = start.elapsed();
    let start = Instant::now();
    saxpy.launch(&dev, Grid::cover(n), 2.0, &x, &mut y)?;
    dev.synchronize()?;
    let second = start.elapsed();

    let out = y.read()?;
    let wrong = (0..n).filter(|&i| out[i] != 4.0 * xs[i] + ys[i]).count();
    println!("saxpy over {n} elements: first launch {first:?} (with pipeline creation), second {second:?}");
    if wrong != 0 {
        eprintln!("{wrong} of {n} results are wrong");
        std::process::exit(1);
    }
    println!("all {n} results correct");
    Ok(())
}
