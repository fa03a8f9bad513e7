//! What only the CPU backend has: its engines (interpreter and JIT), checks, limits and the
//! fallback of `Device::new()`.

mod backend;
mod jit;
mod jit_helpers;
mod same_bits;
