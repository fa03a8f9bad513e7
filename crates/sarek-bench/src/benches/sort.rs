//! The library radix sort (`sarek::algo::sort`) of `n` random `u32` keys, alone and with `u32`
//! values, in keys per second. It has no hand-written twin (its rows print none); PyTorch's
//! `torch.sort` of the same size is its comparison, measured beside the suite.

use sarek::algo::sort::Sorter;

use super::{pow2, Bench, Result};
use crate::measure::{first_launch, Measured, Work};

/// Checks and times the sort of `n` keys, then of `n` key–value pairs.
pub fn sort(b: &Bench) -> Result<Vec<Measured>> {
    let (ctx, n) = (b.ctx, b.n);
    let dev = &ctx.dev;
    let keys = crate::benches::random_u32(13, n);
    let mut want: Vec<(u32, u32)> = keys.iter().copied().zip(0..).collect();
    want.sort_by_key(|p| p.0);
    let index: Vec<u32> = (0..n as u32).collect();
    let mut rows = Vec::new();
    for pairs in [false, true] {
        let mut k = dev.upload(&keys)?;
        let mut v = dev.upload(&index)?;
        let mut sorter = Sorter::<u32>::new(dev, n)?;
        let mut once = |k: &mut sarek::Buffer<u32>, v: &mut sarek::Buffer<u32>| {
            if pairs {
                sorter.run_pairs(k, v).expect("sort")
            } else {
                sorter.run(k).expect("sort")
            }
        };
        let first = first_launch(|| once(&mut k, &mut v));
        let got_keys = k.read()?;
        let verified = got_keys.iter().zip(&want).all(|(g, w)| *g == w.0)
            && (!pairs || v.read()?.iter().zip(&want).all(|(g, w)| *g == w.1));
        // Sorting sorted keys costs what sorting random ones does (every pass moves every
        // key), so the timed runs need no fresh input.
        let (sarek, _) = b.timer.compare(|| vec![once(&mut k, &mut v)], &[]);
        rows.push(Measured {
            size: format!("{}{}", pow2(n), if pairs { " pairs" } else { "" }),
            work: Work::Keys(n as f64),
            sarek,
            wgsl: std::time::Duration::ZERO,
            wgsl_vec4: None,
            verified,
            first_launch: first,
        });
    }
    Ok(rows)
}
