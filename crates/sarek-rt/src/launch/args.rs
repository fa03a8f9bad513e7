//! Checking a launch against its kernel's ABI and the device's limits, and packing the
//! uniform block: free functions of the ABI, the limits and the arguments, so the GPU and CPU
//! paths share every rule and each is testable without a device.

use sarek_ir::abi::{Abi, Access, FieldSource, Scalar, COARSEN_FACTOR};

use crate::arg::Arg;
use crate::buffer::RawBuffer;
use crate::device::Limits;
use crate::error::{Error, Result};

/// Which entry point of a kernel's module a launch uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Entry {
    /// `sarek_main`
    Direct,
    /// `sarek_main_folded`, for a 1-D grid over the per-dimension limit
    Folded,
    /// `sarek_main_coarse`, for large 1-D grids of element-wise kernels
    Coarse,
    /// `sarek_main_vec4`, instead of the coarsened one when the buffers allow 16-byte access
    Vec4,
}

/// Grids of at least this many workgroups run coarsened when the kernel allows it: below,
/// a quarter of the threads may not fill a large GPU (an H200 holds 132 × 2048 threads).
const COARSEN_MIN_GROUPS: u64 = 8192;

/// The physical dispatch for a logical grid of `groups` workgroups: a 1-D grid over the
/// per-dimension limit is folded into x·y workgroups (the kernel's preamble unfolds it).
pub(crate) fn dispatch_size(limits: &Limits, abi: &Abi, groups: [u64; 3]) -> Result<[u32; 3]> {
    let limit = u64::from(limits.max_compute_workgroups_per_dimension);
    invocations(limits, abi, groups)?;
    if groups.iter().all(|&g| g <= limit) {
        return Ok(groups.map(|g| g as u32));
    }
    if groups[1] == 1 && groups[2] == 1 {
        let rows = groups[0].div_ceil(limit);
        let cols = groups[0].div_ceil(rows);
        if rows <= limit {
            return Ok([cols as u32, rows as u32, 1]);
        }
    }
    Err(Error::GridTooLarge {
        groups,
        limit: limit as u32,
        hint: "; this one is over the limit in a dimension, and only a 1-D grid is folded automatically, so loop inside the kernel or split the launch",
    })
}

/// Checks that every invocation of a grid of `groups` workgroups has its own 32-bit
/// `global_thread_id()` (the row-major index over the whole grid, which wraps past 2^32
/// invocations, so two invocations would share an index).
fn invocations(limits: &Limits, abi: &Abi, groups: [u64; 3]) -> Result<()> {
    // In 128 bits: `Grid::cover(usize::MAX)` alone asks for 2^64 - 1 threads.
    let total = groups
        .iter()
        .zip(abi.workgroup_size)
        .fold(1u128, |n, (&g, w)| {
            n.saturating_mul(u128::from(g) * u128::from(w))
        });
    if total > 1 << 32 {
        return Err(Error::GridTooLarge {
            groups,
            limit: limits.max_compute_workgroups_per_dimension,
            hint: "; this one asks for more than 2^32 invocations, and thread indices are 32-bit on the GPU, so a grid runs at most 2^32 invocations: loop inside the kernel or split the launch",
        });
    }
    Ok(())
}

/// The entry point a grid of `groups` workgroups runs through, and its physical dispatch. A
/// large 1-D grid of an element-wise kernel runs coarsened (when `coarsening` allows it): a
/// quarter of the threads, each doing the work of four (see `sarek_codegen::passes::coarsen`).
pub(crate) fn entry(
    limits: &Limits,
    abi: &Abi,
    groups: [u64; 3],
    coarsening: bool,
) -> Result<(Entry, [u32; 3])> {
    // The grid the user asked for: a coarsened one runs fewer threads, each with the ids of
    // several.
    invocations(limits, abi, groups)?;
    let coarse = abi.coarsened
        && groups[1] == 1
        && groups[2] == 1
        && groups[0] >= COARSEN_MIN_GROUPS
        && coarsening;
    let physical = if coarse {
        [groups[0].div_ceil(u64::from(COARSEN_FACTOR)), 1, 1]
    } else {
        groups
    };
    // An error reports the grid the user asked for, not the coarsened one.
    let dispatch = dispatch_size(limits, abi, physical).map_err(|e| match e {
        Error::GridTooLarge { limit, hint, .. } => Error::GridTooLarge {
            groups,
            limit,
            hint,
        },
        other => other,
    })?;
    let folded = dispatch
        .iter()
        .zip(physical)
        .any(|(&d, g)| u64::from(d) != g);
    let entry = match (coarse, folded) {
        (true, _) => Entry::Coarse,
        (false, true) => Entry::Folded,
        (false, false) => Entry::Direct,
    };
    Ok((entry, dispatch))
}

/// Whether a launch that runs coarsened may run through the vectorised entry point instead
/// (see `sarek_codegen::passes::vectorise`): the kernel has one, `enabled`, and every buffer
/// (`(byte offset, elements)` of each binding) starts on 16 bytes and holds at least the
/// grid's `threads`, so that invocation `t`'s 16-byte access to elements `4t .. 4t + 4` reads
/// and writes exactly the bytes the scalar accesses would, inside the binding.
pub(crate) fn vectorise(
    abi: &Abi,
    entry: Entry,
    threads: u64,
    buffers: impl IntoIterator<Item = (u64, usize)>,
    enabled: bool,
) -> bool {
    enabled
        && abi.vectorised
        && entry == Entry::Coarse
        && threads.is_multiple_of(4)
        && buffers
            .into_iter()
            .all(|(offset, len)| offset % 16 == 0 && len as u64 >= threads)
}

/// Checks that the kernel's workgroup memory fits the device.
pub(crate) fn workgroup_memory(limits: &Limits, abi: &Abi) -> Result<()> {
    let limit = limits.max_compute_workgroup_storage_size;
    if abi.workgroup_memory > limit {
        return Err(Error::WorkgroupMemory {
            kernel: abi.kernel.to_string(),
            needed: abi.workgroup_memory,
            limit,
        });
    }
    Ok(())
}

/// The lengths of the kernel's workgroup arrays sized at launch (`Abi::launch_sized`), read
/// from their parameters' arguments: each at least 1, and all the workgroup memory together
/// within the device's limit.
pub(crate) fn launch_lengths(limits: &Limits, abi: &Abi, args: &[Arg<'_>]) -> Result<Vec<u32>> {
    if abi.launch_sized.is_empty() {
        return Ok(Vec::new());
    }
    let value = |param: u32| match args.get(param as usize) {
        Some(Arg::U32(v)) => Some(u64::from(*v)),
        Some(Arg::Usize(v)) => Some(*v as u64),
        _ => None,
    };
    let (lengths, total) = abi.launch_lengths(value).map_err(|i| Error::BadArguments {
        kernel: abi.kernel.to_string(),
        message: format!(
            "parameter {} sizes a workgroup array, so it must be a `u32` or `usize`",
            abi.launch_sized[i].param
        ),
    })?;
    if let Some(i) = lengths.iter().position(|&len| len == 0) {
        return Err(Error::EmptyWorkgroupArray {
            kernel: abi.kernel.to_string(),
            param: abi.launch_sized[i].param as usize,
        });
    }
    let limit = limits.max_compute_workgroup_storage_size;
    if total > u64::from(limit) {
        return Err(Error::WorkgroupMemory {
            kernel: abi.kernel.to_string(),
            needed: u32::try_from(total).unwrap_or(u32::MAX),
            limit,
        });
    }
    Ok(lengths)
}

/// Checks the arguments against the ABI (count, element size, access, the device they live
/// on, a written buffer bound twice); returns the buffers in binding order.
pub(crate) fn buffers<'a>(
    abi: &Abi,
    args: &[Arg<'a>],
    device_id: u64,
) -> Result<Vec<&'a RawBuffer>> {
    let bad = |message: String| Error::BadArguments {
        kernel: abi.kernel.to_string(),
        message,
    };
    let expected = abi.buffers.len()
        + abi
            .uniform
            .fields
            .iter()
            .filter(|f| f.source.value_param().is_some())
            .count();
    if args.len() != expected {
        return Err(bad(format!(
            "expected {expected} arguments, got {}",
            args.len()
        )));
    }
    let mut buffers = Vec::with_capacity(abi.buffers.len());
    for b in abi.buffers.iter() {
        let Some(Arg::Buffer(raw, access)) = args.get(b.param as usize) else {
            return Err(bad(format!("parameter {} must be a buffer", b.param)));
        };
        if raw.elem_size != u64::from(b.stride) {
            return Err(bad(format!(
                "buffer {} holds elements of {} bytes, but the kernel reads `{}` of {} bytes",
                b.param, raw.elem_size, b.elem, b.stride
            )));
        }
        if *access != b.access {
            return Err(bad(format!(
                "parameter {} must be passed as {:?}",
                b.param, b.access
            )));
        }
        if raw.device_id != device_id {
            return Err(Error::WrongDevice {
                kernel: abi.kernel.to_string(),
                param: b.param as usize,
            });
        }
        buffers.push(*raw);
        for other in abi.buffers.iter().filter(|o| o.param > b.param) {
            if let Some(Arg::Buffer(o, _)) = args.get(other.param as usize) {
                if o.id == raw.id
                    && (b.access == Access::ReadWrite || other.access == Access::ReadWrite)
                {
                    return Err(Error::Aliasing {
                        kernel: abi.kernel.to_string(),
                        first: b.param as usize,
                        second: other.param as usize,
                    });
                }
            }
        }
    }
    Ok(buffers)
}

/// Fills the uniform block as the ABI lays it out, for a grid of `groups` workgroups.
pub(crate) fn pack_uniform(abi: &Abi, groups: [u64; 3], args: &[Arg<'_>]) -> Result<Vec<u8>> {
    let mut bytes = vec![0u8; abi.uniform.size as usize];
    let put = |bytes: &mut Vec<u8>, offset: u32, word: u32| {
        let o = offset as usize;
        bytes[o..o + 4].copy_from_slice(&word.to_ne_bytes());
    };
    let bad = |message: String| Error::BadArguments {
        kernel: abi.kernel.to_string(),
        message,
    };
    for field in abi.uniform.fields.iter() {
        // The macro's ABI always fits; a hand-written one need not, and a field past the
        // block would otherwise write out of `bytes`.
        let size = match field.source {
            FieldSource::Grid => 12,
            FieldSource::Length { .. } | FieldSource::Scalar { .. } => 4,
            FieldSource::Bytes { size, .. } => u64::from(size),
        };
        if u64::from(field.offset) + size > u64::from(abi.uniform.size) {
            return Err(bad(format!(
                "its ABI puts uniform field `{}` at bytes {}..{}, past the uniform block's {} bytes",
                field.name,
                field.offset,
                u64::from(field.offset) + size,
                abi.uniform.size
            )));
        }
        match field.source {
            FieldSource::Grid => {
                for (i, g) in groups.iter().enumerate() {
                    put(&mut bytes, field.offset + 4 * i as u32, *g as u32);
                }
            }
            FieldSource::Length { param } => match args.get(param as usize) {
                Some(Arg::Buffer(raw, _)) => {
                    let len = u32::try_from(raw.len())
                        .map_err(|_| bad(format!("buffer {param} has more than 2^32 elements")))?;
                    put(&mut bytes, field.offset, len);
                }
                _ => return Err(bad(format!("parameter {param} must be a buffer"))),
            },
            FieldSource::Scalar { param, ty } if ty.is_wide() => {
                let bits = match (args.get(param as usize), ty) {
                    (Some(Arg::I64(v)), Scalar::I64) => *v as u64,
                    (Some(Arg::U64(v)), Scalar::U64) => *v,
                    (other, ty) => {
                        return Err(bad(format!(
                            "parameter {param} must be a `{}`, got {other:?}",
                            ty.rust_name()
                        )))
                    }
                };
                // Little-endian, as the GPU reads a 64-bit member: the low word first.
                put(&mut bytes, field.offset, bits as u32);
                put(&mut bytes, field.offset + 4, (bits >> 32) as u32);
            }
            FieldSource::Scalar { param, ty } => {
                let word = match (args.get(param as usize), ty) {
                    (Some(Arg::F32(v)), Scalar::F32) => v.to_bits(),
                    (Some(Arg::I32(v)), Scalar::I32) => *v as u32,
                    (Some(Arg::U32(v)), Scalar::U32) => *v,
                    (Some(Arg::Usize(v)), Scalar::U32) => {
                        u32::try_from(*v).map_err(|_| Error::ScalarOutOfRange {
                            kernel: abi.kernel.to_string(),
                            param: param as usize,
                            value: *v as u64,
                        })?
                    }
                    (Some(Arg::Bool(v)), Scalar::Bool) => u32::from(*v),
                    // The low two bytes of the slot (the WGSL field is `@size(4)`).
                    (Some(Arg::F16(v)), Scalar::F16) => u32::from(v.to_bits()),
                    (other, ty) => {
                        return Err(bad(format!(
                            "parameter {param} must be a `{}`, got {other:?}",
                            ty.rust_name()
                        )))
                    }
                };
                put(&mut bytes, field.offset, word);
            }
            FieldSource::Bytes { param, size } => match args.get(param as usize) {
                Some(Arg::Bytes(b)) if b.len() == size as usize => {
                    let o = field.offset as usize;
                    bytes[o..o + b.len()].copy_from_slice(b);
                }
                other => {
                    return Err(bad(format!(
                        "parameter {param} must be a value of {size} bytes, got {other:?}"
                    )))
                }
            },
        }
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow::Borrowed as B;
    use std::sync::atomic::AtomicU32;

    use sarek_ir::abi::{BufferBinding, Uniform, UniformField, ENTRY_POINT};

    use super::*;
    use crate::backend::Storage;

    /// `fn k(a: f32, x: &[f32], y: &mut [f32])`, laid out as the macro lays it out.
    fn saxpy() -> Abi {
        Abi {
            kernel: B("saxpy"),
            entry_point: B(ENTRY_POINT),
            workgroup_size: [64, 1, 1],
            buffers: B(&[
                BufferBinding {
                    binding: 0,
                    param: 1,
                    name: B("x"),
                    elem: B("f32"),
                    stride: 4,
                    access: Access::Read,
                },
                BufferBinding {
                    binding: 1,
                    param: 2,
                    name: B("y"),
                    elem: B("f32"),
                    stride: 4,
                    access: Access::ReadWrite,
                },
            ]),
            uniform: Uniform {
                binding: 2,
                size: 32,
                fields: B(&[
                    UniformField {
                        name: B("sarek_grid"),
                        offset: 0,
                        source: FieldSource::Grid,
                    },
                    UniformField {
                        name: B("a"),
                        offset: 12,
                        source: FieldSource::Scalar {
                            param: 0,
                            ty: Scalar::F32,
                        },
                    },
                    UniformField {
                        name: B("sarek_len1"),
                        offset: 16,
                        source: FieldSource::Length { param: 1 },
                    },
                    UniformField {
                        name: B("sarek_len2"),
                        offset: 20,
                        source: FieldSource::Length { param: 2 },
                    },
                ]),
            },
            workgroup_memory: 0,
            launch_sized: B(&[]),
            coarsened: true,
            vectorised: false,
            features: std::borrow::Cow::Borrowed(&[]),
            limits: sarek_ir::abi::Limits::Portable,
            debug: false,
        }
    }

    /// A host buffer of `len` `f32`s on device `device_id`, with identity `id`.
    fn buffer(len: usize, device_id: u64, id: u64) -> RawBuffer {
        RawBuffer {
            storage: Storage::Cpu((0..len).map(|_| AtomicU32::new(0)).collect()),
            offset: 0,
            len,
            elem_size: 4,
            device_id,
            id,
        }
    }

    fn limits() -> Limits {
        Limits::default()
    }

    #[test]
    fn a_small_grid_is_dispatched_as_it_is() {
        assert_eq!(
            dispatch_size(&limits(), &saxpy(), [4, 2, 1]).unwrap(),
            [4, 2, 1]
        );
    }

    #[test]
    fn a_long_1d_grid_is_folded_into_two_dimensions() {
        let [x, y, z] = dispatch_size(&limits(), &saxpy(), [100_000, 1, 1]).unwrap();
        assert_eq!((y, z), (2, 1));
        assert!(u64::from(x) * u64::from(y) >= 100_000 && x <= 65_535);
    }

    #[test]
    fn a_long_2d_grid_and_a_grid_past_32_bit_indices_are_refused() {
        assert!(matches!(
            dispatch_size(&limits(), &saxpy(), [100_000, 2, 1]),
            Err(Error::GridTooLarge { .. })
        ));
        let err = dispatch_size(&limits(), &saxpy(), [1 << 27, 1, 1]).unwrap_err();
        assert!(err.to_string().contains("32-bit"), "{err}");
    }

    #[test]
    fn a_grid_within_the_per_dimension_limit_but_past_2_pow_32_invocations_says_so() {
        // `Grid::groups_3d(65535, 65535, 65535)`: no dimension is over the limit.
        let err = dispatch_size(&limits(), &saxpy(), [65_535; 3]).unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains("this one asks for more than 2^32 invocations")
                && !text.contains("exceeds this device's limit")
                && !text.contains("over the limit in a dimension"),
            "{text}"
        );
        // A 2-D grid over the limit in a dimension says that instead.
        let text = dispatch_size(&limits(), &saxpy(), [100_000, 2, 1])
            .unwrap_err()
            .to_string();
        assert!(text.contains("over the limit in a dimension"), "{text}");
    }

    #[test]
    fn a_2d_grid_past_2_pow_32_invocations_is_refused() {
        let mut abi = saxpy();
        abi.workgroup_size = [16, 16, 1];
        let limits = Limits {
            max_compute_workgroups_per_dimension: u32::MAX,
            ..limits()
        };
        // `Grid::cover_2d(1 << 16, 1 << 16)`: exactly 2^32 invocations, each its own id.
        assert!(dispatch_size(&limits, &abi, [1 << 12, 1 << 12, 1]).is_ok());
        // `Grid::cover_2d(1 << 17, 1 << 16)`: twice that, so ids would repeat.
        let err = dispatch_size(&limits, &abi, [1 << 13, 1 << 12, 1]).unwrap_err();
        assert!(
            err.to_string().contains("at most 2^32 invocations"),
            "{err}"
        );
        let err = entry(&limits, &abi, [1, 1 << 12, 1 << 13], true).unwrap_err();
        assert!(matches!(err, Error::GridTooLarge { .. }), "{err}");
    }

    #[test]
    fn grid_too_large_reports_the_grid_asked_for_not_the_coarsened_one() {
        let abi = saxpy();
        let asked = [(1 << 26) + 4, 1, 1];
        for coarsening in [false, true] {
            let err = entry(&limits(), &abi, asked, coarsening).unwrap_err();
            assert!(
                matches!(err, Error::GridTooLarge { groups, .. } if groups == asked),
                "{err:?}"
            );
        }
        // A grid that fits but whose dispatch cannot be folded.
        let asked = [1 << 20, 1, 1];
        let tight = Limits {
            max_compute_workgroups_per_dimension: 256,
            ..limits()
        };
        let err = entry(&tight, &abi, asked, true).unwrap_err();
        assert!(
            matches!(err, Error::GridTooLarge { groups, .. } if groups == asked),
            "{err:?}"
        );
    }

    #[test]
    fn the_entry_point_follows_the_grid() {
        let abi = saxpy();
        let direct = entry(&limits(), &abi, [4, 1, 1], true).unwrap();
        assert_eq!(direct, (Entry::Direct, [4, 1, 1]));
        let coarse = entry(&limits(), &abi, [8192, 1, 1], true).unwrap();
        assert_eq!(coarse, (Entry::Coarse, [2048, 1, 1]));
        // `SAREK_COARSEN=0`, or a kernel that is not element-wise, keeps every thread.
        assert_eq!(
            entry(&limits(), &abi, [8192, 1, 1], false).unwrap().0,
            Entry::Direct
        );
        let folded = entry(&limits(), &abi, [100_000, 1, 1], false).unwrap();
        assert_eq!(folded.0, Entry::Folded);
    }

    #[test]
    fn the_vectorised_entry_needs_aligned_buffers_that_cover_the_grid() {
        let mut abi = saxpy();
        abi.vectorised = true;
        let n = 8192 * 256;
        let ok = [(0, n), (256, n + 3)];
        assert!(vectorise(&abi, Entry::Coarse, n as u64, ok, true));
        // Off by the switch, for a grid that does not run coarsened, or without the entry.
        assert!(!vectorise(&abi, Entry::Coarse, n as u64, ok, false));
        assert!(!vectorise(&abi, Entry::Direct, n as u64, ok, true));
        assert!(!vectorise(&saxpy(), Entry::Coarse, n as u64, ok, true));
        // A buffer shorter than the grid, or bound at an offset that is not 16-byte aligned.
        assert!(!vectorise(
            &abi,
            Entry::Coarse,
            n as u64,
            [(0, n), (0, n - 1)],
            true
        ));
        assert!(!vectorise(
            &abi,
            Entry::Coarse,
            n as u64,
            [(0, n), (4, n)],
            true
        ));
    }

    #[test]
    fn workgroup_memory_over_the_limit_is_refused() {
        let mut abi = saxpy();
        abi.workgroup_memory = limits().max_compute_workgroup_storage_size;
        assert!(workgroup_memory(&limits(), &abi).is_ok());
        abi.workgroup_memory += 1;
        assert!(matches!(
            workgroup_memory(&limits(), &abi),
            Err(Error::WorkgroupMemory { .. })
        ));
    }

    #[test]
    fn launch_lengths_are_read_from_their_parameters_and_checked() {
        use sarek_ir::abi::LaunchSized;
        // `saxpy`'s `a` is an `f32`; pretend arrays are sized by parameters 0 and 3.
        let mut abi = saxpy();
        abi.workgroup_memory = 100;
        abi.launch_sized = B(&[
            LaunchSized {
                id: 0,
                param: 0,
                unit_bytes: 4,
            },
            LaunchSized {
                id: 2,
                param: 3,
                unit_bytes: 16,
            },
        ]);
        let limit = limits().max_compute_workgroup_storage_size;
        let lengths = |a: u32, b: usize| {
            let args = [Arg::U32(a), Arg::U32(0), Arg::U32(0), Arg::Usize(b)];
            launch_lengths(&limits(), &abi, &args)
        };
        assert_eq!(lengths(3, 5).unwrap(), [3, 5]);
        // 100 + 4 · a + 16 · b: exactly at the limit, then one element past it.
        let b = (limit as usize - 104) / 16;
        let a = (limit - 100 - 16 * b as u32) / 4;
        assert_eq!(lengths(a, b).unwrap(), [a, b as u32]);
        assert!(matches!(
            lengths(a + 1, b),
            Err(Error::WorkgroupMemory { needed, .. }) if needed == limit + 4
        ));
        // A length past `u32` is too large, not wrapped.
        assert!(matches!(
            lengths(1, 1 << 33),
            Err(Error::WorkgroupMemory { .. })
        ));
        assert!(matches!(
            lengths(0, 1),
            Err(Error::EmptyWorkgroupArray { param: 0, .. })
        ));
        assert!(matches!(
            lengths(1, 0),
            Err(Error::EmptyWorkgroupArray { param: 3, .. })
        ));
        let wrong = [Arg::F32(1.0), Arg::U32(0), Arg::U32(0), Arg::Usize(1)];
        assert!(matches!(
            launch_lengths(&limits(), &abi, &wrong),
            Err(Error::BadArguments { .. })
        ));
    }

    #[test]
    fn matching_arguments_give_the_buffers_in_binding_order() {
        let (x, y) = (buffer(3, 1, 10), buffer(3, 1, 11));
        let args = [
            Arg::F32(2.0),
            Arg::Buffer(&x, Access::Read),
            Arg::Buffer(&y, Access::ReadWrite),
        ];
        let bound = buffers(&saxpy(), &args, 1).unwrap();
        assert_eq!(bound.iter().map(|b| b.id).collect::<Vec<_>>(), [10, 11]);
    }

    #[test]
    fn mismatched_arguments_are_refused() {
        let (x, y) = (buffer(3, 1, 10), buffer(3, 1, 11));
        let abi = saxpy();
        let bad = |args: &[Arg<'_>]| buffers(&abi, args, 1).unwrap_err();
        let count = bad(&[Arg::F32(2.0)]);
        assert!(
            count.to_string().contains("expected 3 arguments, got 1"),
            "{count}"
        );
        let access = bad(&[
            Arg::F32(2.0),
            Arg::Buffer(&x, Access::Read),
            Arg::Buffer(&y, Access::Read),
        ]);
        assert!(
            access.to_string().contains("must be passed as ReadWrite"),
            "{access}"
        );
        let wrong = buffers(
            &abi,
            &[
                Arg::F32(2.0),
                Arg::Buffer(&x, Access::Read),
                Arg::Buffer(&y, Access::ReadWrite),
            ],
            2,
        );
        assert!(matches!(wrong, Err(Error::WrongDevice { param: 1, .. })));
        let twice = bad(&[
            Arg::F32(2.0),
            Arg::Buffer(&x, Access::Read),
            Arg::Buffer(&x, Access::ReadWrite),
        ]);
        assert!(matches!(
            twice,
            Error::Aliasing {
                first: 1,
                second: 2,
                ..
            }
        ));
        let mut wide = buffer(3, 1, 12);
        wide.elem_size = 8;
        let elem = bad(&[
            Arg::F32(2.0),
            Arg::Buffer(&wide, Access::Read),
            Arg::Buffer(&y, Access::ReadWrite),
        ]);
        assert!(elem.to_string().contains("elements of 8 bytes"), "{elem}");
    }

    #[test]
    fn the_uniform_block_holds_the_grid_the_scalars_and_the_lengths() {
        let (x, y) = (buffer(3, 1, 10), buffer(5, 1, 11));
        let args = [
            Arg::F32(2.5),
            Arg::Buffer(&x, Access::Read),
            Arg::Buffer(&y, Access::ReadWrite),
        ];
        let bytes = pack_uniform(&saxpy(), [7, 1, 1], &args).unwrap();
        let words: Vec<u32> = bytes
            .chunks(4)
            .map(|c| u32::from_ne_bytes(c.try_into().unwrap()))
            .collect();
        assert_eq!(words, [7, 1, 1, 2.5f32.to_bits(), 3, 5, 0, 0]);
    }

    #[test]
    fn a_uniform_field_past_the_block_is_refused() {
        let (x, y) = (buffer(3, 1, 10), buffer(5, 1, 11));
        let args = [
            Arg::F32(2.5),
            Arg::Buffer(&x, Access::Read),
            Arg::Buffer(&y, Access::ReadWrite),
        ];
        let mut abi = saxpy();
        abi.uniform.fields.to_mut()[3].offset = 30;
        let err = pack_uniform(&abi, [7, 1, 1], &args).unwrap_err();
        assert!(
            err.to_string().contains(
                "uniform field `sarek_len2` at bytes 30..34, past the uniform block's 32 bytes"
            ),
            "{err}"
        );
        abi.uniform.fields.to_mut()[3].offset = u32::MAX;
        assert!(pack_uniform(&abi, [7, 1, 1], &args).is_err());
    }

    #[test]
    fn a_scalar_of_the_wrong_type_or_range_is_refused() {
        let (x, y) = (buffer(3, 1, 10), buffer(3, 1, 11));
        let abi = saxpy();
        let args = [
            Arg::U32(2),
            Arg::Buffer(&x, Access::Read),
            Arg::Buffer(&y, Access::ReadWrite),
        ];
        let err = pack_uniform(&abi, [1, 1, 1], &args).unwrap_err();
        assert!(err.to_string().contains("must be a `f32`"), "{err}");
        let mut index = saxpy();
        index.uniform.fields.to_mut()[1].source = FieldSource::Scalar {
            param: 0,
            ty: Scalar::U32,
        };
        let args = [
            Arg::Usize(usize::MAX),
            Arg::Buffer(&x, Access::Read),
            Arg::Buffer(&y, Access::ReadWrite),
        ];
        if usize::BITS > 32 {
            assert!(matches!(
                pack_uniform(&index, [1, 1, 1], &args),
                Err(Error::ScalarOutOfRange { param: 0, .. })
            ));
        }
    }
}
