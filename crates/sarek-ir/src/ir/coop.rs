//! Cooperative matrices (`sarek::gpu::CoopMatrix`, WGSL's experimental
//! `wgpu_cooperative_matrix` extension): square matrices held by a whole subgroup together,
//! loaded from and stored to buffers or workgroup arrays, multiplied on the GPU's matrix units.
//!
//! They are not IR values: a matrix lives in a numbered variable of the kernel's entry point or
//! of a helper ([`CoopMatrix::id`], unique across the kernel's functions) that only [`CoopOp`] statements read and write, so no other part of
//! the IR (types, locals, expressions, layouts) has to know about them. A variable can also be
//! an array of matrices (`[CoopMatrix::<f32, 16, C>::zeros(); 16]`, [`CoopMatrix::len`]),
//! which the statements name an element of ([`CoopMatrix::index`]): a kernel written with
//! loops over its tiles. Where every index is a constant (the lowering's unrolled `for`
//! loops), `passes::coop_arrays` gives each element a variable of its own; otherwise the
//! array stays one (the tiered quick form, or a loop that is not unrolled).

use crate::arena::Handle;

use super::{Expression, ParamId, Scalar, SharedId};

/// The role of a matrix in `C = A * B + C`.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum CoopRole {
    /// The left operand.
    A,
    /// The right operand.
    B,
    /// The accumulator and the result.
    C,
}

impl CoopRole {
    /// The name in Rust (`sarek::gpu::coop::A`) and WGSL (`coop_mat16x16<f16, A>`).
    pub fn name(self) -> &'static str {
        match self {
            CoopRole::A => "A",
            CoopRole::B => "B",
            CoopRole::C => "C",
        }
    }
}

/// The sizes WGSL's extension has (naga 30: `coop_mat8x8` and `coop_mat16x16`).
pub const COOP_SIZES: [u32; 2] = [8, 16];

/// A cooperative-matrix variable of a function of the kernel, with its type: a
/// `size`×`size` matrix of `scalar` (`f32`, or `f16` where the kernel has it) in `role`; or,
/// when [`CoopMatrix::len`] is not zero, an array of `len` such matrices, of which a statement
/// names element [`CoopMatrix::index`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct CoopMatrix {
    /// The variable's number (`sarek_coop<id>` in WGSL).
    pub id: u32,
    /// The number of matrices of an array variable; 0 for a single matrix.
    pub len: u32,
    /// For an array variable, the element a statement names (`u32`, the same on every
    /// invocation of the subgroup: the uniformity check requires it; an index past the end
    /// clamps to the last element, as indices of local arrays do). `None` for a single matrix,
    /// and in [`CoopMatrix::var`].
    pub index: Option<Handle<Expression>>,
    /// Rows and columns (one of [`COOP_SIZES`]).
    pub size: u32,
    /// The element type.
    pub scalar: Scalar,
    /// Its role.
    pub role: CoopRole,
}

impl CoopMatrix {
    /// The variable itself (no element named): what declarations and slots are keyed by.
    pub fn var(self) -> CoopMatrix {
        CoopMatrix {
            index: None,
            ..self
        }
    }

    /// Whether the variable is an array of matrices.
    pub fn is_array(self) -> bool {
        self.len > 0
    }
}

/// The first matrix number above every one `blocks` use (0 when they use none): where a new
/// matrix variable's number can start.
pub fn first_free_matrix<'b>(blocks: impl IntoIterator<Item = &'b super::Block>) -> u32 {
    let mut next = 0;
    for block in blocks {
        super::visit(block, &mut |s| {
            if let super::Stmt::Coop(op) = &s.kind {
                for m in op.matrices() {
                    next = next.max(m.id + 1);
                }
            }
        });
    }
    next
}

/// Where a load reads or a store writes: a buffer parameter or a one-dimensional workgroup
/// array whose element type is the matrix's scalar or a 2- or 4-wide vector of it (read as its
/// scalars in order, offset and stride counted in vectors).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum CoopMemory {
    /// A slice parameter.
    Buffer(ParamId),
    /// A workgroup array.
    Shared(SharedId),
}

/// How elements lie in memory from `offset`: element `(r, c)` is at
/// `offset + r * stride + c` ([`CoopLayout::Rows`], WGSL's `coopLoadT`/`coopStoreT`) or
/// `offset + c * stride + r` ([`CoopLayout::Columns`], `coopLoad`/`coopStore`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum CoopLayout {
    /// Row-major.
    Rows,
    /// Column-major.
    Columns,
}

/// A cooperative-matrix statement. Every one is collective over the subgroup (the uniformity
/// check keeps it in uniform control flow), and its `offset` and `stride` are the same on
/// every invocation of the subgroup (the first active invocation's are used).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum CoopOp {
    /// `dst = 0`.
    Zero {
        /// The matrix set.
        dst: CoopMatrix,
    },
    /// `dst = load(memory, offset, stride)`.
    Load {
        /// The matrix loaded.
        dst: CoopMatrix,
        /// Where from.
        memory: CoopMemory,
        /// The index of element `(0, 0)` (`u32`).
        offset: Handle<Expression>,
        /// Elements from one row (or column) to the next (`u32`).
        stride: Handle<Expression>,
        /// Row- or column-major.
        layout: CoopLayout,
    },
    /// `dst = a * b + c`.
    MultiplyAdd {
        /// The result (role C).
        dst: CoopMatrix,
        /// Role A.
        a: CoopMatrix,
        /// Role B.
        b: CoopMatrix,
        /// Role C.
        c: CoopMatrix,
    },
    /// `store(src, memory, offset, stride)`.
    Store {
        /// The matrix stored.
        src: CoopMatrix,
        /// Where to.
        memory: CoopMemory,
        /// The index of element `(0, 0)` (`u32`).
        offset: Handle<Expression>,
        /// Elements from one row (or column) to the next (`u32`).
        stride: Handle<Expression>,
        /// Row- or column-major.
        layout: CoopLayout,
    },
}

impl CoopOp {
    /// The expressions the statement reads: `offset` and `stride` of a load or store, then
    /// the element indices of the matrices it names, in [`CoopOp::matrices`]' order.
    pub fn exprs(&self) -> Vec<Handle<Expression>> {
        let mut all = match self {
            CoopOp::Load { offset, stride, .. } | CoopOp::Store { offset, stride, .. } => {
                vec![*offset, *stride]
            }
            CoopOp::Zero { .. } | CoopOp::MultiplyAdd { .. } => Vec::new(),
        };
        all.extend(self.matrices().into_iter().filter_map(|m| m.index));
        all
    }

    /// The statement with its expressions replaced through `f` (for passes that renumber).
    pub fn map_exprs(&self, mut f: impl FnMut(Handle<Expression>) -> Handle<Expression>) -> Self {
        let mut op = self.clone();
        match &mut op {
            CoopOp::Load { offset, stride, .. } | CoopOp::Store { offset, stride, .. } => {
                *offset = f(*offset);
                *stride = f(*stride);
            }
            CoopOp::Zero { .. } | CoopOp::MultiplyAdd { .. } => {}
        }
        op.map_matrices(|mut m| {
            m.index = m.index.map(&mut f);
            m
        })
    }

    /// The statement with every matrix it names replaced through `f`.
    pub fn map_matrices(&self, mut f: impl FnMut(CoopMatrix) -> CoopMatrix) -> Self {
        let mut op = self.clone();
        match &mut op {
            CoopOp::Zero { dst } | CoopOp::Load { dst, .. } => *dst = f(*dst),
            CoopOp::MultiplyAdd { dst, a, b, c } => {
                *dst = f(*dst);
                *a = f(*a);
                *b = f(*b);
                *c = f(*c);
            }
            CoopOp::Store { src, .. } => *src = f(*src),
        }
        op
    }

    /// The matrix the statement assigns, if any.
    pub fn written(&self) -> Option<CoopMatrix> {
        match self {
            CoopOp::Zero { dst } | CoopOp::Load { dst, .. } | CoopOp::MultiplyAdd { dst, .. } => {
                Some(*dst)
            }
            CoopOp::Store { .. } => None,
        }
    }

    /// The matrices the statement reads.
    pub fn read(&self) -> Vec<CoopMatrix> {
        match self {
            CoopOp::Zero { .. } | CoopOp::Load { .. } => Vec::new(),
            CoopOp::MultiplyAdd { a, b, c, .. } => vec![*a, *b, *c],
            CoopOp::Store { src, .. } => vec![*src],
        }
    }

    /// Every matrix the statement names: the one it assigns, then those it reads.
    pub fn matrices(&self) -> Vec<CoopMatrix> {
        self.written().into_iter().chain(self.read()).collect()
    }

    /// The Rust name of the operation, for messages.
    pub fn rust_name(&self) -> &'static str {
        match self {
            CoopOp::Zero { .. } => "CoopMatrix::zeros()",
            CoopOp::Load {
                layout: CoopLayout::Rows,
                ..
            } => "CoopMatrix::load_rows()",
            CoopOp::Load { .. } => "CoopMatrix::load_columns()",
            CoopOp::MultiplyAdd { .. } => "CoopMatrix::multiply_add()",
            CoopOp::Store {
                layout: CoopLayout::Rows,
                ..
            } => "CoopMatrix::store_rows()",
            CoopOp::Store { .. } => "CoopMatrix::store_columns()",
        }
    }
}
