//! [`slice_coop`] on kernels lowered from Rust with their loops rolled (as the quick form
//! is): what it slices, what it leaves alone, and that the slices store what the kernel does,
//! bit for bit, on the interpreter.

use std::sync::atomic::{AtomicU32, Ordering};

use crate::front::attr::KernelAttr;
use crate::ir::*;
use crate::passes::slice_coop;
use sarek_cpu::interp::{Launch, Program};

/// `item` lowered with workgroups of 32 and its `for` loops rolled.
fn rolled(item: syn::ItemFn) -> Kernel {
    let attr = KernelAttr {
        workgroup_size: [32, 1, 1],
        ..KernelAttr::default()
    };
    crate::front::lower_kernel_with(&attr, &item, &[], false)
        .expect("lowers")
        .kernel
}

/// A batched 16×16-block product written as a user would: four 8×8 accumulators and two
/// operands of each role in arrays, loops over them, `b`'s tile staged in workgroup memory
/// between barriers, `block_idx_z()` the batch. `extra` goes at the end of the body.
fn product(extra: proc_macro2::TokenStream) -> syn::ItemFn {
    syn::parse_quote! {
        fn mm(a: &[f32], b: &[f32], c: &mut [f32], m: u32) {
            let m = m as usize;
            let row0 = block_idx_y() * 16;
            let col0 = block_idx_x() * 16;
            let base = block_idx_z() * m * m;
            let t = thread_idx_x();
            let sb = shared::<[f32; 128]>();
            let mut acc = [CoopMatrix::<f32, 8, C>::zeros(); 4];
            let mut k = 0;
            while k < m {
                for r in 0..4 {
                    let e = t + 32 * r;
                    sb[e] = b[base + (k + e / 16) * m + col0 + e % 16];
                }
                block_barrier();
                let mut am = [CoopMatrix::<f32, 8, A>::zeros(); 2];
                let mut bm = [CoopMatrix::<f32, 8, B>::zeros(); 2];
                for i in 0..2 {
                    am[i] = CoopMatrix::load_rows(a, base + (row0 + 8 * i) * m + k, m);
                }
                for j in 0..2 {
                    bm[j] = CoopMatrix::load_rows(sb, 8 * j, 16);
                }
                for i in 0..2 {
                    for j in 0..2 {
                        acc[2 * i + j] = am[i].multiply_add(bm[j], acc[2 * i + j]);
                    }
                }
                block_barrier();
                k += 8;
            }
            for i in 0..2 {
                for j in 0..2 {
                    acc[2 * i + j].store_rows(c, base + (row0 + 8 * i) * m + col0 + 8 * j, m);
                }
            }
            #extra
        }
    }
}

/// Runs `kernel` on the interpreter with the uniform block of a launch over `grid`, over
/// `dispatch` workgroups (subgroups of 32): `a`, `b` and `c` of `batch` m×m matrices.
fn run(kernel: &Kernel, m: u32, grid: [u32; 3], dispatch: [u32; 3]) -> Vec<u32> {
    let p = Program::new(kernel.clone());
    let len = (grid[2] * m * m) as usize;
    let words = |f: &dyn Fn(usize) -> f32| -> Vec<AtomicU32> {
        (0..len).map(|i| AtomicU32::new(f(i).to_bits())).collect()
    };
    let a = words(&|i| ((i * 7 % 11) as f32) - 5.0);
    let b = words(&|i| ((i * 5 % 13) as f32) * 0.25);
    let c = words(&|_| 0.0);
    let n = len as u32;
    let uniform = p.uniform(&[(3, m)], grid, &[(0, n), (1, n), (2, n)]);
    let mut launch = Launch::new(&uniform, dispatch)
        .buffer(0, &a)
        .buffer(1, &b)
        .buffer(2, &c);
    launch.threads = 2;
    launch.subgroup_size = 32;
    launch.checks = true;
    p.run(&launch).expect("runs without a fault");
    c.iter().map(|w| w.load(Ordering::Relaxed)).collect()
}

/// The coop statements of `f` at any depth: (products, arrays named).
fn coop_counts(f: &Function) -> (usize, usize) {
    let (mut products, mut arrays) = (0, 0);
    visit(&f.body, &mut |s| {
        if let Stmt::Coop(op) = &s.kind {
            products += usize::from(matches!(op, CoopOp::MultiplyAdd { .. }));
            arrays += op.matrices().iter().filter(|m| m.is_array()).count();
        }
    });
    (products, arrays)
}

#[test]
fn a_tiled_product_runs_one_accumulator_a_slice_and_stores_the_same_bits() {
    let kernel = rolled(product(quote::quote!()));
    let (sliced, n) = slice_coop::run(&kernel).expect("sliced");
    assert_eq!(n, 4, "one slice per accumulator");
    let (products, arrays) = coop_counts(&kernel.entry);
    assert!(
        products == 1 && arrays > 0,
        "the rolled kernel names array elements"
    );
    assert_eq!(
        coop_counts(&sliced.entry),
        (1, 0),
        "one product, no arrays left"
    );
    // Valid WGSL (naga checks the uniformity of every coop statement).
    crate::compile(&sliced).expect("the slices compile to valid WGSL");
    for (m, batch) in [(16, 1), (32, 2), (48, 3)] {
        let g = m / 16;
        let whole = run(&kernel, m, [g, g, batch], [g, g, batch]);
        let slices = run(&sliced, m, [g, g, batch], [g, g, batch * n]);
        assert!(
            whole.iter().any(|&w| w != 0),
            "the product is not all zeros"
        );
        assert_eq!(slices, whole, "m {m}, batch {batch}");
    }
}

#[test]
fn an_element_set_on_its_own_is_set_in_its_slice_only() {
    // `acc[1]` restarts after the first step along k; `acc[0]` and the rest go on.
    let kernel = rolled(syn::parse_quote! {
        fn restart(a: &[f32], b: &[f32], c: &mut [f32]) {
            let mut acc = [CoopMatrix::<f32, 8, C>::zeros(); 2];
            for s in 0..3 {
                let bm = CoopMatrix::<f32, 8, B>::load_rows(b, 64 * s, 8);
                let mut am = [CoopMatrix::<f32, 8, A>::zeros(); 2];
                for i in 0..2 {
                    am[i] = CoopMatrix::load_rows(a, 64 * (2 * s + i), 8);
                }
                for i in 0..2 {
                    acc[i] = am[i].multiply_add(bm, acc[i]);
                }
                if s == 0 {
                    acc[1] = CoopMatrix::zeros();
                }
            }
            for i in 0..2 {
                acc[i].store_rows(c, 64 * i, 8);
            }
        }
    });
    let (sliced, n) = slice_coop::run(&kernel).expect("sliced");
    assert_eq!(n, 2);
    crate::compile(&sliced).expect("valid");
    let whole = run(&kernel, 32, [1, 1, 1], [1, 1, 1]);
    let slices = run(&sliced, 32, [1, 1, 1], [1, 1, n]);
    assert_eq!(slices, whole);
    let first: Vec<f32> = whole[..128].iter().map(|w| f32::from_bits(*w)).collect();
    assert_ne!(first[..64], first[64..], "the restart shows in the result");
}

#[test]
fn a_kernel_writing_a_buffer_otherwise_keeps_its_quick_form_whole() {
    // Every slice would write it: not the kernel's effect once.
    let kernel = rolled(product(quote::quote!(if t == 0 {
        c[0] += 1.0;
    })));
    assert!(slice_coop::run(&kernel).is_none());
}

#[test]
fn products_into_one_accumulator_from_a_loop_over_operands_are_left_alone() {
    // `acc[0]` sums over `i`: shortening the loop would drop terms.
    let kernel = rolled(syn::parse_quote! {
        fn one(a: &[f32], b: &[f32], c: &mut [f32]) {
            let mut acc = [CoopMatrix::<f32, 8, C>::zeros(); 2];
            let mut am = [CoopMatrix::<f32, 8, A>::zeros(); 2];
            let bm = CoopMatrix::<f32, 8, B>::load_rows(b, 0, 8);
            for i in 0..2 {
                am[i] = CoopMatrix::load_rows(a, 64 * i, 8);
            }
            for i in 0..2 {
                acc[0] = am[i].multiply_add(bm, acc[0]);
            }
            acc[0].store_rows(c, 0, 8);
            acc[1].store_rows(c, 64, 8);
        }
    });
    assert!(slice_coop::run(&kernel).is_none());
}

#[test]
fn a_shortened_loop_may_not_hold_a_barrier_or_write_memory() {
    let with = |body: proc_macro2::TokenStream| {
        rolled(syn::parse_quote! {
            fn k(a: &[f32], b: &[f32], c: &mut [f32]) {
                let s = shared::<[f32; 64]>();
                let mut acc = [CoopMatrix::<f32, 8, C>::zeros(); 2];
                let bm = CoopMatrix::<f32, 8, B>::load_rows(b, 0, 8);
                for i in 0..2 {
                    let x = CoopMatrix::<f32, 8, A>::load_rows(a, 64 * i, 8);
                    #body
                    acc[i] = x.multiply_add(bm, acc[i]);
                }
                for i in 0..2 {
                    acc[i].store_rows(c, 64 * i, 8);
                }
            }
        })
    };
    // The loop writes a single matrix (`x`) each iteration: not sliced either way.
    assert!(slice_coop::run(&with(quote::quote!())).is_none());
    // An operand array instead, and nothing else: sliced; with a barrier or a store to
    // workgroup memory in the loop: not.
    let with_array = |body: proc_macro2::TokenStream| {
        rolled(syn::parse_quote! {
            fn k(a: &[f32], b: &[f32], c: &mut [f32]) {
                let s = shared::<[f32; 64]>();
                let mut acc = [CoopMatrix::<f32, 8, C>::zeros(); 2];
                let mut x = [CoopMatrix::<f32, 8, A>::zeros(); 2];
                let bm = CoopMatrix::<f32, 8, B>::load_rows(b, 0, 8);
                for i in 0..2 {
                    x[i] = CoopMatrix::load_rows(a, 64 * i, 8);
                    #body
                    acc[i] = x[i].multiply_add(bm, acc[i]);
                }
                for i in 0..2 {
                    acc[i].store_rows(c, 64 * i, 8);
                }
            }
        })
    };
    let (sliced, n) = slice_coop::run(&with_array(quote::quote!())).expect("sliced");
    assert_eq!(n, 2);
    crate::compile(&sliced).expect("valid");
    for body in [
        quote::quote!(block_barrier();),
        quote::quote!(s[thread_idx_x()] = 1.0;),
    ] {
        assert!(
            slice_coop::run(&with_array(body.clone())).is_none(),
            "{body}"
        );
    }
}

#[test]
fn kernels_reading_the_global_z_index_are_left_alone() {
    let kernel = rolled(product(quote::quote!(if global_idx_z() > 1000 {
        return;
    })));
    assert!(slice_coop::run(&kernel).is_none());
}
