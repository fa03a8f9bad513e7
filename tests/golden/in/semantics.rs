#[sarek::kernel]
fn semantics(x: &[f32], a: &[i32], s: &[u32], f: &mut [f32], i: &mut [i32]) {
    let k = global_thread_id();
    if k < x.len() {
        f[k] = x[k] % 3.0 + x[k].round() + f32::INFINITY.min(x[k]);
        i[k] = (x[k] as i32) + (a[k] << s[k]) + (a[k] >> 3) + i32::MIN + (x[k] as u32) as i32;
    }
}
