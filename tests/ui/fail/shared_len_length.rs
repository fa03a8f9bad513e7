// The length of `shared_len` is a `u32`/`usize` parameter named directly: not an expression,
// a float, a local (mutable or not) or a constant.
#[sarek::kernel]
fn expression(n: u32, out: &mut [f32]) {
    let row = shared_len::<f32>(n * 2);
    row[0] = 1.0;
    out[0] = row[0];
}

#[sarek::kernel]
fn float(x: f32, out: &mut [f32]) {
    let row = shared_len::<f32>(x);
    out[0] = row[0];
}

#[sarek::kernel]
fn mutable_local(n: u32, out: &mut [f32]) {
    let mut m = n;
    m += 1;
    let row = shared_len::<f32>(m);
    out[0] = row[0];
}

#[sarek::kernel]
fn constant(out: &mut [f32]) {
    const N: u32 = 4;
    let row = shared_len::<f32>(N);
    out[0] = row[0];
}

#[sarek::kernel]
fn no_length(n: u32, out: &mut [f32]) {
    let row = shared_len::<f32>();
    out[0] = row[0];
}

fn main() {}
