//! The library's compaction (`sarek::algo::select`): selection by built-in predicates and by
//! flags, stable partition, unique and run-length encoding, of `f32`, `i32` and `u32`, against
//! plain Rust on random inputs of every size class (empty, one element, within a tile, around
//! the 2048-element tile, many tiles, past 2^24), on the test device (the GPU, or the CPU
//! backend under `SAREK_DEVICE=cpu`).

use proptest::prelude::*;
use sarek::algo::select::{
    partition_flagged, partition_if, run_length_encode, select_flagged, select_if, unique, Item,
    Pred, Select, TILE,
};
use sarek::{Buffer, Device};

use crate::common::{self, backends, cpu_only, gpu_only};
use crate::differential::config;

/// Values compared by their bits, so that a NaN equals itself and `-0.0` differs from `0.0`.
trait Bits: Item {
    fn bits(self) -> u32;
}
impl Bits for f32 {
    fn bits(self) -> u32 {
        self.to_bits()
    }
}
impl Bits for i32 {
    fn bits(self) -> u32 {
        self as u32
    }
}
impl Bits for u32 {
    fn bits(self) -> u32 {
        self
    }
}

fn bits<T: Bits>(v: &[T]) -> Vec<u32> {
    v.iter().map(|&e| e.bits()).collect()
}

/// The host's meaning of each predicate, written out independently of `Pred::test`.
fn host_keeps<T: Item>(pred: Pred<T>, v: T) -> bool {
    match pred {
        Pred::Gt(a) => v > a,
        Pred::Ge(a) => v >= a,
        Pred::Lt(a) => v < a,
        Pred::Le(a) => v <= a,
        Pred::Eq(a) => v == a,
        Pred::Ne(a) => v != a,
        Pred::NonZero => v != T::default(),
        Pred::InRange(lo, hi) => lo <= v && v < hi,
    }
}

/// `Vec::dedup`'s runs: each run's first value, start and length.
fn host_runs<T: Item>(xs: &[T]) -> (Vec<T>, Vec<u32>, Vec<u32>) {
    let (mut values, mut starts, mut lengths) = (Vec::new(), Vec::new(), Vec::<u32>::new());
    for (i, &v) in xs.iter().enumerate() {
        if i > 0 && xs[i - 1] == v {
            *lengths.last_mut().unwrap() += 1;
        } else {
            values.push(v);
            starts.push(i as u32);
            lengths.push(1);
        }
    }
    (values, starts, lengths)
}

/// Every form of every algorithm on `xs` with `pred` and `flags`, against the host.
fn check_all<T: Bits>(xs: &[T], pred: Pred<T>, flags: &[u32]) {
    for (_, dev) in crate::differential::backends() {
        let n = xs.len();
        let x = dev.upload(xs).unwrap();
        let f = dev.upload(flags).unwrap();
        let kept: Vec<T> = xs
            .iter()
            .copied()
            .filter(|&v| host_keeps(pred, v))
            .collect();
        let rejected: Vec<T> = xs
            .iter()
            .copied()
            .filter(|&v| !host_keeps(pred, v))
            .collect();
        let flagged: Vec<T> = (0..n).filter(|&i| flags[i] != 0).map(|i| xs[i]).collect();
        let unflagged: Vec<T> = (0..n).filter(|&i| flags[i] == 0).map(|i| xs[i]).collect();
        let (values, starts, lengths) = host_runs(xs);
        let what = format!("{n} elements, {pred:?}");

        // The plain calls.
        let got = select_if(dev, &x, pred).unwrap();
        assert_eq!(got.len(), kept.len(), "{what}");
        assert_eq!(bits(&got.read().unwrap()), bits(&kept), "select_if, {what}");
        let got = select_flagged(dev, &x, &f).unwrap().read().unwrap();
        assert_eq!(bits(&got), bits(&flagged), "select_flagged, {what}");
        let (parted, count) = partition_if(dev, &x, pred).unwrap();
        assert_eq!(count, kept.len(), "partition_if count, {what}");
        let want: Vec<T> = kept.iter().chain(&rejected).copied().collect();
        assert_eq!(
            bits(&parted.read().unwrap()),
            bits(&want),
            "partition_if, {what}"
        );
        let (parted, count) = partition_flagged(dev, &x, &f).unwrap();
        assert_eq!(count, flagged.len(), "partition_flagged count, {what}");
        let want: Vec<T> = flagged.iter().chain(&unflagged).copied().collect();
        assert_eq!(
            bits(&parted.read().unwrap()),
            bits(&want),
            "partition_flagged, {what}"
        );
        let got = unique(dev, &x).unwrap().read().unwrap();
        assert_eq!(bits(&got), bits(&values), "unique, {what}");
        let (got_values, got_lengths) = run_length_encode(dev, &x).unwrap();
        assert_eq!(
            bits(&got_values.read().unwrap()),
            bits(&values),
            "rle values, {what}"
        );
        assert_eq!(got_lengths.read().unwrap(), lengths, "rle lengths, {what}");

        // The batch forms, on one scratch reused across them, all in one batch each.
        let mut select = Select::new(dev, n).unwrap();
        let fill = |dev: &Device| dev.upload(&vec![xs.first().copied().unwrap_or_default(); n]);
        let mut out = fill(dev).unwrap();
        let mut batch = dev.batch();
        select.enqueue_if(&mut batch, &x, pred, &mut out).unwrap();
        batch.submit().unwrap();
        assert_eq!(
            select.count().read().unwrap(),
            [kept.len() as u32],
            "{what}"
        );
        let got = out.read().unwrap();
        assert_eq!(bits(&got[..kept.len()]), bits(&kept), "enqueue_if, {what}");
        // The rest of the output is left as it was.
        assert!(
            got[kept.len()..].iter().all(|v| v.bits() == xs[0].bits()),
            "{what}"
        );

        let (mut vals, mut st, mut lens) = (
            dev.zeros::<T>(n).unwrap(),
            dev.zeros::<u32>(n).unwrap(),
            dev.zeros::<u32>(n).unwrap(),
        );
        let mut parted = dev.zeros::<T>(n).unwrap();
        let mut batch = dev.batch();
        select
            .enqueue_partition_flagged(&mut batch, &x, &f, &mut parted)
            .unwrap();
        select
            .enqueue_run_length_encode(&mut batch, &x, &mut vals, &mut st, &mut lens)
            .unwrap();
        batch.submit().unwrap();
        let runs = values.len();
        assert_eq!(select.count().read().unwrap(), [runs as u32], "{what}");
        let want: Vec<T> = flagged.iter().chain(&unflagged).copied().collect();
        assert_eq!(bits(&parted.read().unwrap()), bits(&want), "{what}");
        assert_eq!(bits(&vals.read().unwrap()[..runs]), bits(&values), "{what}");
        assert_eq!(st.read().unwrap()[..runs], starts, "rle starts, {what}");
        assert_eq!(lens.read().unwrap()[..runs], lengths, "{what}");
    }
}

/// Lengths of every class: empty and tiny, within a tile, around one and a few tiles
/// (2048), and many tiles.
fn lengths() -> impl Strategy<Value = usize> {
    prop_oneof![
        0usize..4,
        4usize..700,
        TILE - 3..TILE + 3,
        3 * TILE - 2..3 * TILE + 2,
        5000usize..40_000,
    ]
}

/// `f32`s with long runs, both zeros, NaNs and infinities.
fn f32s() -> impl Strategy<Value = f32> + Clone {
    prop_oneof![
        6 => (-3i32..4).prop_map(|v| v as f32 * 0.5),
        1 => Just(-0.0f32),
        1 => Just(f32::NAN),
        1 => Just(f32::INFINITY),
        1 => any::<f32>(),
    ]
}

fn pred<T: Clone + std::fmt::Debug + 'static>(
    v: impl Strategy<Value = T> + Clone,
) -> impl Strategy<Value = Pred<T>> {
    prop_oneof![
        v.clone().prop_map(Pred::Gt),
        v.clone().prop_map(Pred::Ge),
        v.clone().prop_map(Pred::Lt),
        v.clone().prop_map(Pred::Le),
        v.clone().prop_map(Pred::Eq),
        v.clone().prop_map(Pred::Ne),
        Just(Pred::NonZero),
        (v.clone(), v).prop_map(|(a, b)| Pred::InRange(a, b)),
    ]
}

/// `n` elements drawn from `v` with runs: each element repeats the one before with
/// probability 1/2.
fn runs_of<T: Clone + std::fmt::Debug>(
    v: impl Strategy<Value = T>,
    n: usize,
) -> impl Strategy<Value = Vec<T>> {
    proptest::collection::vec((v, any::<bool>()), n).prop_map(|pairs| {
        let mut out: Vec<T> = Vec::with_capacity(pairs.len());
        for (v, repeat) in pairs {
            let e = match out.last() {
                Some(last) if repeat => last.clone(),
                _ => v,
            };
            out.push(e);
        }
        out
    })
}

fn flags(n: usize) -> impl Strategy<Value = Vec<u32>> {
    proptest::collection::vec(
        prop_oneof![3 => Just(0u32), 2 => Just(1u32), 1 => any::<u32>()],
        n,
    )
}

proptest! {
    #![proptest_config(config(10))]

    #[test]
    fn f32_selection_matches_the_host(
        (xs, fl) in lengths().prop_flat_map(|n| (runs_of(f32s(), n), flags(n))),
        p in pred(f32s()),
    ) {
        check_all(&xs, p, &fl);
    }

    #[test]
    fn i32_selection_matches_the_host(
        (xs, fl) in lengths().prop_flat_map(|n| {
            (runs_of(prop_oneof![-5i32..5, any::<i32>()], n), flags(n))
        }),
        p in pred(prop_oneof![-5i32..5, any::<i32>()]),
    ) {
        check_all(&xs, p, &fl);
    }

    #[test]
    fn u32_selection_matches_the_host(
        (xs, fl) in lengths().prop_flat_map(|n| {
            (runs_of(prop_oneof![0u32..6, any::<u32>()], n), flags(n))
        }),
        p in pred(prop_oneof![0u32..6, any::<u32>()]),
    ) {
        check_all(&xs, p, &fl);
    }
}

#[test]
fn empty_and_single_inputs() {
    check_all::<f32>(&[], Pred::Gt(0.0), &[]);
    check_all(&[1.0f32], Pred::Gt(0.0), &[0]);
    check_all(&[-1.0f32], Pred::Gt(0.0), &[5]);
    check_all(&[7u32], Pred::NonZero, &[1]);
    check_all(&[i32::MIN], Pred::Lt(0), &[0]);
}

/// Every element kept and none kept, across tiles, so each tile's offset is exact at the
/// extremes.
#[test]
fn all_and_nothing_kept() {
    let xs: Vec<i32> = (0..5 * TILE as i32 + 17).collect();
    let ones = vec![1u32; xs.len()];
    check_all(&xs, Pred::Ge(0), &ones);
    check_all(&xs, Pred::Lt(0), &vec![0; xs.len()]);
}

/// Past 2^24 elements (more than 4096 tiles, so pass 2 carries its total across chunks),
/// `x > 0` with about half kept, as `x[x > 0]`.
fn compaction_past_two_to_the_24(dev: &Device) {
    let n = (1 << 24) + 3 * TILE + 5;
    let xs: Vec<f32> = common::random_u32(5, n)
        .iter()
        .map(|&r| (r % 2001) as f32 - 1000.0)
        .collect();
    let x = dev.upload(&xs).unwrap();
    let kept: Vec<f32> = xs.iter().copied().filter(|&v| v > 0.0).collect();
    let got = select_if(dev, &x, Pred::Gt(0.0)).unwrap();
    assert_eq!(got.len(), kept.len());
    assert!(got.read().unwrap() == kept, "{n} elements");
    let (parted, count) = partition_if(dev, &x, Pred::Gt(0.0)).unwrap();
    assert_eq!(count, kept.len());
    let parted = parted.read().unwrap();
    assert!(parted[..count] == kept[..]);
    assert!(parted[count..]
        .iter()
        .copied()
        .eq(xs.iter().copied().filter(|&v| v <= 0.0)));
}

/// A scratch made for one length refuses another, naming its own.
#[backends]
fn a_scratch_serves_one_length(dev: &Device) {
    let x: Buffer<u32> = dev.zeros(11).unwrap();
    let mut out = dev.zeros::<u32>(11).unwrap();
    let mut batch = dev.batch();
    let mut select = Select::new(dev, 10).unwrap();
    super::refused(
        select.enqueue_if(&mut batch, &x, Pred::NonZero, &mut out),
        "the compaction's scratch was made for 10 elements, not 11",
    );
    let (x, mut short) = (dev.zeros::<u32>(10).unwrap(), dev.zeros::<u32>(9).unwrap());
    super::refused(
        select.enqueue_if(&mut batch, &x, Pred::NonZero, &mut short),
        "the output holds 9 elements, fewer than the input's 10",
    );
}

/// Past 2^24 on the GPU and the plain CPU backend (the smaller tests run the checked CPU
/// backend too).
mod compaction_past_two_to_the_24 {
    use super::*;

    #[gpu_only]
    fn gpu(dev: &Device) {
        super::compaction_past_two_to_the_24(dev);
    }

    #[cpu_only]
    fn cpu(dev: &Device) {
        super::compaction_past_two_to_the_24(dev);
    }
}

/// Whether `dev` has subgroup operations, which the library's subgroup forms need.
fn has_subgroups(dev: &Device) -> bool {
    dev.features().contains(sarek::wgpu::Features::SUBGROUP)
}

/// Both forms of pass 1, the tree in workgroup memory and the subgroup sum (which the
/// library's calls run where the device has subgroups), count each tile as the host does: a
/// partial last tile, runs of equal elements for `UNIQUE`, and flags. Without subgroups the
/// subgroup form is refused.
#[backends]
fn both_count_passes_count_each_tile(dev: &Device) {
    use sarek::algo::select::kernels;
    let n = 3 * TILE + 101;
    let xs: Vec<u32> = common::random_u32(9, n).iter().map(|r| r % 5).collect();
    let fl: Vec<u32> = common::random_u32(10, n).iter().map(|r| r % 3).collect();
    let (x, flags) = (dev.upload(&xs).unwrap(), dev.upload(&fl).unwrap());
    let tiles = n.div_ceil(TILE);
    let grid = sarek::Grid::groups(tiles);
    for (op, keeps) in [
        (
            kernels::GE,
            &(|i: usize| xs[i] >= 2) as &dyn Fn(usize) -> bool,
        ),
        (kernels::FLAGGED, &|i: usize| fl[i] != 0),
        (kernels::UNIQUE, &|i: usize| i == 0 || xs[i] != xs[i - 1]),
    ] {
        let want: Vec<u32> = (0..tiles)
            .map(|g| {
                (g * TILE..n.min(g * TILE + TILE))
                    .filter(|&i| keeps(i))
                    .count() as u32
            })
            .collect();
        let mut tree = dev.zeros::<u32>(tiles).unwrap();
        let mut sums = dev.zeros::<u32>(tiles).unwrap();
        kernels::select_count
            .launch::<u32>(dev, grid, &x, &flags, op, 2, 0, &mut tree)
            .unwrap();
        assert_eq!(tree.read().unwrap(), want, "tree, op {op}");
        let launched =
            kernels::select_count_sg.launch::<u32>(dev, grid, &x, &flags, op, 2, 0, &mut sums);
        if has_subgroups(dev) {
            launched.unwrap();
            assert_eq!(sums.read().unwrap(), want, "subgroups, op {op}");
        } else {
            // Where the library therefore runs the tree.
            assert!(matches!(launched, Err(sarek::Error::MissingFeature { .. })));
        }
    }
}

/// Both forms of pass 3, the scan in workgroup memory and the subgroup scan, partition a
/// tile set as the host does (kept elements in order with their indices, then the rejected
/// ones in order), across a partial last tile. Without subgroups the subgroup form is
/// refused.
#[backends]
fn both_scatter_passes_partition_as_the_host(dev: &Device) {
    use sarek::algo::select::kernels;
    let n = 3 * TILE + 101;
    let xs: Vec<u32> = common::random_u32(11, n).iter().map(|r| r % 5).collect();
    let x = dev.upload(&xs).unwrap();
    let flags = dev.zeros::<u32>(1).unwrap();
    let tiles = n.div_ceil(TILE);
    let grid = sarek::Grid::groups(tiles);
    let mut counts = dev.zeros::<u32>(tiles).unwrap();
    let mut offsets = dev.zeros::<u32>(tiles).unwrap();
    let mut total = dev.zeros::<u32>(1).unwrap();
    kernels::select_count
        .launch::<u32>(dev, grid, &x, &flags, kernels::GE, 2, 0, &mut counts)
        .unwrap();
    kernels::select_offsets
        .launch(
            dev,
            sarek::Grid::groups(1),
            &counts,
            &mut offsets,
            &mut total,
        )
        .unwrap();
    let keep = |v: &u32| *v >= 2;
    let mut want: Vec<u32> = xs.iter().copied().filter(keep).collect();
    let want_idx: Vec<u32> = (0..n as u32).filter(|&i| keep(&xs[i as usize])).collect();
    let kept = want.len();
    want.extend(xs.iter().copied().filter(|v| !keep(v)));
    for sg in [false, true] {
        let mut out = dev.zeros::<u32>(n).unwrap();
        let mut idx = dev.zeros::<u32>(n).unwrap();
        let (op, part, with_idx) = (kernels::GE, 1, 1);
        let args = (&x, &flags, op, 2u32, 0u32, part, with_idx, &offsets, &total);
        let launched = if sg {
            kernels::select_scatter_sg.launch::<u32>(
                dev, grid, args.0, args.1, args.2, args.3, args.4, args.5, args.6, args.7, args.8,
                &mut out, &mut idx,
            )
        } else {
            kernels::select_scatter.launch::<u32>(
                dev, grid, args.0, args.1, args.2, args.3, args.4, args.5, args.6, args.7, args.8,
                &mut out, &mut idx,
            )
        };
        if sg && !has_subgroups(dev) {
            // Where the library therefore runs the scan in workgroup memory.
            assert!(matches!(launched, Err(sarek::Error::MissingFeature { .. })));
            continue;
        }
        launched.unwrap();
        assert!(out.read().unwrap() == want, "subgroups: {sg}");
        assert!(
            idx.read().unwrap()[..kept] == want_idx[..],
            "subgroups: {sg}"
        );
    }
}
