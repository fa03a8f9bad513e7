#[sarek::module]
mod m {
    use sarek::prelude::*;

    fn tree_sum(tile: &mut [f32; 64], lid: usize) {
        let mut stride = 32;
        while stride > 0 {
            if lid < stride {
                tile[lid] += tile[lid + stride];
            }
            block_barrier();
            stride /= 2;
        }
    }

    #[sarek::kernel(workgroup_size = [64])]
    pub fn k(x: &[f32], out: &mut [f32]) {
        let tile = shared::<[f32; 64]>();
        let i = global_thread_id();
        if i < x.len() {
            tile[thread_idx_x()] = x[i];
            tree_sum(tile, thread_idx_x());
        }
        out[block_idx_x()] = tile[0];
    }
}

fn main() {}
