#[sarek::kernel]
fn k(out: &mut [f32]) {
    out[0] = out[1].sinh_cosh();
    out[2] = out[3].to_string_lossy();
}

fn main() {}
