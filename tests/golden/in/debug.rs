// Prints and assertions: the debug channel is declared and written only here.

#[sarek::kernel(workgroup_size = [64])]
fn prints(x: &[f32], v: &[Vec2]) {
    let i = global_thread_id();
    if i < x.len() {
        gpu_println!("i = {i}, x = {:.3}, v = {:?}", x[i], v[i]);
        assert!(x[i] >= 0.0, "x[{i}] = {}", x[i]);
        assert_eq!(i as u32 % 2, 0);
    }
}
