#[sarek::kernel]
fn k(out: &mut [f32]) {
    let a: f64 = 1.0;
    let b = 2u128;
    let c = (1, 2);
    out[0] = 1.0;
}

fn main() {}
