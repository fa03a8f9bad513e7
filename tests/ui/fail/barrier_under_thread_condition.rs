#[sarek::kernel]
fn k(out: &mut [f32]) {
    if thread_idx_x() < 16 {
        block_barrier();
    }
}

fn main() {}
