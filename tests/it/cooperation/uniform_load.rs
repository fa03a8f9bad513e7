//! `workgroup_uniform_load`: a convergence loop over a workgroup flag, with barriers inside,
//! on the GPU and on the CPU backend, against the same iteration on the host.

use crate::common;
use crate::common::backends;

use sarek::prelude::*;

/// Each workgroup spreads the maximum rightwards one step per round (a prefix maximum) until
/// no thread changes its value, and counts the rounds: an iterative solver's shape.
#[sarek::kernel(workgroup_size = [64])]
fn prefix_max_until_settled(x: &[u32], out: &mut [u32], rounds: &mut [u32]) {
    let t = thread_idx_x();
    let i = global_idx_x();
    let v = shared::<[u32; 64]>();
    let changed = shared::<[u32; 1]>();
    v[t] = if i < x.len() { x[i] } else { 0 };
    block_barrier();
    let mut round = 0u32;
    loop {
        let left = if t > 0 { v[t - 1] } else { 0 };
        block_barrier();
        if left > v[t] {
            v[t] = left;
            changed[0] = 1;
        }
        round += 1;
        // Every thread sees the same flag, so all leave together.
        if workgroup_uniform_load(&changed[0]) == 0 {
            break;
        }
        block_barrier(); // every thread has read the flag before it is cleared
        if t == 0 {
            changed[0] = 0;
        }
    }
    if i < out.len() {
        out[i] = v[t];
    }
    if t == 0 {
        rounds[block_idx_x()] = round;
    }
}

/// The same rounds on the host: every element takes its left neighbour's old value if larger.
fn settle(block: &[u32]) -> (Vec<u32>, u32) {
    let mut v = block.to_vec();
    v.resize(64, 0);
    let mut rounds = 0;
    loop {
        let old = v.clone();
        let mut changed = false;
        for t in 1..64 {
            if old[t - 1] > v[t] {
                v[t] = old[t - 1];
                changed = true;
            }
        }
        rounds += 1;
        if !changed {
            break;
        }
    }
    v.truncate(block.len());
    (v, rounds)
}

#[backends]
fn a_convergence_loop_over_a_workgroup_flag_runs_on_every_backend(dev: Device) {
    assert!(
        prefix_max_until_settled::WGSL.contains("workgroupUniformLoad(&changed[0u])")
            || prefix_max_until_settled::WGSL.contains("workgroupUniformLoad(&changed[0])")
    );
    let n = 64 * 5 + 17;
    let xs: Vec<u32> = common::random_u32(11, n).iter().map(|v| v % 1000).collect();
    let mut expect = Vec::new();
    let mut expect_rounds = Vec::new();
    for block in xs.chunks(64) {
        let (v, r) = settle(block);
        expect.extend(v);
        expect_rounds.push(r);
    }
    assert!(
        expect_rounds.iter().any(|&r| r > 3),
        "the input needs several rounds"
    );
    let x = dev.upload(&xs).unwrap();
    let mut out = dev.zeros::<u32>(n).unwrap();
    let mut rounds = dev.zeros::<u32>(n.div_ceil(64)).unwrap();
    prefix_max_until_settled
        .launch(&dev, Grid::cover(n), &x, &mut out, &mut rounds)
        .unwrap();
    assert_eq!(out.read().unwrap(), expect, "{}", dev.name());
    assert_eq!(rounds.read().unwrap(), expect_rounds, "{}", dev.name());
}
