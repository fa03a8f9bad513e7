#[sarek::kernel(workgroup_size = [64])]
fn control_flow(n: i32, flag: bool, x: &[f32], out: &mut [f32]) {
    let i = global_thread_id();
    if i >= out.len() {
        return;
    }
    let mut acc = 0.0f32;
    for k in 0..n {
        if k % 2 == 0 {
            continue;
        }
        acc += k as f32;
    }
    for k in 0..=3u32 {
        acc -= k as f32;
    }
    let mut steps = 0;
    while acc > 1.0 {
        acc *= 0.5;
        steps += 1;
    }
    let pick = if flag { x[i] } else { acc };
    let costly = if steps > 2 {
        let t = pick * 2.0;
        t + 1.0
    } else {
        pick
    };
    out[i] = costly + steps as f32;
}

/// An `if` between two effect-free vectors is WGSL's `select`, as between scalars (no branch,
/// no temporary).
#[sarek::kernel]
fn vector_if(n: u32, x: &[Vec4], out: &mut [Vec4]) {
    let i = global_thread_id();
    if i < out.len() {
        let at = if i < n as usize { i } else { 0 };
        let v = x[at];
        out[i] = if i < n as usize { v } else { Vec4::ZERO };
    }
}

/// An `if` whose vector arm loads from a buffer stays a branch: the load is skipped when the
/// condition is false (a `select` would make it unconditional).
#[sarek::kernel]
fn vector_if_load(n: u32, x: &[Vec4], out: &mut [Vec4]) {
    let i = global_thread_id();
    if i < out.len() {
        out[i] = if i < n as usize { x[i] } else { Vec4::ZERO };
    }
}
