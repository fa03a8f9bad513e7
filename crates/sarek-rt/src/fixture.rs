//! Hand-written kernels for the runtime's doc examples, shaped like the output of
//! `#[sarek::kernel]` (which names the `sarek` crate, so this crate cannot use the macro
//! itself). Hidden: a fixture, not an API.

#![allow(non_camel_case_types)]

use std::borrow::Cow::Borrowed as B;

use sarek_ir::abi::{Abi, Access, BufferBinding, FieldSource, Uniform, UniformField, ENTRY_POINT};

use crate::raw::{self, Arg, KernelSource};
use crate::{Batch, Buffer, Device, Grid, Launch, Result};

/// `#[sarek::kernel] fn add_one(x: &mut [u32])`: adds 1 to each element of `x`.
#[derive(Clone, Copy, Debug, Default)]
pub struct add_one;

impl add_one {
    /// The kernel's WGSL, ABI and IR.
    pub const SOURCE: &'static KernelSource = &ADD_ONE;

    /// Launches the kernel over `grid`.
    pub fn launch(&self, device: &Device, grid: Grid, x: &mut Buffer<u32>) -> Result<Launch> {
        raw::launch(device, Self::SOURCE, grid, &[Arg::write(x)])
    }

    /// Adds a launch of the kernel to `batch`.
    pub fn enqueue(&self, batch: &mut Batch, grid: Grid, x: &mut Buffer<u32>) -> Result<()> {
        raw::enqueue(batch, Self::SOURCE, grid, &[Arg::write(x)])
    }

    /// Records a launch of the kernel into `encoder`.
    pub fn record(
        &self,
        device: &Device,
        encoder: &mut wgpu::CommandEncoder,
        grid: Grid,
        x: &mut Buffer<u32>,
    ) -> Result<()> {
        raw::record(device, Self::SOURCE, encoder, grid, &[Arg::write(x)])
    }
}

/// `#[sarek::kernel] fn count(hits: &[AtomicU32])`: adds 1 to `hits[0]` in every thread.
#[derive(Clone, Copy, Debug, Default)]
pub struct count;

impl count {
    /// The kernel's WGSL, ABI and IR.
    pub const SOURCE: &'static KernelSource = &COUNT;

    /// Launches the kernel over `grid`.
    pub fn launch(&self, device: &Device, grid: Grid, hits: &Buffer<u32>) -> Result<Launch> {
        raw::launch(device, Self::SOURCE, grid, &[Arg::atomic(hits)])
    }
}

// SAFETY: `ADD_ONE_IR` is the IR `#[sarek::kernel]` generates for this kernel.
static ADD_ONE: KernelSource = unsafe {
    KernelSource::new(
        "struct P { grid: vec3<u32>, len: u32 }
        @group(0) @binding(0) var<storage, read_write> x: array<u32>;
        @group(0) @binding(1) var<uniform> p: P;
        @compute @workgroup_size(64) fn sarek_main(@builtin(global_invocation_id) i: vec3<u32>) {
            if i.x < p.len { x[i.x] += 1u; }
        }",
        Abi {
            kernel: B("add_one"),
            entry_point: B(ENTRY_POINT),
            workgroup_size: [64, 1, 1],
            buffers: B(&[BufferBinding {
                binding: 0,
                param: 0,
                name: B("x"),
                elem: B("u32"),
                stride: 4,
                access: Access::ReadWrite,
            }]),
            uniform: Uniform {
                binding: 1,
                size: 16,
                fields: B(&[
                    UniformField {
                        name: B("sarek_grid"),
                        offset: 0,
                        source: FieldSource::Grid,
                    },
                    UniformField {
                        name: B("sarek_len0"),
                        offset: 12,
                        source: FieldSource::Length { param: 0 },
                    },
                ]),
            },
            workgroup_memory: 0,
            launch_sized: B(&[]),
            coarsened: false,
            vectorised: false,
            features: B(&[]),
            limits: sarek_ir::abi::Limits::Portable,
            debug: false,
        },
        concat!(file!(), ":", line!()),
    )
    // The IR the CPU backend runs, as `#[sarek::kernel]` would embed it.
    .with_ir(ADD_ONE_IR, &[])
};

// SAFETY: `COUNT_IR` is the IR `#[sarek::kernel]` generates for this kernel.
static COUNT: KernelSource = unsafe {
    KernelSource::new(
        "struct P { grid: vec3<u32>, len: u32 }
        @group(0) @binding(0) var<storage, read_write> hits: array<atomic<u32>>;
        @group(0) @binding(1) var<uniform> p: P;
        @compute @workgroup_size(64) fn sarek_main() { atomicAdd(&hits[0], 1u); }",
        Abi {
            kernel: B("count"),
            entry_point: B(ENTRY_POINT),
            workgroup_size: [64, 1, 1],
            buffers: B(&[BufferBinding {
                binding: 0,
                param: 0,
                name: B("hits"),
                elem: B("atomic<u32>"),
                stride: 4,
                access: Access::ReadWrite,
            }]),
            uniform: Uniform {
                binding: 1,
                size: 16,
                fields: B(&[
                    UniformField {
                        name: B("sarek_grid"),
                        offset: 0,
                        source: FieldSource::Grid,
                    },
                    UniformField {
                        name: B("sarek_len0"),
                        offset: 12,
                        source: FieldSource::Length { param: 0 },
                    },
                ]),
            },
            workgroup_memory: 0,
            launch_sized: B(&[]),
            coarsened: false,
            vectorised: false,
            features: B(&[]),
            limits: sarek_ir::abi::Limits::Portable,
            debug: false,
        },
        concat!(file!(), ":", line!()),
    )
    .with_ir(COUNT_IR, &[])
};

#[rustfmt::skip]
const ADD_ONE_IR: &str = r#"{"name":"add_one","params":[{"name":"x","ty":{"Slice":{"elem":{"Scalar":"u32"},"access":"read_write"}},"span":1}],"workgroup_size":[64,1,1],"entry":{"name":"add_one","args":[],"result":null,"locals":[{"name":"i","ty":{"Scalar":"u32"},"mutable":false,"span":3}],"exprs":[{"kind":{"Builtin":"GlobalThreadId"},"ty":{"Scalar":"u32"},"span":2},{"kind":{"Local":0},"ty":{"Scalar":"u32"},"span":5},{"kind":{"Len":0},"ty":{"Scalar":"u32"},"span":6},{"kind":{"Binary":{"op":"Lt","left":1,"right":2}},"ty":{"Scalar":"bool"},"span":7},{"kind":{"Literal":{"U32":1}},"ty":{"Scalar":"u32"},"span":8},{"kind":{"Local":0},"ty":{"Scalar":"u32"},"span":9},{"kind":{"Literal":{"Bool":false}},"ty":{"Scalar":"u32"},"span":10}],"body":[{"kind":{"Let":{"local":0,"init":0}},"span":4},{"kind":{"If":{"cond":3,"accept":[{"kind":{"Assign":{"place":{"Index":{"slice":0,"index":5}},"op":"Add","value":4}},"span":11}],"reject":[]}},"span":12}],"span":0},"shared":[],"span":0,"types":[],"functions":[]}"#;

#[rustfmt::skip]
const COUNT_IR: &str = r#"{"name":"count","params":[{"name":"hits","ty":{"AtomicSlice":{"elem":"u32"}},"span":1}],"workgroup_size":[64,1,1],"entry":{"name":"count","args":[],"result":null,"locals":[{"name":"__v","ty":{"Scalar":"u32"},"mutable":false,"span":4},{"name":"__old","ty":{"Scalar":"u32"},"mutable":false,"span":7}],"exprs":[{"kind":{"Literal":{"U32":0}},"ty":{"Scalar":"u32"},"span":2},{"kind":{"Literal":{"U32":1}},"ty":{"Scalar":"u32"},"span":3},{"kind":{"Local":0},"ty":{"Scalar":"u32"},"span":6},{"kind":{"Local":1},"ty":{"Scalar":"u32"},"span":9}],"body":[{"kind":{"Let":{"local":0,"init":1}},"span":5},{"kind":{"Atomic":{"fun":"Add","target":{"Buffer":{"slice":0,"index":0}},"value":2,"result":1}},"span":8}],"span":0},"shared":[],"span":0,"types":[],"functions":[]}"#;

#[cfg(test)]
mod tests {
    use super::*;

    /// The fixture's hand-written IR must keep the shape the macro embeds: the CPU backend
    /// parses it at the first launch, so a stale shape fails here rather than in a doc test
    /// that happens to run on a GPU.
    #[test]
    fn the_fixture_kernels_run_on_the_cpu_backend() {
        let dev = Device::cpu();
        let mut x = dev.upload(&[1u32, 2, 3]).unwrap();
        add_one.launch(&dev, Grid::cover(3), &mut x).unwrap();
        assert_eq!(x.read().unwrap(), [2, 3, 4]);
        let hits = dev.zeros::<u32>(1).unwrap();
        count.launch(&dev, Grid::cover(100), &hits).unwrap();
        assert_eq!(hits.read().unwrap(), [128]);
    }
}
