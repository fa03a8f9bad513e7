//! GPU time of Sarek's launches and of the twins' passes (`clock`), medians and the
//! interleaved comparison of both sides (`compare`), and what a comparison measured
//! ([`Measured`]).

mod clock;
mod compare;

use std::time::{Duration, Instant};

pub use compare::Timer;

/// The work one run does, in the unit its rate is reported in.
#[derive(Clone, Copy, Debug)]
pub enum Work {
    /// Bytes moved to and from memory: a rate in GB/s, compared with the copy kernel's.
    Bytes(f64),
    /// Floating-point operations: a rate in GFLOP/s.
    Flops(f64),
    /// Keys sorted: a rate in Gkeys/s.
    Keys(f64),
}

impl Work {
    /// The amount, in bytes or floating-point operations.
    pub fn amount(self) -> f64 {
        match self {
            Work::Bytes(v) | Work::Flops(v) | Work::Keys(v) => v,
        }
    }

    /// The unit of the rate, as the report prints it.
    pub fn unit(self) -> &'static str {
        match self {
            Work::Bytes(_) => "GB/s",
            Work::Flops(_) => "GFLOP/s",
            Work::Keys(_) => "Gkeys/s",
        }
    }

    /// Giga-units per second for a run taking `time`.
    pub fn rate(self, time: Duration) -> f64 {
        self.amount() / time.as_secs_f64() / 1e9
    }
}

/// One kernel at one size, measured on both sides: what a benchmark hands to the report.
#[derive(Clone, Debug)]
pub struct Measured {
    /// The size as the report labels it (`2^26`, `4096²`, `32768 bodies`).
    pub size: String,
    /// The work of one run.
    pub work: Work,
    /// Sarek's median time.
    pub sarek: Duration,
    /// The hand-written twin's median time; zero for a row without a twin (its ratio is then
    /// NaN, printed as `–`).
    pub wgsl: Duration,
    /// The median time of a vec4 twin, where the benchmark has one.
    pub wgsl_vec4: Option<Duration>,
    /// Whether both sides computed the right result.
    pub verified: bool,
    /// Wall time of Sarek's first launch, pipeline creation included.
    pub first_launch: Duration,
}

/// The median of `runs` timings after `warmup` untimed ones.
fn median(warmup: usize, runs: usize, mut once: impl FnMut() -> Duration) -> Duration {
    for _ in 0..warmup {
        once();
    }
    let mut samples: Vec<Duration> = (0..runs).map(|_| once()).collect();
    samples.sort();
    samples[samples.len() / 2]
}

/// Wall time of a first launch (pipeline creation included).
pub fn first_launch(launch: impl FnOnce() -> sarek::Launch) -> Duration {
    let start = Instant::now();
    launch().wait().expect("launch");
    start.elapsed()
}
