//! saxpy and a register-blocked matrix product split over every device of the host
//! (`Device::all()` and `sarek::Split`), timed on the first device alone and on all of them,
//! with the results checked.
//!
//! ```text
//! cargo run --release --example multi_gpu                      # 2^28 floats, 8192² matrices
//! cargo run --release --example multi_gpu -- --saxpy 65536 --matmul 256 --with-cpu
//! ```
//!
//! `--saxpy N` and `--matmul N` set the sizes (the matrix side a multiple of 4), `--repeat R`
//! how many timed launches each measurement takes the best of, `--warm-ms T` how long each
//! measurement first runs its work untimed (default 1000; see [`best`]), `--with-cpu` adds the CPU
//! backend as one more device (CI uses it to split over lavapipe and the CPU backend), and
//! `--trace` prints, for the best run of each measurement, when each device's thread started,
//! had submitted its launch and had seen its device finish, and the launch's time on the GPU
//! from timestamp queries where the device has them (each thread then waits for its own device
//! and reads the timestamps inside the timed run, so traced times are a little longer). With one
//! device the example still runs; the "speed-up" is then 1. Times are wall-clock times of the
//! launches with the data already on the devices (uploads and read-backs are left out), so
//! they measure how the computation splits, not PCIe.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use sarek::prelude::*;
use sarek::Split;

#[sarek::kernel]
pub fn saxpy(a: f32, x: &[f32], y: &mut [f32]) {
    let i = global_thread_id();
    if i < y.len() {
        y[i] = a * x[i] + y[i];
    }
}

/// `c = a · b` for `rows` rows of `a` (`rows × n`) and the whole of `b` (`n × n`), with
/// register blocking: a 16×16 workgroup computes a 128×128 tile of `c`, each thread an 8×8
/// block in sixteen `Vec4`s; each step along k stages a 128×8 slice of `a` (transposed) and an
/// 8×128 slice of `b` in workgroup memory. `n` must be a multiple of 4 (rows of `Vec4`).
///
/// The example keeps a kernel of its own because none of the project's fits: the library
/// (`sarek::`) has no f32 matrix product; the benchmark suite's `matmul_rb` lives in
/// `sarek-bench`, which depends on this crate (so its examples cannot use it), and takes one
/// `n` for the rows of `a` and `c` as for the columns, so a device given a band of rows would
/// read and write past its band in the band's last tile; `examples/matmul.rs` is another
/// example's square product. This is an earlier, single-buffered form of `matmul_rb` with the
/// rows of `a` apart from `n`, so that a device can take a band of rows; the example measures
/// how the work splits over devices, not the fastest kernel.
#[sarek::kernel(workgroup_size = [16, 16])]
pub fn matmul_rows(rows: usize, n: usize, a: &[Vec4], b: &[Vec4], c: &mut [Vec4]) {
    const BK: usize = 8;
    let at = shared::<[[f32; 128]; BK]>();
    let bt = shared::<[[Vec4; 32]; BK]>();
    let tx = thread_idx_x();
    let ty = thread_idx_y();
    let tid = ty * 16 + tx;
    let row0 = block_idx_y() * 128;
    let col0 = block_idx_x() * 128;
    let n4 = n / 4;
    let mut acc = [Vec4::ZERO; 16];
    let ar = tid / 2;
    let ak = (tid % 2) * 4;
    let br = tid / 32;
    let bc = tid % 32;
    let mut k0 = 0;
    while k0 < n {
        let gr = row0 + ar;
        let va = if gr < rows && k0 + ak < n {
            a[gr * n4 + (k0 + ak) / 4]
        } else {
            Vec4::ZERO
        };
        at[ak][ar] = va.x;
        at[ak + 1][ar] = va.y;
        at[ak + 2][ar] = va.z;
        at[ak + 3][ar] = va.w;
        let gk = k0 + br;
        let gc = col0 + bc * 4;
        bt[br][bc] = if gk < n && gc < n {
            b[gk * n4 + gc / 4]
        } else {
            Vec4::ZERO
        };
        block_barrier();
        for k in 0..BK {
            let b0 = bt[k][tx];
            let b1 = bt[k][16 + tx];
            for i in 0..4 {
                let a0 = at[k][ty * 4 + i];
                let a1 = at[k][64 + ty * 4 + i];
                acc[i * 2] += b0 * a0;
                acc[i * 2 + 1] += b1 * a0;
                acc[8 + i * 2] += b0 * a1;
                acc[8 + i * 2 + 1] += b1 * a1;
            }
        }
        block_barrier();
        k0 += BK;
    }
    for i in 0..4 {
        for half in 0..2 {
            let r = row0 + half * 64 + ty * 4 + i;
            let c0 = col0 + tx * 4;
            if r < rows && c0 < n {
                c[r * n4 + c0 / 4] = acc[half * 8 + i * 2];
            }
            if r < rows && c0 + 64 < n {
                c[r * n4 + (c0 + 64) / 4] = acc[half * 8 + i * 2 + 1];
            }
        }
    }
}

/// The command line's sizes.
struct Options {
    saxpy: usize,
    matmul: usize,
    repeat: usize,
    warm: Duration,
    with_cpu: bool,
    trace: bool,
}

fn options() -> Options {
    let mut o = Options {
        saxpy: 1 << 28,
        matmul: 8192,
        repeat: 5,
        warm: Duration::from_millis(1000),
        with_cpu: false,
        trace: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| -> usize {
            args.next()
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("{name} needs a number"))
        };
        match arg.as_str() {
            "--saxpy" => o.saxpy = value("--saxpy"),
            "--matmul" => o.matmul = value("--matmul"),
            "--repeat" => o.repeat = value("--repeat").max(1),
            "--warm-ms" => o.warm = Duration::from_millis(value("--warm-ms") as u64),
            "--with-cpu" => o.with_cpu = true,
            "--trace" => o.trace = true,
            other => panic!("unknown argument {other:?} (see the example's doc comment)"),
        }
    }
    assert!(
        o.matmul.is_multiple_of(4),
        "--matmul must be a multiple of 4"
    );
    o
}

/// A part's index, when its thread started, had submitted its launch and had seen its device
/// finish, and the launch's GPU time where timestamps were on.
type Mark = (usize, Duration, Duration, Duration, Option<Duration>);

/// With `--trace`, where the time of a run goes on each device's thread.
struct Trace {
    on: bool,
    /// When the current run started.
    start: Mutex<Instant>,
    /// Per part of the current run: its index, when its thread started, had submitted its
    /// launch and had seen its device finish (from the start of the run), and the launch's
    /// GPU time.
    marks: Mutex<Vec<Mark>>,
}

impl Trace {
    fn new(on: bool) -> Trace {
        Trace {
            on,
            start: Mutex::new(Instant::now()),
            marks: Mutex::new(Vec::new()),
        }
    }

    /// The time since the start of the run.
    fn now(&self) -> Duration {
        self.start.lock().unwrap().elapsed()
    }

    /// Marks part `index` of the current run, which started at `started` and submitted
    /// `launch` at `launched`, once its device has finished.
    fn finish(
        &self,
        device: &Device,
        index: usize,
        started: Duration,
        launched: Duration,
        launch: &sarek::Launch,
    ) -> sarek::Result<()> {
        if self.on {
            device.synchronize()?;
            let done = self.now();
            let gpu = launch.gpu_time()?;
            self.marks
                .lock()
                .unwrap()
                .push((index, started, launched, done, gpu));
        }
        Ok(())
    }

    /// Prints the marks of `run` (the best run's).
    fn print(&self, what: &str, run: &[Mark]) {
        if !self.on {
            return;
        }
        let mut run = run.to_vec();
        run.sort_by_key(|m| m.0);
        let us = |t: Duration| t.as_secs_f64() * 1e6;
        for (index, started, launched, done, gpu) in run {
            let gpu = gpu.map_or("no timestamps".into(), |t| format!("{:.0} µs", us(t)));
            println!(
                "  trace {what}, device {index}: thread started {:.0} µs, launch submitted {:.0} µs, device done {:.0} µs; on the GPU {gpu}",
                us(started),
                us(launched),
                us(done)
            );
        }
    }
}

/// The most untimed runs a warm-up makes, whatever `--warm-ms` says: saxpy's check needs its
/// accumulated sums exact in f32 (below 2^24 with inputs up to 999).
const MAX_WARM_RUNS: usize = 2000;

/// The best of `repeat` runs of `f`, printing the best run's trace, and how many times `f`
/// ran in all. First `f` runs untimed, once (creating the pipelines) and then again until
/// `warm` has passed: a GPU left idle for a second or two drops its clocks (measured on an
/// H200: SM clock 480–510 MHz after 2 s idle, saxpy at 1.8 TB/s instead of 4.3), and a few
/// short launches do not bring them back, while 500 ms of steady work does. Uploading the
/// parts idles every device for seconds, so without this warm-up the split run was timed at
/// idle clocks and the one-device run, whose upload is shorter, partly at working clocks.
fn best(
    what: &str,
    repeat: usize,
    warm: Duration,
    trace: &Trace,
    mut f: impl FnMut() -> sarek::Result<()>,
) -> sarek::Result<(Duration, usize)> {
    let warm_start = Instant::now();
    f()?;
    let mut runs = 1;
    while warm_start.elapsed() < warm && runs < MAX_WARM_RUNS {
        f()?;
        runs += 1;
    }
    let mut best = Duration::MAX;
    let mut best_marks = Vec::new();
    for _ in 0..repeat {
        trace.marks.lock().unwrap().clear();
        let start = Instant::now();
        *trace.start.lock().unwrap() = start;
        f()?;
        let time = start.elapsed();
        if time < best {
            best = time;
            best_marks = trace.marks.lock().unwrap().clone();
        }
    }
    trace.print(what, &best_marks);
    Ok((best, runs + repeat))
}

/// saxpy split over `devices`: the best launch time, the result and how many runs made it.
fn run_saxpy(
    devices: &[Device],
    xs: &[f32],
    ys: &[f32],
    o: &Options,
    trace: &Trace,
) -> sarek::Result<(Duration, Vec<f32>, usize)> {
    let split = Split::new(devices, xs.len())?;
    let x = split.scatter(xs)?;
    let y = split.scatter(ys)?;
    let mut parts: Vec<_> = x.iter().zip(y).collect();
    // Every run adds 2·x to `y` again: after `runs` runs (untimed and timed),
    // y = ys + runs·2·x, which `main` checks.
    let what = format!("saxpy on {} device(s)", devices.len());
    let (time, runs) = best(&what, o.repeat, o.warm, trace, || {
        split.run(&mut parts, |part, (x, y)| {
            let started = trace.now();
            let launch = saxpy.launch(&part.device, Grid::cover(part.len), 2.0, x, y)?;
            trace.finish(&part.device, part.index, started, trace.now(), &launch)
        })
    })?;
    let y: Vec<_> = parts.into_iter().map(|(_, y)| y).collect();
    Ok((time, split.gather(&y)?, runs))
}

/// The matrix product split by rows over `devices`: the best launch time and `c`.
fn run_matmul(
    devices: &[Device],
    n: usize,
    av: &[Vec4],
    bv: &[Vec4],
    o: &Options,
    trace: &Trace,
) -> sarek::Result<(Duration, Vec<Vec4>)> {
    let n4 = n / 4;
    let split = Split::new(devices, n)?;
    let a = split.scatter_rows(av, n4)?;
    let b = split.replicate(bv)?;
    let c = split.zeros::<Vec4>(n4)?;
    let mut parts: Vec<_> = a
        .iter()
        .zip(&b)
        .zip(c)
        .map(|((a, b), c)| (a, b, c))
        .collect();
    let what = format!("matmul on {} device(s)", devices.len());
    let (time, _) = best(&what, o.repeat, o.warm, trace, || {
        split.run(&mut parts, |part, (a, b, c)| {
            let started = trace.now();
            let grid = Grid::groups([n.div_ceil(128) as u32, part.len.div_ceil(128) as u32, 1]);
            let launch = matmul_rows.launch(&part.device, grid, part.len, n, a, b, c)?;
            trace.finish(&part.device, part.index, started, trace.now(), &launch)
        })
    })?;
    let c: Vec<_> = parts.into_iter().map(|(_, _, c)| c).collect();
    Ok((time, split.gather_rows(&c, n4)?))
}

fn main() -> sarek::Result<()> {
    let o = options();
    let mut devices = Device::all()?;
    if o.with_cpu && !devices.iter().any(Device::is_cpu) {
        devices.push(Device::cpu());
    }
    for (i, dev) in devices.iter().enumerate() {
        println!("device {i}: {} ({:?})", dev.name(), dev.backend());
    }
    let mut failed = false;
    let trace = Trace::new(o.trace);
    if o.trace {
        for dev in &devices {
            dev.set_profiling(true);
        }
    }

    // saxpy: y = 2·x + y, checked everywhere (small integers: exact in f32). Runs accumulate
    // in `y`, so the check counts them.
    let n = o.saxpy;
    let xs: Vec<f32> = (0..n).map(|i| (i % 1000) as f32).collect();
    let ys: Vec<f32> = (0..n).map(|i| (i % 7) as f32).collect();
    let check_saxpy = |got: &[f32], runs: usize| {
        let runs = runs as f32;
        (0..n)
            .filter(|&i| got[i] != ys[i] + runs * 2.0 * xs[i])
            .count()
    };
    let (one, got, runs) = run_saxpy(&devices[..1], &xs, &ys, &o, &trace)?;
    let wrong_one = check_saxpy(&got, runs);
    let (all, got, runs) = run_saxpy(&devices, &xs, &ys, &o, &trace)?;
    let wrong_all = check_saxpy(&got, runs);
    let gbs = |t: Duration| 12.0 * n as f64 / t.as_secs_f64() / 1e9;
    println!(
        "saxpy over {n} floats: one device {one:?} ({:.1} GB/s), {} devices {all:?} ({:.1} GB/s): {:.2}× one",
        gbs(one),
        devices.len(),
        gbs(all),
        one.as_secs_f64() / all.as_secs_f64()
    );
    if wrong_one + wrong_all != 0 {
        eprintln!("saxpy: {wrong_one} wrong on one device, {wrong_all} wrong on all");
        failed = true;
    }

    // The matrix product, with small integers so that every sum is exact in f32.
    let n = o.matmul;
    let af: Vec<f32> = (0..n * n).map(|i| ((i * 7) % 13) as f32 - 6.0).collect();
    let bf: Vec<f32> = (0..n * n).map(|i| ((i * 5) % 11) as f32 - 5.0).collect();
    let to_vec4 = |v: &[f32]| -> Vec<Vec4> {
        v.chunks(4)
            .map(|c| Vec4::new(c[0], c[1], c[2], c[3]))
            .collect()
    };
    let (av, bv) = (to_vec4(&af), to_vec4(&bf));
    let (one, c_one) = run_matmul(&devices[..1], n, &av, &bv, &o, &trace)?;
    let (all, c_all) = run_matmul(&devices, n, &av, &bv, &o, &trace)?;
    let flat = |c: &[Vec4]| -> Vec<f32> { c.iter().flat_map(|v| [v.x, v.y, v.z, v.w]).collect() };
    let (c_one, c_all) = (flat(&c_one), flat(&c_all));
    // Every row on either side of a boundary between parts, and a spread of others.
    let split = Split::new(&devices, n)?;
    let mut rows: Vec<usize> = split
        .parts()
        .iter()
        .flat_map(|p| {
            [
                p.offset.saturating_sub(1),
                p.offset,
                p.offset + p.len.saturating_sub(1),
            ]
        })
        .chain((0..16).map(|k| k * n / 16 + k))
        .filter(|&r| r < n)
        .collect();
    rows.sort_unstable();
    rows.dedup();
    let mut wrong = 0;
    for &r in &rows {
        for col in (0..n).step_by((n / 64).max(1)).chain([n - 1]) {
            let expect: f32 = (0..n).map(|k| af[r * n + k] * bf[k * n + col]).sum();
            if c_one[r * n + col] != expect || c_all[r * n + col] != expect {
                if wrong < 5 {
                    eprintln!(
                        "c[{r}][{col}]: one device {}, all {}, expected {expect}",
                        c_one[r * n + col],
                        c_all[r * n + col]
                    );
                }
                wrong += 1;
            }
        }
    }
    let tflops = |t: Duration| 2.0 * (n as f64).powi(3) / t.as_secs_f64() / 1e12;
    println!(
        "matmul {n}×{n}: one device {one:?} ({:.3} TFLOP/s), {} devices {all:?} ({:.3} TFLOP/s): {:.2}× one",
        tflops(one),
        devices.len(),
        tflops(all),
        one.as_secs_f64() / all.as_secs_f64()
    );
    if wrong != 0 {
        eprintln!("matmul: {wrong} sampled entries wrong");
        failed = true;
    }
    if failed {
        std::process::exit(1);
    }
    println!("results correct");
    Ok(())
}
