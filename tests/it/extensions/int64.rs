//! `i64` and `u64` in kernels (wgpu feature `SHADER_INT64`): buffers, uniform scalars, locals,
//! arithmetic, shifts, comparisons, conversions, literals, struct fields and 64-bit atomics,
//! on the test device and the CPU backend, compared with host Rust (integers wrap, `x / 0 ==
//! x`, `x % 0 == 0`, `i64::MIN / -1 == i64::MIN`, shift amounts masked to six bits).

use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};

use crate::common::{backends, cpu_only, gpu_only};

use sarek::prelude::*;

/// The result of the first launch of a 64-bit kernel on `dev`: `None` on a GPU without
/// `SHADER_INT64` (which must refuse it with `MissingFeature`), else the launch's result,
/// which must be `Ok`.
fn unless_no_int64<T: std::fmt::Debug>(dev: &Device, launched: sarek::Result<T>) -> Option<T> {
    if !dev.is_cpu() && !dev.features().contains(sarek::wgpu::Features::SHADER_INT64) {
        match launched {
            Err(sarek::Error::MissingFeature {
                feature: sarek::abi::Feature::ShaderInt64,
                ..
            }) => return None,
            other => panic!(
                "{}: expected MissingFeature(ShaderInt64), got {other:?}",
                dev.name()
            ),
        }
    }
    Some(launched.unwrap())
}

const I_OUT: usize = 16;
const U_OUT: usize = 12;
const F_OUT: usize = 2;

// Every operator and conversion of the 64-bit types on one pair of values per invocation.
#[sarek::kernel]
fn wide_ops(
    k: i64,
    m: u64,
    a: &[i64],
    b: &[i64],
    c: &[f32],
    out_i: &mut [i64],
    out_u: &mut [u64],
    out_32: &mut [u32],
    out_f: &mut [f32],
) {
    let i = global_thread_id();
    if i < a.len() {
        let (x, y) = (a[i], b[i]);
        let (ux, uy) = (x as u64, y as u64);
        let o = i * 16;
        out_i[o] = x + y;
        out_i[o + 1] = x - y;
        out_i[o + 2] = x * y;
        out_i[o + 3] = x / y;
        out_i[o + 4] = x % y;
        out_i[o + 5] = x << (y as u32);
        out_i[o + 6] = x >> y;
        out_i[o + 7] = (x & y) | (x ^ !y);
        out_i[o + 8] = -x;
        out_i[o + 9] = (x as i32) as i64;
        out_i[o + 10] = (x as u32) as i64;
        out_i[o + 11] = c[i] as i64;
        // An unsuffixed literal takes its type from the other operand.
        let mut acc = x * 3 + 5_000_000_000;
        acc += k;
        acc -= i64::MIN;
        out_i[o + 12] = acc;
        out_i[o + 13] = (y as u32 >> 3) as i64 + i64::MAX;
        out_i[o + 14] = (x as i32 as u64) as i64;
        out_i[o + 15] = if x < y { x } else { y };
        let p = i * 12;
        out_u[p] = ux + uy;
        out_u[p + 1] = ux - uy;
        out_u[p + 2] = ux * uy;
        out_u[p + 3] = ux / uy;
        out_u[p + 4] = ux % uy;
        out_u[p + 5] = ux << uy;
        out_u[p + 6] = ux >> (y as i32);
        out_u[p + 7] = !ux ^ 0xffff_ffff_0000_0000u64;
        out_u[p + 8] = (!ux) + 1 + m;
        out_u[p + 9] = (ux as u32) as u64 + u64::MAX;
        out_u[p + 10] = c[i] as u64;
        out_u[p + 11] = (ux > uy) as u64 + (x > y) as u64 * 2 + (x == y) as u64 * 4;
        let flags = (x < y) as u32
            | ((x <= y) as u32) << 1
            | ((x > y) as u32) << 2
            | ((x >= y) as u32) << 3
            | ((x == y) as u32) << 4
            | ((x != y) as u32) << 5
            | ((ux < uy) as u32) << 6
            | ((ux <= uy) as u32) << 7
            | ((ux > uy) as u32) << 8
            | ((ux >= uy) as u32) << 9
            | ((ux != 0) as u32) << 10;
        out_32[i * 2] = flags;
        out_32[i * 2 + 1] = (x as u32) ^ ((ux >> 32) as u32);
        out_f[i * 2] = x as f32;
        out_f[i * 2 + 1] = ux as f32;
    }
}

/// What `wide_ops` computes, in host Rust.
fn wide_ops_host(
    k: i64,
    m: u64,
    x: i64,
    y: i64,
    c: f32,
) -> ([i64; I_OUT], [u64; U_OUT], [u32; 2], [f32; F_OUT]) {
    let (ux, uy) = (x as u64, y as u64);
    let div = |a: i64, b: i64| if b == 0 { a } else { a.wrapping_div(b) };
    let rem = |a: i64, b: i64| if b == 0 { 0 } else { a.wrapping_rem(b) };
    let acc = x
        .wrapping_mul(3)
        .wrapping_add(5_000_000_000)
        .wrapping_add(k)
        .wrapping_sub(i64::MIN);
    let i = [
        x.wrapping_add(y),
        x.wrapping_sub(y),
        x.wrapping_mul(y),
        div(x, y),
        rem(x, y),
        x.wrapping_shl(y as u32),
        x.wrapping_shr(y as u32),
        (x & y) | (x ^ !y),
        x.wrapping_neg(),
        (x as i32) as i64,
        (x as u32) as i64,
        c as i64,
        acc,
        ((y as u32 >> 3) as i64).wrapping_add(i64::MAX),
        (x as i32 as u64) as i64,
        x.min(y),
    ];
    let u = [
        ux.wrapping_add(uy),
        ux.wrapping_sub(uy),
        ux.wrapping_mul(uy),
        ux.checked_div(uy).unwrap_or(ux),
        ux.checked_rem(uy).unwrap_or(0),
        ux.wrapping_shl(uy as u32),
        ux.wrapping_shr(y as i32 as u32),
        !ux ^ 0xffff_ffff_0000_0000u64,
        (!ux).wrapping_add(1).wrapping_add(m),
        ((ux as u32) as u64).wrapping_add(u64::MAX),
        c as u64,
        (ux > uy) as u64 + (x > y) as u64 * 2 + (x == y) as u64 * 4,
    ];
    let flags = (x < y) as u32
        | ((x <= y) as u32) << 1
        | ((x > y) as u32) << 2
        | ((x >= y) as u32) << 3
        | ((x == y) as u32) << 4
        | ((x != y) as u32) << 5
        | ((ux < uy) as u32) << 6
        | ((ux <= uy) as u32) << 7
        | ((ux > uy) as u32) << 8
        | ((ux >= uy) as u32) << 9
        | ((ux != 0) as u32) << 10;
    (
        i,
        u,
        [flags, (x as u32) ^ ((ux >> 32) as u32)],
        [x as f32, ux as f32],
    )
}

/// Runs `wide_ops` on `pairs` and compares every output with the host's, bit for bit.
fn check_wide_ops(dev: &Device, k: i64, m: u64, pairs: &[(i64, i64, f32)]) {
    let n = pairs.len();
    let a = dev
        .upload(&pairs.iter().map(|p| p.0).collect::<Vec<_>>())
        .unwrap();
    let b = dev
        .upload(&pairs.iter().map(|p| p.1).collect::<Vec<_>>())
        .unwrap();
    let c = dev
        .upload(&pairs.iter().map(|p| p.2).collect::<Vec<_>>())
        .unwrap();
    let mut out_i = dev.upload(&vec![0i64; n * I_OUT]).unwrap();
    let mut out_u = dev.upload(&vec![0u64; n * U_OUT]).unwrap();
    let mut out_32 = dev.upload(&vec![0u32; n * 2]).unwrap();
    let mut out_f = dev.upload(&vec![0f32; n * F_OUT]).unwrap();
    let launched = wide_ops.launch(
        dev,
        Grid::cover(n),
        k,
        m,
        &a,
        &b,
        &c,
        &mut out_i,
        &mut out_u,
        &mut out_32,
        &mut out_f,
    );
    let Some(_) = unless_no_int64(dev, launched) else {
        return;
    };
    let (gi, gu, g32, gf) = (
        out_i.read().unwrap(),
        out_u.read().unwrap(),
        out_32.read().unwrap(),
        out_f.read().unwrap(),
    );
    for (j, &(x, y, cf)) in pairs.iter().enumerate() {
        let (wi, wu, w32, wf) = wide_ops_host(k, m, x, y, cf);
        assert_eq!(
            gi[j * I_OUT..(j + 1) * I_OUT],
            wi,
            "i64 results for x = {x}, y = {y}, c = {cf}"
        );
        assert_eq!(
            gu[j * U_OUT..(j + 1) * U_OUT],
            wu,
            "u64 results for x = {x}, y = {y}, c = {cf}"
        );
        assert_eq!(g32[j * 2..j * 2 + 2], w32, "flags for x = {x}, y = {y}");
        let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
        assert_eq!(
            bits(&gf[j * F_OUT..(j + 1) * F_OUT]),
            bits(&wf),
            "floats for x = {x}, y = {y}"
        );
    }
}

/// Values at the edges of both types and of their 32-bit halves.
const EDGES: [i64; 14] = [
    0,
    1,
    -1,
    2,
    -7,
    63,
    64,
    i64::MIN,
    i64::MAX,
    1 << 32,
    (1 << 32) - 1,
    -(1 << 32),
    0x1234_5678_9abc_def0,
    u64::MAX as i64 - 0x8000_0000,
];

const FLOATS: [f32; 7] = [0.0, -1.5, 3.0e9, -9.3e18, 1.0e19, 2.0e19, f32::NAN];

#[backends]
fn i64_and_u64_arithmetic_shifts_comparisons_and_casts_match_host_rust(dev: Device) {
    // The pairs divide by zero, whose unchecked results are under test (the checked backend
    // faults there: `a_64_bit_division_by_zero_faults_on_the_checked_cpu_backend`).
    dev.set_checks(false);
    let mut pairs = Vec::new();
    for (n, &x) in EDGES.iter().enumerate() {
        for (l, &y) in EDGES.iter().enumerate() {
            pairs.push((x, y, FLOATS[(n + l) % FLOATS.len()]));
        }
    }
    check_wide_ops(&dev, -123_456_789_012, u64::MAX - 5, &pairs);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(8))]
    #[test]
    fn random_64_bit_values_match_host_rust_on_the_cpu_backend(
        k: i64,
        m: u64,
        pairs in proptest::collection::vec((proptest::prelude::any::<i64>(), proptest::prelude::any::<i64>(), -2.0e19f32..2.0e19), 1..200),
    ) {
        check_wide_ops(&Device::cpu(), k, m, &pairs);
    }
}

#[gpu_only]
fn random_64_bit_values_match_host_rust_on_the_gpu() {
    let Some(dev) = crate::common::gpu_device() else {
        return;
    };
    use proptest::strategy::{Strategy, ValueTree};
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strategy = proptest::collection::vec(
        (
            proptest::prelude::any::<i64>(),
            proptest::prelude::any::<i64>(),
            -2.0e19f32..2.0e19,
        ),
        1..300,
    );
    for _ in 0..4 {
        let pairs = strategy.new_tree(&mut runner).unwrap().current();
        check_wide_ops(&dev, 987_654_321_987, 1 << 63, &pairs);
    }
}

#[test]
fn the_abi_lists_shader_int64_and_lays_out_eight_byte_scalars() {
    use sarek::abi::{Feature, FieldSource};
    assert_eq!(&*wide_ops::ABI.features, [Feature::ShaderInt64]);
    assert!(wide_ops::ABI.to_json().contains("\"SHADER_INT64\""));
    assert_eq!(wide_ops::ABI.buffers[0].elem, "i64");
    assert_eq!(wide_ops::ABI.buffers[0].stride, 8);
    assert_eq!(wide_ops::ABI.buffers[4].elem, "u64");
    // `k` after the grid's 12 bytes moves to 16; `m` follows at 24.
    let offset = |param: u32| {
        wide_ops::ABI
            .uniform
            .fields
            .iter()
            .find(|f| matches!(f.source, FieldSource::Scalar { param: p, .. } if p == param))
            .map(|f| f.offset)
    };
    assert_eq!((offset(0), offset(1)), (Some(16), Some(24)));
    assert!(
        wide_ops::WGSL.contains("5000000000li"),
        "{}",
        wide_ops::WGSL
    );
}

#[cpu_only]
fn a_64_bit_division_by_zero_faults_on_the_checked_cpu_backend() {
    let dev = crate::common::cpu_checked_device();
    let launched = wide_ops.launch(
        &dev,
        Grid::cover(1),
        0,
        0,
        &dev.upload(&[1i64 << 40]).unwrap(),
        &dev.upload(&[0i64]).unwrap(),
        &dev.upload(&[0f32]).unwrap(),
        &mut dev.upload(&[0i64; I_OUT]).unwrap(),
        &mut dev.upload(&[0u64; U_OUT]).unwrap(),
        &mut dev.upload(&[0u32; 2]).unwrap(),
        &mut dev.upload(&[0f32; F_OUT]).unwrap(),
    );
    match launched {
        Err(sarek::Error::KernelFault { message, .. }) => {
            assert!(message.contains("divide by zero"), "{message}")
        }
        other => panic!("expected a KernelFault, got {other:?}"),
    }
}

#[sarek::module]
mod wide_structs {
    use sarek::prelude::*;

    /// A `u64` between two `u32`s: WGSL aligns it to 8, so the struct is 24 bytes.
    pub struct Tally {
        pub id: u32,
        pub total: u64,
        pub delta: i64,
        pub flag: u32,
    }

    #[sarek::kernel]
    pub fn advance(step: Tally, items: &[Tally], out: &mut [Tally]) {
        let i = global_thread_id();
        if i < items.len() {
            let t = items[i];
            let mut local = [t; 2];
            local[1].total = t.total * 2 + step.total;
            out[i] = Tally {
                id: t.id + step.id,
                total: local[i % 2].total + (1u64 << 40),
                delta: t.delta - step.delta,
                flag: (t.total > 1u64 << 32) as u32,
            };
        }
    }
}

#[backends]
fn a_struct_with_64_bit_fields_round_trips_in_buffers_the_uniform_block_and_locals(dev: Device) {
    use wide_structs::{advance, Tally};
    assert_eq!(advance::ABI.buffers[0].stride, 32);
    let items: Vec<Tally> = (0..37u32)
        .map(|i| Tally {
            id: i,
            total: u64::from(i) << 31 | 0xdead_beef,
            delta: -(i64::from(i) << 35),
            flag: 9,
        })
        .collect();
    let step = Tally {
        id: 100,
        total: u64::MAX - 2,
        delta: i64::MIN,
        flag: 0,
    };
    let buf = dev.upload(&items).unwrap();
    let mut out = dev
        .upload(
            &(0..37)
                .map(|_| Tally {
                    id: 0,
                    total: 0,
                    delta: 0,
                    flag: 0,
                })
                .collect::<Vec<_>>(),
        )
        .unwrap();
    let Some(_) = unless_no_int64(
        &dev,
        advance.launch(&dev, Grid::cover(37), step, &buf, &mut out),
    ) else {
        return;
    };
    let got = out.read().unwrap();
    for (i, (t, g)) in items.iter().zip(&got).enumerate() {
        let total = if i % 2 == 0 {
            t.total
        } else {
            t.total.wrapping_mul(2).wrapping_add(step.total)
        };
        let want = (
            t.id + 100,
            total.wrapping_add(1 << 40),
            t.delta.wrapping_sub(i64::MIN),
            u32::from(t.total > 1 << 32),
        );
        assert_eq!((g.id, g.total, g.delta, g.flag), want, "element {i}");
    }
}

// 64-bit atomics from many invocations: sums past 2^32, and signed and unsigned extremes.
#[sarek::kernel]
fn wide_atomics(
    xs: &[i64],
    sum: &[AtomicU64],
    lo: &[AtomicI64],
    hi: &[AtomicI64],
    umax: &[AtomicU64],
) {
    let i = global_thread_id();
    if i < xs.len() {
        let x = xs[i];
        sum[i % 4].fetch_add(x as u64, Ordering::Relaxed);
        lo[0].fetch_min(x, Ordering::Relaxed);
        hi[0].fetch_max(x, Ordering::Relaxed);
        umax[0].fetch_max(x as u64, Ordering::Relaxed);
    }
}

// Only `fetch_min`/`fetch_max` whose previous value is unused: `SHADER_INT64_ATOMIC_MIN_MAX`.
#[sarek::kernel]
fn wide_extremes(xs: &[u64], lo: &[AtomicU64], hi: &[AtomicU64]) {
    let i = global_thread_id();
    if i < xs.len() {
        lo[0].fetch_min(xs[i], Ordering::Relaxed);
        hi[0].fetch_max(xs[i], Ordering::Relaxed);
    }
}

fn atomic_inputs(n: usize) -> Vec<i64> {
    (0..n as i64)
        .map(|i| {
            i.wrapping_mul(0x9e37_79b9_7f4a_7c15u64 as i64)
                .rotate_left(17)
                ^ (i << 40)
        })
        .collect()
}

#[backends]
fn sixty_four_bit_atomic_add_min_and_max_from_many_invocations_match_the_host(dev: Device) {
    let n = 5000;
    let xs = atomic_inputs(n);
    let x = dev.upload(&xs).unwrap();
    let sum = dev.upload(&[0u64; 4]).unwrap();
    let lo = dev.upload(&[i64::MAX]).unwrap();
    let hi = dev.upload(&[i64::MIN]).unwrap();
    let umax = dev.upload(&[0u64]).unwrap();
    let launched = wide_atomics.launch(&dev, Grid::cover(n), &x, &sum, &lo, &hi, &umax);
    if !dev.is_cpu()
        && !dev
            .features()
            .contains(sarek::wgpu::Features::SHADER_INT64_ATOMIC_ALL_OPS)
    {
        assert!(
            matches!(launched, Err(sarek::Error::MissingFeature { .. })),
            "{launched:?}"
        );
        return;
    }
    launched.unwrap();
    let mut sums = [0u64; 4];
    for (i, x) in xs.iter().enumerate() {
        sums[i % 4] = sums[i % 4].wrapping_add(*x as u64);
    }
    assert_eq!(sum.read().unwrap(), sums);
    assert_eq!(lo.read().unwrap(), [*xs.iter().min().unwrap()]);
    assert_eq!(hi.read().unwrap(), [*xs.iter().max().unwrap()]);
    assert_eq!(
        umax.read().unwrap(),
        [xs.iter().map(|x| *x as u64).max().unwrap()]
    );
}

#[backends]
fn sixty_four_bit_atomic_min_max_need_only_the_min_max_feature(dev: Device) {
    use sarek::abi::Feature;
    assert_eq!(
        &*wide_extremes::ABI.features,
        [Feature::ShaderInt64, Feature::ShaderInt64AtomicMinMax]
    );
    assert_eq!(
        &*wide_atomics::ABI.features,
        [Feature::ShaderInt64, Feature::ShaderInt64AtomicAllOps]
    );
    let xs: Vec<u64> = atomic_inputs(3000).iter().map(|x| *x as u64).collect();
    let x = dev.upload(&xs).unwrap();
    let lo = dev.upload(&[u64::MAX]).unwrap();
    let hi = dev.upload(&[0u64]).unwrap();
    let launched = wide_extremes.launch(&dev, Grid::cover(xs.len()), &x, &lo, &hi);
    if !dev.is_cpu()
        && !dev
            .features()
            .contains(sarek::wgpu::Features::SHADER_INT64_ATOMIC_MIN_MAX)
    {
        assert!(
            matches!(launched, Err(sarek::Error::MissingFeature { .. })),
            "{launched:?}"
        );
        return;
    }
    launched.unwrap();
    assert_eq!(lo.read().unwrap(), [*xs.iter().min().unwrap()]);
    assert_eq!(hi.read().unwrap(), [*xs.iter().max().unwrap()]);
}

// A device without `SHADER_INT64` (wgpu's GL backend has none) refuses before a pipeline
// exists, naming the kernel, the feature and what needs it.
#[gpu_only]
fn a_device_without_shader_int64_refuses_with_missing_feature() {
    let Some(dev) = crate::extensions::subgroups::bare_device() else {
        return;
    };
    assert!(!dev.features().contains(sarek::wgpu::Features::SHADER_INT64));
    let a = dev.upload(&[1i64]).unwrap();
    let mut out = dev.upload(&[0i64; I_OUT]).unwrap();
    let mut out_u = dev.upload(&[0u64; U_OUT]).unwrap();
    let mut out_32 = dev.upload(&[0u32; 2]).unwrap();
    let mut out_f = dev.upload(&[0f32; F_OUT]).unwrap();
    let c = dev.upload(&[0f32]).unwrap();
    match wide_ops.launch(
        &dev,
        Grid::cover(1),
        1,
        2,
        &a,
        &a,
        &c,
        &mut out,
        &mut out_u,
        &mut out_32,
        &mut out_f,
    ) {
        Err(
            e @ sarek::Error::MissingFeature {
                feature: sarek::abi::Feature::ShaderInt64,
                ..
            },
        ) => {
            let text = e.to_string();
            assert!(
                text.contains("`wide_ops`")
                    && text.contains("SHADER_INT64")
                    && text.contains("`i64`"),
                "{text}"
            );
        }
        other => panic!("expected MissingFeature, got {other:?}"),
    }
}

// 64-bit values beside 32-bit indices keep the in-bounds proof: `63 - t` is within `0..64`.
#[sarek::kernel(workgroup_size = [64])]
fn wide_reverse(x: &[u64], out: &mut [u64]) {
    let t = thread_idx_x();
    let i = global_idx_x();
    let s = shared::<[u64; 64]>();
    s[t] = if i < x.len() { x[i] * 3 } else { 0 };
    block_barrier();
    if i < out.len() {
        out[i] = s[63 - t] + (1u64 << 40);
    }
}

#[backends]
fn a_64_bit_kernel_is_proven_in_bounds_and_runs(dev: Device) {
    assert!(
        wide_reverse::SOURCE.in_bounds().contains(&"sarek_main"),
        "{:?}",
        wide_reverse::SOURCE.in_bounds()
    );
    let n = 200;
    let xs: Vec<u64> = (0..n as u64).map(|i| (i << 33) + i).collect();
    let x = dev.upload(&xs).unwrap();
    let mut out = dev.upload(&vec![0u64; n]).unwrap();
    let Some(_) = unless_no_int64(
        &dev,
        wide_reverse.launch(&dev, Grid::cover(n), &x, &mut out),
    ) else {
        return;
    };
    let got = out.read().unwrap();
    for (i, g) in got.iter().enumerate() {
        let j = (i / 64) * 64 + 63 - i % 64;
        let v = xs.get(j).map_or(0, |v| v.wrapping_mul(3));
        assert_eq!(*g, v + (1 << 40), "element {i}");
    }
}

// The JIT leaves kernels with 64-bit integers to the interpreter, which defines their bits.
#[cpu_only]
fn the_cpu_backend_runs_64_bit_kernels_on_its_interpreter() {
    use sarek::CpuEngine;
    let dev = crate::common::cpu_device();
    assert_eq!(
        dev.cpu_engine(wide_ops::SOURCE).unwrap(),
        Some(CpuEngine::Interpreter)
    );
    assert_eq!(
        dev.cpu_engine(wide_atomics::SOURCE).unwrap(),
        Some(CpuEngine::Interpreter)
    );
}
