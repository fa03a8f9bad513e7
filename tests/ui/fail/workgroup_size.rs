#[sarek::kernel(workgroup_size = [512])]
fn too_wide(out: &mut [f32]) {}

#[sarek::kernel(workgroup_size = [32, 32])]
fn too_many(out: &mut [f32]) {}

#[sarek::kernel(workgroup_size = 64)]
fn not_an_array(out: &mut [f32]) {}

#[sarek::kernel(threads = [64])]
fn unknown_argument(out: &mut [f32]) {}

fn main() {}
