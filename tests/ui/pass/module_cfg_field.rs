//! A cfg'd-out field is neither laid out nor asserted in the variant rustc
//! compiles.

#[sarek::module]
mod m {
    use sarek::prelude::*;

    pub struct P {
        pub x: f32,
        #[cfg(feature = "debug-ids")]
        pub id: u32,
    }

    #[sarek::kernel]
    pub fn k(ps: &[P], out: &mut [f32]) {
        let i = global_thread_id();
        if i < ps.len() {
            out[i] = ps[i].x;
        }
    }
}

fn main() {}
