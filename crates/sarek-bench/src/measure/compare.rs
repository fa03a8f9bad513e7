//! How many runs are timed and how: medians after warm-up, and Sarek's launches compared with
//! the twins' passes run by run.

use std::time::{Duration, Instant};

use super::median;
use crate::raw::{Ctx, Pass};

/// The timing settings of one suite run, on its device.
pub struct Timer<'a> {
    /// The device both sides run on.
    ctx: &'a Ctx,
    /// Timed runs per measurement; the median is reported.
    runs: usize,
    /// Untimed runs before them.
    warmup: usize,
    /// Each comparison first runs its work for this long, so that the GPU's clocks settle on
    /// it (measured on an H200: a two-pass sum timed right after saxpy varied from 71 to
    /// 140 µs between runs without it). After 2 s idle (a row's host-side reference, say) the
    /// H200's SM clock sits at 480–510 MHz and saxpy runs at 1.8 TB/s instead of 4.3; 160
    /// short timed launches (about 150 ms) left it there, 500 ms of steady launches brought it
    /// back to 1980 MHz (as probed) — hence a second, not the 300 ms used before, which
    /// left some rows of long runs timed at idle clocks on both sides.
    warm_for: Duration,
}

impl<'a> Timer<'a> {
    /// The settings for a full run of `runs` medians, or for `--quick` (a few runs, checks
    /// mostly).
    pub fn new(ctx: &'a Ctx, quick: bool, runs: usize) -> Timer<'a> {
        Timer {
            ctx,
            runs: if quick { 3 } else { runs.max(1) },
            warmup: if quick { 1 } else { 10 },
            warm_for: if quick {
                Duration::ZERO
            } else {
                Duration::from_millis(1000)
            },
        }
    }

    /// Runs `work` untimed for `warm_for`, so that the clocks settle on it.
    fn warm(&self, mut work: impl FnMut()) {
        let start = Instant::now();
        while start.elapsed() < self.warm_for {
            work();
        }
    }

    /// The median time of the twin's passes alone.
    pub fn time_raw(&self, passes: &[Pass]) -> Duration {
        self.warm(|| {
            self.ctx.time_passes(passes);
        });
        median(self.warmup, self.runs, || self.ctx.time_passes(passes))
    }

    /// Times the Sarek launches and each list of raw passes, interleaved run by run (in
    /// alternating order) so that clock changes of the GPU affect every side alike; returns
    /// the medians.
    pub fn compare(
        &self,
        mut sarek: impl FnMut() -> Vec<sarek::Launch>,
        raws: &[&[Pass]],
    ) -> (Duration, Vec<Duration>) {
        self.warm(|| {
            self.ctx.time_sarek(&mut sarek);
            for r in raws {
                self.ctx.time_passes(r);
            }
        });
        for _ in 0..self.warmup {
            self.ctx.time_sarek(&mut sarek);
            for r in raws {
                self.ctx.time_passes(r);
            }
        }
        let mut s = Vec::with_capacity(self.runs);
        let mut w: Vec<Vec<Duration>> = vec![Vec::with_capacity(self.runs); raws.len()];
        for run in 0..self.runs {
            if run % 2 == 0 {
                s.push(self.ctx.time_sarek(&mut sarek));
            }
            for (samples, r) in w.iter_mut().zip(raws) {
                samples.push(self.ctx.time_passes(r));
            }
            if run % 2 == 1 {
                s.push(self.ctx.time_sarek(&mut sarek));
            }
        }
        let mid = |mut v: Vec<Duration>| {
            v.sort();
            v[v.len() / 2]
        };
        (mid(s), w.into_iter().map(mid).collect())
    }

    /// [`Timer::compare`] against one twin: Sarek's median and the twin's.
    pub fn compare_one(
        &self,
        sarek: impl FnMut() -> Vec<sarek::Launch>,
        raw: &[Pass],
    ) -> (Duration, Duration) {
        let (sarek, raw) = self.compare(sarek, &[raw]);
        (sarek, raw[0])
    }
}
