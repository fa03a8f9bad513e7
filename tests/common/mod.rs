//! Shared set-up of the GPU tests.

#![allow(dead_code)]

use sarek::Device;

/// The test device. Without an adapter the test is skipped with a message, unless
/// `SAREK_REQUIRE_GPU=1` (set by CI), where a missing adapter fails the test.
pub fn device() -> Option<Device> {
    match Device::gpu() {
        Ok(dev) => Some(dev),
        Err(e) if std::env::var("SAREK_REQUIRE_GPU").as_deref() == Ok("1") => {
            panic!("SAREK_REQUIRE_GPU=1 but no GPU device: {e}")
        }
        Err(e) => {
            eprintln!("skipping GPU test: {e} (set SAREK_REQUIRE_GPU=1 to make this a failure)");
            None
        }
    }
}

/// A small deterministic pseudo-random sequence (xorshift), for test inputs.
pub fn random_u32(seed: u32, n: usize) -> Vec<u32> {
    let mut s = seed.max(1);
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            s
        })
        .collect()
}

/// Distance in units in the last place (0 for equal values, both NaN, or ±0; `u32::MAX`
/// when only one side is NaN or infinite).
pub fn ulps(a: f32, b: f32) -> u32 {
    if a.is_nan() && b.is_nan() || a == b {
        return 0;
    }
    if a.is_nan() || b.is_nan() || a.is_infinite() || b.is_infinite() {
        return u32::MAX;
    }
    let key = |v: f32| {
        let bits = v.to_bits() as i32;
        if bits < 0 {
            i32::MIN - bits
        } else {
            bits
        }
    };
    key(a).abs_diff(key(b))
}
