const SCALE: f32 = 2.0;

#[sarek::kernel]
fn k(out: &mut [f32]) {
    out[0] = SCALE;
}

fn main() {}
