//! The debug channel in WGSL (`sarek_ir::ir::debug`): its declaration, only in modules of
//! kernels that print or assert, and each [`Stmt::Debug`] as atomic writes bounded by the
//! channel's length.

use std::fmt::Write as _;

use crate::arena::Handle;
use crate::ir::debug::{self, DebugKind};
use crate::ir::*;

use super::Writer;
use crate::wgsl::escape::internal;

impl Writer<'_> {
    /// The channel's name.
    fn channel() -> String {
        internal("debug")
    }

    /// Declares the channel, if the kernel has one.
    pub(super) fn debug_declaration(&self, out: &mut String) {
        if self.kernel.has_debug() {
            let _ = writeln!(
                out,
                "@group({}) @binding(0) var<storage, read_write> {}: array<atomic<u32>>;\n",
                crate::abi::DEBUG_GROUP,
                Self::channel()
            );
        }
    }

    /// The words of a value, as `u32` expressions: floats as their `f32` bits, `bool` as 0 or 1.
    fn debug_words(&mut self, h: Handle<Expression>) -> Vec<String> {
        let ty = self.exprs[h].ty;
        let value = self.expr(h);
        let word = |s: Scalar, v: &str| match s {
            Scalar::U32 => v.to_owned(),
            Scalar::I32 | Scalar::F32 => format!("bitcast<u32>({v})"),
            Scalar::F16 => format!("bitcast<u32>(f32({v}))"),
            Scalar::Bool => format!("select(0u, 1u, {v})"),
            // The front end refuses to print 64-bit integers; this keeps the low word.
            Scalar::I64 | Scalar::U64 => format!("u32({v})"),
        };
        match ty {
            Type::Scalar(s) => vec![word(s, &value)],
            Type::Vector(n, s) => ["x", "y", "z", "w"][..usize::from(n)]
                .iter()
                .map(|c| word(s, &format!("({value}).{c}")))
                .collect(),
            // The front end refuses other types.
            Type::Array(_) | Type::Struct(_) => Vec::new(),
        }
    }

    /// A print appends `[site, words..]` where it fits (else counts a dropped record); a
    /// failed assertion fills the slot after the header if no other one did first.
    pub(super) fn debug_record(&mut self, depth: usize, site: u32, args: &[Handle<Expression>]) {
        let Some(info) = self.kernel.debug.get(site as usize) else {
            return;
        };
        let kind = info.kind;
        let mut words = vec![format!("{site}u")];
        for &a in args {
            words.extend(self.debug_words(a));
        }
        let n = words.len();
        let ch = Self::channel();
        let at = internal("at");
        self.line(depth, "{");
        match kind {
            DebugKind::Print { .. } => {
                let start = debug::records_start(&self.kernel.debug);
                self.line(
                    depth + 1,
                    &format!(
                        "let {at} = atomicAdd(&{ch}[{}u], {n}u) + {start}u;",
                        debug::NEXT
                    ),
                );
                // Bounded by the channel's length, so a full channel drops records instead
                // of writing past its end.
                self.line(
                    depth + 1,
                    &format!("if {at} >= {start}u && {at} <= arrayLength(&{ch}) && arrayLength(&{ch}) - {at} >= {n}u {{"),
                );
                for (k, w) in words.iter().enumerate() {
                    self.line(depth + 2, &format!("atomicStore(&{ch}[{at} + {k}u], {w});"));
                }
                self.line(depth + 1, "} else {");
                self.line(
                    depth + 2,
                    &format!("atomicAdd(&{ch}[{}u], 1u);", debug::DROPPED),
                );
                self.line(depth + 1, "}");
            }
            DebugKind::Assert => {
                let first = internal("first");
                let at = debug::HEADER;
                // A strong compare-exchange from WGSL's weak one: retried while it fails
                // spuriously, given up once another assertion's number is there.
                self.line(depth + 1, "loop {");
                self.line(
                    depth + 2,
                    &format!(
                        "let {first} = atomicCompareExchangeWeak(&{ch}[{}u], 0u, {}u);",
                        debug::FAILED,
                        site + 1
                    ),
                );
                self.line(depth + 2, &format!("if {first}.exchanged {{"));
                for (k, w) in words.iter().enumerate() {
                    self.line(
                        depth + 3,
                        &format!(
                            "if {}u < arrayLength(&{ch}) {{ atomicStore(&{ch}[{}u], {w}); }}",
                            at + k,
                            at + k
                        ),
                    );
                }
                self.line(depth + 3, "break;");
                self.line(depth + 2, "}");
                self.line(depth + 2, &format!("if {first}.old_value != 0u {{"));
                self.line(depth + 3, "break;");
                self.line(depth + 2, "}");
                self.line(depth + 1, "}");
            }
        }
        self.line(depth, "}");
    }
}
