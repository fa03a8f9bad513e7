use sarek::prelude::*;

#[sarek::kernel]
fn unclosed(out: &mut [f32]) {
    gpu_println!("x = {", out[0]);
}

#[sarek::kernel]
fn hex(out: &mut [u32]) {
    gpu_println!("x = {:x}", out[0]);
}

#[sarek::kernel]
fn unused(out: &mut [f32]) {
    gpu_println!("x = {}", out[0], out[1]);
}

#[sarek::kernel]
fn missing(out: &mut [f32]) {
    gpu_println!("x = {} {}", out[0]);
}

#[sarek::kernel]
fn vector_display(v: &[Vec2], out: &mut [f32]) {
    gpu_println!("v = {}", v[0]);
    out[0] = v[0].x;
}

fn main() {}
