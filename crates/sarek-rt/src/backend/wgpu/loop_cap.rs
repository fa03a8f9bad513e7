//! Loops cut short by a software adapter, reported as an error instead of a wrong result.
//!
//! Mesa's lavapipe ends every loop of an invocation once the invocation has run 65,535 loop
//! iterations in all (one counter for every loop of the shader, nested ones included, so
//! splitting a loop does not help), and carries on after the loop as if it had ended. On a
//! software adapter ([`Device::is_software`]) each module is therefore given, before wgpu
//! sees it, a flag per loop set where the loop is left by a `break`: code after a loop that
//! finds its flag unset knows the loop was cut, and stores the kernel's number into a status
//! word of the device (group 1, binding 0, bound with every launch). The next read of any
//! buffer of the device copies the word back with its data and clears it, and fails with
//! [`Error::LoopCut`] naming the kernel. Hardware adapters run the modules unchanged.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use naga::{
    AddressSpace, Block, Expression, GlobalVariable, Handle, Literal, LocalVariable,
    ResourceBinding, Scalar, Span, Statement, StorageAccess, Type, TypeInner,
};

use crate::device::Device;
use crate::error::{Error, Result};

/// The bind group index of the status word (the kernel's own bindings are all in group 0).
pub(crate) const GROUP: u32 = 1;

/// A device's status word and the kernels whose modules write it (a clone shares them).
#[derive(Clone)]
pub(crate) struct LoopCap {
    /// One `u32`: 0, or the number of a kernel ([`LoopCap::kernels`]' index + 1) that left a
    /// loop without breaking out of it.
    pub(crate) status: wgpu::Buffer,
    pub(crate) layout: wgpu::BindGroupLayout,
    pub(crate) group: wgpu::BindGroup,
    kernels: Arc<Mutex<HashMap<u32, String>>>,
}

impl LoopCap {
    fn new(device: &wgpu::Device) -> LoopCap {
        let status = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("sarek loop status"),
            size: 4,
            usage: wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::COPY_SRC
                | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let layout = super::bind::one_storage_buffer_layout(device, "sarek loop status");
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("sarek loop status"),
            layout: &layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: status.as_entire_binding(),
            }],
        });
        LoopCap {
            status,
            layout,
            group,
            kernels: Arc::default(),
        }
    }

    /// The number `kernel`'s modules store when a loop was cut: a hash of its name, so that
    /// the instrumented text (and the module cache's key) is the same in every process.
    fn number(&self, kernel: &str) -> u32 {
        let mut h: u32 = 0x811c_9dc5;
        for b in kernel.bytes() {
            h = (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
        }
        let h = h.max(1);
        crate::sync::lock(&self.kernels)
            .entry(h)
            .or_insert_with(|| kernel.to_string());
        h
    }

    /// The error for a status word read back, if it is set.
    pub(crate) fn check(&self, word: u32) -> Result<()> {
        if word == 0 {
            return Ok(());
        }
        let kernel = crate::sync::lock(&self.kernels)
            .get(&word)
            .cloned()
            .unwrap_or_else(|| format!("number {word:#x}"));
        Err(Error::LoopCut { kernel })
    }

    /// `kernel`'s module `text` with loops that report being cut (written back as WGSL by
    /// naga, so the module cache keeps working); the text as it is when it has no loop, or
    /// when it does not parse here (wgpu then reports the error) or cannot be written back
    /// (logged). The proof that the text's accesses are in bounds still holds: only a local
    /// flag and a store to the status word are added.
    pub(crate) fn text(&self, kernel: &str, text: Cow<'static, str>) -> Cow<'static, str> {
        match instrumented(&text, self.number(kernel)) {
            Ok(Some(written)) => Cow::Owned(written),
            Ok(None) => text,
            Err(e) => {
                log::warn!(
                    "sarek: cannot rewrite `{kernel}` for this software adapter ({e}): a loop \
                     it cuts short goes unreported"
                );
                text
            }
        }
    }
}

/// `text` with its loops instrumented ([`instrument`]), written back as WGSL; `None` when
/// there is nothing to change or it does not parse (wgpu then reports the error).
fn instrumented(text: &str, number: u32) -> std::result::Result<Option<String>, String> {
    let Ok(mut module) = naga::front::wgsl::parse_str(text) else {
        return Ok(None);
    };
    if !instrument(&mut module, number) {
        return Ok(None);
    }
    let flags = naga::valid::ValidationFlags::all();
    let info = naga::valid::Validator::new(flags, naga::valid::Capabilities::all())
        .validate(&module)
        .map_err(|e| e.into_inner().to_string())?;
    let flags = naga::back::wgsl::WriterFlags::empty();
    naga::back::wgsl::write_string(&module, &info, flags)
        .map(|written| Some(override_sized_arrays(&module, written)))
        .map_err(|e| e.to_string())
}

/// `written` (naga's WGSL of `module`) with the element type of each array sized by an
/// `override` put back: naga 30's WGSL writer prints such an array as `array<N>`, which does
/// not parse. The override's name is one Sarek gave it (`sarek_sharedK_len`, kept by naga's
/// namer), and the elements a workgroup array may hold are printed the same by naga's
/// module-level formatter.
fn override_sized_arrays(module: &naga::Module, written: String) -> String {
    use naga::common::wgsl::TypeContext as _;
    let mut text = written;
    for (_, ty) in module.types.iter() {
        if let naga::TypeInner::Array {
            base,
            size: naga::ArraySize::Pending(o),
            ..
        } = ty.inner
        {
            if let Some(name) = &module.overrides[o].name {
                let element = module.to_ctx().type_to_string(base);
                text = text.replace(
                    &format!("array<{name}>"),
                    &format!("array<{element}, {name}>"),
                );
            }
        }
    }
    text
}

impl Device {
    /// The device's loop status, made on first use, on a software adapter; `None` elsewhere.
    pub(crate) fn loop_cap(&self) -> Option<&LoopCap> {
        if !self.is_software() {
            return None;
        }
        let inner = self.inner();
        Some(
            inner
                .submitter
                .loop_cap
                .get_or_init(|| LoopCap::new(&inner.device)),
        )
    }
}

/// Gives every loop of `module` a flag set where a `break` leaves it, and after the loop a
/// store of `number` into the status word where the flag is unset; whether it has a loop.
pub(crate) fn instrument(module: &mut naga::Module, number: u32) -> bool {
    let u32_ty = module.types.insert(
        Type {
            name: None,
            inner: TypeInner::Scalar(Scalar::U32),
        },
        Span::UNDEFINED,
    );
    let bool_ty = module.types.insert(
        Type {
            name: None,
            inner: TypeInner::Scalar(Scalar::BOOL),
        },
        Span::UNDEFINED,
    );
    let status = module.global_variables.append(
        GlobalVariable {
            name: Some("sarek_loop_status".into()),
            space: AddressSpace::Storage {
                access: StorageAccess::LOAD | StorageAccess::STORE,
            },
            binding: Some(ResourceBinding {
                group: GROUP,
                binding: 0,
            }),
            ty: u32_ty,
            init: None,
            memory_decorations: naga::MemoryDecorations::empty(),
        },
        Span::UNDEFINED,
    );
    let functions = module
        .functions
        .iter_mut()
        .map(|(_, f)| f)
        .chain(module.entry_points.iter_mut().map(|e| &mut e.function));
    let mut loops = 0;
    for function in functions {
        let mut g = Guard {
            function,
            status,
            bool_ty,
            number,
            loops: 0,
        };
        let body = std::mem::take(&mut g.function.body);
        g.function.body = g.block(body, None);
        loops += g.loops;
    }
    loops > 0
}

/// One function being instrumented.
struct Guard<'a> {
    function: &'a mut naga::Function,
    status: Handle<GlobalVariable>,
    bool_ty: Handle<Type>,
    number: u32,
    loops: usize,
}

impl Guard<'_> {
    fn expr(&mut self, e: Expression) -> Handle<Expression> {
        self.function.expressions.append(e, Span::UNDEFINED)
    }

    fn set(&mut self, flag: Handle<Expression>, value: bool) -> Statement {
        let value = self.expr(Expression::Literal(Literal::Bool(value)));
        Statement::Store {
            pointer: flag,
            value,
        }
    }

    /// `block` with its loops instrumented; `flag` is the pointer to the flag of the loop a
    /// `break` here leaves (`None` inside a `switch`, whose `break` leaves the switch).
    fn block(&mut self, block: Block, flag: Option<Handle<Expression>>) -> Block {
        let mut out = Block::with_capacity(block.len());
        for (statement, span) in block.span_into_iter() {
            match statement {
                Statement::Loop {
                    body,
                    continuing,
                    break_if,
                } => self.a_loop(&mut out, span, body, continuing, break_if),
                Statement::Break => {
                    if let Some(flag) = flag {
                        out.push(self.set(flag, true), span);
                    }
                    out.push(Statement::Break, span);
                }
                Statement::If {
                    condition,
                    accept,
                    reject,
                } => {
                    let accept = self.block(accept, flag);
                    let reject = self.block(reject, flag);
                    out.push(
                        Statement::If {
                            condition,
                            accept,
                            reject,
                        },
                        span,
                    );
                }
                Statement::Block(b) => {
                    let b = self.block(b, flag);
                    out.push(Statement::Block(b), span);
                }
                Statement::Switch {
                    selector,
                    mut cases,
                } => {
                    for case in &mut cases {
                        let body = std::mem::take(&mut case.body);
                        case.body = self.block(body, None);
                    }
                    out.push(Statement::Switch { selector, cases }, span);
                }
                other => out.push(other, span),
            }
        }
        out
    }

    /// A loop, its flag cleared before it, set by each `break` (and a `break if`), and tested
    /// after it.
    fn a_loop(
        &mut self,
        out: &mut Block,
        span: Span,
        body: Block,
        continuing: Block,
        break_if: Option<Handle<Expression>>,
    ) {
        self.loops += 1;
        let local = self.function.local_variables.append(
            LocalVariable {
                name: Some(format!("sarek_left_{}", self.loops)),
                ty: self.bool_ty,
                init: None,
            },
            Span::UNDEFINED,
        );
        let flag = self.expr(Expression::LocalVariable(local));
        out.push(self.set(flag, false), span);
        let body = self.block(body, Some(flag));
        // A `break` is not allowed in `continuing` outside a loop or switch nested in it.
        let mut continuing = self.block(continuing, None);
        if let Some(condition) = break_if {
            let mut accept = Block::new();
            accept.push(self.set(flag, true), span);
            continuing.push(
                Statement::If {
                    condition,
                    accept,
                    reject: Block::new(),
                },
                span,
            );
        }
        out.push(
            Statement::Loop {
                body,
                continuing,
                break_if,
            },
            span,
        );
        let left = self.expr(Expression::Load { pointer: flag });
        out.push(
            Statement::Emit(naga::Range::new_from_bounds(left, left)),
            span,
        );
        let status = self.expr(Expression::GlobalVariable(self.status));
        let number = self.expr(Expression::Literal(Literal::U32(self.number)));
        let mut reject = Block::new();
        reject.push(
            Statement::Store {
                pointer: status,
                value: number,
            },
            span,
        );
        out.push(
            Statement::If {
                condition: left,
                accept: Block::new(),
                reject,
            },
            span,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::instrumented;

    /// Each loop gets a flag: set by the `break`s that leave it (not one that leaves a
    /// `switch`, nor an inner loop's), by a `break if`, and tested after the loop.
    #[test]
    fn breaks_that_leave_a_loop_set_its_flag() {
        let text = "
            @group(0) @binding(0) var<storage, read_write> out: array<u32>;
            @compute @workgroup_size(1)
            fn main() {
                var c = 0u;
                loop {
                    switch c {
                        case 3u: { break; }
                        default: {}
                    }
                    loop {
                        if c > 10u { break; }
                        c += 1u;
                    }
                    if c > 20u { break; }
                    continuing { c += 2u; break if c > 30u; }
                }
                out[0] = c;
            }";
        let written = instrumented(text, 7).unwrap().expect("has loops");
        let sets = |flag: &str| written.matches(&format!("{flag} = true")).count();
        // The outer loop: its `break` and its `break if`; the inner loop: its `break`.
        assert_eq!(sets("sarek_left_1_"), 2, "{written}");
        assert_eq!(sets("sarek_left_2_"), 1, "{written}");
        assert_eq!(
            written.matches("sarek_loop_status = 7u").count(),
            2,
            "{written}"
        );
        // What is written back is valid WGSL.
        naga::front::wgsl::parse_str(&written).expect("parses");
    }

    #[test]
    fn a_module_without_loops_is_left_as_it_is() {
        let text = "@compute @workgroup_size(1) fn main() { var c = 0u; c += 1u; }";
        assert_eq!(instrumented(text, 1), Ok(None));
        assert_eq!(instrumented("not wgsl", 1), Ok(None));
    }

    /// Every golden kernel with a loop is instrumented, validated and written back, and
    /// what is written back parses and validates again (`f16`, subgroups and cooperative
    /// matrices included).
    #[test]
    fn every_golden_kernel_with_loops_round_trips() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/golden/out");
        let mut looped = 0;
        for entry in std::fs::read_dir(dir).expect("the golden files") {
            let path = entry.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            let written = instrumented(&text, 1).unwrap_or_else(|e| panic!("{path:?}: {e}"));
            let Some(written) = written else {
                assert!(!text.contains("loop {"), "{path:?} has a loop");
                continue;
            };
            looped += 1;
            let module = naga::front::wgsl::parse_str(&written)
                .unwrap_or_else(|e| panic!("{path:?}: {}", e.emit_to_string(&written)));
            let flags = naga::valid::ValidationFlags::all();
            naga::valid::Validator::new(flags, naga::valid::Capabilities::all())
                .validate(&module)
                .unwrap_or_else(|e| panic!("{path:?}: {e:?}"));
        }
        assert!(looped >= 8, "{looped}");
    }
}
