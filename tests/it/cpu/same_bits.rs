//! The same bits everywhere: the CPU backend's JIT gives the interpreter's and Rust's
//! `to_bits()` for negations next to `mul_add` and products (NaN signs included).

use crate::common::{backends, cpu_only, gpu_only};
use std::hint::black_box;

use sarek::prelude::*;
use sarek::{Buffer, CpuEngine, Error};

/// Negations around `mul_add`: every shape a compiler could fold into `fnmadd`/`fmsub`.
#[sarek::kernel]
fn negated_mul_adds(x: &[f32], y: &[f32], z: &[f32], out: &mut [f32]) {
    let i = global_thread_id();
    if i < x.len() {
        let (a, b, c) = (x[i], y[i], z[i]);
        let k = i * 7;
        out[k] = a.mul_add(-b, -c);
        out[k + 1] = (-a).mul_add(b, c);
        out[k + 2] = a.mul_add(b, -c);
        out[k + 3] = (-a).mul_add(-b, c);
        out[k + 4] = (-a).mul_add(-b, -c);
        out[k + 5] = -a.mul_add(b, c);
        out[k + 6] = a.mul_add(b, c);
    }
}

/// Negations around products, sums and differences (element-wise, each output at the
/// invocation's index: the JIT's lanes loop runs it four invocations at a time).
#[sarek::kernel]
fn negated_products(x: &[f32], y: &[f32], p: &mut [f32], q: &mut [f32], r: &mut [f32]) {
    let i = global_thread_id();
    if i < x.len() {
        let (a, b) = (x[i], y[i]);
        p[i] = (-a) * (-b);
        q[i] = (-a) * b;
        r[i] = a - (-b);
    }
}

/// Rust's results of `negated_mul_adds` for one element; `black_box` keeps rustc from
/// folding the negations itself (LLVM may drop a NaN's sign when it folds).
fn mul_adds_in_rust(a: f32, b: f32, c: f32) -> [f32; 7] {
    let n = |v: f32| black_box(-black_box(v));
    [
        a.mul_add(n(b), n(c)),
        n(a).mul_add(b, c),
        a.mul_add(b, n(c)),
        n(a).mul_add(n(b), c),
        n(a).mul_add(n(b), n(c)),
        n(a.mul_add(b, c)),
        a.mul_add(b, c),
    ]
}

/// Rust's results of `negated_products` for one element.
fn products_in_rust(a: f32, b: f32) -> [f32; 3] {
    let n = |v: f32| black_box(-black_box(v));
    [n(a) * n(b), n(a) * b, a - n(b)]
}

/// NaNs of both signs (quiet, with payloads, signalling), infinities, signed zeros, a
/// subnormal, huge and ordinary values.
const SPECIAL: [u32; 13] = [
    0x0000_0000, // 0.0
    0x8000_0000, // -0.0
    0x3f80_0000, // 1.0
    0xbfc0_0000, // -1.5
    0x7f80_0000, // inf
    0xff80_0000, // -inf
    0x7fc0_0000, // NaN
    0xffc0_0000, // -NaN
    0x7fc0_1234, // NaN with a payload
    0xff80_0001, // a negative signalling NaN
    0x7f7f_ffff, // f32::MAX
    0x0000_0001, // the smallest subnormal
    0xc2f6_e979, // -123.456
];

/// Every triple of [`SPECIAL`] values, as three columns.
fn triples() -> (Vec<f32>, Vec<f32>, Vec<f32>) {
    let mut cols = (Vec::new(), Vec::new(), Vec::new());
    for &a in &SPECIAL {
        for &b in &SPECIAL {
            for &c in &SPECIAL {
                cols.0.push(f32::from_bits(a));
                cols.1.push(f32::from_bits(b));
                cols.2.push(f32::from_bits(c));
            }
        }
    }
    cols
}

/// The engine `Device::cpu()` compiles these kernels for (the interpreter under
/// `SAREK_CPU_ENGINE=interp`; `SAREK_CHECKS=1` runs each launch on the interpreter anyway).
fn expected_engine() -> CpuEngine {
    match std::env::var("SAREK_CPU_ENGINE").as_deref() {
        Ok("interp") => CpuEngine::Interpreter,
        _ => CpuEngine::Jit,
    }
}

/// Bits of the first mismatch between `got` and `want`, with the inputs that gave it.
fn first_mismatch(got: &[f32], want: &[f32], inputs: impl Fn(usize) -> String) -> Option<String> {
    got.iter()
        .zip(want)
        .position(|(g, w)| g.to_bits() != w.to_bits())
        .map(|i| {
            format!(
                "output {i} ({}): {:#010x}, expected {:#010x}",
                inputs(i),
                got[i].to_bits(),
                want[i].to_bits()
            )
        })
}

#[cpu_only]
fn jit_negated_mul_adds_keep_the_interpreters_and_rusts_nan_signs() {
    let (x, y, z) = triples();
    let n = x.len();
    let want: Vec<f32> = (0..n)
        .flat_map(|i| mul_adds_in_rust(x[i], y[i], z[i]))
        .collect();
    let run = |checks: bool| {
        let dev = Device::cpu();
        dev.set_checks(checks);
        if !checks {
            assert_eq!(
                dev.cpu_engine(negated_mul_adds::SOURCE).unwrap(),
                Some(expected_engine())
            );
        }
        let (xb, yb, zb) = (
            dev.upload(&x).unwrap(),
            dev.upload(&y).unwrap(),
            dev.upload(&z).unwrap(),
        );
        let mut out = dev.zeros::<f32>(n * 7).unwrap();
        negated_mul_adds
            .launch(&dev, Grid::cover(n), &xb, &yb, &zb, &mut out)
            .unwrap();
        out.read().unwrap()
    };
    let inputs = |k: usize| {
        let i = k / 7;
        format!(
            "shape {}, x {:#010x}, y {:#010x}, z {:#010x}",
            k % 7,
            x[i].to_bits(),
            y[i].to_bits(),
            z[i].to_bits()
        )
    };
    for (engine, checks) in [("the JIT", false), ("the interpreter", true)] {
        if let Some(m) = first_mismatch(&run(checks), &want, inputs) {
            panic!("{engine} differs from Rust: {m}");
        }
    }
}

#[cpu_only]
fn jit_negated_products_keep_the_interpreters_and_rusts_nan_signs() {
    let (x, y, _) = triples();
    let n = x.len();
    let want: Vec<f32> = (0..n).flat_map(|i| products_in_rust(x[i], y[i])).collect();
    let run = |checks: bool| {
        let dev = Device::cpu();
        dev.set_checks(checks);
        // Element-wise: the JIT runs it four invocations at a time, in SIMD registers.
        let lanes = sarek_codegen::toggle::enabled("SAREK_JIT_LANES", true)
            && !sarek_codegen::toggle::enabled("SAREK_CHECKS", false);
        if !checks && expected_engine() == CpuEngine::Jit && lanes {
            assert!(dev.cpu_lanes(negated_products::SOURCE).unwrap());
        }
        let (xb, yb) = (dev.upload(&x).unwrap(), dev.upload(&y).unwrap());
        let mut outs = [(); 3].map(|_| dev.zeros::<f32>(n).unwrap());
        let [p, q, r] = &mut outs;
        negated_products
            .launch(&dev, Grid::cover(n), &xb, &yb, p, q, r)
            .unwrap();
        // Interleaved as `products_in_rust` gives them.
        let outs = outs.map(|o| o.read().unwrap());
        (0..n)
            .flat_map(|i| outs.iter().map(move |o| o[i]).collect::<Vec<_>>())
            .collect::<Vec<f32>>()
    };
    let inputs = |k: usize| {
        let i = k / 3;
        format!(
            "shape {}, x {:#010x}, y {:#010x}",
            k % 3,
            x[i].to_bits(),
            y[i].to_bits()
        )
    };
    for (engine, checks) in [("the JIT", false), ("the interpreter", true)] {
        if let Some(m) = first_mismatch(&run(checks), &want, inputs) {
            panic!("{engine} differs from Rust: {m}");
        }
    }
}

#[sarek::kernel]
fn mul_adds(x: &[f32], y: &[f32], z: &[f32], out: &mut [f32]) {
    let i = global_thread_id();
    if i < x.len() {
        out[i] = x[i].mul_add(y[i], z[i]);
    }
}

/// Inputs where one rounding and two differ: random triples, and triples whose product
/// cancels the addend (`x·y ≈ -z`, where rounding the product first loses every bit left).
fn fma_inputs() -> (Vec<f32>, Vec<f32>, Vec<f32>) {
    let r = crate::common::random_u32(7, 3 * 200_000);
    let (mut x, mut y, mut z) = (Vec::new(), Vec::new(), Vec::new());
    for t in r.chunks(3) {
        // Random signs and mantissas, exponents within ±32 so the products stay finite.
        let f = |w: u32| f32::from_bits((w & 0x807f_ffff) | ((127 - 32 + (w >> 23) % 64) << 23));
        let (a, b) = (f(t[0]), f(t[1]));
        x.push(a);
        y.push(b);
        // Half the addends cancel the rounded product (plus a few ulps), half are random.
        z.push(if t[2] & 1 == 0 {
            f32::from_bits((-(a * b)).to_bits().wrapping_add(t[2] >> 29))
        } else {
            f(t[2])
        });
    }
    (x, y, z)
}

/// `mul_add` of each triple on `dev`.
fn gpu_mul_adds(dev: &Device, (x, y, z): &(Vec<f32>, Vec<f32>, Vec<f32>)) -> Vec<f32> {
    let n = x.len();
    let (xb, yb, zb) = (
        dev.upload(x).unwrap(),
        dev.upload(y).unwrap(),
        dev.upload(z).unwrap(),
    );
    let mut out = dev.zeros::<f32>(n).unwrap();
    mul_adds
        .launch(dev, Grid::cover(n), &xb, &yb, &zb, &mut out)
        .unwrap();
    out.read().unwrap()
}

/// `mul_add` on a GPU: WGSL lets `fma` round twice, and a device gives either the fused
/// result or the product rounded, then the sum rounded (the guide's accuracy table). A
/// software adapter (Mesa's lavapipe) always rounds twice: every result is the two-rounding
/// one, bit for bit, and many differ from Rust's fused `mul_add`.
#[gpu_only]
fn gpu_mul_add_is_fused_or_rounds_the_product_first(dev: Device) {
    let inputs = fma_inputs();
    let (x, y, z) = &inputs;
    let out = gpu_mul_adds(&dev, &inputs);
    let (mut fused, mut twice) = (0usize, 0usize);
    for i in 0..x.len() {
        let (a, b, c) = (x[i], y[i], z[i]);
        let once = a.mul_add(b, c);
        let two = black_box(a * b) + c;
        let g = out[i];
        let software_rounds_twice = !dev.is_software() || g.to_bits() == two.to_bits();
        assert!(
            software_rounds_twice,
            "mul_add({a:e}, {b:e}, {c:e}) = {g:e} on {}: not {two:e} (rounded twice)",
            dev.name()
        );
        if g.to_bits() == once.to_bits() {
            fused += 1;
        } else if g.to_bits() == two.to_bits() {
            twice += 1;
        } else {
            panic!(
                "mul_add({a:e}, {b:e}, {c:e}) = {g:e} on {}: not {once:e} (fused) nor {two:e} (rounded twice)",
                dev.name()
            );
        }
    }
    eprintln!(
        "mul_add on {}: {fused} as fused, {twice} only as rounded twice, of {}",
        dev.name(),
        x.len()
    );
    if dev.is_software() {
        assert!(twice > 0, "the inputs never tell the two roundings apart");
    }
}

/// Counts to `n` in a `for` loop.
#[sarek::kernel]
fn count_to(n: u32, out: &mut [u32]) {
    let mut c = 0u32;
    for _ in 0..n {
        c += 1;
    }
    let i = global_thread_id();
    if i < out.len() {
        out[i] = c;
    }
}

/// Counts to `n * m` in two nested loops.
#[sarek::kernel]
fn count_nested(n: u32, m: u32, out: &mut [u32]) {
    let mut c = 0u32;
    for _ in 0..n {
        for _ in 0..m {
            c += 1;
        }
    }
    let i = global_thread_id();
    if i < out.len() {
        out[i] = c;
    }
}

/// Counts to `n` in a `loop` left by `break`, after a `while` that stops at once.
#[sarek::kernel]
fn count_breaking(n: u32, out: &mut [u32]) {
    let mut c = 0u32;
    while c > n {
        c += 1;
    }
    loop {
        if c >= n {
            break;
        }
        c += 1;
    }
    let i = global_thread_id();
    if i < out.len() {
        out[i] = c;
    }
}

/// A loop of 70,000 iterations gives 70,000 or an error, never a wrong count: Mesa's
/// lavapipe stops an invocation's loops after 65,535 iterations in all (nested loops share
/// the count), and the read after such a launch fails naming the kernel.
#[backends]
fn long_loops_count_right_or_fail_the_read(dev: Device) {
    let cut = dev.name().contains("llvmpipe");
    let mut out = dev.zeros::<u32>(64).unwrap();
    let mut count = |launch: &dyn Fn(&mut Buffer<u32>), want: u32, over: bool| {
        launch(&mut out);
        match out.read() {
            Ok(v) => {
                assert!(
                    !(cut && over),
                    "{}: no error for {want} iterations",
                    dev.name()
                );
                assert!(
                    v.iter().all(|&c| c == want),
                    "{}: {v:?}, not {want}",
                    dev.name()
                );
            }
            Err(Error::LoopCut { kernel }) if cut && over => {
                assert!(kernel.ends_with("count_to") || kernel.ends_with("count_nested"));
            }
            Err(e) => panic!("{}: {e} for {want} iterations", dev.name()),
        }
    };
    let d = &dev;
    let grid = Grid::cover(64);
    count(
        &|o| drop(count_to.launch(d, grid, 70_000, o).unwrap()),
        70_000,
        true,
    );
    // The error is cleared by the read that reports it.
    count(
        &|o| drop(count_to.launch(d, grid, 1_000, o).unwrap()),
        1_000,
        false,
    );
    count(
        &|o| drop(count_to.launch(d, grid, 65_000, o).unwrap()),
        65_000,
        false,
    );
    count(
        &|o| drop(count_nested.launch(d, grid, 300, 300, o).unwrap()),
        90_000,
        true,
    );
    count(
        &|o| drop(count_nested.launch(d, grid, 200, 300, o).unwrap()),
        60_000,
        false,
    );
    count(
        &|o| drop(count_breaking.launch(d, grid, 60_000, o).unwrap()),
        60_000,
        false,
    );
    if cut {
        let err = Error::LoopCut {
            kernel: "count_to".into(),
        };
        assert!(err.to_string().contains("65,535"), "{err}");
    }
}
