// A bound that names no closed set of types.
#[sarek::kernel]
fn display<T: std::fmt::Display>(x: &mut [f32]) {
    x[0] = 1.0;
}

// A const generic whose values are not listed.
#[sarek::kernel]
fn unlisted<const B: usize>(x: &mut [f32]) {
    x[0] = B as f32;
}

// A listed value that makes the workgroup too large.
#[sarek::kernel(workgroup_size = [B], instances(B = [64, 2048]))]
fn too_wide<const B: usize>(x: &mut [f32]) {
    x[0] = B as f32;
}

// A listed value that makes an array empty.
#[sarek::kernel(instances(B = [4, 0]))]
fn empty<const B: usize>(x: &mut [f32]) {
    let t = shared::<[f32; B]>();
    x[0] = t[0];
}

// An instance that does not type-check: `%` is fine, `&` is not for `f32`.
#[sarek::kernel]
fn bitwise<T: sarek::gpu::Scalar>(x: &mut [T]) {
    x[0] = x[0] & x[1];
}

// Too many instances: 9 × 9 = 81.
#[sarek::kernel(instances(A = [1, 2, 3, 4, 5, 6, 7, 8, 9], B = [1, 2, 3, 4, 5, 6, 7, 8, 9]))]
fn product<const A: usize, const B: usize>(x: &mut [f32]) {
    x[0] = (A * B) as f32;
}

trait Op {
    fn apply(a: f32) -> f32;
}

// A trait object.
#[sarek::kernel]
fn dynamic(op: &dyn Op, x: &mut [f32]) {
    x[0] = 1.0;
}

fn main() {}
