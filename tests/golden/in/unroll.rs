// Short constant loops whose counter indexes a local or workgroup array are unrolled, nested
// ones too, so that the indices are constants; other loops stay loops.

#[sarek::kernel(workgroup_size = [8, 8])]
fn blocked(out: &mut [f32]) {
    const BK: usize = 8;
    let t = shared::<[[f32; 8]; 8]>();
    let mut acc = [0.0f32; 8];
    let ty = thread_idx_y();
    t[ty][thread_idx_x()] = 1.0;
    block_barrier();
    for k in 0..BK {
        let b0 = t[k][0];
        for i in 0..4 {
            let a0 = t[k][ty + i];
            acc[i * 2] += b0 * a0;
            acc[i * 2 + 1] += a0;
        }
    }
    // The counter indexes nothing: a loop.
    let mut s = 0.0f32;
    for j in 0..4 {
        s += j as f32;
    }
    // Too long to unroll: a loop.
    for j in 0..64 {
        s += acc[j % 8];
    }
    out[0] = s + acc[0] + acc[7];
}
