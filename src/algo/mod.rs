//! Device-wide parallel algorithms written in Sarek: the calls users would otherwise take from
//! CUB, Thrust or PyTorch, each a plain host call that runs and waits, plus a form that records
//! its passes into a [`Batch`](crate::Batch) without waiting:
//!
//! - [`reduce`](mod@reduce): reduce, inclusive and exclusive scan over any associative operator
//!   (sum, min, max of `f32`, `i32`, `u32`, and your own element type and operator);
//! - [`scan`]: an inclusive scan (prefix sum) of `f32`s held as `Vec4`s, the fastest for sums;
//! - [`sort`](mod@sort): a stable LSD radix sort of `u32`, `i32`, `f32` and `f16` keys, alone or with
//!   values, ascending or descending ([`sort::sort`], [`sort::sort_pairs`], [`sort::Sorter`]);
//! - [`select`]: compaction by a predicate or flags, stable partition, unique and run-length
//!   encoding;
//! - [`histogram`]: even bins over a range of `f32`s, and integer keys;
//! - [`matmul`](mod@matmul): matrix products `C = alpha · A · B + beta · C (+ bias)` of `f32`
//!   and `f16`, any shape, row- or column-major, batched, on cooperative matrices where the
//!   device has them ([`matmul::matmul`], [`matmul::Matmul`]);
//! - [`rows`]: softmax, log-softmax, layernorm (forward and backward) and cross-entropy over
//!   the rows of a matrix;
//! - [`topk`]: the k largest or smallest elements with their indices;
//! - [`attention`](mod@attention): scaled dot-product attention, forward, of `f16` heads, causal
//!   or not, fused (FlashAttention's loop, on cooperative matrices where the device has them).
//!
//! Every algorithm is portable (the matrix product uses cooperative matrices only where the
//! device offers them): no workgroup waits for another (WebGPU promises no forward
//! progress between workgroups), no extension is required, and the CPU backend runs the same
//! kernels with the same results.

pub mod attention;
pub mod histogram;
pub mod matmul;
pub mod reduce;
pub mod rows;
pub mod scan;
pub mod select;
pub mod sort;
pub mod topk;

pub use attention::attention;
pub use matmul::matmul;

/// The error of a call of the library whose arguments do not fit together (lengths, shapes,
/// ranges): every call checks them before recording any work and returns this, never panics.
fn bad_arguments(call: &str, message: String) -> crate::Error {
    crate::Error::BadArguments {
        kernel: call.into(),
        message,
    }
}
pub use sort::{sort, sort_descending, sort_pairs, sort_pairs_descending};

/// Whether `dev` has subgroup operations (`SUBGROUP`), which the library's faster forms of
/// several passes use.
pub(crate) fn subgroups(dev: &crate::Device) -> bool {
    dev.features().contains(crate::wgpu::Features::SUBGROUP)
}

/// A view of the first `len` elements of `x`'s memory as elements of `E`, on a GPU; `None` on
/// the CPU backend, which has no view of a buffer as another element type, or where wgpu
/// refuses the range.
pub(crate) fn view<E: crate::Element, T: crate::Element>(
    x: &crate::Buffer<T>,
    len: usize,
) -> Option<crate::Buffer<E>> {
    if x.device().is_cpu() {
        return None;
    }
    crate::Buffer::<E>::from_wgpu(x.device(), x.wgpu_buffer().clone(), x.offset(), len).ok()
}
