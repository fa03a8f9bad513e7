fn helper(x: f32) -> f32 {
    x
}

#[sarek::kernel]
fn k(out: &mut [f32]) {
    out[0] = helper(1.0);
}

fn main() {}
