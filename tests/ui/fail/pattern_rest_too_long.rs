#[sarek::module]
mod m {
    use sarek::prelude::*;

    pub enum E {
        V(i32, i32),
        W,
    }

    #[sarek::kernel]
    pub fn k(es: &[E], out: &mut [i32]) {
        let i = global_thread_id();
        if i < es.len() {
            out[i] = match es[i] {
                E::V(a, .., b, c, d) => a + b + c + d,
                E::W => 0,
            };
        }
    }
}

fn main() {}
