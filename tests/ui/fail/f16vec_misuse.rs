use sarek::prelude::*;

// `%` on float vectors would not be Rust's exact `fmod` per component.
#[sarek::kernel]
fn remainder(x: &[F16Vec4], y: &mut [F16Vec4]) {
    let i = global_thread_id();
    y[i] = x[i] % y[i];
}

// `F16Vec4::from` converts a `Vec4` (rounding each component), not an integer vector.
#[sarek::kernel]
fn from_integers(x: &[IVec4], y: &mut [F16Vec4]) {
    let i = global_thread_id();
    y[i] = F16Vec4::from(x[i]);
}

// The conversion keeps the number of components.
#[sarek::kernel]
fn other_length(x: &[Vec4], y: &mut [F16Vec4]) {
    let i = global_thread_id();
    y[i] = F16Vec4::from_vec2(x[i]);
}

// The host has no padded `F16Vec3`.
#[sarek::kernel]
fn three(y: &mut [f16]) {
    let v = F16Vec3::splat(f16::ONE);
    y[0] = v.x;
}

fn main() {}
