//! What a `sarek::instances!` request can get wrong, each refused at its token.

#[sarek::module]
pub mod lib {
    use sarek::prelude::*;

    pub trait Op: Copy + SharedMemory {
        fn apply(a: Self, b: Self) -> Self;
    }

    pub struct Plain {
        pub x: f32,
    }

    #[sarek::kernel]
    pub fn not_generic(x: &mut [f32]) {
        x[0] = 1.0;
    }

    #[sarek::kernel(instances(B = [64]))]
    pub fn blocks<T: Scalar, const B: usize>(x: &mut [T]) {
        let i = global_thread_id();
        if i < B && i < x.len() {
            x[i] = x[i] + x[i];
        }
    }

    #[sarek::kernel]
    pub fn fold<T: Op>(x: &mut [T]) {
        x[0] = T::apply(x[0], x[1]);
    }
}

#[sarek::module]
mod user {
    use super::lib::{blocks, fold, not_generic, Op, Plain};

    pub struct Mine {
        pub v: u32,
    }
    impl Op for Mine {
        fn apply(a: Self, b: Self) -> Self {
            Mine { v: a.v + b.v }
        }
    }

    sarek::instances!(
        // Not a generic kernel.
        not_generic<f32>,
        // Already built by the kernel's own list.
        blocks<f32, 64>,
        // Wrong number of arguments.
        blocks<f32>,
        // Not a type of the bound.
        blocks<bool, 128>,
        // A value where a type goes.
        blocks<128, 128>,
        // A type that does not implement the bound's trait.
        fold<Plain>,
        // Twice.
        fold<Mine>,
        fold<Mine>,
        // No arguments.
        fold,
    );
}

fn main() {}
