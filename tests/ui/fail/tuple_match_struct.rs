#[sarek::kernel]
fn k(out: &mut [i32]) {
    let (a, b) = (1, 2);
    let c = match 3 { _ => 1 };
}

fn main() {}
