#[sarek::kernel]
fn k(out: &mut [i32]) {
    'outer: loop {
        loop {
            break 'outer;
        }
    }
}

fn main() {}
