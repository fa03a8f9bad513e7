//! Buffer accesses of the lanes loop: four consecutive elements at a linear index, one
//! 16-byte load or store where all four are in bounds (or the workgroup's guard showed it),
//! each lane's scalar access otherwise (robust access: the zero read, the dropped write).

use cranelift_codegen::ir::{condcodes::IntCC, types, InstBuilder, MemFlagsData, Value};

use super::{unsupported, vtype, Group, Mode, L, LANES};
use crate::ir::{Scalar, Type};
use crate::jit::gen::{Cg, Gen};

/// Four consecutive elements of a buffer, at a linear index.
pub(super) struct Elems {
    /// The buffer parameter.
    p: u32,
    /// Lane 0's index.
    first: Value,
    /// Whether all four are in bounds (an `i8`); `None` where the workgroup's guard showed
    /// it ([`Mode::Fast`]).
    ok: Option<Value>,
    /// The address of the first (meaningful where `ok`).
    at: Value,
    /// The element type.
    pub(super) s: Scalar,
}

/// A vector access's flags: bounded by the group's check, not necessarily 16-byte aligned.
fn vflags() -> MemFlagsData {
    MemFlagsData::new().with_notrap()
}

impl<'a> Cg<'a, '_> {
    /// The four consecutive elements of buffer `p` at linear index `i`: whether all four are
    /// in bounds, the address of the first, and the element's scalar type.
    pub(super) fn lane_elem(&mut self, grp: &mut Group, p: u32, i: L) -> Gen<Elems> {
        let L::Lin(first) = i else {
            return unsupported("an index that is not linear");
        };
        let Some((elem, _)) = self.k.params[p as usize].ty.buffer() else {
            return unsupported("an index into a value parameter");
        };
        let Type::Scalar(s @ (Scalar::F32 | Scalar::I32 | Scalar::U32)) = elem else {
            return unsupported("a buffer of other than 32-bit numbers");
        };
        if self.lay.stride_bytes(elem) != 4 {
            return unsupported("a buffer whose elements are not one word");
        }
        if self.kernel_writes.param(p) {
            grp.written.entry(p).or_default().push(first);
        }
        let crate::jit::gen::Param { base, bound, .. } = self.params[p as usize];
        let wide = self.b.ins().uextend(types::I64, first);
        let bound64 = self.b.ins().uextend(types::I64, bound);
        // A group's four elements; in the guard, the whole workgroup's (`first` is then the
        // workgroup's first index, and the sum in 64 bits cannot wrap).
        let span = match grp.mode {
            Mode::Guard => self.k.workgroup_size[0],
            _ => LANES,
        };
        let last = self.b.ins().iadd_imm_s(wide, i64::from(span));
        let ok = self
            .b
            .ins()
            .icmp(IntCC::UnsignedLessThanOrEqual, last, bound64);
        let ok = match grp.mode {
            Mode::Guard => {
                self.guard(grp, ok);
                None
            }
            Mode::Fast => None,
            Mode::Checked => Some(ok),
        };
        let bytes = self.b.ins().ishl_imm_s(wide, 2);
        let at = self.b.ins().iadd(base, bytes);
        Ok(Elems {
            p,
            first,
            ok,
            at,
            s,
        })
    }

    /// Reads `e`: one vector load, or (some element out of bounds) each lane's robust
    /// scalar read, zero outside the buffer as in the scalar code.
    pub(super) fn lane_load(&mut self, grp: &Group, e: &Elems) -> Gen<L> {
        let t = vtype(e.s)?;
        let Some(ok) = e.ok else {
            if grp.mode == Mode::Guard {
                // No value is needed before the loop: only the indices are.
                let zero = self.zero_scalar(e.s)?;
                return Ok(L::W(self.b.ins().splat(t, zero)));
            }
            return Ok(L::W(self.b.ins().load(t, vflags(), e.at, 0)));
        };
        let (fast, slow, join) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        let v = self.b.append_block_param(join, t);
        self.b.ins().brif(ok, fast, &[], slow, &[]);
        self.b.switch_to_block(fast);
        let x = self.b.ins().load(t, vflags(), e.at, 0);
        self.b.ins().jump(join, &[x.into()]);
        self.b.switch_to_block(slow);
        let st = crate::jit::gen::cl_type(e.s)?;
        let zero = self.zero_scalar(e.s)?;
        let mut x = self.b.ins().splat(t, zero);
        for k in 0..LANES {
            let i = self.b.ins().iadd_imm_s(e.first, i64::from(k));
            let addr = self.buffer_addr(e.p, i, false)?;
            let one = self.b.ins().load(st, crate::jit::gen::flags(), addr, 0);
            x = self.b.ins().insertlane(x, one, k as u8);
        }
        self.b.ins().jump(join, &[x.into()]);
        self.b.switch_to_block(join);
        Ok(L::W(v))
    }

    /// Writes `v` (four lanes) to `e`: one vector store, or each lane's robust scalar write
    /// (dropped outside the buffer), in lane order as the scalar code would.
    pub(super) fn lane_store(&mut self, e: &Elems, v: Value) -> Gen<()> {
        let Some(ok) = e.ok else {
            self.b.ins().store(vflags(), v, e.at, 0);
            return Ok(());
        };
        let (fast, slow, join) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        self.b.ins().brif(ok, fast, &[], slow, &[]);
        self.b.switch_to_block(fast);
        self.b.ins().store(vflags(), v, e.at, 0);
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(slow);
        for k in 0..LANES {
            let i = self.b.ins().iadd_imm_s(e.first, i64::from(k));
            let addr = self.buffer_addr(e.p, i, true)?;
            let one = self.b.ins().extractlane(v, k as u8);
            self.b.ins().store(crate::jit::gen::flags(), one, addr, 0);
        }
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(join);
        Ok(())
    }
}
