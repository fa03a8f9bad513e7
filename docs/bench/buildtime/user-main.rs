//! A small user crate: five kernels, launched once each.
use sarek::prelude::*;

#[sarek::kernel]
fn saxpy(a: f32, x: &[f32], y: &mut [f32]) {
    let i = global_thread_id();
    if i < y.len() {
        y[i] = a * x[i] + y[i];
    }
}

#[sarek::kernel]
fn poly(a: f32, b: f32, c: f32, x: &[f32], y: &mut [f32]) {
    let i = global_thread_id();
    if i < y.len() {
        y[i] = (a * x[i] + b) * x[i] + c;
    }
}

#[sarek::kernel]
fn scale(s: f32, v: &mut [f32]) {
    let i = global_thread_id();
    if i < v.len() {
        v[i] *= s;
    }
}

#[sarek::kernel]
fn sum_stage(x: &[f32], partial: &mut [f32]) {
    let tile = shared::<[f32; 256]>();
    let t = thread_idx_x();
    let stride = grid_dim_x() * block_dim_x();
    let mut i = global_idx_x();
    let mut acc = 0.0f32;
    while i < x.len() {
        acc += x[i];
        i += stride;
    }
    tile[t] = acc;
    block_barrier();
    let mut s = block_dim_x() / 2;
    while s > 0 {
        if t < s {
            tile[t] += tile[t + s];
        }
        block_barrier();
        s /= 2;
    }
    if t == 0 {
        partial[block_idx_x()] = tile[0];
    }
}

#[sarek::kernel(workgroup_size = [16, 16])]
fn transpose(n: usize, a: &[f32], b: &mut [f32]) {
    let tile = shared::<[[f32; 17]; 16]>();
    let x = global_idx_x();
    let y = global_idx_y();
    if x < n && y < n {
        tile[thread_idx_y()][thread_idx_x()] = a[y * n + x];
    }
    block_barrier();
    let ox = block_idx_y() * 16 + thread_idx_x();
    let oy = block_idx_x() * 16 + thread_idx_y();
    if ox < n && oy < n {
        b[oy * n + ox] = tile[thread_idx_x()][thread_idx_y()];
    }
}

fn main() -> sarek::Result<()> {
    let dev = Device::cpu();
    let n = 1024;
    let x = dev.upload(&vec![1.0f32; n])?;
    let mut y = dev.upload(&vec![2.0f32; n])?;
    saxpy.launch(&dev, Grid::cover(n), 2.0, &x, &mut y)?;
    poly.launch(&dev, Grid::cover(n), 1.0, 2.0, 3.0, &x, &mut y)?;
    scale.launch(&dev, Grid::cover(n), 0.5, &mut y)?;
    let mut partial = dev.zeros::<f32>(4)?;
    sum_stage.launch(&dev, Grid::groups([4, 1, 1]), &y, &mut partial)?;
    let mut t = dev.zeros::<f32>(32 * 32)?;
    let a = dev.upload(&vec![1.0f32; 32 * 32])?;
    transpose.launch(&dev, Grid::cover_2d(32, 32), 32, &a, &mut t)?;
    println!("{:?}", partial.read()?);
    Ok(())
}
