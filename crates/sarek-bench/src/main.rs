//! Sarek's benchmark suite: every kernel written once in Sarek (`kernels.rs`) and once as the
//! WGSL a competent wgpu programmer would write (`wgsl/`), run on one device in one process,
//! timed with GPU timestamp queries (wall time where the adapter has none, labelled so), the
//! median of many runs after warm-up, on inputs whose results are checked.
//!
//! `cargo run --release -p sarek-bench -- [--quick] [--runs N] [--out DIR]`

mod harness;
mod kernels;
mod report;
mod suite;

fn main() {
    let mut options = suite::Options::default();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--quick" => options.quick = true,
            "--experiments" => options.experiments = true,
            "--runs" => {
                options.runs = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(options.runs)
            }
            "--out" => options.out = args.next().map(Into::into).unwrap_or(options.out),
            "--device" => match args.next().as_deref() {
                Some("gpu") | None => {}
                Some(other) => {
                    eprintln!("--device {other}: only `gpu` is available (the CPU backend is not built yet)");
                    std::process::exit(2);
                }
            },
            "-h" | "--help" => {
                println!("usage: sarek-bench [--device gpu] [--quick] [--runs N] [--out DIR] [--experiments]");
                return;
            }
            other => {
                eprintln!("unknown argument {other:?}; see --help");
                std::process::exit(2);
            }
        }
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
