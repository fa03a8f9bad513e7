#[sarek::kernel]
fn k(out: &mut [f32]) {
    let mut go = false;
    if thread_idx_x() == 0 {
        go = true;
    }
    if go {
        block_barrier();
    }
}

fn main() {}
