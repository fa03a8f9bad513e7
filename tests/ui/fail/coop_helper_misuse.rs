#[sarek::module]
mod m {
    use sarek::coop::C;
    use sarek::prelude::*;

    /// Loads a tile and stores it: a cooperative-matrix operation of the whole subgroup.
    fn copy_tile(x: &[f32], z: &mut [f32]) {
        let t = CoopMatrix::<f32, 16, C>::load_rows(x, 0, 16);
        t.store_rows(z, 0, 16);
    }

    // A helper with matrices, called where only some threads call it.
    #[sarek::kernel(workgroup_size = [32])]
    pub fn divergent_call(x: &[f32], z: &mut [f32]) {
        if x[thread_idx_x()] > 0.0 {
            copy_tile(x, z);
        }
    }

    // A matrix is neither a helper's parameter nor its result.
    fn store(m: CoopMatrix<f32, 16, C>, z: &mut [f32]) {
        m.store_rows(z, 0, 16);
    }

    #[sarek::kernel(workgroup_size = [32])]
    pub fn passed(z: &mut [f32]) {
        let m = CoopMatrix::<f32, 16, C>::zeros();
        store(m, z);
    }
}

fn main() {}
