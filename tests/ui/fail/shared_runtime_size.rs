#[sarek::kernel]
fn k(n: usize, out: &mut [f32]) {
    let m = 64;
    let tile = shared::<[f32; m]>();
}

fn main() {}
