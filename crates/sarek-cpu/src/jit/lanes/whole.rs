//! The test that lets a whole workgroup run the lanes loop without per-group tests
//! ([`super::Mode::Fast`]): built by the walk of [`super::Mode::Guard`] before the loop, where each linear
//! value is the workgroup's first invocation's.

use cranelift_codegen::ir::{condcodes::IntCC, InstBuilder, Value};

use super::{Group, L};
use crate::ir::{BinaryOp, Scalar};
use crate::jit::gen::Cg;

impl Cg<'_, '_> {
    /// In [`super::Mode::Guard`], adds `ok` (an `i8`) to the workgroup's test.
    pub(super) fn guard(&mut self, grp: &mut Group, ok: Value) {
        grp.guard = self.b.ins().band(grp.guard, ok);
    }

    /// [`super::Mode::Guard`]: for `l op r` (`s` the left operand's type) comparing a linear value
    /// with a uniform one by `<`, `<=`, `>` or `>=`, adds to the guard that it is the same for
    /// every invocation of the workgroup, and returns its value (the first invocation's);
    /// `None` for other operations, which stay masks. The linear value runs from `first` to
    /// `first + size - 1`; where that does not wrap (in the comparison's signedness) the
    /// comparison is monotone along it, so the same result at both ends is the same for all.
    pub(super) fn lane_compare_whole(
        &mut self,
        grp: &mut Group,
        op: BinaryOp,
        s: Scalar,
        l: L,
        r: L,
    ) -> Option<Value> {
        use BinaryOp::*;
        let signed = match s {
            Scalar::I32 => true,
            Scalar::U32 => false,
            _ => return None,
        };
        let (first, u, lin_left) = match (l, r) {
            (L::Lin(c), L::U(u)) => (c, u, true),
            (L::U(u), L::Lin(c)) => (c, u, false),
            _ => return None,
        };
        let cc = match (op, signed) {
            (Lt, true) => IntCC::SignedLessThan,
            (Lt, false) => IntCC::UnsignedLessThan,
            (Le, true) => IntCC::SignedLessThanOrEqual,
            (Le, false) => IntCC::UnsignedLessThanOrEqual,
            (Gt, true) => IntCC::SignedGreaterThan,
            (Gt, false) => IntCC::UnsignedGreaterThan,
            (Ge, true) => IntCC::SignedGreaterThanOrEqual,
            (Ge, false) => IntCC::UnsignedGreaterThanOrEqual,
            _ => return None,
        };
        let size = i64::from(self.k.workgroup_size[0]);
        let last = self.b.ins().iadd_imm_s(first, size - 1);
        let order = if signed {
            IntCC::SignedLessThanOrEqual
        } else {
            IntCC::UnsignedLessThanOrEqual
        };
        let nowrap = self.b.ins().icmp(order, first, last);
        let mut at = |x: Value| {
            if lin_left {
                self.b.ins().icmp(cc, x, u)
            } else {
                self.b.ins().icmp(cc, u, x)
            }
        };
        let (p0, p1) = (at(first), at(last));
        let same = self.b.ins().icmp(IntCC::Equal, p0, p1);
        let ok = self.b.ins().band(nowrap, same);
        self.guard(grp, ok);
        Some(p0)
    }
}
