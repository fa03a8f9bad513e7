//! How the CPU backend spreads a launch's workgroups over threads, for the interpreter
//! ([`crate::interp::Program::run`]) and the JIT alike: the calling thread starts alone, and
//! only a launch still running after [`ALONE`] hands the rest to a persistent pool of
//! threads (rayon's), which park between launches.
//!
//! Why (measured with `sarek-bench --device cpu --only launch`, 2000 saxpy launches over 4
//! workgroups, on the shared 2-core machine): spawning and joining the worker threads in every
//! launch (`std::thread::scope`) cost 56-89 µs per launch on one thread and 278-329 µs on two.
//! A pool removes the spawn; starting alone removes the wake-up and the hand-over for the small
//! grids where splitting cannot pay (a launch of saxpy over 1024 elements runs in about a
//! microsecond), while a big grid loses at most [`ALONE`] of parallel time.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// How long the calling thread runs a launch's workgroups alone before it asks the pool for
/// help. Handing a launch to the pool at once (this set to 0) cost 10.7-14.6 µs per launch
/// of 4 saxpy workgroups on two threads, against 1.2-5.2 µs alone (loaded 2-core machine,
/// BENCHMARKS.md): splitting a launch shorter than a few times that cannot pay, and a longer
/// one loses at most this much of parallel time.
pub const ALONE: Duration = Duration::from_micros(50);

/// The process's pool: helper threads shared by every CPU device and launch, created on the
/// first launch that wants them and grown (replaced) when a launch asks for more.
static POOL: OnceLock<Mutex<Option<Arc<rayon_core::ThreadPool>>>> = OnceLock::new();

/// A pool with at least `helpers` threads.
fn pool(helpers: usize) -> Arc<rayon_core::ThreadPool> {
    let mut slot = POOL
        .get_or_init(|| Mutex::new(None))
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    match &*slot {
        Some(p) if p.current_num_threads() >= helpers => p.clone(),
        _ => {
            let built = rayon_core::ThreadPoolBuilder::new()
                .num_threads(helpers)
                .thread_name(|i| format!("sarek-cpu-{i}"))
                .build()
                .map(Arc::new);
            match built {
                Ok(p) => {
                    *slot = Some(p.clone());
                    p
                }
                // Without threads, the one the pool had (if any) still serves.
                Err(_) => slot.clone().unwrap_or_else(|| {
                    Arc::new(
                        rayon_core::ThreadPoolBuilder::new()
                            .num_threads(1)
                            .build()
                            .expect("a pool of one thread"),
                    )
                }),
            }
        }
    }
}

/// Runs a launch on up to `threads` threads. Each thread makes its own state with `state` and
/// calls `step` on it until `step` returns `false` (nothing left to claim, or a fault stopped
/// the launch); `step` claims and runs one piece of work. The calling thread runs alone for
/// [`ALONE`]; if work is left then, `threads - 1` pool threads join it. Returns when every
/// thread is done. A panic in `step` or `state`, on any thread, reaches the caller after the
/// other threads have finished (they run out of work: no thread waits on another).
pub fn spread<S>(
    threads: usize,
    state: impl Fn() -> S + Sync,
    step: impl Fn(&mut S) -> bool + Sync,
) {
    let mut mine = state();
    let started = Instant::now();
    loop {
        if !step(&mut mine) {
            return;
        }
        if threads > 1 && started.elapsed() >= ALONE {
            break;
        }
    }
    let (state, step) = (&state, &step);
    pool(threads - 1).in_place_scope(|scope| {
        for _ in 1..threads {
            scope.spawn(move |_| {
                let mut s = state();
                while step(&mut s) {}
            });
        }
        while step(&mut mine) {}
    });
}

/// Runs every workgroup of a `groups` grid on up to `threads` threads through [`spread`], for
/// the interpreter and the JIT alike: each thread makes its state with `state` and runs the
/// workgroups it claims with `run`; the first error stops every thread (each checks before
/// its next workgroup) and is returned.
///
/// Threads claim runs of consecutive workgroups, about eight runs per thread (at most 1024
/// workgroups each): claimed one at a time, the shared counter's cache line moved between the
/// cores for every workgroup (16384 times for saxpy over 2^22 elements) and the threads
/// interleaved 1 KiB pieces of each buffer, so two JIT threads ran saxpy and the polynomial
/// 0.67-0.75x as fast as one on the 2-core machine.
pub fn groups<S, E: Send>(
    groups: [u32; 3],
    threads: usize,
    state: impl Fn() -> S + Sync,
    run: impl Fn(&mut S, [u32; 3]) -> Result<(), E> + Sync,
) -> Result<(), E> {
    let [gx, gy, gz] = groups.map(u64::from);
    let total = gx * gy * gz;
    if total == 0 {
        return Ok(());
    }
    let threads = (threads.max(1) as u64).min(total) as usize;
    let chunk = (total / (threads as u64 * 8)).clamp(1, 1024);
    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let error: Mutex<Option<E>> = Mutex::new(None);
    spread(threads, state, |s| {
        let first = next.fetch_add(chunk, Ordering::Relaxed);
        if first >= total {
            return false;
        }
        for g in first..(first + chunk).min(total) {
            if stop.load(Ordering::Relaxed) {
                return false;
            }
            let (x, rest) = ((g % gx) as u32, g / gx);
            let (y, z) = ((rest % gy) as u32, (rest / gy) as u32);
            if let Err(e) = run(s, [x, y, z]) {
                stop.store(true, Ordering::Relaxed);
                error
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .get_or_insert(e);
                return false;
            }
        }
        true
    });
    match error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every piece runs exactly once, small or big, on one thread or many.
    #[test]
    fn runs_every_piece_once() {
        for (threads, total) in [(1, 10), (4, 3), (4, 100_000), (3, 50_000)] {
            let next = AtomicU64::new(0);
            let sum = AtomicU64::new(0);
            spread(
                threads,
                || (),
                |_| {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= total {
                        return false;
                    }
                    sum.fetch_add(i, Ordering::Relaxed);
                    // Slow enough that the pool joins a big launch.
                    std::hint::black_box((0..50).sum::<u64>());
                    true
                },
            );
            assert_eq!(
                sum.into_inner(),
                total * (total - 1) / 2,
                "{threads} threads"
            );
        }
    }

    /// A panic on a pool thread reaches the caller, after the other threads have finished,
    /// and the pool still runs the next launch (no deadlock, no lost thread).
    #[test]
    fn panic_on_a_helper_reaches_the_caller() {
        let caller = std::thread::current().id();
        let panicked = std::sync::atomic::AtomicBool::new(false);
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            spread(
                2,
                || (),
                |_| {
                    if std::thread::current().id() != caller {
                        panicked.store(true, Ordering::SeqCst);
                        panic!("a helper panics");
                    }
                    // The caller works until the helper has panicked.
                    std::thread::sleep(Duration::from_micros(10));
                    !panicked.load(Ordering::SeqCst)
                },
            )
        }));
        assert!(outcome.is_err());
        let done = AtomicU64::new(0);
        spread(2, || (), |_| done.fetch_add(1, Ordering::Relaxed) < 1000);
        assert!(done.into_inner() >= 1000);
    }
}
