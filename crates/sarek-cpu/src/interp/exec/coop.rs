//! The lockstep side of cooperative matrices: a [`CoopOp`] runs once per subgroup of the
//! active invocations (see [`crate::interp::coop`]).

use crate::arena::Handle;
use crate::interp::coop::{self as matrices, Matrices};
use crate::interp::value::Value;
use crate::interp::FaultKind;
use crate::ir::{CoopLayout, CoopMatrix, CoopMemory, CoopOp, Expression, Scalar, Type};

use super::{Code, Lane, Mem, Workgroup};

impl<'p> Workgroup<'p> {
    /// Runs `op` for each subgroup of `active` (invocation `l` is in subgroup `l / size`).
    pub(super) fn coop(&self, code: Code<'p>, op: &'p CoopOp, lanes: &[Lane], active: &[usize]) {
        let size = self.launch.subgroup_size.max(1) as usize;
        let mut start = 0;
        while start < active.len() {
            let group = active[start] / size;
            let end = active[start..]
                .iter()
                .position(|&l| l / size != group)
                .map_or(active.len(), |n| start + n);
            let first = &lanes[active[start]];
            let at = |m: CoopMatrix| (m, self.coop_element(code, first, m));
            match op {
                CoopOp::Zero { dst } => {
                    let dst = at(*dst);
                    let zero = vec![0.0; (dst.0.size * dst.0.size) as usize];
                    self.coop.borrow_mut().set(dst, group, zero)
                }
                CoopOp::Load {
                    dst,
                    memory,
                    offset,
                    stride,
                    layout,
                } => {
                    let dst = at(*dst);
                    let place = self.coop_at(code, first, *offset, *stride);
                    let m = self.coop_load(code, first, dst.0, *memory, place, *layout, *offset);
                    self.coop.borrow_mut().set(dst, group, m);
                }
                CoopOp::MultiplyAdd { dst, a, b, c } => {
                    let (dst, a, b, c) = (at(*dst), at(*a), at(*b), at(*c));
                    let mut state = self.coop.borrow_mut();
                    let n = a.0.size as usize;
                    let r = matrices::multiply_add(
                        n,
                        &state.get(a, group),
                        &state.get(b, group),
                        &state.get(c, group),
                    );
                    state.set(dst, group, r);
                }
                CoopOp::Store {
                    src,
                    memory,
                    offset,
                    stride,
                    layout,
                } => {
                    let src = at(*src);
                    let place = self.coop_at(code, first, *offset, *stride);
                    let m = self.coop.borrow().get(src, group);
                    self.coop_store(code, first, src.0, &m, *memory, place, *layout, *offset);
                }
            }
            start = end;
        }
    }

    /// The element of its array variable that `m` names, from the subgroup's first active
    /// invocation (past the end: the last, as indices of local arrays clamp, and reported with
    /// checks on); 0 for a single matrix.
    fn coop_element(&self, code: Code<'p>, lane: &Lane, m: CoopMatrix) -> u32 {
        let Some(i) = m.index else { return 0 };
        let k = self.eval(code, lane, i).as_u32();
        if k < m.len {
            return k;
        }
        self.coop_out_of_range(code, lane, u64::from(k), u64::from(m.len), i);
        m.len.saturating_sub(1)
    }

    /// The offset and stride, from the subgroup's first active invocation.
    fn coop_at(
        &self,
        code: Code<'p>,
        lane: &Lane,
        offset: Handle<Expression>,
        stride: Handle<Expression>,
    ) -> (u32, u32) {
        (
            self.eval(code, lane, offset).as_u32(),
            self.eval(code, lane, stride).as_u32(),
        )
    }

    /// The memory of a load or store, its element type and its length in elements, and the
    /// lanes of each of its elements: memory of 2- or 4-wide vectors is addressed as its
    /// scalars (laid out one after the other, with no padding at these widths), the offset and
    /// stride, counted in vectors, scaled by the lanes.
    fn coop_memory(&self, memory: CoopMemory) -> (Mem, Type, u64, u32) {
        let (mem, elem, len) = match memory {
            CoopMemory::Buffer(p) => {
                let p = p.0 as usize;
                (Mem::Buffer(p), self.elements[p].0, u64::from(self.lens[p]))
            }
            CoopMemory::Shared(v) => {
                let var = self.program.kernel.shared_var(v);
                let len = var.dims.iter().map(|&d| u64::from(d)).product();
                (Mem::Shared(v.0 as usize), var.elem, len)
            }
        };
        match elem {
            Type::Vector(lanes @ (2 | 4), s) => (
                mem,
                Type::Scalar(s),
                len * u64::from(lanes),
                u32::from(lanes),
            ),
            _ => (mem, elem, len, 1),
        }
    }

    /// Reports an element out of range (checks on).
    fn coop_out_of_range(
        &self,
        code: Code<'p>,
        lane: &Lane,
        i: u64,
        len: u64,
        at: Handle<Expression>,
    ) {
        let index = u32::try_from(i).unwrap_or(u32::MAX);
        let len = u32::try_from(len).unwrap_or(u32::MAX);
        self.report(
            lane,
            FaultKind::IndexOutOfBounds { index, len },
            code.exprs[at].span,
        );
    }

    #[allow(clippy::too_many_arguments)]
    fn coop_load(
        &self,
        code: Code<'p>,
        lane: &Lane,
        m: CoopMatrix,
        memory: CoopMemory,
        (offset, stride): (u32, u32),
        layout: CoopLayout,
        at: Handle<Expression>,
    ) -> Vec<f32> {
        let (mem, elem, len, lanes) = self.coop_memory(memory);
        let (offset, stride) = (offset.saturating_mul(lanes), stride.saturating_mul(lanes));
        let words = self.memory(mem);
        let step = self.program.layouts.stride(elem);
        let n = m.size;
        let mut out = Vec::with_capacity((n * n) as usize);
        for r in 0..n {
            for c in 0..n {
                let i = matrices::index(layout, offset, stride, r, c);
                let v = if i < len {
                    self.program.layouts.load(elem, words, i as usize * step)
                } else {
                    self.coop_out_of_range(code, lane, i, len, at);
                    Value::F32(0.0)
                };
                out.push(float(&v));
            }
        }
        out
    }

    #[allow(clippy::too_many_arguments)]
    fn coop_store(
        &self,
        code: Code<'p>,
        lane: &Lane,
        m: CoopMatrix,
        elements: &[f32],
        memory: CoopMemory,
        (offset, stride): (u32, u32),
        layout: CoopLayout,
        at: Handle<Expression>,
    ) {
        let (mem, elem, len, lanes) = self.coop_memory(memory);
        let (offset, stride) = (offset.saturating_mul(lanes), stride.saturating_mul(lanes));
        let words = self.memory(mem);
        let step = self.program.layouts.stride(elem);
        let n = m.size;
        for r in 0..n {
            for c in 0..n {
                let i = matrices::index(layout, offset, stride, r, c);
                if i >= len {
                    self.coop_out_of_range(code, lane, i, len, at);
                    continue;
                }
                let x = elements[(r * n + c) as usize];
                let v = match elem {
                    Type::Scalar(Scalar::F16) => Value::F16(half::f16::from_f32(x)),
                    _ => Value::F32(x),
                };
                self.program
                    .layouts
                    .store(elem, words, i as usize * step, &v);
            }
        }
    }
}

/// A matrix element's value as `f32`.
fn float(v: &Value) -> f32 {
    match v {
        Value::F32(x) => *x,
        Value::F16(x) => x.to_f32(),
        other => f32::from_bits(other.bits()),
    }
}

/// A fresh state for a workgroup's matrices.
pub(super) fn matrices() -> std::cell::RefCell<Matrices> {
    std::cell::RefCell::new(Matrices::default())
}
