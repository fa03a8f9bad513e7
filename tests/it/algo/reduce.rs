//! The library's generic reduce and scans (`sarek::algo::reduce`): sums, minima and maxima of
//! `f32`, `i32` and `u32`, and operators of a module outside the library (an arg-max over a
//! struct, and the composition of affine maps, which is not commutative), against plain Rust
//! on random inputs, on every backend.

use proptest::prelude::*;
use sarek::algo::reduce::{
    exclusive_scan, inclusive_scan, reduce, Max, Min, Monoid, Operand, Reducer, Scanner, Sum, TILE,
};
use sarek::{Device, Element, Instance};

use crate::common::{self, backends, cpu_only, gpu_only};
use crate::differential::config;

/// Element types and operators of a user of the library: the library's kernels imported,
/// its traits implemented for this module's structs, and the instances asked for here.
#[sarek::module]
pub mod user {
    use sarek::algo::reduce::kernels::{reduce_tiles, scan_tiles, Monoid, Operand, Sum};

    /// The largest value seen and where it was.
    pub struct ArgMax {
        pub value: f32,
        pub index: u32,
    }

    impl Operand for ArgMax {}

    /// Keeps the larger value, the earlier index on ties.
    pub struct Larger;

    impl Monoid<ArgMax> for Larger {
        fn identity() -> ArgMax {
            ArgMax {
                value: -f32::INFINITY,
                index: u32::MAX,
            }
        }
        fn combine(a: ArgMax, b: ArgMax) -> ArgMax {
            if b.value > a.value || (b.value == a.value && b.index < a.index) {
                b
            } else {
                a
            }
        }
    }

    /// The map `x ↦ a·x + b` on `u32` (wrapping).
    pub struct Affine {
        pub a: u32,
        pub b: u32,
    }

    impl Operand for Affine {}

    /// Composition, first map first: associative, not commutative.
    pub struct Then;

    impl Monoid<Affine> for Then {
        fn identity() -> Affine {
            Affine { a: 1, b: 0 }
        }
        fn combine(f: Affine, g: Affine) -> Affine {
            Affine {
                a: f.a * g.a,
                b: g.a * f.b + g.b,
            }
        }
    }

    /// A complex number.
    pub struct Complex {
        pub re: f32,
        pub im: f32,
    }

    impl Operand for Complex {}

    /// The library's own operator, on this module's type.
    impl Monoid<Complex> for Sum {
        fn identity() -> Complex {
            Complex { re: 0.0, im: 0.0 }
        }
        fn combine(a: Complex, b: Complex) -> Complex {
            Complex {
                re: a.re + b.re,
                im: a.im + b.im,
            }
        }
    }

    sarek::instances!(
        reduce_tiles<Complex, Sum>,
        scan_tiles<Complex, Sum>,
        reduce_tiles<ArgMax, Larger>,
        scan_tiles<ArgMax, Larger>,
        reduce_tiles<Affine, Then>,
        scan_tiles<Affine, Then>,
    );
}

use user::{Affine, ArgMax, Complex, Larger, Then};

/// A host twin of a device operator.
trait Host<T> {
    fn identity() -> T;
    fn combine(a: T, b: T) -> T;
}

macro_rules! host_ops {
    ($($t:ty: $add:expr, $min:expr, $max:expr, $lo:expr, $hi:expr;)*) => {$(
        impl Host<$t> for Sum {
            fn identity() -> $t { 0 as $t }
            fn combine(a: $t, b: $t) -> $t { $add(a, b) }
        }
        impl Host<$t> for Min {
            fn identity() -> $t { $hi }
            fn combine(a: $t, b: $t) -> $t { $min(a, b) }
        }
        impl Host<$t> for Max {
            fn identity() -> $t { $lo }
            fn combine(a: $t, b: $t) -> $t { $max(a, b) }
        }
    )*};
}

host_ops! {
    f32: |a: f32, b: f32| a + b, f32::min, f32::max, f32::NEG_INFINITY, f32::INFINITY;
    i32: i32::wrapping_add, i32::min, i32::max, i32::MIN, i32::MAX;
    u32: u32::wrapping_add, u32::min, u32::max, u32::MIN, u32::MAX;
}

impl Host<ArgMax> for Larger {
    fn identity() -> ArgMax {
        ArgMax {
            value: f32::NEG_INFINITY,
            index: u32::MAX,
        }
    }
    fn combine(a: ArgMax, b: ArgMax) -> ArgMax {
        if b.value > a.value || (b.value == a.value && b.index < a.index) {
            b
        } else {
            a
        }
    }
}

impl Host<Affine> for Then {
    fn identity() -> Affine {
        Affine { a: 1, b: 0 }
    }
    fn combine(f: Affine, g: Affine) -> Affine {
        Affine {
            a: f.a.wrapping_mul(g.a),
            b: g.a.wrapping_mul(f.b).wrapping_add(g.b),
        }
    }
}

/// The reduce, inclusive scan and exclusive scan of `xs`, the sequential way.
fn host<T: Copy, O: Host<T>>(xs: &[T]) -> (T, Vec<T>, Vec<T>) {
    let mut acc = O::identity();
    let mut inclusive = Vec::with_capacity(xs.len());
    let mut exclusive = Vec::with_capacity(xs.len());
    for &x in xs {
        exclusive.push(acc);
        acc = O::combine(acc, x);
        inclusive.push(acc);
    }
    (acc, inclusive, exclusive)
}

/// Runs the plain calls and the batch forms of `op` over `xs` on `dev` and compares them
/// with the host's through `key` (which makes the elements comparable).
fn check<T, O, K>(dev: &Device, xs: &[T], op: O, key: impl Fn(&T) -> K) -> Result<(), String>
where
    T: Operand + Element,
    O: Monoid<T> + Host<T> + Copy,
    K: PartialEq + std::fmt::Debug,
    sarek::algo::reduce::kernels::reduce_tiles: Instance<T, O>,
    sarek::algo::reduce::kernels::scan_tiles: Instance<T, O>,
{
    let keys = |v: &[T]| v.iter().map(&key).collect::<Vec<K>>();
    let (total, inclusive, exclusive) = host::<T, O>(xs);
    let x = dev.upload(xs).unwrap();
    let n = xs.len();
    let got = reduce(dev, &x, op).unwrap();
    if key(&got) != key(&total) {
        return Err(format!(
            "reduce of {n}: {:?}, want {:?}",
            key(&got),
            key(&total)
        ));
    }
    let got = inclusive_scan(dev, &x, op).unwrap().read().unwrap();
    if keys(&got) != keys(&inclusive) {
        return Err(format!("inclusive scan of {n} differs"));
    }
    let got = exclusive_scan(dev, &x, op).unwrap().read().unwrap();
    if keys(&got) != keys(&exclusive) {
        return Err(format!("exclusive scan of {n} differs"));
    }
    // The batch forms, into buffers that held something, with the scratch used twice.
    let mut out = dev
        .upload(&[xs.first().copied().unwrap_or(total); 2])
        .unwrap();
    let mut inc = dev.zeros::<T>(n).unwrap();
    let mut exc = dev.zeros::<T>(n).unwrap();
    let mut reducer = Reducer::<T>::new(dev, n).unwrap();
    let mut scanner = Scanner::<T>::new(dev, n).unwrap();
    for _ in 0..2 {
        let mut batch = dev.batch();
        reducer.enqueue(&mut batch, &x, op, &mut out).unwrap();
        scanner
            .enqueue_exclusive(&mut batch, &x, op, &mut exc)
            .unwrap();
        scanner
            .enqueue_inclusive(&mut batch, &x, op, &mut inc)
            .unwrap();
        batch.submit().unwrap().wait().unwrap();
    }
    if key(&out.read().unwrap()[0]) != key(&total) {
        return Err(format!("batched reduce of {n} differs"));
    }
    if keys(&inc.read().unwrap()) != keys(&inclusive) {
        return Err(format!("batched inclusive scan of {n} differs"));
    }
    if keys(&exc.read().unwrap()) != keys(&exclusive) {
        return Err(format!("batched exclusive scan of {n} differs"));
    }
    Ok(())
}

/// Lengths around the tile and its multiples, and small ones.
fn lengths() -> impl Strategy<Value = usize> {
    prop_oneof![
        0usize..3,
        3usize..300,
        TILE - 2..TILE + 3,
        3 * TILE - 1..3 * TILE + 2,
        20_000usize..70_000
    ]
}

/// `f32`s whose every partial sum is exact (integers of at most 2^24 in all), and infinities.
fn floats() -> impl Strategy<Value = f32> {
    prop_oneof![
        20 => (-200i32..200).prop_map(|v| v as f32),
        1 => Just(f32::INFINITY),
        1 => Just(f32::NEG_INFINITY),
    ]
}

/// Checks one scalar operator on every backend (infinities dropped for sums, where the
/// order of `+∞ + -∞` would matter).
fn scalars<T, O>(xs: &[T], op: O) -> Result<(), TestCaseError>
where
    T: Operand + Element + PartialEq + std::fmt::Debug,
    O: Monoid<T> + Host<T> + Copy,
    sarek::algo::reduce::kernels::reduce_tiles: Instance<T, O>,
    sarek::algo::reduce::kernels::scan_tiles: Instance<T, O>,
{
    for (backend, dev) in crate::differential::backends() {
        check(dev, xs, op, |v| *v).map_err(|e| TestCaseError::fail(format!("{backend}: {e}")))?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(6))]

    #[test]
    fn f32_sum_min_max_match_the_host(
        xs in lengths().prop_flat_map(|n| proptest::collection::vec(floats(), n)),
    ) {
        let finite: Vec<f32> = xs.iter().copied().filter(|v| v.is_finite()).collect();
        scalars(&finite, Sum)?;
        scalars(&xs, Min)?;
        scalars(&xs, Max)?;
    }

    #[test]
    fn i32_sum_min_max_match_the_host(
        xs in lengths().prop_flat_map(|n| proptest::collection::vec(any::<i32>(), n)),
    ) {
        scalars(&xs, Sum)?;
        scalars(&xs, Min)?;
        scalars(&xs, Max)?;
    }

    #[test]
    fn u32_sum_min_max_match_the_host(
        xs in lengths().prop_flat_map(|n| proptest::collection::vec(any::<u32>(), n)),
    ) {
        scalars(&xs, Sum)?;
        scalars(&xs, Min)?;
        scalars(&xs, Max)?;
    }

    #[test]
    fn a_users_arg_max_matches_the_host(
        xs in lengths().prop_flat_map(|n| proptest::collection::vec(-50i32..50, n)),
    ) {
        // Few distinct values, so that ties are common and the earlier index must win.
        let xs: Vec<ArgMax> = xs
            .iter()
            .enumerate()
            .map(|(i, &v)| ArgMax { value: v as f32, index: i as u32 })
            .collect();
        for (backend, dev) in crate::differential::backends() {
            check(dev, &xs, Larger, |m| (m.value, m.index))
                .map_err(|e| TestCaseError::fail(format!("{backend}: {e}")))?;
        }
    }

    #[test]
    fn a_non_commutative_operator_keeps_the_order(
        xs in lengths().prop_flat_map(|n| proptest::collection::vec((any::<u32>(), any::<u32>()), n)),
    ) {
        let xs: Vec<Affine> = xs.iter().map(|&(a, b)| Affine { a: a | 1, b }).collect();
        for (backend, dev) in crate::differential::backends() {
            check(dev, &xs, Then, |f| (f.a, f.b))
                .map_err(|e| TestCaseError::fail(format!("{backend}: {e}")))?;
        }
    }
}

/// Past 2^20 elements, the partials take a level of their own (513 tiles); past 2^22, two
/// (2049 tiles, then 2).
fn past_two_to_the_twenty(dev: &Device) {
    let n = (1 << 20) + 1;
    let xs: Vec<u32> = common::random_u32(11, n);
    check(dev, &xs, Sum, |v| *v).unwrap();
    let fs: Vec<f32> = xs.iter().map(|&v| (v % 8) as f32).collect();
    check(dev, &fs, Max, |v| *v).unwrap();
    let tagged: Vec<ArgMax> = xs
        .iter()
        .enumerate()
        .map(|(i, &v)| ArgMax {
            value: (v % 1000) as f32,
            index: i as u32,
        })
        .collect();
    check(dev, &tagged, Larger, |m| (m.value, m.index)).unwrap();
    let maps: Vec<Affine> = xs.iter().map(|&v| Affine { a: v | 1, b: v }).collect();
    check(dev, &maps, Then, |f| (f.a, f.b)).unwrap();
    let n = (1 << 22) + 5;
    let xs: Vec<i32> = common::random_u32(12, n)
        .iter()
        .map(|&v| v as i32)
        .collect();
    check(dev, &xs, Sum, |v| *v).unwrap();
}

/// Past 2^20 on the GPU and the plain CPU backend (the smaller tests run the checked CPU
/// backend too).
mod past_two_to_the_twenty {
    use super::*;

    #[gpu_only]
    fn gpu(dev: &Device) {
        super::past_two_to_the_twenty(dev);
    }

    #[cpu_only]
    fn cpu(dev: &Device) {
        super::past_two_to_the_twenty(dev);
    }
}

/// A scratch made for one length refuses another, naming its own; a reduction refuses an
/// empty output.
#[backends]
fn a_scratch_serves_one_length(dev: &Device) {
    let x = dev.zeros::<u32>(11).unwrap();
    let mut out = dev.zeros::<u32>(11).unwrap();
    let mut batch = dev.batch();
    let mut scanner = Scanner::<u32>::new(dev, 10).unwrap();
    let err = scanner
        .enqueue_inclusive(&mut batch, &x, Sum, &mut out)
        .unwrap_err();
    assert!(matches!(err, sarek::Error::BadArguments { .. }));
    assert!(err
        .to_string()
        .contains("the scan's scratch was made for 10 elements, the input holds 11"));
    let mut reducer = Reducer::<u32>::new(dev, 11).unwrap();
    let mut empty = dev.zeros::<u32>(0).unwrap();
    let err = reducer
        .enqueue(&mut batch, &x, Max, &mut empty)
        .unwrap_err();
    assert!(err.to_string().contains("output holds no element"), "{err}");
    let err = Reducer::<u32>::new(dev, 12)
        .unwrap()
        .enqueue(&mut batch, &x, Max, &mut out)
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("made for 12 elements, the input holds 11"),
        "{err}"
    );
}

/// The library's `Sum` on a user's type: the user implements the library's trait for the
/// library's operator.
#[backends]
fn the_librarys_operator_on_a_users_type(dev: &Device) {
    let n = 3 * TILE + 7;
    let xs: Vec<Complex> = (0..n)
        .map(|i| Complex {
            re: (i % 5) as f32,
            im: -((i % 3) as f32),
        })
        .collect();
    let x = dev.upload(&xs).unwrap();
    let total = reduce(dev, &x, Sum).unwrap();
    let re: f32 = xs.iter().map(|c| c.re).sum();
    let im: f32 = xs.iter().map(|c| c.im).sum();
    assert_eq!((total.re, total.im), (re, im));
    let prefix = exclusive_scan(dev, &x, Sum).unwrap().read().unwrap();
    let want: f32 = xs[..TILE + 1].iter().map(|c| c.re).sum();
    assert_eq!(prefix[TILE + 1].re, want);
}

/// The empty input: the reduce is the identity, the scans are empty.
#[backends]
fn empty_inputs(dev: &Device) {
    let x = dev.upload::<f32>(&[]).unwrap();
    assert_eq!(reduce(dev, &x, Min).unwrap(), f32::INFINITY);
    assert_eq!(reduce(dev, &x, Max).unwrap(), f32::NEG_INFINITY);
    assert_eq!(reduce(dev, &x, Sum).unwrap(), 0.0);
    assert!(inclusive_scan(dev, &x, Sum)
        .unwrap()
        .read()
        .unwrap()
        .is_empty());
    let x = dev.upload::<Affine>(&[]).unwrap();
    let id = reduce(dev, &x, Then).unwrap();
    assert_eq!((id.a, id.b), (1, 0));
    assert!(exclusive_scan(dev, &x, Then)
        .unwrap()
        .read()
        .unwrap()
        .is_empty());
}

/// One element: the reduce is it, the inclusive scan is it, the exclusive scan the identity.
#[backends]
fn one_element(dev: &Device) {
    let x = dev.upload(&[-7i32]).unwrap();
    assert_eq!(reduce(dev, &x, Max).unwrap(), -7);
    assert_eq!(inclusive_scan(dev, &x, Min).unwrap().read().unwrap(), [-7]);
    assert_eq!(
        exclusive_scan(dev, &x, Min).unwrap().read().unwrap(),
        [i32::MAX]
    );
}

/// Tiles are numbered over a 2-D grid (as the library launches more than 65535 of them):
/// three tiles on a grid of 2 × 2 workgroups, the fourth past the end writing nothing.
#[backends]
fn tiles_are_numbered_over_a_2d_grid(dev: &Device) {
    use sarek::algo::reduce::kernels::{reduce_tiles, scan_tiles};
    use sarek::Grid;
    let n = 2 * TILE + 5;
    let xs: Vec<u32> = (0..n as u32).collect();
    let x = dev.upload(&xs).unwrap();
    let mut out = dev.upload(&[7u32; 4]).unwrap();
    let grid = Grid::groups([2, 2, 1]);
    let mut partials = dev.zeros::<u32>(3).unwrap();
    reduce_tiles
        .launch::<u32, Sum>(dev, grid, &x, &mut partials)
        .unwrap()
        .wait()
        .unwrap();
    let want: Vec<u32> = xs.chunks(TILE).map(|c| c.iter().sum()).collect();
    assert_eq!(partials.read().unwrap(), want);
    reduce_tiles
        .launch::<u32, Max>(dev, grid, &x, &mut out)
        .unwrap()
        .wait()
        .unwrap();
    // The fourth tile is empty: the identity.
    assert_eq!(
        out.read().unwrap(),
        [TILE as u32 - 1, 2 * TILE as u32 - 1, n as u32 - 1, 0]
    );
    // Each tile scanned from a carry of its own.
    let carry = dev.upload(&[100u32, 200, 300]).unwrap();
    let mut scanned = dev.zeros::<u32>(n).unwrap();
    scan_tiles
        .launch::<u32, Max>(dev, grid, &x, &carry, 1, 1, &mut scanned)
        .unwrap()
        .wait()
        .unwrap();
    let got = scanned.read().unwrap();
    assert_eq!(got[0], 100);
    assert_eq!(got[TILE], 200);
    assert_eq!(got[TILE + 300], TILE as u32 + 299);
    assert_eq!(got[2 * TILE], 300);
    assert_eq!(got[n - 1], n as u32 - 2);
}
