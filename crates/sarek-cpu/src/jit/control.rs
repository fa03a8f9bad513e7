//! `if`, `switch` and `loop`, generated one way for both levels they run at: inside an
//! invocation (jumps between blocks) and at workgroup level in a kernel with barriers (the
//! condition read on invocation 0's values, the arms split into segments, `break` and
//! `continue` as flags the workgroup level follows).

use cranelift_codegen::ir::{condcodes::IntCC, types, InstBuilder, Value};

use super::gen::{Cg, Gen, LoopTarget};
use crate::arena::Handle;
use crate::ir::{Case, Expression, Span, Statement};

/// Where a control statement runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Level {
    /// Inside one invocation's code.
    Invocation,
    /// Once for the workgroup (it holds a barrier).
    Workgroup,
}

impl<'a> Cg<'a, '_> {
    /// Generates `block` at `level`.
    fn block_at(&mut self, level: Level, block: &'a [Statement]) -> Gen<()> {
        match level {
            Level::Invocation => self.block(block),
            Level::Workgroup => self.workgroup_block(block),
        }
    }

    /// Evaluates a condition at `level`.
    fn condition_at(&mut self, level: Level, h: Handle<Expression>) -> Gen<Value> {
        match level {
            Level::Invocation => self.scalar(h),
            Level::Workgroup => self.uniform_scalar(h),
        }
    }

    /// `if cond { accept } else { reject }`.
    pub(super) fn emit_if(
        &mut self,
        level: Level,
        cond: Handle<Expression>,
        accept: &'a [Statement],
        reject: &'a [Statement],
    ) -> Gen<()> {
        let c = self.condition_at(level, cond)?;
        let (yes, no, done) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        self.b.ins().brif(c, yes, &[], no, &[]);
        self.b.switch_to_block(yes);
        self.block_at(level, accept)?;
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(no);
        self.block_at(level, reject)?;
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(done);
        Ok(())
    }

    /// `switch selector { cases, default }`: each case's values tested in turn.
    pub(super) fn emit_switch(
        &mut self,
        level: Level,
        selector: Handle<Expression>,
        cases: &'a [Case],
        default: &'a [Statement],
    ) -> Gen<()> {
        let sel = self.condition_at(level, selector)?;
        let done = self.b.create_block();
        for case in cases {
            let (arm, next) = (self.b.create_block(), self.b.create_block());
            let mut hit = self.b.ins().iconst(types::I8, 0);
            for v in &case.values {
                let bits = crate::interp::value::Value::literal(*v).bits();
                let eq = self
                    .b
                    .ins()
                    .icmp_imm_s(IntCC::Equal, sel, i64::from(bits as i32));
                hit = self.b.ins().bor(hit, eq);
            }
            self.b.ins().brif(hit, arm, &[], next, &[]);
            self.b.switch_to_block(arm);
            self.block_at(level, &case.body)?;
            self.b.ins().jump(done, &[]);
            self.b.switch_to_block(next);
        }
        self.block_at(level, default)?;
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(done);
        Ok(())
    }

    /// `loop { body } continuing { continuing; break if break_if }`, spending fuel at the
    /// head of each iteration (at workgroup level: for every invocation).
    pub(super) fn emit_loop(
        &mut self,
        level: Level,
        span: Span,
        body: &'a [Statement],
        continuing: &'a [Statement],
        break_if: Option<Handle<Expression>>,
    ) -> Gen<()> {
        let (head, cont, exit) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        let target = match level {
            Level::Invocation => LoopTarget::Native { cont, exit },
            Level::Workgroup => {
                let brk = self.b.declare_var(types::I8);
                let cnt = self.b.declare_var(types::I8);
                let z = self.b.ins().iconst(types::I8, 0);
                self.b.def_var(brk, z);
                self.b.def_var(cnt, z);
                LoopTarget::Workgroup { brk, cont: cnt }
            }
        };
        self.b.ins().jump(head, &[]);
        self.b.switch_to_block(head);
        let steps = 1 + body.len() as u64;
        if level == Level::Workgroup {
            let [wx, wy, wz] = self.k.workgroup_size;
            let zero = self.u32c(0);
            let saved = self.thread;
            self.thread = [zero; 3];
            self.burn(u64::from(wx * wy * wz) * steps, span);
            self.thread = saved;
            self.wg_targets.push((cont, exit));
        } else {
            self.burn(steps, span);
        }
        self.loops.push(target);
        let outer = std::mem::replace(&mut self.wg_body, level == Level::Workgroup);
        let r = self.block_at(level, body);
        self.loops.pop();
        if level == Level::Workgroup {
            self.wg_targets.pop();
        }
        self.wg_body = false;
        let r = r.and_then(|()| {
            self.b.ins().jump(cont, &[]);
            self.b.switch_to_block(cont);
            self.block_at(level, continuing)
        });
        self.wg_body = outer;
        r?;
        match break_if {
            Some(c) => {
                let c = self.condition_at(level, c)?;
                self.b.ins().brif(c, exit, &[], head, &[]);
            }
            None => {
                self.b.ins().jump(head, &[]);
            }
        }
        self.b.switch_to_block(exit);
        Ok(())
    }
}
