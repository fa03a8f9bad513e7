//! The integration tests that need no process-wide state, in one test binary (as naga does):
//! one link of wgpu instead of one per file, and one pool of test threads for all of them.
//!
//! Tests that set up logging, dumping or device recovery for the whole process stay in test
//! binaries of their own (`tests/logging.rs`, `tests/dump.rs`, `tests/recovery.rs`), and so
//! does the trybuild suite (`tests/compile_fail.rs`).

#[path = "../common/mod.rs"]
mod common;

mod compiler;
mod cooperation;
mod cpu;
mod data;
mod differential;
mod extensions;
mod language;
mod runtime;
