#[sarek::module]
mod m {
    use sarek::prelude::*;

    fn is_even(n: u32) -> bool {
        if n == 0 {
            true
        } else {
            is_odd(n - 1)
        }
    }

    fn is_odd(n: u32) -> bool {
        if n == 0 {
            false
        } else {
            is_even(n - 1)
        }
    }

    #[sarek::kernel]
    pub fn k(out: &mut [u32]) {
        out[0] = is_even(7) as u32;
    }
}

fn main() {}
