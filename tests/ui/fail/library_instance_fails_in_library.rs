//! An instance that fails inside the kernel it instantiates: the error is at the kernel's
//! token, named by the instance, and again at the request.

#[sarek::module]
pub mod lib {
    use sarek::prelude::*;

    #[sarek::kernel(workgroup_size = [B], instances(B = [64]))]
    pub fn tile<const B: usize>(x: &mut [f32]) {
        let t = shared::<[f32; B]>();
        x[0] = t[0];
    }
}

#[sarek::module]
mod user {
    use super::lib::tile;

    // 4096 invocations is more than a workgroup may have.
    sarek::instances!(tile<4096>);
}

fn main() {}
