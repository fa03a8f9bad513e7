//! Internal to Sarek: use the [`sarek`](https://docs.rs/sarek) crate, whose version this
//! crate's version follows; its API may change in any release.
//!
//! Sarek's compiler: the Rust front end (`front`, feature `front`: `syn` syntax trees to
//! the IR of `sarek-ir`), the checks WebGPU imposes ([`check`]), the passes that transform the
//! IR ([`passes`]), the WGSL writer ([`wgsl`]), the ABI with the WGSL module's names
//! ([`wgsl::abi::build`]) and [`compile`], which runs them and has naga validate the result
//! (`sarek-proof`). A normal library, so every stage is testable without a proc-macro
//! process. The runtime does not depend on it.
//!
//! ```
//! use sarek_codegen::ir::*;
//!
//! // fn fill(v: u32, out: &mut [u32]) { let i = global_thread_id(); if i < out.len() { out[i] = v; } }
//! let mut kernel = Kernel {
//!     name: "fill".into(),
//!     params: vec![
//!         Param { name: "v".into(), ty: ParamType::Value(Type::Scalar(Scalar::U32)), span: Span(0) },
//!         Param { name: "out".into(), ty: ParamType::Slice { elem: Type::Scalar(Scalar::U32), access: Access::ReadWrite }, span: Span(0) },
//!     ],
//!     workgroup_size: [64, 1, 1],
//!     shared: Vec::new(),
//!     entry: Function::new("fill", Span(0)),
//!     span: Span(0),
//!     types: Vec::new(),
//!     functions: Vec::new(),
//!     limits: Limits::Portable,
//!     debug: Vec::new(),
//! };
//! let u32_ty = Type::Scalar(Scalar::U32);
//! let mut expr = |f: &mut Function, kind, ty| f.exprs.append(Expression { kind, ty, span: Span(0) });
//! let entry = &mut kernel.entry;
//! let i = entry.locals.append(Local { name: "i".into(), ty: u32_ty, mutable: false, span: Span(0) });
//! let gid = expr(entry, Expr::Builtin(Builtin::GlobalThreadId), u32_ty);
//! let read_i = expr(entry, Expr::Local(i), u32_ty);
//! let len = expr(entry, Expr::Len(ParamId(1)), u32_ty);
//! let cond = expr(entry, Expr::Binary { op: BinaryOp::Lt, left: read_i, right: len }, Type::Scalar(Scalar::Bool));
//! let index = expr(entry, Expr::Local(i), u32_ty);
//! let v = expr(entry, Expr::Param(ParamId(0)), u32_ty);
//! let store = Statement {
//!     kind: Stmt::Assign { place: Place::Index { slice: ParamId(1), index }, op: None, value: v },
//!     span: Span(0),
//! };
//! entry.body = vec![
//!     Statement { kind: Stmt::Let { local: i, init: Some(gid) }, span: Span(0) },
//!     Statement { kind: Stmt::If { cond, accept: vec![store], reject: vec![] }, span: Span(0) },
//! ];
//! let module = sarek_codegen::compile(&kernel).unwrap();
//! assert!(module.wgsl.contains("out[i] = sarek_params.v;"));
//! assert_eq!(module.abi.buffers.len(), 1);
//! ```

#![deny(missing_docs)]

pub mod check;
#[cfg(feature = "front")]
pub mod front;
pub mod passes;
pub mod wgsl;

// The IR (the ground floor) and the naga stage under the names the compiler's code uses; public,
// because the compiler's API speaks of their types.
pub use sarek_ir::{abi, arena, features, ir, layout, toggle};
pub use sarek_proof::{in_bounds, valid};

/// A kernel compiled to WGSL, with its ABI.
#[derive(Clone, Debug, PartialEq)]
pub struct CompiledKernel {
    /// The WGSL module.
    pub wgsl: String,
    /// How to bind and launch it.
    pub abi: abi::Abi,
    /// Where each entry point's text lies in `wgsl` (the runtime gives wgpu one of them).
    pub entry_points: Vec<wgsl::EntryPointText>,
    /// The entry points whose every index naga would clamp is proven in bounds
    /// ([`in_bounds`]), so that the runtime may create them without the clamps.
    pub in_bounds: Vec<String>,
}

/// Why a kernel did not compile.
#[derive(Clone, Debug, PartialEq)]
pub enum CompileError {
    /// The kernel breaks a WebGPU rule; each entry is a location and a message for the user.
    Kernel(Vec<(ir::Span, String)>),
    /// naga rejected the WGSL Sarek emitted: a bug in Sarek.
    Naga {
        /// naga's report.
        message: String,
        /// The rejected module.
        wgsl: String,
    },
}

impl std::fmt::Display for CompileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CompileError::Kernel(errors) => {
                for (i, (_, message)) in errors.iter().enumerate() {
                    if i > 0 {
                        f.write_str("\n")?;
                    }
                    f.write_str(message)?;
                }
                Ok(())
            }
            CompileError::Naga { message, wgsl } => f.write_str(&valid::report(message, wgsl)),
        }
    }
}

impl std::error::Error for CompileError {}

/// Runs the back half of the pipeline on a lowered kernel: checks, ABI, passes, WGSL, naga;
/// the optional passes as the environment asks ([`passes::Options::from_env`]).
pub fn compile(kernel: &ir::Kernel) -> Result<CompiledKernel, CompileError> {
    compile_with(kernel, &passes::Options::from_env())
}

/// A kernel compiled in the forms the runtime launches: the optimized form and, where it
/// differs, a quick form that a GPU driver compiles several times faster (the runtime
/// launches it while the optimized one compiles on another thread).
#[derive(Clone, Debug, PartialEq)]
pub struct Tiered {
    /// The kernel as lowered with its short loops unrolled, through every pass.
    pub optimized: CompiledKernel,
    /// The quick form, if there is one.
    pub quick: Option<QuickForm>,
}

/// The quick form of a kernel: the module's shared text and its direct entry point, compiled
/// from the same source with its loops kept.
#[derive(Clone, Debug, PartialEq)]
pub struct QuickForm {
    /// The WGSL text.
    pub text: String,
    /// Whether every index of its entry point is proven in bounds.
    pub in_bounds: bool,
    /// The copies of each workgroup it runs as: 1, or the slices of an array of cooperative
    /// accumulators ([`passes::slice_coop`]).
    pub slices: u32,
}

/// The tiering policy, in one place: compiles `kernel` (lowered with short `for` loops
/// unrolled) with `options`, and the quick form from `rolled` (the same source lowered with its
/// loops kept, `None` when nothing was unrolled). The quick form is sliced where
/// [`passes::slice_coop`] applies and `options.slice` allows, and is dropped when it fails to
/// compile, binds differently or comes out the same: the same source lowered by the same rules
/// computes the same results, only the loops stay loops. Each form is compiled once (a quick
/// form whose slices fail to compile is compiled again whole).
pub fn compile_tiered(
    kernel: &ir::Kernel,
    rolled: Option<&ir::Kernel>,
    options: &passes::Options,
) -> Result<Tiered, CompileError> {
    let optimized = compile_with(kernel, options)?;
    let quick = rolled.and_then(|rolled| quick_form(rolled, &optimized, options));
    Ok(Tiered { optimized, quick })
}

/// The quick form of [`compile_tiered`].
fn quick_form(
    rolled: &ir::Kernel,
    optimized: &CompiledKernel,
    options: &passes::Options,
) -> Option<QuickForm> {
    use abi::ENTRY_POINT;
    use wgsl::EntryPointText;
    let sliced = options
        .slice
        .then(|| passes::slice_coop::run(rolled))
        .flatten()
        .and_then(|(kernel, n)| Some((compile_with(&kernel, options).ok()?, n)));
    let (quick, slices) = match sliced {
        Some(done) => done,
        None => (compile_with(rolled, options).ok()?, 1),
    };
    let text = |c: &CompiledKernel| EntryPointText::text(&c.wgsl, &c.entry_points, ENTRY_POINT);
    match (text(&quick), text(optimized)) {
        (Some(q), Some(o)) if quick.abi == optimized.abi && q != o => Some(QuickForm {
            // The quick text is the module's shared text and this entry point, which the
            // analysis covered (it requires every helper proven too).
            in_bounds: quick.in_bounds.iter().any(|e| e == ENTRY_POINT),
            text: q,
            slices,
        }),
        _ => None,
    }
}

/// [`compile`] with the optional passes chosen by `options`.
pub fn compile_with(
    kernel: &ir::Kernel,
    options: &passes::Options,
) -> Result<CompiledKernel, CompileError> {
    if let Err(message) = check::workgroup_size_for(kernel.workgroup_size, kernel.limits) {
        return Err(CompileError::Kernel(vec![(kernel.span, message)]));
    }
    if let Some(too_long) = check::function_size(kernel) {
        return Err(CompileError::Kernel(vec![too_long]));
    }
    let over = check::portable(kernel);
    if !over.is_empty() {
        return Err(CompileError::Kernel(over));
    }
    let divergent = check::uniformity::check(kernel);
    if !divergent.is_empty() {
        return Err(CompileError::Kernel(divergent));
    }
    let abi = wgsl::abi::build(kernel);
    let prepared = passes::run_with(kernel, options);
    debug_assert_eq!(abi.coarsened, prepared.coarse.is_some());
    debug_assert_eq!(abi.vectorised, prepared.vec4.is_some());
    let (wgsl, entry_points) = wgsl::write_checked(&prepared, &abi)
        .map_err(|too_deep| CompileError::Kernel(vec![too_deep]))?;
    let (module, info) =
        valid::validated(&wgsl, &abi.features).map_err(|message| CompileError::Naga {
            message,
            wgsl: wgsl.clone(),
        })?;
    let in_bounds = in_bounds::unclamped_entry_points(&module, &info);
    Ok(CompiledKernel {
        wgsl,
        abi,
        entry_points,
        in_bounds,
    })
}
