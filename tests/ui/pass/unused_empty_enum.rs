//! An enum without variants that no kernel uses is not an error (rustc
//! accepts it; only a kernel that uses it is refused).

#[sarek::module]
mod m {
    use sarek::prelude::*;

    pub enum Never {}

    #[sarek::kernel]
    pub fn k(out: &mut [u32]) {
        let i = global_thread_id();
        if i < out.len() {
            out[i] = 1;
        }
    }
}

fn main() {}
