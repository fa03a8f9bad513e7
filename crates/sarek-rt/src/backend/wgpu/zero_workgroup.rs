//! Workgroup memory zeroed by the kernel itself on wgpu's GL backend.
//!
//! WGSL starts workgroup memory at zero, and Sarek's kernels rely on it (a histogram's
//! private bins). wgpu keeps that promise on GL through naga's GLSL writer, which has the
//! first invocation store one array constructor with every element written out
//! (`uint[4096](0u, 0u, ...)`); Mesa's llvmpipe spends minutes compiling such a shader (in LLVM's
//! coroutine splitting: a histogram over 4096 bins took 163 s to run on 7 values). On GL each module is therefore given, before wgpu sees it, a loop at the
//! start of each compute entry point in which every invocation zeroes its share of each
//! workgroup array, then a workgroup barrier; the pipeline is made without wgpu's own zeroing
//! ([`compilation_options`]). Other backends run the modules unchanged.

use std::borrow::Cow;

use naga::{
    AddressSpace, BinaryOperator, Block, Expression, Handle, Literal, LocalVariable, Scalar,
    ScalarKind, ShaderStage, Span, Statement, Type, TypeInner,
};

use crate::device::Device;

/// The name of the loop counter the rewrite adds: a module that holds it zeroes its own
/// workgroup memory (Sarek's identifiers start with `sarek_`, which kernels cannot declare).
const COUNTER: &str = "sarek_wg_zero";

impl Device {
    /// Whether modules zero their own workgroup memory on this device: on wgpu's GL backend.
    pub(crate) fn zeroes_workgroup_memory(&self) -> bool {
        self.backend() == Some(wgpu::Backend::Gl)
    }
}

/// The options of a pipeline made from `text`: without wgpu's zeroing of workgroup memory
/// where the module does it itself ([`rewrite`]).
pub(crate) fn compilation_options(text: &str) -> wgpu::PipelineCompilationOptions<'static> {
    wgpu::PipelineCompilationOptions {
        zero_initialize_workgroup_memory: !text.contains(COUNTER),
        ..Default::default()
    }
}

/// `kernel`'s module `text` with each compute entry point zeroing its workgroup arrays
/// (written back as WGSL by naga, so the module cache keeps working); the text as it is when
/// it has no workgroup memory, does not parse here (wgpu then reports the error) or cannot be
/// rewritten (logged: wgpu's own zeroing then applies, slow to compile but correct).
pub(crate) fn text(kernel: &str, text: Cow<'static, str>) -> Cow<'static, str> {
    match rewritten(&text) {
        Ok(Some(written)) => Cow::Owned(written),
        Ok(None) => text,
        Err(e) => {
            log::warn!(
                "sarek: cannot rewrite `{kernel}` to zero its own workgroup memory on GL ({e}); \
                 wgpu zeroes it, which llvmpipe may take minutes to compile"
            );
            text
        }
    }
}

fn rewritten(text: &str) -> std::result::Result<Option<String>, String> {
    let Ok(mut module) = naga::front::wgsl::parse_str(text) else {
        return Ok(None);
    };
    if !rewrite(&mut module) {
        return Ok(None);
    }
    let flags = naga::valid::ValidationFlags::all();
    let info = naga::valid::Validator::new(flags, naga::valid::Capabilities::all())
        .validate(&module)
        .map_err(|e| e.into_inner().to_string())?;
    naga::back::wgsl::write_string(&module, &info, naga::back::wgsl::WriterFlags::empty())
        .map(Some)
        .map_err(|e| e.to_string())
}

/// Adds the zeroing prologue to every compute entry point of `module`; whether the module has
/// workgroup variables.
fn rewrite(module: &mut naga::Module) -> bool {
    let globals: Vec<(Handle<naga::GlobalVariable>, Handle<Type>)> = module
        .global_variables
        .iter()
        .filter(|(_, g)| g.space == AddressSpace::WorkGroup)
        .map(|(h, g)| (h, g.ty))
        .collect();
    if globals.is_empty() {
        return false;
    }
    let u32_ty = module.types.insert(
        Type {
            name: None,
            inner: TypeInner::Scalar(Scalar::U32),
        },
        Span::UNDEFINED,
    );
    // What each variable is zeroed with: per element for an array of fixed length, whole
    // otherwise; an atomic is stored a zero of its scalar.
    let plans: Vec<(Handle<naga::GlobalVariable>, Option<u32>, Zero)> = globals
        .iter()
        .map(|&(g, ty)| match module.types[ty].inner {
            TypeInner::Array {
                base,
                size: naga::ArraySize::Constant(n),
                ..
            } => (g, Some(n.get()), zero_of(&module.types, base)),
            _ => (g, None, zero_of(&module.types, ty)),
        })
        .collect();
    for ep in module.entry_points.iter_mut() {
        if ep.stage != ShaderStage::Compute {
            continue;
        }
        let size: u32 = ep.workgroup_size.iter().product();
        let f = &mut ep.function;
        let index_arg = f.arguments.iter().position(|a| {
            a.binding == Some(naga::Binding::BuiltIn(naga::BuiltIn::LocalInvocationIndex))
        });
        let index_arg = index_arg.unwrap_or_else(|| {
            f.arguments.push(naga::FunctionArgument {
                name: Some("sarek_wg_index".into()),
                ty: u32_ty,
                binding: Some(naga::Binding::BuiltIn(naga::BuiltIn::LocalInvocationIndex)),
            });
            f.arguments.len() - 1
        });
        let mut b = Builder { f, u32_ty };
        let index = b.expr(Expression::FunctionArgument(index_arg as u32));
        let mut prologue = Block::new();
        for &(g, len, zero) in &plans {
            let global = b.expr(Expression::GlobalVariable(g));
            let value = b.zero(zero);
            match len {
                Some(n) => b.zero_array(&mut prologue, global, value, index, n, size),
                None => b.zero_first(&mut prologue, global, value, index),
            }
        }
        prologue.push(
            Statement::ControlBarrier(naga::Barrier::WORK_GROUP),
            Span::UNDEFINED,
        );
        let body = std::mem::take(&mut b.f.body);
        for (statement, span) in body.span_into_iter() {
            prologue.push(statement, span);
        }
        b.f.body = prologue;
    }
    true
}

/// The zero a store writes: a value of the type, or a literal for an atomic.
#[derive(Clone, Copy)]
enum Zero {
    Value(Handle<Type>),
    Literal(Literal),
}

fn zero_of(types: &naga::UniqueArena<Type>, ty: Handle<Type>) -> Zero {
    match types[ty].inner {
        TypeInner::Atomic(Scalar {
            kind: ScalarKind::Sint,
            width: 4,
        }) => Zero::Literal(Literal::I32(0)),
        TypeInner::Atomic(Scalar {
            kind: ScalarKind::Float,
            width: 4,
        }) => Zero::Literal(Literal::F32(0.0)),
        TypeInner::Atomic(_) => Zero::Literal(Literal::U32(0)),
        _ => Zero::Value(ty),
    }
}

/// One entry point's function being rewritten.
struct Builder<'a> {
    f: &'a mut naga::Function,
    u32_ty: Handle<Type>,
}

impl Builder<'_> {
    fn expr(&mut self, e: Expression) -> Handle<Expression> {
        self.f.expressions.append(e, Span::UNDEFINED)
    }

    fn zero(&mut self, zero: Zero) -> Handle<Expression> {
        match zero {
            Zero::Value(ty) => self.expr(Expression::ZeroValue(ty)),
            Zero::Literal(l) => self.expr(Expression::Literal(l)),
        }
    }

    /// Appends `e` (an expression that needs evaluating) with its `Emit` to `block`.
    fn emit(&mut self, block: &mut Block, e: Expression) -> Handle<Expression> {
        let h = self.expr(e);
        block.push(
            Statement::Emit(naga::Range::new_from_bounds(h, h)),
            Span::UNDEFINED,
        );
        h
    }

    /// `for (var i = index; i < len; i += size) { global[i] = value; }`
    fn zero_array(
        &mut self,
        out: &mut Block,
        global: Handle<Expression>,
        value: Handle<Expression>,
        index: Handle<Expression>,
        len: u32,
        size: u32,
    ) {
        let local = self.f.local_variables.append(
            LocalVariable {
                name: Some(COUNTER.into()),
                ty: self.u32_ty,
                init: None,
            },
            Span::UNDEFINED,
        );
        let counter = self.expr(Expression::LocalVariable(local));
        out.push(
            Statement::Store {
                pointer: counter,
                value: index,
            },
            Span::UNDEFINED,
        );
        let len = self.expr(Expression::Literal(Literal::U32(len)));
        let step = self.expr(Expression::Literal(Literal::U32(size.max(1))));
        let mut body = Block::new();
        let i = self.emit(&mut body, Expression::Load { pointer: counter });
        let inside = self.emit(
            &mut body,
            Expression::Binary {
                op: BinaryOperator::Less,
                left: i,
                right: len,
            },
        );
        let mut leave = Block::new();
        leave.push(Statement::Break, Span::UNDEFINED);
        body.push(
            Statement::If {
                condition: inside,
                accept: Block::new(),
                reject: leave,
            },
            Span::UNDEFINED,
        );
        let element = self.emit(
            &mut body,
            Expression::Access {
                base: global,
                index: i,
            },
        );
        body.push(
            Statement::Store {
                pointer: element,
                value,
            },
            Span::UNDEFINED,
        );
        let mut continuing = Block::new();
        let current = self.emit(&mut continuing, Expression::Load { pointer: counter });
        let next = self.emit(
            &mut continuing,
            Expression::Binary {
                op: BinaryOperator::Add,
                left: current,
                right: step,
            },
        );
        continuing.push(
            Statement::Store {
                pointer: counter,
                value: next,
            },
            Span::UNDEFINED,
        );
        out.push(
            Statement::Loop {
                body,
                continuing,
                break_if: None,
            },
            Span::UNDEFINED,
        );
    }

    /// `if index == 0 { global = value; }`, for a variable that is not an array.
    fn zero_first(
        &mut self,
        out: &mut Block,
        global: Handle<Expression>,
        value: Handle<Expression>,
        index: Handle<Expression>,
    ) {
        let zero = self.expr(Expression::Literal(Literal::U32(0)));
        let first = self.emit(
            out,
            Expression::Binary {
                op: BinaryOperator::Equal,
                left: index,
                right: zero,
            },
        );
        let mut accept = Block::new();
        accept.push(
            Statement::Store {
                pointer: global,
                value,
            },
            Span::UNDEFINED,
        );
        out.push(
            Statement::If {
                condition: first,
                accept,
                reject: Block::new(),
            },
            Span::UNDEFINED,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::{compilation_options, rewritten, COUNTER};

    /// A workgroup array is zeroed by a strided loop of every invocation and a scalar by the
    /// first, before a barrier and the kernel's own code; wgpu's zeroing is then off.
    #[test]
    fn workgroup_arrays_are_zeroed_by_a_strided_loop() {
        let text = "
            var<workgroup> h: array<atomic<u32>, 4096>;
            var<workgroup> tile: array<array<f32, 16>, 16>;
            var<workgroup> total: f32;
            @group(0) @binding(0) var<storage, read_write> out: array<u32>;
            @compute @workgroup_size(64, 2)
            fn main(@builtin(local_invocation_id) lid: vec3<u32>) {
                atomicAdd(&h[lid.x], 1u);
                tile[lid.x % 16u][lid.y] = 1.0;
                total = 2.0;
                workgroupBarrier();
                out[lid.x] = atomicLoad(&h[lid.x]);
            }
        ";
        let written = rewritten(text).unwrap().expect("rewritten");
        assert!(written.contains(COUNTER), "{written}");
        assert!(
            written.contains("@builtin(local_invocation_index)"),
            "{written}"
        );
        // The stride is the workgroup's size, the bound each array's length.
        assert!(written.contains("128u"), "{written}");
        assert!(written.contains("4096u"), "{written}");
        assert!(written.contains("16u"), "{written}");
        let barrier = written.find("workgroupBarrier").unwrap();
        assert!(barrier < written.find("atomicAdd").unwrap(), "{written}");
        assert!(!compilation_options(&written).zero_initialize_workgroup_memory);
    }

    /// A module without workgroup memory is left as it is, with wgpu's (empty) zeroing.
    #[test]
    fn modules_without_workgroup_memory_are_unchanged() {
        let text = "
            @group(0) @binding(0) var<storage, read_write> out: array<u32>;
            @compute @workgroup_size(64)
            fn main(@builtin(global_invocation_id) gid: vec3<u32>) { out[gid.x] = 1u; }
        ";
        assert_eq!(rewritten(text), Ok(None));
        assert!(compilation_options(text).zero_initialize_workgroup_memory);
    }
}
