//! The Rust side of cooperative matrices: each operation once per subgroup that has an
//! active invocation, with the interpreter's meaning ([`crate::interp::coop`]'s element
//! placement, product and rounding; `interp/exec/coop.rs`'s memory access: the subgroup's
//! first active invocation gives offset and stride, memory of 2- or 4-wide vectors is
//! addressed as its scalars, an element past the end reads 0 and is not written).

use std::sync::atomic::{AtomicU32, Ordering};

use super::View;
use crate::interp::coop::{index, multiply_add, round};
use crate::ir::{CoopMatrix, CoopOp};

/// The cooperative matrices of the workgroup a worker runs: per variable (by slot, see
/// [`super::coop_matrices`]), element of an array variable and subgroup, row-major `f32`
/// elements (an `f16` element is kept rounded, as the interpreter keeps it).
#[derive(Debug, Default)]
pub(crate) struct Matrices {
    /// Per slot, its matrices' elements, subgroup after subgroup, array element after array
    /// element.
    data: Vec<Vec<f32>>,
    /// Per slot, `size * size`.
    elements: Vec<usize>,
    /// Subgroups of a workgroup.
    subgroups: usize,
}

impl Matrices {
    /// Room for `matrices` (every variable of a kernel) of `subgroups` subgroups.
    pub(in crate::jit) fn new(matrices: &[CoopMatrix], subgroups: usize) -> Matrices {
        let elements: Vec<usize> = matrices
            .iter()
            .map(|m| (m.size * m.size) as usize)
            .collect();
        Matrices {
            data: matrices
                .iter()
                .zip(&elements)
                .map(|(m, e)| vec![0.0; e * subgroups * m.len.max(1) as usize])
                .collect(),
            elements,
            subgroups,
        }
    }

    /// Sets every matrix to zero (a new workgroup: WGSL's `var`s start at zero).
    pub(in crate::jit) fn clear(&mut self) {
        for d in &mut self.data {
            d.fill(0.0);
        }
    }

    fn get(&self, (slot, e): (usize, usize), group: usize) -> &[f32] {
        let n = self.elements[slot];
        let at = (e * self.subgroups + group) * n;
        &self.data[slot][at..at + n]
    }

    /// Sets a matrix of element type `m.scalar`, rounding each element to it.
    fn set(&mut self, (slot, e): (usize, usize), m: CoopMatrix, group: usize, elements: &[f32]) {
        let n = self.elements[slot];
        let at = (e * self.subgroups + group) * n;
        let dst = &mut self.data[slot][at..at + n];
        for (d, e) in dst.iter_mut().zip(elements) {
            *d = round(m.scalar, *e);
        }
    }
}

/// Where a load reads or a store writes.
#[derive(Debug, Clone, Copy)]
pub(in crate::jit) enum Place {
    /// A buffer parameter.
    Buffer(usize),
    /// A workgroup array starting at this word of workgroup memory.
    Shared(u32),
}

/// A load's or store's memory, addressed by scalar element.
#[derive(Debug, Clone, Copy)]
pub(in crate::jit) struct Memory {
    pub place: Place,
    /// `f16` elements (two to a word, the first in the low half) rather than 32-bit ones.
    pub half: bool,
    /// Scalars per element of the memory (1, or a vector's 2 or 4).
    pub lanes: u32,
    /// Scalars of a workgroup array (a buffer's come from `len()`).
    pub len: Option<u64>,
}

/// The words of a load's or store's memory.
enum Words<'v> {
    Buffer(&'v [AtomicU32]),
    Shared(&'v mut [u32]),
}

impl Words<'_> {
    fn get(&self, w: usize) -> u32 {
        match self {
            Words::Buffer(b) => b.get(w).map_or(0, |x| x.load(Ordering::Relaxed)),
            Words::Shared(s) => s.get(w).copied().unwrap_or(0),
        }
    }

    /// Replaces the bits of word `w` under `mask` with `bits`.
    fn put(&mut self, w: usize, mask: u32, bits: u32) {
        match self {
            Words::Buffer(b) => {
                if let Some(x) = b.get(w) {
                    if mask == u32::MAX {
                        x.store(bits, Ordering::Relaxed);
                    } else {
                        let _ = x.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |old| {
                            Some((old & !mask) | (bits & mask))
                        });
                    }
                }
            }
            Words::Shared(s) => {
                if let Some(x) = s.get_mut(w) {
                    *x = (*x & !mask) | (bits & mask);
                }
            }
        }
    }
}

/// A memory's words and its length in scalars.
fn words<'v>(mem: &Memory, view: &'v mut View<'_>) -> (Words<'v>, u64) {
    let per_word = if mem.half { 2 } else { 1 };
    match mem.place {
        Place::Buffer(p) => {
            let b = view.buffers.get(p).copied().unwrap_or(&[]);
            let len = u64::from(view.lens.get(p).copied().unwrap_or(0)) * u64::from(mem.lanes);
            (Words::Buffer(b), len.min(b.len() as u64 * per_word))
        }
        Place::Shared(at) => {
            let len = mem.len.unwrap_or(0);
            let s = view.shared.get_mut(at as usize..).unwrap_or(&mut []);
            let len = len.min(s.len() as u64 * per_word);
            (Words::Shared(s), len)
        }
    }
}

/// Scalar `i` (below the length) as `f32`.
fn read(w: &Words<'_>, half: bool, i: u64) -> f32 {
    if half {
        let word = w.get((i / 2) as usize);
        half::f16::from_bits((word >> (16 * (i % 2))) as u16).to_f32()
    } else {
        f32::from_bits(w.get(i as usize))
    }
}

/// Writes `x` as scalar `i` (below the length).
fn write(w: &mut Words<'_>, half: bool, i: u64, x: f32) {
    if half {
        let shift = 16 * (i % 2) as u32;
        let bits = u32::from(half::f16::from_f32(x).to_bits()) << shift;
        w.put((i / 2) as usize, 0xFFFF << shift, bits);
    } else {
        w.put(i as usize, u32::MAX, x.to_bits());
    }
}

/// Runs `op` for every subgroup with an active invocation.
pub(super) fn run(op: &CoopOp, slots: &[usize], memory: Option<&Memory>, view: &mut View<'_>) {
    for (group, active) in view.subgroups() {
        let first = active[0];
        let at = || (view.arg(first, 0, 0), view.arg(first, 1, 0));
        // Each matrix's slot and array element: the indices follow a load's or store's offset
        // and stride among the arguments (`CoopOp::exprs`), and clamp as the interpreter's do.
        let mut arg = memory.map_or(0, |_| 2);
        let m: Vec<(usize, usize)> = op
            .matrices()
            .iter()
            .zip(slots)
            .map(|(m, &slot)| match m.index {
                Some(_) => {
                    let k = view.arg(first, arg, 0).min(m.len.saturating_sub(1));
                    arg += 1;
                    (slot, k as usize)
                }
                None => (slot, 0),
            })
            .collect();
        match (op, memory) {
            (CoopOp::Zero { dst }, _) => {
                let zeros = vec![0.0; (dst.size * dst.size) as usize];
                view.matrices.set(m[0], *dst, group, &zeros);
            }
            (CoopOp::MultiplyAdd { dst, a, .. }, _) => {
                let r = multiply_add(
                    a.size as usize,
                    view.matrices.get(m[1], group),
                    view.matrices.get(m[2], group),
                    view.matrices.get(m[3], group),
                );
                view.matrices.set(m[0], *dst, group, &r);
            }
            (CoopOp::Load { dst, layout, .. }, Some(mem)) => {
                let (offset, stride) = at();
                let (offset, stride) = (
                    offset.saturating_mul(mem.lanes),
                    stride.saturating_mul(mem.lanes),
                );
                let (w, len) = words(mem, view);
                let n = dst.size;
                let mut out = Vec::with_capacity((n * n) as usize);
                for r in 0..n {
                    for c in 0..n {
                        let i = index(*layout, offset, stride, r, c);
                        out.push(if i < len { read(&w, mem.half, i) } else { 0.0 });
                    }
                }
                view.matrices.set(m[0], *dst, group, &out);
            }
            (CoopOp::Store { src, layout, .. }, Some(mem)) => {
                let (offset, stride) = at();
                let (offset, stride) = (
                    offset.saturating_mul(mem.lanes),
                    stride.saturating_mul(mem.lanes),
                );
                let elements = view.matrices.get(m[0], group).to_vec();
                let (mut w, len) = words(mem, view);
                let n = src.size;
                for r in 0..n {
                    for c in 0..n {
                        let i = index(*layout, offset, stride, r, c);
                        if i < len {
                            write(&mut w, mem.half, i, elements[(r * n + c) as usize]);
                        }
                    }
                }
            }
            // A load or store without its memory: never generated.
            _ => {}
        }
    }
}
