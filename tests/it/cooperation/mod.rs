//! Threads of a workgroup working together: workgroup memory, barriers, atomics, helpers
//! that cooperate, uniform loads and the library scan.

pub(crate) mod helpers;
mod scan;
mod shared_len;
mod uniform_load;
mod workgroups;
