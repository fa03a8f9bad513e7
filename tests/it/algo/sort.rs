//! The library radix sort (`sarek::algo::sort`) against the host's stable sort: keys alone and
//! with values, ascending and descending, `u32`, `i32`, `f32` and `f16` (in `total_cmp`'s
//! order, compared bit for bit), at every size around a tile and past 2^24, on the GPU and the CPU
//! backend.

use proptest::collection::vec;
use proptest::prelude::*;
use sarek::algo::sort::{Order, SortKey, Sorter, TILE};
use sarek::{algo, f16, Device};

use crate::common::{backends, cpu_only, gpu_only, random_u32};

/// The host's stable sort of `(key, index)` by `cmp` (reversed for descending), with the
/// indices that say where each key came from.
fn host<K: Copy>(
    keys: &[K],
    order: Order,
    cmp: impl Fn(&K, &K) -> std::cmp::Ordering,
) -> (Vec<K>, Vec<u32>) {
    let mut pairs: Vec<(K, u32)> = keys.iter().copied().zip(0u32..).collect();
    match order {
        Order::Ascending => pairs.sort_by(|a, b| cmp(&a.0, &b.0)),
        Order::Descending => pairs.sort_by(|a, b| cmp(&b.0, &a.0)),
    }
    pairs.into_iter().unzip()
}

/// Sorts `keys` on the device (with their indices as values when `pairs`) and returns the
/// keys and values it gives back.
fn device_sort<K: SortKey>(
    dev: &Device,
    keys: &[K],
    order: Order,
    pairs: bool,
) -> (Vec<K>, Vec<u32>) {
    let mut k = dev.upload(keys).unwrap();
    let mut v = dev
        .upload(&(0..keys.len() as u32).collect::<Vec<_>>())
        .unwrap();
    let mut sorter = Sorter::<K>::new(dev, keys.len()).unwrap().order(order);
    if pairs {
        sorter.run_pairs(&mut k, &mut v).unwrap();
    } else {
        sorter.run(&mut k).unwrap();
    }
    (k.read().unwrap(), v.read().unwrap())
}

/// Checks the device's sort of `keys` against the host's, keys as bits (`bits`), both orders,
/// alone and with values.
fn check<K: SortKey + std::fmt::Debug>(
    keys: &[K],
    bits: impl Fn(&K) -> u32 + Copy,
    cmp: impl Fn(&K, &K) -> std::cmp::Ordering + Copy,
) -> Result<(), TestCaseError> {
    for ((backend, dev), order) in crate::differential::backends()
        .iter()
        .flat_map(|b| [(b, Order::Ascending), (b, Order::Descending)])
    {
        let (want_keys, want_index) = host(keys, order, cmp);
        let want_bits: Vec<u32> = want_keys.iter().map(bits).collect();
        let (got, _) = device_sort(dev, keys, order, false);
        let got_bits: Vec<u32> = got.iter().map(bits).collect();
        prop_assert_eq!(
            &got_bits,
            &want_bits,
            "keys alone on {}, {:?}, {} keys",
            backend,
            order,
            keys.len()
        );
        let (got, index) = device_sort(dev, keys, order, true);
        let got_bits: Vec<u32> = got.iter().map(bits).collect();
        prop_assert_eq!(
            &got_bits,
            &want_bits,
            "pairs on {}, {:?}, {} keys",
            backend,
            order,
            keys.len()
        );
        prop_assert_eq!(
            &index,
            &want_index,
            "values on {}, {:?}, {} keys",
            backend,
            order,
            keys.len()
        );
    }
    Ok(())
}

/// Floats with every special value mixed in: both zeros, both infinities, NaNs of both signs
/// and several payloads, subnormals, and random bits.
fn floats() -> impl Strategy<Value = f32> {
    prop_oneof![
        Just(0.0f32),
        Just(-0.0f32),
        Just(f32::INFINITY),
        Just(f32::NEG_INFINITY),
        Just(f32::from_bits(0x7fc0_0000)),
        Just(f32::from_bits(0xffc0_0000)),
        Just(f32::from_bits(0x7f80_0001)),
        Just(f32::from_bits(0xff80_0001)),
        Just(f32::from_bits(1)),
        Just(f32::from_bits(0x8000_0001)),
        (-4i32..4).prop_map(|v| v as f32),
        any::<u32>().prop_map(f32::from_bits),
    ]
}

/// Lengths around the tile: empty, one key, part of a tile, a tile and one key either side,
/// several tiles with a partial last one.
fn lengths() -> impl Strategy<Value = usize> {
    prop_oneof![
        Just(0usize),
        Just(1),
        2usize..300,
        Just(TILE - 1),
        Just(TILE),
        Just(TILE + 1),
        (2 * TILE..6 * TILE),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10, ..ProptestConfig::default() })]

    /// `u32` keys, from a small range (many equal keys, which stability orders) or any value.
    #[test]
    fn u32_keys_match_a_stable_host_sort(
        (n, small) in (lengths(), any::<bool>()),
        seed in 1u32..u32::MAX,
    ) {
        let keys: Vec<u32> = random_u32(seed, n)
            .into_iter()
            .map(|v| if small { v % 7 } else { v })
            .collect();
        check(&keys, |k| *k, |a, b| a.cmp(b))?;
    }

    /// `i32` keys, both signs and the extremes.
    #[test]
    fn i32_keys_match_a_stable_host_sort(
        keys in lengths().prop_flat_map(|n| vec(prop_oneof![
            Just(i32::MIN), Just(i32::MAX), Just(-1), Just(0), -50i32..50, any::<i32>()
        ], n)),
    ) {
        check(&keys, |k| *k as u32, |a, b| a.cmp(b))?;
    }

    /// `f32` keys in `total_cmp`'s order, NaNs and signed zeros included, bit for bit.
    #[test]
    fn f32_keys_match_total_order(keys in lengths().prop_flat_map(|n| vec(floats(), n))) {
        check(&keys, |k| k.to_bits(), f32::total_cmp)?;
    }

    /// `f16` keys (any bits: NaNs of both signs and every payload, infinities, subnormals,
    /// both zeros, or few distinct values) in `total_cmp`'s order, bit for bit, odd lengths
    /// included.
    #[test]
    fn f16_keys_match_total_order(
        keys in lengths().prop_flat_map(|n| vec(prop_oneof![
            any::<u16>(),
            (0u16..6).prop_map(|v| [0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e01, 0x3c00][v as usize]),
        ], n)),
    ) {
        let keys: Vec<f16> = keys.into_iter().map(f16::from_bits).collect();
        check(&keys, |k| u32::from(k.to_bits()), f16::total_cmp)?;
    }
}

/// The free functions: ascending and descending, keys and pairs, with `f32` values moved as
/// bits.
#[backends]
fn the_plain_calls_sort_in_place(dev: &Device) {
    let keys: Vec<i32> = random_u32(3, 5000)
        .iter()
        .map(|&v| (v % 100) as i32 - 50)
        .collect();
    let values: Vec<f32> = (0..5000).map(|i| i as f32 * 0.5).collect();
    let mut k = dev.upload(&keys).unwrap();
    algo::sort(dev, &mut k).unwrap();
    let mut want = keys.clone();
    want.sort();
    assert_eq!(k.read().unwrap(), want);
    algo::sort_descending(dev, &mut k).unwrap();
    want.reverse();
    assert_eq!(k.read().unwrap(), want);

    let mut k = dev.upload(&keys).unwrap();
    let mut v = dev.upload(&values).unwrap();
    algo::sort_pairs_descending(dev, &mut k, &mut v).unwrap();
    let mut pairs: Vec<(i32, f32)> = keys.iter().copied().zip(values.iter().copied()).collect();
    pairs.sort_by_key(|p| std::cmp::Reverse(p.0));
    assert_eq!(
        k.read().unwrap(),
        pairs.iter().map(|p| p.0).collect::<Vec<_>>()
    );
    assert_eq!(
        v.read().unwrap(),
        pairs.iter().map(|p| p.1).collect::<Vec<_>>()
    );

    let mut k = dev.upload(&keys).unwrap();
    let mut v = dev.upload(&values).unwrap();
    algo::sort_pairs(dev, &mut k, &mut v).unwrap();
    pairs.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
    assert_eq!(
        v.read().unwrap(),
        pairs.iter().map(|p| p.1).collect::<Vec<_>>()
    );
}

/// One sorter, several sorts recorded into one batch (keys alone, then pairs), and lengths it
/// was not made for refused.
#[backends]
fn a_sorter_records_into_a_batch_and_is_reused(dev: &Device) {
    let n = 3 * TILE + 77;
    let a = random_u32(21, n);
    let b = random_u32(22, n);
    let mut sorter = Sorter::<u32>::new(dev, n).unwrap();
    let mut ka = dev.upload(&a).unwrap();
    let mut kb = dev.upload(&b).unwrap();
    let mut vb = dev.upload(&(0..n as u32).collect::<Vec<_>>()).unwrap();
    let mut batch = dev.batch();
    sorter.record(&mut batch, &mut ka).unwrap();
    sorter.record_pairs(&mut batch, &mut kb, &mut vb).unwrap();
    batch.submit().unwrap().wait().unwrap();
    let mut want_a = a.clone();
    want_a.sort();
    assert_eq!(ka.read().unwrap(), want_a);
    let (want_b, want_index) = host(&b, Order::Ascending, |x, y| x.cmp(y));
    assert_eq!(kb.read().unwrap(), want_b);
    assert_eq!(vb.read().unwrap(), want_index);

    let mut batch = dev.batch();
    let mut short = dev.zeros::<u32>(n - 1).unwrap();
    assert!(sorter.record(&mut batch, &mut short).is_err());
    let mut wide = dev.zeros::<[u32; 2]>(n).unwrap();
    assert!(sorter.record_pairs(&mut batch, &mut ka, &mut wide).is_err());
}

/// `f16` keys recorded into a batch on a GPU (the CPU backend refuses to record them, and
/// sorts them in `Sorter::run`).
#[backends]
fn f16_keys_record_into_a_batch(dev: &Device) {
    let keys: Vec<f16> = random_u32(8, 5001)
        .iter()
        .map(|&v| f16::from_bits(v as u16))
        .collect();
    let mut k = dev.upload(&keys).unwrap();
    let mut v = dev.upload(&(0..5001u32).collect::<Vec<_>>()).unwrap();
    let mut sorter = Sorter::<f16>::new(dev, keys.len())
        .unwrap()
        .order(Order::Descending);
    let mut batch = dev.batch();
    let recorded = sorter.record_pairs(&mut batch, &mut k, &mut v);
    if dev.is_cpu() {
        assert!(matches!(recorded, Err(sarek::Error::NotOnCpu(_))));
        sorter.run_pairs(&mut k, &mut v).unwrap();
    } else {
        recorded.unwrap();
        batch.submit().unwrap();
    }
    let (want_keys, want_index) = host(&keys, Order::Descending, f16::total_cmp);
    let bits = |ks: &[f16]| ks.iter().map(|k| k.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&k.read().unwrap()), bits(&want_keys));
    assert_eq!(v.read().unwrap(), want_index);
}

/// Past 2^24 keys (where a float count would no longer be exact), pairs of `u32`s.
fn pairs_past_two_to_the_24_match_the_host(dev: &Device) {
    let n = (1 << 24) + 3;
    let keys = random_u32(5, n);
    let mut k = dev.upload(&keys).unwrap();
    let mut v = dev.upload(&(0..n as u32).collect::<Vec<_>>()).unwrap();
    algo::sort_pairs(dev, &mut k, &mut v).unwrap();
    let (want_keys, want_index) = host(&keys, Order::Ascending, |a, b| a.cmp(b));
    assert!(k.read().unwrap() == want_keys, "keys differ");
    assert!(v.read().unwrap() == want_index, "values differ");
}

/// Past 2^24 on the GPU and the plain CPU backend (the smaller tests run the checked CPU
/// backend too).
mod pairs_past_two_to_the_24_match_the_host {
    use super::*;

    #[gpu_only]
    fn gpu(dev: &Device) {
        super::pairs_past_two_to_the_24_match_the_host(dev);
    }

    #[cpu_only]
    fn cpu(dev: &Device) {
        super::pairs_past_two_to_the_24_match_the_host(dev);
    }
}
