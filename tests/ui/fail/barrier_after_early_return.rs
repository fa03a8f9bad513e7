#[sarek::kernel]
fn k(n: usize, out: &mut [f32]) {
    if global_idx_x() >= n {
        return;
    }
    block_barrier();
}

fn main() {}
