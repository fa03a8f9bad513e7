#[sarek::kernel]
fn k(a: &[i32], out: &mut [i32]) {
    out[0] = a[0].checked_add(a[1]).unwrap_or(0);
    out[1] = a[0].saturating_ad(a[1]);
    out[2] = a[0].total_cmp(a[1]) as i32;
}

fn main() {}
