#[sarek::kernel]
fn k(out: &mut [f32]) {
    let half = 0.5;
    let ok: f32 = 0.25;
}

fn main() {}
