#[sarek::kernel]
fn k(out: &mut [f32]) {
    for _ in 0..thread_idx_x() {
        block_barrier();
    }
    let mut i = global_idx_x();
    while i < 100 {
        block_barrier();
        i += 1;
    }
}

fn main() {}
