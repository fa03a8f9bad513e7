//! What needs more than WebGPU's core: `f16`, `i64` and `u64`, subgroups, cooperative matrices, float atomics,
//! device limits, and the `unsafe` opt-in to experimental features.

mod coop_matrix;
mod coop_matrix_helpers;
mod device_limits;
mod f16;
mod f16_vectors;
mod float_atomics;
mod int64;
mod safety;
mod subgroup_helpers;
pub(crate) mod subgroups;
