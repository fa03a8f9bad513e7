#[sarek::module]
mod m {
    use sarek::prelude::*;

    fn sync() {
        block_barrier();
    }

    #[sarek::kernel]
    pub fn k(out: &mut [u32]) {
        let i = global_thread_id();
        sync();
        out[i] = 1;
    }
}

fn main() {}
