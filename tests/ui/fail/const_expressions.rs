// A `const` outside any `#[sarek::module]` is invisible to the kernel macro.
const BLOCK_SIZE: usize = 16;

#[sarek::kernel]
fn file_level(out: &mut [f32]) {
    let tile = shared::<[f32; BLOCK_SIZE + 1]>();
    tile[0] = 1.0;
    out[0] = tile[0];
}

#[sarek::kernel(workgroup_size = [WIDE, WIDE])]
fn unseen_in_attribute(out: &mut [f32]) {
    out[0] = 1.0;
}

#[sarek::module]
mod m {
    use sarek::prelude::*;

    const TILE: usize = 32;

    #[sarek::kernel(workgroup_size = [TILE, TILE])]
    pub fn too_large(out: &mut [f32]) {
        out[0] = 1.0;
    }

    #[sarek::kernel]
    pub fn evaluation(n: u32, out: &mut [u32]) {
        const BIG: u32 = u32::MAX - 1 + 2;
        const ZERO: u32 = TILE as u32 - 32;
        const RATIO: u32 = 10 / ZERO;
        const SIGNED: i32 = -2147483648;
        let local = [0u32; TILE - 32];
        out[0] = local[0] + n;
    }
}

fn main() {}
