//! The runtime: launches, submission and batches, pipeline caches, configuration, grids,
//! preparation, tiered compilation, several devices, the trace file, and every call at its
//! extremes.

mod applications;
mod config;
mod debugging;
mod extremes;
mod grid;
mod launch;
mod multi;
mod pipeline_cache;
mod prepare;
mod submission;
pub(crate) mod tiered;
mod trace;
