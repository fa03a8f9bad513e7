//! `f16` in the JIT (`half.rs`): the inline conversions against `half::f16` (every half,
//! and `f32`s spread over every exponent with the edges: ties, overflow, subnormals, NaNs),
//! and kernels on halves run by the JIT and by the interpreter, compared bit for bit.

use std::sync::atomic::{AtomicU32, Ordering};

use cranelift_codegen::ir::{types, AbiParam, InstBuilder, UserFuncName, Value};
use cranelift_codegen::Context;
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{default_libcall_names, Linkage, Module};

use super::Compiled;
use crate::interp::{Launch, Program, DEFAULT_SUBGROUP_SIZE};

/// A native `fn(param) -> result` whose body is `body` applied to the parameter.
fn compile(
    param: types::Type,
    result: types::Type,
    body: fn(&mut FunctionBuilder, Value) -> Value,
) -> (JITModule, *const u8) {
    let jit = JITBuilder::with_flags(&[("opt_level", "speed")], default_libcall_names())
        .expect("a JIT builder");
    let mut module = JITModule::new(jit);
    let mut sig = module.make_signature();
    sig.params.push(AbiParam::new(param));
    sig.returns.push(AbiParam::new(result));
    let id = module
        .declare_function("f", Linkage::Local, &sig)
        .expect("declares");
    let mut ctx: Context = module.make_context();
    ctx.func.signature = sig;
    ctx.func.name = UserFuncName::user(0, id.as_u32());
    let mut fctx = FunctionBuilderContext::new();
    let tcfg = module.target_config();
    {
        let mut b = FunctionBuilder::new(&mut ctx.func, &mut fctx);
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        b.seal_block(entry);
        let x = b.block_params(entry)[0];
        let r = body(&mut b, x);
        b.ins().return_(&[r]);
        b.finalize(tcfg);
    }
    module.define_function(id, &mut ctx).expect("compiles");
    module.finalize_definitions().expect("finalises");
    let code = module.get_finalized_function(id);
    (module, code)
}

/// The `f32` a half lives as in the JIT: `to_f32`, but a NaN's bits kept (not quieted).
fn held(h: u16) -> u32 {
    let f = half::f16::from_bits(h);
    if f.is_nan() {
        (u32::from(h & 0x8000) << 16) | 0x7f80_0000 | (u32::from(h & 0x3ff) << 13)
    } else {
        f.to_f32().to_bits()
    }
}

#[test]
fn widen_and_narrow_are_exact_on_every_half() {
    let (_m, w) = compile(types::I32, types::F32, super::half::widen);
    let (_n, n) = compile(types::F32, types::I32, super::half::narrow);
    #[allow(unsafe_code)]
    // SAFETY: both were compiled above with these signatures and their modules are alive.
    let (widen, narrow) = unsafe {
        (
            std::mem::transmute::<*const u8, extern "C" fn(u32) -> f32>(w),
            std::mem::transmute::<*const u8, extern "C" fn(f32) -> u32>(n),
        )
    };
    for h in 0..=u16::MAX {
        let x = widen(u32::from(h));
        assert_eq!(x.to_bits(), held(h), "widen {h:#06x}");
        assert_eq!(
            super::half::literal(h).to_bits(),
            held(h),
            "literal {h:#06x}"
        );
        assert_eq!(narrow(x), u32::from(h), "narrow {h:#06x}");
    }
}

/// [`super::half::round`] against `half::f16::from_f32` on `bits`.
fn check_round(round: extern "C" fn(f32) -> f32, bits: impl Iterator<Item = u32>) {
    for u in bits {
        let x = f32::from_bits(u);
        let want = held(half::f16::from_f32(x).to_bits());
        assert_eq!(round(x).to_bits(), want, "round {u:#010x} ({x:e})");
    }
}

fn round_fn() -> (JITModule, extern "C" fn(f32) -> f32) {
    let (m, r) = compile(types::F32, types::F32, super::half::round);
    #[allow(unsafe_code)]
    // SAFETY: compiled above with this signature; the module is returned with it.
    let f = unsafe { std::mem::transmute::<*const u8, extern "C" fn(f32) -> f32>(r) };
    (m, f)
}

#[test]
fn round_is_half_from_f32() {
    let (_m, round) = round_fn();
    // Every exponent and sign, with the mantissa's low bits around the rounding point
    // (ties, one above and below) and spread over the rest.
    let mut bits = Vec::new();
    for sign in [0u32, 0x8000_0000] {
        for exp in 0..=255u32 {
            for top in (0..1024u32).step_by(7).chain([0, 1, 2, 1022, 1023]) {
                for low in [0, 1, 0xfff, 0x1000, 0x1001, 0x1fff, 0x0800, 0x17ff] {
                    bits.push(sign | (exp << 23) | (top << 13) | low);
                }
            }
        }
    }
    // A deterministic spread over every pattern.
    let mut s = 0x9e37_79b9u32;
    for _ in 0..1 << 20 {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        bits.push(s);
    }
    check_round(round, bits.into_iter());
    // Named edges: the largest half, the tie above it, the overflow, the subnormal ties.
    let edges = [
        65504.0f32,
        65519.99,
        65520.0,
        65536.0,
        f32::MAX,
        f32::INFINITY,
        f32::NAN,
        2f32.powi(-24),
        2f32.powi(-25),
        2f32.powi(-25) * 1.000_001,
        2f32.powi(-24) * 1.5,
        2f32.powi(-24) * 2.5,
        2f32.powi(-14) * (1.0 - 2f32.powi(-12)),
        f32::MIN_POSITIVE,
        1e-45,
        1.0 + 1.0 / 2048.0,
        1.0 + 3.0 / 2048.0,
    ];
    check_round(
        round,
        edges.iter().flat_map(|x| [x.to_bits(), (-x).to_bits()]),
    );
}

/// Every `f32` (47 s on one core of the 2-core machine): `cargo test ... -- --ignored`.
#[test]
#[ignore]
fn round_is_half_from_f32_on_every_f32() {
    let (_m, round) = round_fn();
    check_round(round, 0..=u32::MAX);
}

/// `item` lowered with workgroups of `size`.
fn program(size: u32, item: syn::ItemFn) -> Program {
    super::tests::program_of(size, item)
}

/// Halves packed two to a word (little-endian), as a buffer holds them.
fn pack(h: &[u16]) -> Vec<u32> {
    h.chunks(2)
        .map(|c| u32::from(c[0]) | (u32::from(*c.get(1).unwrap_or(&0)) << 16))
        .collect()
}

/// Runs `p` on the JIT and on the interpreter over `groups` workgroups with `f16` value
/// parameters `values` (param, bits, put in their own half of a word) and buffers
/// `bufs` (param, words, len()); asserts that every buffer ends bit for bit the same, and
/// that the JIT compiled the kernel.
fn same(p: &Program, groups: u32, values: &[(u32, u16)], bufs: &[(u32, Vec<u32>, u32)]) {
    let jit = Compiled::new(p).expect("the JIT compiles the kernel");
    let run = |jit: Option<&Compiled>| -> Vec<Vec<u32>> {
        let lens: Vec<(u32, u32)> = bufs.iter().map(|(p, _, n)| (*p, *n)).collect();
        let uniform = p.uniform(&[], [groups, 1, 1], &lens);
        put_halves(p, &uniform, values);
        let words: Vec<(u32, &[u32])> = bufs.iter().map(|(p, w, _)| (*p, &w[..])).collect();
        super::tests::run_words(p, jit, &uniform, groups, &words, 1, DEFAULT_SUBGROUP_SIZE)
    };
    let (got, want) = (run(Some(&jit)), run(None));
    for (b, (g, w)) in got.iter().zip(&want).enumerate() {
        for (i, (g, w)) in g.iter().zip(w).enumerate() {
            assert_eq!(
                g, w,
                "buffer {b}, word {i}: JIT {g:#010x}, interpreter {w:#010x}"
            );
        }
    }
}

/// Puts `f16` value parameters (param, bits) in their own halves of the uniform block.
fn put_halves(p: &Program, uniform: &[AtomicU32], values: &[(u32, u16)]) {
    for (param, bits) in values {
        let f = p
            .abi()
            .uniform
            .fields
            .iter()
            .find(|f| f.source.value_param() == Some(*param))
            .expect("a value parameter");
        let (word, shift) = ((f.offset / 4) as usize, 8 * (f.offset % 4));
        let old = uniform[word].load(Ordering::Relaxed);
        let new = (old & !(0xffff << shift)) | (u32::from(*bits) << shift);
        uniform[word].store(new, Ordering::Relaxed);
    }
}

/// Halves for operands: every kind (zeros, subnormals, normals, the largest, infinities,
/// quiet and signalling NaNs of both signs) and a deterministic spread over all patterns.
fn halves(n: usize, seed: u32) -> Vec<u16> {
    let mut v: Vec<u16> = vec![
        0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x3c00, 0xbc00, 0x3c01, 0x7bff, 0xfbff,
        0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7c01, 0xfd55, 0x7bfe, 0x0200, 0x4000, 0x3555,
    ];
    let mut s = seed | 1;
    while v.len() < n {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        v.push((s >> 7) as u16);
    }
    v.truncate(n);
    v
}

#[test]
fn arithmetic_comparisons_and_negation_round_as_the_interpreter() {
    let p = program(
        64,
        syn::parse_quote! {
            fn ops(x: &[f16], y: &[f16], out: &mut [f16], flags: &mut [u32]) {
                let i = global_thread_id();
                if i < x.len() {
                    let (a, b) = (x[i], y[i]);
                    let base = i * 7;
                    out[base] = a + b;
                    out[base + 1] = a - b;
                    out[base + 2] = a * b;
                    out[base + 3] = a / b;
                    out[base + 4] = a % b;
                    out[base + 5] = -a;
                    // A copy: a signalling NaN stays as it is.
                    out[base + 6] = a;
                    let mut f = 0u32;
                    if a < b { f |= 1; }
                    if a <= b { f |= 2; }
                    if a > b { f |= 4; }
                    if a >= b { f |= 8; }
                    if a == b { f |= 16; }
                    if a != b { f |= 32; }
                    flags[i] = f;
                }
            }
        },
    );
    // Odd: the last element is half a word; `out` is one short, so the last write is
    // dropped (robust access), and its neighbour half must survive every write.
    let n = 2049;
    let (mut xs, mut ys) = (halves(n, 7), halves(n, 99));
    // Sums and products that are exact ties between two halves, and ones that overflow.
    let tie_pairs = [
        (0x3c00, 0x1000),
        (0x3c01, 0x1000),
        (0x7bff, 0x5000),
        (0x7bff, 0x4c00),
        (0x0001, 0x3800),
        (0x0003, 0x3800),
    ];
    for (k, (a, b)) in tie_pairs.into_iter().enumerate() {
        xs[100 + k] = a;
        ys[100 + k] = b;
    }
    let out_len = n * 7 - 1;
    let out = vec![0xdead_beef; out_len.div_ceil(2)];
    same(
        &p,
        (n as u32).div_ceil(64),
        &[],
        &[
            (0, pack(&xs), n as u32),
            (1, pack(&ys), n as u32),
            (2, out, out_len as u32),
            (3, vec![0; n], n as u32),
        ],
    );
}

#[test]
fn casts_and_math_are_the_interpreters() {
    let p = program(
        64,
        syn::parse_quote! {
            fn casts(x: &[f16], y: &[f16], f: &[f32], k: &[i32], out: &mut [f16],
                     wide: &mut [f32], ints: &mut [i32], uints: &mut [u32]) {
                let i = global_thread_id();
                if i < x.len() {
                    let (a, b) = (x[i], y[i]);
                    let base = i * 24;
                    out[base] = f16::from_f32(f[i]);
                    out[base + 1] = f16::from_f32(k[i] as f32);
                    out[base + 2] = a.sqrt();
                    out[base + 3] = a.abs();
                    out[base + 4] = a.floor();
                    out[base + 5] = a.ceil();
                    out[base + 6] = a.trunc();
                    out[base + 7] = a.mul_add(b, f16::from_f32(0.3));
                    out[base + 8] = a.max(b);
                    out[base + 9] = a.min(b);
                    out[base + 10] = a.clamp(f16::from_f32(-2.0), f16::from_f32(3.5));
                    out[base + 11] = a.sin();
                    out[base + 12] = a.exp();
                    out[base + 13] = a.powf(b);
                    out[base + 14] = a.round();
                    out[base + 15] = if a > b { a } else { b };
                    out[base + 16] = f16::from_f32(a.to_f32() * 3.0 + 1.0);
                    out[base + 17] = a.signum();
                    out[base + 18] = a.atan2(b);
                    out[base + 19] = a.sqrt() * b.ln();
                    out[base + 20] = f16::from_f32(i as f32);
                    out[base + 21] = f16::from_f32(f[i] * 1e5);
                    out[base + 22] = a.fract();
                    out[base + 23] = a.recip();
                    let w = base / 8;
                    wide[w] = a.to_f32();
                    wide[w + 1] = b.to_f32() * 0.5;
                    wide[w + 2] = a.to_f32() + b.to_f32();
                    ints[i * 2] = a.to_f32() as i32;
                    ints[i * 2 + 1] = (b.to_f32() * 1000.0) as i32;
                    uints[i * 2] = a.to_f32() as u32;
                    let mut bits = 0u32;
                    if a.is_nan() { bits |= 1u32; }
                    if b.is_infinite() { bits |= 2u32; }
                    if a.is_finite() { bits |= 4u32; }
                    if a.is_sign_negative() { bits |= 8u32; }
                    uints[i * 2 + 1] = bits;
                }
            }
        },
    );
    let n = 1023;
    let (xs, ys) = (halves(n, 3), halves(n, 11));
    let fs: Vec<u32> = (0..n)
        .map(|i| match i % 5 {
            0 => (i as f32 * 17.3 - 7000.0).to_bits(),
            1 => 65520.0f32.to_bits() + i as u32 % 3,
            2 => (2f32.powi(-24) * (i as f32 * 0.5)).to_bits(),
            3 => (i as u32).wrapping_mul(0x9e37_79b9),
            _ => (1.0f32 + i as f32 / 4096.0).to_bits(),
        })
        .collect();
    let ks: Vec<u32> = (0..n)
        .map(|i| (i as u32).wrapping_mul(0x2f1d_4a37) >> (i % 31))
        .collect();
    same(
        &p,
        (n as u32).div_ceil(64),
        &[],
        &[
            (0, pack(&xs), n as u32),
            (1, pack(&ys), n as u32),
            (2, fs, n as u32),
            (3, ks, n as u32),
            (4, vec![0; n * 12], (n * 24) as u32),
            (5, vec![0; n * 3], (n * 3) as u32),
            (6, vec![0; n * 2], (n * 2) as u32),
            (7, vec![0; n * 2], (n * 2) as u32),
        ],
    );
}

#[test]
fn vectors_uniforms_locals_and_out_of_bounds_halves() {
    let p = program(
        32,
        syn::parse_quote! {
            fn vecs(s: f16, t: f16, v: &[F16Vec4], w: &[F16Vec2], h: &[f16],
                    out: &mut [F16Vec4], pairs: &mut [F16Vec2], odd: &mut [f16]) {
                let i = global_thread_id();
                let a = v[i];
                let b = w[i];
                let mut arr = [f16::ZERO; 5];
                let mut j = 0u32;
                while j < 5u32 {
                    arr[j] = h[i * 5 + j] * s + t;
                    j += 1u32;
                }
                let k = i % 7u32;
                // A dynamic index (clamped to the last element when 5 or 6).
                let picked = arr[k];
                out[i] = a * s + F16Vec4::new(b.x, b.y, picked, t) - F16Vec4::splat(t);
                pairs[i] = F16Vec2::new(a.w, a.x) * b + F16Vec2::splat(arr[4]);
                // Odd indices, and past the end: reads give zero, writes are dropped.
                odd[i * 3 + 1] = h[i * 2 + 1] + h[i + 5000];
                odd[i * 3 + 2] = -picked;
                if a.x < b.y || a == F16Vec4::ZERO {
                    odd[i * 3] = a.dot(a);
                }
            }
        },
    );
    let groups = 4u32;
    let n = groups * 32;
    let v = halves(4 * n as usize - 24, 5);
    let w = halves(2 * n as usize - 10, 17);
    let h = halves(5 * n as usize + 3, 23);
    let odd_len = 3 * n - 7;
    same(
        &p,
        groups,
        &[(0, 0x3d00), (1, 0xb555)],
        &[
            (2, pack(&v), n - 6),
            (3, pack(&w), n - 5),
            (4, pack(&h), 5 * n + 3),
            (5, vec![0x1234_5678; 2 * n as usize], n - 3),
            (6, vec![0x1234_5678; n as usize], n),
            (7, vec![0xabcd_ef01; odd_len.div_ceil(2) as usize], odd_len),
        ],
    );
}

#[test]
fn workgroup_arrays_of_halves_across_barriers() {
    let p = program(
        64,
        syn::parse_quote! {
            fn shared_halves(x: &[f16], y: &[F16Vec4], out: &mut [f16], vout: &mut [F16Vec4]) {
                let tile = shared::<[f16; 64]>();
                let vtile = shared::<[F16Vec4; 16]>();
                let t = thread_idx_x();
                let i = global_thread_id();
                let mine = x[i] * f16::from_f32(1.5);
                tile[t] = mine;
                if t < 16u32 {
                    vtile[t] = y[block_idx_x() * 16u32 + t];
                }
                block_barrier();
                // Neighbours in the same word and in the next one.
                out[i] = tile[t ^ 1u32] + tile[63u32 - t] - mine;
                let q = vtile[t / 4u32];
                vout[i] = q * tile[t] + F16Vec4::splat(mine);
                block_barrier();
                tile[t] = out[i];
                block_barrier();
                out[i] = out[i] + tile[(t + 1u32) % 64u32];
            }
        },
    );
    let groups = 5u32;
    let n = groups * 64;
    let xs = halves(n as usize, 41);
    let ys = halves(16 * 4 * groups as usize, 43);
    same(
        &p,
        groups,
        &[],
        &[
            (0, pack(&xs), n),
            (1, pack(&ys), 16 * groups),
            (2, vec![0; n as usize / 2], n - 1),
            (3, vec![0; 2 * n as usize], n),
        ],
    );
}

/// A measurement, not a timed test (it asserts nothing about speed): the `f16` saxpy over
/// 2^20 elements on the JIT and on the interpreter, both cores, best of 5 each.
/// `cargo test -p sarek-codegen --features front,jit --lib f16_saxpy_speed -- --ignored
/// --nocapture` (BENCHMARKS.md, "f16 on the JIT").
#[test]
#[ignore]
fn f16_saxpy_speed() {
    let p = program(
        64,
        syn::parse_quote! {
            fn saxpy_f16(a: f16, x: &[f16], y: &mut [f16]) {
                let i = global_thread_id();
                if i < y.len() {
                    y[i] = a * x[i] + y[i];
                }
            }
        },
    );
    let n = 1u32 << 20;
    let jit = Compiled::new(&p).expect("compiles");
    let x: Vec<AtomicU32> = pack(&halves(n as usize, 1))
        .into_iter()
        .map(|w| AtomicU32::new(w & 0x3bff_3bff))
        .collect();
    let y: Vec<AtomicU32> = (0..n / 2).map(|_| AtomicU32::new(0x3c00_3c00)).collect();
    let uniform = p.uniform(&[], [n / 64, 1, 1], &[(1, n), (2, n)]);
    put_halves(&p, &uniform, &[(0, 0x3a00)]);
    let mut launch = Launch::new(&uniform, [n / 64, 1, 1])
        .buffer(1, &x)
        .buffer(2, &y);
    launch.threads = std::thread::available_parallelism().map_or(1, |t| t.get());
    let time = |jit: Option<&Compiled>| {
        (0..5)
            .map(|_| {
                let t = std::time::Instant::now();
                match jit {
                    Some(c) => c.run(&p, &launch).expect("runs"),
                    None => p.run(&launch).expect("runs"),
                }
                t.elapsed()
            })
            .min()
            .unwrap_or_default()
    };
    let (j, i) = (time(Some(&jit)), time(None));
    println!(
        "f16 saxpy 2^20 on {} threads: JIT {:.2} ms, interpreter {:.2} ms ({:.0}x); compile {:.2} ms",
        launch.threads,
        j.as_secs_f64() * 1e3,
        i.as_secs_f64() * 1e3,
        i.as_secs_f64() / j.as_secs_f64(),
        jit.compile_time().as_secs_f64() * 1e3,
    );
}
