//! The integration tests that need no process-wide state, in one test binary (as naga does):
//! one link of wgpu instead of one per file, and one pool of test threads for all of them.
//!
//! Tests that set up logging, dumping or device recovery for the whole process stay in test
//! binaries of their own (`tests/logging.rs`, `tests/dump.rs`, `tests/recovery.rs`), and so
//! does the trybuild suite (`tests/compile_fail.rs`).
//!
//! The tests are grouped by topic, one folder each. A test meant for every backend is written
//! once as `#[backends] fn name(dev: Device)` and runs as `name::gpu`, `name::cpu` and
//! `name::cpu_checked` (the CPU backend with its checks on); a test of one backend says so with
//! `#[gpu_only]` or `#[cpu_only]` (`tests/common/mod.rs`). The differential tests
//! (`differential.rs`) compare the backends with each other inside one test.

#[path = "../common/mod.rs"]
mod common;

mod algo;
mod compiler;
mod cooperation;
mod cpu;
mod data;
mod differential;
mod extensions;
mod language;
mod runtime;
