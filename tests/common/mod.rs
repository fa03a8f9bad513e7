//! Shared set-up of the GPU tests.

#![allow(dead_code)]

pub mod polyfills;

use sarek::Device;

/// `#[backends] fn name(dev: Device)` runs a test on the GPU, the CPU backend and the checked
/// CPU backend (`name::gpu`, `name::cpu`, `name::cpu_checked`); `#[gpu_only]` and
/// `#[cpu_only]` mark a test of one backend.
#[allow(unused_imports)]
pub use sarek_test_macros::{backends, cpu_only, gpu_only};

/// The CPU backend of a test (`name::cpu` of `#[backends]`, `#[cpu_only]`), configured by the
/// environment as `Device::cpu()` is.
pub fn cpu_device() -> Device {
    Device::cpu()
}

/// The CPU backend with its debugging checks on (`name::cpu_checked` of `#[backends]`): every
/// index and integer division checked, a fault stops the launch. Tests of what faults give
/// unchecked turn them off on the device they are given.
pub fn cpu_checked_device() -> Device {
    let dev = Device::cpu();
    dev.set_checks(true);
    dev
}

/// The device of a test binary that runs once (`tests/dump.rs`): `SAREK_DEVICE=cpu` runs it on
/// the CPU backend; otherwise the GPU, and without one the CPU backend (said on stderr), unless
/// `SAREK_REQUIRE_GPU=1` (set by CI), where a missing adapter fails the test. Tests of
/// `tests/it` take their device from `#[backends]` instead.
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

/// The GPU of a test (`name::gpu` of `#[backends]`, `#[gpu_only]`): skipped with a message
/// without a GPU or under `SAREK_DEVICE=cpu`, and a failure without a GPU when
/// `SAREK_REQUIRE_GPU=1`.
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

/// The result of the first launch of an `f16` kernel on `dev`: `None` on a GPU without
/// `SHADER_F16` (wgpu's GL backend), where the launch must be refused with
/// `Error::MissingFeature` naming it (checked here), and the test stops; else its value.
pub fn unless_no_f16<T: std::fmt::Debug>(dev: &Device, launched: sarek::Result<T>) -> Option<T> {
    if !dev.is_cpu() && !dev.features().contains(sarek::wgpu::Features::SHADER_F16) {
        match launched {
            Err(sarek::Error::MissingFeature {
                feature: sarek::abi::Feature::ShaderF16,
                ..
            }) => return None,
            other => panic!(
                "{}: expected MissingFeature(ShaderF16), got {other:?}",
                dev.name()
            ),
        }
    }
    Some(launched.unwrap())
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
