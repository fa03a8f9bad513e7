#[sarek::kernel(workgroup_size = [16, 16])]
fn names(filter: f32, r#type: &[f32], sarek_out: &mut [f32]) {
    let target = filter;
    let max = target.max(1.0);
    let select = max;
    let select = select + 1.0;
    let _ = select;
    let __hidden = thread_idx_y() + block_dim_y() + grid_dim_x() + block_idx_z();
    let i = global_idx_x() + __hidden * 0;
    if i < sarek_out.len() {
        sarek_out[i] = r#type[i] + select;
    }
}
