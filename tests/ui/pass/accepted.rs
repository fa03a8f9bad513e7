//! Constructs the checker accepts, next to the refusals.
use sarek::prelude::*;

#[sarek::kernel(workgroup_size = [8, 8, 4])]
fn everything(a: f32, n: i32, m: u32, b: bool, len: usize, x: &[f32], y: &mut [f32], z: &mut [i32]) {
    let i = global_thread_id();
    let half: f32 = 0.5;
    let r = if b { half } else { a };
    let mut acc = 0i32;
    for k in 0..n {
        acc += k;
    }
    for k in 0..=m {
        acc = acc.wrapping_add(k as i32);
    }
    let mut w = 0u32;
    while w < 4 {
        w += 1;
    }
    loop {
        break;
    }
    let c = i32::MAX.min(acc) ^ (acc >> 2) | (acc << 1u32) & !acc;
    if i < y.len() && i < len {
        y[i] = x[i].sqrt().abs().mul_add(r, 1.0) + f32::powf(2.0, 3.0) + std::f32::consts::PI + (c as f32);
        z[i] = (y[i] as i32) % 7;
    }
    if i == 0 {
        return;
    }
}

fn main() {
    assert!(everything::WGSL.contains("@workgroup_size(8, 8, 4)"));
}
