//! The benchmarks, one function each, grouped by family: memory-bound kernels (`memory`), the
//! two-stage reductions (`reduction`), the matrix products (`matmul`) and compute-bound
//! kernels (`compute`). [`BENCHMARKS`] lists them in the order of the report. Before them,
//! `bandwidth` measures the device's limit; after them, `launch_cost` measures the CPU cost
//! of a launch.

pub mod bandwidth;
mod compute;
pub mod coop;
pub mod coop_q4;
pub mod launch_cost;
mod matmul;
mod memory;
mod reduction;
mod scan;
mod sort;
mod subgroup;

use crate::measure::{Measured, Timer};
use crate::raw::Ctx;

/// The result of a benchmark: errors stop the suite (a failed upload or launch); wrong results
/// do not, they are rows marked wrong.
pub type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

/// What a benchmark is handed: the device, the sizes of this run and how to time.
pub struct Bench<'a> {
    /// The device both sides run on.
    pub ctx: &'a Ctx,
    /// `--quick`: small sizes, few runs (a check more than a measurement).
    pub quick: bool,
    /// The number of elements of the one-dimensional benchmarks.
    pub n: usize,
    /// Runs, warm-up and the comparison of both sides.
    pub timer: Timer<'a>,
}

/// One entry of the suite: a kernel (the report's name for it) and the function that checks
/// and times it at each of its sizes.
pub struct Benchmark {
    /// The kernel's name in the report.
    pub name: &'static str,
    /// Checks both sides' results and times them: one [`Measured`] per size.
    pub run: fn(&Bench) -> Result<Vec<Measured>>,
}

/// The suite, in the order of the report.
pub const BENCHMARKS: &[Benchmark] = &[
    Benchmark {
        name: "saxpy",
        run: memory::saxpy,
    },
    Benchmark {
        name: "saxpy_f16",
        run: memory::saxpy_f16,
    },
    Benchmark {
        name: "saxpy_f16x4",
        run: memory::saxpy_f16x4,
    },
    Benchmark {
        name: "poly",
        run: memory::poly,
    },
    Benchmark {
        name: "poly_vec4",
        run: memory::poly_vec4,
    },
    Benchmark {
        name: "sum",
        run: reduction::sum,
    },
    Benchmark {
        name: "sum_f32",
        run: reduction::sum_f32,
    },
    Benchmark {
        name: "tree_sum",
        run: reduction::tree_sum,
    },
    Benchmark {
        name: "sum_subgroup",
        run: subgroup::sum_subgroup,
    },
    Benchmark {
        name: "sum_atomic",
        run: subgroup::sum_atomic,
    },
    Benchmark {
        name: "scan",
        run: scan::scan,
    },
    Benchmark {
        name: "sort",
        run: sort::sort,
    },
    Benchmark {
        name: "block_scan",
        run: memory::scan,
    },
    Benchmark {
        name: "histogram",
        run: memory::histogram_gs,
    },
    Benchmark {
        name: "histogram_naive",
        run: memory::histogram,
    },
    Benchmark {
        name: "transpose",
        run: memory::transpose,
    },
    Benchmark {
        name: "matmul",
        run: matmul::register_blocked,
    },
    Benchmark {
        name: "matmul_16x16",
        run: matmul::tiled_16x16,
    },
    Benchmark {
        name: "matmul_f16",
        run: coop::matmul_f16,
    },
    Benchmark {
        name: "mandelbrot",
        run: compute::mandelbrot,
    },
    Benchmark {
        name: "nbody",
        run: compute::nbody,
    },
];

/// `n` pseudo-random words (xorshift32 from `seed`): the same inputs in every run.
pub fn random_u32(seed: u32, n: usize) -> Vec<u32> {
    let mut s = seed.max(1);
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            s
        })
        .collect()
}

/// The report's label of a power-of-two size: `2^26`.
fn pow2(n: usize) -> String {
    format!("2^{}", n.trailing_zeros())
}
