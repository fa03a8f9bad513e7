// Generic kernels: one golden file per instance, `generics.<kernel>.<arguments>.wgsl`.

pub trait Op {
    const IDENTITY: f32;
    fn apply(a: f32, b: f32) -> f32;
}

pub struct Max;

impl Op for Max {
    const IDENTITY: f32 = f32::NEG_INFINITY;
    fn apply(a: f32, b: f32) -> f32 {
        a.max(b)
    }
}

pub fn add<T: Scalar>(a: T, b: T) -> T {
    a + b
}

#[sarek::kernel]
fn scale<T: Scalar>(a: T, x: &[T], y: &mut [T]) {
    let i = global_thread_id();
    if i < y.len() {
        y[i] = add(a * x[i], T::ZERO);
    }
}

#[sarek::kernel(workgroup_size = [B], instances(B = [64]))]
fn block_reduce<O: Op, const B: usize>(x: &[f32], out: &mut [f32]) {
    let tile = shared::<[f32; B]>();
    let t = thread_idx_x();
    let i = global_thread_id();
    tile[t] = if i < x.len() { x[i] } else { O::IDENTITY };
    block_barrier();
    let mut stride = B / 2;
    while stride > 0 {
        if t < stride {
            tile[t] = O::apply(tile[t], tile[t + stride]);
        }
        block_barrier();
        stride /= 2;
    }
    if t == 0 {
        out[block_idx_x()] = tile[0];
    }
}
