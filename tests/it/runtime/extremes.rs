//! Every public runtime call pushed to its extremes: huge lengths and grids,
//! zero-sized elements, hand-written sources that lie, views at the end of a buffer. Each is
//! an `Error` with a readable message, never a panic, an abort or a wrong length.

use std::borrow::Cow::Borrowed as B;

use crate::common::{backends, gpu_only};

use sarek::__private::{self as raw, Arg, KernelSource};
use sarek::abi::{Abi, Access, BufferBinding, FieldSource, Uniform, UniformField, ENTRY_POINT};
use sarek::prelude::*;
use sarek::Error;

#[sarek::kernel]
fn fill(v: u32, out: &mut [u32]) {
    let i = global_thread_id();
    if i < out.len() {
        out[i] = v;
    }
}

#[sarek::kernel(workgroup_size = [16, 16])]
fn fill_2d(v: u32, out: &mut [u32]) {
    let i = global_thread_id();
    if i < out.len() {
        out[i] = v;
    }
}

#[backends]
fn a_2d_grid_whose_thread_ids_would_wrap_is_too_large(dev: Device) {
    let mut out = dev.zeros::<u32>(4).unwrap();
    // 2^33 invocations: `global_thread_id()` (32-bit on the GPU) would reach thread 5 twice.
    for grid in [
        Grid::cover_2d(1 << 17, 1 << 16),
        Grid::cover_3d(1 << 12, 1 << 12, 1 << 9),
    ] {
        let err = fill_2d.launch(&dev, grid, 1, &mut out).unwrap_err();
        assert!(
            matches!(err, Error::GridTooLarge { groups, .. } if groups == grid.workgroups_u64([16, 16, 1])),
            "{grid:?}: {err:?}"
        );
        assert!(
            err.to_string().contains("at most 2^32 invocations"),
            "{err}"
        );
    }
    // A 1-D grid that would run coarsened reports the grid asked for (of workgroups of 256,
    // the default size).
    let grid = Grid::cover((1 << 32) + 1024);
    let err = fill.launch(&dev, grid, 1, &mut out).unwrap_err();
    assert!(
        matches!(err, Error::GridTooLarge { groups: [g, 1, 1], .. } if g == (1 << 24) + 4),
        "{err:?}"
    );
}

#[backends]
fn a_length_whose_bytes_overflow_is_too_large(dev: Device) {
    let err = dev.zeros::<[f32; 4]>(1 << 60).unwrap_err();
    assert!(
        matches!(
            err,
            Error::BufferTooLarge {
                bytes: u64::MAX,
                ..
            }
        ),
        "{err:?}"
    );
    assert!(
        err.to_string().contains("exceeds this device's limit"),
        "{err}"
    );
    let err = dev.zeros::<u32>(usize::MAX).unwrap_err();
    assert!(matches!(err, Error::BufferTooLarge { .. }), "{err:?}");
}

#[backends]
fn zero_sized_elements_are_refused(dev: Device) {
    let err = dev.zeros::<[f32; 0]>(4).unwrap_err();
    assert!(
        err.to_string()
            .contains("`[f32; 0]` takes no bytes; a buffer cannot hold zero-sized elements"),
        "{err}"
    );
    assert!(matches!(
        dev.upload::<[u32; 0]>(&[[], []]),
        Err(Error::BadBuffer(_))
    ));
}

#[backends]
fn grids_past_the_address_space_are_too_large(dev: Device) {
    let mut out = dev.zeros::<u32>(4).unwrap();
    for grid in [
        Grid::cover(usize::MAX),
        Grid::cover_2d(usize::MAX, 2),
        Grid::cover_3d(2, 2, usize::MAX),
    ] {
        let err = fill.launch(&dev, grid, 1, &mut out).unwrap_err();
        assert!(
            matches!(err, Error::GridTooLarge { .. }),
            "{grid:?}: {err:?}"
        );
        assert!(err.to_string().contains("workgroups"), "{err}");
        let mut batch = dev.batch();
        let err = fill.enqueue(&mut batch, grid, 1, &mut out).unwrap_err();
        assert!(
            matches!(err, Error::GridTooLarge { .. }),
            "{grid:?}: {err:?}"
        );
    }
    // The device still works.
    fill.launch(&dev, Grid::cover(4), 3, &mut out).unwrap();
    assert_eq!(out.read().unwrap(), [3; 4]);
}

/// A hand-written source (as `sarek::__private` allows) whose uniform field lies past the
/// block it declares.
static LYING: KernelSource = KernelSource::new(
    "struct U { grid: vec3<u32>, len: u32 }
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@group(0) @binding(1) var<uniform> u: U;
@compute @workgroup_size(64) fn sarek_main(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x < u.len { out[id.x] = 1u; }
}",
    Abi {
        kernel: B("lying"),
        entry_point: B(ENTRY_POINT),
        workgroup_size: [64, 1, 1],
        buffers: B(&[BufferBinding {
            binding: 0,
            param: 0,
            name: B("out"),
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
                    offset: 16,
                    source: FieldSource::Length { param: 0 },
                },
            ]),
        },
        workgroup_memory: 0,
        launch_sized: B(&[]),
        coarsened: false,
        vectorised: false,
        features: B(&[]),
        limits: sarek::abi::Limits::Portable,
        debug: false,
    },
    concat!(file!(), ":", line!()),
);

#[backends]
fn a_hand_written_uniform_field_past_the_block_is_an_error(dev: Device) {
    let mut out = dev.zeros::<u32>(4).unwrap();
    let err = raw::launch(&dev, &LYING, Grid::cover(4), &[Arg::write(&mut out)]).unwrap_err();
    if dev.is_cpu() {
        // Without IR the CPU backend cannot run it at all.
        assert!(matches!(err, Error::CpuBackend { .. }), "{err:?}");
    } else {
        assert!(
            err.to_string().contains(
                "kernel `lying`: its ABI puts uniform field `sarek_len0` at bytes 16..20, past the uniform block's 16 bytes"
            ),
            "{err}"
        );
    }
}

#[gpu_only]
fn a_wgpu_view_at_the_end_of_its_buffer_is_refused(dev: Device) {
    let mine = dev
        .wgpu_device()
        .create_buffer(&sarek::wgpu::BufferDescriptor {
            label: Some("mine"),
            size: 256,
            usage: sarek::wgpu::BufferUsages::STORAGE | sarek::wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
    let err = Buffer::<u32>::from_wgpu(&dev, mine.clone(), 256, 0).unwrap_err();
    assert!(
        err.to_string()
            .contains("an empty view from offset 256 leaves no room"),
        "{err}"
    );
    // An empty view with room for an element binds and launches.
    let mut view = Buffer::<u32>::from_wgpu(&dev, mine, 0, 0).unwrap();
    fill.launch(&dev, Grid::cover(4), 1, &mut view)
        .unwrap()
        .wait()
        .unwrap();
    assert!(view.read().unwrap().is_empty());
}

#[sarek::module]
mod flags {
    use sarek::prelude::*;

    /// A struct with a `bool`, stored on the GPU as a `u32` word.
    pub struct Flagged {
        pub on: bool,
        pub v: u32,
    }

    /// The same layout with the word visible.
    #[derive(Debug, PartialEq)]
    pub struct Word {
        pub on: u32,
        pub v: u32,
    }

    #[sarek::kernel]
    pub fn copy_flagged(inp: &[Flagged], out: &mut [Flagged]) {
        let i = global_thread_id();
        if i < out.len() {
            out[i] = inp[i];
        }
    }

    #[sarek::kernel]
    pub fn bump_flagged(inp: &[Flagged], out: &mut [Flagged], seen: &mut [u32]) {
        let i = global_thread_id();
        if i < out.len() {
            let mut s = inp[i];
            s.v += 1;
            out[i] = s;
            seen[i] = if s.on { 1 } else { 0 };
        }
    }
}

/// A word other than 0 or 1 in a `bool` field (written by code other than Sarek's, here
/// through a buffer of the same layout) is kept by a whole-struct copy and read as `true`, on
/// the GPU and the CPU backend alike.
#[backends]
fn bool_words_other_than_0_and_1_are_copied_as_they_are(dev: Device) {
    use flags::{bump_flagged, copy_flagged, Word};
    let words = [
        Word { on: 2, v: 10 },
        Word { on: 0, v: 20 },
        Word {
            on: 0x8000_0000,
            v: 30,
        },
        Word { on: 1, v: 40 },
    ];
    let inp = dev.upload(&words).unwrap();
    let mut out = dev.zeros::<Word>(4).unwrap();
    let mut seen = dev.zeros::<u32>(4).unwrap();
    let source = copy_flagged::SOURCE;
    raw::launch(
        &dev,
        source,
        Grid::cover(4),
        &[Arg::read(&inp), Arg::write(&mut out)],
    )
    .unwrap()
    .wait()
    .unwrap();
    assert_eq!(out.read().unwrap(), words);
    raw::launch(
        &dev,
        bump_flagged::SOURCE,
        Grid::cover(4),
        &[Arg::read(&inp), Arg::write(&mut out), Arg::write(&mut seen)],
    )
    .unwrap()
    .wait()
    .unwrap();
    let bumped: Vec<(u32, u32)> = out.read().unwrap().iter().map(|w| (w.on, w.v)).collect();
    assert_eq!(bumped, [(2, 11), (0, 21), (0x8000_0000, 31), (1, 41)]);
    assert_eq!(seen.read().unwrap(), [1, 0, 1, 1]);
}
