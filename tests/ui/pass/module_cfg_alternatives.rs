//! Two cfg-alternative structs. The macro cannot evaluate `cfg`, so it
//! expands the module once per alternative, and rustc keeps the one it compiles.

#[sarek::module]
mod m {
    use sarek::prelude::*;

    #[cfg(feature = "wide")]
    pub struct P {
        pub x: f32,
        pub y: f32,
    }

    #[cfg(not(feature = "wide"))]
    pub struct P {
        pub x: f32,
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
