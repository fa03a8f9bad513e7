#[sarek::module]
mod m {
    use sarek::prelude::*;

    // Uniform when its caller passes a uniform `rounds`; this caller passes a thread index.
    fn smooth(tile: &mut [u32; 64], rounds: usize) {
        for _ in 0..rounds {
            tile[0] += 1;
            block_barrier();
        }
    }

    #[sarek::kernel(workgroup_size = [64])]
    pub fn k(out: &mut [u32]) {
        let tile = shared::<[u32; 64]>();
        smooth(tile, 4);
        smooth(tile, thread_idx_x());
        out[global_thread_id()] = tile[0];
    }
}

fn main() {}
