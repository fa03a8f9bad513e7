#[sarek::kernel]
fn k(a: u8, out: &mut [i16]) {}

fn main() {}
