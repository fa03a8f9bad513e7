// Each chapter is an empty module documented from a markdown file beside this one, so that
// docs.rs renders the guide and every Rust example in it runs as a doc test.
#![doc = include_str!("index.md")]

#[doc = include_str!("kernels.md")]
pub mod kernels {}

#[doc = include_str!("data.md")]
pub mod data {}

#[doc = include_str!("generics.md")]
pub mod generics {}

#[doc = include_str!("kernel_libraries.md")]
pub mod kernel_libraries {}

#[doc = include_str!("cooperation.md")]
pub mod cooperation {}

#[doc = include_str!("extensions.md")]
pub mod extensions {}

#[doc = include_str!("library.md")]
pub mod library {}

#[doc = include_str!("performance.md")]
pub mod performance {}

#[doc = include_str!("semantics.md")]
pub mod semantics {}

#[doc = include_str!("runtime.md")]
pub mod runtime {}

#[doc = include_str!("devices.md")]
pub mod devices {}

#[doc = include_str!("cpu.md")]
pub mod cpu {}

#[doc = include_str!("debugging.md")]
pub mod debugging {}

#[doc = include_str!("porting_cuda.md")]
pub mod porting_cuda {}
