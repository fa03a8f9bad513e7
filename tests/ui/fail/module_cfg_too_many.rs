//! More than 4 distinct `cfg` predicates on what kernels read: the module would be expanded
//! 32 times; refused at the fifth predicate, with the fix.

#[sarek::module]
mod m {
    use sarek::prelude::*;

    pub struct P {
        #[cfg(unix)]
        pub a: f32,
        #[cfg(windows)]
        pub b: f32,
        #[cfg(test)]
        pub c: f32,
        #[cfg(debug_assertions)]
        pub d: f32,
        #[cfg(not(unix))]
        pub e: f32,
        #[cfg(target_pointer_width = "64")]
        pub f: f32,
    }

    #[sarek::kernel]
    pub fn k(ps: &[P], out: &mut [f32]) {
        let i = global_thread_id();
        if i < ps.len() {
            out[i] = 1.0;
        }
    }
}

fn main() {}
