//! Data in kernels and between host and device: structs, enums, arrays, bytes and vectors.

mod bytes;
mod types;
mod vectors;
