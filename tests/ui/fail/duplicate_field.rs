// A struct field declared twice is refused by the macro at the second one (rustc refuses it
// too), not by the WGSL compiler as a bug in Sarek.
#[sarek::module]
mod m {
    use sarek::prelude::*;

    pub struct Twice {
        pub a: f32,
        pub a: f32,
    }

    #[sarek::kernel]
    pub fn twice(p: &mut [Twice]) {
        p[0].a = 1.0;
    }
}

fn main() {}
