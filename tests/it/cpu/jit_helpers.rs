//! Helpers that hold barriers under the CPU backend's JIT: each call is inlined
//! into the kernel's entry before the barrier split, and an early `return` (uniform, from
//! inside the helper's loop, or after its last barrier) leaves the inlined body as the
//! interpreter leaves the call. Compared with the interpreter (a checked device) and the host.

use crate::common::cpu_only;
use sarek::prelude::*;
use sarek::CpuEngine;

#[sarek::module]
// Kernel code: it is written the way the test exercises the compiler, not as clippy prefers.
#[allow(clippy::manual_is_multiple_of)]
pub mod inlined {
    use sarek::prelude::*;

    /// The workgroup's sum of `v`, or 7 when `skip` is 1 (a uniform early return), or the
    /// partial sum plus 1000 once the tree's stride drops below `cap` (a return from inside
    /// the barrier loop).
    pub fn capped_total(v: u32, skip: u32, cap: u32) -> u32 {
        let scratch = shared::<[u32; 64]>();
        let t = thread_idx_x();
        if skip == 1 {
            return 7;
        }
        scratch[t] = v;
        block_barrier();
        let mut stride = 32;
        while stride > 0 {
            if t < stride {
                scratch[t] += scratch[t + stride];
            }
            block_barrier();
            if stride < cap as usize {
                let early = scratch[0] + 1000;
                block_barrier();
                return early;
            }
            stride /= 2;
        }
        let total = scratch[0];
        block_barrier();
        total
    }

    /// Two totals, the second over the first: a helper with barriers calling one.
    pub fn twice(v: u32, skip: u32, cap: u32) -> u32 {
        let a = capped_total(v, skip, cap);
        let b = capped_total(a % 97, 0, cap);
        a.wrapping_mul(3) + b
    }

    /// After its barrier, a third of the invocations return before the store.
    pub fn tail(tails: &mut [u32], v: u32) -> u32 {
        block_barrier();
        let t = thread_idx_x();
        if t % 3 == 0 {
            return 1;
        }
        let i = global_thread_id();
        if i < tails.len() {
            tails[i] = v + t as u32;
        }
        2
    }

    #[sarek::kernel(workgroup_size = [64])]
    pub fn through_helpers(skip: u32, cap: u32, x: &[u32], out: &mut [u32], tails: &mut [u32]) {
        let i = global_thread_id();
        let v = if i < x.len() { x[i] } else { 0 };
        let s = twice(v, skip, cap);
        let r = tail(tails, s);
        if i < out.len() {
            out[i] = s * 10 + r;
        }
    }
}

#[cpu_only]
fn helpers_with_barriers_run_as_machine_code_like_the_interpreter(dev: Device) {
    if std::env::var("SAREK_CPU_ENGINE").as_deref() != Ok("interp")
        && !sarek_codegen::toggle::enabled("SAREK_CHECKS", false)
    {
        assert_eq!(
            dev.cpu_engine(inlined::through_helpers::SOURCE).unwrap(),
            Some(CpuEngine::Jit)
        );
    }
    let interp = Device::cpu();
    interp.set_checks(true);
    let n = 64 * 9 + 5;
    let x: Vec<u32> = (0..n as u32)
        .map(|i| i.wrapping_mul(2654435761) >> 20)
        .collect();
    let run = |d: &Device, skip: u32, cap: u32| {
        let xb = d.upload(&x).unwrap();
        let mut out = d.zeros::<u32>(n).unwrap();
        let mut tails = d.zeros::<u32>(n).unwrap();
        inlined::through_helpers
            .launch(d, Grid::cover(n), skip, cap, &xb, &mut out, &mut tails)
            .unwrap();
        (out.read().unwrap(), tails.read().unwrap())
    };
    for (skip, cap) in [(0, 0), (1, 0), (0, 3), (0, 40)] {
        let got = run(&dev, skip, cap);
        assert_eq!(got, run(&interp, skip, cap), "skip {skip} cap {cap}");
        // The host: every workgroup's total through the same steps.
        let total = |vals: &[u32], skip: u32| -> u32 {
            if skip == 1 {
                return 7;
            }
            let mut s = vals.to_vec();
            let mut stride = 32;
            while stride > 0 {
                for t in 0..stride {
                    s[t] = s[t].wrapping_add(s[t + stride]);
                }
                if stride < cap as usize {
                    return s[0] + 1000;
                }
                stride /= 2;
            }
            s[0]
        };
        for g in 0..n.div_ceil(64) {
            let vals: Vec<u32> = (0..64)
                .map(|t| x.get(g * 64 + t).copied().unwrap_or(0))
                .collect();
            let a = total(&vals, skip);
            let b = total(&[a % 97; 64], 0);
            let s = a.wrapping_mul(3) + b;
            for t in 0..64 {
                let i = g * 64 + t;
                if i < n {
                    let r = if t % 3 == 0 { 1 } else { 2 };
                    assert_eq!(got.0[i], s * 10 + r, "{i} skip {skip} cap {cap}");
                    assert_eq!(got.1[i], if t % 3 == 0 { 0 } else { s + t as u32 }, "{i}");
                }
            }
        }
    }
}
