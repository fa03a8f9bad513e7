//! Internal to Sarek: use the [`sarek`](https://docs.rs/sarek) crate, whose version this
//! crate's version follows; its API may change in any release.
//!
//! The ground floor of Sarek: what every stage shares and no stage owns. The IR of a kernel
//! ([`ir`], with its walk, remap and serialisation), the host layout of its types
//! ([`layout`]), the kernel ABI as plain data ([`abi`]: what a launch needs: bindings, the
//! uniform block, features, entry points), the device features a kernel needs
//! ([`features`]) and the reading rule of on/off switches ([`toggle`]). It knows no backend:
//! the compiler (`sarek-codegen`), the CPU engine (`sarek-cpu`) and the runtime build on it.
//!
//! ```
//! use sarek_ir::ir::*;
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
//! // What a runner needs to bind it: one buffer, and `v` and the length in the uniform block.
//! let abi = sarek_ir::abi::layout(&kernel);
//! assert_eq!(abi.buffers.len(), 1);
//! assert_eq!(abi.uniform.fields.len(), 3);
//! assert!(Kernel::from_json(&kernel.to_json()).is_ok());
//! ```

#![deny(missing_docs)]

pub mod abi;
pub mod arena;
pub mod features;
pub mod ir;
pub mod layout;
pub mod toggle;
