// A workgroup array sized at launch lives in the kernel body: a helper cannot declare one
// (it has no parameters of the kernel) nor take one (its parameter's length is fixed).
#[sarek::module]
mod m {
    use sarek::prelude::*;

    fn bump(a: &mut [f32; 4]) {
        a[0] += 1.0;
    }

    fn scratch(n: u32) -> f32 {
        let row = shared_len::<f32>(n);
        row[0]
    }

    #[sarek::kernel]
    pub fn passes_it(n: u32, out: &mut [f32]) {
        let row = shared_len::<f32>(n);
        bump(row);
        out[global_thread_id()] = row[0];
    }

    #[sarek::kernel]
    pub fn declares_it(n: u32, out: &mut [f32]) {
        out[global_thread_id()] = scratch(n);
    }
}

fn main() {}
