//! Sarek's benchmark suite: every kernel written once in Sarek (`kernels.rs`) and once as the
//! WGSL a competent wgpu programmer would write (`wgsl/`), run on one device in one process,
//! timed with GPU timestamp queries (wall time where the adapter has none, labelled so), the
//! median of many runs after warm-up, on inputs whose results are checked.
//!
//! It runs on the GPU only: it measures the WGSL Sarek generates against hand-written WGSL,
//! which the CPU backend (an interpreter of the IR) does not run.
//! `--device cpu` runs a separate suite instead (`cpu.rs`): the CPU backend's JIT against
//! plain Rust loops and against its interpreter.
//!
//! `cargo run --release -p sarek-bench -- [--quick] [--runs N] [--out DIR] [--only NAME,NAME..]`
//!
//! - `benches/`: one function per benchmark, by family, and the table of them;
//! - `measure/`: clocks, medians and the interleaved comparison of both sides;
//! - `raw.rs`: the wgpu plumbing of the hand-written twins;
//! - `report.rs`: the printed rows, `results.json`, `results.md` and `ratios.svg`.

mod benches;
mod cpu;
mod kernels;
mod measure;
mod raw;
mod report;
mod suite;
#[cfg(test)]
mod twins_valid;

/// The command line's usage.
const USAGE: &str =
    "usage: sarek-bench [--device cpu] [--quick] [--runs N] [--out DIR] [--only NAME,NAME..]";

fn main() {
    let mut options = suite::Options::default();
    let mut args = std::env::args().skip(1);
    // `--device cpu`: the CPU backend's suite (`cpu.rs`) instead of the GPU's.
    let mut cpu = false;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--quick" => options.quick = true,
            "--runs" => {
                options.runs = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(options.runs)
            }
            "--only" => {
                options.only = args
                    .next()
                    .map(|v| v.split(',').map(str::to_string).collect())
            }
            "--device" => cpu = args.next().as_deref() == Some("cpu"),
            "--out" => options.out = args.next().map(Into::into).unwrap_or(options.out),
            "-h" | "--help" => {
                println!("{USAGE}");
                return;
            }
            other => {
                eprintln!("unknown argument {other:?}; see --help");
                std::process::exit(2);
            }
        }
    }
    if cpu {
        if let Err(e) = cpu::run(options.only.as_deref(), options.quick, options.runs) {
            eprintln!("benchmark failed: {e}");
            std::process::exit(1);
        }
        return;
    }
    match suite::run(&options) {
        Ok(all_verified) => {
            if !all_verified {
                eprintln!("some results were wrong");
                std::process::exit(1);
            }
        }
        Err(e) => {
            eprintln!("benchmark failed: {e}");
            std::process::exit(1);
        }
    }
}
