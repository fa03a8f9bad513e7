//! `--device cpu`: the CPU backend against plain Rust and against its own interpreter
//!. Wall-clock medians of whole launches (a CPU launch runs before it returns),
//! on the benchmark kernels of `kernels.rs`:
//!
//! - element-wise kernels (saxpy, a 3-term polynomial) against the same loop in plain Rust on
//!   one core and on every core (scoped threads over contiguous parts), with the JIT on one
//!   worker thread and on every core;
//! - `sin(x) + exp(x)` element-wise (`transcend`), the JIT's typed math calls against its
//!   generic path (`SAREK_JIT_TYPED_MATH=0`);
//! - the 16×16 tiled matrix product at 256² and 512², in GFLOP/s;
//! - a tree reduction, a block scan and a histogram of 2^22 elements, and a subgroup max
//!   reduction (`sg_max`), JIT against the interpreter;
//! - the preparation (IR read back and compiled) of each kernel, and the cached second one.
//!
//! The engines are chosen with `SAREK_CPU_ENGINE` and `SAREK_CPU_THREADS`, which a CPU device
//! reads when it is created; the suite sets them before creating each device.

use std::hint::black_box;
use std::time::{Duration, Instant};

use sarek::{Device, Grid};

use crate::kernels;

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

/// A CPU device with this engine and this many worker threads.
fn device(engine: &str, threads: usize) -> Device {
    // Edition 2021: `set_var` is safe; the suite is single-threaded here.
    std::env::set_var("SAREK_CPU_ENGINE", engine);
    std::env::set_var("SAREK_CPU_THREADS", threads.to_string());
    Device::cpu()
}

/// The element-wise kernels as plain Rust: the twin a competent programmer writes (the
/// compiler vectorises it).
fn plain(name: &str, x: &[f32], y: &mut [f32]) {
    let (a, b, c) = black_box((2.0f32, 0.5f32, 0.25f32));
    if name == "saxpy" {
        for (yi, xi) in y.iter_mut().zip(x) {
            *yi += a * *xi;
        }
    } else {
        for (yi, xi) in y.iter_mut().zip(x) {
            *yi = (a * *xi + b) * *xi + c;
        }
    }
}

/// The median of `runs` timings of `f` after one warm-up run.
fn median(runs: usize, mut f: impl FnMut()) -> Duration {
    f();
    let mut times: Vec<Duration> = (0..runs.max(1))
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Runs the CPU suite (`only` filters by name: `saxpy`, `poly`, `transcend`, `matmul`,
/// `tree_sum`, `block_scan`, `histogram`, `sg_max`, `launch`, `prepare`).
pub fn run(only: Option<&[String]>, quick: bool, runs: usize) -> Result<()> {
    let chosen = |name: &str| only.is_none_or(|o| o.iter().any(|x| x == name));
    // `SAREK_CPU_THREADS` sets the threads of the "every core" column (a scaling study runs
    // the suite once per count); by default every core.
    let cores = std::env::var("SAREK_CPU_THREADS")
        .ok()
        .and_then(|t| t.parse::<usize>().ok())
        .filter(|t| *t > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    // `SAREK_BENCH_INTERP=0` leaves the interpreter out (its launches take seconds).
    let with_interp = std::env::var("SAREK_BENCH_INTERP").as_deref() != Ok("0");
    let runs = if quick { 3 } else { runs.min(21) };
    let jit1 = device("jit", 1);
    let jit = device("jit", cores);
    let interp = device("interp", cores);
    std::env::remove_var("SAREK_CPU_ENGINE");
    std::env::remove_var("SAREK_CPU_THREADS");
    println!(
        "device: CPU backend, {cores} cores; times are medians of {runs} launches (wall clock)"
    );
    let n: usize = if quick { 1 << 16 } else { 1 << 22 };

    if chosen("saxpy") || chosen("poly") {
        // `SAREK_BENCH_CPU_LOG2=16` runs the element-wise rows over 2^16 elements (in cache)
        // instead of 2^22 (48 MiB streamed per poly launch), to tell compute from bandwidth.
        let n = std::env::var("SAREK_BENCH_CPU_LOG2")
            .ok()
            .and_then(|l| l.parse::<u32>().ok())
            .map_or(n, |l| 1usize << l.min(28));
        let x: Vec<f32> = (0..n).map(|i| (i % 1000) as f32 * 0.001).collect();
        let y0: Vec<f32> = (0..n).map(|i| (i % 7) as f32).collect();
        for name in ["saxpy", "poly"].into_iter().filter(|n| chosen(n)) {
            let mut y = y0.clone();
            let rust = median(runs, || {
                plain(name, &x, &mut y);
                black_box(&mut y);
            });
            // The twin on every core: the same loop over `cores` contiguous parts, one scoped
            // thread each (threads spawned per call, as the CPU backend spawns its workers per
            // launch). If this does not scale either, memory bandwidth is the limit.
            let rust_all = median(runs, || {
                let part = n.div_ceil(cores);
                std::thread::scope(|s| {
                    for (ys, xs) in y.chunks_mut(part).zip(x.chunks(part)) {
                        s.spawn(move || plain(name, xs, ys));
                    }
                });
                black_box(&mut y);
            });
            let time = |dev: &Device| -> Result<Duration> {
                let xb = dev.upload(&x)?;
                let mut yb = dev.upload(&y0)?;
                Ok(median(runs, || {
                    if name == "saxpy" {
                        kernels::saxpy.launch(dev, Grid::cover(n), 2.0, &xb, &mut yb)
                    } else {
                        kernels::poly.launch(dev, Grid::cover(n), 2.0, 0.5, 0.25, &xb, &mut yb)
                    }
                    .expect("launch");
                }))
            };
            let (one, all) = (time(&jit1)?, time(&jit)?);
            let int = if !with_interp {
                Duration::ZERO
            } else {
                let xb = interp.upload(&x)?;
                let mut yb = interp.upload(&y0)?;
                let t = Instant::now();
                if name == "saxpy" {
                    kernels::saxpy.launch(&interp, Grid::cover(n), 2.0, &xb, &mut yb)?;
                } else {
                    kernels::poly.launch(&interp, Grid::cover(n), 2.0, 0.5, 0.25, &xb, &mut yb)?;
                }
                t.elapsed()
            };
            println!(
                "{name:<10} 2^{}: plain Rust 1 core {:.3} ms | JIT 1 thread {:.3} ms ({:.2}x Rust) | JIT {cores} threads {:.3} ms ({:.2}x Rust per core used, {:.2}x speed-up) | interpreter {:.1} ms ({:.0}x JIT)",
                n.trailing_zeros(),
                ms(rust),
                ms(one),
                one.as_secs_f64() / rust.as_secs_f64(),
                ms(all),
                all.as_secs_f64() * cores as f64 / rust.as_secs_f64(),
                one.as_secs_f64() / all.as_secs_f64(),
                ms(int),
                int.as_secs_f64() / all.as_secs_f64(),
            );
            println!(
                "{name:<10} 2^{}: plain Rust {cores} threads {:.3} ms ({:.2}x speed-up over its 1 core) | JIT {cores} threads {:.2}x plain Rust {cores} threads",
                n.trailing_zeros(),
                ms(rust_all),
                rust.as_secs_f64() / rust_all.as_secs_f64(),
                all.as_secs_f64() / rust_all.as_secs_f64(),
            );
        }
    }

    if chosen("transcend") {
        // `y = sin(x) + exp(x)`: the JIT calls Rust's `f32::sin` and `f32::exp` directly
        // (typed), against the same kernel compiled with `SAREK_JIT_TYPED_MATH=0` (each call
        // through `native::math`, the interpreter's generic math) on devices of its own, in the
        // same process. Checked bit for bit against the host's `x.sin() + x.exp()`.
        let n = std::env::var("SAREK_BENCH_CPU_LOG2")
            .ok()
            .and_then(|l| l.parse::<u32>().ok())
            .map_or(n, |l| 1usize << l.min(28));
        let x: Vec<f32> = (0..n).map(|i| (i % 10_000) as f32 * 0.001 - 5.0).collect();
        let want: Vec<f32> = x.iter().map(|v| v.sin() + v.exp()).collect();
        let mut y = vec![0.0f32; n];
        let rust = median(runs, || {
            for (yi, xi) in y.iter_mut().zip(&x) {
                *yi = xi.sin() + xi.exp();
            }
            black_box(&mut y);
        });
        let time = |dev: &Device| -> Result<(Duration, bool)> {
            let xb = dev.upload(&x)?;
            let mut yb = dev.zeros::<f32>(n)?;
            let t = median(runs, || {
                kernels::transcend
                    .launch(dev, Grid::cover(n), &xb, &mut yb)
                    .expect("launch");
            });
            let got = yb.read()?;
            let same = got
                .iter()
                .zip(&want)
                .all(|(g, w)| g.to_bits() == w.to_bits());
            Ok((t, same))
        };
        let (gen1, gen) = (device("jit", 1), device("jit", cores));
        std::env::remove_var("SAREK_CPU_ENGINE");
        std::env::remove_var("SAREK_CPU_THREADS");
        let (one, ok1) = time(&jit1)?;
        std::env::set_var("SAREK_JIT_TYPED_MATH", "0");
        let (one_g, okg1) = time(&gen1)?;
        std::env::remove_var("SAREK_JIT_TYPED_MATH");
        let (all, ok) = time(&jit)?;
        std::env::set_var("SAREK_JIT_TYPED_MATH", "0");
        let (all_g, okg) = time(&gen)?;
        std::env::remove_var("SAREK_JIT_TYPED_MATH");
        println!(
            "transcend  2^{}: plain Rust 1 core {:.2} ms | JIT 1 thread typed {:.2} ms, generic {:.2} ms ({:.3}x) | JIT {cores} threads typed {:.2} ms, generic {:.2} ms ({:.3}x){}",
            n.trailing_zeros(),
            ms(rust),
            ms(one),
            ms(one_g),
            one.as_secs_f64() / one_g.as_secs_f64(),
            ms(all),
            ms(all_g),
            all.as_secs_f64() / all_g.as_secs_f64(),
            if ok1 && okg1 && ok && okg { "" } else { " WRONG" },
        );
    }

    if chosen("matmul") {
        for m in if quick { vec![64usize] } else { vec![256, 512] } {
            let a: Vec<f32> = (0..m * m).map(|i| ((i * 7) % 13) as f32 * 0.1).collect();
            let bm: Vec<f32> = (0..m * m).map(|i| ((i * 5) % 11) as f32 * 0.1).collect();
            let flops = 2.0 * (m as f64).powi(3);
            let time = |dev: &Device, runs: usize| -> Result<(Duration, Vec<f32>)> {
                let (ab, bb) = (dev.upload(&a)?, dev.upload(&bm)?);
                let mut cb = dev.zeros::<f32>(m * m)?;
                let t = median(runs, || {
                    kernels::matmul
                        .launch(dev, Grid::cover_2d(m, m), m, &ab, &bb, &mut cb)
                        .expect("launch");
                });
                Ok((t, cb.read()?))
            };
            let (one, _) = time(&jit1, runs)?;
            let (all, c) = time(&jit, runs)?;
            // Spot-check a row against the host.
            let ok = (0..m).all(|j| {
                let e: f32 = (0..m).map(|k| a[k] * bm[k * m + j]).sum();
                (c[j] - e).abs() <= 1e-3 * e.abs().max(1.0)
            });
            let int = if m <= 256 && with_interp {
                Some(time(&interp, 0)?.0)
            } else {
                None
            };
            println!(
                "matmul     {m}²: JIT 1 thread {:.2} GFLOP/s | JIT {cores} threads {:.2} GFLOP/s{}{}",
                flops / one.as_secs_f64() / 1e9,
                flops / all.as_secs_f64() / 1e9,
                int.map_or(String::new(), |t| format!(
                    " | interpreter {:.3} GFLOP/s ({:.0}x slower)",
                    flops / t.as_secs_f64() / 1e9,
                    t.as_secs_f64() / all.as_secs_f64()
                )),
                if ok { "" } else { " WRONG" },
            );
        }
    }

    for name in ["tree_sum", "block_scan", "histogram"] {
        if !chosen(name) {
            continue;
        }
        let data: Vec<u32> = (0..n as u32)
            .map(|i| i.wrapping_mul(2654435761) >> 7)
            .collect();
        let xf: Vec<f32> = data.iter().map(|v| (v % 8) as f32).collect();
        let time = |dev: &Device, runs: usize| -> Result<Duration> {
            Ok(match name {
                "tree_sum" => {
                    let x = dev.upload(&xf)?;
                    let mut p = dev.zeros::<f32>(n.div_ceil(256))?;
                    median(runs, || {
                        kernels::tree_sum
                            .launch(dev, Grid::cover(n), &x, &mut p)
                            .expect("launch");
                    })
                }
                "block_scan" => {
                    let x = dev.upload(&data)?;
                    let mut o = dev.zeros::<u32>(n)?;
                    median(runs, || {
                        kernels::block_scan
                            .launch(dev, Grid::cover(n), &x, &mut o)
                            .expect("launch");
                    })
                }
                _ => {
                    let x = dev.upload(&data)?;
                    let bins = dev.zeros::<u32>(256)?;
                    median(runs, || {
                        kernels::histogram
                            .launch(dev, Grid::cover(n), &x, &bins)
                            .expect("launch");
                    })
                }
            })
        };
        let (one, all) = (time(&jit1, runs)?, time(&jit, runs)?);
        let int = if with_interp {
            time(&interp, 0)?
        } else {
            Duration::ZERO
        };
        println!(
            "{name:<10} 2^{}: JIT 1 thread {:.2} ms | JIT {cores} threads {:.2} ms ({:.2}x speed-up) | interpreter {:.0} ms: JIT {:.0}x faster",
            n.trailing_zeros(),
            ms(one),
            ms(all),
            one.as_secs_f64() / all.as_secs_f64(),
            ms(int),
            int.as_secs_f64() / all.as_secs_f64()
        );
    }

    if chosen("sg_max") {
        // Subgroup operations other than `+` (`subgroup_max`, a `subgroup_shuffle_xor`
        // butterfly, `subgroup_elect`): one Rust call per workgroup and operation on the JIT.
        // Subgroups of 32; every subgroup's two maxima checked against the host.
        let data: Vec<f32> = (0..n as u32)
            .map(|i| ((i.wrapping_mul(2654435761) >> 7) % 100_003) as f32 * 0.01 - 500.0)
            .collect();
        let size = 32usize;
        let time = |dev: &Device, runs: usize| -> Result<(Duration, bool)> {
            dev.set_subgroup_size(size as u32);
            let x = dev.upload(&data)?;
            let mut p = dev.zeros::<f32>(2 * n.div_ceil(size))?;
            let t = median(runs, || {
                kernels::sg_max
                    .launch(dev, Grid::cover(n), &x, &mut p)
                    .expect("launch");
            });
            let got = p.read()?;
            let ok = data.chunks(size).enumerate().all(|(g, c)| {
                let want = c.iter().copied().fold(f32::NEG_INFINITY, f32::max);
                got[2 * g] == want && got[2 * g + 1] == want
            });
            Ok((t, ok))
        };
        let ((one, ok1), (all, ok)) = (time(&jit1, runs)?, time(&jit, runs)?);
        let (int, ok_int) = if with_interp {
            time(&interp, 0)?
        } else {
            (Duration::ZERO, true)
        };
        println!(
            "sg_max     2^{}: JIT 1 thread {:.2} ms | JIT {cores} threads {:.2} ms ({:.2}x speed-up) | interpreter {:.0} ms: JIT {:.0}x faster{}",
            n.trailing_zeros(),
            ms(one),
            ms(all),
            one.as_secs_f64() / all.as_secs_f64(),
            ms(int),
            int.as_secs_f64() / all.as_secs_f64(),
            if ok1 && ok && ok_int { "" } else { " WRONG" },
        );
    }

    if chosen("launch") {
        // The fixed cost of a launch: 2000 launches of saxpy over 1024 elements (4
        // workgroups), mean wall clock per launch, on one worker thread and on every core.
        let n = 1024;
        let x: Vec<f32> = (0..n).map(|i| i as f32).collect();
        let mut per = Vec::new();
        for dev in [&jit1, &jit] {
            let xb = dev.upload(&x)?;
            let mut yb = dev.upload(&x)?;
            kernels::saxpy.launch(dev, Grid::cover(n), 2.0, &xb, &mut yb)?;
            let t = Instant::now();
            for _ in 0..2000 {
                kernels::saxpy.launch(dev, Grid::cover(n), 2.0, &xb, &mut yb)?;
            }
            per.push(t.elapsed().as_secs_f64() * 1e6 / 2000.0);
        }
        println!(
            "launch     saxpy 2^10 (4 workgroups): JIT 1 thread {:.1} µs per launch | JIT {cores} threads {:.1} µs per launch",
            per[0], per[1]
        );
    }

    if chosen("prepare") {
        let fresh = device("jit", cores);
        std::env::remove_var("SAREK_CPU_ENGINE");
        std::env::remove_var("SAREK_CPU_THREADS");
        let sources = [
            ("saxpy", kernels::saxpy::SOURCE),
            ("poly", kernels::poly::SOURCE),
            ("matmul", kernels::matmul::SOURCE),
            ("tree_sum", kernels::tree_sum::SOURCE),
            ("block_scan", kernels::block_scan::SOURCE),
            ("histogram", kernels::histogram::SOURCE),
            ("sg_max", kernels::sg_max::SOURCE),
        ];
        for (name, source) in sources {
            let t = Instant::now();
            let engine = fresh.cpu_engine(source)?;
            let first = t.elapsed();
            let t = Instant::now();
            fresh.cpu_engine(source)?;
            let again = t.elapsed();
            println!(
                "prepare    {name:<10}: {:.2} ms ({engine:?}); cached: {:.1} µs",
                ms(first),
                again.as_secs_f64() * 1e6
            );
        }
    }
    Ok(())
}
