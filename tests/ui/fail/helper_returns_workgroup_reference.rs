#[sarek::module]
mod m {
    use sarek::prelude::*;

    fn scratch(tile: &mut [f32; 64]) -> &mut [f32; 64] {
        tile
    }

    #[sarek::kernel(workgroup_size = [64])]
    pub fn k(out: &mut [f32]) {
        let tile = shared::<[f32; 64]>();
        let t = scratch(tile);
        out[global_thread_id()] = t[0];
    }
}

fn main() {}
