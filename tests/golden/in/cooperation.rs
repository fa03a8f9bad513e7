#[sarek::kernel]
fn histogram(data: &[u32], bins: &[AtomicU32]) {
    let local = shared::<[AtomicU32; 256]>();
    let t = thread_idx_x();
    local[t].store(0, Ordering::Relaxed);
    block_barrier();
    let i = global_idx_x();
    if i < data.len() {
        local[(data[i] % 256) as usize].fetch_add(1, Ordering::Relaxed);
    }
    block_barrier();
    let count = local[t].load(Ordering::Relaxed);
    if count > 0 && bins[t].compare_exchange(0, count, Ordering::Relaxed, Ordering::Relaxed).is_err() {
        bins[t].fetch_add(count, Ordering::Relaxed);
    }
}

#[sarek::kernel(workgroup_size = [16, 16])]
fn transpose(n: usize, a: &[f32], b: &mut [f32]) {
    const T: usize = 16;
    let tile = shared::<[[f32; T]; T]>();
    let x = global_idx_x();
    let y = global_idx_y();
    tile[thread_idx_y()][thread_idx_x()] = if x < n && y < n { a[y * n + x] } else { 0.0 };
    block_barrier();
    let ox = block_idx_y() * T + thread_idx_x();
    let oy = block_idx_x() * T + thread_idx_y();
    if ox < n && oy < n {
        b[oy * n + ox] = tile[thread_idx_x()][thread_idx_y()];
    }
}
