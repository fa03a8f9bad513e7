//! A module exported by another Sarek version (written here by hand, as an older release's
//! macro would call back) is refused at the import.

mod old {
    #[doc(hidden)]
    macro_rules! exported_by_an_older_sarek {
        ($($state:tt)*) => {
            ::sarek::__private::import! { $($state)* ("0.0.1" "old_lib") ({ "old_lib::old#0" "old_lib" { pub fn helper(x: f32) -> f32 { x } } }) }
        };
    }
    pub(crate) use exported_by_an_older_sarek as __sarek_module;
    pub fn helper(x: f32) -> f32 {
        x
    }
}

#[sarek::module]
mod m {
    use super::old::helper;
    use sarek::prelude::*;

    #[sarek::kernel]
    pub fn k(x: &mut [f32]) {
        x[0] = helper(x[0]);
    }
}

fn main() {}
