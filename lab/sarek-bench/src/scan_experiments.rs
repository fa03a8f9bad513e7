//! `--experiments --only scan3`: the three-pass scan of `n` floats with each variant of its
//! passes (`scan_kernels.rs`) against the library's portable one, checked, then timed.

use sarek::scan::{scan_carry, scan_reduce, Scan};
use sarek::{Buffer, Grid, Vec4};

use crate::benches::{Bench, Result};
use crate::scan_kernels as sk;

/// The floats scanned: -1, 0 or 1, so that every prefix is a small integer and exact in any
/// order of addition.
pub fn input(n: usize) -> Vec<f32> {
    crate::benches::random_u32(11, n)
        .iter()
        .map(|v| (v % 3) as f32 - 1.0)
        .collect()
}

/// The inclusive scan of `xs` on the host.
pub fn expected(xs: &[f32]) -> Vec<f32> {
    let mut s = 0.0f32;
    xs.iter()
        .map(|v| {
            s += v;
            s
        })
        .collect()
}

/// Times each variant.
pub fn scan3(b: &Bench) -> Result<()> {
    let dev = &b.ctx.dev;
    let n = b.n;
    let xs = input(n);
    let want = expected(&xs);
    let x = dev.upload(bytemuck::cast_slice::<f32, Vec4>(&xs))?;
    let mut out = dev.zeros::<Vec4>(n / 4)?;
    let tiles = (n / 4).div_ceil(2048) as u32;
    let mut sums = dev.zeros::<f32>(tiles as usize)?;
    let mut carry = dev.zeros::<f32>(tiles as usize)?;
    let mut lib = Scan::new(dev, n / 4)?;
    let mut portable = Scan::with_subgroups(dev, n / 4, false)?;
    let sg = dev.features().contains(sarek::wgpu::Features::SUBGROUP);
    let g = Grid::groups([tiles, 1, 1]);
    let tiles16 = (n / 4).div_ceil(4096) as u32;
    let g16 = Grid::groups([tiles16, 1, 1]);
    let mut sums16 = dev.zeros::<f32>(tiles16 as usize)?;
    let mut carry16 = dev.zeros::<f32>(tiles16 as usize)?;
    let one = Grid::groups([1, 1, 1]);
    let names = [
        "library, subgroups (apply_sg)",
        "library passes enqueued one by one",
        "tree reduce, subgroup pair apply",
        "tiles of 16384: tree reduce, row apply",
        "pass 1 alone (tree reduce)",
        "pass 2 alone (carry)",
        "pass 3 alone (library apply_sg, clamped loads)",
        "pass 2 alone (carry, clamped loads)",
        "library, portable (per-thread apply)",
    ];
    for (variant, name) in names.iter().enumerate() {
        if variant > 0 && variant < 8 && !sg {
            continue;
        }
        let mut go = |out: &mut Buffer<Vec4>| {
            let mut batch = dev.batch();
            let bt = &mut batch;
            match variant {
                0 => lib.enqueue(bt, &x, out).unwrap(),
                1 | 2 => {
                    scan_reduce.enqueue(bt, g, &x, &mut sums).unwrap();
                    scan_carry.enqueue(bt, one, &sums, &mut carry).unwrap();
                    if variant == 1 {
                        sarek::scan::scan_apply_sg
                            .enqueue(bt, g, &x, &carry, out)
                            .unwrap();
                    } else {
                        sk::scan_apply_pairs
                            .enqueue(bt, g, &x, &carry, out)
                            .unwrap();
                    }
                }
                3 => {
                    sk::scan_reduce16.enqueue(bt, g16, &x, &mut sums16).unwrap();
                    scan_carry.enqueue(bt, one, &sums16, &mut carry16).unwrap();
                    sk::scan_apply_rows16
                        .enqueue(bt, g16, &x, &carry16, out)
                        .unwrap();
                }
                4 => scan_reduce.enqueue(bt, g, &x, &mut sums).unwrap(),
                5 => scan_carry.enqueue(bt, one, &sums, &mut carry).unwrap(),
                6 => sarek::scan::scan_apply_sg
                    .enqueue(bt, g, &x, &carry, out)
                    .unwrap(),
                7 => scan_carry.enqueue(bt, one, &sums, &mut carry).unwrap(),
                _ => portable.enqueue(bt, &x, out).unwrap(),
            }
            vec![batch.submit().expect("submit")]
        };
        go(&mut out);
        let got: Vec<f32> = bytemuck::cast_slice(&out.read()?).to_vec();
        let ok = got == want;
        let t = b.timer.compare(|| go(&mut out), &[]).0;
        println!(
            "experiment: scan3 {name:<46} {:>9.1} µs  {:>8.1} GB/s counted  checked {ok}",
            t.as_secs_f64() * 1e6,
            (n * 8) as f64 / t.as_secs_f64() / 1e9
        );
    }
    Ok(())
}
