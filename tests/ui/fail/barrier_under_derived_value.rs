#[sarek::kernel]
fn k(out: &mut [f32]) {
    let t = thread_idx_x();
    let u = t * 2;
    let mut v = 0;
    v = u + 1;
    let w = v;
    if w > 5 {
        block_barrier();
    }
}

fn main() {}
