//! A whole kernel: its types, parameters, helper, workgroup memory and body.

use super::*;

/// A random kernel from `seed`.
pub(crate) fn kernel(seed: u64) -> Kernel {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut types = vec![TypeDef::Struct(StructDef {
        name: ["S", "Params", "vec3", "sarek_S"][rng.below(4)].into(),
        fields: vec![
            Field {
                name: FieldName::Named("a".into()),
                ty: F32,
            },
            Field {
                name: FieldName::Named("type".into()),
                ty: U32,
            },
            Field {
                name: FieldName::Named("alive".into()),
                ty: BOOL,
            },
        ],
        variants: None,
    })];
    let structure = Type::Struct(TypeId(0));
    types.push(TypeDef::Array { elem: F32, len: 4 });
    let array = Type::Array(TypeId(1));
    types.push(TypeDef::Struct(StructDef {
        name: "Shape".into(),
        fields: vec![
            Field {
                name: FieldName::Tag,
                ty: U32,
            },
            Field {
                name: FieldName::Payload {
                    variant: 0,
                    name: "0".into(),
                },
                ty: F32,
            },
            Field {
                name: FieldName::Payload {
                    variant: 1,
                    name: "s".into(),
                },
                ty: structure,
            },
        ],
        variants: Some(vec!["A".into(), "B".into()]),
    }));
    let shape = Type::Struct(TypeId(2));
    let params = vec![
        Param {
            name: "a".into(),
            ty: ParamType::Value(F32),
            span: Span(0),
        },
        Param {
            name: "out".into(),
            ty: ParamType::Slice {
                elem: F32,
                access: Access::ReadWrite,
            },
            span: Span(0),
        },
        Param {
            name: "n".into(),
            ty: ParamType::Value(U32),
            span: Span(0),
        },
        Param {
            name: "ints".into(),
            ty: ParamType::Slice {
                elem: I32,
                access: Access::Read,
            },
            span: Span(0),
        },
        Param {
            name: "counts".into(),
            ty: ParamType::Slice {
                elem: U32,
                access: Access::ReadWrite,
            },
            span: Span(0),
        },
        Param {
            name: "k".into(),
            ty: ParamType::Value(I32),
            span: Span(0),
        },
        Param {
            name: "structs".into(),
            ty: ParamType::Slice {
                elem: structure,
                access: Access::ReadWrite,
            },
            span: Span(0),
        },
        Param {
            name: "shapes".into(),
            ty: ParamType::Slice {
                elem: shape,
                access: Access::Read,
            },
            span: Span(0),
        },
        Param {
            name: "p".into(),
            ty: ParamType::Value(structure),
            span: Span(0),
        },
    ];
    let with_shared = rng.chance(40);
    let shared = with_shared.then(|| {
        vec![SharedVar {
            name: "tile".into(),
            elem: F32,
            atomic: false,
            dims: vec![64],
            sized_by: None,
            span: Span(0),
        }]
    });

    // A helper returning an f32 from an f32 and a struct, sometimes.
    let mut functions = Vec::new();
    let mut helper = None;
    if rng.chance(50) {
        let mut g = Gen {
            rng: &mut rng,
            params: params.clone(),
            types: types.clone(),
            structure,
            shape,
            array,
            depth: 0,
            loops: 0,
            in_helper: true,
            helper: None,
            shared: None,
        };
        let mut b = Body {
            locals: Arena::new(),
            exprs: Arena::new(),
            scope: Vec::new(),
            args: vec![F32, structure],
        };
        let n = 1 + g.rng.below(4);
        let mut body = g.block(&mut b, n, 0);
        let value = g.expr(&mut b, F32);
        body.push(st(Stmt::Return(Some(value))));
        let _ = &g.types;
        functions.push(Function {
            name: ["helper", "max", "sarek_main"][rng.below(3)].into(),
            args: vec![F32, structure],
            result: Some(F32),
            locals: b.locals,
            exprs: b.exprs,
            body,
            span: Span(0),
        });
        helper = Some((FunctionId(0), vec![F32, structure], F32));
    }

    let mut g = Gen {
        rng: &mut rng,
        params: params.clone(),
        types: types.clone(),
        structure,
        shape,
        array,
        depth: 0,
        loops: 0,
        in_helper: false,
        helper,
        shared: with_shared.then_some(SharedId(0)),
    };
    let mut b = Body {
        locals: Arena::new(),
        exprs: Arena::new(),
        scope: Vec::new(),
        args: Vec::new(),
    };
    let mut body = Vec::new();
    if with_shared {
        // Barriers stay in uniform control flow, ahead of any varying branch.
        let index = e(&mut b, Expr::Builtin(Builtin::ThreadIdx(Axis::X)), U32);
        let value = g.expr(&mut b, F32);
        body.push(st(Stmt::Assign {
            place: Place::Shared {
                var: SharedId(0),
                indices: vec![index],
            },
            op: None,
            value,
        }));
        body.push(st(Stmt::Barrier(Barrier::Workgroup)));
    }
    let len = 2 + g.rng.below(8);
    body.extend(g.block(&mut b, len, 0));
    if g.rng.chance(20) {
        body.push(st(Stmt::Return(None)));
    }
    Kernel {
        name: "random".into(),
        params,
        workgroup_size: [64, 1, 1],
        shared: shared.unwrap_or_default(),
        entry: Function {
            name: "random".into(),
            args: Vec::new(),
            result: None,
            locals: b.locals,
            exprs: b.exprs,
            body,
            span: Span(0),
        },
        span: Span(0),
        types,
        functions,
        limits: Limits::Portable,
        debug: Vec::new(),
    }
}
