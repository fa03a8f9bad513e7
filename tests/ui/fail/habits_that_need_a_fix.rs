use sarek::prelude::*;
#[sarek::kernel]
fn k(n: usize, buf: &mut [f32], x: &[f32]) {
    let scratch = vec![0.0; n];
    let r = &x[3];
    let tail = &mut buf[4..];
    let _ = buf;
    let tile = shared::<[f32; 64]>(); let _ = tile;
}

fn main() {}
