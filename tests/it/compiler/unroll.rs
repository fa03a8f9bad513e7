//! Unrolling of loops over independent loads (`sarek_codegen::passes::unroll_loads`): the
//! kernels below run as compiled (the pass on) and recompiled from their IR with the pass off
//! (`SAREK_UNROLL=0`), on the test device and on the CPU backend, and every result agrees bit
//! for bit.

use crate::common::backends;

use std::sync::atomic::{AtomicU32, Ordering};

use sarek::__private::{launch, Arg, KernelSource};
use sarek::prelude::*;
use sarek_codegen::passes::Options;

/// A grid-stride sum per thread.
#[sarek::kernel]
fn grid_sum(x: &[f32], out: &mut [f32]) {
    let stride = grid_dim_x() * block_dim_x();
    let mut i = global_idx_x();
    let mut acc = 0.0f32;
    while i < x.len() {
        acc += x[i];
        i += stride;
    }
    if global_idx_x() < out.len() {
        out[global_idx_x()] = acc;
    }
}

/// A grid-stride loop with a second exit: each iteration keeps its own test.
#[sarek::kernel]
fn sum_to_negative(x: &[f32], out: &mut [f32]) {
    let stride = grid_dim_x() * block_dim_x();
    let mut i = global_idx_x();
    let mut acc = 0.0f32;
    while i < x.len() {
        let v = x[i];
        if v < 0.0 {
            break;
        }
        acc += v * x[i];
        i += stride;
    }
    if global_idx_x() < out.len() {
        out[global_idx_x()] = acc;
    }
}

/// A privatised histogram with a grid-stride loop.
#[sarek::kernel]
fn histogram_gs(data: &[u32], bins: &[AtomicU32]) {
    let local = shared::<[AtomicU32; 64]>();
    let t = thread_idx_x();
    if t < 64 {
        local[t].store(0, Ordering::Relaxed);
    }
    block_barrier();
    let stride = grid_dim_x() * block_dim_x();
    let mut i = global_idx_x();
    while i < data.len() {
        local[(data[i] % 64) as usize].fetch_add(1, Ordering::Relaxed);
        i += stride;
    }
    block_barrier();
    if t < 64 {
        let count = local[t].load(Ordering::Relaxed);
        bins[t].fetch_add(count, Ordering::Relaxed);
    }
}

/// `source` recompiled from its IR with the pass off.
fn without_unrolling(source: &'static KernelSource) -> &'static KernelSource {
    let program = sarek_cpu::interp::Program::from_json(source.ir()).expect("the IR");
    let off = sarek_codegen::compile_with(
        program.kernel(),
        &Options {
            unroll: 0,
            ..Options::default()
        },
    )
    .unwrap();
    let plain = KernelSource::new(
        Box::leak(off.wgsl.into_boxed_str()),
        off.abi,
        source.location(),
    );
    // SAFETY: the IR is `source`'s own, which the macro generated.
    Box::leak(Box::new(unsafe {
        plain.with_ir(source.ir(), source.spans())
    }))
}

/// Floats whose sums round (a change in the order of the additions would show).
fn floats(n: usize, negative_at: Option<usize>) -> Vec<f32> {
    (0..n)
        .map(|v| {
            if Some(v) == negative_at {
                -1.0
            } else {
                1.0 + v as f32 * 1.0e-3 + 1.0e7 * (v % 3) as f32
            }
        })
        .collect()
}

#[test]
fn the_pass_changes_the_wgsl_of_grid_stride_loops() {
    for source in [
        grid_sum::SOURCE,
        sum_to_negative::SOURCE,
        histogram_gs::SOURCE,
    ] {
        let off = without_unrolling(source);
        let program = sarek_cpu::interp::Program::from_json(source.ir()).unwrap();
        let on = sarek_codegen::compile_with(program.kernel(), &Options::default()).unwrap();
        assert_ne!(on.wgsl, off.wgsl(), "{}", source.abi().kernel);
        assert_eq!(&on.abi, off.abi());
        // What the macro embedded is one of the two (`SAREK_UNROLL` at build time chooses).
        assert!(source.wgsl() == on.wgsl || source.wgsl() == off.wgsl());
    }
    // The guarded shape: all iterations checked at once, then the original loop.
    let off = without_unrolling(grid_sum::SOURCE);
    let program = sarek_cpu::interp::Program::from_json(grid_sum::SOURCE.ir()).unwrap();
    let on = sarek_codegen::compile_with(program.kernel(), &Options::default()).unwrap();
    assert!(on.wgsl.contains(") / 3u)))"), "{}", on.wgsl);
    // In `sarek_main` and `sarek_main_folded`: the unrolled loop and the original one.
    let guarded = "while ((i < sarek_params.sarek_len0) && (stride <= ";
    assert_eq!(on.wgsl.matches(guarded).count(), 2, "{}", on.wgsl);
    let plain = "while (i < sarek_params.sarek_len0) {";
    assert_eq!(on.wgsl.matches(plain).count(), 2, "{}", on.wgsl);
    assert!(!off.wgsl().contains(guarded));
}

#[backends]
// The loop indexes several arrays in step, which reads plainer than zipped iterators.
#[allow(clippy::needless_range_loop)]
fn unrolled_sums_equal_the_plain_ones_bit_for_bit(dev: Device) {
    let off = without_unrolling(grid_sum::SOURCE);
    let off_break = without_unrolling(sum_to_negative::SOURCE);
    for (n, groups) in [
        (0, 1),
        (1, 1),
        (255, 1),
        (1000, 2),
        (4096 + 7, 3),
        (50_000, 5),
    ] {
        // Workgroups of 256 (the default).
        let threads = groups * 256;
        for (on_source, off_source, negative_at) in [
            (grid_sum::SOURCE, off, None),
            (sum_to_negative::SOURCE, off_break, Some(n * 2 / 3)),
        ] {
            let xs = floats(n, negative_at);
            let x = dev.upload(&xs).unwrap();
            let run = |source: &'static KernelSource| {
                let mut out = dev.zeros::<f32>(threads).unwrap();
                launch(
                    &dev,
                    source,
                    Grid::groups([groups as u32, 1, 1]),
                    &[Arg::read(&x), Arg::write(&mut out)],
                )
                .unwrap()
                .wait()
                .unwrap();
                out.read().unwrap()
            };
            let (on, plain) = (run(on_source), run(off_source));
            let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
            assert_eq!(
                bits(&on),
                bits(&plain),
                "{} on {}: n {n}, {groups} groups",
                on_source.abi().kernel,
                dev.name()
            );
            // And the sums are the sequential ones, thread by thread.
            for t in 0..threads {
                let mut acc = 0.0f32;
                for &v in xs.iter().skip(t).step_by(threads) {
                    if v < 0.0 {
                        break;
                    }
                    acc += if negative_at.is_some() { v * v } else { v };
                }
                assert_eq!(on[t].to_bits(), acc.to_bits(), "thread {t} of n {n}");
            }
        }
    }
}

#[backends]
fn unrolled_histograms_count_what_the_plain_ones_count(dev: Device) {
    let off = without_unrolling(histogram_gs::SOURCE);
    for (n, groups) in [(0usize, 1u32), (63, 1), (10_000, 3), (100_003, 7)] {
        let data: Vec<u32> = (0..n as u32)
            .map(|v| v.wrapping_mul(2_654_435_761))
            .collect();
        let d = dev.upload(&data).unwrap();
        let mut expect = vec![0u32; 64];
        for v in &data {
            expect[(v % 64) as usize] += 1;
        }
        for source in [histogram_gs::SOURCE, off] {
            let bins = dev.zeros::<u32>(64).unwrap();
            launch(
                &dev,
                source,
                Grid::groups([groups, 1, 1]),
                &[Arg::read(&d), Arg::atomic(&bins)],
            )
            .unwrap()
            .wait()
            .unwrap();
            assert_eq!(bins.read().unwrap(), expect, "n {n} on {}", dev.name());
        }
    }
}
