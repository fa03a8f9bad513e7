#[sarek::kernel]
fn k(out: &mut [i32]) {
    for i in (0..10).map(|x| x * 2) {
        out[0] = i;
    }
    for v in out.iter() {
        let _ = v;
    }
    for i in (0..10).step_by(2).rev().rev() {
        out[0] = i;
    }
}

fn main() {}
