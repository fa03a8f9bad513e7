//! The library's row operations (`sarek::algo::rows`): softmax, log-softmax, layer norm
//! forward and backward and cross-entropy over `rows × cols` `f32` matrices, against a host
//! reference in `f64`, for shapes of every class (no rows, one column, odd widths, widths
//! around and past one workgroup's 256 threads and the 1024 columns held in registers, a
//! vocabulary of 50257, more rows than one launch's workgroups), on the test device (the GPU,
//! or the CPU backend under `SAREK_DEVICE=cpu`).
//!
//! Tolerances: softmax within `1e-5` of the reference relative to the row's largest
//! probability; log-softmax, layer norm and `dx` within `2e-4 · (1 + |reference|)`;
//! `dgamma`/`dbeta` and the losses within `1e-4` relative to the sum of the magnitudes of
//! their terms; the mean loss within `1e-4 · (1 + |mean|)`.

use proptest::prelude::*;
use sarek::algo::rows::{
    cross_entropy, layer_norm, layer_norm_backward, log_softmax, softmax, MAX_GROUPS,
};
use sarek::Device;

use crate::common::{self, backends};
use crate::differential::config;

/// `n` values in `[-scale, scale)` from `seed`, offset by `shift`.
fn values(seed: u32, n: usize, scale: f32, shift: f32) -> Vec<f32> {
    common::random_u32(seed, n)
        .iter()
        .map(|&r| shift + scale * ((r >> 8) as f32 / (1 << 23) as f32 - 1.0))
        .collect()
}

fn close(got: f32, want: f64, tol: f64, what: &str) {
    assert!(
        (got as f64 - want).abs() <= tol,
        "{what}: got {got}, want {want} (tolerance {tol})"
    );
}

/// Softmax, log-softmax and cross-entropy of `xs` (`cols` columns) against the host.
fn check_softmax(xs: &[f32], cols: usize, targets: &[u32]) {
    for (_, dev) in crate::differential::backends() {
        let rows = xs.len() / cols;
        let x = dev.upload(xs).unwrap();
        let sm = softmax(dev, &x, cols).unwrap().read().unwrap();
        let lsm = log_softmax(dev, &x, cols).unwrap().read().unwrap();
        let t = dev.upload(targets).unwrap();
        let ce = cross_entropy(dev, &x, cols, &t).unwrap();
        let loss = ce.loss.read().unwrap();
        assert_eq!(
            (sm.len(), lsm.len(), loss.len()),
            (xs.len(), xs.len(), rows)
        );
        let mut total = 0.0f64;
        for r in 0..rows {
            let row = &xs[r * cols..(r + 1) * cols];
            let m = row.iter().fold(f64::MIN, |m, &v| m.max(v as f64));
            let s: f64 = row.iter().map(|&v| (v as f64 - m).exp()).sum();
            let lse = m + s.ln();
            let what = format!("row {r} of {rows}×{cols}");
            for c in 0..cols {
                let v = row[c] as f64;
                close(
                    sm[r * cols + c],
                    (v - m).exp() / s,
                    1e-5 / s,
                    &format!("softmax {what}, col {c}"),
                );
                let want = v - lse;
                close(
                    lsm[r * cols + c],
                    want,
                    2e-4 * (1.0 + want.abs()),
                    &format!("log_softmax {what}, col {c}"),
                );
            }
            let want = lse - row[targets[r] as usize] as f64;
            let scale: f64 =
                1.0 + lse.abs() + row.iter().map(|&v| (v as f64).abs()).fold(0.0, f64::max);
            close(loss[r], want, 1e-5 * scale, &format!("loss {what}"));
            total += want;
        }
        if rows == 0 {
            assert!(
                ce.mean.is_nan(),
                "the mean over no rows is NaN, got {}",
                ce.mean
            );
        } else {
            let want = total / rows as f64;
            close(ce.mean, want, 1e-4 * (1.0 + want.abs()), "mean loss");
        }
    }
}

/// Layer norm forward and backward of `xs` (`cols` columns) against the host.
fn check_layer_norm(xs: &[f32], cols: usize, seed: u32) {
    for (_, dev) in crate::differential::backends() {
        let rows = xs.len() / cols;
        let gamma_h = values(seed ^ 1, cols, 1.0, 1.0);
        let beta_h = values(seed ^ 2, cols, 1.0, 0.0);
        let dy_h = values(seed ^ 3, xs.len(), 1.0, 0.0);
        let eps = 1e-5f32;
        let x = dev.upload(xs).unwrap();
        let gamma = dev.upload(&gamma_h).unwrap();
        let beta = dev.upload(&beta_h).unwrap();
        let fwd = layer_norm(dev, &x, &gamma, &beta, eps).unwrap();
        let (y, mean, rstd) = (
            fwd.y.read().unwrap(),
            fwd.mean.read().unwrap(),
            fwd.rstd.read().unwrap(),
        );
        assert_eq!((y.len(), mean.len(), rstd.len()), (xs.len(), rows, rows));
        let dy = dev.upload(&dy_h).unwrap();
        let g = layer_norm_backward(dev, &dy, &x, &fwd.mean, &fwd.rstd, &gamma).unwrap();
        let (dx, dgamma, dbeta) = (
            g.dx.read().unwrap(),
            g.dgamma.read().unwrap(),
            g.dbeta.read().unwrap(),
        );
        assert_eq!(
            (dx.len(), dgamma.len(), dbeta.len()),
            (xs.len(), cols, cols)
        );
        let n = cols as f64;
        let mut dgamma_want = vec![0.0f64; cols];
        let mut dgamma_mag = vec![0.0f64; cols];
        let mut dbeta_want = vec![0.0f64; cols];
        let mut dbeta_mag = vec![0.0f64; cols];
        for r in 0..rows {
            let row: Vec<f64> = xs[r * cols..(r + 1) * cols]
                .iter()
                .map(|&v| v as f64)
                .collect();
            let mu = row.iter().sum::<f64>() / n;
            let var = row.iter().map(|v| (v - mu) * (v - mu)).sum::<f64>() / n;
            let rs = 1.0 / (var + eps as f64).sqrt();
            let what = format!("row {r} of {rows}×{cols}");
            close(
                mean[r],
                mu,
                1e-5 * (1.0 + mu.abs()),
                &format!("mean {what}"),
            );
            close(rstd[r], rs, 2e-4 * rs, &format!("rstd {what}"));
            let xhat: Vec<f64> = row.iter().map(|v| (v - mu) * rs).collect();
            let gr: Vec<f64> = (0..cols)
                .map(|c| dy_h[r * cols + c] as f64 * gamma_h[c] as f64)
                .collect();
            let ga = gr.iter().sum::<f64>() / n;
            let gb = gr.iter().zip(&xhat).map(|(g, h)| g * h).sum::<f64>() / n;
            for c in 0..cols {
                let want = xhat[c] * gamma_h[c] as f64 + beta_h[c] as f64;
                close(
                    y[r * cols + c],
                    want,
                    2e-4 * (1.0 + want.abs()),
                    &format!("y {what}, col {c}"),
                );
                let want = rs * (gr[c] - ga - xhat[c] * gb);
                close(
                    dx[r * cols + c],
                    want,
                    2e-4 * (1.0 + rs) * (1.0 + want.abs()),
                    &format!("dx {what}, col {c}"),
                );
                let d = dy_h[r * cols + c] as f64;
                dgamma_want[c] += d * xhat[c];
                dgamma_mag[c] += (d * xhat[c]).abs();
                dbeta_want[c] += d;
                dbeta_mag[c] += d.abs();
            }
        }
        for c in 0..cols {
            close(
                dgamma[c],
                dgamma_want[c],
                1e-4 * (1.0 + dgamma_mag[c]),
                &format!("dgamma col {c}"),
            );
            close(
                dbeta[c],
                dbeta_want[c],
                1e-5 * (1.0 + dbeta_mag[c]),
                &format!("dbeta col {c}"),
            );
        }
    }
}

/// Widths of every class: one column, small and odd, around the 256 threads of a
/// workgroup, around the 1024 columns held in registers, and several times past them.
fn widths() -> impl Strategy<Value = usize> {
    prop_oneof![
        Just(1usize),
        2usize..40,
        250usize..262,
        1019usize..1030,
        1030usize..3000,
    ]
}

proptest! {
    #![proptest_config(config(8))]

    #[test]
    fn softmax_and_cross_entropy_match_the_host(
        rows in 0usize..6,
        cols in widths(),
        seed in any::<u32>(),
        scale in prop_oneof![Just(1.0f32), Just(30.0f32)],
        shift in prop_oneof![Just(0.0f32), Just(1000.0f32), Just(-50.0f32)],
    ) {
        let xs = values(seed, rows * cols, scale, shift);
        let targets: Vec<u32> = common::random_u32(seed ^ 7, rows).iter().map(|&r| r % cols as u32).collect();
        check_softmax(&xs, cols, &targets);
    }

    #[test]
    fn layer_norm_forward_and_backward_match_the_host(
        rows in 0usize..6,
        cols in widths(),
        seed in any::<u32>(),
        scale in prop_oneof![Just(1.0f32), Just(10.0f32)],
        shift in prop_oneof![Just(0.0f32), Just(100.0f32)],
    ) {
        let xs = values(seed, rows * cols, scale, shift);
        check_layer_norm(&xs, cols, seed);
    }
}

/// A GPT-2 vocabulary's width: 50257 columns, far past one workgroup's threads.
#[test]
fn a_vocabulary_wide_row() {
    let cols = 50257;
    let xs = values(11, 3 * cols, 8.0, 0.0);
    check_softmax(&xs, cols, &[0, 50256, 12345]);
    check_layer_norm(&xs, cols, 11);
    // Four rows make whole words of four floats, which a GPU reads as `Vec4`s although the
    // rows start mid-word.
    let xs = values(12, 4 * cols, 8.0, 0.0);
    check_softmax(&xs, cols, &[0, 50256, 12345, 7]);
}

/// The softmax over words of four floats, launched directly (the CPU backend's calls take the
/// scalar kernel): rows of 5 and 7 columns start mid-word and share words with their
/// neighbours, whose elements it must leave alone.
#[backends]
fn softmax_over_words_writes_only_its_rows(dev: &Device) {
    for (rows, cols) in [(4usize, 5usize), (4, 7), (12, 1), (8, 3)] {
        let xs = values(rows as u32, rows * cols, 6.0, 0.0);
        let words: Vec<sarek::Vec4> = xs
            .chunks(4)
            .map(|c| sarek::Vec4::new(c[0], c[1], c[2], c[3]))
            .collect();
        let x = dev.upload(&words).unwrap();
        for log in [0u32, 1] {
            let mut y = dev.zeros::<sarek::Vec4>(words.len()).unwrap();
            sarek::algo::rows::kernels::softmax_rows4
                .launch(
                    dev,
                    sarek::Grid::groups(2),
                    &x,
                    rows as u32,
                    cols as u32,
                    log,
                    &mut y,
                )
                .unwrap();
            let got: Vec<f32> = y
                .read()
                .unwrap()
                .iter()
                .flat_map(|v| [v.x, v.y, v.z, v.w])
                .collect();
            for r in 0..rows {
                let row = &xs[r * cols..(r + 1) * cols];
                let m = row.iter().fold(f64::MIN, |m, &v| m.max(v as f64));
                let s: f64 = row.iter().map(|&v| (v as f64 - m).exp()).sum();
                for c in 0..cols {
                    let want = if log == 0 {
                        (row[c] as f64 - m).exp() / s
                    } else {
                        row[c] as f64 - m - s.ln()
                    };
                    close(
                        got[r * cols + c],
                        want,
                        2e-5 * (1.0 + want.abs()),
                        &format!("{rows}×{cols} log {log} at {r},{c}"),
                    );
                }
            }
        }
    }
}

/// More rows than one launch has workgroups: each workgroup does several rows.
#[test]
fn more_rows_than_workgroups() {
    let rows = MAX_GROUPS + 3;
    let xs = values(5, rows * 2, 4.0, 0.0);
    let targets: Vec<u32> = (0..rows as u32).map(|r| r % 2).collect();
    check_softmax(&xs, 2, &targets);
    check_layer_norm(&xs, 2, 5);
}

/// A constant row: softmax is uniform, layer norm gives `beta` (the variance is zero, `eps`
/// keeps `rstd` finite), and a target out of range gives a NaN loss.
#[backends]
fn constant_rows_and_a_bad_target(dev: &Device) {
    let x = dev.upload(&[7.0f32; 6]).unwrap();
    assert_eq!(softmax(dev, &x, 3).unwrap().read().unwrap(), [1.0 / 3.0; 6]);
    let gamma = dev.upload(&[2.0f32; 3]).unwrap();
    let beta = dev.upload(&[0.5f32, -1.0, 3.0]).unwrap();
    let out = layer_norm(dev, &x, &gamma, &beta, 1e-5).unwrap();
    assert_eq!(out.y.read().unwrap(), [0.5, -1.0, 3.0, 0.5, -1.0, 3.0]);
    let ce = cross_entropy(dev, &x, 3, &dev.upload(&[1u32, 3]).unwrap()).unwrap();
    let loss = ce.loss.read().unwrap();
    assert!(
        (loss[0] - 3.0f32.ln()).abs() < 1e-6 && loss[1].is_nan(),
        "{loss:?}"
    );
}

/// Rows that are not whole are refused, naming the shape.
#[backends]
fn partial_rows_are_refused(dev: &Device) {
    let x = dev.upload(&[0.0f32; 7]).unwrap();
    super::refused(
        softmax(dev, &x, 3),
        "7 elements are not whole rows of 3 columns",
    );
    super::refused(softmax(dev, &x, 0), "at least one column");
    let x = dev.upload(&[0.0f32; 6]).unwrap();
    let (gamma, beta) = (
        dev.upload(&[1.0f32; 3]).unwrap(),
        dev.upload(&[0.0f32; 2]).unwrap(),
    );
    super::refused(
        sarek::algo::rows::layer_norm(dev, &x, &gamma, &beta, 1e-5),
        "`beta` holds 2 elements, not 3",
    );
}
