/// `z[tile] = x[rows] * y[columns]` for one 16×16 tile of `n`×`n` row-major halves: a
/// library's building block, called by the kernel below.
fn mma_tile(x: &[f16], y: &[f16], z: &mut [f32], n: usize, row: usize, col: usize) {
    let mut acc = CoopMatrix::<f32, 16, C>::zeros();
    let mut k = 0;
    while k < n {
        let a = CoopMatrix::<f16, 16, A>::load_rows(x, row * n + k, n);
        let b = CoopMatrix::<f16, 16, B>::load_rows(y, k * n + col, n);
        acc = a.multiply_add(b, acc);
        k += 16;
    }
    acc.store_rows(z, row * n + col, n);
}

#[sarek::kernel(workgroup_size = [32])]
fn tiled_by_helper(x: &[f16], y: &[f16], z: &mut [f32], n: u32) {
    let n = n as usize;
    let tiles = n / 16;
    let b = block_idx_x();
    mma_tile(x, y, z, n, b / tiles * 16, b % tiles * 16);
}
