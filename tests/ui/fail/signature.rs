#[sarek::kernel]
async unsafe fn k<T>(out: &mut [f32]) -> f32 {
    0.0
}

fn main() {}
