//! Checks on a kernel that WebGPU imposes beyond Rust's own rules.

pub mod uniformity;

/// WebGPU's default limits, which every adapter supports; a kernel within them runs anywhere.
pub mod limits {
    /// `maxComputeInvocationsPerWorkgroup`
    pub const MAX_INVOCATIONS: u32 = 256;
    /// `maxComputeWorkgroupSizeX`, `...Y`, `...Z`
    pub const MAX_SIZE: [u32; 3] = [256, 256, 64];
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
                "the workgroup size along {axis} is {n}, but WebGPU guarantees only {max}; use a smaller workgroup and more workgroups"
            ));
        }
    }
    let total = size.iter().map(|&n| n as u64).product::<u64>();
    if total > limits::MAX_INVOCATIONS as u64 {
        return Err(format!(
            "a workgroup of {}×{}×{} = {total} invocations exceeds the {} that WebGPU guarantees; shrink one dimension",
            size[0],
            size[1],
            size[2],
            limits::MAX_INVOCATIONS
        ));
    }
    Ok(())
}
