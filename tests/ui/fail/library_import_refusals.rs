//! Imports a kernel cannot use: a renamed import, and a name declared both here and in the
//! imported module.

#[sarek::module]
pub mod lib {
    pub fn helper(x: f32) -> f32 {
        x * 2.0
    }

    pub fn twice(x: f32) -> f32 {
        helper(helper(x))
    }
}

#[sarek::module]
mod renamed {
    use super::lib::twice as double;
    use sarek::prelude::*;

    #[sarek::kernel]
    pub fn k(x: &mut [f32]) {
        x[0] = double(x[0]);
    }
}

#[sarek::module]
mod clash {
    use super::lib::twice;
    use sarek::prelude::*;

    // `lib` has a `helper` of its own, which `twice` calls.
    pub fn helper(x: f32) -> f32 {
        x + 1.0
    }

    #[sarek::kernel]
    pub fn k(x: &mut [f32]) {
        x[0] = twice(helper(x[0]));
    }
}

fn main() {}
