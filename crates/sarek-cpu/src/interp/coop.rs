//! Cooperative matrices, emulated in the same lockstep as subgroups. A matrix belongs to a
//! subgroup (`Launch::subgroup_size` consecutive invocations, as in [`super::subgroup`]), so
//! the interpreter keeps one `size`×`size` array per matrix variable and subgroup; an
//! operation is a collective point where the subgroup's first active invocation supplies the
//! offset and stride (WGSL requires them to be the same on every invocation of the subgroup).
//!
//! Elements are kept as `f32` (an `f16` element converts exactly) and rounded to the
//! matrix's element type after each operation. `multiply_add` sums each product in `k` order
//! from C's element in `f32`; GPUs sum in an order of their own, with the same precision or
//! more, so results agree within the rounding of a `k`-term `f32` sum.

use crate::ir::{CoopLayout, CoopMatrix, Scalar};

/// The matrices of one workgroup: by variable number, element (0 for a variable that is not
/// an array) and subgroup, row-major elements.
#[derive(Default)]
pub(super) struct Matrices {
    slots: std::collections::HashMap<(u32, u32, usize), Vec<f32>>,
}

impl Matrices {
    /// Forgets every matrix (a new workgroup: WGSL's `var`s start at zero).
    pub(super) fn clear(&mut self) {
        self.slots.clear();
    }

    /// Matrix `m` (element `e` of its variable) of subgroup `group`, zero if never set.
    pub(super) fn get(&self, (m, e): (CoopMatrix, u32), group: usize) -> Vec<f32> {
        self.slots
            .get(&(m.id, e, group))
            .cloned()
            .unwrap_or_else(|| vec![0.0; (m.size * m.size) as usize])
    }

    /// Sets matrix `m` (element `e` of its variable) of subgroup `group`, rounding to its
    /// element type.
    pub(super) fn set(&mut self, (m, e): (CoopMatrix, u32), group: usize, mut elements: Vec<f32>) {
        for x in &mut elements {
            *x = round(m.scalar, *x);
        }
        self.slots.insert((m.id, e, group), elements);
    }
}

/// `x` rounded to a matrix element of type `scalar`.
pub(crate) fn round(scalar: Scalar, x: f32) -> f32 {
    match scalar {
        Scalar::F16 => half::f16::from_f32(x).to_f32(),
        _ => x,
    }
}

/// The memory index of element `(r, c)` of a matrix at `offset` with `stride`.
pub(crate) fn index(layout: CoopLayout, offset: u32, stride: u32, r: u32, c: u32) -> u64 {
    let (major, minor) = match layout {
        CoopLayout::Rows => (r, c),
        CoopLayout::Columns => (c, r),
    };
    u64::from(offset) + u64::from(major) * u64::from(stride) + u64::from(minor)
}

/// `a * b + c` for `n`×`n` row-major matrices, each sum in `k` order from `c`'s element.
pub(crate) fn multiply_add(n: usize, a: &[f32], b: &[f32], c: &[f32]) -> Vec<f32> {
    let mut out = c.to_vec();
    for r in 0..n {
        for col in 0..n {
            let mut acc = c[r * n + col];
            for k in 0..n {
                acc += a[r * n + k] * b[k * n + col];
            }
            out[r * n + col] = acc;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn multiply_add_is_a_times_b_plus_c() {
        // [[1, 2], [3, 4]] * [[5, 6], [7, 8]] + [[1, 1], [1, 1]]
        let r = multiply_add(2, &[1., 2., 3., 4.], &[5., 6., 7., 8.], &[1., 1., 1., 1.]);
        assert_eq!(r, [20., 23., 44., 51.]);
    }

    #[test]
    fn layouts_place_elements() {
        assert_eq!(index(CoopLayout::Rows, 10, 32, 2, 3), 10 + 64 + 3);
        assert_eq!(index(CoopLayout::Columns, 10, 32, 2, 3), 10 + 96 + 2);
    }
}
