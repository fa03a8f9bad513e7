//! Checks on a kernel that WebGPU imposes beyond Rust's own rules.

pub mod uniformity;

use crate::ir::{Kernel, Limits, Span};

/// WebGPU's default limits, which every adapter supports; a kernel within them runs anywhere.
pub mod limits {
    /// `maxComputeInvocationsPerWorkgroup`
    pub const MAX_INVOCATIONS: u32 = 256;
    /// `maxComputeWorkgroupSizeX`, `...Y`, `...Z`
    pub const MAX_SIZE: [u32; 3] = [256, 256, 64];
    /// `maxStorageBuffersPerShaderStage`
    pub const MAX_STORAGE_BUFFERS: u32 = 8;
    /// `maxComputeWorkgroupStorageSize`, in bytes
    pub const MAX_WORKGROUP_MEMORY: u64 = 16384;
    /// The largest workgroup dimension under `limits = "device"`: naga, which compiles every
    /// kernel's WGSL in wgpu, refuses a dimension above 16,384 on any device.
    pub const MAX_DEVICE_SIZE: u32 = 16384;
    /// The most workgroup memory a `limits = "device"` kernel may declare, in bytes: naga
    /// refuses a type of 2 GiB or more, and no GPU offers a thousandth of that.
    pub const MAX_DEVICE_WORKGROUP_MEMORY: u64 = (1 << 31) - 1;
}

/// How to lift a portable limit, appended to each error of a limit check.
const DEVICE_HINT: &str = "; or, to use what the device offers, declare `limits = \"device\"` in `#[sarek::kernel(..)]` (then each launch checks the device's limits)";

/// Checks a workgroup size against the limits the kernel declares: WebGPU's defaults for
/// [`Limits::Portable`]; for [`Limits::Device`] only that no dimension is 0 (the launch checks
/// the device).
pub fn workgroup_size_for(size: [u32; 3], limits: Limits) -> Result<(), String> {
    match limits {
        Limits::Portable => workgroup_size(size),
        Limits::Device => {
            for (axis, &n) in ["x", "y", "z"].iter().zip(&size) {
                if n == 0 {
                    return Err(format!(
                        "the workgroup size along {axis} is 0; every dimension must be at least 1"
                    ));
                }
                if n > limits::MAX_DEVICE_SIZE {
                    return Err(format!(
                        "the workgroup size along {axis} is {n}, but no device runs more than {} (wgpu's shader compiler refuses larger workgroups, and GPUs offer at most about 1,024 invocations per workgroup); use a smaller workgroup and more workgroups",
                        limits::MAX_DEVICE_SIZE
                    ));
                }
            }
            Ok(())
        }
    }
}

/// The most expressions one function of a kernel (its body, or a helper as specialised for
/// it) may lower to. naga's WGSL front end, which validates every kernel in the macro and
/// compiles it in wgpu, takes time quadratic in a function's expressions (naga 30: about 2 s
/// at this size in an optimised build, ten times that for 3× more); no hand-written kernel
/// comes near it.
pub const MAX_FUNCTION_EXPRESSIONS: usize = 16_384;

/// An error at the first expression past [`MAX_FUNCTION_EXPRESSIONS`] in the kernel's body
/// or in one of its helpers, if any.
pub fn function_size(kernel: &Kernel) -> Option<(Span, String)> {
    std::iter::once(&kernel.entry)
        .chain(&kernel.functions)
        .find(|f| f.exprs.len() > MAX_FUNCTION_EXPRESSIONS)
        .map(|f| {
            let span = f
                .exprs
                .iter()
                .nth(MAX_FUNCTION_EXPRESSIONS)
                .map_or(kernel.span, |(_, e)| e.span);
            let what = if std::ptr::eq(f, &kernel.entry) {
                "the kernel's body".to_owned()
            } else {
                format!("the helper `{}`", f.name)
            };
            (
                span,
                format!(
                    "{what} is too long for WGSL compilers: by here it has more than {MAX_FUNCTION_EXPRESSIONS} operations, and compiling a function takes time quadratic in its length; move parts of it into helper functions, or compute repeated steps in a loop"
                ),
            )
        })
}

/// Checks the storage buffers and the workgroup memory of a [`Limits::Portable`] kernel
/// against WebGPU's defaults (8 buffers, 16 KiB): one error at the first buffer or workgroup
/// array over the limit. For a [`Limits::Device`] kernel only the workgroup memory, against
/// [`limits::MAX_DEVICE_WORKGROUP_MEMORY`] (the launch checks the device's own limits).
pub fn portable(kernel: &Kernel) -> Vec<(Span, String)> {
    let mut errors = Vec::new();
    if kernel.limits == Limits::Device {
        let mut bytes = 0u64;
        for var in &kernel.shared {
            bytes = bytes.saturating_add(var.bytes(&kernel.types));
            if bytes > limits::MAX_DEVICE_WORKGROUP_MEMORY {
                errors.push((
                    var.span,
                    format!(
                        "this kernel declares {} bytes of workgroup memory, more than any device offers (the most a kernel may declare is {} bytes, and GPUs offer at most a few hundred KiB); use smaller `shared()` arrays and keep large data in a buffer",
                        kernel.workgroup_memory(),
                        limits::MAX_DEVICE_WORKGROUP_MEMORY
                    ),
                ));
                break;
            }
        }
        return errors;
    }
    let buffers: Vec<_> = kernel
        .params
        .iter()
        .filter(|p| p.ty.buffer().is_some())
        .collect();
    if let Some(ninth) = buffers.get(limits::MAX_STORAGE_BUFFERS as usize) {
        errors.push((
            ninth.span,
            format!(
                "this kernel takes {} buffers, but WebGPU guarantees only {} storage buffers per kernel (maxStorageBuffersPerShaderStage); pass fewer buffers (pack related data into one buffer of structs){DEVICE_HINT}",
                buffers.len(),
                limits::MAX_STORAGE_BUFFERS
            ),
        ));
    } else if let (true, Some(site)) = (
        buffers.len() == limits::MAX_STORAGE_BUFFERS as usize,
        kernel.debug.first(),
    ) {
        // The debug channel of a kernel that prints or asserts is a storage buffer too.
        errors.push((
            site.span,
            format!(
                "this kernel takes {} buffers, and printing or asserting adds a storage buffer of its own, but WebGPU guarantees only {} storage buffers per kernel (maxStorageBuffersPerShaderStage); pass fewer buffers while the kernel prints or asserts{DEVICE_HINT}",
                buffers.len(),
                limits::MAX_STORAGE_BUFFERS
            ),
        ));
    }
    let mut bytes = 0u64;
    for var in &kernel.shared {
        bytes = bytes.saturating_add(var.bytes(&kernel.types));
        if bytes > limits::MAX_WORKGROUP_MEMORY {
            errors.push((
                var.span,
                format!(
                    "this kernel declares {} bytes of workgroup memory, but WebGPU guarantees only {} (maxComputeWorkgroupStorageSize); use smaller `shared()` arrays{DEVICE_HINT}",
                    kernel.workgroup_memory(),
                    limits::MAX_WORKGROUP_MEMORY
                ),
            ));
            break;
        }
    }
    errors
}

/// Checks a workgroup size against WebGPU's default limits. The error says why and what to do.
pub fn workgroup_size(size: [u32; 3]) -> Result<(), String> {
    for (axis, (&n, &max)) in ["x", "y", "z"]
        .iter()
        .zip(size.iter().zip(&limits::MAX_SIZE))
    {
        if n == 0 {
            return Err(format!(
                "the workgroup size along {axis} is 0; every dimension must be at least 1"
            ));
        }
        if n > max {
            return Err(format!(
                "the workgroup size along {axis} is {n}, but WebGPU guarantees only {max}; use a smaller workgroup and more workgroups{DEVICE_HINT}"
            ));
        }
    }
    let total = size.iter().map(|&n| n as u64).product::<u64>();
    if total > limits::MAX_INVOCATIONS as u64 {
        return Err(format!(
            "a workgroup of {}×{}×{} = {total} invocations exceeds the {} that WebGPU guarantees; shrink one dimension{DEVICE_HINT}",
            size[0],
            size[1],
            size[2],
            limits::MAX_INVOCATIONS
        ));
    }
    Ok(())
}
