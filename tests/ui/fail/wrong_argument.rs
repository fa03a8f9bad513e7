use sarek::prelude::*;

#[sarek::kernel]
fn scale(a: f32, y: &mut [f32]) {
    let i = global_thread_id();
    if i < y.len() {
        y[i] *= a;
    }
}

fn main() -> sarek::Result<()> {
    let dev = Device::new()?;
    let y = dev.upload(&[1.0f32])?;
    scale.launch(&dev, Grid::cover(1), 2, &y)?;
    Ok(())
}
