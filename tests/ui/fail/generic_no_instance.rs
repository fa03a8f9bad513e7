#[sarek::kernel(workgroup_size = [B], instances(B = [64, 256]))]
fn block_sum<const B: usize>(x: &mut [f32]) {
    let t = shared::<[f32; B]>();
    x[0] = t[0];
}

fn main() -> sarek::Result<()> {
    let dev = sarek::Device::new()?;
    let mut x = dev.zeros::<f32>(128)?;
    // 128 was not listed.
    block_sum.launch::<128>(&dev, sarek::Grid::cover(128), &mut x)?;
    Ok(())
}
