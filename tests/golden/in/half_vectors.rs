#[sarek::kernel]
fn saxpy_f16x4(a: f16, x: &[F16Vec4], y: &mut [F16Vec4]) {
    let i = global_thread_id();
    if i < y.len() {
        y[i] = x[i] * a + y[i];
    }
}

#[sarek::kernel]
fn half_vector_math(x: &[F16Vec4], s: F16Vec2, out: &mut [F16Vec4], wide: &mut [Vec4]) {
    let i = global_thread_id();
    if i < x.len() {
        let v = x[i];
        let p = F16Vec2::new(v.x, v.w) * s + F16Vec2::Y;
        out[i] = F16Vec4::new(p.x, p.y, v.dot(F16Vec4::ONE), v.length()) - v.normalize().min(-v);
        wide[i] = v.to_vec4() + Vec4::from(F16Vec4::from_vec4(wide[i]).abs());
    }
}
