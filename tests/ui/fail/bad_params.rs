#[sarek::kernel]
fn k(flags: &[bool], idx: &[usize], arr: &[f32; 4], s: &str) {}

fn main() {}
