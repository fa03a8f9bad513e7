//! The kernel ABI: how a runner binds buffers and fills the uniform block, without reading
//! the WGSL. The WGSL back end declares exactly what [`lay_out`] lays out (with the names `sarek_codegen::wgsl::abi::build` gives it), so the two cannot
//! drift.
//!
//! Layout of the uniform block (`struct sarek_Params`, binding = number of buffers):
//! `sarek_grid: vec3<u32>` at offset 0 holds the grid in workgroups as the caller asked for
//! it (the runtime may fold a long 1-D grid into 2-D to stay under the per-dimension limit);
//! then, at 4-byte steps from offset 12, one `u32` length per slice parameter and one field
//! per scalar parameter, in declaration order (an `i64` or `u64` at the next multiple of 8,
//! taking 8 bytes). `bool` is stored as a `u32` 0 or 1. A struct
//! parameter starts at the next multiple of 16 and takes its size rounded up to 16 (WGSL's
//! uniform rules), holding the bytes of the struct's host type. The size is rounded up to 16
//! bytes.

use std::borrow::Cow;

pub use crate::features::{CoopScalar, CoopShape, Feature};
pub use crate::ir::{Access, Limits, Scalar};
use crate::ir::{Kernel, ParamType, Type};

/// A string that is borrowed in constants the macro embeds and owned when built at run time.
pub type Str = Cow<'static, str>;

/// Name of the WGSL entry point of every Sarek kernel.
pub const ENTRY_POINT: &str = "sarek_main";

/// The entry point for a 1-D grid of more workgroups than a dimension allows: dispatch it as
/// `x × y` workgroups (`x · y ≥` the grid's workgroups, at most `x - 1` surplus) with the
/// requested grid in the uniform's `sarek_grid`; it linearises the workgroup id and the surplus
/// workgroups return at once.
pub const FOLDED_ENTRY_POINT: &str = "sarek_main_folded";

/// The entry point of an element-wise kernel in which each invocation does the work of
/// [`COARSEN_FACTOR`] (present when [`Abi::coarsened`] is set): dispatch it over a quarter of
/// the 1-D grid's workgroups (rounded up, folded like any grid when needed), with the grid
/// as requested in the uniform's `sarek_grid`. Invocation `t` handles the elements `t + k·T`
/// for `k < 4`, where `T` is a quarter of the requested threads.
pub const COARSE_ENTRY_POINT: &str = "sarek_main_coarse";

/// The entry point of an element-wise kernel over 4-byte scalars in which invocation `t` does
/// the elements `4t + k` (`k < 4`) through `vec4` views of the bindings (present when
/// [`Abi::vectorised`] is set; see `sarek_codegen::passes::vectorise`): dispatch it like
/// [`COARSE_ENTRY_POINT`], and only when every buffer is bound at a multiple of 16 bytes and
/// holds at least as many elements as the grid has threads.
pub const VEC4_ENTRY_POINT: &str = "sarek_main_vec4";

/// How many invocations the coarsened entry point merges into one.
pub const COARSEN_FACTOR: u32 = 4;

/// Everything a runner needs to launch a kernel.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Abi {
    /// The Rust name of the kernel.
    pub kernel: Str,
    /// The WGSL entry point.
    pub entry_point: Str,
    /// The workgroup size.
    pub workgroup_size: [u32; 3],
    /// One storage buffer per slice parameter, in binding order.
    pub buffers: Cow<'static, [BufferBinding]>,
    /// The uniform block.
    pub uniform: Uniform,
    /// Bytes of workgroup memory the kernel declares, arrays sized at launch left out (see
    /// [`Abi::launch_sized`]).
    pub workgroup_memory: u32,
    /// The workgroup arrays sized at launch (`shared_len::<T>(n)`), in declaration order: a
    /// runner sets each one's `override` constant to its parameter's value, refuses a length
    /// of 0 or one that takes the total past the device's workgroup memory, and makes one
    /// pipeline per set of lengths.
    pub launch_sized: Cow<'static, [LaunchSized]>,
    /// Whether the module has a [`COARSE_ENTRY_POINT`] (element-wise kernels), which a runner
    /// may use for large 1-D grids.
    pub coarsened: bool,
    /// Whether the module has a [`VEC4_ENTRY_POINT`] (element-wise kernels over 4-byte
    /// scalars), which a runner may use where it may use the coarsened one and every buffer
    /// is bound at a multiple of 16 bytes and holds at least the grid's thread count.
    pub vectorised: bool,
    /// The wgpu features the kernel needs beyond core WebGPU, sorted (empty for a kernel that
    /// runs on any WebGPU device); a runner must refuse a device without one of them.
    pub features: Cow<'static, [Feature]>,
    /// The limits the kernel was checked against when it compiled: [`Limits::Portable`]
    /// (WebGPU's defaults) or [`Limits::Device`] (a runner checks the workgroup size, buffer
    /// count and workgroup memory against the device's own limits).
    pub limits: Limits,
    /// Whether the kernel prints or asserts (`gpu_println!`, `assert!`): its module then
    /// declares the debug channel, an array of atomic `u32`s at group [`DEBUG_GROUP`],
    /// binding 0, which the runner binds and reads back; its format table is the IR's
    /// `Kernel::debug` (see [`crate::ir::debug`]).
    pub debug: bool,
}

/// The bind group of the debug channel (the kernel's own bindings are in group 0; group 1
/// is the runtime's own).
pub const DEBUG_GROUP: u32 = 2;

/// A storage-buffer binding (group 0).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BufferBinding {
    /// The binding number.
    pub binding: u32,
    /// The index of the slice parameter it comes from.
    pub param: u32,
    /// Its WGSL name.
    pub name: Str,
    /// The element type, as WGSL spells it (`f32`, `atomic<u32>`, a struct's name).
    pub elem: Str,
    /// Bytes from one element to the next (the host type's size).
    pub stride: u32,
    /// Read-only (`&[T]`) or read-write (`&mut [T]`).
    pub access: Access,
}

/// A workgroup array whose length is a scalar parameter's value at launch
/// (`let row = shared_len::<f32>(n);`).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LaunchSized {
    /// The `@id` of the WGSL `override` constant that sizes the array (set it to the length
    /// when the pipeline is made, keyed by this number in decimal); it is also the array's
    /// index among the kernel's workgroup arrays.
    pub id: u32,
    /// The index of the `u32` (or `usize`) parameter whose value is the length.
    pub param: u32,
    /// Bytes per unit of length: the element's size times its inner lengths
    /// (`shared_len::<[f32; 4]>(n)` takes 16 bytes per unit of `n`).
    pub unit_bytes: u32,
}

impl Abi {
    /// The lengths of the arrays sized at launch ([`Abi::launch_sized`], in that order) for
    /// the scalar arguments `value(param)` gives, and the total bytes of workgroup memory
    /// they and the fixed arrays take; `Err(index)` names the first array whose parameter has
    /// no `u32` value.
    pub fn launch_lengths(
        &self,
        value: impl Fn(u32) -> Option<u64>,
    ) -> Result<(Vec<u32>, u64), usize> {
        let mut total = u64::from(self.workgroup_memory);
        let mut lengths = Vec::with_capacity(self.launch_sized.len());
        for (i, s) in self.launch_sized.iter().enumerate() {
            let len = value(s.param).ok_or(i)?;
            total = total.saturating_add(len.saturating_mul(u64::from(s.unit_bytes)));
            lengths.push(u32::try_from(len).unwrap_or(u32::MAX));
        }
        Ok((lengths, total))
    }
}

/// The uniform block (group 0).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Uniform {
    /// Its binding number (after the buffers).
    pub binding: u32,
    /// Its size in bytes.
    pub size: u32,
    /// Its fields, by offset.
    pub fields: Cow<'static, [UniformField]>,
}

/// One field of the uniform block.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UniformField {
    /// The WGSL field name.
    pub name: Str,
    /// Byte offset.
    pub offset: u32,
    /// What it holds.
    pub source: FieldSource,
}

/// What a uniform field holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum FieldSource {
    /// The grid size in workgroups, as three `u32`s (12 bytes).
    Grid,
    /// The element count of slice parameter `param`, as a `u32`.
    Length {
        /// The parameter index.
        param: u32,
    },
    /// Scalar parameter `param`; a `bool` is a `u32` 0 or 1.
    Scalar {
        /// The parameter index.
        param: u32,
        /// Its type.
        ty: Scalar,
    },
    /// Struct parameter `param`: the bytes of its host type (WGSL's layout).
    Bytes {
        /// The parameter index.
        param: u32,
        /// The struct's size in bytes.
        size: u32,
    },
}

impl UniformField {
    /// The size of the field in bytes.
    pub fn size(&self) -> u32 {
        match self.source {
            FieldSource::Grid => 12,
            FieldSource::Bytes { size, .. } => size,
            _ => 4,
        }
    }
}

impl FieldSource {
    /// The parameter whose value (not length) the field holds.
    pub fn value_param(&self) -> Option<u32> {
        match *self {
            FieldSource::Scalar { param, .. } | FieldSource::Bytes { param, .. } => Some(param),
            _ => None,
        }
    }
}

impl Abi {
    /// The ABI as JSON, for runners that are not written in Rust (a browser page, say): they
    /// can bind the buffers and pack the uniform block from it without reading the WGSL.
    ///
    /// ```
    /// # use sarek_ir::abi::*;
    /// # use std::borrow::Cow;
    /// let abi = Abi {
    ///     kernel: "fill".into(),
    ///     entry_point: ENTRY_POINT.into(),
    ///     workgroup_size: [64, 1, 1],
    ///     buffers: Cow::Owned(vec![BufferBinding {
    ///         binding: 0, param: 1, name: "out".into(), elem: "u32".into(), stride: 4, access: Access::ReadWrite,
    ///     }]),
    ///     uniform: Uniform {
    ///         binding: 1,
    ///         size: 32,
    ///         fields: Cow::Owned(vec![
    ///             UniformField { name: "sarek_grid".into(), offset: 0, source: FieldSource::Grid },
    ///             UniformField { name: "v".into(), offset: 12, source: FieldSource::Scalar { param: 0, ty: Scalar::U32 } },
    ///             UniformField { name: "sarek_len1".into(), offset: 16, source: FieldSource::Length { param: 1 } },
    ///         ]),
    ///     },
    ///     workgroup_memory: 0,
    ///     launch_sized: Cow::Borrowed(&[]),
    ///     coarsened: false,
    ///     vectorised: false,
    ///     features: Cow::Borrowed(&[Feature::Subgroup]),
    ///     limits: Limits::Portable,
    ///     debug: false,
    /// };
    /// let json = abi.to_json();
    /// assert!(json.contains(r#""entryPoint": "sarek_main""#));
    /// assert!(json.contains(r#""kind": "length""#));
    /// assert!(json.contains(r#""features": [
    ///     "SUBGROUP"
    ///   ]"#));
    /// assert!(json.contains(r#""limits": "portable""#));
    /// ```
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }
}

/// The ABI of `kernel` with every name left empty and no pass's entry point: where its
/// buffers bind and how its uniform block is laid out, which is all a runner of the IR needs.
/// The compiler's ABI (`sarek_codegen::wgsl::abi::build`) is this layout with the WGSL module's names
/// and the entry points its passes add.
pub fn layout(kernel: &Kernel) -> Abi {
    lay_out(kernel, &|_| String::new())
}

/// An item of the ABI that a backend's module names.
pub enum Name<'a> {
    /// The uniform field of the grid.
    Grid,
    /// The uniform field of the length of slice parameter `.0`.
    Length(usize),
    /// A buffer or uniform field named after the parameter.
    Param(&'a str),
    /// A buffer's element type; `true` for an atomic slice.
    Elem(Type, bool),
}

/// Lays out the ABI of `kernel`, naming its items with `name`; `coarsened` and `vectorised`
/// are left `false` for the compiler to set.
pub fn lay_out(kernel: &Kernel, name: &dyn Fn(Name<'_>) -> String) -> Abi {
    let mut buffers = Vec::new();
    let mut fields = vec![UniformField {
        name: name(Name::Grid).into(),
        offset: 0,
        source: FieldSource::Grid,
    }];
    let mut offset = 12;
    for (i, param) in kernel.params.iter().enumerate() {
        let index = i as u32;
        if let Some((elem, access)) = param.ty.buffer() {
            let atomic = matches!(param.ty, ParamType::AtomicSlice { .. });
            buffers.push(BufferBinding {
                binding: buffers.len() as u32,
                param: index,
                name: name(Name::Param(&param.name)).into(),
                elem: name(Name::Elem(elem, atomic)).into(),
                stride: crate::layout::of(&kernel.types, elem).stride(),
                access,
            });
            fields.push(UniformField {
                name: name(Name::Length(i)).into(),
                offset,
                source: FieldSource::Length { param: index },
            });
            offset += 4;
        } else if let ParamType::Value(Type::Scalar(ty)) = param.ty {
            // WGSL aligns a 64-bit member to 8 bytes; every other scalar takes a 4-byte slot.
            let size = if ty.is_wide() { 8 } else { 4 };
            offset = crate::layout::round_up(offset, size);
            fields.push(UniformField {
                name: name(Name::Param(&param.name)).into(),
                offset,
                source: FieldSource::Scalar { param: index, ty },
            });
            offset += size;
        } else if let ParamType::Value(ty) = param.ty {
            // The host's bytes: the type's stride (a `vec3` is passed as 16 bytes).
            let size = crate::layout::of(&kernel.types, ty).stride();
            offset = crate::layout::round_up(offset, 16);
            fields.push(UniformField {
                name: name(Name::Param(&param.name)).into(),
                offset,
                source: FieldSource::Bytes { param: index, size },
            });
            offset = offset.saturating_add(crate::layout::round_up(size, 16));
        }
    }
    Abi {
        kernel: kernel.name.clone().into(),
        entry_point: ENTRY_POINT.into(),
        workgroup_size: kernel.workgroup_size,
        uniform: Uniform {
            binding: buffers.len() as u32,
            size: offset.div_ceil(16) * 16,
            fields: fields.into(),
        },
        buffers: buffers.into(),
        workgroup_memory: u32::try_from(kernel.workgroup_memory()).unwrap_or(u32::MAX),
        launch_sized: kernel
            .shared
            .iter()
            .enumerate()
            .filter_map(|(i, v)| {
                let param = v.sized_by?;
                let inner: u64 = v.dims.iter().skip(1).map(|&d| u64::from(d)).product();
                let unit = inner
                    .saturating_mul(u64::from(crate::layout::of(&kernel.types, v.elem).stride()));
                Some(LaunchSized {
                    id: i as u32,
                    param: param.0,
                    unit_bytes: u32::try_from(unit).unwrap_or(u32::MAX),
                })
            })
            .collect::<Vec<_>>()
            .into(),
        coarsened: false,
        vectorised: false,
        features: crate::features::required(kernel).into(),
        limits: kernel.limits,
        debug: kernel.has_debug(),
    }
}
