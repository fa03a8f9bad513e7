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
//! - `rows`: softmax over 8192×50257 `f32` (a GPT-2 vocabulary, as `torch.softmax(x, -1)`) and
//!   layer norm over 8192×768 (`F.layer_norm`), the GPU time of `enqueue_softmax` and
//!   `enqueue_layer_norm` and their bandwidth in GB/s counting each element read once and
//!   written once (as a copy of the same bytes; compare with the suite's `copy_vec4` row);
//! - `topk`: the 100 largest of 2^26 `f32`s with their indices, as `torch.topk(x, 100)`: the
//!   GPU time of `TopK::enqueue_largest` (timestamps) and the wall time of the plain call `topk`
//!   and reading its result.
//! - `matmul`: the library's matrix products (`sarek::algo::matmul::Matmul::enqueue`, GPU time),
//!   in TFLOP/s: `f16` at 4096³, 4095×4097×4093 and GPT-2's 8192×3072×768 and 8192×768×3072
//!   (as `torch.matmul` of row-major halves), on cooperative matrices where the device has them
//!   (it is opened with wgpu's experimental features for this), and `f32` at 4096³; sampled
//!   elements checked against an `f64` host product first. `algo_bench matmul` runs only these.
//! - `attention`: the library's fused attention forward (`sarek::algo::attention::Attention::
//!   enqueue`, GPU time) of `f16` heads at B=8 H=12 T=1024 d=64 and B=4 H=16 T=4096 d=128,
//!   causal (as `scaled_dot_product_attention(q, k, v, is_causal=True)`), in TFLOP/s counting
//!   `4·B·H·T²·d` operations and half of them for causal; on cooperative matrices where the
//!   device has them (opened as for `matmul`); sampled rows checked against an `f64` host
//!   computation first. `algo_bench attention` runs only these.
//!
//! Each figure is the median of 20 runs after about a second of untimed ones. Without timestamp queries (the
//! CPU backend, or an adapter without them) the GPU time is the wall time of the batch.
//!
//! `cargo run --release -p sarek-bench --bin algo_bench -- [--quick]` (`--quick`: 2^20 and
//! 64 rows; 256³ products; attention over two heads of 128 and 130 positions).

use std::time::{Duration, Instant};

use sarek::algo::attention::Attention;
use sarek::algo::histogram::{enqueue_histogram_even, histogram_even};
use sarek::algo::matmul::{cooperative, Matmul, MatmulElement};
use sarek::algo::rows::{enqueue_layer_norm, enqueue_softmax, layer_norm, softmax};
use sarek::algo::select::{select_if, Pred, Select};
use sarek::algo::topk::{topk, TopK};
use sarek::{Device, Launch};

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

/// The median of 20 timings after at least 3 untimed ones and about a second of the same work
/// (a GPU's clocks fall between waited launches; the suite warms up the same way).
fn median(mut once: impl FnMut() -> Duration) -> Duration {
    let warm = Instant::now();
    let mut untimed = 0;
    while untimed < 3 || warm.elapsed() < Duration::from_secs(1) {
        once();
        untimed += 1;
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
    if std::env::args().any(|a| a == "matmul") {
        return if bench_matmul(quick)? {
            Ok(())
        } else {
            std::process::exit(1)
        };
    }
    if std::env::args().any(|a| a == "attention") {
        return if bench_attention(quick)? {
            Ok(())
        } else {
            std::process::exit(1)
        };
    }
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
    let rows_ok = bench_rows(&dev, quick, profiling)?;
    drop(dev);
    let matmul_ok = bench_matmul(quick)?;
    let attention_ok = bench_attention(quick)?;
    if !(select_ok && hist_ok && topk_ok && rows_ok && matmul_ok && attention_ok) {
        std::process::exit(1);
    }
    Ok(())
}

/// `n` values in [-4, 4) from `seed`.
fn row_values(seed: u32, n: usize) -> Vec<f32> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            ((s >> 8) as f32 / (1u32 << 23) as f32 - 1.0) * 4.0
        })
        .collect()
}

/// The row operations: softmax over 8192×50257 and layer norm over 8192×768, the first rows
/// checked against the host first; whether they were right.
fn bench_rows(dev: &Device, quick: bool, profiling: bool) -> Result<bool> {
    let rows = if quick { 64 } else { 8192 };
    let checked = 4;

    let cols = 50257;
    let xs = row_values(777, rows * cols);
    let x = dev.upload(&xs)?;
    let got = softmax(dev, &x, cols)?.read()?;
    let mut softmax_ok = true;
    for r in 0..checked {
        let row = &xs[r * cols..(r + 1) * cols];
        let m = row.iter().fold(f64::MIN, |m, &v| m.max(v as f64));
        let s: f64 = row.iter().map(|&v| (v as f64 - m).exp()).sum();
        softmax_ok &= (0..cols).all(|c| {
            let want = (row[c] as f64 - m).exp() / s;
            (got[r * cols + c] as f64 - want).abs() <= 1e-5 / s
        });
    }
    let mut y = dev.zeros::<f32>(rows * cols)?;
    dev.set_profiling(true);
    let gpu = median(|| {
        let start = Instant::now();
        let mut batch = dev.batch();
        enqueue_softmax(&mut batch, &x, cols, &mut y).expect("enqueue");
        gpu_time(batch.submit().expect("submit"), start)
    });
    dev.set_profiling(false);
    let bytes = (2 * rows * cols * 4) as f64;
    println!(
        "softmax {rows}×{cols} f32: {:.1} µs ({}), {:.1} GB/s (read + write){}",
        us(gpu),
        clock(profiling),
        bytes / gpu.as_secs_f64() / 1e9,
        if softmax_ok { "" } else { "  WRONG RESULT" }
    );
    drop((x, y));

    let cols = 768;
    let xs = row_values(99, rows * cols);
    let gamma_h = row_values(5, cols);
    let beta_h = row_values(6, cols);
    let x = dev.upload(&xs)?;
    let (gamma, beta) = (dev.upload(&gamma_h)?, dev.upload(&beta_h)?);
    let eps = 1e-5f32;
    let got = layer_norm(dev, &x, &gamma, &beta, eps)?.y.read()?;
    let mut norm_ok = true;
    for r in 0..checked {
        let row: Vec<f64> = xs[r * cols..(r + 1) * cols]
            .iter()
            .map(|&v| v as f64)
            .collect();
        let mu = row.iter().sum::<f64>() / cols as f64;
        let var = row.iter().map(|v| (v - mu) * (v - mu)).sum::<f64>() / cols as f64;
        let rs = 1.0 / (var + eps as f64).sqrt();
        norm_ok &= (0..cols).all(|c| {
            let want = (row[c] - mu) * rs * gamma_h[c] as f64 + beta_h[c] as f64;
            (got[r * cols + c] as f64 - want).abs() <= 2e-4 * (1.0 + want.abs())
        });
    }
    let (mut y, mut mean, mut rstd) = (
        dev.zeros::<f32>(rows * cols)?,
        dev.zeros::<f32>(rows)?,
        dev.zeros::<f32>(rows)?,
    );
    dev.set_profiling(true);
    let gpu = median(|| {
        let start = Instant::now();
        let mut batch = dev.batch();
        enqueue_layer_norm(
            &mut batch, &x, &gamma, &beta, eps, &mut y, &mut mean, &mut rstd,
        )
        .expect("enqueue");
        gpu_time(batch.submit().expect("submit"), start)
    });
    dev.set_profiling(false);
    let bytes = (2 * rows * cols * 4) as f64;
    println!(
        "layer_norm {rows}×{cols} f32: {:.1} µs ({}), {:.1} GB/s (read + write){}",
        us(gpu),
        clock(profiling),
        bytes / gpu.as_secs_f64() / 1e9,
        if norm_ok { "" } else { "  WRONG RESULT" }
    );
    Ok(softmax_ok && norm_ok)
}

/// Multiples of 1/4 from -1.5 to 1.5 (exact in `f16`; every partial sum of a product of them
/// is exact in `f32` at these sizes), from `seed`.
fn quarter_values(seed: usize, n: usize) -> Vec<f32> {
    (0..n)
        .map(|i| ((i * 7 + seed * 3) % 13) as f32 * 0.25 - 1.5)
        .collect()
}

/// One product `m`×`n`×`k` of row-major `T`s: the GPU time of `Matmul::enqueue` (median) and
/// whether sampled elements equal the host's (exactly for `f32`; within half an ulp of the
/// half for `f16`).
fn time_product<T: MatmulElement>(
    dev: &Device,
    (m, n, k): (usize, usize, usize),
    from: impl Fn(f32) -> T,
    to: impl Fn(T) -> f32,
) -> Result<(Duration, bool)> {
    let (av, bv) = (quarter_values(1, m * k), quarter_values(2, k * n));
    let a = dev.upload(&av.iter().map(|&v| from(v)).collect::<Vec<_>>())?;
    let b = dev.upload(&bv.iter().map(|&v| from(v)).collect::<Vec<_>>())?;
    let mut c = dev.zeros::<T>(m * n)?;
    let product = Matmul::new(m, n, k);
    product.run(&a, &b, &mut c)?.wait()?;
    let got = c.read()?;
    let samples = [
        (0, 0),
        (1, n - 1),
        (m / 2, n / 3),
        (m - 1, 0),
        (m - 1, n - 1),
    ];
    let ok = samples.iter().all(|&(r, col)| {
        let want: f64 = (0..k)
            .map(|p| av[r * k + p] as f64 * bv[p * n + col] as f64)
            .sum();
        let g = to(got[r * n + col]) as f64;
        (g - want).abs()
            <= want.abs()
                * if std::mem::size_of::<T>() == 2 {
                    1.0 / 2048.0
                } else {
                    0.0
                }
    });
    let time = median(|| {
        let start = Instant::now();
        let mut batch = dev.batch();
        product
            .enqueue(&mut batch, &a, &b, &mut c)
            .expect("enqueue");
        gpu_time(batch.submit().expect("submit"), start)
    });
    Ok((time, ok))
}

/// The matrix products, on a device opened with wgpu's experimental features (cooperative
/// matrices) where the adapter has them; whether every one was right.
fn bench_matmul(quick: bool) -> Result<bool> {
    // SAFETY: the products below use wgpu's experimental cooperative matrices only through
    // Sarek's kernels, which the launch checks against the shapes the device offers.
    let dev = Device::gpu_with(unsafe { sarek::GpuOptions::new().experimental_features() })
        .or_else(|_| Device::new())?;
    let profiling = dev.set_profiling(true);
    println!(
        "matmul on {} ({:?}): f16 on {}",
        dev.name(),
        dev.backend(),
        if cooperative(&dev) {
            "cooperative matrices"
        } else {
            "the tiled kernel"
        }
    );
    let half: &[(usize, usize, usize)] = if quick {
        &[(256, 256, 256), (255, 257, 253)]
    } else {
        &[
            (4096, 4096, 4096),
            (4095, 4097, 4093),
            (8192, 3072, 768),
            (8192, 768, 3072),
        ]
    };
    let single: &[(usize, usize, usize)] = if quick {
        &[(256, 256, 256)]
    } else {
        &[(4096, 4096, 4096)]
    };
    let mut all_ok = true;
    let has_f16 = dev.features().contains(sarek::wgpu::Features::SHADER_F16);
    let rows = half
        .iter()
        .filter(|_| has_f16)
        .map(|&s| (s, true))
        .chain(single.iter().map(|&s| (s, false)));
    for ((m, n, k), is_half) in rows {
        let (time, ok) = if is_half {
            time_product(&dev, (m, n, k), sarek::f16::from_f32, |h: sarek::f16| {
                h.to_f32()
            })?
        } else {
            time_product(&dev, (m, n, k), |v| v, |v: f32| v)?
        };
        all_ok &= ok;
        println!(
            "matmul {} {m}×{n}×{k}: {:.1} µs ({}), {:.1} TFLOP/s{}",
            if is_half { "f16" } else { "f32" },
            us(time),
            clock(profiling),
            2.0 * (m * n * k) as f64 / time.as_secs_f64() / 1e12,
            if ok { "" } else { "  WRONG RESULT" }
        );
    }
    Ok(all_ok)
}

/// `n` halves in [-1, 1) from `seed` (as `torch.rand` scaled: scores of every sign).
fn half_values(seed: u32, n: usize) -> Vec<sarek::f16> {
    row_values(seed, n)
        .into_iter()
        .map(|v| sarek::f16::from_f32(v / 4.0))
        .collect()
}

/// Attention forward, causal, on a device opened as for the products: the GPU time of
/// `Attention::enqueue` (median) and its TFLOP/s, sampled rows of a few heads checked against
/// an `f64` host computation first (within 3/1024: values are below 1, outputs weighted means
/// of them in halves); whether every one was right.
fn bench_attention(quick: bool) -> Result<bool> {
    // SAFETY: as in `bench_matmul`: cooperative matrices only through Sarek's kernels.
    let dev = Device::gpu_with(unsafe { sarek::GpuOptions::new().experimental_features() })
        .or_else(|_| Device::new())?;
    if !dev.is_cpu() && !dev.features().contains(sarek::wgpu::Features::SHADER_F16) {
        println!("attention on {}: no SHADER_F16, not measured", dev.name());
        return Ok(true);
    }
    let profiling = dev.set_profiling(true);
    println!(
        "attention on {} ({:?}): d = 64 and 128 on {}",
        dev.name(),
        dev.backend(),
        if cooperative(&dev) {
            "cooperative matrices"
        } else {
            "the portable kernel"
        }
    );
    let shapes: &[(usize, usize, usize, usize)] = if quick {
        &[(1, 2, 128, 64), (1, 2, 130, 128)]
    } else {
        &[(8, 12, 1024, 64), (4, 16, 4096, 128)]
    };
    let mut all_ok = true;
    for &(b, h, t, d) in shapes {
        let attn = Attention::new(b, h, t, d).causal(true);
        let n = b * h * t * d;
        let (qv, kv, vv) = (half_values(1, n), half_values(2, n), half_values(3, n));
        let q = dev.upload(&qv)?;
        let k = dev.upload(&kv)?;
        let v = dev.upload(&vv)?;
        let mut o = dev.zeros::<sarek::f16>(n)?;
        attn.run(&q, &k, &v, &mut o)?.wait()?;
        let got = o.read()?;
        let scale = attn.scale_value() as f64;
        let f = |x: sarek::f16| x.to_f32() as f64;
        let heads = b * h;
        let samples = [
            (0, 0),
            (0, t - 1),
            (heads / 2, t / 3),
            (heads - 1, t / 2),
            (heads - 1, t - 1),
        ];
        let ok = samples.iter().all(|&(z, i)| {
            let base = z * t * d;
            let s: Vec<f64> = (0..=i)
                .map(|j| {
                    (0..d)
                        .map(|c| f(qv[base + i * d + c]) * f(kv[base + j * d + c]))
                        .sum::<f64>()
                        * scale
                })
                .collect();
            let mx = s.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            let w: Vec<f64> = s.iter().map(|x| (x - mx).exp()).collect();
            let total: f64 = w.iter().sum();
            (0..d).all(|c| {
                let want = (0..=i).map(|j| w[j] * f(vv[base + j * d + c])).sum::<f64>() / total;
                (f(got[base + i * d + c]) - want).abs() <= 3.0 / 1024.0
            })
        });
        all_ok &= ok;
        let time = median(|| {
            let start = Instant::now();
            let mut batch = dev.batch();
            attn.enqueue(&mut batch, &q, &k, &v, &mut o)
                .expect("enqueue");
            gpu_time(batch.submit().expect("submit"), start)
        });
        // 4·B·H·T²·d for Q·Kᵀ and P·V, half of it under the causal mask.
        let flops = 2.0 * (b * h) as f64 * (t * t) as f64 * d as f64;
        println!(
            "attention f16 causal B={b} H={h} T={t} d={d} ({:?}): {:.1} µs ({}), {:.1} TFLOP/s{}",
            attn.engine_for(&dev),
            us(time),
            clock(profiling),
            flops / time.as_secs_f64() / 1e12,
            if ok { "" } else { "  WRONG RESULT" }
        );
    }
    Ok(all_ok)
}
