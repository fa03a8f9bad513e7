//! A 2-D heat equation (Jacobi iteration) distributed over MPI ranks by rows, each rank on its
//! own device, exchanging halo rows with its neighbours every step, and checked exactly
//! against a single-process run of the same grid.
//!
//! ```text
//! cargo build --release --features mpi --example mpi_heat
//! mpirun -n 2 target/release/examples/mpi_heat --width 256 --height 256 --steps 50
//! ```
//!
//! Needs an MPI library (Debian: `apt-get install libopenmpi-dev openmpi-bin libclang-dev`)
//! and the `mpi` feature. Each rank takes the GPU of its local rank on its host (ranks on one
//! host share out the hardware adapters in turn), else the device `Device::new()` picks (the
//! CPU backend without a GPU); `SAREK_DEVICE` or `SAREK_ADAPTER` in the environment choose
//! the device as for `Device::new()` instead.
//!
//! A rank owns rows `first..first + rows` of the `height × width` grid and keeps them in a
//! buffer of `rows + 2` rows: a halo row above and below holds its neighbours' edge rows.
//! Every step launches the stencil, then reads its two edge rows back to the host
//! (`read_range`), swaps them with the neighbours (`MPI_Sendrecv`) and writes the received
//! rows into the halos (`write_at`): device → host → MPI → host → device. A GPU-direct
//! path (CUDA-aware MPI or NCCL on the wgpu buffer's memory, which wgpu does not expose today)
//! would replace exactly these three calls in `exchange_halos`, skipping both PCIe copies.
//! The root prints the mean per-step compute time and halo-exchange time (the largest over
//! ranks), which docs/scaling.md turns into a scaling model.

use std::time::{Duration, Instant};

use mpi::point_to_point::send_receive_into;
use mpi::topology::Communicator;
use mpi::traits::{CommunicatorCollectives, Destination, Root, Source};
use sarek::prelude::*;

/// One Jacobi step on a band of `rows` rows starting at global row `first_row`: `src` and `dst`
/// hold `rows + 2` rows of `width` (a halo row above and below). The grid's outer rows and
/// columns are fixed (Dirichlet boundary).
#[sarek::kernel(workgroup_size = [16, 16])]
pub fn jacobi(
    width: usize,
    height: usize,
    first_row: usize,
    rows: usize,
    src: &[f32],
    dst: &mut [f32],
) {
    let col = global_idx_x();
    let r = global_idx_y();
    if col < width && r < rows {
        let g = first_row + r;
        let i = (r + 1) * width + col;
        if g == 0 || g == height - 1 || col == 0 || col == width - 1 {
            dst[i] = src[i];
        } else {
            dst[i] = 0.25 * (src[i - width] + src[i + width] + src[i - 1] + src[i + 1]);
        }
    }
}

/// The grid's size and the number of steps, from the command line.
struct Options {
    width: usize,
    height: usize,
    steps: usize,
}

fn options() -> Options {
    let mut o = Options {
        width: 1024,
        height: 1024,
        steps: 200,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| -> usize {
            args.next()
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("{name} needs a number"))
        };
        match arg.as_str() {
            "--width" => o.width = value("--width"),
            "--height" => o.height = value("--height"),
            "--steps" => o.steps = value("--steps"),
            other => panic!("unknown argument {other:?} (--width, --height, --steps)"),
        }
    }
    assert!(
        o.width >= 3 && o.height >= 3,
        "the grid needs at least 3×3 cells"
    );
    o
}

/// The initial temperature of global cell (`row`, `col`): a hot top edge, a warm left edge
/// and a pattern inside.
fn initial(row: usize, col: usize) -> f32 {
    if row == 0 {
        1.0
    } else if col == 0 {
        0.5
    } else {
        ((row * 31 + col * 17) % 100) as f32 / 100.0
    }
}

/// Rows `first..first + rows` with a halo row above and below (zeros; filled by the first
/// exchange, or never read at the grid's edges).
fn band(width: usize, first: usize, rows: usize) -> Vec<f32> {
    let mut v = vec![0.0f32; (rows + 2) * width];
    for r in 0..rows {
        for c in 0..width {
            v[(r + 1) * width + c] = initial(first + r, c);
        }
    }
    v
}

/// The rows of `rank` among `size` ranks: contiguous, as equal as possible (as `sarek::Split`
/// cuts them).
fn rows_of(height: usize, rank: usize, size: usize) -> (usize, usize) {
    let rows = height / size + usize::from(rank < height % size);
    let first = (0..rank)
        .map(|r| height / size + usize::from(r < height % size))
        .sum();
    (first, rows)
}

/// This rank's device: the hardware adapter of its local rank (in turn), else `Device::new()`.
fn rank_device(local_rank: usize) -> sarek::Result<Device> {
    if std::env::var_os("SAREK_DEVICE").is_some() || std::env::var_os("SAREK_ADAPTER").is_some() {
        return Device::new();
    }
    let gpus: Vec<usize> = Device::adapters()
        .iter()
        .enumerate()
        .filter(|(_, a)| a.device_type != sarek::wgpu::DeviceType::Cpu)
        .map(|(i, _)| i)
        .collect();
    if gpus.is_empty() {
        return Device::new();
    }
    Device::with_adapter(gpus[local_rank % gpus.len()])
}

/// One step on a band: the stencil from `src` into `dst`, waiting for the device.
fn step(
    dev: &Device,
    width: usize,
    height: usize,
    first: usize,
    rows: usize,
    src: &sarek::Buffer<f32>,
    dst: &mut sarek::Buffer<f32>,
) -> sarek::Result<()> {
    jacobi.launch(
        dev,
        Grid::cover_2d(width, rows),
        width,
        height,
        first,
        rows,
        src,
        dst,
    )?;
    dev.synchronize()
}

/// Swaps edge rows with the neighbouring ranks: device → host → MPI → host → device.
/// Returns the time of each leg: reading the edge rows back, MPI, writing the halos.
fn exchange_halos<C: Communicator>(
    world: &C,
    u: &mut sarek::Buffer<f32>,
    width: usize,
    rows: usize,
) -> sarek::Result<[Duration; 3]> {
    let (rank, size) = (world.rank(), world.size());
    let start = Instant::now();
    let top = u.read_range(width..2 * width)?;
    let bottom = u.read_range(rows * width..(rows + 1) * width)?;
    let read = start.elapsed();
    let start = Instant::now();
    let mut from_above = vec![0.0f32; width];
    let mut from_below = vec![0.0f32; width];
    let up = (rank > 0).then(|| world.process_at_rank(rank - 1));
    let down = (rank + 1 < size).then(|| world.process_at_rank(rank + 1));
    // Upwards: my top row to the rank above, the top row of the rank below into my bottom halo.
    match (&up, &down) {
        (Some(up), Some(down)) => {
            send_receive_into(&top[..], up, &mut from_below[..], down);
        }
        (Some(up), None) => up.send(&top[..]),
        (None, Some(down)) => {
            down.receive_into(&mut from_below[..]);
        }
        (None, None) => {}
    }
    // Downwards: my bottom row to the rank below, the bottom row of the rank above into my
    // top halo.
    match (&up, &down) {
        (Some(up), Some(down)) => {
            send_receive_into(&bottom[..], down, &mut from_above[..], up);
        }
        (None, Some(down)) => down.send(&bottom[..]),
        (Some(up), None) => {
            up.receive_into(&mut from_above[..]);
        }
        (None, None) => {}
    }
    let mpi = start.elapsed();
    let start = Instant::now();
    if up.is_some() {
        u.write_at(0, &from_above)?;
    }
    if down.is_some() {
        u.write_at((rows + 1) * width, &from_below)?;
    }
    Ok([read, mpi, start.elapsed()])
}

/// The whole grid on one device, without MPI: the reference, and the per-step time of one
/// device.
fn single_process(dev: &Device, o: &Options) -> sarek::Result<(Vec<f32>, Duration)> {
    let mut u = dev.upload(&band(o.width, 0, o.height))?;
    let mut v = dev.upload(&band(o.width, 0, o.height))?;
    let mut compute = Duration::ZERO;
    for _ in 0..o.steps {
        let start = Instant::now();
        step(dev, o.width, o.height, 0, o.height, &u, &mut v)?;
        compute += start.elapsed();
        std::mem::swap(&mut u, &mut v);
    }
    let all = u.read_range(o.width..(o.height + 1) * o.width)?;
    Ok((all, compute / o.steps.max(1) as u32))
}

fn main() -> sarek::Result<()> {
    let o = options();
    let (universe, _) = mpi::initialize_with_threading(mpi::Threading::Funneled)
        .expect("MPI could not be initialised");
    let world = universe.world();
    let (rank, size) = (world.rank(), world.size());
    let local_rank = world.split_shared(rank).rank() as usize;
    assert!(
        o.height >= size as usize,
        "{} rows cannot be split over {size} ranks",
        o.height
    );
    let dev = rank_device(local_rank)?;
    let (first, rows) = rows_of(o.height, rank as usize, size as usize);
    println!(
        "rank {rank}/{size} (local {local_rank}): rows {first}..{} on {}",
        first + rows,
        dev.name()
    );

    let mut u = dev.upload(&band(o.width, first, rows))?;
    let mut v = dev.upload(&band(o.width, first, rows))?;
    exchange_halos(&world, &mut u, o.width, rows)?;
    let mut compute = Duration::ZERO;
    let mut halo = [Duration::ZERO; 3];
    for _ in 0..o.steps {
        let start = Instant::now();
        step(&dev, o.width, o.height, first, rows, &u, &mut v)?;
        compute += start.elapsed();
        std::mem::swap(&mut u, &mut v);
        let legs = exchange_halos(&world, &mut u, o.width, rows)?;
        for (total, leg) in halo.iter_mut().zip(legs) {
            *total += leg;
        }
    }
    let mine = u.read_range(o.width..(rows + 1) * o.width)?;

    // Mean per-step times, the largest over ranks (the slowest rank sets the pace).
    let per_step = |d: Duration| d.as_secs_f64() / o.steps.max(1) as f64;
    let local = [
        per_step(compute),
        per_step(halo[0]),
        per_step(halo[1]),
        per_step(halo[2]),
    ];
    let mut slowest = [0.0f64; 4];
    world.all_reduce_into(
        &local[..],
        &mut slowest[..],
        mpi::collective::SystemOperation::max(),
    );

    let root = world.process_at_rank(0);
    let mut ok = 1u8;
    if rank == 0 {
        let mut all = mine;
        for r in 1..size {
            let (part, _) = world.process_at_rank(r).receive_vec::<f32>();
            all.extend(part);
        }
        let (expect, one) = single_process(&dev, &o)?;
        let wrong = all
            .iter()
            .zip(&expect)
            .filter(|(a, b)| a.to_bits() != b.to_bits())
            .count();
        println!(
            "{}×{} grid, {} steps over {size} ranks: compute {:.3} ms/step, halo exchange \
             {:.3} ms/step (read back {:.3}, MPI {:.3}, write {:.3}; each the largest over \
             ranks); one device alone: compute {:.3} ms/step",
            o.height,
            o.width,
            o.steps,
            slowest[0] * 1e3,
            (slowest[1] + slowest[2] + slowest[3]) * 1e3,
            slowest[1] * 1e3,
            slowest[2] * 1e3,
            slowest[3] * 1e3,
            one.as_secs_f64() * 1e3
        );
        if wrong == 0 {
            println!("matches the single-process run exactly");
        } else {
            eprintln!(
                "{wrong} of {} cells differ from the single-process run",
                all.len()
            );
            ok = 0;
        }
    } else {
        root.send(&mine[..]);
    }
    root.broadcast_into(&mut ok);
    drop(universe);
    if ok == 0 {
        std::process::exit(1);
    }
    Ok(())
}
