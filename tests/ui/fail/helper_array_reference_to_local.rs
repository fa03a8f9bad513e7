#[sarek::module]
mod m {
    use sarek::prelude::*;

    fn bump(a: &mut [f32; 4]) {
        a[0] += 1.0;
    }

    #[sarek::kernel]
    pub fn k(out: &mut [f32]) {
        let mut a = [0.0f32; 4];
        bump(&mut a);
        out[global_thread_id()] = a[0];
    }
}

fn main() {}
