//! `sarek::instances!` needs the module's types and impls: outside a `#[sarek::module]` it
//! is an error.

#[sarek::module]
mod lib {
    use sarek::prelude::*;

    #[sarek::kernel(instances(B = [64]))]
    pub fn k<const B: usize>(x: &mut [u32]) {
        x[0] = B as u32;
    }
}

sarek::instances!(lib::k<128>);

fn main() {}
