//! The semantic rules of README.md ("Rust's meaning on the GPU"), one kernel each, run on
//! every backend and, where Rust defines the result, as the kernel's plain-Rust body on the
//! host: integer wrapping and division, shifts, casts, float remainders and methods, ranges,
//! constants, and the documented results where Rust would panic.

use super::*;

mod conversions;
mod floats;
mod generics;
mod integers;
mod ranges;

/// Output `k` of a kernel that writes `names.len()` outputs per element: the element and the
/// output's name.
pub(crate) fn nth(names: &[&'static str], k: usize) -> (usize, &'static str) {
    (k / names.len(), names[k % names.len()])
}

/// Arguments of the polyfills: tests/it/language/semantics.rs's domain (normal values of magnitude
/// 1e-30 to 1e30, kept away from subnormal results that a device may flush), edge values
/// (NaN, infinities and zeros included: the polyfills give Rust's result there too), and
/// the domains of `acosh` and `atanh`. No subnormal arguments: the device's own `log2` and
/// `pow` (under `log2`, `log10`, `cbrt`) are not accurate there.
pub(crate) fn polyfill_args() -> impl Strategy<Value = f32> {
    prop_oneof![
        4 => any::<u32>().prop_map(f32::from_bits).prop_filter("normal, 1e-30 to 1e30", |v| {
            v.is_finite() && v.abs() > 1e-30 && v.abs() < 1e30
        }),
        2 => -10.0f32..10.0,
        1 => 1.0f32..20.0,
        1 => -1.0f32..1.0,
        1 => prop::sample::select(vec![
            0.0f32, -0.0, 1.0, -1.0, 0.5, -0.5, 1e-7, -1e-7, 2.0, 3.0, 10.0, 1000.0, 1e10,
            -1e10, 3.4e38, 0.999, -0.999, 1.0001, -7.25, f32::NAN, f32::INFINITY,
            f32::NEG_INFINITY, f32::MAX, f32::MIN, f32::MIN_POSITIVE,
        ]),
    ]
}
