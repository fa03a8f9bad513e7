//! Memory access for one workgroup: places resolved to buffer, workgroup or local storage,
//! reads and writes through them with WebGPU's robust-access clamping, and atomics.

use std::sync::atomic::{AtomicU32, Ordering};

use crate::arena::Handle;
use crate::interp::memory;
use crate::interp::value::Value;
use crate::interp::FaultKind;
use crate::ir::{AtomicFun, AtomicTarget, Expression, Place, Scalar, SharedId, Span, Type};

use super::{Code, Lane, Mem, Target, Workgroup};

impl<'p> Workgroup<'p> {
    /// An index `i` into something of `len` elements: clamped to the last element, as
    /// WebGPU's robust access does for arrays (a fault when checks are on).
    pub(super) fn clamp(&self, lane: &Lane, i: u32, len: u32, span: Span) -> usize {
        if i >= len {
            self.report(lane, FaultKind::IndexOutOfBounds { index: i, len }, span);
            return len.saturating_sub(1) as usize;
        }
        i as usize
    }

    /// The word offset of element `indices` of workgroup array `var`.
    pub(super) fn shared_at(
        &self,
        code: Code<'p>,
        lane: &Lane,
        var: SharedId,
        indices: &[Handle<Expression>],
    ) -> (usize, usize, Type) {
        let kernel = &self.program.kernel;
        let v = kernel.shared_var(var);
        let stride = self.program.layouts.stride(v.elem);
        let mut flat = 0usize;
        for (dim, index) in v.dims.iter().zip(indices) {
            let i = self.eval(code, lane, *index).as_u32();
            let span = code.exprs[*index].span;
            flat = flat * (*dim as usize) + self.clamp(lane, i, *dim, span);
        }
        (var.0 as usize, flat * stride, v.elem)
    }

    /// The word an atomic works on, and its scalar type.
    pub(super) fn atomic(
        &self,
        code: Code<'p>,
        lane: &Lane,
        target: &AtomicTarget,
    ) -> Option<(&[AtomicU32], Scalar)> {
        match target {
            AtomicTarget::Buffer { slice, index } => {
                let p = slice.0 as usize;
                let scalar = match self.program.kernel.param(*slice).ty.buffer() {
                    Some((Type::Scalar(s), _)) => s,
                    _ => Scalar::U32,
                };
                let i = self.eval(code, lane, *index).as_u32();
                let len = self.lens[p];
                if i >= len {
                    let span = code.exprs[*index].span;
                    self.report(lane, FaultKind::IndexOutOfBounds { index: i, len }, span);
                    return None;
                }
                let words = self.launch.buffers.get(p).copied().flatten()?;
                // A 64-bit atomic is two words, the low one first.
                let n = if scalar.is_wide() { 2 } else { 1 };
                let at = i as usize * n;
                words.get(at..at + n).map(|w| (w, scalar))
            }
            AtomicTarget::Shared { var, indices } => {
                let (v, at, ty) = self.shared_at(code, lane, *var, indices);
                let scalar = ty.scalar().unwrap_or(Scalar::U32);
                // `at` counts 2-byte units; an atomic is a whole word (the front end keeps
                // 64-bit atomics out of workgroup memory).
                self.shared
                    .get(v)?
                    .get(at / 2..at / 2 + 1)
                    .map(|w| (w, scalar))
            }
        }
    }

    pub(super) fn memory(&self, mem: Mem) -> &[AtomicU32] {
        match mem {
            Mem::Buffer(p) => self.launch.buffers.get(p).copied().flatten().unwrap_or(&[]),
            Mem::Shared(v) => self.shared.get(v).map_or(&[], Vec::as_slice),
        }
    }

    pub(super) fn place(&self, code: Code<'p>, lane: &Lane, place: &Place) -> Target {
        let layouts = &self.program.layouts;
        match place {
            Place::Local(l) => Target::Local(*l, Vec::new()),
            Place::Index { slice, index } => {
                let p = slice.0 as usize;
                let elem = self
                    .program
                    .kernel
                    .param(*slice)
                    .ty
                    .buffer()
                    .map_or(Type::Scalar(Scalar::U32), |b| b.0);
                let i = self.eval(code, lane, *index).as_u32();
                let len = self.lens[p];
                if i >= len {
                    let span = code.exprs[*index].span;
                    self.report(lane, FaultKind::IndexOutOfBounds { index: i, len }, span);
                    return Target::Nowhere(elem);
                }
                Target::Memory {
                    mem: Mem::Buffer(p),
                    at: i as usize * layouts.stride(elem),
                    ty: elem,
                }
            }
            Place::Shared { var, indices } => {
                let (v, at, ty) = self.shared_at(code, lane, *var, indices);
                Target::Memory {
                    mem: Mem::Shared(v),
                    at,
                    ty,
                }
            }
            Place::Field { base, field } => match self.place(code, lane, base) {
                Target::Local(l, mut path) => {
                    path.push(*field as usize);
                    Target::Local(l, path)
                }
                Target::Memory { mem, at, ty } => Target::Memory {
                    mem,
                    at: at + layouts.field_offset(ty, *field),
                    ty: layouts.field_type(ty, *field),
                },
                Target::Nowhere(ty) => Target::Nowhere(layouts.field_type(ty, *field)),
            },
            Place::Element { base, index } => {
                let target = self.place(code, lane, base);
                let i = self.eval(code, lane, *index).as_u32();
                let span = code.exprs[*index].span;
                let ty = match &target {
                    Target::Local(l, path) => {
                        let mut ty = code.locals[*l].ty;
                        for &step in path {
                            ty = self.step_type(ty, step);
                        }
                        ty
                    }
                    Target::Memory { ty, .. } | Target::Nowhere(ty) => *ty,
                };
                let (elem, len, stride) = layouts.array(ty).unwrap_or((ty, 1, 1));
                let i = self.clamp(lane, i, len, span);
                match target {
                    Target::Local(l, mut path) => {
                        path.push(i);
                        Target::Local(l, path)
                    }
                    Target::Memory { mem, at, .. } => Target::Memory {
                        mem,
                        at: at + i * stride,
                        ty: elem,
                    },
                    Target::Nowhere(_) => Target::Nowhere(elem),
                }
            }
        }
    }

    pub(super) fn step_type(&self, ty: Type, step: usize) -> Type {
        let layouts = &self.program.layouts;
        match layouts.array(ty) {
            Some((elem, ..)) => elem,
            None => layouts.field_type(ty, step as u32),
        }
    }

    pub(super) fn read(&self, code: Code<'p>, lane: &Lane, target: &Target) -> Value {
        match target {
            Target::Local(l, path) => {
                let ty = path
                    .iter()
                    .fold(code.locals[*l].ty, |ty, &step| self.step_type(ty, step));
                let mut v = &lane.frame().locals[l.index()];
                for &step in path {
                    match v {
                        Value::Composite(parts) => match parts.get(step) {
                            Some(p) => v = p,
                            None => return Value::U32(0),
                        },
                        Value::Vector(..) => return v.component(step),
                        _ => return v.clone(),
                    }
                }
                memory::stored_bool(v.clone(), ty)
            }
            Target::Memory { mem, at, ty } => {
                self.program.layouts.load(*ty, self.memory(*mem), *at)
            }
            Target::Nowhere(ty) => self.program.layouts.zero(*ty),
        }
    }

    pub(super) fn write(&self, lane: &mut Lane, target: &Target, value: Value) {
        match target {
            Target::Local(l, path) => {
                let mut slot = &mut lane.frame_mut().locals[l.index()];
                for &step in path {
                    match slot {
                        Value::Composite(parts) => match parts.get_mut(step) {
                            Some(p) => slot = p,
                            None => return,
                        },
                        Value::Vector(_, _, bits) => {
                            bits[step & 3] = value.bits();
                            return;
                        }
                        _ => return,
                    }
                }
                *slot = value;
            }
            Target::Memory { mem, at, ty } => {
                self.program
                    .layouts
                    .store(*ty, self.memory(*mem), *at, &value)
            }
            Target::Nowhere(_) => {}
        }
    }
}

/// Applies an atomic read-modify-write to `word`; returns the previous bits.
/// Locks for the CPU's 64-bit atomics, which are two words of a buffer: an element takes the
/// lock its address hashes to for every atomic operation on it.
static WIDE_LOCKS: [std::sync::Mutex<()>; 64] = [const { std::sync::Mutex::new(()) }; 64];

/// `fun` on the 64-bit atomic in `words` (low word first) with `operand`; the previous value.
pub(super) fn atomic_op64(
    fun: AtomicFun,
    words: &[AtomicU32],
    scalar: Scalar,
    operand: u64,
) -> u64 {
    wide_update(words, |old| {
        let signed = scalar == Scalar::I64;
        match fun {
            AtomicFun::Load => None,
            AtomicFun::Store | AtomicFun::Exchange => Some(operand),
            AtomicFun::Add => Some(old.wrapping_add(operand)),
            AtomicFun::Sub => Some(old.wrapping_sub(operand)),
            AtomicFun::And => Some(old & operand),
            AtomicFun::Or => Some(old | operand),
            AtomicFun::Xor => Some(old ^ operand),
            AtomicFun::Min if signed => Some((old as i64).min(operand as i64) as u64),
            AtomicFun::Max if signed => Some((old as i64).max(operand as i64) as u64),
            AtomicFun::Min => Some(old.min(operand)),
            AtomicFun::Max => Some(old.max(operand)),
        }
    })
}

/// Reads the 64-bit value in `words` and writes `f` of it, if any, under its lock; the old
/// value.
pub(super) fn wide_update(words: &[AtomicU32], f: impl FnOnce(u64) -> Option<u64>) -> u64 {
    let [lo, hi] = words else { return 0 };
    let lock = &WIDE_LOCKS[(lo as *const AtomicU32 as usize >> 3) % WIDE_LOCKS.len()];
    let _held = lock.lock().unwrap_or_else(|e| e.into_inner());
    let relaxed = Ordering::Relaxed;
    let old = u64::from(lo.load(relaxed)) | (u64::from(hi.load(relaxed)) << 32);
    if let Some(new) = f(old) {
        lo.store(new as u32, relaxed);
        hi.store((new >> 32) as u32, relaxed);
    }
    old
}

pub(super) fn atomic_op(fun: AtomicFun, word: &AtomicU32, scalar: Scalar, operand: u32) -> u32 {
    let relaxed = Ordering::Relaxed;
    let signed = scalar == Scalar::I32;
    let update = |f: &dyn Fn(u32) -> u32| {
        word.fetch_update(relaxed, relaxed, |v| Some(f(v)))
            .unwrap_or_else(|v| v)
    };
    match fun {
        AtomicFun::Load => word.load(relaxed),
        AtomicFun::Store => {
            word.store(operand, relaxed);
            0
        }
        // `AtomicF32`: the float sum of the word's bits and the operand's, stored as bits.
        AtomicFun::Add | AtomicFun::Sub if scalar == Scalar::F32 => {
            let v = f32::from_bits(operand);
            let v = if fun == AtomicFun::Sub { -v } else { v };
            update(&|w| (f32::from_bits(w) + v).to_bits())
        }
        AtomicFun::Add => word.fetch_add(operand, relaxed),
        AtomicFun::Sub => word.fetch_sub(operand, relaxed),
        AtomicFun::And => word.fetch_and(operand, relaxed),
        AtomicFun::Or => word.fetch_or(operand, relaxed),
        AtomicFun::Xor => word.fetch_xor(operand, relaxed),
        AtomicFun::Exchange => word.swap(operand, relaxed),
        AtomicFun::Min if signed => update(&|v| (v as i32).min(operand as i32) as u32),
        AtomicFun::Max if signed => update(&|v| (v as i32).max(operand as i32) as u32),
        AtomicFun::Min => word.fetch_min(operand, relaxed),
        AtomicFun::Max => word.fetch_max(operand, relaxed),
    }
}
