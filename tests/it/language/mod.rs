//! What a kernel can say: Rust's meaning on the GPU, control flow, methods, generics,
//! constants, `#[cfg]` and the wider `std` surface.

mod cfg_variants;
mod consts;
mod erf;
pub(crate) mod generics;
mod inference;
mod libraries;
mod methods;
mod semantics;
mod std_methods;
