#[sarek::kernel]
fn k(x: &[f32], out: &mut [f32]) {
    if x[0] > 0.0 {
        block_barrier();
    }
    let tile = shared::<[u32; 4]>();
    if tile[0] == 1 {
        storage_barrier();
    }
}

fn main() {}
