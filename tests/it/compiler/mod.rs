//! The compiler's output and passes: golden WGSL, coarsening, vectorising, unrolling and the
//! in-bounds proof.

mod coarsen;
mod golden;
mod in_bounds;
mod unroll;
mod vectorise;
