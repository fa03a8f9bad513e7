#[sarek::kernel]
fn k(out: &mut [i32]) {
    for i in (0..10).rev() {
        out[0] = i;
    }
}

fn main() {}
