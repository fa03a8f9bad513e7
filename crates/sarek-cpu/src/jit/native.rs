//! The only `unsafe` code of the CPU backend's JIT: turning the address of the machine code
//! Cranelift produced into a function and calling it.
//!
//! Everything else in [`super`] is safe Rust that *builds* code. The generated code itself
//! is memory safe by construction: every access it makes goes through an address that
//! [`super::gen`] bounds or clamps first (a buffer index past the end reads a zeroed area and
//! writes a sink area, workgroup and local array indices are clamped to the last element, as
//! WebGPU's robust access does), division by zero and `i32::MIN / -1` are guarded before the
//! instruction that would trap, and it only touches the memory [`Ctx`] points to.

use cranelift_jit::JITModule;

/// What the generated function of one workgroup reads and writes: the launch's memory and the
/// workgroup's coordinates. Field offsets are part of the generated code (`offset_of!`).
#[repr(C)]
pub(super) struct Ctx {
    /// The uniform block's words.
    pub uniform: *const u32,
    /// Per kernel parameter, the first word of its buffer (null for value parameters).
    pub buffers: *const *mut u32,
    /// Per kernel parameter, the length `len()` returns (the uniform block's field).
    pub lens: *const u32,
    /// Per kernel parameter, how many whole elements its buffer holds: indices below this
    /// are in memory (it is at most `lens`, so robust access never reads past the words).
    pub bounds: *const u32,
    /// The workgroup memory of this workgroup, zeroed before it runs.
    pub shared: *mut u32,
    /// Per invocation, the locals that live across barriers (a kernel with barriers).
    pub scratch: *mut u8,
    /// Per invocation, 1 once it has returned (a kernel with barriers), zeroed before a run.
    pub returned: *mut u8,
    /// Zeroed words: what an out-of-bounds read of a buffer element gives.
    pub zeros: *const u32,
    /// Words where an out-of-bounds write goes (never read back as data).
    pub sink: *mut u32,
    /// `block_idx`.
    pub block: [u32; 3],
    /// The number of workgroups along each axis.
    pub groups: [u32; 3],
    /// The workgroup's step limit (`u64::MAX` for none).
    pub fuel: u64,
    /// Written when the fuel runs out: the loop's span.
    pub fault_span: u32,
    /// Written when the fuel runs out: `thread_idx` of the invocation.
    pub fault_thread: [u32; 3],
    /// The workgroup's part of `global_thread_id()` (`global_base[0] + (global_base[1] +
    /// global_base[2]·height)·width`, wrapping), computed here once per workgroup: generated
    /// code computing it from `block` had it placed inside the invocation loop by Cranelift,
    /// which sinks pure arithmetic to its uses; a value loaded from the context stays put.
    pub thread_id_base: u32,
    /// `block[a] · workgroup_size[a]`, the workgroup's part of `global_idx(a)`.
    pub global_base: [u32; 3],
    /// Set to 1 by a workgroup that ran the lanes loop's fast path (`lanes.rs`, whole
    /// workgroups in bounds), zeroed before it runs: counted for tests.
    pub whole: u32,
    /// `Launch::subgroup_size` (at least 1): `subgroup_size()`, and how the collectives
    /// (`collective.rs`) group the invocations.
    pub subgroup_size: u32,
    /// Per invocation, [`super::collective::SLOT_WORDS`] words where the code before a
    /// collective puts its arguments and the code after it finds its result.
    pub collective: *mut u32,
    /// Per kernel parameter, how many words its buffer has (what a cooperative-matrix load
    /// or store may touch).
    pub buffer_words: *const u32,
    /// The workgroup's cooperative matrices ([`super::collective::Matrices`]).
    pub matrices: *mut super::collective::Matrices,
}

/// The compiled code of one kernel: the module that owns the machine code, and the entry.
pub(super) struct Native {
    /// Owns the executable memory the entry points into; never used after finalisation, and
    /// kept (not freed) for as long as the entry may be called.
    _module: std::sync::Mutex<JITModule>,
    entry: usize,
}

impl Native {
    /// Wraps finalised code: `entry` must be the address `module` gave for a function with the
    /// signature `extern "C" fn(*mut Ctx) -> u32` built by [`super::gen`].
    pub(super) fn new(module: JITModule, entry: *const u8) -> Native {
        Native {
            _module: std::sync::Mutex::new(module),
            entry: entry as usize,
        }
    }

    /// Runs one workgroup; returns 0 when it completed, 1 when it ran out of fuel.
    pub(super) fn call(&self, ctx: &mut Ctx) -> u32 {
        #[allow(unsafe_code)]
        // SAFETY: `entry` is the finalised address of a function Cranelift compiled with the
        // host's default calling convention and the signature `fn(*mut Ctx) -> u32` (see
        // `gen::compile`), and the module owning its memory lives as long as `self`. The code
        // only reads and writes through the pointers of `ctx`, within the sizes the caller
        // (`super::Compiled::run`) allocated from the same layout the code was generated with;
        // buffer words are `AtomicU32`s, which the code accesses with plain 32-bit moves
        // (what relaxed atomics compile to) or with atomic instructions.
        let f = unsafe { std::mem::transmute::<usize, extern "C" fn(*mut Ctx) -> u32>(self.entry) };
        f(ctx)
    }
}

/// Words per argument of [`math`]: the scalar type (0 `f32`, 1 `i32`, 2 `u32`, 3 `bool`, 4 `f16`
/// as its bits), the
/// width (0 for a scalar), then four components' bits.
pub(super) const MATH_ARG_WORDS: usize = 6;

/// The interpreter's own math ([`crate::interp::value::math`]) for generated code, so that
/// every math function the JIT neither inlines nor calls typed (`f32 -> f32` functions of
/// `f32` scalars call [`crate::interp::f32_math`] directly) gives the interpreter's bits
/// exactly: `f16`, vectors, integers, `powi`, the predicates and bit casts.
///
/// `fun` points to a `MathFun` that lives for the program ([`super::gen`] leaks one per
/// function), `args` to three arguments of [`MATH_ARG_WORDS`] words, `out` to four words.
pub(super) extern "C" fn math(fun: *const crate::ir::MathFun, args: *const u32, out: *mut u32) {
    use crate::interp::value::Value;
    use crate::ir::Scalar;
    #[allow(unsafe_code)]
    // SAFETY: the generated code passes a leaked `&'static MathFun`, and two stack slots of
    // `3 * MATH_ARG_WORDS` and 4 words, aligned to 4 bytes, that nothing else references.
    let (fun, args, out) = unsafe {
        (
            *fun,
            std::slice::from_raw_parts(args, 3 * MATH_ARG_WORDS),
            std::slice::from_raw_parts_mut(out, 4),
        )
    };
    let scalar = |code: u32| match code {
        0 => Scalar::F32,
        1 => Scalar::I32,
        2 => Scalar::U32,
        4 => Scalar::F16,
        _ => Scalar::Bool,
    };
    // An array, not a `Vec`: this runs once per call of a math function in generated code.
    // With it and `f32` `min`/`max` called directly, `x.min(y).max(0.0).sin()` over 2^20 floats
    // on one JIT thread went from 159 to 49 ms (release test build, one run each, 2-core
    // machine with a CI run beside it).
    let values: [Value; 3] = std::array::from_fn(|i| {
        let a = &args[i * MATH_ARG_WORDS..(i + 1) * MATH_ARG_WORDS];
        let s = scalar(a[0]);
        match a[1] {
            0 => Value::from_bits(s, a[2]),
            n => Value::Vector(s, n as u8, [a[2], a[3], a[4], a[5]]),
        }
    });
    let arity = fun.arity().min(3);
    let result = crate::interp::value::math(fun, &values[..arity]);
    match result {
        Value::Vector(_, n, bits) => {
            for (o, b) in out.iter_mut().zip(bits.iter()).take(usize::from(n)) {
                *o = *b;
            }
        }
        other => out[0] = other.bits(),
    }
}

/// `a % b` on `f32` (Rust's `fmod`), which Cranelift has no instruction for.
pub(super) extern "C" fn frem(a: f32, b: f32) -> f32 {
    a % b
}

/// Runs the collective `desc` for the workgroup of `ctx` (generated code calls it between
/// the segment that put each invocation's arguments in `ctx.collective` and the one that
/// reads the results): the views of the workgroup's memory are made here, the work is done
/// by safe code in [`super::collective`].
pub(super) extern "C" fn collective(desc: *const super::collective::Desc, ctx: *mut Ctx) {
    use std::sync::atomic::AtomicU32;
    #[allow(unsafe_code)]
    // SAFETY: `desc` points to a descriptor owned by the `Compiled` whose code calls this
    // (it lives as long as the code), and `ctx` to the worker's context, whose pointers
    // `Compiled::run` allocated with the sizes the descriptor gives: `collective` holds
    // `invocations * SLOT_WORDS` words, `returned` `invocations` bytes (a kernel with
    // collectives is split like one with barriers), `shared` `shared_words` words, and per
    // parameter `buffer_words[p]` words at `buffers[p]` (null only when 0). The generated
    // code is stopped in this call, so the worker's own areas (`collective`, `shared`,
    // `matrices`) are not touched by anything else; buffer words are `AtomicU32`s, shared
    // with other workers, and only accessed as such.
    let (desc, view) = unsafe {
        let desc = &*desc;
        let ctx = &mut *ctx;
        let n = desc.invocations as usize;
        let buffers = (0..desc.params as usize)
            .map(|p| {
                let words = *ctx.buffer_words.add(p) as usize;
                let at = *ctx.buffers.add(p);
                if at.is_null() || words == 0 {
                    &[][..]
                } else {
                    std::slice::from_raw_parts(at as *const AtomicU32, words)
                }
            })
            .collect();
        let view = super::collective::View {
            subgroup_size: ctx.subgroup_size.max(1) as usize,
            area: std::slice::from_raw_parts_mut(
                ctx.collective,
                n * super::collective::SLOT_WORDS as usize,
            ),
            returned: std::slice::from_raw_parts(ctx.returned, n),
            shared: std::slice::from_raw_parts_mut(ctx.shared, desc.shared_words as usize),
            buffers,
            lens: std::slice::from_raw_parts(ctx.lens, desc.params as usize),
            matrices: &mut *ctx.matrices,
        };
        (desc, view)
    };
    super::collective::run(desc, view);
}
