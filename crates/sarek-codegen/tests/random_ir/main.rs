//! The back end against naga: random well-typed IR kernels (scalars, vectors, arrays, structs,
//! enums stored as tagged structs, helper functions, every operator and math function, loops,
//! switches, workgroup memory and barriers) must compile to WGSL that naga accepts, and the
//! output must not depend on threads. `SAREK_RANDOM_KERNELS=<n>` sets how many (default 2000;
//! millions work, given time).

mod generate;

use generate::{kernel, Rng};
use sarek_codegen::ir::Param;

fn count() -> u64 {
    std::env::var("SAREK_RANDOM_KERNELS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000)
}

#[test]
fn random_kernels_compile_to_wgsl_that_naga_accepts() {
    let mut failures = Vec::new();
    for seed in 0..count() {
        let k = kernel(seed);
        match sarek_codegen::compile(&k) {
            Ok(_) => {}
            Err(e) => failures.push(format!("seed {seed}: {e}")),
        }
        if failures.len() >= 3 {
            break;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn generation_from_eight_threads_matches_a_sequential_run() {
    let seeds: Vec<u64> = (0..200).collect();
    let sequential: Vec<String> = seeds
        .iter()
        .map(|&s| {
            sarek_codegen::compile(&kernel(s))
                .map(|c| c.wgsl)
                .unwrap_or_default()
        })
        .collect();
    let parallel: Vec<Vec<String>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..8)
            .map(|_| {
                scope.spawn(|| {
                    seeds
                        .iter()
                        .map(|&s| {
                            sarek_codegen::compile(&kernel(s))
                                .map(|c| c.wgsl)
                                .unwrap_or_default()
                        })
                        .collect::<Vec<String>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("thread"))
            .collect()
    });
    for run in parallel {
        assert!(
            run == sequential,
            "a thread's output differs from the sequential run"
        );
    }
}

/// The CPU backend on the same kernels: the IR survives the JSON the macro embeds, and the
/// interpreter runs every kernel on random buffers without panicking, with checks on and off
/// (random loops may not terminate, so each workgroup gets a budget of statements).
#[test]
fn random_kernels_round_trip_as_json_and_run_on_the_cpu_backend() {
    use sarek_cpu::interp::{Launch, Program};
    use std::sync::atomic::AtomicU32;
    let n = (count() / 4).max(1);
    for seed in 0..n {
        let k = kernel(seed);
        if sarek_codegen::compile(&k).is_err() {
            continue; // reported by the naga test
        }
        let json = k.to_json();
        let program = Program::from_json(&json).expect("the IR reads back");
        // Compared as JSON: a NaN literal is not `==` to itself.
        assert!(
            program.kernel().to_json() == json,
            "seed {seed}: the IR changed through JSON"
        );
        let mut rng = Rng(seed | 1);
        let buffers: Vec<Vec<AtomicU32>> = k
            .params
            .iter()
            .map(|_| (0..64).map(|_| AtomicU32::new(rng.next() as u32)).collect())
            .collect();
        let values: Vec<(u32, u32)> = (0..k.params.len() as u32)
            .map(|p| (p, rng.next() as u32 % 100))
            .collect();
        let stride = |p: &Param| match p.ty.buffer() {
            Some((ty, _)) => sarek_codegen::layout::of(&k.types, ty).stride() / 4,
            None => 1,
        };
        let lens: Vec<(u32, u32)> = k
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| (i as u32, 64 / stride(p).max(1)))
            .collect();
        let uniform = program.uniform(&values, [2, 1, 1], &lens);
        for checks in [false, true] {
            let mut launch = Launch::new(&uniform, [2, 1, 1]);
            launch.checks = checks;
            // 2,000 statements of each of the 64 invocations (fuel counts per invocation).
            launch.fuel = Some(2_000 * 64);
            launch.threads = 1;
            for (i, b) in buffers.iter().enumerate() {
                if k.params[i].ty.buffer().is_some() {
                    launch = launch.buffer(i, b);
                }
            }
            // A fault (out of fuel, or a checked index or division) is an answer, not a bug.
            let _ = program.run(&launch);
        }
    }
}
