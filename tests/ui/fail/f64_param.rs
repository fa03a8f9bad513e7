#[sarek::kernel]
fn k(a: f64, out: &mut [f32]) {}

fn main() {}
