//! Kernel libraries: modules that use the items of other modules, and generic kernels
//! instantiated where they are asked for.

use crate::common::backends;
use sarek::{Grid, Instance};

#[sarek::module]
pub mod linalg {
    use sarek::prelude::*;

    /// A pair of numbers, shared with the modules that import it.
    pub struct Pair {
        pub a: f32,
        pub b: f32,
    }

    pub const SCALE: f32 = 2.0;

    impl Pair {
        pub fn sum(self) -> f32 {
            self.a + self.b
        }
    }

    /// How `apply` treats a value.
    pub enum Mode {
        Plain,
        Times(f32),
    }

    pub fn apply(m: Mode, x: f32) -> f32 {
        match m {
            Mode::Plain => x,
            Mode::Times(k) => k * x,
        }
    }

    pub fn twice<T: Scalar>(x: T) -> T {
        x + x
    }

    pub fn dot(p: Pair, q: Pair) -> f32 {
        p.a * q.a + p.b * q.b
    }

    /// A monoid over an element type: the extension point of `reduce`.
    pub trait Monoid {
        fn empty() -> Self;
        fn combine(a: Self, b: Self) -> Self;
    }

    /// Folds each workgroup's 64 elements into one (a sequential fold, to keep it small).
    #[sarek::kernel(workgroup_size = [64])]
    pub fn fold<T: Monoid + Copy>(xs: &[T], out: &mut [T]) {
        let i = global_thread_id();
        if i < out.len() {
            let mut acc = T::empty();
            let mut k = 0;
            while k < 4 {
                let j = i * 4 + k;
                if j < xs.len() {
                    acc = T::combine(acc, xs[j]);
                }
                k += 1;
            }
            out[i] = acc;
        }
    }

    #[sarek::kernel]
    pub fn scale<T: Scalar>(xs: &mut [T]) {
        let i = global_thread_id();
        if i < xs.len() {
            xs[i] = xs[i] + xs[i];
        }
    }

    /// Adds `B` to each element; built for `B = 1` here, for others where they are asked for.
    #[sarek::kernel(instances(B = [1]))]
    pub fn add<const B: usize>(xs: &mut [u32]) {
        let i = global_thread_id();
        if i < xs.len() {
            xs[i] += B as u32;
        }
    }
}

#[sarek::module]
pub mod app {
    use super::linalg::{add, apply, dot, fold, twice, Mode, Monoid, Pair, SCALE};
    use sarek::prelude::*;

    /// The largest value and where it is.
    pub struct ArgMax {
        pub value: f32,
        pub index: u32,
    }

    impl Monoid for ArgMax {
        fn empty() -> Self {
            ArgMax {
                value: -1.0e30,
                index: 0,
            }
        }
        fn combine(a: Self, b: Self) -> Self {
            if b.value > a.value {
                b
            } else {
                a
            }
        }
    }

    sarek::instances!(fold<ArgMax>, add<1000>, pub add_seven = add<7>);

    #[sarek::kernel]
    pub fn dots(ps: &[Pair], out: &mut [f32]) {
        let i = global_thread_id();
        if i < out.len() {
            out[i] = SCALE * dot(ps[i], ps[i]);
        }
    }

    #[sarek::kernel]
    pub fn mixed(ps: &[Pair], out: &mut [f32]) {
        let i = global_thread_id();
        if i < out.len() {
            let m = if i == 0 {
                Mode::Plain
            } else {
                Mode::Times(3.0)
            };
            out[i] = apply(m, ps[i].sum()) + twice(1.0f32);
        }
    }
}

#[backends]
fn a_kernel_calls_a_helper_and_uses_a_struct_of_another_module(dev: sarek::Device) {
    use linalg::Pair;
    let ps = dev
        .upload(&[Pair { a: 1.0, b: 2.0 }, Pair { a: 3.0, b: -1.0 }])
        .unwrap();
    let mut out = dev.zeros::<f32>(2).unwrap();
    app::dots
        .launch(&dev, Grid::cover(2), &ps, &mut out)
        .unwrap()
        .wait()
        .unwrap();
    assert_eq!(out.read().unwrap(), [10.0, 20.0]);
}

#[backends]
fn an_instance_is_built_with_a_type_of_the_requesting_module(dev: sarek::Device) {
    use app::ArgMax;
    let xs: Vec<ArgMax> = (0..10u32)
        .map(|i| ArgMax {
            value: ((i * 7) % 10) as f32,
            index: i,
        })
        .collect();
    let xs = dev.upload(&xs).unwrap();
    let mut out = dev
        .upload(
            &[ArgMax {
                value: 0.0,
                index: 99,
            }; 3],
        )
        .unwrap();
    linalg::fold
        .launch::<ArgMax>(&dev, Grid::cover(3), &xs, &mut out)
        .unwrap()
        .wait()
        .unwrap();
    let got: Vec<(f32, u32)> = out
        .read()
        .unwrap()
        .iter()
        .map(|m| (m.value, m.index))
        .collect();
    // Values (i * 7) % 10 for i = 0..10: 0 7 4 1 | 8 5 2 9 | 6 3.
    assert_eq!(got, [(7.0, 1), (9.0, 7), (6.0, 8)]);
}

/// Generic host code names an instance through `sarek::Instance`.
fn scale_with<T: sarek::gpu::Scalar>(dev: &sarek::Device, xs: &mut sarek::Buffer<T>)
where
    linalg::scale: Instance<T>,
{
    linalg::scale
        .launch::<T>(dev, Grid::cover(xs.len()), xs)
        .unwrap()
        .wait()
        .unwrap();
}

#[backends]
fn host_code_bounds_on_instance(dev: sarek::Device) {
    let mut xs = dev.upload(&[1u32, 2, 3]).unwrap();
    scale_with(&dev, &mut xs);
    assert_eq!(xs.read().unwrap(), [2, 4, 6]);
    let mut ys = dev.upload(&[1.5f32]).unwrap();
    scale_with(&dev, &mut ys);
    assert_eq!(ys.read().unwrap(), [3.0]);
}

#[backends]
fn a_const_value_is_built_where_it_is_asked_for(dev: sarek::Device) {
    let mut xs = dev.upload(&[1u32, 2]).unwrap();
    linalg::add
        .launch::<1>(&dev, Grid::cover(2), &mut xs)
        .unwrap()
        .wait()
        .unwrap();
    linalg::add
        .launch::<1000>(&dev, Grid::cover(2), &mut xs)
        .unwrap()
        .wait()
        .unwrap();
    assert_eq!(xs.read().unwrap(), [1002, 1003]);
    // The kernel's own list names only what its attribute built.
    assert_eq!(linalg::add::INSTANCES, ["B = 1"]);
}

#[backends]
fn a_named_instance_is_a_kernel_of_its_own(dev: sarek::Device) {
    let mut xs = dev.upload(&[1u32, 2]).unwrap();
    app::add_seven
        .launch(&dev, Grid::cover(2), &mut xs)
        .unwrap()
        .wait()
        .unwrap();
    assert_eq!(xs.read().unwrap(), [8, 9]);
}
