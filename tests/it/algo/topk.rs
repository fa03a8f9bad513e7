//! The library's top-k (`sarek::algo::topk`): the `k` largest and smallest elements of `f32`,
//! `i32` and `u32` inputs with their indices, against a host reference (a stable sort by the
//! total order, the first `k`), on random inputs of every size class with many ties, on the
//! test device (the GPU, or the CPU backend under `SAREK_DEVICE=cpu`).

use std::cmp::Ordering;

use proptest::prelude::*;
use sarek::algo::topk::{topk, topk_smallest, Item, TopK, MAX_K};
use sarek::Device;

use crate::common::{self, backends};
use crate::differential::config;

/// The host's total order of each element type, and bits to compare results by.
trait Total: Item {
    fn total(a: &Self, b: &Self) -> Ordering;
    fn bits(self) -> u32;
}
impl Total for f32 {
    fn total(a: &f32, b: &f32) -> Ordering {
        a.total_cmp(b)
    }
    fn bits(self) -> u32 {
        self.to_bits()
    }
}
impl Total for i32 {
    fn total(a: &i32, b: &i32) -> Ordering {
        a.cmp(b)
    }
    fn bits(self) -> u32 {
        self as u32
    }
}
impl Total for u32 {
    fn total(a: &u32, b: &u32) -> Ordering {
        a.cmp(b)
    }
    fn bits(self) -> u32 {
        self
    }
}

/// The host reference: indices sorted by value (descending for the largest), ties by index,
/// the first `k`.
fn host<T: Total>(xs: &[T], k: usize, largest: bool) -> (Vec<u32>, Vec<u32>) {
    let mut order: Vec<usize> = (0..xs.len()).collect();
    let by = |a: &usize, b: &usize| {
        let by_value = T::total(&xs[*a], &xs[*b]);
        (if largest {
            by_value.reverse()
        } else {
            by_value
        })
        .then(a.cmp(b))
    };
    // The first k without sorting the rest (inputs past 2^24 included).
    if k > 0 && k < order.len() {
        order.select_nth_unstable_by(k - 1, by);
    }
    order.truncate(k);
    order.sort_by(by);
    (
        order.iter().map(|&i| xs[i].bits()).collect(),
        order.iter().map(|&i| i as u32).collect(),
    )
}

/// Both plain calls and both batch forms (in one batch, on one scratch) on `xs`, against the
/// host, on every backend.
fn check<T: Total>(xs: &[T], k: usize) {
    check_on(xs, k, true);
}

/// [`check`], on the checked CPU backend too when `checked`.
fn check_on<T: Total>(xs: &[T], k: usize, checked: bool) {
    let kk = k.min(xs.len());
    let large = host(xs, kk, true);
    let small = host(xs, kk, false);
    for (backend, dev) in crate::differential::backends() {
        if checked || !backend.contains("checked") {
            check_one(dev, xs, k, &large, &small);
        }
    }
}

/// [`check`] on one device, against the host's largest and smallest `(values, indices)`.
fn check_one<T: Total>(
    dev: &Device,
    xs: &[T],
    k: usize,
    (large_v, large_i): &(Vec<u32>, Vec<u32>),
    (small_v, small_i): &(Vec<u32>, Vec<u32>),
) {
    let n = xs.len();
    let x = dev.upload(xs).unwrap();
    let what = format!("{n} elements, k = {k} on {}", dev.name());
    let kk = k.min(n);

    let (v, i) = topk(dev, &x, k).unwrap();
    assert_eq!((v.len(), i.len()), (kk, kk), "{what}");
    let v: Vec<u32> = v.read().unwrap().into_iter().map(T::bits).collect();
    assert_eq!(&i.read().unwrap(), large_i, "topk indices, {what}");
    assert_eq!(&v, large_v, "topk values, {what}");
    let (v, i) = topk_smallest(dev, &x, k).unwrap();
    let v: Vec<u32> = v.read().unwrap().into_iter().map(T::bits).collect();
    assert_eq!(&i.read().unwrap(), small_i, "topk_smallest indices, {what}");
    assert_eq!(&v, small_v, "topk_smallest values, {what}");

    // The batch forms, twice on one scratch in one batch, into buffers longer than k whose
    // tails are left as they were.
    let mut top = TopK::new(dev, n, k).unwrap();
    assert_eq!(top.k(), kk);
    let mut lv = dev.upload(&vec![T::default(); kk + 2]).unwrap();
    let mut li = dev.upload(&vec![7u32; kk + 2]).unwrap();
    let mut sv = dev.upload(&vec![T::default(); kk + 2]).unwrap();
    let mut si = dev.upload(&vec![7u32; kk + 2]).unwrap();
    let mut batch = dev.batch();
    top.enqueue_largest(&mut batch, &x, &mut lv, &mut li)
        .unwrap();
    top.enqueue_smallest(&mut batch, &x, &mut sv, &mut si)
        .unwrap();
    batch.submit().unwrap();
    let li = li.read().unwrap();
    let si = si.read().unwrap();
    assert_eq!(li[..kk], large_i[..], "enqueue_largest, {what}");
    assert_eq!(si[..kk], small_i[..], "enqueue_smallest, {what}");
    assert_eq!(li[kk..], [7, 7], "{what}");
    let lv: Vec<u32> = lv.read().unwrap().into_iter().map(T::bits).collect();
    let sv: Vec<u32> = sv.read().unwrap().into_iter().map(T::bits).collect();
    assert_eq!(lv[..kk], large_v[..], "{what}");
    assert_eq!(sv[..kk], small_v[..], "{what}");
}

/// Lengths of every class: empty and tiny, small, around a few workgroups' worth, and many.
fn lengths() -> impl Strategy<Value = usize> {
    prop_oneof![0usize..4, 4usize..700, 4090usize..4100, 5000usize..70_000]
}

/// `k` of every class: 1, small, around the powers of two the sort pads to, the largest, and
/// past short inputs.
fn ks() -> impl Strategy<Value = usize> {
    prop_oneof![
        Just(1usize),
        1usize..40,
        60usize..70,
        500usize..520,
        Just(MAX_K)
    ]
}

/// `f32`s with many ties: a few small values, both zeros, both infinities, NaNs of both signs,
/// and any bits.
fn f32s() -> impl Strategy<Value = f32> {
    prop_oneof![
        6 => (-3i32..4).prop_map(|v| v as f32 * 0.5),
        1 => Just(-0.0f32),
        1 => Just(f32::NAN),
        1 => Just(-f32::NAN),
        1 => Just(f32::INFINITY),
        1 => Just(f32::NEG_INFINITY),
        3 => any::<f32>(),
    ]
}

proptest! {
    #![proptest_config(config(10))]

    #[test]
    fn f32_topk_matches_the_host(
        xs in lengths().prop_flat_map(|n| proptest::collection::vec(f32s(), n)),
        k in ks(),
    ) {
        check(&xs, k);
    }

    #[test]
    fn i32_topk_matches_the_host(
        xs in lengths().prop_flat_map(|n| {
            proptest::collection::vec(prop_oneof![-5i32..5, any::<i32>()], n)
        }),
        k in ks(),
    ) {
        check(&xs, k);
    }

    #[test]
    fn u32_topk_matches_the_host(
        xs in lengths().prop_flat_map(|n| {
            proptest::collection::vec(prop_oneof![0u32..6, any::<u32>()], n)
        }),
        k in ks(),
    ) {
        check(&xs, k);
    }
}

/// The edges: empty inputs (k clamped to 0), one element, k past the length, k = 1 and
/// k = 1024 on inputs that are all one value (every key ties, so the index decides).
#[test]
fn edges() {
    check::<f32>(&[], 5);
    check::<u32>(&[], 0);
    check(&[1.5f32], 1);
    check(&[-3i32], 1000);
    check(&[9u32, 9, 1], 3);
    check(&vec![0.0f32; 3000], 1);
    check(&vec![0.0f32; 3000], MAX_K);
    check(&vec![u32::MAX; 70_001], MAX_K);
    check(&vec![i32::MIN; 5000], 77);
}

/// Past 2^24 elements, random `f32`s in a narrow range (many ties) and `u32`s: k = 100 and
/// k = 1024, on the GPU and the plain CPU backend (the smaller cases run the checked one).
#[test]
fn topk_past_two_to_the_24() {
    let n = (1 << 24) + 12_345;
    let r = common::random_u32(7, n);
    let xs: Vec<f32> = r
        .iter()
        .map(|&v| (v % 100_003) as f32 / 8.0 - 5000.0)
        .collect();
    check_on(&xs, 100, false);
    let ys: Vec<u32> = r.iter().map(|&v| v >> 4).collect();
    check_on(&ys, MAX_K, false);
}

/// A `k` past the largest is refused, naming it.
#[backends]
fn k_past_the_largest_is_refused(dev: &Device) {
    super::refused(
        TopK::new(dev, 5000, MAX_K + 1),
        "top-k takes k up to 1024, not 1025",
    );
}

/// A scratch made for one length refuses another, naming its own.
#[backends]
fn a_scratch_serves_one_length(dev: &Device) {
    let x = dev.zeros::<u32>(11).unwrap();
    let (mut v, mut i) = (dev.zeros::<u32>(5).unwrap(), dev.zeros::<u32>(5).unwrap());
    let mut batch = dev.batch();
    let mut top = TopK::new(dev, 10, 5).unwrap();
    super::refused(
        top.enqueue_largest(&mut batch, &x, &mut v, &mut i),
        "the top-k's scratch was made for 10 elements, not 11",
    );
}
