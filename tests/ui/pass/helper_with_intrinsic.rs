#[sarek::module]
mod m {
    use sarek::prelude::*;

    fn lane() -> usize {
        thread_idx_x()
    }

    #[sarek::kernel]
    pub fn k(out: &mut [u32]) {
        let i = global_thread_id();
        out[i] = lane() as u32;
    }
}

fn main() {}
