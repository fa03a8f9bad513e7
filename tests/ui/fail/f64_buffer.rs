#[sarek::kernel]
fn k(out: &mut [f64]) {}

fn main() {}
