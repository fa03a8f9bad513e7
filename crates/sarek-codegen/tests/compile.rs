//! The back half of the pipeline on hand-built IR.

use sarek_codegen::ir::*;
use sarek_codegen::CompileError;

fn kernel(body: impl FnOnce(&mut Function) -> Block) -> Kernel {
    let mut k = Kernel {
        name: "k".into(),
        params: vec![Param {
            name: "out".into(),
            ty: ParamType::Slice {
                elem: Type::Scalar(Scalar::I32),
                access: Access::ReadWrite,
            },
            span: Span(0),
        }],
        workgroup_size: [64, 1, 1],
        shared: Vec::new(),
        entry: Function::new("k", Span(0)),
        span: Span(0),
        types: Vec::new(),
        functions: Vec::new(),
        limits: Limits::Portable,
        debug: Vec::new(),
    };
    k.entry.body = body(&mut k.entry);
    k
}

fn lit(k: &mut Function, l: Literal) -> sarek_codegen::arena::Handle<Expression> {
    k.exprs.append(Expression {
        kind: Expr::Literal(l),
        ty: Type::Scalar(l.scalar()),
        span: Span(0),
    })
}

/// WGSL that naga refuses is reported as a bug in Sarek, with naga's message and the module.
/// The front end never builds this ill-typed IR (an `f32` stored into an `i32` buffer); here it
/// stands for any back-end bug.
#[test]
fn a_naga_rejection_is_reported_as_a_sarek_bug() {
    let k = kernel(|k| {
        let value = lit(k, Literal::F32(1.5));
        let index = lit(k, Literal::U32(0));
        vec![Statement {
            kind: Stmt::Assign {
                place: Place::Index {
                    slice: ParamId(0),
                    index,
                },
                op: None,
                value,
            },
            span: Span(0),
        }]
    });
    match sarek_codegen::compile(&k) {
        Err(e @ CompileError::Naga { .. }) => {
            let text = e.to_string();
            assert!(text.contains("bug in Sarek"), "{text}");
            assert!(
                text.contains("out[0u] = 1.5f;"),
                "the WGSL is shown: {text}"
            );
        }
        other => panic!("expected a naga rejection, got {other:?}"),
    }
}

/// Integer division by a zero that WGSL would fold at shader creation stays a run-time value
/// (naga refuses a constant division by zero; at run time WGSL defines it): it goes through
/// the helper that makes the divisor safe on every backend, which is never a constant.
#[test]
fn constant_zero_divisors_are_hidden_from_constant_folding() {
    let k = kernel(|k| {
        let one = lit(k, Literal::I32(1));
        let zero = lit(k, Literal::I32(0));
        let div = k.exprs.append(Expression {
            kind: Expr::Binary {
                op: BinaryOp::Div,
                left: one,
                right: zero,
            },
            ty: Type::Scalar(Scalar::I32),
            span: Span(0),
        });
        let index = lit(k, Literal::U32(0));
        vec![Statement {
            kind: Stmt::Assign {
                place: Place::Index {
                    slice: ParamId(0),
                    index,
                },
                op: None,
                value: div,
            },
            span: Span(0),
        }]
    });
    let compiled = sarek_codegen::compile(&k).expect("valid WGSL");
    assert!(
        compiled.wgsl.contains("sarek_div_i32(1i, 0i)"),
        "{}",
        compiled.wgsl
    );
}

#[test]
fn workgroup_limits_are_checked() {
    let mut k = kernel(|_| Vec::new());
    k.workgroup_size = [16, 32, 1];
    assert!(matches!(
        sarek_codegen::compile(&k),
        Err(CompileError::Kernel(_))
    ));
    k.workgroup_size = [16, 16, 1];
    let compiled = sarek_codegen::compile(&k).unwrap();
    assert_eq!(compiled.abi.workgroup_size, [16, 16, 1]);
    // The uniform holds the grid (12 bytes) and one length, rounded up to 16 bytes.
    assert_eq!(compiled.abi.uniform.size, 16);
    assert_eq!(compiled.abi.uniform.binding, 1);
}

#[test]
fn generation_is_identical_from_many_threads() {
    let k = kernel(|k| {
        let v = lit(k, Literal::I32(i32::MIN));
        let index = lit(k, Literal::U32(3));
        vec![Statement {
            kind: Stmt::Assign {
                place: Place::Index {
                    slice: ParamId(0),
                    index,
                },
                op: None,
                value: v,
            },
            span: Span(0),
        }]
    });
    let sequential = sarek_codegen::compile(&k).unwrap().wgsl;
    assert!(sequential.contains("i32(-2147483648)"));
    let handles: Vec<_> = (0..8)
        .map(|_| {
            let k = k.clone();
            std::thread::spawn(move || sarek_codegen::compile(&k).unwrap().wgsl)
        })
        .collect();
    for h in handles {
        assert_eq!(h.join().unwrap(), sequential);
    }
}
