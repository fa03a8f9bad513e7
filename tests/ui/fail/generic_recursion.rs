#[sarek::module]
mod m {
    use sarek::prelude::*;

    // Generic recursion: WGSL has no recursion, and each instance calls itself.
    pub fn depth<T: Scalar>(x: T, n: u32) -> T {
        if n == 0 {
            x
        } else {
            depth(x, n - 1) + x
        }
    }

    #[sarek::kernel]
    pub fn k<T: Scalar>(x: &mut [T]) {
        x[0] = depth(x[0], 3);
    }
}

fn main() {}
