//! Collectives on the JIT against the interpreter: every subgroup operation with subgroups of
//! 8 and 32 over workgroups whose last subgroup is partial, inside uniform loops and `if`s,
//! after invocations returned, and cooperative matrices from buffers and workgroup arrays.

use crate::interp::Program;
use crate::jit::Compiled;

/// `item` lowered with workgroups of `size`.
fn program(size: u32, item: syn::ItemFn) -> Program {
    crate::jit::tests::program_of(size, item)
}

/// Runs `p` over `groups` workgroups with subgroups of `subgroup`, the scalar `values`
/// (param, bits) and the buffers `bufs` (param, words), on the JIT or the interpreter;
/// returns every buffer after.
fn run(
    p: &Program,
    jit: Option<&Compiled>,
    groups: u32,
    subgroup: u32,
    values: &[(u32, u32)],
    bufs: &[(u32, Vec<u32>)],
) -> Vec<Vec<u32>> {
    let lens: Vec<(u32, u32)> = bufs.iter().map(|(p, w)| (*p, w.len() as u32)).collect();
    let uniform = p.uniform(values, [groups, 1, 1], &lens);
    let words: Vec<(u32, &[u32])> = bufs.iter().map(|(p, w)| (*p, &w[..])).collect();
    crate::jit::tests::run_words(p, jit, &uniform, groups, &words, 2, subgroup)
}

/// Runs `p` on both engines with subgroups of 8 and 32 and checks that every buffer agrees.
fn agree(p: &Program, groups: u32, values: &[(u32, u32)], bufs: &[(u32, Vec<u32>)]) {
    let c = Compiled::new(p).expect("the JIT compiles the kernel");
    for subgroup in [8, 32] {
        let want = run(p, None, groups, subgroup, values, bufs);
        let got = run(p, Some(&c), groups, subgroup, values, bufs);
        assert_eq!(got, want, "subgroups of {subgroup}");
    }
}

fn words(n: usize, f: impl Fn(usize) -> u32) -> Vec<u32> {
    (0..n).map(f).collect()
}

#[test]
fn every_subgroup_operation_matches_the_interpreter() {
    // 48 invocations: with subgroups of 32 the second one has 16 lanes, so shuffles and
    // broadcasts from lanes 16.. read a lane that does not exist.
    let p = program(
        48,
        syn::parse_quote! {
            fn every_op(x: &[u32], f: &[f32], out: &mut [u32], fout: &mut [f32]) {
                let t = global_thread_id();
                let v = x[t];
                let lane = subgroup_invocation_id();
                let size = subgroup_size();
                let o = t * 31;
                out[o] = size;
                out[o + 1] = lane;
                out[o + 2] = subgroup_add(v);
                out[o + 3] = subgroup_mul(v);
                out[o + 4] = subgroup_min(v);
                out[o + 5] = subgroup_max(v);
                out[o + 6] = subgroup_and(v);
                out[o + 7] = subgroup_or(v);
                out[o + 8] = subgroup_xor(v);
                out[o + 9] = subgroup_exclusive_add(v);
                out[o + 10] = subgroup_exclusive_mul(v);
                out[o + 11] = subgroup_inclusive_add(v);
                out[o + 12] = subgroup_inclusive_mul(v);
                out[o + 13] = subgroup_all(v % 2 == 0) as u32;
                out[o + 14] = subgroup_any(v == 7) as u32;
                let b = subgroup_ballot(v % 3 == 0);
                out[o + 15] = b.x;
                out[o + 16] = b.y;
                out[o + 17] = b.z + b.w;
                out[o + 18] = subgroup_broadcast(v, 17);
                out[o + 19] = subgroup_broadcast_first(v);
                out[o + 20] = subgroup_shuffle(v, (lane + 3) % size);
                out[o + 21] = subgroup_shuffle_xor(v, 5);
                out[o + 22] = subgroup_shuffle_up(v, 3);
                out[o + 23] = subgroup_shuffle_down(v, 7);
                out[o + 24] = subgroup_elect() as u32;
                let s = v as i32 - 50;
                out[o + 25] = subgroup_add(s) as u32;
                out[o + 26] = subgroup_min(s) as u32;
                out[o + 27] = subgroup_max(s) as u32;
                out[o + 28] = subgroup_exclusive_add(s) as u32;
                out[o + 29] = subgroup_inclusive_mul(s) as u32;
                out[o + 30] = subgroup_shuffle(s, lane + 20) as u32;
                let g = f[t];
                fout[t * 6] = subgroup_add(g);
                fout[t * 6 + 1] = subgroup_min(g);
                fout[t * 6 + 2] = subgroup_max(g);
                fout[t * 6 + 3] = subgroup_inclusive_add(g);
                fout[t * 6 + 4] = subgroup_exclusive_mul(g);
                fout[t * 6 + 5] = subgroup_shuffle_down(g, 1);
            }
        },
    );
    let n = 3 * 48;
    let x = words(n, |i| (i * 37 % 101) as u32);
    let f = words(n, |i| ((i * 13 % 17) as f32 * 0.37 - 2.0).to_bits());
    agree(
        &p,
        3,
        &[],
        &[(0, x), (1, f), (2, vec![0; n * 31]), (3, vec![0; n * 6])],
    );
}

#[test]
fn subgroup_operations_in_uniform_loops_and_ifs_match_the_interpreter() {
    let p = program(
        40,
        syn::parse_quote! {
            fn looped(x: &[u32], out: &mut [u32], n: u32) {
                let t = global_thread_id();
                let tile = shared::<[u32; 40]>();
                let mut acc = 0u32;
                let mut k = 0u32;
                while k < n {
                    let v = x[t] + k;
                    if n > 2 {
                        acc += subgroup_add(v);
                    } else {
                        acc ^= subgroup_shuffle_down(v, k);
                    }
                    subgroup_barrier();
                    acc += subgroup_inclusive_add(v * 3);
                    tile[thread_idx_x()] = acc;
                    block_barrier();
                    acc += tile[(thread_idx_x() + 1) % 40];
                    block_barrier();
                    k += 1;
                }
                out[t] = acc + subgroup_broadcast_first(acc);
            }
        },
    );
    let x = words(120, |i| (i * 7 % 23) as u32);
    for n in [2u32, 5] {
        agree(&p, 3, &[(2, n)], &[(0, x.clone()), (1, vec![0; 120])]);
    }
}

#[test]
fn subgroup_operations_after_returns_match_the_interpreter() {
    // Invocations that returned are not members of their subgroup any more.
    let p = program(
        64,
        syn::parse_quote! {
            fn early(x: &[u32], out: &mut [u32]) {
                let t = global_thread_id();
                if x[t] % 5 == 0 {
                    return;
                }
                let v = x[t];
                out[t * 4] = subgroup_add(v);
                out[t * 4 + 1] = subgroup_exclusive_add(v);
                out[t * 4 + 2] = subgroup_ballot(true).x;
                out[t * 4 + 3] = subgroup_shuffle_up(v, 1) + subgroup_elect() as u32;
            }
        },
    );
    let x = words(128, |i| (i * 11 % 37) as u32);
    agree(&p, 2, &[], &[(0, x), (1, vec![0; 512])]);
}

#[test]
fn cooperative_matrices_match_the_interpreter() {
    // Each subgroup multiplies its own 8×8 tiles: one from a buffer, one from a workgroup
    // array (loaded column-major), accumulated twice, stored both ways.
    let p = program(
        40,
        syn::parse_quote! {
            fn tiles(x: &[f32], y: &[f32], z: &mut [f32]) {
                let t = thread_idx_x();
                let sg = (t / subgroup_size()) as usize;
                let tile = shared::<[f32; 320]>();
                let b = block_idx_x() as usize;
                let mut i = t as usize;
                while i < 320 {
                    tile[i] = y[(b * 320 + i) % 640];
                    i += 40;
                }
                block_barrier();
                let mut acc = CoopMatrix::<f32, 8, C>::zeros();
                let mut k = 0;
                while k < 2 {
                    let a = CoopMatrix::<f32, 8, A>::load_rows(x, (b * 5 + sg) * 64 + k * 8, 16);
                    let m = CoopMatrix::<f32, 8, B>::load_columns(&tile, sg * 64 % 320, 8);
                    acc = a.multiply_add(m, acc);
                    k += 1;
                }
                acc.store_rows(z, (b * 5 + sg) * 128, 8);
                acc.store_columns(z, (b * 5 + sg) * 128 + 64, 8);
            }
        },
    );
    let x = words(640, |i| (((i * 7 % 11) as f32 - 5.0) * 0.5).to_bits());
    let y = words(640, |i| (((i * 5 % 13) as f32 - 6.0) * 0.25).to_bits());
    // `z` is short: the last stores run past its end (skipped).
    agree(&p, 2, &[], &[(0, x), (1, y), (2, vec![0; 1200])]);
}

/// A measurement, not a test of speed (it asserts only that both engines agree): a
/// subgroup sum over 2^20 invocations in workgroups of 256, subgroups of 32, two worker threads, on
/// the interpreter and on the JIT; prints the best of three runs of each. Run with
/// `cargo test -p sarek-codegen --features front,jit --lib measure_subgroup_sum -- --ignored
/// --nocapture` (the workspace builds `sarek-codegen` at `opt-level = 2`).
#[test]
#[ignore]
fn measure_subgroup_sum() {
    let p = program(
        256,
        syn::parse_quote! {
            fn sums(x: &[f32], out: &mut [f32]) {
                let t = global_thread_id();
                out[t] = subgroup_add(x[t]);
            }
        },
    );
    let n = 1 << 20;
    let x = words(n, |i| ((i % 97) as f32 * 0.5).to_bits());
    let c = Compiled::new(&p).expect("compiles");
    let bufs = [(0, x), (1, vec![0; n])];
    let groups = (n / 256) as u32;
    let time = |jit: Option<&Compiled>| {
        let mut best = f64::MAX;
        let mut out = Vec::new();
        for _ in 0..3 {
            let t = std::time::Instant::now();
            out = run(&p, jit, groups, 32, &[], &bufs);
            best = best.min(t.elapsed().as_secs_f64());
        }
        (best, out)
    };
    let (interp, want) = time(None);
    let (jit, got) = time(Some(&c));
    assert_eq!(got, want);
    println!(
        "subgroup sum of 2^20 f32 (two threads, incl. buffer copies): interpreter {:.1} ms, JIT {:.1} ms ({:.1}x)",
        interp * 1e3,
        jit * 1e3,
        interp / jit
    );
}

/// Halves in the slots lie two to a word: scalar and `F16Vec4` operations (reductions, scans,
/// shuffles from lanes that do not exist) agree with the interpreter bit for bit.
#[test]
fn f16_subgroup_operations_match_the_interpreter() {
    let p = program(
        48,
        syn::parse_quote! {
            fn halves(x: &[f16], v: &[F16Vec4], out: &mut [f16], vout: &mut [F16Vec4]) {
                let t = global_thread_id();
                let a = x[t];
                let w = v[t];
                let o = t * 6;
                out[o] = subgroup_add(a);
                out[o + 1] = subgroup_inclusive_mul(a);
                out[o + 2] = subgroup_max(a);
                out[o + 3] = subgroup_shuffle_xor(a, 19);
                out[o + 4] = subgroup_broadcast_first(a);
                out[o + 5] = subgroup_exclusive_add(a);
                vout[t * 3] = subgroup_add(w);
                vout[t * 3 + 1] = subgroup_shuffle_down(w, 3);
                vout[t * 3 + 2] = subgroup_min(w);
            }
        },
    );
    // Halves near 1 (products stay finite), some negative, a NaN and an infinity.
    let half = |i: usize| {
        let bits = match i % 23 {
            7 => 0x7E00,
            11 => 0xFC00,
            _ => 0x3C00 + ((i * 37) % 97) as u32,
        };
        bits | ((i.is_multiple_of(5) as u32) << 15)
    };
    let n = 96;
    let x = words(n / 2, |w| half(2 * w) | (half(2 * w + 1) << 16));
    let v = words(n * 2, |w| half(3 * w + 1) | (half(3 * w + 2) << 16));
    agree(
        &p,
        2,
        &[],
        &[
            (0, x),
            (1, v),
            (2, vec![0; n * 6 / 2]),
            (3, vec![0; n * 3 * 2]),
        ],
    );
}
