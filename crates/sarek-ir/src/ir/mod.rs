//! Sarek's intermediate representation of a kernel.
//!
//! Expressions live in an arena and are pure: every effect (a store, a branch, a loop) is a
//! [`Statement`]. That keeps Rust's evaluation order explicit (the front end spills values
//! into locals where an effect would otherwise reorder them) and lets the back ends print
//! expressions as trees.

use crate::arena::{Arena, Handle};

mod coop;
pub mod debug;
mod display;
mod extensions;
mod intrinsics;
mod math;
mod remap;
mod types;
mod walk;
pub use coop::*;
pub use display::{type_name, vector_name};
pub use extensions::*;
pub use intrinsics::{Arg, Intrinsic, On, Out, Rule, Wgsl};
pub use math::MathFun;
pub use remap::Remap;
pub use types::*;
pub use walk::visit;

/// A source location, as an index the front end hands out. The IR never interprets it; the
/// front end maps it back to a Rust token when it reports a diagnostic.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub struct Span(pub u32);

/// A constant.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Literal {
    /// An `f32` constant (any bit pattern, including infinities and NaN).
    F32(#[serde(with = "f32_bits")] f32),
    /// An `i32` constant.
    I32(i32),
    /// A `u32` constant.
    U32(u32),
    /// A `bool` constant.
    Bool(bool),
    /// An `f16` constant, as its IEEE binary16 bits (`half::f16::to_bits`).
    F16(u16),
    /// An `i64` constant.
    I64(i64),
    /// A `u64` constant.
    U64(u64),
}

impl Literal {
    /// The literal's scalar type.
    pub fn scalar(self) -> Scalar {
        match self {
            Literal::F32(_) => Scalar::F32,
            Literal::I32(_) => Scalar::I32,
            Literal::U32(_) => Scalar::U32,
            Literal::Bool(_) => Scalar::Bool,
            Literal::F16(_) => Scalar::F16,
            Literal::I64(_) => Scalar::I64,
            Literal::U64(_) => Scalar::U64,
        }
    }
}

/// A binary operator, with Rust's meaning.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum BinaryOp {
    /// `+` (integers wrap)
    Add,
    /// `-` (integers wrap)
    Sub,
    /// `*` (integers wrap)
    Mul,
    /// `/` (integers truncate; see the semantics notes for division by zero)
    Div,
    /// `%` (`fmod` on floats)
    Rem,
    /// `&` on integers, non-short-circuit `&` on `bool`
    BitAnd,
    /// `|`
    BitOr,
    /// `^`
    BitXor,
    /// `<<` (amount masked like `wrapping_shl`)
    Shl,
    /// `>>` (arithmetic on `i32`, logical on `u32`)
    Shr,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `&&` on operands without effects
    LogicalAnd,
    /// `||` on operands without effects
    LogicalOr,
}

impl BinaryOp {
    /// Whether the operator yields a `bool` from two operands of another type.
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge
        )
    }
}

/// A unary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum UnaryOp {
    /// `-x` (wrapping on integers)
    Neg,
    /// `!x`: logical on `bool`, bitwise on integers
    Not,
}

/// One of the three grid axes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Axis {
    /// x
    X,
    /// y
    Y,
    /// z
    Z,
}

impl Axis {
    /// `0`, `1` or `2`.
    pub fn index(self) -> usize {
        match self {
            Axis::X => 0,
            Axis::Y => 1,
            Axis::Z => 2,
        }
    }

    /// `"x"`, `"y"` or `"z"`.
    pub fn letter(self) -> &'static str {
        ["x", "y", "z"][self.index()]
    }
}

/// The index intrinsics of `sarek::gpu`; each yields a `usize`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Builtin {
    /// `thread_idx_*()`: the invocation's index inside its workgroup.
    ThreadIdx(Axis),
    /// `block_idx_*()`: the workgroup's index in the grid.
    BlockIdx(Axis),
    /// `block_dim_*()`: the kernel's workgroup size.
    BlockDim(Axis),
    /// `grid_dim_*()`: the number of workgroups in the grid.
    GridDim(Axis),
    /// `global_idx_*()`: `block_idx * block_dim + thread_idx`.
    GlobalIdx(Axis),
    /// `global_thread_id()`: the invocation's row-major index in the whole grid.
    GlobalThreadId,
    /// `subgroup_size()`: the number of invocations in a subgroup (uniform).
    SubgroupSize,
    /// `subgroup_invocation_id()`: the invocation's lane in its subgroup.
    SubgroupInvocationId,
}

/// A parameter of the kernel, in Rust declaration order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct ParamId(pub u32);

/// A workgroup-memory array of the kernel (`shared::<[T; N]>()`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct SharedId(pub u32);

/// A `var<workgroup>` array: one per `shared()` call, hoisted to module scope.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SharedVar {
    /// The Rust binding's name.
    pub name: String,
    /// Element type (a scalar when `atomic`).
    pub elem: Type,
    /// Whether the elements are atomics (`AtomicU32`, `AtomicI32`, `AtomicF32`).
    pub atomic: bool,
    /// Array lengths, outermost first (`[[f32; 16]; 8]` is `[8, 16]`). The outermost is 0
    /// in an array sized at launch ([`SharedVar::sized_by`]) until
    /// [`Kernel::with_launch_lengths`] sets it.
    pub dims: Vec<u32>,
    /// For `shared_len::<T>(n)`: the scalar parameter `n` whose value at launch is the
    /// outermost length (WGSL sizes the array by an `override` constant).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sized_by: Option<ParamId>,
    /// Where it was declared.
    pub span: Span,
}

impl SharedVar {
    /// Size in bytes.
    pub fn bytes(&self, types: &[TypeDef]) -> u64 {
        let elem = crate::layout::of(types, self.elem).stride();
        self.dims
            .iter()
            .fold(u64::from(elem), |acc, &d| acc.saturating_mul(u64::from(d)))
    }
}

/// A helper function of the kernel's module, as the WGSL back end emits it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct FunctionId(pub u32);

/// The memory an atomic operation works on.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum AtomicTarget {
    /// An element of an atomic buffer parameter.
    Buffer {
        /// The parameter.
        slice: ParamId,
        /// The element index.
        index: Handle<Expression>,
    },
    /// An element of an atomic workgroup array.
    Shared {
        /// The array.
        var: SharedId,
        /// One index per dimension.
        indices: Vec<Handle<Expression>>,
    },
}

/// An atomic read-modify-write (or load/store), with std's names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum AtomicFun {
    /// `load`
    Load,
    /// `store`
    Store,
    /// `fetch_add`
    Add,
    /// `fetch_sub`
    Sub,
    /// `fetch_min`
    Min,
    /// `fetch_max`
    Max,
    /// `fetch_and`
    And,
    /// `fetch_or`
    Or,
    /// `fetch_xor`
    Xor,
    /// `swap`
    Exchange,
}

/// Which memory a barrier orders.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Barrier {
    /// `block_barrier()`: every invocation of the workgroup waits; workgroup memory is
    /// visible afterwards.
    Workgroup,
    /// `storage_barrier()`: the same for storage buffers.
    Storage,
    /// `subgroup_barrier()`: every invocation of the subgroup waits (WGSL's
    /// `subgroupBarrier()`, feature `SUBGROUP_BARRIER`).
    Subgroup,
}

/// A pure expression.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Expr {
    /// A constant.
    Literal(Literal),
    /// The value of a scalar kernel parameter.
    Param(ParamId),
    /// The current value of a local.
    Local(Handle<Local>),
    /// The length of a slice parameter (`usize`).
    Len(ParamId),
    /// `slice[index]`; `index` is a `usize`.
    Index {
        /// The slice parameter.
        slice: ParamId,
        /// The element index.
        index: Handle<Expression>,
    },
    /// A unary operation.
    Unary {
        /// The operator.
        op: UnaryOp,
        /// The operand.
        expr: Handle<Expression>,
    },
    /// A binary operation; for shifts the right operand may be any integer type.
    Binary {
        /// The operator.
        op: BinaryOp,
        /// Left operand.
        left: Handle<Expression>,
        /// Right operand.
        right: Handle<Expression>,
    },
    /// `cond ? accept : reject` on operands without effects (both are evaluated).
    Select {
        /// The condition.
        cond: Handle<Expression>,
        /// Value when true.
        accept: Handle<Expression>,
        /// Value when false.
        reject: Handle<Expression>,
    },
    /// `expr as to`, with Rust's semantics (saturating float-to-int, NaN to 0).
    Cast {
        /// The value converted.
        expr: Handle<Expression>,
        /// The target type.
        to: Scalar,
    },
    /// `shared[i][j]..` on a non-atomic workgroup array.
    SharedIndex {
        /// The array.
        var: SharedId,
        /// One index per dimension, outermost first.
        indices: Vec<Handle<Expression>>,
    },
    /// An index intrinsic.
    Builtin(Builtin),
    /// A math function.
    Math {
        /// The function.
        fun: MathFun,
        /// Arguments, receiver first.
        args: Vec<Handle<Expression>>,
    },
    /// Field `field` of a struct value.
    Field {
        /// The struct.
        base: Handle<Expression>,
        /// The field's index in its [`StructDef`].
        field: u32,
    },
    /// `base[index]` on an array value (`index` is a `usize`).
    Access {
        /// The array.
        base: Handle<Expression>,
        /// The element index.
        index: Handle<Expression>,
    },
    /// A struct or array built from its fields or elements, in order.
    Compose {
        /// The struct or array type.
        ty: Type,
        /// One value per field or element.
        components: Vec<Handle<Expression>>,
    },
    /// The all-zero value of a type.
    Zero(Type),
    /// Argument number `n` of the helper function being defined.
    Argument(u32),
}

/// An expression node with its type and source location.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Expression {
    /// What it computes.
    pub kind: Expr,
    /// Its type.
    pub ty: Type,
    /// Where it came from.
    pub span: Span,
}

/// A local variable. Every Rust binding gets its own local, so shadowing needs no scopes here.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Local {
    /// The Rust name (without `r#`); the back end escapes it.
    pub name: String,
    /// Its type.
    pub ty: Type,
    /// Whether it is assigned after its declaration.
    pub mutable: bool,
    /// Where it was declared.
    pub span: Span,
}

/// Where an assignment stores.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Place {
    /// A local.
    Local(Handle<Local>),
    /// An element of a read-write slice parameter.
    Index {
        /// The slice parameter.
        slice: ParamId,
        /// The element index.
        index: Handle<Expression>,
    },
    /// An element of a non-atomic workgroup array.
    Shared {
        /// The array.
        var: SharedId,
        /// One index per dimension.
        indices: Vec<Handle<Expression>>,
    },
    /// A field of a struct place.
    Field {
        /// The struct.
        base: Box<Place>,
        /// The field's index.
        field: u32,
    },
    /// An element of an array place.
    Element {
        /// The array.
        base: Box<Place>,
        /// The element index (`usize`).
        index: Handle<Expression>,
    },
}

/// One arm of a [`Stmt::Switch`].
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Case {
    /// The selector values that take this arm.
    pub values: Vec<Literal>,
    /// What it runs.
    pub body: Block,
}

/// A statement.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Stmt {
    /// Declares `local`, initialised from `init` (zero when `None`).
    Let {
        /// The local declared.
        local: Handle<Local>,
        /// Its initial value.
        init: Option<Handle<Expression>>,
    },
    /// `place = value`, or `place op= value` when `op` is set.
    Assign {
        /// Where to store.
        place: Place,
        /// For compound assignment, the operator.
        op: Option<BinaryOp>,
        /// The value stored (the right operand for compound assignment).
        value: Handle<Expression>,
    },
    /// `if cond { accept } else { reject }`.
    If {
        /// The condition.
        cond: Handle<Expression>,
        /// Taken when true.
        accept: Block,
        /// Taken when false.
        reject: Block,
    },
    /// `loop { body; continuing }`: `continue` jumps to `continuing`, after which the loop
    /// exits if `break_if` holds.
    Loop {
        /// The body.
        body: Block,
        /// Runs after the body and after every `continue`.
        continuing: Block,
        /// Checked at the end of `continuing`.
        break_if: Option<Handle<Expression>>,
    },
    /// Leaves the innermost loop.
    Break,
    /// Goes to the innermost loop's `continuing` block.
    Continue,
    /// Ends the invocation (in the kernel) or returns from a helper, with its value.
    Return(Option<Handle<Expression>>),
    /// `switch selector { cases.. default }`: runs the first arm listing the selector's value,
    /// else `default`.
    Switch {
        /// An `i32` or `u32`.
        selector: Handle<Expression>,
        /// The arms with values.
        cases: Vec<Case>,
        /// The arm for every other value (WGSL requires one).
        default: Block,
    },
    /// Calls a helper function; its value goes to `result` (a local declared here).
    Call {
        /// The function.
        function: FunctionId,
        /// The arguments (the slices a helper takes are fixed by its specialisation).
        args: Vec<Handle<Expression>>,
        /// Declared here when the function returns a value.
        result: Option<Handle<Local>>,
    },
    /// A barrier.
    Barrier(Barrier),
    /// A subgroup operation; its value goes to `result` (a local declared here).
    Subgroup {
        /// The operation.
        op: SubgroupOp,
        /// Its arguments ([`SubgroupOp::arity`]).
        args: Vec<Handle<Expression>>,
        /// Declared here: the value.
        result: Handle<Local>,
    },
    /// `workgroup_uniform_load(&shared[i])` (WGSL's `workgroupUniformLoad`): a workgroup
    /// barrier, then every invocation reads the same element into `result` (a local declared
    /// here), a value the uniformity check treats as uniform.
    UniformLoad {
        /// The workgroup array (not atomic).
        var: SharedId,
        /// One index per dimension.
        indices: Vec<Handle<Expression>>,
        /// Declared here: the value read.
        result: Handle<Local>,
    },
    /// An atomic operation; its previous value goes to `result` (a local declared here).
    Atomic {
        /// The operation.
        fun: AtomicFun,
        /// The atomic it works on.
        target: AtomicTarget,
        /// The operand (none for `load`).
        value: Option<Handle<Expression>>,
        /// The local declared to hold the returned value (none for `store`).
        result: Option<Handle<Local>>,
    },
    /// `compare_exchange`: strong, so it retries WGSL's weak exchange until it either
    /// succeeds or sees a different value.
    CompareExchange {
        /// The atomic it works on.
        target: AtomicTarget,
        /// The expected value.
        compare: Handle<Expression>,
        /// The value stored on success.
        value: Handle<Expression>,
        /// Declared here: the previous value.
        old: Handle<Local>,
        /// Declared here: whether the exchange happened.
        exchanged: Handle<Local>,
    },
    /// A cooperative-matrix operation (see [`CoopOp`]), in the kernel's entry point or a
    /// helper.
    Coop(CoopOp),
    /// Writes a record of debug site `site` ([`Kernel::debug`]) to the debug channel: a
    /// print appends one, a failed assertion fills the channel's slot if it is the first
    /// (see [`debug`]). `args` are the invocation's ids, then the format's arguments.
    Debug {
        /// The site's index in [`Kernel::debug`].
        site: u32,
        /// The words' values: ids, then arguments (scalars and vectors).
        args: Vec<Handle<Expression>>,
    },
}

/// A statement with its source location.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Statement {
    /// What it does.
    pub kind: Stmt,
    /// Where it came from.
    pub span: Span,
}

/// A sequence of statements.
pub type Block = Vec<Statement>;

/// How a kernel may access a slice parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Access {
    /// `&[T]`
    Read,
    /// `&mut [T]`
    ReadWrite,
}

/// The type of a kernel parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum ParamType {
    /// A value (a scalar or a struct), passed in the uniform block.
    Value(Type),
    /// A slice, passed as a storage buffer.
    Slice {
        /// Element type.
        elem: Type,
        /// Read-only or read-write.
        access: Access,
    },
    /// `&[AtomicU32]`, `&[AtomicI32]` or `&[AtomicF32]`: a read-write storage buffer of
    /// atomics.
    AtomicSlice {
        /// `U32`, `I32` or `F32`.
        elem: Scalar,
    },
}

impl ParamType {
    /// For a buffer parameter, its element type and access (atomics are read-write).
    pub fn buffer(self) -> Option<(Type, Access)> {
        match self {
            ParamType::Slice { elem, access } => Some((elem, access)),
            ParamType::AtomicSlice { elem } => Some((Type::Scalar(elem), Access::ReadWrite)),
            ParamType::Value(_) => None,
        }
    }
}

/// A kernel parameter.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Param {
    /// The Rust name (without `r#`).
    pub name: String,
    /// Its type.
    pub ty: ParamType,
    /// Where it was declared.
    pub span: Span,
}

/// A compute kernel: the unit the back ends translate.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Kernel {
    /// The Rust function name.
    pub name: String,
    /// Parameters in declaration order ([`ParamId`] indexes this).
    pub params: Vec<Param>,
    /// The workgroup size; `block_dim_*()` returns it.
    pub workgroup_size: [u32; 3],
    /// Workgroup arrays, in declaration order ([`SharedId`] indexes this).
    pub shared: Vec<SharedVar>,
    /// The kernel's body: a [`Function`] with no arguments and no result, named and located
    /// like the kernel, so that every pass walks kernels and helpers as one type.
    pub entry: Function,
    /// The function's location.
    pub span: Span,
    /// Compound types ([`TypeId`] indexes this); a type's fields come before it.
    pub types: Vec<TypeDef>,
    /// Helper functions ([`FunctionId`] indexes this).
    pub functions: Vec<Function>,
    /// The limits the kernel is checked against when it compiles.
    #[serde(default)]
    pub limits: Limits,
    /// Its prints and assertions ([`Stmt::Debug`] indexes this); empty for a kernel without
    /// a debug channel.
    #[serde(default)]
    pub debug: Vec<debug::DebugSite>,
}

/// A function body: a kernel's [`Kernel::entry`], or a helper function (a `fn` of the
/// kernel's module, specialised to the buffers it is called with: WGSL cannot pass a storage
/// buffer to a function, so each buffer a helper takes is fixed to the kernel parameter it
/// was given).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Function {
    /// The Rust name.
    pub name: String,
    /// The types of its value arguments (read with [`Expr::Argument`]); none for a kernel.
    pub args: Vec<Type>,
    /// What it returns; nothing for a kernel.
    pub result: Option<Type>,
    /// Its locals.
    pub locals: Arena<Local>,
    /// Its expressions.
    pub exprs: Arena<Expression>,
    /// Its body.
    pub body: Block,
    /// Where it is defined.
    pub span: Span,
}

impl Function {
    /// An empty function with no arguments and no result: a kernel's entry before its body
    /// is filled in.
    pub fn new(name: impl Into<String>, span: Span) -> Function {
        Function {
            name: name.into(),
            args: Vec::new(),
            result: None,
            locals: Arena::new(),
            exprs: Arena::new(),
            body: Vec::new(),
            span,
        }
    }
}

impl Kernel {
    /// The kernel serialized (as `#[sarek::kernel]` embeds it for the CPU backend), read back
    /// by [`Kernel::from_json`].
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads a kernel serialized by [`Kernel::to_json`].
    pub fn from_json(json: &str) -> Result<Kernel, String> {
        serde_json::from_str(json)
            .map_err(|e| format!("the kernel's embedded IR does not read back: {e}"))
    }

    /// Every function body of the kernel: its entry, then its helpers.
    pub fn all_functions(&self) -> impl Iterator<Item = &Function> {
        std::iter::once(&self.entry).chain(&self.functions)
    }

    /// The parameter with this id.
    pub fn param(&self, id: ParamId) -> &Param {
        &self.params[id.0 as usize]
    }

    /// The workgroup array with this id.
    pub fn shared_var(&self, id: SharedId) -> &SharedVar {
        &self.shared[id.0 as usize]
    }

    /// The kernel with the outermost length of each array sized at launch
    /// ([`SharedVar::sized_by`]) set from `lengths`, one per such array in declaration order
    /// (missing ones stay 0): what a runner of the IR runs for one launch.
    pub fn with_launch_lengths(&self, lengths: &[u32]) -> Kernel {
        let mut kernel = self.clone();
        let sized = kernel.shared.iter_mut().filter(|v| v.sized_by.is_some());
        for (var, &len) in sized.zip(lengths) {
            if let Some(d) = var.dims.first_mut() {
                *d = len;
            }
        }
        kernel
    }

    /// Bytes of workgroup memory the kernel declares (an array sized at launch counts its
    /// outermost length as it stands: 0 before [`Kernel::with_launch_lengths`]), with the
    /// padding of [`Kernel::declared_dims`].
    pub fn workgroup_memory(&self) -> u64 {
        let coop = self.uses_coop();
        self.shared.iter().fold(0u64, |n, v| {
            let elem = u64::from(crate::layout::of(&self.types, v.elem).stride());
            let bytes = self
                .declared_dims(v, coop)
                .iter()
                .fold(elem, |acc, &d| acc.saturating_mul(u64::from(d)));
            n.saturating_add(bytes)
        })
    }

    /// Whether the kernel or one of its helpers runs a cooperative-matrix operation.
    pub fn uses_coop(&self) -> bool {
        self.any_statement(|s| matches!(s, Stmt::Coop(_)))
    }

    /// Whether the kernel or one of its helpers has a statement that WGSL requires in uniform
    /// control flow: a barrier, a `workgroup_uniform_load` or a cooperative-matrix operation.
    pub fn needs_uniform_flow(&self) -> bool {
        self.any_statement(|s| {
            matches!(
                s,
                Stmt::Barrier(_) | Stmt::UniformLoad { .. } | Stmt::Coop(_)
            )
        })
    }

    /// Whether a statement of the kernel or of one of its helpers, at any depth, is `wanted`.
    pub fn any_statement(&self, wanted: impl Fn(&Stmt) -> bool) -> bool {
        let mut found = false;
        for f in self.all_functions() {
            visit(&f.body, &mut |s| found |= wanted(&s.kind));
        }
        found
    }

    /// The lengths the WGSL declares for `var`, outermost first: [`SharedVar::dims`], except
    /// that in a kernel with cooperative matrices (`coop`, [`Kernel::uses_coop`]) a
    /// one-dimensional array of fixed length is lengthened to a whole number of 16 bytes.
    /// NVIDIA's Vulkan driver computes wrong cooperative-matrix products from workgroup
    /// memory when the kernel also writes a workgroup array of another size (a flag of one
    /// `u32`); the padding is never indexed by checked code.
    pub fn declared_dims(&self, var: &SharedVar, coop: bool) -> Vec<u32> {
        let elem = crate::layout::of(&self.types, var.elem).stride();
        match var.dims.as_slice() {
            [len] if coop && var.sized_by.is_none() && elem > 0 && 16 % elem == 0 => {
                let per = 16 / elem;
                vec![len.div_ceil(per).saturating_mul(per)]
            }
            dims => dims.to_vec(),
        }
    }

    /// The struct behind a struct type.
    pub fn struct_def(&self, ty: TypeId) -> Option<&StructDef> {
        struct_def(&self.types, ty)
    }
}

/// `f32` as its bits in serialized IR: JSON has no NaN or infinities, and bits round-trip
/// exactly.
mod f32_bits {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &f32, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u32(v.to_bits())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f32, D::Error> {
        u32::deserialize(d).map(f32::from_bits)
    }
}
