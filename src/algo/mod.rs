//! Device-wide parallel algorithms written in Sarek: the calls users would otherwise take from
//! CUB, Thrust or PyTorch (compaction, partition, unique and run-length encoding, histograms,
//! ...), each a plain host call that runs and waits, plus a form that records its passes into
//! a [`Batch`](crate::Batch) without waiting. Every algorithm is portable: no workgroup waits
//! for another (WebGPU promises no forward progress between workgroups), no extension is
//! required, and the CPU backend runs the same kernels with the same results.

pub mod histogram;
pub mod select;
pub mod topk;
