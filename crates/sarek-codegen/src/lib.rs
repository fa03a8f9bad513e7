//! Internal to Sarek: use the [`sarek`](https://docs.rs/sarek) crate, whose version this
//! crate's version follows; its API may change in any release.
//!
//! Sarek's compiler: the Rust front end (`front`, feature `front`: `syn` syntax trees to
//! the IR of `sarek-ir`), the checks WebGPU imposes ([`check`]), the passes that transform the
//! IR ([`passes`]), the WGSL writer ([`wgsl`]), the ABI with the WGSL module's names
//! ([`abi::build`]) and [`compile`], which runs them and has naga validate the result
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

pub mod abi;
pub mod check;
#[cfg(feature = "front")]
pub mod front;
pub mod passes;
pub mod wgsl;

// The IR (the ground floor) and the naga stage under the names the compiler's code uses; public,
// because the compiler's API speaks of their types.
pub use sarek_ir::{arena, features, ir, layout, toggle};
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
            CompileError::Naga { message, wgsl } => f.write_str(&naga_report(message, wgsl)),
        }
    }
}

impl std::error::Error for CompileError {}

/// The text that reports naga's rejection of Sarek's WGSL (a bug in Sarek), here and in the
/// front end's diagnostics.
pub(crate) fn naga_report(message: &str, wgsl: &str) -> String {
    format!("this is a bug in Sarek, please report it: naga rejected the WGSL that Sarek generated.\n{message}\nThe generated WGSL:\n{wgsl}")
}

/// Runs the back half of the pipeline on a lowered kernel: checks, ABI, passes, WGSL, naga;
/// the optional passes as the environment asks ([`passes::Options::from_env`]).
pub fn compile(kernel: &ir::Kernel) -> Result<CompiledKernel, CompileError> {
    compile_with(kernel, &passes::Options::from_env())
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
    let abi = abi::build(kernel);
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
