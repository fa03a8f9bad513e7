#[sarek::kernel]
fn saxpy_f16(a: f16, x: &[f16], y: &mut [f16]) {
    let i = global_thread_id();
    if i < y.len() {
        y[i] = a * x[i] + y[i];
    }
}

#[sarek::kernel]
fn half_math(x: &[f16], out: &mut [f16], ints: &mut [i32]) {
    let i = global_thread_id();
    if i < x.len() {
        let v = x[i];
        let w = f16::from_f32(v.to_f32() * 0.5) + f16::from_f32(1.5);
        out[i] = v.sqrt() * w % f16::from_f32(0.75) - f16::INFINITY.min(v.exp());
        ints[i] = (v.to_f32() * 100.0) as i32;
    }
}
