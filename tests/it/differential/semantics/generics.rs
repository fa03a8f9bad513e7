//! Generic kernels and statically dispatched traits against their plain-Rust body.

use super::*;

proptest! {
    #![proptest_config(config(24))]

    /// Generic kernels (tests/it/language/generics.rs) on every backend and as their plain-Rust body:
    /// the `i32` instance of `scale<T: Scalar>`, inferred from the arguments, and
    /// `combine::<Max>`, dispatched statically through a module trait.
    #[test]
    fn generic_and_trait_dispatched(
        a in -1000i32..1000,
        x in vec(-1000i32..1000, 1..200),
        y in vec(normal_f32s(), 1..200),
    ) {
        use crate::language::generics::{ops, scale};
        let n = x.len();
        let outputs = on_backends(|dev| {
            let xb = dev.upload(&x).unwrap();
            let mut yb = dev.zeros::<i32>(n).unwrap();
            scale.launch(dev, Grid::cover(n), a, &xb, &mut yb).unwrap();
            yb.read().unwrap()
        });
        let mut expected = vec![0i32; n];
        on_host(n, 64, || scale::body(a, &x, &mut expected));
        agree("scale::<i32>", &outputs, Some((BODY, &expected)), exact, |k| format!("y[{k}] with a = {a}, x = {}", x[k]))?;

        let m = y.len();
        let outputs = on_backends(|dev| {
            let yb = dev.upload(&y).unwrap();
            let mut out = dev.zeros::<f32>(m).unwrap();
            ops::combine.launch::<ops::Max>(dev, Grid::cover(m), &yb, &yb, &mut out).unwrap();
            out.read().unwrap()
        });
        let mut expected = vec![0f32; m];
        on_host(m, 64, || ops::combine::body::<ops::Max>(&y, &y, &mut expected));
        agree("combine::<Max>", &outputs, Some((BODY, &expected)), same_bits, |k| format!("out[{k}] with x = y = {:?}", y[k]))?;
    }
}
