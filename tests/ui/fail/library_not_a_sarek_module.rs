//! A kernel that uses an item of a plain module: only a `#[sarek::module]` hands its items on,
//! so rustc cannot find the macro that would.

mod plain {
    pub fn helper(x: f32) -> f32 {
        x * 2.0
    }
}

#[sarek::module]
mod m {
    use super::plain::helper;
    use sarek::prelude::*;

    #[sarek::kernel]
    pub fn k(x: &mut [f32]) {
        x[0] = helper(x[0]);
    }
}

fn main() {}
