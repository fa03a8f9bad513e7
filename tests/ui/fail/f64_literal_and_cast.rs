#[sarek::kernel]
fn k(out: &mut [f32]) {
    let x = 1.0f64;
    let y = 2 as f64;
}

fn main() {}
