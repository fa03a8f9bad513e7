#[sarek::kernel(workgroup_size = [32])]
fn half_product(x: &[f16], y: &[f16], z: &mut [f32], n: u32) {
    let n = n as usize;
    let tiles = n / 16;
    let b = block_idx_x();
    let row = b / tiles * 16;
    let col = b % tiles * 16;
    let mut acc = CoopMatrix::<f32, 16, C>::zeros();
    let mut k = 0;
    while k < n {
        let a = CoopMatrix::<f16, 16, A>::load_rows(x, row * n + k, n);
        let bm = CoopMatrix::<f16, 16, B>::load_rows(y, k * n + col, n);
        acc = a.multiply_add(bm, acc);
        k += 16;
    }
    acc.store_rows(z, row * n + col, n);
}

#[sarek::kernel(workgroup_size = [64])]
fn staged_product(x: &[f32], y: &[f32], z: &mut [f32]) {
    let t = thread_idx_x();
    let tile = shared::<[f32; 64]>();
    tile[t] = x[t];
    block_barrier();
    let a = CoopMatrix::<f32, 8, A>::load_columns(&tile, 0, 8);
    let bm = CoopMatrix::<f32, 8, B>::load_rows(&y, 0, 8);
    let c: CoopMatrix<f32, 8, C> = CoopMatrix::load_columns(&z, 0, 8);
    let r = a.multiply_add(bm, c);
    r.store_columns(z, 0, 8);
}
