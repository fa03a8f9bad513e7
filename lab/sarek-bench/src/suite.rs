//! One run of the suite: the device, the copy kernel's bandwidth, every benchmark of
//! [`BENCHMARKS`] in turn, the CPU cost of a launch, the experiments if asked for, and the
//! report.

use crate::benches::{bandwidth, launch_cost, Bench, Result, BENCHMARKS};
use crate::experiments;
use crate::measure::Timer;
use crate::raw::Ctx;
use crate::report::{Report, Row};

/// The command line's choices.
pub struct Options {
    /// Small sizes and few runs: a check that every benchmark runs and is right (CI).
    pub quick: bool,
    /// Run the experiments after the suite.
    pub experiments: bool,
    /// Timed runs per measurement (the median is reported).
    pub runs: usize,
    /// Only the benchmarks of these names (`--only`; the copy kernel always runs), no
    /// CPU-cost measurement unless `launch_cost` is named, and with `--experiments` only the
    /// experiments named `x_<name>` (`x_poly`).
    pub only: Option<Vec<String>>,
    /// Where `results.json`, `results.md` and `ratios.svg` go.
    pub out: std::path::PathBuf,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            quick: false,
            experiments: false,
            runs: 50,
            only: None,
            out: "bench-results".into(),
        }
    }
}

/// Runs the suite and writes the report; `Ok(false)` when some result was wrong.
pub fn run(options: &Options) -> Result<bool> {
    // SAFETY: the suite accepts wgpu's contract for its experimental features (the f16 rows
    // use cooperative matrices).
    let dev = sarek::Device::gpu_with(unsafe { sarek::GpuOptions::new().experimental_features() })?;
    let timestamps = dev.set_profiling(true);
    let ctx = Ctx {
        dev: dev.clone(),
        timestamps,
    };
    let quick = options.quick;
    let b = Bench {
        ctx: &ctx,
        quick,
        n: if quick { 1 << 16 } else { 1 << 26 },
        timer: Timer::new(&ctx, quick, options.runs),
    };
    let mut report = Report::new(&dev, timestamps, quick);
    println!(
        "device: {} ({:?}); timing: {}",
        dev.name(),
        dev.backend(),
        if timestamps {
            "GPU timestamps"
        } else {
            "wall clock"
        }
    );

    report.copy_gbps = bandwidth::copy_gbps(&b);
    println!("copy (vec4)  {} floats: {:.1} GB/s", b.n, report.copy_gbps);

    let chosen = |name: &str| {
        options
            .only
            .as_ref()
            .is_none_or(|only| only.iter().any(|o| o == name))
    };
    for benchmark in BENCHMARKS.iter().filter(|b| chosen(b.name)) {
        for measured in (benchmark.run)(&b)? {
            let row = Row::new(benchmark.name, &measured, report.copy_gbps);
            row.print();
            report.rows.push(row);
        }
    }

    if chosen("launch_cost") {
        report.cpu = Some(launch_cost::cpu_cost(&b)?);
    }
    if options.experiments {
        experiments::run(&b, |name| {
            chosen(&format!("x_{name}")) || options.only.is_none()
        })?;
    }

    let all_verified = report.rows.iter().all(|r| r.verified);
    report.write(&options.out)?;
    println!("wrote {}", options.out.display());
    Ok(all_verified)
}
