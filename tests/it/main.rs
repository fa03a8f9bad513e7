//! The integration tests that need no process-wide state, in one test binary (as naga does):
//! one link of wgpu instead of one per file, and one pool of test threads for all of them.
//!
//! Tests that set up logging, dumping or device recovery for the whole process stay in test
//! binaries of their own (`tests/logging.rs`, `tests/dump.rs`, `tests/recovery.rs`), and so
//! does the trybuild suite (`tests/compile_fail.rs`).

#[path = "../common/mod.rs"]
mod common;

mod algo_histogram;
mod algo_select;
mod algo_topk;
mod bytes;
mod cfg_variants;
mod coarsen;
mod config;
mod consts;
mod coop_helpers;
mod coop_matrix;
mod cooperating_helpers;
mod cooperation;
mod cpu;
mod cpu_jit;
mod cpu_jit_helpers;
mod data;
mod device_limits;
mod differential;
mod extremes;
mod float_atomics;
mod generics;
mod golden;
mod gpu;
mod grid;
mod half;
mod half_vectors;
mod helper_collectives;
mod in_bounds;
mod inference;
mod methods;
mod multi;
mod pipeline_cache;
mod prepare;
mod runtime;
mod safety;
mod same_bits;
mod scan;
mod semantics;
mod std_methods;
mod subgroups;
mod submission;
mod tiered;
mod uniform_load;
mod unroll;
mod vectorise;
mod vectors;
