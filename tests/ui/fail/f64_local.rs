#[sarek::kernel]
fn k(out: &mut [f32]) {
    let x: f64 = 1.0;
}

fn main() {}
