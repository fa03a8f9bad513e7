#[sarek::kernel]
fn k(a: i64, out: &mut [u64]) {
    let x = 5u64;
}

fn main() {}
