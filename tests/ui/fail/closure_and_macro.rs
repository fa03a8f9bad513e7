#[sarek::kernel]
fn k(out: &mut [f32]) {
    let f = |x: f32| x * 2.0;
    println!("hello");
    panic!("no");
}

fn main() {}
