use sarek::prelude::*;

#[sarek::kernel(workgroup_size = [64])]
fn no_argument(out: &mut [u32]) {
    out[0] = workgroup_uniform_load();
}

#[sarek::kernel(workgroup_size = [64])]
fn two_arguments(out: &mut [u32]) {
    let flag = shared::<[u32; 2]>();
    out[0] = workgroup_uniform_load(&flag[0], &flag[1]);
}

#[sarek::kernel(workgroup_size = [64])]
fn not_a_reference(out: &mut [u32]) {
    let flag = shared::<[u32; 1]>();
    out[0] = workgroup_uniform_load(flag[0]);
}

#[sarek::kernel(workgroup_size = [64])]
fn mutable_reference(out: &mut [u32]) {
    let flag = shared::<[u32; 1]>();
    out[0] = workgroup_uniform_load(&mut flag[0]);
}

#[sarek::kernel(workgroup_size = [64])]
fn a_buffer_element(x: &[u32], out: &mut [u32]) {
    out[0] = workgroup_uniform_load(&x[0]);
}

#[sarek::kernel(workgroup_size = [64])]
fn a_local(out: &mut [u32]) {
    let local = 3u32;
    out[0] = workgroup_uniform_load(&local);
}

#[sarek::kernel(workgroup_size = [64])]
fn in_a_helper(out: &mut [u32]) {
    fn read_flag(flag: &[u32; 1]) -> u32 {
        workgroup_uniform_load(&flag[0])
    }
    let flag = shared::<[u32; 1]>();
    out[0] = read_flag(flag);
}

#[sarek::kernel(workgroup_size = [64])]
fn under_divergent_control_flow(out: &mut [u32]) {
    let flag = shared::<[u32; 1]>();
    if thread_idx_x() == 0 {
        out[0] = workgroup_uniform_load(&flag[0]);
    }
}

fn main() {}
