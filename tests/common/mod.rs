//! Shared set-up of the GPU tests.

#![allow(dead_code)]

pub mod polyfills;

use sarek::Device;

/// The test device: `SAREK_DEVICE=cpu` runs the tests on the CPU backend; otherwise the GPU,
/// and without one the CPU backend (said on stderr), unless `SAREK_REQUIRE_GPU=1` (set by CI),
/// where a missing adapter fails the test.
pub fn device() -> Option<Device> {
    if std::env::var("SAREK_DEVICE").as_deref() == Ok("cpu") {
        return Some(Device::cpu());
    }
    match Device::gpu() {
        Ok(dev) => Some(dev),
        Err(e) if sarek_codegen::toggle::enabled("SAREK_REQUIRE_GPU", false) => {
            panic!("SAREK_REQUIRE_GPU=1 but no GPU device: {e}")
        }
        Err(e) => {
            eprintln!("no GPU device ({e}): this test runs on the CPU backend");
            Some(Device::cpu())
        }
    }
}

/// The device of a test of wgpu itself (interop with the user's wgpu objects, profiling,
/// device loss), which the CPU backend cannot stand in for: skipped with a message without a
/// GPU or under `SAREK_DEVICE=cpu`, and a failure without a GPU when `SAREK_REQUIRE_GPU=1`.
pub fn gpu_device() -> Option<Device> {
    if std::env::var("SAREK_DEVICE").as_deref() == Ok("cpu") {
        eprintln!("skipping a wgpu test: SAREK_DEVICE=cpu");
        return None;
    }
    match Device::gpu() {
        Ok(dev) => Some(dev),
        Err(e) if sarek_codegen::toggle::enabled("SAREK_REQUIRE_GPU", false) => {
            panic!("SAREK_REQUIRE_GPU=1 but no GPU device: {e}")
        }
        Err(e) => {
            eprintln!("skipping a wgpu test: {e} (set SAREK_REQUIRE_GPU=1 to make this a failure)");
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
