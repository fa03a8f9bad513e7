#[sarek::kernel]
fn k(out: &mut [f32]) {
    out[0] = out[1].log10();
}

fn main() {}
