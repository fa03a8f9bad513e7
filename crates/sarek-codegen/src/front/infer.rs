//! Type inference for kernel bodies, following rustc where it matters: integer literals
//! without a suffix take their type from context and default to `i32`; float literals take it
//! from context and would default to `f64`, which the GPU lacks, so an unconstrained float
//! literal is an error instead of a silent change of meaning.

use crate::ir::{Scalar, Type};

/// A type during inference.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    /// A known scalar (`usize` is `U32`).
    Known(Scalar),
    /// A struct or array (never inferred: Rust spells them out).
    Compound(Type),
    /// An inference variable.
    Var(u32),
}

impl Ty {
    /// The inference type of an IR type.
    pub fn of(ty: Type) -> Ty {
        match ty {
            Type::Scalar(s) => Ty::Known(s),
            other => Ty::Compound(other),
        }
    }
}

/// What an inference variable may still become.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VarKind {
    /// `{integer}`
    Int,
    /// `{float}`
    Float,
    /// `_`: any type at all, the type of a deferred `let x;` until its first assignment
    /// decides it (rustc types such a binding from its later uses, not from its `let`).
    Any,
}

#[derive(Default)]
pub struct Infer {
    parent: Vec<u32>,
    kind: Vec<VarKind>,
    value: Vec<Option<Ty>>,
}

impl Infer {
    pub fn fresh(&mut self, kind: VarKind) -> Ty {
        let id = self.parent.len() as u32;
        self.parent.push(id);
        self.kind.push(kind);
        self.value.push(None);
        Ty::Var(id)
    }

    fn root(&mut self, v: u32) -> u32 {
        let mut r = v;
        while self.parent[r as usize] != r {
            r = self.parent[r as usize];
        }
        self.parent[v as usize] = r;
        r
    }

    /// The type with every solved variable replaced.
    pub fn shallow(&mut self, ty: Ty) -> Ty {
        match ty {
            Ty::Var(v) => {
                let r = self.root(v);
                match self.value[r as usize] {
                    Some(t) => t,
                    None => Ty::Var(r),
                }
            }
            other => other,
        }
    }

    fn fits(kind: VarKind, s: Scalar) -> bool {
        match kind {
            VarKind::Int => s.is_integer(),
            VarKind::Float => s == Scalar::F32,
            VarKind::Any => true,
        }
    }

    /// Makes `a` and `b` the same type; on failure returns both as they stand.
    pub fn unify(&mut self, a: Ty, b: Ty) -> Result<Ty, (Ty, Ty)> {
        let (a, b) = (self.shallow(a), self.shallow(b));
        match (a, b) {
            _ if a == b => Ok(a),
            (Ty::Var(x), Ty::Var(y)) => {
                let (kx, ky) = (self.kind[x as usize], self.kind[y as usize]);
                if kx != ky && kx != VarKind::Any && ky != VarKind::Any {
                    return Err((a, b));
                }
                // The merged variable keeps the narrower kind.
                if ky == VarKind::Any {
                    self.kind[y as usize] = kx;
                }
                self.parent[x as usize] = y;
                Ok(b)
            }
            (Ty::Var(x), Ty::Known(s)) | (Ty::Known(s), Ty::Var(x)) => {
                if !Self::fits(self.kind[x as usize], s) {
                    return Err((a, b));
                }
                self.value[x as usize] = Some(Ty::Known(s));
                Ok(Ty::Known(s))
            }
            (Ty::Var(x), c @ Ty::Compound(_)) | (c @ Ty::Compound(_), Ty::Var(x))
                if self.kind[x as usize] == VarKind::Any =>
            {
                self.value[x as usize] = Some(c);
                Ok(c)
            }
            _ => Err((a, b)),
        }
    }

    /// The kind of an unsolved variable.
    pub fn kind_of(&mut self, ty: Ty) -> Option<VarKind> {
        match self.shallow(ty) {
            Ty::Var(v) => Some(self.kind[v as usize]),
            _ => None,
        }
    }

    /// The final scalar type: unsolved `{integer}` is `i32` as in Rust; unsolved `{float}` is
    /// `None` (Rust would pick `f64`).
    pub fn resolve(&mut self, ty: Ty) -> Option<Scalar> {
        match self.shallow(ty) {
            Ty::Known(s) => Some(s),
            Ty::Compound(_) => None,
            Ty::Var(v) => match self.kind[v as usize] {
                VarKind::Int => Some(Scalar::I32),
                VarKind::Float | VarKind::Any => None,
            },
        }
    }

    /// How rustc would print the type (compound types are named by the caller).
    pub fn describe(&mut self, ty: Ty) -> String {
        match self.shallow(ty) {
            Ty::Known(s) => s.rust_name().to_owned(),
            Ty::Compound(_) => "{compound}".to_owned(),
            Ty::Var(v) => match self.kind[v as usize] {
                VarKind::Int => "{integer}".to_owned(),
                VarKind::Float => "{float}".to_owned(),
                VarKind::Any => "_".to_owned(),
            },
        }
    }
}
