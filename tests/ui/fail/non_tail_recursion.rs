#[sarek::module]
mod m {
    use sarek::prelude::*;

    fn fact(n: u32) -> u32 {
        if n == 0 {
            1
        } else {
            n * fact(n - 1)
        }
    }

    #[sarek::kernel]
    pub fn k(out: &mut [u32]) {
        out[0] = fact(5);
    }
}

fn main() {}
