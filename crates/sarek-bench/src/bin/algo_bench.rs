//! The library algorithms of `sarek::algo` at the sizes PyTorch is measured at, in µs, each
//! checked against the host first:
//!
//! - `select`: the compaction of 2^26 `f32`s by `x > 0` (half kept), as PyTorch's `x[x > 0]`:
//!   the GPU time of the three passes (`Select::enqueue_if` in one batch, timestamps), the
//!   wall time of the passes plus reading the count back (what `x[x > 0]` waits for to size
//!   its result), and the wall time of the plain call `select_if` (which also allocates the
//!   result);
//! - `histogram`: 2^26 `f32`s into 100 even bins over [-1, 1), as `torch.histc`: the GPU time
//!   of `enqueue_histogram_even` and the wall time of `histogram_even` and its wait;
//! - `topk`: the 100 largest of 2^26 `f32`s with their indices, as `torch.topk(x, 100)`: the
//!   GPU time of `TopK::enqueue_largest` (timestamps) and the wall time of the plain call `topk`
//!   and reading its result.
//!
//! Each figure is the median of 20 runs after 3 untimed ones. Without timestamp queries (the
//! CPU backend, or an adapter without them) the GPU time is the wall time of the batch.
//!
//! `cargo run --release -p sarek-bench --bin algo_bench -- [--quick]` (`--quick`: 2^20).

use std::time::{Duration, Instant};

use sarek::algo::histogram::{enqueue_histogram_even, histogram_even};
use sarek::algo::select::{select_if, Pred, Select};
use sarek::algo::topk::{topk, TopK};
use sarek::{Device, Launch};

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

/// The median of 20 timings after 3 untimed ones.
fn median(mut once: impl FnMut() -> Duration) -> Duration {
    for _ in 0..3 {
        once();
    }
    let mut samples: Vec<Duration> = (0..20).map(|_| once()).collect();
    samples.sort();
    samples[samples.len() / 2]
}

/// The GPU time of a submitted batch, or its wall time from `start` without timestamps.
fn gpu_time(launch: Launch, start: Instant) -> Duration {
    launch.wait().expect("batch");
    launch
        .gpu_time()
        .expect("timing")
        .unwrap_or_else(|| start.elapsed())
}

/// What the first figure of a row measured.
fn clock(profiling: bool) -> &'static str {
    if profiling {
        "GPU"
    } else {
        "wall: no timestamps"
    }
}

/// Microseconds.
fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn main() -> Result<()> {
    let quick = std::env::args().any(|a| a == "--quick");
    let n: usize = if quick { 1 << 20 } else { 1 << 26 };
    let size = if quick { "2^20" } else { "2^26" };
    let dev = Device::new()?;
    println!("adapter: {} ({:?})", dev.name(), dev.backend());
    // Values in [-1, 1), about half above zero.
    let mut s = 12345u32;
    let xs: Vec<f32> = (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            (s >> 8) as f32 / (1u32 << 23) as f32 - 1.0
        })
        .collect();
    let x = dev.upload(&xs)?;

    // The compaction, checked.
    let kept: Vec<f32> = xs.iter().copied().filter(|&v| v > 0.0).collect();
    let got = select_if(&dev, &x, Pred::Gt(0.0))?.read()?;
    let select_ok = got == kept;
    let mut select = Select::new(&dev, n)?;
    let mut out = dev.zeros::<f32>(n)?;
    let profiling = dev.set_profiling(true);
    let passes = median(|| {
        let start = Instant::now();
        let mut batch = dev.batch();
        select
            .enqueue_if(&mut batch, &x, Pred::Gt(0.0), &mut out)
            .expect("enqueue");
        gpu_time(batch.submit().expect("submit"), start)
    });
    dev.set_profiling(false);
    let with_count = median(|| {
        let start = Instant::now();
        let mut batch = dev.batch();
        select
            .enqueue_if(&mut batch, &x, Pred::Gt(0.0), &mut out)
            .expect("enqueue");
        batch.submit().expect("submit");
        let count = select.count().read().expect("count")[0];
        assert_eq!(count as usize, kept.len());
        start.elapsed()
    });
    let plain = median(|| {
        let start = Instant::now();
        let r = select_if(&dev, &x, Pred::Gt(0.0)).expect("select_if");
        dev.synchronize().expect("synchronize");
        drop(r);
        start.elapsed()
    });
    println!(
        "select x > 0, {size} f32 ({} kept): passes {:.1} µs ({}), passes + count read {:.1} µs, \
         select_if {:.1} µs (wall){}",
        kept.len(),
        us(passes),
        clock(profiling),
        us(with_count),
        us(plain),
        if select_ok { "" } else { "  WRONG RESULT" }
    );

    // The histogram, checked.
    let (bins, lo, hi) = (100usize, -1.0f32, 1.0f32);
    let scale = bins as f32 / (hi - lo);
    let mut want = vec![0u32; bins];
    for &v in &xs {
        if lo <= v && v < hi {
            want[(((v - lo) * scale) as usize).min(bins - 1)] += 1;
        }
    }
    let hist_ok = histogram_even(&dev, &x, bins, lo, hi)?.read()? == want;
    let mut counts = dev.zeros::<u32>(bins)?;
    dev.set_profiling(true);
    let gpu = median(|| {
        let start = Instant::now();
        let mut batch = dev.batch();
        enqueue_histogram_even(&mut batch, &x, lo, hi, &mut counts).expect("enqueue");
        gpu_time(batch.submit().expect("submit"), start)
    });
    dev.set_profiling(false);
    let wall = median(|| {
        let start = Instant::now();
        let c = histogram_even(&dev, &x, bins, lo, hi).expect("histogram_even");
        c.read().expect("read");
        start.elapsed()
    });
    println!(
        "histogram {size} f32, {bins} bins: {:.1} µs ({}), histogram_even + read {:.1} µs (wall){}",
        us(gpu),
        clock(profiling),
        us(wall),
        if hist_ok { "" } else { "  WRONG RESULT" }
    );

    // The top-k, checked against the host's first k of a stable sort by value, descending.
    let k = 100;
    let mut order: Vec<usize> = (0..n).collect();
    let by = |a: &usize, b: &usize| xs[*b].total_cmp(&xs[*a]).then(a.cmp(b));
    order.select_nth_unstable_by(k - 1, by);
    order.truncate(k);
    order.sort_by(by);
    let want: Vec<u32> = order.iter().map(|&i| i as u32).collect();
    let (values, indices) = topk(&dev, &x, k)?;
    let topk_ok = indices.read()? == want
        && values.read()? == order.iter().map(|&i| xs[i]).collect::<Vec<_>>();
    let mut top = TopK::new(&dev, n, k)?;
    let (mut values, mut indices) = (dev.zeros::<f32>(k)?, dev.zeros::<u32>(k)?);
    dev.set_profiling(true);
    let gpu = median(|| {
        let start = Instant::now();
        let mut batch = dev.batch();
        top.enqueue_largest(&mut batch, &x, &mut values, &mut indices)
            .expect("enqueue");
        gpu_time(batch.submit().expect("submit"), start)
    });
    dev.set_profiling(false);
    let wall = median(|| {
        let start = Instant::now();
        let (v, i) = topk(&dev, &x, k).expect("topk");
        v.read().expect("read");
        i.read().expect("read");
        start.elapsed()
    });
    println!(
        "topk k = {k} of {size} f32: {:.1} µs ({}), topk + read {:.1} µs (wall){}",
        us(gpu),
        clock(profiling),
        us(wall),
        if topk_ok { "" } else { "  WRONG RESULT" }
    );
    if !(select_ok && hist_ok && topk_ok) {
        std::process::exit(1);
    }
    Ok(())
}
