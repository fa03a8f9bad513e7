//! The wgpu features a kernel needs beyond core WebGPU, found from what its IR uses. The ABI
//! lists them ([`crate::abi::Abi::features`]); the runtime refuses to launch a kernel on a
//! device without one of them, and naga validates the WGSL with exactly their capabilities.

use crate::ir::{
    AtomicFun, AtomicTarget, Barrier, Block, Builtin, CoopOp, CoopRole, Expr, Kernel, ParamType,
    Scalar, Stmt, Type, TypeDef,
};

/// A wgpu feature a kernel may need. Serialized (in the JSON ABI) as the name of the
/// `wgpu::Features` constant it stands for.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Feature {
    /// `wgpu::Features::SUBGROUP`: any `subgroup_*` intrinsic (WGSL `enable subgroups;`).
    Subgroup,
    /// `wgpu::Features::SUBGROUP_BARRIER`: `subgroup_barrier()`.
    SubgroupBarrier,
    /// `wgpu::Features::SHADER_FLOAT32_ATOMIC`: a `&[AtomicF32]` buffer parameter. Workgroup
    /// arrays of `AtomicF32` need nothing: WGSL allows float atomics only in storage buffers,
    /// so Sarek keeps those as `atomic<u32>` bits and adds through a compare-exchange loop.
    ShaderFloat32Atomic,
    /// `wgpu::Features::SHADER_F16`: the type `f16` anywhere in the kernel (WGSL
    /// `enable f16;`), in buffers, the uniform block, workgroup memory or locals.
    ShaderF16,
    /// `wgpu::Features::EXPERIMENTAL_COOPERATIVE_MATRIX`, with a matrix shape the device must
    /// offer (`wgpu::Adapter::cooperative_matrix_properties`): `sarek::gpu::CoopMatrix`.
    CooperativeMatrix(CoopShape),
    /// `wgpu::Features::SHADER_INT64`: the type `i64` or `u64` anywhere in the kernel, in
    /// buffers, the uniform block, workgroup memory or locals.
    ShaderInt64,
    /// `wgpu::Features::SHADER_INT64_ATOMIC_MIN_MAX`: a `&[AtomicU64]` or `&[AtomicI64]`
    /// buffer used only by `fetch_min` and `fetch_max` whose previous value is unused.
    ShaderInt64AtomicMinMax,
    /// `wgpu::Features::SHADER_INT64_ATOMIC_ALL_OPS`: any other use of a `&[AtomicU64]` or
    /// `&[AtomicI64]` buffer (`fetch_add`, `swap`, `load`, a previous value that is read, ...).
    ShaderInt64AtomicAllOps,
}

/// The element types of cooperative matrices.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum CoopScalar {
    /// `f16`.
    F16,
    /// `f32`.
    F32,
}

impl CoopScalar {
    /// The element type of `scalar`, if matrices can have it.
    pub fn of(scalar: Scalar) -> Option<CoopScalar> {
        match scalar {
            Scalar::F32 => Some(CoopScalar::F32),
            Scalar::F16 => Some(CoopScalar::F16),
            _ => None,
        }
    }

    /// The Rust (and WGSL) name.
    pub fn name(self) -> &'static str {
        match self {
            CoopScalar::F16 => "f16",
            CoopScalar::F32 => "f32",
        }
    }
}

/// A cooperative-matrix configuration a kernel needs: `size`×`size`×`size` (M×N×K, square as
/// in WGSL's extension), with the element type of A and B (`ab`) and of the accumulator C
/// (`c`). A kernel that only loads and stores matrices of one role needs only that one.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct CoopShape {
    /// M, N and K.
    pub size: u32,
    /// The element type of A and B, where it matters.
    pub ab: Option<CoopScalar>,
    /// The element type of C, where it matters.
    pub c: Option<CoopScalar>,
}

impl std::fmt::Display for CoopShape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.size;
        write!(f, "{n}×{n}×{n}")?;
        if let Some(ab) = self.ab {
            write!(f, ", {} A and B", ab.name())?;
        }
        if let Some(c) = self.c {
            write!(f, ", {} C", c.name())?;
        }
        Ok(())
    }
}

impl Feature {
    /// The name of the `wgpu::Features` constant (`"SUBGROUP"`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Feature::Subgroup => "SUBGROUP",
            Feature::SubgroupBarrier => "SUBGROUP_BARRIER",
            Feature::ShaderFloat32Atomic => "SHADER_FLOAT32_ATOMIC",
            Feature::CooperativeMatrix(_) => "EXPERIMENTAL_COOPERATIVE_MATRIX",
            Feature::ShaderF16 => "SHADER_F16",
            Feature::ShaderInt64 => "SHADER_INT64",
            Feature::ShaderInt64AtomicMinMax => "SHADER_INT64_ATOMIC_MIN_MAX",
            Feature::ShaderInt64AtomicAllOps => "SHADER_INT64_ATOMIC_ALL_OPS",
        }
    }

    /// What a kernel does that needs the feature, for error messages.
    pub fn used_by(self) -> &'static str {
        match self {
            Feature::Subgroup => "subgroup operations (`subgroup_*`)",
            Feature::SubgroupBarrier => "`subgroup_barrier()`",
            Feature::ShaderFloat32Atomic => "`AtomicF32` buffers",
            Feature::CooperativeMatrix(_) => "cooperative matrices (`CoopMatrix`)",
            Feature::ShaderF16 => "the type `f16`",
            Feature::ShaderInt64 => "the types `i64` and `u64`",
            Feature::ShaderInt64AtomicMinMax => {
                "`fetch_min`/`fetch_max` on `AtomicU64`/`AtomicI64` buffers"
            }
            Feature::ShaderInt64AtomicAllOps => {
                "atomic operations on `AtomicU64`/`AtomicI64` buffers"
            }
        }
    }
}

impl std::fmt::Display for Feature {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Feature::CooperativeMatrix(shape) => write!(f, "{} ({shape})", self.name()),
            _ => f.write_str(self.name()),
        }
    }
}

/// The features `kernel` needs, sorted, each once (empty for a core WebGPU kernel).
///
/// ```
/// # use sarek_ir::ir::*;
/// # use sarek_ir::features::{required, Feature};
/// let mut kernel = Kernel {
///     name: "k".into(), params: vec![], workgroup_size: [64, 1, 1], shared: vec![],
///     entry: Function::new("k", Span(0)), span: Span(0), types: vec![], functions: vec![],
///     limits: Limits::Portable, debug: vec![],
/// };
/// assert!(required(&kernel).is_empty());
/// kernel.entry.body.push(Statement { kind: Stmt::Barrier(Barrier::Subgroup), span: Span(0) });
/// assert_eq!(required(&kernel), [Feature::Subgroup, Feature::SubgroupBarrier]);
/// ```
pub fn required(kernel: &Kernel) -> Vec<Feature> {
    let mut found = Vec::new();
    for param in &kernel.params {
        if param.ty == (ParamType::AtomicSlice { elem: Scalar::F32 }) {
            found.push(Feature::ShaderFloat32Atomic);
        }
    }
    if uses_f16(kernel) {
        found.push(Feature::ShaderF16);
    }
    if uses_scalar(kernel, |s| s.is_wide()) {
        found.push(Feature::ShaderInt64);
    }
    if let Some(feature) = int64_atomics(kernel) {
        found.push(feature);
    }
    for function in kernel.all_functions() {
        let subgroup_builtin = function.exprs.iter().any(|(_, e)| {
            matches!(
                e.kind,
                Expr::Builtin(Builtin::SubgroupSize | Builtin::SubgroupInvocationId)
            )
        });
        if subgroup_builtin {
            found.push(Feature::Subgroup);
        }
        statements(&function.body, &mut found);
    }
    found.sort();
    found.dedup();
    // A load or store's one role is implied by a multiply-add of the same matrices: keep
    // only the multiply-add's full shape, which is what the device must offer.
    let full: Vec<CoopShape> = found
        .iter()
        .filter_map(|f| match f {
            Feature::CooperativeMatrix(s) if s.ab.is_some() && s.c.is_some() => Some(*s),
            _ => None,
        })
        .collect();
    found.retain(|f| match f {
        Feature::CooperativeMatrix(s) if s.ab.is_none() || s.c.is_none() => !full.iter().any(|x| {
            x.size == s.size
                && s.ab.is_none_or(|ab| x.ab == Some(ab))
                && s.c.is_none_or(|c| x.c == Some(c))
        }),
        _ => true,
    });
    found
}

/// Whether `f16` appears in any type the kernel declares or computes with: its type table,
/// parameters, workgroup arrays, and every function's arguments, result, locals and
/// expressions (a cast from `f16` to `f32` still computes with an `f16` operand).
pub fn uses_f16(kernel: &Kernel) -> bool {
    uses_scalar(kernel, |s| s == Scalar::F16)
}

/// Whether a scalar for which `wanted` holds appears in any type the kernel declares or
/// computes with (see [`uses_f16`]).
pub fn uses_scalar(kernel: &Kernel, wanted: impl Fn(Scalar) -> bool) -> bool {
    let half = |ty: Type| matches!(ty, Type::Scalar(s) | Type::Vector(_, s) if wanted(s));
    let in_table = kernel.types.iter().any(|t| match t {
        TypeDef::Array { elem, .. } => half(*elem),
        TypeDef::Struct(s) => s.fields.iter().any(|f| half(f.ty)),
    });
    let in_params = kernel.params.iter().any(|p| match p.ty {
        ParamType::Value(ty) | ParamType::Slice { elem: ty, .. } => half(ty),
        ParamType::AtomicSlice { elem } => wanted(elem),
    });
    let in_shared = kernel.shared.iter().any(|s| half(s.elem));
    let in_functions = kernel.all_functions().any(|f| {
        f.args.iter().any(|t| half(*t))
            || f.result.is_some_and(half)
            || f.locals.iter().any(|(_, l)| half(l.ty))
            || f.exprs.iter().any(|(_, e)| half(e.ty))
    });
    in_table || in_params || in_shared || in_functions
}

/// The 64-bit atomic feature a kernel needs: none without a 64-bit atomic buffer,
/// `ShaderInt64AtomicMinMax` where every operation on one is a `fetch_min` or `fetch_max`
/// without a result (the front end drops the result of a call whose value is discarded; naga
/// allows only such calls under it), else
/// `ShaderInt64AtomicAllOps`.
fn int64_atomics(kernel: &Kernel) -> Option<Feature> {
    let wide: Vec<u32> = (0u32..)
        .zip(&kernel.params)
        .filter(|(_, p)| matches!(p.ty, ParamType::AtomicSlice { elem } if elem.is_wide()))
        .map(|(i, _)| i)
        .collect();
    if wide.is_empty() {
        return None;
    }
    let mut all_ops = false;
    for function in kernel.all_functions() {
        crate::ir::visit(&function.body, &mut |s| {
            let on_wide = |t: &AtomicTarget| matches!(t, AtomicTarget::Buffer { slice, .. } if wide.contains(&slice.0));
            match &s.kind {
                Stmt::Atomic {
                    fun: AtomicFun::Min | AtomicFun::Max,
                    target,
                    result,
                    ..
                } if on_wide(target) => all_ops |= result.is_some(),
                Stmt::Atomic { target, .. } | Stmt::CompareExchange { target, .. }
                    if on_wide(target) =>
                {
                    all_ops = true
                }
                _ => {}
            }
        });
    }
    Some(if all_ops {
        Feature::ShaderInt64AtomicAllOps
    } else {
        Feature::ShaderInt64AtomicMinMax
    })
}

fn statements(block: &Block, found: &mut Vec<Feature>) {
    crate::ir::visit(block, &mut |s| match &s.kind {
        Stmt::Subgroup { .. } => found.push(Feature::Subgroup),
        Stmt::Coop(op) => found.push(Feature::CooperativeMatrix(coop_shape(op))),
        // `SUBGROUP_BARRIER` enables nothing without `SUBGROUP` (wgpu's rule).
        Stmt::Barrier(Barrier::Subgroup) => {
            found.extend([Feature::Subgroup, Feature::SubgroupBarrier])
        }
        _ => {}
    });
}

/// The configuration a cooperative-matrix statement needs: a multiply-add's A/B and C types,
/// or the one role a load, store or zero names.
fn coop_shape(op: &CoopOp) -> CoopShape {
    let of = |s| CoopScalar::of(s);
    match op {
        CoopOp::MultiplyAdd { a, c, .. } => CoopShape {
            size: a.size,
            ab: of(a.scalar),
            c: of(c.scalar),
        },
        _ => {
            let m = op.matrices()[0];
            let scalar = of(m.scalar);
            match m.role {
                CoopRole::C => CoopShape {
                    size: m.size,
                    ab: None,
                    c: scalar,
                },
                CoopRole::A | CoopRole::B => CoopShape {
                    size: m.size,
                    ab: scalar,
                    c: None,
                },
            }
        }
    }
}
