//! The generator: a random well-typed kernel from a seed. Its expressions (`exprs.rs`),
//! statements (`stmts.rs`) and the kernel around them (`kernel.rs`) share the state below.

mod exprs;
mod kernel;
mod stmts;

pub(crate) use kernel::kernel;

use sarek_codegen::arena::{Arena, Handle};
use sarek_codegen::ir::*;

/// xorshift64*: small, deterministic, good enough to pick shapes.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

const F32: Type = Type::Scalar(Scalar::F32);
const I32: Type = Type::Scalar(Scalar::I32);
const U32: Type = Type::Scalar(Scalar::U32);
const BOOL: Type = Type::Scalar(Scalar::Bool);
const VEC3: Type = Type::Vector(3, Scalar::F32);

/// The body being generated (the kernel's or a helper's).
struct Body {
    locals: Arena<Local>,
    exprs: Arena<Expression>,
    /// Locals in scope, with their types.
    scope: Vec<(Handle<Local>, Type)>,
    /// Function arguments (helpers only).
    args: Vec<Type>,
}

struct Gen<'a> {
    rng: &'a mut Rng,
    params: Vec<Param>,
    types: Vec<TypeDef>,
    structure: Type,
    shape: Type,
    array: Type,
    depth: usize,
    loops: usize,
    in_helper: bool,
    helper: Option<(FunctionId, Vec<Type>, Type)>,
    shared: Option<SharedId>,
}

fn e(b: &mut Body, kind: Expr, ty: Type) -> Handle<Expression> {
    b.exprs.append(Expression {
        kind,
        ty,
        span: Span(0),
    })
}

fn st(kind: Stmt) -> Statement {
    Statement {
        kind,
        span: Span(0),
    }
}
